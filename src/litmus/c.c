/*
 * c.c — the C front end: a lexer and recursive-descent parser for the
 * thread functions of C litmus tests and for macro (.def) files, macro
 * expansion, and the lowering of each thread to the executor's
 * instruction list (litmus.md §6, hash.md §6).
 *
 * The grammar is the small C subset herd accepts, plus `&&`, `||` and `!`.
 * Names in thread code are registers (locals and parameters alike, as in
 * herd); names in macro bodies stay unresolved (CK_NAME) until the
 * parameters are substituted.  Everything lives in the Test's arena.
 */
#include "c.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ================================================================ lexer */

typedef enum CTokKind { CT_EOF, CT_NUM, CT_NAME, CT_PUNCT } CTokKind;

typedef struct CTok {
  CTokKind kind;
  const char *s;       /* CT_NAME: arena copy; CT_PUNCT: static spelling */
  const char *ann;     /* CT_NAME of the form __name{ann} */
  int64_t num;
  size_t off, end;     /* offsets in the text */
  SrcPos pos;
  int binop;           /* CT_PUNCT: its index in binops[], or -1 */
} CTok;

/* Binary operators by precedence level, loosest first. */
static const struct {
  const char *s;
  int level;
  CBinOp op;
} binops[] = {
    {"||", 0, CB_LOR}, {"&&", 1, CB_LAND}, {"|", 2, CB_OR},  {"^", 3, CB_XOR},
    {"&", 4, CB_AND},  {"==", 5, CB_EQ},   {"!=", 5, CB_NE}, {"<", 6, CB_LT},
    {">", 6, CB_GT},   {"<=", 6, CB_LE},   {">=", 6, CB_GE}, {"+", 7, CB_ADD},
    {"-", 7, CB_SUB},  {"*", 8, CB_MUL},   {"/", 8, CB_DIV},
};

typedef struct CParser {
  Test *t;
  Arena *a;
  Err *err;
  const char *text;
  CTok *toks;
  int ntoks, cap, i;
  bool in_def;         /* names are macro parameters, not registers */
  int depth;           /* nesting of expressions and statements */
} CParser;

/* Nesting bound: keeps the recursive parser, expander and evaluator off
 * the end of the stack on hostile inputs. */
enum { MAX_NESTING = 500 };

static CR_NORETURN CR_PRINTF(3, 4) void cfail(CParser *p, SrcPos pos,
                                              const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  err_vraise(p->err, ERRK_SYNTAX, pos, fmt, ap);
}

static bool c_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool c_digit(char c) { return c >= '0' && c <= '9'; }

static bool c_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static bool c_alnum(char c) { return c_alpha(c) || c_digit(c); }

/* The punctuator at s, given `avail` characters (two for == != <= >= &&
 * || -> ++ -- << >>): its spelling, a static string rather than a copy
 * per token, or NULL when s[0] starts none.  *bin tells whether binops[]
 * may hold it. */
static const char *punct_at(const char *s, size_t avail, bool *bin) {
  char b = avail >= 2 ? s[1] : 0;
  *bin = true;
  switch (s[0]) {
  case '=': return b == '=' ? "==" : "=";
  case '!': return b == '=' ? "!=" : "!";
  case '<': return b == '=' ? "<=" : b == '<' ? "<<" : "<";
  case '>': return b == '=' ? ">=" : b == '>' ? ">>" : ">";
  case '&': return b == '&' ? "&&" : "&";
  case '|': return b == '|' ? "||" : "|";
  case '-': return b == '>' ? "->" : b == '-' ? "--" : "-";
  case '+': return b == '+' ? "++" : "+";
  case '*': return "*";
  case '^': return "^";
  case '/': return "/";
  default: break;
  }
  *bin = false;
  switch (s[0]) {
  case '(': return "(";
  case ')': return ")";
  case '{': return "{";
  case '}': return "}";
  case '[': return "[";
  case ']': return "]";
  case ';': return ";";
  case ',': return ",";
  case '%': return "%";
  case '~': return "~";
  case '?': return "?";
  case ':': return ":";
  case '.': return ".";
  default: return NULL;
  }
}

/* Tokenise [start, end) of text; pos is the position of start.  The
 * macro file of an LKMM test is lexed for every test: tokens are built
 * in place, names and punctuators advance the column in one step. */
