/*
 * predef.c — the names herd7 binds before running a model (cat.md §4.1,
 * §4.2): event sets (M, R, W, IW, FW, F, B, the architecture's fences and
 * annotations...) and relations (po, loc, int, ext, rf, rmw, addr, data,
 * ctrl, iico_*...).  Each is computed on first use and cached for the
 * stage it depends on: the structure (most of them), or the rf and final
 * write choice (rf, FW, pco, and loc / rmw when addresses are computed).
 */
#include <string.h>

#include "engine_int.h"
#include "sem.h"

typedef enum Pd {
  PD_NONE = 0,
  /* sets */
  PD_M, PD_R, PD_W, PD_IW, PD_FW, PD_F, PD_B, PD_BCC, PD_PRED, PD_RREG,
  PD_WREG, PD_DATAPORT, PD_NDATA, PD_EXP, PD_NEXP, PD_AMO_SET, PD_CUTOFF,
  PD_NOLOC, PD_EMPTY_SET, PD_INSTR, PD_CMODX, PD_SPEC, PD_EXEC, PD_SPURIOUS,
  /* relations */
  PD_ID, PD_LOC, PD_INT, PD_EXT, PD_PO, PD_RF, PD_RMW, PD_AMO, PD_ADDR,
  PD_DATA, PD_CTRL, PD_DEPEND, PD_CONTROL, PD_SM, PD_IICO_DATA,
  PD_IICO_CTRL, PD_IICO_ORDER, PD_RF_REG, PD_PCO, PD_SAME_INSTANCE, PD_SAME_STATIC,
  PD_SAME_INSTR,
  PD_EMPTY_REL,
  /* -variant kvm (vmsa.c) */
  PD_PTEV, PD_PTEINV, PD_INV_DOMAIN, PD_SAME_LOB, PD_PTEAF0, PD_PTEDB0, PD_READONLY,
  PD_COUNT,
  PD_TAG = 1000, /* + bit index: an architecture set from the tag table */
  PD_SCOPE = 2000, /* + k: the relation of the scope tree's k-th tag */
  PD_ARCH = 3000, /* + index: a relation of SemArch.rel_names */
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
    {"CutOff", PD_CUTOFF}, {"no-loc", PD_NOLOC}, {"SPEC", PD_SPEC},
    {"EXEC", PD_EXEC},
    /* Events of extensions corral does not model (cache maintenance, TLB
     * invalidation, memory tagging): herd binds these names, empty. */
    {"T", PD_EMPTY_SET},    {"TLBI", PD_EMPTY_SET}, {"DC.CVAU", PD_EMPTY_SET},
    {"IC.IVAU", PD_EMPTY_SET}, {"IC.IALLU", PD_EMPTY_SET},
    {"IC.IALLUIS", PD_EMPTY_SET}, {"same-low-order-bits", PD_SAME_LOB},
    {"PTEV", PD_PTEV}, {"PTEINV", PD_PTEINV}, {"PTEAF0", PD_PTEAF0},
    {"PTEDB0", PD_PTEDB0}, {"ReadOnly", PD_READONLY}, {"inv-domain", PD_INV_DOMAIN},
    {"iico_order", PD_IICO_ORDER}, {"FAULT", PD_EMPTY_SET},
    {"FAULT-RD", PD_EMPTY_SET}, {"FAULT-WR", PD_EMPTY_SET},
    {"EXC-ENTRY", PD_EMPTY_SET}, {"EXC-RET", PD_EMPTY_SET},
    {"SPURIOUS", PD_SPURIOUS},
    {"id", PD_ID},       {"loc", PD_LOC},       {"int", PD_INT},
    {"ext", PD_EXT},     {"po", PD_PO},         {"rf", PD_RF},
    {"rmw", PD_RMW},     {"amo", PD_AMO},       {"addr", PD_ADDR},
    {"data", PD_DATA},   {"ctrl", PD_CTRL},     {"depend", PD_DEPEND},
    {"control", PD_CONTROL}, {"sm", PD_SM},     {"si", PD_SM},
    {"aligned", PD_SM},  {"iico_data", PD_IICO_DATA},
    {"iico_ctrl", PD_IICO_CTRL}, {"rf-reg", PD_RF_REG}, {"pco", PD_PCO},
    {"same-instance", PD_SAME_INSTANCE}, {"same-instr", PD_SAME_INSTR},
    {"same-static", PD_SAME_STATIC}, {"success", PD_EMPTY_REL},
    {"tst", PD_EMPTY_REL}, {"membar.cta", PD_EMPTY_REL},
    {"membar.gl", PD_EMPTY_REL}, {"membar.sys", PD_EMPTY_REL},
};

