/*
 * sem_aarch64_sme.c — semantics of the SME instructions (`-variant sme`,
 * layout in litmus/aarch64_simd.h) with herd7's events
 * (herd/AArch64Sem.ml):
 *
 * - ZA is 16 rows of 128 bits (herd's default vector length), each two
 *   chunk registers.  Element idx of horizontal slice s of tile t, of
 *   size e, is in row s * e / 8 + t at bit idx * e (herd's za_getoffset,
 *   the Arm ARM's tile layout); a vertical slice swaps s and idx.
 * - A slice index is (Ws + k) mod (128 / e); Ws must be known while the
 *   thread runs (it always is in herd's tests), else the test is refused.
 * - SMSTART / SMSTOP read PSTATE.SM and PSTATE.ZA; entering or leaving a
 *   mode zeroes the Z and P registers (SM) or ZA (ZA), as herd does.
 * - Tile loads and stores make one event per active element.
 */
#include "../litmus/aarch64_simd.h"
#include "program.h"
#include "sem.h"
#include "sem_aarch64.h"
#include "sem_aarch64_vec.h"

static SVal k_(SemCtx *c, int64_t k) { return sem_int(c, k); }

enum { ZA_CHUNKS = AV_ZAROWS * AV_CHUNKS };

/* The chunks of ZA an instruction reads (on first use) and writes. */
typedef struct ZA {
  SVal ch[ZA_CHUNKS];
  bool have[ZA_CHUNKS], dirty[ZA_CHUNKS];
} ZA;

static SVal *za_chunk(SemCtx *c, ZA *z, int i) {
  if (!z->have[i]) z->ch[i] = sem_read_reg(c, AA_ZACH(i / AV_CHUNKS, i % AV_CHUNKS));
  z->have[i] = true;
  return &z->ch[i];
}

static void za_flush(SemCtx *c, ZA *z) {
  for (int i = 0; i < ZA_CHUNKS; i++)
    if (z->dirty[i]) sem_write_reg(c, AA_ZACH(i / AV_CHUNKS, i % AV_CHUNKS), z->ch[i]);
}

/* The chunk and the bit offset in it of an element. */
static int za_pos(SemCtx *c, int tile, bool vertical, int slice, int idx, int es, int *sh) {
  if (es > 64) sem_error(c, "128-bit ZA elements are not supported");
  if (vertical) {
    int t = slice;
    slice = idx;
    idx = t;
  }
  int row = slice * (es / 8) + tile, bit = idx * es;
  if (row >= AV_ZAROWS || tile >= es / 8) sem_error(c, "ZA tile %d of %d-bit elements does not exist", tile, es);
  *sh = bit % 64;
  return row * AV_CHUNKS + bit / 64;
}

static SVal za_get(SemCtx *c, ZA *z, int tile, bool vert, int slice, int idx, int es) {
  int sh, i = za_pos(c, tile, vert, slice, idx, es, &sh);
  SVal x = *za_chunk(c, z, i);
  if (sh) x = sem_op(c, S_SHR, x, k_(c, sh));
  return es < 64 ? sem_mask(c, x, es) : x;
}

static void za_set(SemCtx *c, ZA *z, int tile, bool vert, int slice, int idx, int es, SVal x) {
  int sh, i = za_pos(c, tile, vert, slice, idx, es, &sh);
  SVal *ch = za_chunk(c, z, i);
  if (es == 64) {
    *ch = x;
  } else {
    uint64_t m = (((uint64_t)1 << es) - 1) << sh;
    SVal put = sem_mask(c, x, es);
    if (sh) put = sem_op(c, S_SHL, put, k_(c, sh));
    *ch = sem_op(c, S_OR, sem_op(c, S_AND, *ch, k_(c, (int64_t)~m)), put);
  }
  z->dirty[i] = true;
}

