/*
 * aarch64_simd.c — the front end of AArch64 vector instructions (herd7's
 * lib/AArch64Parser.mly, Neon part): the operands are read generically
 * into a signature (one letter per operand), and each mnemonic accepts the
 * signatures of its forms.  The printer follows herd's dump_instruction
 * (layout in aarch64_simd.h).
 */
#include "aarch64_simd.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ registers */

static char esize_letter(int bits) {
  switch (bits) {
  case 8: return 'B';
  case 16: return 'H';
  case 32: return 'S';
  case 64: return 'D';
  case 128: return 'Q';
  default: return '?';
  }
}

static int letter_esize(char c) {
  switch (c) {
  case 'B': return 8;
  case 'H': return 16;
  case 'S': return 32;
  case 'D': return 64;
  case 'Q': return 128;
  default: return 0;
  }
}

/* A register number 0..max at *p (no leading zero), advancing p. */
static int reg_num(const char **p, int max) {
  const char *s = *p;
  if (!isdigit((unsigned char)s[0])) return -1;
  int k = s[0] - '0';
  int n = 1;
  if (isdigit((unsigned char)s[1])) {
    if (s[0] == '0') return -1;
    k = 10 * k + (s[1] - '0');
    n = 2;
  }
  if (k > max) return -1;
  *p = s + n;
  return k;
}

/* herd's arrangements of a V register: nelem 0 is an element form. */
static bool vec_arrangement(int nelem, int esize) {
  switch (nelem) {
  case 0: return esize <= 64;
  case 1: return esize == 64 || esize == 128;
  case 2: return esize >= 16 && esize <= 64;
  case 4: return esize <= 32;
  case 8: return esize <= 16;
  case 16: return esize == 8;
  default: return false;
  }
}

/* A vector register name (upper case) into o; false if it is not one. */
static bool vreg_of(const char *u, Operand *o) {
  const char *p = u + 1;
  int n;
  memset(o, 0, sizeof *o);
  o->kind = OPK_VREG;
  o->reg2 = 0;
  if (u[0] == 'V') {
    if ((n = reg_num(&p, 31)) < 0 || *p++ != '.') return false;
    int nelem = 0;
    while (isdigit((unsigned char)*p)) nelem = 10 * nelem + (*p++ - '0');
    int es = letter_esize(*p);
    if (!es || p[1] || !vec_arrangement(nelem, es)) return false;
    o->sub = AV_VEC, o->reg = n, o->imm = es, o->imm2 = nelem;
    return true;
  }
  if (u[0] == 'Z' && u[1] == 'A') {
    p = u + 2;
    if ((n = reg_num(&p, 15)) < 0) return false;
    int dir = 0;
    if (*p == 'H' || *p == 'V') dir = *p++;
    if (*p++ != '.') return false;
    int es = letter_esize(*p);
    if (!es || p[1]) return false;
    o->sub = AV_ZA, o->reg = n, o->imm = es, o->imm2 = dir;
    return true;
  }
  if (u[0] == 'Z') {
    if ((n = reg_num(&p, 31)) < 0 || *p++ != '.') return false;
    int es = letter_esize(*p);
    if (!es || p[1]) return false;
    o->sub = AV_Z, o->reg = n, o->imm = es;
    return true;
  }
  if (u[0] == 'P') {
    if ((n = reg_num(&p, 15)) < 0) return false;
    if (!*p) {
      o->sub = AV_P, o->reg = n;
      return true;
    }
    if (p[0] == '/' && (p[1] == 'Z' || p[1] == 'M') && !p[2]) {
      o->sub = AV_PM, o->reg = n, o->imm2 = p[1];
      return true;
    }
    if (*p++ != '.') return false;
    int es = letter_esize(*p);
    if (!es || es == 128 || p[1]) return false;
    o->sub = AV_P, o->reg = n, o->imm = es;
    return true;
  }
  int es = letter_esize(u[0]);
  if (!es || (n = reg_num(&p, 31)) < 0 || *p) return false;
  o->sub = AV_SCAL, o->reg = n, o->imm = es;
  return true;
}

/* A general register: Xn, Wn, XZR, WZR, SP.  Returns the aarch64 id and
 * the view, -1 if none. */
static int gpr_of(const char *u, int *view) {
  *view = AA_X;
  if (!strcmp(u, "SP")) return AA_SP;
  if (!strcmp(u, "XZR")) return AA_ZR;
  if (!strcmp(u, "WZR")) return *view = AA_W, AA_ZR;
  if (u[0] != 'X' && u[0] != 'W') return -1;
  const char *p = u + 1;
  int n = reg_num(&p, 30);
  if (n < 0 || *p) return -1;
  *view = u[0] == 'W' ? AA_W : AA_X;
  return AA_XREG(n);
}

int aarch64_simd_vec_loc(const char *s, int *lanes, int *lane_bits) {
  char u[16];
  Operand o;
  if (!aarch64_upcase(s, strlen(s), u, sizeof u) || !vreg_of(u, &o)) return -1;
  if (o.sub != AV_VEC || o.imm2 == 0) return -1;
  *lanes = (int)o.imm2;
  *lane_bits = (int)o.imm;
  return AA_VCH(o.reg, 0);
}

const char *aarch64_simd_reg_name(int reg) {
  static const char *const v[] = {
      "V0",  "V1",  "V2",  "V3",  "V4",  "V5",  "V6",  "V7",  "V8",  "V9",  "V10",
      "V11", "V12", "V13", "V14", "V15", "V16", "V17", "V18", "V19", "V20", "V21",
      "V22", "V23", "V24", "V25", "V26", "V27", "V28", "V29", "V30", "V31"};
  if (reg >= AA_VCH(0, 0) && reg < AA_PREG(0)) return v[(reg - AA_VCH(0, 0)) / AV_CHUNKS];
  if (reg >= AA_PREG(0) && reg < AA_ZACH(0, 0)) return "P";
  return "ZA";
}

/* ------------------------------------------------------------- operands */

enum { MAXOPS = INSTR_MAX_OPS };

typedef struct Parsed {
  char sig[MAXOPS + 1];  /* one letter per operand (below) */
  int n;
} Parsed;

/* Signature letters: V vector, L list of vectors, s scalar, Z / z a Z
 * register / list, P predicate, M predicate /Z /M, A ZA tile, i lane,
 * x X register (or SP), w W register, k immediate, m memory, p pattern,
 * u MUL #k, h shift. */
static void add_sig(AsmScan *s, Parsed *pp, char c) {
  if (pp->n >= MAXOPS) asm_error(s, "too many operands");
  pp->sig[pp->n++] = c;
  pp->sig[pp->n] = 0;
}

