/*
 * analyse.c — static facts about a compiled model that make it faster to
 * run without changing what it computes.
 *
 * 1. Monotone checks.  A check `acyclic e`, `irreflexive e` or `empty e`
 *    whose expression grows with the variable x of an earlier `with x from
 *    S` (built from x with union, intersection, composition, closures,
 *    inverse, products, and difference or complement only of expressions
 *    that do not mention x) fails for every x containing a relation for
 *    which it fails.  The search over S (search.c) evaluates such checks on
 *    partial choices and abandons a branch as soon as one fails.  An
 *    execution rejected by any plain check contributes nothing to the
 *    output, so the order of checks does not matter.
 *
 * 2. Known functions.  Cross products of coherence orders are written in
 *    cat (herd7's cross.cat, corral-orders.cat); a function bound under
 *    one of their names in a file of that name, whose compiled form has
 *    the expected fingerprint, is marked so that the interpreter builds
 *    the lazy product instead of listing it (unless -natives false).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cprog.h"

/* ---------------------------------------------------------- fingerprints */

static uint64_t mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdULL;
}

static uint64_t mix_str(uint64_t h, const char *s) {
  return mix(h, hash_bytes(s, strlen(s)));
}

static uint64_t fp_expr(const CProg *p, const CExpr *e);

static uint64_t fp_pat(uint64_t h, const CPat *c) {
  h = mix(h, (uint64_t)c->is_tuple);
  h = mix(h, (uint64_t)(c->slot + 2));
  for (int i = 0; i < c->n; i++) h = mix(h, (uint64_t)(c->slots[i] + 2));
  return h;
}

static uint64_t fp_fun(const CProg *p, const CFun *f) {
  uint64_t h = fp_pat(0x51, &f->param);
  h = mix(h, (uint64_t)f->nlocals);
  return mix(h, fp_expr(p, f->body));
}

static uint64_t fp_expr(const CProg *p, const CExpr *e) {
  if (!e) return 0x77;
  const char *name = e->name >= 0 ? intern_name(&p->names->in, e->name) : "";
  uint64_t h = mix(0x1234, (uint64_t)e->kind);
  switch (e->kind) {
  case CV_LOCAL:
    return mix(mix(h, (uint64_t)e->depth), (uint64_t)e->slot);
  case CV_GLOBAL:
  case CV_PREDEF:
  case CV_TAGERR:
  case E_TAG:
    return mix_str(h, name);
  case CV_PRIM:
    return mix(h, (uint64_t)e->slot);
  case E_FUN:
    return mix(h, fp_fun(p, e->fun));
  case E_LET:
  case E_LETREC:
    for (int i = 0; i < e->nbinds; i++) {
      h = fp_pat(h, &e->binds[i].pat);
      h = mix(h, fp_expr(p, e->binds[i].e));
    }
    return mix(h, fp_expr(p, e->a));
  case E_IF:
    h = mix(h, (uint64_t)e->cond->kind);
    if (e->cond->kind == C_VARIANT)
      h = mix(h, (uint64_t)e->cond->variant_value);
    else
      h = mix(mix(h, fp_expr(p, e->cond->a)), fp_expr(p, e->cond->b));
    return mix(mix(h, fp_expr(p, e->a)), fp_expr(p, e->b));
  case E_MATCH_TAG:
    h = mix(h, fp_expr(p, e->a));
    for (int i = 0; i < e->nclauses; i++)
      h = mix(mix(h, (uint64_t)(e->clauses[i].tag + 2)), fp_expr(p, e->clauses[i].e));
    return mix(h, fp_expr(p, e->dflt));
  case E_MATCH_SET:
    h = mix(h, fp_expr(p, e->a));
    h = mix(h, (uint64_t)(e->elt + 2) * 131 + (uint64_t)(e->rest + 2) * 7 + (uint64_t)(e->before + 2));
    return mix(mix(h, fp_expr(p, e->e_empty)), fp_expr(p, e->e_cons));
  default:
    for (int i = 0; i < e->nargs; i++) h = mix(h, fp_expr(p, e->args[i]));
    h = mix(h, fp_expr(p, e->a));
    return mix(h, fp_expr(p, e->b));
  }
}

