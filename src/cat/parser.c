/*
 * parser.c — recursive-descent parser of cat models and bell files (spec
 * cat.md §2), and the AST printer.
 *
 * herd's parser is an LR grammar whose operator conflicts are settled by a
 * precedence table (§2.5).  parse_binary reproduces that table decision for
 * decision: an operator met after a complete operand is compared with the
 * innermost pending operator only, and equal levels follow the level's
 * associativity — reduce (left), shift (right) or syntax error
 * (non-associative, which is why "R * W * M", "~R * W" and "a * b+" are
 * rejected).  Invariant: every recursion goes through enter(), which bounds
 * the nesting depth, and every loop consumes a token per iteration, so any
 * input ends in a tree or in one ERRK_SYNTAX error at the first bad token.
 *
 * All nodes and lists live in the caller's arena; nothing is allocated on
 * the heap, so an error (a longjmp) leaks nothing.
 */
#include "lexer.h"

#include <string.h>

/* Deep enough for any hand-written model; shallow enough for the C stack
 * (a level costs a handful of small frames). */
enum { MAX_DEPTH = 256 };

typedef struct Parser {
  Lexer lx;
  Token tok;        /* current token */
  Token nxt;        /* the one after, when have_nxt */
  bool have_nxt;
  Arena *arena;
  CatNames *names;
  Err *err;
  int depth;
} Parser;

/* ------------------------------------------------------------- tokens */

static void advance(Parser *P) {
  if (P->have_nxt) {
    P->tok = P->nxt;
    P->have_nxt = false;
  } else {
    catlex_scan(&P->lx, &P->tok);
  }
}

static const Token *peek2(Parser *P) {
  if (!P->have_nxt) {
    catlex_scan(&P->lx, &P->nxt);
    P->have_nxt = true;
  }
  return &P->nxt;
}

static CR_NORETURN void unexpected(Parser *P) {
  err_raise(P->err, ERRK_SYNTAX, P->tok.pos, "syntax error: unexpected %s",
            catlex_describe(P->arena, P->names, &P->tok));
}

static bool at(const Parser *P, TokKind k) { return P->tok.kind == k; }

static bool accept(Parser *P, TokKind k) {
  if (!at(P, k)) return false;
  advance(P);
  return true;
}

static Token expect(Parser *P, TokKind k) {
  if (!at(P, k)) unexpected(P);
  Token t = P->tok;
  advance(P);
  return t;
}

static int expect_id(Parser *P) { return expect(P, T_ID).name; }

static void enter(Parser *P) {
  if (++P->depth > MAX_DEPTH)
    err_raise(P->err, ERRK_SYNTAX, P->tok.pos,
              "syntax error: nesting too deep (more than %d levels)",
              MAX_DEPTH);
}

static void leave(Parser *P) { P->depth--; }

/* ------------------------------------------------------ arena vectors */

static void *agrow(Arena *a, void *old, size_t elsize, int n, int *cap) {
  int nc = *cap ? *cap * 2 : 4;
  void *p = arena_alloc(a, elsize * (size_t)nc);
  if (n) memcpy(p, old, elsize * (size_t)n);
  *cap = nc;
  return p;
}

/* Append x to the arena array arr of n elements and capacity cap.  x may
 * be a parsing call: it never touches arr or n, whose own lists are fresh. */
#define APUSH(P, arr, n, cap, x)                                             \
  do {                                                                       \
    if ((n) == (cap))                                                        \
      (arr) = agrow((P)->arena, (arr), sizeof *(arr), (n), &(cap));          \
    (arr)[n] = (x);                                                          \
    (n)++;                                                                   \
  } while (0)

/* ------------------------------------------------------------ nodes */

static Expr *mk(Parser *P, ExprKind k, SrcPos pos) {
  Expr *e = ARENA_NEW(P->arena, Expr);
  e->kind = k;
  e->pos = pos;
  e->name = -1;
  e->param.name = -1;
  e->elt = e->rest = e->before = -1;
  return e;
}

static Expr *mk1(Parser *P, ExprKind k, SrcPos pos, Expr *a) {
  Expr *e = mk(P, k, pos);
  e->a = a;
  return e;
}

static Expr *mk2(Parser *P, ExprKind k, SrcPos pos, Expr *a, Expr *b) {
  Expr *e = mk1(P, k, pos, a);
  e->b = b;
  return e;
}

static Ins *mk_ins(Parser *P, InsKind k, SrcPos pos) {
  Ins *i = ARENA_NEW(P->arena, Ins);
  i->kind = k;
  i->pos = pos;
  i->name = -1;
  i->call_as = -1;
  i->check.name = -1;
  i->param.name = -1;
  return i;
}

/* As herd: one formal is a plain name, not a 1-tuple ("(e)" is e). */
static Pat tuple_pat(int *names, int n) {
  Pat p = {n != 1, -1, NULL, 0};
  if (n == 1) {
    p.name = names[0];
  } else {
    p.names = names;
    p.nnames = n;
  }
  return p;
}

static Pat single_pat(int name) {
  Pat p = {false, name, NULL, 0};
  return p;
}

/* ------------------------------------------------------------ patterns */

/* pat0 ::= ID | "_" */
static int parse_pat0(Parser *P) {
  if (accept(P, T_UNDERSCORE)) return -1;
  return expect_id(P);
}

/* formals ::= [ pat0 { "," pat0 } ], the closing ")" is left unread. */
static Pat parse_formals(Parser *P) {
  int *v = NULL, n = 0, cap = 0;
  if (!at(P, T_RPAR)) {
    do APUSH(P, v, n, cap, parse_pat0(P));
    while (accept(P, T_COMMA));
  }
  return tuple_pat(v, n);
}

/* "(" formals ")" */
static Pat parse_paren_formals(Parser *P) {
  expect(P, T_LPAR);
  Pat p = parse_formals(P);
  expect(P, T_RPAR);
  return p;
}

