/*
 * sem_aarch64_mte.c — memory tagging in the AArch64 semantics, as herd7's
 * AArch64Sem has it with -variant memtag (no -variant kvm):
 *
 * - a checked access (LDR, STR and their ordered forms) first reads the
 *   tag of its granule, tag(x) (a non-explicit read in T, iico_data-after
 *   the address), compares it with the tag the address carries (green
 *   when none), and a commit data-dependent on that read decides: on a
 *   match the access at the address without its tag, controlled by the
 *   commit when the check is synchronous (loads under sync and asym,
 *   stores under sync); on a mismatch a TagCheck fault at the tagged
 *   address, controlled by the commit: an exception entry (with ELR_EL1
 *   written) when synchronous or when the thread has a handler, else an
 *   asynchronous fault that writes TFSR_ELx = 1 and lets the access go on;
 * - STG Xt,[Xn,#k] writes the tag Xt carries to tag(Xn+k) (an explicit
 *   write in T); LDG Xt,[Xn,#k] reads tag(Xn+k) and writes Xn+k with that
 *   tag to Xt.  Neither is checked.
 * - the exclusives and atomics are checked the same way, with the edges
 *   each has in herd (MteCheck, sem_aarch64.h).
 * - STZG Xt,[Xn,#k] is STG and a 16-byte zero write to the granule at
 *   Xn+k without its tag, neither checked; STZ2G the same for two
 *   granules, and needs -variant mixed (as in herd).
 * - the pairs (LDP, LDPSW, STP, LDXP, STXP) check their first address
 *   once.
 */
#include "../litmus/aarch64.h"
#include "faults.h"
#include "sem_aarch64.h"

bool aarch64_mte_checked(int op) {
  switch ((AAOp)op) {
  case AA_LDR: case AA_LDRSW: case AA_LDRS: case AA_LDUR: case AA_LDAR: case AA_LDAPR:
  case AA_STR: case AA_STLR:
  case AA_LDXR: case AA_LDAXR: case AA_STXR: case AA_STLXR: case AA_STXP: case AA_LDXP:
  case AA_LDP: case AA_LDPSW: case AA_STP:
  case AA_SWP: case AA_LDOP: case AA_STOP: case AA_CAS: case AA_CASP:
    return true;
  default:
    return false;
  }
}

bool aarch64_mte_check(SemCtx *c, SVal *a, bool write) {
  MteCheck k = {.write = write, .ctrl = MTE_CTRL_SYNC};
  return aarch64_mte_check_with(c, a, &k);
}

bool aarch64_mte_check_with(SemCtx *c, SVal *a, MteCheck *k) {
  const Program *p = sem_program(c);
  k->after = (SVal){0};
  /* -variant kvm: herd checks only the pages its entry marks TaggedNormal;
   * entry attributes are refused when the test is read (litmus/pte.c), so
   * no page is: nothing is checked, the access goes on at the address
   * vmsa.c translated. */
  if (!p->memtag || p->kvm) return true;
  bool write = k->write;
  SVal va = *a;
  SVal mem_tag = sem_load(c, sem_op1(c, S_TAGLOC, va), 8, sem_tag(c, "T"));
  sem_add_flags(c, mem_tag, EV_NEXP);
  SVal ok = sem_op(c, S_EQ, mem_tag, sem_op1(c, S_TAGOF, va));
  ok.deps = mem_tag.deps; /* the commit depends on the tag read only */
  bool sync = p->mte_precision == MTE_SYNC || (!write && p->mte_precision == MTE_ASYM);
  int alt = sem_choose(c, 2);
  sem_assume(c, alt == 0 ? ok : sem_op1(c, S_NOT, ok));
  SVal commit = sem_commit(c, ok, EV_PRED, 0);
  SVal untagged = sem_op1(c, S_UNTAG, va);
  untagged.deps = va.deps;
  if (alt == 0) {
    if (k->ctrl == MTE_CTRL_ALWAYS || (k->ctrl == MTE_CTRL_SYNC && sync)) sem_ctrl_dep(c, commit);
    k->after = commit;
    *a = untagged;
    return true;
  }
  bool handler = sem_has_handler(c);
  if (sem_in_handler(c)) {
    /* a fault inside the handler: refused if some candidate takes this
     * path (in the tests herd7 runs, the mismatch cannot happen there) */
    sem_refuse_why(c, REFUSE_NESTED_FAULT);
    sem_exit(c);
    return false;
  }
  if ((handler || sync) && k->dup_fault) {
    sem_assume(c, sem_int(c, 0)); /* another alternative has this fault */
    return false;
  }
  sem_ctrl_dep(c, commit);
  SVal addr = va;
  if (!handler) addr.deps = 0; /* herd: control from the commit only */
  SemFault f = {FT_TAGCHECK, write, handler || sync, addr, FM_NONE};
  if (handler || sync) {
    sem_fault_event(c, &f);
    sem_write_reg(c, AA_ELR, sem_instr_label(c));
    sem_set_reg_value(c, AA_ELR, sem_instr_label(c));
    sem_ctrl_reset(c);
    sem_raise(c);
    return false;
  }
  sem_write_reg(c, AA_TFSR, sem_int(c, 1));
  k->after = sem_fault_event(c, &f);
  sem_ctrl_reset(c);
  *a = untagged;
  return true;
}

