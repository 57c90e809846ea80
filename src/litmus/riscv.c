/*
 * riscv.c — the RISC-V front end: register names, the instruction parser
 * and the canonical printer used by the hash (layout documented in
 * riscv.h).
 */
#include "riscv.h"

#include <string.h>

/* ------------------------------------------------------------ registers */

/* ABI names, by register number; x26's is herd's "10" (see riscv.h),
 * which cannot be written in code since it is not a name. */
static const char *const abi_names[32] = {
    "zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
    "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
    "s6",   "s7", "s8", "s9", "10",  "s11", "t3", "t4", "t5", "t6",
};

static const char *const x_names[RISCV_NREGS] = {
    "x0",  "x1",  "x2",  "x3",  "x4",  "x5",  "x6",  "x7",  "x8",
    "x9",  "x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17",
    "x18", "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26",
    "x27", "x28", "x29", "x30", "x31", "res",
};

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static int lookup_reg(const char *s, size_t n) {
  /* x0..x31 read directly: x_names[] spells them without leading zeros */
  if (n >= 2 && n <= 3 && s[0] == 'x' && is_digit(s[1]) &&
      (n == 2 || (s[1] != '0' && is_digit(s[2])))) {
    int k = n == 2 ? s[1] - '0' : (s[1] - '0') * 10 + (s[2] - '0');
    if (k < 32) return k;
  }
  for (int i = 0; i < 32; i++) {
    if (lit_word_is(x_names[i], s, n) || lit_word_is(abi_names[i], s, n)) return i;
  }
  if (n == 2 && memcmp(s, "fp", 2) == 0) return 8;
  return -1;
}

static int riscv_parse_reg(const char *s) { return lookup_reg(s, strlen(s)); }

static const char *riscv_reg_name(int reg) {
  return reg >= 0 && reg < RISCV_NREGS ? x_names[reg] : "?";
}

/* ------------------------------------------------------------ mnemonics */

typedef enum Form {
  F_NONE, F_RRK, F_RRR, F_RK, F_LI, F_MV, F_LA, F_RR, F_LABEL, F_BCC,
  F_FENCE, F_LOAD, F_STORE, F_LR, F_SC, F_AMO,
} Form;

static const struct Mnemo {
  const char *name;
  RVOp op;
  Form form;
  uint32_t flags;
} mnemos[] = {
    {"nop", RV_NOP, F_NONE, 0},        {"ret", RV_RET, F_NONE, 0},
    {"li", RV_ORI, F_LI, 0},           {"mv", RV_ADDI, F_MV, 0},
    {"la", RV_LA, F_LA, 0},            {"lui", RV_LUI, F_RK, 0},
    {"auipc", RV_AUIPC, F_RK, 0},      {"addi", RV_ADDI, F_RRK, 0},
    {"slti", RV_SLTI, F_RRK, 0},       {"sltiu", RV_SLTIU, F_RRK, 0},
    {"andi", RV_ANDI, F_RRK, 0},       {"ori", RV_ORI, F_RRK, 0},
    {"xori", RV_XORI, F_RRK, 0},       {"slli", RV_SLLI, F_RRK, 0},
    {"srli", RV_SRLI, F_RRK, 0},       {"srai", RV_SRAI, F_RRK, 0},
    {"addiw", RV_ADDIW, F_RRK, 0},     {"slliw", RV_SLLIW, F_RRK, 0},
    {"srliw", RV_SRLIW, F_RRK, 0},     {"sraiw", RV_SRAIW, F_RRK, 0},
    {"add", RV_ADD, F_RRR, 0},         {"slt", RV_SLT, F_RRR, 0},
    {"sltu", RV_SLTU, F_RRR, 0},       {"and", RV_AND, F_RRR, 0},
    {"or", RV_OR, F_RRR, 0},           {"xor", RV_XOR, F_RRR, 0},
    {"sll", RV_SLL, F_RRR, 0},         {"srl", RV_SRL, F_RRR, 0},
    {"sub", RV_SUB, F_RRR, 0},         {"sra", RV_SRA, F_RRR, 0},
    {"addw", RV_ADDW, F_RRR, 0},       {"sllw", RV_SLLW, F_RRR, 0},
    {"srlw", RV_SRLW, F_RRR, 0},       {"subw", RV_SUBW, F_RRR, 0},
    {"sraw", RV_SRAW, F_RRR, 0},       {"j", RV_J, F_LABEL, 0},
    {"beq", RV_BEQ, F_BCC, 0},         {"bne", RV_BNE, F_BCC, 0},
    {"blt", RV_BLT, F_BCC, 0},         {"bltu", RV_BLTU, F_BCC, 0},
    {"bge", RV_BGE, F_BCC, 0},         {"bgeu", RV_BGEU, F_BCC, 0},
    {"fence", RV_FENCE, F_FENCE, 0},   {"fence.i", RV_FENCE_I, F_NONE, 0},
    {"fence.tso", RV_FENCE_TSO, F_NONE, 0},
    {"sext.b", RV_EXT, F_RR, RV_MAKE_FLAGS(0, false, 0)},
    {"sext.h", RV_EXT, F_RR, RV_MAKE_FLAGS(1, false, 0)},
    {"sext.w", RV_EXT, F_RR, RV_MAKE_FLAGS(2, false, 0)},
    {"zext.b", RV_EXT, F_RR, RV_MAKE_FLAGS(0, true, 0)},
    {"zext.h", RV_EXT, F_RR, RV_MAKE_FLAGS(1, true, 0)},
    {"zext.w", RV_EXT, F_RR, RV_MAKE_FLAGS(2, true, 0)},
};