/* ------------------------------------------------------ expressions */

static Expr *parse_expr_gen(Parser *P, bool tuples);
static Expr *parse_binary(Parser *P, int ctx);

static Expr *parse_expr(Parser *P) { return parse_expr_gen(P, true); }
/* An expression with no bare tuple "a, b" at its top, for places where a
 * comma separates list elements. */
static Expr *parse_expr_nt(Parser *P) { return parse_expr_gen(P, false); }
static Expr *parse_base(Parser *P) { return parse_binary(P, 0); }

static bool starts_simple(TokKind k) {
  return k == T_ZERO || k == T_TAG || k == T_UNDERSCORE || k == T_LBRACE ||
         k == T_LPAR || k == K_BEGIN || k == T_LBRACK;
}

/* Tokens that begin an argument of an application, hence also those after
 * which a "*" is the infix product rather than the postfix closure. */
static bool starts_arg(TokKind k) { return k == T_ID || starts_simple(k); }

/* "{" [ base { "," base } ] "}" */
static Expr *parse_set(Parser *P, SrcPos pos) {
  if (accept(P, T_RBRACE)) return mk(P, E_EMPTY, pos);
  Expr *e = mk(P, E_SET, pos);
  int cap = 0;
  do APUSH(P, e->args, e->nargs, cap, parse_base(P));
  while (accept(P, T_COMMA));
  expect(P, T_RBRACE);
  return e;
}

static Expr *parse_simple(Parser *P) {
  Token t = P->tok;
  Expr *e;
  if (!starts_simple(t.kind)) unexpected(P);
  advance(P);
  switch (t.kind) {
  case T_ZERO: return mk(P, E_ZERO, t.pos);
  case T_UNDERSCORE: return mk(P, E_UNIV, t.pos);
  case T_TAG:
    e = mk(P, E_TAG, t.pos);
    e->name = t.name;
    return e;
  case T_LBRACE: return parse_set(P, t.pos);
  case T_LPAR:
    if (accept(P, T_RPAR)) return mk(P, E_TUPLE, t.pos);
    e = parse_expr(P);
    expect(P, T_RPAR);
    return e;
  case K_BEGIN:
    e = parse_expr(P);
    expect(P, K_END);
    return e;
  default: /* T_LBRACK */
    e = mk1(P, E_BRACKET, t.pos, parse_expr(P));
    expect(P, T_RBRACK);
    return e;
  }
}

static Expr *var_of(Parser *P, const Token *t) {
  Expr *e = mk(P, E_VAR, t->pos);
  e->name = t->name;
  return e;
}

/* app ::= ID { arg }, left-associative; greedy like herd's (an LR shift). */
static Expr *parse_primary(Parser *P) {
  if (!at(P, T_ID)) return parse_simple(P);
  SrcPos start = P->tok.pos;
  Expr *e = var_of(P, &P->tok);
  advance(P);
  while (starts_arg(P->tok.kind)) {
    Expr *arg;
    if (at(P, T_ID)) {
      arg = var_of(P, &P->tok);
      advance(P);
    } else {
      arg = parse_simple(P);
    }
    e = mk2(P, E_APP, start, e, arg);
  }
  return e;
}

/* ---- operators (§2.5) ----
 * Levels, loosest first: | 1, ++ 2, ; 3, \ 4 (left), & 5, then infix and
 * postfix * with postfix + ? and prefix ~ at 6 (non-associative), ^-1 at 7
 * (non-associative); 1, 2, 3 and 5 are right-associative. */
enum { LV_PREFIX_COMPL = 6 };

static int op_level(TokKind k) {
  switch (k) {
  case T_BAR: return 1;
  case T_PLUSPLUS: return 2;
  case T_SEMI: return 3;
  case T_BACKSLASH: return 4;
  case T_AMP: return 5;
  case T_STAR: case T_PLUS: case T_QUESTION: return 6;
  case T_HAT: return 7;
  default: return 0;
  }
}

static bool level_nonassoc(int lv) { return lv >= 6; }

/* "~" base.  The operand extends over ^-1 only: a looser operator ends it,
 * and one of level 6 right after it is an error (equal non-associative
 * levels), so "~a*" and "~a * b" are rejected, as in herd. */
static Expr *parse_unary(Parser *P) {
  if (!at(P, T_TILDE)) return parse_primary(P);
  SrcPos pos = P->tok.pos;
  advance(P);
  enter(P);
  Expr *a = parse_binary(P, LV_PREFIX_COMPL);
  leave(P);
  return mk1(P, E_COMPL, pos, a);
}

/* Adds x to the n-ary node e, splicing x's operands when x has e's kind
 * (herd flattens "(a|b)|c" as well as "a|b|c"). */
static void nary_add(Parser *P, Expr *e, int *cap, Expr *x) {
  if (x->kind != e->kind) {
    APUSH(P, e->args, e->nargs, *cap, x);
    return;
  }
  for (int i = 0; i < x->nargs; i++)
    APUSH(P, e->args, e->nargs, *cap, x->args[i]);
}

/* A run of one right-associative operator: "a op b op c" is gathered
 * iteratively (no recursion per operand) and then built as a op (b op c),
 * or as one n-ary node for | and ;. */