static bool tok_upname(const AsmScan *s, char *u, size_t cap) {
  return s->tok.kind == AT_NAME && aarch64_upcase(s->tok.s, s->tok.len, u, cap);
}

/* A general register operand. */
static Operand *parse_gpr(AsmScan *s, Instr *ins, Parsed *pp) {
  char u[8];
  int view;
  int r = tok_upname(s, u, sizeof u) ? gpr_of(u, &view) : -1;
  if (r < 0) asm_error(s, "expected a register");
  Operand *o = asm_add_op(s, ins, OPK_REG);
  o->reg = r;
  o->sub = (uint8_t)view;
  add_sig(s, pp, view == AA_W ? 'w' : 'x');
  asm_next(s);
  return o;
}

static char vsig(const Operand *o) {
  switch ((AVClass)o->sub) {
  case AV_VEC: return o->reg2 > 0 ? 'L' : 'V';
  case AV_SCAL: return 's';
  case AV_Z: return o->reg2 > 0 ? 'z' : 'Z';
  case AV_P: return 'P';
  case AV_PM: return 'M';
  case AV_ZA: return 'A';
  }
  return '?';
}

/* A vector register at the current token into a new operand. */
static Operand *parse_vreg(AsmScan *s, Instr *ins) {
  char u[16];
  Operand v;
  if (!tok_upname(s, u, sizeof u) || !vreg_of(u, &v)) asm_error(s, "expected a vector register");
  Operand *o = asm_add_op(s, ins, OPK_VREG);
  *o = v;
  o->reg2 = 0;
  asm_next(s);
  return o;
}

/* [k] after a register: a lane; [Ws,k] after a ZA tile: a slice. */
static void parse_suffix(AsmScan *s, Instr *ins, Parsed *pp, const Operand *r) {
  if (!asm_is(s, '[')) return;
  asm_next(s);
  if (r->sub == AV_ZA) {
    parse_gpr(s, ins, pp);
    asm_expect(s, ',');
    asm_add_op(s, ins, OPK_IMM)->imm = asm_expect_num(s);
    add_sig(s, pp, 'k');
  } else {
    asm_add_op(s, ins, OPK_IMM)->imm = asm_expect_num(s);
    add_sig(s, pp, 'i');
  }
  asm_expect(s, ']');
}

/* {R1,R2...}: consecutive registers of one arrangement. */
static void parse_list(AsmScan *s, Instr *ins, Parsed *pp) {
  asm_next(s); /* '{' */
  Operand *first = parse_vreg(s, ins);
  if (first->sub == AV_ZA) { /* {ZAnH.T[Ws,k]}: a tile slice */
    add_sig(s, pp, 'A');
    parse_suffix(s, ins, pp, first);
    asm_expect(s, '}');
    return;
  }
  int n = 1;
  while (asm_accept(s, ',')) {
    char u[16];
    Operand v;
    if (!tok_upname(s, u, sizeof u) || !vreg_of(u, &v) || v.sub != first->sub ||
        v.imm != first->imm || v.imm2 != first->imm2)
      asm_error(s, "expected a register of the list's arrangement");
    if (v.reg != (first->reg + n) % 32)
      asm_error(s, "the registers of a list must be consecutive");
    n++;
    asm_next(s);
  }
  if (n > 4) asm_error(s, "a list has at most four registers");
  if (first->sub != AV_VEC && first->sub != AV_Z) asm_error(s, "expected V or Z registers");
  first->reg2 = n;
  asm_expect(s, '}');
  add_sig(s, pp, vsig(first));
}

static const char *const ext_names[] = {"LSL", "UXTW", "SXTW", "SXTX"};
static const uint8_t ext_modes[] = {AA_AM_LSL, AA_AM_UXTW, AA_AM_SXTW, AA_AM_SXTX};

/* [Xn{,#k{,MUL VL}|,Rm{,ext{ #k}}|,Zm.T{,ext{ #k}}}]{!|,#k|,Xm} */
static void parse_mem(AsmScan *s, Instr *ins, Parsed *pp) {
  char u[16];
  int view;
  asm_next(s); /* '[' */
  int base = tok_upname(s, u, sizeof u) ? gpr_of(u, &view) : -1;
  if (base < 0 || view != AA_X || base == AA_ZR)
    asm_error(s, "the base register must be an X register or SP");
  asm_next(s);
  Operand *m = asm_add_op(s, ins, OPK_MEM);
  m->reg = base;
  m->sub = AA_AM_IMM;
  add_sig(s, pp, 'm');
  if (asm_accept(s, ',')) {
    if (aarch64_at_k(s)) {
      m->imm = aarch64_parse_k(s);
      if (asm_accept(s, ',')) {
        char v[8];
        if (!tok_upname(s, u, sizeof u) || strcmp(u, "MUL")) asm_error(s, "expected MUL VL");
        asm_next(s);
        if (!tok_upname(s, v, sizeof v) || strcmp(v, "VL")) asm_error(s, "expected MUL VL");
        asm_next(s);
        m->sub = AV_AM_MULVL;
      }
    } else {
      Operand z;
      if (!tok_upname(s, u, sizeof u)) asm_error(s, "expected an offset register or #k");
      if (vreg_of(u, &z) && z.sub == AV_Z) {
        m->sub = AV_AM_ZIDX;
        m->reg2 = z.reg;
        m->imm = z.imm;
      } else {
        if ((m->reg2 = gpr_of(u, &view)) < 0) asm_error(s, "expected an offset register or #k");
        m->sub = AA_AM_REG;
        m->imm = view;
      }
      asm_next(s);
      if (asm_accept(s, ',')) {
        int e = -1;
        if (tok_upname(s, u, sizeof u))
          for (int i = 0; i < 4; i++)
            if (!strcmp(u, ext_names[i])) e = i;
        if (e < 0) asm_error(s, "expected LSL, UXTW, SXTW or SXTX");
        asm_next(s);
        if (!asm_is(s, ']')) m->imm2 = aarch64_parse_k(s);
        if (m->sub == AV_AM_ZIDX) m->sym = ext_names[e];
        else m->sub = m->imm2 == 0 && e == 0 ? AA_AM_REG : ext_modes[e];
      }
    }
  }
  asm_expect(s, ']');
  if (m->sub == AA_AM_IMM && asm_accept(s, '!')) {
    m->sub = AA_AM_PRE;
  } else if (m->sub == AA_AM_IMM && m->imm == 0 && asm_accept(s, ',')) {
    if (aarch64_at_k(s)) {
      m->sub = AA_AM_POST;
      m->imm = aarch64_parse_k(s);
    } else {
      int r = tok_upname(s, u, sizeof u) ? gpr_of(u, &view) : -1;
      if (r < 0 || view != AA_X) asm_error(s, "expected #k or an X register");
      m->sub = AV_AM_POSTREG;
      m->reg2 = r;
      asm_next(s);
    }
  }
}

