/*
 * stateset.h — the set of distinct final states of a test.
 *
 * A state is one value per displayed location.  Tests can reach hundreds
 * of thousands of states (WWC and RCU chains), so each value is packed
 * into one 64-bit key (small integers, addresses and labels fit; other
 * values go to a side table and the key holds their index), and a state
 * is stored once, densely, as a record of its keys, each key in as few
 * bytes as the widest key seen so far needs (1, 2, 4 or 8).  A hash table
 * of record numbers finds the states already seen.
 */
#ifndef CORRAL_STATESET_H
#define CORRAL_STATESET_H

#include <stddef.h>
#include <string.h>

#include "value.h"

typedef struct StateSet {
  unsigned char *rec; /* count records of ndisp keys, width bytes each */
  size_t reccap;      /* bytes allocated at rec */
  int width;          /* bytes per key: 1, 2, 4 or 8 */
  uint32_t *slot;     /* per hash slot: record number + 1, 0 = empty */
  uint32_t *tag;      /* per hash slot: the record's hash */
  int cap, count, ndisp;
  Val *big;           /* values that do not pack */
  int nbig, capbig;
} StateSet;

void stateset_init(StateSet *s, int ndisp);
void stateset_free(StateSet *s);
void stateset_add(StateSet *s, const Val *state);
/* State i (0..count-1, in the order they were first added) into state. */
bool stateset_get(const StateSet *s, int i, Val *state);
/* Key q of state i, and the value of a key. */
static inline uint64_t stateset_key(const StateSet *s, int i, int q) {
  const unsigned char *r = s->rec + ((size_t)i * (size_t)s->ndisp + (size_t)q) * (size_t)s->width;
  switch (s->width) {
  case 1: return (uint64_t)(int64_t)(signed char)r[0];
  case 2: {
    int16_t x;
    memcpy(&x, r, 2);
    return (uint64_t)(int64_t)x;
  }
  case 4: {
    int32_t x;
    memcpy(&x, r, 4);
    return (uint64_t)(int64_t)x;
  }
  default: {
    uint64_t x;
    memcpy(&x, r, 8);
    return x;
  }
  }
}
Val stateset_value(const StateSet *s, uint64_t key);
/* A key that holds an integer (low bits 0), and that integer. */
static inline bool stateset_key_is_int(uint64_t k) { return (k & 3) == 0; }
static inline int64_t stateset_key_int(uint64_t k) { return (int64_t)k >> 2; }

#endif