/* The functions we run natively: the cross products of coherence orders
 * (`cross` in herd7's cross.cat, `pick-one-each` in corral-orders.cat),
 * and co_locs of cross.cat, (pco, wss) -> the set of linearisations(ws,
 * pco) for ws in wss.  A function is one of them when it is bound under
 * that name in a file of that name (any directory), and its compiled
 * form has that fingerprint: a changed definition runs as written.
 * (CORRAL_FINGERPRINTS=1 prints every function's file, name and
 * fingerprint, and whether it runs natively; -natives false runs them
 * all as written.) */
static const struct {
  const char *file;   /* the defining file's name, without directory */
  const char *name;   /* the binding */
  uint64_t fp;
  int native;
} known_functions[] = {
    {"cross.cat", "cross", 0xa8f570e258b37a7aULL, NATIVE_CROSS},
    {"corral-orders.cat", "pick-one-each", 0x0a451475bbe2006eULL, NATIVE_CROSS},
    {"cross.cat", "co_locs", 0xee4e692fa73381afULL, NATIVE_CO_LOCS},
};

/* The function a binding's expression evaluates to: the fun at the end of
 * its let / let rec chain. */
static CFun *value_fun(CExpr *e) {
  while (e && (e->kind == E_LET || e->kind == E_LETREC)) e = e->a;
  return e && e->kind == E_FUN ? e->fun : NULL;
}

static const char *base_name(const char *path) {
  const char *slash = path ? strrchr(path, '/') : NULL;
  return slash ? slash + 1 : path ? path : "";
}

static void recognise_functions(CProg *p) {
  bool show = getenv("CORRAL_FINGERPRINTS") != NULL;
  for (int s = 0; s < p->nglobals; s++) {
    CExpr *e = p->global_expr[s];
    CFun *f = value_fun(e);
    if (!f || p->global_name[s] < 0) continue;
    const char *name = intern_name(&p->names->in, p->global_name[s]);
    const char *file = base_name(e->pos.file);
    int k = 0, nk = (int)ARRAY_LEN(known_functions);
    while (k < nk && (strcmp(known_functions[k].name, name) != 0 ||
                      strcmp(known_functions[k].file, file) != 0))
      k++;
    if (k == nk && !show) continue;
    uint64_t h = fp_expr(p, e);
    if (k < nk && h == known_functions[k].fp) f->native = known_functions[k].native;
    if (show)
      fprintf(stderr, "fingerprint %s %s 0x%016llxULL%s\n", file, name, (unsigned long long)h,
              f->native ? " native" : "");
  }
}

/* ----------------------------------------------------------- monotony */

typedef enum Mono { M_INDEP = 0, M_MONO = 1, M_UNKNOWN = 2 } Mono;

typedef struct AFrame {
  struct AFrame *up;
  int8_t *m;
  int n;
} AFrame;

enum { MAX_GUARDS = 64 };

typedef struct Ana {
  const CProg *p;
  int wslot;          /* the with variable's global slot */
  int8_t *memo;       /* per global slot: -1 not done, -2 in progress */
  int8_t *fun_busy;   /* per global slot: function body being analysed */
  const CIns **letrec_of; /* per global slot: its let rec instruction */
  /* Guards (cprog.h, CGuard): those of this with, the ones the analysis
   * under way relies on (bits), the ones each global's relies on. */
  CGuard guards[MAX_GUARDS];
  int nguards;
  uint64_t cur;
  uint64_t *gmask;
  uint8_t *bound_top; /* per global slot: bound by a top-level let, let rec,
                       * with or enum (not inside a match or procedure) */
  int no_guard;       /* > 0: inside what herd may not evaluate (a function
                       * body, a branch, a try): no guard there */
} Ana;

static Mono max2(Mono a, Mono b) { return a > b ? a : b; }

static Mono mono(Ana *a, const CExpr *e, AFrame *f);
static Mono mono_global(Ana *a, int t);

static void frame_init(AFrame *f, AFrame *up, int n) {
  f->up = up;
  f->n = n;
  f->m = xcalloc((size_t)(n + 1), 1);
}

static void set_pat(AFrame *f, const CPat *p, Mono m) {
  if (!p->is_tuple) {
    if (p->slot >= 0 && p->slot < f->n) f->m[p->slot] = (int8_t)m;
    return;
  }
  for (int i = 0; i < p->n; i++)
    if (p->slots[i] >= 0 && p->slots[i] < f->n) f->m[p->slots[i]] = (int8_t)m;
}

/* Monotony of applying function `fn` (from global slot t, or -1) to an
 * argument of monotony `arg`. */
