/*
 * eval.c — evaluation of compiled cat expressions and instructions.
 *
 * Memory: values live in the arena of an allocation *level*.  Level 0 is
 * reset for every candidate; level k (k >= 1) for every branch of the k-th
 * nested `with`.  A global binding made at fork depth k is evaluated (when
 * first forced) with level k, so a lazy binding made before a fork but
 * forced inside a branch survives the branch.  Values whose stage is 0 or
 * 1 are also copied to the structure / rf caches and reused by later
 * candidates (see interp.h).
 *
 * The watermark r->wm is the highest stage read by the evaluation in
 * progress; forcing a binding saves it, evaluates with a fresh watermark,
 * records that as the binding's stage, and merges it back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cprog.h"

/* ------------------------------------------------------------- errors */

void cat_error(Run *r, SrcPos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  err_vraise(r->err, ERRK_SEMANTIC, pos, fmt, ap);
}

static const char *name_of(const Run *r, int id) {
  return id >= 0 ? intern_name(&r->prog->names->in, id) : "_";
}

static const char *kind_name(int k) {
  static const char *const names[] = {"empty set", "universe", "event set",
                                      "relation",  "event",    "pair",
                                      "tag",       "set",      "tuple",
                                      "function",  "primitive", "set",
                                      "set"};
  return k >= 0 && k < (int)ARRAY_LEN(names) ? names[k] : "value";
}

/* ------------------------------------------------------------- values */

Arena *run_cur(Run *r) { return &r->levels[r->level]; }

Value *val_new(Run *r, int kind) {
  Value *v = arena_alloc(run_cur(r), sizeof(Value));
  memset(v, 0, sizeof *v);
  v->kind = (uint8_t)kind;
  return v;
}

static Value EMPTY_V = {V_EMPTY, 0, {0}};
static Value UNIV_V = {V_UNIV, 0, {0}};

/* A set or relation value and its bits in one allocation; the bits are
 * left uninitialised for operations that write all of them. */
static Value *new_bits(Run *r, int kind, size_t words) {
  Value *v = arena_alloc(run_cur(r), sizeof(Value) + sizeof(Word) * words);
  v->kind = (uint8_t)kind;
  v->n = 0;
  v->u.bits = (Word *)(v + 1);
  return v;
}
static Value *raw_rel(Run *r) { return new_bits(r, V_REL, (size_t)rel_words(r->d)); }
static Value *raw_set(Run *r) { return new_bits(r, V_SET, (size_t)r->d.w); }

Value *val_new_set(Run *r) {
  Value *v = raw_set(r);
  memset(v->u.bits, 0, sizeof(Word) * (size_t)r->d.w);
  return v;
}

Value *val_new_rel(Run *r) {
  Value *v = raw_rel(r);
  memset(v->u.bits, 0, sizeof(Word) * (size_t)rel_words(r->d));
  return v;
}

Value *as_set(Run *r, Value *v, SrcPos pos) {
  switch (v->kind) {
  case V_SET:
    return v;
  case V_EMPTY:
    return val_new_set(r);
  case V_UNIV:
    return r->univ_set;
  case V_EVENT: {
    Value *s = val_new_set(r);
    bit_set(s->u.bits, v->u.ev);
    return s;
  }
  case V_VSET:
    if (v->n == 0) return val_new_set(r);
    break;
  default:
    break;
  }
  cat_error(r, pos, "type error: event set expected, %s found", kind_name(v->kind));
}

Value *as_rel(Run *r, Value *v, SrcPos pos) {
  switch (v->kind) {
  case V_REL:
    return v;
  case V_EMPTY:
    return val_new_rel(r);
  case V_UNIV: {
    Value *x = val_new_rel(r);
    rel_product(r->d, x->u.bits, r->univ, r->univ);
    return x;
  }
  case V_PAIR: {
    Value *x = val_new_rel(r);
    rel_set(r->d, x->u.bits, v->u.pair.a, v->u.pair.b);
    return x;
  }
  case V_VSET:
    if (v->n == 0) return val_new_rel(r);
    break;
  default:
    break;
  }
  cat_error(r, pos, "type error: relation expected, %s found", kind_name(v->kind));
}

static bool is_setlike(int k) { return k == V_SET || k == V_EVENT; }
static bool is_rellike(int k) { return k == V_REL || k == V_PAIR; }

/* Total order on values, used to keep value sets sorted. */
int val_compare(Run *r, const Value *a, const Value *b) {
  if (a == b) return 0;
  if (is_lazy(a) || is_lazy(b)) return lazy_compare(r, a, b);
  int ka = a->kind, kb = b->kind;
  if (ka != kb) {
    /* The polymorphic empty set equals any empty set. */
    bool ea = ka == V_EMPTY, eb = kb == V_EMPTY;
    if (ea || eb) {
      const Value *o = ea ? b : a;
      bool empty = (o->kind == V_SET && set_is_empty(r->d, o->u.bits)) ||
                   (o->kind == V_REL && rel_is_empty(r->d, o->u.bits)) ||
                   (o->kind == V_VSET && o->n == 0);
      if (empty) return 0;
    }
    return ka < kb ? -1 : 1;
  }
  switch (ka) {
  case V_EMPTY:
  case V_UNIV:
    return 0;
  case V_SET:
    return memcmp(a->u.bits, b->u.bits, sizeof(Word) * (size_t)r->d.w);
  case V_REL:
    return memcmp(a->u.bits, b->u.bits, sizeof(Word) * (size_t)rel_words(r->d));
  case V_EVENT:
    return (a->u.ev > b->u.ev) - (a->u.ev < b->u.ev);
  case V_PAIR:
    if (a->u.pair.a != b->u.pair.a) return a->u.pair.a < b->u.pair.a ? -1 : 1;
    return (a->u.pair.b > b->u.pair.b) - (a->u.pair.b < b->u.pair.b);
  case V_TAG:
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    return (a->u.tag > b->u.tag) - (a->u.tag < b->u.tag);
  case V_VSET:
  case V_TUPLE: {
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (int i = 0; i < a->n; i++) {
      int c = val_compare(r, a->u.elems[i], b->u.elems[i]);
      if (c) return c;
    }
    return 0;
  }
  case V_CLOSURE:
    return (a->u.clo > b->u.clo) - (a->u.clo < b->u.clo);
  case V_PRIM:
    return (a->u.prim > b->u.prim) - (a->u.prim < b->u.prim);
  }
  return 0;
}

/* Sort and deduplicate value-set elements in place; returns the count.
 * Insertion sort: value sets are small, and this keeps us reentrant. */
