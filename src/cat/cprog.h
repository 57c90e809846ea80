/*
 * cprog.h — the compiled form of a model, private to src/cat.
 *
 * Compiled expressions mirror the AST, with every variable resolved:
 *   CV_GLOBAL   a top-level binding (a slot of Run.g; rebinding a name
 *               creates a new slot, so references made before the
 *               rebinding keep the old value, as static scoping requires)
 *   CV_LOCAL    a slot of a function frame, `depth` frames up
 *   CV_PREDEF   a name the engine provides (po, rf, R, ...)
 * A function frame holds all the locals of one function body (parameters,
 * let-in names, set-match names) at slots fixed at compile time.
 */
#ifndef CORRAL_CAT_CPROG_H
#define CORRAL_CAT_CPROG_H

#include "interp.h"

typedef struct CExpr CExpr;
typedef struct CIns CIns;
typedef struct CFun CFun;

enum {
  CV_GLOBAL = 100, /* beyond ExprKind values */
  CV_LOCAL,
  CV_PREDEF,
  CV_TAGERR,       /* a tag that no enum declares */
  CV_PRIM,         /* a primitive (domain, range...): slot = its id */
  CV_PROJ,         /* component `slot` of the tuple `a` (tuple patterns) */
};

/* A pattern compiled to frame slots (-1 discards). */
typedef struct CPat {
  bool is_tuple;
  int slot;
  int *slots;
  int n;
} CPat;

typedef struct CBind {
  CPat pat;
  CExpr *e;
  bool is_fun;        /* right-hand side is a fun (let rec: mutual recursion) */
} CBind;

/* Functions the interpreter runs natively when it recognises them (their
 * compiled form has a known fingerprint, analyse.c). */
enum { NATIVE_NONE, NATIVE_CROSS, NATIVE_CO_LOCS };

struct CFun {
  CPat param;
  int nlocals;
  CExpr *body;
  int name;           /* for messages, or -1 */
  int native;         /* NATIVE_* */
};

typedef struct CCond {
  CondKind kind;
  CExpr *a, *b;
  bool variant_value; /* C_VARIANT, resolved at compile time */
} CCond;

typedef struct CTagClause {
  int tag;            /* index in the enum, -1 when undefined */
  CExpr *e;
} CTagClause;

struct CExpr {
  int kind;           /* ExprKind or CV_* */
  SrcPos pos;
  int name;           /* variables and tags: the name (for messages) */
  int slot, depth;    /* CV_GLOBAL: slot; CV_LOCAL: slot, frames up */
  int tag_type, tag;  /* E_TAG */
  CExpr **args;
  int nargs;
  CExpr *a, *b;
  CFun *fun;          /* E_FUN */
  CBind *binds;       /* E_LET, E_LETREC */
  int nbinds;
  CCond *cond;        /* E_IF */
  CTagClause *clauses;/* E_MATCH_TAG */
  int nclauses;
  CExpr *dflt;
  CExpr *e_empty, *e_cons;   /* E_MATCH_SET */
  int elt, rest, before;     /* frame slots, -1 if discarded */
  /* analyse.c: */
  uint8_t indep;      /* does not depend on any `with` variable */
  int cache;          /* slot of Run.ecache for closed nodes, or -1 */
};

typedef enum CInsKind {
  CI_LET,        /* global or local let: binds; is_local says which */
  CI_LETREC,
  CI_CHECK,
  CI_WITH,
  CI_CALL,
  CI_FORALL,
  CI_MATCH,      /* instruction-level tag match */
  CI_ENUM,       /* binds the enum's set of tags (slot) */
  CI_DEBUG,
  CI_SHOW,       /* show / unshow: relations drawn in pictures */
} CInsKind;

typedef struct CInsList {
  CIns **v;
  int n;
} CInsList;

/* A guard: node (an E_SEQ, E_INTER, E_PROD or E_DIFF) is empty whenever
 * one of its operands marked in `ops` (bit i: operand i; for binary nodes
 * 0 is a, 1 is b) is empty.  Those operands are closed expressions of
 * relational operators over names bound before the choice. */
typedef struct CGuard {
  const CExpr *node;
  uint32_t ops;
} CGuard;

typedef struct CProc {
  CPat param;
  int nlocals;
  CInsList body;
  int name;
  bool annotated;     /* analyse.c has been through body (a rec procedure
                       * calls itself: its body is annotated once) */
} CProc;

typedef struct CMatchClause {
  int tag;             /* -1: default */
  CInsList body;
} CMatchClause;

