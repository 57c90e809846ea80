/*
 * parse.c — reading a litmus file into a Test (../shared/spec/litmus.md
 * §1-§4): the splitter (header, metadata, init / code / final sections,
 * following herd's lib/splitter.mll), the lexer and parser of the init
 * and final sections (lib/stateLexer.mll, lib/stateParser.mly), the code
 * table of assembly tests (cells handed to the architecture's parser), and
 * the allocation of symbolic registers (lib/symbReg.ml).
 *
 * Everything lives in the Test's arena; errors longjmp through Err with a
 * file:line:column position, and litmus_parse frees the partial Test.
 * Sections:  1. positions and small helpers   2. splitter
 *            3. state lexer   4. init section   5. final section
 *            6. code table    7. symbolic registers   8. entry points
 */
#include "litmus.h"

#include "c.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ================================================= 1. positions, helpers */

typedef struct Parser {
  Test *t;
  Err *err;
  Arena *a;
  const char *text;
  size_t len;
  size_t *lines;  /* offset of the start of each line */
  int nlines;
} Parser;

static void index_lines(Parser *p) {
  const char *s = p->text, *end = s + p->len;
  int n = 1;
  for (const char *q = s; (q = memchr(q, '\n', (size_t)(end - q))); q++) n++;
  p->lines = ARENA_NEWN(p->a, size_t, n);
  p->nlines = 0;
  p->lines[p->nlines++] = 0;
  for (const char *q = s; (q = memchr(q, '\n', (size_t)(end - q))); q++)
    p->lines[p->nlines++] = (size_t)(q - s) + 1;
}

static SrcPos pos_at(const Parser *p, size_t off) {
  int lo = 0, hi = p->nlines - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (p->lines[mid] <= off) lo = mid;
    else hi = mid - 1;
  }
  SrcPos pos = {p->t->file, lo + 1, (int)(off - p->lines[lo]) + 1};
  return pos;
}

