/*
 * ppc.c — the PPC front end: register names, the instruction parser and
 * the canonical printer used by the hash (layout documented in ppc.h).
 */
#include "ppc.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ registers */

static const char *const reg_names[PPC_NREGS] = {
    "r0",  "r1",  "r2",  "r3",  "r4",  "r5",  "r6",  "r7",  "r8",
    "r9",  "r10", "r11", "r12", "r13", "r14", "r15", "r16", "r17",
    "r18", "r19", "r20", "r21", "r22", "r23", "r24", "r25", "r26",
    "r27", "r28", "r29", "r30", "r31", "cr0", "cr1", "cr2", "cr3",
    "cr4", "cr5", "cr6", "cr7", "lr",
};

/* Case-insensitive lookup among the first `limit` names. */
static int lookup_reg(const char *s, size_t n, int limit) {
  char buf[8];
  if (n + 1 > sizeof buf) return -1;
  for (size_t i = 0; i < n; i++) buf[i] = (char)tolower((unsigned char)s[i]);
  buf[n] = 0;
  for (int i = 0; i < limit; i++)
    if (strcmp(reg_names[i], buf) == 0) return i;
  return -1;
}

static int ppc_parse_reg(const char *s) {
  return lookup_reg(s, strlen(s), PPC_NREGS);
}

static const char *ppc_reg_name(int reg) {
  return reg >= 0 && reg < PPC_NREGS ? reg_names[reg] : "?";
}

/* ------------------------------------------------------------ mnemonics */

typedef enum Form {
  F_NONE, F_RRR, F_RR, F_RRK, F_ROT, F_RK, F_DFORM, F_CMP, F_CMPI, F_LABEL,
  F_BCC, F_R, F_STR,
} Form;

