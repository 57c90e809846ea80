/*
 * x86.h — the X86 (32-bit, Intel syntax) front end: registers, opcodes and
 * the exact layout of a parsed instruction in Instr (litmus.md §7.1,
 * hash.md §7.1).
 *
 * REGISTERS (ids for Operand.reg and LitLoc.regid; final-state spelling):
 *   0 EAX  1 EBX  2 ECX  3 EDX  4 ESI  5 EDI  6 EBP  7 ESP  8 EIP
 *   9 ZF  10 SF  11 CF                         (X86_NREGS = 12)
 * Names are upper case, exactly as above.  Symbolic registers `%name` are
 * allocated to EAX, EBX, ECX, EDX, ESI, EDI (Operand.sreg keeps the name).
 *
 * OPERANDS.  Destination first, as written (Intel order).  An "ea"
 * (effective address) operand is one of
 *   OPK_REG   reg                 EAX
 *   OPK_MEM   reg = base          [EAX] or (EAX): the address is in EAX
 *   OPK_MEM   reg = -1, imm = k   [k]: absolute numeric address (rare)
 *   OPK_SYM   sym = "x"           [x]: the location x
 * and a source "op" is an ea or
 *   OPK_IMM   imm = k             $k or k (both spellings mean the same)
 *
 * INSTRUCTIONS (ops[] in order; flags below):
 *   X86_MOV   ea, op       MOVB/MOVW/MOVL/MOVQ/MOVT: same layout, opcodes
 *   X86_MOVB, X86_MOVW, X86_MOVL, X86_MOVQ, X86_MOVT  (sizes 1/2/4/8/10
 *                          bytes; plain MOV is 4 bytes)
 *   X86_ADD, X86_XOR, X86_OR   ea, op   ea <- ea OP op, sets ZF SF CF
 *   X86_CMP   ea, op       compare, sets the flags
 *   X86_INC, X86_DEC  ea   (INC/DEC)
 *   X86_SETNB ea           ea <- !CF
 *   X86_CMOVC reg, ea      ops[0] OPK_REG destination, ops[1] ea source:
 *                          reg <- ea if CF
 *   X86_XCHG  ea1, ea2     exchange (memory accesses are atomic)
 *   X86_CMPXCHG ea, reg    ops[0] ea, ops[1] OPK_REG
 *   X86_JMP   L            ops[0] OPK_LABEL (sym = label name)
 *   X86_JCC   cc, L        ops[0] OPK_COND (imm = X86_CC_*), ops[1] label
 *   X86_MFENCE, X86_SFENCE, X86_LFENCE, X86_NOP, X86_MOVSD: no operand
 * Flags:
 *   X86_F_LOCK   the instruction was written "LOCK; INS" or "LOCK INS"
 * Mnemonics are accepted in upper or lower case (herd's lexer does).
 */
#ifndef CORRAL_X86_H
#define CORRAL_X86_H

#include "litmus.h"

enum {
  X86_EAX, X86_EBX, X86_ECX, X86_EDX, X86_ESI, X86_EDI, X86_EBP, X86_ESP,
  X86_EIP, X86_ZF, X86_SF, X86_CF,
  X86_NREGS
};

typedef enum X86Op {
  X86_NOP,
  X86_MOV, X86_MOVB, X86_MOVW, X86_MOVL, X86_MOVQ, X86_MOVT,
  X86_MOVSD,
  X86_ADD, X86_XOR, X86_OR,
  X86_CMP,
  X86_INC, X86_DEC,
  X86_SETNB,
  X86_CMOVC,
  X86_XCHG,
  X86_CMPXCHG,
  X86_JMP, X86_JCC,
  X86_MFENCE, X86_SFENCE, X86_LFENCE,
} X86Op;

/* Condition codes of X86_JCC (and X86_64_JCC). */
typedef enum X86Cond {
  X86_CC_E, X86_CC_NE, X86_CC_LE, X86_CC_L, X86_CC_G, X86_CC_GE,
  X86_CC_S, X86_CC_NS
} X86Cond;

enum { X86_F_LOCK = 1u << 0 };

extern const ArchOps x86_arch_ops;

#endif
