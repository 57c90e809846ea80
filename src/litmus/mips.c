/*
 * mips.c — the MIPS front end: register names, the instruction parser and
 * the canonical printer used by the hash (layout documented in mips.h).
 */
#include "mips.h"

#include <string.h>

/* ------------------------------------------------------------ registers */

/* Conventional names of $0..$31, then $a4..$a7 (ids 32..35). */
static const char *const abi_names[36] = {
    "zero", "at", "v0", "v1", "a0", "a1", "a2", "a3", "t0", "t1", "t2", "t3",
    "t4",   "t5", "t6", "t7", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7",
    "t8",   "t9", "k0", "k1", "gp", "sp", "fp", "ra", "a4", "a5", "a6", "a7",
};

static const char *const printed[MIPS_NREGS] = {
    "$0",  "$1",  "$2",  "$3",  "$4",  "$5",  "$6",  "$7",  "$8",  "$9",
    "$10", "$11", "$12", "$13", "$14", "$15", "$16", "$17", "$18", "$19",
    "$20", "$21", "$22", "$23", "$24", "$25", "$26", "$27", "$28", "$29",
    "$30", "$31", "$a4", "$a5", "$a6", "$a7", "$hi", "$lo", "$res",
};

/* "$n", "$name" or the bare name (herd's parse_ireg). */
static int lookup_reg(const char *s, size_t n) {
  bool dollar = n > 1 && s[0] == '$';
  const char *b = dollar ? s + 1 : s;
  size_t bn = dollar ? n - 1 : n;
  for (int i = 0; i < 36; i++) {
    if (lit_word_is(abi_names[i], b, bn)) return i;
    if (dollar && i < 32 && lit_word_is(printed[i], s, n))
      return i;
  }
  return -1;
}

static int mips_parse_reg(const char *s) { return lookup_reg(s, strlen(s)); }

static const char *mips_reg_name(int reg) {
  return reg >= 0 && reg < MIPS_NREGS ? printed[reg] : "?";
}

/* ------------------------------------------------------------ mnemonics */

typedef enum Form { F_NONE, F_RRR, F_RRK, F_RK, F_RR, F_DEXT, F_LABEL, F_R, F_BC, F_BCZ, F_MEM } Form;

static const struct Mnemo {
  const char *name;
  MIPSOp op;
  Form form;
} mnemos[] = {
    {"nop", MIPS_NOP, F_NONE},       {"add", MIPS_ADD, F_RRR},
    {"addu", MIPS_ADDU, F_RRR},      {"daddu", MIPS_DADDU, F_RRR},
    {"sub", MIPS_SUB, F_RRR},        {"subu", MIPS_SUBU, F_RRR},
    {"slt", MIPS_SLT, F_RRR},        {"sltu", MIPS_SLTU, F_RRR},
    {"and", MIPS_AND, F_RRR},        {"or", MIPS_OR, F_RRR},
    {"xor", MIPS_XOR, F_RRR},        {"nor", MIPS_NOR, F_RRR},
    {"addi", MIPS_ADDI, F_RRK},      {"addiu", MIPS_ADDIU, F_RRK},
    {"daddiu", MIPS_DADDIU, F_RRK},  {"subi", MIPS_SUBI, F_RRK},
    {"subiu", MIPS_SUBIU, F_RRK},    {"slti", MIPS_SLTI, F_RRK},
    {"sltiu", MIPS_SLTIU, F_RRK},    {"andi", MIPS_ANDI, F_RRK},
    {"ori", MIPS_ORI, F_RRK},        {"xori", MIPS_XORI, F_RRK},
    {"dsll", MIPS_DSLL, F_RRK},      {"li", MIPS_LI, F_RK},
    {"lui", MIPS_LUI, F_RK},         {"move", MIPS_MOVE, F_RR},
    {"dext", MIPS_DEXT, F_DEXT},     {"b", MIPS_B, F_LABEL},
    {"jr", MIPS_JR, F_R},            {"beq", MIPS_BEQ, F_BC},
    {"bne", MIPS_BNE, F_BC},         {"blez", MIPS_BLEZ, F_BCZ},
    {"bgtz", MIPS_BGTZ, F_BCZ},      {"bltz", MIPS_BLTZ, F_BCZ},
    {"bgez", MIPS_BGEZ, F_BCZ},      {"lw", MIPS_LW, F_MEM},
    {"ld", MIPS_LD, F_MEM},          {"sw", MIPS_SW, F_MEM},
    {"ll", MIPS_LL, F_MEM},          {"sc", MIPS_SC, F_MEM},
    {"sync", MIPS_SYNC, F_NONE},
};

static const struct Mnemo *find_mnemo(const AsmScan *s) {
  if (s->tok.kind != AT_NAME) return NULL;
  for (size_t i = 0; i < ARRAY_LEN(mnemos); i++)
    if (strlen(mnemos[i].name) == s->tok.len &&
        memcmp(mnemos[i].name, s->tok.s, s->tok.len) == 0)
      return &mnemos[i];
  return NULL;
}

