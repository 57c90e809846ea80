/*
 * aarch64.c — the AArch64 front end: register names, the instruction
 * parser and the canonical printer used by the hash (layout documented in
 * aarch64.h).
 */
#include "aarch64.h"

#include <ctype.h>
#include <string.h>

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
    "X0",  "X1",  "X2",  "X3",  "X4",  "X5",  "X6",  "X7",  "X8",
    "X9",  "X10", "X11", "X12", "X13", "X14", "X15", "X16", "X17",
    "X18", "X19", "X20", "X21", "X22", "X23", "X24", "X25", "X26",
    "X27", "X28", "X29", "X30", "XZR", "SP",  "NZCV", "RESADDR",
};

/* Upper-case copy of [s, s+n) into buf if the spelling is all upper or
 * all lower case (herd's lexer); false otherwise. */
static bool upcase(const char *s, size_t n, char *buf, size_t cap) {
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
  if (!upcase(s, n, buf, sizeof buf)) return -1;
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
  return k;
}

static int aarch64_parse_reg(const char *s) {
  int view;
  int r = lookup_reg(s, strlen(s), &view);
  return r == AA_ZR ? -1 : r;
}

static const char *aarch64_reg_name(int reg) {
  return reg >= 0 && reg < AA_NREGS ? x_names[reg] : "?";
}

/* ------------------------------------------------------------ mnemonics */

typedef enum Form {
  F_NONE, F_MOV, F_ALU, F_CMP, F_CSEL, F_LABEL, F_BCC, F_CB, F_LDST,
  F_BRACKET, F_STX, F_RRM, F_RM, F_BARRIER,
} Form;

/* Plain mnemonics; the access size of loads and stores without a B / H
 * suffix comes from the register (size -1 here). */
static const struct Mnemo {
  const char *name;
  AAOp op;
  Form form;
  int size;
} mnemos[] = {
    {"NOP", AA_NOP, F_NONE, -1},       {"MOV", AA_MOV, F_MOV, -1},
    {"ADD", AA_ADD, F_ALU, -1},        {"SUB", AA_SUB, F_ALU, -1},
    {"AND", AA_AND, F_ALU, -1},        {"ORR", AA_ORR, F_ALU, -1},
    {"EOR", AA_EOR, F_ALU, -1},        {"CMP", AA_CMP, F_CMP, -1},
    {"CSEL", AA_CSEL, F_CSEL, -1},     {"B", AA_B, F_LABEL, -1},
    {"CBZ", AA_CBZ, F_CB, -1},         {"CBNZ", AA_CBNZ, F_CB, -1},
    {"DMB", AA_DMB, F_BARRIER, -1},    {"DSB", AA_DSB, F_BARRIER, -1},
    {"ISB", AA_ISB, F_NONE, -1},       {"LDR", AA_LDR, F_LDST, -1},
    {"LDRB", AA_LDR, F_LDST, 0},       {"LDRH", AA_LDR, F_LDST, 1},
    {"STR", AA_STR, F_LDST, -1},       {"STRB", AA_STR, F_LDST, 0},
    {"STRH", AA_STR, F_LDST, 1},       {"LDAR", AA_LDAR, F_BRACKET, -1},
    {"LDARB", AA_LDAR, F_BRACKET, 0},  {"LDARH", AA_LDAR, F_BRACKET, 1},
    {"LDAPR", AA_LDAPR, F_BRACKET, -1}, {"LDAPRB", AA_LDAPR, F_BRACKET, 0},
    {"LDAPRH", AA_LDAPR, F_BRACKET, 1}, {"STLR", AA_STLR, F_BRACKET, -1},
    {"STLRB", AA_STLR, F_BRACKET, 0},  {"STLRH", AA_STLR, F_BRACKET, 1},
    {"LDXR", AA_LDXR, F_BRACKET, -1},  {"LDXRB", AA_LDXR, F_BRACKET, 0},
    {"LDXRH", AA_LDXR, F_BRACKET, 1},  {"LDAXR", AA_LDAXR, F_BRACKET, -1},
    {"LDAXRB", AA_LDAXR, F_BRACKET, 0}, {"LDAXRH", AA_LDAXR, F_BRACKET, 1},
    {"STXR", AA_STXR, F_STX, -1},      {"STXRB", AA_STXR, F_STX, 0},
    {"STXRH", AA_STXR, F_STX, 1},      {"STLXR", AA_STLXR, F_STX, -1},
    {"STLXRB", AA_STLXR, F_STX, 0},    {"STLXRH", AA_STLXR, F_STX, 1},
};

