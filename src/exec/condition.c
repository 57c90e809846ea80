/*
 * condition.c — a test's final condition and filter: evaluated on a
 * candidate (prepared once per test as a CProp, so that a candidate's
 * check is a few comparisons), or on a final state of the outcome
 * (engine_prop, for the printers).
 */
#include <setjmp.h>

#include "engine_int.h"
#include "faults.h"

static LocType loc_type(const Program *p, const LitLoc *l) {
  if (l->kind == LOC_REG && l->lane_bits)
    return (LocType){(uint8_t)l->lane_bits, l->lane_bits == 32, false};
  if (l->kind == LOC_REG && l->thread >= 0 && l->thread < p->nthreads && l->regid >= 0)
    return p->reg_type[l->thread][l->regid];
  if (l->kind == LOC_GLOBAL || l->kind == LOC_CELL) {
    int s = program_find_symbol(p, l);
    if (s >= 0) return p->sym_type.data[s];
  }
  LocType t = {32, true, false};
  return t;
}

static bool vals_equal_typed(const Program *p, LocType t, Val a, Val b) {
  if (a.kind == VAL_INT && b.kind == VAL_INT)
    return typed_int(p, t, a.num) == typed_int(p, t, b.num);
  return val_eq(a, b);
}

typedef bool (*LocValFn)(void *ctx, const LitLoc *l, Val *out);

/* Lane i of a vector register location (LitLoc.lanes > 0). */
static LitLoc lane_loc(const LitLoc *l, int i) {
  LitLoc c = *l;
  int off = i * l->lane_bits;
  c.regid = l->regid + off / 64;
  c.lane_shift = off % 64;
  c.lanes = 0;
  return c;
}

static LocType lane_type(const LitLoc *l) {
  return (LocType){(uint8_t)l->lane_bits, l->lane_bits == 32, false};
}

/* 0:V0.4S={...}: every lane equal. */
static bool vector_eval(Program *p, const Prop *pr, LocValFn fn, void *ctx) {
  if (pr->val.kind != LV_ARRAY || pr->val.nelems != pr->loc.lanes) return false;
  for (int i = 0; i < pr->loc.lanes; i++) {
    LitLoc li = lane_loc(&pr->loc, i);
    const LitVal *e = &pr->val.elems[i];
    Val v;
    if (!fn(ctx, &li, &v) || e->kind != LV_INT ||
        !vals_equal_typed(p, lane_type(&li), v, val_int(e->num)))
      return false;
  }
  return true;
}

static bool prop_eval(Program *p, const Prop *pr, LocValFn fn, void *ctx) {
  switch (pr->kind) {
  case P_TRUE:
    return true;
  case P_FALSE:
    return false;
  case P_EQ: {
    Val v, want;
    if (pr->loc.kind == LOC_REG && pr->loc.lanes) return vector_eval(p, pr, fn, ctx);
    if (!fn(ctx, &pr->loc, &v)) return false;
    Err e;
    err_init(&e);
    ErrJmp j;
    err_push(&e, &j);
    if (setjmp(j.jb) == 0) {
      want = program_value(p, &pr->val, &e);
      err_pop(&e, &j);
    } else {
      err_free(&e);
      return false;
    }
    err_free(&e);
    return vals_equal_typed(p, loc_type(p, &pr->loc), v, want);
  }
  case P_LOCEQ: {
    Val a, b;
    if (!fn(ctx, &pr->loc, &a) || !fn(ctx, &pr->loc2, &b)) return false;
    return vals_equal_typed(p, loc_type(p, &pr->loc), a, b);
  }
  case P_NOT:
    return !prop_eval(p, pr->a, fn, ctx);
  case P_AND:
    return prop_eval(p, pr->a, fn, ctx) && prop_eval(p, pr->b, fn, ctx);
  case P_OR:
    return prop_eval(p, pr->a, fn, ctx) || prop_eval(p, pr->b, fn, ctx);
  case P_IMPL:
    return !prop_eval(p, pr->a, fn, ctx) || prop_eval(p, pr->b, fn, ctx);
  case P_FAULT: {
    Val set;
    return fn(ctx, NULL, &set) && fault_atom_holds(p, pr->fault, set);
  }
  }
  return false;
}

/* The condition and filter, prepared once per test: the values compared
 * with, the symbols and the types are found before the search, so that a
 * candidate's check is a few comparisons (prop_eval does the same work
 * from the text every time, and may intern: not from worker threads). */
