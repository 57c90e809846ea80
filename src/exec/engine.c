/*
 * engine.c — the simulation loop: structures, reads-from, final writes,
 * the model, and the collection of outcomes.
 *
 * Stages, from the outside in:
 *   1. paths: each thread is explored once (sem.c); a structure is one
 *      path per thread (es.c), and the loop runs over their product;
 *   2. rf: every read picks a write of the same location (or the initial
 *      write); a choice is kept when every value can be computed (no
 *      cycle through rf), every location matches, and every path
 *      assumption holds;
 *   3. final writes: for each observed location, the write that is last
 *      in coherence (herd7's FW, enumeration.md §4);
 *   4. the model, which enumerates coherence itself (`with co from`).
 * The predefined names of cat are computed lazily, at the stage they
 * depend on, and handed to the interpreter through CatHost.
 */
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>

#include "engine_int.h"
#include "util/pool.h"

/* ------------------------------------------------------ predefined names */

static CR_NORETURN void eng_err(Engine *g, const char *fmt, ...) CR_PRINTF(2, 3);
static void eng_err(Engine *g, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  err_vraise(g->err, ERRK_SEMANTIC, (SrcPos){g->t->file, 0, 0}, fmt, ap);
}

/* --------------------------------------------------------- evaluation */

bool sym_apply(SymOp op, int width, Val a, Val b, Val c3, Val *out);

/* Value of node s for the current rf; false if it cannot be computed (a
 * cycle through rf, or an operation on incompatible values). */
bool eval_node(Engine *g, Sym s, Val *out) {
  if (g->vstate[s] == 2) {
    *out = g->vals[s];
    return true;
  }
  if (g->vstate[s] != 0) return false; /* busy (cycle) or failed */
  const SymNode *n = &g->es->nodes[s];
  Val r;
  bool ok = true;
  g->vstate[s] = 1;
  if (n->op == S_CONST) {
    r = n->k;
  } else if (n->op == S_READ) {
    int ri = g->read_index[n->a];
    if (ri < 0) {
      ok = false;
    } else {
      const Event *w = &g->es->ev[g->rf_src[ri]];
      Sym wv = (w->flags & EV_R) && w->wval != SYM_NONE ? w->wval : w->val;
      ok = eval_node(g, wv, &r);
    }
  } else {
    Val a = val_int(0), b = val_int(0), c = val_int(0);
    ok = eval_node(g, n->a, &a);
    if (ok && n->b != SYM_NONE) ok = eval_node(g, n->b, &b);
    if (ok && n->c != SYM_NONE) ok = eval_node(g, n->c, &c);
    if (ok) ok = sym_apply((SymOp)n->op, n->width, a, b, c, &r);
  }
  if (!ok) {
    g->vstate[s] = 3;
    return false;
  }
  g->vals[s] = r;
  g->vstate[s] = 2;
  *out = r;
  return true;
}

static bool truthy(Val v) { return !(v.kind == VAL_INT && v.num == 0); }

/* Location of a memory event as a symbol id (-1 if not a location). */
bool ev_loc(Engine *g, int e, Val *out) {
  return eval_node(g, g->es->ev[e].loc, out) && out->kind == VAL_ADDR;
}

/* ------------------------------------------------------------- states */

/* ------------------------------------------------------ final states */

static int64_t typed_int(const Program *p, LocType t, int64_t x) {
  int bits = t.bits ? t.bits : p->word_bits;
  if (bits >= 64) return x;
  uint64_t m = ((uint64_t)1 << bits) - 1;
  uint64_t u = (uint64_t)x & m;
  if (t.is_signed && (u >> (bits - 1)) & 1) u |= ~m;
  return (int64_t)u;
}

/* Final value of memory symbol s: its final write's, or its initial one. */
static bool global_final_value(Engine *g, int s, Val *out);

/* -variant mixed: a location's final value combines its bytes' (mixed.c). */
static bool mixed_final_value(Engine *g, int s, Val *out) {
  const Program *p = g->p;
  uint64_t u = 0;
  for (int i = 0; i < p->byte_count[s]; i++) {
    Val b;
    if (!global_final_value(g, p->byte_base[s] + i, &b) || b.kind != VAL_INT) return false;
    u |= ((uint64_t)b.num & 0xff) << (8 * i);
  }
  *out = val_int((int64_t)u);
  return true;
}

static bool global_final_value(Engine *g, int s, Val *out) {
  if (s < 0) return false;
  if (g->p->mixed && s < g->p->mixed_nsyms0) return mixed_final_value(g, s, out);
  int w = g->fw[s] >= 0 ? g->fw[s] : g->es->init_of_sym[s];
  const Event *e = &g->es->ev[w];
  return eval_node(g, (e->flags & EV_R) && e->wval != SYM_NONE ? e->wval : e->val, out);
}

/* Value of a register or memory location in the final state. */
static bool final_value(Engine *g, const LitLoc *l, Val *out) {
  if (l->kind == LOC_REG) {
    if (l->thread < 0 || l->thread >= g->es->nthreads || l->regid < 0) return false;
    return eval_node(g, g->es->final_regs[l->thread][l->regid], out);
  }
  if (l->kind == LOC_GLOBAL) return global_final_value(g, intern_find(&g->p->syms, l->sym), out);
  return false;
}

static LocType loc_type(const Program *p, const LitLoc *l) {
  if (l->kind == LOC_REG && l->thread >= 0 && l->thread < p->nthreads && l->regid >= 0)
    return p->reg_type[l->thread][l->regid];
  if (l->kind == LOC_GLOBAL) {
    int s = intern_find(&p->syms, l->sym);
    if (s >= 0) return p->sym_type.data[s];
  }
  LocType t = {32, true, false};
  return t;
}

static bool vals_equal_typed(const Program *p, LocType t, Val a, Val b) {
  if (a.kind == VAL_INT && b.kind == VAL_INT)
    return typed_int(p, t, a.num) == typed_int(p, t, b.num);
  return val_eq(a, b);
}

typedef bool (*LocValFn)(void *ctx, const LitLoc *l, Val *out);

