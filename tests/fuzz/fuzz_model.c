/*
 * fuzz_model.c — libFuzzer harness: use arbitrary bytes as a cat model and
 * run a small test under it (parser, compiler, interpreter and engine
 * together).  The model goes through a file because that is how models
 * reach corral; each input gets fresh options, so nothing is cached.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "corral.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *test_path(void) {
  const char *t = getenv("CORRAL_FUZZ_TEST");
  return t ? t : "tests/litmus/SB-tso.litmus";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[64];
  snprintf(path, sizeof path, "/tmp/corral-fuzz-%d.cat", (int)getpid());
  FILE *f = fopen(path, "wb");
  if (!f) return 0;
  fwrite(data, 1, size, f);
  fclose(f);
  corral_options *o = corral_options_new("models");
  char *msg = NULL;
  corral_option(o, "-model", path, &msg);
  free(msg);
  corral_option(o, "-maxcandidates", "200", &msg);
  free(msg);
  corral_option(o, "-j", "1", &msg);
  free(msg);
  corral_result r;
  corral_run_file(o, test_path(), &r);
  corral_result_free(&r);
  corral_options_free(o);
  return 0;
}
