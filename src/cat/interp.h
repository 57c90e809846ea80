/*
 * interp.h — running a cat model on candidate executions.
 *
 * A model (stdlib.cat, then the bell file, then the model, with every
 * include) is loaded and parsed once (model.c), then *compiled* for a run:
 * includes are inlined (each inclusion is a fresh copy, since herd7
 * re-executes an included file every time), `if "variant"` blocks are
 * resolved, and every name is resolved to a global slot, a local frame
 * slot or a predefined name of the engine.  Running the compiled program
 * on a candidate is then a walk over a flat instruction list, where
 * `with x from S` forks the rest of the list once per element of S.
 *
 * Staging: every binding's value carries the stage it depends on — 0: the
 * event structure only (po, dependencies, fences), 1: also reads-from, 2:
 * also the final writes (FW, pco, co0), 3: also a `with` choice
 * (coherence).  A top-level binding whose value is of stage 0, 1 or 2 is
 * kept across candidates and reused while the event structure (stage 0),
 * the rf choice (stage 1) or the final writes (stage 2) stay the same, so
 * most of a model (ppo, fences, hb...) is computed once, and what depends
 * on rf only once for all the final-write choices of an rf.
 */
#ifndef CORRAL_CAT_INTERP_H
#define CORRAL_CAT_INTERP_H

#include "../rel/rel.h"
#include "ast.h"

typedef struct Value Value;
typedef struct CProg CProg;
typedef struct Run Run;

typedef enum VKind {
  V_EMPTY,   /* {} : empty, of any set type */
  V_UNIV,    /* _  : all events (as a relation: all pairs) */
  V_SET,     /* event set */
  V_REL,     /* relation */
  V_EVENT,
  V_PAIR,
  V_TAG,
  V_VSET,    /* set of values, sorted, no duplicates */
  V_TUPLE,
  V_CLOSURE,
  V_PRIM,
  /* Lazy value sets, materialised only when inspected (lazy.c):
   * V_LIN   all strict total orders of a set of events extending an order
   *         (linearisations), represented by the set and the order;
   * V_PROD  all unions o1 | ... | ok with oi taken from the i-th factor
   *         (the cross product of coherence orders per location).
   * `with x from` searches them directly instead of listing them. */
  V_LIN,
  V_PROD,
} VKind;

struct Value {
  uint8_t kind;
  int n;               /* V_VSET, V_TUPLE: element count; V_TAG: enum type */
  union {
    Word *bits;        /* V_SET: w words; V_REL: n*w words */
    int ev;            /* V_EVENT */
    struct {
      int a, b;
    } pair;            /* V_PAIR */
    int tag;           /* V_TAG: index in its enum */
    Value **elems;     /* V_VSET, V_TUPLE */
    struct Closure *clo;
    int prim;
    struct Lazy *lazy;   /* V_LIN, V_PROD */
  } u;
};

/* Stages (see above). */
enum { STAGE_ES = 0, STAGE_RF = 1, STAGE_FW = 2, STAGE_CO = 3 };

/* A relation (or set) that a `show` instruction named, in capture mode. */
typedef struct CatShown {
  const char *name;
  const Value *v;      /* NULL for `unshow name` */
} CatShown;

/* A check that failed, in explain mode. */
typedef struct CatFailure {
  const char *name;    /* `as NAME`, or NULL */
  int test;            /* T_ACYCLIC, T_IRREFLEXIVE, T_EMPTY */
  bool negated;
  SrcPos pos;
  const Value *v;      /* the checked value */
  const struct CExpr *e; /* the checked expression (run_explain) */
} CatFailure;

