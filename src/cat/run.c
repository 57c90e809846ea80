/*
 * run.c — executing a compiled model on the current candidate.
 *
 * The top-level list is flat (includes and variant blocks were expanded
 * by the compiler), so the only non-local control flow is `with x from S`,
 * which runs the rest of the list once per element of S: that is a loop
 * around a recursive call on the next instruction index.  Procedure
 * bodies, `forall` and instruction-level `match` run as blocks that either
 * succeed (possibly raising flags) or reject the execution.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cprog.h"

Run *run_new(const CProg *p, CatHost host, Err *err) {
  Run *r = xcalloc(1, sizeof(Run));
  r->prog = p;
  r->host = host;
  r->err = err;
  r->g = xcalloc((size_t)p->nglobals + 1, sizeof(GSlot));
  r->ecache = xcalloc((size_t)p->ncache + 1, sizeof(ECache));
  for (int i = 0; i < MAX_LEVELS; i++) arena_init(&r->levels[i]);
  arena_init(&r->es_cache);
  arena_init(&r->rf_cache);
  arena_init(&r->fw_cache);
  r->slot_top = xmalloc(sizeof(int) * ((size_t)p->nglobals + 1));
  for (int s = 0; s < p->nglobals; s++) r->slot_top[s] = INT32_MAX;
  for (int i = 0; i < p->top.n; i++) {
    const CIns *ci = p->top.v[i];
    if ((ci->kind == CI_LET || ci->kind == CI_LETREC) && !ci->is_local) {
      for (int k = 0; k < ci->nslots; k++)
        if (ci->slots[k] >= 0) r->slot_top[ci->slots[k]] = i;
    } else if ((ci->kind == CI_WITH && !ci->is_local) || ci->kind == CI_ENUM) {
      if (ci->slot >= 0) r->slot_top[ci->slot] = i;
    }
  }
  struct rlimit rl;
  size_t lim = (size_t)8 << 20;
  if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) lim = rl.rlim_cur;
  r->stack_limit = MIN(lim, (size_t)256 << 20) / 4 * 3;
  return r;
}

void run_set_stack_limit(Run *r, size_t bytes) { r->stack_limit = bytes; }

bool run_slot_visible(const Run *r, int slot) { return r->slot_top[slot] < r->cur_top; }

void run_free(Run *r) {
  if (!r) return;
  for (int i = 0; i < MAX_LEVELS; i++) arena_free(&r->levels[i]);
  arena_free(&r->es_cache);
  arena_free(&r->rf_cache);
  arena_free(&r->fw_cache);
  free(r->g);
  free(r->slot_top);
  free(r->ecache);
  free(r->lmemo);
  free(r->check_cache);
  free(r->prune_off);
  free(r->shown);
  free(r->scratch);
  vec_free(r->busy);
  free(r);
}

Dim run_dim(const Run *r) { return r->d; }
RunStats run_stats(const Run *r) { return r->stats; }

Arena *run_arena(Run *r, int stage) {
  return stage == STAGE_ES   ? &r->es_cache
         : stage == STAGE_RF ? &r->rf_cache
         : stage == STAGE_FW ? &r->fw_cache
                             : &r->levels[0];
}

void run_begin_structure(Run *r, Dim d, const Word *universe) {
  arena_free(&r->es_cache);
  arena_init(&r->es_cache);
  arena_free(&r->rf_cache);
  arena_init(&r->rf_cache);
  arena_free(&r->fw_cache);
  arena_init(&r->fw_cache);
  r->d = d;
  r->gen_es = ++r->gen_counter;
  r->gen_rf = ++r->gen_counter;
  r->gen_fw = ++r->gen_counter;
  r->univ = arena_alloc(&r->es_cache, sizeof(Word) * (size_t)d.w);
  set_copy(d, r->univ, universe);
  Value *u = arena_alloc(&r->es_cache, sizeof(Value));
  memset(u, 0, sizeof *u);
  u->kind = V_SET;
  u->u.bits = r->univ;
  r->univ_set = u;
  if (!r->scratch || r->scratch_n < 3 * d.n) {
    free(r->scratch);
    r->scratch_n = 3 * d.n + 64;
    r->scratch = xmalloc(sizeof(int) * (size_t)r->scratch_n);
  }
}

void run_begin_rf(Run *r) {
  arena_rewind(&r->rf_cache);
  r->gen_rf = ++r->gen_counter;
  run_begin_fw(r);
}

void run_begin_fw(Run *r) {
  arena_rewind(&r->fw_cache);
  r->gen_fw = ++r->gen_counter;
}

void run_set_one_fw(Run *r, bool one) { r->one_fw = one; }

uint64_t run_stage_gen(const Run *r, int stage) {
  return stage == STAGE_ES ? r->gen_es : stage == STAGE_RF ? r->gen_rf : r->gen_fw;
}

/* Values the host builds. */
Value *val_set(Arena *a, Dim d, const Word *bits) {
  Value *v = arena_zalloc(a, sizeof(Value));
  v->kind = V_SET;
  v->u.bits = arena_alloc(a, sizeof(Word) * (size_t)d.w);
  set_copy(d, v->u.bits, bits);
  return v;
}