static bool prop_eval(Program *p, const Prop *pr, LocValFn fn, void *ctx) {
  switch (pr->kind) {
  case P_TRUE:
    return true;
  case P_FALSE:
    return false;
  case P_EQ: {
    Val v, want;
    if (!fn(ctx, &pr->loc, &v)) return false;
    Err e;
    err_init(&e);
    ErrJmp j;
    err_push(&e, &j);
    if (setjmp(j.jb) == 0) {
      want = program_value(p, &pr->val, &e);
      err_pop(&e, &j);
    } else {
      err_free(&e);
      return false;
    }
    err_free(&e);
    return vals_equal_typed(p, loc_type(p, &pr->loc), v, want);
  }
  case P_LOCEQ: {
    Val a, b;
    if (!fn(ctx, &pr->loc, &a) || !fn(ctx, &pr->loc2, &b)) return false;
    return vals_equal_typed(p, loc_type(p, &pr->loc), a, b);
  }
  case P_NOT:
    return !prop_eval(p, pr->a, fn, ctx);
  case P_AND:
    return prop_eval(p, pr->a, fn, ctx) && prop_eval(p, pr->b, fn, ctx);
  case P_OR:
    return prop_eval(p, pr->a, fn, ctx) || prop_eval(p, pr->b, fn, ctx);
  case P_IMPL:
    return !prop_eval(p, pr->a, fn, ctx) || prop_eval(p, pr->b, fn, ctx);
  }
  return false;
}

/* The condition and filter, prepared once per test: the values compared
 * with, the symbols and the types are found before the search, so that a
 * candidate's check is a few comparisons (prop_eval does the same work
 * from the text every time, and may intern: not from worker threads). */
struct CProp {
  PropKind kind;
  const LitLoc *loc, *loc2;
  int sym, sym2;           /* LOC_GLOBAL: symbol id, or -1 */
  LocType type;
  bool want_ok;            /* P_EQ: the value could be computed */
  Val want;
  CProp *a, *b;
};

static CProp *cprop_build(Program *p, const Prop *pr, Arena *a) {
  if (!pr) return NULL;
  CProp *c = ARENA_NEWN(a, CProp, 1);
  c->kind = pr->kind;
  c->loc = &pr->loc;
  c->loc2 = &pr->loc2;
  c->sym = pr->loc.kind == LOC_GLOBAL ? intern_find(&p->syms, pr->loc.sym) : -1;
  c->sym2 = pr->loc2.kind == LOC_GLOBAL ? intern_find(&p->syms, pr->loc2.sym) : -1;
  if (pr->kind == P_EQ || pr->kind == P_LOCEQ) c->type = loc_type(p, &pr->loc);
  if (pr->kind == P_EQ) {
    Err e;
    err_init(&e);
    ErrJmp j;
    err_push(&e, &j);
    if (setjmp(j.jb) == 0) {
      c->want = program_value(p, &pr->val, &e);
      c->want_ok = true;
      err_pop(&e, &j);
    }
    err_free(&e);
  }
  c->a = cprop_build(p, pr->a, a);
  c->b = cprop_build(p, pr->b, a);
  return c;
}

/* final_value with the symbol already found. */
static bool cprop_value(Engine *g, const LitLoc *l, int sym, Val *out) {
  if (l->kind != LOC_GLOBAL) return final_value(g, l, out);
  return global_final_value(g, sym, out);
}

/* Same answers as prop_eval with final_value as the location reader. */
static bool cprop_eval(Engine *g, const CProp *c) {
  switch (c->kind) {
  case P_TRUE:
    return true;
  case P_FALSE:
    return false;
  case P_EQ: {
    Val v;
    if (!cprop_value(g, c->loc, c->sym, &v) || !c->want_ok) return false;
    return vals_equal_typed(g->p, c->type, v, c->want);
  }
  case P_LOCEQ: {
    Val x, y;
    if (!cprop_value(g, c->loc, c->sym, &x) || !cprop_value(g, c->loc2, c->sym2, &y))
      return false;
    return vals_equal_typed(g->p, c->type, x, y);
  }
  case P_NOT:
    return !cprop_eval(g, c->a);
  case P_AND:
    return cprop_eval(g, c->a) && cprop_eval(g, c->b);
  case P_OR:
    return cprop_eval(g, c->a) || cprop_eval(g, c->b);
  case P_IMPL:
    return !cprop_eval(g, c->a) || cprop_eval(g, c->b);
  }
  return false;
}

typedef struct StateCtx {
  const Program *p;
  const Val *state;
} StateCtx;

static bool state_loc_value(void *ctx, const LitLoc *l, Val *out) {
  StateCtx *s = ctx;
  int i = program_disp_index(s->p, l);
  if (i < 0) return false;
  *out = s->state[i];
  return true;
}

bool engine_prop(const Program *p, const Prop *pr, const Val *state) {
  StateCtx s = {p, state};
  return prop_eval((Program *)p, pr, state_loc_value, &s);
}

/* ------------------------------------------------------ the model run */

/* Describe the current execution to the capture / explain sink. */
static void send_view(Engine *g, uint64_t flags, const CatShown *shown, int nshown,
                      const CatFailure *failure) {
  const EventStructure *es = g->es;
  Dim d = g->d;
  if (!g->view_val) {
    g->view_val = ARENA_NEWN(&g->es_arena, Val, es->n + 1);
    g->view_wval = ARENA_NEWN(&g->es_arena, Val, es->n + 1);
    g->view_loc = ARENA_NEWN(&g->es_arena, Val, es->n + 1);
    g->view_rf = ARENA_NEWN(&g->es_arena, Word, rel_words(d));
  }
  for (int e = 0; e < es->n; e++) {
    const Event *ev = &es->ev[e];
    Val v = val_int(0);
    g->view_val[e] = ev->val != SYM_NONE && eval_node(g, ev->val, &v) ? v : val_int(0);
    v = val_int(0);
    g->view_wval[e] = ev->wval != SYM_NONE && eval_node(g, ev->wval, &v) ? v : g->view_val[e];
    v = val_int(0);
    g->view_loc[e] = (ev->flags & (EV_MEM | EV_LOCK)) && ev_loc(g, e, &v) ? v : val_int(0);
  }
  rel_clear(d, g->view_rf);
  for (int i = 0; i < es->nreads; i++) rel_set(d, g->view_rf, g->rf_src[i], es->reads[i]);
  ExecView v = {g->p, es, d, g->view_val, g->view_wval, g->view_loc, g->view_rf,
                g->state, g->cond_true, flags, shown, nshown, failure, g->run};
  g->o->exec_sink(g->o->sink_ctx, &v);
}

