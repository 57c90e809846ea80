/*
 * bpf.h — the eBPF front end: registers, opcodes and the exact layout of a
 * parsed instruction in Instr, as herd7 7.58 reads BPF litmus tests (the
 * kernel's BPF memory-model tests: C-like assembly such as
 * `*(u32 *)(r2 + 0) = r1` or `r5 = atomic_fetch_add((u32 *)(r6 + 0), r5)`).
 *
 * REGISTERS (ids for Operand.reg and LitLoc.regid): r0..r10 are 0..10
 * (R0..R10 too; r10 is also spelt fp/FP and is printed "fp", as herd
 * prints it).  No symbolic registers.
 *
 * FLAGS: BPF_W(flags) the access width (BPF_B, BPF_H, BPF_WD, BPF_DW: 1, 2,
 * 4, 8 bytes); BPF_ALU(flags) the operation of OP, OPI and AMO (BPFAlu);
 * BPF_CND(flags) the condition of JCOND/JCONDI (BPFCond); BPF_F_FETCH: an
 * atomic that returns the old value.
 *
 * OPERAND LAYOUT ("m" is OPK_MEM: reg = base, imm = offset):
 *   BPF_OP      rd, rs            rd OP= rs
 *   BPF_OPI     rd, k             rd OP= k
 *   BPF_MOV     rd, rs;   BPF_MOVI rd, k
 *   BPF_LOAD    rd, m             rd = *(uN *)(base + k)
 *   BPF_LDAQ    rd, m             rd = load_acquire((uN *)(base + k))
 *   BPF_STORE   m, rs;   BPF_STOREI m, k;   BPF_STRL m, rs (store_release)
 *   BPF_AMO     m, rs             BPF_ALU: ADD AND OR XOR (atomic_fetch_OP
 *                                 with BPF_F_FETCH, `lock *(..) OP= rs`
 *                                 without), XCHG (rs = xchg(m, rs)),
 *                                 CMPXCHG (r0 = cmpxchg(m, r0, rs))
 *   BPF_GOTO    label;  BPF_JCOND r1, r2, label;  BPF_JCONDI r1, k, label
 */
#ifndef CORRAL_BPF_H
#define CORRAL_BPF_H

#include "litmus.h"

enum { BPF_R0 = 0, BPF_R10 = 10, BPF_NREGS = 11 };

typedef enum BPFOp {
  BPF_OP, BPF_OPI, BPF_MOV, BPF_MOVI, BPF_LOAD, BPF_LDAQ, BPF_STORE,
  BPF_STOREI, BPF_STRL, BPF_AMO, BPF_GOTO, BPF_JCOND, BPF_JCONDI,
} BPFOp;

typedef enum BPFAlu {
  BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_REM, BPF_AND, BPF_ORR, BPF_XOR,
  BPF_LSL, BPF_LSR, BPF_ASR, BPF_XCHG, BPF_CMPXCHG,
} BPFAlu;

typedef enum BPFCond { BPF_EQ, BPF_NE, BPF_LT, BPF_GE } BPFCond;

enum { BPF_B = 0, BPF_H = 1, BPF_WD = 2, BPF_DW = 3 };
#define BPF_W(f) ((int)((f) & 3u))
#define BPF_ALU(f) ((int)(((f) >> 4) & 15u))
#define BPF_CND(f) ((int)(((f) >> 8) & 3u))
#define BPF_MKW(w) ((uint32_t)(w))
#define BPF_MKALU(a) ((uint32_t)(a) << 4)
#define BPF_MKCND(c) ((uint32_t)(c) << 8)
#define BPF_F_FETCH (1u << 12)

extern const ArchOps bpf_arch_ops;

#endif
