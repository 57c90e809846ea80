/*
 * rel.h — event sets and relations as bit vectors and bit matrices.
 *
 * This is the hot path of corral: a cat model is evaluated as a sequence of
 * these operations, for every candidate execution.  The events of one event
 * structure are numbered 0..n-1; a set is W = ceil(n/64) words; a relation
 * is n rows of W words, row i holding the successors of event i.  Nothing
 * allocates: callers pass destination buffers (usually from an arena), and
 * destinations may alias sources where noted.
 */
#ifndef CORRAL_REL_H
#define CORRAL_REL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef uint64_t Word;

/* The size of the universe every set and relation of one structure uses. */
typedef struct Dim {
  int n; /* number of events */
  int w; /* words per set / per row */
} Dim;

static inline Dim dim_make(int n) {
  Dim d = {n, (n + 63) / 64};
  if (d.w == 0) d.w = 1;
  return d;
}
static inline int set_words(Dim d) { return d.w; }
static inline int rel_words(Dim d) { return d.n * d.w; }

/* ------------------------------------------------------------- bit ops */
static inline bool bit_get(const Word *s, int i) {
  return (s[i >> 6] >> (i & 63)) & 1;
}
static inline void bit_set(Word *s, int i) { s[i >> 6] |= (Word)1 << (i & 63); }
static inline void bit_clr(Word *s, int i) {
  s[i >> 6] &= ~((Word)1 << (i & 63));
}

/* Next set bit at index >= from, or -1:
 *   for (int i = set_next(d, s, 0); i >= 0; i = set_next(d, s, i + 1)) */
/* Bits set in a word.  Without a popcount instruction in the target
 * (plain x86-64), __builtin_popcountll is a library call; the
 * shift-and-add form is a dozen inline instructions. */
