/*
 * early.c — what the reads chosen so far already decide.
 *
 * choose_rf picks the writes of the reads one after the other.  A value
 * that eval_node computes from the reads chosen so far is the value the
 * complete candidate gives it (a node's value depends only on the choices
 * of the reads below it), so two things that drop a complete candidate
 * can be seen before it is complete:
 *   - a path assumption (es->assume) that is zero: solved_values drops
 *     the candidate;
 *   - a filter that is false on the registers known so far (cprop_partial,
 *     memory locations and faults unknown): run_candidate drops it.
 * Either way every candidate below the branch goes, and the branch is
 * abandoned.  Only candidates that would be dropped without being counted
 * go: outcomes, counts and -maxcandidates are unchanged.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"

static bool truthy(Val v) { return !(v.kind == VAL_INT && v.num == 0); }

bool partial_rf_ok(Engine *g) {
  const EventStructure *es = g->es;
  memset(g->vstate, 0, (size_t)es->nnodes);
  for (int i = 0; i < es->nassume; i++) {
    Val v;
    if (eval_node(g, es->assume[i], &v) && !truthy(v)) return false;
  }
  const CProp *f = g->sh->filter;
  return !(f && g->t->filter && g->o->checkfilter && cprop_partial(g, f) == 0);
}

/* Mark the reads below node s (visited: per node). */
static void reads_below(const EventStructure *es, const int *read_index, Sym s,
                        uint8_t *visited, uint8_t *at) {
  while (s != SYM_NONE && s >= 0 && s < es->nnodes && !visited[s]) {
    visited[s] = 1;
    const SymNode *n = &es->nodes[s];
    if (n->op == S_CONST) return;
    if (n->op == S_READ) {
      if (n->a >= 0 && n->a < es->n && read_index[n->a] >= 0) at[read_index[n->a]] = 1;
      return;
    }
    if (n->b != SYM_NONE) reads_below(es, read_index, n->b, visited, at);
    if (n->c != SYM_NONE) reads_below(es, read_index, n->c, visited, at);
    s = n->a;
  }
}

static void filter_roots(const EventStructure *es, const int *read_index, const CProp *c,
                         uint8_t *visited, uint8_t *at) {
  if (!c) return;
  const LitLoc *ls[2];
  int n = cprop_locs(c, ls);
  for (int k = 0; k < n; k++) {
    const LitLoc *l = ls[k];
    if (l->kind != LOC_REG || l->thread < 0 || l->thread >= es->nthreads || l->regid < 0 ||
        l->regid >= es->nregs)
      continue;
    reads_below(es, read_index, es->final_regs[l->thread][l->regid], visited, at);
  }
  filter_roots(es, read_index, cprop_sub(c, 0), visited, at);
  filter_roots(es, read_index, cprop_sub(c, 1), visited, at);
}

uint8_t *early_reads(const Engine *g, const Shared *sh, Arena *a) {
  const Program *p = g->p;
  const EventStructure *es = sh->es;
  /* their leaves do more than drop a candidate */
  if (p->deps || p->mixed || p->kvm || p->ifetch || es->refuse_ev >= 0) return NULL;
  bool filter = g->t->filter && g->o->checkfilter && sh->filter;
  if (!filter && es->nassume == 0) return NULL;
  uint8_t *at = ARENA_NEWN(a, uint8_t, es->nreads + 1);
  uint8_t *visited = xcalloc((size_t)es->nnodes + 1, 1);
  for (int i = 0; i < es->nassume; i++) reads_below(es, sh->read_index, es->assume[i], visited, at);
  if (filter) filter_roots(es, sh->read_index, sh->filter, visited, at);
  /* a write may store what a read read: the reads below the values
   * written may decide too */
  for (int i = 0; i < es->nwrites; i++) {
    const Event *w = &es->ev[es->writes[i]];
    reads_below(es, sh->read_index, w->val, visited, at);
    if ((w->flags & EV_R) && w->wval != SYM_NONE)
      reads_below(es, sh->read_index, w->wval, visited, at);
  }
  free(visited);
  bool any = false;
  for (int i = 0; i < es->nreads; i++) any |= at[i];
  return any ? at : NULL;
}
