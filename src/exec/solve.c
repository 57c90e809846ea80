/*
 * solve.c — the values of a candidate execution: each node of the
 * structure's value graph computed for the current rf choice (a cycle
 * through rf, or an operation on incompatible values, leaves it
 * unknown), the locations of events, and the final value of registers
 * and memory locations given the final writes.
 */
#include "engine_int.h"
#include "mte.h"

#include <stdlib.h>

bool sym_apply(SymOp op, int width, Val a, Val b, Val c3, Val *out);

/* Where herd computes nothing (x+0, a load's own extension), the value of
 * node n is its operand's: an unsolved variable passes through. */
static bool herd_copy(const SymNode *n, Val a, Val b, Val *out) {
  if ((n->op == S_MASK || n->op == S_SEXT) && n->k.num == 1) {
    *out = a;
    return true;
  }
  if (n->op == S_ADD && b.kind == VAL_INT && b.num == 0) {
    *out = a;
    return true;
  }
  if (n->op == S_ADD && a.kind == VAL_INT && a.num == 0) {
    *out = b;
    return true;
  }
  return false;
}

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
    if (ri < 0 || g->rf_src[ri] < 0) { /* < 0: not chosen yet (fetch_rf.c) */
      ok = false;
    } else if (g->rf_src[ri] < 0) {
      r = spec_nowhere(g->es, n->a); /* -variant deps, spec.c */
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
    if (ok && (a.kind == VAL_VAR || b.kind == VAL_VAR) && herd_copy(n, a, b, &r))
      ; /* an unsolved variable passes where herd computes nothing */
    else if (ok && mte_handles(n->op, a, b))
      ok = mte_apply(g->p, (SymOp)n->op, a, b, &r);
    else if (ok)
      ok = sym_apply((SymOp)n->op, n->width, a, b, c, &r);
    if (!ok && g->p->kvm && (a.kind == VAL_PTE || b.kind == VAL_PTE || a.kind == VAL_TLB ||
                             b.kind == VAL_TLB)) {
      /* herd computes more on entries than corral: stop rather than
       * drop the candidate (session.c reports it) */
      g->out->refused = true;
      g->out->refused_thread = -1;
      __atomic_store_n(&g->sh->stop, 1, __ATOMIC_RELAXED);
    }
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

/* Location of a memory event as a symbol id (-1 if not a location). */
bool ev_loc(Engine *g, int e, Val *out) {
  if (!eval_node(g, g->es->ev[e].loc, out)) return false;
  if (out->kind == VAL_LABEL) { /* a code location (ifetch.c) */
    int s = program_label_symbol(g->p, *out);
    if (s < 0) return false;
    *out = val_addr(s, 0);
  }
  if (out->kind != VAL_ADDR) return false;
  program_cell(g->p, *out, out); /* a computed address inside an array */
  return true;
}

int64_t typed_int(const Program *p, LocType t, int64_t x) {
  int bits = t.bits ? t.bits : p->word_bits;
  if (bits >= 64) return x;
  uint64_t m = ((uint64_t)1 << bits) - 1;
  uint64_t u = (uint64_t)x & m;
  if (t.is_signed && (u >> (bits - 1)) & 1) u |= ~m;
  return (int64_t)u;
}

/* -variant mixed: a location's final value combines its bytes' (mixed.c). */
static bool mixed_final_value(Engine *g, int s, Val *out) {
  const Program *p = g->p;
  uint64_t u = 0;
  for (int i = 0; i < p->byte_count[s]; i++) {
    Val b;
    if (!global_final_value(g, p->byte_base[s] + i, &b) || b.kind != VAL_INT) return false;
    u |= ((uint64_t)b.num & 0xff) << program_byte_shift(p, i, p->byte_count[s]);
  }
  *out = val_int((int64_t)u);
  return true;
}

/* Final value of memory symbol s: its final write's, or its initial one. */
bool global_final_value(Engine *g, int s, Val *out) {
  if (s < 0) return false;
  if (g->p->mixed && s < g->p->mixed_nsyms0 && g->p->byte_count[s] > 0)
    return mixed_final_value(g, s, out);
  int w = g->fw[s] >= 0 ? g->fw[s] : g->es->init_of_sym[s];
  const Event *e = &g->es->ev[w];
  return eval_node(g, (e->flags & EV_R) && e->wval != SYM_NONE ? e->wval : e->val, out);
}

/* Value of a register or memory location in the final state. */
bool final_value(Engine *g, const LitLoc *l, Val *out) {
  if (l->kind == LOC_REG) {
    if (l->thread < 0 || l->thread >= g->es->nthreads || l->regid < 0 || l->lanes) return false;
    if (!eval_node(g, g->es->final_regs[l->thread][l->regid], out)) return false;
    if (l->lane_bits && out->kind == VAL_INT) { /* a lane of a vector register */
      uint64_t u = (uint64_t)out->num >> l->lane_shift;
      if (l->lane_bits < 64) u &= ((uint64_t)1 << l->lane_bits) - 1;
      *out = val_int((int64_t)u);
    }
    return true;
  }
  if (l->kind == LOC_GLOBAL || l->kind == LOC_CELL)
    return global_final_value(g, program_find_symbol(g->p, l), out);
  return false;
}

/* ------------------------------------------------ values out of thin air
 *
 * herd7 solves a candidate's value equations and keeps it when no
 * equation is left, even if some variables have no value
 * (values-and-loops.md §1.2-1.4).  A value copied round a cycle through
 * rf, with no operation on the way, leaves only "variable := variable"
 * equations, which herd merges: the reads on the cycle, and those copying
 * from it, share one unsolved variable, printed S<n>.  Any operation on
 * the way leaves an equation and the candidate goes, as eval_node drops
 * it.
 *
 * The name n is the representative herd's union-find picks.  Each read
 * and write event carries its variable after herd's register stage
 * (Event.hv, sem.c); the memory stage takes the loads in decreasing event
 * order, each equating the variable loaded with the variable stored, and
 * joins classes by rank, the left side winning ties. */

/* The read whose value the write w stores unchanged, or -1. */
static int copied_read(const Engine *g, int w) {
  const EventStructure *es = g->es;
  const Event *e = &es->ev[w];
  if (e->flags & EV_INIT) return -1;
  const SymNode *n = &es->nodes[(e->flags & EV_R) && e->wval != SYM_NONE ? e->wval : e->val];
  for (;;) { /* where herd computes nothing: x+0, a load's own extension */
    if ((n->op == S_MASK || n->op == S_SEXT) && n->k.num == 1) {
      n = &es->nodes[n->a];
      continue;
    }
    if (n->op != S_ADD) break;
    const SymNode *a = &es->nodes[n->a], *b = &es->nodes[n->b];
    if (b->op == S_CONST && b->k.kind == VAL_INT && b->k.num == 0) n = a;
    else if (a->op == S_CONST && a->k.kind == VAL_INT && a->k.num == 0) n = b;
    else break;
  }
  return n->op == S_READ ? n->a : -1;
}

bool solve_unsolved(Engine *g) {
  const EventStructure *es = g->es;
  if (isa_has(g->t->arch, ISA_LOAD_MASKS)) return false;
  int nr = es->nreads;
  /* every unsolved read must copy, read after read, round a cycle */
  bool any = false;
  for (int i = 0; i < nr; i++) {
    int r = es->reads[i];
    Val v;
    if (es->ev[r].flags & EV_SPEC) continue; /* -variant deps: may stay unknown */
    if (g->vstate[es->ev[r].val] == 0 && eval_node(g, es->ev[r].val, &v)) continue;
    if (g->vstate[es->ev[r].val] == 2) continue;
    Val lr, lw;
    if (!ev_loc(g, r, &lr) || !ev_loc(g, g->rf_src[i], &lw) || !val_eq(lr, lw)) return false;
    int cur = r, steps = 0;
    for (; steps <= nr; steps++) {
      int ri = g->read_index[cur];
      if (ri < 0) return false;
      int next = copied_read(g, g->rf_src[ri]);
      if (next < 0 || es->ev[next].hv <= 0) return false; /* an operation, or a value */
      cur = next;
    }
    any = true; /* more steps than reads: the chain went round a cycle */
  }
  if (!any) return false;
  /* herd's memory stage over the variables of the reads and writes */
  int maxv = 0;
  for (int e = 0; e < es->n; e++)
    if (es->ev[e].hv > maxv) maxv = es->ev[e].hv;
  int *parent = xcalloc((size_t)maxv + 1, sizeof(int));
  unsigned char *rank = xcalloc((size_t)maxv + 1, 1);
  for (int v = 0; v <= maxv; v++) parent[v] = v;
  for (int i = nr - 1; i >= 0; i--) {
    if (g->rf_src[i] < 0) continue; /* -variant deps: reads from no write */
    int a = es->ev[es->reads[i]].hv, b = es->ev[g->rf_src[i]].hv;
    if (a <= 0 || b <= 0) continue; /* a constant: a binding, not a join */
    herd_uf_join(parent, rank, a, b);
  }
  for (int s = 0; s < es->nnodes; s++)
    if (g->vstate[s] != 2) g->vstate[s] = 0;
  for (int i = 0; i < nr; i++) {
    Sym s = es->ev[es->reads[i]].val;
    if (g->vstate[s] == 2 || (es->ev[es->reads[i]].flags & EV_SPEC)) continue;
    Val v = {VAL_VAR, 0, herd_uf_find(parent, es->ev[es->reads[i]].hv)};
    g->vals[s] = v;
    g->vstate[s] = 2;
  }
  free(parent);
  free(rank);
  return true;
}
