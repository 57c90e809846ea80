/*
 * mixed.c — herd7's -variant mixed (mixed-size accesses), the part that
 * concerns locations.
 *
 * Each memory location of the test becomes as many byte locations as its
 * type has bytes (an untyped location is an int, 4 bytes).  Byte
 * locations are symbols of their own, appended after the test's symbols
 * and named "x+i", so that the engine's per-symbol machinery (candidate
 * writes, initial writes, final writes, pco) works unchanged on bytes.
 * The semantics (sem.c) split each access of n bytes into n byte events
 * at constant byte symbols; a read's value is the little-endian
 * combination of its bytes, a write gives byte i the bits 8i..8i+7 of its
 * value.  The final value of a location (solve.c) combines the final
 * values of its bytes.
 *
 * Only integer values can be split: a location holding an address is
 * refused, as is (in sem.c) an access whose address is computed.
 *
 * The engine still chooses a source write for every byte read, but herd
 * matches a read *access* with whole write accesses: the writes that
 * overlap the read are taken by increasing size, and each one either
 * supplies every byte of the read that is still missing and that it
 * covers, or nothing; the initial value (one write of the whole location,
 * the largest) fills what is left.  mixed_rf_ok keeps exactly the byte
 * choices that such a selection produces.
 */
#include "engine_int.h"
#include "program.h"

#include <stdio.h>

void program_set_mixed(Program *p, Err *err, SrcPos where) {
  int n0 = p->syms.count;
  p->mixed = true;
  p->mixed_nsyms0 = n0;
  p->byte_base = arena_alloc(&p->arena, sizeof(int) * (size_t)(n0 + 1));
  p->byte_count = arena_alloc(&p->arena, sizeof(int) * (size_t)(n0 + 1));
  for (int s = 0; s < n0; s++) {
    Val init = p->sym_init.data[s];
    LocType t = p->sym_type.data[s];
    char name[200];
    snprintf(name, sizeof name, "%s", intern_name(&p->syms, s));
    if (init.kind != VAL_INT || t.is_pointer)
      err_raise(err, ERRK_SEMANTIC, where,
                "-variant mixed: location %s holds an address, which cannot be split "
                "into bytes (not supported)", name);
    int bits = t.bits ? t.bits : p->word_bits;
    int n = bits / 8;
    p->byte_base[s] = p->syms.count;
    p->byte_count[s] = n;
    for (int i = 0; i < n; i++) {
      char buf[256];
      snprintf(buf, sizeof buf, "%s+%d", name, i);
      int b = program_symbol(p, buf);
      uint64_t u = (uint64_t)init.num;
      p->sym_init.data[b] = val_int((int64_t)((u >> (8 * i)) & 0xff));
      LocType bt = {8, false, false};
      p->sym_type.data[b] = bt;
    }
  }
  /* observed locations: their bytes */
  int nobs = 0;
  for (int k = 0; k < p->nobserved; k++) nobs += p->byte_count[p->observed[k]];
  int *obs = arena_alloc(&p->arena, sizeof(int) * (size_t)(nobs + 1));
  int m = 0;
  for (int k = 0; k < p->nobserved; k++) {
    int s = p->observed[k];
    for (int i = 0; i < p->byte_count[s]; i++) obs[m++] = p->byte_base[s] + i;
  }
  p->observed = obs;
  p->nobserved = m;
}

int program_byte_sym(const Program *p, int sym, int64_t off) {
  if (sym < 0 || sym >= p->mixed_nsyms0 || off < 0 || off >= p->byte_count[sym]) return -1;
  return p->byte_base[sym] + (int)off;
}

/* Two byte events of one access: same instruction instance, same
 * direction.  Initial bytes are accesses of their own. */
static bool same_access(const Event *a, const Event *b) {
  return !(a->flags & EV_INIT) && !(b->flags & EV_INIT) && a->thread == b->thread &&
         a->inst == b->inst && (a->flags & EV_MEM) == (b->flags & EV_MEM);
}

/* The order in which herd offers writes to a read: by size, the initial
 * write last; equal sizes by position (a fixed total order). */
static bool offered_before(const Event *a, const Event *b) {
  if (a->flags & EV_INIT) return false;
  if (b->flags & EV_INIT) return true;
  if (a->acc_size != b->acc_size) return a->acc_size < b->acc_size;
  if (a->thread != b->thread) return a->thread < b->thread;
  return a->inst < b->inst;
}

/* Does the write access of byte event w have a byte where read index k
 * reads?  Its candidates hold every write byte at that place. */
static bool covers(const Engine *g, const Event *w, int k) {
  for (int c = 0; c < g->ncands[k]; c++)
    if (same_access(&g->es->ev[g->cands[k][c]], w)) return true;
  return false;
}

/* The current rf choice pairs every read access with whole writes (see the
 * head comment): whenever a write access supplies a byte of a read, every
 * other byte of that read it covers comes from it or from a write offered
 * before it.  Quadratic in the reads, which mixed-size tests keep few. */
bool mixed_rf_ok(const Engine *g) {
  const EventStructure *es = g->es;
  for (int j = 0; j < es->nreads; j++) {
    const Event *w = &es->ev[g->rf_src[j]];
    if (w->flags & EV_INIT) continue;
    const Event *r = &es->ev[es->reads[j]];
    for (int k = 0; k < es->nreads; k++) {
      if (k == j || !same_access(&es->ev[es->reads[k]], r) || !covers(g, w, k)) continue;
      const Event *src = &es->ev[g->rf_src[k]];
      if (!same_access(src, w) && !offered_before(src, w)) return false;
    }
  }
  return true;
}

/* sm/si in mixed mode: the byte events of one access are related. */
void mixed_same_access(const EventStructure *es, Dim d, Word *bits) {
  for (int i = 0; i < d.n; i++) {
    if (!(es->ev[i].flags & EV_MEM)) continue;
    rel_set(d, bits, i, i);
    for (int j = 0; j < d.n; j++)
      if (j != i && (es->ev[j].flags & EV_MEM) && same_access(&es->ev[i], &es->ev[j]))
        rel_set(d, bits, i, j);
  }
}

/* Two thread writes to one byte would need the coherence and final-write
 * choices of herd over bytes of different accesses, which are not
 * reproduced (no test of the corpus has them): refused. */
void mixed_check_writes(Engine *g, const EventStructure *es) {
  for (int i = 0; i < es->nwrites; i++) {
    const Event *a = &es->ev[es->writes[i]];
    if (a->flags & EV_INIT) continue;
    for (int j = i + 1; j < es->nwrites; j++) {
      const Event *b = &es->ev[es->writes[j]];
      const SymNode *n = &es->nodes[a->loc], *m = &es->nodes[b->loc];
      /* byte locations are constants (sem.c refuses computed ones) */
      if ((b->flags & EV_INIT) || n->k.kind != VAL_ADDR || m->k.kind != VAL_ADDR ||
          n->k.sym != m->k.sym)
        continue;
      const Thread *th = &g->t->threads[b->thread];
      SrcPos at = th->entries[b->code_index].pos;
      err_raise(g->err, ERRK_SEMANTIC, at,
                "-variant mixed: two writes to byte %s (not supported: the order of "
                "their bytes is not reproduced)",
                intern_name(&g->p->syms, n->k.sym));
    }
  }
}
