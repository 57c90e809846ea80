/*
 * lazy.c — value sets too large to list: linearisations and their cross
 * product.
 *
 * A coherence order is one total order per location; models enumerate
 * them as the cross product over locations of linearisations(W_loc, base).
 * For n writes to a location that is n! orders, and the product multiplies
 * them: IRIW with 7 writes per location would be 25 million relations.
 * Instead, linearisations() returns V_LIN (the event set and the order to
 * extend) and a recognised cross-product function returns V_PROD (its
 * factors).  `with co from` then walks the orders one decision at a time
 * (search.c), abandoning a partial order as soon as a check fails on it.
 * Any other use of a lazy value materialises it, so semantics never change.
 *
 * A V_LIN is kept canonical — the set S has at least two events and the
 * order is transitively closed and restricted to S — so two V_LIN values
 * denote the same set of orders exactly when their (S, order) are equal.
 */
#include <stdlib.h>
#include <string.h>

#include "cprog.h"

Value *lazy_lin(Run *r, const Word *s, const Word *order) {
  Dim d = r->d;
  Lazy *z = arena_zalloc(run_cur(r), sizeof(Lazy));
  z->set = arena_alloc(run_cur(r), sizeof(Word) * (size_t)d.w);
  set_copy(d, z->set, s);
  z->count = set_count(d, s);
  z->order = arena_zalloc(run_cur(r), sizeof(Word) * lin_words(d, z->count));
  Word *row = z->order;
  for (int i = set_next(d, s, 0); i >= 0; i = set_next(d, s, i + 1), row += d.w)
    set_and(d, row, rel_crow(d, order, i), s);
  /* close the order on S only: S is one location's writes, a handful */
  for (int k = set_next(d, s, 0); k >= 0; k = set_next(d, s, k + 1)) {
    run_poll(r, (unsigned)(z->count * d.w / 64 + 1)); /* S may be a long thread's writes */
    const Word *rk = lin_crow(d, z->order, s, k);
    row = z->order;
    for (int i = set_next(d, s, 0); i >= 0; i = set_next(d, s, i + 1), row += d.w)
      if (bit_get(row, k)) set_or(d, row, row, rk);
  }
  Value *v = val_new(r, V_LIN);
  v->u.lazy = z;
  return v;
}

Value *lazy_prod(Run *r, Value **factors, int n) {
  Lazy *z = arena_zalloc(run_cur(r), sizeof(Lazy));
  z->factors = arena_alloc(run_cur(r), sizeof(Value *) * (size_t)(n + 1));
  if (n) memcpy(z->factors, factors, sizeof(Value *) * (size_t)n);
  z->nfactors = n;
  Value *v = val_new(r, V_PROD);
  v->u.lazy = z;
  return v;
}

bool lazy_is_empty(const Value *v) {
  if (v->kind == V_LIN) return false; /* acyclic orders have an extension */
  if (v->kind == V_PROD) {
    for (int i = 0; i < v->u.lazy->nfactors; i++) {
      const Value *f = v->u.lazy->factors[i];
      if (f->kind == V_EMPTY || (f->kind == V_VSET && f->n == 0)) return true;
      if ((f->kind == V_LIN || f->kind == V_PROD) && lazy_is_empty(f)) return true;
    }
  }
  return false;
}

/* ------------------------------------------------------- materialising */

typedef struct Lister {
  Run *r;
  VEC(Value *) out;
} Lister;

/* Can e come next?  Every event ordered before it is placed. */
static bool lin_ready(Dim d, const Lazy *z, const Word *placed, int e) {
  for (int p = set_next(d, z->set, 0); p >= 0; p = set_next(d, z->set, p + 1))
    if (!bit_get(placed, p) && p != e && lin_get(d, z->order, z->set, p, e)) return false;
  return true;
}

static void list_lin(Lister *l, const Lazy *z, Word *placed, Word *cur) {
  Run *r = l->r;
  Dim d = r->d;
  int remaining = 0;
  for (int e = set_next(d, z->set, 0); e >= 0; e = set_next(d, z->set, e + 1)) {
    if (bit_get(placed, e)) continue;
    remaining++;
    if (!lin_ready(d, z, placed, e)) continue;
    run_poll(r, (unsigned)(z->count * d.w + 1)); /* n! orders: -timeout holds */
    bit_set(placed, e);
    Word *row = rel_row(d, cur, e);
    set_andnot(d, row, z->set, placed);
    list_lin(l, z, placed, cur);
    set_clear(d, row);
    bit_clr(placed, e);
  }
  if (remaining == 0) {
    Value *v = val_new_rel(r);
    rel_copy(d, v->u.bits, cur);
    vec_push(l->out, v);
  }
}

