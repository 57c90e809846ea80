/*
 * mixed.c — herd7's -variant mixed (mixed-size accesses).
 *
 * Each memory location of the test becomes as many byte locations as its
 * type has bytes (an untyped location is an int, 4 bytes).  Byte
 * locations are symbols of their own, appended after the test's symbols
 * and named "x+i", so that the engine's per-symbol machinery (candidate
 * writes, initial writes, final writes, pco) works unchanged on bytes.
 * The semantics (sem.c) split each access of n bytes into n byte events
 * at constant byte symbols (Event.acc tells the events of one access
 * apart from those of another access of the same instruction, as herd's
 * single-copy-atomic sets do); a read's value is the little-endian
 * combination of its bytes, a write gives byte i the bits 8i..8i+7 of its
 * value.  The final value of a location (solve.c) combines the final
 * values of its bytes.  Coherence is per byte: the model's `co` orders
 * the writes of each byte location on its own, as herd's does.
 *
 * Only integer values can be split: a location holding an address is
 * refused, as is (in sem.c) an access whose address is computed.  The
 * tag locations of -variant memtag (mte.h) are not split: they keep their
 * symbol (byte_count 0), their initial write and their whole accesses.
 *
 * Reads and final values take whole writes, as herd matches them: the
 * write accesses that overlap the read (or the location) are taken by
 * increasing size, and each one either supplies every byte that is still
 * missing and that it covers, or nothing; the initial write (one access
 * of the whole location, the largest) fills what is left.  For a read,
 * the engine still chooses a source write for every byte and
 * mixed_rf_ok keeps exactly the choices such a matching produces; the
 * final writes are enumerated that way (mixed_choose_fw).  A final
 * matching that leaves to the initial write a byte some write covers is
 * no candidate: herd drops it, its initial write being both first and
 * last in coherence.
 */
#include "engine_int.h"
#include "mte.h"
#include "program.h"

#include <stdio.h>
#include <stdlib.h>

/* The symbols an observed location s stands for: its bytes, or itself
 * when it stays whole. */
static int mixed_nbytes(const Program *p, int s) { return p->byte_count[s] ? p->byte_count[s] : 1; }

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
    if (mte_is_tag_loc(p, s)) { /* a tag location stays whole (mte.h) */
      p->byte_base[s] = -1;
      p->byte_count[s] = 0;
      continue;
    }
    if (init.kind != VAL_INT || t.is_pointer)
      err_raise(err, ERRK_SEMANTIC, where,
                "-variant mixed: location %s holds an address, which cannot be split "
                "into bytes (not supported)", name);
    int bits = t.bits ? t.bits : p->word_bits;
    int n = bits / 8;
    if (n > 64)
      err_raise(err, ERRK_SEMANTIC, where,
                "-variant mixed: location %s has more than 64 bytes (not supported)", name);
    p->byte_base[s] = p->syms.count;
    p->byte_count[s] = n;
    for (int i = 0; i < n; i++) {
      char buf[256];
      snprintf(buf, sizeof buf, "%s+%d", name, i);
      int b = program_symbol(p, buf);
      uint64_t u = (uint64_t)init.num;
      p->sym_init.data[b] = val_int((int64_t)((u >> program_byte_shift(p, i, n)) & 0xff));
      LocType bt = {8, false, false};
      p->sym_type.data[b] = bt;
    }
  }
  p->mixed_nsyms1 = p->syms.count;
  p->byte_owner = arena_alloc(&p->arena, sizeof(int) * (size_t)(p->mixed_nsyms1 + 1));
  for (int s = 0; s < p->mixed_nsyms1; s++) p->byte_owner[s] = -1;
  for (int s = 0; s < n0; s++)
    for (int i = 0; i < p->byte_count[s]; i++) p->byte_owner[p->byte_base[s] + i] = s;
  /* observed locations: their bytes, in order (mixed_fw_here) */
  int nobs = 0;
  for (int k = 0; k < p->nobserved; k++) nobs += mixed_nbytes(p, p->observed[k]);
  int *obs = arena_alloc(&p->arena, sizeof(int) * (size_t)(nobs + 1));
  int m = 0;
  for (int k = 0; k < p->nobserved; k++) {
    int s = p->observed[k];
    if (!p->byte_count[s]) obs[m++] = s; /* a whole location */
    for (int i = 0; i < p->byte_count[s]; i++) obs[m++] = p->byte_base[s] + i;
  }
  p->observed = obs;
  p->nobserved = m;
}