static Expr *parse_chain(Parser *P, Expr *left, SrcPos start) {
  TokKind op = P->tok.kind;
  int lv = op_level(op);
  Expr **v = NULL;
  SrcPos *pos = NULL;   /* pos[i]: first token of operand i */
  int n = 0, cap = 0, np = 0, pcap = 0;
  APUSH(P, v, n, cap, left);
  APUSH(P, pos, np, pcap, start);
  while (at(P, op)) {
    advance(P);
    APUSH(P, pos, np, pcap, P->tok.pos);
    APUSH(P, v, n, cap, parse_binary(P, lv));
  }
  if (op == T_BAR || op == T_SEMI) {
    Expr *e = mk(P, op == T_BAR ? E_UNION : E_SEQ, start);
    int ecap = 0;
    for (int i = 0; i < n; i++) nary_add(P, e, &ecap, v[i]);
    return e;
  }
  ExprKind k = op == T_AMP ? E_INTER : E_ADD;
  Expr *r = v[n - 1];
  for (int i = n - 2; i >= 0; i--) r = mk2(P, k, pos[i], v[i], r);
  return r;
}

/* The operator at P->tok applied to the complete operand left. */
static Expr *apply_op(Parser *P, Expr *left, SrcPos start) {
  switch (P->tok.kind) {
  case T_PLUS: advance(P); return mk1(P, E_PLUS, start, left);
  case T_QUESTION: advance(P); return mk1(P, E_OPT, start, left);
  case T_HAT:
    advance(P);
    expect(P, T_INV);
    return mk1(P, E_INV, start, left);
  case T_STAR:
    advance(P);
    /* herd's LR table: shift (infix) on a token that starts an operand,
     * error on "~" (precedence tie with postfix "*"), else postfix. */
    if (starts_arg(P->tok.kind))
      return mk2(P, E_PROD, start, left, parse_binary(P, 6));
    if (at(P, T_TILDE)) unexpected(P);
    return mk1(P, E_STAR, start, left);
  case T_BACKSLASH:
    advance(P);
    return mk2(P, E_DIFF, start, left, parse_binary(P, 4));
  default: return parse_chain(P, left, start);
  }
}

/* A base (ctx = 0), or the right operand of an operator of level ctx: it
 * takes every operator that binds tighter than ctx and stops before the
 * others, as herd's parser would reduce there. */
static Expr *parse_binary(Parser *P, int ctx) {
  SrcPos start = P->tok.pos;
  Expr *left = parse_unary(P);
  for (;;) {
    int lv = op_level(P->tok.kind);
    if (lv == 0 || lv < ctx) return left;
    if (lv == ctx) {
      if (level_nonassoc(lv)) unexpected(P);
      /* left-assoc: reduce here; right-assoc: parse_chain continues. */
      return left;
    }
    left = apply_op(P, left, start);
  }
}

/* ---- conditions ---- */

static VCond *mk_vcond(Parser *P, VCondKind k, VCond *a, VCond *b) {
  VCond *v = ARENA_NEW(P->arena, VCond);
  v->kind = k;
  v->a = a;
  v->b = b;
  return v;
}

static VCond *parse_vcond(Parser *P);

/* atom ::= ["variant"] STRING | "not" atom | "(" vcond ")" */
static VCond *parse_vatom(Parser *P) {
  VCond *v;
  enter(P);
  if (accept(P, K_NOT)) {
    v = mk_vcond(P, VC_NOT, parse_vatom(P), NULL);
  } else if (accept(P, T_LPAR)) {
    v = parse_vcond(P);
    expect(P, T_RPAR);
  } else {
    accept(P, K_VARIANT);
    v = mk_vcond(P, VC_NAME, NULL, NULL);
    v->name = expect(P, T_STRING).str;
  }
  leave(P);
  return v;
}

static VCond *parse_vand(Parser *P) {
  VCond *v = parse_vatom(P);
  while (accept(P, T_AMPAMP)) v = mk_vcond(P, VC_AND, v, parse_vatom(P));
  return v;
}

/* vcond, with "not" tighter than "&&", tighter than "||". */
static VCond *parse_vcond(Parser *P) {
  VCond *v = parse_vand(P);
  while (accept(P, T_BARBAR)) v = mk_vcond(P, VC_OR, v, parse_vand(P));
  return v;
}

static bool vcond_token(TokKind k) {
  return k == T_STRING || k == K_VARIANT || k == K_NOT;
}

/* No expression starts with a string, "variant" or "not", so the first
 * token after any opening parentheses tells a variant condition from an
 * expression.  Scans ahead on a copy of the lexer. */
static bool vcond_ahead(Parser *P) {
  if (!at(P, T_LPAR)) return vcond_token(P->tok.kind);
  const Token *t = peek2(P);
  if (t->kind != T_LPAR) return vcond_token(t->kind);
  Lexer scan = P->lx;
  for (;;) {
    Token u = catlex_next(&scan);
    if (u.kind != T_LPAR) return vcond_token(u.kind);
  }
}

static Cond *parse_cond(Parser *P) {
  Cond *c = ARENA_NEW(P->arena, Cond);
  if (vcond_ahead(P)) {
    c->kind = C_VARIANT;
    c->v = parse_vcond(P);
    return c;
  }
  c->a = parse_expr(P);
  if (accept(P, T_EQUAL)) c->kind = C_EQ;
  else if (accept(P, K_SUBSET)) c->kind = C_SUBSET;
  else if (accept(P, K_IN)) c->kind = C_IN;
  else unexpected(P);
  c->b = parse_expr(P);
  return c;
}

/* ---- bindings ---- */

static Expr *mk_fun(Parser *P, SrcPos pos, Pat param, Expr *body) {
  Expr *e = mk1(P, E_FUN, pos, body);
  e->param = param;
  return e;
}

/* binding ::= ID pat0 "=" e | ID "(" formals ")" "=" e
 *           | "(" formals ")" "=" e | pat0 { "," pat0 } "=" e */
