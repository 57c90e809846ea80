/*
 * arm.h — the ARM (AArch32) front end: registers, opcodes and the exact
 * layout of a parsed instruction in Instr (litmus.md §7.5, hash.md §7.4).
 *
 * REGISTERS (ids for Operand.reg and LitLoc.regid; final-state spelling):
 *   0..12  R0..R12 (IP is another name of R12, printed R12)
 *   13 SP  14 FP  15 LR  16 PC     (FP is a register of its own, as herd)
 *   17 Z   the flag written by CMP and the S forms, 1 when "equal/zero"
 *   18     ARM_RESADDR, the reservation register of LDREX/STREX
 *                                                       (ARM_NREGS = 19)
 * Z and the reservation cannot be named in tests.  Register names are
 * case-insensitive; symbolic registers `%name` go to R0..R12.  Mnemonics
 * are all upper or all lower case (herd's lexer).  Immediates are written
 * #k or k.
 *
 * OPERAND LAYOUT (in source order; Rd/Rn/Rm/Rt are OPK_REG; "k" is OPK_IMM,
 * imm = k; "op2" is OPK_IMM or OPK_REG):
 *   ARM_ADD ARM_SUB ARM_AND ARM_ORR   Rd, Rn, op2
 *   ARM_EOR                           Rd, Rn, Rm
 *   ARM_ANDC   ANDEQ Rd,Rn,Rm (condition EQ); ANDEQ R,R,R with three equal
 *              registers is herd's NOP and parses as ARM_NOP
 *   ARM_CMP    Rn, op2
 *   ARM_MOV    Rd, op2;  ARM_MOVW ARM_MOVT  Rd, k
 *   ARM_B ARM_BEQ ARM_BNE   OPK_LABEL;  ARM_CBZ ARM_CBNZ  Rn, OPK_LABEL
 *   ARM_BX     Rm
 *   ARM_LDR ARM_STR   Rt, ADDR where ADDR is OPK_MEM with reg = Rn and
 *              sub = ARM_AM_BASE  [Rn] (also written Rn without brackets)
 *                    ARM_AM_IMM   [Rn,#k]        imm = k (#0 is kept)
 *                    ARM_AM_REG   [Rn,Rm]        reg2 = Rm
 *                    ARM_AM_LSL   [Rn,Rm,LSL #k] reg2 = Rm, imm2 = k
 *              a condition (LDRNE...) only with ARM_AM_BASE / ARM_AM_REG
 *   ARM_LDREX ARM_LDA ARM_LDAEX ARM_STL   Rt, [Rn] (ARM_AM_BASE)
 *   ARM_STREX ARM_STLEX                   Rd, Rt, [Rn]
 *   ARM_LDRD   Rt, Rt2, [Rn] or [Rn,#k]; "LDRD Rt,[Rn]" means Rt2 = Rt+1
 *   ARM_LDM ARM_LDMIB   Rn, then the list {R1,R2} or {R1,R2,R3} as OPK_REG
 *   ARM_DMB ARM_DSB     OPK_IMM imm = an ARMBarrierOpt (SY when omitted)
 *   ARM_ISB ARM_NOP     none (PUSH / POP {...} parse as ARM_NOP)
 *   ARM_SADD16 ARM_SEL  Rd, Rn, Rm (parsed and hashed; no semantics)
 * FLAGS: ARM_F_S for the flag-setting forms (ADDS SUBS ANDS EORS); bits
 * 1-2 the condition ARM_FLAG_COND (an ARMCond).
 */
#ifndef CORRAL_ARM_H
#define CORRAL_ARM_H

#include "litmus.h"

enum {
  ARM_SP = 13, ARM_FP = 14, ARM_LR = 15, ARM_PC = 16, ARM_Z = 17,
  ARM_RESADDR = 18, ARM_NREGS = 19
};

typedef enum ARMOp {
  ARM_NOP,
  ARM_ADD, ARM_SUB, ARM_AND, ARM_ORR, ARM_EOR, ARM_ANDC, ARM_CMP,
  ARM_MOV, ARM_MOVW, ARM_MOVT,
  ARM_B, ARM_BEQ, ARM_BNE, ARM_CBZ, ARM_CBNZ, ARM_BX,
  ARM_LDR, ARM_STR, ARM_LDREX, ARM_LDA, ARM_LDAEX, ARM_STL, ARM_STREX,
  ARM_STLEX, ARM_LDRD, ARM_LDM, ARM_LDMIB,
  ARM_DMB, ARM_DSB, ARM_ISB,
  ARM_SADD16, ARM_SEL,
} ARMOp;

typedef enum ARMCond { ARM_AL, ARM_EQ, ARM_NE } ARMCond;

typedef enum ARMAddrMode { ARM_AM_BASE, ARM_AM_IMM, ARM_AM_REG, ARM_AM_LSL } ARMAddrMode;

typedef enum ARMBarrierOpt {
  ARM_OPT_SY, ARM_OPT_ST, ARM_OPT_ISH, ARM_OPT_ISHST, ARM_OPT_NSH,
  ARM_OPT_NSHST, ARM_OPT_OSH, ARM_OPT_OSHST
} ARMBarrierOpt;

enum { ARM_F_S = 1u << 0 };
#define ARM_FLAG_COND(f) ((ARMCond)(((f) >> 1) & 3u))
#define ARM_MAKE_COND(c) ((uint32_t)(c) << 1)

extern const ArchOps arm_arch_ops;

#endif
