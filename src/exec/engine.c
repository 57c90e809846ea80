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
#include <time.h>

#include "es.h"
#include "sem.h"

/* ------------------------------------------------------ predefined names */

typedef enum Pd {
  PD_NONE = 0,
  /* sets */
  PD_M, PD_R, PD_W, PD_IW, PD_FW, PD_F, PD_B, PD_BCC, PD_PRED, PD_RREG,
  PD_WREG, PD_DATAPORT, PD_NDATA, PD_EXP, PD_NEXP, PD_AMO_SET, PD_CUTOFF,
  PD_NOLOC, PD_EMPTY_SET,
  /* relations */
  PD_ID, PD_LOC, PD_INT, PD_EXT, PD_PO, PD_RF, PD_RMW, PD_AMO, PD_ADDR,
  PD_DATA, PD_CTRL, PD_DEPEND, PD_CONTROL, PD_SM, PD_IICO_DATA,
  PD_IICO_CTRL, PD_RF_REG, PD_PCO, PD_SAME_INSTANCE, PD_SAME_STATIC,
  PD_EMPTY_REL,
  PD_COUNT,
  PD_TAG = 1000, /* + bit index: an architecture set from the tag table */
} Pd;

static const struct {
  const char *name;
  int pd;
} pd_names[] = {
    {"M", PD_M},         {"R", PD_R},           {"W", PD_W},
    {"IW", PD_IW},       {"I", PD_IW},          {"FW", PD_FW},
    {"F", PD_F},         {"B", PD_B},           {"C", PD_B},
    {"BCC", PD_BCC},     {"PRED", PD_PRED},     {"Rreg", PD_RREG},
    {"Wreg", PD_WREG},   {"DATA", PD_DATAPORT}, {"NDATA", PD_NDATA},
    {"Exp", PD_EXP},     {"NExp", PD_NEXP},     {"AMO", PD_AMO_SET},
    {"CutOff", PD_CUTOFF}, {"no-loc", PD_NOLOC}, {"SPEC", PD_EMPTY_SET},
    {"EXEC", PD_EMPTY_SET}, {"SPURIOUS", PD_EMPTY_SET},
    {"id", PD_ID},       {"loc", PD_LOC},       {"int", PD_INT},
    {"ext", PD_EXT},     {"po", PD_PO},         {"rf", PD_RF},
    {"rmw", PD_RMW},     {"amo", PD_AMO},       {"addr", PD_ADDR},
    {"data", PD_DATA},   {"ctrl", PD_CTRL},     {"depend", PD_DEPEND},
    {"control", PD_CONTROL}, {"sm", PD_SM},     {"si", PD_SM},
    {"aligned", PD_SM},  {"iico_data", PD_IICO_DATA},
    {"iico_ctrl", PD_IICO_CTRL}, {"rf-reg", PD_RF_REG}, {"pco", PD_PCO},
    {"same-instance", PD_SAME_INSTANCE}, {"same-instr", PD_SAME_INSTANCE},
    {"same-static", PD_SAME_STATIC}, {"success", PD_EMPTY_REL},
    {"tst", PD_EMPTY_REL}, {"membar.cta", PD_EMPTY_REL},
    {"membar.gl", PD_EMPTY_REL}, {"membar.sys", PD_EMPTY_REL},
};

/* Stage of each predefined kind when every address is known statically;
 * rf-dependent ones are stage 1 always. */
static bool pd_is_rf(int pd) {
  return pd == PD_FW || pd == PD_RF || pd == PD_PCO;
}
static bool pd_needs_values(int pd) {
  return pd == PD_LOC || pd == PD_RMW || pd == PD_AMO || pd == PD_NOLOC;
}

/* ---------------------------------------------------------- the engine */

typedef struct StateSet {
  Val *vals;         /* cap * ndisp */
  uint64_t *hash;    /* 0 = empty slot */
  int cap, count, ndisp;
} StateSet;