static Binding parse_binding(Parser *P) {
  Binding b = {{false, -1, NULL, 0}, NULL, P->tok.pos};
  TokKind k2 = at(P, T_ID) ? peek2(P)->kind : T_EOF;
  if (at(P, T_LPAR)) {
    b.pat = parse_paren_formals(P);
  } else if (k2 == T_LPAR || k2 == T_ID || k2 == T_UNDERSCORE) {
    b.pat = single_pat(expect_id(P));
    Pat param = k2 == T_LPAR ? parse_paren_formals(P)
                             : single_pat(parse_pat0(P));
    expect(P, T_EQUAL);
    b.e = mk_fun(P, b.pos, param, parse_expr(P));
    return b;
  } else {
    int *v = NULL, n = 0, cap = 0;
    do APUSH(P, v, n, cap, parse_pat0(P));
    while (accept(P, T_COMMA));
    b.pat = tuple_pat(v, n);
  }
  expect(P, T_EQUAL);
  b.e = parse_expr(P);
  return b;
}

static Binding *parse_bindings(Parser *P, int *n) {
  Binding *v = NULL;
  int cap = 0;
  *n = 0;
  do APUSH(P, v, *n, cap, parse_binding(P));
  while (accept(P, K_AND));
  return v;
}

/* ---- compound expressions ---- */

/* "let" ["rec"] bindings "in" e */
static Expr *parse_let_expr(Parser *P, bool tuples) {
  SrcPos pos = expect(P, K_LET).pos;
  bool rec = accept(P, K_REC);
  Expr *e = mk(P, rec ? E_LETREC : E_LET, pos);
  e->binds = parse_bindings(P, &e->nbinds);
  expect(P, K_IN);
  e->a = parse_expr_gen(P, tuples);
  return e;
}

/* "fun" pat0 "->" e | "fun" "(" formals ")" "->" e */
static Expr *parse_fun(Parser *P, bool tuples) {
  SrcPos pos = expect(P, K_FUN).pos;
  Pat param = at(P, T_LPAR) ? parse_paren_formals(P)
                            : single_pat(parse_pat0(P));
  expect(P, T_ARROW);
  return mk_fun(P, pos, param, parse_expr_gen(P, tuples));
}

static Expr *parse_if_expr(Parser *P, bool tuples) {
  Expr *e = mk(P, E_IF, expect(P, K_IF).pos);
  e->cond = parse_cond(P);
  expect(P, K_THEN);
  e->a = parse_expr(P);
  expect(P, K_ELSE);
  e->b = parse_expr_gen(P, tuples);
  return e;
}

/* "{" "}" "->" e */
static Expr *parse_empty_clause(Parser *P) {
  expect(P, T_LBRACE);
  expect(P, T_RBRACE);
  expect(P, T_ARROW);
  return parse_expr(P);
}

/* pat0 "++" pat0 "->" e | pat0 "|" pat0 "++" pat0 "->" e */
static void parse_elt_clause(Parser *P, Expr *m) {
  int first = parse_pat0(P);
  if (accept(P, T_BAR)) {
    m->split = true;
    m->before = first;
    m->elt = parse_pat0(P);
  } else {
    m->elt = first;
  }
  expect(P, T_PLUSPLUS);
  m->rest = parse_pat0(P);
  expect(P, T_ARROW);
  m->e_cons = parse_expr(P);
}

static void parse_set_clauses(Parser *P, Expr *m) {
  m->kind = E_MATCH_SET;
  if (at(P, T_LBRACE)) {
    m->e_empty = parse_empty_clause(P);
    expect(P, T_BARBAR);
    parse_elt_clause(P, m);
  } else {
    parse_elt_clause(P, m);
    expect(P, T_BARBAR);
    m->e_empty = parse_empty_clause(P);
  }
}

/* TAG "->" e { "||" TAG "->" e } [ "||" "_" "->" e ], or "_" "->" e alone */
static void parse_tag_clauses(Parser *P, Expr *m) {
  int cap = 0;
  m->kind = E_MATCH_TAG;
  do {
    if (accept(P, T_UNDERSCORE)) {
      expect(P, T_ARROW);
      m->dflt = parse_expr(P);
      return;
    }
    TagClause c;
    c.tag = expect(P, T_TAG).name;
    expect(P, T_ARROW);
    c.e = parse_expr(P);
    APUSH(P, m->clauses, m->nclauses, cap, c);
  } while (accept(P, T_BARBAR));
}

static Expr *parse_match_expr(Parser *P) {
  Expr *m = mk(P, E_MATCH_TAG, expect(P, K_MATCH).pos);
  m->a = parse_expr(P);
  expect(P, K_WITH);
  accept(P, T_BARBAR);
  /* "_ ->" is the default of a tag match; "_ ++ r" or "_ | x ++ r" a set
   * clause. */
  if (at(P, T_LBRACE) || at(P, T_ID) ||
      (at(P, T_UNDERSCORE) && peek2(P)->kind != T_ARROW))
    parse_set_clauses(P, m);
  else
    parse_tag_clauses(P, m);
  expect(P, K_END);
  return m;
}

/* base { "," base }: a tuple when there are two or more. */
static Expr *parse_tuple(Parser *P) {
  SrcPos start = P->tok.pos;
  Expr *first = parse_base(P);
  if (!at(P, T_COMMA)) return first;
  Expr *e = mk(P, E_TUPLE, start);
  int cap = 0;
  APUSH(P, e->args, e->nargs, cap, first);
  while (accept(P, T_COMMA)) APUSH(P, e->args, e->nargs, cap, parse_base(P));
  return e;
}

static Expr *parse_expr_gen(Parser *P, bool tuples) {
  Expr *e;
  enter(P);
  switch (P->tok.kind) {
  case K_LET: e = parse_let_expr(P, tuples); break;
  case K_FUN: e = parse_fun(P, tuples); break;
  case K_TRY: {
    SrcPos pos = P->tok.pos;
    advance(P);
    Expr *body = parse_expr(P);
    expect(P, K_WITH);
    e = mk2(P, E_TRY, pos, body, parse_expr_gen(P, tuples));
    break;
  }
  case K_IF: e = parse_if_expr(P, tuples); break;
  case K_MATCH: e = parse_match_expr(P); break;
  default: e = tuples ? parse_tuple(P) : parse_base(P); break;
  }
  leave(P);
  return e;
}

