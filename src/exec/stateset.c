/*
 * stateset.c — packed, hashed final states (see stateset.h).
 *
 * Key layout (low two bits: kind): integer (num << 2 | 0) when it fits in
 * 62 signed bits; address (offset << 34 | sym << 2 | 1) when the symbol id
 * fits in 32 bits and the offset in 30; label (label << 34 | thread << 2 |
 * 2); anything else (index in the side table << 2 | 3).  Equal values get
 * equal keys, so states compare as key arrays.  In a record a key is kept
 * as a signed number of `width` bytes; when a key does not fit, every
 * record is rewritten wider (at most three times per set).  The hash is
 * computed on the 64-bit keys, so it does not depend on the width.
 */
#include "stateset.h"

#include <stdlib.h>
#include <string.h>

#include "../util/util.h"

void stateset_init(StateSet *s, int ndisp) {
  memset(s, 0, sizeof *s);
  s->ndisp = ndisp;
  s->width = 1;
}

void stateset_free(StateSet *s) {
  free(s->rec);
  free(s->slot);
  free(s->tag);
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

Val stateset_value(const StateSet *s, uint64_t k) {
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

/* Bytes a key needs as a signed number. */
static int key_width(uint64_t k) {
  int64_t x = (int64_t)k;
  return fits(x, 8) ? 1 : fits(x, 16) ? 2 : fits(x, 32) ? 4 : 8;
}

static void put_key(unsigned char *r, int width, uint64_t k) {
  switch (width) {
  case 1: r[0] = (unsigned char)(signed char)(int64_t)k; return;
  case 2: {
    int16_t x = (int16_t)(int64_t)k;
    memcpy(r, &x, 2);
    return;
  }
  case 4: {
    int32_t x = (int32_t)(int64_t)k;
    memcpy(r, &x, 4);
    return;
  }
  default: memcpy(r, &k, 8); return;
  }
}

/* Every record rewritten with keys of `width` bytes. */
static void widen(StateSet *s, int width) {
  size_t n = (size_t)s->ndisp, bytes = (size_t)s->count * n * (size_t)width;
  size_t cap = bytes > 64 ? bytes : 64;
  unsigned char *nr = xmalloc(cap);
  for (int i = 0; i < s->count; i++)
    for (size_t q = 0; q < n; q++)
      put_key(nr + ((size_t)i * n + q) * (size_t)width, width, stateset_key(s, i, (int)q));
  free(s->rec);
  s->rec = nr;
  s->reccap = cap;
  s->width = width;
}

static void grow_table(StateSet *s) {
  int nc = s->cap ? s->cap * 2 : 64;
  uint32_t *ns = xcalloc((size_t)nc, sizeof(uint32_t));
  uint32_t *nt = xmalloc(sizeof(uint32_t) * (size_t)nc);
  for (int i = 0; i < s->cap; i++) {
    if (!s->slot[i]) continue;
    int j = (int)(s->tag[i] & (uint32_t)(nc - 1));
    while (ns[j]) j = (j + 1) & (nc - 1);
    ns[j] = s->slot[i];
    nt[j] = s->tag[i];
  }
  free(s->slot);
  free(s->tag);
  s->slot = ns;
  s->tag = nt;
  s->cap = nc;
}

void stateset_add(StateSet *s, const Val *state) {
  int n = s->ndisp;
  uint64_t buf[64];
  uint64_t *k = n <= 64 ? buf : xmalloc(sizeof(uint64_t) * (size_t)n);
  int width = s->width;
  for (int i = 0; i < n; i++) {
    k[i] = pack(s, state[i]);
    int w = key_width(k[i]);
    if (w > width) width = w;
  }
  if (width > s->width) widen(s, width);
  uint32_t h = (uint32_t)hash_bytes(k, sizeof(uint64_t) * (size_t)n);
  size_t size = (size_t)n * (size_t)width;
  if (!s->rec || (size_t)(s->count + 1) * size > s->reccap) {
    size_t cap = s->reccap ? 2 * s->reccap : 64;
    while (cap < (size_t)(s->count + 1) * size) cap *= 2;
    s->rec = xrealloc(s->rec, cap);
    s->reccap = cap;
  }
  /* the new record, written in place after the last one */
  unsigned char *r = s->rec + (size_t)s->count * size;
  for (int i = 0; i < n; i++) put_key(r + (size_t)i * (size_t)width, width, k[i]);
  if ((s->count + 1) * 2 > s->cap) grow_table(s);
  int j = (int)(h & (uint32_t)(s->cap - 1));
  while (s->slot[j]) {
    if (s->tag[j] == h && memcmp(s->rec + (size_t)(s->slot[j] - 1) * size, r, size) == 0)
      goto done;
    j = (j + 1) & (s->cap - 1);
  }
  s->slot[j] = (uint32_t)s->count + 1;
  s->tag[j] = h;
  s->count++;
done:
  if (k != buf) free(k);
}

bool stateset_get(const StateSet *s, int i, Val *state) {
  if (i < 0 || i >= s->count) return false;
  for (int q = 0; q < s->ndisp; q++) state[q] = stateset_value(s, stateset_key(s, i, q));
  return true;
}