struct CIns {
  CInsKind kind;
  SrcPos pos;
  /* CI_LET / CI_LETREC */
  bool is_local;       /* binds frame slots (inside procedures/forall) */
  int *slots;          /* slots bound, in pattern order (global slots, or
                          frame slots when is_local); -1 for "_" */
  CExpr **slot_exprs;  /* what each slot is bound to (right-hand side, or
                          a projection of a hidden tuple slot) */
  int *slot_nlocals;   /* frame size each global thunk needs */
  int nslots;
  CBind *binds;
  int nbinds;
  int nlocals;         /* locals needed by the right-hand sides */
  Check *when;         /* let rec ... when (uncompiled info) */
  CExpr *when_e;
  /* CI_CHECK */
  CheckMode mode;
  CheckTest test;
  bool negated;
  int check_name;      /* -1 */
  bool skipped;        /* named in -skipchecks */
  int flag;            /* CM_FLAG: flag index, -1 when unnamed */
  CExpr *e;            /* check, with, forall, match, debug expression */
  /* CI_WITH / CI_FORALL */
  int slot;            /* with: global slot (or local slot if is_local);
                          forall: frame slot of the variable */
  int depth;           /* fork depth of a CI_WITH (1, 2, ...) */
  /* CI_CALL */
  CProc *proc;
  bool call_skipped;
  /* CI_FORALL body, CI_MATCH clauses */
  CInsList body;
  int forall_nlocals;
  CMatchClause *clauses;
  int nclauses;
  int enum_type;       /* CI_ENUM */
  /* Pruning (analyse.c): a CI_WITH lists the later checks that a partial
   * choice can already falsify; such a check names its CI_WITH. */
  int *prune;          /* CI_WITH: indices in the top-level list */
  int nprune;
  int prune_with;      /* CI_CHECK: index of its CI_WITH, or -1 */
  /* Conditional pruning (analyse.c): a check may be prunable only when
   * some operands, fixed before the choice, are empty (lock.cat's
   * `[IW | UL] ; singlestep(co) ; lk-rmw^-1` with no lock in the test).
   * A CI_WITH lists those guards; a check's guard_mask says which it
   * needs (bit k: guards[k]); search.c evaluates them per search. */
  struct CGuard *guards;
  int nguards;
  uint64_t guard_mask;
  /* Top-level let rec of relations built by relational operators only
   * (analyse.c): the names it reads from outside the group, one node each,
   * so that its fixpoint can be reused when they have not changed;
   * nmemo_in = -1 when the group is not of that form. */
  const CExpr **memo_in;
  int nmemo_in;
  /* Top-level `let rec x = a1 | ... | ak | x; x` with no ai mentioning x
   * (analyse.c): its least fixpoint is (a1 | ... | ak)+. */
  bool plus_form;
  /* CI_CHECK at top level: its slot of Run.check_cache (analyse.c), or -1 */
  int check_slot;
  /* CI_SHOW: names (interned) with the expressions shown under them */
  int *show_names;
  CExpr **show_exprs;
  int nshow;
  bool unshow;
};

typedef struct EnumType {
  int name;            /* the type name */
  int *tags;           /* tag names */
  int ntags;
} EnumType;

struct CProg {
  Arena arena;
  CatModel *model;
  CatNames *names;
  bool catdep;
  CInsList top;        /* flat top-level instruction list */
  int nglobals;
  int *global_name;    /* slot -> name, for messages */
  int *global_depth;   /* slot -> fork depth at its definition */
  int *global_nlocals; /* slot -> locals its thunk needs */
  CExpr **global_expr; /* slot -> right-hand side (NULL for with/enum) */
  uint8_t *global_kind;/* slot -> GK_* */
  const CIns **global_letrec; /* slot -> its top-level let rec, or NULL */
  int maxdepth;        /* number of nested with forks */
  int ncache;          /* expression cache slots (analyse.c) */
  int ncheck_slots;    /* top-level checks (analyse.c) */
  bool uses_values;    /* the model reads event values (different-values) */
  Through through;
  EnumType *enums;
  int nenums;
  const char **flag_names;
  int nflags;
  /* bell information for C tests: instructions K[...] declarations */
  int nannot_types;
  int *annot_kinds;    /* name of K (R, W, F, RMW, SRCU...) */
  int *annot_enums;    /* enum type index */
};

enum { GK_THUNK, GK_WITH, GK_ENUM, GK_LETREC };

/* analyse.c: run after compilation (natives: recognise the functions run
 * natively). */
void cat_analyse(CProg *p, bool natives);

/* Frames and slots at run time. */
enum { SLOT_EMPTY, SLOT_THUNK, SLOT_BUSY, SLOT_VALUE };

typedef struct Slot {
  uint8_t state;
  uint8_t stage;
  Value *v;
  const CExpr *e;      /* thunk */
} Slot;

