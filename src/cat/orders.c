/*
 * orders.c — the order-enumerating primitives GPU models need beyond
 * herd7's library (../shared/gpu/README.md, "Execution semantics"):
 *
 *   partial-cos(S, base, MAX)  every coherence that is a strict partial
 *       order per location: for each location, a transitive irreflexive
 *       order on the events of S there that contains base and in which no
 *       event of MAX has a successor; one relation per combination of
 *       locations.  PTX's co is not total (its models close it with co+),
 *       and a location's final value is that of one co-maximal write.
 *   total-cos(S, base)  the same with a total order per location (what
 *       herd7's generate_cos gives), for Vulkan.
 *   orders-within(S, r)  { L & r | L a strict total order of S }: PTX's
 *       sync_fence, a total order on the SC fences whose scopes include
 *       each other, chosen like co.
 *
 * Sets are small (a litmus test's writes to one location, its SC
 * fences), so the values are listed, not kept lazy; a location with more
 * events than ORD_MAX is refused with an error rather than enumerated for
 * ever.
 */
#include <stdlib.h>
#include <string.h>

#include "cprog.h"

enum { ORD_MAX = 7 };

typedef struct OrdList {
  Run *r;
  VEC(Word *) v;
} OrdList;

/* Orders of the n events ev[] that contain base and leave MAX events
 * without successors, as n x n bit masks m[i] (j in m[i]: ev[i] < ev[j]). */
typedef struct OrdGen {
  int n;
  int ev[ORD_MAX];
  unsigned need[ORD_MAX];   /* base pairs */
  unsigned maxset;          /* events that must stay maximal */
  bool total;
  unsigned m[ORD_MAX];
  /* every order found, n masks each */
  VEC(unsigned) found;
} OrdGen;

static bool transitive(const OrdGen *g) {
  for (int i = 0; i < g->n; i++)
    for (int j = 0; j < g->n; j++)
      if ((g->m[i] >> j) & 1)
        if ((g->m[j] & ~g->m[i]) != 0) return false;
  return true;
}

/* Decide pair k of the unordered pairs (i<j) in turn: unordered (partial
 * orders only), i before j, or j before i. */
static void gen_pairs(OrdGen *g, int i, int j) {
  if (j >= g->n) {
    i++;
    j = i + 1;
  }
  if (i >= g->n - 1) {
    if (transitive(g))
      for (int k = 0; k < g->n; k++) vec_push(g->found, g->m[k]);
    return;
  }
  bool ij = (g->need[i] >> j) & 1, ji = (g->need[j] >> i) & 1;
  bool ij_ok = !((g->maxset >> i) & 1), ji_ok = !((g->maxset >> j) & 1);
  if (ij && ji) return;
  if (!ij && !ji && !g->total) gen_pairs(g, i, j + 1);
  if (!ji && ij_ok) {
    g->m[i] |= 1u << j;
    gen_pairs(g, i, j + 1);
    g->m[i] &= ~(1u << j);
  }
  if (!ij && ji_ok) {
    g->m[j] |= 1u << i;
    gen_pairs(g, i, j + 1);
    g->m[j] &= ~(1u << i);
  }
}

/* The location classes of S (events without a location are dropped). */
static Value *loc_classes(Run *r, Value *s, SrcPos pos) {
  int prim = prim_lookup("classes-loc");
  return prim_apply(r, prim, s, pos);
}

/* All orders of one class as relations (d x d words each). */
static void class_orders(Run *r, const Word *cls, const Word *base, const Word *maxs,
                         bool total, SrcPos pos, OrdList *out) {
  Dim d = r->d;
  OrdGen g;
  memset(&g, 0, sizeof g);
  g.total = total;
  for (int e = set_next(d, cls, 0); e >= 0; e = set_next(d, cls, e + 1)) {
    if (g.n == ORD_MAX)
      cat_error(r, pos, "too many events at one location to enumerate their orders (over %d)",
                ORD_MAX);
    g.ev[g.n++] = e;
  }
  for (int i = 0; i < g.n; i++) {
    for (int j = 0; j < g.n; j++)
      if (i != j && rel_get(d, base, g.ev[i], g.ev[j])) g.need[i] |= 1u << j;
    if (maxs && bit_get(maxs, g.ev[i])) g.maxset |= 1u << i;
  }
  if (g.n <= 1) {
    vec_push(g.found, 0u);
  } else {
    gen_pairs(&g, 0, 1);
  }
  int per = g.n <= 1 ? 1 : g.n;
  for (int k = 0; k + per <= g.found.len; k += per) {
    Word *rel = arena_zalloc(run_cur(r), sizeof(Word) * (size_t)rel_words(d));
    if (g.n > 1)
      for (int i = 0; i < g.n; i++)
        for (int j = 0; j < g.n; j++)
          if ((g.found.data[k + i] >> j) & 1) rel_set(d, rel, g.ev[i], g.ev[j]);
    vec_push(out->v, rel);
  }
  vec_free(g.found);
}

