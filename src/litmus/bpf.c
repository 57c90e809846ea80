/*
 * bpf.c — the eBPF front end: register names, the instruction parser and
 * the canonical printer used by the hash (layout documented in bpf.h).
 *
 * The syntax is herd7's (lib/BPFParser.mly): a few C-like statement forms
 * built from registers, `(uN *)` size casts, `(reg + k)` addresses, the
 * compound assignment operators and the atomics' function-call spellings.
 * The printer spells instructions as herd's pp_instruction does, since the
 * hash digests that text.
 */
#include "bpf.h"

#include <string.h>

/* ------------------------------------------------------------ registers */

static const char *const printed[BPF_NREGS] = {
    "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "fp",
};

/* r0..r10, R0..R10, fp, FP (herd's parse_ireg). */
static int lookup_reg(const char *s, size_t n) {
  if (lit_word_is("fp", s, n) || lit_word_is("FP", s, n)) return BPF_R10;
  if (n < 2 || n > 3 || (s[0] != 'r' && s[0] != 'R')) return -1;
  int v = 0;
  for (size_t i = 1; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (s[i] - '0');
  }
  if (n == 3 && s[1] == '0') return -1; /* "r01" is not a register */
  return v <= 10 ? v : -1;
}

static int bpf_parse_reg(const char *s) { return lookup_reg(s, strlen(s)); }

static const char *bpf_reg_name(int reg) {
  return reg >= 0 && reg < BPF_NREGS ? printed[reg] : "?";
}

/* ---------------------------------------------------------------- words */

static const char *const alu_text[] = {
    [BPF_ADD] = "+=", [BPF_SUB] = "-=",  [BPF_MUL] = "*=", [BPF_DIV] = "/=",
    [BPF_REM] = "%=", [BPF_AND] = "&=",  [BPF_ORR] = "|=", [BPF_XOR] = "^=",
    [BPF_LSL] = "<<=", [BPF_LSR] = ">>=", [BPF_ASR] = "s>>=",
};

static const char *const cond_text[] = {
    [BPF_EQ] = "==", [BPF_NE] = "!=", [BPF_LT] = "<", [BPF_GE] = ">=",
};

static const char *const fetch_name[] = {
    [BPF_ADD] = "atomic_fetch_add", [BPF_AND] = "atomic_fetch_and",
    [BPF_ORR] = "atomic_fetch_or",  [BPF_XOR] = "atomic_fetch_xor",
};

/* --------------------------------------------------------------- parser */

/* The punctuation run starting at the current token, glued characters
 * only (herd's lexer reads "+=" as one token), as a string in buf. */
static size_t punct_run(AsmScan *s, char *buf, size_t max) {
  size_t n = 0;
  if (s->tok.kind != AT_PUNCT) return 0;
  const char *p = s->tok.s;
  while (n + 1 < max && p[n] && strchr("+-*/%&|^<>=!", p[n])) buf[n] = p[n], n++;
  buf[n] = 0;
  return n;
}

static void skip_chars(AsmScan *s, size_t n) {
  for (size_t i = 0; i < n; i++) asm_next(s);
}

/* A compound assignment operator (with herd's "s>>="), or -1. */
static int parse_alu(AsmScan *s) {
  char buf[8];
  bool sgn = asm_is_name(s, "s") && s->tok.s[1] == '>';
  if (sgn) asm_next(s);
  size_t n = punct_run(s, buf, sizeof buf);
  for (int a = 0; a <= BPF_ASR; a++) {
    const char *t = alu_text[a] + (a == BPF_ASR ? 1 : 0);
    if ((a == BPF_ASR) != sgn) continue;
    size_t tn = strlen(t);
    if (n >= tn && memcmp(buf, t, tn) == 0 && (n == tn || buf[tn] != '=')) {
      skip_chars(s, tn);
      return a;
    }
  }
  if (sgn) asm_error(s, "expected '>>='");
  return -1;
}

static int parse_cond(AsmScan *s) {
  char buf[8];
  size_t n = punct_run(s, buf, sizeof buf);
  for (int c = BPF_EQ; c <= BPF_GE; c++) {
    size_t tn = strlen(cond_text[c]);
    if (n == tn && memcmp(buf, cond_text[c], tn) == 0) {
      skip_chars(s, tn);
      return c;
    }
  }
  asm_error(s, "expected a comparison (==, !=, <, >=)");
}

static bool at_reg(const AsmScan *s) {
  return s->tok.kind == AT_NAME && lookup_reg(s->tok.s, s->tok.len) >= 0;
}