static Mono mono_call(Ana *a, const CFun *fn, int t, Mono arg) {
  if (t >= 0) {
    if (a->fun_busy[t]) return M_UNKNOWN; /* recursion: give up */
    a->fun_busy[t] = 1;
  }
  AFrame fr;
  frame_init(&fr, NULL, fn->nlocals);
  set_pat(&fr, &fn->param, arg);
  a->no_guard++;
  Mono m = mono(a, fn->body, &fr);
  a->no_guard--;
  free(fr.m);
  if (t >= 0) a->fun_busy[t] = 0;
  return m;
}

static bool bound_before_choice(const void *ctx, int slot) {
  const Ana *a = ctx;
  return slot < a->wslot && a->bound_top[slot];
}

/* Can e be evaluated when the search starts, whatever the candidate: a
 * closed expression of relational operators over predefined names and
 * globals bound at top level before the choice? */
static bool guardable(const Ana *a, const CExpr *e) {
  return cexpr_closed_over(e, bound_before_choice, a);
}

/* An operator node that is empty when one of some operands is (seq,
 * intersection, product; a difference when its left side is).  When the
 * others make it non-monotone, a guard on the operands that are fixed
 * before the choice makes it independent of the choice while they are
 * empty. */
static Mono mono_absorbing(Ana *a, const CExpr *e, AFrame *f) {
  const CExpr *ops[64];
  int n = 0;
  if (e->kind == E_SEQ) {
    for (int i = 0; i < e->nargs && i < 32; i++) ops[n++] = e->args[i];
    if (e->nargs > 32) return M_UNKNOWN;
  } else {
    ops[n++] = e->a;
    ops[n++] = e->b;
  }
  uint64_t saved = a->cur, all = 0, indep = 0;
  Mono m = M_INDEP;
  uint32_t usable = 0;
  for (int i = 0; i < n; i++) {
    a->cur = 0;
    Mono mi = mono(a, ops[i], f);
    if (e->kind == E_DIFF && i == 1 && mi != M_INDEP) mi = M_UNKNOWN;
    m = max2(m, mi);
    all |= a->cur;
    if (mi == M_INDEP) {
      indep |= a->cur;
      if (!(e->kind == E_DIFF && i == 1) && a->cur == 0 && guardable(a, ops[i]))
        usable |= (uint32_t)1 << i;
    }
  }
  if (m != M_UNKNOWN || !usable || a->no_guard || a->nguards == MAX_GUARDS) {
    a->cur = saved | all;
    return m;
  }
  int k = 0;
  while (k < a->nguards && !(a->guards[k].node == e && a->guards[k].ops == usable)) k++;
  if (k == a->nguards) {
    a->guards[k].node = e;
    a->guards[k].ops = usable;
    a->nguards++;
  }
  a->cur = saved | indep | (uint64_t)1 << k;
  return M_INDEP;
}

static Mono mono_app(Ana *a, const CExpr *e, AFrame *f) {
  Mono arg = mono(a, e->b, f);
  const CExpr *fe = e->a;
  if (fe->kind == CV_PRIM) {
    const char *pn = prim_name(fe->slot);
    if (!strcmp(pn, "domain") || !strcmp(pn, "range")) return arg;
    return arg == M_INDEP ? M_INDEP : M_UNKNOWN;
  }
  if (fe->kind == CV_GLOBAL) {
    const CExpr *def = a->p->global_expr[fe->slot];
    if (def && def->kind == E_FUN && fe->slot != a->wslot)
      return mono_call(a, def->fun, fe->slot, arg);
  }
  Mono fm = mono(a, fe, f);
  return fm == M_INDEP && arg == M_INDEP ? M_INDEP : M_UNKNOWN;
}

static Mono mono_letrec(Ana *a, const CExpr *e, AFrame *f) {
  for (int i = 0; i < e->nbinds; i++) set_pat(f, &e->binds[i].pat, M_MONO);
  Mono m = M_INDEP;
  for (int i = 0; i < e->nbinds; i++) m = max2(m, mono(a, e->binds[i].e, f));
  for (int i = 0; i < e->nbinds; i++) set_pat(f, &e->binds[i].pat, m);
  return mono(a, e->a, f);
}

