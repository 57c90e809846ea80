/*
 * gpu.c — the pieces the PTX and Vulkan front ends share (gpu.h):
 * registers, operands, the arithmetic and control forms, barriers, the
 * printer the hash digests, thread scopes, and the sections herd's
 * grammar lacks (aliases in the init section, Vulkan's ssw block).
 */
#include "gpu.h"

#include <stdlib.h>
#include <string.h>

const char *const gpu_tag_names[GT_COUNT] = {
    "RLX", "REL", "ACQ", "ACQ_REL", "SC", "GEN", "SUR", "TEX", "CON",
    "ALIAS", "CTA", "GPU", "SYS",
    "NONPRIV", "ATOM", "SC0", "SC1", "SC2", "SC3", "SEMSC0", "SEMSC1",
    "SEMSC2", "SEMSC3", "AV", "VIS", "SEMAV", "SEMVIS", "AVDEVICE",
    "VISDEVICE", "CBAR", "SG", "WG", "QF", "DV", "RMW",
};

/* ------------------------------------------------------------ registers */

static int reg_of(const char *s, size_t n) {
  if (n < 2 || n > 4 || s[0] != 'r') return -1;
  int v = 0;
  for (size_t i = 1; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v < GPU_NREGS ? v : -1;
}

int gpu_parse_reg(const char *s) { return reg_of(s, strlen(s)); }

static const char *const reg_names[GPU_NREGS] = {
    "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
    "r16", "r17", "r18", "r19", "r20", "r21", "r22", "r23", "r24", "r25", "r26", "r27", "r28", "r29", "r30", "r31",
    "r32", "r33", "r34", "r35", "r36", "r37", "r38", "r39", "r40", "r41", "r42", "r43", "r44", "r45", "r46", "r47",
    "r48", "r49", "r50", "r51", "r52", "r53", "r54", "r55", "r56", "r57", "r58", "r59", "r60", "r61", "r62", "r63",
    "r64", "r65", "r66", "r67", "r68", "r69", "r70", "r71", "r72", "r73", "r74", "r75", "r76", "r77", "r78", "r79",
    "r80", "r81", "r82", "r83", "r84", "r85", "r86", "r87", "r88", "r89", "r90", "r91", "r92", "r93", "r94", "r95",
    "r96", "r97", "r98", "r99", "r100", "r101", "r102", "r103", "r104", "r105", "r106", "r107", "r108", "r109", "r110", "r111",
    "r112", "r113", "r114", "r115", "r116", "r117", "r118", "r119", "r120", "r121", "r122", "r123", "r124", "r125", "r126", "r127",
};

const char *gpu_reg_name(int reg) {
  return reg >= 0 && reg < GPU_NREGS ? reg_names[reg] : "?";
}

/* ------------------------------------------------------------ mnemonics */

void gpu_split_words(const char *s, size_t n, GpuWords *out) {
  out->n = 0;
  size_t i = 0;
  while (i <= n && out->n < 16) {
    size_t j = i;
    while (j < n && s[j] != '.') j++;
    out->w[out->n] = s + i;
    out->len[out->n] = j - i;
    out->n++;
    i = j + 1;
  }
}

bool gpu_word_is(const GpuWords *g, int i, const char *w) {
  return i < g->n && lit_word_is(w, g->w[i], g->len[i]);
}

int gpu_alu_word(const GpuWords *g, int i) {
  static const char *const names[] = {"add", "sub", "mul", "div", "and", "or", "xor", "exch", "cas"};
  for (int k = 0; k < (int)ARRAY_LEN(names); k++)
    if (gpu_word_is(g, i, names[k])) return k;
  return -1;
}

/* ------------------------------------------------------------- operands */

void gpu_operand_reg(AsmScan *s, Instr *ins) {
  Operand *o = asm_add_op(s, ins, OPK_REG);
  if (s->tok.kind != AT_NAME || (o->reg = reg_of(s->tok.s, s->tok.len)) < 0)
    asm_error(s, "expected a register r0..r%d", GPU_NREGS - 1);
  asm_next(s);
}

void gpu_operand_loc(AsmScan *s, Instr *ins) {
  if (s->tok.kind != AT_NAME || reg_of(s->tok.s, s->tok.len) >= 0)
    asm_error(s, "expected a memory location");
  asm_add_op(s, ins, OPK_SYM)->sym = asm_tok_str(s);
  asm_next(s);
}

void gpu_operand_val(AsmScan *s, Instr *ins) {
  if (s->tok.kind == AT_NUM) {
    asm_add_op(s, ins, OPK_IMM)->imm = asm_expect_num(s);
    return;
  }
  gpu_operand_reg(s, ins);
}

Instr *gpu_new_instr(AsmScan *s, GpuOp op, const char *mnemo, int64_t tags, int sub) {
  Instr *ins = asm_new_instr(s, op);
  Operand *m = asm_add_op(s, ins, OPK_STR);
  m->sym = mnemo;
  m->imm = tags;
  m->sub = (uint8_t)sub;
  return ins;
}

Instr *gpu_parse_common(AsmScan *s, const GpuWords *g, const char *mnemo) {
  static const char *const cmps[] = {"beq", "bne", "blt", "bgt", "ble", "bge"};
  Instr *ins;
  if (g->n != 1) return NULL;
  int alu = gpu_alu_word(g, 0);
  if (alu >= 0 && alu <= GA_XOR) {
    asm_next(s);
    ins = gpu_new_instr(s, G_ALU, mnemo, 0, alu);
    gpu_operand_reg(s, ins);
    asm_expect(s, ',');
    gpu_operand_val(s, ins);
    asm_expect(s, ',');
    gpu_operand_val(s, ins);
    return ins;
  }
  if (gpu_word_is(g, 0, "goto")) {
    asm_next(s);
    ins = gpu_new_instr(s, G_GOTO, mnemo, 0, 0);
    asm_parse_label(s, ins);
    return ins;
  }
  for (int k = 0; k < (int)ARRAY_LEN(cmps); k++)
    if (gpu_word_is(g, 0, cmps[k])) {
      asm_next(s);
      ins = gpu_new_instr(s, G_BCC, mnemo, 0, k);
      gpu_operand_val(s, ins);
      asm_expect(s, ',');
      gpu_operand_val(s, ins);
      asm_expect(s, ',');
      asm_parse_label(s, ins);
      return ins;
    }
  return NULL;
}

void gpu_parse_barrier(AsmScan *s, Instr *ins) {
  asm_add_op(s, ins, OPK_IMM)->imm = asm_expect_num(s);
  for (int k = 0; k < 2 && asm_accept(s, ','); k++) gpu_operand_val(s, ins);
}

/* -------------------------------------------------------------- printer */

void gpu_print_instr(const Instr *ins, StrBuf *out,
                     const char *(*rename)(void *ctx, const char *label), void *ctx) {
  sb_puts(out, ins->ops[0].sym);
  for (int i = 1; i < ins->nops; i++) {
    const Operand *o = &ins->ops[i];
    sb_puts(out, i == 1 ? " " : ",");
    switch (o->kind) {
    case OPK_REG: sb_puts(out, gpu_reg_name(o->reg)); break;
    case OPK_IMM: sb_printf(out, "%lld", (long long)o->imm); break;
    case OPK_LABEL: sb_puts(out, asm_label_name(o, rename, ctx)); break;
    default: sb_puts(out, o->sym ? o->sym : "?"); break;
    }
  }
}

/* --------------------------------------------------------------- scopes */

bool gpu_thread_scopes(const Test *t, int k, const char *const names[3], GpuScopes *out) {
  for (int i = 0; i < 3; i++) out->id[i] = -1;
  if (k < 0 || k >= t->nthreads || !t->threads[k].attrs) return false;
  const char *s = t->threads[k].attrs;
  while (*s) {
    while (*s == ' ' || *s == '\t' || *s == ',') s++;
    const char *w = s;
    while (*s && *s != ' ' && *s != '\t' && *s != ',') s++;
    size_t wn = (size_t)(s - w);
    while (*s == ' ' || *s == '\t') s++;
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s) return false;
    s = end;
    bool known = false;
    for (int i = 0; i < 3; i++)
      if (names[i] && lit_word_is(names[i], w, wn)) out->id[i] = (int)v, known = true;
    if (!known) return false;
  }
  for (int i = 0; i < 3; i++)
    if (names[i] && out->id[i] < 0) return false;
  return true;
}