static CR_NORETURN CR_PRINTF(3, 4) void fail(Parser *p, size_t off,
                                             const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  err_vraise(p->err, ERRK_SYNTAX, pos_at(p, off), fmt, ap);
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
static bool is_alpha(char c) { return isalpha((unsigned char)c); }
static bool is_digit(char c) { return isdigit((unsigned char)c); }
static bool is_alnum(char c) { return isalnum((unsigned char)c); }

/* herd's `name`: alpha (alpha | digit | _ / . -)* */
static size_t name_len(const char *s) {
  if (!is_alpha(s[0])) return 0;
  size_t n = 1;
  while (is_alnum(s[n]) || s[n] == '_' || s[n] == '/' || s[n] == '.' ||
         s[n] == '-')
    n++;
  return n;
}

/* Skip a nested (* *) comment starting at off (on "(*"); returns the
 * offset after it. */
static size_t skip_comment(Parser *p, size_t off, size_t end) {
  size_t start = off;
  int depth = 0;
  while (off < end) {
    if (off + 1 < end && p->text[off] == '(' && p->text[off + 1] == '*') {
      depth++;
      off += 2;
    } else if (off + 1 < end && p->text[off] == '*' &&
               p->text[off + 1] == ')') {
      off += 2;
      if (--depth == 0) return off;
    } else {
      off++;
    }
  }
  fail(p, start, "unterminated comment");
}

/* The text at off (before end) starts with w; the first byte is compared
 * first, as most calls fail on it. */
static bool starts(const Parser *p, size_t off, size_t end, const char *w) {
  if (off >= end || p->text[off] != w[0]) return false;
  size_t n = strlen(w);
  return off + n <= end && memcmp(p->text + off, w, n) == 0;
}

/* ============================================================ 2. splitter */

typedef struct Split {
  size_t init_start, init_end;   /* inside the braces */
  size_t code_start, code_end;
  size_t final_start, final_end;
} Split;

static const char *const known_archs[] = {
    "BPF", "CPP", "C++", "LISA", "Bell", "JAVA", "Java", "ASL",
};

static void parse_arch(Parser *p, size_t off, size_t n) {
  char *w = arena_strndup(p->a, p->text + off, n);
  if (!arch_from_name(w, &p->t->arch)) {
    for (size_t i = 0; i < ARRAY_LEN(known_archs); i++)
      if (strcmp(known_archs[i], w) == 0)
        fail(p, off, "%s tests are not supported", w);
    fail(p, off, "%s is not an implemented architecture", w);
  }
  p->t->ops = arch_ops(p->t->arch);
  if (!p->t->ops)
    fail(p, off, "%s tests are not supported yet", arch_name(p->t->arch));
  if (p->t->arch == ARCH_C) c_begin(p->t);
}

static bool testname_char(char c) {
  return is_alnum(c) || strchr("_/.-+[]", c) != NULL;
}

/* The test name, with ".litmus" removed; "--" means the file name. */
static const char *clean_name(Parser *p, const char *name) {
  if (strcmp(name, "--") == 0) {
    const char *base = strrchr(p->t->file, '/');
    name = base ? base + 1 : p->t->file;
    const char *dot = strrchr(name, '.');
    if (dot && dot != name) name = arena_strndup(p->a, name, (size_t)(dot - name));
  }
  size_t n = strlen(name);
  if (n > 7 && strcmp(name + n - 7, ".litmus") == 0)
    name = arena_strndup(p->a, name, n - 7);
  return name;
}

/* ARCH NAME [(TEXNAME)] ["DOC"] [;]  — returns the offset after it. */
static size_t parse_header(Parser *p) {
  const char *s = p->text;
  size_t i = 0, end = p->len;
  while (i < end && is_blank(s[i])) i++;
  size_t a0 = i;
  while (i < end && (is_alnum(s[i]) || s[i] == '_' || s[i] == '-' ||
                     s[i] == '+'))
    i++;
  if (i == a0) fail(p, a0, "expected 'ARCH NAME' on the first line");
  parse_arch(p, a0, i - a0);
  size_t b = i;
  while (i < end && is_blank(s[i])) i++;
  size_t n0 = i;
  while (i < end && testname_char(s[i])) i++;
  if (n0 == b || i == n0)
    fail(p, i, "expected a test name after the architecture");
  p->t->name = clean_name(p, arena_strndup(p->a, s + n0, i - n0));
  while (i < end && is_blank(s[i])) i++;
  if (i < end && s[i] == '(') {
    size_t k = i + 1, n = name_len(s + k);
    if (n && k + n < end && s[k + n] == ')') {
      i = k + n + 1;
      while (i < end && is_blank(s[i])) i++;
    }
  }
  size_t k = i;
  if (k < end && s[k] == '\n') k++;
  while (k < end && is_blank(s[k])) k++;
  if (k < end && s[k] == '"') {
    const char *q = memchr(s + k + 1, '"', end - k - 1);
    if (q) {
      p->t->doc = arena_strndup(p->a, s + k + 1, (size_t)(q - s - k - 1));
      i = (size_t)(q - s) + 1;
      while (i < end && is_blank(s[i])) i++;
    }
  }
  if (i < end && s[i] == ';') i++;
  return i;
}

static void add_meta(Parser *p, size_t k0, size_t klen, size_t v0,
                     size_t vlen, int *cap) {
  while (vlen > 0 && p->text[v0 + vlen - 1] == '\r') vlen--;
  Meta m = {arena_strndup(p->a, p->text + k0, klen),
            arena_strndup(p->a, p->text + v0, vlen)};
  APUSH(p->a, p->t->meta, p->t->nmeta, *cap, m);
}

/* KEY = VALUE '\n' at off, as herd's rule: returns its length (0 if none),
 * including the newline. */
static size_t meta_line(Parser *p, size_t off, int *cap, bool record) {
  const char *s = p->text;
  size_t klen = name_len(s + off), i = off + klen;
  if (!klen) return 0;
  while (i < p->len && is_blank(s[i])) i++;
  if (i >= p->len || s[i] != '=') return 0;
  i++;
  while (i < p->len && is_blank(s[i])) i++;
  const char *nl = memchr(s + i, '\n', p->len - i);
  if (!nl) return 0;
  if (record) add_meta(p, off, klen, i, (size_t)(nl - s) - i, cap);
  return (size_t)(nl - s) + 1 - off;
}

/* Metadata and comments up to '{'.  This mimics herd's longest-match
 * lexer: a comment is only recognised where "(*" is directly followed by a
 * newline, '{' or the end; otherwise the text up to the next newline or
 * '{' is skipped as a block, and a KEY=VALUE line always wins. */
static size_t find_init(Parser *p, size_t i) {
  int cap = 0;
  const char *s = p->text;
  while (i < p->len) {
    char c = s[i];
    if (c == '\n') { i++; continue; }
    if (c == '{') return i;
    size_t chunk = 0;
    while (i + chunk < p->len && s[i + chunk] != '\n' && s[i + chunk] != '{')
      chunk++;
    size_t meta = meta_line(p, i, &cap, false);
    if (chunk <= 2 && starts(p, i, p->len, "(*")) i = skip_comment(p, i, p->len);
    else if (meta) i += meta_line(p, i, &cap, true);
    else i += chunk;
  }
  fail(p, p->len, "missing initial state section '{ ... }'");
}

/* Offset of the '}' matching the '{' at open (braces nest). */
static size_t match_brace(Parser *p, size_t open) {
  int depth = 0;
  for (size_t i = open; i < p->len; i++) {
    if (p->text[i] == '{') depth++;
    else if (p->text[i] == '}' && --depth == 0) return i;
  }
  fail(p, open, "unterminated initial state section (missing '}')");
}

static const char *const final_words[] = {
    "final", "forall", "exists", "cases", "observed", "Observed",
    "locations", "filter",
};

static bool is_final_word(const char *s, size_t n) {
  for (size_t i = 0; i < ARRAY_LEN(final_words); i++)
    if (lit_word_is(final_words[i], s, n))
      return true;
  return false;
}

/* Skip a double-quoted string starting at off. */
static size_t skip_string(Parser *p, size_t off, size_t end) {
  const char *q = memchr(p->text + off + 1, '"', end - off - 1);
  if (!q) fail(p, off, "unterminated string");
  return (size_t)(q - p->text) + 1;
}

/* End of the code section: the first final-section keyword (a whole name,
 * or '~' blanks "exists"), skipping strings and, except for C, comments. */
static size_t find_code_end(Parser *p, size_t i, bool comments) {
  const char *s = p->text;
  while (i < p->len) {
    size_t n = name_len(s + i);
    if (n) {
      if (is_final_word(s + i, n)) return i;
      i += n;
    } else if (s[i] == '~') {
      size_t k = i + 1;
      while (k < p->len && is_blank(s[k])) k++;
      if (starts(p, k, p->len, "exists")) return i;
      i++;
    } else if (s[i] == '"') {
      i = skip_string(p, i, p->len);
    } else if (comments && starts(p, i, p->len, "(*")) {
      i = skip_comment(p, i, p->len);
    } else {
      i++;
    }
  }
  return p->len;
}

/* End of the final section: "<<" (outside comments) or the end. */
static size_t find_final_end(Parser *p, size_t i) {
  while (i < p->len) {
    if (starts(p, i, p->len, "(*")) i = skip_comment(p, i, p->len);
    else if (starts(p, i, p->len, "<<")) return i;
    else i++;
  }
  return p->len;
}

static Split split(Parser *p) {
  Split sp;
  size_t open = find_init(p, parse_header(p));
  size_t close = match_brace(p, open);
  sp.init_start = open + 1;
  sp.init_end = close;
  sp.code_start = close + 1;
  sp.code_end = find_code_end(p, sp.code_start, p->t->arch != ARCH_C);
  sp.final_start = sp.code_end;
  sp.final_end = find_final_end(p, sp.final_start);
  return sp;
}

/* ========================================================= 3. state lexer */

typedef enum TokKind {
  T_EOF, T_NUM, T_NAME, T_PROC, T_SYMREG, T_LABEL, T_INSTR, T_VALUE,
  T_COMMA, T_AMPER, T_SEMI, T_COLON, T_PLUS, T_LBRK, T_RBRK, T_LPAR, T_RPAR,
  T_LCURLY, T_RCURLY, T_EQ, T_EQEQ, T_NEQ, T_IMPL, T_AND, T_OR, T_NOT,
  T_STAR,
  /* keywords */
  T_TRUE, T_FALSE, T_OBSERVED, T_TOKAND, T_EXISTS, T_FORALL, T_FINAL,
  T_WITH, T_LOCATIONS, T_FILTER, T_FAULT, T_ATOMIC, T_ATOMICINIT, T_NOP,
} TokKind;

typedef struct Tok {
  TokKind kind;
  size_t off, len;
  const char *s;   /* arena copy of the text (NAME, NUM, SYMREG w/o '%',
                      LABEL label, INSTR text) */
  int proc;        /* T_PROC, T_LABEL */
} Tok;

typedef struct TokStream {
  Parser *p;
  Tok *toks;
  int n, cap, i;
  size_t end;      /* offset of the end of the section (for T_EOF) */
  int nprops;      /* propositions built, bounded so that the recursive
                      walks over them stay shallow */
} TokStream;

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

static void lex_section(Parser *p, size_t i, size_t end, TokStream *ts) {
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
    t.len = lex_one(p, i, end, &t);
    if (t.kind == T_NAME || t.kind == T_NUM)
      t.s = arena_strndup(p->a, p->text + i, t.len);
    APUSH(p->a, ts->toks, ts->n, ts->cap, t);
    i += t.len;
  }
}

