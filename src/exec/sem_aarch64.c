/*
 * sem_aarch64.c — semantics of AArch64 instructions, with herd7's events.
 *
 * aarch64.cat computes its own dependencies from register events (it is a
 * `catdep` model), so every instruction reads and writes registers
 * exactly as herd's AArch64 semantics does: one register-read event per
 * source operand (none for XZR / WZR, which read as 0), one register-write
 * event per destination (none for the zero register).  A W (32-bit) view
 * masks the value it writes to 32 bits, and the value it reads as data.
 *
 * Flags: CMP writes the register NZCV with the difference of its operands
 * (sign-extended from 32 bits for W operands); B.cond and CSEL test it.
 * This encodes the conditions EQ NE MI PL GE LT GT LE AL exactly when the
 * subtraction does not overflow, which holds for litmus-test values; the
 * carry-based conditions are refused.
 *
 * Annotations (cat sets): A for LDAR, LDAXR and acquire atomics, Q for
 * LDAPR, L for STLR, STLXR and release atomics, X for exclusive and atomic
 * accesses; the read of an atomic without result register (XZR
 * destination, ST<op>) is NoRet, and also X so that it pairs with its
 * write in rmw.  Fences DMB.SY, DMB.ISHLD, ..., DSB.*, ISB.
 *
 * Exclusives go through the reservation register AA_RESADDR as in herd
 * (the same store-conditional structure as RISC-V, sem_riscv.c): LDXR
 * writes the address there; STXR reads and clears it, then fails (Ws <- 1,
 * no write) or succeeds (a write at an address equal to the reservation,
 * Ws <- 0, the write controlling the status write).
 *
 * CAS is a predicated instruction with five alternatives (see cas()).
 * SWP's write is iico-after its read (a control edge), so that the read
 * cannot read from it.
 */
#include "../litmus/aarch64.h"
#include "sem.h"

/* ------------------------------------------------------------ registers */

static bool is_w(const Operand *o) { return o->sub == AA_W; }

/* An address or index read: the full register, no masking. */
static SVal rd_ord(SemCtx *c, int reg) {
  return reg == AA_ZR ? sem_int(c, 0) : sem_read_reg(c, reg);
}

/* A value read: masked to 32 bits for a W view. */
static SVal rd_val(SemCtx *c, const Operand *o) {
  SVal v = rd_ord(c, o->reg);
  return is_w(o) && o->reg != AA_ZR ? sem_mask(c, v, 32) : v;
}

static void wr_val(SemCtx *c, const Operand *o, SVal v) {
  if (o->reg == AA_ZR) return;
  sem_write_reg(c, o->reg, is_w(o) ? sem_mask(c, v, 32) : v);
}

static SVal op2(SemCtx *c, const Operand *o) {
  return o->kind == OPK_IMM ? sem_int(c, o->imm) : rd_val(c, o);
}

/* ------------------------------------------------------------ addresses */

static SVal address(SemCtx *c, const Operand *m) {
  SVal base = rd_ord(c, m->reg);
  switch ((AAAddrMode)m->sub) {
  case AA_AM_IMM:
  case AA_AM_PRE:
    return m->imm == 0 ? base : sem_op(c, S_ADD, base, sem_int(c, m->imm));
  case AA_AM_POST: return base;
  case AA_AM_REG: return sem_op(c, S_ADD, base, rd_ord(c, m->reg2));
  case AA_AM_LSL:
    return sem_op(c, S_ADD, base,
                  sem_op(c, S_SHL, rd_ord(c, m->reg2), sem_int(c, m->imm2)));
  case AA_AM_SXTW:
  case AA_AM_UXTW: {
    SVal idx = rd_ord(c, m->reg2);
    idx = m->sub == AA_AM_SXTW ? sem_sext(c, idx, 32) : sem_mask(c, idx, 32);
    if (m->imm2 != 0) idx = sem_op(c, S_SHL, idx, sem_int(c, m->imm2));
    return sem_op(c, S_ADD, base, idx);
  }
  }
  return base;
}

/* Base register write-back of the pre- and post-indexed forms. */
static void write_back(SemCtx *c, const Operand *m, SVal addr) {
  if (m->sub == AA_AM_PRE) {
    sem_write_reg(c, m->reg, addr);
  } else if (m->sub == AA_AM_POST && m->imm != 0) {
    SVal base = addr;
    sem_write_reg(c, m->reg, sem_op(c, S_ADD, base, sem_int(c, m->imm)));
  }
}

static int access_size(const Instr *ins) { return 1 << AA_FLAG_SIZE(ins->flags); }


/* ---------------------------------------------------- plain and ordered */

