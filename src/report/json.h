/*
 * json.h — machine-readable results: one JSON object, or one TSV line,
 * per test (-format json / -format tsv), and the JSON string writer the
 * other JSON printers (explanations, a future web front end) share.
 */
#ifndef CORRAL_JSON_H
#define CORRAL_JSON_H

#include "herd.h"

/* s as a JSON string literal (quoted, escaped); NULL prints "". */
void json_string(StrBuf *b, const char *s);
/* The same for the n bytes at s. */
void json_string_n(StrBuf *b, const char *s, size_t n);

/* A test's outcome as one JSON object on one line, then '\n':
 *   {"test":"SB","file":"SB.litmus","arch":"X86","kind":"Allowed",
 *    "condition":"exists (...)","states":[{"0:EAX":"0",...},...],
 *    "result":"Ok","loop":false,"witnesses":{"positive":1,"negative":3},
 *    "observation":"Sometimes","pos":1,"neg":3,"candidates":4,
 *    "flags":[...],"hash":"...","time":0.01}
 * Values are spelled as herd7 prints them in state lines (strings). */
void json_test(const Program *p, const Outcome *o, const HerdPrintOpts *opt,
               const char *file, StrBuf *b);

/* The same as one line of tab-separated fields (json_tsv_header names
 * them); states are joined with " | ". */
void tsv_test(const Program *p, const Outcome *o, const HerdPrintOpts *opt,
              const char *file, StrBuf *b);
const char *json_tsv_header(void);

#endif