static const Tok *peek(const TokStream *ts, int k) {
  int i = ts->i + k;
  return &ts->toks[i < ts->n ? i : ts->n - 1];
}
static TokKind peekk(const TokStream *ts, int k) { return peek(ts, k)->kind; }
static const Tok *next(TokStream *ts) {
  const Tok *t = peek(ts, 0);
  if (t->kind != T_EOF) ts->i++;
  return t;
}
static bool accept(TokStream *ts, TokKind k) {
  if (peekk(ts, 0) != k) return false;
  next(ts);
  return true;
}
static SrcPos tok_pos(const TokStream *ts, const Tok *t) {
  return pos_at(ts->p, t->off);
}

static CR_NORETURN void unexpected(TokStream *ts, const char *what) {
  const Tok *t = peek(ts, 0);
  if (t->kind == T_EOF) fail(ts->p, t->off, "expected %s, found the end", what);
  fail(ts->p, t->off, "expected %s, found '%.*s'", what, (int)t->len,
       ts->p->text + t->off);
}

static const Tok *expect(TokStream *ts, TokKind k, const char *what) {
  if (peekk(ts, 0) != k) unexpected(ts, what);
  return next(ts);
}

/* ======================================================= 4. init section */

/* Bounds that keep hostile inputs cheap (the duplicate check and the
 * type lookups of the output are linear scans of the init items). */
enum { MAX_ARRAY = 65536, MAX_INIT = 10000 };

/* A register name of the test's architecture, or an error. */
static int check_reg(TokStream *ts, const Tok *t, const char *name) {
  if (ts->p->t->c) return c_reg(ts->p->t, name); /* C: any name */
  int r = ts->p->t->ops->parse_reg(name);
  if (r < 0) fail(ts->p, t->off, "%s is not a register", name);
  return r;
}

/* P0 or 0 (a plain decimal) followed by ':' — a thread prefix. */
static bool is_thread_tok(const TokStream *ts, int k) {
  const Tok *t = peek(ts, k);
  bool num = t->kind == T_NUM && t->len < 9 &&
             strspn(t->s, "0123456789") == t->len;
  return (t->kind == T_PROC || num) && peekk(ts, k + 1) == T_COLON;
}

/* P0:REG, 0:REG, 0:%REG (register of a thread). */
static LitLoc parse_reg_loc(TokStream *ts) {
  LitLoc l;
  memset(&l, 0, sizeof l);
  const Tok *th = next(ts);
  l.pos = tok_pos(ts, th);
  l.kind = LOC_REG;
  l.thread = th->kind == T_PROC ? th->proc : atoi(th->s);
  next(ts); /* ':' */
  const Tok *r = peek(ts, 0);
  if (r->kind == T_NAME) l.reg = r->s;
  else if (r->kind == T_SYMREG) l.reg = r->s;
  else unexpected(ts, "a register name");
  next(ts);
  l.regid = check_reg(ts, r, l.reg);
  return l;
}

static bool starts_loc(const TokStream *ts, int k) {
  TokKind a = peekk(ts, k);
  return a == T_NAME || a == T_SYMREG || a == T_LBRK || is_thread_tok(ts, k);
}

/* location | [x] : registers, symbolic registers and globals. */
static LitLoc parse_loc(TokStream *ts, bool brackets) {
  LitLoc l;
  memset(&l, 0, sizeof l);
  l.regid = -1;
  const Tok *t = peek(ts, 0);
  l.pos = tok_pos(ts, t);
  if (is_thread_tok(ts, 0)) return parse_reg_loc(ts);
  if (t->kind == T_SYMREG) {
    l.kind = LOC_SYMREG;
    l.reg = t->s;
    l.thread = -1;
    next(ts);
    return l;
  }
  bool brk = brackets && accept(ts, T_LBRK);
  t = expect(ts, T_NAME, "a location");
  l.kind = LOC_GLOBAL;
  l.sym = t->s;
  if (brk) expect(ts, T_RBRK, "']'");
  if (peekk(ts, 0) == T_COLON && peekk(ts, 1) == T_NAME)
    fail(ts->p, peek(ts, 0)->off, "tagged locations are not supported");
  return l;
}

static LitVal int_val(const TokStream *ts, const Tok *t) {
  LitVal v;
  memset(&v, 0, sizeof v);
  v.kind = LV_INT;
  v.text = t->s;
  v.pos = tok_pos(ts, t);
  if (!lit_parse_int(t->s, t->len, &v.num))
    fail(ts->p, t->off, "number out of range: %s", t->s);
  return v;
}

static LitVal zero_val(const TokStream *ts, SrcPos pos) {
  LitVal v;
  memset(&v, 0, sizeof v);
  v.kind = LV_INT;
  v.text = "0";
  v.pos = pos;
  (void)ts;
  return v;
}

static LitVal label_val(TokStream *ts, const Tok *at, int thread,
                        const char *label) {
  LitVal v;
  memset(&v, 0, sizeof v);
  v.kind = LV_LABEL;
  v.pos = tok_pos(ts, at);
  v.thread = thread;
  v.label = label;
  v.text = arena_printf(ts->p->a, "%d:%s", thread, label);
  return v;
}

/* x, &x or x[i]: the address of a location (or of an array cell). */
static LitVal addr_val(TokStream *ts) {
  LitVal v;
  memset(&v, 0, sizeof v);
  accept(ts, T_AMPER);
  const Tok *t = expect(ts, T_NAME, "a location name");
  v.kind = LV_ADDR;
  v.pos = tok_pos(ts, t);
  v.sym = v.text = t->s;
  if (peekk(ts, 0) == T_LBRK && peekk(ts, 1) == T_NUM &&
      peekk(ts, 2) == T_RBRK) {
    next(ts);
    LitVal k = int_val(ts, next(ts));
    next(ts);
    v.has_index = true;
    v.index = k.num;
    v.text = arena_printf(ts->p->a, "%s+%lld", v.sym, (long long)k.num);
  } else if (peekk(ts, 0) == T_COLON && peekk(ts, 1) == T_NAME) {
    fail(ts->p, peek(ts, 0)->off, "tagged addresses are not supported");
  }
  return v;
}

