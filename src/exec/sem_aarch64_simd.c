/*
 * sem_aarch64_simd.c — semantics of the AArch64 vector instructions
 * (Neon; layout in litmus/aarch64_simd.h), with herd7's events
 * (herd/AArch64Sem.ml):
 *
 * - A vector register is two 64-bit chunk registers; an instruction
 *   reads both chunks where herd reads the register, and writes both where
 *   herd writes it (herd's one 128-bit register event is two here).
 * - Lanes are extracted and inserted with shifts and masks, as herd's
 *   neon_getlane / neon_setlane; a write of a smaller view (D0, V0.8B)
 *   clears the bits above it.
 * - Memory: one access per element, of the element's size (the structure
 *   forms LD1..LD4, ST1..ST4, LD1R..), with herd's address order; a
 *   128-bit LDR / STR / LDP / STP is two 64-bit accesses per register.
 *   LDAP1 and LDAPUR reads are Q, STL1 and STLUR writes L.
 * - `-variant neon` (or sve, sme) is required, as in herd.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../litmus/aarch64_simd.h"
#include "program.h"
#include "sem.h"
#include "sem_aarch64.h"
#include "sem_aarch64_vec.h"

static SVal k_(SemCtx *c, int64_t k) { return sem_int(c, k); }

static uint64_t lane_mask(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

void av_check(SemCtx *c, const Instr *ins, unsigned bit) {
  if (sem_program(c)->simd & bit) return;
  const char *ext = bit == AV_VAR_NEON ? "Neon" : bit == AV_VAR_SVE ? "SVE" : "SME";
  const char *var = bit == AV_VAR_NEON ? "neon" : bit == AV_VAR_SVE ? "sve" : "sme";
  StrBuf b;
  sb_init(&b);
  aarch64_simd_print(ins, &b);
  char text[160];
  snprintf(text, sizeof text, "%s", sb_cstr(&b));
  sb_free(&b);
  sem_error(c, "%s instruction %s requires -variant %s", ext, text, var);
}

int av_vl_bits(SemCtx *c) {
  const Program *p = sem_program(c);
  int bits = p->simd & AV_VAR_SME_ASKED ? p->sme_bits : p->sve_bits;
  return bits ? bits : 128;
}

/* ------------------------------------------------------------ registers */

Vec av_read(SemCtx *c, int n) {
  Vec v;
  for (int k = 0; k < AV_CHUNKS; k++) v.ch[k] = sem_read_reg(c, AA_VCH(n, k));
  return v;
}

Vec av_zero(SemCtx *c) {
  Vec v;
  for (int k = 0; k < AV_CHUNKS; k++) v.ch[k] = k_(c, 0);
  return v;
}

/* herd's write_reg_neon_sz: the bits above `bits` cleared. */
void av_write(SemCtx *c, int n, Vec v, int bits) {
  for (int k = 0; k < AV_CHUNKS; k++) {
    SVal x = v.ch[k];
    if (bits <= 64 * k) x = k_(c, 0);
    else if (bits < 64 * (k + 1)) x = sem_mask(c, x, bits - 64 * k);
    sem_write_reg(c, AA_VCH(n, k), x);
  }
}

static void lane_check(SemCtx *c, int idx, int esize) {
  if (esize > 64 || idx < 0 || (idx + 1) * esize > 64 * AV_CHUNKS)
    sem_error(c, "lane %d of %d bits is outside a 128-bit vector", idx, esize);
}

SVal av_get_lane(SemCtx *c, Vec v, int idx, int esize) {
  lane_check(c, idx, esize);
  int off = idx * esize, k = off / 64, sh = off % 64;
  SVal x = v.ch[k];
  if (sh) x = sem_op(c, S_SHR, x, k_(c, sh));
  return esize < 64 ? sem_mask(c, x, esize) : x;
}

void av_set_lane(SemCtx *c, Vec *v, int idx, int esize, SVal x) {
  lane_check(c, idx, esize);
  int off = idx * esize, k = off / 64, sh = off % 64;
  if (esize == 64) {
    v->ch[k] = x;
    return;
  }
  uint64_t m = lane_mask(esize) << sh;
  SVal keep = sem_op(c, S_AND, v->ch[k], k_(c, (int64_t)~m));
  SVal put = sem_mask(c, x, esize);
  if (sh) put = sem_op(c, S_SHL, put, k_(c, sh));
  v->ch[k] = sem_op(c, S_OR, keep, put);
}

/* Lane idx of register n set to x, and lane idx read: only the chunk
 * holding the lane is read and written (the other one is unchanged: its
 * value and dependencies are those of its last write either way), which
 * keeps a 16-element LD1 within an instruction's 64 events. */