/* (Ws + k) mod dim, Ws known now. */
static int slice_index(SemCtx *c, const Operand *ws, const Operand *k, int dim) {
  SVal v = ws->reg == AA_ZR ? k_(c, 0) : sem_read_reg(c, ws->reg);
  Val x;
  if (!sem_is_const(c, v, &x) || x.kind != VAL_INT)
    sem_error(c, "the slice index register %s is not known while the thread runs: not supported",
              "Ws");
  int64_t s = (x.num + k->imm) % dim;
  return (int)(s < 0 ? s + dim : s);
}

/* The V/Z registers (bits 0..31) and predicates (bits 32..47) the thread
 * names, in its code or in the final state: the others cannot be seen,
 * and resetting them all would exceed the events an instruction may make. */
static uint64_t regs_used(SemCtx *c) {
  const Program *p = sem_program(c);
  int t = sem_thread(c);
  const Thread *th = &p->test->threads[t];
  uint64_t used = 0;
  for (int e = 0; e < th->nentries; e++) {
    const Instr *ins = th->entries[e].ins;
    if (!ins || !AA_IS_SIMD(ins->op)) continue;
    for (int i = 0; i < ins->nops; i++) {
      const Operand *o = &ins->ops[i];
      if (o->kind == OPK_MEM && o->sub == AV_AM_ZIDX) used |= 1ull << o->reg2;
      if (o->kind != OPK_VREG) continue;
      if (o->sub == AV_P || o->sub == AV_PM) used |= 1ull << (32 + o->reg);
      else if (o->sub != AV_ZA)
        for (int k = 0; k < (o->reg2 > 0 ? o->reg2 : 1); k++) used |= 1ull << ((o->reg + k) % 32);
    }
  }
  for (int d = 0; d < p->ndisp; d++) {
    const DispLoc *dl = &p->disp[d];
    if (dl->kind == DL_REG && dl->thread == t && dl->reg >= AA_VCH(0, 0) && dl->reg < AA_PREG(0))
      used |= 1ull << ((dl->reg - AA_VCH(0, 0)) / AV_CHUNKS);
  }
  return used;
}

/* SMSTART / SMSTOP {SM|ZA}: entering or leaving a mode resets its state. */
static void smstart(SemCtx *c, const Instr *ins) {
  int64_t on = ins->op == AV_SMSTART;
  int mode = ins->nops ? (int)ins->ops[0].imm : 3; /* 1 SM, 2 ZA, 3 both */
  for (int m = 1; m <= 2; m++) {
    if (!(mode & m)) continue;
    int reg = m == 1 ? AA_PSTATE_SM : AA_PSTATE_ZA;
    Val x;
    SVal cur = sem_read_reg(c, reg);
    if (!sem_is_const(c, cur, &x) || x.kind != VAL_INT)
      sem_error(c, "PSTATE is not known while the thread runs: not supported");
    if (x.num == on) continue;
    if (m == 1) {
      uint64_t used = regs_used(c);
      for (int r = 0; r < AV_NVREGS; r++)
        if (used >> r & 1) av_write(c, r, av_zero(c), 128);
      for (int p = 0; p < AV_NPREGS; p++)
        if (used >> (32 + p) & 1) sem_write_reg(c, AA_PREG(p), k_(c, 0));
    } else {
      for (int i = 0; i < ZA_CHUNKS; i++)
        sem_write_reg(c, AA_ZACH(i / AV_CHUNKS, i % AV_CHUNKS), k_(c, 0));
    }
    sem_write_reg(c, reg, k_(c, on));
  }
}

/* LD1<T> / ST1<T> {ZAtH.<T>[Ws,k]},Pg,[..]: the slice's active elements
 * from / to base + idx * size; inactive loaded elements are zero. */
static void tile_access(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  int es = (int)o[0].imm, dim = 128 / es, bytes = 1 << AA_FLAG_SIZE(ins->flags);
  bool vert = o[0].imm2 == 'V';
  SVal base = aarch64_address(c, &o[4]);
  SVal pred = sem_read_reg(c, AA_PREG(o[3].reg));
  int s = slice_index(c, &o[1], &o[2], dim);
  ZA z = {0};
  Decide d = {0};
  for (int idx = 0; idx < dim; idx++) {
    bool act = av_active(c, &d, av_pred_bit(c, pred, idx, es));
    SVal a = av_addr_plus(c, base, (int64_t)idx * bytes);
    if (ins->op == AV_LDZA)
      za_set(c, &z, (int)o[0].reg, vert, s, idx, es, act ? sem_load(c, a, bytes, 0) : k_(c, 0));
    else if (act)
      sem_store(c, a, za_get(c, &z, (int)o[0].reg, vert, s, idx, es), bytes, 0);
  }
  av_decided(c, &d);
  za_flush(c, &z);
}