/* A scalar value (herd's maybev; with labels, maybev_label: P1:L0). */
static LitVal parse_value(TokStream *ts, bool labels) {
  const Tok *t = peek(ts, 0);
  if (labels && is_thread_tok(ts, 0) && peekk(ts, 2) == T_NAME) {
    next(ts), next(ts);
    int thread = t->kind == T_PROC ? t->proc : atoi(t->s);
    return label_val(ts, t, thread, next(ts)->s);
  }
  switch (t->kind) {
  case T_NUM:
    next(ts);
    if (peekk(ts, 0) == T_COLON && peekk(ts, 1) == T_NUM)
      fail(ts->p, t->off, "capability values are not supported");
    return int_val(ts, t);
  case T_LABEL: next(ts); return label_val(ts, t, t->proc, t->s);
  case T_COLON: {
    next(ts);
    LitVal v;
    memset(&v, 0, sizeof v);
    v.kind = LV_TAG;
    v.pos = tok_pos(ts, t);
    v.sym = expect(ts, T_NAME, "a tag name")->s;
    v.text = arena_printf(ts->p->a, ":%s", v.sym);
    return v;
  }
  case T_NOP: case T_INSTR:
    fail(ts->p, t->off, "instruction values are not supported");
  case T_AMPER: case T_NAME: return addr_val(ts);
  default: unexpected(ts, "a value");
  }
}

/* "{a,b,c}": the hash spelling of an array (elements as written). */
static const char *array_text(Arena *a, const LitVal *elems, int n) {
  size_t len = 3;
  for (int i = 0; i < n; i++) len += strlen(elems[i].text) + 1;
  char *s = arena_alloc(a, len), *q = s;
  *q++ = '{';
  for (int i = 0; i < n; i++) {
    if (i) *q++ = ',';
    size_t k = strlen(elems[i].text);
    memcpy(q, elems[i].text, k);
    q += k;
  }
  *q++ = '}';
  *q = 0;
  return s;
}

/* { v0, v1, ... } */
static LitVal parse_array_val(TokStream *ts) {
  LitVal v;
  memset(&v, 0, sizeof v);
  const Tok *open = expect(ts, T_LCURLY, "'{'");
  v.kind = LV_ARRAY;
  v.pos = tok_pos(ts, open);
  int cap = 0;
  do {
    LitVal e = parse_value(ts, false);
    APUSH(ts->p->a, v.elems, v.nelems, cap, e);
  } while (accept(ts, T_COMMA));
  if (peekk(ts, 0) != T_RCURLY) unexpected(ts, "',' or '}'");
  next(ts);
  v.text = array_text(ts->p->a, v.elems, v.nelems);
  return v;
}

/* "= v", "= &v" (pointers), "= ATOMIC_INIT(v)" (base types), or nothing. */
static void parse_init_value(TokStream *ts, InitItem *it, bool atomic_init) {
  if (!accept(ts, T_EQ)) {
    it->val = zero_val(ts, it->pos);
    return;
  }
  it->has_val = true;
  if (atomic_init && accept(ts, T_ATOMICINIT)) {
    expect(ts, T_LPAR, "'('");
    it->val = parse_value(ts, false);
    expect(ts, T_RPAR, "')'");
    return;
  }
  it->val = parse_value(ts, true);
}

/* T t[N] [= {...}] */
static void parse_array_item(TokStream *ts, InitItem *it) {
  it->loc.kind = LOC_GLOBAL;
  it->loc.regid = -1;
  it->loc.pos = tok_pos(ts, peek(ts, 0));
  it->loc.sym = next(ts)->s;
  next(ts);
  const Tok *n = next(ts);
  LitVal len = int_val(ts, n);
  next(ts);
  if (len.num < 0 || len.num > MAX_ARRAY)
    fail(ts->p, n->off, "bad array size %s (at most %d)", n->s, MAX_ARRAY);
  it->type.kind = TY_ARRAY;
  it->type.array_len = (int)len.num;
  if (accept(ts, T_EQ)) {
    it->has_val = true;
    it->val = parse_array_val(ts);
    if (it->val.nelems != it->type.array_len)
      fail(ts->p, n->off,
           "Declared size of array %s does not match initial value size",
           it->loc.sym);
    return;
  }
  LitVal v;
  memset(&v, 0, sizeof v);
  v.kind = LV_ARRAY;
  v.pos = it->pos;
  v.nelems = it->type.array_len;
  v.elems = ARENA_NEWN(ts->p->a, LitVal, v.nelems ? v.nelems : 1);
  for (int i = 0; i < v.nelems; i++) v.elems[i] = zero_val(ts, it->pos);
  v.text = array_text(ts->p->a, v.elems, v.nelems);
  it->val = v;
}

/* Items starting with a type name: T *x, T t[N], T x. */
static void parse_typed_item(TokStream *ts, InitItem *it) {
  it->type.base = next(ts)->s;
  if (accept(ts, T_STAR)) {
    it->type.kind = TY_PTR;
    it->loc = parse_loc(ts, true);
    parse_init_value(ts, it, false);
  } else if (peekk(ts, 0) == T_NAME && peekk(ts, 1) == T_LBRK &&
             peekk(ts, 2) == T_NUM && peekk(ts, 3) == T_RBRK) {
    parse_array_item(ts, it);
  } else {
    it->type.kind = TY_BASE;
    it->loc = parse_loc(ts, true);
    parse_init_value(ts, it, true);
  }
}

static void parse_init_item(TokStream *ts, InitItem *it) {
  memset(it, 0, sizeof *it);
  const Tok *t = peek(ts, 0);
  it->pos = tok_pos(ts, t);
  if (accept(ts, T_ATOMIC)) {
    it->type.kind = TY_ATOMIC;
    it->type.base = expect(ts, T_NAME, "a type name")->s;
    it->loc = parse_loc(ts, true);
    parse_init_value(ts, it, true);
  } else if (accept(ts, T_STAR)) {
    it->type.kind = TY_PTR_NOBASE;
    it->loc = parse_loc(ts, true);
    parse_init_value(ts, it, false);
  } else if (t->kind == T_NAME && peekk(ts, 1) == T_LBRK &&
             peekk(ts, 2) == T_NUM) {
    fail(ts->p, t->off, "array cells cannot be initialised one by one");
  } else if (t->kind == T_NAME &&
             (peekk(ts, 1) == T_STAR || starts_loc(ts, 1))) {
    parse_typed_item(ts, it);
  } else {
    it->type.kind = TY_NONE;
    it->loc = parse_loc(ts, true);
    parse_init_value(ts, it, false);
  }
}

static bool same_loc(const LitLoc *a, const LitLoc *b) {
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case LOC_REG: return a->thread == b->thread && a->regid == b->regid;
  case LOC_SYMREG: return strcmp(a->reg, b->reg) == 0;
  case LOC_GLOBAL: return strcmp(a->sym, b->sym) == 0;
  case LOC_CELL: return strcmp(a->sym, b->sym) == 0 && a->index == b->index;
  }
  return false;
}

