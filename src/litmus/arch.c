/*
 * arch.c — small helpers shared by every front end: growing arrays,
 * integer literals, the printing of a location as written, and a
 * tokenizer for instruction texts.  The table of architectures is the
 * ISA registry (src/isa).
 */
#include "litmus.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

void *lit_reserve(Arena *a, void *data, int len, int *cap, int want, size_t elem) {
  if (want <= *cap) return data;
  void *d = arena_alloc(a, elem * (size_t)want);
  if (len) memcpy(d, data, elem * (size_t)len);
  *cap = want;
  return d;
}

void *lit_grow(Arena *a, void *data, int len, int *cap, size_t elem) {
  if (len < *cap) return data;
  return lit_reserve(a, data, len, cap, *cap ? *cap * 2 : 8, elem);
}

char *lit_join(Arena *ar, const char *a, const char *b, const char *c, const char *d) {
  size_t na = strlen(a), nb = strlen(b), nc = strlen(c), nd = strlen(d);
  char *r = arena_alloc(ar, na + nb + nc + nd + 1);
  memcpy(r, a, na);
  memcpy(r + na, b, nb);
  memcpy(r + na + nb, c, nc);
  memcpy(r + na + nb + nc, d, nd);
  r[na + nb + nc + nd] = 0;
  return r;
}

/* ------------------------------------------------------------ locations */

void lit_print_loc_hash(const LitLoc *l, StrBuf *out) {
  switch (l->kind) {
  case LOC_REG:
    sb_put_int(out, l->thread);
    sb_putc(out, ':');
    sb_puts(out, l->reg);
    break;
  case LOC_SYMREG: sb_puts(out, l->reg); break;
  case LOC_GLOBAL: lit_print_sym_hash(l->sym, out); break;
  case LOC_CELL:
    sb_puts(out, l->sym);
    sb_putc(out, '[');
    sb_put_int(out, l->index);
    sb_putc(out, ']');
    break;
  }
}

