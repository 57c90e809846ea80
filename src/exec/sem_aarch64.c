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
 * Flags: ADDS, SUBS, ANDS, BICS (and their aliases CMP, TST, NEGS) write
 * the register NZCV with N<<3 | Z<<2 | C<<1 | V computed as herd does;
 * B.cond, CSEL and its kin test it with the Arm ARM's condition formulas.
 * Values follow herd's masking: a W-view result is masked to 32 bits
 * where herd masks it (ALU operations, MOV, CSINC...), not where herd
 * does not (MOVN, bitfield moves, multiplies keep 64 bits).
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
 * Ws <- 0; unlike RISC-V's, no edge reaches Ws: see store_excl()).
 *
 * CAS is a predicated instruction with five alternatives (see cas()).
 * SWP's write is iico-after its read (iico_order, as herd's swp_or_amo),
 * so that the read cannot read from it.
 */
#include "../litmus/aarch64_simd.h"
#include "sem.h"
#include "sem_aarch64.h"
#include "vmsa.h"

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

/* A write as herd's write_reg_dest: no masking. */
static void wr_raw(SemCtx *c, const Operand *o, SVal v) {
  if (o->reg != AA_ZR) sem_write_reg(c, o->reg, v);
}

/* herd's read_reg_data: a value read, a data port. */
static SVal rd_data(SemCtx *c, const Operand *o) {
  SVal v = rd_val(c, o);
  sem_data_port(c, v);
  return v;
}

/* ------------------------------------------------------------ addresses */

