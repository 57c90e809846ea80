/*
 * x86_64.c — the X86_64 (AT&T syntax) front end: register names and
 * views, the instruction parser and the canonical printer used by the hash
 * (layout documented in x86_64.h).
 */
#include "x86_64.h"

#include <ctype.h>
#include <string.h>

#include "x86.h"

/* ------------------------------------------------------------ registers */

/* Spelling of each (register, view); NULL where the view does not exist. */
static const char *const view_names[5][16] = {
    {"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "r8", "r9",
     "r10", "r11", "r12", "r13", "r14", "r15"},
    {"eax", "ebx", "ecx", "edx", "esi", "edi", "ebp", "esp", "r8d", "r9d",
     "r10d", "r11d", "r12d", "r13d", "r14d", "r15d"},
    {"ax", "bx", "cx", "dx", "si", "di", "bp", "sp", "r8w", "r9w", "r10w",
     "r11w", "r12w", "r13w", "r14w", "r15w"},
    {"al", "bl", "cl", "dl", "sil", "dil", "bpl", "spl", "r8b", "r9b",
     "r10b", "r11b", "r12b", "r13b", "r14b", "r15b"},
    {"ah", "bh", "ch", "dh"},
};

static const char *const other_names[] = {"zf", "sf", "cf", "rip"};

/* Lower-case copy of a short name into buf; false if too long. */
static bool lower_copy(const char *s, size_t n, char *buf, size_t cap) {
  if (n + 1 > cap) return false;
  for (size_t i = 0; i < n; i++) buf[i] = (char)tolower((unsigned char)s[i]);
  buf[n] = 0;
  return true;
}

/* Register id and view of a name (without '%'); -1 if not a register. */
static int lookup_reg(const char *s, size_t n, int *view) {
  char buf[16];
  if (!lower_copy(s, n, buf, sizeof buf)) return -1;
  for (int v = 0; v < 5; v++)
    for (int r = 0; r < 16; r++)
      if (view_names[v][r] && strcmp(view_names[v][r], buf) == 0) {
        *view = v;
        return r;
      }
  for (int i = 0; i < 4; i++)
    if (strcmp(other_names[i], buf) == 0) {
      *view = X86_64_V64;
      return X86_64_ZF + i;
    }
  return -1;
}

static int x86_64_parse_reg(const char *s) {
  int view;
  if (s[0] == '%') s++;
  return lookup_reg(s, strlen(s), &view);
}

static const char *x86_64_reg_name(int reg) {
  if (reg >= 0 && reg < 16) return view_names[X86_64_V64][reg];
  if (reg >= X86_64_ZF && reg < X86_64_NREGS) return other_names[reg - 16];
  return "?";
}

/* ------------------------------------------------------------ mnemonics */

typedef enum Form {
  F_NONE, F_OP_EA, F_EA, F_EA_EA, F_EA_REG, F_REG_EA, F_MOVNTI, F_LABEL,
  F_CC_LABEL, F_NOP_EA, F_XMM_REG, F_EA_XMM,
} Form;