/* ------------------------------------------------------------- integers */

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool lit_parse_int(const char *s, size_t n, int64_t *out) {
  size_t i = 0;
  bool neg = false;
  if (i < n && s[i] == '-') neg = true, i++;
  unsigned base = 10;
  if (i + 1 < n && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X'))
    base = 16, i += 2;
  if (i >= n) return false;
  uint64_t v = 0;
  for (; i < n; i++) {
    int d = base == 16 ? hex_digit(s[i]) : (isdigit((unsigned char)s[i])
                                                 ? s[i] - '0'
                                                 : -1);
    if (d < 0) return false;
    if (v > (UINT64_MAX - (uint64_t)d) / base) return false;
    v = v * base + (uint64_t)d;
  }
  if (neg) v = (uint64_t)0 - v;
  *out = (int64_t)v;
  return true;
}

bool lit_scalar_of_string(const char *s, size_t n, int bits, int64_t *out) {
  bool neg = n > 0 && s[0] == '-';
  size_t i = neg ? 1 : 0;
  bool hex = i + 1 < n && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
  int64_t m;
  if (!lit_parse_int(s + i, n - i, &m)) return false;
  uint64_t mag = (uint64_t)m;
  if (hex) { /* unsigned range, and its negation (OCaml tolerates both) */
    if (bits < 64 && mag >> bits) return false;
  } else { /* signed range */
    uint64_t lim = (uint64_t)1 << (bits - 1);
    if (neg ? mag > lim : mag >= lim) return false;
  }
  uint64_t v = neg ? (uint64_t)0 - mag : mag;
  if (bits < 64) {
    uint64_t mask = ((uint64_t)1 << bits) - 1;
    v &= mask;
    if ((v >> (bits - 1)) & 1) v |= ~mask;
  }
  *out = (int64_t)v;
  return true;
}

/* ------------------------------------------------------------ tokenizer */

static bool name_start(char c) {
  return isalpha((unsigned char)c) || c == '_';
}

static bool name_char(char c) {
  return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '/' ||
         c == '-';
}

void asm_scan_init(AsmScan *s, Arena *a, Err *err, const char *arch,
                   const char *text, SrcPos pos) {
  memset(s, 0, sizeof *s);
  s->arena = a;
  s->err = err;
  s->arch = arch;
  s->text = text;
  s->start = pos;
  s->cur = pos;
  asm_next(s);
}

static void advance(AsmScan *s, size_t n) {
  for (size_t k = 0; k < n && s->text[s->i]; k++) {
    if (s->text[s->i] == '\n') s->cur.line++, s->cur.col = 1;
    else s->cur.col++;
    s->i++;
  }
}

static size_t span(const char *p, bool (*ok)(char)) {
  size_t n = 0;
  while (p[n] && ok(p[n])) n++;
  return n;
}

static bool number_char(char c) { return isalnum((unsigned char)c); }

/* herd's AArch64, X86 and X86_64 lexers read decimal numbers only: 0x10
 * is the number 0 then the name x10, a syntax error (located, as herd's
 * parser reports it: herdmsg.c). */
static void hex_refused(const AsmScan *s, const char *p) {
  if (strcmp(s->arch, "AArch64") && strcmp(s->arch, "X86") && strcmp(s->arch, "X86_64")) return;
  if (*p == '-') p++;
  if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X')) return;
  size_t n = 1;
  while (isalnum((unsigned char)p[n]) || p[n] == '_') n++;
  SrcPos at = s->cur;
  at.col += (int)(p + 1 - (s->text + s->i));
  err_raise(s->err, ERRK_SYNTAX, at, "unexpected '%.*s' (in prog)", (int)n - 1, p + 1);
}

void asm_next(AsmScan *s) {
  while (s->text[s->i] && isspace((unsigned char)s->text[s->i]))
    advance(s, 1);
  const char *p = s->text + s->i;
  AsmTok *t = &s->tok;
  memset(t, 0, sizeof *t);
  t->pos = s->cur;
  t->s = p;
  if (!*p) {
    t->kind = AT_END;
    return;
  }
  if (isdigit((unsigned char)p[0]) ||
      (p[0] == '-' && isdigit((unsigned char)p[1]))) {
    size_t n = (p[0] == '-') + span(p + (p[0] == '-'), number_char);
    t->kind = AT_NUM;
    t->len = n;
    hex_refused(s, p);
    if (!lit_parse_int(p, n, &t->num))
      err_raise(s->err, ERRK_SYNTAX, t->pos,
                "%s instruction '%s': bad number '%.*s'", s->arch, s->text,
                (int)n, p);
  } else if (name_start(p[0])) {
    t->kind = AT_NAME;
    t->len = span(p, name_char);
  } else if (p[0] == '%' && name_start(p[1])) {
    t->kind = AT_PCTNAME;
    t->s = p + 1;
    t->len = span(p + 1, name_char);
    advance(s, 1);
  } else if (p[0] == '"') {
    const char *q = strchr(p + 1, '"');
    if (!q)
      err_raise(s->err, ERRK_SYNTAX, t->pos,
                "%s instruction '%s': unterminated string", s->arch, s->text);
    t->kind = AT_STRING;
    t->s = p + 1;
    t->len = (size_t)(q - p - 1);
    advance(s, 2);
  } else {
    t->kind = AT_PUNCT;
    t->c = p[0];
    t->len = 1;
    advance(s, 1);
    return;
  }
  advance(s, t->len);
}

bool asm_is(const AsmScan *s, char punct) {
  return s->tok.kind == AT_PUNCT && s->tok.c == punct;
}

bool asm_accept(AsmScan *s, char punct) {
  if (!asm_is(s, punct)) return false;
  asm_next(s);
  return true;
}

static const char *tok_desc(const AsmScan *s, char *buf, size_t n) {
  const AsmTok *t = &s->tok;
  switch (t->kind) {
  case AT_END: return "end of instruction";
  case AT_PCTNAME: snprintf(buf, n, "'%%%.*s'", (int)t->len, t->s); break;
  case AT_STRING: snprintf(buf, n, "\"%.*s\"", (int)t->len, t->s); break;
  default: snprintf(buf, n, "'%.*s'", (int)t->len, t->s); break;
  }
  return buf;
}

void asm_expect(AsmScan *s, char punct) {
  char buf[64];
  if (!asm_accept(s, punct))
    asm_error(s, "expected '%c', found %s", punct, tok_desc(s, buf, sizeof buf));
}

bool asm_upper_or_lower(const char *upper, const char *s, size_t n) {
  /* the first byte first: X86 looks mnemonics up in a table this way */
  char u0 = upper[0], l0 = (char)(u0 >= 'A' && u0 <= 'Z' ? u0 - 'A' + 'a' : u0);
  if (n > 0 && s[0] != u0 && s[0] != l0) return false;
  if (strlen(upper) != n) return false;
  bool up = true, low = true;
  for (size_t i = 0; i < n; i++) {
    char u = upper[i], l = (char)(u >= 'A' && u <= 'Z' ? u - 'A' + 'a' : u);
    up = up && s[i] == u;
    low = low && s[i] == l;
  }
  return up || low;
}

bool asm_is_name(const AsmScan *s, const char *name) {
  return s->tok.kind == AT_NAME && lit_word_is(name, s->tok.s, s->tok.len);
}

char *asm_tok_str(const AsmScan *s) {
  return arena_strndup(s->arena, s->tok.s, s->tok.len);
}

int64_t asm_expect_num(AsmScan *s) {
  char buf[64];
  if (s->tok.kind != AT_NUM)
    asm_error(s, "expected a number, found %s", tok_desc(s, buf, sizeof buf));
  int64_t v = s->tok.num;
  asm_next(s);
  return v;
}

void asm_expect_end(AsmScan *s) {
  char buf[64];
  if (s->tok.kind != AT_END)
    asm_error(s, "unexpected %s", tok_desc(s, buf, sizeof buf));
}

void asm_error(AsmScan *s, const char *fmt, ...) {
  StrBuf b;
  sb_init(&b);
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&b, fmt, ap);
  va_end(ap);
  /* Copy into the arena so the buffer can be freed before raising. */
  char *msg = arena_strdup(s->arena, sb_cstr(&b));
  sb_free(&b);
  err_raise(s->err, ERRK_SYNTAX, s->tok.pos, "%s instruction '%s': %s",
            s->arch, s->text, msg);
}