const char *const aarch64_sve_patterns[] = {
    "POW2", "VL1",  "VL2",   "VL3",   "VL4",  "VL5",  "VL6",  "VL7", "VL8",
    "VL16", "VL32", "VL64", "VL128", "VL256", "MUL4", "MUL3", "ALL", NULL};

/* Operand names that are not registers: SVE patterns (p), MUL #k (u),
 * SMSTART's SM / ZA (n). */
static bool special_name(AsmScan *s, Instr *ins, Parsed *pp, const char *u) {
  for (int i = 0; aarch64_sve_patterns[i]; i++)
    if (!strcmp(u, aarch64_sve_patterns[i])) {
      asm_next(s);
      Operand *o = asm_add_op(s, ins, OPK_IMM);
      o->sub = AV_K_PATTERN;
      o->imm = i;
      add_sig(s, pp, 'p');
      return true;
    }
  if (!strcmp(u, "MUL")) {
    asm_next(s);
    Operand *o = asm_add_op(s, ins, OPK_IMM);
    o->sub = AV_K_MUL;
    o->imm = aarch64_parse_k(s);
    add_sig(s, pp, 'u');
    return true;
  }
  if (!strcmp(u, "SM") || !strcmp(u, "ZA")) {
    asm_next(s);
    Operand *o = asm_add_op(s, ins, OPK_IMM);
    o->sub = AV_K_MODE;
    o->imm = u[0] == 'S' ? 1 : 2;
    add_sig(s, pp, 'n');
    return true;
  }
  return false;
}

/* Every operand, into ins and its signature. */
static void parse_operands(AsmScan *s, Instr *ins, Parsed *pp) {
  if (s->tok.kind == AT_END) return;
  for (;;) {
    char u[16];
    Operand v;
    if (asm_is(s, '{')) {
      parse_list(s, ins, pp);
      parse_suffix(s, ins, pp, &ins->ops[ins->nops - 1]);
    } else if (asm_is(s, '[')) {
      parse_mem(s, ins, pp);
    } else if (aarch64_at_k(s)) {
      asm_add_op(s, ins, OPK_IMM)->imm = aarch64_parse_k(s);
      add_sig(s, pp, 'k');
    } else if (tok_upname(s, u, sizeof u) && special_name(s, ins, pp, u)) {
      /* a pattern, MUL #k, SM or ZA */
    } else if (tok_upname(s, u, sizeof u) && (!strcmp(u, "LSL") || !strcmp(u, "MSL"))) {
      asm_next(s);
      Operand *o = asm_add_op(s, ins, OPK_IMM);
      o->sub = u[0] == 'M';
      o->imm = aarch64_parse_k(s);
      add_sig(s, pp, 'h');
    } else if (tok_upname(s, u, sizeof u) && vreg_of(u, &v)) {
      Operand *o = parse_vreg(s, ins);
      add_sig(s, pp, vsig(o));
      parse_suffix(s, ins, pp, o);
    } else {
      parse_gpr(s, ins, pp);
    }
    if (!asm_accept(s, ',')) break;
  }
}

/* ------------------------------------------------------------ mnemonics */

/* AVLogic's names as herd prints them. */
static const char *const logic_names[] = {
    [AV_L_EOR] = "EOR", [AV_L_ORR] = "ORR", [AV_L_ORN] = "ORN", [AV_L_AND] = "AND",
    [AV_L_ANDS] = "ANDS", [AV_L_BIC] = "BIC", [AV_L_BICS] = "BICS"};

typedef struct Form {
  const char *name;  /* mnemonic */
  const char *sig;   /* operand signature */
  AVOp op;
  int x;             /* AA_FLAG_X */
  int size;          /* AA_FLAG_SIZE */
} Form;

enum { ST = 8, ORD = 16 };

