/*
 * mips.h — the MIPS (MIPS64) front end: registers, opcodes and the exact
 * layout of a parsed instruction in Instr (litmus.md §7.7, hash.md §7.7).
 *
 * REGISTERS (ids for Operand.reg and LitLoc.regid):
 *   0..31   $0..$31, also $zero $at $v0 $v1 $a0-$a3 $t0-$t7 $s0-$s7 $t8
 *           $t9 $k0 $k1 $gp $sp $fp $ra, each also without the '$' (herd)
 *   32..35  $a4..$a7 (the O64 ABI temporaries), printed so
 *   36 $hi  37 $lo
 *   38      MIPS_RESADDR, the reservation register of ll/sc (not nameable)
 *                                                      (MIPS_NREGS = 39)
 * Printed $0..$31 in final states and in the hash.  $0 reads as 0 and
 * ignores writes (the semantics handles it).  Symbolic registers `%name`
 * go to $2..$25.  Mnemonics are lower case.
 *
 * OPERAND LAYOUT (in source order; rd/rs/rt are OPK_REG; "k" is OPK_IMM;
 * "k(rs)" is OPK_MEM with reg = rs, imm = k, "(rs)" meaning 0(rs)):
 *   MIPS_OP ops    add addu daddu sub subu slt sltu and or xor nor:
 *                  rd, rs, rt
 *   MIPS_OPI ops   addi addiu daddiu subi subiu slti sltiu andi ori xori
 *                  and dsll: rt, rs, k
 *   MIPS_LI, MIPS_LUI   rt, k;    MIPS_MOVE  rd, rs
 *   MIPS_DEXT      rt, rs, k (lsb), k (size)
 *   MIPS_B         OPK_LABEL;    MIPS_JR  rs
 *   MIPS_BEQ MIPS_BNE                    rs, rt, OPK_LABEL
 *   MIPS_BLEZ MIPS_BGTZ MIPS_BLTZ MIPS_BGEZ  rs, OPK_LABEL
 *   MIPS_LW MIPS_LD MIPS_SW MIPS_LL MIPS_SC  rt, k(rs)
 *   MIPS_SYNC MIPS_NOP   none
 */
#ifndef CORRAL_MIPS_H
#define CORRAL_MIPS_H

#include "litmus.h"

enum { MIPS_HI = 36, MIPS_LO = 37, MIPS_RESADDR = 38, MIPS_NREGS = 39 };

typedef enum MIPSOp {
  MIPS_NOP,
  /* three registers */
  MIPS_ADD, MIPS_ADDU, MIPS_DADDU, MIPS_SUB, MIPS_SUBU, MIPS_SLT, MIPS_SLTU,
  MIPS_AND, MIPS_OR, MIPS_XOR, MIPS_NOR,
  /* register, register, immediate */
  MIPS_ADDI, MIPS_ADDIU, MIPS_DADDIU, MIPS_SUBI, MIPS_SUBIU, MIPS_SLTI,
  MIPS_SLTIU, MIPS_ANDI, MIPS_ORI, MIPS_XORI, MIPS_DSLL,
  MIPS_LI, MIPS_LUI, MIPS_MOVE, MIPS_DEXT,
  /* control */
  MIPS_B, MIPS_JR, MIPS_BEQ, MIPS_BNE, MIPS_BLEZ, MIPS_BGTZ, MIPS_BLTZ,
  MIPS_BGEZ,
  /* memory */
  MIPS_LW, MIPS_LD, MIPS_SW, MIPS_LL, MIPS_SC,
  MIPS_SYNC,
} MIPSOp;

extern const ArchOps mips_arch_ops;

#endif