static int vset_normalise(Run *r, Value **e, int n) {
  /* often already strictly increasing (the same sets, built the same way,
   * at every candidate) */
  int sorted = 1;
  while (sorted < n && val_compare(r, e[sorted - 1], e[sorted]) < 0) sorted++;
  if (sorted >= n) return n;
  for (int i = sorted; i < n; i++) {
    Value *x = e[i];
    int j = i - 1;
    while (j >= 0 && val_compare(r, e[j], x) > 0) {
      e[j + 1] = e[j];
      j--;
    }
    e[j + 1] = x;
  }
  int k = 0;
  for (int i = 0; i < n; i++)
    if (k == 0 || val_compare(r, e[k - 1], e[i]) != 0) e[k++] = e[i];
  return k;
}

static Value *mk_vset(Run *r, Value **elems, int n) {
  Value *v = val_new(r, V_VSET);
  v->u.elems = arena_alloc(run_cur(r), sizeof(Value *) * (size_t)(n + 1));
  if (n) memcpy(v->u.elems, elems, sizeof(Value *) * (size_t)n);
  v->n = vset_normalise(r, v->u.elems, n);
  return v;
}

Value *val_vset(Run *r, Value **elems, int n) { return mk_vset(r, elems, n); }

/* Insert x into sorted set s (a new value; s is unchanged). */
static Value *vset_add(Run *r, const Value *s, Value *x) {
  int lo = 0, hi = s->n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    int c = val_compare(r, s->u.elems[mid], x);
    if (c == 0) return (Value *)s;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  Value *v = val_new(r, V_VSET);
  v->n = s->n + 1;
  v->u.elems = arena_alloc(run_cur(r), sizeof(Value *) * (size_t)v->n);
  memcpy(v->u.elems, s->u.elems, sizeof(Value *) * (size_t)lo);
  v->u.elems[lo] = x;
  memcpy(v->u.elems + lo + 1, s->u.elems + lo,
         sizeof(Value *) * (size_t)(s->n - lo));
  return v;
}

static bool vset_mem(Run *r, const Value *s, const Value *x) {
  int lo = 0, hi = s->n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    int c = val_compare(r, s->u.elems[mid], x);
    if (c == 0) return true;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return false;
}

bool val_has_closure(const Value *v) {
  if (v->kind == V_CLOSURE) return true;
  if (v->kind == V_VSET || v->kind == V_TUPLE)
    for (int i = 0; i < v->n; i++)
      if (val_has_closure(v->u.elems[i])) return true;
  return false;
}

Value *val_copy_deep(Run *r, Arena *a, const Value *v) {
  if (v == &EMPTY_V || v == &UNIV_V) return (Value *)v;
  Value *c = arena_alloc(a, sizeof(Value));
  *c = *v;
  switch (v->kind) {
  case V_SET:
    c->u.bits = arena_alloc(a, sizeof(Word) * (size_t)r->d.w);
    memcpy(c->u.bits, v->u.bits, sizeof(Word) * (size_t)r->d.w);
    break;
  case V_REL:
    c->u.bits = arena_alloc(a, sizeof(Word) * (size_t)rel_words(r->d));
    memcpy(c->u.bits, v->u.bits, sizeof(Word) * (size_t)rel_words(r->d));
    break;
  case V_VSET:
  case V_TUPLE:
    c->u.elems = arena_alloc(a, sizeof(Value *) * (size_t)(v->n + 1));
    for (int i = 0; i < v->n; i++)
      c->u.elems[i] = val_copy_deep(r, a, v->u.elems[i]);
    break;
  case V_LIN:
  case V_PROD: {
    const Lazy *z = v->u.lazy;
    Lazy *y = arena_alloc(a, sizeof(Lazy));
    *y = *z;
    if (v->kind == V_LIN) {
      y->set = arena_alloc(a, sizeof(Word) * (size_t)r->d.w);
      memcpy(y->set, z->set, sizeof(Word) * (size_t)r->d.w);
      y->order = arena_alloc(a, sizeof(Word) * lin_words(r->d, z->count));
      memcpy(y->order, z->order, sizeof(Word) * lin_words(r->d, z->count));
    } else {
      y->factors = arena_alloc(a, sizeof(Value *) * (size_t)(z->nfactors + 1));
      for (int i = 0; i < z->nfactors; i++)
        y->factors[i] = val_copy_deep(r, a, z->factors[i]);
    }
    c->u.lazy = y;
    break;
  }
  default:
    break;
  }
  return c;
}

/* The copy a cache keeps of a value of stage st (<= STAGE_FW) computed
 * with allocation level `level`.  The final-write cache and level 0 are
 * both reset for each candidate and at no other time (run_begin_fw,
 * run_model), so a stage-2 value made at level 0, which can only point to
 * level 0 and to longer-lived memory, is kept as it is; so is a stage-1
 * one when every rf choice has a single final-write choice (run_set_one_fw). */
Value *val_cache_copy(Run *r, int st, int level, Value *v) {
  if (level == 0 && (st == STAGE_FW || (st == STAGE_RF && r->one_fw))) return v;
  return val_copy_deep(r, run_arena(r, st), v);
}

/* ------------------------------------------------------- set algebra */

typedef enum SetOp { OP_UNION, OP_INTER, OP_DIFF } SetOp;

static Value *vset_op(Run *r, SetOp op, Value *a, Value *b) {
  int na = a->kind == V_VSET ? a->n : 0, nb = b->kind == V_VSET ? b->n : 0;
  Value **out = arena_alloc(run_cur(r), sizeof(Value *) * (size_t)(na + nb + 1));
  int k = 0;
  if (op == OP_UNION) {
    for (int i = 0; i < na; i++) out[k++] = a->u.elems[i];
    for (int i = 0; i < nb; i++) out[k++] = b->u.elems[i];
    return mk_vset(r, out, k);
  }
  for (int i = 0; i < na; i++) {
    bool in = nb && vset_mem(r, b, a->u.elems[i]);
    if ((op == OP_INTER) == in) out[k++] = a->u.elems[i];
  }
  return mk_vset(r, out, k);
}

