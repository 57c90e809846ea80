/*
 * sem_mips.c — semantics of MIPS (MIPS64) instructions, with herd7's
 * events.
 *
 * $0 reads as 0 without an event and ignores writes.  Immediates are 16
 * bits, sign-extended for the arithmetic forms and zero-extended for the
 * logical ones (andi ori xori), as the ISA encodes them; li takes its
 * value whole (herd zero-extends its low 16 bits).  The 32-bit forms
 * (addu, addiu, subu, lw, lui) sign-extend their result from 32 bits as
 * the ISA says; herd computes them on 64 bits.  ll / sc go through the
 * reservation register MIPS_RESADDR: sc fails (rt <- 0) or succeeds (a
 * write at the reserved address, rt <- 1), its events depending on the
 * three registers it reads.  Accesses of ll / sc carry X; sync is SYNC.
 */
#include "../litmus/mips.h"
#include "sem_excl.h"

static SVal rd_reg(SemCtx *c, const Operand *o) {
  return o->reg == 0 ? sem_int(c, 0) : sem_read_reg(c, o->reg);
}

static void wr_reg(SemCtx *c, const Operand *o, SVal v) {
  if (o->reg != 0) sem_write_reg(c, o->reg, v);
}

static SVal sext32(SemCtx *c, SVal v) { return sem_sext(c, v, 32); }

static int64_t imm16(int64_t k, bool logical) {
  uint64_t u = (uint64_t)k & 0xffff;
  return logical ? (int64_t)u : (int64_t)(int16_t)u;
}

/* Three-register and register-immediate arithmetic. */
static bool alu(SemCtx *c, int op, SVal a, SVal b, SVal *r) {
  switch ((MIPSOp)op) {
  case MIPS_ADD: case MIPS_ADDU: case MIPS_ADDI: case MIPS_ADDIU:
    *r = sext32(c, sem_op(c, S_ADD, a, b));
    return true;
  case MIPS_SUB: case MIPS_SUBU: case MIPS_SUBI: case MIPS_SUBIU:
    *r = sext32(c, sem_op(c, S_SUB, a, b));
    return true;
  case MIPS_DADDU: case MIPS_DADDIU: *r = sem_op(c, S_ADD, a, b); return true;
  case MIPS_SLT: case MIPS_SLTI: *r = sem_op(c, S_LT, a, b); return true;
  case MIPS_SLTU: case MIPS_SLTIU: *r = sem_op(c, S_LTU, a, b); return true;
  case MIPS_AND: case MIPS_ANDI: *r = sem_op(c, S_AND, a, b); return true;
  case MIPS_OR: case MIPS_ORI: *r = sem_op(c, S_OR, a, b); return true;
  case MIPS_XOR: case MIPS_XORI: *r = sem_op(c, S_XOR, a, b); return true;
  case MIPS_NOR: *r = sem_op(c, S_NOR, a, b); return true;
  case MIPS_DSLL: *r = sem_op(c, S_SHL, a, b); return true;
  default: return false;
  }
}

static SVal ea(SemCtx *c, const Operand *m) {
  return sem_op(c, S_ADD, rd_reg(c, m), sem_int(c, imm16(m->imm, false)));
}

static void load_linked(SemCtx *c, const Instr *ins) {
  SVal a = ea(c, &ins->ops[1]);
  sem_write_reg(c, MIPS_RESADDR, a);
  wr_reg(c, &ins->ops[0], sem_load(c, a, 4, sem_tag(c, "X")));
}

/* sc rt,k(rs): alternative 0 fails, 1 succeeds. */
static void store_conditional(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  SVal v = rd_reg(c, &o[0]);
  SVal a = ea(c, &o[1]);
  uint64_t deps;
  bool ok = sem_excl_store(c, MIPS_RESADDR, a, v, 4, sem_tag(c, "X"), &deps);
  SVal status = sem_int(c, ok ? 1 : 0);
  status.deps = deps;
  wr_reg(c, &o[0], status);
}

