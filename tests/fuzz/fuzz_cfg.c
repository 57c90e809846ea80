/*
 * fuzz_cfg.c — libFuzzer harness: apply arbitrary bytes as a configuration
 * file (-conf), as herd7's .cfg files are read.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[64];
  if (fuzz_to_file(data, size, "cfg", path)) return 0;
  corral_options *o = corral_options_new("models");
  char *msg = NULL;
  corral_option(o, "-conf", path, &msg);
  free(msg);
  corral_options_free(o);
  return 0;
}
