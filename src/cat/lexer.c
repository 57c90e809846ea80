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

/* Advance one character, keeping line and column right. */
static void step(Lexer *lx) {
  if (*lx->p == '\n') {
    lx->line++;
    lx->line_start = lx->p + 1;
  }
  lx->p++;
}

static bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_idchar(char c) {
  return is_letter(c) || is_digit(c) || c == '_' || c == '.' || c == '-';
}
/* Does an identifier start at s ('_'? letter)? */
static bool id_starts(const char *s) {
  return is_letter(s[0]) || (s[0] == '_' && is_letter(s[1]));
}

static CR_NORETURN void bad_char(Lexer *lx) {
  unsigned char c = (unsigned char)*lx->p;
  if (c > 32 && c < 127)
    err_raise(lx->err, ERRK_SYNTAX, here(lx),
              "syntax error: unexpected character '%c'", c);
  err_raise(lx->err, ERRK_SYNTAX, here(lx),
            "syntax error: unexpected character '\\x%02x'", c);
}

/* Skips "(* ... *)" (nested).  lx->p is at the opening "(*". */
static void skip_comment(Lexer *lx) {
  SrcPos start = here(lx);
  int depth = 0;
  for (;;) {
    char c = *lx->p;
    if (c == '\0')
      err_raise(lx->err, ERRK_SYNTAX, start,
                "syntax error: unexpected end of file inside comment");
    if (c == '(' && lx->p[1] == '*') {
      depth++;
      lx->p += 2;
    } else if (c == '*' && lx->p[1] == ')') {
      lx->p += 2;
      if (--depth == 0) return;
    } else {
      step(lx);
    }
  }
}

/* Skips blanks and comments; stops at the first character of a token. */
static void skip_blanks(Lexer *lx) {
  for (;;) {
    char c = *lx->p;
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      step(lx);
    } else if (c == '(' && lx->p[1] == '*') {
      skip_comment(lx);
    } else if (c == '#' || (c == '/' && lx->p[1] == '/')) {
      while (*lx->p && *lx->p != '\n') lx->p++;
    } else {
      return;
    }
  }
}

/* Identifier text at lx->p (id_starts holds); returns its length. */
static size_t scan_ident(const Lexer *lx) {
  const char *s = lx->p;
  size_t n = (s[0] == '_') ? 1 : 0;
  while (is_idchar(s[n])) n++;
  if (s[n] == '\'') n++;
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
    /* the second letter first: it tells most words from the row's keywords */
    if (kw[1] == s[1] && strncmp(kw, s, n) == 0 && kw[n] == 0) return (TokKind)*k;
  }
  return T_ID;
}

static Token lex_word(Lexer *lx, Token t) {
  size_t n = scan_ident(lx);
  t.kind = keyword(lx->p, n);
  if (t.kind == T_ID) t.name = intern_n(&lx->names->in, lx->p, n);
  lx->p += n;
  return t;
}

static Token lex_tag(Lexer *lx, Token t) {
  lx->p++; /* the quote */
  size_t n = scan_ident(lx);
  t.kind = T_TAG;
  t.name = intern_n(&lx->names->in, lx->p, n);
  lx->p += n;
  return t;
}

static Token lex_string(Lexer *lx, Token t) {
  step(lx); /* the opening quote */
  const char *s = lx->p;
  while (*lx->p != '"') {
    if (*lx->p == '\0')
      err_raise(lx->err, ERRK_SYNTAX, t.pos,
                "syntax error: unexpected end of file inside string");
    step(lx);
  }
  t.kind = T_STRING;
  t.str = arena_strndup(lx->arena, s, (size_t)(lx->p - s));
  lx->p++;
  return t;
}

/* One- and two-character symbols; T_EOF here means "not a symbol". */
static TokKind symbol(const char *s, int *len) {
  *len = 2;
  switch (s[0]) {
  case '|': if (s[1] == '|') return T_BARBAR; *len = 1; return T_BAR;
  case '&': if (s[1] == '&') return T_AMPAMP; *len = 1; return T_AMP;
  case '+': if (s[1] == '+') return T_PLUSPLUS; *len = 1; return T_PLUS;
  case '-':
    if (s[1] == '1') return T_INV;
    if (s[1] == '>') return T_ARROW;
    return T_EOF;
  default: break;
  }
  *len = 1;
  switch (s[0]) {
  case '(': return T_LPAR;
  case ')': return T_RPAR;
  case '{': return T_LBRACE;
  case '}': return T_RBRACE;
  case '[': return T_LBRACK;
  case ']': return T_RBRACK;
  case '_': return T_UNDERSCORE;
  case '0': return T_ZERO;
  case '*': return T_STAR;
  case '~': return T_TILDE;
  case '^': return T_HAT;
  case '\\': return T_BACKSLASH;
  case '?': return T_QUESTION;
  case '=': return T_EQUAL;
  case ';': return T_SEMI;
  case ',': return T_COMMA;
  default: return T_EOF;
  }
}

Token catlex_next(Lexer *lx) {
  skip_blanks(lx);
  Token t = {T_EOF, here(lx), -1, NULL};
  const char *s = lx->p;
  if (*s == '\0') return t;
  if (id_starts(s)) return lex_word(lx, t);
  if (*s == '\'') {
    if (id_starts(s + 1)) return lex_tag(lx, t);
    bad_char(lx);
  }
  if (*s == '"') return lex_string(lx, t);
  int len;
  t.kind = symbol(s, &len);
  if (t.kind == T_EOF) bad_char(lx);
  lx->p += len;
  return t;
}
