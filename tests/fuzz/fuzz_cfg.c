/*
 * fuzz_cfg.c — libFuzzer harness: apply arbitrary bytes as a configuration
 * file (-conf), as herd7's .cfg files are read.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "corral.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[64];
  snprintf(path, sizeof path, "/tmp/corral-fuzz-%d.cfg", (int)getpid());
  FILE *f = fopen(path, "wb");
  if (!f) return 0;
  fwrite(data, 1, size, f);
  fclose(f);
  corral_options *o = corral_options_new("models");
  char *msg = NULL;
  corral_option(o, "-conf", path, &msg);
  free(msg);
  corral_options_free(o);
  return 0;
}
