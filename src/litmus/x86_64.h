/*
 * x86_64.h — the X86_64 (AT&T syntax) front end: registers, opcodes and
 * the exact layout of a parsed instruction in Instr (litmus.md §7.2,
 * hash.md §7.2).
 *
 * REGISTERS.  Ids are the 64-bit registers; a narrower view is a property
 * of the operand (Operand.sub), not a different id:
 *   0 rax  1 rbx  2 rcx  3 rdx  4 rsi  5 rdi  6 rbp  7 rsp
 *   8 r8 ... 15 r15,  16 ZF  17 SF  18 CF,  19 rip     (X86_64_NREGS = 20)
 * Final states print the 64-bit name without '%' ("rax").  parse_reg
 * accepts any view, with or without '%', in any case ("rax", "%eax", "R8D"),
 * and returns the 64-bit id.
 *
 * VIEWS (X86_64_V*, stored in Operand.sub: low 4 bits for reg, high 4 bits
 * for reg2 of a scaled memory operand):
 *   X86_64_V64  %rax %r8       X86_64_V32  %eax %r8d
 *   X86_64_V16  %ax  %r8w      X86_64_V8L  %al %sil %r8b
 *   X86_64_V8H  %ah %bh %ch %dh (bits 8..15)
 * Writes to a 32-bit view zero the upper half (semantics' business).
 * Symbolic registers `%name` (not a register name) are allocated to 64-bit
 * registers; Operand.sreg keeps the name and the view is V64.
 *
 * OPERANDS.  The source is written first (AT&T) but, as for X86, ops[0]
 * is always the DESTINATION and ops[1] the source, so both front ends
 * share one layout.  An "ea" operand is one of
 *   OPK_REG  reg, sub = view                          %eax
 *   OPK_SYM  sym = "x"                                (x) or [x]
 *   OPK_MEM  reg = base, imm = offset (0 if none), sub = base view,
 *            reg2 = -1                                (%rax) k(%rax) [%rax]
 *   OPK_MEM  reg = base, reg2 = index, imm = offset, imm2 = scale,
 *            sub = views (base | index << 4)          k(%rax,%rbx,s)
 *   OPK_MEM  reg = -1, imm = k (absolute address)     [k]
 * a source "op" is an ea or OPK_IMM imm = k ($k or k).
 *
 * INSTRUCTIONS (flags & X86_64_SZ_MASK = the mnemonic's size suffix):
 *   X86_64_MOV, _ADD, _OR, _AND, _XOR, _CMP, _SHL   "op src,dst"
 *                    ops[0] = dst ea, ops[1] = src op
 *   X86_64_INC, _DEC, _SETNB, _CLFLUSH, _CLFLUSHOPT  "op ea": ops[0] = ea
 *   X86_64_XCHG, _UXCH  "xchg ea1,ea2": ops[0] = ea1, ops[1] = ea2 (as
 *                    written; uxch is the unlocked exchange)
 *   X86_64_CMPXCHG   "cmpxchg ea,%reg": ops[0] = ea, ops[1] = OPK_REG
 *                    (as written: if rax == ea then ea <- reg)
 *   X86_64_CMOVC     "cmovc %reg,ea": ops[0] = OPK_REG destination,
 *                    ops[1] = ea source (reg <- ea if CF)
 *   X86_64_MOVNTI    "movnti %reg,ea": ops[0] = ea destination, ops[1] =
 *                    OPK_REG source (non-temporal store)
 *   X86_64_JMP L     ops[0] = OPK_LABEL
 *   X86_64_JCC cc,L  ops[0] = OPK_COND (imm = X86_CC_* of x86.h), ops[1]
 *                    = OPK_LABEL ("je", "jne", "jle", "jl"/"jlt", "jg"/
 *                    "jgt", "jge", "js", "jns")
 *   X86_64_MFENCE, _SFENCE, _LFENCE, _RET, _NOP: no operand (nop; also
 *                    nopl/nopw ea, whose operand is dropped, and endbr64)
 *   X86_64_MOVD      "movd %xmmN,reg" / "movq %xmmN,reg": ops[0] = OPK_IMM
 *                    N, ops[1] = OPK_REG (flags: SZ_L / SZ_Q)
 *   X86_64_MOVNTDQA  "movntdqa ea,%xmmN": ops[0] = ea, ops[1] = OPK_IMM N
 *                    (both parsed only: herd7 7.58 gives them no semantics)
 * An ea may carry a segment prefix, "%cs:k(%rax,%rbx,s)" (scaled form
 * only, as in herd's grammar); the segment is ignored.
 * Flags: X86_64_SZ_B/W/L/Q (suffix b w l q; X86_64_SZ_NONE when absent:
 * the access size then comes from a register operand's view, else 8),
 * X86_64_F_LOCK ("lock; ins" or "lock ins").
 * Mnemonics are accepted in lower or upper case.
 */
#ifndef CORRAL_X86_64_H
#define CORRAL_X86_64_H

#include "litmus.h"

enum {
  X86_64_RAX, X86_64_RBX, X86_64_RCX, X86_64_RDX, X86_64_RSI, X86_64_RDI,
  X86_64_RBP, X86_64_RSP, X86_64_R8, X86_64_R9, X86_64_R10, X86_64_R11,
  X86_64_R12, X86_64_R13, X86_64_R14, X86_64_R15,
  X86_64_ZF, X86_64_SF, X86_64_CF, X86_64_RIP,
  X86_64_NREGS
};

enum { X86_64_V64, X86_64_V32, X86_64_V16, X86_64_V8L, X86_64_V8H };

typedef enum X86_64Op {
  X86_64_NOP,
  X86_64_MOV, X86_64_ADD, X86_64_OR, X86_64_AND, X86_64_XOR, X86_64_CMP,
  X86_64_SHL,
  X86_64_INC, X86_64_DEC, X86_64_SETNB,
  X86_64_XCHG, X86_64_UXCH,
  X86_64_CMPXCHG, X86_64_CMOVC, X86_64_MOVNTI,
  X86_64_JMP, X86_64_JCC,
  X86_64_MFENCE, X86_64_SFENCE, X86_64_LFENCE,
  X86_64_RET,
  X86_64_CLFLUSH, X86_64_CLFLUSHOPT,
  X86_64_MOVD, X86_64_MOVNTDQA,
} X86_64Op;

enum {
  X86_64_SZ_NONE = 0, X86_64_SZ_B = 1, X86_64_SZ_W = 2, X86_64_SZ_L = 3,
  X86_64_SZ_Q = 4, X86_64_SZ_MASK = 7,
  X86_64_F_LOCK = 1u << 3,
};

extern const ArchOps x86_64_arch_ops;

#endif
