/*
 * witness.c — why a check failed (explain mode): the cycle, pair or event
 * that falsifies it, and a derivation of each of its edges as a path of
 * finer edges.
 *
 * A derivation follows the checked expression and the definitions of the
 * names it uses, guided by the values of this execution: a union goes into
 * an operand holding the edge, a sequence or a closure into a path through
 * its operands, a name into its definition.  Every step only enters nodes
 * whose value holds the edge it explains, so the fine path is correct by
 * construction.  It stops at leaves: predefined names, applications,
 * expressions with local variables, and the communication relations
 * (rf, co, fr and their parts), which are the vocabulary people read.
 */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "cprog.h"

enum { MAX_DEPTH = 64 };

typedef struct Wit {
  Run *r;
  Dim d;
  VEC(CatStep) st;
  const char *via;     /* innermost name entered */
  int depth;
} Wit;

static const char *gname(const Run *r, int slot) {
  int n = r->prog->global_name[slot];
  return n >= 0 ? intern_name(&r->prog->names->in, n) : NULL;
}

/* True when e mentions no frame slot, so that it can be evaluated alone. */
static bool closed(const CExpr *e) {
  if (!e) return true;
  switch (e->kind) {
  case CV_LOCAL:
  case CV_PROJ:
  case E_FUN:
  case E_LET:
  case E_LETREC:
  case E_MATCH_SET:
    return false;
  default:
    break;
  }
  for (int i = 0; i < e->nargs; i++)
    if (!closed(e->args[i])) return false;
  if (!closed(e->a) || !closed(e->b)) return false;
  if (e->cond && (!closed(e->cond->a) || !closed(e->cond->b))) return false;
  for (int i = 0; i < e->nclauses; i++)
    if (!closed(e->clauses[i].e)) return false;
  return closed(e->dflt);
}

/* The relation a closed expression denotes, or NULL. */
static const Word *eval_rel(Wit *w, const CExpr *e) {
  if (!closed(e)) return NULL;
  Frame *f = frame_new(w->r, 0, NULL);
  Value *v = lazy_force(w->r, cat_eval(w->r, e, f));
  switch (v->kind) {
  case V_REL:
  case V_EMPTY:
  case V_UNIV:
  case V_PAIR:
    return as_rel(w->r, v, e->pos)->u.bits;
  default:
    return NULL;
  }
}

/* The smallest named relation holding (a, b) among the operands of a
 * union `e` (or e itself), and the names they are unions of (strong-fence
 * = mb | gp gives mb), the innermost among equals; its size in *best.
 * NULL if none. */
static const char *smallest_part(Wit *w, const CExpr *e, int a, int b, int *best,
                                 int depth) {
  if (!e || depth > 8) return NULL;
  if (e->kind == E_UNION) {
    const char *found = NULL;
    for (int i = 0; i < e->nargs; i++) {
      const char *n = smallest_part(w, e->args[i], a, b, best, depth + 1);
      if (n) found = n;
    }
    return found;
  }
  const char *name = e->kind == CV_GLOBAL ? gname(w->r, e->slot) : NULL;
  const Word *v = name ? eval_rel(w, e) : NULL;
  if (!v || !rel_get(w->d, v, a, b)) return NULL;
  int c = rel_count(w->d, v);
  if (*best >= 0 && c > *best) return NULL;
  *best = c;
  const CExpr *def = w->r->prog->global_kind[e->slot] == GK_THUNK
                         ? w->r->prog->global_expr[e->slot] : NULL;
  const char *inner = def ? smallest_part(w, def, a, b, best, depth + 1) : NULL;
  return inner ? inner : name;
}

static void leaf(Wit *w, int a, int b, bool opaque) {
  CatStep s = {a, b, w->via, opaque};
  vec_push(w->st, s);
}

static int shortest_path(Wit *w, const Word *r, int a, int b, int *path) {
  int *scratch = arena_alloc(run_cur(w->r), sizeof(int) * (size_t)(2 * w->d.n + 1));
  return rel_shortest_path(w->d, r, a, b, path, scratch);
}

static void derive(Wit *w, const CExpr *e, int a, int b);

/* A path a -> b in r, each edge derived through e (whose value is r). */
static bool derive_path(Wit *w, const CExpr *e, const Word *r, int a, int b) {
  int *path = arena_alloc(run_cur(w->r), sizeof(int) * (size_t)(w->d.n + 1));
  int k = shortest_path(w, r, a, b, path);
  for (int i = 0; i < k; i++) derive(w, e, path[i], path[i + 1]);
  return k > 0;
}

