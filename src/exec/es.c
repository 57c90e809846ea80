/*
 * es.c — one event structure from one path per thread.
 *
 * Numbering: relevant events first (initial writes by symbol, then each
 * thread's memory/fence/commit events in path order), register events
 * last.  Expression nodes of every path are concatenated, so a Sym of
 * thread t's path is shifted by that path's node offset, and S_READ nodes
 * point to global event ids.
 */
#include "es.h"

#include <stdlib.h>
#include <string.h>

/* Whether symbol s has memory (an initial write): under -variant kvm a
 * virtual symbol has none, its page PA(x) has (vmsa.c). */
static bool has_cell(const Program *p, int s) {
  return !p->kvm || s >= p->kvm_nsyms || p->pa_of[s] < 0;
}

/* ... and whether it has an initial write: under -variant mixed a
 * split location has none, its bytes have (mixed.c). */
static bool has_init(const Program *p, int s) {
  if (p->mixed && s < p->mixed_nsyms0 && p->byte_count[s] > 0) return false;
  return has_cell(p, s);
}

/* -variant deps: po from each thread's tree of instances, an event of an
 * instance before every event of the instance's descendants. */
static void po_tree(EventStructure *es, ThreadPaths *paths, const int *choice,
                    int **map, Arena *a) {
  for (int t = 0; t < es->nthreads; t++) {
    const ThreadPath *tp = &paths[t].v[choice[t]];
    int ni = tp->ninst;
    /* the events of each instance, as global ids */
    int *first = ARENA_NEWN(a, int, ni + 2), *evs = ARENA_NEWN(a, int, tp->nev + 1);
    for (int i = 0; i < tp->nev; i++) first[tp->ev[i].inst + 1]++;
    for (int k = 0; k < ni; k++) first[k + 1] += first[k];
    int *fill = ARENA_NEWN(a, int, ni + 1);
    for (int i = 0; i < tp->nev; i++) {
      int k = tp->ev[i].inst;
      evs[first[k] + fill[k]++] = map[t][i];
    }
    for (int j = 0; j < tp->nev; j++)
      for (int k = tp->inst_parent[tp->ev[j].inst]; k >= 0; k = tp->inst_parent[k])
        for (int x = first[k]; x < first[k + 1]; x++)
          rel_set(es->full, es->po_full, evs[x], map[t][j]);
  }
}

/* An initial spurious update of the access flag of entry `pte` (herd's
 * mem.ml, af0): events *k (an X non-explicit read, which must read a valid
 * entry with af clear) and *k + 1 (the write setting af), both in AF and
 * SPURIOUS, of no thread; SPUR_NODES expression nodes from *nn. */
enum { SPUR_NODES = 7 };
static void spurious_pair(const Program *p, EventStructure *es, int pte, int *k, int *nn) {
  SymNode *n = &es->nodes[*nn];
  for (int i = 0; i < SPUR_NODES; i++) {
    n[i] = (SymNode){0};
    n[i].a = n[i].b = n[i].c = SYM_NONE;
  }
  int b = *nn;
  n[0].op = S_CONST;
  n[0].k = val_addr(pte, 0);
  n[1].op = S_READ;
  n[1].a = *k;
  n[2].op = S_PTE_FIELD, n[2].width = PTE_AF, n[2].a = b + 1;
  n[3].op = S_NOT, n[3].a = b + 2;
  n[4].op = S_PTE_FIELD, n[4].width = PTE_VALID, n[4].a = b + 1;
  n[5].op = S_AND, n[5].a = b + 3, n[5].b = b + 4;
  n[6].op = S_PTE_SET, n[6].width = PTE_AF, n[6].a = b + 1;
  es->assume[es->nassume++] = b + 5;
  uint64_t tags = p->pte_tag;
  int x = tag_find(&p->tags, "X"), af = tag_find(&p->tags, "AF");
  if (x >= 0) tags |= (uint64_t)1 << x;
  if (af >= 0) tags |= (uint64_t)1 << af;
  for (int i = 0; i < 2; i++) {
    Event *e = &es->ev[*k + i];
    *e = (Event){0};
    e->flags = (i == 0 ? EV_R : EV_W) | EV_NEXP | EV_SPUR;
    e->thread = -1;
    e->inst = -1;
    e->code_index = -1;
    e->reg = -1;
    e->size = 8;
    e->loc = b;
    e->val = i == 0 ? b + 1 : b + 6;
    e->wval = SYM_NONE;
    e->tags = tags;
  }
  *k += 2;
  *nn += SPUR_NODES;
}