/* The cross product of each class's orders: their unions. */
static Value *cos_of(Run *r, Value *sv, Value *basev, Value *maxv, bool total, SrcPos pos) {
  Dim d = r->d;
  Value *base = as_rel(r, basev, pos);
  const Word *maxs = maxv ? as_set(r, maxv, pos)->u.bits : NULL;
  Value *classes = loc_classes(r, as_set(r, sv, pos), pos);
  VEC(Word *) acc = {0};
  Word *none = arena_zalloc(run_cur(r), sizeof(Word) * (size_t)rel_words(d));
  vec_push(acc, none);
  for (int c = 0; c < classes->n; c++) {
    Value *cls = as_set(r, classes->u.elems[c], pos);
    OrdList ol = {r, {0}};
    class_orders(r, cls->u.bits, base->u.bits, maxs, total, pos, &ol);
    VEC(Word *) next = {0};
    for (int a = 0; a < acc.len; a++)
      for (int b = 0; b < ol.v.len; b++) {
        Word *u = arena_alloc(run_cur(r), sizeof(Word) * (size_t)rel_words(d));
        rel_or(d, u, acc.data[a], ol.v.data[b]);
        vec_push(next, u);
      }
    vec_free(ol.v);
    vec_free(acc);
    acc.data = next.data;
    acc.len = next.len;
    acc.cap = next.cap;
    if (acc.len > 1000000) cat_error(r, pos, "too many coherence orders to enumerate");
  }
  Value **elems = arena_alloc(run_cur(r), sizeof(Value *) * (size_t)(acc.len + 1));
  for (int i = 0; i < acc.len; i++) {
    Value *v = val_new_rel(r);
    rel_copy(d, v->u.bits, acc.data[i]);
    elems[i] = v;
  }
  Value *out = val_vset(r, elems, acc.len);
  vec_free(acc);
  return out;
}

Value *prim_partial_cos(Run *r, Value *arg, SrcPos pos) {
  if (arg->kind != V_TUPLE || arg->n != 3)
    cat_error(r, pos, "type error: partial-cos(S, base, MAX) expected");
  return cos_of(r, arg->u.elems[0], arg->u.elems[1], arg->u.elems[2], false, pos);
}

Value *prim_total_cos(Run *r, Value *arg, SrcPos pos) {
  if (arg->kind != V_TUPLE || arg->n != 2)
    cat_error(r, pos, "type error: total-cos(S, base) expected");
  return cos_of(r, arg->u.elems[0], arg->u.elems[1], NULL, true, pos);
}

Value *prim_orders_within(Run *r, Value *arg, SrcPos pos) {
  if (arg->kind != V_TUPLE || arg->n != 2)
    cat_error(r, pos, "type error: orders-within(S, r) expected");
  Dim d = r->d;
  Value *s = as_set(r, arg->u.elems[0], pos), *rel = as_rel(r, arg->u.elems[1], pos);
  OrdGen g;
  memset(&g, 0, sizeof g);
  g.total = true;
  for (int e = set_next(d, s->u.bits, 0); e >= 0; e = set_next(d, s->u.bits, e + 1)) {
    if (g.n == ORD_MAX) cat_error(r, pos, "orders-within: more than %d events", ORD_MAX);
    g.ev[g.n++] = e;
  }
  if (g.n <= 1) {
    Value *z = val_new_rel(r);
    return val_vset(r, &z, 1);
  }
  gen_pairs(&g, 0, 1);
  int cnt = g.found.len / g.n;
  Value **elems = arena_alloc(run_cur(r), sizeof(Value *) * (size_t)(cnt + 1));
  for (int k = 0; k < cnt; k++) {
    Value *v = val_new_rel(r);
    for (int i = 0; i < g.n; i++)
      for (int j = 0; j < g.n; j++)
        if (((g.found.data[k * g.n + i] >> j) & 1) && rel_get(d, rel->u.bits, g.ev[i], g.ev[j]))
          rel_set(d, v->u.bits, g.ev[i], g.ev[j]);
    elems[k] = v;
  }
  vec_free(g.found);
  return val_vset(r, elems, cnt); /* sorts and removes duplicates */
}