static Value *set_algebra(Run *r, SetOp op, Value *a, Value *b, SrcPos pos) {
  if (a->kind == b->kind && (a->kind == V_REL || a->kind == V_SET)) {
    /* the common case, first */
    bool rel = a->kind == V_REL;
    Value *z = rel ? raw_rel(r) : raw_set(r);
    int n = rel ? rel_words(r->d) : r->d.w;
    const Word *restrict x = a->u.bits, *restrict y = b->u.bits;
    Word *restrict o = z->u.bits;
    /* two words at a time (SSE2, part of every x86-64; elsewhere the
     * compiler lowers the vector type) */
    typedef Word W2 __attribute__((vector_size(16)));
    run_poll(r, (unsigned)n / 64);
    int i = 0;
    W2 p, q;
#define WORDS2(EXPR)                                                                  \
  for (; i + 2 <= n; i += 2) {                                                        \
    memcpy(&p, x + i, sizeof p);                                                      \
    memcpy(&q, y + i, sizeof q);                                                      \
    p = EXPR;                                                                         \
    memcpy(o + i, &p, sizeof p);                                                      \
  }
    if (op == OP_UNION) WORDS2(p | q)
    else if (op == OP_INTER) WORDS2(p & q)
    else WORDS2(p & ~q)
#undef WORDS2
    for (; i < n; i++) o[i] = op == OP_UNION ? x[i] | y[i] : op == OP_INTER ? x[i] & y[i] : x[i] & ~y[i];
    return z;
  }
  if (is_lazy(a)) a = lazy_force(r, a);
  if (is_lazy(b)) b = lazy_force(r, b);
  int ka = a->kind, kb = b->kind;
  if (ka == V_VSET || kb == V_VSET) {
    if ((ka == V_VSET || ka == V_EMPTY) && (kb == V_VSET || kb == V_EMPTY))
      return vset_op(r, op, a, b);
    /* An empty value set mixes with anything. */
    if (ka == V_VSET && a->n == 0) a = &EMPTY_V, ka = V_EMPTY;
    if (kb == V_VSET && b->n == 0) b = &EMPTY_V, kb = V_EMPTY;
    if (ka == V_VSET || kb == V_VSET)
      cat_error(r, pos, "type error: mixing a set of values and a %s",
                kind_name(ka == V_VSET ? kb : ka));
  }
  switch (op) {
  case OP_UNION:
    if (ka == V_EMPTY) return b;
    if (kb == V_EMPTY) return a;
    if (ka == V_UNIV || kb == V_UNIV) {
      Value *o = ka == V_UNIV ? b : a;
      if (o->kind == V_UNIV || is_setlike(o->kind) || is_rellike(o->kind))
        return &UNIV_V;
    }
    break;
  case OP_INTER:
    if (ka == V_EMPTY || kb == V_EMPTY) return &EMPTY_V;
    if (ka == V_UNIV) return b;
    if (kb == V_UNIV) return a;
    break;
  case OP_DIFF:
    if (kb == V_EMPTY || ka == V_EMPTY) return a;
    if (kb == V_UNIV) return &EMPTY_V;
    break;
  }
  bool rel = is_rellike(ka) || is_rellike(kb);
  bool set = is_setlike(ka) || is_setlike(kb);
  if (rel && set)
    cat_error(r, pos, "type error: mixing sets and relations in %s",
              op == OP_UNION ? "union" : op == OP_INTER ? "intersection" : "difference");
  if (!rel && !set) {
    if (ka == V_TAG || kb == V_TAG)
      cat_error(r, pos, "type error: set expected, tag found");
    cat_error(r, pos, "type error: set or relation expected, %s found",
              kind_name(is_setlike(ka) || is_rellike(ka) || ka == V_UNIV ? kb : ka));
  }
  if (rel) {
    Value *x = as_rel(r, a, pos), *y = as_rel(r, b, pos), *z = val_new_rel(r);
    if (op == OP_UNION) rel_or(r->d, z->u.bits, x->u.bits, y->u.bits);
    else if (op == OP_INTER) rel_and(r->d, z->u.bits, x->u.bits, y->u.bits);
    else rel_andnot(r->d, z->u.bits, x->u.bits, y->u.bits);
    return z;
  }
  Value *x = as_set(r, a, pos), *y = as_set(r, b, pos), *z = val_new_set(r);
  if (op == OP_UNION) set_or(r->d, z->u.bits, x->u.bits, y->u.bits);
  else if (op == OP_INTER) set_and(r->d, z->u.bits, x->u.bits, y->u.bits);
  else set_andnot(r->d, z->u.bits, x->u.bits, y->u.bits);
  return z;
}

static Value *compose(Run *r, Value *a, Value *b, SrcPos pos) {
  if (a->kind == V_EMPTY || b->kind == V_EMPTY) return &EMPTY_V;
  Value *x = as_rel(r, a, pos), *y = as_rel(r, b, pos), *z = raw_rel(r);
  rel_compose(r->d, z->u.bits, x->u.bits, y->u.bits);
  return z;
}

static Value *identity_of(Run *r, const Word *s) {
  Value *z = val_new_rel(r);
  rel_identity(r->d, z->u.bits, s);
  return z;
}

static Value *complement(Run *r, Value *a, SrcPos pos) {
  a = lazy_force(r, a);
  switch (a->kind) {
  case V_EMPTY:
    return &UNIV_V;
  case V_UNIV:
    return &EMPTY_V;
  case V_SET:
  case V_EVENT: {
    Value *x = as_set(r, a, pos), *z = val_new_set(r);
    set_andnot(r->d, z->u.bits, r->univ, x->u.bits);
    return z;
  }
  case V_REL:
  case V_PAIR: {
    Value *x = as_rel(r, a, pos), *z = val_new_rel(r);
    rel_complement(r->d, z->u.bits, x->u.bits, r->univ);
    return z;
  }
  case V_VSET:
    if (a->n > 0 && a->u.elems[0]->kind == V_TAG) {
      const EnumType *et = &r->prog->enums[a->u.elems[0]->n];
      Value **out = arena_alloc(run_cur(r), sizeof(Value *) * (size_t)(et->ntags + 1));
      int k = 0;
      for (int i = 0; i < et->ntags; i++) {
        Value t = {V_TAG, a->u.elems[0]->n, {0}};
        t.u.tag = i;
        if (!vset_mem(r, a, &t)) {
          Value *tv = val_new(r, V_TAG);
          *tv = t;
          out[k++] = tv;
        }
      }
      return mk_vset(r, out, k);
    }
    break;
  default:
    break;
  }
  cat_error(r, pos, "type error: cannot complement a %s", kind_name(a->kind));
}