static void check_duplicate(TokStream *ts, const InitItem *it) {
  Test *t = ts->p->t;
  for (int i = 0; i < t->ninit; i++)
    if (same_loc(&t->init[i].loc, &it->loc)) {
      StrBuf b;
      sb_init(&b);
      lit_print_loc_hash(&it->loc, &b);
      char *name = arena_strdup(ts->p->a, sb_cstr(&b));
      sb_free(&b);
      err_raise(ts->p->err, ERRK_SYNTAX, it->pos,
                "Location %s is initialized more than once", name);
    }
}

static void parse_init(Parser *p, size_t start, size_t end) {
  TokStream ts;
  lex_section(p, start, end, &ts);
  int cap = 0;
  while (peekk(&ts, 0) != T_EOF) {
    if (accept(&ts, T_SEMI)) continue;
    if (p->t->ninit >= MAX_INIT)
      fail(p, peek(&ts, 0)->off, "initial state too large (over %d items)",
           MAX_INIT);
    InitItem it;
    parse_init_item(&ts, &it);
    check_duplicate(&ts, &it);
    APUSH(p->a, p->t->init, p->t->ninit, cap, it);
    if (peekk(&ts, 0) != T_EOF && !accept(&ts, T_SEMI))
      unexpected(&ts, "';' between initial state items");
  }
}

/* ====================================================== 5. final section */

enum { MAX_PROP_DEPTH = 500, MAX_PROPS = 10000 };

static Prop *alloc_prop(TokStream *ts) {
  if (++ts->nprops > MAX_PROPS)
    fail(ts->p, peek(ts, 0)->off, "proposition too large (over %d nodes)",
         MAX_PROPS);
  return ARENA_NEW(ts->p->a, Prop);
}

static Prop *new_prop(TokStream *ts, PropKind k, const Tok *at) {
  Prop *p = alloc_prop(ts);
  p->kind = k;
  p->pos = tok_pos(ts, at);
  return p;
}

static Prop *binary(TokStream *ts, PropKind k, Prop *a, Prop *b) {
  Prop *p = alloc_prop(ts);
  p->kind = k;
  p->a = a;
  p->b = b;
  p->pos = a->pos;
  return p;
}

/* Left side of an atom: location, [x] or t[i]. */
static LitLoc parse_lhs(TokStream *ts) {
  if (peekk(ts, 0) == T_NAME && peekk(ts, 1) == T_LBRK) {
    LitLoc l;
    memset(&l, 0, sizeof l);
    const Tok *t = next(ts);
    l.kind = LOC_CELL;
    l.regid = -1;
    l.sym = t->s;
    l.pos = tok_pos(ts, t);
    next(ts);
    l.index = int_val(ts, expect(ts, T_NUM, "an array index")).num;
    expect(ts, T_RBRK, "']'");
    return l;
  }
  if (!starts_loc(ts, 0)) unexpected(ts, "a location");
  return parse_loc(ts, true);
}

/* Right side of '=': a location (0:r1, %r, [x], *x) or a value. */
static void parse_rhs(TokStream *ts, Prop *p, bool cell) {
  TokKind k = peekk(ts, 0);
  bool loc = is_thread_tok(ts, 0) || k == T_SYMREG || k == T_LBRK ||
             (k == T_STAR && peekk(ts, 1) == T_NAME);
  if (loc && !cell) {
    p->kind = P_LOCEQ;
    if (accept(ts, T_STAR)) {
      memset(&p->loc2, 0, sizeof p->loc2);
      const Tok *t = next(ts);
      p->loc2.kind = LOC_GLOBAL;
      p->loc2.regid = -1;
      p->loc2.sym = t->s;
      p->loc2.pos = tok_pos(ts, t);
    } else {
      p->loc2 = parse_loc(ts, true);
    }
  } else if (k == T_LCURLY && !cell) {
    p->val = parse_array_val(ts);
  } else {
    p->val = parse_value(ts, false);
  }
}

static Prop *parse_atom(TokStream *ts) {
  const Tok *t = peek(ts, 0);
  if (t->kind == T_FAULT) fail(ts->p, t->off, "fault atoms are not supported");
  Prop *p = new_prop(ts, P_EQ, t);
  p->loc = parse_lhs(ts);
  TokKind op = peekk(ts, 0);
  if (op != T_EQ && op != T_EQEQ && op != T_NEQ)
    unexpected(ts, "'=', '==' or '!='");
  next(ts);
  parse_rhs(ts, p, p->loc.kind == LOC_CELL);
  if (op != T_NEQ) return p;
  Prop *n = new_prop(ts, P_NOT, t);
  n->a = p;
  return n;
}

static Prop *parse_prop(TokStream *ts, int depth);

static Prop *parse_unary(TokStream *ts, int depth) {
  const Tok *t = peek(ts, 0);
  if (depth > MAX_PROP_DEPTH)
    fail(ts->p, t->off, "proposition nested too deeply");
  switch (t->kind) {
  case T_NOT: {
    next(ts);
    Prop *p = new_prop(ts, P_NOT, t);
    p->a = parse_unary(ts, depth + 1);
    return p;
  }
  case T_TRUE: next(ts); return new_prop(ts, P_TRUE, t);
  case T_FALSE: next(ts); return new_prop(ts, P_FALSE, t);
  case T_LPAR: {
    next(ts);
    Prop *p = parse_prop(ts, depth + 1);
    expect(ts, T_RPAR, "')'");
    return p;
  }
  default: return parse_atom(ts);
  }
}

/* Precedence, tightest first: ~ / not, => (right), /\ (left), \/ (left). */
static Prop *parse_impl(TokStream *ts, int depth) {
  Prop *a = parse_unary(ts, depth);
  if (!accept(ts, T_IMPL)) return a;
  if (depth > MAX_PROP_DEPTH)
    fail(ts->p, peek(ts, 0)->off, "proposition nested too deeply");
  return binary(ts, P_IMPL, a, parse_impl(ts, depth + 1));
}

static Prop *parse_and(TokStream *ts, int depth) {
  Prop *a = parse_impl(ts, depth);
  while (accept(ts, T_AND)) a = binary(ts, P_AND, a, parse_impl(ts, depth));
  return a;
}

static Prop *parse_prop(TokStream *ts, int depth) {
  Prop *a = parse_and(ts, depth);
  while (accept(ts, T_OR)) a = binary(ts, P_OR, a, parse_and(ts, depth));
  return a;
}

/* observed A1; A2; ... and B1; ...  =  (A1 /\ A2 ...) \/ (B1 /\ ...) */
static Prop *parse_observed(TokStream *ts, const Tok *kw) {
  Prop *all = NULL;
  do {
    Prop *conj = NULL;
    while (peekk(ts, 0) != T_TOKAND && peekk(ts, 0) != T_EOF &&
           peekk(ts, 0) != T_WITH) {
      Prop *a = parse_atom(ts);
      expect(ts, T_SEMI, "';' after an observed atom");
      conj = conj ? binary(ts, P_AND, conj, a) : a;
    }
    if (!conj) conj = new_prop(ts, P_TRUE, kw);
    all = all ? binary(ts, P_OR, all, conj) : conj;
  } while (accept(ts, T_TOKAND));
  return all;
}

