/*
 * symmetry.c — threads made of a single write, to the same location, of
 * the same shape (events, registers, intra-thread edges), whose write
 * nobody reads and is not the final one, and whose registers are not
 * observed, can be permuted without the model or the final state telling
 * the difference (unless the model reads values: different-values).
 * Their writes form a class for run_set_symmetry.
 */
#include "engine_int.h"

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
          rel_get(d, es->iico_order, a[i], a[j]) != rel_get(d, es->iico_order, b[i], b[j]) ||
          rel_get(d, es->rf_reg, a[i], a[j]) != rel_get(d, es->rf_reg, b[i], b[j]))
        return false;
    }
  }
  return true;
}

void find_symmetry(Engine *g) {
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