void asm_unknown(AsmScan *s) {
  err_raise(s->err, ERRK_SYNTAX, s->start, "unknown %s instruction '%s'",
            s->arch, s->text);
}

Instr *asm_new_instr(AsmScan *s, int op) {
  Instr *ins = ARENA_NEW(s->arena, Instr);
  ins->op = op;
  ins->text = s->text;
  ins->pos = s->start;
  return ins;
}

Operand *asm_add_op(AsmScan *s, Instr *ins, OperandKind kind) {
  if (ins->nops >= INSTR_MAX_OPS) asm_error(s, "too many operands");
  Operand *o = &ins->ops[ins->nops++];
  memset(o, 0, sizeof *o);
  o->kind = (uint8_t)kind;
  o->reg = o->reg2 = -1;
  return o;
}

void asm_parse_label(AsmScan *s, Instr *ins) {
  if (s->tok.kind != AT_NAME) asm_error(s, "expected a label");
  asm_add_op(s, ins, OPK_LABEL)->sym = asm_tok_str(s);
  asm_next(s);
}

void asm_parse_list(AsmScan *s, Instr *ins, const char *pat,
                    void (*reg)(AsmScan *s, Instr *ins)) {
  for (const char *p = pat; *p; p++) {
    if (p != pat) asm_expect(s, ',');
    if (*p == 'r') reg(s, ins);
    else asm_add_op(s, ins, OPK_IMM)->imm = asm_expect_num(s);
  }
}

const char *asm_label_name(const Operand *o,
                           const char *(*rename)(void *ctx, const char *l),
                           void *ctx) {
  return rename ? rename(ctx, o->sym) : o->sym;
}
