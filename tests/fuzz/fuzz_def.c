/*
 * fuzz_def.c — libFuzzer harness: use arbitrary bytes as a macro file
 * (-macros, herd's .def format) and run a small C test that uses the
 * usual kernel macros under sc.cat.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[64];
  if (fuzz_to_file(data, size, "def", path)) return 0;
  const char *t = getenv("CORRAL_FUZZ_TEST");
  fuzz_run_test(fuzz_options("-macros", path), t ? t : "tests/fuzz/C-MP-macros.litmus");
  return 0;
}