/* ------------------------------------------------------ instructions */

static void parse_ins_list(Parser *P, InsList *out, bool top);

/* test_app ::= ["~"] ("acyclic" | "irreflexive" | "empty") e ["as" ID] */
static void parse_test_app(Parser *P, Check *c) {
  c->negated = accept(P, T_TILDE);
  if (accept(P, K_ACYCLIC)) c->test = T_ACYCLIC;
  else if (accept(P, K_IRREFLEXIVE)) c->test = T_IRREFLEXIVE;
  else if (accept(P, K_EMPTY)) c->test = T_EMPTY;
  else unexpected(P);
  c->e = parse_expr(P);
  c->name = accept(P, K_AS) ? expect_id(P) : -1;
}

static Ins *parse_check(Parser *P) {
  Ins *i = mk_ins(P, I_CHECK, P->tok.pos);
  if (accept(P, K_FLAG)) i->check.mode = CM_FLAG;
  else if (accept(P, K_UNDEFINED_UNLESS)) i->check.mode = CM_UNDEFINED_UNLESS;
  else if (accept(P, K_ASSERT)) i->check.mode = CM_ASSERT;
  else i->check.mode = CM_CHECK;
  parse_test_app(P, &i->check);
  return i;
}

/* "let" ["rec"] bindings ["when" test_app] ["in"] */
static Ins *parse_let_ins(Parser *P, SrcPos pos) {
  bool rec = accept(P, K_REC);
  Ins *i = mk_ins(P, rec ? I_LETREC : I_LET, pos);
  i->binds = parse_bindings(P, &i->nbinds);
  if (rec && accept(P, K_WHEN)) {
    i->when = ARENA_NEW(P->arena, Check);
    i->when->mode = CM_CHECK;
    parse_test_app(P, i->when);
  }
  accept(P, K_IN);
  return i;
}

/* ID { "," ID } */
static void parse_name_list(Parser *P, Ins *i) {
  int cap = 0;
  do APUSH(P, i->names, i->nnames, cap, expect_id(P));
  while (accept(P, T_COMMA));
}

/* "show" e "as" ID | "show" ID { "," ID } */
static void parse_show(Parser *P, Ins *i) {
  if (at(P, T_ID) && peek2(P)->kind == T_COMMA) {
    parse_name_list(P, i);
    return;
  }
  bool bare = at(P, T_ID);
  Expr *e = parse_expr_nt(P);
  if (accept(P, K_AS)) {
    i->e = e;
    i->name = expect_id(P);
  } else if (bare && e->kind == E_VAR) {
    i->names = ARENA_NEWN(P->arena, int, 1);
    i->names[0] = e->name;
    i->nnames = 1;
  } else {
    unexpected(P);
  }
}

/* "procedure" ["rec"] ID ("(" formals ")" | pat0) "=" {ins} "end" */
static void parse_procedure(Parser *P, Ins *i) {
  i->is_rec = accept(P, K_REC);
  i->name = expect_id(P);
  i->param = at(P, T_LPAR) ? parse_paren_formals(P)
                           : single_pat(parse_pat0(P));
  expect(P, T_EQUAL);
  parse_ins_list(P, &i->body, false);
  expect(P, K_END);
}

/* "match" e "with" ["||"] TAG "->" {ins} { "||" TAG "->" {ins} }
 *   [ "||" "_" "->" {ins} ] "end" */
static void parse_match_ins(Parser *P, Ins *i) {
  int cap = 0;
  i->e = parse_expr(P);
  expect(P, K_WITH);
  accept(P, T_BARBAR);
  do {
    InsClause c = {-1, {NULL, 0}};
    bool dflt = accept(P, T_UNDERSCORE);
    if (!dflt) c.tag = expect(P, T_TAG).name;
    expect(P, T_ARROW);
    parse_ins_list(P, &c.body, false);
    APUSH(P, i->clauses, i->nclauses, cap, c);
    if (dflt) break;
  } while (accept(P, T_BARBAR));
  expect(P, K_END);
}

/* "enum" ID "=" ["||"] TAG { "||" TAG } */
static void parse_enum(Parser *P, Ins *i) {
  int cap = 0;
  i->name = expect_id(P);
  expect(P, T_EQUAL);
  accept(P, T_BARBAR);
  do APUSH(P, i->names, i->nnames, cap, expect(P, T_TAG).name);
  while (accept(P, T_BARBAR));
}

/* ("instructions" | "default") ID "[" [ e { "," e } ] "]" */
static void parse_events(Parser *P, Ins *i) {
  int cap = 0;
  i->name = expect_id(P);
  expect(P, T_LBRACK);
  if (!at(P, T_RBRACK)) {
    do APUSH(P, i->args, i->nargs, cap, parse_expr_nt(P));
    while (accept(P, T_COMMA));
  }
  expect(P, T_RBRACK);
}

/* "call" ID simple ["as" ID] */
static void parse_call(Parser *P, Ins *i) {
  i->name = expect_id(P);
  i->e = parse_simple(P);
  i->call_as = accept(P, K_AS) ? expect_id(P) : -1;
}

/* "forall" ID "in" e "do" {ins} "end" */
static void parse_forall(Parser *P, Ins *i) {
  i->name = expect_id(P);
  expect(P, K_IN);
  i->e = parse_expr(P);
  expect(P, K_DO);
  parse_ins_list(P, &i->body, false);
  expect(P, K_END);
}

/* "with" ID "from" e */
static void parse_with(Parser *P, Ins *i) {
  i->name = expect_id(P);
  expect(P, K_FROM);
  i->e = parse_expr(P);
}

