/*
 * sem_aarch64.h — what the AArch64 semantics shares with its vector part
 * (sem_aarch64_simd.c) and its exceptions (sem_aarch64_faults.c); the
 * latter returns false when the instruction is not its business.
 */
#ifndef CORRAL_SEM_AARCH64_H
#define CORRAL_SEM_AARCH64_H

#include "../litmus/litmus.h"
#include "sem.h"

/* The address of an OPK_MEM operand (aarch64.h's modes; the base alone
 * for post-indexing), and the base register's write-back of the pre- and
 * post-indexed modes. */
SVal aarch64_address(SemCtx *c, const Operand *m);
void aarch64_write_back(SemCtx *c, const Operand *m, SVal addr);

/* The vector instructions (AA_IS_SIMD). */
void aarch64_simd_exec(SemCtx *c, const Instr *ins);
/* Whether a vector instruction (op) may access memory (every SVE and SME
 * one counts). */
bool aarch64_simd_accesses_memory(int op);

/* UDF, SVC, ERET, MRS / MSR of ELR_EL1 and TFSR_ELx
 * (sem_aarch64_faults.c). */
bool aarch64_exec_exception(SemCtx *c, const Instr *ins);
/* -variant ifetch: a fetch read no instruction (herd's check_self). */
void aarch64_fetch_fault(SemCtx *c);
/* Memory tagging (sem_aarch64_mte.c): whether an access is one -variant
 * memtag checks; the tag check of the access at *a (nothing without
 * memtag; *a becomes the address without its tag; false when the path
 * faulted and has ended); STG, LDG. */
bool aarch64_mte_checked(int op);
bool aarch64_mte_check(SemCtx *c, SVal *a, bool write);
/* The check as an instruction asks for it: which direction (a write
 * checks as a store does: synchronously only under -variant sync), and
 * what the commit controls when the tags match: the access when the
 * check is synchronous (loads and stores), always until the caller's
 * sem_ctrl_reset (SWP, LD<op>: the read, the write and the register
 * write), or nothing (CAS; STXR, which is given `after` to control its
 * write with: the commit, or the fault of an asynchronous mismatch).
 * dup_fault: the instruction's alternatives share one fault, this one
 * drops the mismatches that end the path. */
typedef enum { MTE_CTRL_SYNC, MTE_CTRL_ALWAYS, MTE_CTRL_NONE } MteCtrl;
typedef struct {
  bool write;
  MteCtrl ctrl;
  bool dup_fault;
  SVal after; /* out */
} MteCheck;
bool aarch64_mte_check_with(SemCtx *c, SVal *a, MteCheck *k);
bool aarch64_exec_mte(SemCtx *c, const Instr *ins);

#endif
