/*
 * aarch64.h — the AArch64 (Armv8) front end: registers, opcodes and the
 * exact layout of a parsed instruction in Instr (litmus.md §7.4, hash.md
 * §7.5).
 *
 * The parser normalises aliases the way herd7's does (its instruction
 * type is the reference: lib/AArch64Base.ml), because the hash prints the
 * normalised form: CMP Rn,op is SUBS ZR,Rn,op; TST is ANDS ZR,..; NEG
 * Rd,op is SUB Rd,ZR,op; MVN Rd,Rm is ORN Rd,ZR,Rm; MUL is MADD with a
 * ZR addend, MNEG is MSUB with one, SMULL/UMULL... likewise; CSET Rd,cc is
 * CSINC Rd,ZR,ZR,inv(cc), CSETM likewise with CSINV, CINC Rd,Rn,cc is
 * CSINC Rd,Rn,Rn,inv(cc) (inv is herd's inverse_cond, in which the inverse
 * of GE is GT); HINT #k and HLT #k are NOP; EON is EOR (herd's lexer maps
 * it so).
 *
 * REGISTERS (ids for Operand.reg and LitLoc.regid), in herd's order (the
 * order of registers in final states):
 *   0       the zero register AA_ZR (XZR / WZR): reads 0, ignores writes
 *   1..31   general registers: AA_XREG(n) for Wn / Xn, two views of one
 *   32      SP
 *   33      AA_NZCV, the flags (N<<3 | Z<<2 | C<<1 | V, as herd keeps them)
 *   34      AA_RESADDR, the reservation register of LDXR / STXR
 *   35, 36  AA_ELR (ELR_EL1: faults), AA_TFSR (TFSR_ELx: MTE)
 *                                                      (AA_NREGS = 37)
 * NZCV and the reservation cannot be named in tests.  In a register
 * operand, `sub` is AA_W for a W (32-bit) view and AA_X otherwise; final
 * states print the X spelling.  Mnemonics are all upper or all lower
 * case; register names likewise.  Immediates are written #k or k.
 *
 * OPERAND LAYOUT (in source order; Rd/Rn/Rm/Ra/Rs/Rt are OPK_REG; "k" is
 * OPK_IMM with imm = k; labels are OPK_LABEL):
 *   AA_MOV                      Rd, k | Rm
 *   AA_ADD .. AA_ROR (ALU ops)  Rd, Rn, OPND where OPND is
 *        OPK_IMM  imm = k, imm2 = left shift (0: none)
 *        OPK_REG  Rm, imm = an AAShift, imm2 = its amount
 *   AA_ADDSUBEXT                Rd, Rn, Rm (own view; imm = an AAExt,
 *                               imm2 = its amount or -1 when not written);
 *                               AA_FLAG_X = an ALU op (AA_ADD, AA_ADDS,
 *                               AA_SUB, AA_SUBS)
 *   AA_MOVZ AA_MOVN AA_MOVK     Rd, OPK_IMM imm = k, imm2 = LSL amount or -1
 *   AA_SXTW                     Xd, Wn
 *   AA_SBFM AA_UBFM             Rd, Rn, k(immr), k(imms)
 *   AA_MOPL                     Xd, Wn, Wm, Xa  (X: bit 0 unsigned, bit 1 SUB)
 *   AA_MOP                      Rd, Rn, Rm, Ra  (X: 1 for MSUB / MNEG)
 *   AA_ADR                      Xd, label
 *   AA_RBIT AA_ABS AA_REV       Rd, Rn  (REV: X = an AARev)
 *   AA_EXTR                     Rd, Rn, Rm, k
 *   AA_CSEL                     Rd, Rn, Rm, OPK_COND (imm = an AACond);
 *                               X = an AASel
 *   AA_B AA_BL                  label
 *   AA_BCC                      OPK_COND, label
 *   AA_CBZ AA_CBNZ              Rt, label
 *   AA_TBZ AA_TBNZ              Rt, k, label
 *   AA_BR AA_BLR                Xn;  AA_RET  [Xn];  AA_ERET  none
 *   AA_SVC AA_UDF               k
 *   AA_MRS                      Xt, OPK_IMM imm = an AASysReg
 *   AA_MSR                      OPK_IMM imm = an AASysReg, Xt
 *   AA_LDR AA_STR AA_LDRSW AA_LDRS   Rt, ADDR (size in flags) where ADDR
 *               is OPK_MEM with reg = Xn and sub an AAAddrMode:
 *                 AA_AM_IMM    [Xn] or [Xn,#k]     imm = k
 *                 AA_AM_REG    [Xn,Rm]             reg2 = Rm
 *                 AA_AM_LSL    [Xn,Rm,LSL #k]      reg2 = Rm, imm2 = k
 *                 AA_AM_SXTW   [Xn,Rm,SXTW {#k}]   reg2 = Rm, imm2 = k
 *                 AA_AM_UXTW   [Xn,Rm,UXTW {#k}]   reg2 = Rm, imm2 = k
 *                 AA_AM_SXTX   [Xn,Rm,SXTX {#k}]   reg2 = Rm, imm2 = k
 *                 AA_AM_POST   [Xn],#k             imm = k
 *                 AA_AM_PRE    [Xn,#k]!            imm = k
 *               in the register modes, imm is the view of Rm (AA_X/AA_W)
 *   AA_LDUR                     Rt, [Xn,#k] (AA_AM_IMM)
 *   AA_LDP AA_STP AA_LDPSW      Rt1, Rt2, ADDR (IMM, PRE or POST);
 *                               X = an AAPair (LDP, LDNP, LDIAPP...)
 *   AA_LDAR AA_LDAPR AA_STLR AA_LDXR AA_LDAXR   Rt, [Xn] (AA_AM_IMM, 0)
 *   AA_STXR AA_STLXR            Ws, Rt, [Xn]
 *   AA_LDXP                     Rt1, Rt2, [Xn]  (X: 1 for LDAXP)
 *   AA_STXP                     Ws, Rt1, Rt2, [Xn]  (X: 1 for STLXP)
 *   AA_CAS AA_SWP AA_LDOP       Rs, Rt, [Xn]
 *   AA_CASP                     Rs, Rs2, Rt, Rt2, [Xn]
 *   AA_STOP                     Rs, [Xn]
 *   AA_STG AA_STZG AA_STZ2G AA_LDG   Xt, [Xn{,#k}] (AA_AM_IMM)
 *   AA_DMB AA_DSB               OPK_IMM imm = an AABarrier
 *   AA_ISB AA_NOP               none
 * FLAGS: bits 0-1 the access size, log2 of its bytes (AA_FLAG_SIZE);
 * bits 2-3 the ordering of atomics (AA_FLAG_MO, an AAMo: CASA, SWPL,
 * LDADDAL...); bits 4-7 the operation of LDOP / STOP (AA_FLAG_AOP, an
 * AAAop); bits 8-11 a per-opcode refinement (AA_FLAG_X, above).
 */