_Static_assert(PD_COUNT <= 64, "predefined kinds share 64 cache slots");

/* Stage of each predefined kind when every address is known statically;
 * rf-dependent ones are stage 1 always. */
static bool pd_is_fw(int pd) { return pd == PD_FW || pd == PD_PCO; }
static bool pd_needs_values(int pd) {
  return pd == PD_LOC || pd == PD_RMW || pd == PD_AMO || pd == PD_NOLOC ||
         pd == PD_INV_DOMAIN || pd == PD_SAME_LOB || pd == PD_INSTR || pd == PD_CMODX;
}

/* ---------------------------------------------------------- the engine */

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
/* -variant deps: speculated memory accesses, and the others */
static bool s_spec(const Engine *g, int i) {
  return (EV(i)->flags & EV_MEM) && (EV(i)->flags & EV_SPEC);
}
static bool s_spurious(const Engine *g, int i) { return (EV(i)->flags & EV_SPUR) != 0; }
static bool s_exec(const Engine *g, int i) {
  return (EV(i)->flags & EV_MEM) && !(EV(i)->flags & EV_SPEC);
}
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
/* a fault at an address has one (herd's location_of) */
static bool has_fault_loc(const Event *e) { return (e->flags & EV_FAULT) && e->loc != SYM_NONE; }
static bool has_tlbi_loc(const Event *e) { return (e->flags & EV_TLBI) && e->loc != SYM_NONE; }
static bool s_noloc(const Engine *g, int i) {
  return !(EV(i)->flags & EV_MEM) && !has_fault_loc(EV(i)) && !has_tlbi_loc(EV(i));
}
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

/* Whether an iico path (data, control or order) leads from event a to
 * event b of one instruction instance. */
static bool iico_path(const EventStructure *es, int a, int b) {
  /* an instance has fewer than 64 events (sem.c): search them */
  int seen[64], n = 0, next = 0;
  seen[n++] = a;
  while (next < n) {
    int x = seen[next++];
    for (int y = 0; y < es->n; y++) {
      if (es->ev[y].thread != es->ev[a].thread || es->ev[y].inst != es->ev[a].inst) continue;
      if (!rel_get(es->full, es->iico_data, x, y) && !rel_get(es->full, es->iico_ctrl, x, y) &&
          !rel_get(es->full, es->iico_order, x, y))
        continue;
      if (y == b) return true;
      bool old = false;
      for (int k = 0; k < n && !old; k++) old = seen[k] == y;
      if (!old && n < 64) seen[n++] = y;
    }
  }
  return false;
}

/* rmw pairs (litmus.md §5): an atomic read po- or iico-before an atomic
 * write to the same location, with no other atomic access po-between; on
 * X86 and C only within one instruction. */