/* e1 ; ... ; ek: a chain a = x0 -> x1 ... -> xk = b, xi-1 -> xi in ei. */
static bool derive_seq(Wit *w, const CExpr *e, int a, int b) {
  int k = e->nargs;
  Dim d = w->d;
  Arena *ar = run_cur(w->r);
  const Word **v = arena_alloc(ar, sizeof(Word *) * (size_t)k);
  for (int i = 0; i < k; i++)
    if (!(v[i] = eval_rel(w, e->args[i]))) return false;
  /* reach[i]: events reachable from a through e1..ei */
  Word *reach = arena_zalloc(ar, sizeof(Word) * (size_t)(d.w * (k + 1)));
  bit_set(reach, a);
  for (int i = 1; i <= k; i++) {
    Word *prev = reach + (size_t)(i - 1) * (size_t)d.w, *cur = reach + (size_t)i * (size_t)d.w;
    for (int x = set_next(d, prev, 0); x >= 0; x = set_next(d, prev, x + 1))
      set_or(d, cur, cur, rel_crow(d, v[i - 1], x));
  }
  if (!bit_get(reach + (size_t)k * (size_t)d.w, b)) return false;
  int *x = arena_alloc(ar, sizeof(int) * (size_t)(k + 1));
  x[k] = b;
  for (int i = k; i >= 1; i--) {
    const Word *prev = reach + (size_t)(i - 1) * (size_t)d.w;
    /* stay put when the step allows it ([S], r?, r*): fewer events */
    if (bit_get(prev, x[i]) && rel_get(d, v[i - 1], x[i], x[i])) {
      x[i - 1] = x[i];
      continue;
    }
    int y = set_next(d, prev, 0);
    while (y >= 0 && !rel_get(d, v[i - 1], y, x[i])) y = set_next(d, prev, y + 1);
    x[i - 1] = y;
  }
  int before = w->st.len;
  for (int i = 1; i <= k; i++)
    if (x[i - 1] != x[i]) derive(w, e->args[i - 1], x[i - 1], x[i]);
  return w->st.len > before;
}

/* A name of the model's vocabulary is not looked into. */
static bool is_vocabulary(const char *n) {
  static const char *const words[] = {"rf", "rfe", "rfi", "co", "coe", "coi",
                                      "fr", "fre", "fri", "po", "po-loc"};
  for (size_t i = 0; i < ARRAY_LEN(words); i++)
    if (!strcmp(n, words[i])) return true;
  return false;
}

static bool mentions_group(const Run *r, const CExpr *e, const CIns *group) {
  if (!e) return false;
  if (e->kind == CV_GLOBAL && r->prog->global_letrec[e->slot] == group) return true;
  for (int i = 0; i < e->nargs; i++)
    if (mentions_group(r, e->args[i], group)) return true;
  return mentions_group(r, e->a, group) || mentions_group(r, e->b, group);
}

/* let rec X = A | B | X;X: an edge of one of the non-recursive operands,
 * or, X being transitive, a path through them. */
static bool derive_letrec(Wit *w, int slot, int a, int b) {
  const Run *r = w->r;
  const CExpr *e = r->prog->global_expr[slot];
  const CIns *group = r->prog->global_letrec[slot];
  if (!e || !group) return false;
  const CExpr *const *ops = e->kind == E_UNION ? (const CExpr *const *)e->args : &e;
  int n = e->kind == E_UNION ? e->nargs : 1;
  Dim d = w->d;
  Word *u = arena_zalloc(run_cur(w->r), sizeof(Word) * (size_t)rel_words(d));
  bool transitive = false;
  for (int i = 0; i < n; i++) {
    const CExpr *o = ops[i];
    if (mentions_group(r, o, group)) {
      if (o->kind == E_SEQ) {
        bool self = true;
        for (int k = 0; k < o->nargs; k++)
          self &= o->args[k]->kind == CV_GLOBAL && o->args[k]->slot == slot;
        transitive |= self;
      }
      continue;
    }
    const Word *v = eval_rel(w, o);
    if (!v) continue;
    if (rel_get(d, v, a, b)) {
      derive(w, o, a, b);
      return true;
    }
    rel_or(d, u, u, v);
  }
  if (!transitive) return false;
  int *path = arena_alloc(run_cur(w->r), sizeof(int) * (size_t)(d.n + 1));
  int k = shortest_path(w, u, a, b, path);
  for (int s = 0; s < k; s++)
    for (int i = 0; i < n; i++) {
      if (mentions_group(r, ops[i], group)) continue;
      const Word *v = eval_rel(w, ops[i]);
      if (v && rel_get(d, v, path[s], path[s + 1])) {
        derive(w, ops[i], path[s], path[s + 1]);
        break;
      }
    }
  return k > 0;
}

