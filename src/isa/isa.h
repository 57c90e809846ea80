/*
 * isa.h — the ISA registry: one descriptor per architecture, found by its
 * Arch constant or by its name.  The table itself is isa_list.h (one line
 * per architecture); docs/adding-an-isa.md says how to add one.
 *
 * Everything outside an architecture's own files (its front end, its
 * semantics) asks the descriptor instead of naming the architecture: the
 * default model, the family -archcheck accepts, the rmw tag, and the
 * ISA_* flags below.
 */
#ifndef CORRAL_ISA_H
#define CORRAL_ISA_H

#include <stdbool.h>

/* What the rest of corral needs to know of an architecture beyond its
 * front end and its semantics. */
enum {
  /* rmw pairs (litmus.md §5) only within one instruction (X86's locked
   * instructions, C's primitives), not across a reserve/conditional pair */
  ISA_RMW_ONE_INSTR = 1u << 0,
  /* a language, not an assembly: the code section is thread functions
   * (no code table, no (* *) comments in it), po and dependencies are per
   * statement, the bell file's tags are sets of the model, and graphs and
   * explanations show C accesses (W[ONCE][x]=1), every load a data port,
   * and order executions with the other branch first */
  ISA_LANGUAGE = 1u << 1,
  /* -variant mixed: mixed-size accesses split into bytes (exec/mixed.c) */
  ISA_MIXED = 1u << 2,
  /* graphs annotate accesses as herd does for AArch64: Acq, AcqPc, Rel,
   * and '*' for exclusive ones (W[x]Rel=1) */
  ISA_GRAPH_ANNOT = 1u << 3,
  /* graphs show immediates without the '$' the hash spells */
  ISA_GRAPH_NO_DOLLAR = 1u << 4,
  /* instructions carry annotations a bell file gives meaning to (LISA):
   * every tag the bell file declares names a set of the model, the
   * annotation lists are checked against its `instructions`
   * declarations (the front end's bell_kind / bell_annot), a `scopes:`
   * tree may follow the code, and with neither -model nor -bell the
   * default model's bell file (MODEL.bell for MODEL.cat) is loaded too */
  ISA_BELL = 1u << 5,
  /* herd7 keeps a register environment while running the code: a branch
   * on a register whose value it knows is not a loop iteration it counts
   * (sem.c, loop unrolling) */
  ISA_REG_ENV = 1u << 6,
  /* herd masks every loaded value (an operation), so a value cycle
   * through memory always leaves an equation: no out-of-thin-air
   * candidate survives (values-and-loops.md §1.3) */
  ISA_LOAD_MASKS = 1u << 7,
  /* instructions are values (NOP, instr:"B .+8"), code labels memory
   * locations holding them, and -variant ifetch runs self-modifying code
   * (exec/ifetch.c) */
  ISA_INSTR_VALUES = 1u << 8,
  /* thread headers may carry herd's procRules annotations, P0:a,b;
   * corral accepts the empty list, P0: */
  ISA_PROC_ANNOT = 1u << 9,
  /* -variant mixed: memory is big-endian (herd's PPC), byte 0 of an
   * access holds its most significant bits */
  ISA_BIG_ENDIAN = 1u << 10,
};

typedef enum Arch {
#define ISA(id, ...) ARCH_##id,
#include "isa_list.h"
#undef ISA
  ARCH_COUNT
} Arch;

struct ArchOps;
struct SemArch;

typedef struct Isa {
  Arch arch;
  const char *name;                /* the litmus header's spelling */
  const char *alias;               /* another spelling, or NULL */
  const struct ArchOps *front;     /* src/litmus/<arch>.c */
  const struct SemArch *sem;       /* src/exec/sem_<arch>.c */
  const char *default_model;       /* herd7's, e.g. "ppc.cat" */
  const char *family;              /* -archcheck: same family, same models */
  const char *rmw_tag;             /* tag of an atomic rmw's two halves */
  unsigned flags;                  /* ISA_* */
} Isa;

/* The descriptor of a (NULL if a is not one). */
const Isa *isa_of(Arch a);
/* The descriptor whose name or alias is s, or NULL. */
const Isa *isa_by_name(const char *s);
/* s names an architecture herd7 knows but corral does not (BPF, C++...). */
bool isa_known_elsewhere(const char *s);
static inline bool isa_has(Arch a, unsigned flag) {
  const Isa *i = isa_of(a);
  return i && (i->flags & flag);
}

#endif
