/*
 * aarch64.h — the AArch64 (Armv8) front end: registers, opcodes and the
 * exact layout of a parsed instruction in Instr (litmus.md §7.4, hash.md
 * §7.5).
 *
 * REGISTERS (ids for Operand.reg and LitLoc.regid):
 *   0..30   general registers; Wn and Xn are two views of register n
 *   31      the zero register AA_ZR (XZR / WZR): reads 0, ignores writes
 *   32      SP
 *   33      AA_NZCV, the flags written by CMP (see sem_aarch64.c)
 *   34      AA_RESADDR, the reservation register of LDXR / STXR
 *                                                      (AA_NREGS = 35)
 * NZCV and the reservation cannot be named in tests.  In a register
 * operand, `sub` is AA_W for a W (32-bit) view and AA_X otherwise; final
 * states print the X spelling.  Symbolic registers `W%name` / `X%name`
 * are not supported (none occurs in the catalogue's AArch64 tests).
 * Mnemonics are all upper or all lower case; register names likewise.
 * Immediates are written #k.
 *
 * OPERAND LAYOUT (in source order; Rd/Rn/Rm/Rs/Rt are OPK_REG; "k" is
 * OPK_IMM with imm = k; "op2" is OPK_IMM or OPK_REG):
 *   AA_MOV                      Rd, op2
 *   AA_ADD AA_SUB AA_AND AA_ORR AA_EOR   Rd, Rn, op2
 *   AA_CMP                      Rn, op2
 *   AA_CSEL                     Rd, Rn, Rm, OPK_COND (imm = an AACond)
 *   AA_B                        OPK_LABEL
 *   AA_BCC                      OPK_COND, OPK_LABEL         (B.cond L)
 *   AA_CBZ AA_CBNZ              Rt, OPK_LABEL
 *   AA_LDR AA_STR               Rt, ADDR (size in flags) where ADDR is
 *               OPK_MEM with reg = Xn and sub an AAAddrMode:
 *                 AA_AM_IMM    [Xn] or [Xn,#k]     imm = k
 *                 AA_AM_REG    [Xn,Xm]             reg2 = Xm
 *                 AA_AM_LSL    [Xn,Xm,LSL #k]      reg2 = Xm, imm2 = k
 *                 AA_AM_SXTW   [Xn,Wm,SXTW]        reg2 = Wm
 *                 AA_AM_UXTW   [Xn,Wm,UXTW]        reg2 = Wm
 *                 AA_AM_POST   [Xn],#k             imm = k
 *                 AA_AM_PRE    [Xn,#k]!            imm = k
 *   AA_LDAR AA_LDAPR AA_STLR AA_LDXR AA_LDAXR   Rt, [Xn] (AA_AM_IMM, 0)
 *   AA_STXR AA_STLXR            Ws, Rt, [Xn]
 *   AA_CAS AA_SWP AA_LDOP       Rs, Rt, [Xn]
 *   AA_STOP                     Rs, [Xn]
 *   AA_DMB AA_DSB               OPK_IMM imm = an AABarrier
 *   AA_ISB AA_NOP               none
 * FLAGS: bits 0-1 the access size, log2 of its bytes (AA_FLAG_SIZE);
 * bits 2-3 the ordering of atomics (AA_FLAG_MO, an AAMo: CASA, SWPL,
 * LDADDAL...); bits 4-7 the operation of LDOP / STOP (AA_FLAG_AOP, an
 * AAAop).
 */
#ifndef CORRAL_AARCH64_H
#define CORRAL_AARCH64_H

#include "litmus.h"

enum {
  AA_ZR = 31, AA_SP = 32, AA_NZCV = 33, AA_RESADDR = 34, AA_NREGS = 35
};

/* Register views (Operand.sub of a register operand). */
enum { AA_X = 0, AA_W = 1 };

typedef enum AAOp {
  AA_NOP, AA_MOV, AA_ADD, AA_SUB, AA_AND, AA_ORR, AA_EOR, AA_CMP, AA_CSEL,
  AA_B, AA_BCC, AA_CBZ, AA_CBNZ,
  AA_LDR, AA_STR, AA_LDAR, AA_LDAPR, AA_STLR, AA_LDXR, AA_LDAXR, AA_STXR,
  AA_STLXR, AA_CAS, AA_SWP, AA_LDOP, AA_STOP,
  AA_DMB, AA_DSB, AA_ISB,
} AAOp;

typedef enum AAAddrMode {
  AA_AM_IMM, AA_AM_REG, AA_AM_LSL, AA_AM_SXTW, AA_AM_UXTW, AA_AM_POST,
  AA_AM_PRE
} AAAddrMode;

/* Condition codes, in the architecture's encoding order. */
typedef enum AACond {
  AA_EQ, AA_NE, AA_CS, AA_CC, AA_MI, AA_PL, AA_VS, AA_VC, AA_HI, AA_LS,
  AA_GE, AA_LT, AA_GT, AA_LE, AA_AL
} AACond;

/* Barrier options: domain (full system, OSH, ISH, NSH) times type (all,
 * LD, ST); AA_BAR(d, t) = 3 * d + t. */
enum { AA_DOM_SY, AA_DOM_OSH, AA_DOM_ISH, AA_DOM_NSH };
enum { AA_BT_ALL, AA_BT_LD, AA_BT_ST };
#define AA_BAR(d, t) (3 * (d) + (t))

/* Atomic orderings: none, A (acquire), L (release), AL. */
typedef enum AAMo { AA_MO_NONE, AA_MO_A, AA_MO_L, AA_MO_AL } AAMo;

/* LD<op> / ST<op> operations. */
typedef enum AAAop {
  AA_AOP_ADD, AA_AOP_EOR, AA_AOP_SET, AA_AOP_CLR, AA_AOP_SMAX, AA_AOP_SMIN,
  AA_AOP_UMAX, AA_AOP_UMIN
} AAAop;

#define AA_FLAG_SIZE(f) ((int)((f) & 3u))
#define AA_FLAG_MO(f) ((AAMo)(((f) >> 2) & 3u))
#define AA_FLAG_AOP(f) ((AAAop)(((f) >> 4) & 15u))
#define AA_MAKE_FLAGS(size, mo, aop) \
  ((uint32_t)(size) | ((uint32_t)(mo) << 2) | ((uint32_t)(aop) << 4))

extern const ArchOps aarch64_arch_ops;

/* Names shared with the semantics: conditions ("EQ"...), barrier options
 * ("SY", "ISHLD"...). */
extern const char *const aarch64_cond_names[];
extern const char *const aarch64_barrier_names[];

#endif