static Mono mono(Ana *a, const CExpr *e, AFrame *f) {
  switch (e->kind) {
  case E_ZERO:
  case E_EMPTY:
  case E_UNIV:
  case E_TAG:
  case CV_PREDEF:
  case CV_PRIM:
  case CV_TAGERR:
    return M_INDEP;
  case CV_GLOBAL:
    return mono_global(a, e->slot);
  case CV_LOCAL: {
    AFrame *g = f;
    for (int d = e->depth; d > 0 && g; d--) g = g->up;
    if (!g || e->slot >= g->n) return M_UNKNOWN;
    return (Mono)g->m[e->slot];
  }
  case E_FUN: {
    AFrame fr;
    frame_init(&fr, f, e->fun->nlocals);
    a->no_guard++;
    Mono m = mono(a, e->fun->body, &fr);
    a->no_guard--;
    free(fr.m);
    return m == M_INDEP ? M_INDEP : M_UNKNOWN;
  }
  case E_APP:
    return mono_app(a, e, f);
  case E_SEQ:
  case E_INTER:
  case E_PROD:
  case E_DIFF:
    return mono_absorbing(a, e, f);
  case E_TRY: {
    a->no_guard++;
    Mono m = max2(mono(a, e->a, f), mono(a, e->b, f));
    a->no_guard--;
    return m;
  }
  case E_COMPL:
    return mono(a, e->a, f) == M_INDEP ? M_INDEP : M_UNKNOWN;
  case E_LET:
    for (int i = 0; i < e->nbinds; i++) set_pat(f, &e->binds[i].pat, mono(a, e->binds[i].e, f));
    return mono(a, e->a, f);
  case E_LETREC:
    return mono_letrec(a, e, f);
  case E_IF: {
    if (e->cond->kind == C_VARIANT)
      return mono(a, e->cond->variant_value ? e->a : e->b, f);
    if (max2(mono(a, e->cond->a, f), mono(a, e->cond->b, f)) != M_INDEP) return M_UNKNOWN;
    a->no_guard++;
    Mono m = max2(mono(a, e->a, f), mono(a, e->b, f));
    a->no_guard--;
    return m;
  }
  case E_MATCH_TAG: {
    if (mono(a, e->a, f) != M_INDEP) return M_UNKNOWN;
    a->no_guard++;
    Mono m = e->dflt ? mono(a, e->dflt, f) : M_INDEP;
    for (int i = 0; i < e->nclauses; i++) m = max2(m, mono(a, e->clauses[i].e, f));
    a->no_guard--;
    return m;
  }
  case E_MATCH_SET: {
    if (mono(a, e->a, f) != M_INDEP) return M_UNKNOWN;
    if (e->elt >= 0 && e->elt < f->n) f->m[e->elt] = M_INDEP;
    if (e->rest >= 0 && e->rest < f->n) f->m[e->rest] = M_INDEP;
    if (e->before >= 0 && e->before < f->n) f->m[e->before] = M_INDEP;
    a->no_guard++;
    Mono m = max2(mono(a, e->e_empty, f), mono(a, e->e_cons, f));
    a->no_guard--;
    return m;
  }
  default: {
    Mono m = M_INDEP;
    for (int i = 0; i < e->nargs; i++) m = max2(m, mono(a, e->args[i], f));
    if (e->a) m = max2(m, mono(a, e->a, f));
    if (e->b) m = max2(m, mono(a, e->b, f));
    return m;
  }
  }
}

static Mono mono_global_def(Ana *a, int t);

/* The monotony of global t, with the guards it relies on added to
 * a->cur.  Its definition is analysed as herd evaluates a top-level
 * binding, whatever context refers to it. */
static Mono mono_global(Ana *a, int t) {
  if (t < a->wslot) return M_INDEP; /* bound before the choice */
  if (t == a->wslot) return M_MONO;
  if (a->memo[t] >= 0) {
    a->cur |= a->gmask[t];
    return (Mono)a->memo[t];
  }
  if (a->memo[t] == -2) return M_MONO; /* let rec group: optimistic */
  uint64_t saved = a->cur;
  int saved_ng = a->no_guard;
  a->cur = 0;
  a->no_guard = a->bound_top[t] ? 0 : 1;
  Mono m = mono_global_def(a, t);
  a->no_guard = saved_ng;
  a->cur |= saved;
  return m;
}