static inline int word_count(Word x) {
#ifdef __POPCNT__
  return __builtin_popcountll(x);
#else
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

static inline int set_next_w(int w, const Word *s, int from) {
  int k = from >> 6;
  if (k >= w) return -1;
  Word b = s[k] & (~(Word)0 << (from & 63));
  for (;;) {
    if (b) return k * 64 + __builtin_ctzll(b);
    if (++k >= w) return -1;
    b = s[k];
  }
}

/* ------------------------------------------------------------------ sets */
static inline void set_clear(Dim d, Word *s) { memset(s, 0, sizeof(Word) * (size_t)d.w); }
static inline void set_copy(Dim d, Word *dst, const Word *s) {
  memmove(dst, s, sizeof(Word) * (size_t)d.w);
}
void set_fill(Dim d, Word *s); /* all n events */
static inline void set_or(Dim d, Word *dst, const Word *a, const Word *b) {
  for (int i = 0; i < d.w; i++) dst[i] = a[i] | b[i];
}
static inline void set_and(Dim d, Word *dst, const Word *a, const Word *b) {
  for (int i = 0; i < d.w; i++) dst[i] = a[i] & b[i];
}
static inline void set_andnot(Dim d, Word *dst, const Word *a, const Word *b) {
  for (int i = 0; i < d.w; i++) dst[i] = a[i] & ~b[i];
}
static inline bool set_is_empty(Dim d, const Word *s) {
  for (int i = 0; i < d.w; i++)
    if (s[i]) return false;
  return true;
}
static inline bool set_equal(Dim d, const Word *a, const Word *b) {
  return memcmp(a, b, sizeof(Word) * (size_t)d.w) == 0;
}
static inline bool set_subset(Dim d, const Word *a, const Word *b) {
  for (int i = 0; i < d.w; i++)
    if (a[i] & ~b[i]) return false;
  return true;
}
static inline bool set_intersects(Dim d, const Word *a, const Word *b) {
  for (int i = 0; i < d.w; i++)
    if (a[i] & b[i]) return true;
  return false;
}
int set_count(Dim d, const Word *s);
static inline int set_next(Dim d, const Word *s, int from) {
  return set_next_w(d.w, s, from);
}
int set_first(Dim d, const Word *s); /* -1 if empty */

/* ------------------------------------------------------------- relations
 * r[i*w .. i*w+w-1] is row i. */
static inline Word *rel_row(Dim d, Word *r, int i) { return r + (size_t)i * (size_t)d.w; }
static inline const Word *rel_crow(Dim d, const Word *r, int i) {
  return r + (size_t)i * (size_t)d.w;
}
static inline bool rel_get(Dim d, const Word *r, int i, int j) {
  return bit_get(rel_crow(d, r, i), j);
}
static inline void rel_set(Dim d, Word *r, int i, int j) {
  bit_set(rel_row(d, r, i), j);
}
static inline void rel_clear(Dim d, Word *r) {
  memset(r, 0, sizeof(Word) * (size_t)rel_words(d));
}
static inline void rel_copy(Dim d, Word *dst, const Word *r) {
  memmove(dst, r, sizeof(Word) * (size_t)rel_words(d));
}
static inline void rel_or(Dim d, Word *dst, const Word *a, const Word *b) {
  int n = rel_words(d);
  for (int i = 0; i < n; i++) dst[i] = a[i] | b[i];
}
static inline void rel_and(Dim d, Word *dst, const Word *a, const Word *b) {
  int n = rel_words(d);
  for (int i = 0; i < n; i++) dst[i] = a[i] & b[i];
}
static inline void rel_andnot(Dim d, Word *dst, const Word *a, const Word *b) {
  int n = rel_words(d);
  for (int i = 0; i < n; i++) dst[i] = a[i] & ~b[i];
}
static inline bool rel_is_empty(Dim d, const Word *r) {
  int n = rel_words(d);
  for (int i = 0; i < n; i++)
    if (r[i]) return false;
  return true;
}
static inline bool rel_equal(Dim d, const Word *a, const Word *b) {
  return memcmp(a, b, sizeof(Word) * (size_t)rel_words(d)) == 0;
}
static inline bool rel_subset(Dim d, const Word *a, const Word *b) {
  int n = rel_words(d);
  for (int i = 0; i < n; i++)
    if (a[i] & ~b[i]) return false;
  return true;
}
int rel_count(Dim d, const Word *r);

/* dst = a ; b.  dst must not alias a or b. */
void rel_compose(Dim d, Word *dst, const Word *a, const Word *b);
/* dst = r^-1.  dst must not alias r. */
void rel_inverse(Dim d, Word *dst, const Word *r);
/* r = r+ in place (Warshall). */
void rel_closure(Dim d, Word *r);
/* dst = [s] (identity restricted to s). */
void rel_identity(Dim d, Word *dst, const Word *s);
/* dst |= [s] */
void rel_add_identity(Dim d, Word *dst, const Word *s);
/* dst = a * b (cartesian product). */
void rel_product(Dim d, Word *dst, const Word *a, const Word *b);
/* dst = (u*u) \ r, complement within the universe u. */
void rel_complement(Dim d, Word *dst, const Word *r, const Word *u);
/* domain / range */
void rel_domain(Dim d, Word *dst, const Word *r);
void rel_range(Dim d, Word *dst, const Word *r);
/* no (i,i) */
bool rel_irreflexive(Dim d, const Word *r);
/* no cycle (r+ irreflexive), by depth-first search; scratch needs 3*n ints */
bool rel_acyclic(Dim d, const Word *r, int *scratch);
/* Find a cycle: fills path[0..len-1] with events e0 -> e1 -> ... -> e0.
 * Returns the length, 0 if acyclic.  scratch needs 3*n ints. */
int rel_find_cycle(Dim d, const Word *r, int *path, int *scratch);
/* Shortest path a = path[0] -> ... -> path[k] = b of k >= 1 edges of r
 * (a == b: a shortest cycle through a), by breadth-first search; returns
 * k, 0 if none.  path needs n+1 ints, scratch 2*n. */
int rel_shortest_path(Dim d, const Word *r, int a, int b, int *path, int *scratch);
/* A shortest cycle of r, through the smallest event among the shortest:
 * path[0] -> ... -> path[k] = path[0]; returns k, 0 if r is acyclic.
 * path needs n+1 ints, scratch 3*n+1. */
int rel_shortest_cycle(Dim d, const Word *r, int *path, int *scratch);
/* dst = [a] ; r ; [b] */
void rel_restrict(Dim d, Word *dst, const Word *r, const Word *a, const Word *b);

#endif
