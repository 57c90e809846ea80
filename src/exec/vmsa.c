/*
 * vmsa.c — AArch64 virtual memory as herd7 models it with -variant kvm
 * (herd's AArch64Sem.ml, check_ptw and lift_kvm; eventsMonad.ml,
 * add_initpte).
 *
 * Memory: each virtual symbol x of the test has a physical page PA(x),
 * which holds x's initial value, and a page-table entry PTE(x), by default
 * (oa:PA(x)) with valid, af and db set.  The init section may give PTE(x)
 * another entry; a location x of the init or final section designates
 * PA(x) (program_mem_sym).
 *
 * An access by a virtual address x+k translates it first (vmsa_access):
 * a non-explicit read of PTE(x) (the translation-table walk), a check of
 * the entry's flags, then, when it passes, a commit (herd's branching
 * PTE check: a Pred commit data-dependent on the walk) controlling the
 * access, at the entry's output address + k.  The walk is iico_data-after
 * the address registers, the access data-dependent on the walk (its
 * address comes from it), so that aarch64.cat's tr-ib
 * ([Imp & TTD & R]; iico_data; [B]; iico_ctrl; [Exp & M]) holds.  When
 * the check fails the access faults; corral does not build fault events
 * yet, so such a path is refused (sem_refuse): a run where it may happen
 * stops with an error rather than print a wrong answer.  Accesses at a
 * physical address (phy_x) or at a page-table entry (pte_x) are direct,
 * the latter in the set PTE.
 *
 * Hardware management of the flags (TTHM=, herd's check_ptw and
 * DirtyBit): a thread with HA (or HD) does not fault on a clear access
 * flag; its walk is atomic (X) and in AF (and DB), and when the entry it
 * reads has af clear (with HD, for a write: af or db clear) a commit
 * controls an update, a non-explicit write of the entry setting them,
 * in rmw with the walk.  With HD a write to a clean entry (db:0) faults
 * only when dbm is clear too.  When some thread has HA or HD, spurious
 * updates of the access flag, events of no thread (SPURIOUS), may come
 * with a store to an entry (sem_spurious_af) and before the threads run,
 * on each entry whose initial value has af clear (a subset per structure,
 * es_build).
 *
 * An address known only at run time is translated all the same: x plus
 * an integer computed at run time is in x's page; an address read from
 * memory (plus known integers) is, on one path each, every symbol of the
 * test, the path being dropped unless the value is that symbol.
 *
 * Threads at EL0 (EL0= or user=, herd's check_el0 and mk_pte_fault):
 * out of their handler, an access faults (Permission) on an entry with
 * el0 clear; a direct access (physical address, page-table entry) faults
 * (Permission, EL0) and ends the thread.
 *
 * Not yet (refused): PTE values whose output address is a
 * page-table entry, an address read from memory that is no symbol of the
 * test (an integer, a symbol plus an offset read from memory: the path
 * where it is so is refused, REFUSE_KVM_ADDRESS), -variant PhantomOnLoad
 * with TTHM= (session.c).
 */
#include "../litmus/aarch64.h"
#include "sem.h"
#include "vmsa.h"

#include <string.h>

static int pte_symbol_of(Program *p, int s) {
  const char *x = intern_name(&p->syms, s);
  return program_symbol(p, lit_join(&p->arena, "PTE(", x, ")", ""));
}

/* The TTHM= field (herd's lib/dirtyBit.mll): words [P]<n>:<key> or
 * <key>, keys SW, HA, HD in any case, separated by blanks; a key without
 * a thread is for every thread.  HD implies HA. */
typedef struct Tthm {
  uint64_t ha, hd, sw;
  bool some_ha, all_ha, all_hd;
} Tthm;