static Mono mono_global_def(Ana *a, int t) {
  const CProg *p = a->p;
  Mono m;
  switch (p->global_kind[t]) {
  case GK_WITH:
    m = M_UNKNOWN;
    break;
  case GK_ENUM:
    m = M_INDEP;
    break;
  case GK_LETREC: {
    const CIns *ci = a->letrec_of[t];
    for (int k = 0; k < ci->nslots; k++) a->memo[ci->slots[k]] = -2;
    m = M_INDEP;
    for (int k = 0; k < ci->nslots; k++) {
      AFrame fr;
      frame_init(&fr, NULL, ci->slot_nlocals[k]);
      m = max2(m, mono(a, ci->slot_exprs[k], &fr));
      free(fr.m);
    }
    for (int k = 0; k < ci->nslots; k++) {
      a->memo[ci->slots[k]] = (int8_t)m;
      a->gmask[ci->slots[k]] = a->cur;
    }
    return m;
  }
  default: {
    a->memo[t] = -2;
    AFrame fr;
    frame_init(&fr, NULL, p->global_nlocals[t]);
    m = p->global_expr[t] ? mono(a, p->global_expr[t], &fr) : M_UNKNOWN;
    free(fr.m);
    break;
  }
  }
  a->memo[t] = (int8_t)m;
  a->gmask[t] = a->cur;
  return m;
}

static bool prunable(Ana *a, CIns *ci) {
  if (ci->kind != CI_CHECK || ci->mode != CM_CHECK || ci->negated || ci->skipped)
    return false;
  AFrame fr;
  frame_init(&fr, NULL, ci->nlocals);
  a->cur = 0;
  a->no_guard = 0;
  Mono m = mono(a, ci->e, &fr);
  free(fr.m);
  ci->guard_mask = a->cur;
  return m != M_UNKNOWN;
}

static void find_prunable(CProg *p) {
  if (p->through != THROUGH_NONE) return;
  Ana a;
  a.p = p;
  a.memo = xmalloc((size_t)p->nglobals + 1);
  a.fun_busy = xcalloc((size_t)p->nglobals + 1, 1);
  a.letrec_of = xcalloc((size_t)p->nglobals + 1, sizeof(CIns *));
  a.gmask = xcalloc((size_t)p->nglobals + 1, sizeof(uint64_t));
  a.bound_top = xcalloc((size_t)p->nglobals + 1, 1);
  for (int i = 0; i < p->top.n; i++) {
    const CIns *ci = p->top.v[i];
    if (ci->kind == CI_LETREC && !ci->is_local)
      for (int k = 0; k < ci->nslots; k++)
        if (ci->slots[k] >= 0) a.letrec_of[ci->slots[k]] = ci;
    /* as run.c's slot_top */
    if ((ci->kind == CI_LET || ci->kind == CI_LETREC) && !ci->is_local) {
      for (int k = 0; k < ci->nslots; k++)
        if (ci->slots[k] >= 0) a.bound_top[ci->slots[k]] = 1;
    } else if ((ci->kind == CI_WITH && !ci->is_local) || ci->kind == CI_ENUM) {
      if (ci->slot >= 0) a.bound_top[ci->slot] = 1;
    }
  }
  for (int i = 0; i < p->top.n; i++) {
    CIns *w = p->top.v[i];
    if (w->kind != CI_WITH) continue;
    a.wslot = w->slot;
    a.nguards = 0;
    a.cur = 0;
    a.no_guard = 0;
    memset(a.memo, -1, (size_t)p->nglobals + 1);
    /* every global in the order of definition, so that each finds those
     * it reads done: a chain of thousands of lets is no deep recursion */
    for (int t = 0; t < p->nglobals; t++) mono_global(&a, t);
    int n = 0;
    for (int j = i + 1; j < p->top.n && p->top.v[j]->kind != CI_WITH; j++) n++;
    w->prune = arena_alloc(&p->arena, sizeof(int) * (size_t)(n + 1));
    for (int j = i + 1; j < p->top.n && p->top.v[j]->kind != CI_WITH; j++) {
      CIns *c = p->top.v[j];
      if (!prunable(&a, c)) continue;
      w->prune[w->nprune++] = j;
      c->prune_with = i;
    }
    if (a.nguards) {
      w->guards = arena_alloc(&p->arena, sizeof(CGuard) * (size_t)a.nguards);
      memcpy(w->guards, a.guards, sizeof(CGuard) * (size_t)a.nguards);
      w->nguards = a.nguards;
    }
  }
  free(a.gmask);
  free(a.bound_top);
  free(a.memo);
  free(a.fun_busy);
  free(a.letrec_of);
}

