/*
 * sem_aarch64_faults.c — the AArch64 instructions of exceptions, as
 * herd7's AArch64Sem has them: UDF and SVC raise a fault (an
 * UndefinedInstruction or SupervisorCall fault event and, beside it, a
 * write of ELR_EL1 with the return address), ERET is a commit (EXC-RET)
 * then a read of ELR_EL1 and a return there; MRS and MSR move ELR_EL1 and
 * TFSR_ELx from and to a general register.
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

static int sysreg_id(int sr) {
  switch ((AASysReg)sr) {
  case AA_SR_ELR_EL1: return AA_ELR;
  case AA_SR_TFSR_ELX: return AA_TFSR;
  default: return -1;
  }
}

bool aarch64_exec_exception(SemCtx *c, const Instr *ins) {
  const Operand *o = ins->ops;
  switch ((AAOp)ins->op) {
  case AA_UDF: exception(c, FT_UNDEF, sem_instr_label(c)); return true;
  case AA_SVC: exception(c, FT_SVC, sem_return_label(c)); return true;
  case AA_ERET: eret(c); return true;
  case AA_MRS: {
    int r = sysreg_id((int)o[1].imm);
    if (r < 0) return false;
    if (o[0].reg != AA_ZR) sem_write_reg(c, o[0].reg, sem_read_reg(c, r));
    return true;
  }
  case AA_MSR: {
    int r = sysreg_id((int)o[0].imm);
    if (r < 0) return false;
    sem_write_reg(c, r, o[1].reg == AA_ZR ? sem_int(c, 0) : sem_read_reg(c, o[1].reg));
    return true;
  }
  default: return false;
  }
}