static void c_lex(CParser *p, size_t start, size_t end, SrcPos pos) {
  const char *s = p->text;
  int line = pos.line, col = pos.col;
  size_t i = start;
  /* about a token per 4 bytes (linux-kernel.def: 4.2): one block rather
   * than a series of doublings, each copied (10% of an LKMM test's work) */
  size_t want = (size_t)p->ntoks + (end - start) / 4 + 8;
  if (want < INT_MAX / 2)
    p->toks = lit_reserve(p->a, p->toks, p->ntoks, &p->cap, (int)want, sizeof *p->toks);
#define ADV()                                   \
  do {                                          \
    if (s[i] == '\n') line++, col = 1;          \
    else col++;                                 \
    i++;                                        \
  } while (0)
  for (;;) {
    while (i < end) {
      if (c_space(s[i])) {
        ADV();
      } else if (s[i] == '/' && i + 1 < end && s[i + 1] == '/') {
        while (i < end && s[i] != '\n') ADV();
      } else if (s[i] == '/' && i + 1 < end && s[i + 1] == '*') {
        SrcPos at = {pos.file, line, col};
        ADV(); ADV();
        while (i + 1 < end && !(s[i] == '*' && s[i + 1] == '/')) ADV();
        if (i + 1 >= end) cfail(p, at, "unterminated comment");
        ADV(); ADV();
      } else {
        break;
      }
    }
    if (p->ntoks >= p->cap)
      p->toks = lit_grow(p->a, p->toks, p->ntoks, &p->cap, sizeof *p->toks);
    CTok *t = &p->toks[p->ntoks++];
    *t = (CTok){.off = i, .pos = {pos.file, line, col}};
    if (i >= end) {
      t->kind = CT_EOF;
      t->end = i;
      break;
    }
    size_t b = i;
    if (c_alpha(s[i])) {
      while (i < end && c_alnum(s[i])) i++;
      col += (int)(i - b);
      t->kind = CT_NAME;
      t->s = arena_strndup(p->a, s + b, i - b);
      /* __name{annotation}: the annotation may contain '-' */
      if (i - b > 2 && s[b] == '_' && s[b + 1] == '_' && i < end && s[i] == '{') {
        size_t k = i + 1;
        while (k < end && (c_alnum(s[k]) || s[k] == '-')) k++;
        if (k < end && s[k] == '}' && k > i + 1) {
          t->ann = arena_strndup(p->a, s + i + 1, k - i - 1);
          col += (int)(k + 1 - i);
          i = k + 1;
        }
      }
    } else if (c_digit(s[i])) {
      while (i < end && c_alnum(s[i])) i++;
      col += (int)(i - b);
      if (!lit_parse_int(s + b, i - b, &t->num))
        cfail(p, t->pos, "bad number '%.*s'", (int)(i - b), s + b);
      t->kind = CT_NUM;
    } else {
      bool bin;
      const char *sp = punct_at(s + i, end - i, &bin);
      if (!sp) cfail(p, t->pos, "unexpected character '%c'", s[i]);
      t->kind = CT_PUNCT;
      t->s = sp;
      t->binop = -1; /* found once here, not at each of binary()'s levels */
      if (bin)
        for (size_t k = 0; k < ARRAY_LEN(binops); k++)
          if (binops[k].s[0] == sp[0] && binops[k].s[1] == sp[1]) t->binop = (int)k;
      size_t n = sp[1] ? 2 : 1;
      i += n;
      col += (int)n;
    }
    t->end = i;
  }
#undef ADV
}

static CTok *peek(CParser *p, int k) {
  int j = p->i + k;
  return &p->toks[j < p->ntoks ? j : p->ntoks - 1];
}
static CTok *next(CParser *p) {
  CTok *t = peek(p, 0);
  if (p->i < p->ntoks - 1) p->i++;
  return t;
}
static bool is_p(CParser *p, int k, const char *s) {
  CTok *t = peek(p, k);
  /* punctuators are one or two characters */
  return t->kind == CT_PUNCT && t->s[0] == s[0] && t->s[1] == s[1] &&
         (s[1] == 0 || strcmp(t->s + 2, s + 2) == 0);
}
static bool is_name(CParser *p, int k, const char *s) {
  CTok *t = peek(p, k);
  return t->kind == CT_NAME && !t->ann && t->s[0] == s[0] && strcmp(t->s, s) == 0;
}
static bool accept(CParser *p, const char *s) {
  if (!is_p(p, 0, s)) return false;
  next(p);
  return true;
}
static CR_NORETURN void unexpected(CParser *p, const char *what) {
  CTok *t = peek(p, 0);
  if (t->kind == CT_EOF) cfail(p, t->pos, "syntax error: expected %s, found end of input", what);
  cfail(p, t->pos, "syntax error: expected %s, found '%.*s'", what,
        (int)(t->end - t->off), p->text + t->off);
}
static void expect(CParser *p, const char *s) {
  if (!accept(p, s)) {
    char what[16];
    snprintf(what, sizeof what, "'%s'", s);
    unexpected(p, what);
  }
}

/* =============================================================== types */

static const char *const type_words[] = {
    "int", "char", "short", "long", "unsigned", "signed", "void", "volatile",
    "const", "_Atomic", "struct", "atomic_int", "atomic_uint", "atomic_long",
    "atomic_bool", "atomic_char", "bool", "_Bool", "__int128", "__uint128",
};

static bool is_type_word(CParser *p, int k) {
  CTok *t = peek(p, k);
  if (t->kind != CT_NAME || t->ann) return false;
  if (is_p(p, k + 1, "(")) return false;
  for (size_t i = 0; i < ARRAY_LEN(type_words); i++)
    if (strcmp(t->s, type_words[i]) == 0) return true;
  size_t n = strlen(t->s);
  return n > 2 && strcmp(t->s + n - 2, "_t") == 0;
}

/* Type words and stars; returns the number of '*' and, when out is not
 * NULL, the base type printed as hash.md §6 wants it (arena strings: a
 * syntax error may leave at any point). */
static int parse_type(CParser *p, const char **out) {
  bool is_atomic = false, is_volatile = false, is_const = false;
  const char *base = NULL;
  while (is_type_word(p, 0)) {
    const char *w = next(p)->s;
    if (!strcmp(w, "_Atomic")) is_atomic = true;
    else if (!strcmp(w, "volatile")) is_volatile = true;
    else if (!strcmp(w, "const")) is_const = true;
    else {
      if (!strcmp(w, "atomic_int")) is_atomic = true, w = "int";
      if (!strcmp(w, "struct") && peek(p, 0)->kind == CT_NAME)
        w = lit_join(p->a, "struct ", next(p)->s, "", "");
      base = base ? lit_join(p->a, base, " ", w, "") : w;
    }
  }
  int stars = 0;
  while (accept(p, "*")) stars++;
  if (out)
    *out = lit_join(p->a, is_atomic ? "_Atomic " : "", is_volatile ? "volatile " : "",
                     base ? base : "int", is_const ? " const" : "");
  return stars;
}

/* ========================================================== registers */

void c_begin(Test *t) { t->c = ARENA_NEW(&t->arena, CCode); }

const char *test_reg_name(const Test *t, int reg) {
  if (t->c) return reg >= 0 && reg < t->c->nregs ? t->c->regs[reg] : "?";
  return t->ops->reg_name(reg);
}

int c_reg(Test *t, const char *name) {
  CCode *c = t->c;
  for (int i = 0; i < c->nregs; i++)
    if (strcmp(c->regs[i], name) == 0) return i;
  APUSH(&t->arena, c->regs, c->nregs, c->capregs, arena_strdup(&t->arena, name));
  return c->nregs - 1;
}

