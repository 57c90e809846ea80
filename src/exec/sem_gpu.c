/*
 * sem_gpu.c — what the PTX and Vulkan semantics share (sem_gpu.h): the
 * events of an instruction (../shared/gpu/README.md, "Litmus dialect")
 * and the relations GPU models read that herd7 does not bind (README,
 * "Cat extensions", "Execution semantics"):
 *
 *   scta / swg, ssg, sqf   same CTA / workgroup, subgroup, queue family
 *                          (the scope ids of the thread headers, nested:
 *                          same subgroup means same workgroup and queue
 *                          family too)
 *   sr                     each event's scope includes the other's thread
 *   syncbar                barriers that pair up: same instance id, the
 *                          other thread inside the barrier's scope, same
 *                          named barrier, the target not an `arrive`
 *   vloc                   same generic (virtual) address
 *   ssw                    Vulkan's ssw block (the events of the threads)
 *   corral-stuck           barriers that wait for ever: an instance id
 *                          some barrier of the scope does not reach on
 *                          this path, or a quorum not met (the prelude
 *                          rejects executions with one: only terminating
 *                          executions count)
 */
#include "sem_gpu.h"

#include <string.h>

/* ------------------------------------------------------------ events */

static uint64_t tags_of(SemCtx *c, int64_t mask) {
  uint64_t t = 0;
  for (int i = 0; i < GT_COUNT; i++)
    if (mask & GT(i)) t |= sem_tag(c, gpu_tag_names[i]);
  return t;
}

static SVal operand_value(SemCtx *c, const Operand *o) {
  return o->kind == OPK_IMM ? sem_int(c, o->imm) : sem_read_reg(c, o->reg);
}

static SVal address(SemCtx *c, const Operand *o) {
  const Test *t = sem_program(c)->test;
  return sem_val(c, val_addr(sem_symbol(c, gpu_physical(t, o->sym)), 0));
}

static SVal alu(SemCtx *c, int op, SVal a, SVal b) {
  static const SymOp ops[] = {S_ADD, S_SUB, S_MUL, S_DIV, S_AND, S_OR, S_XOR};
  if (op == GA_EXCH) return b;
  if (op < 0 || op > GA_XOR) sem_error(c, "unsupported operation");
  return sem_op(c, ops[op], a, b);
}

/* A read-modify-write: the load and store halves' tags, the old value
 * (to register o_ret when >= 0), the stored value op(old, operand). */
static void rmw(SemCtx *c, const Instr *ins, const GpuSem *gs, int ret, int loc, int arg) {
  int64_t tags = ins->ops[0].imm, rt = tags, wt = tags;
  if (gs->split_rmw_orders) {
    /* PTX: an acquire load half and a release store half */
    int64_t base = tags & ~(GT(GT_RLX) | GT(GT_ACQ) | GT(GT_REL) | GT(GT_ACQ_REL));
    bool acq = tags & (GT(GT_ACQ) | GT(GT_ACQ_REL)), rel = tags & (GT(GT_REL) | GT(GT_ACQ_REL));
    rt = base | GT(acq ? GT_ACQ : GT_RLX);
    wt = base | GT(rel ? GT_REL : GT_RLX);
  }
  SVal a = address(c, &ins->ops[loc]);
  SVal operand = operand_value(c, &ins->ops[arg]);
  SVal old = sem_load(c, a, 8, tags_of(c, rt));
  if (ins->op == G_CAS) {
    SVal expected = operand, desired = operand_value(c, &ins->ops[arg + 1]);
    SVal eq = sem_op(c, S_EQ, old, expected);
    if (sem_choose(c, 2) == 0) {
      sem_assume(c, sem_op(c, S_EQ, eq, sem_int(c, 0)));
    } else {
      sem_assume(c, eq);
      sem_store(c, a, desired, 8, tags_of(c, wt));
    }
  } else {
    sem_store(c, a, alu(c, ins->ops[0].sub, old, operand), 8, tags_of(c, wt));
  }
  if (ret >= 0) sem_write_reg(c, ins->ops[ret].reg, old);
}

static void barrier(SemCtx *c, const Instr *ins) {
  SVal args[3];
  args[0] = sem_int(c, ins->ops[1].imm);
  for (int i = 1; i < 3; i++) {
    if (i + 1 < ins->nops) {
      args[i] = operand_value(c, &ins->ops[i + 1]);
    } else {
      args[i] = sem_int(c, -1);
    }
  }
  sem_fence_args(c, tags_of(c, ins->ops[0].imm), args, 3);
}

