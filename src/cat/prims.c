/*
 * prims.c — the primitive functions of cat (cat.md §4.3).
 *
 * Primitives receive one value (a tuple when called with several
 * arguments).  Those that need facts about events (locations, values) ask
 * the engine through predefined names (`loc`) or the host callbacks.
 */
#include <stdlib.h>
#include <string.h>

#include "cprog.h"

enum {
  P_DOMAIN,
  P_RANGE,
  P_CLASSES_LOC,
  P_CLASSES,
  P_LINEARISATIONS,
  P_TAG2EVENTS,
  P_DIFFERENT_VALUES,
  P_AS_TRANSITIVE,
  P_INTER_TRANSITIVE,
  P_FAIL,
  P_INTERVENING,
  P_SAME_OA,
  P_OA_CHANGES,
  P_WRITABLE,
  P_TAG2SCOPE,
  P_TAG2LEVEL,
  P_PARTIAL_COS,
  P_TOTAL_COS,
  P_ORDERS_WITHIN,
  P_BISIMULATION,
  P_FROMTO,
  P_LOC2EVENTS,
  P_UNSUPPORTED_FIRST,
  P_LIFT = P_UNSUPPORTED_FIRST,
  P_DELIFT,
  P_DELIFTINTER,
  P_TAG2FENCED,
  P_COUNT
};

static const char *const prim_names[P_COUNT] = {
    "domain",     "range",          "classes-loc",     "classes",
    "linearisations", "tag2events", "different-values", "as_transitive",
    "inter_transitive", "fail",     "intervening",     "same-oa",
    "oa-changes", "at-least-one-writable", "tag2scope", "tag2level",
    "partial-cos", "total-cos", "orders-within", "bisimulation",
    "fromto",     "loc2events",     "lift",
    "delift",     "deliftinter",    "tag2fenced",
};

/* oa-changes(S, r), at-least-one-writable(S, r): the writes w of S to a
 * page-table entry with exactly one r-successor p such that the entries
 * of w and p have different output addresses / one of them is writable
 * (herd's writable2, with w's thread's TTHM= flags; an error when w is of
 * no thread, an initial write or a spurious update). */
/* herd's PteVal.writable: access allowed (af, or HA) and write allowed
 * (db, or dbm with HD); bits PTE_AF 0, PTE_DB 1, PTE_DBM 2 (litmus.h). */
static bool pte_writable(unsigned bits, unsigned hw) {
  return ((bits & 1u) || (hw & PTE_HW_HA)) && ((bits & 2u) || ((bits & 4u) && (hw & PTE_HW_HD)));
}

static Value *prim_pte_pairs(Run *r, int prim, Value *sv, Value *x, SrcPos pos) {
  Value *z = val_new_set(r);
  if (!r->host.pte_value) return z;
  for (int w = set_next(r->d, sv->u.bits, 0); w >= 0; w = set_next(r->d, sv->u.bits, w + 1)) {
    const Word *row = rel_crow(r->d, x->u.bits, w);
    int p = set_next(r->d, row, 0);
    if (p < 0 || set_next(r->d, row, p + 1) >= 0) continue;
    int oaw, oap;
    unsigned bw, bp;
    if (!r->host.pte_value(r->host.ctx, w, true, &oaw, &bw)) continue;
    bool hp = r->host.pte_value(r->host.ctx, p, false, &oap, &bp);
    bool keep;
    if (prim == P_OA_CHANGES) {
      keep = !hp || oaw != oap;
    } else {
      /* herd's writable2: with the flags management of w's thread */
      unsigned hw = r->host.pte_hw ? r->host.pte_hw(r->host.ctx, w) : 0;
      if (hw & PTE_HW_NO_THREAD)
        cat_error(r, pos, "Init or spurious write as first argument of writable2");
      keep = pte_writable(bw, hw) || (hp && pte_writable(bp, hw));
    }
    if (keep) bit_set(z->u.bits, w);
  }
  if (r->wm < STAGE_RF) r->wm = STAGE_RF;
  return z;
}

