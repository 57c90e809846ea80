/*
 * sem_aarch64_sve.c — semantics of the SVE instructions (`-variant sve`,
 * layout in litmus/aarch64_simd.h) with herd7's events
 * (herd/AArch64Sem.ml):
 *
 * - Z registers are the V registers (chunks); only herd's default vector
 *   length, 128 bits, is represented: with sve:N for another N only the
 *   instructions that read the length (RDVL, ADDVL, CNT<T>, INC<T>) run.
 * - A predicate has one bit per byte of a vector: element i of size e is
 *   active when bit i * e / 8 is set (herd's psize).
 * - Predicated accesses make one event per active element, none for an
 *   inactive one; a predicated operation takes its inactive elements from
 *   the destination (/M) or zero (/Z).  An element whose predicate bit is
 *   not known while the thread runs is explored both ways, the bit
 *   assumed set or clear (herd's choiceT).
 * - WHILELT / WHILELE / WHILELO / WHILELS set NZCV as herd does: N the
 *   first element, Z none active, C not the last.
 */
#include <string.h>

#include "../litmus/aarch64_simd.h"
#include "program.h"
#include "sem.h"
#include "sem_aarch64.h"
#include "sem_aarch64_vec.h"

static SVal k_(SemCtx *c, int64_t k) { return sem_int(c, k); }

/* The vector contents need herd's default length. */
static void need_128(SemCtx *c) {
  int vl = av_vl_bits(c);
  if (vl != 128) sem_error(c, "vector length %d: only 128-bit vectors are supported", vl);
}

bool av_active(SemCtx *c, Decide *d, SVal bit) {
  Val v;
  if (sem_is_const(c, bit, &v) && v.kind == VAL_INT) return v.num != 0;
  if (!d->chose) d->alt = sem_choose(c, 1 << AV_MAXDEC), d->chose = true;
  if (d->used >= AV_MAXDEC)
    sem_error(c, "more than %d predicate elements not known while the thread runs: not supported",
              AV_MAXDEC);
  bool yes = (d->alt >> d->used++) & 1;
  sem_assume(c, yes ? bit : sem_op1(c, S_NOT, bit));
  return yes;
}

void av_decided(SemCtx *c, const Decide *d) {
  if (d->chose && d->alt >> d->used) sem_assume(c, sem_int(c, 0));
}

/* The active elements of a predicate, decided once each. */
static void actives(SemCtx *c, Decide *d, SVal pred, int ne, int es, bool *act) {
  for (int idx = 0; idx < ne; idx++) act[idx] = av_active(c, d, av_pred_bit(c, pred, idx, es));
}

SVal av_pred_bit(SemCtx *c, SVal pred, int idx, int esize) {
  int b = idx * esize / 8;
  SVal x = b ? sem_op(c, S_SHR, pred, k_(c, b)) : pred;
  return sem_op(c, S_AND, x, k_(c, 1));
}

/* Some element of nelem active. */
static SVal pred_any(SemCtx *c, SVal pred, int nelem, int esize) {
  uint64_t m = 0;
  for (int i = 0; i < nelem; i++) m |= 1ull << (i * esize / 8);
  return sem_op(c, S_NE, sem_op(c, S_AND, pred, k_(c, (int64_t)m)), k_(c, 0));
}

/* herd's predicate_count: the elements a pattern makes active. */
static int pattern_count(int pat, int nelem) {
  static const int vl[] = {[AV_VL1] = 1, [AV_VL2] = 2,   [AV_VL3] = 3,    [AV_VL4] = 4,
                           [AV_VL5] = 5, [AV_VL6] = 6,   [AV_VL7] = 7,    [AV_VL8] = 8,
                           [AV_VL16] = 16, [AV_VL32] = 32, [AV_VL128] = 128, [AV_VL256] = 256};
  switch ((AVPattern)pat) {
  case AV_ALL: return nelem;
  case AV_MUL3: return nelem - nelem % 3;
  case AV_MUL4: return nelem - nelem % 4;
  case AV_POW2: {
    int n = 1;
    while (2 * n <= nelem) n *= 2;
    return n;
  }
  case AV_VL64: return 0; /* herd's predicate_count has no case for it */
  default: return nelem >= vl[pat] ? vl[pat] : 0;
  }
}

