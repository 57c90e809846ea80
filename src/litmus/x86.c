/*
 * x86.c — the X86 front end: register names, the instruction parser and
 * the canonical printer used by the hash (layout documented in x86.h).
 */
#include "x86.h"

#include <string.h>

static const char *const reg_names[X86_NREGS] = {
    "EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "EBP", "ESP",
    "EIP", "ZF",  "SF",  "CF",
};

static int x86_parse_reg(const char *s) {
  for (int i = 0; i < X86_NREGS; i++)
    if (strcmp(reg_names[i], s) == 0) return i;
  return -1;
}

static const char *x86_reg_name(int reg) {
  return reg >= 0 && reg < X86_NREGS ? reg_names[reg] : "?";
}

/* --------------------------------------------------------------- parser */

typedef enum Form {
  F_NONE,     /* MFENCE */
  F_EA_OP,    /* MOV ea,op */
  F_EA,       /* INC ea */
  F_REG_EA,   /* CMOVC reg,ea */
  F_EA_EA,    /* XCHG ea,ea */
  F_EA_REG,   /* CMPXCHG ea,reg */
  F_LABEL,    /* JMP L */
  F_CC_LABEL, /* JE L */
} Form;

static const struct Mnemo {
  const char *name; /* upper case; the lower-case spelling is accepted too */
  X86Op op;
  Form form;
  X86Cond cc;
} mnemos[] = {
    {"NOP", X86_NOP, F_NONE, 0},       {"MOV", X86_MOV, F_EA_OP, 0},
    {"MOVB", X86_MOVB, F_EA_OP, 0},    {"MOVW", X86_MOVW, F_EA_OP, 0},
    {"MOVL", X86_MOVL, F_EA_OP, 0},    {"MOVQ", X86_MOVQ, F_EA_OP, 0},
    {"MOVT", X86_MOVT, F_EA_OP, 0},    {"MOVSD", X86_MOVSD, F_NONE, 0},
    {"ADD", X86_ADD, F_EA_OP, 0},      {"XOR", X86_XOR, F_EA_OP, 0},
    {"OR", X86_OR, F_EA_OP, 0},        {"CMP", X86_CMP, F_EA_OP, 0},
    {"INC", X86_INC, F_EA, 0},         {"DEC", X86_DEC, F_EA, 0},
    {"SETNB", X86_SETNB, F_EA, 0},     {"CMOVC", X86_CMOVC, F_REG_EA, 0},
    {"XCHG", X86_XCHG, F_EA_EA, 0},    {"CMPXCHG", X86_CMPXCHG, F_EA_REG, 0},
    {"JMP", X86_JMP, F_LABEL, 0},      {"JE", X86_JCC, F_CC_LABEL, X86_CC_E},
    {"JNE", X86_JCC, F_CC_LABEL, X86_CC_NE},
    {"JLE", X86_JCC, F_CC_LABEL, X86_CC_LE},
    {"JL", X86_JCC, F_CC_LABEL, X86_CC_L},
    {"JG", X86_JCC, F_CC_LABEL, X86_CC_G},
    {"JGE", X86_JCC, F_CC_LABEL, X86_CC_GE},
    {"JS", X86_JCC, F_CC_LABEL, X86_CC_S},
    {"JNS", X86_JCC, F_CC_LABEL, X86_CC_NS},
    {"MFENCE", X86_MFENCE, F_NONE, 0}, {"SFENCE", X86_SFENCE, F_NONE, 0},
    {"LFENCE", X86_LFENCE, F_NONE, 0},
};

static const struct Mnemo *find_mnemo(const AsmScan *s) {
  if (s->tok.kind != AT_NAME) return NULL;
  for (size_t i = 0; i < ARRAY_LEN(mnemos); i++)
    if (asm_upper_or_lower(mnemos[i].name, s->tok.s, s->tok.len)) return &mnemos[i];
  return NULL;
}

/* A register token (EAX or %name) into o; false if the token is not one. */
static bool try_reg(AsmScan *s, Operand *o) {
  if (s->tok.kind == AT_PCTNAME) {
    o->sreg = asm_tok_str(s);
    asm_next(s);
    return true;
  }
  if (s->tok.kind != AT_NAME) return false;
  int r = x86_parse_reg(asm_tok_str(s));
  if (r < 0) return false;
  o->reg = r;
  asm_next(s);
  return true;
}

static void expect_reg(AsmScan *s, Operand *o) {
  if (!try_reg(s, o)) asm_error(s, "expected a register");
}

/* [reg] [x] [k] (reg) or reg */
static void parse_ea(AsmScan *s, Instr *ins) {
  Operand *o = asm_add_op(s, ins, OPK_REG);
  if (asm_accept(s, '(')) {
    o->kind = OPK_MEM;
    expect_reg(s, o);
    asm_expect(s, ')');
  } else if (asm_accept(s, '[')) {
    o->kind = OPK_MEM;
    if (try_reg(s, o)) {
    } else if (s->tok.kind == AT_NAME) {
      o->kind = OPK_SYM;
      o->sym = asm_tok_str(s);
      asm_next(s);
    } else if (s->tok.kind == AT_NUM) {
      o->imm = asm_expect_num(s);
    } else {
      asm_error(s, "expected a register or a location inside [ ]");
    }
    asm_expect(s, ']');
  } else if (!try_reg(s, o)) {
    asm_error(s, "expected a register or a memory operand");
  }
}

