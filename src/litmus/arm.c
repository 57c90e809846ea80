/*
 * arm.c — the ARM (AArch32) front end: register names, the instruction
 * parser and the canonical printer used by the hash (layout in arm.h).
 */
#include "arm.h"

#include <ctype.h>
#include <string.h>

/* ------------------------------------------------------------ registers */

static const char *const reg_names[ARM_NREGS] = {
    "R0", "R1", "R2",  "R3", "R4", "R5", "R6", "R7", "R8",      "R9",
    "R10", "R11", "R12", "SP", "FP", "LR", "PC", "Z",  "RESADDR",
};

/* Case-insensitive, as herd's ARM lexer; Z and RESADDR are internal. */
static int lookup_reg(const char *s, size_t n) {
  char buf[8];
  if (n + 1 > sizeof buf) return -1;
  for (size_t i = 0; i < n; i++) buf[i] = (char)toupper((unsigned char)s[i]);
  buf[n] = 0;
  if (strcmp(buf, "IP") == 0) return 12;
  for (int i = 0; i < ARM_Z; i++)
    if (strcmp(reg_names[i], buf) == 0) return i;
  return -1;
}

static int arm_parse_reg(const char *s) { return lookup_reg(s, strlen(s)); }

static const char *arm_reg_name(int reg) {
  return reg >= 0 && reg < ARM_NREGS ? reg_names[reg] : "?";
}

/* ------------------------------------------------------------ mnemonics */

typedef enum Form {
  F_NONE, F_RRO, F_RRR, F_RO, F_RK, F_LABEL, F_RLABEL, F_R, F_LDST,
  F_EXCL, F_BRACKET, F_STREX, F_LDRD, F_LDM, F_PUSH, F_BARRIER, F_ANDEQ,
} Form;

#define EQ ARM_MAKE_COND(ARM_EQ)
#define NE ARM_MAKE_COND(ARM_NE)

static const struct Mnemo {
  const char *name; /* upper case; the lower-case spelling is accepted */
  ARMOp op;
  Form form;
  uint32_t flags;
} mnemos[] = {
    {"NOP", ARM_NOP, F_NONE, 0},         {"ADD", ARM_ADD, F_RRO, 0},
    {"ADDS", ARM_ADD, F_RRO, ARM_F_S},   {"SUB", ARM_SUB, F_RRO, 0},
    {"SUBS", ARM_SUB, F_RRO, ARM_F_S},   {"AND", ARM_AND, F_RRO, 0},
    {"ANDS", ARM_AND, F_RRO, ARM_F_S},   {"ORR", ARM_ORR, F_RRO, 0},
    {"EOR", ARM_EOR, F_RRR, 0},          {"XOR", ARM_EOR, F_RRR, 0},
    {"EORS", ARM_EOR, F_RRR, ARM_F_S},   {"ANDEQ", ARM_ANDC, F_ANDEQ, EQ},
    {"CMP", ARM_CMP, F_RO, 0},           {"MOV", ARM_MOV, F_RO, 0},
    {"MOVEQ", ARM_MOV, F_RO, EQ},        {"MOVNE", ARM_MOV, F_RO, NE},
    {"MOVW", ARM_MOVW, F_RK, 0},         {"MOVWEQ", ARM_MOVW, F_RK, EQ},
    {"MOVT", ARM_MOVT, F_RK, 0},         {"MOVTEQ", ARM_MOVT, F_RK, EQ},
    {"B", ARM_B, F_LABEL, 0},            {"BEQ", ARM_BEQ, F_LABEL, 0},
    {"BNE", ARM_BNE, F_LABEL, 0},        {"CBZ", ARM_CBZ, F_RLABEL, 0},
    {"CBNZ", ARM_CBNZ, F_RLABEL, 0},     {"BX", ARM_BX, F_R, 0},
    {"LDR", ARM_LDR, F_LDST, 0},         {"LDREQ", ARM_LDR, F_LDST, EQ},
    {"LDRNE", ARM_LDR, F_LDST, NE},      {"STR", ARM_STR, F_LDST, 0},
    {"STREQ", ARM_STR, F_LDST, EQ},      {"STRNE", ARM_STR, F_LDST, NE},
    {"LDREX", ARM_LDREX, F_EXCL, 0},     {"LDA", ARM_LDA, F_BRACKET, 0},
    {"LDAEX", ARM_LDAEX, F_BRACKET, 0},  {"STL", ARM_STL, F_BRACKET, 0},
    {"STREX", ARM_STREX, F_STREX, 0},    {"STLEX", ARM_STLEX, F_STREX, 0},
    {"LDRD", ARM_LDRD, F_LDRD, 0},       {"LDM", ARM_LDM, F_LDM, 0},
    {"LDMIB", ARM_LDMIB, F_LDM, 0},      {"PUSH", ARM_NOP, F_PUSH, 0},
    {"POP", ARM_NOP, F_PUSH, 0},         {"DMB", ARM_DMB, F_BARRIER, 0},
    {"DSB", ARM_DSB, F_BARRIER, 0},      {"ISB", ARM_ISB, F_NONE, 0},
    {"SADD16", ARM_SADD16, F_RRR, 0},    {"SEL", ARM_SEL, F_RRR, 0},
};