static void branch(SemCtx *c, SVal cond, const char *label) {
  sem_commit(c, cond, EV_BCC, 0);
  sem_branch(c, cond, label);
}

/* beq bne against a register, b<cond>z against 0. */
static void cond_branch(SemCtx *c, const Instr *ins) {
  static const SymOp ops[] = {S_EQ, S_NE, S_LE, S_GT, S_LT, S_GE};
  const Operand *o = ins->ops;
  bool two = ins->op == MIPS_BEQ || ins->op == MIPS_BNE;
  SVal a = rd_reg(c, &o[0]);
  SVal b = two ? rd_reg(c, &o[1]) : sem_int(c, 0);
  branch(c, sem_op(c, ops[ins->op - MIPS_BEQ], a, b), o[two ? 2 : 1].sym);
}

static bool exec_memory(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  switch ((MIPSOp)ins->op) {
  case MIPS_LW: wr_reg(c, &o[0], sext32(c, sem_load(c, ea(c, &o[1]), 4, 0))); return true;
  case MIPS_LD: wr_reg(c, &o[0], sem_load(c, ea(c, &o[1]), 8, 0)); return true;
  case MIPS_SW: {
    SVal v = rd_reg(c, &o[0]);
    sem_store(c, ea(c, &o[1]), v, 4, 0);
    return true;
  }
  case MIPS_LL: load_linked(c, ins); return true;
  case MIPS_SC: store_conditional(c, ins); return true;
  default: return false;
  }
}

static void exec_mips(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  SVal r;
  if (exec_memory(c, ins)) return;
  if (ins->nops == 3 && o[2].kind != OPK_LABEL) {
    bool logical = ins->op == MIPS_ANDI || ins->op == MIPS_ORI || ins->op == MIPS_XORI;
    SVal b = o[2].kind == OPK_IMM
                 ? sem_int(c, ins->op == MIPS_DSLL ? o[2].imm : imm16(o[2].imm, logical))
                 : rd_reg(c, &o[2]);
    if (alu(c, ins->op, rd_reg(c, &o[1]), b, &r)) {
      wr_reg(c, &o[0], r);
      return;
    }
  }
  switch ((MIPSOp)ins->op) {
  case MIPS_NOP: return;
  case MIPS_LI: wr_reg(c, &o[0], sem_int(c, o[1].imm)); return;
  case MIPS_LUI:
    wr_reg(c, &o[0], sem_int(c, (int64_t)(int32_t)(((uint32_t)o[1].imm & 0xffff) << 16)));
    return;
  case MIPS_MOVE: wr_reg(c, &o[0], rd_reg(c, &o[1])); return;
  case MIPS_DEXT: { /* size bits from lsb, zero-extended */
    int lsb = (int)o[2].imm & 63, size = (int)o[3].imm;
    SVal v = sem_op(c, S_SHR, rd_reg(c, &o[1]), sem_int(c, lsb));
    wr_reg(c, &o[0], size >= 64 ? v : sem_mask(c, v, size < 1 ? 1 : size));
    return;
  }
  case MIPS_B: sem_jump(c, o[0].sym); return;
  case MIPS_JR: sem_jump_value(c, rd_reg(c, &o[0])); return;
  case MIPS_BEQ: case MIPS_BNE: case MIPS_BLEZ: case MIPS_BGTZ:
  case MIPS_BLTZ: case MIPS_BGEZ:
    cond_branch(c, ins);
    return;
  case MIPS_SYNC: sem_fence(c, sem_tag(c, "SYNC")); return;
  default: break;
  }
  sem_unsupported(c, NULL);
}

static const char *const mips_sets[] = {"X", "SYNC", NULL};

const SemArch sem_mips = {.arch = ARCH_MIPS, .exec = exec_mips, .set_names = mips_sets};