static void load(SemCtx *c, const Instr *ins, uint64_t tags, bool reserve) {
  const Operand *m = &ins->ops[1];
  SVal a = address(c, m);
  if (reserve) sem_write_reg(c, AA_RESADDR, a);
  SVal v = sem_load(c, a, access_size(ins), tags);
  write_back(c, m, a);
  wr_val(c, &ins->ops[0], v);
}

static void store(SemCtx *c, const Instr *ins, uint64_t tags) {
  const Operand *m = &ins->ops[1];
  SVal a = address(c, m);
  SVal v = rd_val(c, &ins->ops[0]);
  write_back(c, m, a);
  sem_store(c, a, v, access_size(ins), tags);
}

/* STXR / STLXR Ws,Rt,[Xn]: alternative 0 fails, 1 succeeds. */
static void store_excl(SemCtx *c, const Instr *ins, bool rel) {
  const Operand *o = ins->ops;
  SVal resa = sem_read_reg(c, AA_RESADDR);
  SVal v = rd_val(c, &o[1]);
  SVal a = rd_ord(c, o[2].reg);
  SVal cleared = sem_int(c, 0);
  cleared.deps = a.deps | resa.deps;
  sem_write_reg(c, AA_RESADDR, cleared);
  if (sem_choose(c, 2) == 0) {
    wr_val(c, &o[0], sem_int(c, 1));
    return;
  }
  sem_assume(c, sem_op(c, S_EQ, a, resa));
  SVal addr = a;
  addr.deps |= resa.deps;
  uint64_t tags = sem_tag(c, "X") | (rel ? sem_tag(c, "L") : 0);
  SVal w = sem_store(c, addr, v, access_size(ins), tags);
  sem_ctrl_dep(c, w);
  wr_val(c, &o[0], cleared);
}

/* ------------------------------------------------------------- atomics */

static uint64_t read_tags(SemCtx *c, const Instr *ins, bool noret) {
  AAMo mo = AA_FLAG_MO(ins->flags);
  if (noret) return sem_tag(c, "NoRet") | sem_tag(c, "X");
  return sem_tag(c, "X") | (mo == AA_MO_A || mo == AA_MO_AL ? sem_tag(c, "A") : 0);
}

static uint64_t write_tags(SemCtx *c, const Instr *ins) {
  AAMo mo = AA_FLAG_MO(ins->flags);
  return sem_tag(c, "X") | (mo == AA_MO_L || mo == AA_MO_AL ? sem_tag(c, "L") : 0);
}

static SVal aop_value(SemCtx *c, AAAop op, SVal old, SVal v) {
  switch (op) {
  case AA_AOP_ADD: return sem_op(c, S_ADD, old, v);
  case AA_AOP_EOR: return sem_op(c, S_XOR, old, v);
  case AA_AOP_SET: return sem_op(c, S_OR, old, v);
  case AA_AOP_CLR: return sem_op(c, S_ANDNOT, old, v);
  case AA_AOP_SMAX: return sem_select(c, sem_op(c, S_GT, old, v), old, v);
  case AA_AOP_SMIN: return sem_select(c, sem_op(c, S_LT, old, v), old, v);
  case AA_AOP_UMAX: return sem_select(c, sem_op(c, S_GTU, old, v), old, v);
  case AA_AOP_UMIN: return sem_select(c, sem_op(c, S_LTU, old, v), old, v);
  }
  return v;
}

/* SWP Rs,Rt,[Xn], LD<op> Rs,Rt,[Xn], ST<op> Rs,[Xn]: a read and a write
 * of the location; Rt <- old value. */
static void rmw(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  bool st = ins->op == AA_STOP;
  const Operand *rt = st ? NULL : &o[1];
  const Operand *m = &o[st ? 1 : 2];
  bool noret = st || rt->reg == AA_ZR;
  SVal a = rd_ord(c, m->reg);
  SVal v = rd_val(c, &o[0]);
  SVal old = sem_load(c, a, access_size(ins), read_tags(c, ins, noret));
  SVal nv = v;
  if (ins->op == AA_SWP)
    sem_ctrl_dep(c, old); /* the write follows the read (iico) */
  else
    nv = aop_value(c, AA_FLAG_AOP(ins->flags), old, v);
  sem_store(c, a, nv, access_size(ins), write_tags(c, ins));
  if (rt) wr_val(c, rt, old);
}

