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
 * depend on (predef.c), and handed to the interpreter through CatHost.
 * Beside this file: solve.c (values), condition.c, symmetry.c,
 * workers.c (work sharing, limits), stateset_sort.c (the output order).
 */
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>

#include "engine_int.h"
#include "faults.h"
#include "util/pool.h"

static CR_NORETURN void eng_err(Engine *g, const char *fmt, ...) CR_PRINTF(2, 3);
static void eng_err(Engine *g, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  err_vraise(g->err, ERRK_SEMANTIC, (SrcPos){g->t->file, 0, 0}, fmt, ap);
}

static bool truthy(Val v) { return !(v.kind == VAL_INT && v.num == 0); }

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
  for (int i = 0; i < es->nreads; i++)
    if (g->rf_src[i] >= 0) rel_set(d, g->view_rf, g->rf_src[i], es->reads[i]);
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
  if (g->es->handler_fault) { /* herd's Warn constraint: left out, warned */
    g->out->handler_faults += count;
    return;
  }
  if (g->o->exec_sink) send_view(g, flags, shown, nshown, NULL);
  if (g->cond_true)
    g->out->pos += count;
  else
    g->out->neg += count;
  g->out->flags |= flags;
  stateset_add(&g->set, g->state);
}

/* A complete rf and final-write choice: compute the state and run the
 * model. */