static void ptrue(SemCtx *c, const Instr *ins) {
  int es = (int)ins->ops[0].imm, vl = av_vl_bits(c), n = vl / es;
  int count = pattern_count(ins->nops > 1 ? (int)ins->ops[1].imm : AV_ALL, n);
  if (vl > 512) sem_error(c, "vector length %d: predicates of more than 64 bits", vl);
  uint64_t v = 0;
  for (int i = 0; i < count && i < n; i++) v |= 1ull << (i * es / 8);
  sem_write_reg(c, AA_PREG(ins->ops[0].reg), k_(c, (int64_t)v));
}

/* WHILE<cc> Pd.<T>,Rn,Rm: element i active while n + i <cc> m holds for
 * it and every element before it; then NZCV. */
static void while_op(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  need_128(c);
  int w = AA_FLAG_X(ins->flags), es = (int)o[0].imm, n = 128 / es;
  bool uns = w == AV_WLO || w == AV_WLS, le = w == AV_WLE || w == AV_WLS;
  SVal a = av_rd_gpr(c, &o[1]), b = av_rd_gpr(c, &o[2]);
  SVal pred = k_(c, 0), last = k_(c, 1), first = k_(c, 0), any = k_(c, 0);
  for (int i = 0; i < n; i++) {
    SVal x = a, y = b;
    if (o[1].sub == AA_W) {
      x = uns ? sem_mask(c, x, 32) : sem_sext(c, x, 32);
      y = uns ? sem_mask(c, y, 32) : sem_sext(c, y, 32);
    }
    last = sem_op(c, S_AND, last, sem_op(c, le ? S_LE : S_LT, x, y));
    SVal bit = i * es / 8 ? sem_op(c, S_SHL, last, k_(c, i * es / 8)) : last;
    pred = sem_op(c, S_OR, pred, bit);
    if (i == 0) first = last;
    any = sem_op(c, S_OR, any, last);
    a = sem_op(c, S_ADD, a, k_(c, 1));
  }
  sem_write_reg(c, AA_PREG(o[0].reg), pred);
  SVal nf = sem_op(c, S_SHL, first, k_(c, 3));
  SVal zf = sem_op(c, S_SHL, sem_op1(c, S_NOT, any), k_(c, 2));
  SVal cf = sem_op(c, S_SHL, sem_op1(c, S_NOT, last), k_(c, 1));
  sem_write_reg(c, AA_NZCV, sem_op(c, S_OR, sem_op(c, S_OR, nf, zf), cf));
}

/* The base address of a contiguous access: herd ignores MUL VL. */
static SVal sve_base(SemCtx *c, const Operand *m) {
  if (m->sub == AV_AM_MULVL) return av_addr_plus(c, sem_read_reg(c, m->reg), m->imm);
  return aarch64_address(c, m);
}

/* The offset of element idx of a gather / scatter: its lane of Zm,
 * extended and shifted. */
static SVal gather_offset(SemCtx *c, const Operand *m, Vec offs, int idx, int es) {
  SVal lane = av_get_lane(c, offs, idx, es);
  if (m->sym && !strcmp(m->sym, "UXTW")) lane = sem_mask(c, lane, 32);
  else if (m->sym && !strcmp(m->sym, "SXTW")) lane = sem_sext(c, lane, 32);
  return m->imm2 ? sem_op(c, S_SHL, lane, k_(c, m->imm2)) : lane;
}

/* LD1<T>..LD4<T> {Z..},Pg/Z,[..]: element idx of register i at
 * (idx * n + i) * access size; inactive elements zero. */