static void parse_reg(AsmScan *s, Instr *ins) {
  if (!at_reg(s)) asm_error(s, "expected a register");
  asm_add_op(s, ins, OPK_REG)->reg = lookup_reg(s->tok.s, s->tok.len);
  asm_next(s);
}

/* k: NUM, - NUM or + NUM (a sign written apart from the number). */
static bool at_k(const AsmScan *s) {
  return s->tok.kind == AT_NUM || asm_is(s, '-') || asm_is(s, '+');
}

static int64_t parse_k(AsmScan *s) {
  bool neg = asm_is(s, '-'), sign = neg || asm_is(s, '+');
  if (sign) asm_next(s);
  if (s->tok.kind != AT_NUM || (sign && s->tok.s[0] == '-'))
    asm_error(s, "expected a number");
  int64_t v = asm_expect_num(s);
  return neg ? -v : v;
}

static void parse_imm(AsmScan *s, Instr *ins) {
  asm_add_op(s, ins, OPK_IMM)->imm = parse_k(s);
}

/* "(uN *)": the width. */
static uint32_t parse_size(AsmScan *s) {
  static const char *const sizes[] = {"u8", "u16", "u32", "u64"};
  asm_expect(s, '(');
  uint32_t w = 4;
  for (uint32_t i = 0; i < 4; i++)
    if (asm_is_name(s, sizes[i])) w = i;
  if (w == 4) asm_error(s, "expected a size (u8, u16, u32, u64)");
  asm_next(s);
  asm_expect(s, '*');
  asm_expect(s, ')');
  return w;
}

/* "(reg k)": a memory operand. */
static void parse_addr(AsmScan *s, Instr *ins) {
  asm_expect(s, '(');
  parse_reg(s, ins);
  Operand *m = &ins->ops[ins->nops - 1];
  m->kind = OPK_MEM;
  m->imm = parse_k(s);
  asm_expect(s, ')');
}

/* "(uN *)(reg k)" */
static void parse_sized_addr(AsmScan *s, Instr *ins) {
  ins->flags |= BPF_MKW(parse_size(s));
  parse_addr(s, ins);
}

static Instr *new_instr(AsmScan *s, BPFOp op, uint32_t flags) {
  Instr *ins = asm_new_instr(s, op);
  ins->flags = flags;
  return ins;
}

/* "if r1 COND (r2 | k) goto L" */
static Instr *parse_if(AsmScan *s) {
  asm_next(s);
  Instr *ins = new_instr(s, BPF_JCOND, 0);
  parse_reg(s, ins);
  ins->flags |= BPF_MKCND(parse_cond(s));
  if (at_reg(s)) parse_reg(s, ins);
  else ins->op = BPF_JCONDI, parse_imm(s, ins);
  if (!asm_is_name(s, "goto")) asm_error(s, "expected 'goto'");
  asm_next(s);
  asm_parse_label(s, ins);
  return ins;
}

/* "rd = ..." after the '=': loads, atomics with a result, moves. */
static Instr *parse_assign(AsmScan *s, const Operand *rd) {
  Instr *ins;
  if (asm_accept(s, '*')) {
    ins = new_instr(s, BPF_LOAD, 0);
    ins->ops[ins->nops++] = *rd;
    parse_sized_addr(s, ins);
    return ins;
  }
  if (asm_is_name(s, "load_acquire")) {
    asm_next(s);
    ins = new_instr(s, BPF_LDAQ, 0);
    ins->ops[ins->nops++] = *rd;
    asm_expect(s, '(');
    parse_sized_addr(s, ins);
    asm_expect(s, ')');
    return ins;
  }
  for (int a = BPF_ADD; a <= BPF_XOR; a++)
    if (fetch_name[a] && asm_is_name(s, fetch_name[a])) {
      /* rs = atomic_fetch_OP((uN *)(rd + k), rs): herd keeps the last
       * register, the one written is that register too */
      asm_next(s);
      ins = new_instr(s, BPF_AMO, BPF_MKALU(a) | BPF_F_FETCH);
      asm_expect(s, '(');
      parse_sized_addr(s, ins);
      asm_expect(s, ',');
      parse_reg(s, ins);
      asm_expect(s, ')');
      return ins;
    }
  bool x64 = asm_is_name(s, "xchg_64"), x32 = asm_is_name(s, "xchg_32_32");
  bool c64 = asm_is_name(s, "cmpxchg_64"), c32 = asm_is_name(s, "cmpxchg32_32");
  if (x64 || x32 || c64 || c32) {
    asm_next(s);
    ins = new_instr(s, BPF_AMO,
                    BPF_MKALU(x64 || x32 ? BPF_XCHG : BPF_CMPXCHG) | BPF_F_FETCH |
                        BPF_MKW(x64 || c64 ? BPF_DW : BPF_WD));
    asm_expect(s, '(');
    parse_reg(s, ins);
    ins->ops[0].kind = OPK_MEM;
    ins->ops[0].imm = parse_k(s);
    asm_expect(s, ',');
    if (c64 || c32) {
      /* the expected value is r0 whatever is written (herd ignores it) */
      Instr tmp = {0};
      parse_reg(s, &tmp);
      asm_expect(s, ',');
    }
    parse_reg(s, ins);
    asm_expect(s, ')');
    return ins;
  }
  if (at_reg(s)) {
    ins = new_instr(s, BPF_MOV, 0);
    ins->ops[ins->nops++] = *rd;
    parse_reg(s, ins);
    return ins;
  }
  if (at_k(s)) {
    ins = new_instr(s, BPF_MOVI, 0);
    ins->ops[ins->nops++] = *rd;
    parse_imm(s, ins);
    return ins;
  }
  asm_unknown(s);
}

