/*
 * stateset_sort.c — the outcome's final states in herd's order: each
 * worker's state set sorted (radix passes on columns of small integers,
 * a merge sort otherwise), then the sorted lists merged, a state reached
 * by several workers kept once.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"
#include "faults.h"
#include "util/pool.h"

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
void collect_states(Engine *w, int n, Program *p, Outcome *out, Pool *pool) {
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

static int val_rank(Val v) {
  switch (v.kind) {
  case VAL_VAR: return -1;
  case VAL_INT: return 0;
  case VAL_ADDR: return 1;
  case VAL_TAG: return 3;
  case VAL_PTE: return 4;
  case VAL_TLB: return 5;
  case VAL_INSTR: return 6;
  default: return 2;
  }
}

int engine_val_cmp(const Program *p, Val a, Val b) {
  if (a.kind == VAL_FAULTS && b.kind == VAL_FAULTS) return faults_cmp(p, a, b);
  /* herd's unsolved variables sort first, by number */
  int ka = val_rank(a), kb = val_rank(b);
  if (ka != kb) return ka - kb;
  if (ka == 6) return program_instr_cmp(p, a, b);
  if (ka == -1) return (a.num > b.num) - (a.num < b.num);
  if (ka == 0) return (a.num > b.num) - (a.num < b.num);
  if (ka == 1) { /* by name, then MTE tag (none first), then offset */
    int c = strcmp(intern_name(&p->syms, a.sym), intern_name(&p->syms, b.sym));
    if (c) return c;
    int ta = val_addr_tag(a), tb = val_addr_tag(b);
    if (ta != tb) {
      if (!ta || !tb) return ta ? 1 : -1;
      return strcmp(intern_name(&p->colors, ta - 1), intern_name(&p->colors, tb - 1));
    }
    int64_t oa = val_addr_off(a), ob = val_addr_off(b);
    return (oa > ob) - (oa < ob);
  }
  if (ka == 3) return strcmp(intern_name(&p->colors, a.sym), intern_name(&p->colors, b.sym));
  if (ka == 4) { /* page-table entries: oa, then af, db, dbm, valid, el0 */
    int c = strcmp(intern_name(&p->syms, a.sym), intern_name(&p->syms, b.sym));
    if (c) return c;
    for (int f = 0; f < PTE_NFIELDS; f++) {
      int x = (int)(a.num >> f) & 1, y = (int)(b.num >> f) & 1;
      if (x != y) return x - y;
    }
    return 0;
  }
  if (ka == 5) return strcmp(intern_name(&p->syms, a.sym), intern_name(&p->syms, b.sym));
  if (a.sym != b.sym) return a.sym - b.sym;
  return strcmp(intern_name(&p->labels, (int)a.num), intern_name(&p->labels, (int)b.num));
}
