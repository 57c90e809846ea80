/*
 * engine_int.h — the engine's state, shared by engine.c (the enumeration)
 * and the files beside it: solve.c (values), condition.c, symmetry.c,
 * workers.c (work sharing, limits), stateset_sort.c (the output order),
 * predef.c (cat's predefined names), mixed.c.  Private to src/exec.
 */
#ifndef CORRAL_ENGINE_INT_H
#define CORRAL_ENGINE_INT_H

#include <time.h>

#include "engine.h"
#include "es.h"
#include "stateset.h"

enum { SCOPE_MAX = 16 }; /* scope-tree tags bound as relations */
enum { PD_ARCH_MAX = 16 };  /* relations of SemArch.rel_names */
/* cache slots: kinds, tag sets, scopes, the architecture's relations */
enum { PD_SLOTS = 64 + TAG_MAX + SCOPE_MAX + PD_ARCH_MAX };


/* What the workers of one test share: the current structure and its
 * candidate writes (built by the main thread, read-only meanwhile), the
 * queue of rf prefixes, and the stop conditions. */
typedef struct CProp CProp; /* condition.c: the condition, prepared */

typedef struct Shared {
  EventStructure *es;
  uint64_t es_index;       /* its rank among the test's structures */
  const CProp *cond, *filter;
  int **cands;
  int *ncands;
  int *read_index;
  bool static_locs;
  uint8_t *early_at;       /* per read index: its choice may decide an
                            * assumption or the filter (early.c), or NULL */
  bool timed;              /* CORRAL_STATS: each worker's busy CPU time */
  int prefix;              /* reads whose choice a work item fixes */
  long nitems;
  int stop;                /* atomic: an error or a limit (read often) */
  /* written by the workers while the fields above are read in their inner
   * loops: a cache line of their own, so that a write does not evict the
   * other workers' copy of the read-mostly fields (false sharing) */
  _Alignas(64) long next_item; /* atomic */
  uint64_t candidates;     /* atomic: for -maxcandidates */
  _Alignas(64) char line_end;
  /* -timeout: CPU time of the thread that runs the test (herd7 counts
   * CPU time; the thread's, not the process's, so that tests running in
   * parallel threads of a campaign each have their own budget). */
  clockid_t cpu_clock;
  double cpu_start;
} Shared;

typedef struct Engine {
  Shared *sh;
  Program *p;
  const Test *t;
  const CProg *prog;
  const EngineOpts *o;
  Err *err;
  Run *run;
  int *pd_of_name;         /* name id -> Pd (0 none) */
  unsigned arch_rel_values; /* bit i: SemArch relation i reads values */
  int nnames;
  /* current structure */
  EventStructure *es;
  Arena es_arena;
  bool catdep;
  Dim d;                   /* dimension of model relations */
  Dim full;
  bool static_locs;        /* every address is a constant */
  Deps deps;
  bool have_deps;
  Value **pre_es;          /* PD_SLOTS */
  Value **pre_rf;
  Value **pre_fw;
  Arena *rf_arena;
  /* current candidate */
  int *rf_src;             /* per read index: the write it reads from */
  int *read_index;         /* per event: its index in es->reads, or -1 */
  int **cands;             /* per read index: candidate writes */
  int *ncands;
  Val *vals;               /* per node */
  uint8_t *vstate;         /* 0 unknown, 1 busy, 2 done, 3 failed */
  int *fw;                 /* per symbol: final write or -1 */
  Val *state;              /* displayed locations, current candidate */
  bool cond_true;
  /* outcomes of this worker, merged at the end */
  StateSet set;
  Outcome *out;
  bool halted;             /* a limit stopped the search (choose_rf) */
  unsigned limit_tick;     /* over_limits reads the clock every 256 calls */
  /* symmetry (find_symmetry) */
  bool sym_enabled;
  bool *sym_observed;      /* per thread: a register is displayed/filtered */
  int **thread_events, *thread_nevents;
  int *sym_write, *sym_class;
  /* capture / explain: the view handed to the sink */
  Val *view_val, *view_wval, *view_loc;
  Word *view_rf;
  /* a worker thread's own error context */
  Err werr;
  bool failed;
  double busy_cpu; /* CPU seconds this worker spent on work items */
  struct Later *later; /* the caller's worker: helpers it may still post */
} Engine;

