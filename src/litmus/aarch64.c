/*
 * aarch64.c — the AArch64 front end: register names, the instruction
 * parser and the canonical printer used by the hash (layout documented in
 * aarch64.h).
 */
#include "aarch64.h"
#include "aarch64_simd.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

const char *const aarch64_cond_names[] = {
    "EQ", "NE", "CS", "CC", "MI", "PL", "VS", "VC",
    "HI", "LS", "GE", "LT", "GT", "LE", "AL",
};

/* Indexed by AA_BAR(domain, type). */
const char *const aarch64_barrier_names[] = {
    "SY",  "LD",    "ST",    "OSH", "OSHLD", "OSHST",
    "ISH", "ISHLD", "ISHST", "NSH", "NSHLD", "NSHST",
};

/* ------------------------------------------------------------ registers */

static const char *const x_names[AA_NREGS] = {
    "XZR", "X0",  "X1",  "X2",  "X3",  "X4",  "X5",  "X6",  "X7",  "X8",
    "X9",  "X10", "X11", "X12", "X13", "X14", "X15", "X16", "X17",
    "X18", "X19", "X20", "X21", "X22", "X23", "X24", "X25", "X26",
    "X27", "X28", "X29", "X30", "SP",  "NZCV", "RESADDR", "ELR_EL1", "TFSR_ELx",
};

/* Upper-case copy of [s, s+n) into buf if the spelling is all upper or
 * all lower case (herd's lexer); false otherwise. */
bool aarch64_upcase(const char *s, size_t n, char *buf, size_t cap) {
  if (n + 1 > cap) return false;
  bool up = false, low = false;
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    up = up || isupper(ch);
    low = low || islower(ch);
    buf[i] = (char)toupper(ch);
  }
  buf[n] = 0;
  return !(up && low);
}

/* A register name: its id, and its view in *view; -1 if none. */
static int lookup_reg(const char *s, size_t n, int *view) {
  char buf[8];
  if (!aarch64_upcase(s, n, buf, sizeof buf)) return -1;
  *view = AA_X;
  if (strcmp(buf, "SP") == 0) return AA_SP;
  if (strcmp(buf, "XZR") == 0) return AA_ZR;
  if (strcmp(buf, "WZR") == 0) {
    *view = AA_W;
    return AA_ZR;
  }
  if (buf[0] != 'X' && buf[0] != 'W') return -1;
  if (n < 2 || n > 3 || !isdigit((unsigned char)buf[1]) ||
      (n == 3 && (!isdigit((unsigned char)buf[2]) || buf[1] == '0')))
    return -1;
  int k = buf[1] - '0';
  if (n == 3) k = 10 * k + (buf[2] - '0');
  if (k > 30) return -1;
  *view = buf[0] == 'W' ? AA_W : AA_X;
  return AA_XREG(k);
}

int aarch64_sysreg_reg(int sr) {
  if (sr == AA_SR_ELR_EL1) return AA_ELR;
  if (sr == AA_SR_TFSR_ELX) return AA_TFSR;
  return AA_NREGS_ALL + sr;
}

int aarch64_sysreg_nv2_offset(int sr) {
  switch ((AASysReg)sr) {
  case AA_SR_VNCR_EL2: return 0xb0;
  case AA_SR_ESR_EL1: return 0x138;
  case AA_SR_ELR_EL1: return 0x230;
  default: return -1;
  }
}

/* XZR may be observed in final states (it holds 0), as in herd. */
static int aarch64_parse_reg(const char *s) {
  int view;
  /* herd's register names are its general and vector registers, then
   * its system registers, in any case (herd reads 1:TFSR_Elx) */
  int r = lookup_reg(s, strlen(s), &view);
  for (int i = 0; r < 0 && i < AA_SR_COUNT; i++)
    if (!strcasecmp(s, aarch64_sysreg_names[i])) r = aarch64_sysreg_reg(i);
  return r;
}

static const char *aarch64_reg_name(int reg) {
  if (reg >= AA_NREGS && reg < AA_NREGS_ALL) return aarch64_simd_reg_name(reg);
  if (reg >= AA_NREGS_ALL && reg < AA_NREGS_ALL + AA_SR_COUNT)
    return aarch64_sysreg_names[reg - AA_NREGS_ALL];
  return reg >= 0 && reg < AA_NREGS ? x_names[reg] : "?";
}

/* ------------------------------------------------------------ mnemonics */

typedef enum Form {
  F_NONE, F_HINT, F_MOV, F_MOVW, F_OP, F_OPV, F_ADDSUB, F_CMP, F_TST, F_NEG,
  F_MVN, F_SXTW, F_BFM, F_MOPL, F_MOPLZ, F_MOP, F_MOPZ, F_RR, F_REV, F_EXTR,
  F_CSEL, F_CSET, F_CINC, F_ADR, F_LABEL, F_BCC, F_CB, F_TB, F_XREG, F_RET,
  F_IMM, F_MRS, F_MSR, F_LDST, F_LDUR, F_PAIR, F_BRACKET, F_STX, F_LDXP,
  F_STXP, F_RRM, F_RM, F_CASP, F_BARRIER, F_CMO, F_TLBI, F_TAG,
} Form;

/* Register views a form accepts for its data register. */
enum { V_ANY, V_WONLY, V_XONLY };

/* Plain mnemonics; the access size of loads and stores without a B / H
 * suffix comes from the register (size -1 here).  `x` is AA_FLAG_X. */