static Value *add_elem(Run *r, Value *x, Value *s, SrcPos pos) {
  s = lazy_force(r, s);
  if (s->kind == V_EMPTY) {
    if (x->kind == V_EVENT) return as_set(r, x, pos);
    if (x->kind == V_PAIR) return as_rel(r, x, pos);
    return mk_vset(r, &x, 1);
  }
  if (s->kind == V_SET && x->kind == V_EVENT) {
    Value *z = val_new_set(r);
    set_copy(r->d, z->u.bits, s->u.bits);
    bit_set(z->u.bits, x->u.ev);
    return z;
  }
  if (s->kind == V_REL) {
    int ea = -1, eb = -1;
    if (x->kind == V_PAIR) {
      ea = x->u.pair.a;
      eb = x->u.pair.b;
    } else if (x->kind == V_TUPLE && x->n == 2 && x->u.elems[0]->kind == V_EVENT &&
               x->u.elems[1]->kind == V_EVENT) {
      ea = x->u.elems[0]->u.ev;
      eb = x->u.elems[1]->u.ev;
    }
    if (ea >= 0) {
      Value *z = val_new_rel(r);
      rel_copy(r->d, z->u.bits, s->u.bits);
      rel_set(r->d, z->u.bits, ea, eb);
      return z;
    }
  }
  if (s->kind == V_VSET) return vset_add(r, s, x);
  cat_error(r, pos, "type error: cannot add a %s to a %s", kind_name(x->kind),
            kind_name(s->kind));
}

static Value *product(Run *r, Value *a, Value *b, SrcPos pos) {
  if (a->kind == V_EMPTY || b->kind == V_EMPTY) return &EMPTY_V;
  Value *x = as_set(r, a, pos), *y = as_set(r, b, pos), *z = val_new_rel(r);
  rel_product(r->d, z->u.bits, x->u.bits, y->u.bits);
  return z;
}

static Value *closure_op(Run *r, Value *a, int kind, SrcPos pos) {
  if (a->kind == V_UNIV) return &UNIV_V;
  Value *x = as_rel(r, a, pos), *z = val_new_rel(r);
  rel_copy(r->d, z->u.bits, x->u.bits);
  if (kind != E_OPT) rel_closure(r->d, z->u.bits);
  if (kind != E_PLUS) rel_add_identity(r->d, z->u.bits, r->univ);
  return z;
}

static Value *inverse(Run *r, Value *a, SrcPos pos) {
  if (a->kind == V_EMPTY || a->kind == V_UNIV) return a;
  if (a->kind == V_PAIR) {
    Value *z = val_new(r, V_PAIR);
    z->u.pair.a = a->u.pair.b;
    z->u.pair.b = a->u.pair.a;
    return z;
  }
  Value *x = as_rel(r, a, pos), *z = val_new_rel(r);
  rel_inverse(r->d, z->u.bits, x->u.bits);
  return z;
}

/* --------------------------------------------------------- bindings */


Frame *frame_new(Run *r, int n, Frame *up) {
  Frame *f = arena_alloc(run_cur(r), sizeof(Frame) + sizeof(Slot) * (size_t)n);
  f->up = up;
  f->level = r->level;
  f->n = n;
  memset(f->s, 0, sizeof(Slot) * (size_t)n);
  return f;
}

/* Bound recursion by the C stack actually used, not a call count, so
 * that neither sanitizers' larger frames nor small thread stacks can
 * overflow (the stack grows down on every platform we build for). */
void stack_guard(Run *r, SrcPos pos) {
  char here;
  if (r->stack_base && (size_t)(r->stack_base - &here) > r->stack_limit)
    cat_error(r, pos, "recursion too deep in model evaluation");
}

static Value *force_global(Run *r, int slot, SrcPos pos);

/* A global that evaluating e certainly forces and that is still a thunk
 * (a plain `let`), or -1.  Only operands every evaluation of e computes
 * are looked at: not those of functions, conditionals, matches, `try`,
 * or of operators that may stop early (`;`, `&`, the right of `\`), nor
 * nodes whose cached value stands. */
static int pending_global(Run *r, const CExpr *e) {
  if (e->cache >= 0) {
    const ECache *c = &r->ecache[e->cache];
    if (c->v && c->stage <= STAGE_FW && c->gen == run_stage_gen(r, c->stage)) return -1;
  }
  int d = -1;
  switch (e->kind) {
  case CV_GLOBAL:
    return r->g[e->slot].state == SLOT_THUNK && r->prog->global_kind[e->slot] == GK_THUNK
               ? e->slot
               : -1;
  case E_UNION:
  case E_TUPLE:
    for (int i = 0; i < e->nargs && d < 0; i++) d = pending_global(r, e->args[i]);
    return d;
  case E_PROD:
  case E_ADD:
  case E_APP:
    d = pending_global(r, e->a);
    return d >= 0 ? d : pending_global(r, e->b);
  default: {
    /* the one operand of a unary operator or projection, the left of `\` */
    static const int first_only[] = {E_DIFF, E_STAR,  E_PLUS,    E_OPT,
                                     E_INV,  E_COMPL, E_BRACKET, CV_PROJ};
    for (size_t i = 0; i < sizeof first_only / sizeof *first_only; i++)
      if (e->kind == first_only[i]) return pending_global(r, e->a);
    return -1;
  }
  }
}

/* Before a global is computed, the globals it certainly forces are
 * computed first, deepest first, with a stack of our own: a model of
 * 20,000 `let r_i = r_i-1 | r_i-1` then needs no C stack per link.  The
 * globals waiting on that stack are marked busy (so that a cycle among
 * them is left to the evaluation to report, as before) and are on
 * r->busy, so that an error makes them thunks again. */
static void force_deps_first(Run *r, int slot, SrcPos pos) {
  int d = pending_global(r, r->prog->global_expr[slot]);
  if (d < 0) return;
  int base = r->busy.len;
  GSlot *g = &r->g[slot];
  g->state = SLOT_BUSY;
  Busy b = {g, NULL};
  vec_push(r->busy, b);
  for (;;) {
    if (d >= 0) {
      r->g[d].state = SLOT_BUSY;
      Busy bd = {&r->g[d], NULL};
      vec_push(r->busy, bd);
    } else {
      /* the top waits on nothing now: compute it (shallowly) */
      GSlot *t = r->busy.data[r->busy.len - 1].g;
      r->busy.len--;
      t->state = SLOT_THUNK;
      if (r->busy.len == base) return;
      force_global(r, (int)(t - r->g), pos);
    }
    GSlot *top = r->busy.data[r->busy.len - 1].g;
    d = pending_global(r, r->prog->global_expr[top - r->g]);
  }
}