static void sve_load(SemCtx *c, const Instr *ins) {
  const Operand *l = &ins->ops[0], *m = &ins->ops[2];
  int es = (int)l->imm, ne = 128 / es, n = l->reg2, bytes = 1 << AA_FLAG_SIZE(ins->flags);
  need_128(c);
  if (m->sub == AV_AM_ZIDX) {
    SVal pred = sem_read_reg(c, AA_PREG(ins->ops[1].reg));
    SVal base = k_(c, 0);
    Vec offs = av_zero(c), v = av_zero(c);
    Decide d = {0};
    if (av_active(c, &d, pred_any(c, pred, ne, es))) {
      base = sem_read_reg(c, m->reg);
      offs = av_read(c, m->reg2);
    }
    bool act[16];
    actives(c, &d, pred, ne, es, act);
    av_decided(c, &d);
    for (int idx = 0; idx < ne; idx++)
      if (act[idx]) {
        SVal a = sem_op(c, S_ADD, base, gather_offset(c, m, offs, idx, es));
        av_set_lane(c, &v, idx, es, sem_load(c, a, bytes, 0));
      }
    av_write(c, l->reg, v, 128);
    return;
  }
  SVal base = sve_base(c, m);
  SVal pred = sem_read_reg(c, AA_PREG(ins->ops[1].reg));
  Decide d = {0};
  bool act[16];
  actives(c, &d, pred, ne, es, act);
  av_decided(c, &d);
  for (int i = 0; i < n; i++) {
    Vec v = av_zero(c);
    for (int idx = 0; idx < ne; idx++)
      if (act[idx]) {
        SVal a = av_addr_plus(c, base, (int64_t)(idx * n + i) * bytes);
        av_set_lane(c, &v, idx, es, sem_load(c, a, bytes, 0));
      }
    av_write(c, (l->reg + i) % 32, v, 128);
  }
}

/* ST1<T>..ST4<T> {Z..},Pg,[..]: one write per active element. */
static void sve_store(SemCtx *c, const Instr *ins) {
  const Operand *l = &ins->ops[0], *m = &ins->ops[2];
  int es = (int)l->imm, ne = 128 / es, n = l->reg2, bytes = 1 << AA_FLAG_SIZE(ins->flags);
  need_128(c);
  bool gather = m->sub == AV_AM_ZIDX;
  SVal base = gather ? k_(c, 0) : sve_base(c, m);
  SVal pred = sem_read_reg(c, AA_PREG(ins->ops[1].reg));
  Decide d = {0};
  bool any = av_active(c, &d, pred_any(c, pred, ne, es)), act[16];
  actives(c, &d, pred, ne, es, act);
  av_decided(c, &d);
  Vec offs = av_zero(c);
  if (gather && any) {
    base = sem_read_reg(c, m->reg);
    offs = av_read(c, m->reg2);
  }
  for (int i = 0; i < n; i++) {
    int r = (l->reg + i) % 32;
    Vec v = any ? av_read(c, r) : av_zero(c);
    for (int idx = 0; idx < ne; idx++)
      if (act[idx]) {
        SVal a = gather ? sem_op(c, S_ADD, base, gather_offset(c, m, offs, idx, es))
                        : av_addr_plus(c, base, (int64_t)(idx * n + i) * bytes);
        SVal x = av_get_lane(c, v, idx, es);
        if (8 * bytes < es) x = sem_mask(c, x, 8 * bytes);
        sem_store(c, a, x, bytes, 0);
      }
  }
}

/* NEG Zd,Pg/M,Zn and MOVPRFX Zd,Pg/<ZM>,Zn: active elements from Zn
 * (negated), the others from Zd (or zero for MOVPRFX /Z). */
static void predicated_move(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  need_128(c);
  bool neg = ins->op == AV_NEG_SV;
  int es = (int)o[0].imm, ne = 128 / es, ses = (int)o[2].imm;
  Vec orig = neg || o[1].imm2 == 'M' ? av_read(c, o[0].reg) : av_zero(c);
  SVal pred = sem_read_reg(c, AA_PREG(o[1].reg));
  Vec v = orig;
  Decide d = {0};
  if (av_active(c, &d, pred_any(c, pred, 128 / ses, ses))) {
    Vec src = av_read(c, o[2].reg);
    v = src;
    for (int idx = 0; idx < ne; idx++) {
      bool act = av_active(c, &d, av_pred_bit(c, pred, idx, ses));
      SVal x = av_get_lane(c, act ? src : orig, idx, es);
      if (neg && act) x = sem_op(c, S_SUB, k_(c, 0), x);
      av_set_lane(c, &v, idx, es, x);
    }
  }
  av_decided(c, &d);
  av_write(c, o[0].reg, v, 128);
}

/* UADDV Dd,Pg,Zn.<T>: the sum of the active elements. */
static void uaddv(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  need_128(c);
  int es = (int)o[2].imm, ne = 128 / es;
  SVal pred = sem_read_reg(c, AA_PREG(o[1].reg));
  SVal sum = k_(c, 0);
  Decide d = {0};
  if (av_active(c, &d, pred_any(c, pred, ne, es))) {
    Vec src = av_read(c, o[2].reg);
    for (int idx = 0; idx < ne; idx++)
      if (av_active(c, &d, av_pred_bit(c, pred, idx, es)))
        sum = sem_op(c, S_ADD, sum, av_get_lane(c, src, idx, es));
  }
  av_decided(c, &d);
  Vec out = av_zero(c);
  out.ch[0] = sum;
  av_write(c, o[0].reg, out, 64);
}

