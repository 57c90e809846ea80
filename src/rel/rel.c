/*
 * rel.c — the out-of-line relation operations (see rel.h).
 *
 * Composition is row-oriented: row i of a;b is the union of the rows b[j]
 * for every j in a[i].  Closure is Warshall's algorithm on rows.  Both are
 * O(n^2 * w) word operations, a few hundred instructions for n <= 64.
 */
#include "rel.h"

void set_fill(Dim d, Word *s) {
  for (int i = 0; i < d.w; i++) s[i] = ~(Word)0;
  int extra = d.w * 64 - d.n;
  if (extra > 0 && d.n > 0) s[d.w - 1] >>= extra;
  if (d.n == 0) s[0] = 0;
}

int set_count(Dim d, const Word *s) {
  int c = 0;
  for (int i = 0; i < d.w; i++) c += word_count(s[i]);
  return c;
}

int set_first(Dim d, const Word *s) { return set_next(d, s, 0); }

int rel_count(Dim d, const Word *r) {
  int c = 0, n = rel_words(d);
  for (int i = 0; i < n; i++) c += word_count(r[i]);
  return c;
}

void rel_compose(Dim d, Word *dst, const Word *a, const Word *b) {
  int w = d.w;
  if (w == 1) {
    for (int i = 0; i < d.n; i++) {
      Word acc = 0;
      for (Word bits = a[i]; bits; bits &= bits - 1)
        acc |= b[__builtin_ctzll(bits)];
      dst[i] = acc;
    }
    return;
  }
  if (w == 2) { /* 65..128 events: C tests with their fences and RCU events */
    for (int i = 0; i < d.n; i++) {
      Word o0 = 0, o1 = 0;
      for (Word bits = a[2 * i]; bits; bits &= bits - 1) {
        const Word *bj = b + 2 * __builtin_ctzll(bits);
        o0 |= bj[0];
        o1 |= bj[1];
      }
      for (Word bits = a[2 * i + 1]; bits; bits &= bits - 1) {
        const Word *bj = b + 2 * (64 + __builtin_ctzll(bits));
        o0 |= bj[0];
        o1 |= bj[1];
      }
      dst[2 * i] = o0;
      dst[2 * i + 1] = o1;
    }
    return;
  }
  for (int i = 0; i < d.n; i++) {
    Word *out = dst + (size_t)i * w;
    memset(out, 0, sizeof(Word) * (size_t)w);
    const Word *ai = a + (size_t)i * w;
    for (int k = 0; k < w; k++)
      for (Word bits = ai[k]; bits; bits &= bits - 1) {
        const Word *bj = b + (size_t)(k * 64 + __builtin_ctzll(bits)) * w;
        for (int x = 0; x < w; x++) out[x] |= bj[x];
      }
  }
}

void rel_inverse(Dim d, Word *dst, const Word *r) {
  rel_clear(d, dst);
  for (int i = 0; i < d.n; i++) {
    const Word *ri = rel_crow(d, r, i);
    for (int j = set_next(d, ri, 0); j >= 0; j = set_next(d, ri, j + 1))
      rel_set(d, dst, j, i);
  }
}

/* Warshall's algorithm: O(n^2 w), for relations with cycles. */
static void closure_warshall(Dim d, Word *r) {
  int w = d.w;
  for (int k = 0; k < d.n; k++) {
    const Word *rk = r + (size_t)k * w;
    bool any = false;
    for (int x = 0; x < w; x++) any |= rk[x] != 0;
    if (!any) continue;
    if (w == 1) {
      Word m = rk[0];
      for (int i = 0; i < d.n; i++) r[i] |= m & -((r[i] >> k) & 1);
      continue;
    }
    for (int i = 0; i < d.n; i++) {
      Word *ri = r + (size_t)i * w;
      if (bit_get(ri, k))
        for (int x = 0; x < w; x++) ri[x] |= rk[x];
    }
  }
}