/* locations [a; 1:r0; x int; ...] */
static void parse_locations(TokStream *ts) {
  Test *t = ts->p->t;
  int cap = 0;
  expect(ts, T_LBRK, "'['");
  while (peekk(ts, 0) != T_RBRK) {
    if (peekk(ts, 0) == T_FAULT)
      fail(ts->p, peek(ts, 0)->off, "fault locations are not supported");
    LitLoc l = parse_lhs(ts);
    if (peekk(ts, 0) == T_NAME) next(ts); /* a type, e.g. "x int" */
    accept(ts, T_STAR);
    APUSH(ts->p->a, t->locations, t->nlocations, cap, l);
    if (!accept(ts, T_SEMI)) break;
  }
  expect(ts, T_RBRK, "';' or ']'");
}

static void parse_quantified(TokStream *ts) {
  Test *t = ts->p->t;
  const Tok *kw = peek(ts, 0);
  t->has_cond = true;
  t->cond_pos = tok_pos(ts, kw);
  t->quant = Q_EXISTS;
  switch (kw->kind) {
  case T_FORALL: t->quant = Q_FORALL; /* fall through */
  case T_EXISTS: case T_FINAL:
    next(ts);
    t->cond = parse_prop(ts, 0);
    break;
  case T_NOT:
    next(ts);
    expect(ts, T_EXISTS, "'exists' after '~'");
    t->quant = Q_NOT_EXISTS;
    t->cond = parse_prop(ts, 0);
    break;
  case T_LPAR:
    next(ts);
    t->cond = parse_prop(ts, 0);
    expect(ts, T_RPAR, "')'");
    break;
  case T_OBSERVED:
    next(ts);
    t->cond = parse_observed(ts, kw);
    break;
  default:
    unexpected(ts, "a condition (exists, ~exists, forall, final)");
  }
}

static void parse_final(Parser *p, size_t start, size_t end) {
  Test *t = p->t;
  TokStream ts;
  lex_section(p, start, end, &ts);
  t->has_cond = false;
  t->quant = Q_FORALL;
  if (accept(&ts, T_LOCATIONS)) parse_locations(&ts);
  if (accept(&ts, T_FILTER)) t->filter = parse_prop(&ts, 0);
  TokKind k = peekk(&ts, 0);
  if (k != T_EOF && k != T_SEMI && k != T_WITH) parse_quantified(&ts);
  accept(&ts, T_SEMI);
  if (accept(&ts, T_WITH)) {
    while (peekk(&ts, 0) != T_EOF) next(&ts); /* test kinds: ignored */
  }
  if (peekk(&ts, 0) != T_EOF) unexpected(&ts, "the end of the test");
  if (!t->has_cond) {
    t->cond = ARENA_NEW(p->a, Prop);
    t->cond->kind = P_TRUE;
    t->cond_pos = pos_at(p, start);
  }
}

/* ========================================================== 6. code table */

/* A span of the code section: [off, off+len) in the text. */
typedef struct Span {
  size_t off, len;
} Span;

typedef struct CodeScan {
  Parser *p;
  char *buf;       /* the code section with comments blanked out */
  size_t base, n;  /* buf[i] is text[base + i] */
  size_t i;
} CodeScan;

static void blank_comments(CodeScan *cs) {
  Parser *p = cs->p;
  size_t end = cs->base + cs->n;
  for (size_t i = cs->base; i < end;) {
    if (p->text[i] == '"') {
      i = skip_string(p, i, end);
    } else if (starts(p, i, end, "(*")) {
      size_t e = skip_comment(p, i, end);
      for (size_t k = i; k < e; k++)
        if (cs->buf[k - cs->base] != '\n') cs->buf[k - cs->base] = ' ';
      i = e;
    } else {
      i++;
    }
  }
}

static size_t label_len(const char *s) {
  if (!is_alpha(s[0]) && s[0] != '_') return 0;
  size_t n = 1;
  while (is_alnum(s[n]) || strchr("_/.-", s[n]) != NULL) n++;
  return n;
}

static bool is_space(char c) { return is_blank(c) || c == '\n'; }

/* Skip blanks, then "LABEL:" prefixes; calls f for each label. */
static size_t skip_labels(const char *s, size_t i, size_t end,
                          void (*f)(void *, size_t, size_t), void *ctx) {
  for (;;) {
    while (i < end && is_space(s[i])) i++;
    size_t n = label_len(s + i);
    if (!n || i + n > end) return i;
    size_t k = i + n;
    while (k < end && is_blank(s[k])) k++;
    if (k >= end || s[k] != ':') return i;
    if (f) f(ctx, i, n);
    i = k + 1;
  }
}

/* Does the ';' at cs->i belong to the instruction of the current cell? */
static bool semi_continues(CodeScan *cs, size_t cell) {
  const ArchOps *ops = cs->p->t->ops;
  if (!ops->semi_continues) return false;
  size_t i = skip_labels(cs->buf, cell, cs->i, NULL, NULL), e = cs->i;
  while (e > i && is_space(cs->buf[e - 1])) e--;
  char tmp[16];
  if (e - i >= sizeof tmp) return false;
  memcpy(tmp, cs->buf + i, e - i);
  tmp[e - i] = 0;
  return ops->semi_continues(tmp);
}

/* One row: cells separated by '|', ended by ';'.  False at the end. */
static bool read_row(CodeScan *cs, Span **cells, int *ncells, int *cap) {
  *ncells = 0;
  size_t cell = cs->i;
  while (cs->i < cs->n && is_space(cs->buf[cs->i])) cs->i++;
  if (cs->i >= cs->n) return false;
  for (;;) {
    if (cs->i >= cs->n)
      fail(cs->p, cs->base + cs->n, "missing ';' at the end of a code row");
    char c = cs->buf[cs->i];
    if (c == '"') {
      cs->i = skip_string(cs->p, cs->base + cs->i, cs->base + cs->n) - cs->base;
      continue;
    }
    if (c == ';' && semi_continues(cs, cell)) {
      cs->i++;
      continue;
    }
    if (c == '|' || c == ';') {
      Span sp = {cs->base + cell, cs->i - cell};
      APUSH(cs->p->a, *cells, *ncells, *cap, sp);
      cell = ++cs->i;
      if (c == ';') return true;
      continue;
    }
    cs->i++;
  }
}

static void trim(const char *s, size_t *off, size_t *len) {
  while (*len && is_space(s[*off])) (*off)++, (*len)--;
  while (*len && is_space(s[*off + *len - 1])) (*len)--;
}