static const Form forms[] = {
    {"LD1", "Lim", AV_LDST_LANE, 1, 0},  {"LD2", "Lim", AV_LDST_LANE, 2, 0},
    {"LD3", "Lim", AV_LDST_LANE, 3, 0},  {"LD4", "Lim", AV_LDST_LANE, 4, 0},
    {"ST1", "Lim", AV_LDST_LANE, 1 | ST, 0}, {"ST2", "Lim", AV_LDST_LANE, 2 | ST, 0},
    {"ST3", "Lim", AV_LDST_LANE, 3 | ST, 0}, {"ST4", "Lim", AV_LDST_LANE, 4 | ST, 0},
    {"LDAP1", "Lim", AV_LDST_LANE, 1 | ORD, 0}, {"STL1", "Lim", AV_LDST_LANE, 1 | ST | ORD, 0},
    {"LD1", "Lm", AV_LDST_MULT, 1, 0},   {"LD2", "Lm", AV_LDST_MULT, 2, 0},
    {"LD3", "Lm", AV_LDST_MULT, 3, 0},   {"LD4", "Lm", AV_LDST_MULT, 4, 0},
    {"ST1", "Lm", AV_LDST_MULT, 1 | ST, 0}, {"ST2", "Lm", AV_LDST_MULT, 2 | ST, 0},
    {"ST3", "Lm", AV_LDST_MULT, 3 | ST, 0}, {"ST4", "Lm", AV_LDST_MULT, 4 | ST, 0},
    {"LD1R", "Lm", AV_LDNR, 1, 0},       {"LD2R", "Lm", AV_LDNR, 2, 0},
    {"LD3R", "Lm", AV_LDNR, 3, 0},       {"LD4R", "Lm", AV_LDNR, 4, 0},
    {"LDR", "sm", AV_LDR, AV_M_PLAIN, 0}, {"LDUR", "sm", AV_LDR, AV_M_UNSCALED, 0},
    {"LDAPUR", "sm", AV_LDR, AV_M_ORDERED, 0}, {"STR", "sm", AV_STR, AV_M_PLAIN, 0},
    {"STUR", "sm", AV_STR, AV_M_UNSCALED, 0}, {"STLUR", "sm", AV_STR, AV_M_ORDERED, 0},
    {"LDP", "ssm", AV_LDP, 0, 0},        {"LDNP", "ssm", AV_LDP, 1, 0},
    {"STP", "ssm", AV_STP, 0, 0},        {"STNP", "ssm", AV_STP, 1, 0},
    {"MOVI", "Vk", AV_MOVI_V, 0, 0},     {"MOVI", "Vkh", AV_MOVI_V, 0, 0},
    {"MOVI", "sk", AV_MOVI_S, 0, 0},
    {"MOV", "ViVi", AV_MOV_VE, 0, 0},    {"INS", "ViVi", AV_MOV_VE, 0, 0},
    {"MOV", "Vix", AV_MOV_FG, 0, 0},     {"MOV", "Viw", AV_MOV_FG, 0, 0},
    {"INS", "Vix", AV_MOV_FG, 0, 0},     {"INS", "Viw", AV_MOV_FG, 0, 0},
    {"MOV", "xVi", AV_MOV_TG, 0, 0},     {"MOV", "wVi", AV_MOV_TG, 0, 0},
    {"UMOV", "xVi", AV_MOV_TG, 0, 0},    {"UMOV", "wVi", AV_MOV_TG, 0, 0},
    {"MOV", "VV", AV_MOV_V, 0, 0},       {"MOV", "sVi", AV_MOV_S, 0, 0},
    {"DUP", "Vx", AV_DUP, 0, 0},         {"DUP", "Vw", AV_DUP, 0, 0},
    {"ADDV", "sV", AV_ADDV, 0, 0},       {"FMOV", "ws", AV_FMOV, 0, 0},
    {"FMOV", "xs", AV_FMOV, 0, 0},
    {"EOR", "VVV", AV_OP3, AV_L_EOR, 0}, {"EON", "VVV", AV_OP3, AV_L_EOR, 0},
    {"ORR", "VVV", AV_OP3, AV_L_ORR, 0}, {"ORN", "VVV", AV_OP3, AV_L_ORN, 0},
    {"AND", "VVV", AV_OP3, AV_L_AND, 0}, {"ANDS", "VVV", AV_OP3, AV_L_ANDS, 0},
    {"BIC", "VVV", AV_OP3, AV_L_BIC, 0}, {"BICS", "VVV", AV_OP3, AV_L_BICS, 0},
    {"ADD", "VVV", AV_ADD_V, 0, 0},      {"ADD", "sss", AV_ADD_S, 0, 0},
    /* SVE */
    {"PTRUE", "P", AV_PTRUE, 0, 0},      {"PTRUE", "Pp", AV_PTRUE, 0, 0},
    {"WHILELT", "Pxx", AV_WHILE, AV_WLT, 0}, {"WHILELT", "Pww", AV_WHILE, AV_WLT, 0},
    {"WHILELE", "Pxx", AV_WHILE, AV_WLE, 0}, {"WHILELE", "Pww", AV_WHILE, AV_WLE, 0},
    {"WHILELO", "Pxx", AV_WHILE, AV_WLO, 0}, {"WHILELO", "Pww", AV_WHILE, AV_WLO, 0},
    {"WHILELS", "Pxx", AV_WHILE, AV_WLS, 0}, {"WHILELS", "Pww", AV_WHILE, AV_WLS, 0},
    {"UADDV", "sPZ", AV_UADDV, 0, 0},
    {"LD1B", "zMm", AV_LDSV, 1, 0},   {"LD1H", "zMm", AV_LDSV, 1, 1},
    {"LD1W", "zMm", AV_LDSV, 1, 2},   {"LD1D", "zMm", AV_LDSV, 1, 3},
    {"LD2B", "zMm", AV_LDSV, 2, 0},   {"LD2H", "zMm", AV_LDSV, 2, 1},
    {"LD2W", "zMm", AV_LDSV, 2, 2},   {"LD2D", "zMm", AV_LDSV, 2, 3},
    {"LD3B", "zMm", AV_LDSV, 3, 0},   {"LD3H", "zMm", AV_LDSV, 3, 1},
    {"LD3W", "zMm", AV_LDSV, 3, 2},   {"LD3D", "zMm", AV_LDSV, 3, 3},
    {"LD4B", "zMm", AV_LDSV, 4, 0},   {"LD4H", "zMm", AV_LDSV, 4, 1},
    {"LD4W", "zMm", AV_LDSV, 4, 2},   {"LD4D", "zMm", AV_LDSV, 4, 3},
    {"ST1B", "zPm", AV_STSV, 1, 0},   {"ST1H", "zPm", AV_STSV, 1, 1},
    {"ST1W", "zPm", AV_STSV, 1, 2},   {"ST1D", "zPm", AV_STSV, 1, 3},
    {"ST2B", "zPm", AV_STSV, 2, 0},   {"ST2H", "zPm", AV_STSV, 2, 1},
    {"ST2W", "zPm", AV_STSV, 2, 2},   {"ST2D", "zPm", AV_STSV, 2, 3},
    {"ST3B", "zPm", AV_STSV, 3, 0},   {"ST3H", "zPm", AV_STSV, 3, 1},
    {"ST3W", "zPm", AV_STSV, 3, 2},   {"ST3D", "zPm", AV_STSV, 3, 3},
    {"ST4B", "zPm", AV_STSV, 4, 0},   {"ST4H", "zPm", AV_STSV, 4, 1},
    {"ST4W", "zPm", AV_STSV, 4, 2},   {"ST4D", "zPm", AV_STSV, 4, 3},
    {"MOV", "Zk", AV_MOV_SV, 0, 0},      {"MOV", "Zkh", AV_MOV_SV, 0, 0},
    {"DUP", "Zx", AV_DUP_SV, 0, 0},      {"DUP", "Zw", AV_DUP_SV, 0, 0},
    {"ADD", "ZZZ", AV_ADD_SV, 0, 0},     {"NEG", "ZMZ", AV_NEG_SV, 0, 0},
    {"EOR", "ZZZ", AV_OP3_SV, AV_L_EOR, 0}, {"EON", "ZZZ", AV_OP3_SV, AV_L_EOR, 0},
    {"ORR", "ZZZ", AV_OP3_SV, AV_L_ORR, 0}, {"ORN", "ZZZ", AV_OP3_SV, AV_L_ORN, 0},
    {"AND", "ZZZ", AV_OP3_SV, AV_L_AND, 0}, {"ANDS", "ZZZ", AV_OP3_SV, AV_L_ANDS, 0},
    {"BIC", "ZZZ", AV_OP3_SV, AV_L_BIC, 0}, {"BICS", "ZZZ", AV_OP3_SV, AV_L_BICS, 0},
    {"MOVPRFX", "ZMZ", AV_MOVPRFX, 0, 0},
    {"INDEX", "Zxk", AV_INDEX, 0, 0},    {"INDEX", "Zwk", AV_INDEX, 0, 0},
    {"INDEX", "Zkx", AV_INDEX, 0, 0},    {"INDEX", "Zkw", AV_INDEX, 0, 0},
    {"INDEX", "Zxx", AV_INDEX, 0, 0},    {"INDEX", "Zww", AV_INDEX, 0, 0},
    {"INDEX", "Zkk", AV_INDEX, 0, 0},
    {"RDVL", "xk", AV_RDVL, 0, 0},       {"ADDVL", "xxk", AV_ADDVL, 0, 0},
    {"CNTB", "x", AV_CNTINC, 0, 0},   {"CNTH", "x", AV_CNTINC, 0, 1},
    {"CNTW", "x", AV_CNTINC, 0, 2},   {"CNTD", "x", AV_CNTINC, 0, 3},
    {"INCB", "x", AV_CNTINC, 4, 0},   {"INCH", "x", AV_CNTINC, 4, 1},
    {"INCW", "x", AV_CNTINC, 4, 2},   {"INCD", "x", AV_CNTINC, 4, 3},
    {"CNTB", "xp", AV_CNTINC, 0, 0},  {"CNTH", "xp", AV_CNTINC, 0, 1},
    {"CNTW", "xp", AV_CNTINC, 0, 2},  {"CNTD", "xp", AV_CNTINC, 0, 3},
    {"INCB", "xp", AV_CNTINC, 4, 0},  {"INCH", "xp", AV_CNTINC, 4, 1},
    {"INCW", "xp", AV_CNTINC, 4, 2},  {"INCD", "xp", AV_CNTINC, 4, 3},
    {"CNTB", "xpu", AV_CNTINC, 0, 0}, {"CNTH", "xpu", AV_CNTINC, 0, 1},
    {"CNTW", "xpu", AV_CNTINC, 0, 2}, {"CNTD", "xpu", AV_CNTINC, 0, 3},
    {"INCB", "xpu", AV_CNTINC, 4, 0}, {"INCH", "xpu", AV_CNTINC, 4, 1},
    {"INCW", "xpu", AV_CNTINC, 4, 2}, {"INCD", "xpu", AV_CNTINC, 4, 3},
    /* SME */
    {"SMSTART", "", AV_SMSTART, 0, 0},   {"SMSTART", "n", AV_SMSTART, 0, 0},
    {"SMSTOP", "", AV_SMSTOP, 0, 0},     {"SMSTOP", "n", AV_SMSTOP, 0, 0},
    {"LD1B", "AwkMm", AV_LDZA, 0, 0}, {"LD1H", "AwkMm", AV_LDZA, 0, 1},
    {"LD1W", "AwkMm", AV_LDZA, 0, 2}, {"LD1D", "AwkMm", AV_LDZA, 0, 3},
    {"ST1B", "AwkPm", AV_STZA, 0, 0}, {"ST1H", "AwkPm", AV_STZA, 0, 1},
    {"ST1W", "AwkPm", AV_STZA, 0, 2}, {"ST1D", "AwkPm", AV_STZA, 0, 3},
    {"MOVA", "AwkMZ", AV_MOVA_VT, 0, 0}, {"MOVA", "ZMAwk", AV_MOVA_TV, 0, 0},
    {"ADDHA", "AMMZ", AV_ADDA, 0, 0},    {"ADDVA", "AMMZ", AV_ADDA, 1, 0},
};