#ifndef CORRAL_AARCH64_H
#define CORRAL_AARCH64_H

#include "litmus.h"

enum {
  AA_ZR = 0, AA_SP = 32, AA_NZCV = 33, AA_RESADDR = 34, AA_ELR = 35, AA_TFSR = 36,
  AA_NREGS = 37
};
#define AA_XREG(n) ((n) + 1)   /* the id of Xn / Wn */
#define AA_XNUM(r) ((r) - 1)   /* n of the id of Xn */
enum { AA_LR = AA_XREG(30) };  /* the link register X30 */

/* Register views (Operand.sub of a register operand). */
enum { AA_X = 0, AA_W = 1 };

typedef enum AAOp {
  AA_NOP, AA_MOV,
  /* herd's I_OP3 operations, in its order */
  AA_ADD, AA_ADDS, AA_SUB, AA_SUBS, AA_AND, AA_ANDS, AA_ORR, AA_ORN,
  AA_EOR, AA_ASR, AA_LSR, AA_LSL, AA_ROR, AA_BICS, AA_BIC,
  AA_ADDSUBEXT, AA_MOVZ, AA_MOVN, AA_MOVK, AA_SXTW, AA_SBFM, AA_UBFM,
  AA_MOPL, AA_MOP, AA_ADR, AA_RBIT, AA_ABS, AA_REV, AA_EXTR, AA_CSEL,
  AA_B, AA_BCC, AA_CBZ, AA_CBNZ, AA_TBZ, AA_TBNZ, AA_BL, AA_BR, AA_BLR,
  AA_RET, AA_ERET, AA_SVC, AA_UDF, AA_MRS, AA_MSR,
  /* memory accesses: AA_LDR .. AA_STOP */
  AA_LDR, AA_LDRSW, AA_LDRS, AA_LDUR, AA_STR, AA_LDP, AA_LDPSW, AA_STP,
  AA_LDAR, AA_LDAPR, AA_STLR, AA_LDXR, AA_LDAXR, AA_STXR, AA_STLXR,
  AA_LDXP, AA_STXP, AA_CAS, AA_CASP, AA_SWP, AA_LDOP, AA_STOP,
  /* memory tagging (MTE) */
  AA_STG, AA_STZG, AA_STZ2G, AA_LDG,
  /* cache maintenance, TLB invalidation */
  AA_DC, AA_IC, AA_TLBI,
  /* barriers; AA_ISB is the last (aarch64_simd.h numbers after it) */
  AA_DMB, AA_DSB, AA_ISB,
} AAOp;

#define AA_IS_ALU(op) ((op) >= AA_ADD && (op) <= AA_BIC)
#define AA_IS_MEMORY(op) ((op) >= AA_LDR && (op) <= AA_STOP)
#define AA_IS_MTE(op) ((op) >= AA_STG && (op) <= AA_LDG)