struct CProp {
  PropKind kind;
  const LitLoc *loc, *loc2;
  int sym, sym2;           /* LOC_GLOBAL, LOC_CELL: symbol id, or -1 */
  LocType type;
  bool want_ok;            /* P_EQ: the value could be computed */
  Val want;
  const FaultAtom *fault;  /* P_FAULT */
  CProp *a, *b;
};

/* The symbol of a memory location or array cell, or -1. */
static int loc_sym(Program *p, const LitLoc *l) {
  return l->kind == LOC_GLOBAL || l->kind == LOC_CELL ? program_find_symbol(p, l) : -1;
}

/* The conjunction of n equalities eq(pr, i, eq) (pr's copies, filled in
 * by the callback), the first outermost. */
static const Prop *conjunction(const Prop *pr, int n, void (*fill)(const Prop *, int, Prop *),
                               Arena *a) {
  Prop *conj = NULL;
  for (int i = n - 1; i >= 0; i--) {
    Prop *eq = ARENA_NEWN(a, Prop, 1);
    *eq = *pr;
    fill(pr, i, eq);
    if (!conj) {
      conj = eq;
      continue;
    }
    Prop *and = ARENA_NEWN(a, Prop, 1);
    *and = *pr;
    and->kind = P_AND;
    and->a = eq;
    and->b = conj;
    conj = and;
  }
  return conj;
}

static void cell_eq(const Prop *pr, int i, Prop *eq) {
  eq->loc.kind = LOC_CELL;
  eq->loc.index = i;
  if (i < pr->val.nelems) eq->val = pr->val.elems[i];
  else eq->kind = P_FALSE;
}

/* x={k0,k1...} on an array x: the conjunction of its cells' equalities. */
static const Prop *array_eq(Program *p, const Prop *pr, Arena *a) {
  const struct ArrayDecl *ar = pr->kind == P_EQ && pr->loc.kind == LOC_GLOBAL &&
                                       pr->val.kind == LV_ARRAY
                                   ? program_array(p, intern_find(&p->syms, pr->loc.sym))
                                   : NULL;
  if (!ar) return pr;
  Prop *conj = (Prop *)conjunction(pr, ar->len, cell_eq, a);
  if (pr->val.nelems != ar->len) conj->kind = P_FALSE;
  return conj;
}

static void lane_eq(const Prop *pr, int i, Prop *eq) {
  eq->loc = lane_loc(&pr->loc, i);
  if (pr->val.kind == LV_ARRAY && pr->val.nelems == pr->loc.lanes) eq->val = pr->val.elems[i];
  else eq->kind = P_FALSE;
}

/* 0:V0.4S={k0,...} on a vector register: the conjunction of its lanes'
 * equalities. */
static const Prop *vector_eq(const Prop *pr, Arena *a) {
  if (pr->kind != P_EQ || pr->loc.kind != LOC_REG || !pr->loc.lanes) return pr;
  return conjunction(pr, pr->loc.lanes, lane_eq, a);
}

static CProp *cprop_build1(Program *p, const Prop *pr, Arena *a);

CProp *cprop_build(Program *p, const Prop *pr, Arena *a) {
  return pr ? cprop_build1(p, vector_eq(array_eq(p, pr, a), a), a) : NULL;
}

static CProp *cprop_build1(Program *p, const Prop *pr, Arena *a) {
  CProp *c = ARENA_NEWN(a, CProp, 1);
  c->kind = pr->kind;
  c->loc = &pr->loc;
  c->loc2 = &pr->loc2;
  c->sym = loc_sym(p, &pr->loc);
  c->sym2 = loc_sym(p, &pr->loc2);
  if (pr->kind == P_EQ || pr->kind == P_LOCEQ) c->type = loc_type(p, &pr->loc);
  if (pr->kind == P_EQ) {
    Err e;
    err_init(&e);
    ErrJmp j;
    err_push(&e, &j);
    if (setjmp(j.jb) == 0) {
      c->want = program_value(p, &pr->val, &e);
      c->want_ok = true;
      err_pop(&e, &j);
    }
    err_free(&e);
  }
  c->fault = pr->fault;
  c->a = cprop_build(p, pr->a, a);
  c->b = cprop_build(p, pr->b, a);
  return c;
}

/* final_value with the symbol already found. */
static bool cprop_value(Engine *g, const LitLoc *l, int sym, Val *out) {
  if (l->kind != LOC_GLOBAL && l->kind != LOC_CELL) return final_value(g, l, out);
  return global_final_value(g, sym, out);
}