int program_byte_shift(const Program *p, int i, int n) {
  return 8 * (isa_has(p->test->arch, ISA_BIG_ENDIAN) ? n - 1 - i : i);
}

int program_byte_sym(const Program *p, int sym, int64_t off) {
  if (sym < 0 || sym >= p->mixed_nsyms0 || off < 0 || off >= p->byte_count[sym]) return -1;
  return p->byte_base[sym] + (int)off;
}

bool program_mixed_aligned(const Program *p, int sym, int64_t off, int n) {
  const struct ArrayDecl *a = program_array(p, sym);
  int64_t esize = a ? a->esize : sym >= 0 && sym < p->mixed_nsyms0 ? p->byte_count[sym] : 0;
  int64_t len = a ? a->len : 1;
  if (esize <= 0 || n <= 0 || off < 0) return false;
  if (n <= esize) return off / esize < len && (off % esize) % n == 0;
  return off % n == 0 && off / esize + n / esize <= len;
}

/* The byte symbol an event accesses (memory events of mixed tests have
 * constant byte addresses, sem.c), -1 if none. */
static int byte_of(const EventStructure *es, const Event *e) {
  const SymNode *n = &es->nodes[e->loc];
  return n->op == S_CONST && n->k.kind == VAL_ADDR ? n->k.sym : -1;
}

static int owner_of(const Program *p, int b) {
  return b >= p->mixed_nsyms0 && b < p->mixed_nsyms1 ? p->byte_owner[b] : -1;
}

/* Two byte events of one access: same instruction instance, same
 * direction, same access of it (or both of a single-copy-atomic pair,
 * EV_SCA).  The initial bytes of one location are one access. */
static bool same_access(const Program *p, const EventStructure *es, const Event *a,
                        const Event *b) {
  if ((a->flags & EV_INIT) || (b->flags & EV_INIT)) {
    if (!(a->flags & EV_INIT) || !(b->flags & EV_INIT)) return false;
    int oa = owner_of(p, byte_of(es, a));
    return oa >= 0 && oa == owner_of(p, byte_of(es, b));
  }
  return a->thread == b->thread && a->inst == b->inst &&
         (a->flags & EV_MEM) == (b->flags & EV_MEM) &&
         (a->acc == b->acc || (a->flags & b->flags & EV_SCA));
}

/* The order in which herd offers writes to a read: by size, the initial
 * write last; equal sizes by position (a fixed total order; aligned
 * accesses of one size are disjoint or equal, so it does not matter). */
static bool offered_before(const Event *a, const Event *b) {
  if (a->flags & EV_INIT) return false;
  if (b->flags & EV_INIT) return true;
  if (a->acc_size != b->acc_size) return a->acc_size < b->acc_size;
  if (a->thread != b->thread) return a->thread < b->thread;
  if (a->inst != b->inst) return a->inst < b->inst;
  return a->acc < b->acc;
}

/* Does the write access of byte event w have a byte where read index k
 * reads?  Its candidates hold every write byte at that place. */
static bool covers(const Engine *g, const Event *w, int k) {
  for (int c = 0; c < g->ncands[k]; c++)
    if (same_access(g->p, g->es, &g->es->ev[g->cands[k][c]], w)) return true;
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
      if (k == j || !same_access(g->p, es, &es->ev[es->reads[k]], r) || !covers(g, w, k))
        continue;
      const Event *src = &es->ev[g->rf_src[k]];
      if (!same_access(g->p, es, src, w) && !offered_before(src, w)) return false;
    }
  }
  return true;
}

/* sm/si in mixed mode: the byte events of one access are related. */
void mixed_same_access(const Program *p, const EventStructure *es, Dim d, Word *bits) {
  for (int i = 0; i < d.n; i++) {
    if (!(es->ev[i].flags & EV_MEM)) continue;
    rel_set(d, bits, i, i);
    for (int j = 0; j < d.n; j++)
      if (j != i && (es->ev[j].flags & EV_MEM) && same_access(p, es, &es->ev[i], &es->ev[j]))
        rel_set(d, bits, i, j);
  }
}

/* -variant unaligned: herd offers the writes of one size to a read (and
 * to a final value) in an order of its own, which matters only when two
 * of them overlap in part, as aligned accesses never do: refused. */
static bool has_byte(const Program *p, const EventStructure *es, const Event *acc, int b) {
  for (int i = 0; i < es->nwrites; i++) {
    const Event *w = &es->ev[es->writes[i]];
    if (byte_of(es, w) == b && same_access(p, es, w, acc)) return true;
  }
  return false;
}