static Tthm parse_tthm(const char *s, int nthreads, Err *err, SrcPos where) {
  Tthm p = {0, 0, 0, false, false, false};
  const char *q = s;
  while (*q) {
    if (*q == ' ' || *q == '\t' || *q == '\r') {
      q++;
      continue;
    }
    long proc = -1;
    const char *r = q;
    if (*r == 'P') r++;
    if (*r >= '0' && *r <= '9') {
      const char *d = r;
      long n = 0;
      while (*d >= '0' && *d <= '9') {
        if (n < 1000000) n = n * 10 + (*d - '0');
        d++;
      }
      if (*d == ':') {
        proc = n;
        q = d + 1;
      }
    }
    const char *k = q;
    while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z')) q++;
    if (q == k)
      err_raise(err, ERRK_SEMANTIC, where, "Incorrect dirty bit managment specification '%s'", s);
    char key[8] = {0};
    size_t len = (size_t)(q - k);
    for (size_t i = 0; i < len && i < sizeof key - 1; i++) key[i] = (char)(k[i] | 0x20);
    int kind = len != 2 ? -1 : !strcmp(key, "sw") ? 0 : !strcmp(key, "ha") ? 1 : !strcmp(key, "hd") ? 2 : -1;
    if (kind < 0)
      err_raise(err, ERRK_SEMANTIC, where,
                "'%.*s' is not a dirty bit managment key, keys are SW,HA,HD", (int)len, k);
    if (kind > 0) p.some_ha = true;
    if (kind > 0 && proc < 0) p.all_ha = true;
    if (kind == 2 && proc < 0) p.all_hd = true;
    if (proc >= 0 && proc >= nthreads) continue; /* no such thread */
    if (proc >= 64)
      err_raise(err, ERRK_SEMANTIC, where, "TTHM= for thread P%ld: at most 64 threads are supported", proc);
    uint64_t bits = proc < 0 ? ~(uint64_t)0 : (uint64_t)1 << proc;
    if (kind == 0 && proc >= 0) p.sw |= bits; /* herd: SW without a thread is nothing */
    if (kind >= 1) p.ha |= bits;
    if (kind == 2) p.hd |= bits;
  }
  return p;
}

/* herd reads TTHM= of every test, with or without -variant kvm: a
 * malformed one is an error all the same */
void vmsa_check_tthm(const Test *t, Err *err) {
  const char *tthm = test_meta(t, "TTHM");
  if (tthm) parse_tthm(tthm, t->nthreads, err, (SrcPos){t->file, 1, 1});
}

/* The EL0= (or user=) field (herd's LexScan.procs): thread names P<n>
 * separated by blanks or commas. */
static void parse_el0(Program *p, const char *s, Err *err, SrcPos where) {
  for (const char *q = s; *q;) {
    if (*q == ' ' || *q == ',') {
      q++;
      continue;
    }
    if (*q != 'P' || q[1] < '0' || q[1] > '9')
      err_raise(err, ERRK_SEMANTIC, where, "'%s' is not a list of thread names", s);
    long n = 0;
    for (q++; *q >= '0' && *q <= '9'; q++)
      if (n < 1000000) n = n * 10 + (*q - '0');
    if (n >= 64) err_raise(err, ERRK_SEMANTIC, where, "EL0= for thread P%ld: at most 64 threads are supported", n);
    p->el0 |= (uint64_t)1 << n;
  }
}