/* =========================================================== the tree */

static CNode *mk(CParser *p, CKind k, SrcPos pos) {
  CNode *n = ARENA_NEW(p->a, CNode);
  n->kind = (uint8_t)k;
  n->pos = pos;
  n->reg = -1;
  return n;
}

static CNode *expr(CParser *p);

static bool is_mo_name(const char *s) { return strncmp(s, "memory_order_", 13) == 0; }

static CNode *call_args(CParser *p, CNode *n) {
  int cap = 0;
  expect(p, "(");
  if (!is_p(p, 0, ")")) {
    do {
      /* operator arguments of __atomic_op...: +, -, &, |, ^, &~ */
      CTok *t = peek(p, 0);
      int op = -1;
      if (t->kind == CT_PUNCT) {
        if (!strcmp(t->s, "&") && is_p(p, 1, "~") && is_p(p, 2, ",")) op = CB_ANDNOT;
        else if (is_p(p, 1, ",")) {
          if (!strcmp(t->s, "+")) op = CB_ADD;
          else if (!strcmp(t->s, "-")) op = CB_SUB;
          else if (!strcmp(t->s, "&")) op = CB_AND;
          else if (!strcmp(t->s, "|")) op = CB_OR;
          else if (!strcmp(t->s, "^")) op = CB_XOR;
        }
      }
      CNode *arg;
      if (op >= 0) {
        arg = mk(p, CK_OPTOK, t->pos);
        arg->op = (uint8_t)op;
        next(p);
        if (op == CB_ANDNOT) next(p);
      } else {
        arg = expr(p);
      }
      APUSH(p->a, n->kids, n->nkids, cap, arg);
    } while (accept(p, ","));
  }
  expect(p, ")");
  return n;
}

static CNode *unary(CParser *p);

static CNode *primary(CParser *p) {
  CTok *t = peek(p, 0);
  if (t->kind == CT_NUM) {
    next(p);
    CNode *n = mk(p, CK_INT, t->pos);
    n->num = t->num;
    return n;
  }
  if (t->kind == CT_NAME) {
    next(p);
    if (t->ann || is_p(p, 0, "(")) {
      CNode *n = mk(p, CK_CALL, t->pos);
      n->name = t->s;
      n->ann = t->ann;
      if (t->ann && !is_p(p, 0, "(")) return n; /* __fence{A} */
      return call_args(p, n);
    }
    if (p->in_def || is_mo_name(t->s)) {
      CNode *n = mk(p, CK_NAME, t->pos);
      n->name = t->s;
      return n;
    }
    CNode *n = mk(p, CK_REG, t->pos);
    n->reg = c_reg(p->t, t->s);
    n->name = t->s;
    return n;
  }
  if (accept(p, "(")) {
    CNode *e = expr(p);
    expect(p, ")");
    return e;
  }
  unexpected(p, "an expression");
}

static CNode *unary1(CParser *p);

static CNode *unary(CParser *p) {
  if (++p->depth > MAX_NESTING)
    cfail(p, peek(p, 0)->pos, "expression nested too deeply");
  CNode *n = unary1(p);
  p->depth--;
  return n;
}

static CNode *unary1(CParser *p) {
  CTok *t = peek(p, 0);
  /* the one-character punctuator at hand, looked at once */
  char op = t->kind == CT_PUNCT && !t->s[1] ? t->s[0] : 0;
  if (op == '*' || op == '&' || op == '!') {
    next(p);
    CNode *n = mk(p, op == '*' ? CK_DEREF : op == '&' ? CK_ADDROF : CK_NOT, t->pos);
    n->a = unary(p);
    return n;
  }
  if (op == '-') {
    next(p);
    CNode *e = unary(p);
    if (e->kind == CK_INT) {
      e->num = -e->num;
      e->pos = t->pos;
      return e;
    }
    CNode *n = mk(p, CK_NEG, t->pos);
    n->a = e;
    return n;
  }
  if (op == '(' && is_type_word(p, 1)) { /* a cast, ignored */
    next(p);
    parse_type(p, NULL);
    expect(p, ")");
    return unary(p);
  }
  return primary(p);
}


/* Operators of level `level` or tighter, left-associative: precedence
 * climbing, one call per operand rather than one per level (the LKMM
 * macro file is parsed for every test).  The tree is the one the grammar
 * "a level is a chain of the next tighter level" gives.  chain counts the
 * operators on the left spine of the result. */
static CNode *binary(CParser *p, int level) {
  CNode *l = unary(p);
  for (int chain = 0;; chain++) {
    if (p->depth + chain > MAX_NESTING)
      cfail(p, peek(p, 0)->pos, "expression nested too deeply");
    CTok *t = peek(p, 0);
    int found = t->kind == CT_PUNCT ? t->binop : -1;
    if (found < 0 || binops[found].level < level) return l;
    next(p);
    CNode *n = mk(p, CK_BIN, t->pos);
    n->op = (uint8_t)binops[found].op;
    n->a = l;
    n->b = binary(p, binops[found].level + 1);
    l = n;
  }
}

static CNode *expr(CParser *p) { return binary(p, 0); }

static CNode *stmt(CParser *p);

static CNode *block(CParser *p) {
  CTok *t = peek(p, 0);
  expect(p, "{");
  CNode *n = mk(p, CK_BLOCK, t->pos);
  int cap = 0;
  while (!is_p(p, 0, "}")) {
    if (peek(p, 0)->kind == CT_EOF) unexpected(p, "'}'");
    CNode *s = stmt(p);
    APUSH(p->a, n->kids, n->nkids, cap, s);
  }
  next(p);
  return n;
}

static CNode *assign_to(CParser *p, CNode *lhs, CNode *rhs, SrcPos pos) {
  if (lhs->kind != CK_REG && lhs->kind != CK_DEREF && lhs->kind != CK_NAME)
    cfail(p, lhs->pos, "type error: the left side of '=' is not assignable");
  CNode *n = mk(p, CK_ASSIGN, pos);
  n->a = lhs;
  n->b = rhs;
  return n;
}

