/*
 * fuzz_litmus.c — libFuzzer harness: parse arbitrary bytes as a litmus
 * file, and when it parses, compute its hash and condition and prepare the
 * program.  Any crash, leak or sanitizer report is a bug.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exec/program.h"
#include "litmus/c.h"
#include "litmus/litmus.h"
#include "report/cond.h"
#include "report/hash.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  memcpy(text, data, size);
  text[size] = 0;
  Err err;
  err_init(&err);
  Test *t = litmus_parse("fuzz.litmus", text, &err);
  if (t) {
    char h[33];
    test_hash(t, h);
    StrBuf b;
    sb_init(&b);
    print_condition(t, false, &b);
    sb_free(&b);
    ErrJmp j;
    err_push(&err, &j);
    if (setjmp(j.jb) == 0) {
      /* C tests: expand with no macro file (internal forms still work) */
      if (t->c) c_expand(t, NULL, NULL, &err);
      Program *p = program_new(t, &err, 2);
      err_pop(&err, &j);
      program_free(p);
    }
    test_free(t);
  }
  err_free(&err);
  free(text);
  return 0;
}