void mixed_check_overlaps(Engine *g, const EventStructure *es) {
  const Program *p = g->p;
  for (int i = 0; i < es->nwrites; i++) {
    const Event *a = &es->ev[es->writes[i]];
    if (a->flags & EV_INIT) continue;
    for (int j = i + 1; j < es->nwrites; j++) {
      const Event *b = &es->ev[es->writes[j]];
      if ((b->flags & EV_INIT) || b->acc_size != a->acc_size || same_access(p, es, a, b) ||
          byte_of(es, a) != byte_of(es, b))
        continue;
      /* a and b write one byte: is every byte of a's access one of b's? */
      bool equal = true;
      for (int k = 0; k < es->nwrites && equal; k++) {
        const Event *x = &es->ev[es->writes[k]];
        if (same_access(p, es, x, a) && !has_byte(p, es, b, byte_of(es, x))) equal = false;
      }
      if (equal) continue;
      const Thread *th = &g->t->threads[b->thread];
      err_raise(g->err, ERRK_SEMANTIC, th->entries[b->code_index].pos,
                "-variant unaligned: two writes of %d bytes overlap in part at %s (not "
                "supported: herd's order between them is not reproduced)",
                a->acc_size, intern_name(&p->syms, byte_of(es, a)));
    }
  }
}

/* ------------------------------------------ without -variant mixed */

/* A constant location x+k (k != 0: not a location of the test, an array
 * cell being one of its own symbols). */
static bool const_loc(const EventStructure *es, const Event *e, Val *out) {
  const SymNode *n = &es->nodes[e->loc];
  if (n->op != S_CONST || n->k.kind != VAL_ADDR) return false;
  *out = n->k;
  return true;
}

static CR_NORETURN void mixed_reject(Engine *g, const Event *e, Val l) {
  const Thread *th = &g->t->threads[e->thread];
  err_raise(g->err, ERRK_SEMANTIC, th->entries[e->code_index].pos,
            "mixed-size test rejected (symbol [%s+%lld]), consider option -variant mixed",
            intern_name(&g->p->syms, l.sym), (long long)l.num);
}

/* herd's checks of a test run without -variant mixed, on the accesses at
 * constant locations (those at computed ones, those of structures with a
 * predicated instruction, and the accesses of -variant kvm are not
 * checked): a read
 * at x+k that no write may feed (every architecture); on AArch64 (herd's
 * reject_mixed) without -variant memtag, an access at x+k, and two
 * accesses of different sizes to one location ("Illegal mixed-size
 * test"). */
void mixed_size_checks(Engine *g, const EventStructure *es, int *const *cands,
                       const int *ncands) {
  const Program *p = g->p;
  /* -variant deps: herd does not look for reads no write feeds;
   * -variant kvm: not here.  (herd's -variant dontcheckmixed, which
   * lets such tests through, is not followed: corral's answer for them
   * is not known to be herd's.) */
  if (p->deps || p->kvm) return;
  /* corral runs each side of a predicated instruction (CSEL, CAS...) as a
   * path of its own, where a value herd leaves unknown until it solves
   * the reads (an address CSEL picks) may be a constant: not checked */
  for (int e = 0; e < es->nrel; e++)
    if (es->ev[e].flags & EV_PRED) return;
  for (int i = 0; i < es->nreads; i++) {
    const Event *r = &es->ev[es->reads[i]];
    Val l, lw;
    if (!(r->flags & EV_MEM) || !const_loc(es, r, &l) || l.num == 0) continue;
    int fed = 0;
    for (int c = 0; c < ncands[i] && !fed; c++)
      fed = !const_loc(es, &es->ev[cands[i][c]], &lw) || val_eq(l, lw);
    if (!fed) mixed_reject(g, r, l);
  }
  if (p->test->arch != ARCH_AARCH64 || p->memtag) return;
  int *size_at = xcalloc((size_t)es->nsyms + 1, sizeof(int)); /* 0: no access yet */
  for (int e = 0; e < es->nrel; e++) {
    const Event *a = &es->ev[e];
    Val l;
    if (!(a->flags & EV_MEM) || (a->flags & EV_INIT) || !const_loc(es, a, &l)) continue;
    if (l.num != 0) {
      free(size_at);
      mixed_reject(g, a, l);
    }
    if (l.sym < 0 || l.sym >= es->nsyms) continue;
    if (!size_at[l.sym]) size_at[l.sym] = a->size;
    if (size_at[l.sym] == a->size) continue;
    free(size_at);
    const Thread *th = &g->t->threads[a->thread];
    err_raise(g->err, ERRK_SEMANTIC, th->entries[a->code_index].pos, "Illegal mixed-size test");
  }
  free(size_at);
}