static const struct Mnemo {
  const char *name;
  AAOp op;
  Form form;
  int size, x, view;
} mnemos[] = {
    {"NOP", AA_NOP, F_NONE, -1, 0, V_ANY},
    {"HINT", AA_NOP, F_HINT, -1, 0, V_ANY},
    {"HLT", AA_NOP, F_HINT, -1, 0, V_ANY},
    {"MOV", AA_MOV, F_MOV, -1, 0, V_ANY},
    {"MOVZ", AA_MOVZ, F_MOVW, -1, 0, V_ANY},
    {"MOVN", AA_MOVN, F_MOVW, -1, 0, V_ANY},
    {"MOVK", AA_MOVK, F_MOVW, -1, 0, V_ANY},
    {"ADD", AA_ADD, F_ADDSUB, -1, 0, V_ANY},
    {"ADDS", AA_ADDS, F_ADDSUB, -1, 0, V_ANY},
    {"SUB", AA_SUB, F_ADDSUB, -1, 0, V_ANY},
    {"SUBS", AA_SUBS, F_ADDSUB, -1, 0, V_ANY},
    {"AND", AA_AND, F_OP, -1, 0, V_ANY},
    {"ANDS", AA_ANDS, F_OP, -1, 0, V_ANY},
    {"ORR", AA_ORR, F_OP, -1, 0, V_ANY},
    {"ORN", AA_ORN, F_OP, -1, 0, V_ANY},
    {"EOR", AA_EOR, F_OP, -1, 0, V_ANY},
    {"EON", AA_EOR, F_OP, -1, 0, V_ANY}, /* sic: herd's lexer */
    {"BIC", AA_BIC, F_OP, -1, 0, V_ANY},
    {"BICS", AA_BICS, F_OP, -1, 0, V_ANY},
    {"ASR", AA_ASR, F_OP, -1, 0, V_ANY},
    {"LSL", AA_LSL, F_OP, -1, 0, V_ANY},
    {"LSR", AA_LSR, F_OP, -1, 0, V_ANY},
    {"ROR", AA_ROR, F_OP, -1, 0, V_ANY},
    {"ASRV", AA_ASR, F_OPV, -1, 0, V_ANY},
    {"LSLV", AA_LSL, F_OPV, -1, 0, V_ANY},
    {"LSRV", AA_LSR, F_OPV, -1, 0, V_ANY},
    {"RORV", AA_ROR, F_OPV, -1, 0, V_ANY},
    {"CMP", AA_SUBS, F_CMP, -1, 0, V_ANY},
    {"TST", AA_ANDS, F_TST, -1, 0, V_ANY},
    {"NEG", AA_SUB, F_NEG, -1, 0, V_ANY},
    {"NEGS", AA_SUBS, F_NEG, -1, 0, V_ANY},
    {"MVN", AA_ORN, F_MVN, -1, 0, V_ANY},
    {"SXTW", AA_SXTW, F_SXTW, -1, 0, V_ANY},
    {"SBFM", AA_SBFM, F_BFM, -1, 0, V_ANY},
    {"UBFM", AA_UBFM, F_BFM, -1, 0, V_ANY},
    {"SMADDL", AA_MOPL, F_MOPL, -1, 0, V_ANY},
    {"SMSUBL", AA_MOPL, F_MOPL, -1, 2, V_ANY},
    {"UMADDL", AA_MOPL, F_MOPL, -1, 1, V_ANY},
    {"UMSUBL", AA_MOPL, F_MOPL, -1, 3, V_ANY},
    {"SMULL", AA_MOPL, F_MOPLZ, -1, 0, V_ANY},
    {"SMNEGL", AA_MOPL, F_MOPLZ, -1, 2, V_ANY},
    {"UMULL", AA_MOPL, F_MOPLZ, -1, 1, V_ANY},
    {"UMNEGL", AA_MOPL, F_MOPLZ, -1, 3, V_ANY},
    {"MADD", AA_MOP, F_MOP, -1, 0, V_ANY},
    {"MSUB", AA_MOP, F_MOP, -1, 1, V_ANY},
    {"MUL", AA_MOP, F_MOPZ, -1, 0, V_ANY},
    {"MNEG", AA_MOP, F_MOPZ, -1, 1, V_ANY},
    {"RBIT", AA_RBIT, F_RR, -1, 0, V_ANY},
    {"ABS", AA_ABS, F_RR, -1, 0, V_ANY},
    {"REV16", AA_REV, F_REV, -1, AA_REV16, V_ANY},
    {"REV32", AA_REV, F_REV, -1, AA_REV32, V_XONLY},
    {"REV64", AA_REV, F_REV, -1, AA_REV64, V_XONLY},
    {"REV", AA_REV, F_REV, -1, AA_REV64, V_ANY},
    {"EXTR", AA_EXTR, F_EXTR, -1, 0, V_ANY},
    {"CSEL", AA_CSEL, F_CSEL, -1, AA_SEL_CPY, V_ANY},
    {"CSINC", AA_CSEL, F_CSEL, -1, AA_SEL_INC, V_ANY},
    {"CSINV", AA_CSEL, F_CSEL, -1, AA_SEL_INV, V_ANY},
    {"CSNEG", AA_CSEL, F_CSEL, -1, AA_SEL_NEG, V_ANY},
    {"CSET", AA_CSEL, F_CSET, -1, AA_SEL_INC, V_ANY},
    {"CSETM", AA_CSEL, F_CSET, -1, AA_SEL_INV, V_ANY},
    {"CINC", AA_CSEL, F_CINC, -1, AA_SEL_INC, V_ANY},
    {"ADR", AA_ADR, F_ADR, -1, 0, V_ANY},
    {"B", AA_B, F_LABEL, -1, 0, V_ANY},
    {"BL", AA_BL, F_LABEL, -1, 0, V_ANY},
    {"BR", AA_BR, F_XREG, -1, 0, V_ANY},
    {"BLR", AA_BLR, F_XREG, -1, 0, V_ANY},
    {"RET", AA_RET, F_RET, -1, 0, V_ANY},
    {"ERET", AA_ERET, F_NONE, -1, 0, V_ANY},
    {"CBZ", AA_CBZ, F_CB, -1, 0, V_ANY},
    {"CBNZ", AA_CBNZ, F_CB, -1, 0, V_ANY},
    {"TBZ", AA_TBZ, F_TB, -1, 0, V_ANY},
    {"TBNZ", AA_TBNZ, F_TB, -1, 0, V_ANY},
    {"SVC", AA_SVC, F_IMM, -1, 0, V_ANY},
    {"UDF", AA_UDF, F_IMM, -1, 0, V_ANY},
    {"MRS", AA_MRS, F_MRS, -1, 0, V_ANY},
    {"MSR", AA_MSR, F_MSR, -1, 0, V_ANY},
    {"DMB", AA_DMB, F_BARRIER, -1, 0, V_ANY},
    {"DSB", AA_DSB, F_BARRIER, -1, 0, V_ANY},
    {"ISB", AA_ISB, F_NONE, -1, 0, V_ANY},
    {"DC", AA_DC, F_CMO, -1, 0, V_ANY},
    {"STG", AA_STG, F_TAG, -1, 0, V_ANY},
    {"STZG", AA_STZG, F_TAG, -1, 0, V_ANY},
    {"STZ2G", AA_STZ2G, F_TAG, -1, 0, V_ANY},
    {"LDG", AA_LDG, F_TAG, -1, 0, V_ANY},
    {"IC", AA_IC, F_CMO, -1, 0, V_ANY},
    {"TLBI", AA_TLBI, F_TLBI, -1, 0, V_ANY},
    {"LDR", AA_LDR, F_LDST, -1, 0, V_ANY},
    {"LDRB", AA_LDR, F_LDST, 0, 0, V_WONLY},
    {"LDRH", AA_LDR, F_LDST, 1, 0, V_WONLY},
    {"LDRSW", AA_LDRSW, F_LDST, 2, 0, V_XONLY},
    {"LDRSB", AA_LDRS, F_LDST, 0, 0, V_ANY},
    {"LDRSH", AA_LDRS, F_LDST, 1, 0, V_ANY},
    {"LDUR", AA_LDUR, F_LDUR, -1, 0, V_ANY},
    {"STR", AA_STR, F_LDST, -1, 0, V_ANY},
    {"STRB", AA_STR, F_LDST, 0, 0, V_WONLY},
    {"STRH", AA_STR, F_LDST, 1, 0, V_WONLY},
    {"LDP", AA_LDP, F_PAIR, -1, AA_PAIR, V_ANY},
    {"LDNP", AA_LDP, F_PAIR, -1, AA_PAIR_NT, V_ANY},
    {"LDIAPP", AA_LDP, F_PAIR, -1, AA_PAIR_RCPC, V_ANY},
    {"LDPSW", AA_LDPSW, F_PAIR, 2, AA_PAIR, V_XONLY},
    {"STP", AA_STP, F_PAIR, -1, AA_PAIR, V_ANY},
    {"STNP", AA_STP, F_PAIR, -1, AA_PAIR_NT, V_ANY},
    {"STILP", AA_STP, F_PAIR, -1, AA_PAIR_RCPC, V_ANY},
    {"LDAR", AA_LDAR, F_BRACKET, -1, 0, V_ANY},
    {"LDARB", AA_LDAR, F_BRACKET, 0, 0, V_WONLY},
    {"LDARH", AA_LDAR, F_BRACKET, 1, 0, V_WONLY},
    {"LDAPR", AA_LDAPR, F_BRACKET, -1, 0, V_ANY},
    {"LDAPRB", AA_LDAPR, F_BRACKET, 0, 0, V_WONLY},
    {"LDAPRH", AA_LDAPR, F_BRACKET, 1, 0, V_WONLY},
    {"STLR", AA_STLR, F_BRACKET, -1, 0, V_ANY},
    {"STLRB", AA_STLR, F_BRACKET, 0, 0, V_WONLY},
    {"STLRH", AA_STLR, F_BRACKET, 1, 0, V_WONLY},
    {"LDXR", AA_LDXR, F_BRACKET, -1, 0, V_ANY},
    {"LDXRB", AA_LDXR, F_BRACKET, 0, 0, V_WONLY},
    {"LDXRH", AA_LDXR, F_BRACKET, 1, 0, V_WONLY},
    {"LDAXR", AA_LDAXR, F_BRACKET, -1, 0, V_ANY},
    {"LDAXRB", AA_LDAXR, F_BRACKET, 0, 0, V_WONLY},
    {"LDAXRH", AA_LDAXR, F_BRACKET, 1, 0, V_WONLY},
    {"STXR", AA_STXR, F_STX, -1, 0, V_ANY},
    {"STXRB", AA_STXR, F_STX, 0, 0, V_WONLY},
    {"STXRH", AA_STXR, F_STX, 1, 0, V_WONLY},
    {"STLXR", AA_STLXR, F_STX, -1, 0, V_ANY},
    {"STLXRB", AA_STLXR, F_STX, 0, 0, V_WONLY},
    {"STLXRH", AA_STLXR, F_STX, 1, 0, V_WONLY},
    {"LDXP", AA_LDXP, F_LDXP, -1, 0, V_ANY},
    {"LDAXP", AA_LDXP, F_LDXP, -1, 1, V_ANY},
    {"STXP", AA_STXP, F_STXP, -1, 0, V_ANY},
    {"STLXP", AA_STXP, F_STXP, -1, 1, V_ANY},
};

/* B.cond spellings herd's lexer also takes (SVE condition names). */
static const struct {
  const char *name;
  AACond cond;
} cond_aliases[] = {
    {"NONE", AA_EQ},  {"ANY", AA_NE},   {"TCONT", AA_GE}, {"TSTOP", AA_LT},
    {"NLAST", AA_CS}, {"LAST", AA_CC},  {"FIRST", AA_MI}, {"NFIRST", AA_PL},
    {"PLAST", AA_LS},
};

const char *const aarch64_sysreg_names[] = {
    "CTR_EL0", "DCIZ_EL0", "MDCCSR_EL0", "DBGDTR_EL0", "DBGDTRRX_EL0",
    "DBGDTRTX_EL0", "ELR_EL1", "ESR_EL1", "NZCV", "TFSR_ELx", "VNCR_EL2",
};

static const char *const aop_names[] = {"ADD",  "EOR",  "SET",  "CLR",
                                        "SMAX", "SMIN", "UMAX", "UMIN"};
static const char *const mo_names[] = {"", "A", "L", "AL"};
static const char *const size_suffix[] = {"B", "H", "", ""};

typedef struct Decoded {
  AAOp op;
  Form form;
  int size;      /* -1: from the register */
  int x, view;
  uint32_t mo, aop;
} Decoded;

/* rest = ordering suffix then size suffix; ST<op> has no acquire form,
 * CASP no size suffix. */
static bool decode_suffix(const char *rest, bool store_only, bool no_size,
                          Decoded *d) {
  for (int mo = AA_MO_AL; mo >= 0; mo--) {
    size_t n = strlen(mo_names[mo]);
    if (strncmp(rest, mo_names[mo], n) != 0) continue;
    if (store_only && (mo == AA_MO_A || mo == AA_MO_AL)) continue;
    const char *sz = rest + n;
    if (strcmp(sz, "") == 0) d->size = -1;
    else if (no_size) continue;
    else if (strcmp(sz, "B") == 0) d->size = 0;
    else if (strcmp(sz, "H") == 0) d->size = 1;
    else continue;
    d->mo = (uint32_t)mo;
    return true;
  }
  return false;
}