static const char *const amo_names[] = {
    "amoswap", "amoadd", "amoand", "amoor",  "amoxor",
    "amomax",  "amomaxu", "amomin", "amominu",
};

static bool eq(const char *s, size_t n, const char *lit) {
  return lit_word_is(lit, s, n);
}

/* ".aq", ".rl", ".aq.rl" (also ".aqrl"), or nothing; -1 otherwise. */
static int parse_mo(const char *s, size_t n) {
  if (n == 0) return RV_MO_RLX;
  if (eq(s, n, ".aq")) return RV_MO_AQ;
  if (eq(s, n, ".rl")) return RV_MO_RL;
  if (eq(s, n, ".aq.rl") || eq(s, n, ".aqrl")) return RV_MO_AQRL;
  return -1;
}

static int width_of(char c) {
  const char *w = "bhwd", *p = strchr(w, c);
  return c && p ? (int)(p - w) : -1;
}

/* lr / sc / amo<op>: base, then ".w" or ".d", then the ordering. */
static bool decode_atomic(const char *s, size_t b, size_t n, RVOp *op,
                          Form *form, uint32_t *flags) {
  if (eq(s, b, "lr")) *op = RV_LR, *form = F_LR;
  else if (eq(s, b, "sc")) *op = RV_SC, *form = F_SC;
  else {
    size_t k = 0;
    while (k < ARRAY_LEN(amo_names) && !eq(s, b, amo_names[k])) k++;
    if (k == ARRAY_LEN(amo_names)) return false;
    *op = (RVOp)(RV_AMOSWAP + (int)k);
    *form = F_AMO;
  }
  if (n < b + 2 || (s[b + 1] != 'w' && s[b + 1] != 'd')) return false;
  int mo = parse_mo(s + b + 2, n - b - 2);
  if (mo < 0) return false;
  /* herd's lexer reads lr.{w,d}.rl as a plain lr and sc.{w,d}.aq as a
   * plain sc: the ordering bit that makes no sense is dropped */
  if ((*op == RV_LR && mo == RV_MO_RL) || (*op == RV_SC && mo == RV_MO_AQ))
    mo = RV_MO_RLX;
  *flags = RV_MAKE_FLAGS(s[b + 1] == 'w' ? 2 : 3, false, mo);
  return true;
}