/* A declaration: TYPE name [= e] {, name [= e]} ; */
static CNode *decl(CParser *p) {
  CTok *t0 = peek(p, 0);
  parse_type(p, NULL);
  CNode *blk = mk(p, CK_BLOCK, t0->pos);
  int cap = 0;
  do {
    while (accept(p, "*")) {}
    CTok *t = peek(p, 0);
    if (t->kind != CT_NAME || t->ann) unexpected(p, "a variable name");
    next(p);
    CNode *r = mk(p, CK_REG, t->pos);
    r->reg = c_reg(p->t, t->s);
    r->name = t->s;
    if (accept(p, "=")) {
      CNode *s = assign_to(p, r, expr(p), t->pos);
      APUSH(p->a, blk->kids, blk->nkids, cap, s);
    }
  } while (accept(p, ","));
  expect(p, ";");
  return blk;
}

static CNode *stmt1(CParser *p);

/* Tokens [from, to) joined as herd prints C code: spaces around binary
 * operators and '=', none inside calls' argument lists, after a unary
 * '*', or before ';'. */
static const char *stmt_text(CParser *p, int from, int to) {
  StrBuf b;
  sb_init(&b);
  for (int i = from; i < to; i++) {
    const CTok *t = &p->toks[i];
    const char *s = t->kind == CT_NUM ? NULL : t->s;
    if (i > from) {
      const CTok *u = &p->toks[i - 1];
      bool tight = u->kind == CT_PUNCT && strchr("(,!", u->s[0]) && !u->s[1];
      if (u->kind == CT_PUNCT && !strcmp(u->s, "*") &&
          (i - 1 == from || p->toks[i - 2].kind == CT_PUNCT))
        tight = true;
      if (t->kind == CT_PUNCT && (!strcmp(s, "(") ? u->kind == CT_NAME
                                                    : !strcmp(s, ")") || !strcmp(s, ",") ||
                                                          !strcmp(s, ";")))
        tight = true;
      if (!tight) sb_putc(&b, ' ');
    }
    sb_putn(&b, p->text + t->off, t->end - t->off);
  }
  const char *r = arena_strdup(p->a, sb_cstr(&b));
  sb_free(&b);
  return r;
}

static CNode *stmt(CParser *p) {
  if (++p->depth > MAX_NESTING)
    cfail(p, peek(p, 0)->pos, "statement nested too deeply");
  int from = p->i;
  CNode *n = stmt1(p);
  if (n->kind != CK_IF && n->kind != CK_WHILE && !is_p(p, -1, "}"))
    n->text = stmt_text(p, from, p->i);
  p->depth--;
  return n;
}

static CNode *stmt1(CParser *p) {
  CTok *t = peek(p, 0);
  if (is_p(p, 0, "{")) return block(p);
  if (accept(p, ";")) return mk(p, CK_SKIP, t->pos);
  if (is_name(p, 0, "if")) {
    next(p);
    CNode *n = mk(p, CK_IF, t->pos);
    expect(p, "(");
    n->a = expr(p);
    expect(p, ")");
    n->b = stmt(p);
    if (is_name(p, 0, "else")) {
      next(p);
      n->c = stmt(p);
    }
    return n;
  }
  if (is_name(p, 0, "while")) {
    next(p);
    CNode *n = mk(p, CK_WHILE, t->pos);
    expect(p, "(");
    n->a = expr(p);
    expect(p, ")");
    n->b = stmt(p);
    return n;
  }
  if (is_name(p, 0, "for") || is_name(p, 0, "return") || is_name(p, 0, "do") ||
      is_name(p, 0, "goto") || is_name(p, 0, "switch"))
    cfail(p, t->pos, "syntax error: '%s' is not supported in C litmus tests", t->s);
  if (is_type_word(p, 0) && !p->in_def) return decl(p);
  if (is_p(p, 0, "(") && is_name(p, 1, "void") && is_p(p, 2, ")")) {
    next(p), next(p), next(p);
  }
  CNode *e = expr(p);
  CNode *s;
  if (is_p(p, 0, "=")) {
    CTok *eq = next(p);
    s = assign_to(p, e, expr(p), eq->pos);
  } else {
    s = mk(p, CK_EXPR, e->pos);
    s->a = e;
  }
  expect(p, ";");
  return s;
}

/* ========================================================= code section */

static void parse_thread(CParser *p, CCode *c) {
  CTok *t = peek(p, 0);
  if (is_name(p, 0, "void")) next(p), t = peek(p, 0);
  while (accept(p, "*")) t = peek(p, 0);
  if (t->kind != CT_NAME || t->s[0] != 'P' || !c_digit(t->s[1]))
    unexpected(p, "a thread function P0(...) {...}");
  for (const char *q = t->s + 1; *q; q++)
    if (!c_digit(*q)) unexpected(p, "a thread function P0(...) {...}");
  int proc = atoi(t->s + 1);
  if (proc != c->nthreads)
    cfail(p, t->pos, "syntax error: thread functions must be P0, P1, ... in order (found %s)", t->s);
  next(p);
  CThread th = {0};
  th.proc = proc;
  th.pos = t->pos;
  int cap = 0;
  expect(p, "(");
  if (!is_p(p, 0, ")")) {
    do {
      const char *ty;
      int stars = parse_type(p, &ty);
      CTok *nt = peek(p, 0);
      if (nt->kind != CT_NAME || nt->ann) unexpected(p, "a parameter name");
      if (stars < 1) cfail(p, nt->pos, "type error: parameter %s must be a pointer", nt->s);
      if (stars > 8) cfail(p, nt->pos, "type error: too many pointer levels");
      next(p);
      static const char eight_stars[] = "********"; /* the type's last `stars` of them */
      CParam pm = {nt->s, lit_join(p->a, ty, &eight_stars[8 - stars], "", ""),
                   c_reg(p->t, nt->s)};
      APUSH(p->a, th.params, th.nparams, cap, pm);
    } while (accept(p, ","));
  }
  expect(p, ")");
  CTok *open = peek(p, 0);
  th.code = block(p);
  CTok *close = &p->toks[p->i - 1];
  th.body = arena_strndup(p->a, p->text + open->off + 1, close->off - open->off - 1);
  int tcap = c->nthreads;
  APUSH(p->a, c->threads, c->nthreads, tcap, th);
}