static const struct Mnemo {
  const char *name;
  PPCOp op;
  Form form;
  bool dot; /* a record form "name." exists */
  int cc;
} mnemos[] = {
    {"nop", PPC_NOP, F_NONE, false, 0},
    {"add", PPC_ADD, F_RRR, true, 0},
    {"sub", PPC_SUB, F_RRR, true, 0},
    {"subf", PPC_SUBF, F_RRR, true, 0},
    {"or", PPC_OR, F_RRR, true, 0},
    {"and", PPC_AND, F_RRR, true, 0},
    {"xor", PPC_XOR, F_RRR, true, 0},
    {"mullw", PPC_MULLW, F_RRR, true, 0},
    {"divw", PPC_DIVW, F_RRR, true, 0},
    {"nor", PPC_NOR, F_RRR, true, 0},
    {"slw", PPC_SLW, F_RRR, true, 0},
    {"sraw", PPC_SRAW, F_RRR, true, 0},
    {"neg", PPC_NEG, F_RR, true, 0},
    {"mr", PPC_MR, F_RR, false, 0},
    {"extsw", PPC_EXTSW, F_RR, true, 0},
    {"dcbf", PPC_DCBF, F_RR, false, 0},
    {"addi", PPC_ADDI, F_RRK, false, 0},
    {"subi", PPC_ADDI, F_RRK, false, 1}, /* cc = 1: negate k */
    {"addis", PPC_ADDIS, F_RRK, false, 0},
    {"ori", PPC_ORI, F_RRK, false, 0},
    {"xori", PPC_XORI, F_RRK, false, 0},
    {"andi.", PPC_ANDI, F_RRK, false, 0},
    {"mulli", PPC_MULLI, F_RRK, false, 0},
    {"srawi", PPC_SRAWI, F_RRK, true, 0},
    {"clrldi", PPC_CLRLDI, F_RRK, true, 0},
    {"rlwinm", PPC_RLWINM, F_ROT, true, 0},
    {"rlwimi", PPC_RLWIMI, F_ROT, true, 0},
    {"li", PPC_LI, F_RK, false, 0},
    {"lis", PPC_LIS, F_RK, false, 0},
    {"lbz", PPC_LBZ, F_DFORM, false, 0},
    {"lhz", PPC_LHZ, F_DFORM, false, 0},
    {"lwz", PPC_LWZ, F_DFORM, false, 0},
    {"ld", PPC_LD, F_DFORM, false, 0},
    {"lwa", PPC_LWA, F_DFORM, false, 0},
    {"lwzu", PPC_LWZU, F_DFORM, false, 0},
    {"lmw", PPC_LMW, F_DFORM, false, 0},
    {"stb", PPC_STB, F_DFORM, false, 0},
    {"sth", PPC_STH, F_DFORM, false, 0},
    {"stw", PPC_STW, F_DFORM, false, 0},
    {"std", PPC_STD, F_DFORM, false, 0},
    {"stwu", PPC_STWU, F_DFORM, false, 0},
    {"stmw", PPC_STMW, F_DFORM, false, 0},
    {"lbzx", PPC_LBZX, F_RRR, false, 0},
    {"lhzx", PPC_LHZX, F_RRR, false, 0},
    {"lwzx", PPC_LWZX, F_RRR, false, 0},
    {"ldx", PPC_LDX, F_RRR, false, 0},
    {"lwax", PPC_LWAX, F_RRR, false, 0},
    {"lwarx", PPC_LWARX, F_RRR, false, 0},
    {"stbx", PPC_STBX, F_RRR, false, 0},
    {"sthx", PPC_STHX, F_RRR, false, 0},
    {"stwx", PPC_STWX, F_RRR, false, 0},
    {"stdx", PPC_STDX, F_RRR, false, 0},
    {"stwcx.", PPC_STWCX, F_RRR, false, 0},
    {"cmpw", PPC_CMPW, F_CMP, false, 0},
    {"cmplw", PPC_CMPLW, F_CMP, false, 0},
    {"cmpwi", PPC_CMPWI, F_CMPI, false, 0},
    {"cmplwi", PPC_CMPLWI, F_CMPI, false, 0},
    {"b", PPC_B, F_LABEL, false, 0},
    {"bl", PPC_BL, F_LABEL, false, 0},
    {"beq", PPC_BCC, F_BCC, false, PPC_CC_EQ},
    {"bne", PPC_BCC, F_BCC, false, PPC_CC_NE},
    {"blt", PPC_BCC, F_BCC, false, PPC_CC_LT},
    {"bge", PPC_BCC, F_BCC, false, PPC_CC_GE},
    {"bnl", PPC_BCC, F_BCC, false, PPC_CC_GE},
    {"bgt", PPC_BCC, F_BCC, false, PPC_CC_GT},
    {"ble", PPC_BCC, F_BCC, false, PPC_CC_LE},
    {"bng", PPC_BCC, F_BCC, false, PPC_CC_LE},
    {"blr", PPC_BLR, F_NONE, false, 0},
    {"mtlr", PPC_MTLR, F_R, false, 0},
    {"mflr", PPC_MFLR, F_R, false, 0},
    {"mfcr", PPC_MFCR, F_R, false, 0},
    {"sync", PPC_SYNC, F_NONE, false, 0},
    {"hwsync", PPC_SYNC, F_NONE, false, 0},
    {"lwsync", PPC_LWSYNC, F_NONE, false, 0},
    {"isync", PPC_ISYNC, F_NONE, false, 0},
    {"eieio", PPC_EIEIO, F_NONE, false, 0},
    {"com", PPC_COM, F_STR, false, 0},
};

static const struct Mnemo *find_mnemo(const AsmScan *s, uint32_t *flags) {
  if (s->tok.kind != AT_NAME) return NULL;
  const char *p = s->tok.s;
  size_t n = s->tok.len;
  for (int pass = 0; pass < 2; pass++) {
    for (size_t i = 0; i < ARRAY_LEN(mnemos); i++) {
      const struct Mnemo *m = &mnemos[i];
      if (lit_word_is(m->name, p, n) &&
          (pass == 0 || m->dot))
        return m;
    }
    /* Second pass: a record form "add." of a mnemonic that has one. */
    if (n < 2 || p[n - 1] != '.') return NULL;
    n--;
    *flags |= PPC_F_DOT;
  }
  return NULL;
}