/* CAS, CASP, SWP, LD<op>, ST<op>, each with ordering and size suffixes. */
static bool decode_atomic(const char *u, Decoded *d) {
  if (strncmp(u, "CASP", 4) == 0) {
    d->op = AA_CASP, d->form = F_CASP;
    if (decode_suffix(u + 4, false, true, d)) return true;
  }
  if (strncmp(u, "CAS", 3) == 0) {
    d->op = AA_CAS, d->form = F_RRM;
    return decode_suffix(u + 3, false, false, d);
  }
  if (strncmp(u, "SWP", 3) == 0) {
    d->op = AA_SWP, d->form = F_RRM;
    return decode_suffix(u + 3, false, false, d);
  }
  bool ld = strncmp(u, "LD", 2) == 0, st = strncmp(u, "ST", 2) == 0;
  if (!ld && !st) return false;
  for (size_t k = 0; k < ARRAY_LEN(aop_names); k++) {
    size_t n = strlen(aop_names[k]);
    if (strncmp(u + 2, aop_names[k], n) != 0) continue;
    d->op = ld ? AA_LDOP : AA_STOP;
    d->form = ld ? F_RRM : F_RM;
    d->aop = (uint32_t)k;
    if (decode_suffix(u + 2 + n, st, false, d)) return true;
  }
  return false;
}

static bool decode(const AsmScan *s, Decoded *d) {
  char u[16];
  if (s->tok.kind != AT_NAME || !aarch64_upcase(s->tok.s, s->tok.len, u, sizeof u))
    return false;
  memset(d, 0, sizeof *d);
  for (size_t i = 0; i < ARRAY_LEN(mnemos); i++)
    if (strcmp(u, mnemos[i].name) == 0) {
      d->op = mnemos[i].op;
      d->form = mnemos[i].form;
      d->size = mnemos[i].size;
      d->x = mnemos[i].x;
      d->view = mnemos[i].view;
      return true;
    }
  if (strncmp(u, "B.", 2) == 0) {
    d->op = AA_BCC, d->form = F_BCC, d->size = -1;
    return true;
  }
  return decode_atomic(u, d);
}

/* --------------------------------------------------------------- parser */

static bool tok_upper_is(const AsmScan *s, const char *upper) {
  return s->tok.kind == AT_NAME && asm_upper_or_lower(upper, s->tok.s, s->tok.len);
}

/* The index of the current name token in names[0..n), or -1. */
static int tok_lookup(const AsmScan *s, const char *const *names, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (tok_upper_is(s, names[i])) return (int)i;
  return -1;
}

/* A symbolic register (herd's lexer: X%name or %name, W%name, any case
 * of the letter): its name, the scanner on its last token, and its view
 * in *view; NULL if the current token starts none. */
static const char *symbolic_reg(AsmScan *s, int *view) {
  if (s->tok.kind == AT_PCTNAME) {
    *view = AA_X;
    return asm_tok_str(s);
  }
  if (s->tok.kind != AT_NAME || s->tok.len != 1 || !strchr("XxWw", s->tok.s[0]) ||
      s->text[s->i] != '%')
    return NULL;
  *view = toupper((unsigned char)s->tok.s[0]) == 'W' ? AA_W : AA_X;
  asm_next(s);
  if (s->tok.kind != AT_PCTNAME) asm_error(s, "expected a register");
  return asm_tok_str(s);
}

static Operand *parse_reg(AsmScan *s, Instr *ins) {
  Operand *o = asm_add_op(s, ins, OPK_REG);
  int view = AA_X;
  if ((o->sreg = symbolic_reg(s, &view)) != NULL)
    o->reg = -1; /* allocated after parsing (symregs.c) */
  else if (s->tok.kind != AT_NAME || (o->reg = lookup_reg(s->tok.s, s->tok.len, &view)) < 0)
    asm_error(s, "expected a register");
  o->sub = (uint8_t)view;
  asm_next(s);
  return o;
}

/* A register of the given view (AA_X or AA_W). */
static Operand *parse_reg_view(AsmScan *s, Instr *ins, int view) {
  Operand *o = parse_reg(s, ins);
  if (o->sub != view)
    asm_error(s, view == AA_W ? "expected a W register" : "expected an X register");
  return o;
}

static void parse_reg_op(AsmScan *s, Instr *ins) { parse_reg(s, ins); }

/* k, #k or #+k (herd's lexer: '#'? ('-'|'+')? digits). */
int64_t aarch64_parse_k(AsmScan *s) {
  asm_accept(s, '#');
  asm_accept(s, '+');
  return asm_expect_num(s);
}

bool aarch64_at_k(const AsmScan *s) {
  return asm_is(s, '#') || asm_is(s, '+') || s->tok.kind == AT_NUM;
}

static const char *const shift_names[] = {"LSL", "LSR", "ASR", "ROR"};
static const char *const ext_names[] = {"UXTB", "UXTH", "UXTW", "UXTX",
                                        "SXTB", "SXTH", "SXTW", "SXTX"};

/* The index part of [Xn,Rm{,LSL|UXTW|SXTW|SXTX {k}}]. */
static void parse_index(AsmScan *s, Operand *m) {
  int view = AA_X;
  if ((m->sreg2 = symbolic_reg(s, &view)) != NULL)
    m->reg2 = -1;
  else if (s->tok.kind != AT_NAME || (m->reg2 = lookup_reg(s->tok.s, s->tok.len, &view)) < 0)
    asm_error(s, "expected an offset register or #k");
  asm_next(s);
  m->sub = AA_AM_REG;
  m->imm = view;
  if (!asm_accept(s, ',')) return;
  static const char *const mem_ext[] = {"LSL", "UXTW", "SXTW", "SXTX"};
  static const uint8_t modes[] = {AA_AM_LSL, AA_AM_UXTW, AA_AM_SXTW, AA_AM_SXTX};
  int e = tok_lookup(s, mem_ext, ARRAY_LEN(mem_ext));
  if (e < 0) asm_error(s, "expected LSL, UXTW, SXTW or SXTX");
  m->sub = modes[e];
  asm_next(s);
  if (!asm_is(s, ']')) m->imm2 = aarch64_parse_k(s);
  if (m->sub == AA_AM_LSL && m->imm2 == 0) m->sub = AA_AM_REG;
}

/* [Xn or [SP (the base register) */
static Operand *parse_base(AsmScan *s, Instr *ins) {
  asm_expect(s, '[');
  int view = AA_X;
  int base = s->tok.kind == AT_NAME ? lookup_reg(s->tok.s, s->tok.len, &view) : -1;
  /* XZR is a base herd's parser takes: AArch64Base.is_valid refuses it
   * in some instructions (check_valid), the others read address 0 */
  if (base >= 0 && view != AA_X)
    asm_error(s, "the base register must be an X register or SP");
  Operand *m = parse_reg(s, ins);
  if (m->sreg && m->sub != AA_X) asm_error(s, "the base register must be an X register or SP");
  m->kind = OPK_MEM;
  m->sub = AA_AM_IMM;
  return m;
}

typedef enum AddrKind {
  ADDR_SIMPLE,  /* [Xn] or [Xn,#0]: acquire, release, exclusive, atomic */
  ADDR_EA,      /* herd's mem_ea: every mode */
  ADDR_IDX,     /* herd's mem_idx: immediate, pre- and post-indexed */
  ADDR_OFFSET,  /* [Xn{,#k}]: LDUR */
} AddrKind;

/* The name w (any case) is the current token: skip it. */
static bool accept_word(AsmScan *s, const char *w) {
  if (s->tok.kind != AT_NAME || s->tok.len != strlen(w) || strncasecmp(s->tok.s, w, s->tok.len))
    return false;
  asm_next(s);
  return true;
}

static void parse_addr(AsmScan *s, Instr *ins, AddrKind kind) {
  Operand *m = parse_base(s, ins);
  if (asm_accept(s, ',')) {
    if (kind == ADDR_SIMPLE) {
      if (!aarch64_at_k(s)) asm_error(s, "expected #0");
      if (aarch64_parse_k(s) != 0) asm_error(s, "the offset must be #0");
    } else if (aarch64_at_k(s)) {
      m->imm = aarch64_parse_k(s);
      /* herd's mem_idx takes [Xn,#k,MUL VL] as [Xn,#k] */
      if (kind == ADDR_IDX && asm_accept(s, ',') && !(accept_word(s, "MUL") && accept_word(s, "VL")))
        asm_error(s, "expected MUL VL");
    } else if (kind == ADDR_EA) {
      parse_index(s, m);
    } else {
      asm_error(s, "expected #k");
    }
  }
  asm_expect(s, ']');
  if (kind == ADDR_SIMPLE || kind == ADDR_OFFSET) return;
  if (m->sub == AA_AM_IMM && asm_accept(s, '!')) {
    m->sub = AA_AM_PRE;
  } else if (m->sub == AA_AM_IMM && m->imm == 0 && asm_accept(s, ',')) {
    m->sub = AA_AM_POST;
    m->imm = aarch64_parse_k(s);
  }
}

static bool cond_of(const char *name, size_t n, AACond *out) {
  char u[8];
  if (!aarch64_upcase(name, n, u, sizeof u)) return false;
  for (size_t i = 0; i < ARRAY_LEN(aarch64_cond_names); i++)
    if (strcmp(u, aarch64_cond_names[i]) == 0) {
      *out = (AACond)i;
      return true;
    }
  return false;
}