/* One word per row (n <= 64, the usual case): depth-first search with the
 * visited and on-stack sets as bit masks, so a step is a few word
 * operations.  Events with no successor are finished from the start.
 * Fills `order` with a post-order of the visited events (successors
 * first) and returns its length, or -1 on a cycle. */
static int dfs_w1(int n, const Word *r, int *order) {
  int stack[64], norder = 0;
  Word all = n == 64 ? ~(Word)0 : ((Word)1 << n) - 1, done = 0, onstack = 0;
  for (int i = 0; i < n; i++)
    if (!r[i]) done |= (Word)1 << i;
  if (!order) {
    /* only acyclicity asked: an event nothing leads to is on no cycle
     * either, and neither visit order nor post-order is needed */
    Word has_pred = 0;
    for (int i = 0; i < n; i++) has_pred |= r[i];
    done |= all & ~has_pred;
  }
  for (Word todo = all & ~done; todo; todo = all & ~done) {
    int sp = 0, s = __builtin_ctzll(todo);
    stack[sp++] = s;
    onstack |= (Word)1 << s;
    while (sp) {
      int u = stack[sp - 1];
      Word ru = r[u];
      if (ru & onstack) return -1;
      Word next = ru & ~done;
      if (!next) {
        onstack &= ~((Word)1 << u);
        done |= (Word)1 << u;
        if (order) order[norder++] = u;
        sp--;
        continue;
      }
      int v = __builtin_ctzll(next);
      onstack |= (Word)1 << v;
      stack[sp++] = v;
    }
  }
  return norder;
}

/* The same for rows of w >= 2 words (65..STACK_MAX events): the
 * visited and on-stack sets are bit sets of w words, so that finding
 * the next unvisited successor or a back edge is a few word operations
 * per word of the row rather than a walk over its bits. */
enum { STACK_MAX = 512, WMAX = STACK_MAX / 64 };

static int dfs_wide(int n, int w, const Word *r, int *order) {
  int stack[STACK_MAX], norder = 0;
  Word done[WMAX] = {0}, onstack[WMAX] = {0}, all[WMAX];
  for (int x = 0; x < w; x++) all[x] = ~(Word)0;
  if (n % 64) all[w - 1] = ((Word)1 << (n % 64)) - 1;
  for (int i = 0; i < n; i++) {
    const Word *ri = r + (size_t)i * w;
    Word any = 0;
    for (int x = 0; x < w; x++) any |= ri[x];
    if (!any) done[i >> 6] |= (Word)1 << (i & 63);
  }
  if (!order) {
    Word has_pred[WMAX] = {0};
    for (int i = 0; i < n; i++)
      for (int x = 0; x < w; x++) has_pred[x] |= r[(size_t)i * w + x];
    for (int x = 0; x < w; x++) done[x] |= all[x] & ~has_pred[x];
  }
  for (int k = 0; k < w; k++) {
    for (Word todo = all[k] & ~done[k]; todo; todo = all[k] & ~done[k]) {
      int sp = 0, s = k * 64 + __builtin_ctzll(todo);
      stack[sp++] = s;
      onstack[s >> 6] |= (Word)1 << (s & 63);
      while (sp) {
        int u = stack[sp - 1], v = -1;
        const Word *ru = r + (size_t)u * w;
        for (int x = 0; x < w; x++) {
          if (ru[x] & onstack[x]) return -1;
          Word next = ru[x] & ~done[x];
          if (next && v < 0) v = x * 64 + __builtin_ctzll(next);
        }
        if (v < 0) {
          onstack[u >> 6] &= ~((Word)1 << (u & 63));
          done[u >> 6] |= (Word)1 << (u & 63);
          if (order) order[norder++] = u;
          sp--;
          continue;
        }
        onstack[v >> 6] |= (Word)1 << (v & 63);
        stack[sp++] = v;
      }
    }
  }
  return norder;
}

