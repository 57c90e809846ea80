/*
 * herd.c — printing a test's outcome exactly as herd7 does.
 */
#include "herd.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cond.h"
#include "hash.h"
#include "util/pool.h"

/* An integer of location d in decimal, as herd prints it (its width and
 * signedness), ending at `end`; returns where it starts. */
static char *fmt_int(const Program *p, const DispLoc *d, int64_t num, char *end) {
  int bits = d->type.bits ? d->type.bits : p->word_bits;
  uint64_t u = (uint64_t)num;
  if (bits < 64) u &= ((uint64_t)1 << bits) - 1;
  if (!d->type.is_signed) return dec_digits(end, u, false);
  int64_t s = (int64_t)u;
  if (bits < 64 && (u >> (bits - 1)) & 1) s = (int64_t)(u | ~(((uint64_t)1 << bits) - 1));
  return dec_digits(end, s < 0 ? 0 - (uint64_t)s : (uint64_t)s, s < 0);
}

void herd_print_value(const Program *p, const DispLoc *d, Val v, bool hexa,
                      StrBuf *out) {
  switch (v.kind) {
  case VAL_INT: {
    if (hexa) {
      int bits = d->type.bits ? d->type.bits : p->word_bits;
      uint64_t u = (uint64_t)v.num;
      if (bits < 64) u &= ((uint64_t)1 << bits) - 1;
      sb_printf(out, "0x%" PRIx64, u);
    } else {
      char buf[24];
      char *k = fmt_int(p, d, v.num, buf + sizeof buf);
      sb_putn(out, k, (size_t)(buf + sizeof buf - k));
    }
    return;
  }
  case VAL_ADDR: {
    sb_puts(out, intern_name(&p->syms, v.sym));
    int tag = val_addr_tag(v);
    int64_t off = val_addr_off(v);
    if (tag) sb_printf(out, ":%s", intern_name(&p->colors, tag - 1)); /* MTE: x:red */
    if (off > 0) sb_putc(out, '+');
    if (off != 0) sb_put_int(out, off);
    return;
  }
  case VAL_TAG:
    sb_printf(out, ":%s", intern_name(&p->colors, v.sym));
    return;
  case VAL_LABEL:
    sb_printf(out, "label:\"P%d:%s\"", v.sym, intern_name(&p->labels, (int)v.num));
    return;
  case VAL_VAR:
    sb_printf(out, "S%lld", (long long)v.num);
    return;
  case VAL_PTE:
    lit_print_pte(intern_name(&p->syms, v.sym), (unsigned)v.num, out);
    return;
  case VAL_TLB:
    sb_printf(out, "TLB(%s)", intern_name(&p->syms, v.sym));
    return;
  case VAL_INSTR: {
    const char *text = program_instr_text(p, v);
    if (strcmp(text, "NOP") == 0) sb_puts(out, text);
    else sb_printf(out, "instr:\"%s\"", text);
    return;
  }
  }
}

static int flag_cmp(const void *a, const void *b) {
  const char *x = *(const char *const *)a, *y = *(const char *const *)b;
  /* "*undef*" sorts first anyway: '*' is below every letter */
  return strcmp(x, y);
}

const char *herd_kind(const Program *p) {
  const Test *t = p->test;
  Quant q = t->has_cond ? t->quant : Q_FORALL;
  return q == Q_EXISTS ? "Allowed" : q == Q_NOT_EXISTS ? "Forbidden" : "Required";
}

const char *herd_result(const Program *p, const Outcome *o) {
  const Test *t = p->test;
  Quant q = t->has_cond ? t->quant : Q_FORALL;
  bool ok = q == Q_EXISTS ? o->pos > 0 : q == Q_NOT_EXISTS ? o->pos == 0 : o->neg == 0;
  return (o->flags & 1) ? "Undef" : ok ? "Ok" : "No";
}

void herd_witnesses(const Program *p, const Outcome *o, uint64_t *P, uint64_t *N) {
  bool swap = p->test->has_cond && p->test->quant == Q_NOT_EXISTS;
  *P = swap ? o->neg : o->pos;
  *N = swap ? o->pos : o->neg;
}

const char *herd_observation(const Outcome *o) {
  return o->pos == 0 ? "Never" : o->neg == 0 ? "Always" : "Sometimes";
}

int herd_flags(const Outcome *o, const HerdPrintOpts *opt, const char **names) {
  int nf = 0;
  for (int i = 0; i < opt->nflags && i < 64; i++)
    if (o->flags & ((uint64_t)1 << i)) names[nf++] = opt->flag_names[i];
  qsort(names, (size_t)nf, sizeof(char *), flag_cmp);
  return nf;
}