/* INDEX Zd.<T>,a,b: element i is a + i * b. */
static void index_op(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  need_128(c);
  SVal a = o[1].kind == OPK_IMM ? k_(c, o[1].imm) : av_rd_gpr(c, &o[1]);
  SVal b = o[2].kind == OPK_IMM ? k_(c, o[2].imm) : av_rd_gpr(c, &o[2]);
  int es = (int)o[0].imm;
  Vec v = av_zero(c);
  for (int i = 0; i < 128 / es; i++)
    av_set_lane(c, &v, i, es, sem_op(c, S_ADD, a, sem_op(c, S_MUL, k_(c, i), b)));
  av_write(c, o[0].reg, v, 128);
}

void aarch64_sve_exec(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  av_check(c, ins, AV_VAR_SVE);
  int vlb = av_vl_bits(c) / 8;
  switch ((AVOp)ins->op) {
  case AV_PTRUE: ptrue(c, ins); return;
  case AV_WHILE: while_op(c, ins); return;
  case AV_UADDV: uaddv(c, ins); return;
  case AV_LDSV: sve_load(c, ins); return;
  case AV_STSV: sve_store(c, ins); return;
  case AV_MOV_SV:
  case AV_DUP_SV: {
    need_128(c);
    int es = (int)o[0].imm;
    SVal x = ins->op == AV_DUP_SV ? av_rd_gpr(c, &o[1]) : k_(c, o[1].imm);
    if (ins->op == AV_MOV_SV && ins->nops > 2) {
      if (o[2].imm != 0 && o[2].imm != 8) sem_error(c, "illegal shift in instruction mov");
      x = k_(c, (int64_t)((uint64_t)o[1].imm << o[2].imm));
    }
    av_write(c, o[0].reg, av_replicate(c, x, 128 / es, es), 128);
    return;
  }
  case AV_ADD_SV: {
    need_128(c);
    Vec b = av_read(c, o[2].reg), a = av_read(c, o[1].reg), d = av_zero(c);
    int es = (int)o[0].imm;
    for (int i = 0; i < 128 / es; i++)
      av_set_lane(c, &d, i, es,
                  sem_op(c, S_ADD, av_get_lane(c, a, i, es), av_get_lane(c, b, i, es)));
    av_write(c, o[0].reg, d, 128);
    return;
  }
  case AV_OP3_SV: {
    need_128(c);
    if (AA_FLAG_X(ins->flags) != AV_L_EOR) sem_unsupported(c, "herd7 has no semantics for it");
    Vec b = av_read(c, o[2].reg), a = av_read(c, o[1].reg), d;
    for (int k = 0; k < AV_CHUNKS; k++) d.ch[k] = sem_op(c, S_XOR, a.ch[k], b.ch[k]);
    av_write(c, o[0].reg, d, 128);
    return;
  }
  case AV_NEG_SV:
  case AV_MOVPRFX: predicated_move(c, ins); return;
  case AV_INDEX: index_op(c, ins); return;
  case AV_RDVL: av_wr_gpr(c, &o[0], k_(c, (int64_t)vlb * o[1].imm)); return;
  case AV_ADDVL:
    av_wr_gpr(c, &o[0], av_addr_plus(c, av_rd_gpr(c, &o[1]), (int64_t)vlb * o[2].imm));
    return;
  case AV_CNTINC: {
    int ne = vlb / (1 << AA_FLAG_SIZE(ins->flags));
    int64_t k = ins->nops > 2 ? o[2].imm : 1;
    int64_t n = pattern_count(ins->nops > 1 ? (int)o[1].imm : AV_ALL, ne) * k;
    SVal base = AA_FLAG_X(ins->flags) & 4 ? av_rd_gpr(c, &o[0]) : k_(c, 0);
    av_wr_gpr(c, &o[0], av_addr_plus(c, base, n));
    return;
  }
  default: break;
  }
  sem_unsupported(c, NULL);
}
