/*
 * lisa.c — the LISA front end: register names, the instruction parser and
 * the canonical printer used by the hash (layout documented in lisa.h).
 *
 * The grammar is herd7's (lib/LISAParser.mly, lib/LISALexer): the
 * mnemonics r, w, f, rmw, b, mov, each but mov with an optional bracketed
 * annotation list; the printer spells instructions as BellBase's
 * dump_instruction does, the text the hash digests.
 */
#include "lisa.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ registers */

/* "r" followed by a decimal number below LISA_NREGS. */
static int lookup_reg(const char *s, size_t n) {
  if (n < 2 || n > 3 || s[0] != 'r') return -1;
  int v = 0;
  for (size_t i = 1; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v < LISA_NREGS ? v : -1;
}

static int lisa_parse_reg(const char *s) { return lookup_reg(s, strlen(s)); }

static const char *lisa_reg_name(int reg) {
  static const char *const names[LISA_NREGS] = {
#define R10(d) "r" #d "0", "r" #d "1", "r" #d "2", "r" #d "3", "r" #d "4", \
               "r" #d "5", "r" #d "6", "r" #d "7", "r" #d "8", "r" #d "9"
      "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9",
      R10(1), R10(2), R10(3), R10(4), R10(5), R10(6), R10(7), R10(8), R10(9),
#undef R10
  };
  return reg >= 0 && reg < LISA_NREGS ? names[reg] : "?";
}

/* ---------------------------------------------------------- annotations */

static bool lisa_annot(const Instr *ins, int i, char *buf, size_t n) {
  const Operand *list = ins->op == LISA_MOV ? NULL : &ins->ops[0];
  if (!list || list->kind != OPK_STR || i >= list->imm) return false;
  const char *p = list->sym;
  for (int k = 0; k < i; k++) p = strchr(p, ',') + 1;
  size_t len = strcspn(p, ",");
  if (len >= n) len = n - 1;
  memcpy(buf, p, len);
  buf[len] = 0;
  return true;
}

const char *lisa_tag(const Operand *list, int i) {
  if (!list || list->kind != OPK_STR || i >= list->imm) return NULL;
  const char *p = list->sym + strlen(list->sym) + 1;
  for (int k = 0; k < i; k++) p += strlen(p) + 1;
  return p;
}

static const char *lisa_kind(const Instr *ins) {
  static const char *const kinds[] = {
      [LISA_LD] = "R", [LISA_ST] = "W", [LISA_F] = "F", [LISA_RMW] = "RMW",
      [LISA_B] = "B",  [LISA_MOV] = NULL,
  };
  return kinds[ins->op];
}

/* --------------------------------------------------------------- parser */

/* name { ',' name } up to `close`, joined by ',' in an OPK_STR operand.
 * The names are gathered in the arena (a lexer error may raise between
 * two of them). */
static void parse_names(AsmScan *s, Instr *ins, char close) {
  Operand *o = asm_add_op(s, ins, OPK_STR);
  AsmTok *names = NULL;
  int n = 0, cap = 0;
  size_t len = 0;
  if (!asm_is(s, close)) {
    for (;;) {
      if (s->tok.kind != AT_NAME) asm_error(s, "expected a name");
      if (n == cap) {
        cap = cap ? 2 * cap : 4;
        AsmTok *grown = ARENA_NEWN(s->arena, AsmTok, cap);
        if (n) memcpy(grown, names, sizeof *grown * (size_t)n);
        names = grown;
      }
      names[n++] = s->tok;
      len += s->tok.len + (n > 1);
      asm_next(s);
      if (!asm_accept(s, ',')) break;
    }
  }
  /* sym: the names joined by ',', then after its NUL the set names (first
   * letters upper-cased) one after the other with their NULs, then a NUL:
   * the tags of the events (lisa_tag) */
  char *sym = arena_alloc(s->arena, 2 * len + 3);
  for (int i = 0, at = 0; i < n; i++) {
    if (i) sym[at++] = ',';
    memcpy(sym + at, names[i].s, names[i].len);
    at += (int)names[i].len;
  }
  sym[len] = 0;
  char *sets = sym + len + 1;
  for (size_t i = 0, start = 1; i <= len; i++) {
    char ch = sym[i] == ',' ? 0 : sym[i];
    if (start && ch >= 'a' && ch <= 'z') ch = (char)(ch - 'a' + 'A');
    sets[i] = ch;
    start = ch == 0;
  }
  sets[len + 1] = 0;
  o->sym = sym;
  o->imm = n;
  if (!asm_accept(s, close)) asm_error(s, "expected '%c'", close);
}

static void parse_annots(AsmScan *s, Instr *ins) {
  if (asm_accept(s, '[')) {
    parse_names(s, ins, ']');
  } else {
    Operand *o = asm_add_op(s, ins, OPK_STR);
    o->sym = "\0"; /* no names, no set names */
  }
}

static bool at_reg(const AsmScan *s) {
  return s->tok.kind == AT_PCTNAME ||
         (s->tok.kind == AT_NAME && lookup_reg(s->tok.s, s->tok.len) >= 0);
}

/* A register operand (into o). */
static void reg_into(AsmScan *s, Operand *o) {
  o->kind = OPK_REG;
  if (s->tok.kind == AT_PCTNAME) o->sreg = asm_tok_str(s);
  else o->reg = lookup_reg(s->tok.s, s->tok.len);
  asm_next(s);
}

static void parse_reg(AsmScan *s, Instr *ins) {
  if (!at_reg(s)) asm_error(s, "expected a register");
  reg_into(s, asm_add_op(s, ins, OPK_REG));
}

/* any_value: a register, a location name or a number */
static void parse_value(AsmScan *s, Instr *ins) {
  if (at_reg(s)) {
    parse_reg(s, ins);
  } else if (s->tok.kind == AT_NAME) {
    asm_add_op(s, ins, OPK_SYM)->sym = asm_tok_str(s);
    asm_next(s);
  } else if (s->tok.kind == AT_NUM) {
    asm_add_op(s, ins, OPK_IMM)->imm = asm_expect_num(s);
  } else {
    asm_error(s, "expected a register, a location or a number");
  }
}

/* addr_op: (register | location) [ '+' (register | number) ] */
static void parse_addr(AsmScan *s, Instr *ins) {
  Operand *m = asm_add_op(s, ins, OPK_MEM);
  if (at_reg(s)) {
    reg_into(s, m);
    m->kind = OPK_MEM;
  } else if (s->tok.kind == AT_NAME) {
    m->sym = asm_tok_str(s);
    asm_next(s);
  } else {
    asm_error(s, "expected an address (a register or a location)");
  }
  if (!asm_accept(s, '+')) return;
  m->sub = 1;
  if (at_reg(s)) {
    Operand tmp;
    memset(&tmp, 0, sizeof tmp);
    reg_into(s, &tmp);
    m->reg2 = tmp.reg;
    m->sreg2 = tmp.sreg;
  } else if (s->tok.kind == AT_NUM) {
    m->imm = asm_expect_num(s);
  } else {
    asm_error(s, "expected a register or a number after '+'");
  }
}

/* operation: a value, or '(' (add|xor|and|eq|ne|neq) value value ')' */
static void parse_operation(AsmScan *s, Instr *ins) {
  static const struct { const char *name; LISAAlu op; } ops[] = {
      {"add", LISA_ADD}, {"xor", LISA_XOR}, {"and", LISA_AND},
      {"eq", LISA_EQ},   {"ne", LISA_NEQ},  {"neq", LISA_NEQ},
  };
  if (!asm_accept(s, '(')) {
    ins->flags = LISA_VAL;
    parse_value(s, ins);
    return;
  }
  size_t i = 0;
  while (i < ARRAY_LEN(ops) && !asm_is_name(s, ops[i].name)) i++;
  if (i == ARRAY_LEN(ops)) asm_error(s, "expected add, xor, and, eq or neq");
  ins->flags = ops[i].op;
  asm_next(s);
  parse_value(s, ins);
  parse_value(s, ins);
  asm_expect(s, ')');
}

static Instr *lisa_parse_instr(Arena *a, Err *err, const char *text, SrcPos pos) {
  AsmScan s;
  asm_scan_init(&s, a, err, "LISA", text, pos);
  static const struct { const char *name; LISAOp op; } mnemos[] = {
      {"r", LISA_LD}, {"w", LISA_ST}, {"f", LISA_F},
      {"rmw", LISA_RMW}, {"b", LISA_B}, {"mov", LISA_MOV},
  };
  size_t i = 0;
  while (i < ARRAY_LEN(mnemos) && !asm_is_name(&s, mnemos[i].name)) i++;
  if (i == ARRAY_LEN(mnemos)) asm_unknown(&s);
  asm_next(&s);
  Instr *ins = asm_new_instr(&s, mnemos[i].op);
  if (ins->op != LISA_MOV) parse_annots(&s, ins);
  switch ((LISAOp)ins->op) {
  case LISA_LD: parse_reg(&s, ins), parse_addr(&s, ins); break;
  case LISA_ST:
    parse_addr(&s, ins);
    if (at_reg(&s)) parse_reg(&s, ins);
    else asm_add_op(&s, ins, OPK_IMM)->imm = asm_expect_num(&s);
    break;
  case LISA_F:
    if (asm_accept(&s, '{')) {
      parse_names(&s, ins, '}');
      asm_expect(&s, '{');
      parse_names(&s, ins, '}');
    }
    break;
  case LISA_RMW: parse_reg(&s, ins), parse_operation(&s, ins), parse_addr(&s, ins); break;
  case LISA_B:
    if (at_reg(&s)) parse_reg(&s, ins);
    asm_parse_label(&s, ins);
    break;
  case LISA_MOV: parse_reg(&s, ins), parse_operation(&s, ins); break;
  }
  asm_expect_end(&s);
  return ins;
}

/* -------------------------------------------------------------- printer */

static void print_reg(int reg, const char *sreg, StrBuf *out) {
  if (sreg) sb_putc(out, '%'), sb_puts(out, sreg);
  else sb_puts(out, lisa_reg_name(reg));
}

static void print_value(const Operand *o, StrBuf *out) {
  switch (o->kind) {
  case OPK_REG: print_reg(o->reg, o->sreg, out); break;
  case OPK_SYM: sb_puts(out, o->sym); break;
  default: sb_put_int(out, o->imm); break;
  }
}

static void print_addr(const Operand *m, StrBuf *out) {
  if (m->sym) sb_puts(out, m->sym);
  else print_reg(m->reg, m->sreg, out);
  if (!m->sub) return;
  sb_putc(out, '+');
  if (m->reg2 >= 0 || m->sreg2) print_reg(m->reg2, m->sreg2, out);
  else sb_put_int(out, m->imm);
}

/* an operation whose value operands start at ops[i] */
static void print_operation(const Instr *ins, int i, StrBuf *out) {
  static const char *const names[] = {"", "add", "xor", "and", "eq", "neq"};
  if (ins->flags == LISA_VAL) {
    print_value(&ins->ops[i], out);
    return;
  }
  sb_printf(out, "(%s ", names[ins->flags]);
  print_value(&ins->ops[i], out);
  sb_putc(out, ' ');
  print_value(&ins->ops[i + 1], out);
  sb_putc(out, ')');
}

/* A label set as herd prints it: its elements sorted, joined by ','. */
static void print_label_set(const char *joined, StrBuf *out) {
  const char *names[64];
  int n = 0;
  char *copy = xstrdup(joined);
  for (char *p = copy; *joined && n < 64;) {
    names[n++] = p;
    char *q = strchr(p, ',');
    if (!q) break;
    *q = 0;
    p = q + 1;
  }
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
      const char *t = names[j];
      names[j] = names[j - 1];
      names[j - 1] = t;
    }
  for (int i = 0; i < n; i++) {
    if (i) sb_putc(out, ',');
    if (i == 0 || strcmp(names[i], names[i - 1])) sb_puts(out, names[i]);
  }
  free(copy);
}

