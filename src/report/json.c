/*
 * json.c — a test's outcome for tools: one JSON object per test
 * (-format json, "JSON lines": one object a line, so a log can be cut,
 * concatenated and merged like herd's text), or one TSV line.  Both carry
 * what the herd block says, field for field, so either can be derived
 * from the other.
 */
#include "json.h"

#include <inttypes.h>
#include <stdlib.h>

#include "cond.h"
#include "hash.h"

void json_string_n(StrBuf *b, const char *s, size_t n) {
  sb_putc(b, '"');
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      sb_putc(b, '\\');
      sb_putc(b, (char)c);
    } else if (c == '\n') {
      sb_puts(b, "\\n");
    } else if (c == '\t') {
      sb_puts(b, "\\t");
    } else if (c < 0x20 || c == '<') {
      sb_printf(b, "\\u%04x", c); /* '<' too: the text may land in a page */
    } else if (c < 0x80) {
      sb_putc(b, (char)c);
    } else {
      /* UTF-8 passes through; a byte that is not (a test's bytes echoed
       * in a message) becomes U+FFFD, so that the output is valid JSON */
      int k = utf8_char_len((const unsigned char *)s + i, n - i);
      if (k == 0) {
        sb_puts(b, "\\ufffd");
      } else {
        sb_putn(b, s + i, (size_t)k);
        i += (size_t)k - 1;
      }
    }
  }
  sb_putc(b, '"');
}

void json_string(StrBuf *b, const char *s) { json_string_n(b, s ? s : "", s ? strlen(s) : 0); }

static void key(StrBuf *b, const char *k) {
  sb_putc(b, ',');
  json_string(b, k);
  sb_putc(b, ':');
}

static void key_str(StrBuf *b, const char *k, const char *v) {
  key(b, k);
  json_string(b, v);
}

static void key_u64(StrBuf *b, const char *k, uint64_t v) {
  key(b, k);
  sb_printf(b, "%" PRIu64, v);
}

/* The test's condition as herd re-prints it, into a fresh buffer. */
static void condition_text(const Program *p, bool hexa, StrBuf *c) {
  sb_init(c);
  print_condition(p->test, hexa, c);
}

void json_test(const Program *p, const Outcome *o, const HerdPrintOpts *opt,
               const char *file, StrBuf *b) {
  const Test *t = p->test;
  sb_puts(b, "{\"test\":");
  json_string(b, t->name);
  key_str(b, "file", file);
  key_str(b, "arch", arch_name(t->arch));
  key_str(b, "kind", herd_kind(p));
  StrBuf c;
  condition_text(p, opt->hexa, &c);
  key_str(b, "condition", sb_cstr(&c));
  key(b, "states");
  sb_putc(b, '[');
  Val *st = xmalloc(sizeof(Val) * (size_t)(p->ndisp + 1));
  for (int i = 0; i < o->nstates; i++) {
    outcome_state(o, i, st);
    sb_puts(b, i ? ",{" : "{");
    for (int k = 0; k < p->ndisp; k++) {
      if (k) sb_putc(b, ',');
      json_string(b, p->disp[k].kind == DL_FAULTS ? "faults" : p->disp[k].name);
      sb_putc(b, ':');
      sb_clear(&c);
      if (p->disp[k].kind == DL_FAULTS) herd_faults(p, st[k], opt->hexa, &c);
      else herd_print_value(p, &p->disp[k], st[k], opt->hexa, &c);
      json_string(b, sb_cstr(&c));
    }
    sb_putc(b, '}');
  }
  free(st);
  sb_putc(b, ']');
  sb_free(&c);
  key_str(b, "result", herd_result(p, o));
  key(b, "loop");
  sb_puts(b, o->loop ? "true" : "false");
  uint64_t P, N;
  herd_witnesses(p, o, &P, &N);
  sb_printf(b, ",\"witnesses\":{\"positive\":%" PRIu64 ",\"negative\":%" PRIu64 "}", P, N);
  key_str(b, "observation", herd_observation(o));
  key_u64(b, "pos", o->pos);
  key_u64(b, "neg", o->neg);
  key_u64(b, "candidates", o->candidates);
  const char *names[64];
  int nf = herd_flags(o, opt, names);
  key(b, "flags");
  sb_putc(b, '[');
  for (int i = 0; i < nf; i++) {
    if (i) sb_putc(b, ',');
    json_string(b, names[i]);
  }
  sb_putc(b, ']');
  char h[33];
  test_hash(t, h);
  key_str(b, "hash", h);
  key(b, "time");
  sb_printf(b, "%0.2f}\n", opt->seconds);
}

const char *json_tsv_header(void) {
  return "test\tfile\tarch\tkind\tresult\tobservation\tpos\tneg\tpositive\tnegative"
         "\tstates\tnstates\tcandidates\tflags\thash\ttime\n";
}

/* No tab or newline may get into a field: test names and paths could hold
 * one only by mistake; they become spaces. */
static void tsv_text(StrBuf *b, const char *s) {
  for (; s && *s; s++) sb_putc(b, *s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s);
}

static void tsv_field(StrBuf *b, const char *s) {
  sb_putc(b, '\t');
  tsv_text(b, s);
}

void tsv_test(const Program *p, const Outcome *o, const HerdPrintOpts *opt,
              const char *file, StrBuf *b) {
  const Test *t = p->test;
  StrBuf c;
  sb_init(&c);
  tsv_text(b, t->name);
  tsv_field(b, file);
  tsv_field(b, arch_name(t->arch));
  tsv_field(b, herd_kind(p));
  tsv_field(b, herd_result(p, o));
  tsv_field(b, herd_observation(o));
  uint64_t P, N;
  herd_witnesses(p, o, &P, &N);
  sb_printf(b, "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "", o->pos, o->neg, P, N);
  Val *st = xmalloc(sizeof(Val) * (size_t)(p->ndisp + 1));
  for (int i = 0; i < o->nstates; i++) {
    outcome_state(o, i, st);
    if (i) sb_puts(&c, " | ");
    herd_state(p, st, opt->hexa, &c);
  }
  free(st);
  tsv_field(b, sb_cstr(&c));
  sb_printf(b, "\t%d\t%" PRIu64, o->nstates, o->candidates);
  const char *names[64];
  int nf = herd_flags(o, opt, names);
  sb_clear(&c);
  for (int i = 0; i < nf; i++) {
    if (i) sb_putc(&c, ',');
    sb_puts(&c, names[i]);
  }
  tsv_field(b, sb_cstr(&c));
  char h[33];
  test_hash(t, h);
  tsv_field(b, h);
  sb_printf(b, "\t%0.2f\n", opt->seconds);
  sb_free(&c);
}