/* --------------------------------------------------------------- aliases */

static const GpuAlias *find_alias(const Test *t, const char *name) {
  const GpuTest *g = t->arch_data;
  if (!g) return NULL;
  for (int i = 0; i < g->naliases; i++)
    if (strcmp(g->aliases[i].name, name) == 0) return &g->aliases[i];
  return NULL;
}

const char *gpu_physical(const Test *t, const char *name) {
  for (int hops = 0; hops < 64; hops++) {
    const GpuAlias *a = find_alias(t, name);
    if (!a) break;
    name = a->target;
  }
  return name;
}

const char *gpu_virtual(const Test *t, const char *name) {
  for (int hops = 0; hops < 64; hops++) {
    const GpuAlias *a = find_alias(t, name);
    if (!a || a->kind == AK_GENERIC) break;
    name = a->target;
  }
  return name;
}

/* --------------------------------------------------------------- sections */

typedef struct Sec {
  Test *t;
  Err *err;
  char *buf;
  SrcPos (*pos)(void *ctx, size_t off);
  void *ctx;
} Sec;

static bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_';
}

/* The words of [i, end): names, numbers and '@', blanks skipped. */
static int words(const char *b, size_t i, size_t end, const char *w[8], size_t n[8]) {
  int k = 0;
  while (i < end) {
    if (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
      i++;
      continue;
    }
    if (k == 8) return -1;
    size_t j = i;
    if (b[i] == '@') j++;
    else while (j < end && is_name_char(b[j])) j++;
    if (j == i) return -1;
    w[k] = b + i;
    n[k++] = j - i;
    i = j;
  }
  return k;
}