static bool derive_global(Wit *w, const CExpr *e, int a, int b) {
  const Run *r = w->r;
  const char *name = gname(r, e->slot);
  const CExpr *def = r->prog->global_expr[e->slot];
  if (name) w->via = name;
  if (!def || (name && is_vocabulary(name))) return false;
  if (r->prog->global_kind[e->slot] == GK_LETREC) return derive_letrec(w, e->slot, a, b);
  if (r->prog->global_kind[e->slot] != GK_THUNK) return false;
  derive(w, def, a, b);
  return true;
}

/* Append a derivation of (a, b), an edge of e's value: every case enters
 * only sub-expressions whose value holds the edge it passes them. */
static void derive(Wit *w, const CExpr *e, int a, int b) {
  const char *saved_via = w->via;
  int before = w->st.len;
  bool done = false;
  if (w->depth++ < MAX_DEPTH) {
    switch (e->kind) {
    case E_UNION:
      for (int i = 0; i < e->nargs && !done; i++) {
        const Word *v = eval_rel(w, e->args[i]);
        if (v && rel_get(w->d, v, a, b)) {
          derive(w, e->args[i], a, b);
          done = true;
        }
      }
      break;
    case E_SEQ:
      done = derive_seq(w, e, a, b);
      break;
    case E_INTER: {
      /* both operands hold the edge: explain it by the one that says more */
      const Word *l = eval_rel(w, e->a), *rr = eval_rel(w, e->b);
      if (!l || !rr) break;
      derive(w, e->a, a, b);
      int nl = w->st.len - before;
      if (nl <= 1) {
        derive(w, e->b, a, b);
        int nr = w->st.len - before - nl;
        if (nr > nl) memmove(w->st.data + before, w->st.data + before + nl,
                             sizeof(CatStep) * (size_t)nr);
        w->st.len = before + (nr > nl ? nr : nl);
      }
      done = true;
      break;
    }
    case E_DIFF: {
      derive(w, e->a, a, b);
      done = true;
      break;
    }
    case E_PLUS:
    case E_STAR: {
      if (a == b && e->kind == E_STAR) {
        done = true;
        break;
      }
      const Word *v = eval_rel(w, e->a);
      if (v) done = derive_path(w, e->a, v, a, b);
      break;
    }
    case E_OPT:
      if (a != b) derive(w, e->a, a, b);
      done = true;
      break;
    case E_BRACKET:
      done = a == b;
      break;
    case CV_GLOBAL:
      done = derive_global(w, e, a, b);
      break;
    case CV_PREDEF:
      w->via = intern_name(&w->r->prog->names->in, e->name);
      break;
    default:
      break;
    }
  }
  w->depth--;
  if (!done) {
    w->st.len = before;
    bool real_leaf = e->kind == CV_PREDEF || e->kind == CV_GLOBAL || e->kind == E_APP ||
                     e->kind == E_TRY;
    /* an application of one of the model's functions, A-cumul(strong-fence
     * | po-rel): among equally small labels, prefer the part of its
     * argument holding the step (po-rel) to the name it is used under */
    if (e->kind == E_APP && e->a && e->a->kind == CV_GLOBAL) {
      int best = -1;
      const char *part = smallest_part(w, e->b, a, b, &best, 0);
      if (part) w->via = part;
    }
    leaf(w, a, b, !real_leaf);
  }
  w->via = saved_via;
}

