/*
 * judge.c — corral judge: run tests and check each Observation against
 * the expectation written in the test's header comment, as the Linux
 * kernel's litmus tests do ("Result: Never", "Sometimes" or "Always").
 * One line per test, then "N passed, M failed"; a test that does not run
 * fails; a test without a Result: line is listed and not counted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct Judge {
  int passed, failed, unjudged;
} Judge;

static const char *const kinds[] = {"Never", "Sometimes", "Always"};

/* The expected Observation in the header (the text before the first '{',
 * where the comments of a litmus header are): 0, 1, 2; -1 without a
 * Result: line; -2 (with *line) when the line names something else. */
static int expected(const char *path, int *line) {
  FILE *in = fopen(path, "r");
  if (!in) return -1;
  char buf[4096];
  int ln = 0, rc = -1;
  while (rc == -1 && fgets(buf, sizeof buf, in)) {
    ln++;
    char *brace = strchr(buf, '{');
    if (brace) *brace = 0;
    char *r = strstr(buf, "Result:");
    if (r) {
      r += 7;
      while (*r == ' ' || *r == '\t') r++;
      rc = -2;
      *line = ln;
      for (int k = 0; k < 3; k++) {
        size_t n = strlen(kinds[k]);
        if (!strncmp(r, kinds[k], n) && !(r[n] >= 'a' && r[n] <= 'z')) rc = k;
      }
    }
    if (brace) break;
  }
  fclose(in);
  return rc;
}

/* The third word of the Observation line of a herd block. */
static int observed(const char *out) {
  const char *s = out ? strstr(out, "\nObservation ") : NULL;
  if (!s) return -1;
  s = strchr(s + 13, ' ');
  if (!s) return -1;
  s++;
  for (int k = 0; k < 3; k++) {
    size_t n = strlen(kinds[k]);
    if (!strncmp(s, kinds[k], n) && s[n] == ' ') return k;
  }
  return -1;
}

static int judge_result(void *ctx, int i, const char *path, corral_result *r) {
  Judge *j = ctx;
  (void)i;
  int line = 0;
  int want = expected(path, &line);
  const char *name = r->name ? r->name : path;
  if (want == -1) {
    j->unjudged++;
    printf("--   %s: no Result: line\n", name);
    return 0;
  }
  if (want == -2) {
    j->failed++;
    printf("FAIL %s\n", name);
    fprintf(stderr, "%s:%d:1: error: Result: must be Never, Sometimes or Always\n", path, line);
    return 0;
  }
  int got = r->status == CORRAL_OK ? observed(r->output) : -1;
  if (got == want) {
    j->passed++;
    printf("ok   %s: %s\n", name, kinds[got]);
  } else if (got < 0) {
    j->failed++;
    printf("FAIL %s: did not run (expected %s)\n", name, kinds[want]);
    if (r->diag) fputs(r->diag, stderr);
  } else {
    j->failed++;
    printf("FAIL %s: %s, expected %s\n", name, kinds[got], kinds[want]);
  }
  fflush(stdout);
  return r->status == CORRAL_EFATAL ? 2 : 0;
}

int cmd_judge(int argc, char **argv) {
  CliArgs c;
  int st = cli_start(&c, argc, argv, 2, false);
  if (st >= 0) return st;
  char *msg = NULL;
  corral_option(c.o, "-format", "herd", &msg); /* judge reads herd's block */
  free(msg);
  Judge j = {0, 0, 0};
  int rc = cli_campaign(&c, judge_result, &j);
  cli_free(&c);
  if (j.unjudged) printf("%d tests without a Result: line\n", j.unjudged);
  printf("%d passed, %d failed\n", j.passed, j.failed);
  return rc ? rc : j.failed ? 1 : 0;
}