/* Most relations a model closes (happens-before, program order...) are
 * acyclic: then a depth-first traversal gives an order in which each
 * event's successors are closed before it, and row[v] |= row[u] for each
 * successor u closes v — O((n + edges) w) instead of O(n^2 w).  A back
 * edge means a cycle: fall back on Warshall. */
void rel_closure(Dim d, Word *r) {
  int n = d.n, w = d.w;
  if (n > STACK_MAX) {
    closure_warshall(d, r);
    return;
  }
  int order[STACK_MAX];
  int norder = w == 1 ? dfs_w1(n, r, order) : dfs_wide(n, w, r, order);
  if (norder < 0) {
    closure_warshall(d, r);
    return;
  }
  /* post-order: successors come first */
  if (w == 1) {
    for (int k = 0; k < norder; k++) {
      int v = order[k];
      Word acc = r[v];
      for (Word b = r[v]; b; b &= b - 1) acc |= r[__builtin_ctzll(b)];
      r[v] = acc;
    }
    return;
  }
  if (w == 2) {
    for (int k = 0; k < norder; k++) {
      Word *rv = r + 2 * order[k];
      Word o0 = rv[0], o1 = rv[1];
      for (Word b = rv[0]; b; b &= b - 1) {
        const Word *ru = r + 2 * __builtin_ctzll(b);
        o0 |= ru[0];
        o1 |= ru[1];
      }
      for (Word b = rv[1]; b; b &= b - 1) {
        const Word *ru = r + 2 * (64 + __builtin_ctzll(b));
        o0 |= ru[0];
        o1 |= ru[1];
      }
      rv[0] = o0;
      rv[1] = o1;
    }
    return;
  }
  for (int k = 0; k < norder; k++) {
    Word *rv = rel_row(d, r, order[k]);
    for (int u = set_next(d, rv, 0); u >= 0; u = set_next(d, rv, u + 1)) {
      const Word *ru = rel_crow(d, r, u);
      for (int x = 0; x < w; x++) rv[x] |= ru[x];
    }
  }
}

void rel_identity(Dim d, Word *dst, const Word *s) {
  rel_clear(d, dst);
  rel_add_identity(d, dst, s);
}

void rel_add_identity(Dim d, Word *dst, const Word *s) {
  for (int k = 0; k < d.w; k++)
    for (Word b = s[k]; b; b &= b - 1) {
      int i = k * 64 + __builtin_ctzll(b);
      dst[(size_t)i * (size_t)d.w + (size_t)k] |= b & -b;
    }
}

void rel_product(Dim d, Word *dst, const Word *a, const Word *b) {
  for (int i = 0; i < d.n; i++) {
    Word *row = rel_row(d, dst, i);
    if (bit_get(a, i))
      set_copy(d, row, b);
    else
      set_clear(d, row);
  }
}

void rel_complement(Dim d, Word *dst, const Word *r, const Word *u) {
  for (int i = 0; i < d.n; i++) {
    Word *row = rel_row(d, dst, i);
    const Word *ri = rel_crow(d, r, i);
    if (bit_get(u, i))
      for (int x = 0; x < d.w; x++) row[x] = u[x] & ~ri[x];
    else
      set_clear(d, row);
  }
}

void rel_domain(Dim d, Word *dst, const Word *r) {
  set_clear(d, dst);
  for (int i = 0; i < d.n; i++)
    if (!set_is_empty(d, rel_crow(d, r, i))) bit_set(dst, i);
}

void rel_range(Dim d, Word *dst, const Word *r) {
  set_clear(d, dst);
  for (int i = 0; i < d.n; i++) set_or(d, dst, dst, rel_crow(d, r, i));
}

bool rel_irreflexive(Dim d, const Word *r) {
  for (int i = 0; i < d.n; i++)
    if (rel_get(d, r, i, i)) return false;
  return true;
}

