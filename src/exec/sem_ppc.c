/*
 * sem_ppc.c — semantics of PPC (Power) instructions.
 *
 * Condition-register fields hold herd7's encoding: LT = 8, GT = 4, EQ = 2
 * (bit 0 is the high-order bit in the ISA's numbering).  Conditional
 * branches read cr0 and create a commit event, which gives the loads
 * feeding the comparison a control dependency to everything after the
 * branch.  As in the ISA, r0 as rA of addi and of indexed accesses stands
 * for the constant 0; D-form accesses read r0 like any register (herd7
 * does the same).
 */
#include "../litmus/ppc.h"
#include "sem.h"

enum { CR_LT = 8, CR_GT = 4, CR_EQ = 2 };

static SVal reg_or_zero(SemCtx *c, int r) {
  return r == 0 ? sem_int(c, 0) : sem_read_reg(c, r);
}

static SVal cmp_field(SemCtx *c, SVal a, SVal b, bool is_unsigned) {
  return sem_op(c, is_unsigned ? S_CMP3U : S_CMP3, a, b);
}

/* Record forms (op. rD,...) compare the result with 0 into cr0. */
static void record(SemCtx *c, const Instr *ins, SVal res, bool always) {
  if (always || (ins->flags & PPC_F_DOT))
    sem_write_reg(c, PPC_CR0, cmp_field(c, res, sem_int(c, 0), false));
}

/* Rotate the low word left by sh (rlwinm, rlwimi). */
static SVal rotl32(SemCtx *c, SVal a, int sh) {
  SVal t = sem_mask(c, a, 32);
  sh &= 31;
  if (sh == 0) return t;
  SVal hi = sem_op(c, S_SHL, t, sem_int(c, sh));
  SVal lo = sem_op(c, S_SHR, t, sem_int(c, 32 - sh));
  return sem_mask(c, sem_op(c, S_OR, hi, lo), 32);
}

/* The mask of bits mb..me of a word, bit 0 being the most significant
 * (the ISA's numbering); wraps around when mb > me. */
static uint64_t mask32(int mb, int me) {
  uint64_t m = 0;
  for (int i = mb & 31;; i = (i + 1) & 31) {
    m |= (uint64_t)1 << (31 - i);
    if (i == (me & 31)) break;
  }
  return m;
}

static int access_size(int op) {
  switch (op) {
  case PPC_LBZ: case PPC_LBZX: case PPC_STB: case PPC_STBX: return 1;
  case PPC_LHZ: case PPC_LHZX: case PPC_STH: case PPC_STHX: return 2;
  case PPC_LD: case PPC_LDX: case PPC_STD: case PPC_STDX: return 8;
  default: return 4;
  }
}

static SVal op3(SemCtx *c, const Instr *ins, SymOp op, bool swap) {
  SVal a = sem_read_reg(c, ins->ops[1].reg), b = sem_read_reg(c, ins->ops[2].reg);
  SVal r = swap ? sem_op(c, op, b, a) : sem_op(c, op, a, b);
  sem_write_reg(c, ins->ops[0].reg, r);
  record(c, ins, r, false);
  return r;
}

static void op2i(SemCtx *c, const Instr *ins, SymOp op, bool rec) {
  SVal a = sem_read_reg(c, ins->ops[1].reg);
  SVal r = sem_op(c, op, a, sem_int(c, ins->ops[2].imm));
  sem_write_reg(c, ins->ops[0].reg, r);
  record(c, ins, r, rec);
}

/* Truth of a condition on cr0, as a value (0/1). */
static SVal cond_of(SemCtx *c, SVal cr, int cc) {
  int bit = cc == PPC_CC_EQ || cc == PPC_CC_NE ? CR_EQ
            : cc == PPC_CC_LT || cc == PPC_CC_GE ? CR_LT : CR_GT;
  SVal set = sem_op(c, S_NE, sem_op(c, S_AND, cr, sem_int(c, bit)), sem_int(c, 0));
  bool negate = cc == PPC_CC_NE || cc == PPC_CC_GE || cc == PPC_CC_LE;
  return negate ? sem_op1(c, S_NOT, set) : set;
}

static void load(SemCtx *c, const Instr *ins, SVal addr) {
  int size = access_size(ins->op);
  SVal v = sem_load(c, addr, size, 0);
  /* Narrow loads zero-extend (lwa/lwax sign-extend) into the register. */
  if (ins->op == PPC_LWA || ins->op == PPC_LWAX)
    v = sem_load_extend(c, v, 32, true);
  else if (size < 8)
    v = sem_load_extend(c, v, size * 8, false);
  sem_write_reg(c, ins->ops[0].reg, v);
}