static Value *force_global(Run *r, int slot, SrcPos pos) {
  GSlot *g = &r->g[slot];
  if (g->state == SLOT_VALUE) {
    if (g->stage > r->wm) r->wm = g->stage;
    return g->v;
  }
  if (g->state == SLOT_BUSY)
    cat_error(r, pos, "%s is defined in terms of itself",
              name_of(r, r->prog->global_name[slot]));
  if (g->state != SLOT_THUNK)
    cat_error(r, pos, "internal error: %s used before its definition",
              name_of(r, r->prog->global_name[slot]));
  const CExpr *e = r->prog->global_expr[slot];
  if (r->prog->global_kind[slot] == GK_LETREC && e->kind != E_FUN) {
    /* a let rec value: its whole group is computed at once */
    run_letrec_force(r, r->prog->global_letrec[slot]);
    if (g->stage > r->wm) r->wm = g->stage;
    return g->v;
  }
  stack_guard(r, pos);
  force_deps_first(r, slot, pos);
  g->state = SLOT_BUSY;
  Busy b = {g, NULL};
  vec_push(r->busy, b);
  int saved_wm = r->wm, saved_level = r->level;
  r->wm = STAGE_ES;
  r->level = r->prog->global_depth[slot];
  Frame *f = frame_new(r, r->prog->global_nlocals[slot], NULL);
  Value *v = cat_eval(r, e, f);
  int st = r->wm;
  r->level = saved_level;
  r->wm = MAX(saved_wm, st);
  r->busy.len--;
  g->v = v;
  g->stage = (uint8_t)st;
  g->state = SLOT_VALUE;
  if (st <= STAGE_FW && !val_has_closure(v)) {
    g->cached = val_cache_copy(r, st, r->prog->global_depth[slot], v);
    g->cached_stage = (uint8_t)st;
    g->cached_gen = run_stage_gen(r, st);
    r->stats.cache_misses++;
  }
  return v;
}

static Value *force_local(Run *r, Frame *f, int slot, SrcPos pos) {
  Slot *s = &f->s[slot];
  if (s->state == SLOT_VALUE) {
    if (s->stage > r->wm) r->wm = s->stage;
    return s->v;
  }
  if (s->state == SLOT_BUSY) cat_error(r, pos, "recursive definition");
  if (s->state != SLOT_THUNK) cat_error(r, pos, "internal error: unbound local");
  stack_guard(r, pos);
  s->state = SLOT_BUSY;
  Busy b = {NULL, s};
  vec_push(r->busy, b);
  int saved_wm = r->wm, saved_level = r->level;
  r->wm = STAGE_ES;
  r->level = f->level;
  Value *v = cat_eval(r, s->e, f);
  int st = r->wm;
  r->level = saved_level;
  r->wm = MAX(saved_wm, st);
  r->busy.len--;
  s->v = v;
  s->stage = (uint8_t)st;
  s->state = SLOT_VALUE;
  return v;
}

static void set_local(Run *r, Frame *f, int slot, Value *v) {
  if (slot < 0) return;
  f->s[slot].state = SLOT_VALUE;
  f->s[slot].v = v;
  f->s[slot].stage = (uint8_t)r->wm;
}

void bind_pat(Run *r, Frame *f, const CPat *p, Value *v, SrcPos pos) {
  if (!p->is_tuple) {
    set_local(r, f, p->slot, v);
    return;
  }
  if (v->kind == V_TUPLE && v->n == p->n) {
    for (int i = 0; i < p->n; i++) set_local(r, f, p->slots[i], v->u.elems[i]);
    return;
  }
  if (v->kind == V_PAIR && p->n == 2) {
    Value *a = val_new(r, V_EVENT), *b = val_new(r, V_EVENT);
    a->u.ev = v->u.pair.a;
    b->u.ev = v->u.pair.b;
    set_local(r, f, p->slots[0], a);
    set_local(r, f, p->slots[1], b);
    return;
  }
  if (p->n == 0 && v->kind == V_TUPLE && v->n == 0) return;
  cat_error(r, pos, "type error: %d-tuple expected, %s found", p->n,
            kind_name(v->kind));
}

/* A recognised cross product (analyse.c) of sets of relations: the lazy
 * product; NULL when the argument is not of that shape. */
static Value *native_cross(Run *r, Value *arg) {
  if (arg->kind == V_EMPTY) return lazy_prod(r, NULL, 0);
  if (arg->kind != V_VSET) return NULL;
  for (int i = 0; i < arg->n; i++) {
    const Value *f = arg->u.elems[i];
    if (f->kind == V_LIN || f->kind == V_EMPTY) continue;
    if (f->kind != V_VSET) return NULL;
    for (int k = 0; k < f->n; k++)
      if (f->u.elems[k]->kind != V_REL) return NULL;
  }
  return lazy_prod(r, arg->u.elems, arg->n);
}

/* A recognised co_locs (analyse.c) applied to (pco, wss), wss a set of
 * event sets: the set of linearisations(ws, pco), as the cat recursion
 * builds it with ++ (sorted, without duplicates; {} when wss is empty);
 * NULL for any other shape. */
static Value *native_co_locs(Run *r, Value *arg, SrcPos pos) {
  if (arg->kind != V_TUPLE || arg->n != 2) return NULL;
  Value *pco = arg->u.elems[0], *wss = lazy_force(r, arg->u.elems[1]);
  if (wss->kind != V_VSET) return NULL;
  if (pco->kind != V_REL && pco->kind != V_EMPTY) return NULL;
  for (int i = 0; i < wss->n; i++)
    if (wss->u.elems[i]->kind != V_SET) return NULL;
  if (wss->n == 0) return &EMPTY_V;
  Value **out = arena_alloc(run_cur(r), sizeof(Value *) * (size_t)wss->n);
  for (int i = 0; i < wss->n; i++) out[i] = prim_linearisations(r, wss->u.elems[i], pco, pos);
  return mk_vset(r, out, wss->n);
}

static Value *apply(Run *r, Value *fv, Value *arg, SrcPos pos) {
  if (fv->kind == V_PRIM) return prim_apply(r, fv->u.prim, arg, pos);
  if (fv->kind == V_CLOSURE && fv->u.clo->fn->native == NATIVE_CROSS) {
    Value *v = native_cross(r, arg);
    if (v) return v;
  }
  if (fv->kind == V_CLOSURE && fv->u.clo->fn->native == NATIVE_CO_LOCS) {
    Value *v = native_co_locs(r, arg, pos);
    if (v) return v;
  }
  if (fv->kind != V_CLOSURE)
    cat_error(r, pos, "type error: function expected, %s found", kind_name(fv->kind));
  if (++r->call_depth > 100000) cat_error(r, pos, "recursion too deep in model evaluation");
  stack_guard(r, pos);
  const CFun *fn = fv->u.clo->fn;
  Frame *f = frame_new(r, fn->nlocals, fv->u.clo->env);
  bind_pat(r, f, &fn->param, arg, pos);
  Value *v = cat_eval(r, fn->body, f);
  r->call_depth--;
  return v;
}

/* For "unbound var" messages: the bound name closest to `name` among the
 * model's names (top-level bindings, predefined names, primitives), or
 * NULL.  Only names within typo distance are checked for being bound. */