typedef struct Frame {
  struct Frame *up;
  int level;           /* allocation level of the frame */
  int n;
  Slot s[];
} Frame;

typedef struct Closure {
  const CFun *fn;
  Frame *env;
} Closure;

typedef struct GSlot {   /* (pointers first: 32 bytes, not 40) */
  Value *v;
  /* cache across candidates */
  Value *cached;
  uint64_t cached_gen;
  uint8_t state;
  uint8_t stage;
  uint8_t cached_stage;
} GSlot;

/* A cached value of a closed expression (one that mentions no local). */
typedef struct ECache {
  Value *v;
  uint8_t stage;
  uint64_t gen;
} ECache;

/* Bindings being forced, so that `try` can undo them after an error. */
typedef struct Busy {
  GSlot *g;
  Slot *s;
} Busy;
typedef VEC(Busy) BusyVec;

enum { MAX_LEVELS = 16 };

struct Run {
  const CProg *prog;
  CatHost host;
  Err *err;
  Dim d;
  Word *univ;
  Value *univ_set;     /* V_SET of the universe */
  GSlot *g;
  Arena levels[MAX_LEVELS]; /* 0: candidate; k: inside the k-th fork */
  int level;           /* current allocation level */
  Arena es_cache, rf_cache, fw_cache;
  uint64_t gen_es, gen_rf, gen_fw, gen_counter;
  uint64_t gen_co;     /* a new element bound to a with variable: what a
                          closed node of stage 3 computed is stale */
  bool one_fw;         /* one final-write choice per rf choice */
  int wm;              /* stage watermark of the current evaluation */
  int *scratch;        /* 3n ints for cycle search */
  int scratch_n;
  int call_depth;
  int quiet;           /* inside try, show or explain: an error's message is
                          dropped, so none is worth a costly hint */
  char *stack_base;    /* a stack address at the start of run_model */
  unsigned poll_work;  /* work done since the host's stop test (run_poll) */
  jmp_buf *stop_jb;    /* run_model's, while it runs: where a stop goes */
  ErrJmp *stop_top;    /* the error handler then (try's are dropped) */
  size_t stack_limit;  /* bytes of stack evaluation may use below it */
  int skip_with;       /* checks pruned by this CI_WITH already passed */
  uint8_t *prune_off;  /* per check slot: a prunable check whose guards do
                          not hold in the current search (search.c) */
  int mode;            /* RUN_* flags (interp.h) */
  /* Bindings visible to callbacks: a global slot is bound by top-level
   * instruction slot_top[s]; the one running is cur_top.  Slots bound
   * later still hold a previous candidate's value, maybe freed. */
  int *slot_top;
  int cur_top;
  const int *sym_class;/* run_set_symmetry */
  int nsym;
  uint64_t sym_used;   /* classes already applied on this path (bits) */
  uint64_t mult;       /* executions each accepted one stands for */
  CatShown *shown;     /* capture: what the executed show instructions showed */
  int nshown, capshown;
  struct ECache *ecache; /* per cacheable expression (prog->ncache) */
  /* classes-loc of the last set asked, while loc is the structure's */
  Word *part_arg;
  Value *part_val;
  uint64_t part_gen;
  void *lin_memo;      /* prims.c: linearisations per first event */
  struct LetrecMemo *lmemo; /* run.c: per top-level instruction */
  struct CheckCache *check_cache; /* run.c: per top-level check */
  uint64_t lin_memo_gen;
  BusyVec busy;
  RunStats stats;
};

/* A lazy value set (see lazy.c). */
typedef struct Lazy {
  Word *set, *order;   /* V_LIN: the events, the closed order to extend
                          (lin_row: one row per event of the set) */
  int count;           /* V_LIN: number of events */
  int8_t total;        /* V_LIN: the order is total? 0 not known, 1 no, 2 yes */
  Value **factors;     /* V_PROD */
  int nfactors;
} Lazy;

/* A V_LIN's order keeps the rows of its own events only, in event order:
 * count rows of d.w words, not d.n (a test of 1,000 locations and 3,000
 * events held 1,000 orders of 1.1 MB each).  lin_row(d, order, set, e)
 * is the row of e, an event of set. */
static inline size_t lin_words(Dim d, int count) { return (size_t)count * (size_t)d.w; }
static inline size_t lin_rank(const Word *set, int e) {
  size_t k = 0;
  for (int x = 0; x < (e >> 6); x++) k += (size_t)word_count(set[x]);
  Word below = (e & 63) ? set[e >> 6] & (((Word)1 << (e & 63)) - 1) : 0;
  return k + (size_t)word_count(below);
}
static inline Word *lin_row(Dim d, Word *order, const Word *set, int e) {
  return order + lin_rank(set, e) * (size_t)d.w;
}
static inline const Word *lin_crow(Dim d, const Word *order, const Word *set, int e) {
  return order + lin_rank(set, e) * (size_t)d.w;
}
static inline bool lin_get(Dim d, const Word *order, const Word *set, int a, int b) {
  return bit_get(lin_crow(d, order, set, a), b);
}