int prim_lookup(const char *name) {
  for (int i = 0; i < P_COUNT; i++)
    if (strcmp(prim_names[i], name) == 0) return i;
  return -1;
}

int8_t *prim_table(const Interner *in) {
  int8_t *t = xmalloc((size_t)in->count + 1);
  memset(t, -1, (size_t)in->count + 1);
  for (int i = 0; i < P_COUNT; i++) {
    int id = intern_find(in, prim_names[i]);
    if (id >= 0) t[id] = (int8_t)i;
  }
  return t;
}

bool prim_is_different_values(int prim) { return prim == P_DIFFERENT_VALUES; }

const char *prim_name(int p) { return p >= 0 && p < P_COUNT ? prim_names[p] : "?"; }

static Value *args2(Run *r, Value *arg, int i, SrcPos pos) {
  if (arg->kind != V_TUPLE || arg->n != 2)
    cat_error(r, pos, "type error: two arguments expected");
  return arg->u.elems[i];
}

/* Partition of set s by the equivalence relation eq (restricted to s). */
static Value *partition(Run *r, const Word *s, const Word *eq) {
  Dim d = r->d;
  Word *left = arena_alloc(run_cur(r), sizeof(Word) * (size_t)d.w);
  set_copy(d, left, s);
  VEC(Value *) out = {0};
  for (int i = set_first(d, left); i >= 0; i = set_first(d, left)) {
    Value *c = val_new_set(r);
    set_and(d, c->u.bits, rel_crow(d, eq, i), left);
    bit_set(c->u.bits, i);
    set_andnot(d, left, left, c->u.bits);
    vec_push(out, c);
  }
  Value *v = val_vset(r, out.data, out.len);
  vec_free(out);
  return v;
}

/* linearisations(S, r): all strict total orders of S extending r.  Large,
 * so kept lazy (lazy.c) unless it is trivially small or empty. */
/* Linearisations of the same set and order restricted to it are asked
 * again at every candidate (one location's writes, whose order often does
 * not depend on the rf choice).  One entry per first event of S, filled
 * once per structure and never replaced, so that a value handed out stays
 * valid. */
typedef struct LinMemo {
  Word *set, *key;     /* S, and the order's rows of S restricted to S (a
                          row per event of S, as in a V_LIN) */
  Value *v;            /* the V_LIN, in the structure's cache */
} LinMemo;

static bool lin_memo_match(Dim d, const LinMemo *m, const Word *s, const Word *rel) {
  if (!m->v || !set_equal(d, m->set, s)) return false;
  const Word *key = m->key;
  for (int i = set_next(d, s, 0); i >= 0; i = set_next(d, s, i + 1), key += d.w)
    for (int x = 0; x < d.w; x++)
      if ((rel_crow(d, rel, i)[x] & s[x]) != key[x]) return false;
  return true;
}

static void lin_memo_fill(Run *r, LinMemo *m, const Word *s, const Word *rel, const Value *lin) {
  Dim d = r->d;
  m->set = arena_alloc(&r->es_cache, sizeof(Word) * (size_t)d.w);
  set_copy(d, m->set, s);
  m->key = arena_alloc(&r->es_cache, sizeof(Word) * lin_words(d, set_count(d, s)));
  Word *key = m->key;
  for (int i = set_next(d, s, 0); i >= 0; i = set_next(d, s, i + 1), key += d.w)
    set_and(d, key, rel_crow(d, rel, i), s);
  m->v = val_copy_deep(r, &r->es_cache, lin);
}

