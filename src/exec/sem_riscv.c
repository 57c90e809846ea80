/*
 * sem_riscv.c — semantics of RISC-V instructions, with herd7's events.
 *
 * x0 reads as the constant 0 without a register event and ignores writes.
 * Memory events carry the set names riscv.cat uses: X for lr, sc and AMOs,
 * Acq / Rel / AcqRel for the orderings (.aq, .rl, .aq.rl), fences
 * Fence.r.rw... Fence.tso, Fence.i.
 *
 * As herd does, values are not truncated to the access size (a lw reads
 * back what a sd wrote); the W arithmetic forms do sign-extend from 32
 * bits, as the ISA says.
 *
 * lr and sc go through the reservation register RISCV_RESADDR, as in
 * herd: lr writes the address there; sc reads it and clears it, then
 * either fails (rd <- 1, no write) or succeeds (a write at an address that
 * must equal the reservation, rd <- 0).  Edges as herd's riscv_sc
 * (event.ml) with RISC-V's defaults: the reservation read controls its
 * clearing and the write; the write takes data from the address and data
 * registers; a success's rd takes data from the address register and is
 * controlled by the write, so what depends on rd depends on the write.
 */
#include "../litmus/riscv.h"
#include "sem.h"

static SVal rd_reg(SemCtx *c, const Operand *o) {
  return o->reg == RISCV_X0 ? sem_int(c, 0) : sem_read_reg(c, o->reg);
}

static void wr_reg(SemCtx *c, const Operand *o, SVal v) {
  if (o->reg != RISCV_X0) sem_write_reg(c, o->reg, v);
}

static int access_size(const Instr *ins) { return 1 << RV_FLAG_WIDTH(ins->flags); }

/* The ordering annotation, plus X for lr, sc and AMOs. */
static uint64_t annot(SemCtx *c, const Instr *ins, bool atomic) {
  static const char *const mo_sets[] = {NULL, "Acq", "Rel", "AcqRel"};
  const char *mo = mo_sets[RV_FLAG_MO(ins->flags)];
  return (atomic ? sem_tag(c, "X") : 0) | (mo ? sem_tag(c, mo) : 0);
}

static SVal sext32(SemCtx *c, SVal v) { return sem_sext(c, v, 32); }

/* Result of a register-immediate or register-register operation. */
static bool alu(SemCtx *c, int op, SVal a, SVal b, SVal *r) {
  switch ((RVOp)op) {
  case RV_ADDI: case RV_ADD: *r = sem_op(c, S_ADD, a, b); return true;
  case RV_SUB: *r = sem_op(c, S_SUB, a, b); return true;
  case RV_SLTI: case RV_SLT: *r = sem_op(c, S_LT, a, b); return true;
  case RV_SLTIU: case RV_SLTU: *r = sem_op(c, S_LTU, a, b); return true;
  case RV_ANDI: case RV_AND: *r = sem_op(c, S_AND, a, b); return true;
  case RV_ORI: case RV_OR: *r = sem_op(c, S_OR, a, b); return true;
  case RV_XORI: case RV_XOR: *r = sem_op(c, S_XOR, a, b); return true;
  case RV_SLLI: case RV_SLL: *r = sem_op(c, S_SHL, a, b); return true;
  case RV_SRLI: case RV_SRL: *r = sem_op(c, S_SHR, a, b); return true;
  case RV_SRAI: case RV_SRA: *r = sem_op(c, S_SAR, a, b); return true;
  case RV_ADDIW: case RV_ADDW: *r = sext32(c, sem_op(c, S_ADD, a, b)); return true;
  case RV_SUBW: *r = sext32(c, sem_op(c, S_SUB, a, b)); return true;
  case RV_SLLIW: case RV_SLLW: *r = sext32(c, sem_op(c, S_SHL, a, b)); return true;
  case RV_SRLIW: case RV_SRLW:
    *r = sext32(c, sem_op(c, S_SHR, sem_mask(c, a, 32), b));
    return true;
  case RV_SRAIW: case RV_SRAW:
    *r = sext32(c, sem_op(c, S_SAR, sext32(c, a), b));
    return true;
  default: return false;
  }
}

