/*
 * compare.c — corral compare: the tests on which two logs, or two models
 * run on the same tests, disagree (Observation, or the set of final
 * states), as a table, then a summary line.  Exit status 1 when they
 * disagree anywhere, so scripts can use it as a check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int find(const Log *l, const char *name) {
  for (int i = 0; i < l->n; i++)
    if (!strcmp(l->v[i].name, name)) return i;
  return -1;
}

static void row(int w, const char *name, const char *a, const char *b, const char *what) {
  printf("%-*s  %-10s  %-10s  %s\n", w, name, a, b, what);
}

static int compare_logs(const Log *a, const Log *b, const char *na, const char *nb) {
  int w = 4;
  for (int i = 0; i < a->n; i++) w = (int)strlen(a->v[i].name) > w ? (int)strlen(a->v[i].name) : w;
  for (int i = 0; i < b->n; i++) w = (int)strlen(b->v[i].name) > w ? (int)strlen(b->v[i].name) : w;
  int both = 0, by_obs = 0, by_states = 0, only_a = 0, only_b = 0;
  printf("A: %s\nB: %s\n", na, nb);
  row(w, "Test", "A", "B", "");
  for (int i = 0; i < a->n; i++) {
    const LogTest *x = &a->v[i];
    if (find(a, x->name) != i) continue; /* a repeated name: the first counts */
    int j = find(b, x->name);
    if (j < 0) {
      only_a++;
      row(w, x->name, x->observation, "-", "only in A");
      continue;
    }
    const LogTest *y = &b->v[j];
    both++;
    bool obs = strcmp(x->observation, y->observation) != 0;
    bool states = strcmp(x->states, y->states) != 0;
    if (obs) by_obs++;
    else if (states) by_states++;
    if (obs || states)
      row(w, x->name, x->observation, y->observation,
          obs && states ? "Observation and states differ" : obs ? "Observation differs"
                                                               : "states differ");
  }
  for (int j = 0; j < b->n; j++) {
    const LogTest *y = &b->v[j];
    if (find(b, y->name) != j || find(a, y->name) >= 0) continue;
    only_b++;
    row(w, y->name, "-", y->observation, "only in B");
  }
  printf("compare: %d tests in both, %d differ (%d by Observation, %d by states only), "
         "%d only in A, %d only in B\n",
         both, by_obs + by_states, by_obs, by_states, only_a, only_b);
  return by_obs + by_states + only_a + only_b ? 1 : 0;
}

/* Run the tests under one model, the output kept in memory as a log. */
static int run_model(CliArgs *c, const char *cat, Log *l, char **text) {
  char *msg = NULL;
  if (corral_option(c->o, "-model", cat, &msg) != 0) {
    fprintf(stderr, "corral: %s\n", msg ? msg : "bad model");
    free(msg);
    return 2;
  }
  Printer p;
  memset(&p, 0, sizeof p);
  p.to_memory = true;
  cli_campaign(c, printer_result, &p);
  int rc = p.status == 2 ? 2 : 0;
  *text = p.buf ? p.buf : calloc(1, 1);
  p.buf = NULL;
  printer_free(&p);
  if (rc == 0 && log_parse(l, cat, *text)) rc = 2;
  return rc;
}

int cmd_compare(int argc, char **argv) {
  CliArgs c;
  int st = cli_start(&c, argc, argv, 2, true);
  if (st >= 0) return st;
  int rc = 0;
  Log a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  if (c.nextra == 2) {
    /* two models: force herd's text, which the log reader reads */
    char *msg = NULL, *ta = NULL, *tb = NULL;
    corral_option(c.o, "-format", "herd", &msg);
    free(msg);
    rc = run_model(&c, c.extra[0], &a, &ta);
    if (rc == 0) rc = run_model(&c, c.extra[1], &b, &tb);
    if (rc == 0) rc = compare_logs(&a, &b, c.extra[0], c.extra[1]);
    free(ta);
    free(tb);
  } else if (c.nextra == 0 && c.files.n == 2) {
    if (log_read(&a, c.files.v[0]) || log_read(&b, c.files.v[1])) rc = 2;
    else rc = compare_logs(&a, &b, c.files.v[0], c.files.v[1]);
  } else {
    fprintf(stderr, "usage: corral compare LOG1 LOG2\n"
                    "       corral compare [options] A.cat B.cat TESTS...\n");
    rc = 2;
  }
  log_free(&a);
  log_free(&b);
  cli_free(&c);
  return rc;
}