Value *prim_linearisations(Run *r, Value *sv, Value *rv, SrcPos pos) {
  Value *s = as_set(r, sv, pos), *rel = as_rel(r, rv, pos);
  Dim d = r->d;
  int n = set_count(d, s->u.bits);
  LinMemo *m = NULL;
  if (n >= 2) {
    if (r->lin_memo_gen != r->gen_es) {
      r->lin_memo = arena_zalloc(&r->es_cache, sizeof(LinMemo) * (size_t)d.n);
      r->lin_memo_gen = r->gen_es;
    }
    m = &((LinMemo *)r->lin_memo)[set_first(d, s->u.bits)];
    if (lin_memo_match(d, m, s->u.bits, rel->u.bits)) return m->v;
  }
  Value *lin = lazy_lin(r, s->u.bits, rel->u.bits);
  /* the closed order has pairs on S only: S's rows tell whether it is
   * irreflexive (acyclic) */
  bool irrefl = true;
  for (int i = set_next(d, s->u.bits, 0); i >= 0 && irrefl; i = set_next(d, s->u.bits, i + 1))
    irrefl = !lin_get(d, lin->u.lazy->order, s->u.bits, i, i);
  if (n >= 2 && irrefl) {
    if (!m->v) lin_memo_fill(r, m, s->u.bits, rel->u.bits, lin);
    return lin;
  }
  /* r is cyclic on S: no order; one event or none: the empty order */
  if (n >= 2) return val_vset(r, NULL, 0);
  Value *zero = val_new_rel(r);
  return val_vset(r, &zero, 1);
}

/* bisimulation(t, e0): the greatest e included in e0 such that two events
 * e relates have successors by t that e matches both ways: when x e y,
 * every t-successor x' of x has a t-successor y' of y with y' e x', and
 * symmetrically.  A pair (x,x) of e0 is never dropped.  Refined from e0
 * one round at a time, every pair judged against the previous round's e,
 * until a round drops nothing.
 *
 * With img = t;e (img(x) is everything e relates to a t-successor of x),
 * "every t-successor of x is matched by one of y" is t(x) <= img(y). */
static Value *bisimulation(Run *r, Value *tv, Value *ev, SrcPos pos) {
  Dim d = r->d;
  const Word *t = as_rel(r, tv, pos)->u.bits;
  Value *e = val_new_rel(r);
  rel_copy(d, e->u.bits, as_rel(r, ev, pos)->u.bits);
  Word *img = arena_alloc(run_cur(r), sizeof(Word) * (size_t)rel_words(d));
  Word *next = arena_alloc(run_cur(r), sizeof(Word) * (size_t)rel_words(d));
  for (;;) {
    rel_compose(d, img, t, e->u.bits);
    rel_clear(d, next);
    for (int x = 0; x < d.n; x++) {
      run_poll(r, (unsigned)(d.n * d.w / 64 + 1));
      const Word *row = rel_crow(d, e->u.bits, x);
      for (int y = set_next(d, row, 0); y >= 0; y = set_next(d, row, y + 1))
        if (x == y || (set_subset(d, rel_crow(d, t, x), rel_crow(d, img, y)) &&
                       set_subset(d, rel_crow(d, t, y), rel_crow(d, img, x))))
          rel_set(d, next, x, y);
    }
    if (rel_equal(d, next, e->u.bits)) return e;
    rel_copy(d, e->u.bits, next);
  }
}

static Value *predef_by_name(Run *r, const char *name, SrcPos pos) {
  int id = intern_find(&r->prog->names->in, name);
  bool found = false;
  Value *v = id >= 0 ? predef_lookup(r, id, pos, &found) : NULL;
  if (!found) return NULL;
  return v;
}