SVal aarch64_address(SemCtx *c, const Operand *m) {
  SVal base = rd_ord(c, m->reg);
  switch ((AAAddrMode)m->sub) {
  case AA_AM_IMM:
  case AA_AM_PRE:
    return m->imm == 0 ? base : sem_op(c, S_ADD, base, sem_int(c, m->imm));
  case AA_AM_POST: return base;
  case AA_AM_REG: return sem_op(c, S_ADD, base, rd_ord(c, m->reg2));
  case AA_AM_LSL:
  case AA_AM_SXTX:
    return sem_op(c, S_ADD, base,
                  m->imm2 == 0 ? rd_ord(c, m->reg2)
                               : sem_op(c, S_SHL, rd_ord(c, m->reg2), sem_int(c, m->imm2)));
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
void aarch64_write_back(SemCtx *c, const Operand *m, SVal addr) {
  if (m->sub == AA_AM_PRE) {
    sem_write_reg(c, m->reg, addr);
  } else if (m->sub == AA_AM_POST && m->imm != 0) {
    SVal base = addr;
    sem_write_reg(c, m->reg, sem_op(c, S_ADD, base, sem_int(c, m->imm)));
  }
}

static int access_size(const Instr *ins) { return 1 << AA_FLAG_SIZE(ins->flags); }


/* ---------------------------------------------------- plain and ordered */

/* The value a load of n bytes writes to its register: zero-extended
 * (LDR, LDRB...), sign-extended (LDRSW, LDRSB / LDRSH to an X register),
 * or sign-extended then masked (LDRSB / LDRSH to a W register). */
static SVal load_value(SemCtx *c, const Instr *ins, SVal v) {
  int bits = 8 * access_size(ins);
  if (ins->op == AA_LDRSW || ins->op == AA_LDRS || ins->op == AA_LDPSW) {
    v = sem_sext(c, v, bits);
    return is_w(&ins->ops[0]) ? sem_mask(c, v, 32) : v;
  }
  return bits < 64 ? sem_mask(c, v, bits) : v;
}

static void load(SemCtx *c, const Instr *ins, uint64_t tags, bool reserve) {
  const Operand *m = &ins->ops[1];
  SVal a = aarch64_address(c, m);
  bool memtag = sem_program(c)->memtag;
  /* -variant memtag: herd writes a pre-indexed base with the address,
   * before the check (so even when it faults), a post-indexed one with
   * the access */
  bool wb_first = memtag && m->sub == AA_AM_PRE;
  if (wb_first) aarch64_write_back(c, m, a);
  if (reserve && !memtag) {
    sem_write_reg(c, AA_RESADDR, a);
    sem_reserve(c, a, access_size(ins));
  }
  SVal pa = a; /* -variant kvm: the physical address (vmsa.c) */
  if (!vmsa_access(c, &pa, false, &tags)) return;
  if (!aarch64_mte_check(c, &pa, false)) return;
  if (reserve && memtag) { /* herd reserves the checked address */
    sem_write_reg(c, AA_RESADDR, pa);
    sem_reserve(c, pa, access_size(ins));
  }
  SVal v = sem_load(c, pa, access_size(ins), tags);
  sem_ctrl_reset(c);
  if (!wb_first) aarch64_write_back(c, m, a);
  wr_raw(c, &ins->ops[0], load_value(c, ins, v));
}

static void store(SemCtx *c, const Instr *ins, uint64_t tags) {
  const Operand *m = &ins->ops[1];
  SVal a = aarch64_address(c, m);
  SVal v = rd_val(c, &ins->ops[0]);
  if (access_size(ins) < 4 && ins->ops[0].reg != AA_ZR)
    v = sem_mask(c, v, 8 * access_size(ins));
  /* -variant memtag: herd writes a post-indexed base with the access (not
   * when the check faults), a pre-indexed one with the address */
  bool wb_last = sem_program(c)->memtag && m->sub == AA_AM_POST;
  SVal base = a;
  if (!wb_last) aarch64_write_back(c, m, a);
  if (!vmsa_access(c, &a, true, &tags)) return;
  if (!aarch64_mte_check(c, &a, true)) return;
  sem_store(c, a, v, access_size(ins), tags);
  sem_ctrl_reset(c);
  if (wb_last) aarch64_write_back(c, m, base);
}

/* STXR / STLXR Ws,Rt,[Xn] and STXP / STLXP Ws,Rt1,Rt2,[Xn]: alternative
 * 0 fails, 1 succeeds (a write, two for a pair, at an address equal to
 * the reservation).  Edges as herd's riscv_sc (event.ml) with AArch64's
 * defaults (variant.ml: no SwitchDepScWrite, no SwitchDepScResult): the
 * reservation read controls its clearing and the write (for a pair, the
 * reads of its data registers too), the write takes data from Xn and Rt,
 * and Ws depends on nothing. */
static void store_excl(SemCtx *c, const Instr *ins, bool rel) {
  const Operand *o = ins->ops;
  bool pair = ins->op == AA_STXP;
  int n = access_size(ins);
  SVal resa = sem_read_reg(c, AA_RESADDR);
  /* STXR reads its data register first; STXP its two only on success */
  SVal v = pair ? sem_int(c, 0) : rd_val(c, &o[1]);
  SVal a = rd_ord(c, o[pair ? 3 : 2].reg);
  /* -variant memtag: checked as a store, the commit (or the fault of an
   * asynchronous mismatch) controlling the write only */
  MteCheck chk = {.write = true, .ctrl = MTE_CTRL_NONE};
  if (!aarch64_mte_check_with(c, &a, &chk)) return;
  sem_ctrl_dep(c, resa);
  sem_write_reg(c, AA_RESADDR, sem_int(c, 0));
  /* herd: fails when no load-exclusive of the same size precedes it on
   * the path (since the last store-exclusive) */
  int lx_size;
  bool may_succeed = sem_reservation(c, NULL, &lx_size) && lx_size == n;
  sem_clear_reservation(c);
  if (!may_succeed || sem_choose(c, 2) == 0) {
    sem_ctrl_reset(c);
    wr_val(c, &o[0], sem_int(c, 1));
    return;
  }
  sem_assume(c, sem_op(c, S_EQ, a, resa));
  uint64_t tags = sem_tag(c, "X") | (rel ? sem_tag(c, "L") : 0);
  sem_ctrl_dep(c, chk.after);
  SVal w1 = sem_store(c, a, pair ? rd_val(c, &o[1]) : v, n, tags);
  if (pair) {
    SVal w2 = sem_store(c, sem_op(c, S_ADD, a, sem_int(c, n)), rd_val(c, &o[2]), n, tags);
    sem_single_copy(c, w1), sem_single_copy(c, w2);
  }
  sem_ctrl_reset(c);
  wr_val(c, &o[0], sem_int(c, 0));
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
  uint64_t pt = 0; /* -variant kvm: one translation, as a write (vmsa.c) */
  AAMo mo = AA_FLAG_MO(ins->flags);
  uint64_t an = mo == AA_MO_A || mo == AA_MO_AL ? sem_tag(c, "A") : 0; /* herd's rmw_to_read */
  if (!vmsa_access_an(c, &a, true, true, an, &pt)) return;
  /* -variant memtag: checked as a write; a match controls the read, the
   * write and Rt's write (herd's swp_or_amo) */
  MteCheck chk = {.write = true, .ctrl = MTE_CTRL_ALWAYS};
  if (!aarch64_mte_check_with(c, &a, &chk)) return;
  bool memtag = sem_program(c)->memtag;
  SVal old = sem_load(c, a, access_size(ins), read_tags(c, ins, noret) | pt);
  SVal nv = v;
  if (ins->op == AA_SWP)
    sem_order_dep(c, old); /* the write follows the read: herd's iico_order */
  else
    nv = aop_value(c, AA_FLAG_AOP(ins->flags), old, v);
  sem_store(c, a, nv, access_size(ins), write_tags(c, ins) | pt);
  if (!memtag) sem_ctrl_reset(c);
  if (rt) wr_val(c, rt, old);
  sem_ctrl_reset(c);
}

/* -variant memtag: CAS and CASP check their address in each of herd's
 * three groups of alternatives (success: 3, 4; failure with write-back:
 * 2, checked as writes; failure without a write: 0, 1, checked as a
 * read), one fault per group; the commit controls none of the accesses
 * (herd's aarch64_cas_ok / aarch64_cas_no, virtual addresses). */
static bool cas_check(SemCtx *c, SVal *a, int alt) {
  MteCheck chk = {.write = alt >= 2, .ctrl = MTE_CTRL_NONE, .dup_fault = alt == 1 || alt == 4};
  return aarch64_mte_check_with(c, a, &chk);
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
/* -variant kvm: herd's three groups of alternatives each translate the
 * address once (vmsa_access_an, before the group splits: one fault per
 * group): success and failure with write-back as writes, failure without
 * a write as a read, all three may update db (herd's updatedb); a fault
 * has the read's annotation (A for CASA, CASAL).  The check's commit
 * controls the memory accesses only (herd's aarch64_cas_ok / _no: its
 * ctrl output to the read and the write), returned in *pte; *pt gets the
 * PTE tag of an access to an entry.  The alternative, or -1 on a fault. */
static int cas_translate(SemCtx *c, const Instr *ins, SVal *a, SVal *pte, uint64_t *pt) {
  static const int first[3] = {3, 2, 0}, count[3] = {2, 1, 2};
  int g = sem_choose(c, 3);
  AAMo mo = AA_FLAG_MO(ins->flags);
  uint64_t an = mo == AA_MO_A || mo == AA_MO_AL ? sem_tag(c, "A") : 0;
  if (!vmsa_access_an(c, a, g != 2, true, an, pt)) return -1;
  *pte = sem_ctrl_take(c);
  return first[g] + (count[g] > 1 ? sem_choose(c, 2) : 0);
}

static void cas(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  bool memtag = sem_program(c)->memtag, kvm = sem_program(c)->kvm;
  SVal a = rd_ord(c, o[2].reg), expect = {0}, pte = {0};
  uint64_t pt = 0;
  if (!memtag && !kvm) expect = rd_val(c, &o[0]), sem_data_port(c, expect);
  bool noret = o[0].reg == AA_ZR;
  int alt = kvm ? cas_translate(c, ins, &a, &pte, &pt) : sem_choose(c, 5);
  if (alt < 0) return;
  if (memtag) {
    if (!cas_check(c, &a, alt)) return;
  }
  if (memtag || kvm) {
    expect = rd_val(c, &o[0]);
    sem_data_port(c, expect);
  }
  bool ok = alt >= 3, writeback = alt == 2;
  SVal nv = ok ? rd_val(c, &o[1]) : sem_int(c, 0);
  AAMo mo = AA_FLAG_MO(ins->flags);
  uint64_t rtags = ok || writeback || noret
                       ? read_tags(c, ins, noret)
                       : (mo == AA_MO_A || mo == AA_MO_AL ? sem_tag(c, "A") : 0);
  sem_ctrl_dep(c, pte);
  SVal old = sem_load(c, a, access_size(ins), rtags | pt);
  sem_ctrl_reset(c);
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
  sem_ctrl_dep(c, pte);
  /* the write-back stores the value read, but herd draws no iico_data
   * edge from the read: the value is the one the commit compared */
  SVal back = {old.s, 0, old.unk, old.hv};
  sem_store(c, a, writeback ? back : nv, access_size(ins), write_tags(c, ins) | pt);
  sem_ctrl_reset(c);
  sem_ctrl_dep(c, commit);
  if (alt == 3) wr_val(c, &o[0], expect);
}

/* CASP Rs,Rs2,Rt,Rt2,[Xn]: CAS on the pair of locations at a and a+n,
 * with herd's five alternatives of cas() (no NoRet form: herd's casp has
 * none); the comparison is of both halves.  Only the success reads are
 * atomic (X). */
static void casp(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  int n = access_size(ins);
  bool memtag = sem_program(c)->memtag;
  SVal a = rd_ord(c, o[4].reg), e1 = {0}, e2 = {0};
  if (!memtag) {
    e1 = rd_val(c, &o[0]), e2 = rd_val(c, &o[1]);
    sem_data_port(c, e1);
    sem_data_port(c, e2);
  }
  int alt = sem_choose(c, 5);
  if (memtag) {
    if (!cas_check(c, &a, alt)) return;
    e1 = rd_val(c, &o[0]), e2 = rd_val(c, &o[1]);
    sem_data_port(c, e1);
    sem_data_port(c, e2);
  }
  bool ok = alt >= 3, writeback = alt == 2;
  SVal n1 = sem_int(c, 0), n2 = n1;
  if (ok) n1 = rd_data(c, &o[2]), n2 = rd_data(c, &o[3]);
  AAMo mo = AA_FLAG_MO(ins->flags);
  /* unlike CAS's, the write-back failure's reads are plain (herd reads
   * them as the failure without write does), so not in rmw */
  uint64_t rtags = ok ? read_tags(c, ins, false)
                      : (mo == AA_MO_A || mo == AA_MO_AL ? sem_tag(c, "A") : 0);
  SVal a2 = sem_op(c, S_ADD, a, sem_int(c, n));
  SVal m1 = sem_load(c, a, n, rtags), m2 = sem_load(c, a2, n, rtags);
  SVal eq = sem_op(c, S_AND, sem_op(c, S_EQ, m1, e1), sem_op(c, S_EQ, m2, e2));
  SVal commit = sem_commit(c, eq, EV_PRED, 0);
  sem_assume(c, ok ? eq : sem_op1(c, S_NOT, eq));
  if (!ok && !writeback) {
    if (alt == 0) sem_ctrl_dep(c, commit);
    wr_val(c, &o[0], m1);
    wr_val(c, &o[1], m2);
    return;
  }
  if (alt == 4 || writeback) wr_val(c, &o[0], m1), wr_val(c, &o[1], m2);
  sem_ctrl_dep(c, commit);
  SVal b1 = m1, b2 = m2;
  b1.deps = b2.deps = 0; /* as cas(): the write-back has no data edge */
  sem_store(c, a, writeback ? b1 : n1, n, write_tags(c, ins));
  sem_store(c, a2, writeback ? b2 : n2, n, write_tags(c, ins));
  if (alt == 3) wr_val(c, &o[0], e1), wr_val(c, &o[1], e2);
}

/* ------------------------------------------------------------- pairs */

/* LDP / LDNP / LDIAPP / LDPSW Rt1,Rt2,ADDR: two reads at a and a+n, the
 * base written back by the pre- and post-indexed forms. */
static void load_pair(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops, *m = &o[2];
  int n = access_size(ins);
  uint64_t tags = ins->op == AA_LDP && AA_FLAG_X(ins->flags) == AA_PAIR_RCPC
                      ? sem_tag(c, "Q") : 0;
  SVal a = aarch64_address(c, m);
  /* -variant memtag: one check of the first address; the base is written
   * back only after it (herd's ldp_wback) */
  SVal pa = a;
  if (!aarch64_mte_check(c, &pa, false)) return;
  SVal v1 = sem_load(c, pa, n, tags);
  SVal v2 = sem_load(c, sem_op(c, S_ADD, pa, sem_int(c, n)), n, tags);
  sem_ctrl_reset(c);
  if (tags) sem_order_mem(c, v1, v2); /* LDIAPP: herd's seq_mem */
  aarch64_write_back(c, m, a);
  wr_raw(c, &o[0], load_value(c, ins, v1));
  wr_raw(c, &o[1], load_value(c, ins, v2));
}

/* STP / STNP / STILP Rt1,Rt2,ADDR; STILP's writes are L and ordered
 * (iico_order) */
static void store_pair(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops, *m = &o[2];
  int n = access_size(ins);
  uint64_t tags = AA_FLAG_X(ins->flags) == AA_PAIR_RCPC ? sem_tag(c, "L") : 0;
  SVal a = aarch64_address(c, m);
  /* -variant memtag: one check of the first address, then the writes and
   * the write-back (herd's stp_wback) */
  bool memtag = sem_program(c)->memtag;
  if (!memtag) aarch64_write_back(c, m, a);
  SVal pa = a;
  if (!aarch64_mte_check(c, &pa, true)) return;
  SVal w1 = sem_store(c, pa, rd_val(c, &o[0]), n, tags);
  SVal w2 = sem_store(c, sem_op(c, S_ADD, pa, sem_int(c, n)), rd_val(c, &o[1]), n, tags);
  sem_ctrl_reset(c);
  if (memtag) aarch64_write_back(c, m, a);
  /* STILP: herd orders the writes (seq_mem), the second one first in the
   * pre-indexed form */
  if (tags && m->sub == AA_AM_PRE)
    sem_order_mem(c, w2, w1);
  else if (tags)
    sem_order_mem(c, w1, w2);
}

/* LDXP / LDAXP Rt1,Rt2,[Xn]: the first read reserves the address. */
static void load_excl_pair(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  int n = access_size(ins);
  uint64_t tags = sem_tag(c, "X") | (AA_FLAG_X(ins->flags) ? sem_tag(c, "A") : 0);
  SVal a = rd_ord(c, o[2].reg);
  if (!aarch64_mte_check(c, &a, false)) return; /* -variant memtag */
  sem_write_reg(c, AA_RESADDR, a);
  sem_reserve(c, a, n);
  SVal v1 = sem_load(c, a, n, tags);
  SVal v2 = sem_load(c, sem_op(c, S_ADD, a, sem_int(c, n)), n, tags);
  sem_ctrl_reset(c);
  sem_single_copy(c, v1), sem_single_copy(c, v2); /* herd's >>|| */
  wr_val(c, &o[0], v1);
  wr_val(c, &o[1], v2);
}

/* --------------------------------------------------------------- flags */

static SVal k_(SemCtx *c, int64_t k) { return sem_int(c, k); }

/* Bit k of v, 0 or 1. */
static SVal bit(SemCtx *c, SVal v, int k) {
  return sem_op(c, S_AND, sem_op(c, S_SHR, v, k_(c, k)), k_(c, 1));
}

static SVal or3(SemCtx *c, SVal a, SVal b, SVal d) {
  return sem_op(c, S_OR, sem_op(c, S_OR, a, b), d);
}

static SVal not_(SemCtx *c, SVal v) { return sem_op(c, S_XOR, v, k_(c, -1)); }

/* NZCV after an operation of `bits` bits on x and y giving res (herd's
 * op_set_flags; the carry and overflow formulas of Hacker's Delight 2-13,
 * subtraction as x + ~y + 1). */
static SVal nzcv(SemCtx *c, AAOp op, int bits, SVal res, SVal x, SVal y) {
  int top = bits - 1;
  SVal nz = sem_op(c, S_OR, sem_op(c, S_SHL, bit(c, res, top), k_(c, 3)),
                   sem_op(c, S_SHL, sem_op(c, S_EQ, res, k_(c, 0)), k_(c, 2)));
  if (op != AA_ADDS && op != AA_SUBS) return nz;
  /* herd: operands that are not integers (instructions) count as the
   * result and as 0 */
  x = sem_to_int(c, x, res);
  y = sem_to_int(c, y, k_(c, 0));
  SVal carry, ovf;
  if (op == AA_ADDS) {
    carry = sem_op(c, S_OR, sem_op(c, S_AND, x, y),
                   sem_op(c, S_ANDNOT, sem_op(c, S_OR, x, y), res));
    ovf = sem_op(c, S_AND, sem_op(c, S_XOR, res, x), sem_op(c, S_XOR, res, y));
  } else {
    SVal ny = not_(c, y);
    carry = sem_op(c, S_OR, sem_op(c, S_AND, x, ny),
                   sem_op(c, S_ANDNOT, sem_op(c, S_OR, x, ny), res));
    ovf = sem_op(c, S_AND, sem_op(c, S_XOR, x, y), sem_op(c, S_XOR, res, x));
  }
  return or3(c, nz, sem_op(c, S_SHL, bit(c, carry, top), k_(c, 1)), bit(c, ovf, top));
}

/* The condition cc on the flags (the Arm ARM's ConditionHolds). */
static SVal condition(SemCtx *c, AACond cc, SVal f) {
  SVal n = bit(c, f, 3), z = bit(c, f, 2), cy = bit(c, f, 1), v = bit(c, f, 0);
  SVal zero = k_(c, 0);
  switch (cc) {
  case AA_EQ: return z;
  case AA_NE: return sem_op(c, S_EQ, z, zero);
  case AA_CS: return cy;
  case AA_CC: return sem_op(c, S_EQ, cy, zero);
  case AA_MI: return n;
  case AA_PL: return sem_op(c, S_EQ, n, zero);
  case AA_VS: return v;
  case AA_VC: return sem_op(c, S_EQ, v, zero);
  case AA_HI: return sem_op(c, S_AND, cy, sem_op(c, S_EQ, z, zero));
  case AA_LS: return sem_op(c, S_OR, sem_op(c, S_EQ, cy, zero), z);
  case AA_GE: return sem_op(c, S_EQ, n, v);
  case AA_LT: return sem_op(c, S_XOR, n, v);
  case AA_GT: return sem_op(c, S_AND, sem_op(c, S_EQ, n, v), sem_op(c, S_EQ, z, zero));
  case AA_LE: return sem_op(c, S_OR, sem_op(c, S_XOR, n, v), z);
  case AA_AL: break;
  }
  return k_(c, 1);
}

/* ------------------------------------------------------------- the ALU */

static int width(const Operand *o) { return is_w(o) ? 32 : 64; }

/* herd's opext_shift: LSL shifts as is, LSR / ASR first zero- / sign-
 * extend from the operation's size, ROR combines both. */
static SVal shift(SemCtx *c, AAShift sh, int bits, int64_t k, SVal v) {
  switch (sh) {
  case AA_SH_LSL: return k == 0 ? v : sem_op(c, S_SHL, v, k_(c, k));
  case AA_SH_LSR:
    v = sem_mask(c, v, bits);
    return k == 0 ? v : sem_op(c, S_SHR, v, k_(c, k));
  case AA_SH_ASR:
    v = sem_sext(c, v, bits);
    return k == 0 ? v : sem_op(c, S_SAR, v, k_(c, k));
  case AA_SH_ROR: {
    int64_t m = k % bits;
    SVal lo = shift(c, AA_SH_LSR, bits, m, v);
    return sem_op(c, S_OR, lo, shift(c, AA_SH_LSL, bits, bits - m, v));
  }
  }
  return v;
}

/* The value of an operation on x and y (herd's mop3). */
static SVal alu_value(SemCtx *c, AAOp op, int bits, SVal x, SVal y) {
  switch (op) {
  case AA_ADD: case AA_ADDS: return sem_op(c, S_ADD, x, y);
  case AA_SUB: case AA_SUBS: return sem_op(c, S_SUB, x, y);
  case AA_AND: case AA_ANDS: return sem_op(c, S_AND, x, y);
  case AA_ORR: return sem_op(c, S_OR, x, y);
  case AA_ORN: return sem_op(c, S_OR, x, not_(c, y));
  case AA_EOR: return sem_op(c, S_XOR, x, y);
  case AA_BIC: case AA_BICS: return sem_op(c, S_ANDNOT, x, y);
  case AA_ASR: return sem_op(c, S_SAR, x, sem_mask(c, y, bits));
  case AA_LSR: return sem_op(c, S_SHR, x, sem_mask(c, y, bits));
  case AA_LSL: return sem_op(c, S_SHL, x, sem_mask(c, y, bits));
  case AA_ROR: {
    SVal k = sem_mask(c, y, bits);
    return sem_op(c, S_OR, sem_op(c, S_SHR, x, k),
                  sem_op(c, S_SHL, x, sem_op(c, S_SUB, k_(c, bits), k)));
  }
  default: break;
  }
  return x;
}

/* Rd <- x op y, masked to the operation's size; the flag-setting forms
 * also write NZCV. */
static void alu_finish(SemCtx *c, AAOp op, const Operand *rd, SVal x, SVal y) {
  int bits = width(rd);
  SVal res = alu_value(c, op, bits, x, y);
  if (bits == 32) res = sem_mask(c, res, 32);
  wr_raw(c, rd, res);
  if (op == AA_ADDS || op == AA_SUBS || op == AA_ANDS || op == AA_BICS)
    sem_write_reg(c, AA_NZCV, nzcv(c, op, bits, res, x, y));
}

/* I_OP3: Rn is read once even when it is also the shifted operand. */
static void alu(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  int bits = width(&o[0]);
  SVal x = rd_val(c, &o[1]), y;
  if (o[2].kind == OPK_IMM) {
    y = shift(c, AA_SH_LSL, bits, o[2].imm2, k_(c, o[2].imm));
  } else {
    SVal m = o[2].reg == o[1].reg ? x : rd_val(c, &o[2]);
    y = shift(c, (AAShift)o[2].imm, bits, o[2].imm2, m);
  }
  alu_finish(c, (AAOp)ins->op, &o[0], x, y);
}

/* ADD Rd,Rn,Rm,ext {k}: herd shifts, then extends. */
static void alu_ext(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  SVal x = rd_val(c, &o[1]), y = rd_val(c, &o[2]);
  if (o[2].imm2 > 0) y = sem_op(c, S_SHL, y, k_(c, o[2].imm2));
  static const int ext_bits[] = {8, 16, 32, 64, 8, 16, 32, 64};
  int b = ext_bits[o[2].imm];
  if (o[2].imm >= AA_EXT_SXTB) y = b < 64 ? sem_sext(c, y, b) : y;
  else if (b < 64) y = sem_mask(c, y, b);
  alu_finish(c, (AAOp)AA_FLAG_X(ins->flags), &o[0], x, y);
}

/* MOVZ / MOVN / MOVK Rd,#k{,LSL #s} (MOVN is not masked, as in herd). */
static void movw(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  int64_t s = o[1].imm2 < 0 ? 0 : o[1].imm2;
  if (s % 16 != 0 || s >= width(&o[0]))  /* MOVK only: is_valid checked the others */
    sem_error(c, "illegal shift immediate %lld in V%d instruction movk", (long long)s,
              width(&o[0]));
  SVal k = k_(c, (int64_t)((uint64_t)o[1].imm << s));
  if (ins->op == AA_MOVZ) return wr_raw(c, &o[0], k);
  if (ins->op == AA_MOVN) return wr_raw(c, &o[0], not_(c, k));
  SVal old = rd_data(c, &o[0]);
  SVal kept = sem_op(c, S_ANDNOT, old, k_(c, (int64_t)((uint64_t)0xffff << s)));
  wr_raw(c, &o[0], sem_op(c, S_OR, kept, k));
}

/* SBFM / UBFM Rd,Rn,#r,#s (herd's xbfm; the result is not masked). */
static void bfm(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  int size = width(&o[0]);
  int64_t r = o[2].imm, s = o[3].imm;
  if (r < 0 || s < 0 || r >= size || s >= size)
    sem_error(c, "AArch64 instruction '%s': illegal bitfield", ins->text);
  uint64_t mask = 0;
  for (int i = 0; i < size; i++)
    if (s >= r ? (i >= r && i <= s) : i <= s) mask |= (uint64_t)1 << i;
  SVal v = sem_op(c, S_AND, rd_data(c, &o[1]), k_(c, (int64_t)mask));
  v = s >= r ? sem_op(c, S_SHR, v, k_(c, r)) : sem_op(c, S_SHL, v, k_(c, size - r));
  if (ins->op == AA_SBFM) {
    int64_t top = s >= r ? s - r : size - r + s;
    SVal sign = sem_op(c, S_AND, v, k_(c, (int64_t)((uint64_t)1 << top)));
    sign = sem_op(c, S_SAR, sem_op(c, S_SHL, sign, k_(c, 63 - top)), k_(c, 63 - top));
    v = sem_op(c, S_OR, sign, v);
  }
  wr_raw(c, &o[0], v);
}

/* RBIT: bit i to bit n-1-i; REV*: byte order reversed within each
 * container of `cont` bytes. */
static SVal rbit(SemCtx *c, SVal v, int n) {
  SVal r = k_(c, 0);
  for (int i = 0; i < n; i++)
    r = sem_op(c, S_OR, r, sem_op(c, S_SHL, bit(c, v, i), k_(c, n - 1 - i)));
  return r;
}

static SVal rev_bytes(SemCtx *c, SVal v, int cont, int n) {
  SVal r = k_(c, 0);
  for (int b = 0; b < n; b++) {
    int base = b / cont * cont, j = base + cont - 1 - (b - base);
    SVal byte = sem_op(c, S_AND, sem_op(c, S_SHR, v, k_(c, 8 * b)), k_(c, 255));
    r = sem_op(c, S_OR, r, sem_op(c, S_SHL, byte, k_(c, 8 * j)));
  }
  return r;
}

static void unary(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  int bits = width(&o[0]);
  SVal v = rd_val(c, &o[1]);
  switch ((AAOp)ins->op) {
  case AA_SXTW: v = sem_sext(c, v, 32); break;
  case AA_RBIT: v = rbit(c, v, bits); break;
  case AA_ABS:
    v = bits == 64 ? v : sem_sext(c, v, bits);
    v = sem_select(c, sem_op(c, S_LT, v, k_(c, 0)), sem_op1(c, S_NEG, v), v);
    break;
  case AA_REV: {
    static const int cont[] = {2, 4, 8};
    int k = cont[AA_FLAG_X(ins->flags)];
    v = rev_bytes(c, v, k > bits / 8 ? bits / 8 : k, bits / 8);
    break;
  }
  default: break;
  }
  wr_raw(c, &o[0], v);
}

/* EXTR Rd,Rn,Rm,#lsb: (Rm >> lsb) | (Rn << (n - lsb)), not masked. */
static void extr(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  int bits = width(&o[0]);
  int64_t lsb = o[3].imm;
  SVal lo = sem_op(c, S_SHR, rd_val(c, &o[2]), k_(c, lsb));
  SVal hi = sem_op(c, S_SHL, rd_val(c, &o[1]), k_(c, bits - lsb));
  wr_raw(c, &o[0], sem_op(c, S_OR, lo, hi));
}

/* MADD / MSUB Rd,Rn,Rm,Ra; SMADDL... Xd,Wn,Wm,Xa (sign-extended
 * factors for the signed forms).  Products are not masked. */
static void mul(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  int x = AA_FLAG_X(ins->flags);
  SVal n = rd_val(c, &o[1]), m = rd_val(c, &o[2]), a = rd_val(c, &o[3]);
  bool sub = ins->op == AA_MOP ? x == 1 : (x & 2) != 0;
  if (ins->op == AA_MOPL && !(x & 1)) n = sem_sext(c, n, 32), m = sem_sext(c, m, 32);
  SVal p = sem_op(c, S_MUL, n, m);
  wr_raw(c, &o[0], sem_op(c, sub ? S_SUB : S_ADD, a, p));
}

/* ------------------------------------------------------------- control */

static void branch(SemCtx *c, SVal cond, const char *label) {
  sem_commit(c, cond, EV_BCC, 0);
  sem_branch(c, cond, label);
}

static SVal flags(SemCtx *c) { return sem_read_reg(c, AA_NZCV); }

/* A branch's target: its label, or the instruction .+k bytes away. */
static const char *target(SemCtx *c, const Operand *o) {
  return o->sym ? o->sym : sem_offset_target(c, o->imm, 4);
}

/* BR / BLR / RET: herd's indirect jump, a commit on the target read, to
 * the label the register holds; BL / BLR write the return address to X30
 * (alongside the read of the target). */
static void indirect(SemCtx *c, const Instr *ins) {
  /* herd's -variant telechat: RET (of X30) is the end of the thread */
  if (ins->op == AA_RET && ins->nops == 0 && sem_program(c)->telechat) {
    sem_exit(c);
    return;
  }
  int r = ins->op == AA_RET && ins->nops == 0 ? AA_LR : ins->ops[0].reg;
  SVal target = rd_ord(c, r);
  if (ins->op == AA_BLR) sem_write_reg(c, AA_LR, sem_return_label(c));
  sem_commit(c, target, EV_BCC, 0);
  sem_jump_value(c, target);
}

/* ADR Xd,L: the label's value. */
static void adr(SemCtx *c, const Instr *ins) {
  wr_raw(c, &ins->ops[0], sem_label(c, target(c, &ins->ops[1])));
}

/* CSEL Rd,Rn,Rm,cc (CSINC, CSINV, CSNEG): the flags, a predication commit
 * controlling the rest, then the read of the selected register and the
 * write of Rd (the second register incremented, inverted or negated, then
 * masked). */
static void csel(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  SVal cond = condition(c, (AACond)o[3].imm, flags(c));
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
  if (first) return wr_raw(c, &o[0], rd_data(c, &o[1]));
  SVal v = rd_data(c, &o[2]);
  switch ((AASel)AA_FLAG_X(ins->flags)) {
  case AA_SEL_CPY: return wr_raw(c, &o[0], v);
  case AA_SEL_INC: v = sem_op(c, S_ADD, v, k_(c, 1)); break;
  case AA_SEL_INV: v = not_(c, v); break;
  case AA_SEL_NEG: v = sem_op(c, S_SUB, k_(c, 0), v); break;
  }
  wr_val(c, &o[0], v);
}

/* MOV Rd,#k (masked) or MOV Rd,Rm */
static void mov(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  if (o[1].kind == OPK_IMM) wr_val(c, &o[0], k_(c, o[1].imm));
  else wr_raw(c, &o[0], rd_val(c, &o[1]));
}

/* MRS Xt,sr and MSR sr,Xt.  NZCV: Xt <- NZCV << 28, NZCV <- (Xt >> 28) &
 * 15.  Under -variant NV2, the system registers herd gives an offset in
 * the page at VNCR_EL2 are that doubleword of memory: the access is an
 * LDR Xt / STR Xt at [VNCR_EL2,#offset].  Otherwise a move between Xt and
 * the system register (herd's read_reg_ord, write_reg_dest: no masking). */
static void sysreg(SemCtx *c, const Instr *ins) {
  bool mrs = ins->op == AA_MRS;
  const Operand *xt = &ins->ops[mrs ? 0 : 1];
  int sr = (int)ins->ops[mrs ? 1 : 0].imm;
  if (sr == AA_SR_NZCV) {
    if (mrs)
      wr_raw(c, xt, sem_op(c, S_SHL, flags(c), k_(c, 28)));
    else
      sem_write_reg(c, AA_NZCV,
                    sem_op(c, S_AND, sem_op(c, S_SHR, rd_ord(c, xt->reg), k_(c, 28)), k_(c, 15)));
    return;
  }
  int off = aarch64_sysreg_nv2_offset(sr);
  if (sem_program(c)->nv2 && off >= 0) {
    Instr acc = *ins;
    acc.op = mrs ? AA_LDR : AA_STR;
    acc.flags = 3; /* 8 bytes */
    acc.nops = 2;
    acc.ops[0] = *xt;
    acc.ops[0].sub = AA_X;
    Operand m = {.kind = OPK_MEM, .sub = AA_AM_IMM, .reg = aarch64_sysreg_reg(AA_SR_VNCR_EL2),
                 .reg2 = -1, .imm = off};
    acc.ops[1] = m;
    if (mrs)
      load(c, &acc, 0, false);
    else
      store(c, &acc, 0);
    return;
  }
  int r = aarch64_sysreg_reg(sr);
  if (mrs)
    wr_raw(c, xt, sem_read_reg(c, r));
  else
    sem_write_reg(c, r, rd_ord(c, xt->reg));
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

/* herd's cache maintenance sets, DC.CVAU..., in aarch64_dc_ops' and
 * aarch64_ic_ops' order. */
static const char *const dc_sets[AA_NDC_OPS] = {
    "DC.IVAC", "DC.CVAC", "DC.CIVAC", "DC.ZVAC", "DC.ISWC", "DC.CSWC", "DC.CISWC", "DC.ZSWC",
    "DC.CVAU", "DC.CIVAU", "DC.ZVAU", "DC.ISWU", "DC.CSWU", "DC.CISWU", "DC.ZSWU", "DC.IVAU"};
static const char *const ic_sets[AA_NIC_OPS] = {"IC.IALLUIS", "IC.IVAUIS", "IC.IALLU", "IC.IVAU"};

/* DC op,Xt and IC op,Xt by address: the read of Xt, then one event at
 * that location (herd's CMO action), in the operation's set; of no
 * address (IC IALLU, DC by set/way): that event alone, with no location
 * and no register read. */
static void cache_maintenance(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  if (sem_program(c)->kvm || sem_program(c)->mixed)
    sem_unsupported(c, "cache maintenance under -variant kvm or mixed is not supported yet");
  uint64_t tag = sem_tag(c, (ins->op == AA_DC ? dc_sets : ic_sets)[o[0].imm]);
  if (aarch64_cmo_no_address(ins))
    sem_tagged_event(c, tag);
  else
    sem_located_event(c, rd_ord(c, o[1].reg), tag);
}

/* TLBI op,Xt (herd's do_inv): the read of Xt, then one TLBI event, in
 * the sets TLBI, its level's (E1...), TLBIIS for the inner-shareable
 * domain, TLBInXS for the nXS form; its location is the value read (a
 * page's TLB entry, TLB(x) after LSR Xt,x,#12), none when the operation
 * invalidates every entry (ALL, VMALL, VMALLS12).  The register is read
 * either way, as herd does. */
static void tlb_invalidate(SemCtx *c, const Instr *ins) {
  static const char *const levels[4] = {"E0", "E1", "E2", "E3"};
  const AATlbiOp *op = &aarch64_tlbi_ops[ins->ops[0].imm];
  uint64_t tags = sem_tag(c, "TLBI") | sem_tag(c, levels[op->level]);
  if (op->is) tags |= sem_tag(c, "TLBIIS");
  if (op->nxs) tags |= sem_tag(c, "TLBInXS");
  sem_tlbi(c, rd_ord(c, ins->ops[1].reg), op->all, tags);
}

static bool exec_memory(SemCtx *c, const Instr *ins) {
  /* -variant kvm translates the plain loads and stores and the atomics
   * SWP, LD<op>, ST<op> only (vmsa.c) */
  if (sem_program(c)->kvm) switch ((AAOp)ins->op) {
    case AA_LDR: case AA_LDRSW: case AA_LDRS: case AA_LDUR: case AA_LDAR: case AA_LDAPR:
    case AA_STR: case AA_STLR: case AA_SWP: case AA_LDOP: case AA_STOP:
      break;
    case AA_LDXR: case AA_LDAXR: case AA_STXR: case AA_STLXR: case AA_STXP: case AA_LDP:
    case AA_LDPSW: case AA_STP: case AA_LDXP: case AA_CASP:
      sem_unsupported(c, "under -variant kvm");
    default:
      break;
    }
  if (sem_program(c)->memtag && AA_IS_MEMORY(ins->op) && !aarch64_mte_checked(ins->op))
    sem_unsupported(c, "under -variant memtag");
  switch ((AAOp)ins->op) {
  case AA_LDR: case AA_LDRSW: case AA_LDRS: case AA_LDUR:
    load(c, ins, 0, false);
    return true;
  case AA_LDAR: load(c, ins, sem_tag(c, "A"), false); return true;
  case AA_LDAPR: load(c, ins, sem_tag(c, "Q"), false); return true;
  case AA_LDXR: load(c, ins, sem_tag(c, "X"), true); return true;
  case AA_LDAXR: load(c, ins, sem_tag(c, "X") | sem_tag(c, "A"), true); return true;
  case AA_STR: store(c, ins, 0); return true;
  case AA_STLR: store(c, ins, sem_tag(c, "L")); return true;
  case AA_STXR: store_excl(c, ins, false); return true;
  case AA_STLXR: store_excl(c, ins, true); return true;
  case AA_STXP: store_excl(c, ins, AA_FLAG_X(ins->flags) != 0); return true;
  case AA_LDP: case AA_LDPSW: load_pair(c, ins); return true;
  case AA_STP: store_pair(c, ins); return true;
  case AA_LDXP: load_excl_pair(c, ins); return true;
  case AA_CAS: cas(c, ins); return true;
  case AA_CASP: casp(c, ins); return true;
  case AA_SWP: case AA_LDOP: case AA_STOP: rmw(c, ins); return true;
  default: return false;
  }
}

static void exec_aarch64(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  if (AA_IS_SIMD(ins->op)) {
    /* -variant memtag: vector accesses are not tag-checked yet */
    if (sem_program(c)->memtag && aarch64_simd_accesses_memory(ins->op))
      sem_unsupported(c, "vector loads and stores under -variant memtag");
    return aarch64_simd_exec(c, ins);
  }
  if (exec_memory(c, ins)) return;
  if (aarch64_exec_mte(c, ins)) return;
  if (aarch64_exec_exception(c, ins)) return;
  if (AA_IS_ALU(ins->op)) return alu(c, ins);
  switch ((AAOp)ins->op) {
  case AA_NOP: sem_nop(c); return;
  case AA_MOV: mov(c, ins); return;
  case AA_ADDSUBEXT: alu_ext(c, ins); return;
  case AA_MOVZ: case AA_MOVN: case AA_MOVK: movw(c, ins); return;
  case AA_SBFM: case AA_UBFM: bfm(c, ins); return;
  case AA_SXTW: case AA_RBIT: case AA_ABS: case AA_REV: unary(c, ins); return;
  case AA_EXTR: extr(c, ins); return;
  case AA_MOP: case AA_MOPL: mul(c, ins); return;
  case AA_CSEL: csel(c, ins); return;
  case AA_MRS: case AA_MSR: sysreg(c, ins); return;
  case AA_B: sem_jump(c, target(c, &o[0])); return;
  case AA_BL:
    sem_write_reg(c, AA_LR, sem_return_label(c));
    sem_jump(c, target(c, &o[0]));
    return;
  case AA_BR: case AA_BLR: case AA_RET: indirect(c, ins); return;
  case AA_ADR: adr(c, ins); return;
  case AA_BCC: branch(c, condition(c, (AACond)o[0].imm, flags(c)), target(c, &o[1])); return;
  case AA_CBZ: case AA_CBNZ:
    branch(c, sem_op(c, ins->op == AA_CBZ ? S_EQ : S_NE, rd_ord(c, o[0].reg), k_(c, 0)),
           target(c, &o[1]));
    return;
  case AA_TBZ: case AA_TBNZ:
    branch(c, sem_op(c, ins->op == AA_TBZ ? S_EQ : S_NE, bit(c, rd_ord(c, o[0].reg), (int)o[1].imm),
                     k_(c, 0)),
           target(c, &o[2]));
    return;
  case AA_DMB: case AA_DSB: barrier(c, ins); return;
  case AA_ISB: sem_fence(c, sem_tag(c, "ISB")); return;
  case AA_DC: case AA_IC: cache_maintenance(c, ins); return;
  case AA_TLBI: tlb_invalidate(c, ins); return;
  default: break;
  }
  sem_unsupported(c, NULL);
}

static const char *const aarch64_sets[] = {
    "X",         "A",         "Q",         "L",         "NoRet",
    "DMB.SY",    "DMB.LD",    "DMB.ST",    "DMB.OSH",   "DMB.OSHLD",
    "DMB.OSHST", "DMB.ISH",   "DMB.ISHLD", "DMB.ISHST", "DMB.NSH",
    "DMB.NSHLD", "DMB.NSHST", "DSB.SY",    "DSB.LD",    "DSB.ST",
    "DSB.OSH",   "DSB.OSHLD", "DSB.OSHST", "DSB.ISH",   "DSB.ISHLD",
    "DSB.ISHST", "DSB.NSH",   "DSB.NSHLD", "DSB.NSHST", "ISB",
    /* faults (sem_fault_event, sem_aarch64_faults.c) */
    "FAULT", "FAULT-RD", "FAULT-WR", "EXC-ENTRY", "EXC-RET", "MMU", "Translation",
    "AccessFlag", "Permission", "TagCheck", "UndefinedInstruction", "SupervisorCall",
    /* cache maintenance */
    "DC.CVAU", "IC.IVAU", "IC.IALLU", "IC.IALLUIS",
    /* TLB invalidation (tlb_invalidate): herd binds them on AArch64 */
    "TLBI", "TLBIIS", "TLBInXS", "E0", "E1", "E2", "E3",
    NULL,
};

const SemArch sem_aarch64 = {.arch = ARCH_AARCH64, .exec = exec_aarch64, .set_names = aarch64_sets,
                             .fetch_fault = aarch64_fetch_fault};