#undef EQ
#undef NE

/* The printed base mnemonic of each opcode (before S and condition). */
static const char *const base_names[] = {
    [ARM_NOP] = "NOP",     [ARM_ADD] = "ADD",     [ARM_SUB] = "SUB",
    [ARM_AND] = "AND",     [ARM_ORR] = "ORR",     [ARM_EOR] = "EOR",
    [ARM_ANDC] = "AND",    [ARM_CMP] = "CMP",     [ARM_MOV] = "MOV",
    [ARM_MOVW] = "MOVW",   [ARM_MOVT] = "MOVT",   [ARM_B] = "B",
    [ARM_BEQ] = "BEQ",     [ARM_BNE] = "BNE",     [ARM_CBZ] = "CBZ",
    [ARM_CBNZ] = "CBNZ",   [ARM_BX] = "BX",       [ARM_LDR] = "LDR",
    [ARM_STR] = "STR",     [ARM_LDREX] = "LDREX", [ARM_LDA] = "LDA",
    [ARM_LDAEX] = "LDAEX", [ARM_STL] = "STL",     [ARM_STREX] = "STREX",
    [ARM_STLEX] = "STLEX", [ARM_LDRD] = "LDRD",   [ARM_LDM] = "LDM",
    [ARM_LDMIB] = "LDMIB", [ARM_DMB] = "DMB",     [ARM_DSB] = "DSB",
    [ARM_ISB] = "ISB",     [ARM_SADD16] = "SADD16", [ARM_SEL] = "SEL",
};

static const char *const opt_names[] = {"SY",  "ST",    "ISH", "ISHST",
                                        "NSH", "NSHST", "OSH", "OSHST"};

static const struct Mnemo *find_mnemo(const AsmScan *s) {
  if (s->tok.kind != AT_NAME) return NULL;
  for (size_t i = 0; i < ARRAY_LEN(mnemos); i++)
    if (asm_upper_or_lower(mnemos[i].name, s->tok.s, s->tok.len)) return &mnemos[i];
  return NULL;
}

/* --------------------------------------------------------------- parser */

static Operand *parse_reg(AsmScan *s, Instr *ins) {
  Operand *o = asm_add_op(s, ins, OPK_REG);
  if (s->tok.kind == AT_PCTNAME)
    o->sreg = asm_tok_str(s);
  else if (s->tok.kind != AT_NAME || (o->reg = lookup_reg(s->tok.s, s->tok.len)) < 0)
    asm_error(s, "expected a register");
  asm_next(s);
  return o;
}

static bool at_imm(const AsmScan *s) {
  return asm_is(s, '#') || s->tok.kind == AT_NUM;
}

/* #k or k */
static int64_t parse_k(AsmScan *s) {
  asm_accept(s, '#');
  return asm_expect_num(s);
}