static void av_set_elem(SemCtx *c, int n, int idx, int esize, SVal x) {
  lane_check(c, idx, esize);
  Vec v;
  int k = idx * esize / 64;
  v.ch[k] = sem_read_reg(c, AA_VCH(n, k));
  v.ch[1 - k] = v.ch[k];
  av_set_lane(c, &v, idx, esize, x);
  sem_write_reg(c, AA_VCH(n, k), v.ch[k]);
}

static SVal av_get_elem(SemCtx *c, int n, int idx, int esize) {
  lane_check(c, idx, esize);
  Vec v;
  int k = idx * esize / 64;
  v.ch[k] = sem_read_reg(c, AA_VCH(n, k));
  v.ch[1 - k] = v.ch[k];
  return av_get_lane(c, v, idx, esize);
}

/* The view's size in bits: nelem * esize, or esize for an element form. */
static int view_bits(const Operand *o) {
  return o->sub == AV_VEC && o->imm2 ? (int)(o->imm2 * o->imm) : (int)o->imm;
}

int av_nelem(const Operand *o) { return o->imm2 ? (int)o->imm2 : 128 / (int)o->imm; }

/* v replicated in the n lanes of a vector (herd's neon_replicate). */
Vec av_replicate(SemCtx *c, SVal x, int n, int esize) {
  Vec v = av_zero(c);
  for (int i = 0; i < n; i++) av_set_lane(c, &v, i, esize, x);
  return v;
}

/* A general register read at a size (read_reg_ord_sz). */
SVal av_rd_gpr(SemCtx *c, const Operand *o) {
  if (o->reg == AA_ZR) return k_(c, 0);
  SVal v = sem_read_reg(c, o->reg);
  return o->sub == AA_W ? sem_mask(c, v, 32) : v;
}

void av_wr_gpr(SemCtx *c, const Operand *o, SVal v) {
  if (o->reg != AA_ZR) sem_write_reg(c, o->reg, v);
}

/* --------------------------------------------------------------- memory */

SVal av_addr_plus(SemCtx *c, SVal a, int64_t k) {
  return k ? sem_op(c, S_ADD, a, k_(c, k)) : a;
}

/* Post-indexing of the structure forms: Xn += #k or Xm. */
static void post_index(SemCtx *c, const Operand *m, SVal base) {
  if (m->sub == AA_AM_POST && m->imm)
    sem_write_reg(c, m->reg, av_addr_plus(c, base, m->imm));
  else if (m->sub == AV_AM_POSTREG)
    sem_write_reg(c, m->reg, sem_op(c, S_ADD, base, av_rd_gpr(c, &(Operand){.reg = m->reg2})));
}

/* LD1..LD4 / ST1..ST4 {..}[i] and LD1R..LD4R: register j's element at
 * base + j * esize / 8. */
static void single_structure(SemCtx *c, const Instr *ins) {
  const Operand *l = &ins->ops[0], *m = &ins->ops[ins->nops - 1];
  int x = AA_FLAG_X(ins->flags), es = (int)l->imm;
  bool store = x & 8, ord = (ins->flags >> 12) & 1, rep = ins->op == AV_LDNR;
  int idx = rep ? 0 : (int)ins->ops[1].imm;
  uint64_t tags = ord ? sem_tag(c, store ? "L" : "Q") : 0;
  SVal base = sem_read_reg(c, m->reg);
  for (int j = 0; j < l->reg2; j++) {
    int r = (l->reg + j) % 32;
    SVal a = av_addr_plus(c, base, (int64_t)j * es / 8);
    if (store) {
      sem_store(c, a, av_get_elem(c, r, idx, es), es / 8, tags);
    } else if (rep) {
      SVal v = sem_load(c, a, es / 8, tags);
      av_write(c, r, av_replicate(c, v, av_nelem(l), es), 128);
    } else {
      av_set_elem(c, r, idx, es, sem_load(c, a, es / 8, tags));
    }
  }
  post_index(c, m, base);
}

/* LD1..LD4 / ST1..ST4 {..}: LD1 / ST1 take each register's elements in
 * turn, the others interleave (element i of register j at
 * (i * n + j) * esize / 8). */
static void multiple_structure(SemCtx *c, const Instr *ins) {
  const Operand *l = &ins->ops[0], *m = &ins->ops[1];
  int x = AA_FLAG_X(ins->flags), es = (int)l->imm, ne = (int)l->imm2, n = l->reg2;
  bool store = x & 8, contiguous = (x & 7) == 1;
  SVal base = sem_read_reg(c, m->reg);
  for (int outer = 0; outer < (contiguous ? n : ne); outer++)
    for (int inner = 0; inner < (contiguous ? ne : n); inner++) {
      int j = contiguous ? outer : inner, i = contiguous ? inner : outer;
      int r = (l->reg + j) % 32;
      int64_t off = contiguous ? (int64_t)(i + j * ne) * es / 8 : (int64_t)(i * n + j) * es / 8;
      SVal a = av_addr_plus(c, base, off);
      if (store) {
        sem_store(c, a, av_get_elem(c, r, i, es), es / 8, 0);
      } else {
        av_set_elem(c, r, i, es, sem_load(c, a, es / 8, 0));
      }
    }
  post_index(c, m, base);
}

