/*
 * sem_arm.c — semantics of ARM (AArch32) instructions, with herd7's events.
 *
 * The flag Z is a register (ARM_Z) holding 1 when the last CMP found its
 * operands equal (or an S form's result was 0).  BEQ / BNE / CBZ / CBNZ
 * read it (or the register), create a commit event and branch.  A
 * conditional instruction (MOVNE, LDREQ...) reads Z and then runs only if
 * the condition holds: two alternatives when Z is not known, the flag read
 * controlling (iico_ctrl) the instruction's events, as in herd.
 *
 * Annotations as herd's ARM sets: X for every exclusive, acquire or
 * release access (herd counts LDA and STL as atomic), A and AL for
 * acquires, L for releases.  LDREX/STREX go through the reservation
 * register ARM_RESADDR; STREX has a failing (Rd <- 1) and a succeeding
 * (write at the reserved address, Rd <- 0) alternative, every event
 * depending on the three registers it reads.
 */
#include "../litmus/arm.h"
#include "sem_excl.h"

enum { WORD = 4 };

static SVal rreg(SemCtx *c, const Operand *o) { return sem_read_reg(c, o->reg); }

static SVal op2(SemCtx *c, const Operand *o) {
  return o->kind == OPK_IMM ? sem_int(c, o->imm) : rreg(c, o);
}

/* Z <- (a == b), for CMP and the S forms (b = 0). */
static void set_z(SemCtx *c, SVal a, SVal b) {
  sem_write_reg(c, ARM_Z, sem_op(c, S_EQ, a, b));
}

/* herd's checkZ: does a conditional instruction run on this path? */
static bool runs(SemCtx *c, const Instr *ins) {
  ARMCond cc = ARM_FLAG_COND(ins->flags);
  if (cc == ARM_AL) return true;
  SVal z = sem_read_reg(c, ARM_Z);
  SVal t = cc == ARM_EQ ? z : sem_op(c, S_XOR, z, sem_int(c, 1));
  Val v;
  if (sem_is_const(c, t, &v)) {
    sem_ctrl_dep(c, z);
    return !(v.kind == VAL_INT && v.num == 0);
  }
  bool run = sem_choose(c, 2) == 0;
  sem_assume(c, run ? t : sem_op1(c, S_NOT, t));
  sem_ctrl_dep(c, z);
  return run;
}

/* The effective address of a memory operand (arm.h addressing modes). */
static SVal address(SemCtx *c, const Operand *m) {
  SVal base = sem_read_reg(c, m->reg);
  switch ((ARMAddrMode)m->sub) {
  case ARM_AM_IMM: return sem_op(c, S_ADD, base, sem_int(c, m->imm));
  case ARM_AM_REG: return sem_op(c, S_ADD, base, sem_read_reg(c, m->reg2));
  case ARM_AM_LSL: {
    SVal idx = sem_op(c, S_SHL, sem_read_reg(c, m->reg2), sem_int(c, m->imm2));
    return sem_op(c, S_ADD, base, idx);
  }
  default: return base;
  }
}

static uint64_t tags(SemCtx *c, bool x, bool acq, bool rel) {
  uint64_t t = x ? sem_tag(c, "X") : 0;
  if (acq) t |= sem_tag(c, "A") | sem_tag(c, "AL");
  if (rel) t |= sem_tag(c, "L");
  return t;
}

static void alu(SemCtx *c, const Instr *ins, SymOp op) {
  const Operand *o = ins->ops;
  SVal r = sem_op(c, op, rreg(c, &o[1]), op2(c, &o[2]));
  sem_write_reg(c, o[0].reg, r);
  if (ins->flags & ARM_F_S) set_z(c, r, sem_int(c, 0));
}

/* LDREX / LDAEX: the reservation and an exclusive read. */
static void load_excl(SemCtx *c, const Instr *ins, bool acq) {
  SVal a = sem_read_reg(c, ins->ops[1].reg);
  sem_write_reg(c, ARM_RESADDR, a);
  sem_write_reg(c, ins->ops[0].reg, sem_load(c, a, WORD, tags(c, true, acq, false)));
}

/* STREX / STLEX Rd,Rt,[Rn] (alternative 0 fails, 1 succeeds). */
static void store_excl(SemCtx *c, const Instr *ins, bool rel) {
  const Operand *o = ins->ops;
  SVal v = rreg(c, &o[1]);
  SVal a = sem_read_reg(c, o[2].reg);
  uint64_t deps;
  bool ok = sem_excl_store(c, ARM_RESADDR, a, v, WORD, tags(c, true, false, rel), &deps);
  SVal status = sem_int(c, ok ? 0 : 1);
  status.deps = deps;
  sem_write_reg(c, o[0].reg, status);
}