static void lisa_print_instr(const Instr *ins, StrBuf *out,
                             const char *(*rename)(void *, const char *),
                             void *ctx) {
  static const char *const mn[] = {"r", "w", "f", "rmw", "b", "mov"};
  const Operand *o = ins->ops;
  sb_puts(out, mn[ins->op]);
  if (ins->op != LISA_MOV) sb_printf(out, "[%s]", o[0].sym);
  switch ((LISAOp)ins->op) {
  case LISA_LD:
    sb_putc(out, ' '), print_value(&o[1], out);
    sb_putc(out, ' '), print_addr(&o[2], out);
    break;
  case LISA_ST:
    sb_putc(out, ' '), print_addr(&o[1], out);
    sb_putc(out, ' '), print_value(&o[2], out);
    break;
  case LISA_F:
    if (ins->nops == 3) {
      sb_puts(out, " {"), print_label_set(o[1].sym, out);
      sb_puts(out, "} {"), print_label_set(o[2].sym, out);
      sb_putc(out, '}');
    }
    break;
  case LISA_RMW:
    sb_putc(out, ' '), print_value(&o[1], out);
    sb_putc(out, ' '), print_operation(ins, 2, out);
    sb_putc(out, ' '), print_addr(&o[ins->nops - 1], out);
    break;
  case LISA_B:
    if (ins->nops == 3) sb_putc(out, ' '), print_value(&o[1], out);
    sb_printf(out, " %s", asm_label_name(&o[ins->nops - 1], rename, ctx));
    break;
  case LISA_MOV:
    sb_putc(out, ' '), print_value(&o[0], out);
    sb_putc(out, ' '), print_operation(ins, 1, out);
    break;
  }
}

/* herd allows r0..r100 for symbolic registers */
static const int symb_regs[] = {
#define D10(d) d##0, d##1, d##2, d##3, d##4, d##5, d##6, d##7, d##8, d##9
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, D10(1), D10(2), D10(3), D10(4), D10(5),
    D10(6), D10(7), D10(8), D10(9),
#undef D10
};

const ArchOps lisa_arch_ops = {
    .arch = ARCH_LISA,
    .name = "LISA",
    .word_bits = 64,
    .nregs = LISA_NREGS,
    .parse_reg = lisa_parse_reg,
    .reg_name = lisa_reg_name,
    .parse_instr = lisa_parse_instr,
    .print_instr = lisa_print_instr,
    .semi_continues = NULL,
    .symb_regs = symb_regs,
    .nsymb_regs = (int)ARRAY_LEN(symb_regs),
    .bell_kind = lisa_kind,
    .bell_annot = lisa_annot,
};