EventStructure *es_build(Program *p, ThreadPaths *paths, const int *choice,
                         Arena *a) {
  EventStructure *es = ARENA_NEW(a, EventStructure);
  es->arena = a;
  es->nthreads = p->nthreads;
  int nsyms = p->syms.count;
  es->nsyms = nsyms;
  /* Count events and nodes. */
  /* -variant mixed: initial writes of the byte symbols only (mixed.c) */
  int ninit = 0;
  for (int s = 0; s < nsyms; s++) ninit += has_init(p, s);
  /* -variant kvm with TTHM=: the initial spurious updates of this
   * structure, a subset of p->spur_syms (bit i: the i-th) */
  unsigned spur_mask = p->nspur > 0 ? (unsigned)choice[p->nthreads] : 0;
  int nspur = __builtin_popcount(spur_mask);
  int nrel = ninit + 2 * nspur, nreg = 0, nnodes = ninit * 2 + SPUR_NODES * nspur,
      nassume = nspur;
  for (int t = 0; t < p->nthreads; t++) {
    const ThreadPath *tp = &paths[t].v[choice[t]];
    for (int i = 0; i < tp->nev; i++)
      if (tp->ev[i].flags & EV_IRRELEVANT)
        nreg++;
      else
        nrel++;
    nnodes += tp->nnodes;
    nassume += tp->nassume;
    if (tp->cutoff && !es->cutoff) {
      /* herd names the cut-off with the smallest event number: the
       * lowest thread's */
      es->cutoff = true;
      es->cutoff_label = tp->cutoff_label;
    }
  }
  es->n = nrel + nreg;
  es->refuse_ev = -1;
  es->nrel = nrel;
  es->ev = ARENA_NEWN(a, Event, es->n + 1);
  es->nodes = ARENA_NEWN(a, SymNode, nnodes + 1);
  es->assume = ARENA_NEWN(a, Sym, nassume + 1);
  es->path_index = ARENA_NEWN(a, int, p->nthreads + 1);
  es->final_regs = ARENA_NEWN(a, Sym *, p->nthreads + 1);
  es->nregs = p->nregs;
  es->init_of_sym = ARENA_NEWN(a, int, nsyms + 1);

  /* Initial writes: loc and value are constant nodes. */
  int nn = 0;
  int k = 0;
  for (int s = 0; s < nsyms; s++) es->init_of_sym[s] = -1;
  for (int s = 0; s < nsyms; s++) {
    if (!has_init(p, s)) continue;
    Event *e = &es->ev[k];
    e->flags = EV_W | EV_INIT;
    if (p->kvm && lit_sym_kind(intern_name(&p->syms, s)) == SK_PTE) e->tags = p->pte_tag;
    e->thread = -1;
    e->inst = -1;
    e->code_index = -1;
    e->reg = -1;
    e->size = p->mixed ? 1 : 4;
    e->wval = SYM_NONE;
    es->nodes[nn].op = S_CONST;
    es->nodes[nn].k = val_addr(s, 0);
    es->nodes[nn].a = es->nodes[nn].b = es->nodes[nn].c = SYM_NONE;
    e->loc = nn++;
    es->nodes[nn].op = S_CONST;
    es->nodes[nn].k = p->sym_init.data[s];
    es->nodes[nn].a = es->nodes[nn].b = es->nodes[nn].c = SYM_NONE;
    e->val = nn++;
    es->init_of_sym[s] = k++;
  }

  int first_spur = k;
  for (int i = 0; i < p->nspur; i++)
    if (spur_mask >> i & 1) spurious_pair(p, es, p->spur_syms[i], &k, &nn);

  /* Thread events: first pass assigns ids. */
  int next_rel = k, next_reg = nrel;
  int **map = ARENA_NEWN(a, int *, p->nthreads + 1);
  int *node_off = ARENA_NEWN(a, int, p->nthreads + 1);
  for (int t = 0; t < p->nthreads; t++) {
    const ThreadPath *tp = &paths[t].v[choice[t]];
    es->path_index[t] = choice[t];
    map[t] = ARENA_NEWN(a, int, tp->nev + 1);
    for (int i = 0; i < tp->nev; i++)
      map[t][i] = (tp->ev[i].flags & EV_IRRELEVANT) ? next_reg++ : next_rel++;
    node_off[t] = nn;
    nn += tp->nnodes;
  }
  es->nnodes = nn;

  /* Second pass: copy events and nodes with remapping. */
  for (int t = 0; t < p->nthreads; t++) {
    const ThreadPath *tp = &paths[t].v[choice[t]];
    int off = node_off[t];
#define SHIFT(s) ((s) == SYM_NONE ? SYM_NONE : (s) + off)
    for (int i = 0; i < tp->nnodes; i++) {
      SymNode n = tp->nodes[i];
      if (n.op == S_READ) {
        n.a = map[t][n.a];
      } else if (n.op != S_CONST) {
        n.a = SHIFT(n.a);
        n.b = SHIFT(n.b);
        n.c = SHIFT(n.c);
      }
      es->nodes[off + i] = n;
    }
    for (int i = 0; i < tp->nev; i++) {
      Event e = tp->ev[i];
      if (e.flags & EV_SPUR) { /* of no thread (sem_spurious_af) */
        e.thread = -1;
        e.inst = -1;
        e.code_index = -1;
      }
      e.loc = SHIFT(e.loc);
      e.val = SHIFT(e.val);
      e.wval = SHIFT(e.wval);
      es->ev[map[t][i]] = e;
      if ((e.flags & EV_REFUSE) && e.fault == REFUSE_HANDLER_FAULT)
        es->handler_fault = true;
      else if (e.flags & EV_REFUSE)
        es->refuse_ev = map[t][i];
    }
    for (int i = 0; i < tp->nassume; i++) es->assume[es->nassume++] = SHIFT(tp->assume[i]);
    es->final_regs[t] = ARENA_NEWN(a, Sym, p->nregs + 1);
    for (int r = 0; r < p->nregs; r++) es->final_regs[t][r] = SHIFT(tp->final_regs[r]);
#undef SHIFT
  }

  /* Full-dimension relations. */
  es->full = dim_make(es->n);
  Dim d = es->full;
  es->iico_data = ARENA_NEWN(a, Word, rel_words(d));
  es->iico_ctrl = ARENA_NEWN(a, Word, rel_words(d));
  es->iico_order = ARENA_NEWN(a, Word, rel_words(d));
  es->rf_reg = ARENA_NEWN(a, Word, rel_words(d));
  es->po_full = ARENA_NEWN(a, Word, rel_words(d));
  es->cctrl = ARENA_NEWN(a, Word, rel_words(d));
  for (int e = first_spur; e < first_spur + 2 * nspur; e += 2) rel_set(d, es->iico_data, e, e + 1);
  for (int t = 0; t < p->nthreads; t++) {
    const ThreadPath *tp = &paths[t].v[choice[t]];
    for (int i = 0; i < tp->n_iico_data; i++)
      rel_set(d, es->iico_data, map[t][tp->iico_data[i].a], map[t][tp->iico_data[i].b]);
    for (int i = 0; i < tp->n_iico_ctrl; i++)
      rel_set(d, es->iico_ctrl, map[t][tp->iico_ctrl[i].a], map[t][tp->iico_ctrl[i].b]);
    for (int i = 0; i < tp->n_iico_order; i++)
      rel_set(d, es->iico_order, map[t][tp->iico_order[i].a], map[t][tp->iico_order[i].b]);
    for (int i = 0; i < tp->n_rf_reg; i++)
      rel_set(d, es->rf_reg, map[t][tp->rf_reg[i].a], map[t][tp->rf_reg[i].b]);
    for (int i = 0; i < tp->n_cctrl; i++)
      rel_set(d, es->cctrl, map[t][tp->cctrl[i].a], map[t][tp->cctrl[i].b]);
  }
  /* C: events of one statement are po-ordered when one is sequenced
   * before the other: data flow, or an explicit order (an RMW's read
   * before its write); the operands of `a + b` stay unordered. */
  es->is_c = isa_has(p->test->arch, ISA_LANGUAGE);
  if (es->is_c) {
    for (int t = 0; t < p->nthreads; t++) {
      const ThreadPath *tp = &paths[t].v[choice[t]];
      for (int i = 0; i < tp->n_seq; i++)
        rel_set(d, es->po_full, map[t][tp->seq[i].a], map[t][tp->seq[i].b]);
    }
    rel_or(d, es->po_full, es->po_full, es->iico_data);
    rel_or(d, es->po_full, es->po_full, es->iico_ctrl);
    rel_or(d, es->po_full, es->po_full, es->iico_order);
    rel_closure(d, es->po_full);
  }
  /* po: same thread, earlier instruction instance (-variant deps: an
   * ancestor instance). */
  if (p->deps) {
    po_tree(es, paths, choice, map, a);
    goto po_done;
  }
  for (int i = 0; i < es->n; i++) {
    const Event *ei = &es->ev[i];
    if (ei->thread < 0) continue;
    for (int j = 0; j < es->n; j++) {
      const Event *ej = &es->ev[j];
      if (ej->thread == ei->thread && ei->inst < ej->inst) rel_set(d, es->po_full, i, j);
    }
  }
po_done:
  /* Reads and writes. */
  es->reads = ARENA_NEWN(a, int, es->nrel + 1);
  es->writes = ARENA_NEWN(a, int, es->nrel + 1);
  for (int i = 0; i < es->nrel; i++) {
    if (es->ev[i].flags & EV_R) es->reads[es->nreads++] = i;
    if (es->ev[i].flags & EV_W) es->writes[es->nwrites++] = i;
  }
  return es;
}

