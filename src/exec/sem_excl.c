/*
 * sem_excl.c — herd7's exclusive store (sem_excl.h).
 */
#include "sem_excl.h"

bool sem_excl_store(SemCtx *c, int resreg, SVal addr, SVal data, int size,
                    uint64_t tags, uint64_t *deps) {
  SVal resa = sem_read_reg(c, resreg);
  uint64_t all = resa.deps | data.deps | addr.deps;
  SVal zero = sem_int(c, 0);
  zero.deps = all;
  sem_write_reg(c, resreg, zero);
  *deps = all;
  if (sem_choose(c, 2) == 0) return false;
  sem_assume(c, sem_op(c, S_EQ, addr, resa));
  addr.deps = all & ~data.deps;
  sem_store(c, addr, data, size, tags);
  return true;
}