static void parse_op2(AsmScan *s, Instr *ins) {
  if (at_imm(s)) asm_add_op(s, ins, OPK_IMM)->imm = parse_k(s);
  else parse_reg(s, ins);
}

/* [Rn], [Rn,#k], [Rn,Rm], [Rn,Rm,LSL #k]; bare Rn when `bare`. */
static Operand *parse_addr(AsmScan *s, Instr *ins, bool bare) {
  bool brk = asm_accept(s, '[');
  if (!brk && !bare) asm_error(s, "expected '['");
  Operand *m = parse_reg(s, ins);
  m->kind = OPK_MEM;
  m->sub = ARM_AM_BASE;
  if (brk && asm_accept(s, ',')) {
    if (at_imm(s)) {
      m->sub = ARM_AM_IMM;
      m->imm = parse_k(s);
    } else {
      if (s->tok.kind == AT_PCTNAME) m->sreg2 = asm_tok_str(s);
      else if (s->tok.kind != AT_NAME || (m->reg2 = lookup_reg(s->tok.s, s->tok.len)) < 0)
        asm_error(s, "expected a register");
      asm_next(s);
      m->sub = ARM_AM_REG;
      if (asm_accept(s, ',')) {
        if (!asm_upper_or_lower("LSL", s->tok.s, s->tok.kind == AT_NAME ? s->tok.len : 0))
          asm_error(s, "expected LSL");
        asm_next(s);
        m->sub = ARM_AM_LSL;
        m->imm2 = parse_k(s);
      }
    }
  }
  if (brk) asm_expect(s, ']');
  return m;
}

/* {R1,R2[,R3]} */
static void parse_reglist(AsmScan *s, Instr *ins, int max) {
  asm_expect(s, '{');
  int n = 0;
  do {
    parse_reg(s, ins);
    n++;
  } while (n < max && asm_accept(s, ','));
  asm_expect(s, '}');
}

static void parse_barrier(AsmScan *s, Instr *ins) {
  Operand *o = asm_add_op(s, ins, OPK_IMM);
  o->imm = ARM_OPT_SY;
  if (s->tok.kind == AT_END) return;
  for (size_t i = 0; i < ARRAY_LEN(opt_names); i++)
    if (asm_upper_or_lower(opt_names[i], s->tok.s, s->tok.kind == AT_NAME ? s->tok.len : 0)) {
      o->imm = (int64_t)i;
      asm_next(s);
      return;
    }
  asm_error(s, "expected a barrier option");
}

static void parse_ldrd(AsmScan *s, Instr *ins) {
  Operand *rt = parse_reg(s, ins);
  asm_expect(s, ',');
  if (!asm_is(s, '[')) {
    parse_reg(s, ins);
    asm_expect(s, ',');
  } else if (rt->sreg || rt->reg >= 12) {
    asm_error(s, "LDRD Rt,[Rn] needs Rt in R0..R11");
  } else {
    asm_add_op(s, ins, OPK_REG)->reg = rt->reg + 1;
  }
  Operand *m = parse_addr(s, ins, false);
  if (m->sub == ARM_AM_REG || m->sub == ARM_AM_LSL)
    asm_error(s, "LDRD takes [Rn] or [Rn,#k]");
}

static void parse_ldst(AsmScan *s, Instr *ins) {
  parse_reg(s, ins);
  asm_expect(s, ',');
  Operand *m = parse_addr(s, ins, true);
  bool cond = ARM_FLAG_COND(ins->flags) != ARM_AL;
  if (cond && (m->sub == ARM_AM_IMM || m->sub == ARM_AM_LSL))
    asm_error(s, "a conditional access takes [Rn] or [Rn,Rm]");
}

