/*
 * sem_aarch64_vec.h — vector registers for the semantics of the AArch64
 * vector instructions (sem_aarch64_simd.c: Neon and these helpers,
 * sem_aarch64_sve.c, sem_aarch64_sme.c).  A vector is its 64-bit chunks
 * (aarch64_simd.h); lanes are shifts and masks of them, as herd's
 * getlane / setlane.
 */
#ifndef CORRAL_SEM_AARCH64_VEC_H
#define CORRAL_SEM_AARCH64_VEC_H

#include "../litmus/aarch64_simd.h"
#include "sem.h"

typedef struct Vec {
  SVal ch[AV_CHUNKS];
} Vec;

/* Refuses the instruction unless -variant enables it (AV_VAR_*). */
void av_check(SemCtx *c, const Instr *ins, unsigned variant_bit);
/* herd's vector length for SVE / SME: sve:N, sme:N, or 128. */
int av_vl_bits(SemCtx *c);

Vec av_read(SemCtx *c, int n);           /* V/Z register n */
Vec av_zero(SemCtx *c);
/* Writes V/Z register n, the bits above `bits` cleared. */
void av_write(SemCtx *c, int n, Vec v, int bits);
SVal av_get_lane(SemCtx *c, Vec v, int idx, int esize);
void av_set_lane(SemCtx *c, Vec *v, int idx, int esize, SVal x);
Vec av_replicate(SemCtx *c, SVal x, int n, int esize);
/* The elements of a vector operand: its count, or 128 / its size. */
int av_nelem(const Operand *o);
/* A general register operand read at its size (W: 32 bits); written. */
SVal av_rd_gpr(SemCtx *c, const Operand *o);
void av_wr_gpr(SemCtx *c, const Operand *o, SVal v);
SVal av_addr_plus(SemCtx *c, SVal a, int64_t k);

/* Predicates (sem_aarch64_sve.c): the bit of element idx of size esize
 * (0 / 1). */
SVal av_pred_bit(SemCtx *c, SVal pred, int idx, int esize);
/* Whether a predicate bit is set.  A bit not known while the thread runs
 * is explored both ways, assumed set and clear: the instruction runs once
 * per combination of its unknown bits (one sem_choose of 2^AV_MAXDEC
 * alternatives, decision i taking bit i; av_decided drops the
 * alternatives that differ only in bits no decision took). */
enum { AV_MAXDEC = 10 };
typedef struct Decide {
  int used, alt;
  bool chose;
} Decide;
bool av_active(SemCtx *c, Decide *d, SVal bit);
void av_decided(SemCtx *c, const Decide *d);

void aarch64_sve_exec(SemCtx *c, const Instr *ins);
void aarch64_sme_exec(SemCtx *c, const Instr *ins);

#endif