static void parse_op(AsmScan *s, Instr *ins) {
  if (asm_accept(s, '$') || s->tok.kind == AT_NUM) {
    Operand *o = asm_add_op(s, ins, OPK_IMM);
    o->imm = asm_expect_num(s);
  } else {
    parse_ea(s, ins);
  }
}

static void parse_operands(AsmScan *s, Instr *ins, const struct Mnemo *m) {
  switch (m->form) {
  case F_NONE: break;
  case F_EA_OP: parse_ea(s, ins), asm_expect(s, ','), parse_op(s, ins); break;
  case F_EA: parse_ea(s, ins); break;
  case F_REG_EA:
    expect_reg(s, asm_add_op(s, ins, OPK_REG));
    asm_expect(s, ',');
    parse_ea(s, ins);
    break;
  case F_EA_EA: parse_ea(s, ins), asm_expect(s, ','), parse_ea(s, ins); break;
  case F_EA_REG:
    parse_ea(s, ins);
    asm_expect(s, ',');
    expect_reg(s, asm_add_op(s, ins, OPK_REG));
    break;
  case F_LABEL: asm_parse_label(s, ins); break;
  case F_CC_LABEL:
    asm_add_op(s, ins, OPK_COND)->imm = m->cc;
    asm_parse_label(s, ins);
    break;
  }
}

static Instr *x86_parse_instr(Arena *a, Err *err, const char *text,
                              SrcPos pos) {
  AsmScan s;
  asm_scan_init(&s, a, err, "X86", text, pos);
  uint32_t flags = 0;
  if (asm_upper_or_lower("LOCK", s.tok.s, s.tok.kind == AT_NAME ? s.tok.len : 0)) {
    flags |= X86_F_LOCK;
    asm_next(&s);
    asm_accept(&s, ';');
  }
  const struct Mnemo *m = find_mnemo(&s);
  if (!m) asm_unknown(&s);
  asm_next(&s);
  Instr *ins = asm_new_instr(&s, m->op);
  ins->flags = flags;
  parse_operands(&s, ins, m);
  asm_expect_end(&s);
  return ins;
}

static bool x86_semi_continues(const char *cell) {
  return strcmp(cell, "LOCK") == 0 || strcmp(cell, "lock") == 0;
}

/* -------------------------------------------------------------- printer */

static void print_reg(const Operand *o, StrBuf *out) {
  if (o->sreg) sb_putc(out, '%'), sb_puts(out, o->sreg);
  else sb_puts(out, x86_reg_name(o->reg));
}

static void print_operand(const Operand *o, StrBuf *out) {
  switch (o->kind) {
  case OPK_REG: print_reg(o, out); break;
  case OPK_MEM:
    sb_putc(out, '[');
    if (o->reg >= 0 || o->sreg) print_reg(o, out);
    else sb_put_int(out, o->imm);
    sb_putc(out, ']');
    break;
  case OPK_SYM:
    sb_putc(out, '[');
    sb_puts(out, o->sym);
    sb_putc(out, ']');
    break;
  case OPK_IMM:
    sb_putc(out, '$');
    sb_put_int(out, o->imm);
    break;
  default: sb_puts(out, "?"); break;
  }
}

static const char *const cc_names[] = {"E", "NE", "LE", "L",
                                       "G", "GE", "S",  "NS"};

/* Mnemonic as printed by herd's dump for the hash: sized moves are
 * normalised to MOV first; CMP/INC/DEC carry a trailing space. */
static const char *print_mnemo(const Instr *ins) {
  switch ((X86Op)ins->op) {
  case X86_MOVB: case X86_MOVW: case X86_MOVL: case X86_MOVQ: case X86_MOVT:
    return "MOV";
  case X86_CMP: return "CMP ";
  case X86_INC: return "INC ";
  case X86_DEC: return "DEC ";
  default: break;
  }
  for (size_t i = 0; i < ARRAY_LEN(mnemos); i++)
    if ((int)mnemos[i].op == ins->op) return mnemos[i].name;
  return "?";
}

static void x86_print_instr(const Instr *ins, StrBuf *out,
                            const char *(*rename)(void *, const char *),
                            void *ctx) {
  if (ins->flags & X86_F_LOCK) sb_puts(out, "LOCK; ");
  if (ins->op == X86_JCC) {
    int cc = (int)ins->ops[0].imm;
    sb_putc(out, 'J');
    sb_puts(out, cc >= 0 && cc < 8 ? cc_names[cc] : "?");
    sb_putc(out, ' ');
    sb_puts(out, asm_label_name(&ins->ops[1], rename, ctx));
    return;
  }
  sb_puts(out, print_mnemo(ins));
  if (ins->op == X86_JMP) {
    sb_putc(out, ' ');
    sb_puts(out, asm_label_name(&ins->ops[0], rename, ctx));
    return;
  }
  for (int i = 0; i < ins->nops; i++) {
    sb_putc(out, i ? ',' : ' ');
    print_operand(&ins->ops[i], out);
  }
}

static const int symb_regs[] = {X86_EAX, X86_EBX, X86_ECX,
                                X86_EDX, X86_ESI, X86_EDI};

const ArchOps x86_arch_ops = {
    .arch = ARCH_X86,
    .name = "X86",
    .word_bits = 32,
    .nregs = X86_NREGS,
    .parse_reg = x86_parse_reg,
    .reg_name = x86_reg_name,
    .parse_instr = x86_parse_instr,
    .print_instr = x86_print_instr,
    .semi_continues = x86_semi_continues,
    .symb_regs = symb_regs,
    .nsymb_regs = (int)ARRAY_LEN(symb_regs),
};
