/*
 * faults.c — the front end's part of AArch64 faults: the names of herd7's
 * fault types (lib/faultType.ml spells them so in conditions and final
 * states) and the code entries of fault handlers.
 */
#include "litmus.h"

static const char *const ft_names[FT_COUNT] = {
    [FT_NONE] = "",
    [FT_TAGCHECK] = "TagCheck",
    [FT_UNDEF] = "UndefinedInstruction",
    [FT_SVC] = "SupervisorCall",
    [FT_MMU_TRANSLATION] = "MMU:Translation",
    [FT_MMU_ACCESSFLAG] = "MMU:AccessFlag",
    [FT_MMU_PERMISSION] = "MMU:Permission",
};

const char *fault_type_name(FaultType t) {
  return t > FT_NONE && t < FT_COUNT ? ft_names[t] : "";
}

FaultType fault_type_parse(const char *s, size_t n) {
  for (int t = FT_NONE + 1; t < FT_COUNT; t++)
    if (lit_word_is(ft_names[t], s, n)) return (FaultType)t;
  return FT_NONE;
}

const CodeEntry *test_entry(const Thread *th, int code_index) {
  if (code_index < 0) return NULL;
  if (code_index < th->nentries) return &th->entries[code_index];
  code_index -= th->nentries;
  if (th->handler && code_index < th->handler->nentries)
    return &th->handler->entries[code_index];
  return NULL;
}

void fault_atom_print(const FaultAtom *f, const char *head, StrBuf *out) {
  sb_puts(out, head);
  sb_printf(out, "(P%d", f->thread);
  if (f->label) {
    sb_putc(out, ':');
    sb_puts(out, f->label);
  }
  if (f->sym) sb_printf(out, f->pte ? ",PTE(%s)" : ",%s", f->sym);
  if (f->type != FT_NONE) {
    sb_putc(out, ',');
    sb_puts(out, fault_type_name(f->type));
  }
  sb_putc(out, ')');
}
