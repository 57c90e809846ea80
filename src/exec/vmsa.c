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
 * Not yet (refused): hardware updates of AF/DB (TTHM=), EL0 threads, PTE values
 * whose output address is a page-table entry, computed virtual addresses
 * that are not known while running the code.
 */
#include "../litmus/aarch64.h"
#include "sem.h"
#include "vmsa.h"

#include <string.h>

static int pte_symbol_of(Program *p, int s) {
  const char *x = intern_name(&p->syms, s);
  return program_symbol(p, lit_join(&p->arena, "PTE(", x, ")", ""));
}

void vmsa_program_setup(Program *p, Err *err) {
  SrcPos where = {p->test->file, 1, 1};
  if (p->narrays > 0) err_raise(err, ERRK_SEMANTIC, where, "arrays under -variant kvm are not supported yet");
  if (test_meta(p->test, "TTHM"))
    err_raise(err, ERRK_SEMANTIC, where,
              "hardware updates of the access and dirty flags (TTHM=%s) are not supported yet",
              test_meta(p->test, "TTHM"));
  /* threads at EL0 (EL0=P0): the el0 field would make their accesses
   * fault; not modelled yet, so refused rather than run at EL1 */
  if (test_meta(p->test, "EL0"))
    err_raise(err, ERRK_SEMANTIC, where, "threads at EL0 (EL0=%s) under -variant kvm are not supported yet",
              test_meta(p->test, "EL0"));
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

/* herd's check_ptw without hardware management of the flags: a read
 * faults when the entry is invalid or its access flag clear, a write also
 * when its dirty bit is clear. */
static SVal fault_cond(SemCtx *c, SVal pte, bool write) {
  SVal valid = sem_op1_width(c, S_PTE_FIELD, PTE_VALID, pte);
  SVal af = sem_op1_width(c, S_PTE_FIELD, PTE_AF, pte);
  SVal bad = sem_op(c, S_OR, sem_op1(c, S_NOT, valid), sem_op1(c, S_NOT, af));
  if (write)
    bad = sem_op(c, S_OR, bad, sem_op1(c, S_NOT, sem_op1_width(c, S_PTE_FIELD, PTE_DB, pte)));
  return bad;
}

/* herd's mfault of lift_kvm: a commit data-dependent on the walk
 * controls the fault event (at the virtual address, an exception entry)
 * and the write of ELR_EL1 with the instruction's label; the fault's type
 * is Translation for an invalid entry, else AccessFlag when af is clear,
 * else Permission (a write, db clear). */
static void mmu_fault(SemCtx *c, SVal va, SVal pte, int k) {
  SVal valid = sem_op1_width(c, S_PTE_FIELD, PTE_VALID, pte);
  SVal af = sem_op1_width(c, S_PTE_FIELD, PTE_AF, pte);
  static const FaultType types[3] = {FT_MMU_TRANSLATION, FT_MMU_ACCESSFLAG, FT_MMU_PERMISSION};
  SVal why = sem_op1(c, S_NOT, valid);
  if (k == 1) why = sem_op(c, S_AND, valid, sem_op1(c, S_NOT, af));
  if (k == 2)
    why = sem_op(c, S_AND, sem_op(c, S_AND, valid, af),
                 sem_op1(c, S_NOT, sem_op1_width(c, S_PTE_FIELD, PTE_DB, pte)));
  sem_assume(c, why);
  SVal commit = sem_commit(c, why, EV_PRED, 0);
  sem_ctrl_dep(c, commit);
  SVal addr = va;
  addr.deps = 0;
  SemFault f = {types[k], k == 2, true, addr, FM_NONE};
  sem_fault_event(c, &f);
  sem_write_reg(c, AA_ELR, sem_instr_label(c));
  sem_set_reg_value(c, AA_ELR, sem_instr_label(c));
  sem_ctrl_reset(c);
  sem_raise(c);
}

bool vmsa_access(SemCtx *c, SVal *a, bool write, uint64_t *tags) {
  const Program *p = sem_program(c);
  if (!p->kvm) return true;
  Val k;
  if (!sem_is_const(c, *a, &k))
    sem_error(c, "-variant kvm: an address computed from memory is not supported yet");
  if (k.kind != VAL_ADDR) return true;
  if (k.sym >= p->kvm_nsyms || p->pa_of[k.sym] < 0) {
    /* a physical address or a page-table entry: a direct access */
    if (lit_sym_kind(intern_name(&p->syms, k.sym)) == SK_PTE) *tags |= p->pte_tag;
    return true;
  }
  /* the walk: a non-explicit read of the entry, after the address */
  SVal entry = sem_val(c, val_addr(p->pte_of[k.sym], 0));
  entry.deps = a->deps;
  SVal pte = sem_load(c, entry, 8, p->pte_tag);
  sem_add_flags(c, pte, EV_NEXP);
  SVal bad = fault_cond(c, pte, write);
  /* one alternative per outcome: the access, or a fault of each type */
  int alt = sem_choose(c, write ? 4 : 3);
  if (alt > 0) {
    if (sem_in_handler(c)) {
      /* corral has no fault inside a fault handler: refused if it may
       * happen (sem_refuse) */
      sem_assume(c, bad);
      sem_refuse(c);
      sem_exit(c);
      return false;
    }
    mmu_fault(c, *a, pte, alt - 1);
    return false;
  }
  SVal ok = sem_op1(c, S_NOT, bad);
  sem_assume(c, ok);
  SVal commit = sem_commit(c, ok, EV_PRED, 0);
  sem_ctrl_dep(c, commit);
  SVal phys = sem_op1(c, S_PTE_OA, pte);
  if (k.num != 0) phys = sem_op(c, S_ADD, phys, sem_int(c, k.num));
  phys.deps |= a->deps;
  *a = phys;
  return true;
}
