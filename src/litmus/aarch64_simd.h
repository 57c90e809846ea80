/*
 * aarch64_simd.h — AArch64 vector instructions (Neon, SVE, SME) as herd7
 * 7.58 knows them: register ids, opcodes and the layout of their operands
 * in Instr.  The front end is aarch64_simd.c, the semantics
 * exec/sem_aarch64_simd.c; aarch64.c hands them every instruction whose
 * mnemonic or first operands are vector ones.
 *
 * REGISTERS.  corral's values are 64 bits wide, so a vector register is
 * held in 64-bit chunks (little-endian: chunk 0 holds bits 0..63).  Only
 * a 128-bit vector length is represented (herd's default for SVE and
 * SME); a test asking for another (`-variant sve:512`) may use the
 * instructions that only read the length (RDVL, CNTB...), the others are
 * refused.  Vn and Zn are one register, as in herd (reg_compare strips
 * both to the same SIMD register):
 *   AA_VCH(n, c)   chunk c (0, 1) of V/Z register n (0..31)
 *   AA_PREG(n)     predicate Pn (0..15): bit i for byte i of a vector
 *   AA_ZACH(r, c)  chunk c of row r (0..15) of the SME array ZA
 *   AA_PSTATE_SM, AA_PSTATE_ZA  the SME modes SMSTART / SMSTOP switch
 * A final state or condition names a vector register with an arrangement,
 * 0:V0.4S: litmus_parse gives such a location its lanes (LitLoc.lanes,
 * .lane_bits) and the register id of chunk 0.
 *
 * OPERANDS.  A vector operand is OPK_VREG:
 *   sub   its class (AVClass below)
 *   reg   the register number (V/Z/B..Q: 0..31, P: 0..15, ZA tile)
 *   imm   the element size in bits (8..128); 0 when not written (Pn, Zn)
 *   imm2  AV_VEC: the number of elements (0 for the element forms .B .H
 *         .S .D); AV_PM: 'Z' or 'M'; AV_ZA: 'H', 'V' or 0
 *   reg2  a list {..}: its length (registers consecutive, same
 *         arrangement) on the list's operand; 0 outside braces
 * A lane index [i] follows its register as an OPK_IMM operand; a ZA slice
 * [Ws,k] follows its tile as an OPK_REG (W) and an OPK_IMM.  Memory
 * operands are aarch64.h's OPK_MEM with these extra modes:
 *   AV_AM_POSTREG  [Xn],Xm              reg2 = Xm
 *   AV_AM_MULVL    [Xn,#k,MUL VL]       imm = k
 *   AV_AM_ZIDX     [Xn,Zm.T{,ext {#k}}] reg2 = m, imm = T's bits,
 *                  imm2 = the shift, sym = the extension ("UXTW"...) or NULL
 * Opcodes and their operands (in source order):
 *   AV_LDST_LANE   list, lane, MEM (IMM 0, POST, POSTREG): LD1..LD4 /
 *                  ST1..ST4 {..}[i]; X = n | store<<3 | ordered<<4
 *                  (LDAP1, STL1)
 *   AV_LDST_MULT   list, MEM: LD1..LD4 / ST1..ST4 {..}; X = n | store<<3
 *   AV_LDNR        list, MEM: LD1R..LD4R; X = n
 *   AV_LDR AV_STR  scalar, MEM (every aarch64 mode); X = AVMemo
 *   AV_LDP AV_STP  scalar, scalar, MEM (IMM, PRE, POST); X = 1 for LDNP/STNP
 *   AV_MOVI_V      vec, k {, shift}: imm2 of k = LSL amount, sub of k = 1 for MSL
 *   AV_MOVI_S      Dd, k
 *   AV_MOV_VE      vec, lane, vec, lane       (INS element)
 *   AV_MOV_FG      vec, lane, Rn              (INS general)
 *   AV_MOV_TG      Rd, vec, lane              (UMOV)
 *   AV_MOV_V       vec, vec
 *   AV_MOV_S       scalar, vec, lane          (DUP element to scalar)
 *   AV_DUP         vec, Rn
 *   AV_ADDV        scalar, vec
 *   AV_FMOV        Rd, scalar
 *   AV_OP3         vec, vec, vec; X = AVLogic (herd runs EOR only)
 *   AV_ADD_V       vec, vec, vec
 *   AV_ADD_S       Dd, Dn, Dm
 * SVE (vector length 128; patterns are OPK_IMM, sub AV_K_PATTERN, imm an
 * AVPattern; MUL #k is OPK_IMM sub AV_K_MUL):
 *   AV_PTRUE       Pd.<T> {, pattern}
 *   AV_WHILE       Pd.<T>, Rn, Rm; X = AVWhile
 *   AV_UADDV       Dd, Pg, Zn.<T>
 *   AV_LDSV AV_STSV  Z list, Pg/Z (loads) or Pg (stores), MEM (IMM,
 *                  MULVL, REG/LSL with an X index, ZIDX); X = n (LD1..LD4),
 *                  the access size (B H W D) in AA_FLAG_SIZE
 *   AV_MOV_SV      Zd.<T>, k {, LSL #s}
 *   AV_DUP_SV      Zd.<T>, Rn
 *   AV_ADD_SV AV_OP3_SV  Zd, Zn, Zm (OP3: X = AVLogic, herd runs EOR)
 *   AV_NEG_SV AV_MOVPRFX Zd, Pg/M (or /Z), Zn
 *   AV_INDEX       Zd.<T>, Rn|k, Rm|k
 *   AV_RDVL        Xd, k;  AV_ADDVL  Xd, Xn, k
 *   AV_CNTINC      Xd {, pattern {, MUL #k}}; X = 4 for INC, size in
 *                  AA_FLAG_SIZE
 * SME (ZA a 16 x 128-bit array; a tile slice ZAtH.<T>[Ws,k] or ZAtV.<T>):
 *   AV_SMSTART AV_SMSTOP  {SM|ZA: OPK_IMM sub AV_K_MODE, imm 1 / 2}
 *   AV_LDZA AV_STZA  tile, Ws, k, Pg/Z (loads) or Pg, MEM (IMM 0, REG/LSL)
 *   AV_MOVA_VT     tile, Ws, k, Pg/M, Zn
 *   AV_MOVA_TV     Zd, Pg/M, tile, Ws, k
 *   AV_ADDA        ZAd.<T>, Pn/M, Pm/M, Zn; X = 0 for ADDHA, 1 for ADDVA
 */