static Value *rmw_rel(Engine *g, int stage, bool amo_only) {
  Dim d = model_dim(g);
  Word *bits = new_rel(g, stage);
  /* the tag on both halves (C's RMW, the others' X) */
  int xbit = tag_find(&g->p->tags, isa_of(g->t->arch)->rmw_tag);
  uint64_t xmask = xbit >= 0 ? (uint64_t)1 << xbit : 0;
  bool same_instr_only = isa_has(g->t->arch, ISA_RMW_ONE_INSTR);
  const EventStructure *es = g->es;
  for (int r = 0; r < es->nrel; r++) {
    const Event *er = &es->ev[r];
    if ((er->flags & (EV_R | EV_W)) != EV_R || !(er->tags & xmask)) continue;
    for (int w = 0; w < es->nrel; w++) {
      const Event *ew = &es->ev[w];
      if ((ew->flags & (EV_R | EV_W | EV_INIT)) != EV_W || !(ew->tags & xmask)) continue;
      if (!same_thread(er, ew)) continue;
      /* herd pairs explicit accesses together, non-explicit ones (a
       * translation walk and its hardware update) together */
      if ((er->flags & EV_NEXP) != (ew->flags & EV_NEXP)) continue;
      /* spurious updates (TTHM=), of no thread: a read and the write it
       * feeds */
      if ((er->flags | ew->flags) & EV_SPUR) {
        if ((er->flags & ew->flags & EV_SPUR) && rel_get(es->full, es->iico_data, r, w))
          rel_set(d, bits, r, w);
        continue;
      }
      bool same_inst = er->inst == ew->inst;
      if (amo_only && !same_inst) continue;
      if (same_instr_only && !same_inst) continue;
      if (!same_inst && er->inst > ew->inst) continue;
      if (same_inst && !rel_get(es->full, es->iico_data, r, w) &&
          !rel_get(es->full, es->iico_ctrl, r, w) &&
          !rel_get(es->full, es->iico_order, r, w) && r > w)
        continue;
      Val lr, lw;
      if (!ev_loc(g, r, &lr) || !ev_loc(g, w, &lw) || !val_eq(lr, lw)) continue;
      /* no other atomic access of the same explicitness between them:
       * po-between, or in the instruction of one of them and iico-after
       * the read or iico-before the write (a walk and its update between
       * a read and a write of an entry) */
      bool between = false;
      for (int k = 0; k < es->nrel && !between; k++) {
        const Event *ek = &es->ev[k];
        if (k == r || k == w || !(ek->flags & EV_MEM) || !(ek->tags & xmask)) continue;
        if (!same_thread(ek, er) || (ek->flags & EV_SPUR)) continue;
        if ((ek->flags & EV_NEXP) != (er->flags & EV_NEXP)) continue;
        if (ek->inst > er->inst && ek->inst < ew->inst) between = true;
        if (!same_inst && ek->inst == er->inst && iico_path(es, r, k)) between = true;
        if (!same_inst && ek->inst == ew->inst && iico_path(es, k, w)) between = true;
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
    has[i] = ((es->ev[i].flags & (EV_MEM | EV_LOCK)) || has_fault_loc(&es->ev[i])) &&
             ev_loc(g, i, &loc[i]);
  for (int i = 0; i < es->nrel; i++) {
    if (!has[i]) continue;
    for (int j = 0; j < es->nrel; j++)
      if (has[j] && loc[i].sym == loc[j].sym) rel_set(d, bits, i, j);
  }
  /* TLB invalidations of one entry: the same location (herd's location
   * of an Inv, TLB(x) or whatever value the register held) */
  for (int i = 0; i < es->nrel; i++) {
    if (!has_tlbi_loc(&es->ev[i]) || !eval_node(g, es->ev[i].loc, &loc[i])) continue;
    for (int j = 0; j < es->nrel; j++) {
      Val l;
      if (has_tlbi_loc(&es->ev[j]) && eval_node(g, es->ev[j].loc, &l) && val_eq(l, loc[i]))
        rel_set(d, bits, i, j);
    }
  }
  return wrap_rel(g, stage, bits);
}

/* ------------------------------------------------- VMSA (-variant kvm) */

/* The page-table entry event e writes, or else reads (herd's
 * on_pteval: either). */
static bool ev_pte(Engine *g, int e, Val *out) {
  const Event *x = &g->es->ev[e];
  if (!(x->flags & EV_MEM)) return false;
  Val v;
  if ((x->flags & EV_W) && eval_node(g, x->flags & EV_R && x->wval != SYM_NONE ? x->wval : x->val, &v) &&
      v.kind == VAL_PTE) {
    *out = v;
    return true;
  }
  if ((x->flags & EV_R) && eval_node(g, x->val, &v) && v.kind == VAL_PTE) {
    *out = v;
    return true;
  }
  return false;
}

static bool is_pte_loc(Engine *g, int e);

bool host_pte_value(void *ctx, int e, bool store, int *oa, unsigned *bits) {
  Val v;
  Engine *g = ctx;
  if (store && (!(g->es->ev[e].flags & EV_W) || !is_pte_loc(g, e))) return false;
  if (!ev_pte(g, e, &v)) return false;
  *oa = v.sym;
  *bits = (unsigned)v.num;
  return true;
}

unsigned host_pte_hw(void *ctx, int e) {
  Engine *g = ctx;
  const Program *p = g->p;
  int t = g->es->ev[e].thread;
  if (t < 0)
    return PTE_HW_NO_THREAD | (p->tthm_all_ha ? PTE_HW_HA : 0) | (p->tthm_all_hd ? PTE_HW_HD : 0);
  uint64_t b = (uint64_t)1 << t;
  return ((p->tthm_ha & b) ? PTE_HW_HA : 0) | ((p->tthm_hd & b) ? PTE_HW_HD : 0);
}

/* PTEAF0, PTEDB0: accesses of an entry with af / db clear; ReadOnly
 * (TTHM=): accesses at an entry of a valid entry whose access the
 * hardware allows (af set, or HA) and that is dirty (db set) while HD is
 * off or dbm set (herd's dirty_sets, with its thread's flags, or those
 * of every thread for an event of none). */
static Value *pte_flag_set(Engine *g, int stage, int pd) {
  Dim d = model_dim(g);
  Word *bits = arena_zalloc(run_arena(g->run, stage), sizeof(Word) * (size_t)d.w);
  for (int i = 0; i < d.n; i++) {
    Val v;
    if (!ev_pte(g, i, &v)) continue;
    bool af = (v.num >> PTE_AF) & 1, db = (v.num >> PTE_DB) & 1, dbm = (v.num >> PTE_DBM) & 1;
    bool in = false;
    if (pd == PD_PTEAF0) in = !af;
    else if (pd == PD_PTEDB0) in = !db;
    else if ((v.num >> PTE_VALID) & 1 && is_pte_loc(g, i)) {
      unsigned hw = host_pte_hw(g, i);
      in = (af || (hw & PTE_HW_HA)) && db && (!(hw & PTE_HW_HD) || dbm);
    }
    if (in) bit_set(bits, i);
  }
  Value *r = arena_zalloc(run_arena(g->run, stage), sizeof(Value));
  r->kind = V_SET;
  r->u.bits = bits;
  return r;
}

/* PTEV, PTEINV: accesses of a valid / an invalid entry */
static Value *pte_valid_set(Engine *g, int stage, bool valid) {
  Dim d = model_dim(g);
  Word *bits = arena_zalloc(run_arena(g->run, stage), sizeof(Word) * (size_t)d.w);
  for (int i = 0; i < d.n; i++) {
    Val v;
    if (ev_pte(g, i, &v) && ((v.num >> PTE_VALID) & 1) == valid) bit_set(bits, i);
  }
  Value *r = arena_zalloc(run_arena(g->run, stage), sizeof(Value));
  r->kind = V_SET;
  r->u.bits = bits;
  return r;
}

static bool is_pte_loc(Engine *g, int e) {
  Val l;
  return (g->es->ev[e].flags & EV_MEM) && ev_loc(g, e, &l) &&
         lit_sym_kind(intern_name(&g->p->syms, l.sym)) == SK_PTE;
}

/* inv-domain: a TLBI and the accesses of the entries it invalidates
 * (all entries when it has no operand), both ways. */
static Value *inv_domain_rel(Engine *g, int stage) {
  Dim d = model_dim(g);
  Word *bits = new_rel(g, stage);
  const EventStructure *es = g->es;
  for (int t = 0; t < d.n; t++) {
    if (!(es->ev[t].flags & EV_TLBI)) continue;
    Val tl = {VAL_INT, 0, 0};
    bool all = es->ev[t].loc == SYM_NONE;
    if (!all && (!eval_node(g, es->ev[t].loc, &tl) || tl.kind != VAL_TLB)) continue;
    for (int e = 0; e < d.n; e++) {
      if (!is_pte_loc(g, e)) continue;
      Val l;
      ev_loc(g, e, &l);
      if (!all) {
        const char *base = lit_sym_base(&g->p->arena, intern_name(&g->p->syms, l.sym));
        if (strcmp(base, intern_name(&g->p->syms, tl.sym)) != 0) continue;
      }
      rel_set(d, bits, t, e);
      rel_set(d, bits, e, t);
    }
  }
  return wrap_rel(g, stage, bits);
}

/* same-low-order-bits: accesses at the same offset in their page (a
 * page-table entry's is 0) */
static Value *same_lob_rel(Engine *g, int stage) {
  Dim d = model_dim(g);
  Word *bits = new_rel(g, stage);
  const EventStructure *es = g->es;
  int64_t *off = arena_alloc(run_arena(g->run, STAGE_CO), sizeof(int64_t) * (size_t)(d.n + 1));
  bool *has = arena_alloc(run_arena(g->run, STAGE_CO), sizeof(bool) * (size_t)(d.n + 1));
  for (int i = 0; i < d.n; i++) {
    Val l;
    /* accesses and faults at an address */
    has[i] = ((es->ev[i].flags & EV_MEM) || ((es->ev[i].flags & EV_FAULT) && es->ev[i].loc != SYM_NONE)) &&
             ev_loc(g, i, &l);
    off[i] = has[i] ? l.num : 0;
  }
  for (int i = 0; i < d.n; i++)
    for (int j = 0; j < d.n; j++)
      if (has[i] && has[j] && off[i] == off[j]) rel_set(d, bits, i, j);
  return wrap_rel(g, stage, bits);
}

/* The model's events by thread: nthreads + 1 sets of d.w words, the
 * initial writes (thread -1) first. */
static const Word *thread_sets(Engine *g, int stage) {
  Dim d = model_dim(g);
  const EventStructure *es = g->es;
  Word *m = arena_zalloc(run_arena(g->run, stage),
                         sizeof(Word) * (size_t)(es->nthreads + 1) * (size_t)d.w);
  for (int i = 0; i < d.n; i++)
    bit_set(m + (size_t)(es->ev[i].thread + 1) * (size_t)d.w, i);
  return m;
}

/* A scope tree (LISA): events of threads below one node of its k-th tag. */
static Value *scope_rel(Engine *g, int stage, int k) {
  Dim d = model_dim(g);
  Word *bits = new_rel(g, stage);
  const EventStructure *es = g->es;
  for (int i = 0; i < d.n; i++)
    for (int j = 0; j < d.n; j++)
      if (es->ev[i].thread >= 0 && es->ev[j].thread >= 0 &&
          scope_tree_same(g->t->scopes, k, es->ev[i].thread, es->ev[j].thread))
        rel_set(d, bits, i, j);
  return wrap_rel(g, stage, bits);
}

/* A node's integer value in the current execution, for SemArch.rel. */
static bool arch_value(void *ctx, Sym s, int64_t *out) {
  Val v;
  if (s == SYM_NONE || !eval_node(ctx, s, &v) || v.kind != VAL_INT) return false;
  *out = v.num;
  return true;
}

/* -variant ifetch: accesses to code locations (herd's Instr), and those
 * of them whose value is an instruction whose concurrent modification is
 * restricted (Restricted-CMODX). */
static Value *code_access_set(Engine *g, int stage, bool restricted) {
  Dim d = model_dim(g);
  Word *bits = arena_zalloc(run_arena(g->run, stage), sizeof(Word) * (size_t)d.w);
  for (int i = 0; i < d.n; i++) {
    Val l, v;
    if (!(g->es->ev[i].flags & EV_MEM) || !ev_loc(g, i, &l) || !program_is_code_sym(g->p, l.sym))
      continue;
    if (restricted && (!eval_node(g, g->es->ev[i].val, &v) || !program_instr_restricted(g->p, v)))
      continue;
    bit_set(bits, i);
  }
  Value *v = arena_zalloc(run_arena(g->run, stage), sizeof(Value));
  v->kind = V_SET;
  v->u.bits = bits;
  return v;
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
  case PD_INSTR: return code_access_set(g, stage, false);
  case PD_CMODX: return code_access_set(g, stage, true);
  case PD_SPEC: return mk_set_pd(g, stage, s_spec);
  case PD_SPURIOUS: return mk_set_pd(g, stage, s_spurious);
  case PD_EXEC: return mk_set_pd(g, stage, s_exec);
  case PD_ID: {
    Word *bits = new_rel(g, stage);
    for (int i = 0; i < d.n; i++) rel_set(d, bits, i, i);
    return wrap_rel(g, stage, bits);
  }
  case PD_LOC:
    return loc_rel(g, stage);
  case PD_INT:
  case PD_EXT: {
    /* int: same thread (not the initial writes); ext: another thread.
     * Row i is the set of i's thread, or its complement. */
    Word *bits = new_rel(g, stage);
    const Word *mine = thread_sets(g, stage);
    Word *all = arena_alloc(run_arena(g->run, stage), sizeof(Word) * (size_t)d.w);
    set_fill(d, all);
    for (int i = 0; i < d.n; i++) {
      const Word *t = mine + (size_t)(es->ev[i].thread + 1) * (size_t)d.w;
      if (pd == PD_EXT) set_andnot(d, rel_row(d, bits, i), all, t);
      else if (es->ev[i].thread >= 0) set_copy(d, rel_row(d, bits, i), t);
    }
    return wrap_rel(g, stage, bits);
  }
  case PD_PO:
    return project(g, stage, es->po_full);
  case PD_RF: {
    Word *bits = new_rel(g, stage);
    for (int i = 0; i < es->nreads; i++)
      if (g->rf_src[i] >= 0) /* -variant deps: a speculated read may read nothing */
        rel_set(d, bits, g->rf_src[i], es->reads[i]);
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
  case PD_PTEV: return pte_valid_set(g, stage, true);
  case PD_PTEINV: return pte_valid_set(g, stage, false);
  case PD_PTEAF0:
  case PD_PTEDB0:
  case PD_READONLY: return pte_flag_set(g, stage, pd);
  case PD_INV_DOMAIN: return inv_domain_rel(g, stage);
  case PD_SAME_LOB: return same_lob_rel(g, stage);
  case PD_CONTROL:
  case PD_EMPTY_REL:
    return wrap_rel(g, stage, new_rel(g, stage));
  case PD_SM: {
    Word *bits = new_rel(g, stage);
    if (g->p->mixed) {
      mixed_same_access(g->p, es, d, bits);
      return wrap_rel(g, stage, bits);
    }
    for (int i = 0; i < d.n; i++) {
      const Event *a = &es->ev[i];
      if (!(a->flags & EV_MEM)) continue;
      rel_set(d, bits, i, i);
      if (!(a->flags & EV_SCA)) continue;
      for (int j = 0; j < d.n; j++) {
        const Event *b = &es->ev[j];
        if (j != i && (b->flags & EV_SCA) && b->thread == a->thread && b->inst == a->inst &&
            (b->flags & EV_MEM) == (a->flags & EV_MEM))
          rel_set(d, bits, i, j);
      }
    }
    return wrap_rel(g, stage, bits);
  }
  case PD_IICO_DATA:
    return project(g, stage, es->iico_data);
  case PD_IICO_CTRL:
    return project(g, stage, es->iico_ctrl);
  case PD_IICO_ORDER:
    return project(g, stage, es->iico_order);
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
  case PD_SAME_INSTR:
  case PD_SAME_STATIC: {
    Word *bits = new_rel(g, stage);
    const Word *mine = thread_sets(g, stage);
    for (int i = 0; i < d.n; i++) {
      const Event *a = &es->ev[i];
      if (a->thread < 0) continue;
      const Word *t = mine + (size_t)(a->thread + 1) * (size_t)d.w;
      for (int j = set_next(d, t, 0); j >= 0; j = set_next(d, t, j + 1)) {
        const Event *b = &es->ev[j];
        /* same-instr: one static instruction; same-static: and the same
         * rank among its events */
        if (pd == PD_SAME_INSTANCE ? a->inst == b->inst
                                   : a->code_index == b->code_index &&
                                         (pd == PD_SAME_INSTR || a->sub == b->sub))
          rel_set(d, bits, i, j);
      }
    }
    return wrap_rel(g, stage, bits);
  }
  default:
    if (pd >= PD_ARCH) {
      Word *bits = new_rel(g, stage);
      sem_arch(g->t->arch)->rel(g->p, es, pd - PD_ARCH, d, bits, arch_value, g);
      return wrap_rel(g, stage, bits);
    }
    if (pd >= PD_SCOPE) return scope_rel(g, stage, pd - PD_SCOPE);
    if (pd >= PD_TAG) return tag_set(g, pd - PD_TAG);
    return NULL;
  }
}

Value *host_predef(void *ctx, int name, int *stage) {
  Engine *g = ctx;
  if (name < 0 || name >= g->nnames) return NULL;
  int pd = g->pd_of_name[name];
  if (!pd) return NULL;
  int idx = pd >= PD_ARCH    ? 64 + TAG_MAX + SCOPE_MAX + (pd - PD_ARCH)
            : pd >= PD_SCOPE ? 64 + TAG_MAX + (pd - PD_SCOPE)
            : pd >= PD_TAG   ? 64 + (pd - PD_TAG)
                             : pd;
  Value **cache;
  if (pd_is_fw(pd)) {
    cache = g->pre_fw;
    *stage = STAGE_FW;
  } else if (pd == PD_RF || (pd >= PD_ARCH && (g->arch_rel_values >> (pd - PD_ARCH) & 1)) ||
             pd == PD_PTEV || pd == PD_PTEINV || pd == PD_PTEAF0 || pd == PD_PTEDB0 ||
             pd == PD_READONLY ||
             (pd_needs_values(pd) && !g->static_locs)) {
    cache = g->pre_rf;
    *stage = STAGE_RF;
  } else {
    cache = g->pre_es;
    *stage = STAGE_ES;
  }
  if (!cache[idx]) cache[idx] = compute_pd(g, pd, *stage);
  return cache[idx];
}

bool host_same_value(void *ctx, int e1, int e2) {
  Engine *g = ctx;
  Val a, b;
  const Event *x = &g->es->ev[e1], *y = &g->es->ev[e2];
  Sym sa = (x->flags & EV_R) && x->wval != SYM_NONE && !(y->flags & EV_R) ? x->wval : x->val;
  Sym sb = y->val;
  if (!eval_node(g, sa, &a) || !eval_node(g, sb, &b)) return false;
  return val_eq(a, b);
}

bool host_at_location(void *ctx, int e, const char *name) {
  Engine *g = ctx;
  const Event *x = &g->es->ev[e];
  Val a;
  if (!(x->flags & (EV_R | EV_W)) || x->loc == SYM_NONE || !eval_node(g, x->loc, &a)) return false;
  return a.kind == VAL_ADDR && a.num == 0 && a.sym == intern_find(&g->p->syms, name);
}

/* C: the set of a bell tag 't is named with its first letter upper-cased
 * (cat.md §4.1); it is bound, possibly empty, for every declared tag. */
static void bind_bell_tag(void *ctx, const char *tag) {
  Program *p = ctx;
  char buf[128];
  size_t n = strnlen(tag, sizeof buf - 1);
  memcpy(buf, tag, n);
  buf[n] = 0;
  if (buf[0] >= 'a' && buf[0] <= 'z') buf[0] = (char)(buf[0] - 'a' + 'A');
  if (tag_find(&p->tags, buf) < 0) tag_bit(&p->tags, arena_strdup(&p->arena, buf));
}

/* Name table: which names of the model are predefined for this test.
 * Another worker's table (`like`) is the same: copied. */
void predef_setup(Engine *g, const Engine *like) {
  const Interner *in = &cat_prog_names(g->prog)->in;
  g->nnames = in->count;
  g->pd_of_name = xcalloc((size_t)g->nnames + 1, sizeof(int));
  g->arch_rel_values = 0;
  if (like) {
    memcpy(g->pd_of_name, like->pd_of_name, sizeof(int) * (size_t)g->nnames);
    return;
  }
  for (size_t i = 0; i < ARRAY_LEN(pd_names); i++) {
    int id = intern_find(in, pd_names[i].name);
    if (id >= 0) g->pd_of_name[id] = pd_names[i].pd;
  }
  if (g->p->ifetch) {
    int id = intern_find(in, "Instr");
    if (id >= 0) g->pd_of_name[id] = PD_INSTR;
    id = intern_find(in, "Restricted-CMODX");
    if (id >= 0) g->pd_of_name[id] = PD_CMODX;
  }
  /* Architecture sets: always-bound names, then tags seen on events. */
  const SemArch *sa = sem_arch(g->t->arch);
  if (sa && sa->set_names)
    for (int i = 0; sa->set_names[i]; i++) tag_bit(&g->p->tags, sa->set_names[i]);
  if (sa && sa->rel_names)
    for (int i = 0; sa->rel_names[i] && i < PD_ARCH_MAX; i++) {
      int id = intern_find(in, sa->rel_names[i]);
      if (id >= 0) g->pd_of_name[id] = PD_ARCH + i;
      if (!sa->rel_reads_values || sa->rel_reads_values(i)) g->arch_rel_values |= 1u << i;
    }
  if (isa_has(g->t->arch, ISA_LANGUAGE | ISA_BELL))
    cat_prog_each_tag(g->prog, bind_bell_tag, g->p);
  /* a scope tree's tags (LISA) name relations */
  const char *tag;
  for (int k = 0; k < SCOPE_MAX && (tag = scope_tree_tag(g->t->scopes, k)); k++) {
    int id = intern_find(in, tag);
    if (id >= 0) g->pd_of_name[id] = PD_SCOPE + k;
  }
  for (int b = 0; b < g->p->tags.count; b++) {
    int id = intern_find(in, g->p->tags.names[b]);
    if (id >= 0) g->pd_of_name[id] = PD_TAG + b;
  }
}

const char *host_defined_by(void *ctx, const char *name) {
  const Engine *g = ctx;
  for (int a = 0; a < ARCH_COUNT; a++) {
    const SemArch *sa = a == (int)g->t->arch ? NULL : sem_arch((Arch)a);
    if (sa && sa->set_names)
      for (int i = 0; sa->set_names[i]; i++)
        if (!strcmp(sa->set_names[i], name)) return arch_name((Arch)a);
  }
  return NULL;
}

void predef_reset(Engine *g, int stage) {
  if (stage <= STAGE_ES) memset(g->pre_es, 0, sizeof(Value *) * PD_SLOTS);
  if (stage <= STAGE_RF) memset(g->pre_rf, 0, sizeof(Value *) * PD_SLOTS);
  memset(g->pre_fw, 0, sizeof(Value *) * PD_SLOTS);
}
