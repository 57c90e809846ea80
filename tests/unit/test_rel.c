/*
 * test_rel.c — the bit-matrix relation algebra against a naive
 * implementation on boolean arrays, for sizes around the word boundary.
 */
#include <stdlib.h>

#include "check.h"
#include "rel/rel.h"

enum { MAXN = 140 };
typedef bool Mat[MAXN][MAXN];

static unsigned rng = 12345;
static unsigned next_rand(void) {
  rng = rng * 1103515245u + 12345u;
  return (rng >> 16) & 0x7fff;
}

static void random_rel(Dim d, Word *r, Mat m, int density) {
  rel_clear(d, r);
  for (int i = 0; i < d.n; i++)
    for (int j = 0; j < d.n; j++) {
      m[i][j] = (int)(next_rand() % 100) < density;
      if (m[i][j]) rel_set(d, r, i, j);
    }
}

static bool same(Dim d, const Word *r, Mat m) {
  for (int i = 0; i < d.n; i++)
    for (int j = 0; j < d.n; j++)
      if (rel_get(d, r, i, j) != m[i][j]) return false;
  return true;
}

static void naive_compose(int n, Mat a, Mat b, Mat out) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      out[i][j] = false;
      for (int k = 0; k < n && !out[i][j]; k++) out[i][j] = a[i][k] && b[k][j];
    }
}

static void naive_closure(int n, Mat a) {
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        if (a[i][k] && a[k][j]) a[i][j] = true;
}

static Mat ma, mb, mc, md;

/* The length of a shortest cycle, by breadth-first search from each node
 * over the matrix; 0 if none. */
static int naive_girth(int n, Mat m) {
  int best = 0, dist[MAXN], q[MAXN];
  for (int s = 0; s < n; s++) {
    for (int i = 0; i < n; i++) dist[i] = -1;
    int qh = 0, qt = 0;
    q[qt++] = s;
    dist[s] = 0;
    while (qh < qt) {
      int x = q[qh++];
      for (int y = 0; y < n; y++) {
        if (!m[x][y]) continue;
        if (y == s && (!best || dist[x] + 1 < best)) best = dist[x] + 1;
        if (dist[y] < 0) {
          dist[y] = dist[x] + 1;
          q[qt++] = y;
        }
      }
    }
  }
  return best;
}

static void test_size(int n, int density) {
  Dim d = dim_make(n);
  int words = rel_words(d);
  Word *a = calloc((size_t)words, sizeof(Word)), *b = calloc((size_t)words, sizeof(Word));
  Word *c = calloc((size_t)words, sizeof(Word));
  int *scratch = malloc(sizeof(int) * (size_t)(3 * n + 1));
  int *path = malloc(sizeof(int) * (size_t)(n + 1));
  random_rel(d, a, ma, density);
  random_rel(d, b, mb, density);

  rel_compose(d, c, a, b);
  naive_compose(n, ma, mb, mc);
  CHECK(same(d, c, mc));

  rel_inverse(d, c, a);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) md[i][j] = ma[j][i];
  CHECK(same(d, c, md));

  rel_copy(d, c, a);
  rel_closure(d, c);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) md[i][j] = ma[i][j];
  naive_closure(n, md);
  CHECK(same(d, c, md));

  /* acyclic iff the closure is irreflexive */
  bool irr = true;
  for (int i = 0; i < n; i++) irr &= !md[i][i];
  CHECK(rel_acyclic(d, a, scratch) == irr);
  int len = rel_find_cycle(d, a, path, scratch);
  CHECK((len == 0) == irr);
  /* a reported cycle is made of real edges and closes */
  for (int i = 0; i < len; i++) CHECK(ma[path[i]][path[(i + 1) % len]]);
  /* the shortest cycle: real edges, closes, no longer than any other */
  int slen = rel_shortest_cycle(d, a, path, scratch);
  CHECK((slen == 0) == irr);
  CHECK(slen <= len);
  for (int i = 0; i < slen; i++) CHECK(ma[path[i]][path[i + 1]]);
  if (slen) CHECK(path[slen] == path[0]);
  CHECK_INT(slen, naive_girth(n, ma));
  /* a path exists exactly when the closure says so */
  int plen = rel_shortest_path(d, a, 0, n - 1, path, scratch);
  CHECK((plen > 0) == md[0][n - 1]);
  for (int i = 0; i < plen; i++) CHECK(ma[path[i]][path[i + 1]]);
  if (plen) CHECK(path[0] == 0 && path[plen] == n - 1);

  /* complement within a universe, and domain/range */
  Word u[3] = {0};
  for (int i = 0; i < n; i++)
    if (i % 3) bit_set(u, i);
  rel_complement(d, c, a, u);
  bool ok = true;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      bool in_u = bit_get(u, i) && bit_get(u, j);
      ok &= rel_get(d, c, i, j) == (in_u && !ma[i][j]);
    }
  CHECK(ok);
  /* identity over the same set u, added to a */
  rel_copy(d, c, a);
  rel_add_identity(d, c, u);
  ok = true;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) ok &= rel_get(d, c, i, j) == (ma[i][j] || (i == j && bit_get(u, i)));
  CHECK(ok);
  Word dom[3], rng_[3];
  rel_domain(d, dom, a);
  rel_range(d, rng_, a);
  ok = true;
  for (int i = 0; i < n; i++) {
    bool di = false, ri = false;
    for (int j = 0; j < n; j++) di |= ma[i][j], ri |= ma[j][i];
    ok &= bit_get(dom, i) == di && bit_get(rng_, i) == ri;
  }
  CHECK(ok);
  CHECK(set_count(d, u) == n - (n + 2) / 3);
  free(a);
  free(b);
  free(c);
  free(scratch);
  free(path);
}