/* CAS Rs,Rt,[Xn]: herd's five alternatives, which differ in their
 * values and in their intra-instruction dependencies (aarch64.cat tells
 * them apart):
 *   0, 1  failure (memory != Rs): a read (not atomic: plain, or A for
 *         CASA/CASAL), no write, Rs <- old value; in 0 the commit
 *         controls the write of Rs, in 1 it does not;
 *   2     failure with write-back: an atomic read and a write of the old
 *         value, the pair in rmw;
 *   3, 4  success (memory = Rs): the atomic pair, writing Rt; Rs <- old,
 *         in 3 taken from the read of Rs (controlled by the commit), in 4
 *         from the memory read (not controlled).
 * Every alternative reads Xn and Rs (a data port, as herd reads it as a
 * value) and has a commit (PRED) computing "memory = Rs", which controls
 * the write.  Rt is read by the succeeding alternatives only. */
static void cas(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  SVal a = rd_ord(c, o[2].reg);
  SVal expect = rd_val(c, &o[0]);
  sem_data_port(c, expect);
  bool noret = o[0].reg == AA_ZR;
  int alt = sem_choose(c, 5);
  bool ok = alt >= 3, writeback = alt == 2;
  SVal nv = ok ? rd_val(c, &o[1]) : sem_int(c, 0);
  AAMo mo = AA_FLAG_MO(ins->flags);
  uint64_t rtags = ok || writeback || noret
                       ? read_tags(c, ins, noret)
                       : (mo == AA_MO_A || mo == AA_MO_AL ? sem_tag(c, "A") : 0);
  SVal old = sem_load(c, a, access_size(ins), rtags);
  SVal eq = sem_op(c, S_EQ, old, expect);
  SVal commit = sem_commit(c, eq, EV_PRED, 0);
  sem_assume(c, ok ? eq : sem_op1(c, S_NOT, eq));
  if (!ok && !writeback) {
    if (alt == 0) sem_ctrl_dep(c, commit);
    wr_val(c, &o[0], old);
    return;
  }
  /* Rs takes the value read, uncontrolled, in the write-back failure as
   * in success 4 (herd builds both with its `DataFromRx` success
   * structure: no commit -> Rs edge) */
  if (alt == 4 || writeback) wr_val(c, &o[0], old);
  sem_ctrl_dep(c, commit);
  /* the write-back stores the value read, but herd draws no iico_data
   * edge from the read: the value is the one the commit compared */
  SVal back = {old.s, 0, old.unk};
  sem_store(c, a, writeback ? back : nv, access_size(ins), write_tags(c, ins));
  if (alt == 3) wr_val(c, &o[0], expect);
}

/* ------------------------------------------------------------- control */

/* The condition on NZCV (the difference written by CMP). */
static SVal condition(SemCtx *c, AACond cc, SVal d) {
  SVal zero = sem_int(c, 0);
  switch (cc) {
  case AA_EQ: return sem_op(c, S_EQ, d, zero);
  case AA_NE: return sem_op(c, S_NE, d, zero);
  case AA_MI: case AA_LT: return sem_op(c, S_LT, d, zero);
  case AA_PL: case AA_GE: return sem_op(c, S_GE, d, zero);
  case AA_GT: return sem_op(c, S_GT, d, zero);
  case AA_LE: return sem_op(c, S_LE, d, zero);
  case AA_AL: return sem_int(c, 1);
  default: break;
  }
  sem_error(c, "AArch64 instruction '%s': condition %s is not supported",
            sem_instr(c)->text, aarch64_cond_names[cc]);
}

static void cmp(SemCtx *c, const Instr *ins) {
  SVal a = rd_val(c, &ins->ops[0]), b = op2(c, &ins->ops[1]);
  SVal d = sem_op(c, S_SUB, a, b);
  if (is_w(&ins->ops[0])) d = sem_sext(c, d, 32);
  sem_write_reg(c, AA_NZCV, d);
}

static void branch(SemCtx *c, SVal cond, const char *label) {
  sem_commit(c, cond, EV_BCC, 0);
  sem_branch(c, cond, label);
}

/* CSEL Rd,Rn,Rm,cc: the flags, a predication commit controlling the rest,
 * then the read of the selected register and the write of Rd. */
static void csel(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  SVal cond = condition(c, (AACond)o[3].imm, sem_read_reg(c, AA_NZCV));
  SVal commit = sem_commit(c, cond, EV_PRED, 0);
  sem_ctrl_dep(c, commit);
  Val k;
  bool first;
  if (sem_is_const(c, cond, &k)) {
    first = !(k.kind == VAL_INT && k.num == 0);
  } else {
    first = sem_choose(c, 2) == 0;
    sem_assume(c, first ? cond : sem_op1(c, S_NOT, cond));
  }
  wr_val(c, &o[0], rd_val(c, &o[first ? 1 : 2]));
}

/* ----------------------------------------------------------- the rest */