Value *val_rel(Arena *a, Dim d, const Word *bits) {
  Value *v = arena_zalloc(a, sizeof(Value));
  v->kind = V_REL;
  v->u.bits = arena_alloc(a, sizeof(Word) * (size_t)rel_words(d));
  rel_copy(d, v->u.bits, bits);
  return v;
}

Value *val_empty(Arena *a) {
  Value *v = arena_zalloc(a, sizeof(Value));
  v->kind = V_EMPTY;
  return v;
}

/* ------------------------------------------------------------ checks */

static bool check_holds(Run *r, const CIns *ci, Value *v) {
  bool ok;
  switch (ci->test) {
  case T_EMPTY:
    switch (v->kind) {
    case V_EMPTY:
      ok = true;
      break;
    case V_SET:
      ok = set_is_empty(r->d, v->u.bits);
      break;
    case V_REL:
      ok = rel_is_empty(r->d, v->u.bits);
      break;
    case V_VSET:
      ok = v->n == 0;
      break;
    case V_LIN:
    case V_PROD:
      ok = lazy_is_empty(v);
      break;
    case V_UNIV:
      ok = set_is_empty(r->d, r->univ);
      break;
    case V_EVENT:
    case V_PAIR:
      ok = false;
      break;
    default:
      cat_error(r, ci->pos, "type error: empty of a non-set value");
    }
    break;
  case T_IRREFLEXIVE: {
    Value *x = as_rel(r, v, ci->pos);
    ok = rel_irreflexive(r->d, x->u.bits);
    break;
  }
  case T_ACYCLIC:
  default: {
    Value *x = as_rel(r, v, ci->pos);
    ok = rel_acyclic(r->d, x->u.bits, r->scratch);
    break;
  }
  }
  return ci->negated ? !ok : ok;
}

static Value *eval_top_expr(Run *r, const CExpr *e, int nlocals, Frame *f) {
  if (!f) f = frame_new(r, nlocals, NULL);
  int saved = r->wm;
  r->wm = STAGE_ES;
  Value *v = cat_eval(r, e, f);
  r->wm = MAX(saved, r->wm);
  return v;
}

/* The result of a top-level check whose expression is of stage <= 2: it
 * holds as long as that stage's cache (a check on what depends on rf
 * only is the same for all the final-write choices and coherence orders
 * of an rf). */
typedef struct CheckCache {
  uint64_t gen;
  uint8_t stage;
  bool valid, ok;
} CheckCache;

