/*
 * fuzz_model.c — libFuzzer harness: use arbitrary bytes as a cat model and
 * run a small test under it (parser, compiler, interpreter and engine
 * together).  The model goes through a file because that is how models
 * reach corral; each input gets fresh options, so nothing is cached.
 * With CORRAL_FUZZ_BELL set, the bytes are a bell file instead, run
 * before sc.cat.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[64];
  if (fuzz_to_file(data, size, "cat", path)) return 0;
  const char *t = getenv("CORRAL_FUZZ_TEST");
  fuzz_run_test(fuzz_options(getenv("CORRAL_FUZZ_BELL") ? "-bell" : "-model", path),
                t ? t : "tests/litmus/SB-tso.litmus");
  return 0;
}