/* P0, P1...: herd's lexer makes them thread tokens, never names. */
static bool is_proc(const CTok *t) {
  if (t->kind != CT_NAME || t->ann || t->s[0] != 'P' || !t->s[1]) return false;
  for (const char *q = t->s + 1; *q; q++)
    if (!c_digit(*q)) return false;
  return true;
}

/* The sections herd's C grammar accepts after the thread functions, in
 * any order: "scopes: TREE", "levels: TREE" (parenthesised trees of
 * names and threads) and "regions: x:NAME..., y:NAME...".  They feed
 * bell files that declare scopes or regions; corral's models use none,
 * so they are checked for syntax and dropped. */
static bool bell_extra(CParser *p) {
  if (!(is_name(p, 0, "scopes") || is_name(p, 0, "levels") ||
        is_name(p, 0, "regions")) || !is_p(p, 1, ":"))
    return false;
  bool regions = is_name(p, 0, "regions");
  next(p), next(p);
  if (regions) {
    while (peek(p, 0)->kind == CT_NAME && is_p(p, 1, ":")) {
      next(p), next(p);
      if (peek(p, 0)->kind != CT_NAME) unexpected(p, "a region name");
      while (peek(p, 0)->kind == CT_NAME && !is_p(p, 1, ":") && !is_proc(peek(p, 0)))
        next(p);
      if (!accept(p, ",")) break;
    }
    return true;
  }
  int depth = 0;
  do {
    if (accept(p, "(")) {
      depth++;
      if (peek(p, 0)->kind != CT_NAME) unexpected(p, "a scope name");
      next(p);
    } else if (depth > 0 && accept(p, ")")) {
      depth--;
    } else if (peek(p, 0)->kind == CT_NUM || is_proc(peek(p, 0)) ||
               (depth > 0 && peek(p, 0)->kind == CT_NAME)) {
      next(p);
    } else {
      unexpected(p, depth ? "')'" : "a scope tree");
    }
  } while (depth > 0 || is_p(p, 0, "(") || peek(p, 0)->kind == CT_NUM);
  return true;
}

void c_parse_code(Test *t, Err *err, const char *text, size_t start,
                  size_t end, SrcPos pos) {
  if (!t->c) c_begin(t);
  CCode *c = t->c;
  CParser p = {t, &t->arena, err, text, NULL, 0, 0, 0, false, 0};
  c_lex(&p, start, end, pos);
  bool extras = false;
  while (peek(&p, 0)->kind != CT_EOF) {
    if (bell_extra(&p)) extras = true;
    else if (extras) unexpected(&p, "scopes:, levels: or regions:");
    else parse_thread(&p, c);
  }
  if (c->nthreads == 0) cfail(&p, pos, "syntax error: no thread function");
  t->nthreads = c->nthreads;
}

/* ================================================================ hash */

void c_hash_code(const Test *t, StrBuf *out) {
  const CCode *c = t->c;
  for (int i = 0; i < c->nthreads; i++) {
    const CThread *th = &c->threads[i];
    sb_puts(out, i ? " | P" : " P"); /* "%s P%d(" */
    sb_put_int(out, th->proc);
    sb_putc(out, '(');
    for (int k = 0; k < th->nparams; k++) {
      if (k) sb_puts(out, ", ");
      sb_puts(out, th->params[k].type);
      sb_putc(out, ' ');
      sb_puts(out, th->params[k].name);
    }
    sb_puts(out, ") {\n");
    sb_puts(out, th->body);
    sb_puts(out, "\n}\n");
  }
  sb_puts(out, " ;\n");
}

/* ============================================================ expansion */

typedef struct Macro {
  const char *name;
  const char **params;
  int nparams;
  CNode *body;         /* an expression, or a CK_BLOCK statement body */
  bool is_stmt;
} Macro;

typedef struct Expander {
  CParser *p;
  Macro *m;
  int nm, cap;
  int depth;
  long nodes;          /* copied by macro substitution, bounded */
} Expander;

enum { MAX_EXPANDED_NODES = 200000 };

static void parse_defs(Expander *x, CParser *p) {
  while (peek(p, 0)->kind != CT_EOF) {
    CTok *t = peek(p, 0);
    if (t->kind != CT_NAME || t->ann) unexpected(p, "a macro name");
    next(p);
    Macro m = {0};
    m.name = t->s;
    int cap = 0;
    expect(p, "(");
    if (!is_p(p, 0, ")")) {
      do {
        CTok *a = peek(p, 0);
        if (a->kind != CT_NAME) unexpected(p, "a macro parameter");
        next(p);
        APUSH(p->a, m.params, m.nparams, cap, a->s);
      } while (accept(p, ","));
    }
    expect(p, ")");
    if (is_p(p, 0, "{")) {
      m.body = block(p);
      m.is_stmt = true;
    } else {
      m.body = expr(p);
    }
    APUSH(p->a, x->m, x->nm, x->cap, m);
  }
}

static const Macro *find_macro(const Expander *x, const char *name, int nargs) {
  /* The last definition wins, as a later line overrides an earlier one. */
  for (int i = x->nm - 1; i >= 0; i--)
    if (x->m[i].nparams == nargs && x->m[i].name[0] == name[0] && !strcmp(x->m[i].name, name))
      return &x->m[i];
  return NULL;
}