static void check_threads(CodeScan *cs, const Span *cells, int n) {
  for (int k = 0; k < n; k++) {
    size_t off = cells[k].off - cs->base, len = cells[k].len;
    trim(cs->buf, &off, &len);
    char want[24], *w = dec_digits(want + sizeof want - 1, (uint64_t)k, false);
    want[sizeof want - 1] = 0;
    *--w = 'P'; /* "P%d" */
    if (!lit_word_is(w, cs->buf + off, len))
      fail(cs->p, cs->base + off,
           "Processes must be P0, P1, ... (found '%.*s' for %s)",
           (int)MIN(len, 40), cs->buf + off, w);
  }
}

typedef struct CellCtx {
  CodeScan *cs;
  Thread *th;
  int *cap;
} CellCtx;

static void add_label(void *ctx, size_t i, size_t n) {
  CellCtx *c = ctx;
  Parser *p = c->cs->p;
  CodeEntry e = {arena_strndup(p->a, c->cs->buf + i, n), NULL,
                 pos_at(p, c->cs->base + i)};
  APUSH(p->a, c->th->entries, c->th->nentries, *c->cap, e);
}

static void parse_cell(CodeScan *cs, Span cell, Thread *th, int *cap) {
  CellCtx ctx = {cs, th, cap};
  size_t b = cell.off - cs->base;
  size_t i = skip_labels(cs->buf, b, b + cell.len, add_label, &ctx);
  size_t len = cell.len - (i - b);
  trim(cs->buf, &i, &len);
  if (!len) return;
  Parser *p = cs->p;
  char *text = arena_strndup(p->a, cs->buf + i, len);
  Instr *ins =
      p->t->ops->parse_instr(p->a, p->err, text, pos_at(p, cs->base + i));
  CodeEntry e = {NULL, ins, ins->pos};
  APUSH(p->a, th->entries, th->nentries, *cap, e);
}

static void parse_code(Parser *p, size_t start, size_t end) {
  Test *t = p->t;
  CodeScan cs = {p, arena_strndup(p->a, p->text + start, end - start), start,
                 end - start, 0};
  blank_comments(&cs);
  while (cs.i < cs.n && is_space(cs.buf[cs.i])) cs.i++;
  if (cs.i < cs.n && cs.buf[cs.i] == ';') cs.i++;
  Span *cells = NULL;
  int ncells = 0, cap = 0;
  if (!read_row(&cs, &cells, &ncells, &cap))
    fail(p, start, "missing thread header row 'P0 | P1 ... ;'");
  check_threads(&cs, cells, ncells);
  t->nthreads = ncells;
  t->threads = ARENA_NEWN(p->a, Thread, ncells);
  int *caps = ARENA_NEWN(p->a, int, ncells);
  for (;;) {
    if (!read_row(&cs, &cells, &ncells, &cap)) break;
    if (ncells != t->nthreads) {
      size_t row = cells[0].off - cs.base;
      while (row < cs.n && is_space(cs.buf[row])) row++;
      fail(p, cs.base + row,
           "mismatch in instruction lines: %d cells instead of %d", ncells,
           t->nthreads);
    }
    for (int k = 0; k < ncells; k++)
      parse_cell(&cs, cells[k], &t->threads[k], &caps[k]);
  }
}

/* ================================================= 7. symbolic registers */

/* herd allocates each thread's symbolic registers, in name order, to the
 * architecture's allowed registers that the thread's code and the test's
 * state sections do not already use (lib/symbReg.ml). */
typedef struct SymEnv {
  const char **names; /* sorted, unique */
  int *regs;
  int n, cap;
} SymEnv;

typedef void (*LocFn)(Parser *p, LitLoc *l, void *ctx);

static void walk_prop(Parser *p, Prop *q, LocFn f, void *ctx) {
  for (; q; q = q->b) {
    if (q->kind == P_EQ || q->kind == P_LOCEQ) f(p, &q->loc, ctx);
    if (q->kind == P_LOCEQ) f(p, &q->loc2, ctx);
    if (q->a) walk_prop(p, q->a, f, ctx);
    if (q->kind != P_AND && q->kind != P_OR && q->kind != P_IMPL) break;
  }
}

