/*
 * engine.h — simulate one test under one compiled model.
 *
 * For every combination of thread paths, every reads-from choice and every
 * choice of final writes that is consistent (values solved, branch
 * conditions and store-conditional addresses satisfied), the engine binds
 * the predefined names of cat and runs the model; each execution the model
 * accepts is counted (Positive/Negative) and its final state recorded.
 */
#ifndef CORRAL_ENGINE_H
#define CORRAL_ENGINE_H

#include "../cat/interp.h"
#include "program.h"
#include "event.h"

typedef enum SpeedCheck { SPEED_FALSE, SPEED_TRUE, SPEED_FAST } SpeedCheck;

/* One execution as pictures and explanations need it (capture and
 * explain modes).  Everything is valid only during the callback. */
typedef struct ExecView {
  const struct Program *p;
  const EventStructure *es;
  Dim d;                    /* relations are over events 0..d.n-1 */
  const Val *val;           /* per event: value read (R) or written (W) */
  const Val *wval;          /* per event: value written by an RMW event */
  const Val *loc;           /* per event: its location (VAL_ADDR) */
  const Word *rf;           /* reads-from, over d */
  const Val *state;         /* per displayed location */
  bool cond_true;
  uint64_t flags;
  const CatShown *shown;    /* capture: show / unshow, in order */
  int nshown;
  const CatFailure *failure;/* explain: the check that rejected it */
  Run *run;                 /* run_foreach_relation(): the model's names */
} ExecView;

typedef void (*ExecSink)(void *ctx, const ExecView *v);

/* A helper that runs a search needs as much stack as a main thread,
 * whatever the default of new threads. */
enum { ENGINE_STACK = 16 << 20 };

typedef struct EngineOpts {
  SpeedCheck speedcheck;
  bool checkfilter;          /* honour the test's filter (default true) */
  uint64_t max_candidates;   /* 0: no bound */
  bool has_max_phantom;      /* -maxphantom: structures with more than
                                max_phantom spurious updates (TTHM=, their
                                reads) are dropped */
  long max_phantom;
  double timeout;            /* seconds of CPU, 0: none */
  /* Embedders' bounds (corral serve), checked with the others: a
   * CLOCK_MONOTONIC time after which the run stops (0: none), and a flag
   * another thread may set to stop it (NULL: none). */
  double deadline;
  const int *cancel;
  /* The run's helpers (util/pool.h), with stacks of ENGINE_STACK, shared
   * with the stages after the search: the search runs on them and the
   * calling thread (NULL: on the calling thread alone). */
  struct Pool *pool;
  /* Capture (RUN_CAPTURE: accepted executions with what the model shows)
   * or explain (RUN_EXPLAIN: also the rejected ones, with the failing
   * check): exec_sink sees each; the search then runs on one thread. */
  int run_mode;
  ExecSink exec_sink;
  void *sink_ctx;
} EngineOpts;

typedef struct Outcome {
  int ndisp;
  struct StateSet *sets;     /* the distinct states (packed), per worker */
  int nsets;
  int *order_set, *order_slot; /* the states in the order herd prints them:
                                  a set and a slot in it */
  int nstates;
  uint64_t pos, neg;         /* executions where the condition holds / not */
  uint64_t flags;            /* flags raised by some accepted execution */
  bool loop;                 /* some path was cut off by the unrolling bound */
  const char *loop_label;    /* where: the label of the last structure (in
                                enumeration order) whose cut candidate
                                reached the model, for the warning */
  uint64_t loop_es;          /* that structure's rank */
  uint64_t candidates;       /* candidates given to the model */
  uint64_t handler_faults;   /* executions the model allowed, left out: a
                                fault inside a fault handler */
  uint64_t structures;
  bool limit_hit;            /* stopped by max_candidates, timeout, deadline, cancel */
  /* a candidate took a path marked EV_REFUSE (sem_refuse): the run
   * stopped; where (the instruction) */
  bool refused;
  int refused_thread, refused_code, refused_why;
} Outcome;

/* Run; raises through err (model errors, unsolvable locations...).  The
 * outcome's arrays live in `out_arena`. */
void engine_run(Program *p, const CProg *prog, const EngineOpts *o,
                Outcome *out, Arena *out_arena, Err *err);

/* State i (in output order) into v (ndisp values). */
void outcome_state(const Outcome *o, int i, Val *v);
/* Free what engine_run allocated in the outcome. */
void outcome_free(Outcome *o);

/* Compare two values in herd's state order (signed integers first, then
 * addresses by symbol name, then labels). */
int engine_val_cmp(const Program *p, Val a, Val b);

/* Evaluate the test's condition or filter on a final state. */
bool engine_prop(const Program *p, const Prop *pr, const Val *state);

#endif