static const char *suggest_name(Run *r, int name) {
  const Interner *in = &r->prog->names->in;
  const char *word = intern_name(in, name);
  bool *global = xcalloc((size_t)in->count + 1, 1);
  for (int s = 0; s < r->prog->nglobals; s++)
    if (r->prog->global_name[s] >= 0) global[r->prog->global_name[s]] = true;
  const char *best = NULL;
  for (int id = 0; id < in->count; id++) {
    if (id == name) continue;
    const char *cand[1] = {intern_name(in, id)};
    const char *c = closest_name(word, cand, 1);
    if (!c || (best && edit_distance(word, c, 64) >= edit_distance(word, best, 64))) continue;
    int stage;
    if (global[id] || prim_lookup(c) >= 0 || r->host.predef(r->host.ctx, id, &stage)) best = c;
  }
  free(global);
  return best;
}

Value *predef_lookup(Run *r, int name, SrcPos pos, bool *found) {
  int stage = STAGE_ES;
  Value *v = r->host.predef(r->host.ctx, name, &stage);
  if (!v) {
    if (found) {
      *found = false;
      return NULL;
    }
    const char *other = r->quiet || !r->host.defined_by
                            ? NULL
                            : r->host.defined_by(r->host.ctx, name_of(r, name));
    if (other)
      cat_error(r, pos, "unbound var: %s (a name of %s tests: is the model one for %s?)",
                name_of(r, name), other, other);
    const char *hint = r->quiet ? NULL : suggest_name(r, name);
    if (hint) cat_error(r, pos, "unbound var: %s (did you mean '%s'?)", name_of(r, name), hint);
    cat_error(r, pos, "unbound var: %s", name_of(r, name));
  }
  if (found) *found = true;
  if (stage > r->wm) r->wm = stage;
  return v;
}

/* ---------------------------------------------------------- let rec */

/* a is included in b (sets, relations, sets of values) */
static bool value_subset(Run *r, Value *a, Value *b, SrcPos pos) {
  Value *d = set_algebra(r, OP_DIFF, a, b, pos);
  if (d->kind == V_EMPTY) return true;
  if (d->kind == V_VSET) return d->n == 0;
  if (d->kind == V_SET) return set_is_empty(r->d, d->u.bits);
  if (d->kind == V_REL) return rel_is_empty(r->d, d->u.bits);
  return false;
}

/* herd7's test for the end of a let rec iteration, one binding at a
 * time: the new value is included in the one before (not that it is
 * equal to it).  For a growing iteration, the usual one, that is the
 * same; one that does not grow (`let rec x = po \ x`: 0, po, 0) stops at
 * the first value that is no larger, and the names keep the values of
 * that last round, as in herd7. */
bool fix_stable(Run *r, Value *old, Value *nw, SrcPos pos) {
  if (nw->kind == V_EMPTY || old->kind == V_UNIV) return true;
  return value_subset(r, nw, old, pos);
}

/* Least fixpoint of non-function bindings; function bindings are plain
 * closures over the frame, which makes them mutually recursive. */
static void letrec_local(Run *r, const CExpr *e, Frame *f) {
  for (int i = 0; i < e->nbinds; i++) {
    const CBind *b = &e->binds[i];
    if (b->is_fun) {
      f->s[b->pat.slot].state = SLOT_THUNK;
      f->s[b->pat.slot].e = b->e;
    } else {
      set_local(r, f, b->pat.slot, &EMPTY_V);
    }
  }
  for (int iter = 0;; iter++) {
    bool changed = false;
    for (int i = 0; i < e->nbinds; i++) {
      const CBind *b = &e->binds[i];
      if (b->is_fun) continue;
      Value *old = f->s[b->pat.slot].v;
      Value *nw = cat_eval(r, b->e, f);
      if (!fix_stable(r, old, nw, e->pos)) changed = true;
      set_local(r, f, b->pat.slot, nw);
    }
    if (!changed) break;
    if (iter > 100000) cat_error(r, e->pos, "let rec does not converge");
  }
}

/* ------------------------------------------------------------ try */

void run_undo_busy(Run *r, int saved_busy) {
  /* Bindings being forced when the error struck become thunks again. */
  for (int i = r->busy.len - 1; i >= saved_busy; i--) {
    if (r->busy.data[i].g) r->busy.data[i].g->state = SLOT_THUNK;
    if (r->busy.data[i].s) r->busy.data[i].s->state = SLOT_THUNK;
  }
  r->busy.len = saved_busy;
}

static Value *eval_try(Run *r, const CExpr *e, Frame *f) {
  ErrJmp j;
  int saved_level = r->level, saved_wm = r->wm, saved_depth = r->call_depth;
  int saved_busy = r->busy.len, saved_quiet = r->quiet;
  err_push(r->err, &j);
  if (setjmp(j.jb) == 0) {
    r->quiet++;
    Value *v = cat_eval(r, e->a, f);
    r->quiet--;
    err_pop(r->err, &j);
    return v;
  }
  run_undo_busy(r, saved_busy);
  r->level = saved_level;
  r->wm = saved_wm;
  r->call_depth = saved_depth;
  r->quiet = saved_quiet;
  return cat_eval(r, e->b, f);
}

/* ----------------------------------------------------------- eval */

static Frame *frame_up(Frame *f, int depth) {
  while (depth-- > 0) f = f->up;
  return f;
}

static bool cond_eval(Run *r, const CCond *c, Frame *f, SrcPos pos) {
  if (c->kind == C_VARIANT) return c->variant_value;
  Value *a = lazy_force(r, cat_eval(r, c->a, f));
  Value *b = lazy_force(r, cat_eval(r, c->b, f));
  switch (c->kind) {
  case C_EQ:
    if (a->kind == V_UNIV || b->kind == V_UNIV) {
      if (is_rellike(a->kind) || is_rellike(b->kind)) {
        a = as_rel(r, a, pos);
        b = as_rel(r, b, pos);
      } else {
        a = as_set(r, a, pos);
        b = as_set(r, b, pos);
      }
    }
    return val_compare(r, a, b) == 0;
  case C_SUBSET:
    return value_subset(r, a, b, pos);
  case C_IN:
    if (b->kind == V_SET && a->kind == V_EVENT) return bit_get(b->u.bits, a->u.ev);
    if (b->kind == V_UNIV && a->kind == V_EVENT) return bit_get(r->univ, a->u.ev);
    if (b->kind == V_REL && a->kind == V_PAIR)
      return rel_get(r->d, b->u.bits, a->u.pair.a, a->u.pair.b);
    if (b->kind == V_REL && a->kind == V_TUPLE && a->n == 2)
      return rel_get(r->d, b->u.bits, a->u.elems[0]->u.ev, a->u.elems[1]->u.ev);
    if (b->kind == V_VSET) return vset_mem(r, b, a);
    if (b->kind == V_EMPTY) return false;
    cat_error(r, pos, "type error in `in`");
  default:
    return false;
  }
}

