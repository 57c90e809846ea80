/*
 * ppc.h — the PPC (Power) front end: registers, opcodes and the exact
 * layout of a parsed instruction in Instr (litmus.md §7.3, hash.md §7.3).
 *
 * REGISTERS (ids for Operand.reg and LitLoc.regid):
 *   0..31   r0..r31 (64-bit general registers)
 *   32..39  cr0..cr7 (condition register fields, 4 bits LT GT EQ SO)
 *   40      lr (link register)                      (PPC_NREGS = 41)
 * Register names are case-insensitive in the code ("R1" is r1), printed
 * "r1" in final states.  Symbolic registers `%name` are allocated to
 * r1..r31 (never r0); Operand.sreg keeps the name.
 * Note (semantics): in the ISA, r0 as rA of addi/addis or of an indexed
 * or D-form access stands for the constant 0; the parser records r0 like
 * any register and leaves that reading to the semantics.
 *
 * OPERAND LAYOUT (in source order; rD/rS/rA/rB are OPK_REG; "k" is OPK_IMM,
 * imm = k; "d(rA)" is OPK_MEM with reg = rA, imm = d):
 *   3 registers     add sub subf or and xor mullw divw nor slw sraw
 *                   ops = rD, rA, rB  (as written: sub rD,rA,rB is rA - rB;
 *                   subf rD,rA,rB is rB - rA)
 *   2 registers     neg mr extsw: rD, rA;   dcbf: rA, rB
 *   reg, reg, imm   addi addis ori xori andi. mulli srawi clrldi:
 *                   rD, rA, k   (subi rD,rA,k is parsed as addi rD,rA,-k)
 *   rotate          rlwinm rlwimi: rD, rA, k(SH), k(MB), k(ME)
 *   immediate load  li lis: rD, k
 *   D-form access   lbz lhz lwz ld lwa lwzu lmw (load: rD, d(rA));
 *                   stb sth stw std stwu stmw (store: rS, d(rA)).  The
 *                   old syntax "lwz rD,d,rA" gives the same layout.
 *   indexed access  lbzx lhzx lwzx ldx lwax lwarx (rD, rA, rB);
 *                   stbx sthx stwx stdx stwcx. (rS, rA, rB); EA = rA + rB
 *   compares        cmpw cmplw: ops = CRF, rA, rB;  cmpwi cmplwi: CRF, rA, k
 *                   where CRF is OPK_REG with reg = PPC_CR0 + n (cr0 when
 *                   the field is omitted)
 *   branches        b bl: ops[0] = OPK_LABEL (sym = label);
 *                   PPC_BCC: ops[0] = OPK_COND (imm = PPC_CC_*), ops[1] =
 *                   OPK_LABEL; tests cr0.  beq bne blt bge bgt ble, and
 *                   bnl = bge, bng = ble.
 *   one register    mtlr rS, mflr rD, mfcr rD
 *   none            sync (also written hwsync), lwsync, isync, eieio, nop,
 *                   blr
 *   PPC_COM         com "text": ops[0] = OPK_STR (sym = text)
 * Access sizes: b 1, h 2, w (lwz, lwa, lwarx, stw, stwcx., lmw...) 4,
 * d (ld, std, ldx, stdx) 8; lwa/lwax sign-extend, the others zero-extend.
 * lwzu/stwu also write rA with the effective address.
 * FLAGS: PPC_F_DOT: record form ("add." ...): also sets cr0.  andi. and
 * stwcx. always set cr0 and do not carry the flag.
 * Mnemonics are lower case (herd's PPC lexer).
 */
#ifndef CORRAL_PPC_H
#define CORRAL_PPC_H

#include "litmus.h"

enum { PPC_CR0 = 32, PPC_LR = 40, PPC_NREGS = 41 };

typedef enum PPCOp {
  PPC_NOP,
  /* 3 registers */
  PPC_ADD, PPC_SUB, PPC_SUBF, PPC_OR, PPC_AND, PPC_XOR, PPC_MULLW, PPC_DIVW,
  PPC_NOR, PPC_SLW, PPC_SRAW,
  /* 2 registers */
  PPC_NEG, PPC_MR, PPC_EXTSW, PPC_DCBF,
  /* register, register, immediate */
  PPC_ADDI, PPC_ADDIS, PPC_ORI, PPC_XORI, PPC_ANDI, PPC_MULLI, PPC_SRAWI,
  PPC_CLRLDI,
  PPC_RLWINM, PPC_RLWIMI,
  PPC_LI, PPC_LIS,
  /* D-form loads and stores */
  PPC_LBZ, PPC_LHZ, PPC_LWZ, PPC_LD, PPC_LWA, PPC_LWZU, PPC_LMW,
  PPC_STB, PPC_STH, PPC_STW, PPC_STD, PPC_STWU, PPC_STMW,
  /* indexed loads and stores */
  PPC_LBZX, PPC_LHZX, PPC_LWZX, PPC_LDX, PPC_LWAX, PPC_LWARX,
  PPC_STBX, PPC_STHX, PPC_STWX, PPC_STDX, PPC_STWCX,
  /* compares */
  PPC_CMPW, PPC_CMPLW, PPC_CMPWI, PPC_CMPLWI,
  /* branches */
  PPC_B, PPC_BL, PPC_BCC, PPC_BLR,
  PPC_MTLR, PPC_MFLR, PPC_MFCR,
  /* fences */
  PPC_SYNC, PPC_LWSYNC, PPC_ISYNC, PPC_EIEIO,
  PPC_COM,
} PPCOp;

typedef enum PPCCond {
  PPC_CC_EQ, PPC_CC_NE, PPC_CC_LT, PPC_CC_GE, PPC_CC_GT, PPC_CC_LE
} PPCCond;

enum { PPC_F_DOT = 1u << 0 };

extern const ArchOps ppc_arch_ops;

#endif
