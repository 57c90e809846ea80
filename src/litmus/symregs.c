/*
 * symregs.c — symbolic registers (%name) of assembly tests: herd
 * allocates each thread's, in name order, to the architecture's allowed
 * registers that the thread's code and the state sections do not already
 * use (lib/symbReg.ml).
 */
#include "parse_int.h"

#include <stdlib.h>

/* herd allocates each thread's symbolic registers, in name order, to the
 * architecture's allowed registers that the thread's code and the test's
 * state sections do not already use (lib/symbReg.ml). */
typedef struct SymEnv {
  const char **names; /* sorted, unique */
  int *regs;
  int n, cap;
} SymEnv;

typedef void (*LocFn)(Parser *p, LitLoc *l, void *ctx);

static void walk_prop(Parser *p, Prop *q, LocFn f, void *ctx) {
  for (; q; q = q->b) {
    if (q->kind == P_EQ || q->kind == P_LOCEQ) f(p, &q->loc, ctx);
    if (q->kind == P_LOCEQ) f(p, &q->loc2, ctx);
    if (q->a) walk_prop(p, q->a, f, ctx);
    if (q->kind != P_AND && q->kind != P_OR && q->kind != P_IMPL) break;
  }
}

/* Every location of the init, locations, filter and condition. */
static void walk_state(Parser *p, LocFn f, void *ctx) {
  Test *t = p->t;
  for (int i = 0; i < t->ninit; i++) f(p, &t->init[i].loc, ctx);
  for (int i = 0; i < t->nlocations; i++) f(p, &t->locations[i], ctx);
  walk_prop(p, t->filter, f, ctx);
  walk_prop(p, t->cond, f, ctx);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void env_add(Parser *p, SymEnv *e, const char *name) {
  for (int i = 0; i < e->n; i++)
    if (strcmp(e->names[i], name) == 0) return;
  APUSH(p->a, e->names, e->n, e->cap, name);
}

static int env_index(const SymEnv *e, const char *name) {
  for (int i = 0; i < e->n; i++)
    if (strcmp(e->names[i], name) == 0) return i;
  return -1;
}

/* The register allocated to name, or -1 (after allocate_thread). */
static int env_find(const SymEnv *e, const char *name) {
  int i = env_index(e, name);
  return i >= 0 ? e->regs[i] : -1;
}

/* Calls f on every register operand of a thread's code. */
static void each_code_reg(Thread *th, void (*f)(Operand *, void *), void *ctx) {
  for (int k = 0; k < th->nentries; k++) {
    Instr *ins = th->entries[k].ins;
    for (int o = 0; ins && o < ins->nops; o++)
      if (ins->ops[o].kind == OPK_REG || ins->ops[o].kind == OPK_MEM)
        f(&ins->ops[o], ctx);
  }
}

typedef struct CodeRegs {
  Parser *p;
  bool *used;  /* real registers used by the code */
  SymEnv *env; /* symbolic registers used by the code */
} CodeRegs;

static void note_code_reg(Operand *op, void *ctx) {
  CodeRegs *c = ctx;
  int nregs = c->p->t->ops->nregs;
  if (op->sreg) env_add(c->p, c->env, op->sreg);
  else if (op->reg >= 0 && op->reg < nregs) c->used[op->reg] = true;
  if (op->sreg2) env_add(c->p, c->env, op->sreg2);
  else if (op->reg2 >= 0 && op->reg2 < nregs) c->used[op->reg2] = true;
}

static void rewrite_reg(Operand *op, void *ctx) {
  const SymEnv *e = ctx;
  if (op->sreg) op->reg = env_find(e, op->sreg);
  if (op->sreg2) op->reg2 = env_find(e, op->sreg2);
}

typedef struct StateRegs {
  bool *used;       /* nthreads x nregs: real registers named in the state */
  SymEnv names;     /* symbolic registers named in the state */
  SrcPos *pos;      /* where each of those first appears */
  int poscap;
  bool any;         /* some symbolic register appears in the state */
} StateRegs;

static void note_state_loc(Parser *p, LitLoc *l, void *ctx) {
  StateRegs *s = ctx;
  int nregs = p->t->ops->nregs;
  if (l->kind == LOC_REG && l->thread >= 0 && l->thread < p->t->nthreads &&
      l->regid >= 0 && l->regid < nregs)
    s->used[l->thread * nregs + l->regid] = true;
  if (l->kind != LOC_SYMREG) return;
  int n = s->names.n;
  env_add(p, &s->names, l->reg);
  if (s->names.n > n) APUSH(p->a, s->pos, n, s->poscap, l->pos);
  s->any = true;
}

static void allocate_thread(Parser *p, int th, SymEnv *e, const bool *used) {
  const ArchOps *ops = p->t->ops;
  e->regs = ARENA_NEWN(p->a, int, e->n ? e->n : 1);
  int next_free = 0;
  for (int i = 0; i < e->n; i++) {
    while (next_free < ops->nsymb_regs && used[ops->symb_regs[next_free]])
      next_free++;
    if (next_free >= ops->nsymb_regs)
      err_raise(p->err, ERRK_LIMIT, p->t->threads[th].entries[0].pos,
                "not enough registers for all those symbolic registers");
    e->regs[i] = ops->symb_regs[next_free++];
  }
}

typedef struct Envs {
  SymEnv *env;
  int n;
} Envs;

static void resolve_state_loc(Parser *p, LitLoc *l, void *ctx) {
  const Envs *es = ctx;
  if (l->kind != LOC_SYMREG) return;
  /* herd looks the name up in an environment built thread by thread,
   * newest first: the last thread using the name wins. */
  for (int th = es->n - 1; th >= 0; th--) {
    int r = env_find(&es->env[th], l->reg);
    if (r >= 0) {
      l->thread = th;
      l->regid = r;
      return;
    }
  }
  err_raise(p->err, ERRK_SEMANTIC, l->pos,
            "symbolic register %%%s does not appear in code", l->reg);
}

static void check_ambiguous(Parser *p, const Envs *es, const StateRegs *s) {
  for (int i = 0; i < s->names.n; i++) {
    int users = 0;
    for (int th = 0; th < es->n; th++)
      users += env_index(&es->env[th], s->names.names[i]) >= 0;
    if (users > 1)
      err_raise(p->err, ERRK_SEMANTIC, s->pos[i],
                "ambiguous symbolic register(s): {%s}", s->names.names[i]);
  }
}

void alloc_symregs(Parser *p) {
  Test *t = p->t;
  int nregs = t->ops->nregs, nth = t->nthreads ? t->nthreads : 1;
  StateRegs s;
  memset(&s, 0, sizeof s);
  s.used = ARENA_NEWN(p->a, bool, (size_t)nth * (size_t)nregs);
  walk_state(p, note_state_loc, &s);
  Envs es = {ARENA_NEWN(p->a, SymEnv, nth), t->nthreads};
  bool *used = ARENA_NEWN(p->a, bool, (size_t)nth * (size_t)nregs);
  bool any = s.any;
  for (int th = 0; th < t->nthreads; th++) {
    bool *u = used + th * nregs;
    memcpy(u, s.used + th * nregs, sizeof(bool) * (size_t)nregs);
    CodeRegs c = {p, u, &es.env[th]};
    each_code_reg(&t->threads[th], note_code_reg, &c);
    if (es.env[th].n > 1)
      qsort(es.env[th].names, (size_t)es.env[th].n, sizeof(char *), cmp_str);
    any = any || es.env[th].n > 0;
  }
  if (!any) return;
  check_ambiguous(p, &es, &s);
  for (int th = 0; th < t->nthreads; th++) {
    allocate_thread(p, th, &es.env[th], used + th * nregs);
    each_code_reg(&t->threads[th], rewrite_reg, &es.env[th]);
  }
  walk_state(p, resolve_state_loc, &es);
}