/* A scalar register's load or store at a, of its size (128 bits: two
 * 64-bit accesses). */
static void scalar_load(SemCtx *c, const Operand *r, SVal a, uint64_t tags) {
  int bits = (int)r->imm;
  Vec v = av_zero(c);
  if (bits == 128) {
    v.ch[0] = sem_load(c, a, 8, tags);
    v.ch[1] = sem_load(c, av_addr_plus(c, a, 8), 8, tags);
  } else {
    v.ch[0] = sem_load(c, a, bits / 8, tags);
  }
  av_write(c, r->reg, v, bits);
}

static void scalar_store(SemCtx *c, const Operand *r, SVal a, uint64_t tags) {
  int bits = (int)r->imm;
  Vec v = av_read(c, r->reg);
  if (bits == 128) {
    sem_store(c, a, v.ch[0], 8, tags);
    sem_store(c, av_addr_plus(c, a, 8), v.ch[1], 8, tags);
  } else {
    sem_store(c, a, bits < 64 ? sem_mask(c, v.ch[0], bits) : v.ch[0], bits / 8, tags);
  }
}

static void ldr_str(SemCtx *c, const Instr *ins) {
  const Operand *m = &ins->ops[1];
  bool ord = AA_FLAG_X(ins->flags) == AV_M_ORDERED, ld = ins->op == AV_LDR;
  uint64_t tags = ord ? sem_tag(c, ld ? "Q" : "L") : 0;
  SVal a = aarch64_address(c, m);
  if (ld) scalar_load(c, &ins->ops[0], a, tags);
  else scalar_store(c, &ins->ops[0], a, tags);
  aarch64_write_back(c, m, a);
}

static void pair(SemCtx *c, const Instr *ins) {
  const Operand *m = &ins->ops[2];
  SVal a = aarch64_address(c, m);
  int bytes = (int)ins->ops[0].imm / 8;
  for (int i = 0; i < 2; i++) {
    SVal ai = av_addr_plus(c, a, (int64_t)i * bytes);
    if (ins->op == AV_LDP) scalar_load(c, &ins->ops[i], ai, 0);
    else scalar_store(c, &ins->ops[i], ai, 0);
  }
  aarch64_write_back(c, m, a);
}

/* ---------------------------------------------------------- operations */

/* MOVI Vd.<T>,#k{,LSL|MSL #s}: k (shifted) in every lane. */
static void movi_v(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  int es = (int)o[0].imm;
  int64_t k = o[1].imm;
  if (ins->nops > 2) {
    int s = (int)o[2].imm;
    bool ok = o[2].sub ? es == 32 && (s == 8 || s == 16)
                       : (es == 8 && s == 0) || (es == 16 && (s == 0 || s == 8)) ||
                             (es == 32 && (s == 0 || s == 8 || s == 16 || s == 24));
    if (!ok) sem_error(c, "illegal shift in %d-bit instruction movi", es);
    k = (int64_t)((uint64_t)k << s);
  }
  av_write(c, o[0].reg, av_replicate(c, k_(c, k), av_nelem(&o[0]), es), view_bits(&o[0]));
}

bool aarch64_simd_accesses_memory(int op) {
  if (op >= AV_PTRUE) return true; /* SVE and SME: not told apart here */
  switch ((AVOp)op) {
  case AV_LDST_LANE: case AV_LDNR: case AV_LDST_MULT: case AV_LDR: case AV_STR: case AV_LDP:
  case AV_STP:
    return true;
  default:
    return false;
  }
}