static const struct Mnemo {
  const char *name;
  X86_64Op op;
  Form form;
  const char *sizes; /* the b/w/l/q suffixes herd's lexer knows for it */
  int cc;
} mnemos[] = {
    {"mov", X86_64_MOV, F_OP_EA, "bwlq", 0},
    {"add", X86_64_ADD, F_OP_EA, "bwlq", 0},
    {"or", X86_64_OR, F_OP_EA, "bwlq", 0},
    {"and", X86_64_AND, F_OP_EA, "", 0},
    {"xor", X86_64_XOR, F_OP_EA, "bwlq", 0},
    {"cmp", X86_64_CMP, F_OP_EA, "bwlq", 0},
    {"shl", X86_64_SHL, F_OP_EA, "", 0},
    {"inc", X86_64_INC, F_EA, "bwlq", 0},
    {"dec", X86_64_DEC, F_EA, "bwlq", 0},
    {"setnb", X86_64_SETNB, F_EA, "", 0},
    {"xchg", X86_64_XCHG, F_EA_EA, "bwlq", 0},
    {"uxch", X86_64_UXCH, F_EA_EA, "bwlq", 0},
    {"cmpxchg", X86_64_CMPXCHG, F_EA_REG, "bwlq", 0},
    {"cmovc", X86_64_CMOVC, F_REG_EA, "bwlq", 0},
    {"movnti", X86_64_MOVNTI, F_MOVNTI, "lq", 0},
    {"jmp", X86_64_JMP, F_LABEL, "", 0},
    {"je", X86_64_JCC, F_CC_LABEL, "", X86_CC_E},
    {"jne", X86_64_JCC, F_CC_LABEL, "", X86_CC_NE},
    {"jle", X86_64_JCC, F_CC_LABEL, "", X86_CC_LE},
    {"jlt", X86_64_JCC, F_CC_LABEL, "", X86_CC_L},
    {"jgt", X86_64_JCC, F_CC_LABEL, "", X86_CC_G},
    {"jge", X86_64_JCC, F_CC_LABEL, "", X86_CC_GE},
    {"js", X86_64_JCC, F_CC_LABEL, "", X86_CC_S},
    {"jns", X86_64_JCC, F_CC_LABEL, "", X86_CC_NS},
    {"mfence", X86_64_MFENCE, F_NONE, "", 0},
    {"sfence", X86_64_SFENCE, F_NONE, "", 0},
    {"lfence", X86_64_LFENCE, F_NONE, "", 0},
    {"ret", X86_64_RET, F_NONE, "", 0},
    {"retq", X86_64_RET, F_NONE, "", 0},
    /* herd's NOP forms: "nop" alone; "nopl" and "nopw" with an operand,
     * which is parsed and then dropped (herd's I_NOP has none) */
    {"nop", X86_64_NOP, F_NONE, "", 0},
    {"endbr64", X86_64_NOP, F_NONE, "", 0},
    {"nopl", X86_64_NOP, F_NOP_EA, "", 0},
    {"nopw", X86_64_NOP, F_NOP_EA, "", 0},
    {"clflush", X86_64_CLFLUSH, F_EA, "", 0},
    {"clflushopt", X86_64_CLFLUSHOPT, F_EA, "", 0},
    /* SSE moves: parsed, but herd7 7.58 has no semantics for them */
    {"movd", X86_64_MOVD, F_XMM_REG, "", 0},
    {"movntdqa", X86_64_MOVNTDQA, F_EA_XMM, "", 0},
};
static const char suffixes[] = " bwlq"; /* index = X86_64_SZ_* */

/* Lower-case or upper-case mnemonic, with an optional size suffix. */
static const struct Mnemo *find_mnemo(const AsmScan *s, uint32_t *size) {
  char buf[16];
  if (s->tok.kind != AT_NAME) return NULL;
  size_t n = s->tok.len;
  if (!lower_copy(s->tok.s, n, buf, sizeof buf)) return NULL;
  bool all_up = true, all_low = true;
  for (size_t i = 0; i < n; i++) {
    if (islower((unsigned char)s->tok.s[i])) all_up = false;
    if (isupper((unsigned char)s->tok.s[i])) all_low = false;
  }
  if (!all_up && !all_low) return NULL;
  /* herd's lexer knows endbr64 (a NOP for it) in lower case only */
  if (all_up && strcmp(buf, "endbr64") == 0) return NULL;
  for (size_t i = 0; i < ARRAY_LEN(mnemos); i++)
    if (strcmp(mnemos[i].name, buf) == 0) {
      *size = X86_64_SZ_NONE;
      return &mnemos[i];
    }
  const char *suf = n > 1 ? strchr(suffixes + 1, buf[n - 1]) : NULL;
  if (!suf) return NULL;
  buf[n - 1] = 0;
  for (size_t i = 0; i < ARRAY_LEN(mnemos); i++)
    if (strchr(mnemos[i].sizes, *suf) &&
        strcmp(mnemos[i].name, buf) == 0) {
      *size = (uint32_t)(suf - suffixes);
      return &mnemos[i];
    }
  return NULL;
}

/* --------------------------------------------------------------- parser */

