/*
 * fuzz_common.h — what the harnesses that go through files share: the
 * fuzzed bytes written to a file of this process (files are how models,
 * tests and configurations reach corral), and fresh options with the
 * limits that keep every input short.
 */
#ifndef CORRAL_FUZZ_COMMON_H
#define CORRAL_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "corral.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Write data to /tmp/corral-fuzz-PID.EXT; the path is in path[64]. */
static inline int fuzz_to_file(const uint8_t *data, size_t size, const char *ext,
                               char path[64]) {
  snprintf(path, 64, "/tmp/corral-fuzz-%d.%s", (int)getpid(), ext);
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  fwrite(data, 1, size, f);
  fclose(f);
  return 0;
}

/* Options for one input: corral's own models, one thread, bounded work,
 * then `name arg` (when name is not NULL). */
static inline corral_options *fuzz_options(const char *name, const char *arg) {
  corral_options *o = corral_options_new("models");
  static const char *const opts[][2] = {
      {"-model", "sc.cat"}, {"-maxcandidates", "200"}, {"-timeout", "1"}, {"-j", "1"}};
  for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
    char *msg = NULL;
    corral_option(o, opts[i][0], opts[i][1], &msg);
    free(msg);
  }
  if (name) {
    char *msg = NULL;
    corral_option(o, name, arg, &msg);
    free(msg);
  }
  return o;
}

/* Run one test with o, then free o. */
static inline void fuzz_run_test(corral_options *o, const char *test) {
  corral_result r;
  corral_run_file(o, test, &r);
  corral_result_free(&r);
  corral_options_free(o);
}

#endif