enum { GRANULE = 16 }; /* bytes of memory one tag covers */

/* STG Xt,[Xn,#k] (and STZG's first half): tag(Xn+k) <- the tag of Xt;
 * for STZ2G, tag(Xn+k+16) too. */
static void store_tag(SemCtx *c, const Instr *ins, int granules) {
  const Operand *o = ins->ops;
  SVal a = aarch64_address(c, &o[1]);
  SVal t = o[0].reg == AA_ZR ? sem_int(c, 0) : sem_read_reg(c, o[0].reg);
  sem_data_port(c, t);
  for (int g = 0; g < granules; g++) {
    SVal ag = g ? sem_op(c, S_ADD, a, sem_int(c, g * GRANULE)) : a;
    sem_store(c, sem_op1(c, S_TAGLOC, ag), sem_op1(c, S_TAGOF, t), 8, sem_tag(c, "T"));
  }
}

/* STZG / STZ2G: herd's stzg, the tags and the zeroing side by side, each
 * computing its address; the zeroing writes each granule at the untagged
 * address; nothing is checked. */
static void store_zero_tag(SemCtx *c, const Instr *ins, int granules) {
  store_tag(c, ins, granules);
  SVal a = aarch64_address(c, &ins->ops[1]);
  SVal untagged = sem_op1(c, S_UNTAG, a);
  untagged.deps = a.deps;
  for (int g = 0; g < granules; g++) {
    SVal ag = g ? sem_op(c, S_ADD, untagged, sem_int(c, g * GRANULE)) : untagged;
    sem_store(c, ag, sem_int(c, 0), GRANULE, 0);
  }
}

static void need_memtag(SemCtx *c, const char *what) {
  if (!sem_program(c)->memtag) sem_error(c, "%s without -variant memtag", what);
}

bool aarch64_exec_mte(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  if (AA_IS_MTE(ins->op) && sem_program(c)->kvm)
    sem_unsupported(c, "the tag instructions under -variant memtag with -variant kvm are not "
                       "supported yet");
  switch ((AAOp)ins->op) {
  case AA_STG:
    need_memtag(c, "STG");
    store_tag(c, ins, 1);
    return true;
  case AA_STZG:
    need_memtag(c, "STZG");
    store_zero_tag(c, ins, 1);
    return true;
  case AA_STZ2G:
    need_memtag(c, "STZ2G");
    if (!sem_program(c)->mixed) sem_error(c, "STZ2G without -variant mixed");
    store_zero_tag(c, ins, 2);
    return true;
  case AA_LDG: {
    need_memtag(c, "LDG");
    SVal a = aarch64_address(c, &o[1]);
    SVal t = sem_load(c, sem_op1(c, S_TAGLOC, a), 8, sem_tag(c, "T"));
    SVal v = sem_op(c, S_SETTAG, a, t);
    v.deps = t.deps;
    if (o[0].reg != AA_ZR) sem_write_reg(c, o[0].reg, v);
    return true;
  }
  default:
    return false;
  }
}