/* What the engine provides to a run. */
typedef struct CatHost {
  void *ctx;
  /* Value of a predefined name for the current candidate, or NULL when the
   * name is not predefined (an unbound variable).  Values must stay valid
   * for as long as their stage says (stage 0: the whole event structure). */
  Value *(*predef)(void *ctx, int name, int *stage);
  /* Events e1 and e2 carry the same value (different-values primitive). */
  bool (*same_value)(void *ctx, int e1, int e2);
  /* Event e accesses the memory location named `name`, offset 0
   * (loc2events primitive); may be NULL (no event ever does). */
  bool (*at_location)(void *ctx, int e, const char *name);
  /* One accepted execution (`count` of them: see run_set_symmetry), with
   * its flags (bit i = CProg flag i).  In
   * capture mode, `shown` lists the show/unshow instructions executed on
   * its way, in order (else it is empty). */
  void (*accept)(void *ctx, uint64_t flags, const CatShown *shown, int nshown,
                 uint64_t count);
  /* Explain mode: an execution rejected by a check (may be NULL). */
  void (*reject)(void *ctx, const CatFailure *f);
  /* Must the run stop now (-timeout, the server's deadline, another
   * worker's stop)?  Asked as the model's work goes on, inside its long
   * loops too; true abandons run_model (may be NULL). */
  bool (*stop)(void *ctx);
  /* For messages: an architecture whose tests define `name`, which the
   * current test does not (a model meant for another architecture), or
   * NULL (may be NULL). */
  const char *(*defined_by)(void *ctx, const char *name);
  /* VMSA: the page-table entry event e accesses (with `store`, that a
   * write of e stores at a page-table entry), its output address (a
   * symbol id) and flags; false if none (may be NULL: no event has one). */
  bool (*pte_value)(void *ctx, int e, bool store, int *oa, unsigned *bits);
  /* VMSA with TTHM=: the hardware management of the flags for event e,
   * PTE_HW_ bits: HA (or HD) and HD for its thread, or for no thread (an
   * initial write, a spurious update) those given for every thread (may
   * be NULL: none). */
  unsigned (*pte_hw)(void *ctx, int e);
} CatHost;
enum { PTE_HW_HA = 1, PTE_HW_HD = 2, PTE_HW_NO_THREAD = 4 };

/* Run modes (run_set_mode). */
enum {
  RUN_CAPTURE = 1,   /* evaluate show instructions, pass them to accept */
  RUN_EXPLAIN = 2,   /* report failing checks; no pruning, checks in order */
};

/* Options that change how checks are treated (herd7's -through,
 * -skipchecks, -strictskip). */
typedef enum Through { THROUGH_NONE, THROUGH_INVALID, THROUGH_ALL } Through;

typedef struct CatConfig {
  const char *const *variants;   /* set variants, lower case */
  int nvariants;
  Through through;
  const char *const *skipchecks;
  int nskipchecks;
  bool strictskip;
  bool catdep_variant;           /* -variant deps: register events visible */
  const char *prelude;           /* name of a built-in prelude (prelude.c)
                                    run before stdlib.cat, or NULL */
  bool no_natives;               /* -natives false: no function runs natively
                                    (analyse.c), every one as written */
} CatConfig;

/* Built-in preludes (prelude.c): names, texts, lookup (-1: none). */
int cat_prelude_count(void);
const char *cat_prelude_name(int i);
const char *cat_prelude_text(int i);
int cat_prelude_find(const char *name);

/* A loaded model: the parsed files. */
typedef struct CatModel {
  Arena arena;
  CatNames names;
  CatFile *stdlib, *bell, *main;
  CatFile **preludes;            /* prelude.c's, parsed, in its order */
  /* every parsed file, for includes (path -> file) */
  CatFile **files;
  int nfiles;
  const char **search;           /* include search path */
  int nsearch;
  bool confined;                 /* a pasted model: includes name files of
                                  * the search path only (no '/', no '.') */
} CatModel;

/* Load stdlib.cat (found on the search path), the optional bell file and
 * the model, parsing every included file.  On error (file not found,
 * syntax error) returns NULL with the error in err. */
CatModel *cat_load(const char *model_path, const char *bell_path,
                   const char *const *search, int nsearch, Err *err);
/* The same with the model given as text (a model pasted in corral serve):
 * `name` stands for its file in diagnostics; its includes are files of the
 * search path named without a directory (a path is not looked up). */
CatModel *cat_load_text(const char *name, const char *text, const char *bell_path,
                        const char *const *search, int nsearch, Err *err);
void cat_model_free(CatModel *m);
/* Find a file on the search path (see cat.md §8); NULL if not found.
 * The result is allocated in `a`. */
const char *cat_find_file(const char *name, const char *const *search,
                          int nsearch, Arena *a);

/* Compile a loaded model for one configuration.  Raises through err. */
CProg *cat_compile(CatModel *m, const CatConfig *cfg, Err *err);
void cat_prog_free(CProg *p);
bool cat_prog_catdep(const CProg *p);
const CatNames *cat_prog_names(const CProg *p);
/* Every tag declared by an enum of the model or bell, in order. */
void cat_prog_each_tag(const CProg *p, void (*f)(void *ctx, const char *tag), void *ctx);
int cat_prog_nflags(const CProg *p);
const char *cat_prog_flag_name(const CProg *p, int i); /* "*undef*" is 0 */
enum { FLAG_UNDEF = 0 };

/* Run state, reused across candidates of one test. */
Run *run_new(const CProg *p, CatHost host, Err *err);
void run_free(Run *r);
/* A new event structure (n events, universe u): stage-0 caches are
 * dropped.  The universe is copied. */