static void parse_cond(AsmScan *s, Instr *ins, const char *name, size_t n,
                       bool aliases) {
  AACond cc;
  if (!cond_of(name, n, &cc)) {
    char u[8];
    bool found = false;
    if (aliases && aarch64_upcase(name, n, u, sizeof u))
      for (size_t i = 0; i < ARRAY_LEN(cond_aliases) && !found; i++)
        if (strcmp(u, cond_aliases[i].name) == 0) cc = cond_aliases[i].cond, found = true;
    if (!found) asm_error(s, "unknown condition '%.*s'", (int)n, name);
  }
  asm_add_op(s, ins, OPK_COND)->imm = (int64_t)cc;
}

/* herd's inverse_cond (the inverse of GE is GT there). */
static AACond inverse_cond(AACond c) {
  static const AACond inv[] = {
      [AA_EQ] = AA_NE, [AA_NE] = AA_EQ, [AA_CS] = AA_CC, [AA_CC] = AA_CS,
      [AA_MI] = AA_PL, [AA_PL] = AA_MI, [AA_VS] = AA_VC, [AA_VC] = AA_VS,
      [AA_HI] = AA_LS, [AA_LS] = AA_HI, [AA_GE] = AA_GT, [AA_LT] = AA_GE,
      [AA_GT] = AA_LE, [AA_LE] = AA_GT, [AA_AL] = AA_AL,
  };
  return inv[c];
}

static void parse_cond_tok(AsmScan *s, Instr *ins) {
  if (s->tok.kind != AT_NAME) asm_error(s, "expected a condition");
  parse_cond(s, ins, s->tok.s, s->tok.len, false);
  asm_next(s);
}

static void parse_barrier(AsmScan *s, Instr *ins) {
  Operand *o = asm_add_op(s, ins, OPK_IMM);
  int i = tok_lookup(s, aarch64_barrier_names, 12);
  if (i < 0) asm_error(s, "expected a barrier option (SY, ST, LD, ISH, ISHST, ...)");
  o->imm = i;
  asm_next(s);
}

/* herd's cache maintenance operations (DC and IC, lib/AArch64Base.ml). */
const char *const aarch64_dc_ops[AA_NDC_OPS] = {
    "IVAC", "CVAC", "CIVAC", "ZVAC", "ISWC", "CSWC", "CISWC", "ZSWC",
    "CVAU", "CIVAU", "ZVAU", "ISWU", "CSWU", "CISWU", "ZSWU", "IVAU"};
const char *const aarch64_ic_ops[AA_NIC_OPS] = {"IALLUIS", "IVAUIS", "IALLU", "IVAU"};

bool aarch64_cmo_no_address(const Instr *ins) {
  const char *name = ins->op == AA_DC ? aarch64_dc_ops[ins->ops[0].imm]
                                      : aarch64_ic_ops[ins->ops[0].imm];
  return strstr(name, "SW") || strstr(name, "ALL");
}

/* DC op,Xt; IC op[,Xt] (herd's parser: IC without a register reads ZR). */
static void parse_cmo(AsmScan *s, Instr *ins) {
  bool dc = ins->op == AA_DC;
  Operand *o = asm_add_op(s, ins, OPK_IMM);
  int i = dc ? tok_lookup(s, aarch64_dc_ops, AA_NDC_OPS) : tok_lookup(s, aarch64_ic_ops, AA_NIC_OPS);
  if (i < 0) asm_error(s, dc ? "expected a DC operation (CVAU, CIVAC, ...)"
                             : "expected an IC operation (IVAU, IALLU, IALLUIS)");
  o->imm = i;
  asm_next(s);
  if (!dc && s->tok.kind == AT_END) {
    Operand *r = asm_add_op(s, ins, OPK_REG);
    r->reg = AA_ZR;
    return;
  }
  asm_expect(s, ',');
  parse_reg_view(s, ins, AA_X);
}

/* The TLBI operations herd's lexer knows (lib/AArch64Lexer.mll), each
 * also in its nXS form: the kind (ALL, VMALL, VMALLS12, ASID, VA, VAL,
 * VAA, VAAL, IPAS2, IPAS2L), the level, IS for the inner-shareable
 * domain. */
#define TLBI_OP(name, level, all, is) {name, level, all, is, false}, {name "NXS", level, all, is, true}
const AATlbiOp aarch64_tlbi_ops[AA_NTLBI_OPS] = {
    TLBI_OP("IPAS2E1IS", 1, false, true),  TLBI_OP("IPAS2LE1IS", 1, false, true),
    TLBI_OP("IPAS2E1", 1, false, false),   TLBI_OP("IPAS2LE1", 1, false, false),
    TLBI_OP("VMALLE1IS", 1, true, true),   TLBI_OP("VMALLE1", 1, true, false),
    TLBI_OP("ALLE1IS", 1, true, true),     TLBI_OP("ALLE2IS", 2, true, true),
    TLBI_OP("ALLE3IS", 3, true, true),     TLBI_OP("ALLE1", 1, true, false),
    TLBI_OP("ALLE2", 2, true, false),      TLBI_OP("ALLE3", 3, true, false),
    TLBI_OP("VAE1IS", 1, false, true),     TLBI_OP("VAE2IS", 2, false, true),
    TLBI_OP("VAE3IS", 3, false, true),     TLBI_OP("VAE1", 1, false, false),
    TLBI_OP("VAE2", 2, false, false),      TLBI_OP("VAE3", 3, false, false),
    TLBI_OP("ASIDE1IS", 1, false, true),   TLBI_OP("ASIDE1", 1, false, false),
    TLBI_OP("VAAE1IS", 1, false, true),    TLBI_OP("VAAE1", 1, false, false),
    TLBI_OP("VALE1IS", 1, false, true),    TLBI_OP("VALE2IS", 2, false, true),
    TLBI_OP("VALE3IS", 3, false, true),    TLBI_OP("VALE1", 1, false, false),
    TLBI_OP("VALE2", 2, false, false),     TLBI_OP("VALE3", 3, false, false),
    TLBI_OP("VAALE1IS", 1, false, true),   TLBI_OP("VAALE1", 1, false, false),
    TLBI_OP("VMALLS12E1IS", 1, true, true), TLBI_OP("VMALLS12E1", 1, true, false),
};
#undef TLBI_OP

/* TLBI op[,Xt] (herd's parser: without a register, ZR). */
static void parse_tlbi(AsmScan *s, Instr *ins) {
  Operand *o = asm_add_op(s, ins, OPK_IMM);
  o->imm = -1;
  for (int i = 0; i < AA_NTLBI_OPS && o->imm < 0; i++)
    if (tok_upper_is(s, aarch64_tlbi_ops[i].name)) o->imm = i;
  if (o->imm < 0) asm_error(s, "expected a TLBI operation (VAAE1IS, VAE1IS, VMALLE1IS, ...)");
  asm_next(s);
  if (s->tok.kind == AT_END) {
    Operand *r = asm_add_op(s, ins, OPK_REG);
    r->reg = AA_ZR;
    return;
  }
  asm_expect(s, ',');
  parse_reg_view(s, ins, AA_X);
}

static void parse_sysreg(AsmScan *s, Instr *ins) {
  Operand *o = asm_add_op(s, ins, OPK_IMM);
  int i = tok_lookup(s, aarch64_sysreg_names, AA_SR_COUNT);
  if (i < 0) asm_error(s, "expected a system register");
  o->imm = i;
  asm_next(s);
}

/* Registers of the same width as the first: the sources of an ALU
 * operation, CAS... */
static void check_views(AsmScan *s, const Instr *ins, int from, int to) {
  for (int i = from; i < to && i < ins->nops; i++)
    if (ins->ops[i].kind == OPK_REG && ins->ops[i].sub != ins->ops[0].sub)
      asm_error(s, "registers of different widths");
}

/* The third operand of an ALU operation (herd's op_ext_x / op_ext_w):
 * k{,LSL k} or Rm{,shift k}; `ext_ok`: ADD/SUB also take Rm,ext {k}. */
static void parse_op_ext(AsmScan *s, Instr *ins, int view, bool imm_ok,
                         bool ext_ok) {
  if (aarch64_at_k(s)) {
    if (!imm_ok) asm_error(s, "expected a register");
    Operand *o = asm_add_op(s, ins, OPK_IMM);
    o->imm = aarch64_parse_k(s);
    if (asm_accept(s, ',')) {
      if (!tok_upper_is(s, "LSL")) asm_error(s, "expected LSL");
      asm_next(s);
      o->imm2 = aarch64_parse_k(s);
    }
    return;
  }
  Operand *o = parse_reg(s, ins);
  if (asm_accept(s, ',')) {
    int sh = tok_lookup(s, shift_names, ARRAY_LEN(shift_names));
    int ex = ext_ok ? tok_lookup(s, ext_names, ARRAY_LEN(ext_names)) : -1;
    if (sh < 0 && ex < 0)
      asm_error(s, ext_ok ? "expected a shift or an extension" : "expected a shift");
    asm_next(s);
    if (ex >= 0) {
      /* ADD Xd,Xn,Wm|Xm,ext; ADD Wd,Wn,Wm,ext */
      if (view == AA_W && o->sub != AA_W) asm_error(s, "registers of different widths");
      ins->flags = AA_SET_X(ins->flags, (uint32_t)ins->op);
      ins->op = AA_ADDSUBEXT;
      o->imm = ex;
      o->imm2 = aarch64_at_k(s) ? aarch64_parse_k(s) : -1;
      return;
    }
    o->imm = sh;
    o->imm2 = aarch64_parse_k(s);
  }
  if (o->sub != view) asm_error(s, "registers of different widths");
}