/* ------------------------------------------------------------- deps */

/* dst = restrict(r) to pairs (i,j) with pred(i) and qred(j). */
typedef bool (*EvPred)(const Event *e);

static bool p_relevant(const Event *e) { return (e->flags & EV_IRRELEVANT) == 0; }
static bool p_reg(const Event *e) { return (e->flags & EV_REG) != 0; }
static bool p_load(const Event *e) { return (e->flags & EV_R) != 0; }
static bool p_store(const Event *e) { return (e->flags & EV_W) != 0; }
static bool p_mem(const Event *e) { return (e->flags & EV_MEM) != 0; }
static bool p_commit(const Event *e) { return (e->flags & EV_COMMIT) != 0; }
static bool p_bcc(const Event *e) { return (e->flags & EV_BCC) != 0; }
static bool p_pred(const Event *e) { return (e->flags & EV_PRED) != 0; }
static bool p_any(const Event *e) { (void)e; return true; }

static void restrict_by(const EventStructure *es, Word *dst, const Word *r,
                        EvPred a, EvPred b) {
  Dim d = es->full;
  rel_clear(d, dst);
  for (int i = 0; i < es->n; i++) {
    if (!a(&es->ev[i])) continue;
    const Word *row = rel_crow(d, r, i);
    for (int j = set_next(d, row, 0); j >= 0; j = set_next(d, row, j + 1))
      if (b(&es->ev[j])) rel_set(d, dst, i, j);
  }
}