/* engine.c: the enumeration */
void choose_rf(Engine *g, int i);
/* May events a and b access the same location? */
bool may_alias(const EventStructure *es, int a, int b);
void worker_begin(Engine *g);

/* fetch_rf.c: -variant ifetch: some choice of writes for the structure's
 * instruction fetches fits its assumptions (herd's first stage). */
bool fetch_rf_satisfiable(Engine *g, Shared *sh, Arena *a);

/* solve.c: values of the current candidate */
bool eval_node(Engine *g, Sym s, Val *out);
/* After eval_node failed on some read: if every failure is a value copied
 * round a cycle through rf, as herd7's solver leaves it, set those reads
 * to their variables (VAL_VAR) and return true. */
bool solve_unsolved(Engine *g);
bool ev_loc(Engine *g, int e, Val *out);
/* x as a value of type t (its width and sign; the word size if 0). */
int64_t typed_int(const Program *p, LocType t, int64_t x);
bool global_final_value(Engine *g, int s, Val *out);
bool final_value(Engine *g, const LitLoc *l, Val *out);

/* condition.c */
CProp *cprop_build(Program *p, const Prop *pr, Arena *a);
bool cprop_eval(Engine *g, const CProp *c);
/* 1: holds, 0: fails, -1: not known on the reads chosen so far */
int cprop_partial(Engine *g, const CProp *c);
int cprop_locs(const CProp *c, const LitLoc **out);
const CProp *cprop_sub(const CProp *c, int i);

/* early.c: on the reads chosen so far (rf_src -1 beyond them), false when
 * every candidate that extends them fails a path assumption or the
 * filter; the reads whose choice may decide (or NULL: no early test) */
bool partial_rf_ok(Engine *g);
uint8_t *early_reads(const Engine *g, const Shared *sh, Arena *a);

/* symmetry.c: the symmetry classes of the current candidate, to the run */
void find_symmetry(Engine *g);

/* workers.c */
double shared_cpu_time(const Shared *sh);
bool over_limits(Engine *g);
bool limits_now(Engine *g);
bool host_stop(void *ctx);
const char *host_defined_by(void *ctx, const char *name);
void run_structure(Engine *w, int nworkers, Shared *sh, struct Pool *pool);

/* stateset_sort.c: the workers' states into the outcome, in output order */
void collect_states(Engine *w, int n, Program *p, Outcome *out, struct Pool *pool);

/* mixed.c (-variant mixed) */
bool mixed_rf_ok(const Engine *g);
/* Whether observed symbol k starts the bytes of a location whose final
 * writes are matched as herd does (herd chooses each byte of a test with
 * arrays on its own); then mixed_choose_fw enumerates those of its n
 * bytes, calling next(g, k + n) for each choice (g->fw set meanwhile). */
bool mixed_fw_here(const Program *p, int k);
void mixed_choose_fw(Engine *g, int k, void (*next)(Engine *g, int k));
void mixed_same_access(const Program *p, const EventStructure *es, Dim d, Word *bits);
void mixed_check_overlaps(Engine *g, const EventStructure *es); /* raises */
/* Without -variant mixed: herd's refusals of mixed-size accesses (raises). */
void mixed_size_checks(Engine *g, const EventStructure *es, int *const *cands,
                       const int *ncands);

/* spec.c (-variant deps): may read r take its value from write w; the
 * value of read r when it reads from no write; the values of a candidate
 * (false: discard it; raises for what herd keeps unsolved outside
 * speculated events) */
bool spec_may_read(const EventStructure *es, int r, int w);
Val spec_nowhere(const EventStructure *es, int r);
bool spec_values(Engine *g);
CR_NORETURN void spec_final(Engine *g); /* a displayed value is unknown */

/* predef.c */
void predef_setup(Engine *g, const Engine *like);
/* Drop the cached names of this stage and the later ones (STAGE_ES: a new
 * structure, STAGE_RF: a new rf choice, STAGE_FW: new final writes). */
void predef_reset(Engine *g, int stage);
Value *host_predef(void *ctx, int name, int *stage);
bool host_same_value(void *ctx, int e1, int e2);
bool host_pte_value(void *ctx, int e, bool store, int *oa, unsigned *bits);
unsigned host_pte_hw(void *ctx, int e);
bool host_at_location(void *ctx, int e, const char *name);

#endif
