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

/* Is sym a tag location tag(x)?  Under -variant mixed those are not split
 * into bytes: tags are read and written whole (sem.c). */
bool mte_is_tag_loc(const Program *p, int sym);

/* The MTE operations S_TAGLOC .. S_SETTAG on values; false when they do
 * not apply. */
static inline bool mte_is_op(int op) { return op >= S_TAGLOC && op <= S_SETTAG; }
/* Also herd's difference of two tags, or of two addresses that differ in
 * symbol or tag (under -variant memtag): their order, -1, 0 or 1. */
static inline bool mte_handles(int op, Val a, Val b) {
  if (mte_is_op(op)) return true;
  return op == S_SUB && ((a.kind == VAL_TAG && b.kind == VAL_TAG) ||
                         (a.kind == VAL_ADDR && b.kind == VAL_ADDR &&
                          (a.sym != b.sym || val_addr_tag(a) != val_addr_tag(b))));
}
bool mte_apply(const Program *p, SymOp op, Val a, Val b, Val *out);

/* herd's spelling of a colour (":red" is printed by the caller). */
static inline const char *mte_colour(const Program *p, int c) {
  return intern_name(&p->colors, c);
}

#endif
