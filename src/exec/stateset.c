/*
 * stateset.c — packed, hashed final states (see stateset.h).
 *
 * Key layout (low two bits: kind): integer (num << 2 | 0) when it fits in
 * 62 signed bits; address (offset << 34 | sym << 2 | 1) when the symbol id
 * fits in 32 bits and the offset in 30; label (label << 34 | thread << 2 |
 * 2); anything else (index in the side table << 2 | 3).  Equal values get
 * equal keys, so states compare as key arrays.
 */
#include "stateset.h"

#include <stdlib.h>
#include <string.h>

#include "../util/util.h"

void stateset_init(StateSet *s, int ndisp) {
  memset(s, 0, sizeof *s);
  s->ndisp = ndisp;
}

void stateset_free(StateSet *s) {
  free(s->keys);
  free(s->hash);
  free(s->big);
  memset(s, 0, sizeof *s);
}

static bool fits(int64_t x, int bits) {
  int64_t lim = (int64_t)1 << (bits - 1);
  return x >= -lim && x < lim;
}

static uint64_t pack(StateSet *s, Val v) {
  if (v.kind == VAL_INT && fits(v.num, 62)) return (uint64_t)v.num << 2;
  if (v.kind == VAL_ADDR && v.sym >= 0 && fits(v.num, 30))
    return (uint64_t)v.num << 34 | (uint64_t)(uint32_t)v.sym << 2 | 1;
  if (v.kind == VAL_LABEL && v.sym >= 0 && fits(v.num, 30))
    return (uint64_t)v.num << 34 | (uint64_t)(uint32_t)v.sym << 2 | 2;
  for (int i = 0; i < s->nbig; i++)
    if (val_eq(s->big[i], v)) return (uint64_t)i << 2 | 3;
  if (s->nbig == s->capbig) {
    s->capbig = s->capbig ? 2 * s->capbig : 8;
    s->big = xrealloc(s->big, sizeof(Val) * (size_t)s->capbig);
  }
  s->big[s->nbig] = v;
  return (uint64_t)s->nbig++ << 2 | 3;
}

static Val unpack(const StateSet *s, uint64_t k);

Val stateset_value(const StateSet *s, uint64_t key) { return unpack(s, key); }

static Val unpack(const StateSet *s, uint64_t k) {
  int64_t hi = (int64_t)k >> 34; /* arithmetic: keeps the sign */
  switch (k & 3) {
  case 0: return val_int((int64_t)k >> 2);
  case 1: return val_addr((int)(uint32_t)(k >> 2), hi);
  case 2: {
    Val v = {VAL_LABEL, (int32_t)(uint32_t)(k >> 2), hi};
    return v;
  }
  default: return s->big[k >> 2];
  }
}

static void grow(StateSet *s) {
  int n = s->ndisp ? s->ndisp : 1;
  int nc = s->cap ? s->cap * 2 : 64;
  uint64_t *nk = xcalloc((size_t)nc * (size_t)n, sizeof(uint64_t));
  uint64_t *nh = xcalloc((size_t)nc, sizeof(uint64_t));
  for (int i = 0; i < s->cap; i++) {
    if (!s->hash[i]) continue;
    int j = (int)(s->hash[i] & (uint64_t)(nc - 1));
    while (nh[j]) j = (j + 1) & (nc - 1);
    nh[j] = s->hash[i];
    memcpy(nk + (size_t)j * (size_t)n, s->keys + (size_t)i * (size_t)n, sizeof(uint64_t) * (size_t)n);
  }
  free(s->keys);
  free(s->hash);
  s->keys = nk;
  s->hash = nh;
  s->cap = nc;
}

void stateset_add(StateSet *s, const Val *state) {
  int n = s->ndisp;
  uint64_t buf[64];
  uint64_t *k = n <= 64 ? buf : xmalloc(sizeof(uint64_t) * (size_t)n);
  for (int i = 0; i < n; i++) k[i] = pack(s, state[i]);
  uint64_t h = hash_bytes(k, sizeof(uint64_t) * (size_t)n);
  if (!h) h = 1;
  if ((s->count + 1) * 2 > s->cap) grow(s);
  int stride = n ? n : 1;
  int j = (int)(h & (uint64_t)(s->cap - 1));
  while (s->hash[j]) {
    if (s->hash[j] == h && memcmp(s->keys + (size_t)j * (size_t)stride, k, sizeof(uint64_t) * (size_t)n) == 0)
      goto done;
    j = (j + 1) & (s->cap - 1);
  }
  s->hash[j] = h;
  memcpy(s->keys + (size_t)j * (size_t)stride, k, sizeof(uint64_t) * (size_t)n);
  s->count++;
done:
  if (k != buf) free(k);
}

bool stateset_get(const StateSet *s, int slot, Val *state) {
  if (slot < 0 || slot >= s->cap || !s->hash[slot]) return false;
  int stride = s->ndisp ? s->ndisp : 1;
  for (int i = 0; i < s->ndisp; i++) state[i] = unpack(s, s->keys[(size_t)slot * (size_t)stride + (size_t)i]);
  return true;
}