static Value *eval_set_literal(Run *r, const CExpr *e, Frame *f) {
  Value **v = arena_alloc(run_cur(r), sizeof(Value *) * (size_t)(e->nargs + 1));
  bool events = true, pairs = true;
  for (int i = 0; i < e->nargs; i++) {
    v[i] = cat_eval(r, e->args[i], f);
    events &= v[i]->kind == V_EVENT;
    pairs &= v[i]->kind == V_PAIR;
  }
  if (events) {
    Value *s = val_new_set(r);
    for (int i = 0; i < e->nargs; i++) bit_set(s->u.bits, v[i]->u.ev);
    return s;
  }
  if (pairs) {
    Value *s = val_new_rel(r);
    for (int i = 0; i < e->nargs; i++)
      rel_set(r->d, s->u.bits, v[i]->u.pair.a, v[i]->u.pair.b);
    return s;
  }
  return mk_vset(r, v, e->nargs);
}

/* Pick the smallest element of a non-empty set-like value, and the rest. */
static void set_split(Run *r, Value *s, Value **elt, Value **rest, SrcPos pos) {
  s = lazy_force(r, s);
  if (s->kind == V_UNIV) s = r->univ_set;
  if (s->kind == V_SET) {
    int i = set_first(r->d, s->u.bits);
    Value *x = val_new(r, V_EVENT);
    x->u.ev = i;
    Value *y = val_new_set(r);
    set_copy(r->d, y->u.bits, s->u.bits);
    bit_clr(y->u.bits, i);
    *elt = x;
    *rest = y;
    return;
  }
  if (s->kind == V_REL) {
    for (int i = 0; i < r->d.n; i++) {
      const Word *row = rel_crow(r->d, s->u.bits, i);
      int j = set_next(r->d, row, 0);
      if (j < 0) continue;
      Value *x = val_new(r, V_PAIR);
      x->u.pair.a = i;
      x->u.pair.b = j;
      Value *y = val_new_rel(r);
      rel_copy(r->d, y->u.bits, s->u.bits);
      bit_clr(rel_row(r->d, y->u.bits, i), j);
      *elt = x;
      *rest = y;
      return;
    }
  }
  if (s->kind == V_VSET && s->n > 0) {
    *elt = s->u.elems[0];
    Value *y = val_new(r, V_VSET);
    y->n = s->n - 1;
    y->u.elems = s->u.elems + 1;
    *rest = y;
    return;
  }
  cat_error(r, pos, "internal error: splitting an empty set");
}

static bool value_is_empty(Run *r, Value *v, SrcPos pos) {
  switch (v->kind) {
  case V_LIN:
  case V_PROD:
    return lazy_is_empty(v);
  case V_EMPTY:
    return true;
  case V_UNIV:
    return set_is_empty(r->d, r->univ);
  case V_SET:
    return set_is_empty(r->d, v->u.bits);
  case V_REL:
    return rel_is_empty(r->d, v->u.bits);
  case V_VSET:
    return v->n == 0;
  case V_EVENT:
  case V_PAIR:
    return false;
  default:
    cat_error(r, pos, "type error: set or relation expected, %s found",
              kind_name(v->kind));
  }
}

static Value *eval_match_set(Run *r, const CExpr *e, Frame *f) {
  Value *s = cat_eval(r, e->a, f);
  if (value_is_empty(r, s, e->pos)) return cat_eval(r, e->e_empty, f);
  Value *elt, *rest;
  set_split(r, s, &elt, &rest, e->pos);
  if (e->before >= 0) set_local(r, f, e->before, &EMPTY_V);
  set_local(r, f, e->elt, elt);
  set_local(r, f, e->rest, rest);
  return cat_eval(r, e->e_cons, f);
}

static bool is_empty_value(Run *r, const Value *v) {
  switch (v->kind) {
  case V_EMPTY:
    return true;
  case V_SET:
    return set_is_empty(r->d, v->u.bits);
  case V_REL:
    return rel_is_empty(r->d, v->u.bits);
  default:
    return false;
  }
}

/* Is operand e cheap to get now: independent of `with` choices (so usually
 * cached), or a name whose value is already computed?  (The analysis
 * cannot tell that `strong = try fencerel(SYNC) with 0` does not depend on
 * coherence: it gives up at function calls.) */
static bool cheap_now(const Run *r, const CExpr *e) {
  return e->indep || (e->kind == CV_GLOBAL && r->g[e->slot].state == SLOT_VALUE);
}

/* a ; b ; ... : cheap operands are evaluated first, and an empty one ends
 * the work. */
static Value *eval_seq(Run *r, const CExpr *e, Frame *f) {
  Value *buf[16];
  Value **v = e->nargs <= 16 ? buf : arena_alloc(run_cur(r), sizeof(Value *) * (size_t)e->nargs);
  bool cheap[16];
  for (int i = 0; i < e->nargs && i < 16; i++) cheap[i] = cheap_now(r, e->args[i]);
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < e->nargs; i++) {
      if ((pass == 0) != (i < 16 ? cheap[i] : e->args[i]->indep != 0)) continue;
      v[i] = cat_eval(r, e->args[i], f);
      if (is_empty_value(r, v[i])) return &EMPTY_V;
    }
  Value *acc = v[e->nargs - 1];
  for (int i = e->nargs - 2; i >= 0; i--) acc = compose(r, v[i], acc, e->pos);
  return acc;
}

static Value *eval_inter(Run *r, const CExpr *e, Frame *f) {
  const CExpr *first = e->a, *second = e->b;
  if (!cheap_now(r, first) && cheap_now(r, second)) first = e->b, second = e->a;
  Value *x = cat_eval(r, first, f);
  if (is_empty_value(r, x)) return &EMPTY_V;
  Value *y = cat_eval(r, second, f);
  return first == e->a ? set_algebra(r, OP_INTER, x, y, e->pos)
                       : set_algebra(r, OP_INTER, y, x, e->pos);
}

static Value *eval_node(Run *r, const CExpr *e, Frame *f);

/* Closed expressions (analyse.c) keep their value while the structure
 * (stage 0), the rf choice (stage 1) or the final writes (stage 2) they
 * depend on stay the same, or (stage 3) until a with variable is bound
 * again: inside one branch, the rounds of a let rec reuse its closed
 * operands.  A stage 3 value stays where it was made, in an arena of the
 * branch, which is reset only before the next binding makes it stale. */