/* Outcome of one check: false when the execution is rejected. */
static bool do_check(Run *r, const CIns *ci, Frame *f, uint64_t *flags) {
  if (ci->skipped) return true;
  if (ci->prune_with >= 0 && ci->prune_with == r->skip_with &&
      !(r->prune_off && r->prune_off[ci->check_slot]))
    return true;
  if (ci->mode == CM_CHECK && r->prog->through != THROUGH_NONE) return true;
  CheckCache *cc = NULL;
  bool ok;
  Value *v = NULL;
  if (ci->check_slot >= 0 && !f && !(r->mode & RUN_EXPLAIN)) {
    if (!r->check_cache)
      r->check_cache = xcalloc((size_t)r->prog->ncheck_slots + 1, sizeof(CheckCache));
    cc = &r->check_cache[ci->check_slot];
  }
  if (cc && cc->valid && cc->gen == run_stage_gen(r, cc->stage)) {
    ok = cc->ok;
    r->wm = MAX(r->wm, cc->stage);
  } else {
    int saved_wm = r->wm;
    r->wm = STAGE_ES;
    v = eval_top_expr(r, ci->e, ci->nlocals, f);
    int st = r->wm;
    r->wm = MAX(saved_wm, st);
    ok = check_holds(r, ci, v);
    if (cc) {
      cc->valid = st <= STAGE_FW;
      cc->stage = (uint8_t)st;
      cc->gen = cc->valid ? run_stage_gen(r, st) : 0;
      cc->ok = ok;
    }
  }
  switch (ci->mode) {
  case CM_CHECK:
    if (!ok && (r->mode & RUN_EXPLAIN) && r->host.reject) {
      CatFailure fl = {ci->check_name >= 0 ? intern_name(&r->prog->names->in, ci->check_name) : NULL,
                       (int)ci->test, ci->negated, ci->pos, v, ci->e};
      r->host.reject(r->host.ctx, &fl);
    }
    return ok;
  case CM_FLAG:
    if (ok && ci->flag >= 0) *flags |= (uint64_t)1 << ci->flag;
    return true;
  case CM_UNDEFINED_UNLESS:
    if (!ok) *flags |= (uint64_t)1 << FLAG_UNDEF;
    return true;
  case CM_ASSERT:
    if (!ok)
      cat_error(r, ci->pos, "%s assertion failed, check input test.",
                ci->check_name >= 0
                    ? intern_name(&r->prog->names->in, ci->check_name)
                    : "(unknown)");
    return true;
  }
  return ok;
}

/* ---------------------------------------------------------- bindings */

static bool cache_valid(const Run *r, const GSlot *g) {
  if (!g->cached || g->cached_stage > STAGE_FW) return false;
  return g->cached_gen == run_stage_gen(r, g->cached_stage);
}

static void bind_global(Run *r, int slot) {
  if (slot < 0) return;
  GSlot *g = &r->g[slot];
  if (cache_valid(r, g)) {
    g->state = SLOT_VALUE;
    g->v = g->cached;
    g->stage = g->cached_stage;
    r->stats.cache_hits++;
    return;
  }
  g->cached = NULL;
  g->state = SLOT_THUNK;
}

void run_bind_global(Run *r, int slot, Value *v, int stage) {
  GSlot *g = &r->g[slot];
  if (stage == STAGE_CO && r->prog->global_kind[slot] == GK_WITH) r->gen_co = ++r->gen_counter;
  g->state = SLOT_VALUE;
  g->v = v;
  g->stage = (uint8_t)stage;
}

/* The last fixpoint of a let rec group whose members are relational
 * expressions over outside names (analyse.c), with the values of those
 * names: when they are equal again, so is the least fixpoint (the
 * iteration reads nothing else).  Storage is fixed per structure and
 * overwritten by the next evaluation that misses, which happens only
 * once the values handed out before are dead (another branch or
 * candidate: a group is evaluated once per branch). */
typedef struct LetrecMemo {
  uint64_t gen;        /* gen_es of the storage */
  bool valid;
  Value *in, *out;     /* nmemo_in inputs, nslots outputs */
} LetrecMemo;

static bool memo_storable(const Value *v) {
  return v->kind == V_EMPTY || v->kind == V_SET || v->kind == V_REL;
}

static void memo_store(Run *r, Value *dst, const Value *v) {
  Word *bits = dst->u.bits;
  *dst = *v;
  dst->u.bits = bits;
  if (v->kind == V_SET) set_copy(r->d, bits, v->u.bits);
  if (v->kind == V_REL) rel_copy(r->d, bits, v->u.bits);
}

static LetrecMemo *letrec_memo(Run *r, int index, const CIns *ci) {
  if (!r->lmemo) r->lmemo = xcalloc((size_t)r->prog->top.n + 1, sizeof(LetrecMemo));
  LetrecMemo *m = &r->lmemo[index];
  if (m->gen != r->gen_es) {
    int nv = ci->nmemo_in + ci->nslots;
    Value *v = arena_zalloc(&r->es_cache, sizeof(Value) * (size_t)(nv + 1));
    for (int k = 0; k < nv; k++)
      v[k].u.bits = arena_alloc(&r->es_cache, sizeof(Word) * (size_t)rel_words(r->d));
    m->in = v;
    m->out = v + ci->nmemo_in;
    m->gen = r->gen_es;
    m->valid = false;
  }
  return m;
}