static void host_reject(void *ctx, const CatFailure *f) {
  Engine *g = ctx;
  if (g->o->exec_sink) send_view(g, 0, NULL, 0, f);
}

static void host_accept(void *ctx, uint64_t flags, const CatShown *shown, int nshown,
                        uint64_t count) {
  Engine *g = ctx;
  if (g->o->exec_sink) send_view(g, flags, shown, nshown, NULL);
  if (g->cond_true)
    g->out->pos += count;
  else
    g->out->neg += count;
  g->out->flags |= flags;
  stateset_add(&g->set, g->state);
}

static double shared_cpu_time(const Shared *sh) {
  struct timespec ts;
  if (clock_gettime(sh->cpu_clock, &ts) != 0) return 0;
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* True when the search must stop: another worker stopped it (an error
 * or a limit), or this one finds the -timeout budget spent.  Cheap enough
 * for the inner loops: an atomic load, and a clock read every 256 calls
 * (a system call; candidates and work items take microseconds each). */
static bool over_limits(Engine *g) {
  Shared *sh = g->sh;
  if (__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) return true;
  unsigned tick = g->limit_tick++;
  if (g->o->timeout > 0 && (tick & 255) == 0 &&
      shared_cpu_time(sh) - sh->cpu_start > g->o->timeout) {
    g->out->limit_hit = true;
    __atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
    return true;
  }
  /* corral serve: the request's cancel flag and wall-clock deadline */
  bool cancelled = g->o->cancel && __atomic_load_n(g->o->cancel, __ATOMIC_RELAXED);
  if (!cancelled && g->o->deadline > 0 && (tick & 255) == 0) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    cancelled = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 > g->o->deadline;
  }
  if (cancelled) {
    g->out->limit_hit = true;
    __atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
    return true;
  }
  return false;
}

/* ------------------------------------------------------------ symmetry
 * Threads made of a single write, to the same location, of the same shape
 * (events, registers, intra-thread edges), whose write nobody reads and is
 * not the final one, and whose registers are not observed, can be
 * permuted without the model or the final state telling the difference
 * (unless the model reads values: different-values).  Their writes form a
 * class for run_set_symmetry. */

static bool same_shape(const Engine *g, const int *a, const int *b, int n) {
  const EventStructure *es = g->es;
  Dim d = es->full;
  for (int i = 0; i < n; i++) {
    const Event *x = &es->ev[a[i]], *y = &es->ev[b[i]];
    if (x->flags != y->flags || x->reg != y->reg || x->size != y->size ||
        x->tags != y->tags || x->inst != y->inst)
      return false;
    for (int j = 0; j < n; j++) {
      if (rel_get(d, es->iico_data, a[i], a[j]) != rel_get(d, es->iico_data, b[i], b[j]) ||
          rel_get(d, es->iico_ctrl, a[i], a[j]) != rel_get(d, es->iico_ctrl, b[i], b[j]) ||
          rel_get(d, es->rf_reg, a[i], a[j]) != rel_get(d, es->rf_reg, b[i], b[j]))
        return false;
    }
  }
  return true;
}

static void find_symmetry(Engine *g) {
  const EventStructure *es = g->es;
  int nt = es->nthreads;
  if (!g->sym_enabled || nt < 2) {
    run_set_symmetry(g->run, NULL, 0);
    return;
  }
  /* the write of each candidate thread, or -1 */
  int *wr = g->sym_write;
  for (int t = 0; t < nt; t++) wr[t] = -1;
  for (int e = 0; e < es->nrel; e++) {
    const Event *ev = &es->ev[e];
    if (ev->thread < 0) continue;
    int t = ev->thread;
    bool plain_w = (ev->flags & (EV_R | EV_W | EV_INIT)) == EV_W && es->nodes[ev->loc].op == S_CONST;
    wr[t] = wr[t] == -1 && plain_w && !g->sym_observed[t] ? e : -2;
  }
  for (int i = 0; i < es->nreads; i++) {
    const Event *w = &es->ev[g->rf_src[i]];
    if (w->thread >= 0 && wr[w->thread] == g->rf_src[i]) wr[w->thread] = -2;
  }
  for (int t = 0; t < nt; t++)
    if (wr[t] >= 0) {
      const SymNode *l = &es->nodes[es->ev[wr[t]].loc];
      if (l->k.kind != VAL_ADDR || g->fw[l->k.sym] == wr[t]) wr[t] = -2;
    }
  bool any = false;
  for (int t = 0; t < nt && !any; t++) any = wr[t] >= 0;
  if (!any) { /* the usual case: no thread qualifies */
    run_set_symmetry(g->run, NULL, 0);
    return;
  }
  int *cls = g->sym_class;
  for (int e = 0; e < es->n; e++) cls[e] = -1;
  int nclasses = 0;
  for (int a = 0; a < nt && nclasses < 64; a++) {
    if (wr[a] < 0 || cls[wr[a]] >= 0) continue;
    int members = 1;
    const int *ea = g->thread_events[a];
    int na = g->thread_nevents[a];
    for (int b = a + 1; b < nt; b++) {
      if (wr[b] < 0 || cls[wr[b]] >= 0 || g->thread_nevents[b] != na) continue;
      if (es->nodes[es->ev[wr[b]].loc].k.sym != es->nodes[es->ev[wr[a]].loc].k.sym) continue;
      if (!same_shape(g, ea, g->thread_events[b], na)) continue;
      if (members == 1) cls[wr[a]] = nclasses;
      cls[wr[b]] = nclasses;
      members++;
    }
    if (members > 1) nclasses++;
  }
  run_set_symmetry(g->run, cls, nclasses);
}

/* A complete rf and final-write choice: compute the state and run the
 * model. */
