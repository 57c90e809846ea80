/*
 * final.c — the final section of a test (herd's lib/stateParser.mly):
 * `locations`, `filter`, and the condition (exists, ~exists, forall,
 * final ... with), as bounded propositions.
 */
#include "parse_int.h"

#include <stdlib.h>

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
    pte_default_oa(ts->p, &p->val, &p->loc);
  }
}

/* A fault type: NAME (':' NAME)*, which must be one of herd's. */
static FaultType parse_fault_type(TokStream *ts) {
  const Tok *first = expect(ts, T_NAME, "a fault type");
  const Tok *last = first;
  while (peekk(ts, 0) == T_COLON && peekk(ts, 1) == T_NAME) {
    next(ts);
    last = next(ts);
  }
  size_t n = last->off + last->len - first->off;
  FaultType ft = fault_type_parse(ts->p->text + first->off, n);
  if (ft == FT_NONE)
    fail(ts->p, first->off, "%.*s not a valid fault type", (int)n, ts->p->text + first->off);
  return ft;
}

/* fault(P0), fault(P0:L0,x), fault(P0,TYPE), fault(P0,PTE(x)),
 * fault(P0,x,TYPE): herd's `fault` rule. */
static FaultAtom *parse_fault(TokStream *ts) {
  const Tok *kw = next(ts);
  FaultAtom *f = ARENA_NEW(ts->p->a, FaultAtom);
  f->pos = tok_pos(ts, kw);
  expect(ts, T_LPAR, "'(' after fault");
  f->thread = expect(ts, T_PROC, "a thread (P0...)")->proc;
  if (peekk(ts, 0) == T_COLON) {
    next(ts);
    f->label = expect(ts, T_NAME, "a label")->s;
  }
  if (accept(ts, T_COMMA)) {
    const Tok *x = expect(ts, T_NAME, "a location or a fault type");
    bool pte = strcmp(x->s, "PTE") == 0 && peekk(ts, 0) == T_LPAR;
    if (pte) {
      next(ts);
      f->sym = expect(ts, T_NAME, "a location")->s;
      f->pte = true;
      expect(ts, T_RPAR, "')'");
    } else if (peekk(ts, 0) == T_COLON) {
      ts->i--; /* a composite type, MMU:Translation */
      f->type = parse_fault_type(ts);
      expect(ts, T_RPAR, "')'");
      return f;
    } else if ((f->type = fault_type_parse(x->s, strlen(x->s))) != FT_NONE) {
      expect(ts, T_RPAR, "')'");
      return f;
    } else {
      f->sym = x->s;
    }
    if (accept(ts, T_COMMA)) f->type = parse_fault_type(ts);
  }
  expect(ts, T_RPAR, "')'");
  return f;
}

static Prop *parse_atom(TokStream *ts) {
  const Tok *t = peek(ts, 0);
  if (t->kind == T_FAULT) {
    Prop *p = new_prop(ts, P_FAULT, t);
    p->fault = parse_fault(ts);
    return p;
  }
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
  int cap = 0, fcap = 0;
  expect(ts, T_LBRK, "'['");
  while (peekk(ts, 0) != T_RBRK) {
    if (peekk(ts, 0) == T_FAULT) {
      FaultAtom *f = parse_fault(ts);
      APUSH(ts->p->a, t->loc_faults, t->nloc_faults, fcap, *f);
      if (!accept(ts, T_SEMI)) break;
      continue;
    }
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

void parse_final(Parser *p, size_t start, size_t end) {
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