/* Every location of the init, locations, filter and condition. */
static void walk_state(Parser *p, LocFn f, void *ctx) {
  Test *t = p->t;
  for (int i = 0; i < t->ninit; i++) f(p, &t->init[i].loc, ctx);
  for (int i = 0; i < t->nlocations; i++) f(p, &t->locations[i], ctx);
  walk_prop(p, t->filter, f, ctx);
  walk_prop(p, t->cond, f, ctx);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void env_add(Parser *p, SymEnv *e, const char *name) {
  for (int i = 0; i < e->n; i++)
    if (strcmp(e->names[i], name) == 0) return;
  APUSH(p->a, e->names, e->n, e->cap, name);
}

static int env_index(const SymEnv *e, const char *name) {
  for (int i = 0; i < e->n; i++)
    if (strcmp(e->names[i], name) == 0) return i;
  return -1;
}

/* The register allocated to name, or -1 (after allocate_thread). */
static int env_find(const SymEnv *e, const char *name) {
  int i = env_index(e, name);
  return i >= 0 ? e->regs[i] : -1;
}

/* Calls f on every register operand of a thread's code. */
static void each_code_reg(Thread *th, void (*f)(Operand *, void *), void *ctx) {
  for (int k = 0; k < th->nentries; k++) {
    Instr *ins = th->entries[k].ins;
    for (int o = 0; ins && o < ins->nops; o++)
      if (ins->ops[o].kind == OPK_REG || ins->ops[o].kind == OPK_MEM)
        f(&ins->ops[o], ctx);
  }
}

typedef struct CodeRegs {
  Parser *p;
  bool *used;  /* real registers used by the code */
  SymEnv *env; /* symbolic registers used by the code */
} CodeRegs;

static void note_code_reg(Operand *op, void *ctx) {
  CodeRegs *c = ctx;
  int nregs = c->p->t->ops->nregs;
  if (op->sreg) env_add(c->p, c->env, op->sreg);
  else if (op->reg >= 0 && op->reg < nregs) c->used[op->reg] = true;
  if (op->sreg2) env_add(c->p, c->env, op->sreg2);
  else if (op->reg2 >= 0 && op->reg2 < nregs) c->used[op->reg2] = true;
}

static void rewrite_reg(Operand *op, void *ctx) {
  const SymEnv *e = ctx;
  if (op->sreg) op->reg = env_find(e, op->sreg);
  if (op->sreg2) op->reg2 = env_find(e, op->sreg2);
}

typedef struct StateRegs {
  bool *used;       /* nthreads x nregs: real registers named in the state */
  SymEnv names;     /* symbolic registers named in the state */
  SrcPos *pos;      /* where each of those first appears */
  int poscap;
  bool any;         /* some symbolic register appears in the state */
} StateRegs;

static void note_state_loc(Parser *p, LitLoc *l, void *ctx) {
  StateRegs *s = ctx;
  int nregs = p->t->ops->nregs;
  if (l->kind == LOC_REG && l->thread >= 0 && l->thread < p->t->nthreads &&
      l->regid >= 0 && l->regid < nregs)
    s->used[l->thread * nregs + l->regid] = true;
  if (l->kind != LOC_SYMREG) return;
  int n = s->names.n;
  env_add(p, &s->names, l->reg);
  if (s->names.n > n) APUSH(p->a, s->pos, n, s->poscap, l->pos);
  s->any = true;
}

static void allocate_thread(Parser *p, int th, SymEnv *e, const bool *used) {
  const ArchOps *ops = p->t->ops;
  e->regs = ARENA_NEWN(p->a, int, e->n ? e->n : 1);
  int next_free = 0;
  for (int i = 0; i < e->n; i++) {
    while (next_free < ops->nsymb_regs && used[ops->symb_regs[next_free]])
      next_free++;
    if (next_free >= ops->nsymb_regs)
      err_raise(p->err, ERRK_LIMIT, p->t->threads[th].entries[0].pos,
                "not enough registers for all those symbolic registers");
    e->regs[i] = ops->symb_regs[next_free++];
  }
}

typedef struct Envs {
  SymEnv *env;
  int n;
} Envs;

static void resolve_state_loc(Parser *p, LitLoc *l, void *ctx) {
  const Envs *es = ctx;
  if (l->kind != LOC_SYMREG) return;
  /* herd looks the name up in an environment built thread by thread,
   * newest first: the last thread using the name wins. */
  for (int th = es->n - 1; th >= 0; th--) {
    int r = env_find(&es->env[th], l->reg);
    if (r >= 0) {
      l->thread = th;
      l->regid = r;
      return;
    }
  }
  err_raise(p->err, ERRK_SEMANTIC, l->pos,
            "symbolic register %%%s does not appear in code", l->reg);
}

static void check_ambiguous(Parser *p, const Envs *es, const StateRegs *s) {
  for (int i = 0; i < s->names.n; i++) {
    int users = 0;
    for (int th = 0; th < es->n; th++)
      users += env_index(&es->env[th], s->names.names[i]) >= 0;
    if (users > 1)
      err_raise(p->err, ERRK_SEMANTIC, s->pos[i],
                "ambiguous symbolic register(s): {%s}", s->names.names[i]);
  }
}

static void alloc_symregs(Parser *p) {
  Test *t = p->t;
  int nregs = t->ops->nregs, nth = t->nthreads ? t->nthreads : 1;
  StateRegs s;
  memset(&s, 0, sizeof s);
  s.used = ARENA_NEWN(p->a, bool, (size_t)nth * (size_t)nregs);
  walk_state(p, note_state_loc, &s);
  Envs es = {ARENA_NEWN(p->a, SymEnv, nth), t->nthreads};
  bool *used = ARENA_NEWN(p->a, bool, (size_t)nth * (size_t)nregs);
  bool any = s.any;
  for (int th = 0; th < t->nthreads; th++) {
    bool *u = used + th * nregs;
    memcpy(u, s.used + th * nregs, sizeof(bool) * (size_t)nregs);
    CodeRegs c = {p, u, &es.env[th]};
    each_code_reg(&t->threads[th], note_code_reg, &c);
    if (es.env[th].n > 1)
      qsort(es.env[th].names, (size_t)es.env[th].n, sizeof(char *), cmp_str);
    any = any || es.env[th].n > 0;
  }
  if (!any) return;
  check_ambiguous(p, &es, &s);
  for (int th = 0; th < t->nthreads; th++) {
    allocate_thread(p, th, &es.env[th], used + th * nregs);
    each_code_reg(&t->threads[th], rewrite_reg, &es.env[th]);
  }
  walk_state(p, resolve_state_loc, &es);
}

/* ======================================================== 8. entry points */

/* The C parser descends once per bracket: bound the nesting before it
 * runs, so that no input can exhaust the stack (comments and literals
 * are skipped; an unbalanced file is the parser's to report). */
enum { C_MAX_NESTING = 256 };

static void check_c_nesting(Parser *p, size_t from, size_t to) {
  const char *s = p->text;
  int depth = 0;
  for (size_t i = from; i < to; i++) {
    char ch = s[i];
    if (ch == '/' && i + 1 < to && s[i + 1] == '/') {
      while (i < to && s[i] != '\n') i++;
    } else if (ch == '/' && i + 1 < to && s[i + 1] == '*') {
      for (i += 2; i + 1 < to && !(s[i] == '*' && s[i + 1] == '/'); i++) {}
      i++;
    } else if (ch == '"' || ch == '\'') {
      for (i++; i < to && s[i] != ch && s[i] != '\n'; i++)
        if (s[i] == '\\') i++;
    } else if (ch == '(' || ch == '[' || ch == '{') {
      if (++depth > C_MAX_NESTING)
        fail(p, i, "C code nested too deeply (more than %d levels of brackets)", C_MAX_NESTING);
    } else if ((ch == ')' || ch == ']' || ch == '}') && depth > 0) {
      depth--;
    }
  }
}

static void parse_all(Parser *p) {
  index_lines(p);
  Split sp = split(p);
  parse_init(p, sp.init_start, sp.init_end);
  if (p->t->c) check_c_nesting(p, sp.code_start, sp.code_end);
  if (p->t->c)
    c_parse_code(p->t, p->err, p->text, sp.code_start, sp.code_end,
                 pos_at(p, sp.code_start));
  else
    parse_code(p, sp.code_start, sp.code_end);
  parse_final(p, sp.final_start, sp.final_end);
  if (!p->t->c) alloc_symregs(p);
}

Test *litmus_parse(const char *path, const char *text, Err *err) {
  Test *t = xcalloc(1, sizeof *t);
  arena_init(&t->arena);
  t->file = arena_strdup(&t->arena, path ? path : "<input>");
  size_t n = strlen(text);
  t->text = arena_strndup(&t->arena, text, n);
  Parser p = {t, err, &t->arena, t->text, n, NULL, 0};
  ErrJmp j;
  err_push(err, &j);
  if (setjmp(j.jb) == 0) {
    parse_all(&p);
    err_pop(err, &j);
    return t;
  }
  test_free(t);
  return NULL;
}

void test_free(Test *t) {
  if (!t) return;
  arena_free(&t->arena);
  free(t);
}

const char *test_meta(const Test *t, const char *key) {
  for (int i = 0; i < t->nmeta; i++)
    if (strcmp(t->meta[i].key, key) == 0) return t->meta[i].value;
  return NULL;
}