static SymOp alu_op(AAOp op) {
  switch (op) {
  case AA_ADD: return S_ADD;
  case AA_SUB: return S_SUB;
  case AA_AND: return S_AND;
  case AA_ORR: return S_OR;
  default: return S_XOR;
  }
}

/* DMB / DSB: the set DMB.<option> (DSB.<option>), in the order of
 * aarch64_barrier_names.  The table gives tag names that outlive the
 * call, as sem_tag requires. */
static const char *const dmb_sets[] = {
    "DMB.SY",  "DMB.LD",    "DMB.ST",    "DMB.OSH", "DMB.OSHLD", "DMB.OSHST",
    "DMB.ISH", "DMB.ISHLD", "DMB.ISHST", "DMB.NSH", "DMB.NSHLD", "DMB.NSHST",
};
static const char *const dsb_sets[] = {
    "DSB.SY",  "DSB.LD",    "DSB.ST",    "DSB.OSH", "DSB.OSHLD", "DSB.OSHST",
    "DSB.ISH", "DSB.ISHLD", "DSB.ISHST", "DSB.NSH", "DSB.NSHLD", "DSB.NSHST",
};

static void barrier(SemCtx *c, const Instr *ins) {
  const char *const *names = ins->op == AA_DMB ? dmb_sets : dsb_sets;
  sem_fence(c, sem_tag(c, names[ins->ops[0].imm]));
}

static bool exec_memory(SemCtx *c, const Instr *ins) {
  switch ((AAOp)ins->op) {
  case AA_LDR: load(c, ins, 0, false); return true;
  case AA_LDAR: load(c, ins, sem_tag(c, "A"), false); return true;
  case AA_LDAPR: load(c, ins, sem_tag(c, "Q"), false); return true;
  case AA_LDXR: load(c, ins, sem_tag(c, "X"), true); return true;
  case AA_LDAXR: load(c, ins, sem_tag(c, "X") | sem_tag(c, "A"), true); return true;
  case AA_STR: store(c, ins, 0); return true;
  case AA_STLR: store(c, ins, sem_tag(c, "L")); return true;
  case AA_STXR: store_excl(c, ins, false); return true;
  case AA_STLXR: store_excl(c, ins, true); return true;
  case AA_CAS: cas(c, ins); return true;
  case AA_SWP: case AA_LDOP: case AA_STOP: rmw(c, ins); return true;
  default: return false;
  }
}

static void exec_aarch64(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  if (exec_memory(c, ins)) return;
  switch ((AAOp)ins->op) {
  case AA_NOP: sem_nop(c); return;
  case AA_MOV: wr_val(c, &o[0], op2(c, &o[1])); return;
  case AA_ADD: case AA_SUB: case AA_AND: case AA_ORR: case AA_EOR:
    wr_val(c, &o[0], sem_op(c, alu_op((AAOp)ins->op), rd_val(c, &o[1]), op2(c, &o[2])));
    return;
  case AA_CMP: cmp(c, ins); return;
  case AA_CSEL: csel(c, ins); return;
  case AA_B: sem_jump(c, o[0].sym); return;
  case AA_BCC:
    branch(c, condition(c, (AACond)o[0].imm, sem_read_reg(c, AA_NZCV)), o[1].sym);
    return;
  case AA_CBZ: case AA_CBNZ:
    branch(c, sem_op(c, ins->op == AA_CBZ ? S_EQ : S_NE, rd_val(c, &o[0]), sem_int(c, 0)),
           o[1].sym);
    return;
  case AA_DMB: case AA_DSB: barrier(c, ins); return;
  case AA_ISB: sem_fence(c, sem_tag(c, "ISB")); return;
  default: break;
  }
  sem_error(c, "AArch64 instruction '%s' is not implemented", ins->text);
}

static const char *const aarch64_sets[] = {
    "X",         "A",         "Q",         "L",         "NoRet",
    "DMB.SY",    "DMB.LD",    "DMB.ST",    "DMB.OSH",   "DMB.OSHLD",
    "DMB.OSHST", "DMB.ISH",   "DMB.ISHLD", "DMB.ISHST", "DMB.NSH",
    "DMB.NSHLD", "DMB.NSHST", "DSB.SY",    "DSB.LD",    "DSB.ST",
    "DSB.OSH",   "DSB.OSHLD", "DSB.OSHST", "DSB.ISH",   "DSB.ISHLD",
    "DSB.ISHST", "DSB.NSH",   "DSB.NSHLD", "DSB.NSHST", "ISB",
    NULL,
};

const SemArch sem_aarch64 = {ARCH_AARCH64, exec_aarch64, aarch64_sets};