/* Insert a zero-register operand at position i. */
static void insert_zr(AsmScan *s, Instr *ins, int i, int view) {
  asm_add_op(s, ins, OPK_REG);
  memmove(&ins->ops[i + 1], &ins->ops[i], (size_t)(ins->nops - 1 - i) * sizeof ins->ops[0]);
  Operand *z = &ins->ops[i];
  memset(z, 0, sizeof *z);
  z->kind = OPK_REG;
  z->reg = AA_ZR;
  z->reg2 = -1;
  z->sub = (uint8_t)view;
}

static void parse_alu(AsmScan *s, Instr *ins, Form form) {
  Operand *d = parse_reg(s, ins);
  int view = d->sub;
  asm_expect(s, ',');
  switch (form) {
  case F_CMP: case F_TST:          /* CMP Rn,op: SUBS ZR,Rn,op */
    insert_zr(s, ins, 0, view);
    parse_op_ext(s, ins, view, true, form == F_CMP);
    return;
  case F_NEG: case F_MVN:          /* NEG Rd,Rm{,shift}: SUB Rd,ZR,Rm.. */
    insert_zr(s, ins, 1, view);
    if (form == F_MVN) {
      parse_reg(s, ins);
      check_views(s, ins, 2, 3);
    } else {
      parse_op_ext(s, ins, view, false, false);
    }
    return;
  default:
    parse_reg(s, ins);
    check_views(s, ins, 1, 2);
    asm_expect(s, ',');
    parse_op_ext(s, ins, view, form != F_OPV && ins->op != AA_BIC && ins->op != AA_BICS,
                 form == F_ADDSUB);
    return;
  }
}

static void print_instr(const Instr *ins, StrBuf *out,
                        const char *(*rename)(void *, const char *), void *ctx, bool compat);

/* herd's AArch64Base.tr_mov_imm: whether MOV Rd,#k is a MOVZ or MOVN of a
 * 16-bit chunk shifted by 0, 16, 32 or 48 (16 or 0 for a W register). */
static bool mov_imm_ok(int64_t k, int view) {
  for (int inv = 0; inv < 2; inv++) {
    uint64_t v = (uint64_t)(inv ? ~k : k);
    for (int sh = 0; sh < 64; sh += 16)
      if ((v & ((uint64_t)0xffff << sh)) == v) return view == AA_X || sh < 32;
  }
  return false;
}

static bool is_zr(const Operand *o) { return o->kind == OPK_REG && o->reg == AA_ZR; }

/* herd's AArch64Base.is_valid for an ALU operation (AA_IS_ALU). */
static bool alu_valid(const Instr *ins) {
  if (ins->nops < 3) return true;
  const Operand *d = &ins->ops[0], *n = &ins->ops[1], *k = &ins->ops[2];
  int op = ins->op;
  bool addsub = op == AA_ADD || op == AA_SUB || op == AA_ADDS || op == AA_SUBS;
  if (k->kind == OPK_IMM) {
    if (addsub) {
      /* no XZR source; ADD/SUB no XZR destination (it would be SP); 12
       * unsigned bits (the sign selects ADD or SUB), shifted by 0 or 12 */
      long long a = k->imm < 0 ? -(long long)k->imm : (long long)k->imm;
      if (is_zr(n) || ((op == AA_ADD || op == AA_SUB) && is_zr(d))) return false;
      return (k->imm2 == 0 || k->imm2 == 12) && a <= 4095;
    }
    if ((op == AA_AND || op == AA_EOR || op == AA_ORR) && is_zr(d)) return false;
    if (op == AA_AND || op == AA_ANDS || op == AA_EOR || op == AA_ORR) return k->imm2 == 0;
    return true;
  }
  if (k->kind != OPK_REG) return true;
  if (addsub && k->imm == AA_SH_ROR) return false;
  if (op >= AA_ASR && op <= AA_ROR) return k->imm2 == 0; /* no shifted Rm */
  /* a shift amount of 6 unsigned bits, W registers too */
  return k->imm2 >= 0 && k->imm2 < 64;
}

/* herd's AArch64Base.is_valid for a MOV, MOVZ, MOVN (MOVK is checked by
 * its semantics). */
static bool mov_valid(const Instr *ins) {
  const Operand *k = &ins->ops[1];
  if (k->kind != OPK_IMM) return true;
  if (ins->op == AA_MOV) return mov_imm_ok(k->imm, ins->ops[0].sub);
  if (ins->op != AA_MOVZ && ins->op != AA_MOVN) return true;
  if (k->imm < 0 || k->imm > 0xffff) return false;
  if (k->imm2 < 0) return true;
  if (k->imm2 != 0 && k->imm2 != 16 && k->imm2 != 32 && k->imm2 != 48) return false;
  return k->imm2 < 32 || ins->ops[0].sub == AA_X;
}

/* The memory operand of an instruction, NULL if none. */
static const Operand *mem_operand(const Instr *ins) {
  for (int i = 0; i < ins->nops; i++)
    if (ins->ops[i].kind == OPK_MEM) return &ins->ops[i];
  return NULL;
}

/* herd's AArch64Base.is_valid for accesses: XZR is no base of STR (all
 * sizes), of the byte and halfword LDR, of the 32- and 64-bit STLR,
 * LDAR, LDAPR, LDXR, LDAXR, STXR, STLXR and CAS (the others read or write
 * address 0); a W offset register of a byte or halfword LDR / STR is
 * extended (UXTW, SXTW), not shifted; MTE offsets are 16-byte granules of
 * 9 signed bits, STG / STZG / STZ2G not pre- or post-indexed. */
static bool mem_valid(const Instr *ins) {
  const Operand *m = mem_operand(ins);
  if (!m) return true;
  int size = AA_FLAG_SIZE(ins->flags);
  int op = ins->op;
  bool bh = size < 2;
  if (m->reg == AA_ZR && !m->sreg) {
    if (op == AA_STR || (op == AA_LDR && bh)) return false;
    if (!bh && (op == AA_STLR || op == AA_LDAR || op == AA_LDAPR || op == AA_LDXR ||
                op == AA_LDAXR || op == AA_STXR || op == AA_STLXR || op == AA_CAS))
      return false;
  }
  if ((op == AA_LDR || op == AA_STR) && bh && m->imm == AA_W &&
      (m->sub == AA_AM_REG || m->sub == AA_AM_LSL))
    return false;
  if (AA_IS_MTE(op)) {
    /* herd's is_nbits_signed 9 checks the lower bound only */
    if (op != AA_LDG && m->sub != AA_AM_IMM) return false;
    return m->imm >= -256 && m->imm % 16 == 0;
  }
  return true;
}

/* herd's AArch64Base.is_valid, checked after parsing (genParser's
 * "Illegal instruction", with the instruction as herd prints it). */
static void check_valid(AsmScan *s, const Instr *ins) {
  bool ok = true;
  if (AA_IS_ALU(ins->op)) ok = alu_valid(ins);
  else if (ins->op == AA_MOV || ins->op == AA_MOVZ || ins->op == AA_MOVN) ok = mov_valid(ins);
  else ok = mem_valid(ins);
  if (ok) return;
  StrBuf b;
  sb_init(&b);
  print_instr(ins, &b, NULL, NULL, false); /* herd's dump_instruction */
  char *text = arena_strdup(s->arena, sb_cstr(&b));
  sb_free(&b);
  err_raise(s->err, ERRK_SYNTAX, s->start, "Illegal instruction '%s'", text);
}

/* MOVZ Rd,k{,LSL k} */
static void parse_movw(AsmScan *s, Instr *ins) {
  parse_reg(s, ins);
  asm_expect(s, ',');
  Operand *o = asm_add_op(s, ins, OPK_IMM);
  o->imm = aarch64_parse_k(s);
  o->imm2 = -1;
  if (asm_accept(s, ',')) {
    if (!tok_upper_is(s, "LSL")) asm_error(s, "expected LSL");
    asm_next(s);
    o->imm2 = aarch64_parse_k(s);
  }
}

static void parse_mov(AsmScan *s, Instr *ins) {
  Operand *d = parse_reg(s, ins);
  asm_expect(s, ',');
  if (aarch64_at_k(s)) {
    asm_add_op(s, ins, OPK_IMM)->imm = aarch64_parse_k(s);
    return;
  }
  parse_reg_view(s, ins, d->sub);
}

/* n registers of the first one's view, separated by commas */
static void parse_regs(AsmScan *s, Instr *ins, int n) {
  for (int i = 0; i < n; i++) {
    if (i > 0) asm_expect(s, ',');
    parse_reg(s, ins);
  }
  check_views(s, ins, 1, n);
}

/* A label, or herd's `.+k` / `.-k`: k bytes from this instruction (an
 * OPK_LABEL without name, imm = k). */
static void parse_label_op(AsmScan *s, Instr *ins) {
  if (!asm_accept(s, '.')) return asm_parse_label(s, ins);
  asm_accept(s, '+');
  int64_t k = asm_expect_num(s);
  if (k % 4 != 0) asm_error(s, "a branch offset is a multiple of 4");
  asm_add_op(s, ins, OPK_LABEL)->imm = k;
}

