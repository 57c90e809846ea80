/*
 * es.h — building event structures from thread paths, and the relations
 * that depend only on the structure (po, dependencies, same location when
 * every address is known...).
 */
#ifndef CORRAL_ES_H
#define CORRAL_ES_H

#include "event.h"
#include "program.h"

/* Explore every thread (sem.c); raises through err. */
ThreadPaths sem_explore(Program *p, int t, Err *err, Arena *out);

/* Build the structure for one choice of path per thread (choice[t] indexes
 * paths[t]).  Memory comes from `a`. */
EventStructure *es_build(Program *p, ThreadPaths *paths, const int *choice,
                         Arena *a);

/* herd7's dependency relations (enumeration.md §7), over all events. */
typedef struct Deps {
  Word *addr, *data, *ctrl, *depend, *rmw_internal;
} Deps;
void es_deps(const EventStructure *es, Deps *out, Arena *a);

static inline bool ev_is_mem(const Event *e) { return (e->flags & EV_MEM) != 0; }
static inline bool ev_is_relevant(const Event *e) {
  return (e->flags & EV_REG) == 0;
}

#endif