/* %reg, reg or %symbolic into o (kind unchanged); false if none. */
static bool try_reg(AsmScan *s, Operand *o, int shift) {
  int view = X86_64_V64, r;
  if (s->tok.kind == AT_PCTNAME || s->tok.kind == AT_NAME) {
    r = lookup_reg(s->tok.s, s->tok.len, &view);
    if (r < 0 && s->tok.kind == AT_NAME) return false;
  } else {
    return false;
  }
  if (shift == 0) {
    o->reg = r;
    if (r < 0) o->sreg = asm_tok_str(s);
  } else {
    o->reg2 = r;
    if (r < 0) o->sreg2 = asm_tok_str(s);
  }
  o->sub = (uint8_t)(o->sub | (view << shift));
  asm_next(s);
  return true;
}

static void expect_reg(AsmScan *s, Operand *o, int shift) {
  if (!try_reg(s, o, shift)) asm_error(s, "expected a register");
}

/* Inside ( ) or [ ]: x, reg, reg,reg[,scale] or a number. */
static void parse_mem_body(AsmScan *s, Operand *o, char close) {
  o->kind = OPK_MEM;
  if (try_reg(s, o, 0)) {
    if (asm_accept(s, ',')) {
      expect_reg(s, o, 4);
      o->imm2 = 1;
      if (asm_accept(s, ',')) o->imm2 = asm_expect_num(s);
    }
  } else if (s->tok.kind == AT_NAME) {
    if (o->imm != 0) asm_error(s, "offset on a symbolic location");
    o->kind = OPK_SYM;
    o->sym = asm_tok_str(s);
    asm_next(s);
  } else if (s->tok.kind == AT_NUM && o->imm == 0) {
    o->imm = asm_expect_num(s);
  } else {
    asm_error(s, "expected a register or a location");
  }
  asm_expect(s, close);
}

/* Whether the current token is directly followed by ':' (a segment
 * prefix, "%cs:0(%rax,%rbx,1)"). */
static bool before_colon(const AsmScan *s) {
  const char *after = s->text + s->i;
  while (*after == ' ' || *after == '\t') after++;
  return *after == ':';
}

/* herd's "reg:k(reg,reg,k)": the segment register is parsed and ignored
 * (its grammar takes any register there); only the scaled form follows. */
static void parse_segment(AsmScan *s, Operand *o) {
  if (s->tok.kind != AT_PCTNAME && s->tok.kind != AT_NAME)
    asm_error(s, "expected a segment register");
  asm_next(s);
  asm_expect(s, ':');
  o->kind = OPK_MEM;
  o->imm = asm_expect_num(s);
  asm_expect(s, '(');
  expect_reg(s, o, 0);
  asm_expect(s, ',');
  expect_reg(s, o, 4);
  asm_expect(s, ',');
  o->imm2 = asm_expect_num(s);
  asm_expect(s, ')');
}

static void parse_ea(AsmScan *s, Instr *ins) {
  Operand *o = asm_add_op(s, ins, OPK_REG);
  if ((s->tok.kind == AT_PCTNAME || s->tok.kind == AT_NAME) && before_colon(s)) {
    parse_segment(s, o);
    return;
  }
  if (s->tok.kind == AT_NUM) {
    o->imm = asm_expect_num(s);
    if (!asm_is(s, '(') && !asm_is(s, '['))
      asm_error(s, "expected '(' after an offset");
  }
  if (asm_accept(s, '(')) parse_mem_body(s, o, ')');
  else if (asm_accept(s, '[')) parse_mem_body(s, o, ']');
  else if (!try_reg(s, o, 0))
    asm_error(s, "expected a register or a memory operand");
}

/* A source operand: $k, k, or an ea. */
static void parse_src(AsmScan *s, Instr *ins) {
  bool dollar = asm_accept(s, '$');
  const char *after = s->text + s->i; /* just after the current token */
  while (*after == ' ' || *after == '\t') after++;
  if (dollar || (s->tok.kind == AT_NUM && *after != '(' && *after != '[')) {
    asm_add_op(s, ins, OPK_IMM)->imm = asm_expect_num(s);
  } else {
    parse_ea(s, ins);
  }
}

/* An SSE register xmm0..xmm7 (with or without '%', any case) as an
 * OPK_IMM operand holding its number; -1 if the token is not one. */
static int xmm_number(const AsmScan *s) {
  char buf[8];
  if ((s->tok.kind != AT_PCTNAME && s->tok.kind != AT_NAME) ||
      !lower_copy(s->tok.s, s->tok.len, buf, sizeof buf))
    return -1;
  if (strncmp(buf, "xmm", 3) != 0 || buf[3] < '0' || buf[3] > '7' || buf[4])
    return -1;
  return buf[3] - '0';
}

