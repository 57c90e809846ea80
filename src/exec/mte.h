/*
 * mte.h — the Memory Tagging Extension as herd7 models it with
 * -variant memtag (mte.c; the instructions in sem_aarch64_mte.c).
 */
#ifndef CORRAL_MTE_H
#define CORRAL_MTE_H

#include "program.h"

/* After the variants are known (program_set_faults): refuse what is not
 * supported, else give every location x its tag location tag(x) (one per
 * 16-byte granule of an array), green unless the init section says
 * otherwise.  Raises through err at `where`. */
void mte_program_setup(Program *p, Err *err, SrcPos where);

/* The MTE operations S_TAGLOC .. S_SETTAG on values; false when they do
 * not apply. */
static inline bool mte_is_op(int op) { return op >= S_TAGLOC && op <= S_SETTAG; }
bool mte_apply(const Program *p, SymOp op, Val a, Val b, Val *out);

/* herd's spelling of a colour (":red" is printed by the caller). */
static inline const char *mte_colour(const Program *p, int c) {
  return intern_name(&p->colors, c);
}

#endif