static void parse_operands(AsmScan *s, Instr *ins, Form form) {
  switch (form) {
  case F_NONE: break;
  case F_RRO: parse_reg(s, ins), asm_expect(s, ','), parse_reg(s, ins), asm_expect(s, ','), parse_op2(s, ins); break;
  case F_RRR:
  case F_ANDEQ: parse_reg(s, ins), asm_expect(s, ','), parse_reg(s, ins), asm_expect(s, ','), parse_reg(s, ins); break;
  case F_RO: parse_reg(s, ins), asm_expect(s, ','), parse_op2(s, ins); break;
  case F_RK: parse_reg(s, ins), asm_expect(s, ','), asm_add_op(s, ins, OPK_IMM)->imm = parse_k(s); break;
  case F_LABEL: asm_parse_label(s, ins); break;
  case F_RLABEL: parse_reg(s, ins), asm_expect(s, ','), asm_parse_label(s, ins); break;
  case F_R: parse_reg(s, ins); break;
  case F_LDST: parse_ldst(s, ins); break;
  case F_EXCL:
  case F_BRACKET:
    parse_reg(s, ins), asm_expect(s, ',');
    if (parse_addr(s, ins, form == F_EXCL)->sub != ARM_AM_BASE) asm_error(s, "expected [Rn]");
    break;
  case F_STREX:
    parse_reg(s, ins), asm_expect(s, ','), parse_reg(s, ins), asm_expect(s, ',');
    if (parse_addr(s, ins, false)->sub != ARM_AM_BASE) asm_error(s, "expected [Rn]");
    break;
  case F_LDRD: parse_ldrd(s, ins); break;
  case F_LDM:
    parse_reg(s, ins), asm_expect(s, ',');
    parse_reglist(s, ins, ins->op == ARM_LDM ? 3 : 2);
    if (ins->nops < 3) asm_error(s, "expected two or three registers");
    break;
  case F_PUSH: parse_reglist(s, ins, 2), ins->nops = 0; break;
  case F_BARRIER: parse_barrier(s, ins); break;
  }
}

/* herd reads ANDEQ R,R,R (all three equal) as a NOP. */
static bool andeq_is_nop(const Instr *ins) {
  const Operand *o = ins->ops;
  return !o[0].sreg && !o[1].sreg && !o[2].sreg && o[0].reg == o[1].reg &&
         o[1].reg == o[2].reg;
}

static Instr *arm_parse_instr(Arena *a, Err *err, const char *text, SrcPos pos) {
  AsmScan s;
  asm_scan_init(&s, a, err, "ARM", text, pos);
  const struct Mnemo *m = find_mnemo(&s);
  if (!m) asm_unknown(&s);
  asm_next(&s);
  Instr *ins = asm_new_instr(&s, m->op);
  ins->flags = m->flags;
  parse_operands(&s, ins, m->form);
  asm_expect_end(&s);
  if (m->form == F_ANDEQ && andeq_is_nop(ins)) {
    ins->op = ARM_NOP;
    ins->nops = 0;
    ins->flags = 0;
  }
  return ins;
}

/* -------------------------------------------------------------- printer */

static void print_reg(const Operand *o, StrBuf *out) {
  if (o->sreg) sb_putc(out, '%'), sb_puts(out, o->sreg);
  else sb_puts(out, arm_reg_name(o->reg));
}

/* sep, then "#" and the immediate */
static void print_imm(const char *sep, int64_t k, StrBuf *out) {
  sb_puts(out, sep);
  sb_putc(out, '#');
  sb_put_int(out, k);
}

static void print_op(const Operand *o, StrBuf *out) {
  if (o->kind == OPK_IMM) print_imm("", o->imm, out);
  else print_reg(o, out);
}

static void print_addr(const Operand *m, StrBuf *out) {
  sb_putc(out, '[');
  print_reg(m, out);
  switch ((ARMAddrMode)m->sub) {
  case ARM_AM_BASE: break;
  case ARM_AM_IMM: print_imm(",", m->imm, out); break;
  case ARM_AM_REG:
  case ARM_AM_LSL:
    sb_puts(out, ",");
    if (m->sreg2) sb_putc(out, '%'), sb_puts(out, m->sreg2);
    else sb_puts(out, arm_reg_name(m->reg2));
    if (m->sub == ARM_AM_LSL) print_imm(",lsl ", m->imm2, out);
    break;
  }
  sb_putc(out, ']');
}

