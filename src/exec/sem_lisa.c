/*
 * sem_lisa.c — semantics of LISA instructions, with herd7 7.58's events
 * (herd/BellSem.ml).
 *
 * An access or fence carries its annotations as sets named after them
 * with the first letter upper-cased ('lw -> Lw), the names the bell file
 * declares (`enum Fences = 'lw || ...`, `instructions F[Fences]`).  rmw
 * makes an atomic read and an atomic write (set X, so that they form an
 * `rmw` pair); when the register it writes also appears in its operation,
 * that occurrence stands for the value read, as in herd.  `b[] r L`
 * branches when r is not zero, after a commit event.
 */
#include "../litmus/lisa.h"
#include "sem.h"

enum { LISA_SIZE = 8 }; /* herd's accesses have the machine size */

static uint64_t annot_tags(SemCtx *c, const Operand *list) {
  uint64_t t = 0;
  const char *name;
  for (int i = 0; (name = lisa_tag(list, i)) != NULL; i++) t |= sem_tag(c, name);
  return t;
}

static SVal symbol(SemCtx *c, const char *name) {
  return sem_val(c, val_addr(sem_symbol(c, name), 0));
}

/* A value operand; `self`/`self_val`: the rmw's register and the value read. */
static SVal value(SemCtx *c, const Operand *o, int self, SVal self_val) {
  switch (o->kind) {
  case OPK_REG: return o->reg == self ? self_val : sem_read_reg(c, o->reg);
  case OPK_SYM: return symbol(c, o->sym);
  default: return sem_int(c, o->imm);
  }
}

/* An address: base register or location, plus a register or a number. */
static SVal address(SemCtx *c, const Operand *m) {
  SVal a = m->sym ? symbol(c, m->sym) : sem_read_reg(c, m->reg);
  if (!m->sub) return a;
  SVal k = m->reg2 >= 0 ? sem_read_reg(c, m->reg2) : sem_int(c, m->imm);
  return sem_op(c, S_ADD, a, k);
}

static SVal operation(SemCtx *c, const Instr *ins, int i, int self, SVal self_val) {
  static const SymOp ops[] = {[LISA_ADD] = S_ADD, [LISA_XOR] = S_XOR,
                              [LISA_AND] = S_AND, [LISA_EQ] = S_EQ,
                              [LISA_NEQ] = S_NE};
  SVal a = value(c, &ins->ops[i], self, self_val);
  if (ins->flags == LISA_VAL) return a;
  SVal b = value(c, &ins->ops[i + 1], self, self_val);
  return sem_op(c, ops[ins->flags], a, b);
}

static bool op_uses(const Instr *ins, int i, int reg) {
  int n = ins->flags == LISA_VAL ? 1 : 2;
  for (int k = i; k < i + n; k++)
    if (ins->ops[k].kind == OPK_REG && ins->ops[k].reg == reg) return true;
  return false;
}

static void rmw(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  int r = o[1].reg;
  uint64_t tags = annot_tags(c, &o[0]) | sem_tag(c, "X");
  SVal a = address(c, &o[ins->nops - 1]);
  if (op_uses(ins, 2, r)) {
    SVal old = sem_load(c, a, LISA_SIZE, tags);
    SVal v = operation(c, ins, 2, r, old);
    sem_write_reg(c, r, old);
    sem_store(c, a, v, LISA_SIZE, tags);
    return;
  }
  /* herd's exch: the value read goes to the register, the operation's
   * value to memory */
  SVal old = sem_load(c, a, LISA_SIZE, tags);
  SVal v = operation(c, ins, 2, -1, old);
  sem_data_port(c, v);
  sem_store(c, a, v, LISA_SIZE, tags);
  sem_write_reg(c, r, old);
}

static void exec_lisa(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  switch ((LISAOp)ins->op) {
  case LISA_LD:
    sem_write_reg(c, o[1].reg, sem_load(c, address(c, &o[2]), LISA_SIZE, annot_tags(c, &o[0])));
    return;
  case LISA_ST: {
    SVal a = address(c, &o[1]);
    SVal v = value(c, &o[2], -1, a);
    sem_store(c, a, v, LISA_SIZE, annot_tags(c, &o[0]));
    return;
  }
  case LISA_F: sem_fence(c, annot_tags(c, &o[0])); return;
  case LISA_RMW: rmw(c, ins); return;
  case LISA_B:
    if (ins->nops == 3) {
      SVal v = sem_read_reg(c, o[1].reg);
      sem_commit(c, v, EV_BCC, 0);
      sem_branch(c, v, o[2].sym);
    } else {
      sem_jump(c, o[1].sym);
    }
    return;
  case LISA_MOV: sem_write_reg(c, o[0].reg, operation(c, ins, 1, -1, sem_int(c, 0))); return;
  }
  sem_error(c, "LISA, instruction '%s' not handled", ins->text);
}

const SemArch sem_lisa = {.arch = ARCH_LISA, .exec = exec_lisa, .set_names = NULL};
