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
 * value.  The final value of a location (engine.c) combines the final
 * values of its bytes.
 *
 * Only integer values can be split: a location holding an address is
 * refused, as is (in sem.c) an access whose address is computed.
 */
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