static Value *force_lin(Run *r, const Lazy *z) {
  Lister l = {r, {0}};
  Word *placed = arena_zalloc(run_cur(r), sizeof(Word) * (size_t)r->d.w);
  Word *cur = arena_zalloc(run_cur(r), sizeof(Word) * (size_t)rel_words(r->d));
  list_lin(&l, z, placed, cur);
  Value *v = val_vset(r, l.out.data, l.out.len);
  vec_free(l.out);
  return v;
}

static void list_prod(Lister *l, Value **factors, int n, int i, const Word *acc) {
  Run *r = l->r;
  if (i == n) {
    Value *v = val_new_rel(r);
    rel_copy(r->d, v->u.bits, acc);
    vec_push(l->out, v);
    return;
  }
  Value *f = lazy_force(r, factors[i]);
  if (f->kind != V_VSET) return; /* empty factor */
  Word *next = arena_alloc(run_cur(r), sizeof(Word) * (size_t)rel_words(r->d));
  for (int k = 0; k < f->n; k++) {
    Value *o = as_rel(r, f->u.elems[k], (SrcPos){0});
    rel_or(r->d, next, acc, o->u.bits);
    list_prod(l, factors, n, i + 1, next);
  }
}

Value *lazy_force(Run *r, Value *v) {
  if (v->kind != V_LIN && v->kind != V_PROD) return v;
  /* Not memoised: the lazy value may live in an arena that outlasts the
   * current one; forcing is the slow path anyway. */
  Lazy *z = v->u.lazy;
  Value *m;
  if (v->kind == V_LIN) {
    m = force_lin(r, z);
  } else {
    Lister l = {r, {0}};
    Word *acc = arena_zalloc(run_cur(r), sizeof(Word) * (size_t)rel_words(r->d));
    list_prod(&l, z->factors, z->nfactors, 0, acc);
    m = val_vset(r, l.out.data, l.out.len);
    vec_free(l.out);
  }
  return m;
}

/* The number of orders a V_LIN stands for, counted up to `cap` (every
 * prefix of a linearisation extends to one: no dead ends, so the walk
 * visits at most `cap` leaves). */
static long count_lin(Run *r, const Lazy *z, Word *placed, long cap) {
  Dim d = r->d;
  long n = 0;
  bool any = false;
  for (int e = set_next(d, z->set, 0); e >= 0 && n < cap; e = set_next(d, z->set, e + 1)) {
    if (bit_get(placed, e)) continue;
    any = true;
    if (!lin_ready(d, z, placed, e)) continue;
    run_poll(r, (unsigned)(z->count * d.w + 1));
    bit_set(placed, e);
    n += count_lin(r, z, placed, cap - n);
    bit_clr(placed, e);
  }
  return any ? n : 1;
}

/* Order on lazy values consistent with set equality (see above): two
 * V_LIN compare by their canonical form.  A V_LIN against a value that is
 * not lazy compares as the set of orders it stands for, a V_VSET, would:
 * by kind, then by size, without listing it unless the sizes are equal
 * (the other set's size bounds that list; a location of 1,000 writes has
 * 1000! orders, which no memory holds). */
int lazy_compare(Run *r, const Value *a, const Value *b) {
  if (a->kind == V_LIN && b->kind == V_LIN) {
    const Lazy *x = a->u.lazy, *y = b->u.lazy;
    int c = memcmp(x->set, y->set, sizeof(Word) * (size_t)r->d.w);
    if (c) return c;
    return memcmp(x->order, y->order, sizeof(Word) * lin_words(r->d, x->count));
  }
  if ((a->kind == V_LIN && !is_lazy(b)) || (b->kind == V_LIN && !is_lazy(a))) {
    int sign = a->kind == V_LIN ? 1 : -1;
    const Value *lin = a->kind == V_LIN ? a : b, *o = a->kind == V_LIN ? b : a;
    /* never empty: not equal to V_EMPTY, ordered by kind like a V_VSET */
    if (o->kind != V_VSET) return sign * (V_VSET < o->kind ? -1 : 1);
    Word *placed = arena_zalloc(run_cur(r), sizeof(Word) * (size_t)r->d.w);
    long n = count_lin(r, lin->u.lazy, placed, (long)o->n + 1);
    if (n != o->n) return sign * (n < o->n ? -1 : 1);
  }
  Value *fa = lazy_force(r, (Value *)a), *fb = lazy_force(r, (Value *)b);
  return val_compare(r, fa, fb);
}