static void run_candidate(Engine *g) {
  const Program *p = g->p;
  for (int i = 0; i < p->ndisp; i++) {
    const DispLoc *dl = &p->disp[i];
    Val v;
    if (dl->kind == DL_REG) {
      LitLoc l = {0};
      l.kind = LOC_REG;
      l.thread = dl->thread;
      l.regid = dl->reg;
      if (!final_value(g, &l, &v)) return;
    } else if (!global_final_value(g, dl->sym, &v)) {
      return;
    }
    if (v.kind == VAL_INT) v.num = typed_int(p, dl->type, v.num);
    g->state[i] = v;
  }
  const Test *t = g->t;
  if (t->filter && g->o->checkfilter && !cprop_eval(g, g->sh->filter)) return;
  g->cond_true = cprop_eval(g, g->sh->cond);
  if (g->o->speedcheck != SPEED_FALSE) {
    bool interesting = t->quant == Q_FORALL ? !g->cond_true : g->cond_true;
    if (!interesting) return;
  }
  /* -maxcandidates N: the test exceeds it with its (N+1)-th candidate.
   * Only then a shared counter: an atomic add per candidate on a line
   * every worker writes costs more than the candidate's bookkeeping. */
  if (g->o->max_candidates &&
      __atomic_add_fetch(&g->sh->candidates, 1, __ATOMIC_RELAXED) > g->o->max_candidates) {
    g->out->limit_hit = true;
    __atomic_store_n(&g->sh->stop, 1, __ATOMIC_RELAXED);
    return;
  }
  g->out->candidates++;
  predef_reset(g, STAGE_FW);
  run_begin_fw(g->run);
  find_symmetry(g);
  run_model(g->run);
}

/* Choose the final write of observed location k, then the next. */
static void choose_fw(Engine *g, int k) {
  const Program *p = g->p;
  if (over_limits(g)) return;
  if (k == p->nobserved) {
    run_candidate(g);
    return;
  }
  int sym = p->observed[k];
  const EventStructure *es = g->es;
  bool any = false;
  for (int i = 0; i < es->nwrites; i++) {
    int w = es->writes[i];
    if (es->ev[w].flags & EV_INIT) continue;
    Val l;
    if (!ev_loc(g, w, &l) || l.sym != sym) continue;
    any = true;
    g->fw[sym] = w;
    choose_fw(g, k + 1);
  }
  if (!any) {
    g->fw[sym] = es->init_of_sym[sym];
    choose_fw(g, k + 1);
  }
  g->fw[sym] = -1;
}

/* A complete rf choice: solve values and check consistency. */
static void rf_leaf(Engine *g) {
  const EventStructure *es = g->es;
  memset(g->vstate, 0, (size_t)es->nnodes);
  for (int i = 0; i < es->nreads; i++) {
    Val lr, lw;
    int r = es->reads[i], w = g->rf_src[i];
    if (!ev_loc(g, r, &lr) || !ev_loc(g, w, &lw)) return;
    if (!val_eq(lr, lw)) return;
    Val v;
    if (!eval_node(g, es->ev[r].val, &v)) return;
  }
  for (int i = 0; i < es->nassume; i++) {
    Val v;
    if (!eval_node(g, es->assume[i], &v) || !truthy(v)) return;
  }
  /* Every event's location and value must be known. */
  for (int e = 0; e < es->nrel; e++) {
    const Event *ev = &es->ev[e];
    Val v;
    if ((ev->flags & EV_MEM) && !ev_loc(g, e, &v)) return;
  }
  if (es->cutoff) {
    g->out->loop = true;
    return;
  }
  /* what depends on rf alone is kept for all its final-write choices */
  predef_reset(g, STAGE_RF);
  run_begin_rf(g->run);
  choose_fw(g, 0);
}

static void choose_rf(Engine *g, int i) {
  if (g->out->limit_hit || g->halted) return;
  if (i == g->es->nreads) {
    /* Most rf choices may fail their path constraints and never reach
     * choose_fw: look at the limits at every leaf (over_limits reads the
     * clock only every 256 calls). */
    if (over_limits(g)) {
      g->halted = true; /* this search is over, whoever stopped it */
      return;
    }
    /* -variant mixed: reads take whole writes, not any mix of bytes */
    if (g->p->mixed && !mixed_rf_ok(g)) return;
    rf_leaf(g);
    return;
  }
  for (int k = 0; k < g->ncands[i]; k++) {
    g->rf_src[i] = g->cands[i][k];
    choose_rf(g, i + 1);
  }
}

/* Candidate writes of each read: same location when both are known,
 * never the read itself nor a write iico-after it (-optace iico). */
/* May events a and b access the same location?  Only two constant
 * addresses of different symbols (or a constant non-address) say no. */
static bool may_alias(const EventStructure *es, int a, int b) {
  const SymNode *la = &es->nodes[es->ev[a].loc], *lb = &es->nodes[es->ev[b].loc];
  return !(la->op == S_CONST && lb->op == S_CONST &&
           !(la->k.kind == VAL_ADDR && lb->k.kind == VAL_ADDR && la->k.sym == lb->k.sym));
}

static void compute_candidates(Engine *g, Shared *sh, Arena *a) {
  const EventStructure *es = sh->es;
  sh->cands = ARENA_NEWN(a, int *, es->nreads + 1);
  sh->ncands = ARENA_NEWN(a, int, es->nreads + 1);
  Word *iico = ARENA_NEWN(a, Word, rel_words(es->full));
  rel_or(es->full, iico, es->iico_data, es->iico_ctrl);
  rel_closure(es->full, iico);
  for (int i = 0; i < es->nreads; i++) {
    int r = es->reads[i];
    sh->cands[i] = ARENA_NEWN(a, int, es->nwrites + 1);
    const SymNode *lr = &es->nodes[es->ev[r].loc];
    for (int k = 0; k < es->nwrites; k++) {
      int w = es->writes[k];
      if (w == r || rel_get(es->full, iico, r, w) || !may_alias(es, r, w)) continue;
      sh->cands[i][sh->ncands[i]++] = w;
    }
    if (sh->ncands[i] == 0 && lr->op == S_CONST && lr->k.kind != VAL_ADDR)
      eng_err(g, "Non symbolic location with no initial write");
  }
  if (g->p->mixed) mixed_check_writes(g, es);
  sh->read_index = ARENA_NEWN(a, int, es->n + 1);
  for (int e = 0; e < es->n; e++) sh->read_index[e] = -1;
  for (int i = 0; i < es->nreads; i++) sh->read_index[es->reads[i]] = i;
  sh->static_locs = true;
  for (int e = 0; e < es->nrel; e++)
    if ((es->ev[e].flags & EV_MEM) && es->nodes[es->ev[e].loc].op != S_CONST)
      sh->static_locs = false;
}