/* Mnemonics that are vector instructions whatever their operands. */
static bool vector_only(const char *u) {
  static const char *const only[] = {"LD1", "LD2", "LD3", "LD4", "ST1", "ST2", "ST3",
                                     "ST4", "LD1R", "LD2R", "LD3R", "LD4R", "LDAP1",
                                     "STL1", "MOVI", "INS", "UMOV", "DUP", "ADDV", "FMOV",
                                     "PTRUE", "WHILELT", "WHILELE", "WHILELO", "WHILELS",
                                     "UADDV", "MOVPRFX", "INDEX", "RDVL", "ADDVL", "CNTB",
                                     "CNTH", "CNTW", "CNTD", "INCB", "INCH", "INCW", "INCD",
                                     "SMSTART", "SMSTOP", "MOVA", "ADDHA", "ADDVA",
                                     "LD1B", "LD1H", "LD1W", "LD1D", "LD2B", "LD2H", "LD2W",
                                     "LD2D", "LD3B", "LD3H", "LD3W", "LD3D", "LD4B", "LD4H",
                                     "LD4W", "LD4D", "ST1B", "ST1H", "ST1W", "ST1D", "ST2B",
                                     "ST2H", "ST2W", "ST2D", "ST3B", "ST3H", "ST3W", "ST3D",
                                     "ST4B", "ST4H", "ST4W", "ST4D"};
  for (size_t i = 0; i < ARRAY_LEN(only); i++)
    if (!strcmp(u, only[i])) return true;
  return false;
}

/* The first two operands: does one name a vector register? */
static bool vector_operands(Arena *a, Err *err, const char *text, SrcPos pos) {
  AsmScan s;
  asm_scan_init(&s, a, err, "AArch64", text, pos);
  for (int k = 0; k < 2 && s.tok.kind != AT_END; k++) {
    asm_next(&s);
    if (asm_is(&s, '{')) asm_next(&s);
    char u[16];
    Operand o;
    if (tok_upname(&s, u, sizeof u) && vreg_of(u, &o)) return true;
    while (s.tok.kind != AT_END && !asm_is(&s, ',')) asm_next(&s);
  }
  return false;
}