/* let rec of non-function values at top level: the least fixpoint of the
 * group, computed when one of its names is first used (or at once with a
 * `when` test, which may reject the execution); reused from the cache
 * when every member is still valid, or from the memo when its inputs are
 * unchanged. */
static bool letrec_fix(Run *r, const CIns *ci) {
  int saved_wm = r->wm, saved_level = r->level;
  LetrecMemo *m = NULL;
  Value **in = NULL;
  if (ci->nmemo_in >= 0) {
    m = letrec_memo(r, r->slot_top[ci->slots[0]], ci);
    in = arena_alloc(run_cur(r), sizeof(Value *) * (size_t)(ci->nmemo_in + 1));
    int st_in = STAGE_ES;
    r->level = r->prog->global_depth[ci->slots[0]];
    bool same = m->valid;
    for (int k = 0; k < ci->nmemo_in; k++) {
      r->wm = STAGE_ES;
      in[k] = cat_eval(r, ci->memo_in[k], NULL);
      st_in = MAX(st_in, r->wm);
      same = same && val_compare(r, &m->in[k], in[k]) == 0;
    }
    r->level = saved_level;
    if (same) {
      for (int i = 0; i < ci->nslots; i++) run_bind_global(r, ci->slots[i], &m->out[i], st_in);
      r->wm = st_in;
      goto fixed;
    }
  }
  for (int i = 0; i < ci->nslots; i++)
    if (!ci->binds[i].is_fun) run_bind_global(r, ci->slots[i], val_new(r, V_EMPTY), STAGE_ES);
  r->wm = STAGE_ES;
  r->level = r->prog->global_depth[ci->slots[0]];
  for (int iter = 0;; iter++) {
    bool changed = false;
    for (int i = 0; i < ci->nslots; i++) {
      if (ci->binds[i].is_fun) continue;
      int s = ci->slots[i];
      Value *old = r->g[s].v;
      Frame *f = frame_new(r, ci->slot_nlocals[i], NULL);
      Value *nw = cat_eval(r, ci->slot_exprs[i], f);
      if (ci->plus_form && nw->kind == V_REL) {
        /* nw = a1 | ... | ak (x is empty): the fixpoint is its closure,
         * reached by the iteration below after as many rounds; each round
         * would read the same names, so the stage is already known */
        Value *z = val_new_rel(r);
        rel_copy(r->d, z->u.bits, nw->u.bits);
        rel_closure(r->d, z->u.bits);
        run_bind_global(r, s, z, r->wm);
        break;
      }
      if (!fix_stable(r, old, nw, ci->pos)) changed = true;
      run_bind_global(r, s, nw, r->wm);
    }
    if (ci->when_e) {
      /* `when`: the fixpoint is abandoned, and the execution rejected, as
       * soon as the test fails on an intermediate value. */
      CIns tmp = *ci;
      tmp.test = ci->when->test;
      tmp.negated = ci->when->negated;
      Value *v = eval_top_expr(r, ci->when_e, ci->nlocals, NULL);
      if (!check_holds(r, &tmp, v)) {
        r->level = saved_level;
        r->wm = MAX(saved_wm, r->wm);
        return false;
      }
    }
    if (!changed) break;
    if (iter > 100000) cat_error(r, ci->pos, "let rec does not converge");
  }
  if (m) {
    bool ok = true;
    for (int k = 0; k < ci->nmemo_in && ok; k++) ok = memo_storable(in[k]);
    for (int i = 0; i < ci->nslots && ok; i++) ok = memo_storable(r->g[ci->slots[i]].v);
    m->valid = ok;
    if (ok) {
      for (int k = 0; k < ci->nmemo_in; k++) memo_store(r, &m->in[k], in[k]);
      for (int i = 0; i < ci->nslots; i++) memo_store(r, &m->out[i], r->g[ci->slots[i]].v);
    }
  }
fixed:;
  int st = r->wm;
  r->level = saved_level;
  for (int i = 0; i < ci->nslots; i++) {
    if (ci->binds[i].is_fun) continue;
    GSlot *g = &r->g[ci->slots[i]];
    g->stage = (uint8_t)st;
    if (st <= STAGE_FW && !val_has_closure(g->v)) {
      g->cached = val_cache_copy(r, st, r->prog->global_depth[ci->slots[0]], g->v);
      g->cached_stage = (uint8_t)st;
      g->cached_gen = run_stage_gen(r, st);
    }
  }
  r->wm = MAX(saved_wm, st);
  return true;
}