static Value *eval_cached(Run *r, const CExpr *e, Frame *f) {
  ECache *c = &r->ecache[e->cache];
  if (c->v && (c->stage <= STAGE_FW ? c->gen == run_stage_gen(r, c->stage) : c->gen == r->gen_co)) {
    if (c->stage > r->wm) r->wm = c->stage;
    return c->v;
  }
  int saved = r->wm;
  r->wm = STAGE_ES;
  Value *v = eval_node(r, e, f);
  int st = r->wm;
  r->wm = MAX(saved, st);
  if (st <= STAGE_FW && !val_has_closure(v)) {
    c->v = val_cache_copy(r, st, r->level, v);
    c->stage = (uint8_t)st;
    c->gen = run_stage_gen(r, st);
  } else if (st == STAGE_CO && !val_has_closure(v)) {
    c->v = v;
    c->stage = STAGE_CO;
    c->gen = r->gen_co;
  }
  return v;
}

Value *cat_eval(Run *r, const CExpr *e, Frame *f) {
  if (e->cache >= 0) return eval_cached(r, e, f);
  return eval_node(r, e, f);
}

static Value *eval_node(Run *r, const CExpr *e, Frame *f) {
  run_poll(r, 1);
  switch (e->kind) {
  case E_ZERO:
    return val_new_rel(r);
  case E_EMPTY:
    return &EMPTY_V;
  case E_UNIV:
    return &UNIV_V;
  case CV_GLOBAL:
    return force_global(r, e->slot, e->pos);
  case CV_LOCAL:
    return force_local(r, frame_up(f, e->depth), e->slot, e->pos);
  case CV_PREDEF:
    return predef_lookup(r, e->name, e->pos, NULL);
  case CV_PRIM: {
    Value *v = val_new(r, V_PRIM);
    v->u.prim = e->slot;
    return v;
  }
  case CV_TAGERR:
    cat_error(r, e->pos, "tag '%s is undefined", name_of(r, e->name));
  case CV_PROJ: {
    Value *t = cat_eval(r, e->a, f);
    if (t->kind == V_TUPLE && e->slot < t->n) return t->u.elems[e->slot];
    if (t->kind == V_PAIR && e->slot < 2) {
      Value *x = val_new(r, V_EVENT);
      x->u.ev = e->slot == 0 ? t->u.pair.a : t->u.pair.b;
      return x;
    }
    cat_error(r, e->pos, "type error: tuple expected, %s found", kind_name(t->kind));
  }
  case E_TAG: {
    Value *v = val_new(r, V_TAG);
    v->n = e->tag_type;
    v->u.tag = e->tag;
    return v;
  }
  case E_SET:
    return eval_set_literal(r, e, f);
  case E_TUPLE: {
    Value *v = val_new(r, V_TUPLE);
    v->n = e->nargs;
    v->u.elems = arena_alloc(run_cur(r), sizeof(Value *) * (size_t)(e->nargs + 1));
    for (int i = 0; i < e->nargs; i++) v->u.elems[i] = cat_eval(r, e->args[i], f);
    return v;
  }
  case E_UNION: {
    Value *acc = cat_eval(r, e->args[0], f);
    for (int i = 1; i < e->nargs; i++)
      acc = set_algebra(r, OP_UNION, acc, cat_eval(r, e->args[i], f), e->pos);
    return acc;
  }
  case E_SEQ:
    return eval_seq(r, e, f);
  case E_INTER:
    return eval_inter(r, e, f);
  case E_DIFF: {
    /* an empty left operand ends the work (the data-race relations of
     * linux-kernel.cat, `(pre-race & co) \ ww-nonrace`, when no access
     * is plain) */
    Value *x = cat_eval(r, e->a, f);
    if (is_empty_value(r, x)) return x;
    return set_algebra(r, OP_DIFF, x, cat_eval(r, e->b, f), e->pos);
  }
  case E_PROD:
    return product(r, cat_eval(r, e->a, f), cat_eval(r, e->b, f), e->pos);
  case E_ADD: {
    Value *x = cat_eval(r, e->a, f);
    return add_elem(r, x, cat_eval(r, e->b, f), e->pos);
  }
  case E_STAR:
  case E_PLUS:
  case E_OPT:
    return closure_op(r, cat_eval(r, e->a, f), e->kind, e->pos);
  case E_INV:
    return inverse(r, cat_eval(r, e->a, f), e->pos);
  case E_COMPL:
    return complement(r, cat_eval(r, e->a, f), e->pos);
  case E_BRACKET: {
    Value *s = cat_eval(r, e->a, f);
    if (s->kind == V_EMPTY) return &EMPTY_V;
    return identity_of(r, as_set(r, s, e->pos)->u.bits);
  }
  case E_APP: {
    Value *fv = cat_eval(r, e->a, f);
    Value *arg = cat_eval(r, e->b, f);
    return apply(r, fv, arg, e->pos);
  }
  case E_FUN: {
    Value *v = val_new(r, V_CLOSURE);
    Closure *c = arena_alloc(run_cur(r), sizeof(Closure));
    c->fn = e->fun;
    c->env = f;
    v->u.clo = c;
    return v;
  }
  case E_LET:
    for (int i = 0; i < e->nbinds; i++) {
      const CBind *b = &e->binds[i];
      if (!b->pat.is_tuple) {
        if (b->pat.slot < 0) continue;
        f->s[b->pat.slot].state = SLOT_THUNK;
        f->s[b->pat.slot].e = b->e;
      } else {
        bind_pat(r, f, &b->pat, cat_eval(r, b->e, f), e->pos);
      }
    }
    return cat_eval(r, e->a, f);
  case E_LETREC:
    letrec_local(r, e, f);
    return cat_eval(r, e->a, f);
  case E_TRY:
    return eval_try(r, e, f);
  case E_IF:
    return cond_eval(r, e->cond, f, e->pos) ? cat_eval(r, e->a, f)
                                            : cat_eval(r, e->b, f);
  case E_MATCH_TAG: {
    Value *t = cat_eval(r, e->a, f);
    if (t->kind != V_TAG)
      cat_error(r, e->pos, "type error: tag expected, %s found", kind_name(t->kind));
    for (int i = 0; i < e->nclauses; i++)
      if (e->clauses[i].tag == t->u.tag) return cat_eval(r, e->clauses[i].e, f);
    if (e->dflt) return cat_eval(r, e->dflt, f);
    cat_error(r, e->pos, "pattern matching failed");
  }
  case E_MATCH_SET:
    return eval_match_set(r, e, f);
  default:
    cat_error(r, e->pos, "internal error: cannot evaluate node %d", e->kind);
  }
}