/* Checks of herd's parser past the signature. */
static void check_form(AsmScan *s, const Instr *ins, const Form *f) {
  const Operand *o = ins->ops;
  switch (f->op) {
  case AV_LDST_LANE:
  case AV_LDST_MULT:
  case AV_LDNR: {
    int n = f->x & 7;
    bool ok = f->op == AV_LDST_MULT && n == 1 ? true : o[0].reg2 == n;
    if (!ok) asm_error(s, "expected %d registers", n);
    const Operand *m = &o[ins->nops - 1];
    bool lane_form = f->op == AV_LDST_LANE;
    if (lane_form != (o[0].imm2 == 0)) asm_error(s, "bad arrangement");
    if (m->sub != AA_AM_IMM && m->sub != AA_AM_POST && m->sub != AV_AM_POSTREG)
      asm_error(s, "bad addressing mode");
    if (m->sub == AA_AM_IMM && m->imm != 0) asm_error(s, "bad addressing mode");
    if ((f->x & ORD) && m->sub != AA_AM_IMM) asm_error(s, "bad addressing mode");
    break;
  }
  case AV_LDP:
  case AV_STP:
    if (o[0].imm != o[1].imm || o[0].imm < 32) asm_error(s, "expected S, D or Q registers");
    if (o[2].sub != AA_AM_IMM && o[2].sub != AA_AM_PRE && o[2].sub != AA_AM_POST)
      asm_error(s, "bad addressing mode");
    break;
  case AV_LDR:
  case AV_STR:
    if (f->x != AV_M_PLAIN && o[1].sub != AA_AM_IMM) asm_error(s, "bad addressing mode");
    if (o[1].sub > AA_AM_PRE) asm_error(s, "bad addressing mode");
    break;
  case AV_MOVI_S:
    if (o[0].imm != 64) asm_error(s, "expected a D register");
    break;
  case AV_MOV_S:
    if (o[0].imm == 128) asm_error(s, "expected a B, H, S or D register");
    break;
  case AV_ADDV:
    if (o[0].imm > 32) asm_error(s, "expected a B, H or S register");
    break;
  case AV_FMOV:
    if (!((o[0].sub == AA_W && (o[1].imm == 16 || o[1].imm == 32)) ||
          (o[0].sub == AA_X && (o[1].imm == 16 || o[1].imm == 64))))
      asm_error(s, "bad register sizes");
    break;
  case AV_ADD_S:
    for (int i = 0; i < 3; i++)
      if (o[i].imm != 64) asm_error(s, "expected D registers");
    break;
  case AV_PTRUE:
  case AV_WHILE:
    if (!o[0].imm) asm_error(s, "expected a predicate with an element size");
    break;
  case AV_UADDV:
    if (o[0].imm != 64 || o[1].imm) asm_error(s, "expected UADDV Dd,Pg,Zn.<T>");
    break;
  case AV_LDSV:
  case AV_STSV: {
    const Operand *m = &o[ins->nops - 1];
    if (o[0].reg2 != f->x) asm_error(s, "expected %d registers", f->x);
    if (f->op == AV_LDSV ? o[1].imm2 != 'Z' : o[1].imm != 0) asm_error(s, "bad predicate");
    if (m->sub == AA_AM_PRE || m->sub == AA_AM_POST || m->sub == AV_AM_POSTREG ||
        (m->sub == AA_AM_REG && m->imm != AA_X) || m->sub == AA_AM_UXTW ||
        m->sub == AA_AM_SXTW || m->sub == AA_AM_SXTX)
      asm_error(s, "bad addressing mode");
    if (m->sub == AV_AM_ZIDX && f->x != 1) asm_error(s, "bad addressing mode");
    if ((8 << f->size) > o[0].imm) asm_error(s, "elements narrower than the access");
    break;
  }
  case AV_OP3_SV:
    if (o[0].imm != 64 || o[1].imm != 64 || o[2].imm != 64) asm_error(s, "expected .D registers");
    break;
  case AV_NEG_SV:
    if (o[1].imm2 != 'M') asm_error(s, "expected a merging predicate");
    break;
  case AV_LDZA:
  case AV_STZA: {
    const Operand *m = &o[ins->nops - 1];
    if (!o[0].imm2 || o[0].imm != (8 << f->size)) asm_error(s, "bad tile slice");
    if (f->op == AV_LDZA ? o[3].imm2 != 'Z' : o[3].imm != 0) asm_error(s, "bad predicate");
    if (!((m->sub == AA_AM_IMM && m->imm == 0) || m->sub == AA_AM_REG || m->sub == AA_AM_LSL) ||
        (m->sub != AA_AM_IMM && m->imm != AA_X))
      asm_error(s, "bad addressing mode");
    break;
  }
  case AV_MOVA_VT:
    if (!o[0].imm2 || o[3].imm2 != 'M') asm_error(s, "bad MOVA");
    break;
  case AV_MOVA_TV:
    if (!o[2].imm2 || o[1].imm2 != 'M') asm_error(s, "bad MOVA");
    break;
  case AV_ADDA:
    if (o[0].imm2 || o[1].imm2 != 'M' || o[2].imm2 != 'M') asm_error(s, "bad ADDHA / ADDVA");
    if (o[0].imm != 32 || o[3].imm != 32) asm_error(s, "expected ZAn.S and Zm.S (herd's ADDHA / ADDVA)");
    break;
  default:
    break;
  }
}

Instr *aarch64_simd_parse(Arena *a, Err *err, const char *text, SrcPos pos) {
  AsmScan s;
  asm_scan_init(&s, a, err, "AArch64", text, pos);
  char u[16];
  if (!tok_upname(&s, u, sizeof u)) return NULL;
  bool known = false;
  for (size_t i = 0; i < ARRAY_LEN(forms); i++) known |= !strcmp(forms[i].name, u);
  if (!known || (!vector_only(u) && !vector_operands(a, err, text, pos))) return NULL;
  asm_next(&s);
  Instr *ins = asm_new_instr(&s, AV_FIRST);
  Parsed pp = {{0}, 0};
  parse_operands(&s, ins, &pp);
  asm_expect_end(&s);
  for (size_t i = 0; i < ARRAY_LEN(forms); i++) {
    const Form *f = &forms[i];
    if (strcmp(f->name, u) || strcmp(f->sig, pp.sig)) continue;
    ins->op = f->op;
    ins->flags = AA_SET_X((uint32_t)f->size, (uint32_t)f->x & 15u) |
                 ((uint32_t)(f->x >> 4) << 12);
    check_form(&s, ins, f);
    return ins;
  }
  asm_unknown(&s);
}

/* -------------------------------------------------------------- printer */

static void pr_vreg(const Operand *o, StrBuf *out) {
  char c = esize_letter((int)o->imm);
  switch ((AVClass)o->sub) {
  case AV_VEC:
    if (o->imm2) sb_printf(out, "V%d.%d%c", o->reg, (int)o->imm2, c);
    else sb_printf(out, "V%d.%c", o->reg, c);
    return;
  case AV_SCAL: sb_printf(out, "%c%d", c, o->reg); return;
  case AV_Z:
    sb_printf(out, "Z%d", o->reg);
    if (o->imm) sb_printf(out, ".%c", c);
    return;
  case AV_P:
    sb_printf(out, "P%d", o->reg);
    if (o->imm) sb_printf(out, ".%c", c);
    return;
  case AV_PM: sb_printf(out, "P%d/%c", o->reg, (char)o->imm2); return;
  case AV_ZA:
    sb_printf(out, "ZA%d", o->reg);
    if (o->imm2) sb_putc(out, (char)o->imm2);
    sb_printf(out, ".%c", c);
    return;
  }
}