static void witness_of(Wit *w, const CatFailure *f, const CExpr *e, CatWitness *out,
                       Arena *a) {
  Run *r = w->r;
  Dim d = w->d;
  Value *v = lazy_force(r, (Value *)f->v);
  int *nodes = arena_alloc(run_cur(r), sizeof(int) * (size_t)(d.n + 1));
  int k = 0;
  if (f->negated) return; /* the relation is acyclic, irreflexive or empty */
  if (f->test == T_EMPTY && v->kind == V_SET) {
    int x = set_first(d, v->u.bits);
    if (x < 0) return;
    out->kind = CW_EVENT;
    out->node = ARENA_NEWN(a, int, 1);
    out->node[0] = x;
    return;
  }
  if (v->kind == V_SET || v->kind == V_EVENT || v->kind == V_VSET) return;
  const Word *rel = as_rel(r, v, f->pos)->u.bits;
  out->checked = rel;
  if (f->test == T_ACYCLIC) {
    int *scratch = arena_alloc(run_cur(r), sizeof(int) * (size_t)(3 * d.n + 1));
    k = rel_shortest_cycle(d, rel, nodes, scratch);
    if (!k) return;
    out->kind = CW_CYCLE;
  } else {
    for (int x = 0; x < d.n && !k; x++) {
      const Word *row = rel_crow(d, rel, x);
      int y = f->test == T_IRREFLEXIVE ? (bit_get(row, x) ? x : -1) : set_first(d, row);
      if (y >= 0) {
        nodes[0] = x;
        nodes[1] = y;
        k = 1;
      }
    }
    if (!k) return;
    out->kind = CW_PAIR;
  }
  out->nedges = k;
  out->node = ARENA_NEWN(a, int, k + 1);
  memcpy(out->node, nodes, sizeof(int) * (size_t)(k + 1));
  out->start = ARENA_NEWN(a, int, k + 1);
  for (int i = 0; i < k; i++) {
    out->start[i] = w->st.len;
    if (e) derive(w, e, nodes[i], nodes[i + 1]);
    else leaf(w, nodes[i], nodes[i + 1], true);
  }
  out->start[k] = w->st.len;
  out->nfine = w->st.len;
  out->fine = ARENA_NEWN(a, CatStep, w->st.len + 1);
  memcpy(out->fine, w->st.data, sizeof(CatStep) * (size_t)w->st.len);
}

/* Run fn(ctx) as `try` runs its body: an error (which cannot happen for
 * expressions the model already evaluated) undoes the bindings being
 * forced and returns false. */
static bool guarded(Run *r, void (*fn)(void *), void *ctx) {
  ErrJmp j;
  int saved_level = r->level, saved_wm = r->wm, saved_depth = r->call_depth;
  int saved_busy = r->busy.len, saved_quiet = r->quiet;
  volatile bool ok = true;
  err_push(r->err, &j);
  if (setjmp(j.jb) == 0) {
    r->quiet++;
    fn(ctx);
    r->quiet--;
    err_pop(r->err, &j);
  } else {
    run_undo_busy(r, saved_busy);
    r->level = saved_level;
    r->call_depth = saved_depth;
    r->quiet = saved_quiet;
    ok = false;
  }
  r->wm = saved_wm;
  return ok;
}

typedef struct ExplainCall {
  Wit *w;
  const CatFailure *f;
  CatWitness *out;
  Arena *a;
} ExplainCall;

static void explain_call(void *ctx) {
  ExplainCall *c = ctx;
  witness_of(c->w, c->f, c->f->e, c->out, c->a);
}

bool run_explain(Run *r, const CatFailure *f, CatWitness *out, Arena *a) {
  memset(out, 0, sizeof *out);
  Wit w = {r, r->d, {0}, NULL, 0};
  ExplainCall c = {&w, f, out, a};
  /* no arena reset afterwards: bindings forced here may live in the
   * current level's arena, which the end of the branch frees */
  bool ok = guarded(r, explain_call, &c);
  if (!ok) memset(out, 0, sizeof *out);
  vec_free(w.st);
  return ok;
}

/* ------------------------------------------------------- vocabulary */

typedef struct Vocab {
  Run *r;
  uint8_t *seen;       /* per global slot */
  Word *predefs;       /* per name id */
  int nnames;
} Vocab;