/* "if" vcond {ins} ["else" {ins}] "end" */
static void parse_if_ins(Parser *P, Ins *i) {
  i->vcond = parse_vcond(P);
  parse_ins_list(P, &i->body, false);
  if (accept(P, K_ELSE)) parse_ins_list(P, &i->body2, false);
  expect(P, K_END);
}

/* The instruction a keyword introduces; I_CHECK for the test keywords. */
static InsKind ins_kind_of(TokKind k) {
  switch (k) {
  case K_LET: return I_LET;
  case K_SHOW: return I_SHOW;
  case K_UNSHOW: return I_UNSHOW;
  case K_INCLUDE: return I_INCLUDE;
  case K_PROCEDURE: return I_PROCEDURE;
  case K_CALL: return I_CALL;
  case K_FORALL: return I_FORALL;
  case K_WITH: return I_WITH;
  case K_IF: return I_IF_VARIANT;
  case K_MATCH: return I_MATCH_TAG;
  case K_ENUM: return I_ENUM;
  case K_INSTRUCTIONS: return I_INSTRUCTIONS;
  case K_DEFAULT: return I_DEFAULT;
  case K_DEBUG: return I_DEBUG;
  default: return I_CHECK;
  }
}

/* One instruction; P->tok is known to start one (starts_ins). */
static Ins *parse_ins(Parser *P) {
  Token t = P->tok;
  InsKind k = ins_kind_of(t.kind);
  if (k == I_CHECK) return parse_check(P);
  advance(P);
  if (k == I_LET) return parse_let_ins(P, t.pos);
  Ins *i = mk_ins(P, k, t.pos);
  switch (k) {
  case I_SHOW: parse_show(P, i); break;
  case I_UNSHOW: parse_name_list(P, i); break;
  case I_INCLUDE: i->str = expect(P, T_STRING).str; break;
  case I_PROCEDURE: parse_procedure(P, i); break;
  case I_CALL: parse_call(P, i); break;
  case I_FORALL: parse_forall(P, i); break;
  case I_WITH: parse_with(P, i); break;
  case I_IF_VARIANT: parse_if_ins(P, i); break;
  case I_MATCH_TAG: parse_match_ins(P, i); break;
  case I_ENUM: parse_enum(P, i); break;
  case I_DEBUG: i->e = parse_expr(P); break;
  default: parse_events(P, i); break; /* I_INSTRUCTIONS, I_DEFAULT */
  }
  return i;
}

static bool starts_ins(TokKind k, bool top) {
  switch (k) {
  case K_LET: case K_ACYCLIC: case K_IRREFLEXIVE: case K_EMPTY: case T_TILDE:
  case K_FLAG: case K_UNDEFINED_UNLESS: case K_ASSERT: case K_SHOW:
  case K_UNSHOW: case K_INCLUDE: case K_PROCEDURE: case K_CALL:
  case K_FORALL: case K_WITH: case K_IF: case K_MATCH: case K_INSTRUCTIONS:
  case K_DEFAULT: case K_DEBUG:
    return true;
  case K_ENUM: return top; /* enum is a top-level instruction only */
  default: return false;
  }
}

/* { instruction }; the caller checks the token that ends the list. */
static void parse_ins_list(Parser *P, InsList *out, bool top) {
  int cap = 0;
  if (!top) enter(P);
  while (starts_ins(P->tok.kind, top))
    APUSH(P, out->v, out->n, cap, parse_ins(P));
  if (!top) leave(P);
}

/* ------------------------------------------------------------ files */

static const char *const arch_words[] = {
  "AArch64", "ARM", "BPF", "MIPS", "PPC", "X86", "RISCV", "RISC-V", "X86_64",
  "C", "CPP", "C++", "LISA", "JAVA", "Java", "ASL", "Bell",
};

static const char *arch_of(Parser *P, const char *word) {
  for (size_t k = 0; k < ARRAY_LEN(arch_words); k++)
    if (strcmp(word, arch_words[k]) == 0) return arena_strdup(P->arena, word);
  return NULL;
}

static const char *token_text(Parser *P, const Token *t) {
  if (t->kind != T_ID) return t->str;
  return arena_strdup(P->arena, intern_name(&P->names->in, t->name));
}

/* header ::= ID ID | ID STRING | ID | STRING; herd takes the first word as
 * the architecture candidate and the last as the model's name. */
static void parse_header(Parser *P, CatFile *f) {
  if (!at(P, T_ID) && !at(P, T_STRING)) return;
  Token first = P->tok;
  advance(P);
  f->title = token_text(P, &first);
  if (first.kind == T_ID && (at(P, T_ID) || at(P, T_STRING))) {
    f->title = token_text(P, &P->tok);
    advance(P);
  }
  f->arch = arch_of(P, token_text(P, &first));
}

CatFile *cat_parse(Arena *arena, CatNames *names, Err *err, const char *path,
                   const char *text) {
  Parser P;
  memset(&P, 0, sizeof P);
  P.arena = arena;
  P.names = names;
  P.err = err;
  CatFile *f = ARENA_NEW(arena, CatFile);
  f->path = arena_strdup(arena, path ? path : "<input>");
  catlex_init(&P.lx, f->path, text ? text : "", arena, names, err);
  advance(&P);
  parse_header(&P, f);
  f->catdep = accept(&P, K_CATDEP);
  parse_ins_list(&P, &f->body, true);
  expect(&P, T_EOF);
  return f;
}

/* ------------------------------------------------------------ printer */
/* Fully parenthesised: every compound expression is wrapped in "(...)", so
 * the tree's shape can be read off (and compared in tests). */

static const char *nm(const CatNames *names, int id) {
  return id < 0 ? "_" : intern_name(&names->in, id);
}

