/*
 * registry.c — the ISA registry's descriptors, built from isa_list.h, and
 * the lookups by constant and by name.
 */
#include "isa.h"

#include <string.h>

#include "exec/sem.h"
#include "litmus/litmus.h"

#define ISA(id, name, alias, front, sem, model, family, rmw, flags) \
  extern const ArchOps front;                                         \
  extern const SemArch sem;
#include "isa_list.h"
#undef ISA

static const Isa isas[ARCH_COUNT] = {
#define ISA(id, name, alias, front, sem, model, family, rmw, flags) \
  [ARCH_##id] = {ARCH_##id, name, alias, &front, &sem, model, family, rmw, flags},
#include "isa_list.h"
#undef ISA
};

/* Architectures of herd7's that corral does not simulate: a test in one
 * of them is refused as "not supported" rather than "not an
 * architecture". */
static const char *const elsewhere[] = {
    "CPP", "C++", "JAVA", "Java", "ASL",
};

const Isa *isa_of(Arch a) {
  if ((int)a < 0 || a >= ARCH_COUNT) return NULL;
  return &isas[a];
}

const Isa *isa_by_name(const char *s) {
  for (int a = 0; a < ARCH_COUNT; a++)
    if (strcmp(isas[a].name, s) == 0 || (isas[a].alias && strcmp(isas[a].alias, s) == 0))
      return &isas[a];
  return NULL;
}

bool isa_known_elsewhere(const char *s) {
  for (size_t i = 0; i < sizeof elsewhere / sizeof *elsewhere; i++)
    if (strcmp(elsewhere[i], s) == 0) return true;
  return false;
}

/* The front end's and the semantics' lookups, kept for their callers. */
const ArchOps *arch_ops(Arch a) {
  const Isa *i = isa_of(a);
  return i ? i->front : NULL;
}

const char *arch_name(Arch a) {
  const Isa *i = isa_of(a);
  return i ? i->name : "?";
}

bool arch_from_name(const char *s, Arch *a) {
  const Isa *i = isa_by_name(s);
  if (i) *a = i->arch;
  return i != NULL;
}

const SemArch *sem_arch(Arch a) {
  const Isa *i = isa_of(a);
  return i ? i->sem : NULL;
}