/* LDRD, LDM, LDMIB: consecutive words from the base (+4 for IB). */
static void load_multiple(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  bool ldrd = ins->op == ARM_LDRD;
  const Operand *m = ldrd ? &o[2] : &o[0];
  SVal a = ldrd ? address(c, m) : sem_read_reg(c, m->reg);
  if (ins->op == ARM_LDMIB) a = sem_op(c, S_ADD, a, sem_int(c, WORD));
  int first = ldrd ? 0 : 1, last = ldrd ? 2 : ins->nops;
  SVal v[3];
  for (int i = first; i < last; i++)
    v[i - first] = sem_load(c, sem_op(c, S_ADD, a, sem_int(c, WORD * (i - first))), WORD, 0);
  for (int i = first; i < last; i++) sem_write_reg(c, o[i].reg, v[i - first]);
}

static void branch(SemCtx *c, SVal cond, const char *label) {
  sem_commit(c, cond, EV_BCC, 0);
  sem_branch(c, cond, label);
}

static bool exec_memory(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  switch ((ARMOp)ins->op) {
  case ARM_LDR:
  case ARM_LDA:
    if (runs(c, ins)) {
      SVal a = address(c, &o[1]);
      bool acq = ins->op == ARM_LDA;
      sem_write_reg(c, o[0].reg, sem_load(c, a, WORD, tags(c, acq, acq, false)));
    }
    return true;
  case ARM_STR:
  case ARM_STL:
    if (runs(c, ins)) {
      SVal a = address(c, &o[1]);
      bool rel = ins->op == ARM_STL;
      sem_store(c, a, rreg(c, &o[0]), WORD, tags(c, rel, false, rel));
    }
    return true;
  case ARM_LDREX: load_excl(c, ins, false); return true;
  case ARM_LDAEX: load_excl(c, ins, true); return true;
  case ARM_STREX: store_excl(c, ins, false); return true;
  case ARM_STLEX: store_excl(c, ins, true); return true;
  case ARM_LDRD: case ARM_LDM: case ARM_LDMIB: load_multiple(c, ins); return true;
  default: return false;
  }
}

static const char *const dmb_sets[] = {"DMB", "DMB.ST", "DMB.ISH"};
static const char *const dsb_sets[] = {"DSB", "DSB.ST", NULL};

/* DMB / DSB: herd names sets for SY, ST and DMB ISH only. */
static void barrier(SemCtx *c, const Instr *ins) {
  int opt = (int)ins->ops[0].imm;
  const char *const *names = ins->op == ARM_DMB ? dmb_sets : dsb_sets;
  const char *name = opt == ARM_OPT_SY ? names[0] : opt == ARM_OPT_ST ? names[1]
                     : opt == ARM_OPT_ISH ? names[2] : NULL;
  sem_fence(c, name ? sem_tag(c, name) : 0);
}

static void mov(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  if (!runs(c, ins)) return;
  SVal v = op2(c, &o[1]);
  if (ins->op == ARM_MOVT) { /* the top half; the low half stays */
    SVal low = sem_op(c, S_AND, rreg(c, &o[0]), sem_int(c, 0xffff));
    v = sem_op(c, S_OR, low, sem_int(c, (int64_t)((uint64_t)(o[1].imm & 0xffff) << 16)));
  }
  sem_write_reg(c, o[0].reg, v);
}

static void exec_arm(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  if (exec_memory(c, ins)) return;
  switch ((ARMOp)ins->op) {
  case ARM_NOP: return;
  case ARM_ADD: alu(c, ins, S_ADD); return;
  case ARM_SUB: alu(c, ins, S_SUB); return;
  case ARM_AND: alu(c, ins, S_AND); return;
  case ARM_ORR: alu(c, ins, S_OR); return;
  case ARM_EOR: alu(c, ins, S_XOR); return;
  case ARM_ANDC:
    if (runs(c, ins)) sem_write_reg(c, o[0].reg, sem_op(c, S_AND, rreg(c, &o[1]), rreg(c, &o[2])));
    return;
  case ARM_CMP: set_z(c, rreg(c, &o[0]), op2(c, &o[1])); return;
  case ARM_MOV: case ARM_MOVW: case ARM_MOVT: mov(c, ins); return;
  case ARM_B: sem_jump(c, o[0].sym); return;
  case ARM_BEQ: branch(c, sem_read_reg(c, ARM_Z), o[0].sym); return;
  case ARM_BNE:
    branch(c, sem_op(c, S_XOR, sem_read_reg(c, ARM_Z), sem_int(c, 1)), o[0].sym);
    return;
  case ARM_CBZ:
  case ARM_CBNZ:
    branch(c, sem_op(c, ins->op == ARM_CBZ ? S_EQ : S_NE, rreg(c, &o[0]), sem_int(c, 0)), o[1].sym);
    return;
  case ARM_BX: sem_jump_value(c, rreg(c, &o[0])); return;
  case ARM_DMB: case ARM_DSB: barrier(c, ins); return;
  case ARM_ISB: sem_fence(c, sem_tag(c, "ISB")); return;
  default: break;
  }
  sem_unsupported(c, NULL);
}

static const char *const arm_sets[] = {
    "X", "A", "L", "AL", "NoRet", "DMB", "DMB.ISH", "DSB", "DMB.ST", "DSB.ST",
    "ISB", NULL,
};

const SemArch sem_arm = {.arch = ARCH_ARM, .exec = exec_arm, .set_names = arm_sets};
