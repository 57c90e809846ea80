/*
 * fuzz_cat.c — libFuzzer harness: parse arbitrary bytes as a cat model and
 * print it back.  (fuzz_model.c also runs what parses.)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cat/ast.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  memcpy(text, data, size);
  text[size] = 0;
  Arena a;
  arena_init(&a);
  CatNames names;
  intern_init(&names.in);
  Err err;
  err_init(&err);
  ErrJmp j;
  err_push(&err, &j);
  if (setjmp(j.jb) == 0) {
    CatFile *f = cat_parse(&a, &names, &err, "fuzz.cat", text);
    StrBuf b;
    sb_init(&b);
    cat_print_file(&names, f, &b);
    sb_free(&b);
    err_pop(&err, &j);
  }
  err_free(&err);
  intern_free(&names.in);
  arena_free(&a);
  free(text);
  return 0;
}