/* --------------------------------------------------------------- parser */

static void parse_gpr(AsmScan *s, Instr *ins) {
  Operand *o = asm_add_op(s, ins, OPK_REG);
  if (s->tok.kind == AT_PCTNAME) {
    o->sreg = asm_tok_str(s);
  } else if (s->tok.kind != AT_NAME ||
             (o->reg = lookup_reg(s->tok.s, s->tok.len, 32)) < 0) {
    asm_error(s, "expected a register r0..r31");
  }
  asm_next(s);
}

/* d(rA), or the old syntax d,rA; the displacement becomes operand 1. */
static void parse_dform(AsmScan *s, Instr *ins) {
  int64_t d = asm_expect_num(s);
  bool paren = asm_accept(s, '(');
  if (!paren) asm_expect(s, ',');
  parse_gpr(s, ins);
  Operand *o = &ins->ops[ins->nops - 1];
  o->kind = OPK_MEM;
  o->imm = d;
  if (paren) asm_expect(s, ')');
}

/* Optional "crN," prefix of a compare; always yields the field operand. */
static void parse_crf(AsmScan *s, Instr *ins) {
  Operand *o = asm_add_op(s, ins, OPK_REG);
  o->reg = PPC_CR0;
  if (s->tok.kind == AT_NAME && s->tok.len == 3 &&
      memcmp(s->tok.s, "cr", 2) == 0 && s->tok.s[2] >= '0' &&
      s->tok.s[2] <= '7') {
    o->reg = PPC_CR0 + (s->tok.s[2] - '0');
    asm_next(s);
    asm_expect(s, ',');
  }
}

/* Registers and immediates separated by commas, per a pattern string
 * ('r' register, 'k' immediate). */
static void parse_list(AsmScan *s, Instr *ins, const char *pat) {
  asm_parse_list(s, ins, pat, parse_gpr);
}

static void parse_operands(AsmScan *s, Instr *ins, const struct Mnemo *m) {
  switch (m->form) {
  case F_NONE: break;
  case F_RRR: parse_list(s, ins, "rrr"); break;
  case F_RR: parse_list(s, ins, "rr"); break;
  case F_RRK:
    parse_list(s, ins, "rrk");
    if (m->cc) ins->ops[2].imm = -ins->ops[2].imm; /* subi */
    break;
  case F_ROT: parse_list(s, ins, "rrkkk"); break;
  case F_RK: parse_list(s, ins, "rk"); break;
  case F_DFORM:
    parse_gpr(s, ins);
    asm_expect(s, ',');
    parse_dform(s, ins);
    break;
  case F_CMP: parse_crf(s, ins), parse_list(s, ins, "rr"); break;
  case F_CMPI: parse_crf(s, ins), parse_list(s, ins, "rk"); break;
  case F_LABEL: asm_parse_label(s, ins); break;
  case F_BCC:
    asm_add_op(s, ins, OPK_COND)->imm = m->cc;
    asm_parse_label(s, ins);
    break;
  case F_R: parse_gpr(s, ins); break;
  case F_STR:
    if (s->tok.kind != AT_STRING) asm_error(s, "expected a string");
    asm_add_op(s, ins, OPK_STR)->sym = asm_tok_str(s);
    asm_next(s);
    break;
  }
}

static Instr *ppc_parse_instr(Arena *a, Err *err, const char *text,
                              SrcPos pos) {
  AsmScan s;
  asm_scan_init(&s, a, err, "PPC", text, pos);
  uint32_t flags = 0;
  const struct Mnemo *m = find_mnemo(&s, &flags);
  if (!m) asm_unknown(&s);
  asm_next(&s);
  Instr *ins = asm_new_instr(&s, m->op);
  ins->flags = flags;
  parse_operands(&s, ins, m);
  asm_expect_end(&s);
  return ins;
}