/* A worker's view of a new structure: its own value arrays, caches and
 * interpreter state; the structure itself is shared. */
static void worker_begin(Engine *g) {
  Shared *sh = g->sh;
  EventStructure *es = sh->es;
  arena_rewind(&g->es_arena);
  g->es = es;
  g->cands = sh->cands;
  g->ncands = sh->ncands;
  g->read_index = sh->read_index;
  g->static_locs = sh->static_locs;
  g->catdep = cat_prog_catdep(g->prog);
  g->full = es->full;
  g->d = g->catdep ? es->full : dim_make(es->nrel);
  g->have_deps = false;
  Word *univ = ARENA_NEWN(&g->es_arena, Word, g->d.w);
  set_fill(g->d, univ);
  run_begin_structure(g->run, g->d, univ);
  predef_reset(g, STAGE_ES);
  g->vals = ARENA_NEWN(&g->es_arena, Val, es->nnodes + 1);
  g->vstate = ARENA_NEWN(&g->es_arena, uint8_t, es->nnodes + 1);
  g->fw = ARENA_NEWN(&g->es_arena, int, es->nsyms + 1);
  for (int s = 0; s < es->nsyms; s++) g->fw[s] = -1;
  g->rf_src = ARENA_NEWN(&g->es_arena, int, es->nreads + 1);
  g->view_val = NULL;
  /* per thread: its events in id order (relevant ones, then registers) */
  int nt = es->nthreads;
  g->thread_nevents = ARENA_NEWN(&g->es_arena, int, nt + 1);
  g->thread_events = ARENA_NEWN(&g->es_arena, int *, nt + 1);
  for (int e = 0; e < es->n; e++)
    if (es->ev[e].thread >= 0) g->thread_nevents[es->ev[e].thread]++;
  for (int t = 0; t < nt; t++) {
    g->thread_events[t] = ARENA_NEWN(&g->es_arena, int, g->thread_nevents[t] + 1);
    g->thread_nevents[t] = 0;
  }
  for (int e = 0; e < es->n; e++) {
    int t = es->ev[e].thread;
    if (t >= 0) g->thread_events[t][g->thread_nevents[t]++] = e;
  }
  g->sym_write = ARENA_NEWN(&g->es_arena, int, nt + 1);
  g->sym_class = ARENA_NEWN(&g->es_arena, int, es->n + 1);
}

