/*
 * sem_aarch64_faults.c — the AArch64 instructions of exceptions, as
 * herd7's AArch64Sem has them: UDF and SVC raise a fault (an
 * UndefinedInstruction or SupervisorCall fault event and, beside it, a
 * write of ELR_EL1 with the return address), ERET is a commit (EXC-RET)
 * then a read of ELR_EL1 and a return there.  (MRS and MSR, which move
 * ELR_EL1 and TFSR_ELx too, are in sem_aarch64.c.)
 */
#include "../litmus/aarch64.h"
#include "sem_aarch64.h"

/* A synchronous exception of the current instruction (no address):
 * herd writes ELR_EL1 with `elr` and binds it to the instruction's label
 * for what runs next. */
static void exception_msg(SemCtx *c, FaultType type, FaultMsg msg, SVal elr) {
  SemFault f = {type, false, true, {SYM_NONE, 0, false, 0}, msg};
  sem_fault_event(c, &f);
  sem_write_reg(c, AA_ELR, elr);
  sem_set_reg_value(c, AA_ELR, sem_instr_label(c));
  sem_raise(c);
}

static void exception(SemCtx *c, FaultType type, SVal elr) {
  exception_msg(c, type, FM_NONE, elr);
}

/* herd faults "Invalid" with ELR_EL1 the fetch's own label. */
void aarch64_fetch_fault(SemCtx *c) {
  exception_msg(c, FT_UNDEF, FM_INVALID, sem_instr_label(c));
}

static void eret(SemCtx *c) {
  SVal commit = sem_commit(c, sem_int(c, 1), EV_ERET, sem_tag(c, "EXC-RET"));
  sem_data_dep(c, commit);
  sem_eret(c, sem_read_reg(c, AA_ELR));
}

bool aarch64_exec_exception(SemCtx *c, const Instr *ins) {
  switch ((AAOp)ins->op) {
  case AA_UDF: exception(c, FT_UNDEF, sem_instr_label(c)); return true;
  case AA_SVC: exception(c, FT_SVC, sem_return_label(c)); return true;
  case AA_ERET: eret(c); return true;
  default: return false;
  }
}