static void parse_operands(AsmScan *s, Instr *ins, const Decoded *d) {
  Form form = d->form;
  switch (form) {
  case F_NONE: break;
  case F_HINT: aarch64_parse_k(s); break;
  case F_MOV: parse_mov(s, ins); break;
  case F_MOVW: parse_movw(s, ins); break;
  case F_OP: case F_OPV: case F_ADDSUB: case F_CMP: case F_TST: case F_NEG:
  case F_MVN:
    parse_alu(s, ins, form);
    break;
  case F_SXTW:
    parse_reg_view(s, ins, AA_X), asm_expect(s, ','), parse_reg_view(s, ins, AA_W);
    break;
  case F_BFM:
    parse_regs(s, ins, 2);
    asm_expect(s, ',');
    asm_add_op(s, ins, OPK_IMM)->imm = aarch64_parse_k(s);
    asm_expect(s, ',');
    asm_add_op(s, ins, OPK_IMM)->imm = aarch64_parse_k(s);
    break;
  case F_MOPL: case F_MOPLZ:
    parse_reg_view(s, ins, AA_X), asm_expect(s, ',');
    parse_reg_view(s, ins, AA_W), asm_expect(s, ',');
    parse_reg_view(s, ins, AA_W);
    if (form == F_MOPL) asm_expect(s, ','), parse_reg_view(s, ins, AA_X);
    else insert_zr(s, ins, 3, AA_X);
    break;
  case F_MOP: parse_regs(s, ins, 4); break;
  case F_MOPZ:
    parse_regs(s, ins, 3);
    insert_zr(s, ins, 3, ins->ops[0].sub);
    break;
  case F_RR: parse_regs(s, ins, 2); break;
  case F_REV:
    parse_regs(s, ins, 2);
    if (d->view == V_XONLY && ins->ops[0].sub != AA_X)
      asm_error(s, "expected X registers");
    break;
  case F_EXTR:
    parse_regs(s, ins, 3);
    asm_expect(s, ',');
    asm_add_op(s, ins, OPK_IMM)->imm = aarch64_parse_k(s);
    break;
  case F_CSEL:
    parse_regs(s, ins, 3);
    asm_expect(s, ',');
    parse_cond_tok(s, ins);
    break;
  case F_CSET: case F_CINC: {
    /* CSET Rd,cc: CSINC Rd,ZR,ZR,inv(cc); CINC Rd,Rn,cc: CSINC Rd,Rn,Rn,inv(cc) */
    Operand *rd = parse_reg(s, ins);
    int view = rd->sub;
    asm_expect(s, ',');
    if (form == F_CSET) {
      insert_zr(s, ins, 1, view);
      insert_zr(s, ins, 2, view);
    } else {
      parse_reg(s, ins);
      check_views(s, ins, 1, 2);
      Operand rn = ins->ops[1];
      *asm_add_op(s, ins, OPK_REG) = rn;
      asm_expect(s, ',');
    }
    parse_cond_tok(s, ins);
    Operand *c = &ins->ops[ins->nops - 1];
    c->imm = inverse_cond((AACond)c->imm);
    break;
  }
  case F_ADR: parse_reg_view(s, ins, AA_X), asm_expect(s, ','), parse_label_op(s, ins); break;
  case F_LABEL: parse_label_op(s, ins); break;
  case F_CB: parse_reg(s, ins), asm_expect(s, ','), parse_label_op(s, ins); break;
  case F_TB:
    parse_reg(s, ins), asm_expect(s, ',');
    asm_add_op(s, ins, OPK_IMM)->imm = aarch64_parse_k(s);
    asm_expect(s, ',');
    parse_label_op(s, ins);
    break;
  case F_XREG: parse_reg_view(s, ins, AA_X); break;
  case F_RET:
    if (s->tok.kind != AT_END) parse_reg_view(s, ins, AA_X);
    break;
  case F_IMM: asm_add_op(s, ins, OPK_IMM)->imm = aarch64_parse_k(s); break;
  case F_MRS: parse_reg_view(s, ins, AA_X), asm_expect(s, ','), parse_sysreg(s, ins); break;
  case F_MSR: parse_sysreg(s, ins), asm_expect(s, ','), parse_reg_view(s, ins, AA_X); break;
  case F_LDST: parse_reg(s, ins), asm_expect(s, ','), parse_addr(s, ins, ADDR_EA); break;
  case F_LDUR: parse_reg(s, ins), asm_expect(s, ','), parse_addr(s, ins, ADDR_OFFSET); break;
  case F_TAG: /* herd: STG, STZG, STZ2G take a mem_idx, LDG [Xn{,#k}] */
    parse_reg_view(s, ins, AA_X), asm_expect(s, ',');
    parse_addr(s, ins, ins->op == AA_LDG ? ADDR_OFFSET : ADDR_IDX);
    break;
  case F_PAIR:
    parse_regs(s, ins, 2);
    asm_expect(s, ',');
    parse_addr(s, ins, ADDR_IDX);
    break;
  case F_BRACKET: parse_reg(s, ins), asm_expect(s, ','), parse_addr(s, ins, ADDR_SIMPLE); break;
  case F_STX:
    asm_parse_list(s, ins, "rr", parse_reg_op);
    asm_expect(s, ',');
    parse_addr(s, ins, ADDR_SIMPLE);
    if (ins->ops[0].sub != AA_W) asm_error(s, "the status register must be a W register");
    break;
  case F_LDXP:
    parse_regs(s, ins, 2);
    asm_expect(s, ',');
    parse_addr(s, ins, ADDR_SIMPLE);
    break;
  case F_STXP:
    parse_reg_view(s, ins, AA_W);
    asm_expect(s, ',');
    parse_reg(s, ins);
    asm_expect(s, ',');
    parse_reg(s, ins);
    if (ins->ops[2].sub != ins->ops[1].sub) asm_error(s, "registers of different widths");
    asm_expect(s, ',');
    parse_addr(s, ins, ADDR_SIMPLE);
    break;
  case F_RRM:
    parse_regs(s, ins, 2);
    asm_expect(s, ',');
    parse_addr(s, ins, ADDR_SIMPLE);
    break;
  case F_CASP:
    parse_regs(s, ins, 4);
    asm_expect(s, ',');
    parse_addr(s, ins, ADDR_SIMPLE);
    break;
  case F_RM: parse_reg(s, ins), asm_expect(s, ','), parse_addr(s, ins, ADDR_SIMPLE); break;
  case F_BARRIER: parse_barrier(s, ins); break;
  case F_CMO: parse_cmo(s, ins); break;
  case F_TLBI: parse_tlbi(s, ins); break;
  case F_BCC: break; /* handled by the caller */
  }
}

/* The register whose view gives the access size. */
static const Operand *data_reg(const Instr *ins) {
  return ins->op == AA_STXR || ins->op == AA_STLXR || ins->op == AA_STXP
             ? &ins->ops[1]
             : &ins->ops[0];
}

/* herd's pair forms: LDIAPP takes [Xn] or [Xn],#8 / #16 (W / X), STILP
 * [Xn] or [Xn,#-8]! / #-16. */
static bool rcpc_pair_ok(const Instr *ins) {
  const Operand *m = &ins->ops[2];
  int64_t n = ins->ops[0].sub == AA_W ? 8 : 16;
  if (m->sub == AA_AM_IMM && m->imm == 0) return true;
  if (ins->op == AA_LDP) return m->sub == AA_AM_POST && m->imm == n;
  return m->sub == AA_AM_PRE && m->imm == -n;
}

static Instr *aarch64_parse_instr(Arena *a, Err *err, const char *text,
                                  SrcPos pos) {
  Instr *vec = aarch64_simd_parse(a, err, text, pos);
  if (vec) return vec;
  AsmScan s;
  asm_scan_init(&s, a, err, "AArch64", text, pos);
  Decoded d;
  if (!decode(&s, &d)) asm_unknown(&s);
  Instr *ins = asm_new_instr(&s, d.op);
  ins->flags = AA_SET_X(0u, (uint32_t)d.x);
  if (d.form == F_BCC) {
    parse_cond(&s, ins, s.tok.s + 2, s.tok.len - 2, true);
    asm_next(&s);
    parse_label_op(&s, ins);
  } else {
    asm_next(&s);
    parse_operands(&s, ins, &d);
  }
  asm_expect_end(&s);
  int size = d.size;
  if (AA_IS_MEMORY(ins->op)) {
    const Operand *r = data_reg(ins);
    if (d.view == V_WONLY && r->sub != AA_W)
      err_raise(err, ERRK_SYNTAX, pos,
                "AArch64 instruction '%s': a byte or halfword access takes a W register",
                text);
    if (d.view == V_XONLY && r->sub != AA_X)
      err_raise(err, ERRK_SYNTAX, pos, "AArch64 instruction '%s': expected an X register",
                text);
    if (size < 0) size = r->sub == AA_W ? 2 : 3;
    if ((ins->op == AA_LDP || ins->op == AA_STP) && d.x == AA_PAIR_RCPC &&
        !rcpc_pair_ok(ins))
      err_raise(err, ERRK_SYNTAX, pos, "AArch64 instruction '%s': bad addressing mode",
                text);
  }
  ins->flags |= AA_MAKE_FLAGS(size < 0 ? 3 : size, d.mo, d.aop);
  check_valid(&s, ins);
  return ins;
}

/* -------------------------------------------------------------- printer
 * herd's dump_instruction_hash (lib/AArch64Base.ml, compat mode) and, with
 * compat false, its dump_instruction (instructions as values: ADR not
 * ADDR, NEG, "[Xn],#k" post-index, LDXP's first register in its size). */