/* Work item k fixes the choices of the first `prefix` reads (mixed radix). */
static double thread_cpu_now(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void worker_items_run(Engine *g);

/* The items of the current structure, timed in this worker's CPU clock
 * (CORRAL_STATS prints the balance between workers). */
static void worker_items(Engine *g) {
  if (!g->sh->timed) {
    worker_items_run(g); /* a CPU clock is a system call: only for the stats */
    return;
  }
  double t0 = thread_cpu_now();
  worker_items_run(g);
  g->busy_cpu += thread_cpu_now() - t0;
}

/* Sharing a structure's search costs the calling thread 0.1 to 0.2 ms
 * (more for a process's first thread), a helper takes longer than that to
 * run at full speed, and most tests' searches are shorter: sharing them
 * made 465 of the 531 corpus tests that shared slower.  So the helpers are
 * posted at once only when the structure has many candidates; otherwise
 * the caller starts alone and posts them as soon as its first items show
 * that the rest would take SHARE_AFTER seconds or more. */
#define SHARE_AT_ONCE 1e6
#define SHARE_AFTER 1e-3

typedef struct Later {
  Pool *pool;
  Engine *w;      /* all workers; w[0] is the caller's */
  int n;          /* workers the search may use */
  int posted;     /* helpers posted: 0 or n - 1 */
  long done;      /* items the caller finished before posting */
  double t0;      /* when the caller finished its first item */
} Later;

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* An upper bound on the structure's candidates, up to SHARE_AT_ONCE: rf
 * choices times the coherence orders of writes that may share a location. */
static double candidate_bound(const Shared *sh) {
  const EventStructure *es = sh->es;
  double n = 1;
  for (int i = 0; i < es->nreads && n < SHARE_AT_ONCE; i++) n *= MAX(sh->ncands[i], 1);
  for (int a = 0; a < es->nwrites && n < SHARE_AT_ONCE; a++) {
    int k = 1; /* a, and the writes before it that it may be ordered with */
    for (int b = 0; b < a; b++) k += may_alias(es, es->writes[a], es->writes[b]);
    n *= k;
  }
  return n;
}

static void *worker_thread(void *arg);

static void post_helpers(Later *l) {
  for (int i = 1; i < l->n; i++) pool_post(l->pool, i - 1, worker_thread, &l->w[i]);
  l->posted = l->n - 1;
}

/* After each of the caller's items, until the helpers are posted.  The
 * first item is not timed: it pays for cold caches and fresh pages. */
static void share_if_worth(Later *l, const Shared *sh) {
  if (l->done++ == 0) {
    l->t0 = wall_now();
    return;
  }
  long left = sh->nitems - __atomic_load_n(&sh->next_item, __ATOMIC_RELAXED);
  if (left > 0 && (wall_now() - l->t0) * (double)left >= SHARE_AFTER * (double)(l->done - 1))
    post_helpers(l);
}

static void worker_items_run(Engine *g) {
  Shared *sh = g->sh;
  for (;;) {
    long k = __atomic_fetch_add(&sh->next_item, 1, __ATOMIC_RELAXED);
    if (k >= sh->nitems || over_limits(g)) return;
    for (int i = sh->prefix - 1; i >= 0; i--) {
      g->rf_src[i] = sh->cands[i][k % sh->ncands[i]];
      k /= sh->ncands[i];
    }
    choose_rf(g, sh->prefix);
    if (g->later && !g->later->posted) share_if_worth(g->later, sh);
  }
}

static void *worker_thread(void *arg) {
  Engine *g = arg;
  ErrJmp j;
  err_push(&g->werr, &j);
  if (setjmp(j.jb) == 0) {
    worker_begin(g);
    worker_items(g);
    err_pop(&g->werr, &j);
  } else {
    g->failed = true;
    __atomic_store_n(&g->sh->stop, 1, __ATOMIC_RELAXED);
  }
  return NULL;
}

/* Enough work items to keep every worker busy, and few enough reads fixed
 * per item that an item is not trivial. */
static void split_work(Shared *sh, int nworkers) {
  long items = 1;
  int k = 0;
  while (k < sh->es->nreads && items < 16L * nworkers) {
    items *= MAX(sh->ncands[k], 1);
    k++;
  }
  sh->prefix = k;
  sh->nitems = items;
  for (int i = 0; i < k; i++)
    if (sh->ncands[i] == 0) sh->nitems = 0;
  sh->next_item = 0;
}

/* Run the rf search of the current structure on the workers: the first
 * here, the others on the run's helpers. */
static void run_structure(Engine *w, int nworkers, Shared *sh, Pool *pool) {
  split_work(sh, nworkers);
  long total = 1;
  for (int i = 0; i < sh->es->nreads && total < 4096; i++) total *= MAX(sh->ncands[i], 1);
  Later later = {pool, w, total < 64 ? 1 : nworkers, 0, 0, 0};
  if (later.n > 1 && candidate_bound(sh) >= SHARE_AT_ONCE) post_helpers(&later);
  worker_begin(&w[0]);
  w[0].later = later.n > 1 ? &later : NULL;
  worker_items(&w[0]);
  w[0].later = NULL;
  /* a helper that has not begun would find no items left */
  for (int i = 1; i <= later.posted; i++) pool_withdraw(pool, i - 1);
  for (int i = 1; i <= later.posted; i++)
    if (w[i].failed) {
      /* report the worker's error as the test's */
      Err *e = w[0].err;
      sb_clear(&e->msg);
      sb_puts(&e->msg, sb_cstr(&w[i].werr.msg));
      SrcPos pos = w[i].werr.pos;
      w[i].failed = false;
      err_raise(e, w[i].werr.kind, pos, "%s", sb_cstr(&e->msg));
    }
}

static void merge_outcome(Outcome *into, const Outcome *o) {
  into->pos += o->pos;
  into->neg += o->neg;
  into->flags |= o->flags;
  into->loop |= o->loop;
  into->candidates += o->candidates;
  into->limit_hit |= o->limit_hit;
}

static void mark_prop_threads(const Prop *pr, bool *seen, int nthreads) {
  if (!pr) return;
  if ((pr->kind == P_EQ || pr->kind == P_LOCEQ) && pr->loc.kind != LOC_GLOBAL &&
      pr->loc.kind != LOC_CELL && pr->loc.thread >= 0 && pr->loc.thread < nthreads)
    seen[pr->loc.thread] = true;
  if (pr->kind == P_LOCEQ && pr->loc2.kind != LOC_GLOBAL && pr->loc2.kind != LOC_CELL &&
      pr->loc2.thread >= 0 && pr->loc2.thread < nthreads)
    seen[pr->loc2.thread] = true;
  mark_prop_threads(pr->a, seen, nthreads);
  mark_prop_threads(pr->b, seen, nthreads);
}

static void worker_init(Engine *g, Shared *sh, Program *p, const CProg *prog,
                        const EngineOpts *o, Err *err, Outcome *out) {
  memset(g, 0, sizeof *g);
  g->sh = sh;
  g->p = p;
  g->t = p->test;
  g->prog = prog;
  g->o = o;
  g->err = err;
  g->out = out;
  memset(out, 0, sizeof *out);
  out->ndisp = p->ndisp;
  stateset_init(&g->set, p->ndisp);
  g->state = xcalloc((size_t)p->ndisp + 1, sizeof(Val));
  g->pre_es = xcalloc(PD_SLOTS, sizeof(Value *));
  g->pre_rf = xcalloc(PD_SLOTS, sizeof(Value *));
  g->pre_fw = xcalloc(PD_SLOTS, sizeof(Value *));
  arena_init(&g->es_arena);
  err_init(&g->werr);
  /* Symmetry needs models blind to values, and real executions otherwise
   * (pictures, explanations) */
  g->sym_enabled = !cat_prog_uses_values(prog) && o->run_mode == 0 && !o->exec_sink &&
                   !p->mixed; /* byte symbols: not the shapes it knows */
  g->sym_observed = xcalloc((size_t)p->nthreads + 1, sizeof(bool));
  for (int i = 0; i < p->ndisp; i++)
    if (p->disp[i].kind == DL_REG) g->sym_observed[p->disp[i].thread] = true;
  mark_prop_threads(p->test->filter, g->sym_observed, p->nthreads);
}

static void worker_free(Engine *g) {
  free(g->sym_observed);
  run_free(g->run);
  free(g->pd_of_name);
  free(g->state);
  free(g->pre_es);
  free(g->pre_rf);
  free(g->pre_fw);
  stateset_free(&g->set);
  arena_free(&g->es_arena);
  err_free(&g->werr);
}

static void print_stats(Engine *w, int n, const Outcome *out) {
  RunStats t = {0};
  for (int i = 0; i < n; i++) {
    if (!w[i].run) continue;
    RunStats st = run_stats(w[i].run);
    t.runs += st.runs, t.forks += st.forks, t.probes += st.probes;
    t.accepted += st.accepted, t.cache_hits += st.cache_hits, t.cache_misses += st.cache_misses;
  }
  fprintf(stderr,
          "stats: structures %llu candidates %llu runs %llu forks %llu probes %llu "
          "accepted %llu cache hits %llu misses %llu\n",
          (unsigned long long)out->structures, (unsigned long long)out->candidates,
          (unsigned long long)t.runs, (unsigned long long)t.forks,
          (unsigned long long)t.probes, (unsigned long long)t.accepted,
          (unsigned long long)t.cache_hits, (unsigned long long)t.cache_misses);
  /* balance: busy CPU seconds per worker; the rest of the process's CPU
   * time (setup, structures, merging, printing) is serial */
  double max = 0, sum = 0;
  fprintf(stderr, "stats: workers %d busy", n);
  for (int i = 0; i < n; i++) {
    fprintf(stderr, " %.3f", w[i].busy_cpu);
    sum += w[i].busy_cpu;
    max = MAX(max, w[i].busy_cpu);
  }
  fprintf(stderr, " s, max/mean %.2f\n", sum > 0 ? max * n / sum : 1.0);
}

/* Order of two states of sets a and b (by index), as herd sorts them;
 * integers are compared without unpacking. */
static int state_cmp(const Program *p, const StateSet *a, int sa, const StateSet *b, int sb) {
  for (int q = 0; q < p->ndisp; q++) {
    uint64_t ka = stateset_key(a, sa, q), kb = stateset_key(b, sb, q);
    if (ka == kb && a == b) continue;
    int c;
    if (stateset_key_is_int(ka) && stateset_key_is_int(kb)) {
      int64_t x = stateset_key_int(ka), y = stateset_key_int(kb);
      c = (x > y) - (x < y);
    } else {
      c = engine_val_cmp(p, stateset_value(a, ka), stateset_value(b, kb));
    }
    if (c) return c;
  }
  return 0;
}

/* One stable counting pass of v[0..n) on column q, when the column holds
 * integers only, within a range of at most 4n + 1024 values (registers
 * and memory usually hold a few small ones); false, with v untouched,
 * otherwise.  tmp and bucket have room for n entries. */
static bool radix_pass(const StateSet *s, int q, int *v, int *tmp, int *bucket, int n) {
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (int i = 0; i < n; i++) {
    uint64_t k = stateset_key(s, v[i], q);
    if (!stateset_key_is_int(k)) return false;
    int64_t x = stateset_key_int(k);
    lo = MIN(lo, x);
    hi = MAX(hi, x);
  }
  uint64_t span = (uint64_t)hi - (uint64_t)lo + 1; /* keys hold 62-bit integers: no wrap */
  if (span > 4 * (uint64_t)n + 1024) return false;
  int *count = xcalloc(span + 1, sizeof(int));
  for (int i = 0; i < n; i++) {
    bucket[i] = (int)((uint64_t)stateset_key_int(stateset_key(s, v[i], q)) - (uint64_t)lo);
    count[bucket[i] + 1]++;
  }
  for (uint64_t b = 1; b <= span; b++) count[b] += count[b - 1];
  for (int i = 0; i < n; i++) tmp[count[bucket[i]]++] = v[i];
  memcpy(v, tmp, sizeof(int) * (size_t)n);
  free(count);
  return true;
}

/* A set's slots in state_cmp order.  The states of one set are distinct,
 * so any correct sort gives the same order.  Columns of small integers
 * (the large tests) are radix-sorted from the last column to the first,
 * O(n) each: WWC-16's 98301 states took 15 ms with the merge sort below,
 * which the other cases keep (stable, O(n log n)). */
static void sort_slots(const Program *p, const StateSet *s, int *v, int n) {
  if (n < 2) return;
  int *tmp = xmalloc(sizeof(int) * (size_t)n);
  int *bucket = xmalloc(sizeof(int) * (size_t)n);
  int q = p->ndisp - 1;
  while (q >= 0 && radix_pass(s, q, v, tmp, bucket, n)) q--;
  free(bucket);
  if (q < 0) {
    free(tmp);
    return;
  }
  for (int width = 1; width < n; width *= 2) {
    for (int lo = 0; lo < n; lo += 2 * width) {
      int mid = MIN(lo + width, n), hi = MIN(lo + 2 * width, n);
      int i = lo, j = mid, k = lo;
      while (i < mid && j < hi) tmp[k++] = state_cmp(p, s, v[j], s, v[i]) < 0 ? v[j++] : v[i++];
      while (i < mid) tmp[k++] = v[i++];
      while (j < hi) tmp[k++] = v[j++];
    }
    memcpy(v, tmp, sizeof(int) * (size_t)n);
  }
  free(tmp);
}

/* One worker's states in output order. */
typedef struct SortJob {
  const Program *p;
  const StateSet *set;
  int *slots;
  int n;
} SortJob;

static void *sort_job(void *arg) {
  SortJob *j = arg;
  j->slots = xmalloc(sizeof(int) * (size_t)(j->set->count + 1));
  j->n = 0;
  for (int i = 0; i < j->set->count; i++) j->slots[j->n++] = i;
  sort_slots(j->p, j->set, j->slots, j->n);
  return NULL;
}

/* The workers' states into the outcome, in output order: each worker's set
 * is sorted on its own thread, then the sorted lists are merged, a state
 * reached by several workers kept once. */
static void collect_states(Engine *w, int n, Program *p, Outcome *out, Pool *pool) {
  out->nsets = n;
  out->sets = xmalloc(sizeof(StateSet) * (size_t)n);
  SortJob *jobs = xcalloc((size_t)n, sizeof(SortJob));
  long total = 0;
  for (int i = 0; i < n; i++) {
    out->sets[i] = w[i].set;
    stateset_init(&w[i].set, p->ndisp);
    jobs[i] = (SortJob){p, &out->sets[i], NULL, 0};
    total += out->sets[i].count;
  }
  pool_each(total > 4096 ? pool : NULL, n, sort_job, jobs, sizeof *jobs);
  out->order_set = xmalloc(sizeof(int) * (size_t)(total + 1));
  out->order_slot = xmalloc(sizeof(int) * (size_t)(total + 1));
  int *at = xcalloc((size_t)n + 1, sizeof(int));
  int k = 0;
  for (;;) {
    int best = -1;
    for (int i = 0; i < n; i++) {
      if (at[i] == jobs[i].n) continue;
      if (best < 0) {
        best = i;
        continue;
      }
      int c = state_cmp(p, &out->sets[i], jobs[i].slots[at[i]], &out->sets[best],
                        jobs[best].slots[at[best]]);
      if (c < 0) {
        best = i;
      } else if (c == 0) {
        at[i]++; /* the same state, from another worker */
        i--;
      }
    }
    if (best < 0) break;
    out->order_set[k] = best;
    out->order_slot[k++] = jobs[best].slots[at[best]++];
  }
  out->nstates = k;
  for (int i = 0; i < n; i++) free(jobs[i].slots);
  free(jobs);
  free(at);
}

void outcome_state(const Outcome *o, int i, Val *v) {
  stateset_get(&o->sets[o->order_set[i]], o->order_slot[i], v);
}

void outcome_free(Outcome *o) {
  for (int i = 0; i < o->nsets; i++) stateset_free(&o->sets[i]);
  free(o->sets);
  free(o->order_set);
  free(o->order_slot);
  o->sets = NULL;
  o->nsets = 0;
  o->order_set = o->order_slot = NULL;
}

void engine_run(Program *p, const CProg *prog, const EngineOpts *o,
                Outcome *out, Arena *out_arena, Err *err) {
  /* views come in enumeration order: one worker then */
  const int nworkers = o->exec_sink ? 1 : pool_size(o->pool) + 1;
  Shared sh;
  memset(&sh, 0, sizeof sh);
  if (pthread_getcpuclockid(pthread_self(), &sh.cpu_clock) != 0)
    sh.cpu_clock = CLOCK_PROCESS_CPUTIME_ID;
  if (o->timeout > 0) sh.cpu_start = shared_cpu_time(&sh);
  sh.timed = getenv("CORRAL_STATS") != NULL;
  Engine *w = xcalloc((size_t)nworkers, sizeof(Engine));
  Outcome *wout = xcalloc((size_t)nworkers, sizeof(Outcome));
  for (int i = 0; i < nworkers; i++) {
    worker_init(&w[i], &sh, p, prog, o, err, &wout[i]);
    if (i > 0) w[i].err = &w[i].werr; /* raised in that worker's thread */
  }
  memset(out, 0, sizeof *out);
  out->ndisp = p->ndisp;
  Arena paths_arena, es_arena;
  arena_init(&paths_arena);
  arena_init(&es_arena);
  ThreadPaths *paths = xcalloc((size_t)p->nthreads + 1, sizeof(ThreadPaths));
  int *choice = xcalloc((size_t)p->nthreads + 1, sizeof(int));
  uint64_t structures = 0;
  Pool *pool = nworkers > 1 ? o->pool : NULL;

  ErrJmp j;
  err_push(err, &j);
  bool ok = setjmp(j.jb) == 0;
  if (ok) {
    for (int t = 0; t < p->nthreads; t++) paths[t] = sem_explore(p, t, err, &paths_arena);
    sh.cond = cprop_build(p, p->test->cond, &paths_arena);
    sh.filter = cprop_build(p, p->test->filter, &paths_arena);
    for (int i = 0; i < nworkers; i++) {
      predef_setup(&w[i], i > 0 ? &w[0] : NULL);
      CatHost host = {&w[i], host_predef, host_same_value, host_accept, host_reject};
      w[i].run = run_new(prog, host, i == 0 ? err : &w[i].werr);
      if (i > 0) run_set_stack_limit(w[i].run, ENGINE_STACK / 4 * 3);
      run_set_mode(w[i].run, o->run_mode);
      run_set_one_fw(w[i].run, p->nobserved == 0);
    }
    bool empty = false;
    for (int t = 0; t < p->nthreads; t++) empty |= paths[t].n == 0;
    while (!empty && !__atomic_load_n(&sh.stop, __ATOMIC_RELAXED)) {
      arena_rewind(&es_arena);
      sh.es = es_build(p, paths, choice, &es_arena);
      if (sh.es->n > ES_MAX_EVENTS)
        err_raise(err, ERRK_LIMIT, (SrcPos){p->test->file, 1, 1},
                  "test %s has %d events, more than the %d a relation can hold here "
                  "(each would take %d MiB): test too large", p->test->name, sh.es->n,
                  ES_MAX_EVENTS, (int)((size_t)sh.es->n * (size_t)((sh.es->n + 63) / 64) * 8 >> 20));
      compute_candidates(&w[0], &sh, &es_arena);
      structures++;
      run_structure(w, nworkers, &sh, pool);
      /* next combination (odometer) */
      int t = 0;
      while (t < p->nthreads && ++choice[t] == paths[t].n) choice[t++] = 0;
      if (t == p->nthreads) break;
    }
    err_pop(err, &j);
  }
  if (ok) {
    for (int i = 0; i < nworkers; i++) merge_outcome(out, &wout[i]);
    out->structures = structures;
    collect_states(w, nworkers, p, out, pool);
    (void)out_arena;
    if (sh.timed) print_stats(w, nworkers, out);
  }
  if (!ok) { /* an error here: the helpers may still be searching */
    __atomic_store_n(&sh.stop, 1, __ATOMIC_RELAXED);
    for (int i = 0; i < pool_size(pool); i++) pool_wait(pool, i);
  }
  for (int i = 0; i < nworkers; i++) worker_free(&w[i]);
  free(w);
  free(wout);
  free(paths);
  free(choice);
  arena_free(&es_arena);
  arena_free(&paths_arena);
  if (!ok) err_rethrow(err);
}

int engine_val_cmp(const Program *p, Val a, Val b) {
  int ka = a.kind == VAL_INT ? 0 : a.kind == VAL_ADDR ? 1 : 2;
  int kb = b.kind == VAL_INT ? 0 : b.kind == VAL_ADDR ? 1 : 2;
  if (ka != kb) return ka - kb;
  if (ka == 0) return (a.num > b.num) - (a.num < b.num);
  if (ka == 1) {
    int c = strcmp(intern_name(&p->syms, a.sym), intern_name(&p->syms, b.sym));
    if (c) return c;
    return (a.num > b.num) - (a.num < b.num);
  }
  if (a.sym != b.sym) return a.sym - b.sym;
  return strcmp(intern_name(&p->labels, (int)a.num), intern_name(&p->labels, (int)b.num));
}
