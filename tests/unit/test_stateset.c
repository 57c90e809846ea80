/*
 * test_stateset.c — the packed state set against a plain list of distinct
 * states: values of every kind and width (the records are rewritten wider
 * as wider keys arrive), states repeated, order of first arrival kept.
 */
#include <stdlib.h>

#include "check.h"
#include "exec/stateset.h"

enum { NLOC = 5, MAXS = 4000 };

static unsigned rng = 987654u;
static unsigned next_rand(void) {
  rng = rng * 1103515245u + 12345u;
  return (rng >> 16) & 0x7fff;
}

/* A value from a pool that gets wider as the round advances. */
static Val some_value(int round) {
  unsigned r = next_rand() % 8;
  if (round == 0 || r < 4) return val_int((int64_t)(next_rand() % 3));
  switch (r) {
  case 4: return val_int(-(int64_t)(next_rand() % 3) - 100);
  case 5: return round > 1 ? val_int((int64_t)(next_rand() % 3) * 70000) : val_int(200);
  case 6: return round > 2 ? val_int(INT64_MAX - (int64_t)(next_rand() % 2)) : val_addr(1, 0);
  default: {
    Val v = {VAL_LABEL, (int32_t)(next_rand() % 2), (int64_t)(next_rand() % 2)};
    return round > 1 ? val_addr((int)(next_rand() % 2), -(int64_t)(next_rand() % 2)) : v;
  }
  }
}

static bool same_state(const Val *a, const Val *b) {
  for (int q = 0; q < NLOC; q++)
    if (!val_eq(a[q], b[q])) return false;
  return true;
}

int main(void) {
  static Val list[MAXS][NLOC];
  int n = 0;
  StateSet s;
  stateset_init(&s, NLOC);
  for (int round = 0; round < 4; round++) {
    for (int t = 0; t < 1000; t++) {
      Val st[NLOC];
      for (int q = 0; q < NLOC; q++) st[q] = some_value(round);
      stateset_add(&s, st);
      int k = 0;
      while (k < n && !same_state(list[k], st)) k++;
      if (k == n && n < MAXS) {
        for (int q = 0; q < NLOC; q++) list[n][q] = st[q];
        n++;
      }
    }
    CHECK_INT(s.count, n);
    bool all = true;
    for (int i = 0; i < n && all; i++) {
      Val got[NLOC];
      all = stateset_get(&s, i, got) && same_state(got, list[i]);
    }
    CHECK(all);
  }
  CHECK(s.width == 8);
  Val none[NLOC];
  CHECK(!stateset_get(&s, n, none));
  stateset_free(&s);

  /* no displayed location: one state, the empty one */
  stateset_init(&s, 0);
  stateset_add(&s, none);
  stateset_add(&s, none);
  CHECK_INT(s.count, 1);
  stateset_free(&s);
  return check_report("stateset");
}
