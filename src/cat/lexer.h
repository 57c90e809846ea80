/*
 * lexer.h — tokens of the cat language (private to the cat front end).
 *
 * The lexer turns the text of one .cat/.bell file into tokens on demand.
 * Invariant: it never reads past the terminating NUL and always makes
 * progress, so every input yields either a token stream ending in T_EOF or
 * a syntax error raised through the Err context at the offending position.
 */
#ifndef CORRAL_CAT_LEXER_H
#define CORRAL_CAT_LEXER_H

#include "ast.h"

typedef enum TokKind {
  T_EOF,
  T_ID,         /* identifier: name */
  T_TAG,        /* 'identifier: name (without the quote) */
  T_STRING,     /* "text": str (without the quotes) */
  T_LPAR, T_RPAR, T_LBRACE, T_RBRACE, T_LBRACK, T_RBRACK,
  T_UNDERSCORE, T_ZERO,
  T_BAR, T_BARBAR, T_AMP, T_AMPAMP, T_STAR, T_TILDE, T_PLUS, T_PLUSPLUS,
  T_HAT, T_INV, T_BACKSLASH, T_QUESTION, T_EQUAL, T_SEMI, T_COMMA, T_ARROW,
  /* keywords, in the order of the table in lexer.c */
  K_LET, K_REC, K_AND, K_WHEN, K_ACYCLIC, K_IRREFLEXIVE, K_SHOW, K_UNSHOW,
  K_EMPTY, K_SUBSET, K_AS, K_FUN, K_IN, K_UNDEFINED_UNLESS, K_FLAG, K_ASSERT,
  K_INCLUDE, K_VARIANT, K_BEGIN, K_END, K_PROCEDURE, K_CALL, K_ENUM, K_DEBUG,
  K_MATCH, K_WITH, K_FORALL, K_FROM, K_DO, K_TRY, K_IF, K_THEN, K_ELSE,
  K_CATDEP, K_INSTRUCTIONS, K_DEFAULT, K_NOT,
  T_NKINDS
} TokKind;

typedef struct Token {
  TokKind kind;
  SrcPos pos;         /* first character of the token */
  int name;           /* T_ID, T_TAG: interned name */
  const char *str;    /* T_STRING: contents, in the arena */
} Token;

typedef struct Lexer {
  const char *p;          /* next unread character */
  const char *line_start; /* first character of the current line */
  int line;
  const char *file;
  Arena *arena;
  CatNames *names;
  Err *err;
} Lexer;

void catlex_init(Lexer *lx, const char *file, const char *text, Arena *arena,
                 CatNames *names, Err *err);
/* The next token, into *t; raises ERRK_SYNTAX on a lexical error. */
void catlex_scan(Lexer *lx, Token *t);
static inline Token catlex_next(Lexer *lx) {
  Token t;
  catlex_scan(lx, &t);
  return t;
}
/* How a token kind is written, e.g. "')'" or "'let'" (for messages). */
const char *catlex_spelling(TokKind k);
/* A description of a token for "unexpected ..." messages, e.g. "')'",
 * "identifier 'po'", "end of file"; allocated in arena. */
const char *catlex_describe(Arena *arena, const CatNames *names,
                            const Token *t);

#endif