/* ------------------------------------------------- expression annotations
 * indep: the node does not depend on any `with` variable (so evaluating it
 * first is cheap: its value is usually cached).  cache: the node mentions
 * no local variable (it is "closed"), so within one event structure or rf
 * choice it always has the same value; closed operator nodes get a slot of
 * the expression cache.  Nodes mentioning a let rec variable are excluded:
 * inside the fixpoint those change from one iteration to the next. */

typedef struct Ann {
  CProg *p;
  int8_t *gdep;       /* per global slot: -1 unknown, -2 busy, 0/1 */
  /* per global slot: its expression was annotated by global_dep without
   * the optimistic answer for a busy slot, so with the values a later
   * walk would use: that walk would change nothing and is skipped */
  uint8_t *done;
  bool optimistic;    /* the walk under way used the optimistic answer */
} Ann;

/* What a node's subtree mentions (bits of ann_expr's result). */
enum { N_DEP = 1, N_LOCAL = 2, N_LETREC = 4 };

static bool global_dep(Ann *a, int t);

static unsigned ann_expr(Ann *a, CExpr *e);

/* ann_expr of an operand that may be absent */
static inline unsigned ann_sub(Ann *a, CExpr *e) { return e ? ann_expr(a, e) : 0; }

static bool cacheable_kind(int k) {
  switch (k) {
  case E_UNION: case E_SEQ: case E_INTER: case E_DIFF: case E_PROD:
  case E_ADD: case E_STAR: case E_PLUS: case E_OPT: case E_INV:
  case E_COMPL: case E_BRACKET: case E_APP: case E_IF: case E_TRY:
    return true;
  default:
    return false;
  }
}

/* Is e the node of a guard (analyse.c's own, by operand index)? */
static bool is_guard_node(const CProg *p, const CExpr *e) {
  for (int i = 0; i < p->top.n; i++) {
    const CIns *w = p->top.v[i];
    for (int k = 0; k < w->nguards; k++)
      if (w->guards[k].node == e) return true;
  }
  return false;
}

/* a1 ; ... ; an: the operands are annotated; a run of two or more closed
 * operands in a node that is not closed (it reads a local or a let rec
 * variable) becomes a node of its own, so that its value is cached
 * (`;` is associative): the rounds of `let rec x = ... | (r ; s ; x ;
 * t ; u) | ...` compose r;s and t;u once. */
static unsigned ann_seq(Ann *a, CExpr *e) {
  enum { MAXOPS = 64 };
  unsigned fl[MAXOPS], n = 0;
  for (int i = 0; i < e->nargs; i++) {
    unsigned f = ann_expr(a, e->args[i]);
    if (i < MAXOPS) fl[i] = f;
    n |= f;
  }
  if (e->nargs < 3 || e->nargs > MAXOPS || !(n & (N_LOCAL | N_LETREC)) || is_guard_node(a->p, e))
    return n;
  CExpr **args = arena_alloc(&a->p->arena, sizeof(CExpr *) * (size_t)e->nargs);
  int k = 0;
  for (int i = 0; i < e->nargs;) {
    int j = i;
    while (j < e->nargs && !(fl[j] & (N_LOCAL | N_LETREC))) j++;
    if (j - i >= 2) {
      CExpr *g = arena_zalloc(&a->p->arena, sizeof(CExpr));
      *g = *e;
      g->args = e->args + i;
      g->nargs = j - i;
      unsigned gf = 0;
      for (int t = i; t < j; t++) gf |= fl[t];
      g->indep = !(gf & N_DEP);
      g->cache = a->p->ncache++;
      args[k++] = g;
      i = j;
    } else {
      args[k++] = e->args[i++];
    }
  }
  if (k < e->nargs) {
    e->args = args;
    e->nargs = k;
  }
  return n;
}