static char *sdup(Test *t, const char *s, size_t n) { return arena_strndup(&t->arena, s, n); }

static GpuTest *gdata(Test *t) {
  if (!t->arch_data) t->arch_data = ARENA_NEW(&t->arena, GpuTest);
  return t->arch_data;
}

/* "y aliases x" or "y @ texture aliases x": recorded and blanked. */
static void init_item(Sec *s, size_t i, size_t end) {
  const char *w[8];
  size_t n[8];
  int k = words(s->buf, i, end, w, n);
  AliasKind kind = AK_GENERIC;
  int tgt;
  if (k == 3 && lit_word_is("aliases", w[1], n[1])) {
    tgt = 2;
  } else if (k == 5 && n[1] == 1 && w[1][0] == '@' && lit_word_is("aliases", w[3], n[3])) {
    static const char *const kinds[] = {"generic", "texture", "surface", "constant"};
    int found = -1;
    for (int q = 0; q < 4; q++)
      if (lit_word_is(kinds[q], w[2], n[2])) found = q;
    if (found < 0)
      err_raise(s->err, ERRK_SYNTAX, s->pos(s->ctx, (size_t)(w[2] - s->buf)),
                "unknown proxy '%.*s' (generic, texture, surface or constant)", (int)n[2], w[2]);
    kind = (AliasKind)found;
    tgt = 4;
  } else {
    return;
  }
  GpuTest *g = gdata(s->t);
  GpuAlias a = {sdup(s->t, w[0], n[0]), sdup(s->t, w[tgt], n[tgt]), kind};
  APUSH(&s->t->arena, g->aliases, g->naliases, g->cap_aliases, a);
  memset(s->buf + i, ' ', end - i);
}

/* "{ ssw 0 1; ... }" */
static void ssw_block(Sec *s, size_t i, size_t end) {
  while (i < end) {
    size_t j = i;
    while (j < end && s->buf[j] != ';') j++;
    const char *w[8];
    size_t n[8];
    int k = words(s->buf, i, j, w, n);
    if (k != 0) {
      if (k != 3 || !lit_word_is("ssw", w[0], n[0]))
        err_raise(s->err, ERRK_SYNTAX, s->pos(s->ctx, i + (size_t)(k > 0 ? w[0] - (s->buf + i) : 0)),
                  "expected 'ssw P Q;' in the ssw block");
      int a = atoi(w[1]), b = atoi(w[2]);
      if (a < 0 || b < 0 || a > 1000 || b > 1000)
        err_raise(s->err, ERRK_SYNTAX, s->pos(s->ctx, (size_t)(w[1] - s->buf)), "bad thread number");
      GpuTest *g = gdata(s->t);
      if (g->nssw >= g->cap_ssw) {
        int nc = g->cap_ssw ? 2 * g->cap_ssw : 8;
        int (*m)[2] = arena_alloc(&s->t->arena, sizeof *m * (size_t)nc);
        if (g->nssw) memcpy(m, g->ssw, sizeof *m * (size_t)g->nssw);
        g->ssw = m;
        g->cap_ssw = nc;
      }
      g->ssw[g->nssw][0] = a;
      g->ssw[g->nssw][1] = b;
      g->nssw++;
    }
    i = j + 1;
  }
}

size_t gpu_sections(Test *t, Err *err, char *buf, size_t init_start, size_t init_end,
                    size_t code_start, SrcPos (*pos)(void *ctx, size_t off), void *ctx) {
  Sec s = {t, err, buf, pos, ctx};
  gdata(t);
  size_t i = init_start;
  while (i < init_end) {
    size_t j = i;
    while (j < init_end && buf[j] != ';') j++;
    init_item(&s, i, j);
    i = j + 1;
  }
  size_t k = code_start, len = strlen(buf);
  while (k < len && (buf[k] == ' ' || buf[k] == '\t' || buf[k] == '\n' || buf[k] == '\r')) k++;
  if (k < len && buf[k] == '{') {
    size_t close = k + 1;
    while (close < len && buf[close] != '}') close++;
    if (close >= len) err_raise(err, ERRK_SYNTAX, pos(ctx, k), "unterminated '{' block");
    ssw_block(&s, k + 1, close);
    return close + 1;
  }
  return code_start;
}
