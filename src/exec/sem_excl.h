/*
 * sem_excl.h — herd7's exclusive store through a reservation register,
 * shared by ARM STREX/STLEX and MIPS sc.  (RISC-V sc differs in its
 * dependencies: see sem_riscv.c.)
 */
#ifndef CORRAL_SEM_EXCL_H
#define CORRAL_SEM_EXCL_H

#include "sem.h"

/* Reads the reservation register `resreg`, clears it, then takes one of
 * two alternatives: failure (returns false, no write) or success (a write
 * of `data` at `addr`, which must equal the reservation; returns true).
 * Every event depends on the reservation, data and address reads, as in
 * herd; *deps receives them, for the caller's status-register write. */
bool sem_excl_store(SemCtx *c, int resreg, SVal addr, SVal data, int size,
                    uint64_t tags, uint64_t *deps);

#endif
