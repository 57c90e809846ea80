/*
 * lexer.c — the cat lexer (spec cat.md §1).
 *
 * Longest match, as herd's ocamllex lexer does: an identifier swallows
 * every letter, digit, '_', '.' and '-' that follows it, so "po-loc" is one
 * token and "x->e" lexes as "x-" then a stray '>'.  Invariant: every path
 * through catlex_next either consumes at least one character or returns
 * T_EOF, and never looks beyond the terminating NUL (each look-ahead tests
 * the current character first).
 */
#include "lexer.h"

#include <string.h>

/* ------------------------------------------------------------ spellings */

/* Indexed by TokKind; the keyword entries double as the keyword table. */
static const char *const spellings[T_NKINDS] = {
  [T_EOF] = "end of file", [T_ID] = "identifier", [T_TAG] = "tag",
  [T_STRING] = "string",
  [T_LPAR] = "(", [T_RPAR] = ")", [T_LBRACE] = "{", [T_RBRACE] = "}",
  [T_LBRACK] = "[", [T_RBRACK] = "]", [T_UNDERSCORE] = "_", [T_ZERO] = "0",
  [T_BAR] = "|", [T_BARBAR] = "||", [T_AMP] = "&", [T_AMPAMP] = "&&",
  [T_STAR] = "*", [T_TILDE] = "~", [T_PLUS] = "+", [T_PLUSPLUS] = "++",
  [T_HAT] = "^", [T_INV] = "-1", [T_BACKSLASH] = "\\", [T_QUESTION] = "?",
  [T_EQUAL] = "=", [T_SEMI] = ";", [T_COMMA] = ",", [T_ARROW] = "->",
  [K_LET] = "let", [K_REC] = "rec", [K_AND] = "and", [K_WHEN] = "when",
  [K_ACYCLIC] = "acyclic", [K_IRREFLEXIVE] = "irreflexive",
  [K_SHOW] = "show", [K_UNSHOW] = "unshow", [K_EMPTY] = "empty",
  [K_SUBSET] = "subset", [K_AS] = "as", [K_FUN] = "fun", [K_IN] = "in",
  [K_UNDEFINED_UNLESS] = "undefined_unless", [K_FLAG] = "flag",
  [K_ASSERT] = "assert", [K_INCLUDE] = "include", [K_VARIANT] = "variant",
  [K_BEGIN] = "begin", [K_END] = "end", [K_PROCEDURE] = "procedure",
  [K_CALL] = "call", [K_ENUM] = "enum", [K_DEBUG] = "debug",
  [K_MATCH] = "match", [K_WITH] = "with", [K_FORALL] = "forall",
  [K_FROM] = "from", [K_DO] = "do", [K_TRY] = "try", [K_IF] = "if",
  [K_THEN] = "then", [K_ELSE] = "else", [K_CATDEP] = "catdep",
  [K_INSTRUCTIONS] = "instructions", [K_DEFAULT] = "default",
  [K_NOT] = "not",
};

const char *catlex_spelling(TokKind k) {
  return (k >= 0 && k < T_NKINDS && spellings[k]) ? spellings[k] : "?";
}

/* A message is one line: strings are cut at a newline or after 40 bytes. */
const char *catlex_describe(Arena *arena, const CatNames *names,
                            const Token *t) {
  switch (t->kind) {
  case T_EOF: return "end of file";
  case T_ID:
    return arena_printf(arena, "identifier '%s'",
                        intern_name(&names->in, t->name));
  case T_TAG:
    return arena_printf(arena, "tag '%s", intern_name(&names->in, t->name));
  case T_STRING: {
    size_t n = strcspn(t->str, "\r\n");
    bool cut = n > 40 || t->str[n] != '\0';
    return arena_printf(arena, "string \"%.*s%s\"", n > 40 ? 40 : (int)n,
                        t->str, cut ? "..." : "");
  }
  default: return arena_printf(arena, "'%s'", catlex_spelling(t->kind));
  }
}

/* ------------------------------------------------------------- scanning */

void catlex_init(Lexer *lx, const char *file, const char *text, Arena *arena,
                 CatNames *names, Err *err) {
  lx->p = text;
  lx->line_start = text;
  lx->line = 1;
  lx->file = file;
  lx->arena = arena;
  lx->names = names;
  lx->err = err;
}

static SrcPos here(const Lexer *lx) {
  SrcPos pos = {lx->file, lx->line, (int)(lx->p - lx->line_start) + 1};
  return pos;
}

/* Character classes: one table look-up instead of chains of comparisons. */
enum {
  CL_BLANK = 1,   /* ' ' '\t' '\r' '\n' */
  CL_LETTER = 2,  /* a-z A-Z */
  CL_ID = 4,      /* continues an identifier: letter, digit, '_' '.' '-' */
  CL_SKIP = 8,    /* may begin what skip_blanks skips: blank '(' '#' '/' */
  CL_DOUBLE = 16, /* '|' '&' '+', whose doubles are tokens too */
};

