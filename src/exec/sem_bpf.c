/*
 * sem_bpf.c — semantics of eBPF instructions, with herd7 7.58's events
 * (herd/BPFSem.ml).
 *
 * Accesses carry the sets bpf.cat reads: X for atomics (with or without a
 * result), SC for those that return a value, AQ for load_acquire, RL for
 * store_release; plain accesses carry none.  Addresses are the base
 * register plus the offset sign-extended from 16 bits.
 *
 * Atomics: atomic_fetch_OP, xchg and `lock ... OP=` are one event, both R
 * and W (SC and X, or only X for `lock`); the register is written with the
 * old value by the fetching forms.  cmpxchg has herd's two alternatives:
 * success, a read and a write, both SC, the old value read from r0 and the
 * value read controlling (iico_ctrl) the write; failure, a plain read whose
 * value differs from r0.  r0 receives the value read in both.
 */
#include "../litmus/bpf.h"
#include "sem.h"

static const int width_bytes[] = {1, 2, 4, 8};

static int access_size(const Instr *ins) { return width_bytes[BPF_W(ins->flags)]; }

/* herd's imm16ToV: the offset is taken modulo 2^16, sign-extended */
static SVal offset(SemCtx *c, int64_t k) {
  return sem_int(c, (int64_t)(int16_t)(uint16_t)(k & 0xffff));
}

static SVal address(SemCtx *c, const Operand *m) {
  return sem_op(c, S_ADD, sem_read_reg(c, m->reg), offset(c, m->imm));
}

/* A register read whose value is data (herd's read_reg_data). */
static SVal read_data(SemCtx *c, int reg) {
  SVal v = sem_read_reg(c, reg);
  sem_data_port(c, v);
  return v;
}

static SVal alu(SemCtx *c, int op, SVal a, SVal b) {
  static const SymOp ops[] = {
      [BPF_ADD] = S_ADD, [BPF_SUB] = S_SUB, [BPF_MUL] = S_MUL, [BPF_DIV] = S_DIV,
      [BPF_AND] = S_AND, [BPF_ORR] = S_OR,  [BPF_XOR] = S_XOR, [BPF_LSL] = S_SHL,
      [BPF_LSR] = S_SHR,
  };
  /* herd 7.58 refuses s>>= in the same words */
  if (op == BPF_ASR) sem_error(c, "BPF operation s>>= is not implemented (yet)");
  if (op == BPF_REM) /* a - (a / b) * b */
    return sem_op(c, S_SUB, a, sem_op(c, S_MUL, sem_op(c, S_DIV, a, b), b));
  return sem_op(c, ops[op], a, b);
}

static void cmpxchg(SemCtx *c, const Instr *ins) {
  const Operand *m = &ins->ops[0];
  int size = access_size(ins);
  SVal a = address(c, m);
  SVal old = read_data(c, BPF_R0);
  if (sem_choose(c, 2) == 0) {
    SVal nv = read_data(c, ins->ops[1].reg);
    uint64_t sc = sem_tag(c, "X") | sem_tag(c, "SC");
    SVal v = sem_load(c, a, size, sc);
    sem_assume(c, sem_op(c, S_EQ, old, v));
    sem_write_reg(c, BPF_R0, v);
    SVal ctrl = old;
    ctrl.deps |= v.deps;
    sem_ctrl_dep(c, ctrl); /* only the write is created after this */
    sem_store(c, a, nv, size, sc);
    return;
  }
  SVal v = sem_load(c, a, size, 0);
  sem_assume(c, sem_op(c, S_NE, old, v));
  sem_write_reg(c, BPF_R0, v);
}

static void amo(SemCtx *c, const Instr *ins) {
  const Operand *m = &ins->ops[0], *rs = &ins->ops[1];
  int op = BPF_ALU(ins->flags);
  bool fetch = ins->flags & BPF_F_FETCH;
  if (op == BPF_CMPXCHG) {
    cmpxchg(c, ins);
    return;
  }
  SVal a = address(c, m);
  SVal v = read_data(c, rs->reg);
  uint64_t tags = sem_tag(c, "X") | (fetch ? sem_tag(c, "SC") : 0);
  if (op != BPF_XCHG && op != BPF_ADD && op != BPF_AND && op != BPF_ORR &&
      op != BPF_XOR)
    sem_error(c, "BPF operation atomic op is not implemented (yet)");
  int ev;
  SVal old = sem_rmw_event(c, a, access_size(ins), tags, &ev);
  sem_rmw_set_write(c, ev, op == BPF_XCHG ? v : alu(c, op, old, v));
  if (fetch) sem_write_reg(c, rs->reg, old);
}

static void branch(SemCtx *c, const Instr *ins) {
  static const SymOp ops[] = {[BPF_EQ] = S_EQ, [BPF_NE] = S_NE, [BPF_LT] = S_LT,
                              [BPF_GE] = S_GE};
  const Operand *o = ins->ops;
  SVal a, b;
  if (ins->op == BPF_JCOND) {
    a = sem_read_reg(c, o[0].reg);
    b = sem_read_reg(c, o[1].reg);
  } else {
    a = read_data(c, o[0].reg);
    b = sem_int(c, o[1].imm);
  }
  SVal cond = sem_op(c, ops[BPF_CND(ins->flags)], a, b);
  sem_commit(c, cond, EV_BCC, 0);
  sem_branch(c, cond, o[2].sym);
}

static void exec_bpf(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  switch ((BPFOp)ins->op) {
  case BPF_OP: {
    SVal a = read_data(c, o[0].reg), b = read_data(c, o[1].reg);
    sem_write_reg(c, o[0].reg, alu(c, BPF_ALU(ins->flags), a, b));
    return;
  }
  case BPF_OPI:
    sem_write_reg(c, o[0].reg,
                  alu(c, BPF_ALU(ins->flags), read_data(c, o[0].reg), sem_int(c, o[1].imm)));
    return;
  case BPF_MOV: sem_write_reg(c, o[0].reg, read_data(c, o[1].reg)); return;
  case BPF_MOVI: sem_write_reg(c, o[0].reg, sem_int(c, o[1].imm)); return;
  case BPF_LOAD: case BPF_LDAQ: {
    uint64_t tags = ins->op == BPF_LDAQ ? sem_tag(c, "AQ") : 0;
    sem_write_reg(c, o[0].reg, sem_load(c, address(c, &o[1]), access_size(ins), tags));
    return;
  }
  case BPF_STORE: case BPF_STRL: {
    SVal a = address(c, &o[0]);
    SVal v = read_data(c, o[1].reg);
    sem_store(c, a, v, access_size(ins), ins->op == BPF_STRL ? sem_tag(c, "RL") : 0);
    return;
  }
  case BPF_STOREI:
    sem_store(c, address(c, &o[0]), sem_int(c, o[1].imm), access_size(ins), 0);
    return;
  case BPF_AMO: amo(c, ins); return;
  case BPF_GOTO: sem_jump(c, o[0].sym); return;
  case BPF_JCOND: case BPF_JCONDI: branch(c, ins); return;
  }
  sem_error(c, "BPF, instruction '%s' not handled", ins->text);
}

static const char *const bpf_sets[] = {"X", "SC", "AQ", "RL", NULL};

const SemArch sem_bpf = {.arch = ARCH_BPF, .exec = exec_bpf, .set_names = bpf_sets};