void herd_state(const Program *p, const Val *st, bool hexa, StrBuf *out) {
  bool ints = !hexa && !p->has_groups;
  for (int k = 0; k < p->ndisp && ints; k++) ints = st[k].kind == VAL_INT;
  if (ints) {
    /* the common line, printed by the hundred thousand: integers only,
     * written in place after one reservation */
    sb_reserve(out, p->int_line_cap);
    char *w = out->s + out->len;
    for (int k = 0; k < p->ndisp; k++) {
      if (k) *w++ = ' ';
      size_t n = p->disp[k].namelen;
      memcpy(w, p->disp[k].name, n);
      w += n;
      *w++ = '=';
      char buf[24];
      char *v = fmt_int(p, &p->disp[k], st[k].num, buf + sizeof buf);
      memcpy(w, v, (size_t)(buf + sizeof buf - v));
      w += buf + sizeof buf - v;
      *w++ = ';';
    }
    out->len = (size_t)(w - out->s);
    out->s[out->len] = 0;
    return;
  }
  for (int k = 0; k < p->ndisp; k++) {
    int g = p->disp[k].group;
    if (g < 0) continue; /* printed with its array */
    if (p->disp[k].kind == DL_FAULTS) {
      herd_faults(p, st[k], hexa, out);
      continue;
    }
    if (k) sb_putc(out, ' ');
    sb_puts(out, p->disp[k].name);
    sb_putc(out, '=');
    if (g > 0) sb_putc(out, '{');
    for (int i = 0; i < (g > 0 ? g : 1); i++) {
      if (i) sb_putc(out, ',');
      herd_print_value(p, &p->disp[k + i], st[k + i], hexa, out);
    }
    if (g > 0) sb_putc(out, '}');
    sb_putc(out, ';');
  }
}

/* With opt->stream, what out holds goes there once it exceeds `keep`. */
static void herd_flush(const HerdPrintOpts *opt, StrBuf *out, size_t keep) {
  if (!opt->stream || out->len <= keep) return;
  fwrite(out->s, 1, out->len, opt->stream);
  sb_clear(out);
}

/* State lines from..to-1 of o, each with its newline. */
static void format_states(const Program *p, const Outcome *o, bool hexa, int from, int to,
                          StrBuf *out) {
  Val *st = xmalloc(sizeof(Val) * (size_t)(p->ndisp + 1));
  for (int i = from; i < to; i++) {
    outcome_state(o, i, st);
    herd_state(p, st, hexa, out);
    sb_putc(out, '\n');
  }
  free(st);
}

typedef struct StateChunk {
  const Program *p;
  const Outcome *o;
  bool hexa;
  int from, to;
  StrBuf text;
} StateChunk;

static void *format_chunk(void *arg) {
  StateChunk *c = arg;
  format_states(c->p, c->o, c->hexa, c->from, c->to, &c->text);
  return NULL;
}

/* States per chunk: a few hundred KB of text on the large tests, below
 * the size malloc maps on its own (src/cli/heap.c), so that the buffers
 * come from the heap. */
enum { CHUNK_STATES = 2048 };

/* The state lines.  Formatting 100000 lines is most of what is left once
 * the search has run on every core, so with helpers (opt->pool) they are
 * formatted on those and this thread, a chunk each per round (at most
 * one chunk of text per thread exists at once), and appended in order.
 * The chunk buffers last for all the rounds, as the helpers do: a new
 * thread per chunk, and a fresh buffer faulted in page by page, cost as
 * much as the formatting they shared (WWC-16's lines: 17.5 ms at -j 2,
 * 16.8 at -j 1; now 9 at -j 2).
 * The buffers are reserved here, so they come from this thread's heap
 * (huge pages, see src/cli/heap.c), not from a helper's. */