static void pr_gpr(int reg, int view, StrBuf *out) {
  if (reg == AA_ZR) sb_puts(out, view == AA_W ? "WZR" : "XZR");
  else if (reg == AA_SP) sb_puts(out, "SP");
  else sb_printf(out, "%c%d", view == AA_W ? 'W' : 'X', AA_XNUM(reg));
}

/* {V0.4S, V1.4S} (herd joins a Neon list with ", ") */
static void pr_list(const Operand *o, const char *sep, StrBuf *out) {
  sb_putc(out, '{');
  for (int i = 0; i < o->reg2; i++) {
    Operand r = *o;
    r.reg = (o->reg + i) % 32;
    if (i) sb_puts(out, sep);
    pr_vreg(&r, out);
  }
  sb_putc(out, '}');
}

/* herd's pp_addr (compat): [Xn], [Xn,#k], [Xn]#k, [Xn,#k]!, [Xn,Rm{,ext{ #k}}] */
static void pr_mem(const Operand *m, StrBuf *out) {
  sb_putc(out, '[');
  pr_gpr(m->reg, AA_X, out);
  switch (m->sub) {
  case AA_AM_IMM:
  case AV_AM_MULVL:
    if (m->imm) sb_printf(out, ",#%lld", (long long)m->imm);
    sb_putc(out, ']');
    return;
  case AA_AM_PRE: sb_printf(out, ",#%lld]!", (long long)m->imm); return;
  case AA_AM_POST: sb_printf(out, "]#%lld", (long long)m->imm); return;
  case AV_AM_POSTREG:
    sb_puts(out, "],");
    pr_gpr(m->reg2, AA_X, out);
    return;
  case AV_AM_ZIDX: {
    Operand z = {.kind = OPK_VREG, .sub = AV_Z, .reg = m->reg2, .imm = m->imm};
    sb_putc(out, ',');
    pr_vreg(&z, out);
    if (m->sym && !(strcmp(m->sym, "LSL") == 0 && m->imm2 == 0)) {
      sb_printf(out, ",%s", m->sym);
      if (m->imm2) sb_printf(out, " #%lld", (long long)m->imm2);
    }
    sb_putc(out, ']');
    return;
  }
  default: {
    static const char *const names[] = {"", "", "LSL", "SXTW", "UXTW", "SXTX"};
    sb_putc(out, ',');
    pr_gpr(m->reg2, (int)m->imm, out);
    if (m->sub != AA_AM_REG) {
      sb_printf(out, ",%s", names[m->sub]);
      if (m->imm2) sb_printf(out, " #%lld", (long long)m->imm2);
    }
    sb_putc(out, ']');
    return;
  }
  }
}

/* herd's pp_kr false false after the Neon structure forms */
static void pr_post(const Operand *m, StrBuf *out) {
  sb_putc(out, '[');
  pr_gpr(m->reg, AA_X, out);
  sb_putc(out, ']');
  if (m->sub == AA_AM_POST && m->imm) sb_printf(out, ",#%lld", (long long)m->imm);
  if (m->sub == AV_AM_POSTREG) {
    sb_putc(out, ',');
    pr_gpr(m->reg2, AA_X, out);
  }
}

static void pr_lane(const Operand *o, const Operand *lane, StrBuf *out) {
  pr_vreg(o, out);
  sb_printf(out, "[%lld]", (long long)lane->imm);
}

static void pr_gpr_op(const Operand *o, StrBuf *out) { pr_gpr(o->reg, o->sub, out); }

/* Operands i.. separated by commas, each by its kind. */
static void pr_ops(const Instr *ins, int from, StrBuf *out) {
  for (int i = from; i < ins->nops; i++) {
    const Operand *o = &ins->ops[i];
    if (i > from) sb_putc(out, ',');
    switch (o->kind) {
    case OPK_VREG: pr_vreg(o, out); break;
    case OPK_REG: pr_gpr_op(o, out); break;
    case OPK_MEM: pr_mem(o, out); break;
    default: sb_printf(out, "#%lld", (long long)o->imm); break;
    }
  }
}

/* ZAtH.<T>[Ws,#k] */
static void pr_slice(const Operand *o, StrBuf *out) {
  pr_vreg(&o[0], out);
  sb_putc(out, '[');
  pr_gpr_op(&o[1], out);
  sb_printf(out, ",#%lld]", (long long)o[2].imm);
}

static const char size_letters[] = "BHWD";