static void print_pat(const CatNames *names, const Pat *p, StrBuf *out) {
  if (!p->is_tuple) {
    sb_puts(out, nm(names, p->name));
    return;
  }
  sb_putc(out, '(');
  for (int i = 0; i < p->nnames; i++)
    sb_printf(out, "%s%s", i ? ", " : "", nm(names, p->names[i]));
  sb_putc(out, ')');
}

static void print_vcond(const VCond *v, StrBuf *out) {
  switch (v->kind) {
  case VC_NAME: sb_printf(out, "\"%s\"", v->name); return;
  case VC_NOT:
    sb_puts(out, "(not ");
    print_vcond(v->a, out);
    sb_putc(out, ')');
    return;
  default:
    sb_putc(out, '(');
    print_vcond(v->a, out);
    sb_puts(out, v->kind == VC_AND ? " && " : " || ");
    print_vcond(v->b, out);
    sb_putc(out, ')');
    return;
  }
}

static void print_list(const CatNames *names, Expr *const *v, int n,
                       const char *sep, StrBuf *out) {
  for (int i = 0; i < n; i++) {
    if (i) sb_puts(out, sep);
    cat_print_expr(names, v[i], out);
  }
}

static void print_binds(const CatNames *names, const Binding *b, int n,
                        StrBuf *out) {
  for (int i = 0; i < n; i++) {
    if (i) sb_puts(out, " and ");
    print_pat(names, &b[i].pat, out);
    sb_puts(out, " = ");
    cat_print_expr(names, b[i].e, out);
  }
}

static void print_cond(const CatNames *names, const Cond *c, StrBuf *out) {
  static const char *const ops[] = {" = ", " subset ", " in "};
  if (c->kind == C_VARIANT) {
    print_vcond(c->v, out);
    return;
  }
  cat_print_expr(names, c->a, out);
  sb_puts(out, ops[c->kind]);
  cat_print_expr(names, c->b, out);
}

static void print_match(const CatNames *names, const Expr *e, StrBuf *out) {
  sb_puts(out, "(match ");
  cat_print_expr(names, e->a, out);
  sb_puts(out, " with ");
  if (e->kind == E_MATCH_SET) {
    sb_puts(out, "{} -> ");
    cat_print_expr(names, e->e_empty, out);
    sb_puts(out, " || ");
    if (e->split) sb_printf(out, "%s | ", nm(names, e->before));
    sb_printf(out, "%s ++ %s -> ", nm(names, e->elt), nm(names, e->rest));
    cat_print_expr(names, e->e_cons, out);
  } else {
    for (int i = 0; i < e->nclauses; i++) {
      sb_printf(out, "%s'%s -> ", i ? " || " : "",
                nm(names, e->clauses[i].tag));
      cat_print_expr(names, e->clauses[i].e, out);
    }
    if (e->dflt) {
      sb_puts(out, e->nclauses ? " || _ -> " : "_ -> ");
      cat_print_expr(names, e->dflt, out);
    }
  }
  sb_puts(out, " end)");
}

static void print_binop(const CatNames *names, const Expr *e, const char *op,
                        StrBuf *out) {
  sb_putc(out, '(');
  cat_print_expr(names, e->a, out);
  sb_puts(out, op);
  cat_print_expr(names, e->b, out);
  sb_putc(out, ')');
}

static void print_postfix(const CatNames *names, const Expr *e,
                          const char *op, StrBuf *out) {
  sb_putc(out, '(');
  cat_print_expr(names, e->a, out);
  sb_printf(out, "%s)", op);
}

static void print_binder(const CatNames *names, const Expr *e, StrBuf *out) {
  switch (e->kind) {
  case E_FUN:
    sb_puts(out, "(fun ");
    print_pat(names, &e->param, out);
    sb_puts(out, " -> ");
    break;
  case E_TRY:
    sb_puts(out, "(try ");
    cat_print_expr(names, e->a, out);
    sb_puts(out, " with ");
    cat_print_expr(names, e->b, out);
    sb_putc(out, ')');
    return;
  case E_IF:
    sb_puts(out, "(if ");
    print_cond(names, e->cond, out);
    sb_puts(out, " then ");
    cat_print_expr(names, e->a, out);
    sb_puts(out, " else ");
    cat_print_expr(names, e->b, out);
    sb_putc(out, ')');
    return;
  default: /* E_LET, E_LETREC */
    sb_puts(out, e->kind == E_LET ? "(let " : "(let rec ");
    print_binds(names, e->binds, e->nbinds, out);
    sb_puts(out, " in ");
    break;
  }
  cat_print_expr(names, e->a, out);
  sb_putc(out, ')');
}

void cat_print_expr(const CatNames *names, const Expr *e, StrBuf *out) {
  if (!e) {
    sb_puts(out, "<null>");
    return;
  }
  switch (e->kind) {
  case E_ZERO: sb_putc(out, '0'); return;
  case E_EMPTY: sb_puts(out, "{}"); return;
  case E_UNIV: sb_putc(out, '_'); return;
  case E_VAR: sb_puts(out, nm(names, e->name)); return;
  case E_TAG: sb_printf(out, "'%s", nm(names, e->name)); return;
  case E_SET:
    sb_putc(out, '{');
    print_list(names, e->args, e->nargs, ", ", out);
    sb_putc(out, '}');
    return;
  case E_TUPLE: case E_UNION: case E_SEQ:
    sb_putc(out, '(');
    print_list(names, e->args, e->nargs,
               e->kind == E_TUPLE ? ", " : e->kind == E_UNION ? " | " : " ; ",
               out);
    sb_putc(out, ')');
    return;
  case E_INTER: print_binop(names, e, " & ", out); return;
  case E_DIFF: print_binop(names, e, " \\ ", out); return;
  case E_PROD: print_binop(names, e, " * ", out); return;
  case E_ADD: print_binop(names, e, " ++ ", out); return;
  case E_APP: print_binop(names, e, " ", out); return;
  case E_STAR: print_postfix(names, e, "*", out); return;
  case E_PLUS: print_postfix(names, e, "+", out); return;
  case E_OPT: print_postfix(names, e, "?", out); return;
  case E_INV: print_postfix(names, e, "^-1", out); return;
  case E_COMPL:
    sb_puts(out, "(~");
    cat_print_expr(names, e->a, out);
    sb_putc(out, ')');
    return;
  case E_BRACKET:
    sb_putc(out, '[');
    cat_print_expr(names, e->a, out);
    sb_putc(out, ']');
    return;
  case E_MATCH_TAG: case E_MATCH_SET: print_match(names, e, out); return;
  default: print_binder(names, e, out); return;
  }
}