/* A branch target: its renamed label, or .+k / .-k */
static void print_target(const Operand *o, const char *(*rename)(void *, const char *),
                         void *ctx, StrBuf *out) {
  if (o->sym) {
    sb_puts(out, asm_label_name(o, rename, ctx));
    return;
  }
  sb_puts(out, o->imm >= 0 ? ".+" : ".");
  sb_put_int(out, o->imm);
}

/* A register as herd prints it; a symbolic one by its name (sreg). */
static void print_reg_view(int reg, const char *sreg, int view, StrBuf *out) {
  if (sreg) sb_puts(out, view == AA_W ? "W%" : "X%"), sb_puts(out, sreg);
  else if (reg == AA_ZR) sb_puts(out, view == AA_W ? "WZR" : "XZR");
  else if (reg == AA_SP) sb_puts(out, "SP");
  else sb_putc(out, view == AA_W ? 'W' : 'X'), sb_put_int(out, AA_XNUM(reg));
}

static void print_reg(const Operand *o, StrBuf *out) { print_reg_view(o->reg, o->sreg, o->sub, out); }

/* sep, then "#" and the immediate */
static void print_imm(const char *sep, int64_t k, StrBuf *out) {
  sb_puts(out, sep);
  sb_putc(out, '#');
  sb_put_int(out, k);
}

static const char *const mem_ext_names[] = {
    [AA_AM_LSL] = "LSL", [AA_AM_SXTW] = "SXTW", [AA_AM_UXTW] = "UXTW",
    [AA_AM_SXTX] = "SXTX",
};

/* `pair`: a post-indexed pair prints " [Xn]#k" (compat), "[Xn],#k" not. */
static void print_addr(const Operand *m, bool pair, bool compat, StrBuf *out) {
  if (pair && compat && m->sub == AA_AM_POST) sb_putc(out, ' ');
  sb_putc(out, '[');
  print_reg_view(m->reg, m->sreg, AA_X, out);
  switch ((AAAddrMode)m->sub) {
  case AA_AM_IMM:
    if (m->imm != 0) print_imm(",", m->imm, out);
    sb_putc(out, ']');
    break;
  case AA_AM_PRE:
    print_imm(",", m->imm, out);
    sb_puts(out, "]!");
    break;
  case AA_AM_POST: print_imm(compat ? "]" : "],", m->imm, out); break;
  case AA_AM_REG:
  case AA_AM_LSL:
  case AA_AM_SXTW:
  case AA_AM_UXTW:
  case AA_AM_SXTX:
    sb_putc(out, ',');
    print_reg_view(m->reg2, m->sreg2, (int)m->imm, out);
    if (m->sub != AA_AM_REG) {
      sb_putc(out, ',');
      sb_puts(out, mem_ext_names[m->sub]);
      if (m->imm2 != 0) print_imm(" ", m->imm2, out);
    }
    sb_putc(out, ']');
    break;
  }
}

static const char *const alu_names[] = {
    [AA_ADD] = "ADD", [AA_ADDS] = "ADDS", [AA_SUB] = "SUB", [AA_SUBS] = "SUBS",
    [AA_AND] = "AND", [AA_ANDS] = "ANDS", [AA_ORR] = "ORR", [AA_ORN] = "ORN",
    [AA_EOR] = "EOR", [AA_ASR] = "ASR",   [AA_LSR] = "LSR", [AA_LSL] = "LSL",
    [AA_ROR] = "ROR", [AA_BICS] = "BICS", [AA_BIC] = "BIC",
};

/* herd's OpExt.pp_ext: #k{,LSL #s} or Rm{,SHIFT #k} (zero shifts dropped) */
static void print_op_ext(const Operand *o, int view, StrBuf *out) {
  if (o->kind == OPK_IMM) {
    print_imm("", o->imm, out);
    if (o->imm2 != 0) print_imm(",LSL ", o->imm2, out);
    return;
  }
  print_reg_view(o->reg, o->sreg, view, out);
  if (o->imm2 != 0) {
    sb_putc(out, ',');
    sb_puts(out, shift_names[o->imm]);
    print_imm(" ", o->imm2, out);
  }
}

static void print_alu(const Instr *ins, bool compat, StrBuf *out) {
  const Operand *o = ins->ops;
  int v = o[0].sub;
  const char *memo = alu_names[ins->op];
  int only = -1; /* the one register printed before the operand, if so */
  if (ins->op == AA_SUBS && o[0].reg == AA_ZR) memo = "CMP", only = 1;
  else if (ins->op == AA_ANDS && o[0].reg == AA_ZR) memo = "TST", only = 1;
  else if (ins->op == AA_ORN && o[1].reg == AA_ZR) memo = "MVN", only = 0;
  else if (!compat && (ins->op == AA_SUB || ins->op == AA_SUBS) && o[1].reg == AA_ZR &&
           o[2].kind != OPK_IMM)
    memo = ins->op == AA_SUB ? "NEG" : "NEGS", only = 0;
  sb_puts(out, memo);
  sb_putc(out, ' ');
  print_reg_view(o[only < 0 ? 0 : only].reg, o[only < 0 ? 0 : only].sreg, v, out);
  if (only < 0) sb_putc(out, ','), print_reg_view(o[1].reg, o[1].sreg, v, out);
  sb_putc(out, ',');
  print_op_ext(&o[2], v, out);
}

static void print_regs(const Instr *ins, int n, StrBuf *out) {
  for (int i = 0; i < n; i++) {
    sb_putc(out, i == 0 ? ' ' : ',');
    print_reg(&ins->ops[i], out);
  }
}

static const char *const sel_names[] = {"CSEL", "CSINC", "CSINV", "CSNEG"};

static void print_csel(const Instr *ins, StrBuf *out) {
  const Operand *o = ins->ops;
  AASel op = (AASel)AA_FLAG_X(ins->flags);
  AACond c = (AACond)o[3].imm;
  if (o[1].reg == AA_ZR && o[2].reg == AA_ZR && (op == AA_SEL_INC || op == AA_SEL_INV)) {
    sb_puts(out, op == AA_SEL_INC ? "CSET " : "CSETM ");
    print_reg(&o[0], out);
  } else if (op == AA_SEL_INC && o[1].reg == o[2].reg) {
    sb_puts(out, "CINC");
    print_regs(ins, 2, out);
  } else {
    sb_puts(out, sel_names[op]);
    print_regs(ins, 3, out);
    sb_putc(out, ',');
    sb_puts(out, aarch64_cond_names[c]);
    return;
  }
  sb_putc(out, ',');
  sb_puts(out, aarch64_cond_names[inverse_cond(c)]);
}

static const char *const mopl_names[] = {"SMADDL", "UMADDL", "SMSUBL", "UMSUBL"};
static const char *const mopl_z_names[] = {"SMULL", "UMULL", "SMNEGL", "UMNEGL"};
static const char *const rev_names[] = {"REV16", "REV32", "REV"};
static const char *const pair_ld_names[] = {"LDP", "LDNP", "LDIAPP"};
static const char *const pair_st_names[] = {"STP", "STNP", "STILP"};
static const char *const ext_op_names[] = {
    [AA_ADD] = "ADD", [AA_ADDS] = "ADDS", [AA_SUB] = "SUB", [AA_SUBS] = "SUBS"};

/* Memory accesses: the mnemonic (with its ordering and size suffixes). */
static void print_mem_mnemonic(const Instr *ins, StrBuf *out) {
  static const char *const names[] = {
      [AA_LDR] = "LDR",   [AA_LDRSW] = "LDRSW", [AA_LDRS] = "LDRS",
      [AA_STR] = "STR",   [AA_LDAR] = "LDAR",   [AA_LDAPR] = "LDAPR",
      [AA_STLR] = "STLR", [AA_LDXR] = "LDXR",   [AA_LDAXR] = "LDAXR",
      [AA_STXR] = "STXR", [AA_STLXR] = "STLXR", [AA_CAS] = "CAS",
      [AA_CASP] = "CASP", [AA_SWP] = "SWP",     [AA_LDOP] = "LD",
      [AA_STOP] = "ST",
  };
  uint32_t f = ins->flags;
  sb_puts(out, names[ins->op]);
  if (ins->op == AA_LDOP || ins->op == AA_STOP) sb_puts(out, aop_names[AA_FLAG_AOP(f)]);
  if (ins->op == AA_CAS || ins->op == AA_CASP || ins->op == AA_SWP ||
      ins->op == AA_LDOP || ins->op == AA_STOP)
    sb_puts(out, mo_names[AA_FLAG_MO(f)]);
  if (ins->op != AA_LDRSW) sb_puts(out, size_suffix[AA_FLAG_SIZE(f)]);
}

static void print_memory(const Instr *ins, bool compat, StrBuf *out) {
  const Operand *o = ins->ops;
  int x = AA_FLAG_X(ins->flags);
  switch ((AAOp)ins->op) {
  case AA_LDUR:
    sb_puts(out, "LDUR ");
    print_reg_view(o[0].reg, o[0].sreg, AA_X, out);
    sb_puts(out, ", [");
    print_reg_view(o[1].reg, o[1].sreg, AA_X, out);
    if (o[1].imm != 0) print_imm(",", o[1].imm, out);
    sb_putc(out, ']');
    return;
  case AA_LDP: case AA_STP: case AA_LDPSW:
    sb_puts(out, ins->op == AA_LDPSW ? "LDPSW" : ins->op == AA_LDP ? pair_ld_names[x]
                                                                  : pair_st_names[x]);
    print_regs(ins, 2, out);
    sb_putc(out, ',');
    print_addr(&o[2], true, compat, out);
    return;
  case AA_LDXP:
    sb_puts(out, x ? "LDAXP " : "LDXP ");
    print_reg_view(o[0].reg, o[0].sreg, compat ? AA_W : o[0].sub, out); /* sic (compat) */
    sb_putc(out, ',');
    print_reg(&o[1], out);
    sb_putc(out, ',');
    print_addr(&o[2], false, compat, out);
    return;
  case AA_STXP:
    sb_puts(out, x ? "STLXP" : "STXP");
    print_regs(ins, 3, out);
    sb_putc(out, ',');
    print_addr(&o[3], false, compat, out);
    return;
  default: break;
  }
  print_mem_mnemonic(ins, out);
  for (int i = 0; i < ins->nops; i++) {
    sb_putc(out, i == 0 ? ' ' : ',');
    if (o[i].kind == OPK_MEM) print_addr(&o[i], false, compat, out);
    else print_reg(&o[i], out);
  }
}