Value *prim_apply(Run *r, int prim, Value *arg, SrcPos pos) {
  switch (prim) {
  case P_DOMAIN:
  case P_RANGE: {
    if (arg->kind == V_EMPTY) return val_new_set(r);
    if (arg->kind == V_UNIV) return r->univ_set;
    Value *x = as_rel(r, arg, pos), *s = val_new_set(r);
    if (prim == P_DOMAIN)
      rel_domain(r->d, s->u.bits, x->u.bits);
    else
      rel_range(r->d, s->u.bits, x->u.bits);
    return s;
  }
  case P_CLASSES_LOC: {
    Value *s = as_set(r, arg, pos);
    int saved_wm = r->wm;
    r->wm = STAGE_ES;
    Value *loc = predef_by_name(r, "loc", pos);
    int loc_stage = r->wm;
    r->wm = MAX(saved_wm, loc_stage);
    if (!loc || loc->kind != V_REL) cat_error(r, pos, "classes-loc: no locations");
    /* While loc is the structure's, the classes of a set are too: the
     * models ask for those of W at every candidate. */
    bool memo = loc_stage == STAGE_ES;
    if (memo && r->part_val && r->part_gen == r->gen_es && set_equal(r->d, r->part_arg, s->u.bits))
      return r->part_val;
    /* Events without a location (fences...) are dropped. */
    Word *with_loc = arena_alloc(run_cur(r), sizeof(Word) * (size_t)r->d.w);
    rel_domain(r->d, with_loc, loc->u.bits);
    set_and(r->d, with_loc, with_loc, s->u.bits);
    Value *v = partition(r, with_loc, loc->u.bits);
    if (memo) {
      r->part_arg = arena_alloc(&r->es_cache, sizeof(Word) * (size_t)r->d.w);
      set_copy(r->d, r->part_arg, s->u.bits);
      r->part_val = val_copy_deep(r, &r->es_cache, v);
      r->part_gen = r->gen_es;
    }
    return v;
  }
  case P_CLASSES: {
    Value *x = as_rel(r, arg, pos);
    Word *dom = arena_alloc(run_cur(r), sizeof(Word) * (size_t)r->d.w);
    rel_domain(r->d, dom, x->u.bits);
    return partition(r, dom, x->u.bits);
  }
  case P_PARTIAL_COS: return prim_partial_cos(r, arg, pos);
  case P_TOTAL_COS: return prim_total_cos(r, arg, pos);
  case P_ORDERS_WITHIN: return prim_orders_within(r, arg, pos);
  case P_LINEARISATIONS:
    return prim_linearisations(r, args2(r, arg, 0, pos), args2(r, arg, 1, pos), pos);
  case P_TAG2EVENTS: {
    if (arg->kind != V_TAG) cat_error(r, pos, "type error: tag expected");
    const EnumType *et = &r->prog->enums[arg->n];
    const char *t = intern_name(&r->prog->names->in, et->tags[arg->u.tag]);
    char buf[256];
    size_t n = strlen(t);
    if (n + 1 > sizeof buf) cat_error(r, pos, "tag name too long");
    memcpy(buf, t, n + 1);
    if (buf[0] >= 'a' && buf[0] <= 'z') buf[0] = (char)(buf[0] - 'a' + 'A');
    Value *v = predef_by_name(r, buf, pos);
    return v ? v : val_new_set(r);
  }
  case P_TAG2SCOPE:
  case P_TAG2LEVEL: {
    /* the relation the test's scope tree binds to the tag's name */
    if (arg->kind != V_TAG) cat_error(r, pos, "type error: tag expected");
    const EnumType *et = &r->prog->enums[arg->n];
    const char *t = intern_name(&r->prog->names->in, et->tags[arg->u.tag]);
    Value *v = predef_by_name(r, t, pos);
    if (!v)
      cat_error(r, pos, "cannot find scope instance %s (the litmus test might be "
                "missing a scope tree declaration)", t);
    return v;
  }
  case P_DIFFERENT_VALUES: {
    Value *x = as_rel(r, arg, pos), *z = val_new_rel(r);
    for (int i = 0; i < r->d.n; i++) {
      const Word *row = rel_crow(r->d, x->u.bits, i);
      for (int j = set_next(r->d, row, 0); j >= 0; j = set_next(r->d, row, j + 1))
        if (!r->host.same_value(r->host.ctx, i, j)) rel_set(r->d, z->u.bits, i, j);
    }
    if (r->wm < STAGE_RF) r->wm = STAGE_RF; /* values come from rf */
    return z;
  }
  case P_AS_TRANSITIVE:
    return arg;
  case P_INTER_TRANSITIVE: {
    Value *a = as_rel(r, args2(r, arg, 0, pos), pos);
    Value *b = as_rel(r, args2(r, arg, 1, pos), pos);
    Value *z = val_new_rel(r);
    rel_copy(r->d, z->u.bits, a->u.bits);
    rel_closure(r->d, z->u.bits);
    rel_and(r->d, z->u.bits, z->u.bits, b->u.bits);
    return z;
  }
  case P_INTERVENING: {
    /* intervening(S, r): the pairs of r with an event of S r-between. */
    Value *sv = as_set(r, args2(r, arg, 0, pos), pos);
    Value *x = as_rel(r, args2(r, arg, 1, pos), pos);
    Value *mid = val_new_rel(r), *z = val_new_rel(r);
    rel_restrict(r->d, mid->u.bits, x->u.bits, r->univ_set->u.bits, sv->u.bits);
    rel_compose(r->d, z->u.bits, mid->u.bits, x->u.bits);
    return z;
  }
  /* The page-table utilities (-variant kvm) read the entries events
   * access (CatHost.pte_value). */
  case P_SAME_OA: {
    Value *x = as_rel(r, arg, pos), *z = val_new_rel(r);
    if (!r->host.pte_value) return z;
    for (int i = 0; i < r->d.n; i++) {
      const Word *row = rel_crow(r->d, x->u.bits, i);
      int oa1, oa2;
      unsigned b1, b2;
      if (set_next(r->d, row, 0) < 0 || !r->host.pte_value(r->host.ctx, i, false, &oa1, &b1)) continue;
      for (int j = set_next(r->d, row, 0); j >= 0; j = set_next(r->d, row, j + 1))
        if (r->host.pte_value(r->host.ctx, j, false, &oa2, &b2) && oa1 == oa2) rel_set(r->d, z->u.bits, i, j);
    }
    if (r->wm < STAGE_RF) r->wm = STAGE_RF;
    return z;
  }
  case P_OA_CHANGES:
  case P_WRITABLE:
    return prim_pte_pairs(r, prim, as_set(r, args2(r, arg, 0, pos), pos),
                          as_rel(r, args2(r, arg, 1, pos), pos), pos);
  case P_FROMTO: {
    /* fromto(S): for each fence f of S, every event po-before f with
     * every event po-after f. */
    Value *sv = as_set(r, arg, pos);
    Value *po = predef_by_name(r, "po", pos), *f = predef_by_name(r, "F", pos);
    Value *z = val_new_rel(r);
    if (!po || !f || po->kind != V_REL || f->kind != V_SET) return z;
    Dim d = r->d;
    Word *fs = arena_alloc(run_cur(r), sizeof(Word) * (size_t)d.w);
    Word *before = arena_alloc(run_cur(r), sizeof(Word) * (size_t)d.w);
    set_and(d, fs, sv->u.bits, f->u.bits);
    for (int x = set_next(d, fs, 0); x >= 0; x = set_next(d, fs, x + 1)) {
      run_poll(r, (unsigned)(d.n * d.w / 64 + 1));
      set_clear(d, before);
      for (int i = 0; i < d.n; i++)
        if (rel_get(d, po->u.bits, i, x)) bit_set(before, i);
      for (int i = set_next(d, before, 0); i >= 0; i = set_next(d, before, i + 1))
        set_or(d, rel_row(d, z->u.bits, i), rel_row(d, z->u.bits, i), rel_crow(d, po->u.bits, x));
    }
    return z;
  }
  case P_LOC2EVENTS: {
    /* loc2events(tag): the memory events at the location the tag names */
    if (arg->kind != V_TAG) cat_error(r, pos, "type error: tag expected");
    const EnumType *et = &r->prog->enums[arg->n];
    const char *t = intern_name(&r->prog->names->in, et->tags[arg->u.tag]);
    predef_by_name(r, "loc", pos); /* the result changes when loc does */
    Value *z = val_new_set(r);
    if (r->host.at_location)
      for (int i = 0; i < r->d.n; i++)
        if (r->host.at_location(r->host.ctx, i, t)) bit_set(z->u.bits, i);
    return z;
  }
  case P_BISIMULATION:
    return bisimulation(r, args2(r, arg, 0, pos), args2(r, arg, 1, pos), pos);
  case P_FAIL:
    cat_error(r, pos, "fail");
  default:
    cat_error(r, pos, "primitive %s is not supported", prim_name(prim));
  }
}
