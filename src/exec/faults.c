/*
 * faults.c — faults in final states and conditions (see faults.h).
 *
 * herd7 keeps with each final state the set of faults of its execution
 * (lib/fault.ml), restricted to those some fault atom of the test
 * matches, or all of them with -dumpallfaults.  Here such a set is one
 * more column of the state, a VAL_FAULTS value naming a set of the
 * Program's fault table; the workers of a run add to the table under its
 * lock.  Sets compare as herd compares them: element by element in
 * order, an element by thread, instruction labels, address, type and
 * message.
 */
#include "faults.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"

typedef struct FaultSet {
  FaultRec *r;
  int n;
} FaultSet;

struct FaultTable {
  pthread_mutex_t lock;
  FaultSet *sets;
  int n, cap;
};

/* ------------------------------------------------------------ atoms */

static int opt_strcmp(const char *a, const char *b) {
  if (!a || !b) return (a != NULL) - (b != NULL);
  return strcmp(a, b);
}

/* herd's order of fault atoms: thread, label, location, type (absent
 * first each time). */
static int atom_cmp(const FaultAtom *a, const FaultAtom *b) {
  if (a->thread != b->thread) return a->thread - b->thread;
  int c = opt_strcmp(a->label, b->label);
  if (c) return c;
  if ((a->sym != NULL) != (b->sym != NULL)) return (a->sym != NULL) - (b->sym != NULL);
  if (a->sym) {
    if (a->pte != b->pte) return (int)a->pte - (int)b->pte;
    if ((c = strcmp(a->sym, b->sym))) return c;
  }
  return (int)a->type - (int)b->type;
}

static void add_atom(Program *p, const FaultAtom *a, int *cap) {
  for (int i = 0; i < p->nfatoms; i++)
    if (atom_cmp(p->fatoms[i], a) == 0) return;
  APUSH(&p->arena, p->fatoms, p->nfatoms, *cap, a);
  for (int k = p->nfatoms - 1; k > 0 && atom_cmp(p->fatoms[k - 1], p->fatoms[k]) > 0; k--) {
    const FaultAtom *x = p->fatoms[k];
    p->fatoms[k] = p->fatoms[k - 1];
    p->fatoms[k - 1] = x;
  }
}

static void collect_atoms(Program *p, const Prop *pr, int *cap) {
  if (!pr) return;
  if (pr->kind == P_FAULT) add_atom(p, pr->fault, cap);
  collect_atoms(p, pr->a, cap);
  collect_atoms(p, pr->b, cap);
}

void program_set_faults(Program *p, const char *const *v, int nv, bool dumpallfaults) {
  p->fault_handling = FH_FATAL;
  p->mte_precision = MTE_SYNC;
  for (int i = 0; i < nv; i++) {
    const char *s = v[i];
    if (!strcmp(s, "handled") || !strcmp(s, "imprecise")) p->fault_handling = FH_HANDLED;
    else if (!strcmp(s, "fatal") || !strcmp(s, "precise")) p->fault_handling = FH_FATAL;
    else if (!strcmp(s, "faulttonext") || !strcmp(s, "skip")) p->fault_handling = FH_SKIP;
    else if (!strcmp(s, "sync") || !strcmp(s, "synchronous")) p->mte_precision = MTE_SYNC;
    else if (!strcmp(s, "async") || !strcmp(s, "asynchronous")) p->mte_precision = MTE_ASYNC;
    else if (!strcmp(s, "asym") || !strcmp(s, "asymmetric")) p->mte_precision = MTE_ASYM;
    else if (!strcmp(s, "memtag")) p->memtag = true;
  }
  p->dumpallfaults = dumpallfaults;
  const Test *t = p->test;
  int cap = 0;
  for (int i = 0; i < t->nloc_faults; i++) add_atom(p, &t->loc_faults[i], &cap);
  collect_atoms(p, t->cond, &cap);
  p->fault_disp = -1;
  if (p->nfatoms == 0 && !dumpallfaults) return;
  DispLoc *d = arena_alloc(&p->arena, sizeof(DispLoc) * (size_t)(p->ndisp + 2));
  memcpy(d, p->disp, sizeof(DispLoc) * (size_t)p->ndisp);
  memset(&d[p->ndisp], 0, sizeof(DispLoc));
  d[p->ndisp].kind = DL_FAULTS;
  d[p->ndisp].name = "";
  p->disp = d;
  p->fault_disp = p->ndisp++;
  p->faults = xcalloc(1, sizeof(struct FaultTable));
  pthread_mutex_init(&p->faults->lock, NULL);
}