static void vocab_walk(Vocab *v, const CExpr *e) {
  if (!e) return;
  if (e->kind == CV_GLOBAL) {
    if (v->seen[e->slot]) return;
    v->seen[e->slot] = 1;
    vocab_walk(v, v->r->prog->global_expr[e->slot]);
    return;
  }
  if (e->kind == CV_PREDEF && e->name >= 0 && e->name < v->nnames) bit_set(v->predefs, e->name);
  if (e->kind == E_FUN && e->fun) vocab_walk(v, e->fun->body);
  for (int i = 0; i < e->nargs; i++) vocab_walk(v, e->args[i]);
  vocab_walk(v, e->a);
  vocab_walk(v, e->b);
  for (int i = 0; i < e->nbinds; i++) vocab_walk(v, e->binds[i].e);
  if (e->cond) {
    vocab_walk(v, e->cond->a);
    vocab_walk(v, e->cond->b);
  }
  for (int i = 0; i < e->nclauses; i++) vocab_walk(v, e->clauses[i].e);
  vocab_walk(v, e->dflt);
  vocab_walk(v, e->e_empty);
  vocab_walk(v, e->e_cons);
}

static void vocab_checks(Vocab *v, const CInsList *l) {
  for (int i = 0; i < l->n; i++) {
    const CIns *ci = l->v[i];
    if (ci->kind == CI_CHECK && ci->mode == CM_CHECK) vocab_walk(v, ci->e);
    vocab_checks(v, &ci->body);
    for (int k = 0; k < ci->nclauses; k++) vocab_checks(v, &ci->clauses[k].body);
  }
}

/* Shapes rather than orders: never the label of an edge. */
static bool is_shape(const char *n) {
  static const char *const shapes[] = {"id", "loc", "int", "ext", "sm", "si", "aligned"};
  for (size_t i = 0; i < ARRAY_LEN(shapes); i++)
    if (!strcmp(n, shapes[i])) return true;
  return false;
}

typedef struct ForceCall {
  Run *r;
  const uint8_t *seen;
} ForceCall;

static void force_call(void *ctx) {
  ForceCall *c = ctx;
  Run *r = c->r;
  for (int s = 0; s < r->prog->nglobals; s++) {
    if (!c->seen[s] || !run_slot_visible(r, s) || r->g[s].state != SLOT_THUNK) continue;
    CExpr ref = {.kind = CV_GLOBAL, .slot = s, .name = r->prog->global_name[s], .cache = -1};
    cat_eval(r, &ref, frame_new(r, 0, NULL));
  }
}

void run_foreach_vocabulary(Run *r, const CatFailure *f,
                            void (*fn)(void *ctx, const char *name, const Value *v,
                                       bool predef),
                            void *ctx) {
  const CProg *p = r->prog;
  int nnames = r->prog->names->in.count;
  Vocab v = {r, xcalloc((size_t)p->nglobals + 1, 1),
             xcalloc((size_t)(nnames / 64 + 1), sizeof(Word)), nnames};
  if (f && f->e) vocab_walk(&v, f->e);
  else vocab_checks(&v, &p->top);
  for (int id = 0; id < nnames; id++) {
    if (!bit_get(v.predefs, id)) continue;
    const char *name = intern_name(&p->names->in, id);
    if (is_shape(name)) continue;
    int stage = STAGE_ES;
    Value *pv = r->host.predef(r->host.ctx, id, &stage);
    if (pv && pv->kind == V_REL) fn(ctx, name, pv, true);
  }
  /* a binding read from a cache leaves those it was computed from unforced */
  ForceCall fc = {r, v.seen};
  guarded(r, force_call, &fc);
  for (int s = 0; s < p->nglobals; s++) {
    const GSlot *g = &r->g[s];
    const char *name = gname(r, s);
    if (!v.seen[s] || !name || !run_slot_visible(r, s) || g->state != SLOT_VALUE || !g->v ||
        g->v->kind != V_REL)
      continue;
    fn(ctx, name, g->v, false);
  }
  free(v.seen);
  free(v.predefs);
}

/* ------------------------------------------------------ check text */

/* Binding strength (cat.md §2.5), to print only the parentheses needed. */
static int prec(const CExpr *e) {
  switch (e->kind) {
  case E_UNION: return 1;
  case E_ADD: return 2;
  case E_SEQ: return 3;
  case E_DIFF: return 4;
  case E_INTER: return 5;
  case E_PROD: case E_STAR: case E_PLUS: case E_OPT: case E_COMPL: return 6;
  case E_INV: return 7;
  case E_APP: return 8;
  default: return 9;
  }
}

static void print_expr(const Run *r, const CExpr *e, StrBuf *b);

static void print_sub(const Run *r, const CExpr *e, int min, StrBuf *b) {
  bool par = prec(e) < min;
  if (par) sb_putc(b, '(');
  print_expr(r, e, b);
  if (par) sb_putc(b, ')');
}