/* MOVA ZAtH.<T>[Ws,k],Pg/M,Zn and MOVA Zd,Pg/M,ZAtH.<T>[Ws,k]. */
static void mova(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  bool to_tile = ins->op == AV_MOVA_VT;
  const Operand *t = to_tile ? &o[0] : &o[2], *z = to_tile ? &o[4] : &o[0];
  const Operand *ws = t + 1, *k = t + 2, *pg = to_tile ? &o[3] : &o[1];
  int es = (int)z->imm, dim = 128 / es;
  bool vert = t->imm2 == 'V';
  int s = slice_index(c, ws, k, dim);
  ZA za = {0};
  SVal pred = sem_read_reg(c, AA_PREG(pg->reg));
  Vec v = av_read(c, z->reg);
  Decide d = {0};
  for (int idx = 0; idx < dim; idx++) {
    bool act = av_active(c, &d, av_pred_bit(c, pred, idx, es));
    if (!act) continue; /* the destination's element stays */
    if (to_tile) za_set(c, &za, (int)t->reg, vert, s, idx, es, av_get_lane(c, v, idx, es));
    else av_set_lane(c, &v, idx, es, za_get(c, &za, (int)t->reg, vert, s, idx, es));
  }
  av_decided(c, &d);
  if (to_tile) za_flush(c, &za);
  else av_write(c, z->reg, v, 128);
}

/* ADDHA / ADDVA ZAt.<T>,Pn/M,Pm/M,Zn: element (s, i) of the tile (H) or
 * (i, s) (V) += Zn[i] where both predicates are active. */
static void adda(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  bool vert = AA_FLAG_X(ins->flags) == 1;
  int es = (int)o[3].imm, dim = 128 / es;
  ZA za = {0};
  SVal p1 = sem_read_reg(c, AA_PREG(o[1].reg)), p2 = sem_read_reg(c, AA_PREG(o[2].reg));
  SVal pslice = vert ? p2 : p1, pelem = vert ? p1 : p2;
  Vec src = av_read(c, o[3].reg);
  Decide d = {0};
  for (int s = 0; s < dim; s++)
    for (int idx = 0; idx < dim; idx++) {
      SVal both = sem_op(c, S_AND, av_pred_bit(c, pslice, s, es), av_pred_bit(c, pelem, idx, es));
      if (!av_active(c, &d, both)) continue;
      SVal sum = sem_op(c, S_ADD, av_get_lane(c, src, idx, es),
                        za_get(c, &za, (int)o[0].reg, vert, s, idx, es));
      za_set(c, &za, (int)o[0].reg, vert, s, idx, es, sum);
    }
  av_decided(c, &d);
  za_flush(c, &za);
}

void aarch64_sme_exec(SemCtx *c, const Instr *ins) {
  /* herd checks the variant for every SME instruction but SMSTOP */
  if (!(ins->op == AV_SMSTOP && ins->nops == 0)) av_check(c, ins, AV_VAR_SME);
  if (av_vl_bits(c) != 128)
    sem_error(c, "vector length %d: only 128-bit vectors are supported", av_vl_bits(c));
  switch ((AVOp)ins->op) {
  case AV_SMSTART:
  case AV_SMSTOP: smstart(c, ins); return;
  case AV_LDZA:
  case AV_STZA: tile_access(c, ins); return;
  case AV_MOVA_VT:
  case AV_MOVA_TV: mova(c, ins); return;
  case AV_ADDA: adda(c, ins); return;
  default: break;
  }
  sem_unsupported(c, NULL);
}