void program_free_faults(Program *p) {
  struct FaultTable *t = p->faults;
  if (!t) return;
  for (int i = 0; i < t->n; i++) free(t->sets[i].r);
  free(t->sets);
  pthread_mutex_destroy(&t->lock);
  free(t);
  p->faults = NULL;
}

/* ----------------------------------------------------------- faults */

int fault_labels(const Program *p, const FaultRec *f, const char **out, int cap) {
  const Thread *th = &p->test->threads[f->thread];
  const Thread *code = th;
  int k = f->code_index;
  if (k >= th->nentries && th->handler) {
    code = th->handler;
    k -= th->nentries;
  }
  int n = 0;
  for (int i = k - 1; i >= 0 && i < code->nentries && !code->entries[i].ins && n < cap; i--)
    out[n++] = code->entries[i].label;
  for (int i = 1; i < n; i++) /* sorted: few labels */
    for (int j = i; j > 0 && strcmp(out[j - 1], out[j]) > 0; j--) {
      const char *x = out[j];
      out[j] = out[j - 1];
      out[j - 1] = x;
    }
  return n;
}

enum { MAX_LABELS = 16 };

static int loc_cmp(const Program *p, Val a, Val b) {
  bool ha = a.kind == VAL_ADDR, hb = b.kind == VAL_ADDR;
  if (!ha || !hb) return (int)ha - (int)hb;
  return engine_val_cmp(p, a, b);
}

static int rec_cmp(const Program *p, const FaultRec *a, const FaultRec *b) {
  if (a->thread != b->thread) return a->thread - b->thread;
  if (a->code_index != b->code_index) {
    /* label sets, compared as herd's sets: element by element */
    const char *la[MAX_LABELS], *lb[MAX_LABELS];
    int na = fault_labels(p, a, la, MAX_LABELS), nb = fault_labels(p, b, lb, MAX_LABELS);
    for (int i = 0; i < na && i < nb; i++) {
      int c = strcmp(la[i], lb[i]);
      if (c) return c;
    }
    if (na != nb) return na - nb;
  }
  int c = loc_cmp(p, a->loc, b->loc);
  if (c) return c;
  if (a->type != b->type) return a->type - b->type;
  return a->msg - b->msg;
}

/* The symbol name of an address (PTE(x) for a page table entry, as the
 * vmsa helpers name them). */
static const char *loc_name(const Program *p, Val v) {
  return v.kind == VAL_ADDR ? intern_name(&p->syms, v.sym) : NULL;
}

static bool atom_matches(const Program *p, const FaultAtom *a, const FaultRec *f) {
  if (a->thread != f->thread) return false;
  if (a->label) {
    const char *l[MAX_LABELS];
    int n = fault_labels(p, f, l, MAX_LABELS);
    bool in = false;
    for (int i = 0; i < n && !in; i++) in = strcmp(l[i], a->label) == 0;
    if (!in) return false;
  }
  if (a->type != FT_NONE && (int)a->type != f->type) return false;
  if (!a->sym) return true;
  const char *name = loc_name(p, f->loc);
  if (!name) return false;
  if (!a->pte) return strcmp(name, a->sym) == 0;
  size_t n = strlen(a->sym);
  return strncmp(name, "PTE(", 4) == 0 && strncmp(name + 4, a->sym, n) == 0 &&
         strcmp(name + 4 + n, ")") == 0;
}

