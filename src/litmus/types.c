/*
 * types.c — the C types a test may declare for its locations (in the
 * init section, `int64_t x;`, or a C test's parameters): the width and
 * signedness of their values, which the executor applies to every value
 * a location holds and the printers to every value they show.
 */
#include "litmus.h"

#include <string.h>

static const struct {
  const char *name;
  int bits; /* 0: the architecture's word */
  bool is_signed;
} types[] = {
    {"char", 8, true},       {"int8_t", 8, true},      {"uint8_t", 8, false},
    {"short", 16, true},     {"int16_t", 16, true},    {"uint16_t", 16, false},
    {"int", 32, true},       {"long", 32, true},       {"int32_t", 32, true},
    {"uint32_t", 32, false}, {"atomic_t", 32, true},   {"int64_t", 64, true},
    {"uint64_t", 64, false}, {"intptr_t", 0, true},    {"uintptr_t", 0, false},
    {"pteval_t", 0, false},  {"__int128", 64, true},   {"__uint128", 64, false},
};

int lit_type_bits(const LitType *ty, int word_bits, bool *is_signed) {
  *is_signed = true;
  int bits = 32; /* undeclared, or a type we do not know: int */
  if (ty && (ty->kind == TY_PTR || ty->kind == TY_PTR_NOBASE)) {
    bits = word_bits;
  } else if (ty && ty->base) {
    for (size_t i = 0; i < ARRAY_LEN(types); i++)
      if (strcmp(types[i].name, ty->base) == 0) {
        bits = types[i].bits ? types[i].bits : word_bits;
        *is_signed = types[i].is_signed;
      }
  }
  return bits < word_bits ? bits : word_bits;
}