void gpu_exec(SemCtx *c, const Instr *ins, const GpuSem *gs) {
  const Operand *o = ins->ops;
  GpuScopes sc;
  if (!gpu_thread_scopes(sem_program(c)->test, sem_thread(c), gs->level_names, &sc))
    sem_error(c, "thread P%d: its header must give its scopes (P%d@%s 0,%s 0%s%s)", sem_thread(c),
              sem_thread(c), gs->level_names[0], gs->level_names[1],
              gs->level_names[2] ? ", " : "", gs->level_names[2] ? gs->level_names[2] : "");
  if (sem_thread(c) >= GPU_MAX_THREADS)
    sem_error(c, "more than %d threads", GPU_MAX_THREADS);
  switch ((GpuOp)ins->op) {
  case G_LOAD:
    sem_write_reg(c, o[1].reg, sem_load(c, address(c, &o[2]), 8, tags_of(c, o[0].imm)));
    return;
  case G_STORE: {
    SVal v = operand_value(c, &o[2]);
    sem_store(c, address(c, &o[1]), v, 8, tags_of(c, o[0].imm));
    return;
  }
  case G_RMW: case G_CAS: rmw(c, ins, gs, 1, 2, 3); return;
  case G_RED: rmw(c, ins, gs, -1, 1, 2); return;
  case G_FENCE: case G_AVDEV: case G_VISDEV: sem_fence(c, tags_of(c, o[0].imm)); return;
  case G_BAR: barrier(c, ins); return;
  case G_MOV: sem_write_reg(c, o[1].reg, operand_value(c, &o[2])); return;
  case G_ALU: sem_write_reg(c, o[1].reg, alu(c, o[0].sub, operand_value(c, &o[2]), operand_value(c, &o[3]))); return;
  case G_GOTO: sem_jump(c, o[1].sym); return;
  case G_BCC: {
    static const SymOp cmp[] = {S_EQ, S_NE, S_LT, S_GT, S_LE, S_GE};
    SVal cond = sem_op(c, cmp[o[0].sub], operand_value(c, &o[1]), operand_value(c, &o[2]));
    sem_commit(c, cond, EV_BCC, 0);
    sem_branch(c, cond, o[3].sym);
    return;
  }
  }
  sem_error(c, "instruction '%s' is not implemented", ins->text);
}

/* --------------------------------------------------------- relations */

typedef struct Ctx {
  bool (*value)(void *ctx, Sym s, int64_t *out);
  void *vctx;
  const Program *p;
  const Test *t;
  const EventStructure *es;
  const GpuSem *gs;
  GpuScopes *sc;      /* per thread */
} Ctx;

static const Instr *instr_of(const Ctx *x, int e) {
  const Event *ev = &x->es->ev[e];
  if (ev->thread < 0 || ev->code_index < 0) return NULL;
  return x->t->threads[ev->thread].entries[ev->code_index].ins;
}

static bool has_tag(const Ctx *x, int e, int gt) {
  const Instr *ins = instr_of(x, e);
  return ins && (ins->ops[0].imm & GT(gt));
}

/* Same scope instance at level lv (0 innermost) and every level above. */
static bool same_at(const Ctx *x, int t1, int t2, int lv) {
  if (t1 < 0 || t2 < 0) return false;
  for (int l = lv; l < 3; l++) {
    if (!x->gs->levels[l]) continue;
    if (x->sc[t1].id[l] != x->sc[t2].id[l]) return false;
  }
  return true;
}

/* The level an event's scope tag names: -1 none, 3 the whole system. */
static int level_of(const Ctx *x, int e) {
  for (int l = 0; l < 4; l++)
    if (x->gs->scope_tags[l] >= 0 && has_tag(x, e, x->gs->scope_tags[l])) return l;
  return -1;
}

/* Thread t2 is inside the scope of event e (on thread t1). */
static bool in_scope(const Ctx *x, int e, int t2) {
  int lv = level_of(x, e);
  int t1 = x->es->ev[e].thread;
  if (lv < 0 || t1 < 0 || t2 < 0) return false;
  return lv >= 3 || same_at(x, t1, t2, lv);
}

/* A barrier operand's value in this execution (-1: absent or unknown). */
static int64_t arg_of(const Ctx *x, Sym s) {
  int64_t v;
  return x->value(x->vctx, s, &v) ? v : -1;
}

static bool is_barrier(const Ctx *x, int e) {
  const Instr *ins = instr_of(x, e);
  return ins && ins->op == G_BAR && (x->es->ev[e].flags & EV_FENCE);
}

/* Executed barriers in e's scope with e's instance and named ids. */
static int peers(const Ctx *x, Dim d, int e) {
  const EventStructure *es = x->es;
  int n = 0;
  for (int f = 0; f < d.n; f++)
    if (is_barrier(x, f) && arg_of(x, es->ev[f].val) == arg_of(x, es->ev[e].val) &&
        arg_of(x, es->ev[f].wval) == arg_of(x, es->ev[e].wval) &&
        in_scope(x, e, es->ev[f].thread))
      n++;
  return n;
}

static bool syncs(const Ctx *x, Dim d, int a, int b) {
  const EventStructure *es = x->es;
  if (!is_barrier(x, a) || !is_barrier(x, b)) return false;
  if (a != b && es->ev[a].thread == es->ev[b].thread) return false;
  if (instr_of(x, b)->flags & GPU_ARRIVE) return false;
  if (arg_of(x, es->ev[a].val) != arg_of(x, es->ev[b].val)) return false;
  if (arg_of(x, es->ev[a].wval) != arg_of(x, es->ev[b].wval)) return false;
  if (!in_scope(x, a, es->ev[b].thread)) return false;
  /* a quorum short of every arrival releases some of them only: which
   * ones is not known, none are related */
  int64_t q = arg_of(x, es->ev[a].loc);
  if (q >= 0 && a != b && q < peers(x, d, a)) return false;
  return true;
}