static void print_expr(const Run *r, const CExpr *e, StrBuf *b) {
  const Interner *in = &r->prog->names->in;
  static const char *const nary[] = {[E_UNION] = " | ", [E_SEQ] = ";"};
  switch (e->kind) {
  case E_ZERO: sb_putc(b, '0'); return;
  case E_EMPTY: sb_puts(b, "{}"); return;
  case E_UNIV: sb_putc(b, '_'); return;
  case CV_GLOBAL: case CV_LOCAL: case CV_PREDEF: case CV_TAGERR: case E_VAR:
    sb_puts(b, e->name >= 0 ? intern_name(in, e->name) : "?");
    return;
  case CV_PRIM: sb_puts(b, prim_name(e->slot)); return;
  case E_TAG: sb_printf(b, "'%s", intern_name(in, e->name)); return;
  case E_UNION:
  case E_SEQ:
    for (int i = 0; i < e->nargs; i++) {
      if (i) sb_puts(b, nary[e->kind]);
      print_sub(r, e->args[i], prec(e) + 1, b);
    }
    return;
  case E_SET: case E_TUPLE:
    sb_putc(b, e->kind == E_SET ? '{' : '(');
    for (int i = 0; i < e->nargs; i++) {
      if (i) sb_puts(b, ", ");
      print_expr(r, e->args[i], b);
    }
    sb_putc(b, e->kind == E_SET ? '}' : ')');
    return;
  case E_INTER: case E_DIFF: case E_PROD: case E_ADD: {
    const char *op = e->kind == E_INTER ? " & " : e->kind == E_DIFF ? " \\ "
                     : e->kind == E_PROD ? " * " : " ++ ";
    print_sub(r, e->a, prec(e) + (e->kind == E_DIFF ? 0 : 1), b);
    sb_puts(b, op);
    print_sub(r, e->b, prec(e) + 1, b);
    return;
  }
  case E_STAR: case E_PLUS: case E_OPT: case E_INV:
    print_sub(r, e->a, prec(e) + 1, b);
    sb_puts(b, e->kind == E_STAR ? "*" : e->kind == E_PLUS ? "+" : e->kind == E_OPT ? "?" : "^-1");
    return;
  case E_COMPL: sb_putc(b, '~'); print_sub(r, e->a, 7, b); return;
  case E_BRACKET: sb_putc(b, '['); print_expr(r, e->a, b); sb_putc(b, ']'); return;
  case E_APP:
    print_sub(r, e->a, 8, b);
    if (e->b->kind != E_TUPLE) sb_putc(b, '(');
    print_expr(r, e->b, b);
    if (e->b->kind != E_TUPLE) sb_putc(b, ')');
    return;
  case E_TRY:
    sb_puts(b, "try ");
    print_expr(r, e->a, b);
    sb_puts(b, " with ");
    print_expr(r, e->b, b);
    return;
  default:
    sb_puts(b, "...");
    return;
  }
}

void run_check_text(const Run *r, const CatFailure *f, StrBuf *out) {
  static const char *const tests[] = {"acyclic", "irreflexive", "empty"};
  if (f->negated) sb_putc(out, '~');
  sb_puts(out, tests[f->test]);
  sb_putc(out, ' ');
  if (f->e) print_expr(r, f->e, out);
  else sb_puts(out, "...");
}

/* ------------------------------------------------------ one name */

typedef struct NamedCall {
  Run *r;
  int slot;
  Value *v;
} NamedCall;

static void named_call(void *ctx) {
  NamedCall *c = ctx;
  CExpr ref = {.kind = CV_GLOBAL, .slot = c->slot, .name = c->r->prog->global_name[c->slot],
               .cache = -1};
  c->v = lazy_force(c->r, cat_eval(c->r, &ref, frame_new(c->r, 0, NULL)));
}

const Value *run_relation_named(Run *r, const char *name) {
  int id = intern_find(&r->prog->names->in, name);
  if (id < 0) return NULL;
  for (int s = r->prog->nglobals - 1; s >= 0; s--) {
    if (r->prog->global_name[s] != id || !run_slot_visible(r, s)) continue;
    if (r->g[s].state != SLOT_VALUE && r->g[s].state != SLOT_THUNK) return NULL;
    NamedCall c = {r, s, NULL};
    if (!guarded(r, named_call, &c) || !c.v || c.v->kind != V_REL) return NULL;
    return c.v;
  }
  return NULL;
}