/* Same answers as prop_eval with final_value as the location reader. */
bool cprop_eval(Engine *g, const CProp *c) {
  switch (c->kind) {
  case P_TRUE:
    return true;
  case P_FALSE:
    return false;
  case P_EQ: {
    Val v;
    if (!cprop_value(g, c->loc, c->sym, &v) || !c->want_ok) return false;
    return vals_equal_typed(g->p, c->type, v, c->want);
  }
  case P_LOCEQ: {
    Val x, y;
    if (!cprop_value(g, c->loc, c->sym, &x) || !cprop_value(g, c->loc2, c->sym2, &y))
      return false;
    return vals_equal_typed(g->p, c->type, x, y);
  }
  case P_NOT:
    return !cprop_eval(g, c->a);
  case P_AND:
    return cprop_eval(g, c->a) && cprop_eval(g, c->b);
  case P_OR:
    return cprop_eval(g, c->a) || cprop_eval(g, c->b);
  case P_IMPL:
    return !cprop_eval(g, c->a) || cprop_eval(g, c->b);
  case P_FAULT:
    return g->p->fault_disp >= 0 && fault_atom_holds(g->p, c->fault, g->state[g->p->fault_disp]);
  }
  return false;
}

typedef struct StateCtx {
  const Program *p;
  const Val *state;
} StateCtx;

static bool state_loc_value(void *ctx, const LitLoc *l, Val *out) {
  StateCtx *s = ctx;
  if (!l) { /* the faults */
    if (s->p->fault_disp < 0) return false;
    *out = s->state[s->p->fault_disp];
    return true;
  }
  int i = program_disp_index(s->p, l);
  if (i < 0) return false;
  *out = s->state[i];
  return true;
}

bool engine_prop(const Program *p, const Prop *pr, const Val *state) {
  StateCtx s = {p, state};
  return prop_eval((Program *)p, pr, state_loc_value, &s);
}

/* The condition or filter on a partial rf (early.c): a register is known
 * when final_value computes it from the reads chosen so far, and then it
 * has the value the complete candidate gives it; memory locations (final
 * writes, chosen later) and faults are not known.  */
/* 1: holds, 0: fails, -1: not known yet. */
int cprop_partial(Engine *g, const CProp *c) {
  switch (c->kind) {
  case P_TRUE:
    return 1;
  case P_FALSE:
    return 0;
  case P_EQ: {
    if (c->loc->kind != LOC_REG) return -1;
    if (!c->want_ok) return 0; /* never equal (cprop_eval) */
    Val v;
    if (!final_value(g, c->loc, &v)) return -1;
    return vals_equal_typed(g->p, c->type, v, c->want);
  }
  case P_LOCEQ: {
    Val x, y;
    if (c->loc->kind != LOC_REG || c->loc2->kind != LOC_REG) return -1;
    if (!final_value(g, c->loc, &x) || !final_value(g, c->loc2, &y)) return -1;
    return vals_equal_typed(g->p, c->type, x, y);
  }
  case P_NOT: {
    int a = cprop_partial(g, c->a);
    return a < 0 ? -1 : !a;
  }
  case P_AND: {
    int a = cprop_partial(g, c->a);
    if (a == 0) return 0;
    int b = cprop_partial(g, c->b);
    return b == 0 ? 0 : a == 1 && b == 1 ? 1 : -1;
  }
  case P_OR: {
    int a = cprop_partial(g, c->a);
    if (a == 1) return 1;
    int b = cprop_partial(g, c->b);
    return b == 1 ? 1 : a == 0 && b == 0 ? 0 : -1;
  }
  case P_IMPL: {
    int a = cprop_partial(g, c->a);
    if (a == 0) return 1;
    int b = cprop_partial(g, c->b);
    return b == 1 ? 1 : a == 1 && b == 0 ? 0 : -1;
  }
  case P_FAULT:
    return -1;
  }
  return -1;
}


/* The locations an atom reads (up to 2), and the operands of a
 * connective (early.c walks the filter). */
int cprop_locs(const CProp *c, const LitLoc **out) {
  int n = 0;
  if (c->kind == P_EQ || c->kind == P_LOCEQ) out[n++] = c->loc;
  if (c->kind == P_LOCEQ) out[n++] = c->loc2;
  return n;
}

const CProp *cprop_sub(const CProp *c, int i) { return i == 0 ? c->a : c->b; }