/* lazy.c */
Value *lazy_lin(Run *r, const Word *s, const Word *order);
Value *lazy_prod(Run *r, Value **factors, int n);
Value *lazy_force(Run *r, Value *v);   /* v itself when not lazy */
bool lazy_is_empty(const Value *v);
int lazy_compare(Run *r, const Value *a, const Value *b);
static inline bool is_lazy(const Value *v) {
  return v->kind == V_LIN || v->kind == V_PROD;
}

/* eval.c */
Value *cat_eval(Run *r, const CExpr *e, Frame *f);
/* After an error: the bindings being forced since busy.len was saved_busy
 * become thunks again (try, show, explain). */
void run_undo_busy(Run *r, int saved_busy);
CR_NORETURN void cat_error(Run *r, SrcPos pos, const char *fmt, ...)
    CR_PRINTF(3, 4);
Arena *run_cur(Run *r);
Value *val_new(Run *r, int kind);
Value *val_new_set(Run *r);   /* empty event set in the current arena */
Value *val_new_rel(Run *r);   /* empty relation */
Frame *frame_new(Run *r, int n, Frame *up);
/* An error at pos when evaluation has used the stack it may use (every
 * recursion of the interpreter passes here: calls, forcing bindings). */
void stack_guard(Run *r, SrcPos pos);
/* Count `work` units (about an evaluated node each); every POLL_WORK of
 * them, ask the host whether the run must stop, and abandon run_model if
 * so.  Every loop whose length depends on the input calls it. */
enum { POLL_WORK = 2048 };
void run_poll_now(Run *r);
static inline void run_poll(Run *r, unsigned work) {
  if ((r->poll_work += work) >= POLL_WORK) run_poll_now(r);
}
/* Does a let rec iteration stop, the value old becoming nw? */
bool fix_stable(Run *r, Value *old, Value *nw, SrcPos pos);
Value *as_rel(Run *r, Value *v, SrcPos pos);  /* coerce to V_REL */
Value *as_set(Run *r, Value *v, SrcPos pos);  /* coerce to V_SET */
int val_compare(Run *r, const Value *a, const Value *b);
Value *val_copy_deep(Run *r, Arena *a, const Value *v);
Value *val_cache_copy(Run *r, int stage, int level, Value *v); /* what a cache keeps */
uint64_t run_stage_gen(const Run *r, int stage); /* generation of a stage's cache */
bool val_has_closure(const Value *v);
Value *predef_lookup(Run *r, int name, SrcPos pos, bool *found);
void bind_pat(Run *r, Frame *f, const CPat *p, Value *v, SrcPos pos);
/* run.c */
void run_top(Run *r, int i, uint64_t flags);
bool run_probe(Run *r, int from, int with_index);
void run_bind_global(Run *r, int slot, Value *v, int stage);
void run_with_plain(Run *r, int i, Value *set, uint64_t flags);
void run_letrec_force(Run *r, const CIns *ci);
bool run_slot_visible(const Run *r, int slot);

/* Is e a closed expression of relational operators (union, sequence,
 * intersection, difference, product, closures, inverse, bracket) over
 * constants, predefined names and globals each of which global_ok accepts
 * (compile.c)?  What the conditional pruning of a with can evaluate when
 * the search starts: analyse.c decides its guards with it, search.c
 * checks at run time that their globals are bound. */
bool cexpr_closed_over(const CExpr *e, bool (*global_ok)(const void *ctx, int slot),
                       const void *ctx);
/* search.c */
void run_with(Run *r, int i, Value *set, uint64_t flags);
/* prims.c */
int prim_lookup(const char *name);  /* -1 if none */
/* prim_lookup for every name of `in`: t[id] is the primitive or -1
 * (count + 1 entries; free it). */
int8_t *prim_table(const Interner *in);
bool prim_is_different_values(int prim);
Value *prim_apply(Run *r, int prim, Value *arg, SrcPos pos);
Value *prim_linearisations(Run *r, Value *sv, Value *rv, SrcPos pos);
/* orders.c: GPU coherence and SC-fence orders */
Value *prim_partial_cos(Run *r, Value *arg, SrcPos pos);
Value *prim_total_cos(Run *r, Value *arg, SrcPos pos);
Value *prim_orders_within(Run *r, Value *arg, SrcPos pos);
const char *prim_name(int prim);

#endif