static bool observed(const Program *p, const FaultRec *f) {
  for (int i = 0; i < p->nfatoms; i++)
    if (atom_matches(p, p->fatoms[i], f)) return true;
  return false;
}

static Val intern_set(Program *p, FaultRec *r, int n) {
  struct FaultTable *t = p->faults;
  pthread_mutex_lock(&t->lock);
  int k = 0;
  for (; k < t->n; k++) {
    const FaultSet *s = &t->sets[k];
    if (s->n != n) continue;
    int i = 0;
    while (i < n && rec_cmp(p, &s->r[i], &r[i]) == 0) i++;
    if (i == n) break;
  }
  if (k == t->n) {
    if (t->n == t->cap) {
      t->cap = t->cap ? 2 * t->cap : 8;
      t->sets = xrealloc(t->sets, sizeof(FaultSet) * (size_t)t->cap);
    }
    FaultSet s = {xmalloc(sizeof(FaultRec) * (size_t)(n + 1)), n};
    if (n) memcpy(s.r, r, sizeof(FaultRec) * (size_t)n);
    t->sets[t->n++] = s;
  }
  pthread_mutex_unlock(&t->lock);
  Val v = {VAL_FAULTS, 0, k};
  return v;
}

Val faults_of_candidate(Engine *g) {
  Program *p = g->p;
  const EventStructure *es = g->es;
  int n = 0, cap = 0;
  FaultRec *r = NULL;
  for (int e = 0; e < es->nrel; e++) {
    const Event *ev = &es->ev[e];
    if (!(ev->flags & EV_FAULT)) continue;
    FaultRec f = {ev->thread, ev->code_index, {VAL_VAR, 0, 0}, ev->fault,
                  ev->fault_bits >> FB_MSG_SHIFT};
    Val a;
    if (ev->loc != SYM_NONE && eval_node(g, ev->loc, &a) && a.kind == VAL_ADDR) f.loc = a;
    if (!p->dumpallfaults && !observed(p, &f)) continue;
    int k = n;
    while (k > 0 && rec_cmp(p, &r[k - 1], &f) > 0) k--;
    if (k > 0 && rec_cmp(p, &r[k - 1], &f) == 0) continue; /* a set */
    if (n == cap) {
      cap = cap ? 2 * cap : 8;
      r = xrealloc(r, sizeof(FaultRec) * (size_t)cap);
    }
    memmove(r + k + 1, r + k, sizeof(FaultRec) * (size_t)(n - k));
    r[k] = f;
    n++;
  }
  Val v = intern_set(p, r, n);
  free(r);
  return v;
}

const FaultRec *faults_get(const Program *p, Val set, int *n) {
  struct FaultTable *t = p->faults;
  *n = 0;
  if (!t || set.kind != VAL_FAULTS) return NULL;
  pthread_mutex_lock(&t->lock);
  FaultSet s = set.num >= 0 && set.num < t->n ? t->sets[set.num] : (FaultSet){NULL, 0};
  pthread_mutex_unlock(&t->lock);
  *n = s.n;
  return s.r;
}

int faults_cmp(const Program *p, Val a, Val b) {
  int na, nb;
  const FaultRec *ra = faults_get(p, a, &na), *rb = faults_get(p, b, &nb);
  for (int i = 0; i < na && i < nb; i++) {
    int c = rec_cmp(p, &ra[i], &rb[i]);
    if (c) return c;
  }
  return na - nb;
}

bool fault_atom_holds(const Program *p, const FaultAtom *a, Val set) {
  int n;
  const FaultRec *r = faults_get(p, set, &n);
  for (int i = 0; i < n; i++)
    if (atom_matches(p, a, &r[i])) return true;
  return false;
}