typedef struct Engine {
  Program *p;
  const Test *t;
  const CProg *prog;
  const EngineOpts *o;
  Err *err;
  Run *run;
  int *pd_of_name;         /* name id -> Pd (0 none) */
  int nnames;
  /* current structure */
  EventStructure *es;
  Arena es_arena;
  bool catdep;
  Dim d;                   /* dimension of model relations */
  Dim full;
  bool static_locs;        /* every address is a constant */
  Deps deps;
  bool have_deps;
  Value **pre_es;          /* PD_COUNT + TAG_MAX */
  Value **pre_rf;
  Arena *rf_arena;
  /* current candidate */
  int *rf_src;             /* per read index: the write it reads from */
  int **cands;             /* per read index: candidate writes */
  int *ncands;
  Val *vals;               /* per node */
  uint8_t *vstate;         /* 0 unknown, 1 busy, 2 done, 3 failed */
  int *fw;                 /* per symbol: final write or -1 */
  Val *state;              /* displayed locations, current candidate */
  bool cond_true;
  /* outcomes */
  StateSet set;
  Outcome *out;
  clock_t start;
} Engine;

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
static bool eval_node(Engine *g, Sym s, Val *out) {
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
    int ev = n->a;
    int ri = -1;
    for (int i = 0; i < g->es->nreads; i++)
      if (g->es->reads[i] == ev) {
        ri = i;
        break;
      }
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
static bool ev_loc(Engine *g, int e, Val *out) {
  return eval_node(g, g->es->ev[e].loc, out) && out->kind == VAL_ADDR;
}

/* --------------------------------------------------- building values */

static Dim model_dim(const Engine *g) { return g->d; }

static Value *mk_set_pd(Engine *g, int stage, bool (*pred)(const Engine *, int)) {
  Dim d = model_dim(g);
  Word *bits = arena_zalloc(run_arena(g->run, stage), sizeof(Word) * (size_t)d.w);
  for (int i = 0; i < d.n; i++)
    if (pred(g, i)) bit_set(bits, i);
  Value *v = arena_zalloc(run_arena(g->run, stage), sizeof(Value));
  v->kind = V_SET;
  v->u.bits = bits;
  return v;
}

static Value *wrap_rel(Engine *g, int stage, Word *bits) {
  Value *v = arena_zalloc(run_arena(g->run, stage), sizeof(Value));
  v->kind = V_REL;
  v->u.bits = bits;
  return v;
}

static Word *new_rel(Engine *g, int stage) {
  Dim d = model_dim(g);
  return arena_zalloc(run_arena(g->run, stage), sizeof(Word) * (size_t)rel_words(d));
}

/* Project a full-dimension relation onto the model's events. */
static Value *project(Engine *g, int stage, const Word *full) {
  Dim d = model_dim(g);
  Word *bits = new_rel(g, stage);
  if (d.n == g->full.n) {
    rel_copy(d, bits, full);
  } else {
    for (int i = 0; i < d.n; i++) {
      const Word *row = rel_crow(g->full, full, i);
      for (int j = set_next(g->full, row, 0); j >= 0 && j < d.n;
           j = set_next(g->full, row, j + 1))
        rel_set(d, bits, i, j);
    }
  }
  return wrap_rel(g, stage, bits);
}

#define EV(i) (&g->es->ev[i])
static bool s_m(const Engine *g, int i) { return (EV(i)->flags & EV_MEM) != 0; }
static bool s_r(const Engine *g, int i) { return (EV(i)->flags & EV_R) != 0; }
static bool s_w(const Engine *g, int i) { return (EV(i)->flags & EV_W) != 0; }
static bool s_iw(const Engine *g, int i) { return (EV(i)->flags & EV_INIT) != 0; }
static bool s_f(const Engine *g, int i) { return (EV(i)->flags & EV_FENCE) != 0; }
static bool s_b(const Engine *g, int i) { return (EV(i)->flags & EV_COMMIT) != 0; }
static bool s_bcc(const Engine *g, int i) { return (EV(i)->flags & EV_BCC) != 0; }
static bool s_pred(const Engine *g, int i) { return (EV(i)->flags & EV_PRED) != 0; }
static bool s_rreg(const Engine *g, int i) { return (EV(i)->flags & EV_RREG) != 0; }
static bool s_wreg(const Engine *g, int i) { return (EV(i)->flags & EV_WREG) != 0; }
static bool s_dport(const Engine *g, int i) { return (EV(i)->flags & EV_DATAPORT) != 0; }
static bool s_ndata(const Engine *g, int i) { return !(EV(i)->flags & EV_DATAPORT); }
static bool s_exp(const Engine *g, int i) {
  return (EV(i)->flags & EV_MEM) && !(EV(i)->flags & EV_NEXP);
}
static bool s_nexp(const Engine *g, int i) {
  return (EV(i)->flags & EV_MEM) && (EV(i)->flags & EV_NEXP);
}
static bool s_amo(const Engine *g, int i) {
  return (EV(i)->flags & EV_MEM) == EV_MEM && !(EV(i)->flags & EV_INIT);
}
static bool s_cutoff(const Engine *g, int i) { return (EV(i)->flags & EV_CUTOFF) != 0; }
static bool s_noloc(const Engine *g, int i) { return !(EV(i)->flags & EV_MEM); }
static bool s_none(const Engine *g, int i) { (void)g; (void)i; return false; }
static bool s_fw(const Engine *g, int i) {
  const Event *e = EV(i);
  if (!(e->flags & EV_W)) return false;
  for (int s = 0; s < g->p->nobserved; s++)
    if (g->fw[g->p->observed[s]] == i) return true;
  return false;
}
#undef EV

static Value *tag_set(Engine *g, int bit) {
  Dim d = model_dim(g);
  Word *bits = arena_zalloc(run_arena(g->run, STAGE_ES), sizeof(Word) * (size_t)d.w);
  for (int i = 0; i < d.n; i++)
    if (g->es->ev[i].tags & ((uint64_t)1 << bit)) bit_set(bits, i);
  Value *v = arena_zalloc(run_arena(g->run, STAGE_ES), sizeof(Value));
  v->kind = V_SET;
  v->u.bits = bits;
  return v;
}

static bool same_thread(const Event *a, const Event *b) { return a->thread == b->thread; }

/* rmw pairs (litmus.md §5): an atomic read po- or iico-before an atomic
 * write to the same location, with no other atomic access po-between; on
 * X86 and C only within one instruction. */
static Value *rmw_rel(Engine *g, int stage, bool amo_only) {
  Dim d = model_dim(g);
  Word *bits = new_rel(g, stage);
  int xbit = tag_find(&g->p->tags, "X");
  uint64_t xmask = xbit >= 0 ? (uint64_t)1 << xbit : 0;
  bool same_instr_only = g->t->arch == ARCH_X86 || g->t->arch == ARCH_X86_64 ||
                         g->t->arch == ARCH_C;
  const EventStructure *es = g->es;
  for (int r = 0; r < es->nrel; r++) {
    const Event *er = &es->ev[r];
    if ((er->flags & (EV_R | EV_W)) != EV_R || !(er->tags & xmask)) continue;
    for (int w = 0; w < es->nrel; w++) {
      const Event *ew = &es->ev[w];
      if ((ew->flags & (EV_R | EV_W | EV_INIT)) != EV_W || !(ew->tags & xmask)) continue;
      if (!same_thread(er, ew)) continue;
      bool same_inst = er->inst == ew->inst;
      if (amo_only && !same_inst) continue;
      if (same_instr_only && !same_inst) continue;
      if (!same_inst && er->inst > ew->inst) continue;
      if (same_inst && !rel_get(es->full, es->iico_data, r, w) &&
          !rel_get(es->full, es->iico_ctrl, r, w) && r > w)
        continue;
      Val lr, lw;
      if (!ev_loc(g, r, &lr) || !ev_loc(g, w, &lw) || !val_eq(lr, lw)) continue;
      /* no other atomic access po-between */
      bool between = false;
      for (int k = 0; k < es->nrel && !between; k++) {
        const Event *ek = &es->ev[k];
        if (k == r || k == w || !(ek->flags & EV_MEM) || !(ek->tags & xmask)) continue;
        if (!same_thread(ek, er)) continue;
        if (ek->inst > er->inst && ek->inst < ew->inst) between = true;
      }
      if (!between) rel_set(d, bits, r, w);
    }
  }
  return wrap_rel(g, stage, bits);
}

static Value *loc_rel(Engine *g, int stage) {
  Dim d = model_dim(g);
  Word *bits = new_rel(g, stage);
  const EventStructure *es = g->es;
  Val *loc = arena_alloc(run_arena(g->run, STAGE_CO), sizeof(Val) * (size_t)(es->nrel + 1));
  bool *has = arena_alloc(run_arena(g->run, STAGE_CO), sizeof(bool) * (size_t)(es->nrel + 1));
  for (int i = 0; i < es->nrel; i++)
    has[i] = (es->ev[i].flags & EV_MEM) && ev_loc(g, i, &loc[i]);
  for (int i = 0; i < es->nrel; i++) {
    if (!has[i]) continue;
    for (int j = 0; j < es->nrel; j++)
      if (has[j] && loc[i].sym == loc[j].sym) rel_set(d, bits, i, j);
  }
  return wrap_rel(g, stage, bits);
}

static Value *compute_pd(Engine *g, int pd, int stage) {
  const EventStructure *es = g->es;
  Dim d = model_dim(g);
  switch (pd) {
  case PD_M: return mk_set_pd(g, stage, s_m);
  case PD_R: return mk_set_pd(g, stage, s_r);
  case PD_W: return mk_set_pd(g, stage, s_w);
  case PD_IW: return mk_set_pd(g, stage, s_iw);
  case PD_FW: return mk_set_pd(g, stage, s_fw);
  case PD_F: return mk_set_pd(g, stage, s_f);
  case PD_B: return mk_set_pd(g, stage, s_b);
  case PD_BCC: return mk_set_pd(g, stage, s_bcc);
  case PD_PRED: return mk_set_pd(g, stage, s_pred);
  case PD_RREG: return mk_set_pd(g, stage, s_rreg);
  case PD_WREG: return mk_set_pd(g, stage, s_wreg);
  case PD_DATAPORT: return mk_set_pd(g, stage, s_dport);
  case PD_NDATA: return mk_set_pd(g, stage, s_ndata);
  case PD_EXP: return mk_set_pd(g, stage, s_exp);
  case PD_NEXP: return mk_set_pd(g, stage, s_nexp);
  case PD_AMO_SET: return mk_set_pd(g, stage, s_amo);
  case PD_CUTOFF: return mk_set_pd(g, stage, s_cutoff);
  case PD_NOLOC: return mk_set_pd(g, stage, s_noloc);
  case PD_EMPTY_SET: return mk_set_pd(g, stage, s_none);
  case PD_ID: {
    Word *bits = new_rel(g, stage);
    for (int i = 0; i < d.n; i++) rel_set(d, bits, i, i);
    return wrap_rel(g, stage, bits);
  }
  case PD_LOC:
    return loc_rel(g, stage);
  case PD_INT:
  case PD_EXT: {
    Word *bits = new_rel(g, stage);
    for (int i = 0; i < d.n; i++)
      for (int j = 0; j < d.n; j++) {
        const Event *a = &es->ev[i], *b = &es->ev[j];
        bool same = a->thread == b->thread;
        bool in = pd == PD_INT ? same && a->thread >= 0 : !same;
        if (in) rel_set(d, bits, i, j);
      }
    return wrap_rel(g, stage, bits);
  }
  case PD_PO:
    return project(g, stage, es->po_full);
  case PD_RF: {
    Word *bits = new_rel(g, stage);
    for (int i = 0; i < es->nreads; i++) rel_set(d, bits, g->rf_src[i], es->reads[i]);
    return wrap_rel(g, stage, bits);
  }
  case PD_RMW:
    return rmw_rel(g, stage, false);
  case PD_AMO:
    return rmw_rel(g, stage, true);
  case PD_ADDR:
  case PD_DATA:
  case PD_CTRL:
  case PD_DEPEND:
    if (!g->have_deps) {
      es_deps(es, &g->deps, &g->es_arena);
      g->have_deps = true;
    }
    return project(g, stage, pd == PD_ADDR ? g->deps.addr
                             : pd == PD_DATA ? g->deps.data
                             : pd == PD_CTRL ? g->deps.ctrl : g->deps.depend);
  case PD_CONTROL:
  case PD_EMPTY_REL:
    return wrap_rel(g, stage, new_rel(g, stage));
  case PD_SM: {
    Word *bits = new_rel(g, stage);
    for (int i = 0; i < d.n; i++)
      if (es->ev[i].flags & EV_MEM) rel_set(d, bits, i, i);
    return wrap_rel(g, stage, bits);
  }
  case PD_IICO_DATA:
    return project(g, stage, es->iico_data);
  case PD_IICO_CTRL:
    return project(g, stage, es->iico_ctrl);
  case PD_RF_REG:
    return project(g, stage, es->rf_reg);
  case PD_PCO: {
    Word *bits = new_rel(g, stage);
    for (int w = 0; w < es->nrel; w++) {
      const Event *e = &es->ev[w];
      if (!(e->flags & EV_W) || (e->flags & EV_INIT)) continue;
      Val l;
      if (!ev_loc(g, w, &l)) continue;
      rel_set(d, bits, es->init_of_sym[l.sym], w);
      int f = g->fw[l.sym];
      if (f >= 0 && f != w) rel_set(d, bits, w, f);
    }
    return wrap_rel(g, stage, bits);
  }
  case PD_SAME_INSTANCE:
  case PD_SAME_STATIC: {
    Word *bits = new_rel(g, stage);
    for (int i = 0; i < d.n; i++)
      for (int j = 0; j < d.n; j++) {
        const Event *a = &es->ev[i], *b = &es->ev[j];
        if (a->thread < 0 || a->thread != b->thread) continue;
        if (pd == PD_SAME_INSTANCE ? a->inst == b->inst : a->code_index == b->code_index)
          rel_set(d, bits, i, j);
      }
    return wrap_rel(g, stage, bits);
  }
  default:
    if (pd >= PD_TAG) return tag_set(g, pd - PD_TAG);
    return NULL;
  }
}

static Value *host_predef(void *ctx, int name, int *stage) {
  Engine *g = ctx;
  if (name < 0 || name >= g->nnames) return NULL;
  int pd = g->pd_of_name[name];
  if (!pd) return NULL;
  bool rf = pd_is_rf(pd) || (pd_needs_values(pd) && !g->static_locs);
  int idx = pd >= PD_TAG ? PD_COUNT + (pd - PD_TAG) : pd;
  Value **cache = rf ? g->pre_rf : g->pre_es;
  *stage = rf ? STAGE_RF : STAGE_ES;
  if (!cache[idx]) cache[idx] = compute_pd(g, pd, *stage);
  return cache[idx];
}

static bool host_same_value(void *ctx, int e1, int e2) {
  Engine *g = ctx;
  Val a, b;
  const Event *x = &g->es->ev[e1], *y = &g->es->ev[e2];
  Sym sa = (x->flags & EV_R) && x->wval != SYM_NONE && !(y->flags & EV_R) ? x->wval : x->val;
  Sym sb = y->val;
  if (!eval_node(g, sa, &a) || !eval_node(g, sb, &b)) return false;
  return val_eq(a, b);
}

/* ------------------------------------------------------------- states */

static uint64_t state_hash(const Val *v, int n) {
  uint64_t h = hash_bytes(v, sizeof(Val) * (size_t)n);
  return h ? h : 1;
}

static void stateset_add(StateSet *s, const Val *v) {
  int n = s->ndisp;
  if ((s->count + 1) * 2 > s->cap) {
    int nc = s->cap ? s->cap * 2 : 64;
    Val *nv = xcalloc((size_t)nc * (size_t)(n ? n : 1), sizeof(Val));
    uint64_t *nh = xcalloc((size_t)nc, sizeof(uint64_t));
    for (int i = 0; i < s->cap; i++) {
      if (!s->hash[i]) continue;
      int j = (int)(s->hash[i] & (uint64_t)(nc - 1));
      while (nh[j]) j = (j + 1) & (nc - 1);
      nh[j] = s->hash[i];
      memcpy(nv + (size_t)j * (size_t)n, s->vals + (size_t)i * (size_t)n, sizeof(Val) * (size_t)n);
    }
    free(s->vals);
    free(s->hash);
    s->vals = nv;
    s->hash = nh;
    s->cap = nc;
  }
  uint64_t h = state_hash(v, n);
  int j = (int)(h & (uint64_t)(s->cap - 1));
  while (s->hash[j]) {
    if (s->hash[j] == h && memcmp(s->vals + (size_t)j * (size_t)n, v, sizeof(Val) * (size_t)n) == 0)
      return;
    j = (j + 1) & (s->cap - 1);
  }
  s->hash[j] = h;
  memcpy(s->vals + (size_t)j * (size_t)n, v, sizeof(Val) * (size_t)n);
  s->count++;
}

/* ------------------------------------------------------ final states */

static int64_t typed_int(const Program *p, LocType t, int64_t x) {
  int bits = t.bits ? t.bits : p->word_bits;
  if (bits >= 64) return x;
  uint64_t m = ((uint64_t)1 << bits) - 1;
  uint64_t u = (uint64_t)x & m;
  if (t.is_signed && (u >> (bits - 1)) & 1) u |= ~m;
  return (int64_t)u;
}

/* Value of a register or memory location in the final state. */
static bool final_value(Engine *g, const LitLoc *l, Val *out) {
  if (l->kind == LOC_REG) {
    if (l->thread < 0 || l->thread >= g->es->nthreads || l->regid < 0) return false;
    return eval_node(g, g->es->final_regs[l->thread][l->regid], out);
  }
  if (l->kind == LOC_GLOBAL) {
    int s = intern_find(&g->p->syms, l->sym);
    if (s < 0) return false;
    int w = g->fw[s] >= 0 ? g->fw[s] : g->es->init_of_sym[s];
    const Event *e = &g->es->ev[w];
    return eval_node(g, (e->flags & EV_R) && e->wval != SYM_NONE ? e->wval : e->val, out);
  }
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

static bool engine_loc_value(void *ctx, const LitLoc *l, Val *out) {
  return final_value((Engine *)ctx, l, out);
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

static void host_accept(void *ctx, uint64_t flags) {
  Engine *g = ctx;
  if (g->cond_true)
    g->out->pos++;
  else
    g->out->neg++;
  g->out->flags |= flags;
  stateset_add(&g->set, g->state);
}

static bool over_limits(Engine *g) {
  if (g->o->max_candidates && g->out->candidates >= g->o->max_candidates) return true;
  if (g->o->timeout > 0 &&
      (double)(clock() - g->start) / CLOCKS_PER_SEC > g->o->timeout)
    return true;
  return false;
}

/* A complete rf and final-write choice: compute the state and run the
 * model. */
static void run_candidate(Engine *g) {
  const Program *p = g->p;
  for (int i = 0; i < p->ndisp; i++) {
    const DispLoc *dl = &p->disp[i];
    LitLoc l = {0};
    if (dl->kind == DL_REG) {
      l.kind = LOC_REG;
      l.thread = dl->thread;
      l.regid = dl->reg;
    } else {
      l.kind = LOC_GLOBAL;
      l.sym = intern_name(&p->syms, dl->sym);
    }
    Val v;
    if (!final_value(g, &l, &v)) return;
    if (v.kind == VAL_INT) v.num = typed_int(p, dl->type, v.num);
    g->state[i] = v;
  }
  const Test *t = g->t;
  if (t->filter && g->o->checkfilter &&
      !prop_eval(g->p, t->filter, engine_loc_value, g))
    return;
  g->cond_true = prop_eval(g->p, t->cond, engine_loc_value, g);
  if (g->o->speedcheck != SPEED_FALSE) {
    bool interesting = t->quant == Q_FORALL ? !g->cond_true : g->cond_true;
    if (!interesting) return;
  }
  g->out->candidates++;
  for (int k = 0; k < PD_COUNT + TAG_MAX; k++) g->pre_rf[k] = NULL;
  run_begin_rf(g->run);
  run_model(g->run);
}

/* Choose the final write of observed location k, then the next. */
static void choose_fw(Engine *g, int k) {
  const Program *p = g->p;
  if (over_limits(g)) {
    g->out->limit_hit = true;
    return;
  }
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
  choose_fw(g, 0);
}

static void choose_rf(Engine *g, int i) {
  if (g->out->limit_hit) return;
  if (i == g->es->nreads) {
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
static void compute_candidates(Engine *g) {
  const EventStructure *es = g->es;
  Arena *a = &g->es_arena;
  g->cands = ARENA_NEWN(a, int *, es->nreads + 1);
  g->ncands = ARENA_NEWN(a, int, es->nreads + 1);
  g->rf_src = ARENA_NEWN(a, int, es->nreads + 1);
  Word *iico = ARENA_NEWN(a, Word, rel_words(es->full));
  rel_or(es->full, iico, es->iico_data, es->iico_ctrl);
  rel_closure(es->full, iico);
  for (int i = 0; i < es->nreads; i++) {
    int r = es->reads[i];
    g->cands[i] = ARENA_NEWN(a, int, es->nwrites + 1);
    const SymNode *lr = &es->nodes[es->ev[r].loc];
    for (int k = 0; k < es->nwrites; k++) {
      int w = es->writes[k];
      if (w == r || rel_get(es->full, iico, r, w)) continue;
      const SymNode *lw = &es->nodes[es->ev[w].loc];
      if (lr->op == S_CONST && lw->op == S_CONST &&
          !(lr->k.kind == VAL_ADDR && lw->k.kind == VAL_ADDR && lr->k.sym == lw->k.sym))
        continue;
      g->cands[i][g->ncands[i]++] = w;
    }
    if (g->ncands[i] == 0 && lr->op == S_CONST && lr->k.kind != VAL_ADDR)
      eng_err(g, "Non symbolic location with no initial write");
  }
}

static void run_structure(Engine *g) {
  EventStructure *es = g->es;
  g->catdep = cat_prog_catdep(g->prog);
  g->full = es->full;
  g->d = g->catdep ? es->full : dim_make(es->nrel);
  g->have_deps = false;
  g->static_locs = true;
  for (int e = 0; e < es->nrel; e++)
    if ((es->ev[e].flags & EV_MEM) && es->nodes[es->ev[e].loc].op != S_CONST)
      g->static_locs = false;
  Word *univ = ARENA_NEWN(&g->es_arena, Word, g->d.w);
  set_fill(g->d, univ);
  run_begin_structure(g->run, g->d, univ);
  for (int k = 0; k < PD_COUNT + TAG_MAX; k++) g->pre_es[k] = g->pre_rf[k] = NULL;
  g->vals = ARENA_NEWN(&g->es_arena, Val, es->nnodes + 1);
  g->vstate = ARENA_NEWN(&g->es_arena, uint8_t, es->nnodes + 1);
  g->fw = ARENA_NEWN(&g->es_arena, int, es->nsyms + 1);
  for (int s = 0; s < es->nsyms; s++) g->fw[s] = -1;
  compute_candidates(g);
  g->out->structures++;
  choose_rf(g, 0);
}

/* Name table: which names of the model are predefined for this test. */
static void setup_names(Engine *g) {
  const Interner *in = &cat_prog_names(g->prog)->in;
  g->nnames = in->count;
  g->pd_of_name = xcalloc((size_t)g->nnames + 1, sizeof(int));
  for (size_t i = 0; i < ARRAY_LEN(pd_names); i++) {
    int id = intern_find(in, pd_names[i].name);
    if (id >= 0) g->pd_of_name[id] = pd_names[i].pd;
  }
  /* Architecture sets: always-bound names, then tags seen on events. */
  const SemArch *sa = sem_arch(g->t->arch);
  if (sa && sa->set_names)
    for (int i = 0; sa->set_names[i]; i++) tag_bit(&g->p->tags, sa->set_names[i]);
  for (int b = 0; b < g->p->tags.count; b++) {
    int id = intern_find(in, g->p->tags.names[b]);
    if (id >= 0) g->pd_of_name[id] = PD_TAG + b;
  }
}

void engine_run(Program *p, const CProg *prog, const EngineOpts *o,
                Outcome *out, Arena *out_arena, Err *err) {
  Engine g;
  memset(&g, 0, sizeof g);
  g.p = p;
  g.t = p->test;
  g.prog = prog;
  g.o = o;
  g.err = err;
  g.out = out;
  g.start = clock();
  memset(out, 0, sizeof *out);
  out->ndisp = p->ndisp;
  g.set.ndisp = p->ndisp;
  g.state = xcalloc((size_t)p->ndisp + 1, sizeof(Val));
  g.pre_es = xcalloc(PD_COUNT + TAG_MAX, sizeof(Value *));
  g.pre_rf = xcalloc(PD_COUNT + TAG_MAX, sizeof(Value *));
  arena_init(&g.es_arena);
  Arena paths_arena;
  arena_init(&paths_arena);
  ThreadPaths *paths = xcalloc((size_t)p->nthreads + 1, sizeof(ThreadPaths));
  int *choice = xcalloc((size_t)p->nthreads + 1, sizeof(int));
  CatHost host = {&g, host_predef, host_same_value, host_accept};
  g.run = NULL;

  ErrJmp j;
  err_push(err, &j);
  bool ok = setjmp(j.jb) == 0;
  if (ok) {
    for (int t = 0; t < p->nthreads; t++) paths[t] = sem_explore(p, t, err, &paths_arena);
    setup_names(&g);
    g.run = run_new(prog, host, err);
    bool empty = false;
    for (int t = 0; t < p->nthreads; t++) empty |= paths[t].n == 0;
    while (!empty && !out->limit_hit) {
      arena_rewind(&g.es_arena);
      g.es = es_build(p, paths, choice, &g.es_arena);
      run_structure(&g);
      /* next combination (odometer) */
      int t = 0;
      while (t < p->nthreads && ++choice[t] == paths[t].n) choice[t++] = 0;
      if (t == p->nthreads) break;
    }
    err_pop(err, &j);
  }
  /* Outcome: sort the states as herd prints them. */
  if (ok) {
    int n = p->ndisp;
    out->nstates = g.set.count;
    out->states = arena_alloc(out_arena, sizeof(State) * (size_t)(g.set.count + 1));
    int k = 0;
    for (int i = 0; i < g.set.cap; i++) {
      if (!g.set.hash[i]) continue;
      Val *v = arena_alloc(out_arena, sizeof(Val) * (size_t)(n + 1));
      memcpy(v, g.set.vals + (size_t)i * (size_t)n, sizeof(Val) * (size_t)n);
      out->states[k++].v = v;
    }
    /* insertion sort: the number of states is small */
    for (int i = 1; i < k; i++) {
      State x = out->states[i];
      int m = i - 1;
      while (m >= 0) {
        int c = 0;
        for (int q = 0; q < n && !c; q++) c = engine_val_cmp(p, out->states[m].v[q], x.v[q]);
        if (c <= 0) break;
        out->states[m + 1] = out->states[m];
        m--;
      }
      out->states[m + 1] = x;
    }
  }
  run_free(g.run);
  free(g.pd_of_name);
  free(g.state);
  free(g.pre_es);
  free(g.pre_rf);
  free(g.set.vals);
  free(g.set.hash);
  free(paths);
  free(choice);
  arena_free(&g.es_arena);
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