static void print_instr(const Instr *ins, StrBuf *out,
                        const char *(*rename)(void *, const char *), void *ctx,
                        bool compat) {
  const Operand *o = ins->ops;
  int x = AA_FLAG_X(ins->flags);
  if (AA_IS_SIMD(ins->op)) {
    aarch64_simd_print(ins, out);
    return;
  }
  if (AA_IS_ALU(ins->op)) {
    print_alu(ins, compat, out);
    return;
  }
  if (AA_IS_MTE(ins->op)) { /* herd's pp_mem_idx */
    static const char *const names[] = {"STG", "STZG", "STZ2G", "LDG"};
    sb_printf(out, "%s ", names[ins->op - AA_STG]);
    print_reg_view(o[0].reg, o[0].sreg, AA_X, out);
    sb_putc(out, ',');
    print_addr(&o[1], false, compat, out);
    return;
  }
  if (AA_IS_MEMORY(ins->op)) {
    print_memory(ins, compat, out);
    return;
  }
  switch ((AAOp)ins->op) {
  case AA_NOP: sb_puts(out, "NOP"); return;
  case AA_MOV:
    sb_puts(out, "MOV ");
    print_reg(&o[0], out);
    sb_putc(out, ',');
    if (o[1].kind == OPK_IMM) print_imm("", o[1].imm, out);
    else print_reg(&o[1], out);
    return;
  case AA_ADDSUBEXT:
    sb_puts(out, ext_op_names[x]);
    print_regs(ins, 3, out);
    sb_putc(out, ',');
    sb_puts(out, ext_names[o[2].imm]);
    if (o[2].imm2 >= 0) print_imm(" ", o[2].imm2, out);
    return;
  case AA_MOVZ: case AA_MOVN: case AA_MOVK:
    sb_puts(out, ins->op == AA_MOVZ ? "MOVZ" : ins->op == AA_MOVN ? "MOVN" : "MOVK");
    print_regs(ins, 1, out);
    print_imm(",", o[1].imm, out);
    if (o[1].imm2 >= 0) print_imm(",,LSL ", o[1].imm2, out); /* sic */
    return;
  case AA_SXTW: sb_puts(out, "SXTW"); print_regs(ins, 2, out); return;
  case AA_SBFM: case AA_UBFM:
    sb_puts(out, ins->op == AA_SBFM ? "SBFM " : "UBFM ");
    print_reg_view(o[0].reg, o[0].sreg, AA_X, out); /* herd prints X names */
    sb_putc(out, ',');
    print_reg_view(o[1].reg, o[1].sreg, AA_X, out);
    print_imm(",", o[2].imm, out);
    print_imm(",", o[3].imm, out);
    return;
  case AA_MOPL:
    sb_puts(out, o[3].reg == AA_ZR ? mopl_z_names[x] : mopl_names[x]);
    print_regs(ins, o[3].reg == AA_ZR ? 3 : 4, out);
    return;
  case AA_MOP:
    if (o[3].reg == AA_ZR) sb_puts(out, x ? "MNEG" : "MUL");
    else sb_puts(out, x ? "MSUB" : "MADD");
    print_regs(ins, o[3].reg == AA_ZR ? 3 : 4, out);
    return;
  case AA_ADR:
    sb_puts(out, compat ? "ADDR " : "ADR "); /* sic (compat) */
    print_reg(&o[0], out);
    sb_putc(out, ',');
    print_target(&o[1], rename, ctx, out);
    return;
  case AA_RBIT: sb_puts(out, "RBIT"); print_regs(ins, 2, out); return;
  case AA_ABS: sb_puts(out, "ABS"); print_regs(ins, 2, out); return;
  case AA_REV: sb_puts(out, rev_names[x]); print_regs(ins, 2, out); return;
  case AA_EXTR:
    sb_puts(out, "EXTR");
    print_regs(ins, 3, out);
    print_imm(",", o[3].imm, out);
    return;
  case AA_CSEL: print_csel(ins, out); return;
  case AA_B: case AA_BL:
    sb_puts(out, ins->op == AA_B ? "B " : "BL ");
    print_target(&o[0], rename, ctx, out);
    return;
  case AA_BCC:
    sb_puts(out, "B.");
    sb_puts(out, aarch64_cond_names[o[0].imm]);
    sb_putc(out, ' ');
    print_target(&o[1], rename, ctx, out);
    return;
  case AA_CBZ: case AA_CBNZ: case AA_TBZ: case AA_TBNZ: {
    static const char *const n[] = {"CBZ", "CBNZ", "TBZ", "TBNZ"};
    sb_puts(out, n[ins->op - AA_CBZ]);
    print_regs(ins, 1, out);
    if (ins->op == AA_TBZ || ins->op == AA_TBNZ) print_imm(",", o[1].imm, out);
    sb_putc(out, ',');
    print_target(&o[ins->nops - 1], rename, ctx, out);
    return;
  }
  case AA_BR: sb_puts(out, "BR"); print_regs(ins, 1, out); return;
  case AA_BLR: sb_puts(out, "BLR"); print_regs(ins, 1, out); return;
  case AA_RET: sb_puts(out, "RET"); print_regs(ins, ins->nops, out); return;
  case AA_ERET: sb_puts(out, "ERET"); return;
  case AA_SVC: print_imm("SVC ", o[0].imm, out); return;
  case AA_UDF: print_imm("UDF ", o[0].imm, out); return;
  case AA_MRS:
    sb_puts(out, "MRS ");
    print_reg(&o[0], out);
    sb_putc(out, ',');
    sb_puts(out, aarch64_sysreg_names[o[1].imm]);
    return;
  case AA_MSR:
    sb_puts(out, "MSR ");
    sb_puts(out, aarch64_sysreg_names[o[0].imm]);
    sb_putc(out, ',');
    print_reg(&o[1], out);
    return;
  case AA_DMB: case AA_DSB:
    sb_puts(out, ins->op == AA_DMB ? "DMB " : "DSB ");
    sb_puts(out, aarch64_barrier_names[o[0].imm]);
    return;
  case AA_ISB: sb_puts(out, "ISB"); return;
  case AA_DC: case AA_IC: /* herd's pp_xreg: IC IALLU,XZR */
    sb_puts(out, ins->op == AA_DC ? "DC " : "IC ");
    sb_puts(out, (ins->op == AA_DC ? aarch64_dc_ops : aarch64_ic_ops)[o[0].imm]);
    sb_putc(out, ',');
    print_reg(&o[1], out);
    return;
  case AA_TLBI: /* herd's pp: no register for ZR */
    sb_puts(out, "TLBI ");
    sb_puts(out, aarch64_tlbi_ops[o[0].imm].name);
    if (o[1].reg != AA_ZR) {
      sb_putc(out, ',');
      print_reg(&o[1], out);
    }
    return;
  default: sb_putc(out, '?'); return;
  }
}

static void aarch64_print_instr(const Instr *ins, StrBuf *out,
                                const char *(*rename)(void *, const char *),
                                void *ctx) {
  print_instr(ins, out, rename, ctx, true);
}

static void aarch64_print_value(const Instr *ins, StrBuf *out) {
  print_instr(ins, out, NULL, NULL, false);
}

/* herd's registers for symbolic ones, in its allocation order: X0 to
 * X29 (every general register but the link register X30). */
static const int symb_regs[] = {
    AA_XREG(0),  AA_XREG(1),  AA_XREG(2),  AA_XREG(3),  AA_XREG(4),  AA_XREG(5),
    AA_XREG(6),  AA_XREG(7),  AA_XREG(8),  AA_XREG(9),  AA_XREG(10), AA_XREG(11),
    AA_XREG(12), AA_XREG(13), AA_XREG(14), AA_XREG(15), AA_XREG(16), AA_XREG(17),
    AA_XREG(18), AA_XREG(19), AA_XREG(20), AA_XREG(21), AA_XREG(22), AA_XREG(23),
    AA_XREG(24), AA_XREG(25), AA_XREG(26), AA_XREG(27), AA_XREG(28), AA_XREG(29)};

const ArchOps aarch64_arch_ops = {
    .arch = ARCH_AARCH64,
    .name = "AArch64",
    .word_bits = 64,
    .nregs = AA_NREGS_ALL + AA_SR_COUNT,
    .parse_reg = aarch64_parse_reg,
    .vec_loc = aarch64_simd_vec_loc,
    .reg_name = aarch64_reg_name,
    .parse_instr = aarch64_parse_instr,
    .print_instr = aarch64_print_instr,
    .print_value = aarch64_print_value,
    .semi_continues = NULL,
    .symb_regs = symb_regs,
    .nsymb_regs = (int)ARRAY_LEN(symb_regs),
};