void run_letrec_force(Run *r, const CIns *ci) { letrec_fix(r, ci); }

static bool letrec_global(Run *r, const CIns *ci) {
  if (ci->when_e) return letrec_fix(r, ci);
  bool all_cached = true;
  for (int i = 0; i < ci->nslots; i++)
    if (!ci->binds[i].is_fun && !cache_valid(r, &r->g[ci->slots[i]])) all_cached = false;
  for (int i = 0; i < ci->nslots; i++) {
    if (ci->binds[i].is_fun || all_cached) {
      bind_global(r, ci->slots[i]);
    } else {
      r->g[ci->slots[i]].cached = NULL;
      r->g[ci->slots[i]].state = SLOT_THUNK; /* forced by run_letrec_force */
    }
  }
  return true;
}

/* ------------------------------------------------------------ blocks */

static bool exec_block(Run *r, const CInsList *l, Frame *f, uint64_t *flags);

static Value *tag_set_of(Run *r, int type) {
  const EnumType *et = &r->prog->enums[type];
  Value **v = arena_alloc(run_cur(r), sizeof(Value *) * (size_t)(et->ntags + 1));
  for (int i = 0; i < et->ntags; i++) {
    v[i] = val_new(r, V_TAG);
    v[i]->n = type;
    v[i]->u.tag = i;
  }
  Value *s = val_new(r, V_VSET);
  s->n = et->ntags;
  s->u.elems = v;
  return s;
}

/* Elements of a set value, for `forall` and `with`. */
static int elements(Run *r, Value *s, Value ***out, SrcPos pos) {
  s = lazy_force(r, s);
  if (s->kind == V_EMPTY) return 0;
  if (s->kind == V_VSET) {
    *out = s->u.elems;
    return s->n;
  }
  if (s->kind == V_UNIV) s = r->univ_set;
  if (s->kind == V_SET) {
    int n = set_count(r->d, s->u.bits), k = 0;
    Value **v = arena_alloc(run_cur(r), sizeof(Value *) * (size_t)(n + 1));
    for (int i = set_next(r->d, s->u.bits, 0); i >= 0; i = set_next(r->d, s->u.bits, i + 1)) {
      v[k] = val_new(r, V_EVENT);
      v[k++]->u.ev = i;
    }
    *out = v;
    return k;
  }
  if (s->kind == V_REL) {
    int n = rel_count(r->d, s->u.bits), k = 0;
    Value **v = arena_alloc(run_cur(r), sizeof(Value *) * (size_t)(n + 1));
    for (int i = 0; i < r->d.n; i++) {
      const Word *row = rel_crow(r->d, s->u.bits, i);
      for (int j = set_next(r->d, row, 0); j >= 0; j = set_next(r->d, row, j + 1)) {
        v[k] = val_new(r, V_PAIR);
        v[k]->u.pair.a = i;
        v[k++]->u.pair.b = j;
      }
    }
    *out = v;
    return k;
  }
  cat_error(r, pos, "type error: set expected");
}

static void bind_local_let(Run *r, const CIns *ci, Frame *f) {
  for (int k = 0; k < ci->nslots; k++) {
    int s = ci->slots[k];
    if (s < 0) continue;
    f->s[s].state = SLOT_THUNK;
    f->s[s].e = ci->slot_exprs[k];
  }
}

static void push_shown(Run *r, const char *name, const Value *v) {
  if (r->nshown == r->capshown) {
    r->capshown = r->capshown ? 2 * r->capshown : 32;
    r->shown = xrealloc(r->shown, sizeof(CatShown) * (size_t)r->capshown);
  }
  r->shown[r->nshown].name = name;
  r->shown[r->nshown].v = v;
  r->nshown++;
}

/* One shown expression; an error only means it is not drawn, as in herd7.
 * A function of its own so that no loop variable lives across setjmp. */