/* l{b,h,w,d}[u][.aq|.aq.rl] and s{b,h,w,d}[.rl|.aq.rl] (herd's set). */
static bool decode_plain(const char *s, size_t b, size_t n, RVOp *op,
                         Form *form, uint32_t *flags) {
  bool load = s[0] == 'l';
  if ((s[0] != 'l' && s[0] != 's') || b < 2) return false;
  int w = width_of(s[1]);
  bool u = load && b == 3 && s[2] == 'u' && w != 3;
  if (w < 0 || b != 2 + (size_t)u) return false;
  int mo = parse_mo(s + b, n - b);
  if (mo < 0 || mo == (load ? RV_MO_RL : RV_MO_AQ)) return false;
  *op = load ? RV_LOAD : RV_STORE;
  *form = load ? F_LOAD : F_STORE;
  *flags = RV_MAKE_FLAGS(w, u, mo);
  return true;
}

static bool decode(const AsmScan *s, RVOp *op, Form *form, uint32_t *flags) {
  if (s->tok.kind != AT_NAME) return false;
  const char *p = s->tok.s;
  size_t n = s->tok.len;
  /* herd's lexer also takes NOP, RET and MV in upper case, and only them */
  if (eq(p, n, "NOP")) p = "nop";
  else if (eq(p, n, "RET")) p = "ret";
  else if (eq(p, n, "MV")) p = "mv";
  for (size_t i = 0; i < ARRAY_LEN(mnemos); i++)
    if (eq(p, n, mnemos[i].name)) {
      *op = mnemos[i].op;
      *form = mnemos[i].form;
      *flags = mnemos[i].flags;
      return true;
    }
  size_t b = 0;
  while (b < n && p[b] != '.') b++;
  return decode_atomic(p, b, n, op, form, flags) ||
         decode_plain(p, b, n, op, form, flags);
}

/* --------------------------------------------------------------- parser */

static void parse_reg(AsmScan *s, Instr *ins) {
  Operand *o = asm_add_op(s, ins, OPK_REG);
  if (s->tok.kind == AT_PCTNAME)
    o->sreg = asm_tok_str(s);
  else if (s->tok.kind != AT_NAME || (o->reg = lookup_reg(s->tok.s, s->tok.len)) < 0)
    asm_error(s, "expected a register");
  asm_next(s);
}

static void parse_imm(AsmScan *s, Instr *ins) {
  asm_add_op(s, ins, OPK_IMM)->imm = asm_expect_num(s);
}

/* la rd,x: the location x (OPK_SYM). */
static void parse_sym(AsmScan *s, Instr *ins) {
  if (s->tok.kind != AT_NAME) asm_error(s, "expected a location");
  asm_add_op(s, ins, OPK_SYM)->sym = asm_tok_str(s);
  asm_next(s);
}

/* k(rs) or (rs); zero_only: the offset must be 0 (lr, sc, AMOs). */
static void parse_addr(AsmScan *s, Instr *ins, bool zero_only) {
  int64_t k = 0;
  if (s->tok.kind == AT_NUM) {
    k = s->tok.num;
    if (zero_only && k != 0) asm_error(s, "the offset must be 0");
    asm_next(s);
  }
  asm_expect(s, '(');
  parse_reg(s, ins);
  Operand *o = &ins->ops[ins->nops - 1];
  o->kind = OPK_MEM;
  o->imm = k;
  asm_expect(s, ')');
}

static void parse_list(AsmScan *s, Instr *ins, const char *pat) {
  asm_parse_list(s, ins, pat, parse_reg);
}

/* One fence access set: r w rw, or the device forms ir ow iorw. */
static void parse_access(AsmScan *s, Instr *ins) {
  static const struct { const char *name; int bits; } sets[] = {
      {"r", RV_FA_R}, {"w", RV_FA_W}, {"rw", RV_FA_R | RV_FA_W},
      {"ir", RV_FA_I | RV_FA_R}, {"ow", RV_FA_O | RV_FA_W},
      {"iorw", RV_FA_I | RV_FA_O | RV_FA_R | RV_FA_W},
  };
  for (size_t i = 0; i < ARRAY_LEN(sets); i++)
    if (asm_is_name(s, sets[i].name)) {
      asm_add_op(s, ins, OPK_IMM)->imm = sets[i].bits;
      asm_next(s);
      return;
    }
  asm_error(s, "expected a fence access set (r, w, rw, ir, ow, iorw)");
}