void vmsa_program_setup(Program *p, Err *err) {
  SrcPos where = {p->test->file, 1, 1};
  if (p->narrays > 0) err_raise(err, ERRK_SEMANTIC, where, "arrays under -variant kvm are not supported yet");
  const char *tthm = test_meta(p->test, "TTHM");
  if (tthm) {
    Tthm m = parse_tthm(tthm, p->nthreads, err, where);
    p->tthm_ha = m.ha, p->tthm_hd = m.hd, p->tthm_sw = m.sw;
    p->some_ha = m.some_ha, p->tthm_all_ha = m.all_ha, p->tthm_all_hd = m.all_hd;
  }
  const char *el0 = test_meta(p->test, "EL0");
  if (!el0) el0 = test_meta(p->test, "user");
  if (el0) parse_el0(p, el0, err, where);
  /* an entry PTE(x) implies a virtual x */
  for (int s = 0; s < p->syms.count; s++) {
    const char *n = intern_name(&p->syms, s);
    if (lit_sym_kind(n) == SK_PTE) program_symbol(p, lit_sym_base(&p->arena, n));
  }
  int n0 = p->syms.count;
  int *pa = arena_alloc(&p->arena, sizeof(int) * (size_t)(n0 + 1));
  int *pte = arena_alloc(&p->arena, sizeof(int) * (size_t)(n0 + 1));
  for (int s = 0; s < n0; s++) {
    pa[s] = pte[s] = -1;
    const char *n = intern_name(&p->syms, s);
    if (lit_sym_kind(n) != SK_VIRTUAL) continue;
    int ps = program_symbol(p, lit_join(&p->arena, "PA(", n, ")", ""));
    p->sym_init.data[ps] = p->sym_init.data[s];
    p->sym_type.data[ps] = p->sym_type.data[s];
    int ts = pte_symbol_of(p, s);
    Val *v = &p->sym_init.data[ts];
    if (v->kind == VAL_ADDR && v->num == 0 &&
        lit_sym_kind(intern_name(&p->syms, v->sym)) == SK_PHYSICAL) {
      *v = val_pte(v->sym, lit_pte_default()); /* pte_x=phy_y: y's default */
    } else if (v->kind == VAL_INT && v->num == 0) {
      *v = val_pte(ps, lit_pte_default());
    } else if (v->kind != VAL_PTE) {
      err_raise(err, ERRK_SEMANTIC, where, "Cannot initialize PTE(%s) with that value", n);
    }
    p->sym_type.data[ts] = (LocType){64, false, false};
    pa[s] = ps;
    pte[s] = ts;
  }
  for (int s = 0; s < p->syms.count; s++) {
    Val v = p->sym_init.data[s];
    if (v.kind == VAL_PTE && lit_sym_kind(intern_name(&p->syms, v.sym)) != SK_PHYSICAL)
      err_raise(err, ERRK_SEMANTIC, where,
                "page-table entries whose output address is not physical are not supported yet");
  }
  /* herd's initial spurious updates: one may set the access flag of each
   * entry whose initial value has it clear (herd's mem.ml, af0) */
  if (p->some_ha) {
    tag_bit(&p->tags, "X");
    p->spur_syms = arena_alloc(&p->arena, sizeof(int) * (size_t)(n0 + 1));
    for (int s = 0; s < n0; s++) {
      if (pte[s] < 0) continue;
      Val v = p->sym_init.data[pte[s]];
      if (v.kind == VAL_PTE && !((v.num >> PTE_AF) & 1)) p->spur_syms[p->nspur++] = pte[s];
    }
    if (p->nspur > 16)
      err_raise(err, ERRK_LIMIT, where,
                "TTHM=: %d page-table entries with af:0 make 2^%d sets of spurious updates: test too large",
                p->nspur, p->nspur);
  }
  p->kvm = true;
  p->kvm_nsyms = n0;
  p->pa_of = pa;
  p->pte_of = pte;
  int b = tag_bit(&p->tags, "PTE");
  p->pte_tag = b < 0 ? 0 : (uint64_t)1 << b;
  /* the sets of -variant kvm that events of corral's runs may not have
   * (hardware updates, TLBI kinds): bound, possibly empty */
  static const char *const empty_sets[] = {"AF", "DB", "TLBIIS", "TLBInXS", "TLBI"};
  for (size_t i = 0; i < sizeof empty_sets / sizeof *empty_sets; i++)
    tag_bit(&p->tags, empty_sets[i]);
}

/* The flag management of thread t (herd's check_ptw): ha, hd as TTHM=
 * gives them (hd implies ha), hw when the hardware manages the flags (ha
 * and not SW).  The walk's annotation, the fault types and the flag
 * updates follow ha and hd; the fault conditions follow hw. */
typedef struct Mode {
  bool ha, hd, hw;
} Mode;

static Mode mode_of(const Program *p, int t) {
  uint64_t b = (uint64_t)1 << t;
  Mode m = {(p->tthm_ha & b) != 0, (p->tthm_hd & b) != 0, false};
  m.hw = m.ha && !(p->tthm_sw & b);
  return m;
}

static SVal field(SemCtx *c, SVal pte, int f) { return sem_op1_width(c, S_PTE_FIELD, f, pte); }
static SVal not(SemCtx *c, SVal v) { return sem_op1(c, S_NOT, v); }
static SVal and(SemCtx *c, SVal a, SVal b) { return sem_op(c, S_AND, a, b); }
static SVal or(SemCtx *c, SVal a, SVal b) { return sem_op(c, S_OR, a, b); }

/* herd's check_ptw: when the access faults.  Without hardware management
 * a read faults when the entry is invalid or its access flag clear, a
 * write also when its dirty bit is clear; with it the access flag does
 * not count, and with HD a clear dirty bit only when dbm is clear too. */
static SVal fault_cond(SemCtx *c, SVal pte, bool write, Mode m) {
  SVal bad = not(c, field(c, pte, PTE_VALID));
  if (!m.hw) bad = or(c, bad, not(c, field(c, pte, PTE_AF)));
  if (!write) return bad;
  SVal nodb = not(c, field(c, pte, PTE_DB));
  if (m.hw && m.hd) nodb = and(c, nodb, not(c, field(c, pte, PTE_DBM)));
  return or(c, bad, nodb);
}

/* herd's mfault of lift_kvm: a commit data-dependent on the walk
 * controls the fault event (at the virtual address, an exception entry)
 * and the write of ELR_EL1 with the instruction's label; the fault has
 * the access's annotation (A, Q, L: an STLR's fault is in L); its type
 * is Translation for an invalid entry, else, with ha, Permission, else
 * AccessFlag when af is clear, else Permission. */