static void show_one(Run *r, const char *name, const CExpr *e, int nlocals, Frame *f) {
  ErrJmp j;
  int saved_level = r->level, saved_wm = r->wm, saved_busy = r->busy.len;
  int saved_quiet = r->quiet;
  err_push(r->err, &j);
  if (setjmp(j.jb) == 0) {
    r->quiet++;
    Value *v = eval_top_expr(r, e, nlocals, f);
    r->quiet--;
    err_pop(r->err, &j);
    push_shown(r, name, v);
  } else {
    run_undo_busy(r, saved_busy);
    r->level = saved_level;
    r->wm = saved_wm;
    r->quiet = saved_quiet;
  }
}

/* Capture mode: evaluate what a show instruction names. */
static void record_show(Run *r, const CIns *ci, Frame *f) {
  for (int k = 0; k < ci->nshow; k++) {
    const char *name = intern_name(&r->prog->names->in, ci->show_names[k]);
    if (ci->unshow || !ci->show_exprs[k]) push_shown(r, name, NULL);
    else show_one(r, name, ci->show_exprs[k], ci->nlocals, f);
  }
}

/* One instruction that is not a fork; false if the execution is rejected. */
static bool exec_simple(Run *r, const CIns *ci, Frame *f, uint64_t *flags) {
  switch (ci->kind) {
  case CI_LET:
  case CI_LETREC:
    if (ci->is_local) {
      bind_local_let(r, ci, f);
      return true;
    }
    if (ci->kind == CI_LETREC) return letrec_global(r, ci);
    for (int k = 0; k < ci->nslots; k++) bind_global(r, ci->slots[k]);
    return true;
  case CI_CHECK:
    return do_check(r, ci, f, flags);
  case CI_CALL: {
    if (ci->call_skipped) return true;
    stack_guard(r, ci->pos);
    Value *arg = eval_top_expr(r, ci->e, ci->nlocals, f);
    Frame *pf = frame_new(r, ci->proc->nlocals, NULL);
    const CPat *p = &ci->proc->param;
    if (p->is_tuple && p->n == 1 && !(arg->kind == V_TUPLE && arg->n == 1)) {
      /* procedure P(x) called as P(e): the single formal takes e */
      CPat one = {false, p->slots[0], NULL, 0};
      bind_pat(r, pf, &one, arg, ci->pos);
    } else {
      bind_pat(r, pf, p, arg, ci->pos);
    }
    return exec_block(r, &ci->proc->body, pf, flags);
  }
  case CI_FORALL: {
    Value *s = eval_top_expr(r, ci->e, ci->nlocals, f);
    Value **el;
    int n = elements(r, s, &el, ci->pos);
    for (int i = 0; i < n; i++) {
      Frame *bf = frame_new(r, ci->forall_nlocals, f);
      bf->s[ci->slot].state = SLOT_VALUE;
      bf->s[ci->slot].v = el[i];
      bf->s[ci->slot].stage = (uint8_t)r->wm;
      if (!exec_block(r, &ci->body, bf, flags)) return false;
    }
    return true;
  }
  case CI_MATCH: {
    Value *t = eval_top_expr(r, ci->e, ci->nlocals, f);
    if (t->kind != V_TAG) cat_error(r, ci->pos, "type error: tag expected");
    for (int i = 0; i < ci->nclauses; i++)
      if (ci->clauses[i].tag == t->u.tag || ci->clauses[i].tag == -1) {
        Frame *bf = frame_new(r, ci->forall_nlocals, f);
        return exec_block(r, &ci->clauses[i].body, bf, flags);
      }
    cat_error(r, ci->pos, "pattern matching failed");
  }
  case CI_ENUM:
    run_bind_global(r, ci->slot, tag_set_of(r, ci->enum_type), STAGE_ES);
    return true;
  case CI_DEBUG:
    return true;
  case CI_SHOW:
    if (r->mode & RUN_CAPTURE) record_show(r, ci, f);
    return true;
  case CI_WITH:
    cat_error(r, ci->pos, "`with` is not allowed here");
  }
  return true;
}

static bool exec_block(Run *r, const CInsList *l, Frame *f, uint64_t *flags) {
  for (int i = 0; i < l->n; i++)
    if (!exec_simple(r, l->v[i], f, flags)) return false;
  return true;
}

