/*
 * state_lex.c — the lexer of a test's init and final sections (herd's
 * lib/stateLexer.mll): numbers, names, thread and label references,
 * symbolic registers, keywords and punctuation.
 */
#include "parse_int.h"

#include <stdlib.h>

static const struct {
  const char *w;
  TokKind k;
} keywords[] = {
    {"not", T_NOT},          {"true", T_TRUE},       {"false", T_FALSE},
    {"observed", T_OBSERVED}, {"Observed", T_OBSERVED}, {"and", T_TOKAND},
    {"exists", T_EXISTS},    {"forall", T_FORALL},   {"final", T_FINAL},
    {"with", T_WITH},        {"locations", T_LOCATIONS},
    {"filter", T_FILTER},    {"fault", T_FAULT},     {"Fault", T_FAULT},
    {"_Atomic", T_ATOMIC},   {"ATOMIC_INIT", T_ATOMICINIT},
    {"NOP", T_NOP},          {"nop", T_NOP},
};

static bool sname_first(char c) {
  return is_alpha(c) || c == '_' || c == '.' || c == '$';
}
static bool sname_rest(char c) {
  return is_alnum(c) || c == '_' || c == '/' || c == '.' || c == '-';
}

/* The state lexer's name: '_'? (alpha|_|.|$)+ (alpha|digit|_|/|.|-)* */
static size_t sname_len(const char *s, size_t max) {
  size_t n = 0;
  while (n < max && sname_first(s[n])) n++;
  if (!n) return 0;
  while (n < max && sname_rest(s[n])) n++;
  return n;
}

/* Decimal ('-'? digit+) or hexadecimal (0x hexdigit+), longest match. */
static size_t num_len(const char *s, size_t max) {
  size_t d = 0;
  if (d < max && s[d] == '-') d++;
  size_t k = d;
  while (k < max && is_digit(s[k])) k++;
  if (k == d) return 0;
  if (d == 0 && max > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
      isxdigit((unsigned char)s[2])) {
    size_t h = 2;
    while (h < max && isxdigit((unsigned char)s[h])) h++;
    return h;
  }
  return k;
}

static TokKind name_kind(const char *s, size_t n) {
  for (size_t i = 0; i < ARRAY_LEN(keywords); i++)
    if (lit_word_is(keywords[i].w, s, n))
      return keywords[i].k;
  return T_NAME;
}

static const struct {
  const char *s;
  TokKind k;
} puncts[] = {
    {"==", T_EQEQ}, {"=>", T_IMPL}, {"!=", T_NEQ}, {"<>", T_NEQ},
    {"/\\", T_AND}, {"\\/", T_OR},  {"=", T_EQ},   {",", T_COMMA},
    {"&", T_AMPER}, {";", T_SEMI},  {":", T_COLON}, {"+", T_PLUS},
    {"[", T_LBRK},  {"]", T_RBRK},  {"(", T_LPAR}, {")", T_RPAR},
    {"{", T_LCURLY}, {"}", T_RCURLY}, {"~", T_NOT}, {"*", T_STAR},
};

/* "label:\"P1:L0\"" (or without the P); returns the length or 0. */
static size_t label_tok(Parser *p, size_t i, size_t end, Tok *t) {
  if (!starts(p, i, end, "label:\"")) return 0;
  size_t k = i + 7;
  if (k < end && p->text[k] == 'P') k++;
  size_t d = k;
  while (k < end && is_digit(p->text[k])) k++;
  if (k == d || k - d > 6 || k >= end || p->text[k] != ':') return 0;
  t->proc = atoi(p->text + d);
  size_t l = ++k;
  while (k < end && p->text[k] != '"') k++;
  if (k >= end || k == l) return 0;
  t->s = arena_strndup(p->a, p->text + l, k - l);
  return k + 1 - i;
}

static size_t instr_tok(Parser *p, size_t i, size_t end, Tok *t) {
  if (!starts(p, i, end, "instr:\"")) return 0;
  const char *q = memchr(p->text + i + 7, '"', end - i - 7);
  if (!q || q == p->text + i + 7) return 0;
  t->s = arena_strndup(p->a, p->text + i + 7, (size_t)(q - p->text) - i - 7);
  return (size_t)(q - p->text) + 1 - i;
}

/* One token at i (not a blank, not a comment); sets t, returns length. */
static size_t lex_one(Parser *p, size_t i, size_t end, Tok *t) {
  const char *s = p->text + i;
  size_t max = end - i, n;
  if ((n = label_tok(p, i, end, t))) return t->kind = T_LABEL, n;
  if ((n = instr_tok(p, i, end, t))) return t->kind = T_INSTR, n;
  if ((n = num_len(s, max))) return t->kind = T_NUM, n;
  if (s[0] == '%' && (n = sname_len(s + 1, max - 1))) {
    t->s = arena_strndup(p->a, s + 1, n);
    return t->kind = T_SYMREG, n + 1;
  }
  if (s[0] == '`') {
    const char *q = memchr(s + 1, '`', max - 1);
    if (q && q > s + 1) {
      t->s = arena_strndup(p->a, s + 1, (size_t)(q - s) - 1);
      return t->kind = T_VALUE, (size_t)(q - s) + 1;
    }
  }
  size_t u = s[0] == '_' ? 1 : 0;
  if ((n = sname_len(s + u, max - u))) {
    n += u;
    t->kind = name_kind(s, n);
    size_t d = 1;
    while (d < n && is_digit(s[d])) d++;
    if (t->kind == T_NAME && s[0] == 'P' && n > 1 && d == n) {
      if (n > 7) fail(p, i, "thread number too large");
      t->kind = T_PROC;
      t->proc = atoi(s + 1);
    }
    return n;
  }
  for (size_t k = 0; k < ARRAY_LEN(puncts); k++)
    if (starts(p, i, end, puncts[k].s)) {
      t->kind = puncts[k].k;
      return strlen(puncts[k].s);
    }
  if (starts(p, i, end, "<<")) fail(p, i, "unexpected '<<'");
  if (!isprint((unsigned char)s[0]))
    fail(p, i, "unexpected byte 0x%02x", (unsigned char)s[0]);
  fail(p, i, "unexpected character '%c'", s[0]);
}

enum { LEX_MAX_TOKENS = 1 << 20 };

void lex_section(Parser *p, size_t i, size_t end, TokStream *ts) {
  memset(ts, 0, sizeof *ts);
  ts->p = p;
  ts->end = end;
  for (;;) {
    while (i < end && (is_blank(p->text[i]) || p->text[i] == '\n')) i++;
    if (starts(p, i, end, "(*")) {
      i = skip_comment(p, i, end);
      continue;
    }
    Tok t;
    memset(&t, 0, sizeof t);
    t.off = i;
    if (i >= end) {
      t.kind = T_EOF;
      APUSH(p->a, ts->toks, ts->n, ts->cap, t);
      return;
    }
    /* an initial state or condition of millions of items would take
     * gigabytes as tokens before its own bound is seen */
    if (ts->n >= LEX_MAX_TOKENS)
      fail(p, i, "section too large (over %d tokens)", LEX_MAX_TOKENS);
    t.len = lex_one(p, i, end, &t);
    if (t.kind == T_NAME || t.kind == T_NUM)
      t.s = arena_strndup(p->a, p->text + i, t.len);
    APUSH(p->a, ts->toks, ts->n, ts->cap, t);
    i += t.len;
  }
}