static unsigned ann_expr(Ann *a, CExpr *e) {
  unsigned n = 0;
  switch (e->kind) {
  case CV_LOCAL:
    n = N_LOCAL | N_DEP; /* unknown: assume the worst */
    break;
  case CV_GLOBAL:
    if (global_dep(a, e->slot)) n |= N_DEP;
    if (a->p->global_kind[e->slot] == GK_LETREC) n |= N_LETREC;
    break;
  case E_FUN:
    n = ann_sub(a, e->fun->body) | N_LOCAL; /* a closure value: never cached */
    break;
  case E_LET:
  case E_LETREC:
    for (int i = 0; i < e->nbinds; i++) n |= ann_sub(a, e->binds[i].e);
    n |= ann_sub(a, e->a) | N_LOCAL;
    break;
  case E_IF:
    if (e->cond->kind != C_VARIANT) {
      n |= ann_sub(a, e->cond->a);
      n |= ann_sub(a, e->cond->b);
    }
    n |= ann_sub(a, e->a);
    n |= ann_sub(a, e->b);
    break;
  case E_MATCH_TAG:
    n |= ann_sub(a, e->a);
    for (int i = 0; i < e->nclauses; i++) n |= ann_sub(a, e->clauses[i].e);
    n |= ann_sub(a, e->dflt);
    break;
  case E_MATCH_SET:
    n |= ann_sub(a, e->a);
    n |= ann_sub(a, e->e_empty);
    n |= ann_sub(a, e->e_cons);
    n |= N_LOCAL;
    break;
  case E_SEQ:
    n = ann_seq(a, e);
    break;
  default:
    for (int i = 0; i < e->nargs; i++) n |= ann_sub(a, e->args[i]);
    n |= ann_sub(a, e->a);
    n |= ann_sub(a, e->b);
    break;
  }
  e->indep = !(n & N_DEP);
  if (!(n & (N_LOCAL | N_LETREC)) && e->cache < 0 && cacheable_kind(e->kind))
    e->cache = a->p->ncache++;
  return n;
}

static bool global_dep(Ann *a, int t) {
  if (a->gdep[t] >= 0) return a->gdep[t];
  if (a->gdep[t] == -2) { /* optimistic within a recursion */
    a->optimistic = true;
    return false;
  }
  const CProg *p = a->p;
  bool d;
  if (p->global_kind[t] == GK_WITH) {
    d = true;
  } else if (p->global_expr[t]) {
    a->gdep[t] = -2;
    bool outer = a->optimistic;
    a->optimistic = false;
    d = (ann_expr(a, p->global_expr[t]) & N_DEP) != 0;
    a->done[t] = !a->optimistic;
    a->optimistic |= outer;
  } else {
    d = false;
  }
  a->gdep[t] = d;
  return d;
}

static void ann_list(Ann *a, const CInsList *l) {
  for (int i = 0; i < l->n; i++) {
    CIns *ci = l->v[i];
    if (ci->e) ann_expr(a, ci->e);
    if (ci->when_e) ann_expr(a, ci->when_e);
    for (int k = 0; k < ci->nslots; k++) {
      CExpr *e = ci->slot_exprs ? ci->slot_exprs[k] : NULL;
      int t = ci->is_local ? -1 : ci->slots[k];
      if (e && !(t >= 0 && a->p->global_expr[t] == e && a->done[t])) ann_expr(a, e);
    }
    ann_list(a, &ci->body);
    if (ci->proc && !ci->proc->annotated) {
      ci->proc->annotated = true;
      ann_list(a, &ci->proc->body);
    }
    for (int k = 0; k < ci->nclauses; k++) ann_list(a, &ci->clauses[k].body);
  }
}

static void annotate(CProg *p) {
  Ann a = {p, xmalloc((size_t)p->nglobals + 1), xcalloc((size_t)p->nglobals + 1, 1), false};
  memset(a.gdep, -1, (size_t)p->nglobals + 1);
  for (int t = 0; t < p->nglobals; t++) global_dep(&a, t);
  ann_list(&a, &p->top);
  free(a.gdep);
  free(a.done);
}

/* ------------------------------------------------ let rec memo inputs */

/* Collect the outside names e reads into in[] (deduplicated); false when e
 * is not made of relational operators over names. */