static const char *const aop_names[] = {"ADD",  "EOR",  "SET",  "CLR",
                                        "SMAX", "SMIN", "UMAX", "UMIN"};
static const char *const mo_names[] = {"", "A", "L", "AL"};
static const char *const size_suffix[] = {"B", "H", "", ""};

typedef struct Decoded {
  AAOp op;
  Form form;
  int size;      /* -1: from the register */
  uint32_t mo, aop;
} Decoded;

/* rest = ordering suffix then size suffix; ST<op> has no acquire form. */
static bool decode_suffix(const char *rest, bool store_only, Decoded *d) {
  for (int mo = AA_MO_AL; mo >= 0; mo--) {
    size_t n = strlen(mo_names[mo]);
    if (strncmp(rest, mo_names[mo], n) != 0) continue;
    if (store_only && (mo == AA_MO_A || mo == AA_MO_AL)) continue;
    const char *sz = rest + n;
    if (strcmp(sz, "") == 0) d->size = -1;
    else if (strcmp(sz, "B") == 0) d->size = 0;
    else if (strcmp(sz, "H") == 0) d->size = 1;
    else continue;
    d->mo = (uint32_t)mo;
    return true;
  }
  return false;
}

/* CAS, SWP, LD<op>, ST<op>, each with ordering and size suffixes. */
static bool decode_atomic(const char *u, Decoded *d) {
  if (strncmp(u, "CAS", 3) == 0) {
    d->op = AA_CAS, d->form = F_RRM;
    return decode_suffix(u + 3, false, d);
  }
  if (strncmp(u, "SWP", 3) == 0) {
    d->op = AA_SWP, d->form = F_RRM;
    return decode_suffix(u + 3, false, d);
  }
  bool ld = strncmp(u, "LD", 2) == 0, st = strncmp(u, "ST", 2) == 0;
  if (!ld && !st) return false;
  for (size_t k = 0; k < ARRAY_LEN(aop_names); k++) {
    size_t n = strlen(aop_names[k]);
    if (strncmp(u + 2, aop_names[k], n) != 0) continue;
    d->op = ld ? AA_LDOP : AA_STOP;
    d->form = ld ? F_RRM : F_RM;
    d->aop = (uint32_t)k;
    if (decode_suffix(u + 2 + n, st, d)) return true;
  }
  return false;
}

