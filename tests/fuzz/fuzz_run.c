/*
 * fuzz_run.c — libFuzzer harness: run arbitrary bytes as a litmus test of
 * any architecture (C included) under corral's sc.cat, from the parser
 * through the semantics, the engine and the printer.  The limits keep
 * every input short: a slow input is a bug only if the limits fail to
 * stop it.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[64];
  if (fuzz_to_file(data, size, "litmus", path)) return 0;
  fuzz_run_test(fuzz_options(NULL, NULL), path);
  return 0;
}