static void state_lines(const Program *p, const Outcome *o, const HerdPrintOpts *opt,
                        StrBuf *out) {
  Pool *pool = o->nstates >= 2 * CHUNK_STATES ? opt->pool : NULL;
  int jobs = MIN(pool_size(pool) + 1, 64);
  StateChunk c[64];
  if (pool) {
    StrBuf line; /* a chunk's size: its first line's, with a margin */
    sb_init(&line);
    format_states(p, o, opt->hexa, 0, 1, &line);
    size_t guess = line.len * CHUNK_STATES / 8 * 9;
    sb_free(&line);
    for (int i = 0; i < jobs; i++) {
      c[i] = (StateChunk){p, o, opt->hexa, 0, 0, {0}};
      sb_reserve(&c[i].text, guess);
    }
  }
  for (int at = 0; at < o->nstates;) {
    if (!pool || o->nstates - at < 2 * CHUNK_STATES) {
      int to = MIN(o->nstates, at + CHUNK_STATES);
      format_states(p, o, opt->hexa, at, to, out);
      herd_flush(opt, out, (size_t)1 << 20);
      at = to;
      continue;
    }
    int n = 0;
    for (; n < jobs && o->nstates - at >= CHUNK_STATES; n++, at += CHUNK_STATES) {
      c[n].from = at;
      c[n].to = at + CHUNK_STATES;
    }
    for (int i = 1; i < n; i++) pool_post(pool, i - 1, format_chunk, &c[i]);
    format_chunk(&c[0]);
    for (int i = 0; i < n; i++) {
      if (i > 0) pool_wait(pool, i - 1);
      if (opt->stream) {
        herd_flush(opt, out, 0);
        fwrite(c[i].text.s, 1, c[i].text.len, opt->stream);
      } else {
        sb_putn(out, c[i].text.s, c[i].text.len);
      }
      sb_clear(&c[i].text);
    }
  }
  if (pool)
    for (int i = 0; i < jobs; i++) sb_free(&c[i].text);
}

/* "KEY NAME ", how the lines naming the test start.  The block is put
 * together without printf, which costs hundreds of instructions a call:
 * corral runs once per test. */
static void key_name(StrBuf *out, const char *key, const char *name) {
  sb_puts(out, key);
  sb_putc(out, ' ');
  sb_puts(out, name);
  sb_putc(out, ' ');
}

void herd_print(const Program *p, const Outcome *o, const HerdPrintOpts *opt,
                StrBuf *out) {
  const Test *t = p->test;
  key_name(out, "Test", t->name);
  sb_puts(out, herd_kind(p));
  sb_puts(out, "\nStates ");
  sb_put_int(out, o->nstates);
  sb_putc(out, '\n');
  state_lines(p, o, opt, out);
  if (o->loop) sb_puts(out, "Loop ");
  sb_puts(out, herd_result(p, o));
  uint64_t P, N;
  herd_witnesses(p, o, &P, &N);
  sb_puts(out, "\nWitnesses\nPositive: ");
  sb_put_uint(out, P);
  sb_puts(out, " Negative: ");
  sb_put_uint(out, N);
  sb_putc(out, '\n');
  const char *names[64];
  int nf = herd_flags(o, opt, names);
  for (int i = 0; i < nf; i++) {
    sb_puts(out, "Flag ");
    sb_puts(out, names[i]);
    sb_putc(out, '\n');
  }
  sb_puts(out, "Condition ");
  print_condition(t, opt->hexa, out);
  sb_putc(out, '\n');
  key_name(out, "Observation", t->name);
  sb_puts(out, herd_observation(o));
  sb_putc(out, ' ');
  sb_put_uint(out, o->pos);
  sb_putc(out, ' ');
  sb_put_uint(out, o->neg);
  sb_putc(out, '\n');
  if (opt->show_time) sb_printf(out, "Time %s %0.2f\n", t->name, opt->seconds);
  if (opt->candidates) {
    key_name(out, "Candidates", t->name);
    sb_put_uint(out, o->candidates);
    sb_putc(out, '\n');
  }
  char h[33];
  test_hash(t, h);
  if (h[0]) {
    sb_puts(out, "Hash=");
    sb_puts(out, h);
    sb_putc(out, '\n');
  }
  sb_putc(out, '\n');
  herd_flush(opt, out, 0);
}

void herd_print_plain(const Program *p, Val v, StrBuf *out) {
  static const DispLoc plain = {.type = {0, true, false}};
  herd_print_value(p, &plain, v, false, out);
}

void herd_print_access(const ExecView *v, int e, StrBuf *b) {
  const Event *ev = &v->es->ev[e];
  bool rmw = (ev->flags & EV_MEM) == EV_MEM;
  sb_puts(b, rmw ? "RMW" : ev->flags & EV_R ? "R" : "W");
  sb_putc(b, '[');
  herd_print_plain(v->p, v->loc[e], b);
  sb_puts(b, "]=");
  herd_print_plain(v->p, v->val[e], b);
  if (rmw) {
    sb_puts(b, "->");
    herd_print_plain(v->p, v->wval[e], b);
  }
}

const char *herd_state_text(const Program *p, const Val *state, Arena *a) {
  StrBuf b;
  sb_init(&b);
  herd_state(p, state, false, &b);
  const char *s = arena_strdup(a, sb_cstr(&b));
  sb_free(&b);
  return s;
}