static void mmu_fault(SemCtx *c, SVal va, SVal pte, SVal bad, FaultType type, Mode m, bool write,
                      uint64_t an) {
  SVal valid = field(c, pte, PTE_VALID);
  SVal af = field(c, pte, PTE_AF);
  SVal why;
  if (type == FT_MMU_TRANSLATION)
    why = not(c, valid);
  else if (type == FT_MMU_ACCESSFLAG)
    why = and(c, and(c, valid, not(c, af)), bad);
  else
    why = m.ha ? and(c, valid, bad) : and(c, and(c, valid, af), bad);
  sem_assume(c, why);
  SVal commit = sem_commit(c, why, EV_PRED, 0);
  sem_ctrl_dep(c, commit);
  SVal addr = va;
  addr.deps = 0;
  SemFault f = {type, write, true, addr, FM_NONE};
  /* the fault event has the access's annotation (herd's mk_fault an) */
  sem_add_tags(c, sem_fault_event(c, &f), an);
  sem_write_reg(c, AA_ELR, sem_instr_label(c));
  sem_set_reg_value(c, AA_ELR, sem_instr_label(c));
  sem_ctrl_reset(c);
  sem_raise(c);
}

/* herd's add_setbits: when `cond` holds of the entry read by the walk, a
 * commit (controlled by the check's, data-dependent on the walk) controls
 * the hardware update: a non-explicit write of the entry, atomic with the
 * walk (both X), setting af (and db when `db`), in the sets AF (and DB). */
static void hw_update(SemCtx *c, SVal entry, SVal pte, SVal check, bool db) {
  const Program *p = sem_program(c);
  SVal cond = not(c, field(c, pte, PTE_AF));
  if (db) cond = or(c, cond, not(c, field(c, pte, PTE_DB)));
  if (sem_choose(c, 2) == 0) {
    sem_assume(c, not(c, cond));
    return;
  }
  sem_assume(c, cond);
  sem_ctrl_reset(c);
  sem_ctrl_dep(c, check);
  SVal commit = sem_commit(c, cond, EV_PRED, 0);
  sem_ctrl_reset(c);
  sem_ctrl_dep(c, commit);
  SVal v = sem_op1_width(c, S_PTE_SET, PTE_AF, pte);
  if (db) v = sem_op1_width(c, S_PTE_SET, PTE_DB, v);
  entry.deps = 0;
  uint64_t tags = p->pte_tag | sem_tag(c, "X") | sem_tag(c, "AF") | (db ? sem_tag(c, "DB") : 0);
  SVal w = sem_store(c, entry, v, 8, tags);
  sem_add_flags(c, w, EV_NEXP);
  sem_ctrl_reset(c);
}

/* herd's mk_pte_fault: a thread at EL0 accessing a physical address or a
 * page-table entry; a commit data-dependent on the address controls a
 * Permission fault (message EL0, the access's annotation), and the
 * thread ends there, whatever its handler. */
static void el0_fault(SemCtx *c, SVal a, bool write, uint64_t an) {
  SVal cond = sem_int(c, 1);
  cond.deps = a.deps;
  SVal commit = sem_commit(c, cond, EV_PRED, 0);
  sem_ctrl_dep(c, commit);
  a.deps = 0;
  SemFault f = {FT_MMU_PERMISSION, write, true, a, FM_EL0};
  sem_add_tags(c, sem_fault_event(c, &f), an);
  sem_ctrl_reset(c);
  sem_exit(c);
}

bool vmsa_access(SemCtx *c, SVal *a, bool write, uint64_t *tags) {
  uint64_t an = *tags & (sem_tag(c, "A") | sem_tag(c, "Q") | sem_tag(c, "L"));
  return vmsa_access_an(c, a, write, write, an, tags);
}