static Instr *bpf_parse_instr(Arena *a, Err *err, const char *text, SrcPos pos) {
  AsmScan s;
  asm_scan_init(&s, a, err, "BPF", text, pos);
  Instr *ins = NULL;
  if (asm_is_name(&s, "goto")) {
    asm_next(&s);
    ins = new_instr(&s, BPF_GOTO, 0);
    asm_parse_label(&s, ins);
  } else if (asm_is_name(&s, "if")) {
    ins = parse_if(&s);
  } else if (asm_is_name(&s, "lock")) {
    /* lock *(uN *)(rd + k) OP= rs */
    asm_next(&s);
    asm_expect(&s, '*');
    ins = new_instr(&s, BPF_AMO, 0);
    parse_sized_addr(&s, ins);
    int op = parse_alu(&s);
    if (op < 0) asm_error(&s, "expected an operator such as '+='");
    ins->flags |= BPF_MKALU(op);
    parse_reg(&s, ins);
  } else if (asm_is_name(&s, "store_release")) {
    asm_next(&s);
    ins = new_instr(&s, BPF_STRL, 0);
    asm_expect(&s, '(');
    parse_sized_addr(&s, ins);
    asm_expect(&s, ',');
    parse_reg(&s, ins);
    asm_expect(&s, ')');
  } else if (asm_accept(&s, '*')) {
    ins = new_instr(&s, BPF_STORE, 0);
    parse_sized_addr(&s, ins);
    asm_expect(&s, '=');
    if (at_reg(&s)) parse_reg(&s, ins);
    else ins->op = BPF_STOREI, parse_imm(&s, ins);
  } else if (at_reg(&s)) {
    Instr tmp = {0};
    parse_reg(&s, &tmp);
    int op = parse_alu(&s);
    if (op >= 0) {
      ins = new_instr(&s, BPF_OP, BPF_MKALU(op));
      ins->ops[ins->nops++] = tmp.ops[0];
      if (at_reg(&s)) parse_reg(&s, ins);
      else ins->op = BPF_OPI, parse_imm(&s, ins);
    } else {
      asm_expect(&s, '=');
      ins = parse_assign(&s, &tmp.ops[0]);
    }
  } else {
    asm_unknown(&s);
  }
  asm_expect_end(&s);
  return ins;
}

/* herd's lexer reads "|=" as one token: not a cell separator */
static bool bpf_pipe_continues(const char *rest) { return rest[0] == '='; }

/* -------------------------------------------------------------- printer */

static const char *const width_text[] = {"8", "16", "32", "64"};

/* "(base + k)" without the parentheses: herd's pp_k */
static void print_addr(const Operand *m, StrBuf *out) {
  sb_puts(out, bpf_reg_name(m->reg));
  sb_puts(out, m->imm < 0 ? " - " : " + ");
  sb_put_int(out, m->imm < 0 ? -m->imm : m->imm);
}

static void print_sized(const Instr *ins, const Operand *m, const char *gap,
                        StrBuf *out) {
  sb_puts(out, "(u");
  sb_puts(out, width_text[BPF_W(ins->flags)]);
  sb_puts(out, " *)");
  sb_puts(out, gap);
  sb_putc(out, '(');
  print_addr(m, out);
  sb_putc(out, ')');
}