#ifndef CORRAL_AARCH64_SIMD_H
#define CORRAL_AARCH64_SIMD_H

#include "aarch64.h"

enum { AV_CHUNKS = 2, AV_NVREGS = 32, AV_NPREGS = 16, AV_ZAROWS = 16 };
#define AA_VCH(n, c) (AA_NREGS + AV_CHUNKS * (n) + (c))
#define AA_PREG(n) (AA_NREGS + AV_CHUNKS * AV_NVREGS + (n))
#define AA_ZACH(r, c) (AA_PREG(AV_NPREGS) + AV_CHUNKS * (r) + (c))
#define AA_PSTATE_SM AA_ZACH(AV_ZAROWS, 0)  /* PSTATE.SM, PSTATE.ZA (SMSTART) */
#define AA_PSTATE_ZA (AA_PSTATE_SM + 1)
#define AA_NREGS_ALL (AA_PSTATE_ZA + 1)

typedef enum AVClass {
  AV_VEC,   /* Vn.<T> */
  AV_SCAL,  /* Bn Hn Sn Dn Qn */
  AV_Z,     /* Zn.<T> */
  AV_P,     /* Pn.<T>, Pn */
  AV_PM,    /* Pn/Z, Pn/M */
  AV_ZA,    /* ZAn{H|V}.<T> */
} AVClass;

enum { AV_AM_POSTREG = AA_AM_PRE + 1, AV_AM_MULVL, AV_AM_ZIDX };

/* OPK_IMM refinements (Operand.sub). */
enum { AV_K_PLAIN, AV_K_MSL, AV_K_PATTERN, AV_K_MUL, AV_K_MODE };

/* SVE patterns, herd's order. */
typedef enum AVPattern {
  AV_POW2, AV_VL1, AV_VL2, AV_VL3, AV_VL4, AV_VL5, AV_VL6, AV_VL7, AV_VL8,
  AV_VL16, AV_VL32, AV_VL64, AV_VL128, AV_VL256, AV_MUL4, AV_MUL3, AV_ALL
} AVPattern;
extern const char *const aarch64_sve_patterns[];

typedef enum AVWhile { AV_WLT, AV_WLE, AV_WLO, AV_WLS } AVWhile;

/* The operation of AV_OP3 / AV_OP3_SV (AA_FLAG_X), herd's OP token: EON
   is lexed as EOR there; herd runs EOR only. */
typedef enum AVLogic { AV_L_EOR, AV_L_ORR, AV_L_ORN, AV_L_AND, AV_L_ANDS, AV_L_BIC, AV_L_BICS } AVLogic;

/* The mnemonics of AV_LDR / AV_STR. */
typedef enum AVMemo { AV_M_PLAIN, AV_M_UNSCALED, AV_M_ORDERED } AVMemo;

typedef enum AVOp {
  AV_FIRST = AA_ISB + 1,
  AV_LDST_LANE = AV_FIRST, AV_LDST_MULT, AV_LDNR, AV_LDR, AV_STR, AV_LDP,
  AV_STP, AV_MOVI_V, AV_MOVI_S, AV_MOV_VE, AV_MOV_FG, AV_MOV_TG, AV_MOV_V,
  AV_MOV_S, AV_DUP, AV_ADDV, AV_FMOV, AV_OP3, AV_ADD_V, AV_ADD_S,
  /* SVE */
  AV_PTRUE, AV_WHILE, AV_UADDV, AV_LDSV, AV_STSV, AV_MOV_SV, AV_DUP_SV,
  AV_ADD_SV, AV_OP3_SV, AV_NEG_SV, AV_MOVPRFX, AV_INDEX, AV_RDVL, AV_ADDVL,
  AV_CNTINC,
  /* SME */
  AV_SMSTART, AV_SMSTOP, AV_LDZA, AV_STZA, AV_MOVA_VT, AV_MOVA_TV, AV_ADDA,
  AV_LAST
} AVOp;

/* Program.simd: the variants enabling them. */
enum { AV_VAR_NEON = 1, AV_VAR_SVE = 2, AV_VAR_SME = 4, AV_VAR_SME_ASKED = 8 };

#define AA_IS_SIMD(op) ((op) >= AV_FIRST && (op) < AV_LAST)

/* The vector instruction of `text`, or NULL when it is not one (the
 * caller parses it); raises through err like the other parsers. */
Instr *aarch64_simd_parse(Arena *a, Err *err, const char *text, SrcPos pos);
/* herd's spelling for the hash. */
void aarch64_simd_print(const Instr *ins, StrBuf *out);
/* Register names in states: "V0" (a vector register's chunk 0)... */
const char *aarch64_simd_reg_name(int reg);
/* A location Vn.<T> or Zn.<T> of a final state: the id of its chunk 0,
 * its number of lanes and their bits; -1 if s is not one. */
int aarch64_simd_vec_loc(const char *s, int *lanes, int *lane_bits);

#endif