static void exec_ppc(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  switch ((PPCOp)ins->op) {
  case PPC_NOP:
  case PPC_DCBF:
  case PPC_COM:
    return;
  case PPC_ADD: op3(c, ins, S_ADD, false); return;
  case PPC_SUB: op3(c, ins, S_SUB, false); return;
  case PPC_SUBF: op3(c, ins, S_SUB, true); return;
  case PPC_OR: op3(c, ins, S_OR, false); return;
  case PPC_AND: op3(c, ins, S_AND, false); return;
  case PPC_XOR: op3(c, ins, S_XOR, false); return;
  case PPC_MULLW: op3(c, ins, S_MUL, false); return;
  case PPC_DIVW: op3(c, ins, S_DIV, false); return;
  case PPC_NOR: op3(c, ins, S_NOR, false); return;
  case PPC_SLW: op3(c, ins, S_SHL, false); return;
  case PPC_SRAW: op3(c, ins, S_SAR, false); return;
  case PPC_NEG: {
    SVal r = sem_op1(c, S_NEG, sem_read_reg(c, o[1].reg));
    sem_write_reg(c, o[0].reg, r);
    record(c, ins, r, false);
    return;
  }
  case PPC_MR:
    sem_write_reg(c, o[0].reg, sem_read_reg(c, o[1].reg));
    return;
  case PPC_EXTSW:
    sem_write_reg(c, o[0].reg, sem_sext(c, sem_read_reg(c, o[1].reg), 32));
    return;
  case PPC_LI:
    sem_write_reg(c, o[0].reg, sem_int(c, o[1].imm));
    return;
  case PPC_LIS:
    sem_write_reg(c, o[0].reg, sem_int(c, o[1].imm * 65536));
    return;
  case PPC_ADDI:
    if (o[1].reg == 0) { /* addi rD,r0,k is li */
      sem_write_reg(c, o[0].reg, sem_int(c, o[2].imm));
      return;
    }
    op2i(c, ins, S_ADD, false);
    return;
  case PPC_ADDIS: {
    SVal a = reg_or_zero(c, o[1].reg);
    sem_write_reg(c, o[0].reg, sem_op(c, S_ADD, a, sem_int(c, o[2].imm * 65536)));
    return;
  }
  case PPC_ORI: op2i(c, ins, S_OR, false); return;
  case PPC_XORI: op2i(c, ins, S_XOR, false); return;
  case PPC_ANDI: op2i(c, ins, S_AND, true); return;
  case PPC_MULLI: op2i(c, ins, S_MUL, false); return;
  case PPC_SRAWI: op2i(c, ins, S_SAR, false); return;
  case PPC_CLRLDI: {
    SVal a = sem_read_reg(c, o[1].reg);
    int keep = 64 - (int)o[2].imm;
    sem_write_reg(c, o[0].reg, keep >= 64 ? a : sem_mask(c, a, keep < 0 ? 0 : keep));
    return;
  }
  case PPC_RLWINM:
  case PPC_RLWIMI: {
    SVal rot = rotl32(c, sem_read_reg(c, o[1].reg), (int)o[2].imm);
    uint64_t m = mask32((int)o[3].imm, (int)o[4].imm);
    SVal res = sem_op(c, S_AND, rot, sem_int(c, (int64_t)m));
    if (ins->op == PPC_RLWIMI) {
      SVal old = sem_read_reg(c, o[0].reg);
      res = sem_op(c, S_OR, res, sem_op(c, S_AND, old, sem_int(c, (int64_t)~m)));
    }
    sem_write_reg(c, o[0].reg, res);
    record(c, ins, res, false);
    return;
  }
  case PPC_LBZ: case PPC_LHZ: case PPC_LWZ: case PPC_LD: case PPC_LWA: {
    SVal a = sem_read_reg(c, o[1].reg);
    load(c, ins, sem_op(c, S_ADD, a, sem_int(c, o[1].imm)));
    return;
  }
  case PPC_LWZU: {
    SVal a = sem_read_reg(c, o[1].reg);
    SVal ea = sem_op(c, S_ADD, a, sem_int(c, o[1].imm));
    if (o[1].reg != 0 && o[1].reg != o[0].reg) sem_write_reg(c, o[1].reg, ea);
    load(c, ins, ea);
    return;
  }
  case PPC_LBZX: case PPC_LHZX: case PPC_LWZX: case PPC_LDX: case PPC_LWAX: {
    SVal a = reg_or_zero(c, o[1].reg), b = sem_read_reg(c, o[2].reg);
    load(c, ins, sem_op(c, S_ADD, a, b));
    return;
  }
  case PPC_STB: case PPC_STH: case PPC_STW: case PPC_STD: {
    SVal v = sem_read_reg(c, o[0].reg), a = sem_read_reg(c, o[1].reg);
    sem_store(c, sem_op(c, S_ADD, a, sem_int(c, o[1].imm)), v, access_size(ins->op), 0);
    return;
  }
  case PPC_STWU: {
    SVal v = sem_read_reg(c, o[0].reg), a = sem_read_reg(c, o[1].reg);
    SVal ea = sem_op(c, S_ADD, a, sem_int(c, o[1].imm));
    sem_store(c, ea, v, 4, 0);
    if (o[1].reg != 0) sem_write_reg(c, o[1].reg, ea);
    return;
  }
  case PPC_STBX: case PPC_STHX: case PPC_STWX: case PPC_STDX: {
    SVal v = sem_read_reg(c, o[0].reg);
    SVal a = reg_or_zero(c, o[1].reg), b = sem_read_reg(c, o[2].reg);
    sem_store(c, sem_op(c, S_ADD, a, b), v, access_size(ins->op), 0);
    return;
  }
  case PPC_LWARX: {
    SVal a = reg_or_zero(c, o[1].reg), b = sem_read_reg(c, o[2].reg);
    SVal ea = sem_op(c, S_ADD, a, b);
    sem_reserve(c, ea, 4);
    SVal v = sem_load(c, ea, 4, sem_tag(c, "X"));
    sem_write_reg(c, o[0].reg, v);
    return;
  }
  case PPC_STWCX: {
    SVal v = sem_read_reg(c, o[0].reg);
    SVal a = reg_or_zero(c, o[1].reg), b = sem_read_reg(c, o[2].reg);
    SVal ea = sem_op(c, S_ADD, a, b);
    SVal resv;
    int rsize;
    bool has = sem_reservation(c, &resv, &rsize);
    sem_clear_reservation(c);
    /* -variant mixed: herd's successful stwcx. writes one event of the
     * whole word among byte events, whose treatment we do not reproduce */
    if (has && sem_program(c)->mixed)
      sem_error(c, "-variant mixed: a store-conditional that may succeed is not supported");
    /* alternative 0: failure; 1: success at the reserved address.  As in
     * herd (PPCSem.ml, Pstwcx), everything after the register reads
     * depends on all of them: CR0 takes data from rS, rA and rB. */
    uint64_t all = v.deps | a.deps | b.deps;
    SVal cr = sem_int(c, 0);
    cr.deps = all;
    if (sem_choose(c, has ? 2 : 1) == 0) {
      sem_write_reg(c, PPC_CR0, cr);
      return;
    }
    sem_assume(c, sem_op(c, S_EQ, ea, resv));
    sem_store(c, ea, v, 4, sem_tag(c, "X"));
    cr = sem_int(c, CR_EQ);
    cr.deps = all;
    sem_write_reg(c, PPC_CR0, cr);
    return;
  }
  case PPC_CMPW: case PPC_CMPLW: {
    bool u = ins->op == PPC_CMPLW;
    SVal a = sem_read_reg(c, o[1].reg), b = sem_read_reg(c, o[2].reg);
    a = u ? sem_mask(c, a, 32) : sem_sext(c, a, 32);
    b = u ? sem_mask(c, b, 32) : sem_sext(c, b, 32);
    sem_write_reg(c, o[0].reg, cmp_field(c, a, b, u));
    return;
  }
  case PPC_CMPWI: case PPC_CMPLWI: {
    bool u = ins->op == PPC_CMPLWI;
    SVal a = sem_read_reg(c, o[1].reg);
    a = u ? sem_mask(c, a, 32) : sem_sext(c, a, 32);
    SVal b = sem_int(c, u ? (int64_t)(uint32_t)o[2].imm : o[2].imm);
    sem_write_reg(c, o[0].reg, cmp_field(c, a, b, u));
    return;
  }
  case PPC_B:
    sem_jump(c, o[0].sym);
    return;
  case PPC_BCC: {
    SVal cr = sem_read_reg(c, PPC_CR0);
    SVal cond = cond_of(c, cr, (int)o[0].imm);
    sem_commit(c, cond, EV_BCC, 0);
    sem_branch(c, cond, o[1].sym);
    return;
  }
  case PPC_BLR:
    sem_exit(c);
    return;
  case PPC_MTLR:
    sem_write_reg(c, PPC_LR, sem_read_reg(c, o[0].reg));
    return;
  case PPC_MFLR:
    sem_write_reg(c, o[0].reg, sem_read_reg(c, PPC_LR));
    return;
  case PPC_MFCR:
    sem_write_reg(c, o[0].reg, sem_read_reg(c, PPC_CR0));
    return;
  case PPC_SYNC: sem_fence(c, sem_tag(c, "SYNC")); return;
  case PPC_LWSYNC: sem_fence(c, sem_tag(c, "LWSYNC")); return;
  case PPC_ISYNC: sem_fence(c, sem_tag(c, "ISYNC")); return;
  case PPC_EIEIO: sem_fence(c, sem_tag(c, "EIEIO")); return;
  case PPC_BL: case PPC_LMW: case PPC_STMW:
    break;
  }
  sem_unsupported(c, NULL);
}

static const char *const ppc_sets[] = {"X", "SYNC", "LWSYNC", "ISYNC", "EIEIO", NULL};

const SemArch sem_ppc = {.arch = ARCH_PPC, .exec = exec_ppc, .set_names = ppc_sets};