/* A copy of body with parameters replaced by arguments. */
static CNode *subst(Expander *x, const CNode *n, const Macro *m, CNode **args, SrcPos pos) {
  CParser *p = x->p;
  if (!n) return NULL;
  if (n->kind == CK_NAME)
    for (int i = 0; i < m->nparams; i++)
      if (!strcmp(n->name, m->params[i])) return args[i];
  if (++x->nodes > MAX_EXPANDED_NODES)
    cfail(p, pos, "macro expansion too large");
  CNode *c = ARENA_NEW(p->a, CNode);
  *c = *n;
  c->pos = pos;
  c->a = subst(x, n->a, m, args, pos);
  c->b = subst(x, n->b, m, args, pos);
  c->c = subst(x, n->c, m, args, pos);
  c->d = subst(x, n->d, m, args, pos);
  if (n->nkids) {
    c->kids = ARENA_NEWN(p->a, CNode *, n->nkids);
    for (int i = 0; i < n->nkids; i++) c->kids[i] = subst(x, n->kids[i], m, args, pos);
  }
  return c;
}

static CNode *xexpr(Expander *x, CNode *n);
static CNode *xstmt(Expander *x, CNode *n);

static CR_NORETURN void type_error(Expander *x, const CNode *n, const char *what) {
  cfail(x->p, n->pos, "type error: %s", what);
}

static int mo_of(Expander *x, const CNode *n) {
  static const struct {
    const char *s;
    CMo mo;
  } mos[] = {
      {"memory_order_relaxed", MO_RLX}, {"memory_order_consume", MO_CON},
      {"memory_order_acquire", MO_ACQ}, {"memory_order_release", MO_REL},
      {"memory_order_acq_rel", MO_ACQ_REL}, {"memory_order_seq_cst", MO_SC},
  };
  if (n->kind == CK_NAME)
    for (size_t i = 0; i < ARRAY_LEN(mos); i++)
      if (!strcmp(n->name, mos[i].s)) return mos[i].mo;
  type_error(x, n, "expected a memory order (memory_order_...)");
}

/* The address of a location argument written *e. */
static CNode *loc_arg(Expander *x, CNode *n, const char *form) {
  if (n->kind != CK_DEREF) {
    char msg[128];
    snprintf(msg, sizeof msg, "%s expects a location *p", form);
    type_error(x, n, msg);
  }
  return xexpr(x, n->a);
}

static CNode *op_arg(Expander *x, CNode *n, const char *form) {
  if (n->kind != CK_OPTOK) {
    char msg[128];
    snprintf(msg, sizeof msg, "%s expects an operator (+, -, &, |, ^, &~)", form);
    type_error(x, n, msg);
  }
  return n;
}

static void arity(Expander *x, const CNode *n, int lo, int hi) {
  if (n->nkids < lo || n->nkids > hi)
    cfail(x->p, n->pos, "type error: %s takes %d argument%s, not %d", n->name, lo,
          lo == 1 ? "" : "s", n->nkids);
}

/* The event set of a bell annotation is named with its first letter
 * upper-cased ('rmb -> Rmb, 'ONCE -> ONCE); events carry that name. */
static const char *set_name(Expander *x, const char *ann) {
  if (!ann) return NULL;
  char *s = arena_strdup(x->p->a, ann);
  if (s[0] >= 'a' && s[0] <= 'z') s[0] = (char)(s[0] - 'a' + 'A');
  return s;
}

static CNode *mk_internal(Expander *x, CKind k, const CNode *call) {
  CNode *n = mk(x->p, k, call->pos);
  n->ann = set_name(x, call->ann);
  n->name = call->name;
  return n;
}

/* The builtins that macros expand to, and C11's own functions.  args
 * lays out the call's arguments in order: 'l' a location *e (into a),
 * 'a'/'b'/'c' expressions, 'o' an operator token, 'm' a memory order;
 * arguments after a '?' may be left out.  op is a fixed operator for the
 * C11 fetch family (-1: none). */
typedef struct Builtin {
  const char *name;
  CKind kind;
  bool stmt; /* a statement, not an expression */
  const char *args;
  int op;
} Builtin;

static const Builtin builtins[] = {
    {"__load", CK_LOAD, false, "l", -1},
    {"__xchg", CK_XCHG, false, "ab", -1},
    {"__cmpxchg", CK_CMPXCHG, false, "abc", -1},
    {"__atomic_add_unless", CK_ADDUNLESS, false, "abc", -1},
    {"__atomic_op_return", CK_OPRET, false, "aob", -1},
    {"__atomic_fetch_op", CK_FETCHOP, false, "aob", -1},
    {"__trylock", CK_TRYLOCK, false, "a", -1},
    {"__islocked", CK_ISLOCKED, false, "a", -1},
    {"atomic_load_explicit", CK_LOAD, false, "am", -1},
    {"atomic_exchange_explicit", CK_XCHG, false, "abm", -1},
    {"atomic_fetch_add_explicit", CK_FETCHOP, false, "abm", CB_ADD},
    {"atomic_fetch_sub_explicit", CK_FETCHOP, false, "abm", CB_SUB},
    {"atomic_fetch_or_explicit", CK_FETCHOP, false, "abm", CB_OR},
    {"atomic_fetch_xor_explicit", CK_FETCHOP, false, "abm", CB_XOR},
    {"atomic_fetch_and_explicit", CK_FETCHOP, false, "abm", CB_AND},
    {"__store", CK_STORE, true, "lb", -1},
    {"__fence", CK_FENCE, true, "", -1},
    {"__atomic_op", CK_ATOMICOP, true, "aob", -1},
    {"__lock", CK_LOCK, true, "a", -1},
    {"__unlock", CK_UNLOCK, true, "a", -1},
    {"__srcu", CK_SRCU, true, "a?b", -1},
    {"lock", CK_MTXLOCK, true, "a", -1},
    {"mtx_lock", CK_MTXLOCK, true, "a", -1},
    {"unlock", CK_UNLOCK, true, "a", -1},
    {"mtx_unlock", CK_UNLOCK, true, "a", -1},
    {"atomic_store_explicit", CK_STORE, true, "abm", -1},
    {"atomic_thread_fence", CK_FENCE, true, "m", -1},
};