static void parse_fence(AsmScan *s, Instr *ins) {
  if (s->tok.kind == AT_END) {
    asm_add_op(s, ins, OPK_IMM)->imm = RV_FA_R | RV_FA_W;
    asm_add_op(s, ins, OPK_IMM)->imm = RV_FA_R | RV_FA_W;
    return;
  }
  parse_access(s, ins);
  asm_expect(s, ',');
  parse_access(s, ins);
}

static void parse_operands(AsmScan *s, Instr *ins, Form form) {
  switch (form) {
  case F_NONE: break;
  case F_RRK: parse_list(s, ins, "rrk"); break;
  case F_RRR: parse_list(s, ins, "rrr"); break;
  case F_RK: parse_list(s, ins, "rk"); break;
  case F_RR: parse_list(s, ins, "rr"); break;
  case F_LI: /* li rd,k is ori rd,x0,k */
    parse_reg(s, ins);
    asm_expect(s, ',');
    asm_add_op(s, ins, OPK_REG)->reg = RISCV_X0;
    parse_imm(s, ins);
    break;
  case F_MV: /* mv rd,rs is addi rd,rs,0 */
    parse_list(s, ins, "rr");
    asm_add_op(s, ins, OPK_IMM)->imm = 0;
    break;
  case F_LA: parse_reg(s, ins), asm_expect(s, ','), parse_sym(s, ins); break;
  case F_LABEL: asm_parse_label(s, ins); break;
  case F_BCC: parse_list(s, ins, "rr"), asm_expect(s, ','), asm_parse_label(s, ins); break;
  case F_FENCE: parse_fence(s, ins); break;
  case F_LOAD:
  case F_STORE: parse_reg(s, ins), asm_expect(s, ','), parse_addr(s, ins, false); break;
  case F_LR: parse_reg(s, ins), asm_expect(s, ','), parse_addr(s, ins, true); break;
  case F_SC:
  case F_AMO: parse_list(s, ins, "rr"), asm_expect(s, ','), parse_addr(s, ins, true); break;
  }
}

static Instr *riscv_parse_instr(Arena *a, Err *err, const char *text,
                                SrcPos pos) {
  AsmScan s;
  asm_scan_init(&s, a, err, "RISCV", text, pos);
  RVOp op;
  Form form;
  uint32_t flags;
  if (!decode(&s, &op, &form, &flags)) asm_unknown(&s);
  asm_next(&s);
  Instr *ins = asm_new_instr(&s, op);
  ins->flags = flags;
  parse_operands(&s, ins, form);
  asm_expect_end(&s);
  return ins;
}

/* -------------------------------------------------------------- printer */

static void print_reg(const Operand *o, StrBuf *out) {
  if (o->sreg) sb_putc(out, '%'), sb_puts(out, o->sreg);
  else sb_puts(out, riscv_reg_name(o->reg));
}

/* Registers and immediates of the first n operands, comma-separated. */
static void print_ops(const Instr *ins, int n, StrBuf *out) {
  for (int i = 0; i < n; i++) {
    const Operand *o = &ins->ops[i];
    if (i > 0) sb_putc(out, ',');
    if (o->kind == OPK_REG) print_reg(o, out);
    else if (o->kind == OPK_IMM) sb_put_int(out, o->imm);
    else sb_puts(out, o->sym ? o->sym : "?");
  }
}

static const char *mo_suffix(uint32_t flags) {
  static const char *const s[] = {"", ".aq", ".rl", ".aqrl"};
  return s[RV_FLAG_MO(flags)];
}

static const char *access_name(int64_t bits) {
  switch (bits) {
  case RV_FA_R: return "r";
  case RV_FA_W: return "w";
  case RV_FA_I | RV_FA_R: return "ir";
  case RV_FA_O | RV_FA_W: return "ow";
  case RV_FA_I | RV_FA_O | RV_FA_R | RV_FA_W: return "iorw";
  default: return "rw";
  }
}

