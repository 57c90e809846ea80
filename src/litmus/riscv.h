/*
 * riscv.h — the RISC-V (RV64) front end: registers, opcodes and the exact
 * layout of a parsed instruction in Instr (litmus.md §7.6, hash.md §7.6).
 *
 * REGISTERS (ids for Operand.reg and LitLoc.regid):
 *   0..31   x0..x31, also written with their ABI names: zero ra sp gp tp
 *           t0-t2 s0/fp s1 a0-a7 s2-s9 s11 t3-t6.  herd spells x26 "10"
 *           instead of "s10" (a typo kept for compatibility), so "s10" is
 *           not a register; we reject it as herd does.  Always printed
 *           x0..x31.  Names are case-sensitive (herd's lexer).
 *   32      the reservation register RISCV_RESADDR, written by lr and read
 *           and cleared by sc as herd does; not nameable in tests.
 *                                                      (RISCV_NREGS = 33)
 * Symbolic registers `%name` are allocated to x5..x31.
 * x0 reads as 0 and ignores writes: the semantics handles it, the parser
 * records x0 like any register.
 *
 * OPERAND LAYOUT (in source order; rd/rs/rs1/rs2 are OPK_REG; "k" is
 * OPK_IMM with imm = k; "k(rs)" is OPK_MEM with reg = rs, imm = k):
 *   RV_OPI ops      addi slti sltiu andi ori xori slli srli srai, and the
 *                   W forms addiw slliw srliw sraiw: rd, rs1, k.
 *                   li rd,k is parsed as ori rd,x0,k and mv rd,rs as
 *                   addi rd,rs,0 (as herd does; they print so).
 *   RV_OP ops       add slt sltu and or xor sll srl sub sra, and addw sllw
 *                   srlw subw sraw: rd, rs1, rs2
 *   RV_LUI, RV_AUIPC  rd, k
 *   RV_LA           rd, OPK_SYM (sym = location name)
 *   RV_EXT          sext.b/h/w, zext.b/h/w: rd, rs (width and sign in
 *                   flags)
 *   RV_J            OPK_LABEL (sym = label)
 *   RV_BEQ...BGEU   rs1, rs2, OPK_LABEL
 *   RV_LOAD         rd, k(rs1)      l{b,h,w,d}[u][.aq|.aq.rl]
 *   RV_STORE        rs2, k(rs1)     s{b,h,w,d}[.rl|.aq.rl]
 *   RV_LR           rd, 0(rs1)      lr.{w,d}[.aq|.rl|.aq.rl]
 *   RV_SC           rd, rs2, 0(rs1) sc.{w,d}[...]
 *   RV_AMOSWAP...RV_AMOMINU  rd, rs2, 0(rs1)   amo<op>.{w,d}[...]
 *                   ("(rs1)" and "0(rs1)" are the same; another offset
 *                   is an error for lr, sc and AMOs)
 *   RV_FENCE        OPK_IMM pred, OPK_IMM succ: bit sets of RV_FA_*;
 *                   a bare "fence" is fence rw,rw
 *   RV_FENCE_I, RV_FENCE_TSO, RV_NOP, RV_RET: no operand
 * The ordering suffix ".aqrl" is accepted as a spelling of ".aq.rl"; the
 * hash prints ".aqrl" (herd 7.58's dump).
 *
 * FLAGS: bits 0-1 the access width, log2 of its size in bytes
 * (RV_FLAG_WIDTH); RV_F_UNSIGNED for lbu/lhu/lwu and zext; bits 3-4 the
 * ordering (RV_FLAG_MO, an RVMo).
 */
#ifndef CORRAL_RISCV_H
#define CORRAL_RISCV_H

#include "litmus.h"

enum { RISCV_X0 = 0, RISCV_RESADDR = 32, RISCV_NREGS = 33 };

typedef enum RVOp {
  RV_NOP, RV_RET,
  /* register, register, immediate */
  RV_ADDI, RV_SLTI, RV_SLTIU, RV_ANDI, RV_ORI, RV_XORI, RV_SLLI, RV_SRLI,
  RV_SRAI, RV_ADDIW, RV_SLLIW, RV_SRLIW, RV_SRAIW,
  /* three registers */
  RV_ADD, RV_SLT, RV_SLTU, RV_AND, RV_OR, RV_XOR, RV_SLL, RV_SRL, RV_SUB,
  RV_SRA, RV_ADDW, RV_SLLW, RV_SRLW, RV_SUBW, RV_SRAW,
  RV_LUI, RV_AUIPC, RV_LA, RV_EXT,
  /* control */
  RV_J, RV_BEQ, RV_BNE, RV_BLT, RV_BLTU, RV_BGE, RV_BGEU,
  /* memory */
  RV_LOAD, RV_STORE, RV_LR, RV_SC,
  RV_AMOSWAP, RV_AMOADD, RV_AMOAND, RV_AMOOR, RV_AMOXOR, RV_AMOMAX,
  RV_AMOMAXU, RV_AMOMIN, RV_AMOMINU,
  /* fences */
  RV_FENCE, RV_FENCE_I, RV_FENCE_TSO,
} RVOp;

/* Memory orderings (RV_FLAG_MO). */
typedef enum RVMo { RV_MO_RLX, RV_MO_AQ, RV_MO_RL, RV_MO_AQRL } RVMo;

/* Fence access sets: r, w, rw; the device spellings i and o (ir, ow,
 * iorw) add RV_FA_I / RV_FA_O and order like r / w (see sem_riscv.c). */
enum { RV_FA_R = 1, RV_FA_W = 2, RV_FA_I = 4, RV_FA_O = 8 };

enum { RV_F_UNSIGNED = 1u << 2 };
#define RV_FLAG_WIDTH(f) ((int)((f) & 3u))
#define RV_FLAG_MO(f) ((RVMo)(((f) >> 3) & 3u))
#define RV_MAKE_FLAGS(width, is_unsigned, mo) \
  ((uint32_t)(width) | ((is_unsigned) ? RV_F_UNSIGNED : 0u) | ((uint32_t)(mo) << 3))

extern const ArchOps riscv_arch_ops;

#endif