/* The value an AMO writes, from the old value and rs2. */
static SVal amo_value(SemCtx *c, int op, SVal old, SVal v) {
  switch ((RVOp)op) {
  case RV_AMOADD: return sem_op(c, S_ADD, old, v);
  case RV_AMOAND: return sem_op(c, S_AND, old, v);
  case RV_AMOOR: return sem_op(c, S_OR, old, v);
  case RV_AMOXOR: return sem_op(c, S_XOR, old, v);
  case RV_AMOMAX: return sem_select(c, sem_op(c, S_GT, old, v), old, v);
  case RV_AMOMIN: return sem_select(c, sem_op(c, S_LT, old, v), old, v);
  case RV_AMOMAXU: return sem_select(c, sem_op(c, S_GTU, old, v), old, v);
  case RV_AMOMINU: return sem_select(c, sem_op(c, S_LTU, old, v), old, v);
  default: return v; /* amoswap */
  }
}

/* One AMO event, both R and W, annotated X: rd <- old value. */
static void amo(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  SVal v = rd_reg(c, &o[1]);
  SVal a = rd_reg(c, &o[2]);
  int ev;
  SVal old = sem_rmw_event(c, a, access_size(ins), annot(c, ins, true), &ev);
  sem_rmw_set_write(c, ev, amo_value(c, ins->op, old, v));
  wr_reg(c, &o[0], old);
}

/* -variant mixed: a load's value is its bytes, unsigned; lb/lh/lw (and
 * lr.w) sign-extend it as the ISA says. */
static SVal mixed_extend(SemCtx *c, const Instr *ins, SVal v) {
  if (sem_program(c)->mixed && access_size(ins) < 8 && !(ins->flags & RV_F_UNSIGNED))
    return sem_sext(c, v, 8 * access_size(ins));
  return v;
}

static void load_reserve(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  SVal a = rd_reg(c, &o[1]);
  sem_write_reg(c, RISCV_RESADDR, a);
  /* the reserved size matters in mixed mode (store_conditional) */
  if (sem_program(c)->mixed) sem_reserve(c, a, access_size(ins));
  wr_reg(c, &o[0], mixed_extend(c, ins, sem_load(c, a, access_size(ins), annot(c, ins, true))));
}

/* -variant mixed: as herd, a store-conditional can only fail unless the
 * last load-reserve of the path had its size.  herd's successful sc write
 * is one event of the full size among byte events, whose treatment we do
 * not reproduce: refused. */
static bool mixed_sc_can_succeed(SemCtx *c, const Instr *ins) {
  int rsize = 0;
  bool has = sem_reservation(c, NULL, &rsize);
  sem_clear_reservation(c);
  if (!has || rsize != access_size(ins)) return false;
  sem_error(c, "-variant mixed: a store-conditional that may succeed (same size as "
            "its load-reserve) is not supported");
}

/* herd's riscv_sc: alternative 0 fails, alternative 1 succeeds. */
static void store_conditional(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  SVal resa = sem_read_reg(c, RISCV_RESADDR);
  SVal v = rd_reg(c, &o[1]);
  SVal a = rd_reg(c, &o[2]);
  sem_ctrl_dep(c, resa);
  sem_write_reg(c, RISCV_RESADDR, sem_int(c, 0)); /* the reservation is cleared */
  if (sem_program(c)->mixed && !mixed_sc_can_succeed(c, ins)) {
    sem_ctrl_reset(c);
    wr_reg(c, &o[0], sem_int(c, 1));
    return;
  }
  if (sem_choose(c, 2) == 0) {
    sem_ctrl_reset(c);
    wr_reg(c, &o[0], sem_int(c, 1));
    return;
  }
  sem_assume(c, sem_op(c, S_EQ, a, resa));
  SVal w = sem_store(c, a, v, access_size(ins), annot(c, ins, true));
  sem_ctrl_reset(c);
  sem_ctrl_dep(c, w);
  SVal ok = sem_int(c, 0);
  ok.deps = a.deps;
  wr_reg(c, &o[0], ok);
}

static void branch(SemCtx *c, const Instr *ins) {
  static const SymOp ops[] = {S_EQ, S_NE, S_LT, S_LTU, S_GE, S_GEU};
  const Operand *o = ins->ops;
  SVal a = rd_reg(c, &o[0]), b = rd_reg(c, &o[1]);
  SVal cond = sem_op(c, ops[ins->op - RV_BEQ], a, b);
  sem_commit(c, cond, EV_BCC, 0);
  sem_branch(c, cond, o[2].sym);
}

