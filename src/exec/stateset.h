/*
 * stateset.h — the set of distinct final states of a test.
 *
 * A state is one value per displayed location.  Tests can reach hundreds
 * of thousands of states (WWC chains), so each value is packed into one
 * 64-bit key (small integers, addresses and labels fit; other values go
 * to a side table and the key holds their index) and states are hashed
 * as arrays of keys.
 */
#ifndef CORRAL_STATESET_H
#define CORRAL_STATESET_H

#include <stddef.h>

#include "value.h"

typedef struct StateSet {
  uint64_t *keys;    /* cap * ndisp */
  uint64_t *hash;    /* per slot, 0 = empty */
  int cap, count, ndisp;
  Val *big;          /* values that do not pack */
  int nbig, capbig;
} StateSet;

void stateset_init(StateSet *s, int ndisp);
void stateset_free(StateSet *s);
void stateset_add(StateSet *s, const Val *state);
/* Iterate: slot i in 0..cap-1 holds a state when stateset_get returns true. */
bool stateset_get(const StateSet *s, int slot, Val *state);
/* The packed keys of the state in a slot, and the value of one key. */
static inline const uint64_t *stateset_keys(const StateSet *s, int slot) {
  return s->keys + (size_t)slot * (size_t)(s->ndisp ? s->ndisp : 1);
}
Val stateset_value(const StateSet *s, uint64_t key);
/* A key that holds an integer (low bits 0), and that integer. */
static inline bool stateset_key_is_int(uint64_t k) { return (k & 3) == 0; }
static inline int64_t stateset_key_int(uint64_t k) { return (int64_t)k >> 2; }

#endif