/* ------------------------------------------------------ final writes */

/* One write access to an observed location: an event of it, the bytes of
 * the location it writes (bit i: byte i), its size. */
typedef struct FwAcc {
  int rep;
  uint64_t mask;
  int size;
} FwAcc;

/* The matching of one observed location: its first byte's index in the
 * observed symbols, its first byte symbol, and what comes next. */
typedef struct FwCtx {
  Engine *g;
  int k, base, n;
  void (*next)(Engine *g, int k);
} FwCtx;

/* Give byte b of the location at base the byte event of access a. */
static void fw_assign(Engine *g, const FwAcc *a, int base, uint64_t bytes) {
  const EventStructure *es = g->es;
  for (int i = 0; i < es->nwrites; i++) {
    const Event *w = &es->ev[es->writes[i]];
    int b = byte_of(es, w) - base;
    if (b >= 0 && b < 64 && ((bytes >> b) & 1) &&
        same_access(g->p, es, w, &es->ev[a->rep]))
      g->fw[base + b] = es->writes[i];
  }
}

static void fw_clear(Engine *g, int base, uint64_t bytes) {
  for (int b = 0; b < 64; b++)
    if ((bytes >> b) & 1) g->fw[base + b] = -1;
}

/* The matching from access i on, bytes rest still to fill; written: the
 * bytes some access writes. */
static void fw_take(const FwCtx *c, const FwAcc *acc, int na, int i, uint64_t rest,
                    uint64_t written) {
  Engine *g = c->g;
  int base = c->base;
  if (rest == 0) {
    c->next(g, c->k + c->n);
    return;
  }
  if (i == na) {
    if (rest & written) return; /* see the head comment */
    for (int b = 0; b < 64; b++)
      if ((rest >> b) & 1) g->fw[base + b] = g->es->init_of_sym[base + b];
    c->next(g, c->k + c->n);
    fw_clear(g, base, rest);
    return;
  }
  uint64_t cov = acc[i].mask & rest;
  if (cov) {
    fw_assign(g, &acc[i], base, cov);
    fw_take(c, acc, na, i + 1, rest & ~cov, written);
    fw_clear(g, base, cov);
  }
  fw_take(c, acc, na, i + 1, rest, written);
}

bool mixed_fw_here(const Program *p, int k) {
  int b = p->observed[k], s = owner_of(p, b);
  return p->narrays == 0 && s >= 0 && b == p->byte_base[s] && k + p->byte_count[s] <= p->nobserved &&
         p->observed[k + p->byte_count[s] - 1] == b + p->byte_count[s] - 1;
}

void mixed_choose_fw(Engine *g, int k, void (*next)(Engine *g, int k)) {
  const Program *p = g->p;
  const EventStructure *es = g->es;
  int s = owner_of(p, p->observed[k]), base = p->byte_base[s], n = p->byte_count[s];
  FwCtx c = {g, k, base, n, next};
  FwAcc *acc = xcalloc((size_t)es->nwrites + 1, sizeof(FwAcc));
  int na = 0;
  uint64_t written = 0;
  for (int i = 0; i < es->nwrites; i++) {
    const Event *w = &es->ev[es->writes[i]];
    if (w->flags & (EV_INIT | EV_SPEC)) continue; /* -variant deps: never final */
    int b = byte_of(es, w) - base;
    if (b < 0 || b >= n) continue;
    int a = 0;
    while (a < na && !same_access(p, es, &es->ev[acc[a].rep], w)) a++;
    if (a == na) acc[na++] = (FwAcc){es->writes[i], 0, w->acc_size};
    acc[a].mask |= (uint64_t)1 << b;
    written |= (uint64_t)1 << b;
  }
  /* herd's order: by size; equal sizes, the later access first */
  for (int i = 1; i < na; i++) {
    FwAcc x = acc[i];
    int j = i;
    while (j > 0 && acc[j - 1].size >= x.size) {
      acc[j] = acc[j - 1];
      j--;
    }
    acc[j] = x;
  }
  uint64_t all = n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
  fw_take(&c, acc, na, 0, all, written);
  free(acc);
}