static CNode *build(Expander *x, CNode *c, const Builtin *b) {
  int lo = 0, hi = 0;
  for (const char *a = b->args; *a; a++) {
    if (*a == '?') lo = hi;
    else hi++;
  }
  if (!strchr(b->args, '?')) lo = hi;
  arity(x, c, lo, hi);
  CNode *n = mk_internal(x, b->kind, c);
  if (b->op >= 0) n->op = (uint8_t)b->op;
  int k = 0;
  for (const char *a = b->args; *a && k < c->nkids; a++) {
    CNode *arg = c->kids[k];
    switch (*a) {
    case '?': continue;
    case 'l': n->a = loc_arg(x, arg, b->name); break;
    case 'a': n->a = xexpr(x, arg); break;
    case 'b': n->b = xexpr(x, arg); break;
    case 'c': n->c = xexpr(x, arg); break;
    case 'o': n->op = op_arg(x, arg, b->name)->op; break;
    case 'm': n->mo = (uint8_t)mo_of(x, arg); break;
    }
    k++;
  }
  return n;
}

/* C11's compare-exchange family: strong or weak, with or without
 * explicit memory orders (SC both ways when left out). */
static CNode *c11_cas(Expander *x, CNode *c) {
  const char *rest = c->name + 24;
  bool weak = !strncmp(rest, "weak", 4);
  if (!weak && strncmp(rest, "strong", 6)) return NULL;
  rest += weak ? 4 : 6;
  bool explicit_mo = !strcmp(rest, "_explicit");
  if (!explicit_mo && *rest) return NULL;
  arity(x, c, explicit_mo ? 5 : 3, explicit_mo ? 5 : 3);
  CNode *n = mk_internal(x, CK_CAS, c);
  n->weak = weak;
  n->a = xexpr(x, c->kids[0]);
  n->b = xexpr(x, c->kids[1]);
  n->c = xexpr(x, c->kids[2]);
  n->mo = explicit_mo ? (uint8_t)mo_of(x, c->kids[3]) : MO_SC;
  n->mo2 = explicit_mo ? (uint8_t)mo_of(x, c->kids[4]) : MO_SC;
  return n;
}

/* A builtin call in expression (stmt false) or statement position, or
 * NULL if the name is none of that kind. */
static CNode *builtin(Expander *x, CNode *c, bool stmt) {
  for (size_t i = 0; i < ARRAY_LEN(builtins); i++)
    if (builtins[i].stmt == stmt && !strcmp(c->name, builtins[i].name))
      return build(x, c, &builtins[i]);
  if (!stmt && !strncmp(c->name, "atomic_compare_exchange_", 24)) return c11_cas(x, c);
  return NULL;
}

enum { MAX_EXPANSION_DEPTH = 64 };

static const Macro *macro_for(Expander *x, CNode *c) {
  const Macro *m = find_macro(x, c->name, c->nkids);
  if (m && ++x->depth > MAX_EXPANSION_DEPTH)
    cfail(x->p, c->pos, "macro %s expands too deeply (recursive definition?)", c->name);
  return m;
}

static CR_NORETURN void unknown_call(Expander *x, const CNode *c) {
  for (int i = 0; i < x->nm; i++)
    if (!strcmp(x->m[i].name, c->name))
      cfail(x->p, c->pos, "type error: macro %s takes %d argument%s, not %d", c->name,
            x->m[i].nparams, x->m[i].nparams == 1 ? "" : "s", c->nkids);
  cfail(x->p, c->pos, "unknown macro or function %s", c->name);
}

static CNode *xexpr(Expander *x, CNode *n) {
  switch (n->kind) {
  case CK_INT:
  case CK_REG:
    return n;
  case CK_NAME:
    if (is_mo_name(n->name))
      type_error(x, n, "a memory order is not a value");
    cfail(x->p, n->pos, "unknown name %s", n->name);
  case CK_OPTOK:
    type_error(x, n, "an operator is not a value");
  case CK_DEREF:
  case CK_ADDROF:
  case CK_NOT:
  case CK_NEG: {
    CNode *c = ARENA_NEW(x->p->a, CNode);
    *c = *n;
    c->a = xexpr(x, n->a);
    return c;
  }
  case CK_BIN: {
    CNode *c = ARENA_NEW(x->p->a, CNode);
    *c = *n;
    c->a = xexpr(x, n->a);
    c->b = xexpr(x, n->b);
    return c;
  }
  case CK_CALL: {
    int depth = x->depth;
    const Macro *m = macro_for(x, n);
    CNode *r;
    if (m) {
      if (m->is_stmt)
        type_error(x, n, "this macro is a statement, not an expression");
      r = xexpr(x, subst(x, m->body, m, n->kids, n->pos));
    } else {
      r = builtin(x, n, false);
      if (!r) {
        if (builtin(x, n, true)) type_error(x, n, "this form is a statement, not an expression");
        unknown_call(x, n);
      }
    }
    x->depth = depth;
    return r;
  }
  default:
    return n; /* already expanded */
  }
}

static CNode *xstmt(Expander *x, CNode *n) {
  CNode *c = ARENA_NEW(x->p->a, CNode);
  *c = *n;
  switch (n->kind) {
  case CK_SKIP:
    return c;
  case CK_BLOCK:
    if (n->nkids) {
      c->kids = ARENA_NEWN(x->p->a, CNode *, n->nkids);
      for (int i = 0; i < n->nkids; i++) c->kids[i] = xstmt(x, n->kids[i]);
    }
    return c;
  case CK_IF:
    c->a = xexpr(x, n->a);
    c->b = xstmt(x, n->b);
    if (n->c) c->c = xstmt(x, n->c);
    return c;
  case CK_WHILE:
    c->a = xexpr(x, n->a);
    c->b = xstmt(x, n->b);
    return c;
  case CK_ASSIGN:
    if (n->a->kind == CK_NAME) cfail(x->p, n->a->pos, "unknown name %s", n->a->name);
    c->a = n->a->kind == CK_DEREF ? xexpr(x, n->a) : n->a;
    c->b = xexpr(x, n->b);
    return c;
  case CK_EXPR:
    if (n->a->kind == CK_CALL) {
      int depth = x->depth;
      const Macro *m = macro_for(x, n->a);
      CNode *r;
      if (m && m->is_stmt) {
        r = xstmt(x, subst(x, m->body, m, n->a->kids, n->a->pos));
      } else if (!m && (r = builtin(x, n->a, true)) != NULL) {
      } else {
        c->a = xexpr(x, n->a);
        r = c;
      }
      x->depth = depth;
      return r;
    }
    c->a = xexpr(x, n->a);
    return c;
  default:
    return c;
  }
}