/* -------------------------------------------------------------- printer */

static void print_reg(const Operand *o, StrBuf *out) {
  if (o->sreg) sb_putc(out, '%'), sb_puts(out, o->sreg);
  else sb_puts(out, ppc_reg_name(o->reg));
}

static void print_operand(const Operand *o, StrBuf *out) {
  switch (o->kind) {
  case OPK_REG: print_reg(o, out); break;
  case OPK_IMM: sb_put_int(out, o->imm); break;
  case OPK_MEM:
    sb_put_int(out, o->imm);
    sb_putc(out, '(');
    print_reg(o, out);
    sb_putc(out, ')');
    break;
  default: sb_puts(out, "?"); break;
  }
}

/* Printed mnemonic: herd's hash normalises doubleword accesses to word
 * ones (hash.md §5.3) and prints hwsync as sync. */
static const char *print_name(const Instr *ins) {
  switch ((PPCOp)ins->op) {
  case PPC_LD: return "lwz";
  case PPC_STD: return "stw";
  case PPC_LDX: return "lwzx";
  case PPC_STDX: return "stwx";
  default: break;
  }
  for (size_t i = 0; i < ARRAY_LEN(mnemos); i++)
    if ((int)mnemos[i].op == ins->op) return mnemos[i].name;
  return "?";
}

/* Separator printed before operand i (herd's quirky spacing). */
static const char *separator(const Instr *ins, int i) {
  if (i == 0) return " ";
  if (ins->op == PPC_EXTSW) return ", ";
  if ((ins->op == PPC_RLWINM || ins->op == PPC_RLWIMI) && i == 3) return ", ";
  return ",";
}

static const char *const cc_names[] = {"eq", "ne", "lt", "ge", "gt", "le"};

static bool print_branch(const Instr *ins, StrBuf *out,
                         const char *(*rename)(void *, const char *),
                         void *ctx) {
  switch ((PPCOp)ins->op) {
  case PPC_B:
  case PPC_BL:
    sb_puts(out, ins->op == PPC_B ? "b   " : "bl   ");
    sb_puts(out, asm_label_name(&ins->ops[0], rename, ctx));
    return true;
  case PPC_BCC: {
    int cc = (int)ins->ops[0].imm;
    sb_putc(out, 'b');
    sb_puts(out, cc >= 0 && cc < 6 ? cc_names[cc] : "?");
    sb_puts(out, "  ");
    sb_puts(out, asm_label_name(&ins->ops[1], rename, ctx));
    return true;
  }
  case PPC_COM:
    sb_puts(out, "com \"");
    sb_puts(out, ins->ops[0].sym);
    sb_putc(out, '"');
    return true;
  default: return false;
  }
}

static void ppc_print_instr(const Instr *ins, StrBuf *out,
                            const char *(*rename)(void *, const char *),
                            void *ctx) {
  if (print_branch(ins, out, rename, ctx)) return;
  sb_puts(out, print_name(ins));
  if (ins->flags & PPC_F_DOT) sb_putc(out, '.');
  int first = 0;
  bool cmp = ins->op >= PPC_CMPW && ins->op <= PPC_CMPLWI;
  if (cmp && ins->ops[0].reg == PPC_CR0) first = 1; /* field 0 omitted */
  for (int i = first; i < ins->nops; i++) {
    sb_puts(out, separator(ins, i - first));
    print_operand(&ins->ops[i], out);
  }
}

static const int symb_regs[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                                23, 24, 25, 26, 27, 28, 29, 30, 31};

const ArchOps ppc_arch_ops = {
    .arch = ARCH_PPC,
    .name = "PPC",
    .word_bits = 64,
    .nregs = PPC_NREGS,
    .parse_reg = ppc_parse_reg,
    .reg_name = ppc_reg_name,
    .parse_instr = ppc_parse_instr,
    .print_instr = ppc_print_instr,
    .semi_continues = NULL,
    .symb_regs = symb_regs,
    .nsymb_regs = (int)ARRAY_LEN(symb_regs),
};