/* Does barrier e wait for ever on this path? */
static bool stuck(const Ctx *x, Dim d, int e) {
  const EventStructure *es = x->es;
  int64_t q = arg_of(x, es->ev[e].loc);
  if (q >= 0) return peers(x, d, e) < q;
  /* every barrier instruction with e's instance id in e's scope must be
   * reached: count the static ones against the executed ones */
  const Instr *me = instr_of(x, e);
  int want = 0;
  for (int t = 0; t < x->t->nthreads; t++) {
    if (!in_scope(x, e, t)) continue;
    const Thread *th = &x->t->threads[t];
    for (int k = 0; k < th->nentries; k++) {
      const Instr *ins = th->entries[k].ins;
      if (ins && ins->op == G_BAR && ins->ops[1].imm == me->ops[1].imm) want++;
    }
  }
  int have = 0;
  for (int f = 0; f < d.n; f++)
    if (is_barrier(x, f) && in_scope(x, e, es->ev[f].thread) &&
        instr_of(x, f)->ops[1].imm == me->ops[1].imm)
      have++;
  return have < want;
}

static const char *vaddr(const Ctx *x, int e) {
  const EventStructure *es = x->es;
  const Event *ev = &es->ev[e];
  if (!(ev->flags & EV_MEM)) return NULL;
  if (ev->thread < 0) {
    /* an initial write: the location itself */
    if (ev->loc == SYM_NONE || es->nodes[ev->loc].op != S_CONST) return NULL;
    Val v = es->nodes[ev->loc].k;
    return v.kind == VAL_ADDR ? intern_name(&x->p->syms, v.sym) : NULL;
  }
  const Instr *ins = instr_of(x, e);
  for (int i = 1; ins && i < ins->nops; i++)
    if (ins->ops[i].kind == OPK_SYM) return gpu_virtual(x->t, ins->ops[i].sym);
  return NULL;
}

void gpu_rel(const Program *p, const EventStructure *es, int which, Dim d, Word *bits,
             bool (*value)(void *ctx, Sym s, int64_t *out), void *vctx, const GpuSem *gs) {
  const Test *t = p->test;
  GpuScopes sc[GPU_MAX_THREADS];
  Ctx x = {value, vctx, p, t, es, gs, sc};
  for (int k = 0; k < t->nthreads && k < GPU_MAX_THREADS; k++) gpu_thread_scopes(t, k, gs->level_names, &sc[k]);
  const char *name = gs->rel_names[which];
  if (!strcmp(name, "vloc")) {
    for (int i = 0; i < d.n; i++) {
      const char *a = vaddr(&x, i);
      if (!a) continue;
      for (int j = 0; j < d.n; j++) {
        const char *b = vaddr(&x, j);
        if (b && !strcmp(a, b)) rel_set(d, bits, i, j);
      }
    }
    return;
  }
  if (!strcmp(name, "corral-stuck")) {
    for (int i = 0; i < d.n; i++)
      if (is_barrier(&x, i) && stuck(&x, d, i)) rel_set(d, bits, i, i);
    return;
  }
  if (!strcmp(name, "ssw")) {
    const GpuTest *g = t->arch_data;
    for (int k = 0; g && k < g->nssw; k++)
      for (int i = 0; i < d.n; i++)
        for (int j = 0; j < d.n; j++)
          if (es->ev[i].thread == g->ssw[k][0] && es->ev[j].thread == g->ssw[k][1])
            rel_set(d, bits, i, j);
    return;
  }
  enum { R_SR, R_SYNCBAR, R_LV0, R_LV1, R_LV2, R_NONE } k =
      !strcmp(name, "sr")                            ? R_SR
      : !strcmp(name, "syncbar")                     ? R_SYNCBAR
      : !strcmp(name, "scta") || !strcmp(name, "ssg") ? R_LV0
      : !strcmp(name, "swg")                         ? R_LV1
      : !strcmp(name, "sqf")                         ? R_LV2
                                                     : R_NONE;
  if (k == R_NONE) return;
  for (int i = 0; i < d.n; i++) {
    int ti = es->ev[i].thread;
    if (k == R_SYNCBAR && !is_barrier(&x, i)) continue;
    for (int j = 0; j < d.n; j++) {
      int tj = es->ev[j].thread;
      bool r = k == R_SR        ? in_scope(&x, i, tj) && in_scope(&x, j, ti)
               : k == R_SYNCBAR ? syncs(&x, d, i, j)
                                : same_at(&x, ti, tj, k - R_LV0);
      if (r) rel_set(d, bits, i, j);
    }
  }
}

/* Only the barriers' pairing reads values (their operands may be
 * registers); the scopes and virtual locations are the structure's. */
bool gpu_rel_reads_values(const GpuSem *gs, int which) {
  const char *name = gs->rel_names[which];
  return !strcmp(name, "syncbar") || !strcmp(name, "corral-stuck");
}