/* Memory accesses: mnemonic with width and ordering, then operands. */
static void print_access(const Instr *ins, StrBuf *out) {
  const char *w = "bhwd";
  int wi = RV_FLAG_WIDTH(ins->flags);
  const Operand *m = &ins->ops[ins->nops - 1];
  switch ((RVOp)ins->op) {
  case RV_LOAD:
    sb_putc(out, 'l');
    sb_putc(out, w[wi]);
    if (ins->flags & RV_F_UNSIGNED) sb_putc(out, 'u');
    break;
  case RV_STORE: sb_putc(out, 's'), sb_putc(out, w[wi]); break;
  case RV_LR: sb_puts(out, "lr."), sb_putc(out, w[wi]); break;
  case RV_SC: sb_puts(out, "sc."), sb_putc(out, w[wi]); break;
  default:
    sb_puts(out, amo_names[ins->op - RV_AMOSWAP]);
    sb_putc(out, '.');
    sb_putc(out, w[wi]);
    break;
  }
  sb_puts(out, mo_suffix(ins->flags));
  sb_putc(out, ' ');
  print_ops(ins, ins->nops - 1, out);
  sb_putc(out, ',');
  /* lr and sc always show a 0 offset, AMOs none (herd's dump). */
  if (ins->op == RV_LOAD || ins->op == RV_STORE)
    sb_put_int(out, m->imm);
  else if (ins->op == RV_LR || ins->op == RV_SC)
    sb_putc(out, '0');
  sb_putc(out, '(');
  print_reg(m, out);
  sb_putc(out, ')');
}

static const char *mnemo_name(const Instr *ins) {
  for (size_t i = 0; i < ARRAY_LEN(mnemos); i++)
    if ((int)mnemos[i].op == ins->op && mnemos[i].flags == ins->flags &&
        mnemos[i].form != F_LI && mnemos[i].form != F_MV)
      return mnemos[i].name;
  return "?";
}

static void riscv_print_instr(const Instr *ins, StrBuf *out,
                              const char *(*rename)(void *, const char *),
                              void *ctx) {
  const Operand *o = ins->ops;
  switch ((RVOp)ins->op) {
  case RV_LOAD: case RV_STORE: case RV_LR: case RV_SC:
  case RV_AMOSWAP: case RV_AMOADD: case RV_AMOAND: case RV_AMOOR:
  case RV_AMOXOR: case RV_AMOMAX: case RV_AMOMAXU: case RV_AMOMIN:
  case RV_AMOMINU:
    print_access(ins, out);
    return;
  case RV_FENCE:
    sb_puts(out, "fence ");
    sb_puts(out, access_name(o[0].imm));
    sb_putc(out, ',');
    sb_puts(out, access_name(o[1].imm));
    return;
  case RV_J:
    sb_puts(out, "j ");
    sb_puts(out, asm_label_name(&o[0], rename, ctx));
    return;
  case RV_BEQ: case RV_BNE: case RV_BLT: case RV_BLTU: case RV_BGE:
  case RV_BGEU:
    sb_puts(out, mnemo_name(ins));
    sb_putc(out, ' ');
    print_ops(ins, 2, out);
    sb_putc(out, ',');
    sb_puts(out, asm_label_name(&o[2], rename, ctx));
    return;
  case RV_ADDI:
    if (o[2].imm == 0) { /* herd prints addi rd,rs,0 as mv */
      sb_puts(out, "mv ");
      print_reg(&o[0], out);
      sb_putc(out, ',');
      print_reg(&o[1], out);
      return;
    }
    break;
  case RV_XORI: sb_putc(out, ' '); break; /* herd's dump: " xori" */
  default: break;
  }
  sb_puts(out, mnemo_name(ins));
  if (ins->nops > 0) sb_putc(out, ' ');
  print_ops(ins, ins->nops, out);
}

/* herd's allocation order for symbolic registers: x5..x31. */
static const int symb_regs[] = {5,  6,  7,  8,  9,  10, 11, 12, 13, 14,
                                15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
                                25, 26, 27, 28, 29, 30, 31};

const ArchOps riscv_arch_ops = {
    .arch = ARCH_RISCV,
    .name = "RISCV",
    .word_bits = 64,
    .nregs = RISCV_NREGS,
    .parse_reg = riscv_parse_reg,
    .reg_name = riscv_reg_name,
    .parse_instr = riscv_parse_instr,
    .print_instr = riscv_print_instr,
    .semi_continues = NULL,
    .symb_regs = symb_regs,
    .nsymb_regs = (int)ARRAY_LEN(symb_regs),
};