/* herd7's make_procrels: dependencies flow from a memory load through
 * register events (register rf and intra-instruction data edges) to the
 * address or data input of a memory access, or to a branch commit. */
void es_deps(const EventStructure *es, Deps *out, Arena *a) {
  Dim d = es->full;
  size_t words = (size_t)rel_words(d);
#define NEWREL() ARENA_NEWN(a, Word, words)
  Word *iico = es->iico_data;
  Word *iico_regs = NEWREL(), *dd_inside = NEWREL(), *tmp = NEWREL();
  restrict_by(es, iico_regs, iico, p_reg, p_reg);
  rel_or(d, dd_inside, iico_regs, es->rf_reg);
  rel_closure(d, dd_inside);
  /* dd_pre = ([load]; iico | [store]; iico_ctrl); dd_inside.  A store
   * controls other events only in RISC-V sc (its success result). */
  Word *from_load = NEWREL(), *dd_pre = NEWREL();
  restrict_by(es, from_load, iico, p_load, p_any);
  restrict_by(es, tmp, es->iico_ctrl, p_store, p_any);
  rel_or(d, from_load, from_load, tmp);
  rel_compose(d, dd_pre, from_load, dd_inside);
  /* last_data: iico edges to commits, or from a data port to a store */
  Word *last_data = NEWREL(), *last_addr = NEWREL();
  for (int i = 0; i < es->n; i++) {
    const Word *row = rel_crow(d, iico, i);
    bool port = (es->ev[i].flags & EV_DATAPORT) != 0;
    for (int j = set_next(d, row, 0); j >= 0; j = set_next(d, row, j + 1)) {
      uint32_t fj = es->ev[j].flags;
      bool store = (fj & EV_W) != 0, load = (fj & EV_R) != 0;
      if ((fj & EV_COMMIT) || (store && port)) rel_set(d, last_data, i, j);
      if (load || (store && !port)) rel_set(d, last_addr, i, j);
    }
  }
  out->data = NEWREL();
  out->addr = NEWREL();
  rel_compose(d, out->data, dd_pre, last_data);
  /* C: a value read and stored by one statement (`*y = *x;`, the write
   * of an atomic op) flows without a register in between. */
  if (es->is_c) {
    restrict_by(es, tmp, iico, p_load, p_store);
    rel_or(d, out->data, out->data, tmp);
  }
  rel_compose(d, out->addr, dd_pre, last_addr);
  /* ctrl: load -dd-> commit, then po (bcc) or iico (predicated) */
  Word *po_iico = NEWREL();
  rel_or(d, po_iico, es->iico_data, es->iico_ctrl);
  rel_or(d, po_iico, po_iico, es->iico_order);
  rel_closure(d, po_iico);
  rel_or(d, po_iico, po_iico, es->po_full);
  Word *ctrl1 = NEWREL(), *ctrl2 = NEWREL(), *iico_all = NEWREL();
  restrict_by(es, ctrl1, po_iico, p_bcc, p_relevant);
  rel_or(d, iico_all, es->iico_data, es->iico_ctrl);
  rel_or(d, iico_all, iico_all, es->iico_order);
  rel_closure(d, iico_all);
  restrict_by(es, ctrl2, iico_all, p_pred, p_relevant);
  rel_or(d, ctrl1, ctrl1, ctrl2);
  Word *dd = NEWREL();
  rel_or(d, dd, dd_pre, out->addr);
  rel_or(d, dd, dd, out->data);
  /* ctrl also starts at a load that feeds a commit itself, without a
   * register (CAS compares the value it reads): herd's ctrl from the
   * CAS's read to its write.  Not a dependency of `depend`. */
  Word *ctrl_src = NEWREL();
  restrict_by(es, ctrl_src, iico, p_load, p_commit);
  rel_or(d, ctrl_src, ctrl_src, dd);
  rel_compose(d, tmp, ctrl_src, ctrl1);
  /* C: the reads an if's condition depends on control its branches. */
  Word *cc = NEWREL();
  rel_compose(d, cc, dd_pre, es->cctrl);
  rel_or(d, cc, cc, es->cctrl);
  rel_or(d, tmp, tmp, cc);
  out->ctrl = NEWREL();
  restrict_by(es, out->ctrl, tmp, p_mem, p_relevant);
  out->depend = dd;
  /* herd's data ends at memory accesses: a value flowing into a branch
   * (data to a commit) counts for ctrl above, not as data */
  Word *data_mem = NEWREL();
  restrict_by(es, data_mem, out->data, p_any, p_mem);
  out->data = data_mem;
#undef NEWREL
}