typedef enum AAAddrMode {
  AA_AM_IMM, AA_AM_REG, AA_AM_LSL, AA_AM_SXTW, AA_AM_UXTW, AA_AM_SXTX,
  AA_AM_POST, AA_AM_PRE
} AAAddrMode;

/* Shifts of a register operand. */
typedef enum AAShift { AA_SH_LSL, AA_SH_LSR, AA_SH_ASR, AA_SH_ROR } AAShift;

/* Extensions of AA_ADDSUBEXT, in herd's order. */
typedef enum AAExt {
  AA_EXT_UXTB, AA_EXT_UXTH, AA_EXT_UXTW, AA_EXT_UXTX, AA_EXT_SXTB, AA_EXT_SXTH,
  AA_EXT_SXTW, AA_EXT_SXTX
} AAExt;

/* CSEL's operation on the second register. */
typedef enum AASel { AA_SEL_CPY, AA_SEL_INC, AA_SEL_INV, AA_SEL_NEG } AASel;

/* REV16, REV32, REV (REV64). */
typedef enum AARev { AA_REV16, AA_REV32, AA_REV64 } AARev;

/* Pairs: LDP/STP, LDNP/STNP, LDIAPP/STILP. */
typedef enum AAPair { AA_PAIR, AA_PAIR_NT, AA_PAIR_RCPC } AAPair;

/* System registers herd knows (its order); MRS / MSR of NZCV only are
 * executed. */
typedef enum AASysReg {
  AA_SR_CTR_EL0, AA_SR_DCIZ_EL0, AA_SR_MDCCSR_EL0, AA_SR_DBGDTR_EL0,
  AA_SR_DBGDTRRX_EL0, AA_SR_DBGDTRTX_EL0, AA_SR_ELR_EL1, AA_SR_ESR_EL1,
  AA_SR_NZCV, AA_SR_TFSR_ELX, AA_SR_VNCR_EL2, AA_SR_COUNT
} AASysReg;
/* The register that holds system register sr (MRS, MSR, states):
 * AA_ELR, AA_TFSR, or one after the vector registers (AA_NREGS_ALL + sr,
 * aarch64_simd.h); the flags for NZCV are AA_NZCV, not this one. */
int aarch64_sysreg_reg(int sr);
/* herd's offset of sr in the page at VNCR_EL2 (-variant NV2), -1 if none. */
int aarch64_sysreg_nv2_offset(int sr);

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
#define AA_FLAG_X(f) ((int)(((f) >> 8) & 15u))
#define AA_MAKE_FLAGS(size, mo, aop) \
  ((uint32_t)(size) | ((uint32_t)(mo) << 2) | ((uint32_t)(aop) << 4))
#define AA_SET_X(f, x) (((f) & ~(15u << 8)) | ((uint32_t)(x) << 8))

extern const ArchOps aarch64_arch_ops;

/* Upper-case copy of [s, s+n) into buf (cap bytes) if the spelling is all
 * upper or all lower case, as herd's lexer accepts; false otherwise. */
bool aarch64_upcase(const char *s, size_t n, char *buf, size_t cap);
/* An immediate k, #k or #+k, and whether one starts here. */
int64_t aarch64_parse_k(AsmScan *s);
bool aarch64_at_k(const AsmScan *s);

/* Names shared with the semantics: conditions ("EQ"...), barrier options
 * ("SY", "ISHLD"...), system registers ("NZCV"...). */
extern const char *const aarch64_cond_names[];
extern const char *const aarch64_barrier_names[];
/* Cache maintenance: AA_DC and AA_IC are OPK_IMM imm = the operation (an
 * index in aarch64_dc_ops / aarch64_ic_ops, herd's spelling: CVAU, IVAU,
 * IALLU...), then Xt (AA_ZR when not written: IC IALLU). */
extern const char *const aarch64_dc_ops[];
extern const char *const aarch64_ic_ops[];
enum { AA_NDC_OPS = 16, AA_NIC_OPS = 4 };
/* Whether a DC / IC operation has no address (by set/way, or all). */
bool aarch64_cmo_no_address(const Instr *ins);
/* TLB invalidation: AA_TLBI is OPK_IMM imm = the operation (an index in
 * aarch64_tlbi_ops: herd's spelling, VAAE1IS, VMALLE1...), then Xt (AA_ZR
 * when not written).  `level` is the exception level (0..3), `all` that it
 * invalidates every entry (herd's inv_all: ALL, VMALL, VMALLS12), `is`
 * the inner-shareable domain, `nxs` the nXS form. */
typedef struct AATlbiOp {
  const char *name;
  uint8_t level;
  bool all, is, nxs;
} AATlbiOp;
extern const AATlbiOp aarch64_tlbi_ops[];
enum { AA_NTLBI_OPS = 64 };
extern const char *const aarch64_sysreg_names[];

#endif