static void print_body(const CatNames *names, const InsList *l, StrBuf *out) {
  for (int k = 0; k < l->n; k++) {
    sb_putc(out, ' ');
    cat_print_ins(names, l->v[k], out);
  }
}

static void print_names(const CatNames *names, const int *v, int n,
                        const char *sep, const char *quote, StrBuf *out) {
  for (int k = 0; k < n; k++)
    sb_printf(out, "%s%s%s", k ? sep : "", quote, nm(names, v[k]));
}

static void print_check(const CatNames *names, const Check *c, StrBuf *out) {
  static const char *const modes[] = {"", "flag ", "undefined_unless ",
                                      "assert "};
  static const char *const tests[] = {"acyclic", "irreflexive", "empty"};
  sb_printf(out, "%s%s%s ", modes[c->mode], c->negated ? "~" : "",
            tests[c->test]);
  cat_print_expr(names, c->e, out);
  if (c->name >= 0) sb_printf(out, " as %s", nm(names, c->name));
}

static void print_ins_match(const CatNames *names, const Ins *i,
                            StrBuf *out) {
  sb_puts(out, "match ");
  cat_print_expr(names, i->e, out);
  sb_puts(out, " with");
  for (int k = 0; k < i->nclauses; k++) {
    const InsClause *c = &i->clauses[k];
    if (c->tag < 0) sb_printf(out, "%s _ ->", k ? " ||" : "");
    else sb_printf(out, "%s '%s ->", k ? " ||" : "", nm(names, c->tag));
    print_body(names, &c->body, out);
  }
  sb_puts(out, " end");
}

/* Instructions with nested bodies, and the bell declarations. */
static void print_ins_block(const CatNames *names, const Ins *i,
                            StrBuf *out) {
  switch (i->kind) {
  case I_PROCEDURE:
    sb_printf(out, "procedure %s%s%s", i->is_rec ? "rec " : "",
              nm(names, i->name), i->param.is_tuple ? "" : " ");
    print_pat(names, &i->param, out);
    sb_puts(out, " =");
    print_body(names, &i->body, out);
    sb_puts(out, " end");
    return;
  case I_FORALL:
    sb_printf(out, "forall %s in ", nm(names, i->name));
    cat_print_expr(names, i->e, out);
    sb_puts(out, " do");
    print_body(names, &i->body, out);
    sb_puts(out, " end");
    return;
  case I_IF_VARIANT:
    sb_puts(out, "if ");
    print_vcond(i->vcond, out);
    print_body(names, &i->body, out);
    if (i->body2.n) sb_puts(out, " else");
    print_body(names, &i->body2, out);
    sb_puts(out, " end");
    return;
  case I_MATCH_TAG: print_ins_match(names, i, out); return;
  case I_ENUM:
    sb_printf(out, "enum %s = ", nm(names, i->name));
    print_names(names, i->names, i->nnames, " || ", "'", out);
    return;
  default: /* I_INSTRUCTIONS, I_DEFAULT */
    sb_printf(out, "%s %s[", i->kind == I_DEFAULT ? "default" : "instructions",
              nm(names, i->name));
    print_list(names, i->args, i->nargs, ", ", out);
    sb_putc(out, ']');
    return;
  }
}

void cat_print_ins(const CatNames *names, const Ins *i, StrBuf *out) {
  switch (i->kind) {
  case I_LET: case I_LETREC:
    sb_puts(out, i->kind == I_LET ? "let " : "let rec ");
    print_binds(names, i->binds, i->nbinds, out);
    if (i->when) {
      sb_puts(out, " when ");
      print_check(names, i->when, out);
    }
    return;
  case I_CHECK: print_check(names, &i->check, out); return;
  case I_SHOW: case I_UNSHOW:
    sb_puts(out, i->kind == I_SHOW ? "show " : "unshow ");
    if (i->e) {
      cat_print_expr(names, i->e, out);
      sb_printf(out, " as %s", nm(names, i->name));
    } else {
      print_names(names, i->names, i->nnames, ", ", "", out);
    }
    return;
  case I_INCLUDE: sb_printf(out, "include \"%s\"", i->str); return;
  case I_CALL:
    sb_printf(out, "call %s ", nm(names, i->name));
    cat_print_expr(names, i->e, out);
    if (i->call_as >= 0) sb_printf(out, " as %s", nm(names, i->call_as));
    return;
  case I_WITH:
    sb_printf(out, "with %s from ", nm(names, i->name));
    cat_print_expr(names, i->e, out);
    return;
  case I_DEBUG:
    sb_puts(out, "debug ");
    cat_print_expr(names, i->e, out);
    return;
  default: print_ins_block(names, i, out); return;
  }
}

void cat_print_file(const CatNames *names, const CatFile *f, StrBuf *out) {
  sb_printf(out, "(* %s: title %s%s%s, arch %s%s *)\n", f->path,
            f->title ? "\"" : "", f->title ? f->title : "none",
            f->title ? "\"" : "", f->arch ? f->arch : "none",
            f->catdep ? ", catdep" : "");
  for (int k = 0; k < f->body.n; k++) {
    cat_print_ins(names, f->body.v[k], out);
    sb_putc(out, '\n');
  }
}