void aarch64_simd_exec(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  if (ins->op >= AV_SMSTART) return aarch64_sme_exec(c, ins);
  if (ins->op >= AV_PTRUE) return aarch64_sve_exec(c, ins);
  av_check(c, ins, AV_VAR_NEON);
  switch ((AVOp)ins->op) {
  case AV_LDST_LANE:
  case AV_LDNR: single_structure(c, ins); return;
  case AV_LDST_MULT: multiple_structure(c, ins); return;
  case AV_LDR:
  case AV_STR: ldr_str(c, ins); return;
  case AV_LDP:
  case AV_STP: pair(c, ins); return;
  case AV_MOVI_V: movi_v(c, ins); return;
  case AV_MOVI_S: { /* herd: Dd <- k */
    Vec v = av_zero(c);
    v.ch[0] = k_(c, o[1].imm);
    av_write(c, o[0].reg, v, 64);
    return;
  }
  case AV_MOV_VE: {
    SVal x = av_get_lane(c, av_read(c, o[2].reg), (int)o[3].imm, (int)o[2].imm);
    Vec d = av_read(c, o[0].reg);
    av_set_lane(c, &d, (int)o[1].imm, (int)o[0].imm, x);
    av_write(c, o[0].reg, d, 128);
    return;
  }
  case AV_MOV_FG: {
    SVal x = av_rd_gpr(c, &o[2]);
    Vec d = av_read(c, o[0].reg);
    av_set_lane(c, &d, (int)o[1].imm, (int)o[0].imm, x);
    av_write(c, o[0].reg, d, 128);
    return;
  }
  case AV_MOV_TG:
    av_wr_gpr(c, &o[0], av_get_lane(c, av_read(c, o[1].reg), (int)o[2].imm, (int)o[1].imm));
    return;
  case AV_MOV_V: av_write(c, o[0].reg, av_read(c, o[1].reg), 128); return;
  case AV_MOV_S: {
    Vec d = av_zero(c);
    d.ch[0] = av_get_lane(c, av_read(c, o[1].reg), (int)o[2].imm, (int)o[1].imm);
    av_write(c, o[0].reg, d, (int)o[0].imm);
    return;
  }
  case AV_DUP:
    av_write(c, o[0].reg, av_replicate(c, av_rd_gpr(c, &o[1]), av_nelem(&o[0]), (int)o[0].imm),
              view_bits(&o[0]));
    return;
  case AV_ADDV: {
    Vec s = av_read(c, o[1].reg);
    SVal sum = k_(c, 0);
    for (int i = 0; i < av_nelem(&o[1]); i++)
      sum = sem_op(c, S_ADD, sum, av_get_lane(c, s, i, (int)o[1].imm));
    Vec d = av_zero(c);
    d.ch[0] = sum;
    av_write(c, o[0].reg, d, (int)o[0].imm);
    return;
  }
  case AV_FMOV: /* herd: Rd <- the register's low 64 bits, unmasked */
    av_wr_gpr(c, &o[0], av_read(c, o[1].reg).ch[0]);
    return;
  case AV_OP3: {
    if (AA_FLAG_X(ins->flags) != AV_L_EOR) sem_unsupported(c, "herd7 has no semantics for it");
    Vec b = av_read(c, o[2].reg), a = av_read(c, o[1].reg), d;
    for (int k = 0; k < AV_CHUNKS; k++) d.ch[k] = sem_op(c, S_XOR, a.ch[k], b.ch[k]);
    av_write(c, o[0].reg, d, view_bits(&o[0]));
    return;
  }
  case AV_ADD_V: {
    Vec b = av_read(c, o[2].reg), a = av_read(c, o[1].reg), d = av_zero(c);
    int es = (int)o[0].imm;
    for (int i = 0; i < av_nelem(&o[0]); i++)
      av_set_lane(c, &d, i, es, sem_op(c, S_ADD, av_get_lane(c, a, i, es), av_get_lane(c, b, i, es)));
    av_write(c, o[0].reg, d, 128);
    return;
  }
  case AV_ADD_S: { /* the low 64 bits of the sum of the registers */
    Vec b = av_read(c, o[2].reg), a = av_read(c, o[1].reg), d = av_zero(c);
    d.ch[0] = sem_op(c, S_ADD, a.ch[0], b.ch[0]);
    av_write(c, o[0].reg, d, 64);
    return;
  }
  default: break;
  }
  sem_unsupported(c, NULL);
}

/* -variant neon / sve / sme, and the vector length of sve:N / sme:N. */
void program_set_simd(Program *p, const char *const *vars, int nv) {
  for (int i = 0; i < nv; i++) {
    const char *v = vars[i];
    if (!strcmp(v, "neon")) p->simd |= AV_VAR_NEON;
    else if (!strcmp(v, "sve")) p->simd |= AV_VAR_NEON | AV_VAR_SVE;
    else if (!strcmp(v, "sme")) p->simd |= AV_VAR_NEON | AV_VAR_SVE | AV_VAR_SME | AV_VAR_SME_ASKED;
    else if (!strncmp(v, "sve:", 4)) p->simd |= AV_VAR_NEON | AV_VAR_SVE, p->sve_bits = atoi(v + 4);
    else if (!strncmp(v, "sme:", 4))
      p->simd |= AV_VAR_NEON | AV_VAR_SVE | AV_VAR_SME | AV_VAR_SME_ASKED,
      p->sme_bits = atoi(v + 4);
  }
}