static void run_candidate(Engine *g) {
  const Program *p = g->p;
  for (int i = 0; i < p->ndisp; i++) {
    const DispLoc *dl = &p->disp[i];
    Val v;
    if (dl->kind == DL_FAULTS) {
      g->state[i] = faults_of_candidate(g);
      continue;
    }
    if (dl->kind == DL_REG) {
      LitLoc l = {0};
      l.kind = LOC_REG;
      l.thread = dl->thread;
      l.regid = dl->reg;
      l.lane_bits = dl->lane_bits;
      l.lane_shift = dl->lane_shift;
      if (!final_value(g, &l, &v)) goto unknown;
    } else if (!global_final_value(g, dl->sym, &v)) {
      goto unknown;
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
  if (g->es->cutoff) {
    /* A candidate cut by the unrolling bound that got this far makes the
     * result "Loop ..."; herd runs the model on it and then discards it
     * whatever the verdict, so it counts nowhere (values-and-loops.md
     * §2.3). */
    Outcome *o = g->out;
    if (!o->loop || g->sh->es_index >= o->loop_es) {
      o->loop_es = g->sh->es_index;
      o->loop_label = g->es->cutoff_label;
    }
    o->loop = true;
    return;
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
  return;
unknown:
  if (g->p->deps) spec_final(g); /* herd would print a variable */
}

/* Choose the final write of observed location k, then the next. */
static void choose_fw(Engine *g, int k) {
  const Program *p = g->p;
  if (over_limits(g)) return;
  if (k == p->nobserved) {
    run_candidate(g);
    return;
  }
  /* -variant mixed: the bytes of a location take whole writes (mixed.c) */
  if (p->mixed && mixed_fw_here(p, k)) {
    mixed_choose_fw(g, k, choose_fw);
    return;
  }
  int sym = p->observed[k];
  const EventStructure *es = g->es;
  bool any = false;
  for (int i = 0; i < es->nwrites; i++) {
    int w = es->writes[i];
    if (es->ev[w].flags & (EV_INIT | EV_SPEC)) continue; /* -variant deps: never final */
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
static bool read_values(Engine *g) {
  const EventStructure *es = g->es;
  for (int i = 0; i < es->nreads; i++) {
    Val lr, lw;
    int r = es->reads[i], w = g->rf_src[i];
    if (!ev_loc(g, r, &lr) || !ev_loc(g, w, &lw)) return false;
    if (!val_eq(lr, lw)) return false;
    Val v;
    if (!eval_node(g, es->ev[r].val, &v)) return false;
  }
  return true;
}

/* A path corral does not model (sem_refuse) is possible: stop. */
static bool refused(Engine *g) {
  const EventStructure *es = g->es;
  if (es->refuse_ev < 0) return false;
  const Event *r = &es->ev[es->refuse_ev];
  g->out->refused = true;
  g->out->refused_thread = r->thread;
  g->out->refused_code = r->code_index;
  g->out->refused_why = r->fault;
  __atomic_store_n(&g->sh->stop, 1, __ATOMIC_RELAXED);
  g->halted = true;
  return true;
}

/* The values of a complete rf choice, outside -variant deps: false if
 * the candidate goes. */
static bool solved_values(Engine *g) {
  const EventStructure *es = g->es;
  /* values copied round a cycle through rf stay herd variables */
  if (!read_values(g) && !(solve_unsolved(g) && read_values(g))) return false;
  for (int i = 0; i < es->nassume; i++) {
    Val v;
    if (!eval_node(g, es->assume[i], &v) || !truthy(v)) return false;
  }
  if (refused(g)) return false;
  /* Every event's location and value must be known. */
  for (int e = 0; e < es->nrel; e++) {
    const Event *ev = &es->ev[e];
    Val v;
    if ((ev->flags & EV_MEM) && !ev_loc(g, e, &v)) return false;
  }
  return true;
}

static void rf_leaf(Engine *g) {
  memset(g->vstate, 0, (size_t)g->es->nnodes);
  /* -variant deps: speculated events may keep unknown values (spec.c) */
  if (!(g->p->deps ? spec_values(g) && !refused(g) : solved_values(g))) return;
  /* what depends on rf alone is kept for all its final-write choices */
  predef_reset(g, STAGE_RF);
  run_begin_rf(g->run);
  choose_fw(g, 0);
}

void choose_rf(Engine *g, int i) {
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
  const uint8_t *ea = g->sh->early_at;
  for (int k = 0; k < g->ncands[i]; k++) {
    g->rf_src[i] = g->cands[i][k];
    if (ea && ea[i] && !partial_rf_ok(g)) { /* every candidate below fails */
      /* a pruned branch stands for leaves: the limits are looked at */
      if (over_limits(g)) {
        g->halted = true;
        break;
      }
      continue;
    }
    choose_rf(g, i + 1);
  }
  if (ea) g->rf_src[i] = -1; /* unchosen, for partial_rf_ok */
}

/* Candidate writes of each read: same location when both are known,
 * never the read itself nor a write iico-after it (-optace iico). */
/* May events a and b access the same location?  Only two constant
 * addresses of different symbols (or a constant non-address) say no. */
bool may_alias(const EventStructure *es, int a, int b) {
  const SymNode *la = &es->nodes[es->ev[a].loc], *lb = &es->nodes[es->ev[b].loc];
  return !(la->op == S_CONST && lb->op == S_CONST &&
           !(la->k.kind == VAL_ADDR && lb->k.kind == VAL_ADDR && la->k.sym == lb->k.sym));
}

/* A byte event of -variant mixed: herd pairs the bytes of reads with
 * those of the writes that overlap them, without the iico filter of
 * whole accesses (mem.ml's expose_scas), so a read-modify-write may read
 * its own write where its values allow it and the model does not forbid
 * it. */
static bool byte_event(const Program *p, const EventStructure *es, int e) {
  const SymNode *l = &es->nodes[es->ev[e].loc];
  return p->mixed && l->op == S_CONST && l->k.kind == VAL_ADDR && l->k.sym >= p->mixed_nsyms0;
}

/* herd's message for a read of an address that is a number (XZR as a
 * base) that no write feeds (mem.ml, not a user error). */
static CR_NORETURN void unfed_error(Engine *g, Val loc) {
  if (loc.kind == VAL_INT)
    eng_err(g, "Non symbolic location with no initial write: '[%lld]'", (long long)loc.num);
  eng_err(g, "Non symbolic location with no initial write");
}

/* herd's check_symbolic_locations: every access is to a symbol or a
 * label, not to a number (XZR as a base).  herd checks each solved
 * candidate: under -variant ifetch, a structure whose fetches fail is
 * dropped first. */
static void nonsymbolic_check(Engine *g, Shared *sh, Arena *a) {
  const EventStructure *es = sh->es;
  for (int e = 0; e < es->nrel; e++) {
    if (!(es->ev[e].flags & EV_MEM) || es->ev[e].loc == SYM_NONE) continue;
    const SymNode *l = &es->nodes[es->ev[e].loc];
    if (l->op != S_CONST || l->k.kind != VAL_INT) continue;
    if (g->p->ifetch && !fetch_rf_satisfiable(g, sh, a)) return;
    eng_err(g, "Non-symbolic memory access found on '[%lld]'", (long long)l->k.num);
  }
}

static void compute_candidates(Engine *g, Shared *sh, Arena *a) {
  const EventStructure *es = sh->es;
  sh->cands = ARENA_NEWN(a, int *, es->nreads + 1);
  sh->ncands = ARENA_NEWN(a, int, es->nreads + 1);
  Word *iico = ARENA_NEWN(a, Word, rel_words(es->full));
  rel_or(es->full, iico, es->iico_data, es->iico_ctrl);
  rel_or(es->full, iico, iico, es->iico_order);
  rel_closure(es->full, iico);
  bool unfed = false; /* a read no write can feed */
  Val unfed_loc = {0};
  for (int i = 0; i < es->nreads; i++) {
    int r = es->reads[i];
    sh->cands[i] = ARENA_NEWN(a, int, es->nwrites + 2);
    const SymNode *lr = &es->nodes[es->ev[r].loc];
    for (int k = 0; k < es->nwrites; k++) {
      int w = es->writes[k];
      if (w == r || !may_alias(es, r, w)) continue;
      if (rel_get(es->full, iico, r, w) && !byte_event(g->p, es, r)) continue;
      if (g->p->deps && !spec_may_read(es, r, w)) continue;
      sh->cands[i][sh->ncands[i]++] = w;
    }
    if (sh->ncands[i] == 0 && lr->op == S_CONST && lr->k.kind != VAL_ADDR) {
      /* herd names the last one, in its order of events */
      unfed_loc = lr->k;
      unfed = true;
    }
    if (g->p->deps && (es->ev[r].flags & EV_SPEC))
      sh->cands[i][sh->ncands[i]++] = -1; /* reads from nowhere */
  }
  if (unfed && !g->p->ifetch) unfed_error(g, unfed_loc);
  if (g->p->mixed_unaligned) mixed_check_overlaps(g, es);
  if (!g->p->mixed) mixed_size_checks(g, es, sh->cands, sh->ncands);
  sh->read_index = ARENA_NEWN(a, int, es->n + 1);
  for (int e = 0; e < es->n; e++) sh->read_index[e] = -1;
  for (int i = 0; i < es->nreads; i++) sh->read_index[es->reads[i]] = i;
  /* -variant ifetch: herd drops the structure first if its fetches fail */
  if (unfed && fetch_rf_satisfiable(g, sh, a)) unfed_error(g, unfed_loc);
  nonsymbolic_check(g, sh, a);
  sh->early_at = early_reads(g, sh, a);
  sh->static_locs = true;
  for (int e = 0; e < es->nrel; e++)
    if ((es->ev[e].flags & (EV_MEM | EV_LOCK)) && es->ev[e].loc != SYM_NONE &&
        es->nodes[es->ev[e].loc].op != S_CONST)
      sh->static_locs = false;
}

/* A worker's view of a new structure: its own value arrays, caches and
 * interpreter state; the structure itself is shared. */
void worker_begin(Engine *g) {
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
  if (sh->early_at)
    for (int i = 0; i < es->nreads; i++) g->rf_src[i] = -1;
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

static void merge_outcome(Outcome *into, const Outcome *o) {
  into->pos += o->pos;
  into->neg += o->neg;
  into->flags |= o->flags;
  if (o->loop && (!into->loop || o->loop_es >= into->loop_es)) {
    into->loop_es = o->loop_es;
    into->loop_label = o->loop_label;
  }
  into->loop |= o->loop;
  into->candidates += o->candidates;
  into->handler_faults += o->handler_faults;
  into->limit_hit |= o->limit_hit;
  if (o->refused && !into->refused) {
    into->refused = true;
    into->refused_thread = o->refused_thread;
    into->refused_code = o->refused_code;
    into->refused_why = o->refused_why;
  }
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
                   /* byte symbols, speculated events: not the shapes it knows */
                   !p->mixed && !p->deps &&
                   p->fault_disp < 0 && /* faults name their thread */
                   !p->some_ha; /* spurious updates: events of no thread */
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

/* herd's -maxphantom: a structure with more spurious reads than max
 * (TTHM=) is dropped. */
static bool too_many_spurious(const EventStructure *es, long max) {
  long n = 0;
  for (int e = 0; e < es->nrel; e++) n += (es->ev[e].flags & (EV_SPUR | EV_R)) == (EV_SPUR | EV_R);
  return n > max;
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
    SemStop stop = {host_stop, &w[0]};
    for (int t = 0; t < p->nthreads && !__atomic_load_n(&sh.stop, __ATOMIC_RELAXED); t++)
      paths[t] = sem_explore(p, t, err, &paths_arena, stop);
    sh.cond = cprop_build(p, p->test->cond, &paths_arena);
    sh.filter = cprop_build(p, p->test->filter, &paths_arena);
    for (int i = 0; i < nworkers; i++) {
      predef_setup(&w[i], i > 0 ? &w[0] : NULL);
      CatHost host = {&w[i], host_predef, host_same_value, host_at_location,
                       host_accept, host_reject, host_stop, host_defined_by,
                       host_pte_value, host_pte_hw};
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
      if (o->has_max_phantom && too_many_spurious(sh.es, o->max_phantom)) goto next;
      sh.es_index = structures++;
      compute_candidates(&w[0], &sh, &es_arena);
      run_structure(w, nworkers, &sh, pool);
    next:;
      /* next combination (odometer) */
      int t = 0;
      while (t < p->nthreads && ++choice[t] == paths[t].n) choice[t++] = 0;
      /* then the initial spurious updates (TTHM=): a subset per digit */
      if (t == p->nthreads && ++choice[t] >= (1 << p->nspur)) break;
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
