/*
 * fetch_rf.c — herd's first stage of -variant ifetch (self) solving: the
 * instruction fetches read from their writes before the other reads are
 * paired with theirs, and an event structure whose fetches no choice of
 * writes can satisfy is dropped there, before herd checks the other
 * reads.  So a read that no write can feed (a load from address 0 on a
 * path that runs an instruction the code never holds) is an error only
 * when some choice of writes for the fetches fits the structure's
 * assumptions.
 */
#include "engine_int.h"

/* More choices than this: answered "satisfiable" (the caller's error). */
enum { FETCH_RF_MAX = 1 << 20 };

static bool truthy(Val v) { return !(v.kind == VAL_INT && v.num == 0); }

/* The current choice of fetch writes contradicts no assumption that it
 * lets one compute (the other reads read nothing yet). */
static bool choice_fits(Engine *g, const int *fetch, int nfetch) {
  const EventStructure *es = g->es;
  memset(g->vstate, 0, (size_t)es->nnodes);
  for (int k = 0; k < nfetch; k++) {
    int i = fetch[k];
    Val lr, lw;
    if (ev_loc(g, es->reads[i], &lr) && ev_loc(g, g->rf_src[i], &lw) && !val_eq(lr, lw))
      return false;
  }
  for (int i = 0; i < es->nassume; i++) {
    Val v;
    if (eval_node(g, es->assume[i], &v) && !truthy(v)) return false;
  }
  return true;
}

bool fetch_rf_satisfiable(Engine *g, Shared *sh, Arena *a) {
  EventStructure *es = sh->es;
  int *fetch = ARENA_NEWN(a, int, es->nreads + 1);
  int nfetch = 0;
  long combos = 1;
  for (int i = 0; i < es->nreads; i++)
    if (es->ev[es->reads[i]].flags & EV_NEXP) {
      fetch[nfetch++] = i;
      if (sh->ncands[i] == 0) return false;
      combos *= sh->ncands[i];
      if (combos > FETCH_RF_MAX) return true;
    }
  /* the worker's fields, borrowed (worker_begin sets them again) */
  EventStructure *es0 = g->es;
  int *read_index0 = g->read_index, *rf_src0 = g->rf_src;
  Val *vals0 = g->vals;
  uint8_t *vstate0 = g->vstate;
  g->es = es;
  g->read_index = sh->read_index;
  g->rf_src = ARENA_NEWN(a, int, es->nreads + 1);
  g->vals = ARENA_NEWN(a, Val, es->nnodes + 1);
  g->vstate = ARENA_NEWN(a, uint8_t, es->nnodes + 1);
  for (int i = 0; i < es->nreads; i++) g->rf_src[i] = -1;
  int *pick = ARENA_NEWN(a, int, nfetch + 1);
  bool found = false;
  for (;;) {
    for (int k = 0; k < nfetch; k++) g->rf_src[fetch[k]] = sh->cands[fetch[k]][pick[k]];
    if (choice_fits(g, fetch, nfetch)) {
      found = true;
      break;
    }
    int k = 0;
    while (k < nfetch && ++pick[k] == sh->ncands[fetch[k]]) pick[k++] = 0;
    if (k == nfetch) break;
  }
  g->es = es0;
  g->read_index = read_index0;
  g->rf_src = rf_src0;
  g->vals = vals0;
  g->vstate = vstate0;
  return found;
}