/* Mnemonic, S, condition: herd's pp_memo / pp_memoc. */
static void print_mnemo(const Instr *ins, StrBuf *out) {
  static const char *const cc[] = {"", "EQ", "NE"};
  sb_puts(out, base_names[ins->op]);
  if (ins->flags & ARM_F_S) sb_putc(out, 'S');
  sb_puts(out, cc[ARM_FLAG_COND(ins->flags)]);
}

/* The forms herd prints with spaces or without a separator. */
static bool print_special(const Instr *ins, StrBuf *out) {
  const Operand *o = ins->ops;
  switch ((ARMOp)ins->op) {
  case ARM_ANDC:
    sb_puts(out, "ANDEQ ");
    print_reg(&o[0], out), sb_puts(out, ", ");
    print_reg(&o[1], out), sb_puts(out, ", ");
    print_reg(&o[2], out);
    return true;
  case ARM_MOVW: /* no space before the register: "MOVWR0, #5" */
  case ARM_MOVT: /* "MOVT " + condition: "MOVT EQR0, #5" */
    sb_puts(out, base_names[ins->op]);
    if (ins->op == ARM_MOVT) sb_putc(out, ' ');
    sb_puts(out, ARM_FLAG_COND(ins->flags) == ARM_EQ ? "EQ" : "");
    print_reg(&o[0], out);
    print_imm(", ", o[1].imm, out);
    return true;
  case ARM_LDRD:
    sb_puts(out, "LDRD ");
    print_reg(&o[0], out), sb_puts(out, ", ");
    print_reg(&o[1], out), sb_puts(out, ", [");
    print_reg(&o[2], out);
    if (o[2].sub == ARM_AM_IMM) print_imm(", ", o[2].imm, out);
    sb_putc(out, ']');
    return true;
  case ARM_LDM:
  case ARM_LDMIB:
    sb_puts(out, base_names[ins->op]);
    sb_putc(out, ' ');
    print_reg(&o[0], out);
    sb_puts(out, ", {");
    for (int i = 1; i < ins->nops; i++) {
      if (i > 1) sb_putc(out, ',');
      print_reg(&o[i], out);
    }
    sb_putc(out, '}');
    return true;
  case ARM_DMB:
  case ARM_DSB:
    sb_puts(out, base_names[ins->op]);
    if (o[0].imm != ARM_OPT_SY) sb_putc(out, ' '), sb_puts(out, opt_names[o[0].imm]);
    return true;
  default: return false;
  }
}

static void arm_print_instr(const Instr *ins, StrBuf *out,
                            const char *(*rename)(void *, const char *),
                            void *ctx) {
  if (print_special(ins, out)) return;
  /* LDR Rt,[Rn,#k] is herd's LDRO, printed without its condition. */
  bool ldro = ins->op == ARM_LDR && ins->ops[1].sub == ARM_AM_IMM;
  if (ldro) sb_puts(out, "LDR");
  else print_mnemo(ins, out);
  for (int i = 0; i < ins->nops; i++) {
    const Operand *o = &ins->ops[i];
    sb_puts(out, i ? "," : " ");
    if (o->kind == OPK_MEM) print_addr(o, out);
    else if (o->kind == OPK_LABEL) sb_puts(out, asm_label_name(o, rename, ctx));
    else print_op(o, out);
  }
}

static const int symb_regs[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};

const ArchOps arm_arch_ops = {
    .arch = ARCH_ARM,
    .name = "ARM",
    .word_bits = 32,
    .nregs = ARM_NREGS,
    .parse_reg = arm_parse_reg,
    .reg_name = arm_reg_name,
    .parse_instr = arm_parse_instr,
    .print_instr = arm_print_instr,
    .semi_continues = NULL,
    .symb_regs = symb_regs,
    .nsymb_regs = (int)ARRAY_LEN(symb_regs),
};
