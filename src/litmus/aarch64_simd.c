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

typedef struct Form {
  const char *name;  /* mnemonic */
  const char *sig;   /* operand signature */
  AVOp op;
  int x;             /* AA_FLAG_X */
} Form;

enum { ST = 8, ORD = 16 };

static const Form forms[] = {
    {"LD1", "Lim", AV_LDST_LANE, 1},  {"LD2", "Lim", AV_LDST_LANE, 2},
    {"LD3", "Lim", AV_LDST_LANE, 3},  {"LD4", "Lim", AV_LDST_LANE, 4},
    {"ST1", "Lim", AV_LDST_LANE, 1 | ST}, {"ST2", "Lim", AV_LDST_LANE, 2 | ST},
    {"ST3", "Lim", AV_LDST_LANE, 3 | ST}, {"ST4", "Lim", AV_LDST_LANE, 4 | ST},
    {"LDAP1", "Lim", AV_LDST_LANE, 1 | ORD}, {"STL1", "Lim", AV_LDST_LANE, 1 | ST | ORD},
    {"LD1", "Lm", AV_LDST_MULT, 1},   {"LD2", "Lm", AV_LDST_MULT, 2},
    {"LD3", "Lm", AV_LDST_MULT, 3},   {"LD4", "Lm", AV_LDST_MULT, 4},
    {"ST1", "Lm", AV_LDST_MULT, 1 | ST}, {"ST2", "Lm", AV_LDST_MULT, 2 | ST},
    {"ST3", "Lm", AV_LDST_MULT, 3 | ST}, {"ST4", "Lm", AV_LDST_MULT, 4 | ST},
    {"LD1R", "Lm", AV_LDNR, 1},       {"LD2R", "Lm", AV_LDNR, 2},
    {"LD3R", "Lm", AV_LDNR, 3},       {"LD4R", "Lm", AV_LDNR, 4},
    {"LDR", "sm", AV_LDR, AV_M_PLAIN}, {"LDUR", "sm", AV_LDR, AV_M_UNSCALED},
    {"LDAPUR", "sm", AV_LDR, AV_M_ORDERED}, {"STR", "sm", AV_STR, AV_M_PLAIN},
    {"STUR", "sm", AV_STR, AV_M_UNSCALED}, {"STLUR", "sm", AV_STR, AV_M_ORDERED},
    {"LDP", "ssm", AV_LDP, 0},        {"LDNP", "ssm", AV_LDP, 1},
    {"STP", "ssm", AV_STP, 0},        {"STNP", "ssm", AV_STP, 1},
    {"MOVI", "Vk", AV_MOVI_V, 0},     {"MOVI", "Vkh", AV_MOVI_V, 0},
    {"MOVI", "sk", AV_MOVI_S, 0},
    {"MOV", "ViVi", AV_MOV_VE, 0},    {"INS", "ViVi", AV_MOV_VE, 0},
    {"MOV", "Vix", AV_MOV_FG, 0},     {"MOV", "Viw", AV_MOV_FG, 0},
    {"INS", "Vix", AV_MOV_FG, 0},     {"INS", "Viw", AV_MOV_FG, 0},
    {"MOV", "xVi", AV_MOV_TG, 0},     {"MOV", "wVi", AV_MOV_TG, 0},
    {"UMOV", "xVi", AV_MOV_TG, 0},    {"UMOV", "wVi", AV_MOV_TG, 0},
    {"MOV", "VV", AV_MOV_V, 0},       {"MOV", "sVi", AV_MOV_S, 0},
    {"DUP", "Vx", AV_DUP, 0},         {"DUP", "Vw", AV_DUP, 0},
    {"ADDV", "sV", AV_ADDV, 0},       {"FMOV", "ws", AV_FMOV, 0},
    {"FMOV", "xs", AV_FMOV, 0},       {"EOR", "VVV", AV_OP3, AA_EOR},
    {"ORR", "VVV", AV_OP3, AA_ORR},   {"AND", "VVV", AV_OP3, AA_AND},
    {"BIC", "VVV", AV_OP3, AA_BIC},   {"ORN", "VVV", AV_OP3, AA_ORN},
    {"ADD", "VVV", AV_ADD_V, 0},      {"ADD", "sss", AV_ADD_S, 0},
};

/* Mnemonics that are vector instructions whatever their operands. */
static bool vector_only(const char *u) {
  static const char *const only[] = {"LD1", "LD2", "LD3", "LD4", "ST1", "ST2", "ST3",
                                     "ST4", "LD1R", "LD2R", "LD3R", "LD4R", "LDAP1",
                                     "STL1", "MOVI", "INS", "UMOV", "DUP", "ADDV", "FMOV"};
  for (size_t i = 0; i < ARRAY_LEN(only); i++)
    if (!strcmp(u, only[i])) return true;
  return false;
}

/* The first two operands: does one name a vector register? */
static bool vector_operands(Arena *a, Err *err, const char *text) {
  AsmScan s;
  asm_scan_init(&s, a, err, "AArch64", text, (SrcPos){0});
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
  if (!known || (!vector_only(u) && !vector_operands(a, err, text))) return NULL;
  asm_next(&s);
  Instr *ins = asm_new_instr(&s, AV_FIRST);
  Parsed pp = {{0}, 0};
  parse_operands(&s, ins, &pp);
  asm_expect_end(&s);
  for (size_t i = 0; i < ARRAY_LEN(forms); i++) {
    const Form *f = &forms[i];
    if (strcmp(f->name, u) || strcmp(f->sig, pp.sig)) continue;
    ins->op = f->op;
    ins->flags = AA_SET_X(0u, (uint32_t)f->x & 15u) | ((uint32_t)(f->x >> 4) << 12);
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
    static const char *const ops[] = {[AA_EOR] = "EOR", [AA_ORR] = "ORR", [AA_AND] = "AND",
                                      [AA_BIC] = "BIC", [AA_ORN] = "ORN"};
    sb_puts(out, ins->op == AV_OP3 ? ops[x] : "ADD");
    for (int i = 0; i < 3; i++) {
      sb_putc(out, i ? ',' : ' ');
      pr_vreg(&o[i], out);
    }
    return;
  }
  case AV_LAST: break;
  }
  sb_puts(out, ins->text);
}