static bool memo_inputs(const CIns *ci, const CExpr *e, const CExpr **in, int *n, int cap) {
  switch (e->kind) {
  case E_ZERO:
  case E_EMPTY:
  case E_UNIV:
    return true;
  case CV_GLOBAL:
  case CV_PREDEF:
    if (e->kind == CV_GLOBAL)
      for (int k = 0; k < ci->nslots; k++)
        if (ci->slots[k] == e->slot) return true; /* a member of the group */
    for (int k = 0; k < *n; k++)
      if (in[k]->kind == e->kind && (e->kind == CV_GLOBAL ? in[k]->slot == e->slot
                                                           : in[k]->name == e->name))
        return true;
    if (*n == cap) return false;
    in[(*n)++] = e;
    return true;
  case E_UNION:
  case E_SEQ:
    for (int i = 0; i < e->nargs; i++)
      if (!memo_inputs(ci, e->args[i], in, n, cap)) return false;
    return true;
  case E_INTER:
  case E_DIFF:
  case E_PROD:
    return memo_inputs(ci, e->a, in, n, cap) && memo_inputs(ci, e->b, in, n, cap);
  case E_STAR:
  case E_PLUS:
  case E_OPT:
  case E_INV:
  case E_COMPL:
  case E_BRACKET:
    return memo_inputs(ci, e->a, in, n, cap);
  default:
    return false;
  }
}

/* Does e read global slot t? */
static bool mentions_slot(const CExpr *e, int t) {
  if (!e) return false;
  switch (e->kind) {
  case CV_GLOBAL:
    return e->slot == t;
  case CV_LOCAL:
  case CV_PREDEF:
  case CV_TAGERR:
  case CV_PRIM:
    return false;
  case CV_PROJ:
    return mentions_slot(e->a, t);
  case E_FUN:
    return mentions_slot(e->fun->body, t);
  case E_LET:
  case E_LETREC:
    for (int i = 0; i < e->nbinds; i++)
      if (mentions_slot(e->binds[i].e, t)) return true;
    return mentions_slot(e->a, t);
  case E_IF:
    if (e->cond->kind != C_VARIANT &&
        (mentions_slot(e->cond->a, t) || mentions_slot(e->cond->b, t)))
      return true;
    return mentions_slot(e->a, t) || mentions_slot(e->b, t);
  case E_MATCH_TAG:
    for (int i = 0; i < e->nclauses; i++)
      if (mentions_slot(e->clauses[i].e, t)) return true;
    return mentions_slot(e->a, t) || mentions_slot(e->dflt, t);
  case E_MATCH_SET:
    return mentions_slot(e->a, t) || mentions_slot(e->e_empty, t) ||
           mentions_slot(e->e_cons, t);
  default:
    for (int i = 0; i < e->nargs; i++)
      if (mentions_slot(e->args[i], t)) return true;
    return mentions_slot(e->a, t) || mentions_slot(e->b, t);
  }
}

/* `x = a1 | ... | ak | x; x`, the ai not mentioning x (the last operand
 * is the one that does, so the union of the others comes first whatever
 * x is). */
static bool is_plus_form(const CIns *ci) {
  if (ci->nslots != 1 || ci->binds[0].is_fun || ci->slots[0] < 0 || ci->when_e) return false;
  int t = ci->slots[0];
  const CExpr *e = ci->slot_exprs[0];
  if (e->kind != E_UNION || e->nargs < 2) return false;
  const CExpr *last = e->args[e->nargs - 1];
  if (last->kind != E_SEQ || last->nargs != 2) return false;
  for (int i = 0; i < 2; i++)
    if (last->args[i]->kind != CV_GLOBAL || last->args[i]->slot != t) return false;
  for (int i = 0; i + 1 < e->nargs; i++)
    if (mentions_slot(e->args[i], t)) return false;
  return true;
}

static void find_letrec_memos(CProg *p) {
  enum { CAP = 32 };
  for (int i = 0; i < p->top.n; i++) {
    CIns *ci = p->top.v[i];
    ci->nmemo_in = -1;
    ci->check_slot = ci->kind == CI_CHECK ? p->ncheck_slots++ : -1;
    if (ci->kind != CI_LETREC || ci->is_local || ci->when_e) continue;
    ci->plus_form = is_plus_form(ci);
    const CExpr *in[CAP];
    int n = 0;
    bool ok = true;
    for (int k = 0; k < ci->nslots && ok; k++)
      ok = !ci->binds[k].is_fun && ci->slots[k] >= 0 && memo_inputs(ci, ci->slot_exprs[k], in, &n, CAP);
    if (!ok) continue;
    ci->memo_in = arena_alloc(&p->arena, sizeof(CExpr *) * (size_t)(n + 1));
    memcpy(ci->memo_in, in, sizeof(CExpr *) * (size_t)n);
    ci->nmemo_in = n;
  }
}

void cat_analyse(CProg *p, bool natives) {
  if (natives) recognise_functions(p);
  find_prunable(p);
  annotate(p);
  find_letrec_memos(p);
}