/* Fence set names: herd capitalises "fence.r.rw"; the device sets i and
 * o order like r and w. */
static void fence(SemCtx *c, const Instr *ins) {
  static const char *const names[4][4] = {
      {0}, {NULL, "Fence.r.r", "Fence.r.w", "Fence.r.rw"},
      {NULL, "Fence.w.r", "Fence.w.w", "Fence.w.rw"},
      {NULL, "Fence.rw.r", "Fence.rw.w", "Fence.rw.rw"},
  };
  int p = (int)ins->ops[0].imm & 3, s = (int)ins->ops[1].imm & 3;
  sem_fence(c, sem_tag(c, names[p][s]));
}

static void ext(SemCtx *c, const Instr *ins) {
  int bits = 8 << RV_FLAG_WIDTH(ins->flags);
  SVal v = rd_reg(c, &ins->ops[1]);
  wr_reg(c, &ins->ops[0], ins->flags & RV_F_UNSIGNED ? sem_mask(c, v, bits)
                                                     : sem_sext(c, v, bits));
}

static bool exec_memory(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  switch ((RVOp)ins->op) {
  case RV_LOAD: {
    SVal a = sem_op(c, S_ADD, rd_reg(c, &o[1]), sem_int(c, o[1].imm));
    wr_reg(c, &o[0], mixed_extend(c, ins, sem_load(c, a, access_size(ins), annot(c, ins, false))));
    return true;
  }
  case RV_STORE: {
    SVal v = rd_reg(c, &o[0]);
    SVal a = sem_op(c, S_ADD, rd_reg(c, &o[1]), sem_int(c, o[1].imm));
    sem_store(c, a, v, access_size(ins), annot(c, ins, false));
    return true;
  }
  case RV_LR: load_reserve(c, ins); return true;
  case RV_SC: store_conditional(c, ins); return true;
  case RV_AMOSWAP: case RV_AMOADD: case RV_AMOAND: case RV_AMOOR:
  case RV_AMOXOR: case RV_AMOMAX: case RV_AMOMAXU: case RV_AMOMIN:
  case RV_AMOMINU:
    amo(c, ins);
    return true;
  default: return false;
  }
}

static void exec_riscv(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  SVal r;
  if (exec_memory(c, ins)) return;
  if (ins->nops == 3 && o[2].kind != OPK_LABEL) {
    SVal b = o[2].kind == OPK_IMM ? sem_int(c, o[2].imm) : rd_reg(c, &o[2]);
    if (alu(c, ins->op, rd_reg(c, &o[1]), b, &r)) {
      wr_reg(c, &o[0], r);
      return;
    }
  }
  switch ((RVOp)ins->op) {
  case RV_NOP: return;
  case RV_RET: sem_exit(c); return;
  case RV_LUI: wr_reg(c, &o[0], sem_int(c, (int64_t)(int32_t)((uint32_t)o[1].imm << 12))); return;
  case RV_LA: wr_reg(c, &o[0], sem_val(c, val_addr(sem_symbol(c, o[1].sym), 0))); return;
  case RV_EXT: ext(c, ins); return;
  case RV_J: sem_jump(c, o[0].sym); return;
  case RV_BEQ: case RV_BNE: case RV_BLT: case RV_BLTU: case RV_BGE:
  case RV_BGEU:
    branch(c, ins);
    return;
  case RV_FENCE: fence(c, ins); return;
  case RV_FENCE_I: sem_fence(c, sem_tag(c, "Fence.i")); return;
  case RV_FENCE_TSO: sem_fence(c, sem_tag(c, "Fence.tso")); return;
  default: break;
  }
  sem_unsupported(c, NULL);
}

static const char *const riscv_sets[] = {
    "X",          "Acq",        "Rel",         "AcqRel",     "Sc",
    "Fence.r.r",  "Fence.r.w",  "Fence.r.rw",  "Fence.w.r",  "Fence.w.w",
    "Fence.w.rw", "Fence.rw.r", "Fence.rw.w",  "Fence.rw.rw", "Fence.tso",
    "Fence.i",    NULL,
};

const SemArch sem_riscv = {.arch = ARCH_RISCV, .exec = exec_riscv, .set_names = riscv_sets};