static void print_sve(const Instr *ins, StrBuf *out) {
  const Operand *o = ins->ops;
  int x = AA_FLAG_X(ins->flags), sz = AA_FLAG_SIZE(ins->flags);
  switch ((AVOp)ins->op) {
  case AV_PTRUE:
    sb_puts(out, "PTRUE ");
    pr_vreg(&o[0], out);
    sb_printf(out, ",%s", aarch64_sve_patterns[ins->nops > 1 ? o[1].imm : AV_ALL]);
    return;
  case AV_WHILE: {
    static const char *const names[] = {"WHILELT ", "WHILELE ", "WHILELO ", "WHILELS "};
    sb_puts(out, names[x]);
    pr_ops(ins, 0, out);
    return;
  }
  case AV_LDSV:
  case AV_STSV: {
    Operand z = o[0];
    sb_printf(out, "%s%d%c {", ins->op == AV_LDSV ? "LD" : "ST", x, size_letters[sz]);
    for (int i = 0; i < o[0].reg2; i++) {
      z.reg = (o[0].reg + i) % 32;
      if (i) sb_putc(out, ',');
      pr_vreg(&z, out);
    }
    sb_puts(out, "},");
    pr_ops(ins, 1, out);
    return;
  }
  case AV_MOV_SV:
    sb_puts(out, "MOV ");
    pr_vreg(&o[0], out);
    sb_printf(out, ",#%lld", (long long)o[1].imm);
    if (ins->nops > 2) sb_printf(out, ",LSL #%lld", (long long)o[2].imm);
    return;
  case AV_OP3_SV: {
    sb_puts(out, logic_names[x]);
    sb_putc(out, ' ');
    pr_ops(ins, 0, out);
    return;
  }
  case AV_UADDV: case AV_DUP_SV: case AV_ADD_SV: case AV_NEG_SV: case AV_MOVPRFX:
  case AV_INDEX: case AV_RDVL: case AV_ADDVL: {
    static const char *const names[] = {
        [AV_UADDV - AV_UADDV] = "UADDV ", [AV_DUP_SV - AV_UADDV] = "DUP ",
        [AV_ADD_SV - AV_UADDV] = "ADD ",  [AV_NEG_SV - AV_UADDV] = "NEG ",
        [AV_MOVPRFX - AV_UADDV] = "MOVPRFX ", [AV_INDEX - AV_UADDV] = "INDEX ",
        [AV_RDVL - AV_UADDV] = "RDVL ",   [AV_ADDVL - AV_UADDV] = "ADDVL "};
    sb_puts(out, names[ins->op - AV_UADDV]);
    pr_ops(ins, 0, out);
    return;
  }
  case AV_CNTINC:
    sb_printf(out, "%s%c ", x & 4 ? "INC" : "CNT", size_letters[sz]);
    pr_gpr_op(&o[0], out);
    if (ins->nops == 3 && o[2].imm != 1)
      sb_printf(out, ",%s,MUL #%lld", aarch64_sve_patterns[o[1].imm], (long long)o[2].imm);
    else if (ins->nops >= 2 && o[1].imm != AV_ALL)
      sb_printf(out, ",%s", aarch64_sve_patterns[o[1].imm]);
    return;
  case AV_SMSTART:
  case AV_SMSTOP:
    sb_puts(out, ins->op == AV_SMSTART ? "SMSTART" : "SMSTOP");
    if (ins->nops) sb_puts(out, o[0].imm == 1 ? " SM" : " ZA");
    return;
  case AV_LDZA:
  case AV_STZA:
    sb_printf(out, "%s1%c {", ins->op == AV_LDZA ? "LD" : "ST", size_letters[sz]);
    pr_slice(o, out);
    sb_puts(out, "},");
    pr_ops(ins, 3, out);
    return;
  case AV_MOVA_VT:
    sb_puts(out, "MOVA ");
    pr_slice(o, out);
    sb_putc(out, ',');
    pr_ops(ins, 3, out);
    return;
  case AV_MOVA_TV:
    sb_puts(out, "MOVA ");
    pr_vreg(&o[0], out);
    sb_putc(out, ',');
    pr_vreg(&o[1], out);
    sb_putc(out, ',');
    pr_slice(&o[2], out);
    return;
  case AV_ADDA:
    sb_puts(out, x ? "ADDVA " : "ADDHA ");
    pr_ops(ins, 0, out);
    return;
  default: sb_puts(out, ins->text); return;
  }
}

void aarch64_simd_print(const Instr *ins, StrBuf *out) {
  const Operand *o = ins->ops;
  int x = AA_FLAG_X(ins->flags);
  bool ord = (ins->flags >> 12) & 1;
  switch ((AVOp)ins->op) {
  case AV_LDST_LANE:
  case AV_LDST_MULT:
  case AV_LDNR: {
    int n = x & 7;
    if (ord) sb_puts(out, x & ST ? "STL1" : "LDAP1");
    else sb_printf(out, "%s%d%s", x & ST ? "ST" : "LD", n, ins->op == AV_LDNR ? "R" : "");
    sb_putc(out, ' ');
    pr_list(&o[0], ", ", out);
    if (ins->op == AV_LDST_LANE) sb_printf(out, "[%lld]", (long long)o[1].imm);
    sb_putc(out, ',');
    pr_post(&o[ins->nops - 1], out);
    return;
  }
  case AV_LDR:
  case AV_STR: {
    static const char *const ld[] = {"LDR", "LDUR", "LDAPUR"};
    static const char *const st[] = {"STR", "STUR", "STLUR"};
    sb_puts(out, (ins->op == AV_LDR ? ld : st)[x]);
    sb_putc(out, ' ');
    pr_vreg(&o[0], out);
    sb_putc(out, ',');
    pr_mem(&o[1], out);
    return;
  }
  case AV_LDP:
  case AV_STP:
    sb_puts(out, ins->op == AV_LDP ? (x ? "LDNP " : "LDP ") : (x ? "STNP " : "STP "));
    pr_vreg(&o[0], out);
    sb_putc(out, ',');
    pr_vreg(&o[1], out);
    sb_putc(out, ',');
    pr_mem(&o[2], out);
    return;
  case AV_MOVI_V:
  case AV_MOVI_S:
    sb_puts(out, "MOVI ");
    pr_vreg(&o[0], out);
    sb_printf(out, ",#%lld", (long long)o[1].imm);
    if (ins->nops > 2) sb_printf(out, ",%s #%lld", o[2].sub ? "MSL" : "LSL", (long long)o[2].imm);
    return;
  case AV_MOV_VE:
    sb_puts(out, "MOV ");
    pr_lane(&o[0], &o[1], out);
    sb_putc(out, ',');
    pr_lane(&o[2], &o[3], out);
    return;
  case AV_MOV_FG:
    sb_puts(out, "MOV ");
    pr_lane(&o[0], &o[1], out);
    sb_putc(out, ',');
    pr_gpr(o[2].reg, o[2].sub, out);
    return;
  case AV_MOV_TG:
    sb_puts(out, "MOV ");
    pr_gpr(o[0].reg, o[0].sub, out);
    sb_putc(out, ',');
    pr_lane(&o[1], &o[2], out);
    return;
  case AV_MOV_S:
    sb_puts(out, "MOV ");
    pr_vreg(&o[0], out);
    sb_putc(out, ',');
    pr_lane(&o[1], &o[2], out);
    return;
  case AV_MOV_V:
  case AV_ADDV:
    sb_puts(out, ins->op == AV_MOV_V ? "MOV " : "ADDV ");
    pr_vreg(&o[0], out);
    sb_putc(out, ',');
    pr_vreg(&o[1], out);
    return;
  case AV_DUP:
    sb_puts(out, "DUP ");
    pr_vreg(&o[0], out);
    sb_putc(out, ',');
    pr_gpr(o[1].reg, o[1].sub, out);
    return;
  case AV_FMOV:
    sb_puts(out, "FMOV ");
    pr_gpr(o[0].reg, o[0].sub, out);
    sb_putc(out, ',');
    pr_vreg(&o[1], out);
    return;
  case AV_OP3:
  case AV_ADD_V:
  case AV_ADD_S: {
    sb_puts(out, ins->op == AV_OP3 ? logic_names[x] : "ADD");
    for (int i = 0; i < 3; i++) {
      sb_putc(out, i ? ',' : ' ');
      pr_vreg(&o[i], out);
    }
    return;
  }
  default: print_sve(ins, out); return;
  }
}
