/*
 * check.h — the minimal harness our unit tests share.
 *
 *   CHECK(cond)            records a failure (file:line and the condition)
 *   CHECK_STR(got, want)   compares strings, printing both on failure
 *   CHECK_INT(got, want)   compares integers
 *   return check_report("name") at the end of main().
 */
#ifndef CORRAL_TEST_CHECK_H
#define CORRAL_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures, check_count;

#define CHECK(c)                                                            \
  do {                                                                      \
    check_count++;                                                          \
    if (!(c)) {                                                             \
      check_failures++;                                                     \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
    }                                                                       \
  } while (0)

#define CHECK_STR(got, want)                                                \
  do {                                                                      \
    const char *g_ = (got), *w_ = (want);                                   \
    check_count++;                                                          \
    if (!g_ || strcmp(g_, w_) != 0) {                                       \
      check_failures++;                                                     \
      fprintf(stderr, "%s:%d: got  \"%s\"\n%s:%d: want \"%s\"\n", __FILE__, \
              __LINE__, g_ ? g_ : "(null)", __FILE__, __LINE__, w_);        \
    }                                                                       \
  } while (0)

#define CHECK_INT(got, want)                                                \
  do {                                                                      \
    long long g_ = (long long)(got), w_ = (long long)(want);                \
    check_count++;                                                          \
    if (g_ != w_) {                                                         \
      check_failures++;                                                     \
      fprintf(stderr, "%s:%d: got %lld, want %lld (%s)\n", __FILE__,        \
              __LINE__, g_, w_, #got);                                      \
    }                                                                       \
  } while (0)

static inline int check_report(const char *name) {
  printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
  return check_failures ? 1 : 0;
}

#endif