static void expect_xmm(AsmScan *s, Instr *ins) {
  int k = xmm_number(s);
  if (k < 0) asm_error(s, "expected an xmm register");
  asm_add_op(s, ins, OPK_IMM)->imm = k;
  asm_next(s);
}

/* Operands are stored destination first (see x86_64.h): parse in source
 * order, then swap where AT&T puts the destination last. */
static void parse_operands(AsmScan *s, Instr *ins, const struct Mnemo *m) {
  switch (m->form) {
  case F_NONE: return;
  case F_OP_EA: parse_src(s, ins), asm_expect(s, ','), parse_ea(s, ins); break;
  case F_EA: parse_ea(s, ins); return;
  case F_EA_EA: parse_ea(s, ins), asm_expect(s, ','), parse_ea(s, ins); return;
  case F_EA_REG:
    parse_ea(s, ins);
    asm_expect(s, ',');
    expect_reg(s, asm_add_op(s, ins, OPK_REG), 0);
    return;
  case F_REG_EA:
    expect_reg(s, asm_add_op(s, ins, OPK_REG), 0);
    asm_expect(s, ',');
    parse_ea(s, ins);
    return;
  case F_MOVNTI:
    expect_reg(s, asm_add_op(s, ins, OPK_REG), 0);
    asm_expect(s, ',');
    parse_ea(s, ins);
    break;
  case F_LABEL: asm_parse_label(s, ins); return;
  case F_CC_LABEL:
    asm_add_op(s, ins, OPK_COND)->imm = m->cc;
    asm_parse_label(s, ins);
    return;
  case F_NOP_EA:
    parse_ea(s, ins);
    ins->nops = 0; /* herd's NOP keeps no operand: nothing is read */
    return;
  case F_XMM_REG: /* movd %xmmN,reg */
    expect_xmm(s, ins), asm_expect(s, ',');
    expect_reg(s, asm_add_op(s, ins, OPK_REG), 0);
    return;
  case F_EA_XMM: parse_ea(s, ins), asm_expect(s, ','), expect_xmm(s, ins); return;
  }
  Operand t = ins->ops[0];
  ins->ops[0] = ins->ops[1];
  ins->ops[1] = t;
}

static Instr *x86_64_parse_instr(Arena *a, Err *err, const char *text,
                                 SrcPos pos) {
  AsmScan s;
  asm_scan_init(&s, a, err, "X86_64", text, pos);
  uint32_t flags = 0, size = 0;
  if (asm_is_name(&s, "lock") || asm_is_name(&s, "LOCK")) {
    flags |= X86_64_F_LOCK;
    asm_next(&s);
    asm_accept(&s, ';');
  }
  const struct Mnemo *m = find_mnemo(&s, &size);
  if (!m) asm_unknown(&s);
  asm_next(&s);
  /* "movq %xmmN,reg" is herd's 64-bit MOVD, not a mov */
  static const struct Mnemo movq_xmm = {"movd", X86_64_MOVD, F_XMM_REG, "", 0};
  if (m->op == X86_64_MOV && size == X86_64_SZ_Q && xmm_number(&s) >= 0)
    m = &movq_xmm;
  else if (m->op == X86_64_MOVD)
    size = X86_64_SZ_L;
  Instr *ins = asm_new_instr(&s, m->op);
  ins->flags = flags | size;
  parse_operands(&s, ins, m);
  asm_expect_end(&s);
  return ins;
}

static bool x86_64_semi_continues(const char *cell) {
  return strcmp(cell, "lock") == 0 || strcmp(cell, "LOCK") == 0;
}

/* -------------------------------------------------------------- printer */

static void print_reg(int reg, const char *sreg, int view, StrBuf *out) {
  sb_putc(out, '%');
  if (sreg) sb_puts(out, sreg);
  else if (reg >= 0 && reg < 16 && view >= 0 && view < 5 &&
           view_names[view][reg])
    sb_puts(out, view_names[view][reg]);
  else sb_puts(out, x86_64_reg_name(reg));
}

static void print_offset(int64_t k, StrBuf *out) {
  if (k != 0) sb_put_int(out, k);
}