void run_begin_structure(Run *r, Dim d, const Word *universe);
/* A new rf choice: stage-1 and stage-2 caches are dropped. */
void run_begin_rf(Run *r);
/* A new final-write choice (and candidate): stage-2 caches are dropped. */
void run_begin_fw(Run *r);
/* Whether every rf choice has exactly one final-write choice (the test
 * observes no memory location): rf and final-write caches then live as
 * long as each other. */
void run_set_one_fw(Run *r, bool one);
/* Run the model on the current candidate; calls host.accept for every
 * accepted execution.  Raises through err on a model error. */
void run_model(Run *r);
void run_set_mode(Run *r, int mode);
/* Stack the evaluation may use (default: 3/4 of the process stack limit;
 * worker threads set their own). */
void run_set_stack_limit(Run *r, size_t bytes);
/* Symmetry (exec/symmetry.c): classes of events that an automorphism of the
 * candidate permutes freely (same structure, invisible to the model and
 * the final state).  class_of[e] is the class of event e, or -1.  The first
 * `with` that orders all of a class's events (a coherence order) then
 * visits only the orders listing the class by increasing event number,
 * and each execution found counts k! times for a class of k events. */
void run_set_symmetry(Run *r, const int *class_of, int nclasses);
bool cat_prog_uses_values(const CProg *p);
/* Relations bound to names of the model at this point (capture or explain
 * callbacks): calls fn for each global binding already evaluated whose
 * value is a relation. */
void run_foreach_relation(Run *r, void (*fn)(void *ctx, const char *name, const Value *v),
                          void *ctx);
const Word *val_bits(const Value *v, bool *is_set); /* NULL if not a set/rel */

/* Explain mode (witness.c), inside host.reject: why check f failed.  The
 * witness is a cycle of the checked relation (acyclic), a pair of it
 * (irreflexive: a self pair; empty), or an event (empty set); and each of
 * its edges derived as a path of finer edges, following the checked
 * expression and the definitions of the names it uses down to the
 * communication relations, fences and other leaves.  `via` is the
 * innermost name of the model the derivation of a step went through
 * (the step is one of its edges), or NULL.  Arrays live in `a`. */
typedef struct CatStep {
  int a, b;
  const char *via;
  bool opaque;          /* the derivation stopped at a definition it could
                           not follow (locals, let rec), not at a leaf */
} CatStep;
typedef enum CatWitnessKind { CW_NONE, CW_CYCLE, CW_PAIR, CW_EVENT } CatWitnessKind;
typedef struct CatWitness {
  CatWitnessKind kind;  /* CW_NONE: a negated check, nothing to show */
  int *node;            /* CW_CYCLE: node[0] -> ... -> node[nedges] = node[0];
                           CW_PAIR: node[0] -> node[1]; CW_EVENT: node[0] */
  int nedges;
  CatStep *fine;        /* the derivations, edge after edge */
  int nfine;
  int *start;           /* edge i is fine[start[i] .. start[i+1]-1] */
  const Word *checked;  /* the checked relation (valid during the callback) */
} CatWitness;
bool run_explain(Run *r, const CatFailure *f, CatWitness *w, Arena *a);
/* The relation bound to `name` at this point (computed if it was not
 * yet: a binding is lazy), or NULL. */
const Value *run_relation_named(Run *r, const char *name);
/* The check as text: "acyclic po-loc | rf | fr | co". */
void run_check_text(const Run *r, const CatFailure *f, StrBuf *out);
/* The named relations (evaluated bindings and predefined relations, not
 * id, loc, int, ext) that check f is built from, through the definitions
 * of the names it uses; with f NULL, those of every check. */
void run_foreach_vocabulary(Run *r, const CatFailure *f,
                            void (*fn)(void *ctx, const char *name, const Value *v,
                                       bool predef),
                            void *ctx);

/* Allocation of values for the host (predef): in the arena matching the
 * stage the host asks for. */
Arena *run_arena(Run *r, int stage);
Value *val_set(Arena *a, Dim d, const Word *bits);  /* copies */
Value *val_rel(Arena *a, Dim d, const Word *bits);  /* copies */
Value *val_empty(Arena *a);
Value *val_vset(Run *r, Value **elems, int n);      /* sorts, dedups */
Dim run_dim(const Run *r);

/* Statistics for benchmarks. */
typedef struct RunStats {
  uint64_t runs, accepted, forks, probes, cache_hits, cache_misses;
} RunStats;
RunStats run_stats(const Run *r);

#endif