/* Rows of 16 characters from NUL to DEL; bytes from 128 on are 0. */
#define B_ (CL_BLANK | CL_SKIP)
#define S_ CL_SKIP
#define D_ CL_DOUBLE
#define I_ CL_ID
#define L_ (CL_LETTER | CL_ID)
static const unsigned char char_class[256] = {
  0, 0, 0, 0, 0, 0, 0, 0, 0, B_, B_, 0, 0, B_, 0, 0,         /* \t \n \r */
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  B_, 0, 0, S_, 0, 0, D_, 0, S_, 0, 0, D_, 0, I_, I_, S_,    /* ' ' # & ( + - . / */
  I_, I_, I_, I_, I_, I_, I_, I_, I_, I_, 0, 0, 0, 0, 0, 0,  /* 0-9 */
  0, L_, L_, L_, L_, L_, L_, L_, L_, L_, L_, L_, L_, L_, L_, L_,
  L_, L_, L_, L_, L_, L_, L_, L_, L_, L_, L_, 0, 0, 0, 0, I_, /* _ */
  0, L_, L_, L_, L_, L_, L_, L_, L_, L_, L_, L_, L_, L_, L_, L_,
  L_, L_, L_, L_, L_, L_, L_, L_, L_, L_, L_, 0, D_, 0, 0, 0,  /* | */
};
#undef B_
#undef S_
#undef D_
#undef I_
#undef L_

static inline bool has_class(char c, unsigned cl) {
  return char_class[(unsigned char)c] & cl;
}

/* Does an identifier start at s ('_'? letter)? */
static bool id_starts(const char *s) {
  return has_class(s[0], CL_LETTER) || (s[0] == '_' && has_class(s[1], CL_LETTER));
}

static CR_NORETURN void bad_char(Lexer *lx) {
  unsigned char c = (unsigned char)*lx->p;
  if (!strncmp(lx->p, "\xef\xbb\xbf", 3) && here(lx).line == 1 && here(lx).col == 1)
    err_raise(lx->err, ERRK_SYNTAX, here(lx),
              "the file starts with a UTF-8 byte order mark (BOM): remove it");
  if (c > 32 && c < 127)
    err_raise(lx->err, ERRK_SYNTAX, here(lx),
              "syntax error: unexpected character '%c'", c);
  err_raise(lx->err, ERRK_SYNTAX, here(lx),
            "syntax error: unexpected character '\\x%02x'", c);
}

/* Skips "(* ... *)" (nested).  lx->p is at the opening "(*".  The text
 * between the characters that matter ('(' '*' newline NUL) is passed over
 * by strcspn, which the C library does many bytes at a time; only
 * newlines update the line. */
static void skip_comment(Lexer *lx) {
  SrcPos start = here(lx);
  const char *p = lx->p + 2;
  int depth = 1;
  for (;;) {
    p += strcspn(p, "(*\n");
    char c = *p;
    if (c == '\n') {
      lx->line++;
      lx->line_start = ++p;
    } else if (c == '(') {
      p++;
      if (*p == '*') depth++, p++;
    } else if (c == '*') {
      p++;
      if (*p == ')') {
        p++;
        if (--depth == 0) break;
      }
    } else {
      lx->p = p;
      err_raise(lx->err, ERRK_SYNTAX, start,
                "syntax error: unexpected end of file inside comment");
    }
  }
  lx->p = p;
}

/* Skips blanks and comments; stops at the first character of a token
 * (at once when it is none of the characters of CL_SKIP). */
static void skip_blanks(Lexer *lx) {
  const char *p = lx->p;
  for (;;) {
    char c = *p;
    if (!has_class(c, CL_SKIP)) break;
    if (has_class(c, CL_BLANK)) {
      p++;
      if (c == '\n') {
        lx->line++;
        lx->line_start = p;
      }
    } else if (c == '(') {
      if (p[1] != '*') break;
      lx->p = p;
      skip_comment(lx);
      p = lx->p;
    } else if (c == '#' || p[1] == '/') { /* c is '#' or '/' */
      while (*p && *p != '\n') p++;
    } else {
      break;
    }
  }
  lx->p = p;
}

/* Identifier text at lx->p (id_starts holds); returns its length and
 * sets *h to its hash_bytes. */
static inline size_t scan_ident(const Lexer *lx, uint64_t *h) {
  const char *s = lx->p;
  uint64_t x = HASH_SEED;
  size_t n = 0;
  if (s[0] == '_') x = hash_step(x, '_'), n = 1;
  while (has_class(s[n], CL_ID)) x = hash_step(x, (unsigned char)s[n++]);
  if (s[n] == '\'') x = hash_step(x, '\''), n++;
  *h = x;
  return n;
}

/* The keywords by initial (spellings[] has their text): a word is compared
 * with at most five of them.  Zero ends a row (T_EOF is no keyword). */