/* Acyclic relations take the depth-first paths of rel_closure and
 * rel_acyclic (random ones of any density have cycles): edges go from a
 * lower to a higher rank of a random permutation. */
static void test_dag(int n, int density) {
  Dim d = dim_make(n);
  int words = rel_words(d), rank[MAXN];
  Word *a = calloc((size_t)words, sizeof(Word)), *c = calloc((size_t)words, sizeof(Word));
  int *scratch = malloc(sizeof(int) * (size_t)(3 * n + 1));
  for (int i = 0; i < n; i++) rank[i] = i;
  for (int i = n - 1; i > 0; i--) {
    int j = (int)(next_rand() % (unsigned)(i + 1)), t = rank[i];
    rank[i] = rank[j];
    rank[j] = t;
  }
  rel_clear(d, a);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      ma[i][j] = rank[i] < rank[j] && (int)(next_rand() % 100) < density;
      if (ma[i][j]) rel_set(d, a, i, j);
    }
  CHECK(rel_acyclic(d, a, scratch));
  rel_copy(d, c, a);
  rel_closure(d, c);
  naive_closure(n, ma);
  CHECK(same(d, c, ma));
  /* one back edge closes a cycle */
  int lo = 0, hi = 0;
  for (int i = 0; i < n; i++) {
    if (rank[i] == 0) lo = i;
    if (rank[i] == n - 1) hi = i;
  }
  if (n > 1 && ma[lo][hi]) {
    rel_set(d, a, hi, lo);
    CHECK(!rel_acyclic(d, a, scratch));
  }
  /* pairs, and [s] ; r ; [t] */
  int pairs = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) pairs += rel_get(d, a, i, j);
  CHECK_INT(rel_count(d, a), pairs);
  Word s[3] = {0}, t[3] = {0};
  for (int i = 0; i < n; i++) {
    if (i % 2) bit_set(s, i);
    if (i % 3) bit_set(t, i);
  }
  rel_restrict(d, c, a, s, t);
  bool ok = true;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      ok &= rel_get(d, c, i, j) == (rel_get(d, a, i, j) && i % 2 && j % 3);
  CHECK(ok);
  free(a);
  free(c);
  free(scratch);
}

int main(void) {
  int sizes[] = {1, 2, 7, 63, 64, 65, 100, 128, 129};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    test_size(sizes[k], 2);
    test_size(sizes[k], 10);
    test_size(sizes[k], 50);
    test_dag(sizes[k], 3);
    test_dag(sizes[k], 30);
  }
  /* a known cycle and a known DAG */
  Dim d = dim_make(4);
  Word r[4] = {0};
  int scratch[12], path[4];
  rel_set(d, r, 0, 1);
  rel_set(d, r, 1, 2);
  rel_set(d, r, 2, 3);
  CHECK(rel_acyclic(d, r, scratch));
  rel_set(d, r, 3, 1);
  CHECK(!rel_acyclic(d, r, scratch));
  CHECK_INT(rel_find_cycle(d, r, path, scratch), 3);
  Word s[1] = {0};
  set_fill(d, s);
  CHECK_INT(set_count(d, s), 4);
  return check_report("test_rel");
}