/* ============================================================ lowering */

typedef struct Lower {
  Test *t;
  Thread *th;
  int cap;
  int nlabels;
  int poi;             /* herd's number of the next statement */
} Lower;

static void emit(Lower *l, COp op, const CNode *node, const char *target, SrcPos pos) {
  CInstr *ci = ARENA_NEW(&l->t->arena, CInstr);
  ci->ins.op = op;
  ci->ins.text = "";
  ci->ins.pos = pos;
  ci->node = node;
  ci->poi = l->poi;
  if (target) {
    ci->ins.nops = 1;
    ci->ins.ops[0].kind = OPK_LABEL;
    ci->ins.ops[0].reg = ci->ins.ops[0].reg2 = -1;
    ci->ins.ops[0].sym = target;
  }
  CodeEntry e = {NULL, &ci->ins, pos};
  APUSH(&l->t->arena, l->th->entries, l->th->nentries, l->cap, e);
}

static void emit_label(Lower *l, const char *name, SrcPos pos) {
  CodeEntry e = {name, NULL, pos};
  APUSH(&l->t->arena, l->th->entries, l->th->nentries, l->cap, e);
}

static const char *new_label(Lower *l) {
  return arena_printf(&l->t->arena, "L%d", l->nlabels++);
}

/* if (e) s1 else s2:   BRANCHZ e, Lelse; s1; POP; JUMP Lend;
 *                      Lelse: s2; POP; Lend:
 * The branch opens a control scope on both paths (ctrl goes from the
 * condition's reads to the events of either branch); each POP closes it. */
static void lower(Lower *l, const CNode *n);

/* A branch of an if or while: numbered from two past the condition;
 * returns where numbering goes on after it. */
static int lower_branch(Lower *l, const CNode *n, int cond_poi) {
  l->poi = cond_poi + 2;
  if (n) lower(l, n);
  return l->poi;
}

static void lower(Lower *l, const CNode *n) {
  switch (n->kind) {
  case CK_SKIP:
    l->poi++;
    return;
  case CK_BLOCK:
    if (!n->text) l->poi++; /* a declaration's block is one statement */
    for (int i = 0; i < n->nkids; i++) {
      if (n->text) n->kids[i]->text = n->text;
      lower(l, n->kids[i]);
      if (n->text) l->poi--;
    }
    if (n->text) l->poi++;
    return;
  case CK_IF: {
    const char *le = new_label(l), *lend = new_label(l);
    int at = l->poi;
    emit(l, COP_BRANCHZ, n->a, le, n->pos);
    int after = lower_branch(l, n->b, at);
    emit(l, COP_CTRL_POP, NULL, NULL, n->pos);
    emit(l, COP_JUMP, NULL, lend, n->pos);
    emit_label(l, le, n->pos);
    int after_else = lower_branch(l, n->c, at);
    emit(l, COP_CTRL_POP, NULL, NULL, n->pos);
    emit_label(l, lend, n->pos);
    l->poi = after > after_else ? after : after_else;
    return;
  }
  case CK_WHILE: {
    const char *ltop = new_label(l), *lexit = new_label(l);
    int at = l->poi;
    emit_label(l, ltop, n->pos);
    emit(l, COP_BRANCHZ, n->a, lexit, n->pos);
    lower_branch(l, n->b, at);
    emit(l, COP_CTRL_POP, NULL, NULL, n->pos);
    emit(l, COP_JUMP, NULL, ltop, n->pos);
    emit_label(l, lexit, n->pos);
    emit(l, COP_CTRL_POP, NULL, NULL, n->pos);
    l->poi = at + 1;
    return;
  }
  default:
    emit(l, COP_STMT, n, NULL, n->pos);
    l->poi++;
    return;
  }
}

const char *c_instr_label(const Instr *ins, int *poi) {
  const CInstr *ci = (const CInstr *)ins;
  *poi = ci->poi;
  return ins->op == COP_STMT && ci->node->text ? ci->node->text : "";
}

void c_expand(Test *t, const char *def_path, const char *def_text, Err *err) {
  CCode *c = t->c;
  CParser dp = {t, &t->arena, err, def_text, NULL, 0, 0, 0, true, 0};
  Expander x = {&dp, NULL, 0, 0, 0, 0};
  if (def_text) {
    SrcPos pos = {arena_strdup(&t->arena, def_path), 1, 1};
    c_lex(&dp, 0, strlen(def_text), pos);
    parse_defs(&x, &dp);
  }
  t->threads = ARENA_NEWN(&t->arena, Thread, c->nthreads);
  t->nthreads = c->nthreads;
  for (int i = 0; i < c->nthreads; i++) {
    x.depth = 0;
    CNode *code = xstmt(&x, c->threads[i].code);
    Lower l = {t, &t->threads[i], 0, 0, 0};
    lower(&l, code);
  }
}

/* ========================================================== arch ops */

static int c_parse_reg(const char *s) {
  (void)s;
  return -1; /* C registers are named per test: see c_reg */
}
static const char *c_reg_name(int r) {
  (void)r;
  return "?";
}

const ArchOps c_arch_ops = {
    .arch = ARCH_C,
    .name = "C",
    .word_bits = 32,
    .nregs = 0,
    .parse_reg = c_parse_reg,
    .reg_name = c_reg_name,
    .begin = c_begin,
};