bool vmsa_access_an(SemCtx *c, SVal *a, bool write, bool updatedb, uint64_t an, uint64_t *tags) {
  const Program *p = sem_program(c);
  if (!p->kvm) return true;
  Val k;
  SVal off; /* the offset in the page of the symbol k.sym */
  if (sem_is_const(c, *a, &k)) {
    if (k.kind != VAL_ADDR) return true;
    off = sem_int(c, val_addr_off(k)); /* -variant memtag: not the tag */
  } else if (p->memtag) {
    sem_unsupported(c, "-variant memtag with -variant kvm: an address computed at run time is "
                       "not supported yet");
  } else if (sem_addr_base(c, *a, &k)) {
    /* x + an integer computed at run time: in x's page */
    off = sem_op(c, S_SUB, *a, sem_val(c, val_addr(k.sym, 0)));
  } else {
    /* an address read from memory (plus known integers): one alternative
     * per symbol it may be, or else refused if some execution has
     * another (an integer, a symbol plus an offset read from memory) */
    int64_t plus;
    SVal root = sem_addr_split(c, *a, &plus);
    int n = p->syms.count, alt = sem_choose(c, n + 1);
    if (alt == n) {
      for (int s = 0; s < n; s++)
        sem_assume(c, sem_op(c, S_NE, root, sem_val(c, val_addr(s, 0))));
      sem_refuse_why(c, REFUSE_KVM_ADDRESS);
      sem_exit(c);
      return false;
    }
    sem_assume(c, sem_op(c, S_EQ, root, sem_val(c, val_addr(alt, 0))));
    k = val_addr(alt, plus);
    SVal known = sem_val(c, k);
    known.deps = a->deps;
    *a = known;
    off = sem_int(c, plus);
  }
  bool el0 = (p->el0 >> sem_thread(c)) & 1;
  if (k.sym >= p->kvm_nsyms || p->pa_of[k.sym] < 0) {
    /* a physical address or a page-table entry: a direct access, which
     * a thread at EL0 may not make (herd's mk_pte_fault) */
    if (el0) {
      el0_fault(c, *a, write, an);
      return false;
    }
    if (lit_sym_kind(intern_name(&p->syms, k.sym)) == SK_PTE) {
      *tags |= p->pte_tag;
      /* herd's fire_spurious_af: with TTHM's HA or HD anywhere, a write
       * of an entry may come with a spurious update of its access flag */
      if (write && p->some_ha && sem_choose(c, 2) == 1)
        sem_spurious_af(c, sem_val(c, val_addr(k.sym, 0)));
    }
    return true;
  }
  Mode m = mode_of(p, sem_thread(c));
  /* the walk: a non-explicit read of the entry, after the address, with
   * the access's A, Q or L annotation (herd's an_pte); with ha or hd,
   * atomic too (X, herd's an_xpte) and in AF (and DB) */
  SVal entry = sem_val(c, val_addr(p->pte_of[k.sym], 0));
  entry.deps = a->deps;
  uint64_t wt = p->pte_tag | an;
  if (m.ha) wt |= sem_tag(c, "X") | sem_tag(c, "AF") | (m.hd ? sem_tag(c, "DB") : 0);
  SVal pte = sem_load(c, entry, 8, wt);
  sem_add_flags(c, pte, EV_NEXP);
  SVal bad = fault_cond(c, pte, write, m);
  /* a thread at EL0, out of its handler, faults on an entry without el0
   * (herd's check_el0): a Permission fault when valid (and af) */
  el0 = el0 && !sem_in_handler(c);
  if (el0) bad = or(c, bad, not(c, field(c, pte, PTE_EL0)));
  /* one alternative per outcome: the access, or a fault of each type
   * that may occur (AccessFlag only without ha, Permission for a write,
   * or a read whose access flag is checked with ha) */
  FaultType types[3];
  int nt = 0;
  types[nt++] = FT_MMU_TRANSLATION;
  if (!m.ha) types[nt++] = FT_MMU_ACCESSFLAG;
  if (write || el0 || (m.ha && !m.hw)) types[nt++] = FT_MMU_PERMISSION;
  int alt = sem_choose(c, 1 + nt);
  if (alt > 0) {
    mmu_fault(c, *a, pte, bad, types[alt - 1], m, write, an);
    return false;
  }
  SVal ok = not(c, bad);
  sem_assume(c, ok);
  SVal commit = sem_commit(c, ok, EV_PRED, 0);
  /* the hardware updates (herd's mok): for a write (or a CAS that fails
   * without writing, updatedb) with hd, of af and db; else with ha, of af;
   * the CAS may also update af alone */
  if (m.hd && updatedb && !write) {
    bool db = sem_choose(c, 2) == 0;
    hw_update(c, entry, pte, commit, db);
  } else if (m.hd && updatedb) {
    hw_update(c, entry, pte, commit, true);
  } else if (m.ha) {
    hw_update(c, entry, pte, commit, false);
  }
  sem_ctrl_reset(c);
  sem_ctrl_dep(c, commit);
  SVal phys = sem_op1(c, S_PTE_OA, pte);
  Val o;
  if (!sem_is_const(c, off, &o) || o.kind != VAL_INT || o.num != 0) phys = sem_op(c, S_ADD, phys, off);
  phys.deps |= a->deps;
  *a = phys;
  return true;
}