static void print_operand(const Operand *o, StrBuf *out) {
  switch (o->kind) {
  case OPK_REG: print_reg(o->reg, o->sreg, o->sub & 15, out); break;
  case OPK_SYM:
    sb_putc(out, '(');
    sb_puts(out, o->sym);
    sb_putc(out, ')');
    break;
  case OPK_IMM:
    sb_putc(out, '$');
    sb_put_int(out, o->imm);
    break;
  case OPK_MEM:
    if (o->reg < 0 && !o->sreg) {
      sb_putc(out, '(');
      sb_put_int(out, o->imm);
      sb_putc(out, ')');
      break;
    }
    print_offset(o->imm, out);
    sb_putc(out, '(');
    print_reg(o->reg, o->sreg, o->sub & 15, out);
    if (o->reg2 >= 0 || o->sreg2) {
      sb_puts(out, ", ");
      print_reg(o->reg2, o->sreg2, o->sub >> 4, out);
      sb_putc(out, ',');
      print_offset(o->imm2, out);
    }
    sb_putc(out, ')');
    break;
  default: sb_puts(out, "?"); break;
  }
}

static const char *const cc_names[] = {"e", "ne", "le", "l",
                                       "g", "ge", "s",  "ns"};

static const char *mnemo_name(int op) {
  for (size_t i = 0; i < ARRAY_LEN(mnemos); i++)
    if ((int)mnemos[i].op == op) return mnemos[i].name;
  return "?";
}

static void x86_64_print_instr(const Instr *ins, StrBuf *out,
                               const char *(*rename)(void *, const char *),
                               void *ctx) {
  if (ins->flags & X86_64_F_LOCK) sb_puts(out, "lock; ");
  switch ((X86_64Op)ins->op) {
  case X86_64_NOP: sb_puts(out, "NOP"); return;
  case X86_64_JMP:
    sb_puts(out, "jmp ");
    sb_puts(out, asm_label_name(&ins->ops[0], rename, ctx));
    return;
  case X86_64_MOVD:
    sb_printf(out, "mov%c xmm%d,", (ins->flags & X86_64_SZ_MASK) == X86_64_SZ_Q ? 'q' : 'd',
              (int)ins->ops[0].imm);
    print_operand(&ins->ops[1], out);
    return;
  case X86_64_MOVNTDQA:
    sb_puts(out, "movntdqa ");
    print_operand(&ins->ops[0], out);
    sb_printf(out, ",xmm%d", (int)ins->ops[1].imm);
    return;
  case X86_64_JCC: {
    int cc = (int)ins->ops[0].imm;
    sb_putc(out, 'j');
    sb_puts(out, cc >= 0 && cc < 8 ? cc_names[cc] : "?");
    sb_putc(out, ' ');
    sb_puts(out, asm_label_name(&ins->ops[1], rename, ctx));
    return;
  }
  default: break;
  }
  sb_puts(out, mnemo_name(ins->op));
  uint32_t sz = ins->flags & X86_64_SZ_MASK;
  if (sz) sb_putc(out, suffixes[sz]);
  bool swapped = (ins->op >= X86_64_MOV && ins->op <= X86_64_SHL) ||
                 ins->op == X86_64_MOVNTI;
  for (int i = 0; i < ins->nops; i++) {
    sb_putc(out, i ? ',' : ' ');
    print_operand(&ins->ops[swapped ? ins->nops - 1 - i : i], out);
  }
}

static const int symb_regs[] = {
    X86_64_RAX, X86_64_RBX, X86_64_RCX, X86_64_RDX, X86_64_RSI, X86_64_RDI,
    X86_64_RBP, X86_64_RSP, X86_64_R8,  X86_64_R9,  X86_64_R10, X86_64_R11,
    X86_64_R12, X86_64_R13, X86_64_R14, X86_64_R15,
};

const ArchOps x86_64_arch_ops = {
    .arch = ARCH_X86_64,
    .name = "X86_64",
    .word_bits = 64,
    .nregs = X86_64_NREGS,
    .parse_reg = x86_64_parse_reg,
    .reg_name = x86_64_reg_name,
    .parse_instr = x86_64_parse_instr,
    .print_instr = x86_64_print_instr,
    .semi_continues = x86_64_semi_continues,
    .symb_regs = symb_regs,
    .nsymb_regs = (int)ARRAY_LEN(symb_regs),
};
