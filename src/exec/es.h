/*
 * es.h — building event structures from thread paths, and the relations
 * that depend only on the structure (po, dependencies, same location when
 * every address is known...).
 */
#ifndef CORRAL_ES_H
#define CORRAL_ES_H

#include "event.h"
#include "program.h"

/* The most events one structure may have.  Every relation is a bit matrix
 * of n rows of ceil(n/64) words, and a model evaluation holds hundreds of
 * them: at 4096 events one relation is 2 MiB, a model run some hundreds
 * of MiB.  Beyond it a test is refused with a message, not attempted. */
enum { ES_MAX_EVENTS = 4096 };
/* The most control-flow paths of one thread, and the memory all threads'
 * paths may take: exponentially many paths (a branch on a read value per
 * loop iteration) are refused rather than exhausting memory. */
enum { SEM_MAX_PATHS = 1 << 14 };
#define SEM_MAX_PATH_BYTES ((size_t)256 << 20)

/* Asked while a thread's paths are explored: must the run stop now
 * (-timeout, the server's deadline)?  Then the thread has no path. */
typedef struct SemStop {
  bool (*now)(void *ctx);
  void *ctx;
} SemStop;

/* Explore every thread (sem.c); raises through err. */
ThreadPaths sem_explore(Program *p, int t, Err *err, Arena *out, SemStop stop);

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
  return (e->flags & EV_IRRELEVANT) == 0;
}

#endif