bool rel_acyclic(Dim d, const Word *r, int *scratch) {
  if (d.w == 1) return dfs_w1(d.n, r, NULL) >= 0;
  if (d.n <= STACK_MAX) return dfs_wide(d.n, d.w, r, NULL) >= 0;
  return rel_find_cycle(d, r, NULL, scratch) == 0;
}

/* Iterative depth-first search; colour 0 = unvisited, 1 = on the stack,
 * 2 = finished; cursor[u] is the next successor of u to examine.  A
 * successor on the stack closes a cycle: the stack suffix from it. */
int rel_find_cycle(Dim d, const Word *r, int *path, int *scratch) {
  int n = d.n;
  int *colour = scratch, *stack = scratch + n, *cursor = scratch + 2 * n;
  memset(colour, 0, sizeof(int) * (size_t)n);
  for (int s = 0; s < n; s++) {
    if (colour[s]) continue;
    int sp = 0;
    stack[sp++] = s;
    colour[s] = 1;
    cursor[s] = 0;
    while (sp) {
      int u = stack[sp - 1];
      const Word *ru = rel_crow(d, r, u);
      int v = set_next(d, ru, cursor[u]);
      if (v < 0) {
        colour[u] = 2;
        sp--;
        continue;
      }
      cursor[u] = v + 1;
      if (colour[v] == 1) {
        /* The cycle is the stack suffix starting at v. */
        int k = sp - 1;
        while (stack[k] != v) k--;
        int len = sp - k;
        if (path)
          for (int i = 0; i < len; i++) path[i] = stack[k + i];
        return len;
      }
      if (colour[v] == 0) {
        colour[v] = 1;
        cursor[v] = 0;
        stack[sp++] = v;
      }
    }
  }
  return 0;
}

int rel_shortest_path(Dim d, const Word *r, int a, int b, int *path, int *scratch) {
  int n = d.n, *prev = scratch, *q = scratch + n;
  for (int i = 0; i < n; i++) prev[i] = -1;
  int qh = 0, qt = 0;
  /* the first layer is a's successors, so that a == b needs a real cycle */
  const Word *row = rel_crow(d, r, a);
  for (int j = set_next(d, row, 0); j >= 0; j = set_next(d, row, j + 1)) {
    prev[j] = a;
    q[qt++] = j;
  }
  while (qh < qt && prev[b] < 0) {
    int x = q[qh++];
    row = rel_crow(d, r, x);
    for (int j = set_next(d, row, 0); j >= 0; j = set_next(d, row, j + 1))
      if (prev[j] < 0) {
        prev[j] = x;
        q[qt++] = j;
      }
  }
  if (prev[b] < 0) return 0;
  int k = 0;
  for (int x = b;; x = prev[x]) {
    q[k++] = x; /* the queue is no longer needed: b, prev[b], ... */
    if (prev[x] == a) break;
  }
  path[0] = a;
  for (int i = 0; i < k; i++) path[i + 1] = q[k - 1 - i];
  return k;
}

int rel_shortest_cycle(Dim d, const Word *r, int *path, int *scratch) {
  int best = 0, *tmp = scratch + 2 * d.n;
  for (int x = 0; x < d.n; x++) {
    /* tmp holds n+1 ints: scratch is 3n+1 */
    int k = rel_shortest_path(d, r, x, x, tmp, scratch);
    if (k && (!best || k < best)) {
      best = k;
      memcpy(path, tmp, sizeof(int) * (size_t)(k + 1));
    }
  }
  return best;
}

void rel_restrict(Dim d, Word *dst, const Word *r, const Word *a,
                  const Word *b) {
  for (int i = 0; i < d.n; i++) {
    Word *row = rel_row(d, dst, i);
    const Word *ri = rel_crow(d, r, i);
    if (bit_get(a, i))
      set_and(d, row, ri, b);
    else
      set_clear(d, row);
  }
}