static void print_amo(const Instr *ins, StrBuf *out) {
  const Operand *m = &ins->ops[0], *rs = &ins->ops[1];
  int alu = BPF_ALU(ins->flags);
  const char *xs = BPF_W(ins->flags) == BPF_DW ? "_64" : "32_32";
  if (!(ins->flags & BPF_F_FETCH)) {
    sb_puts(out, "lock *");
    print_sized(ins, m, "", out);
    sb_printf(out, " %s %s", alu_text[alu], bpf_reg_name(rs->reg));
    return;
  }
  if (alu == BPF_CMPXCHG) {
    sb_printf(out, "r0 = cmpxchg%s(", xs);
    print_addr(m, out);
    sb_printf(out, ", r0, %s)", bpf_reg_name(rs->reg));
    return;
  }
  sb_printf(out, "%s = ", bpf_reg_name(rs->reg));
  if (alu == BPF_XCHG) {
    sb_printf(out, "xchg%s(", xs);
    print_addr(m, out);
  } else {
    sb_printf(out, "%s(", fetch_name[alu]);
    print_sized(ins, m, "", out);
  }
  sb_printf(out, ", %s)", bpf_reg_name(rs->reg));
}

/* herd's pp_instruction, whose text the hash digests. */
static void bpf_print_instr(const Instr *ins, StrBuf *out,
                            const char *(*rename)(void *, const char *),
                            void *ctx) {
  const Operand *o = ins->ops;
  switch ((BPFOp)ins->op) {
  case BPF_OP:
    sb_printf(out, "%s %s %s", bpf_reg_name(o[0].reg), alu_text[BPF_ALU(ins->flags)],
              bpf_reg_name(o[1].reg));
    break;
  case BPF_OPI:
    sb_printf(out, "%s %s ", bpf_reg_name(o[0].reg), alu_text[BPF_ALU(ins->flags)]);
    sb_put_int(out, o[1].imm);
    break;
  case BPF_MOV: sb_printf(out, "%s = %s", bpf_reg_name(o[0].reg), bpf_reg_name(o[1].reg)); break;
  case BPF_MOVI:
    sb_printf(out, "%s = ", bpf_reg_name(o[0].reg));
    sb_put_int(out, o[1].imm);
    break;
  case BPF_LOAD:
    sb_printf(out, "%s = *", bpf_reg_name(o[0].reg));
    print_sized(ins, &o[1], " ", out);
    break;
  case BPF_LDAQ:
    sb_printf(out, "%s = load_acquire(", bpf_reg_name(o[0].reg));
    print_sized(ins, &o[1], " ", out);
    sb_putc(out, ')');
    break;
  case BPF_STORE: case BPF_STOREI:
    sb_putc(out, '*');
    print_sized(ins, &o[0], "", out);
    sb_puts(out, " = ");
    if (ins->op == BPF_STORE) sb_puts(out, bpf_reg_name(o[1].reg));
    else sb_put_int(out, o[1].imm);
    break;
  case BPF_STRL:
    sb_puts(out, "store_release (");
    print_sized(ins, &o[0], "", out);
    sb_printf(out, ", %s)", bpf_reg_name(o[1].reg));
    break;
  case BPF_AMO: print_amo(ins, out); break;
  case BPF_GOTO: sb_printf(out, "goto %s", asm_label_name(&o[0], rename, ctx)); break;
  case BPF_JCOND: case BPF_JCONDI:
    sb_printf(out, "if %s %s ", bpf_reg_name(o[0].reg), cond_text[BPF_CND(ins->flags)]);
    if (ins->op == BPF_JCOND) sb_puts(out, bpf_reg_name(o[1].reg));
    else sb_put_int(out, o[1].imm);
    sb_printf(out, " goto %s", asm_label_name(&o[2], rename, ctx));
    break;
  }
}

const ArchOps bpf_arch_ops = {
    .arch = ARCH_BPF,
    .name = "BPF",
    .word_bits = 64,
    .nregs = BPF_NREGS,
    .parse_reg = bpf_parse_reg,
    .reg_name = bpf_reg_name,
    .parse_instr = bpf_parse_instr,
    .print_instr = bpf_print_instr,
    .semi_continues = NULL,
    .pipe_continues = bpf_pipe_continues,
    .symb_regs = NULL,
    .nsymb_regs = 0,
};