static bool decode(const AsmScan *s, Decoded *d) {
  char u[16];
  if (s->tok.kind != AT_NAME || !upcase(s->tok.s, s->tok.len, u, sizeof u))
    return false;
  memset(d, 0, sizeof *d);
  for (size_t i = 0; i < ARRAY_LEN(mnemos); i++)
    if (strcmp(u, mnemos[i].name) == 0) {
      d->op = mnemos[i].op;
      d->form = mnemos[i].form;
      d->size = mnemos[i].size;
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

static Operand *parse_reg(AsmScan *s, Instr *ins) {
  Operand *o = asm_add_op(s, ins, OPK_REG);
  int view = AA_X;
  if (s->tok.kind != AT_NAME || (o->reg = lookup_reg(s->tok.s, s->tok.len, &view)) < 0)
    asm_error(s, "expected a register");
  o->sub = (uint8_t)view;
  asm_next(s);
  return o;
}

static void parse_reg_op(AsmScan *s, Instr *ins) { parse_reg(s, ins); }

/* #k */
static int64_t parse_imm(AsmScan *s) {
  asm_expect(s, '#');
  return asm_expect_num(s);
}

static void parse_op2(AsmScan *s, Instr *ins) {
  if (s->tok.kind == AT_NUM) asm_error(s, "an immediate is written #k");
  if (asm_is(s, '#')) asm_add_op(s, ins, OPK_IMM)->imm = parse_imm(s);
  else parse_reg(s, ins);
}

/* The index part of [Xn,Rm{,LSL #k|,SXTW|,UXTW}]. */
static void parse_index(AsmScan *s, Operand *m) {
  int view = AA_X;
  if (s->tok.kind != AT_NAME || (m->reg2 = lookup_reg(s->tok.s, s->tok.len, &view)) < 0)
    asm_error(s, "expected an offset register or #k");
  asm_next(s);
  m->sub = AA_AM_REG;
  if (asm_accept(s, ',')) {
    if (tok_upper_is(s, "LSL")) m->sub = AA_AM_LSL;
    else if (tok_upper_is(s, "SXTW")) m->sub = AA_AM_SXTW;
    else if (tok_upper_is(s, "UXTW")) m->sub = AA_AM_UXTW;
    else asm_error(s, "expected LSL, SXTW or UXTW");
    asm_next(s);
    if (m->sub == AA_AM_LSL) m->imm2 = parse_imm(s);
    else if (asm_is(s, '#')) m->imm2 = parse_imm(s);
  }
  bool wide = m->sub == AA_AM_REG || m->sub == AA_AM_LSL;
  if (wide != (view == AA_X))
    asm_error(s, wide ? "a shifted offset register must be an X register"
                      : "an extended offset register must be a W register");
}

/* ADDR of litmus.md §7.4; `simple`: only [Xn] (acquire, release,
 * exclusive and atomic accesses). */
static void parse_addr(AsmScan *s, Instr *ins, bool simple) {
  asm_expect(s, '[');
  int view = AA_X;
  int base = s->tok.kind == AT_NAME ? lookup_reg(s->tok.s, s->tok.len, &view) : -1;
  if (base >= 0 && (view != AA_X || base == AA_ZR))
    asm_error(s, "the base register must be an X register or SP");
  Operand *m = parse_reg(s, ins);
  m->kind = OPK_MEM;
  m->sub = AA_AM_IMM;
  if (asm_accept(s, ',')) {
    if (simple) {
      if (!asm_is(s, '#')) asm_error(s, "expected #0");
      if (parse_imm(s) != 0) asm_error(s, "the offset must be #0");
    } else if (asm_is(s, '#')) {
      m->imm = parse_imm(s);
    } else {
      parse_index(s, m);
    }
  }
  asm_expect(s, ']');
  if (simple) return;
  if (m->sub == AA_AM_IMM && asm_accept(s, '!')) {
    m->sub = AA_AM_PRE;
  } else if (m->sub == AA_AM_IMM && m->imm == 0 && asm_accept(s, ',')) {
    m->sub = AA_AM_POST;
    m->imm = parse_imm(s);
  }
}

static void parse_cond(AsmScan *s, Instr *ins, const char *name, size_t n) {
  char u[8];
  for (size_t i = 0; i < ARRAY_LEN(aarch64_cond_names); i++)
    if (upcase(name, n, u, sizeof u) && strcmp(u, aarch64_cond_names[i]) == 0) {
      asm_add_op(s, ins, OPK_COND)->imm = (int64_t)i;
      return;
    }
  asm_error(s, "unknown condition '%.*s'", (int)n, name);
}

static void parse_barrier(AsmScan *s, Instr *ins) {
  Operand *o = asm_add_op(s, ins, OPK_IMM);
  char u[8];
  if (s->tok.kind == AT_NAME && upcase(s->tok.s, s->tok.len, u, sizeof u))
    for (size_t i = 0; i < ARRAY_LEN(aarch64_barrier_names); i++)
      if (strcmp(u, aarch64_barrier_names[i]) == 0) {
        o->imm = (int64_t)i;
        asm_next(s);
        return;
      }
  asm_error(s, "expected a barrier option (SY, ST, LD, ISH, ISHST, ...)");
}

/* Operands of the same width: the sources of an ALU operation, CAS... */
static void check_views(AsmScan *s, const Instr *ins) {
  for (int i = 1; i < ins->nops; i++)
    if (ins->ops[i].kind == OPK_REG && ins->ops[i].sub != ins->ops[0].sub)
      asm_error(s, "registers of different widths");
}

static void parse_operands(AsmScan *s, Instr *ins, Form form) {
  switch (form) {
  case F_NONE: break;
  case F_MOV: case F_CMP:
    parse_reg(s, ins), asm_expect(s, ','), parse_op2(s, ins);
    check_views(s, ins);
    break;
  case F_ALU:
    asm_parse_list(s, ins, "rr", parse_reg_op);
    asm_expect(s, ',');
    parse_op2(s, ins);
    check_views(s, ins);
    break;
  case F_CSEL: {
    asm_parse_list(s, ins, "rrr", parse_reg_op);
    check_views(s, ins);
    asm_expect(s, ',');
    if (s->tok.kind != AT_NAME) asm_error(s, "expected a condition");
    parse_cond(s, ins, s->tok.s, s->tok.len);
    asm_next(s);
    break;
  }
  case F_LABEL: asm_parse_label(s, ins); break;
  case F_CB: parse_reg(s, ins), asm_expect(s, ','), asm_parse_label(s, ins); break;
  case F_LDST: parse_reg(s, ins), asm_expect(s, ','), parse_addr(s, ins, false); break;
  case F_BRACKET: parse_reg(s, ins), asm_expect(s, ','), parse_addr(s, ins, true); break;
  case F_STX:
  case F_RRM:
    asm_parse_list(s, ins, "rr", parse_reg_op);
    asm_expect(s, ',');
    parse_addr(s, ins, true);
    if (form == F_RRM) check_views(s, ins);
    else if (ins->ops[0].sub != AA_W) asm_error(s, "the status register must be a W register");
    break;
  case F_RM: parse_reg(s, ins), asm_expect(s, ','), parse_addr(s, ins, true); break;
  case F_BARRIER: parse_barrier(s, ins); break;
  case F_BCC: break; /* handled by the caller */
  }
}

/* The register whose view gives the access size. */
static const Operand *data_reg(const Instr *ins) {
  return ins->op == AA_STXR || ins->op == AA_STLXR ? &ins->ops[1] : &ins->ops[0];
}

static Instr *aarch64_parse_instr(Arena *a, Err *err, const char *text,
                                  SrcPos pos) {
  AsmScan s;
  asm_scan_init(&s, a, err, "AArch64", text, pos);
  Decoded d;
  if (!decode(&s, &d)) asm_unknown(&s);
  Instr *ins = asm_new_instr(&s, d.op);
  if (d.form == F_BCC) {
    parse_cond(&s, ins, s.tok.s + 2, s.tok.len - 2);
    asm_next(&s);
    asm_parse_label(&s, ins);
  } else {
    asm_next(&s);
    parse_operands(&s, ins, d.form);
  }
  asm_expect_end(&s);
  int size = d.size;
  bool memory = d.op >= AA_LDR && d.op <= AA_STOP;
  if (memory) {
    const Operand *r = data_reg(ins);
    if (size < 0) size = r->sub == AA_W ? 2 : 3;
    else if (r->sub != AA_W)
      err_raise(err, ERRK_SYNTAX, pos,
                "AArch64 instruction '%s': a byte or halfword access takes a W register",
                text);
  }
  ins->flags = AA_MAKE_FLAGS(size < 0 ? 3 : size, d.mo, d.aop);
  return ins;
}

/* -------------------------------------------------------------- printer */

static void print_reg(const Operand *o, StrBuf *out) {
  if (o->reg == AA_ZR) sb_puts(out, o->sub == AA_W ? "WZR" : "XZR");
  else if (o->reg == AA_SP) sb_puts(out, "SP");
  else sb_putc(out, o->sub == AA_W ? 'W' : 'X'), sb_put_int(out, o->reg);
}

static void print_index(int reg, char view, StrBuf *out) {
  sb_putc(out, view);
  sb_put_int(out, reg);
}

/* sep, then "#" and the immediate */
static void print_imm(const char *sep, int64_t k, StrBuf *out) {
  sb_puts(out, sep);
  sb_putc(out, '#');
  sb_put_int(out, k);
}

static void print_addr(const Operand *m, StrBuf *out) {
  Operand base = *m;
  base.kind = OPK_REG;
  base.sub = AA_X;
  sb_putc(out, '[');
  print_reg(&base, out);
  switch ((AAAddrMode)m->sub) {
  case AA_AM_IMM:
    if (m->imm != 0) print_imm(",", m->imm, out);
    sb_putc(out, ']');
    break;
  case AA_AM_PRE:
    print_imm(",", m->imm, out);
    sb_puts(out, "]!");
    break;
  case AA_AM_POST: print_imm("]", m->imm, out); break;
  case AA_AM_REG:
  case AA_AM_LSL:
    sb_putc(out, ',');
    print_index(m->reg2, 'X', out);
    if (m->sub == AA_AM_LSL && m->imm2 != 0) print_imm(",LSL ", m->imm2, out);
    sb_putc(out, ']');
    break;
  case AA_AM_SXTW:
  case AA_AM_UXTW:
    sb_putc(out, ',');
    print_index(m->reg2, 'W', out);
    sb_puts(out, m->sub == AA_AM_SXTW ? ",SXTW" : ",UXTW");
    if (m->imm2 != 0) print_imm(" ", m->imm2, out);
    sb_putc(out, ']');
    break;
  }
}

static const char *const base_names[] = {
    [AA_NOP] = "NOP",     [AA_MOV] = "MOV",     [AA_ADD] = "ADD",
    [AA_SUB] = "SUB",     [AA_AND] = "AND",     [AA_ORR] = "ORR",
    [AA_EOR] = "EOR",     [AA_CMP] = "CMP",     [AA_CSEL] = "CSEL",
    [AA_B] = "B",         [AA_BCC] = "B.",      [AA_CBZ] = "CBZ",
    [AA_CBNZ] = "CBNZ",   [AA_LDR] = "LDR",     [AA_STR] = "STR",
    [AA_LDAR] = "LDAR",   [AA_LDAPR] = "LDAPR", [AA_STLR] = "STLR",
    [AA_LDXR] = "LDXR",   [AA_LDAXR] = "LDAXR", [AA_STXR] = "STXR",
    [AA_STLXR] = "STLXR", [AA_CAS] = "CAS",     [AA_SWP] = "SWP",
    [AA_LDOP] = "LD",     [AA_STOP] = "ST",     [AA_DMB] = "DMB",
    [AA_DSB] = "DSB",     [AA_ISB] = "ISB",
};

/* The mnemonic: base, LD/ST operation, ordering, size suffix. */
static void print_mnemonic(const Instr *ins, StrBuf *out) {
  sb_puts(out, base_names[ins->op]);
  bool memory = ins->op >= AA_LDR && ins->op <= AA_STOP;
  if (ins->op == AA_LDOP || ins->op == AA_STOP)
    sb_puts(out, aop_names[AA_FLAG_AOP(ins->flags)]);
  if (ins->op >= AA_CAS && ins->op <= AA_STOP)
    sb_puts(out, mo_names[AA_FLAG_MO(ins->flags)]);
  if (memory) sb_puts(out, size_suffix[AA_FLAG_SIZE(ins->flags)]);
}

static void aarch64_print_instr(const Instr *ins, StrBuf *out,
                                const char *(*rename)(void *, const char *),
                                void *ctx) {
  print_mnemonic(ins, out);
  if (ins->op == AA_BCC) {
    sb_puts(out, aarch64_cond_names[ins->ops[0].imm]);
    sb_putc(out, ' ');
    sb_puts(out, asm_label_name(&ins->ops[1], rename, ctx));
    return;
  }
  for (int i = 0; i < ins->nops; i++) {
    const Operand *o = &ins->ops[i];
    sb_putc(out, i == 0 ? ' ' : ',');
    switch ((OperandKind)o->kind) {
    case OPK_REG: print_reg(o, out); break;
    case OPK_MEM: print_addr(o, out); break;
    case OPK_LABEL: sb_puts(out, asm_label_name(o, rename, ctx)); break;
    case OPK_COND: sb_puts(out, aarch64_cond_names[o->imm]); break;
    case OPK_IMM:
      if (ins->op == AA_DMB || ins->op == AA_DSB)
        sb_puts(out, aarch64_barrier_names[o->imm]);
      else
        print_imm("", o->imm, out);
      break;
    default: sb_putc(out, '?'); break;
    }
  }
}

/* herd's allocation order for symbolic registers (unused: the parser
 * does not accept them). */
static const int symb_regs[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,
                                10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
                                20, 21, 22, 23, 24, 25, 26, 27, 28};

const ArchOps aarch64_arch_ops = {
    .arch = ARCH_AARCH64,
    .name = "AArch64",
    .word_bits = 64,
    .nregs = AA_NREGS,
    .parse_reg = aarch64_parse_reg,
    .reg_name = aarch64_reg_name,
    .parse_instr = aarch64_parse_instr,
    .print_instr = aarch64_print_instr,
    .semi_continues = NULL,
    .symb_regs = symb_regs,
    .nsymb_regs = (int)ARRAY_LEN(symb_regs),
};