/* The top-level list from index i; forks at `with`. */
void run_top(Run *r, int i, uint64_t flags) {
  const CInsList *l = &r->prog->top;
  for (; i < l->n; i++) {
    const CIns *ci = l->v[i];
    r->cur_top = i;
    if (ci->kind != CI_WITH) {
      if (!exec_simple(r, ci, NULL, &flags)) return;
      continue;
    }
    Value *set = eval_top_expr(r, ci->e, ci->nlocals, NULL);
    if (r->mode & RUN_EXPLAIN)
      run_with_plain(r, i, set, flags); /* every candidate, checks in order */
    else
      run_with(r, i, set, flags);
    return;
  }
  r->cur_top = l->n;
  r->stats.accepted++;
  r->host.accept(r->host.ctx, flags, r->shown, r->nshown, r->mult);
}

/* One branch per element, no search (sets that are not of relations). */
void run_with_plain(Run *r, int i, Value *s, uint64_t flags) {
  const CIns *ci = r->prog->top.v[i];
  Value **el;
  int n = elements(r, s, &el, ci->pos);
  int saved_level = r->level;
  Arena *a = &r->levels[ci->depth];
  int saved_shown = r->nshown;
  for (int k = 0; k < n; k++) {
    ArenaMark m = arena_mark(a);
    r->level = ci->depth;
    r->stats.forks++;
    run_bind_global(r, ci->slot, el[k], STAGE_CO);
    run_top(r, i + 1, flags);
    r->nshown = saved_shown;
    r->level = saved_level;
    arena_reset(a, m);
  }
}

/* Probe mode (search.c): bind as usual and evaluate only the checks that
 * CI_WITH number with_index may prune with; stop at the next with. */
bool run_probe(Run *r, int from, int with_index) {
  const CInsList *l = &r->prog->top;
  uint64_t flags = 0;
  for (int i = from; i < l->n; i++) {
    const CIns *ci = l->v[i];
    switch (ci->kind) {
    case CI_WITH:
      return true;
    case CI_CHECK:
      if (ci->prune_with == with_index && !(r->prune_off && r->prune_off[ci->check_slot]) &&
          !do_check(r, ci, NULL, &flags))
        return false;
      break;
    case CI_LET:
    case CI_LETREC:
    case CI_ENUM:
      if (!exec_simple(r, ci, NULL, &flags)) return false;
      break;
    default:
      break;
    }
  }
  return true;
}

void run_poll_now(Run *r) {
  r->poll_work = 0;
  if (r->stop_jb && r->host.stop && r->host.stop(r->host.ctx)) {
    r->err->top = r->stop_top; /* handlers of try inside: gone */
    longjmp(*r->stop_jb, 1);
  }
}

void run_model(Run *r) {
  char base;
  r->stack_base = &base;
  jmp_buf stop;
  r->stop_top = r->err->top;
  if (setjmp(stop) != 0) {
    /* the host stopped the run (a limit): nothing more of it is used */
    r->stop_jb = NULL;
    return;
  }
  r->stop_jb = &stop;
  for (int i = 0; i < MAX_LEVELS; i++) arena_rewind(&r->levels[i]);
  r->level = 0;
  r->wm = STAGE_ES;
  r->call_depth = 0;
  r->quiet = 0;
  r->busy.len = 0;
  r->skip_with = -1;
  r->gen_co = ++r->gen_counter;
  r->nshown = 0;
  r->sym_used = 0;
  r->mult = 1;
  r->stats.runs++;
  run_top(r, 0, 0);
  r->stop_jb = NULL;
}

void run_set_symmetry(Run *r, const int *class_of, int nclasses) {
  r->sym_class = class_of;
  r->nsym = MIN(nclasses, 64);
}

void run_set_mode(Run *r, int mode) { r->mode = mode; }

const Word *val_bits(const Value *v, bool *is_set) {
  if (v->kind != V_SET && v->kind != V_REL) return NULL;
  if (is_set) *is_set = v->kind == V_SET;
  return v->u.bits;
}

void run_foreach_relation(Run *r, void (*fn)(void *ctx, const char *name, const Value *v),
                          void *ctx) {
  for (int s = 0; s < r->prog->nglobals; s++) {
    const GSlot *g = &r->g[s];
    int name = r->prog->global_name[s];
    if (name < 0 || !run_slot_visible(r, s) || g->state != SLOT_VALUE || !g->v ||
        g->v->kind != V_REL)
      continue;
    fn(ctx, intern_name(&r->prog->names->in, name), g->v);
  }
}