static const char *op_name(int op) {
  for (size_t i = 0; i < ARRAY_LEN(mnemos); i++)
    if ((int)mnemos[i].op == op) return mnemos[i].name;
  return "?";
}

/* --------------------------------------------------------------- parser */

/* A register: "$" glued to a number or name, a bare name, or %name. */
static void parse_reg(AsmScan *s, Instr *ins) {
  Operand *o = asm_add_op(s, ins, OPK_REG);
  if (s->tok.kind == AT_PCTNAME) {
    o->sreg = asm_tok_str(s);
  } else if (asm_is(s, '$')) {
    const char *d = s->tok.s;
    asm_next(s);
    bool glued = s->tok.s == d + 1 && (s->tok.kind == AT_NAME || s->tok.kind == AT_NUM);
    if (!glued || (o->reg = lookup_reg(d, s->tok.len + 1)) < 0)
      asm_error(s, "expected a register");
  } else if (s->tok.kind != AT_NAME || (o->reg = lookup_reg(s->tok.s, s->tok.len)) < 0) {
    asm_error(s, "expected a register");
  }
  asm_next(s);
}

static void parse_list(AsmScan *s, Instr *ins, const char *pat) {
  asm_parse_list(s, ins, pat, parse_reg);
}

/* rt, k(rs) or rt, (rs) */
static void parse_mem(AsmScan *s, Instr *ins) {
  parse_reg(s, ins);
  asm_expect(s, ',');
  int64_t k = s->tok.kind == AT_NUM ? asm_expect_num(s) : 0;
  asm_expect(s, '(');
  parse_reg(s, ins);
  Operand *m = &ins->ops[ins->nops - 1];
  m->kind = OPK_MEM;
  m->imm = k;
  asm_expect(s, ')');
}

static void parse_operands(AsmScan *s, Instr *ins, Form form) {
  switch (form) {
  case F_NONE: break;
  case F_RRR: parse_list(s, ins, "rrr"); break;
  case F_RRK: parse_list(s, ins, "rrk"); break;
  case F_RK: parse_list(s, ins, "rk"); break;
  case F_RR: parse_list(s, ins, "rr"); break;
  case F_DEXT: parse_list(s, ins, "rrkk"); break;
  case F_LABEL: asm_parse_label(s, ins); break;
  case F_R: parse_reg(s, ins); break;
  case F_BC: parse_list(s, ins, "rr"), asm_expect(s, ','), asm_parse_label(s, ins); break;
  case F_BCZ: parse_reg(s, ins), asm_expect(s, ','), asm_parse_label(s, ins); break;
  case F_MEM: parse_mem(s, ins); break;
  }
}

static Instr *mips_parse_instr(Arena *a, Err *err, const char *text, SrcPos pos) {
  AsmScan s;
  asm_scan_init(&s, a, err, "MIPS", text, pos);
  const struct Mnemo *m = find_mnemo(&s);
  if (!m) asm_unknown(&s);
  asm_next(&s);
  Instr *ins = asm_new_instr(&s, m->op);
  parse_operands(&s, ins, m->form);
  asm_expect_end(&s);
  return ins;
}

/* -------------------------------------------------------------- printer */

static void print_reg(const Operand *o, StrBuf *out) {
  if (o->sreg) sb_putc(out, '%'), sb_puts(out, o->sreg);
  else sb_puts(out, mips_reg_name(o->reg));
}

/* herd's dump: "op a,b,c", memory operands "k(rs)". */
static void mips_print_instr(const Instr *ins, StrBuf *out,
                             const char *(*rename)(void *, const char *),
                             void *ctx) {
  sb_puts(out, op_name(ins->op));
  for (int i = 0; i < ins->nops; i++) {
    const Operand *o = &ins->ops[i];
    sb_puts(out, i ? "," : " ");
    switch (o->kind) {
    case OPK_REG: print_reg(o, out); break;
    case OPK_IMM: sb_put_int(out, o->imm); break;
    case OPK_MEM:
      sb_put_int(out, o->imm);
      sb_putc(out, '(');
      print_reg(o, out);
      sb_putc(out, ')');
      break;
    case OPK_LABEL: sb_puts(out, asm_label_name(o, rename, ctx)); break;
    default: sb_putc(out, '?'); break;
    }
  }
}

static const int symb_regs[] = {2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13,
                                14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25};

const ArchOps mips_arch_ops = {
    .arch = ARCH_MIPS,
    .name = "MIPS",
    .word_bits = 64,
    .nregs = MIPS_NREGS,
    .parse_reg = mips_parse_reg,
    .reg_name = mips_reg_name,
    .parse_instr = mips_parse_instr,
    .print_instr = mips_print_instr,
    .semi_continues = NULL,
    .symb_regs = symb_regs,
    .nsymb_regs = (int)ARRAY_LEN(symb_regs),
};