static const unsigned char kw_by_initial[26][6] = {
  ['a' - 'a'] = {K_ACYCLIC, K_AND, K_AS, K_ASSERT},
  ['b' - 'a'] = {K_BEGIN},
  ['c' - 'a'] = {K_CALL, K_CATDEP},
  ['d' - 'a'] = {K_DEBUG, K_DEFAULT, K_DO},
  ['e' - 'a'] = {K_ELSE, K_EMPTY, K_END, K_ENUM},
  ['f' - 'a'] = {K_FLAG, K_FORALL, K_FROM, K_FUN},
  ['i' - 'a'] = {K_IF, K_IN, K_INCLUDE, K_INSTRUCTIONS, K_IRREFLEXIVE},
  ['l' - 'a'] = {K_LET},
  ['m' - 'a'] = {K_MATCH},
  ['n' - 'a'] = {K_NOT},
  ['p' - 'a'] = {K_PROCEDURE},
  ['r' - 'a'] = {K_REC},
  ['s' - 'a'] = {K_SHOW, K_SUBSET},
  ['t' - 'a'] = {K_THEN, K_TRY},
  ['u' - 'a'] = {K_UNDEFINED_UNLESS, K_UNSHOW},
  ['v' - 'a'] = {K_VARIANT},
  ['w' - 'a'] = {K_WHEN, K_WITH},
};

static TokKind keyword(const char *s, size_t n) {
  if (n < 2 || s[0] < 'a' || s[0] > 'z') return T_ID; /* every keyword has two letters or more */
  for (const unsigned char *k = kw_by_initial[s[0] - 'a']; *k; k++) {
    const char *kw = spellings[*k];
    /* the second letter first: it tells most words from the row's
     * keywords.  The comparison stops at kw's NUL at the latest, since no
     * byte of a word is a NUL. */
    if (kw[1] != s[1]) continue;
    size_t i = 2;
    while (i < n && kw[i] == s[i]) i++;
    if (i == n && kw[n] == 0) return (TokKind)*k;
  }
  return T_ID;
}

static void lex_word(Lexer *lx, Token *t) {
  uint64_t h;
  size_t n = scan_ident(lx, &h);
  t->kind = keyword(lx->p, n);
  if (t->kind == T_ID) t->name = intern_nh(&lx->names->in, lx->p, n, h);
  lx->p += n;
}

static void lex_tag(Lexer *lx, Token *t) {
  lx->p++; /* the quote */
  uint64_t h;
  size_t n = scan_ident(lx, &h);
  t->kind = T_TAG;
  t->name = intern_nh(&lx->names->in, lx->p, n, h);
  lx->p += n;
}

static void lex_string(Lexer *lx, Token *t) {
  lx->p++; /* the opening quote */
  const char *s = lx->p;
  while (*lx->p != '"') {
    if (*lx->p == '\0')
      err_raise(lx->err, ERRK_SYNTAX, t->pos,
                "syntax error: unexpected end of file inside string");
    if (*lx->p++ == '\n') {
      lx->line++;
      lx->line_start = lx->p;
    }
  }
  t->kind = T_STRING;
  t->str = arena_strndup(lx->arena, s, (size_t)(lx->p - s));
  lx->p++;
}

/* The tokens of one character ('|' '&' '+' double with CL_DOUBLE); 0
 * (T_EOF) for the others. */
static const unsigned char single_token[256] = {
  ['('] = T_LPAR, [')'] = T_RPAR, ['{'] = T_LBRACE, ['}'] = T_RBRACE,
  ['['] = T_LBRACK, [']'] = T_RBRACK, ['_'] = T_UNDERSCORE, ['0'] = T_ZERO,
  ['|'] = T_BAR, ['&'] = T_AMP, ['*'] = T_STAR, ['~'] = T_TILDE,
  ['+'] = T_PLUS, ['^'] = T_HAT, ['\\'] = T_BACKSLASH, ['?'] = T_QUESTION,
  ['='] = T_EQUAL, [';'] = T_SEMI, [','] = T_COMMA,
};
_Static_assert(T_BARBAR == T_BAR + 1 && T_AMPAMP == T_AMP + 1 &&
               T_PLUSPLUS == T_PLUS + 1, "a doubled token follows its single");

/* One- and two-character symbols; T_EOF here means "not a symbol". */
static TokKind symbol(const char *s, int *len) {
  unsigned char c = (unsigned char)s[0];
  if (c == '-') {
    *len = 2;
    return s[1] == '1' ? T_INV : s[1] == '>' ? T_ARROW : T_EOF;
  }
  TokKind k = (TokKind)single_token[c];
  *len = 1;
  if (has_class(s[0], CL_DOUBLE) && s[1] == s[0]) {
    *len = 2;
    k = (TokKind)(k + 1);
  }
  return k;
}

void catlex_scan(Lexer *lx, Token *t) {
  skip_blanks(lx);
  t->pos = here(lx);
  t->name = -1;
  t->str = NULL;
  const char *s = lx->p;
  if (id_starts(s)) {
    lex_word(lx, t);
    return;
  }
  if (*s == '\0') {
    t->kind = T_EOF;
    return;
  }
  if (*s == '\'') {
    if (id_starts(s + 1)) {
      lex_tag(lx, t);
      return;
    }
    bad_char(lx);
  }
  if (*s == '"') {
    lex_string(lx, t);
    return;
  }
  int len;
  t->kind = symbol(s, &len);
  if (t->kind == T_EOF) bad_char(lx);
  lx->p += len;
}
