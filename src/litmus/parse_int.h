/*
 * parse_int.h — what the files of the litmus reader share (private to
 * src/litmus): the Parser (the text and its line index), positions and
 * located errors, the tokens of the init and final sections, and each
 * stage's entry point.  The stages, in the order parse.c runs them:
 *   split.c      the test's header, metadata and three sections
 *                (herd's lib/splitter.mll)
 *   state_lex.c  the lexer of the init and final sections
 *                (lib/stateLexer.mll)
 *   init.c       the initial state, and the locations and values the
 *                final section shares with it (lib/stateParser.mly)
 *   code.c       the code table of assembly tests, each cell handed to
 *                the architecture's instruction parser
 *   final.c      locations, filter and final condition
 *   symregs.c    the allocation of symbolic registers (lib/symbReg.ml)
 */
#ifndef CORRAL_PARSE_INT_H
#define CORRAL_PARSE_INT_H

#include <ctype.h>
#include <stdarg.h>
#include <string.h>

#include "litmus.h"

/* ----------------------------------------------------- the text, errors */

typedef struct Parser {
  Test *t;
  Err *err;
  Arena *a;
  const char *text;
  size_t len;
  size_t *lines;  /* offset of the start of each line */
  int nlines;
} Parser;

static inline SrcPos pos_at(const Parser *p, size_t off) {
  int lo = 0, hi = p->nlines - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (p->lines[mid] <= off) lo = mid;
    else hi = mid - 1;
  }
  SrcPos pos = {p->t->file, lo + 1, (int)(off - p->lines[lo]) + 1};
  return pos;
}

static inline CR_NORETURN CR_PRINTF(3, 4) void fail(Parser *p, size_t off,
                                             const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  err_vraise(p->err, ERRK_SYNTAX, pos_at(p, off), fmt, ap);
}

static inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
static inline bool is_alpha(char c) { return isalpha((unsigned char)c); }
static inline bool is_digit(char c) { return isdigit((unsigned char)c); }
static inline bool is_alnum(char c) { return isalnum((unsigned char)c); }

/* The text at off (before end) starts with w; the first byte is compared
 * first, as most calls fail on it. */
static inline bool starts(const Parser *p, size_t off, size_t end, const char *w) {
  if (off >= end || p->text[off] != w[0]) return false;
  size_t n = strlen(w);
  return off + n <= end && memcmp(p->text + off, w, n) == 0;
}

/* herd's `name`: alpha (alpha | digit | _ / . -)*; its length or 0. */
size_t name_len(const char *s);
/* Skip a nested (* *) comment starting at off (on "(*"); returns the
 * offset after it. */
size_t skip_comment(Parser *p, size_t off, size_t end);

/* ------------------------------------------------ tokens (state_lex.c) */

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

/* Tokens of [i, end) into ts (the last one T_EOF). */
void lex_section(Parser *p, size_t i, size_t end, TokStream *ts);

static inline const Tok *peek(const TokStream *ts, int k) {
  int i = ts->i + k;
  return &ts->toks[i < ts->n ? i : ts->n - 1];
}
static inline TokKind peekk(const TokStream *ts, int k) { return peek(ts, k)->kind; }
static inline const Tok *next(TokStream *ts) {
  const Tok *t = peek(ts, 0);
  if (t->kind != T_EOF) ts->i++;
  return t;
}
static inline bool accept(TokStream *ts, TokKind k) {
  if (peekk(ts, 0) != k) return false;
  next(ts);
  return true;
}
static inline SrcPos tok_pos(const TokStream *ts, const Tok *t) {
  return pos_at(ts->p, t->off);
}

static inline CR_NORETURN void unexpected(TokStream *ts, const char *what) {
  const Tok *t = peek(ts, 0);
  if (t->kind == T_EOF) fail(ts->p, t->off, "expected %s, found the end", what);
  fail(ts->p, t->off, "expected %s, found '%.*s'", what, (int)t->len,
       ts->p->text + t->off);
}

static inline const Tok *expect(TokStream *ts, TokKind k, const char *what) {
  if (peekk(ts, 0) != k) unexpected(ts, what);
  return next(ts);
}

/* ------------------------------------------------------------- stages */

/* split.c: the offsets of the three sections (the header and metadata
 * are stored in the Test on the way). */
typedef struct Split {
  size_t init_start, init_end;   /* inside the braces */
  size_t code_start, code_end;
  size_t final_start, final_end;
} Split;
Split split_test(Parser *p);
/* Skip a string literal starting at off (on '"'). */
size_t skip_string(Parser *p, size_t off, size_t end);

/* init.c */
void parse_init(Parser *p, size_t start, size_t end);
bool is_thread_tok(const TokStream *ts, int k);
bool starts_loc(const TokStream *ts, int k);
LitLoc parse_loc(TokStream *ts, bool brackets);
LitVal int_val(const TokStream *ts, const Tok *t);
LitVal parse_value(TokStream *ts, bool labels);
LitVal parse_array_val(TokStream *ts);
/* pte.c: PTE(x), TTD(x), PA(x) (consumed, their symbol) or NULL; pte_x,
 * phy_x as "PTE(x)", "PA(x)"; a PTE value (...); the default oa of an
 * entry stored at PTE(x). */
const char *pte_parse_special(TokStream *ts);
const char *pte_canonical_name(Parser *p, const char *name);
LitVal parse_pte_value(TokStream *ts);
void pte_default_oa(Parser *p, LitVal *v, const LitLoc *loc);

/* final.c */
void parse_final(Parser *p, size_t start, size_t end);

/* code.c */
void parse_code(Parser *p, size_t start, size_t end);

/* symregs.c */
void alloc_symregs(Parser *p);

#endif
