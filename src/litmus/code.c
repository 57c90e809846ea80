/*
 * code.c — the code table of an assembly test: the thread header row,
 * the rows of cells separated by '|' and ';', labels, and each cell's
 * instruction handed to the architecture's parser.
 */
#include "parse_int.h"

#include <stdlib.h>

/* A span of the code section: [off, off+len) in the text. */
typedef struct Span {
  size_t off, len;
} Span;

typedef struct CodeScan {
  Parser *p;
  char *buf;       /* the code section with comments blanked out */
  size_t base, n;  /* buf[i] is text[base + i] */
  size_t i;
} CodeScan;

static void blank_comments(CodeScan *cs) {
  Parser *p = cs->p;
  size_t end = cs->base + cs->n;
  for (size_t i = cs->base; i < end;) {
    if (p->text[i] == '"') {
      i = skip_string(p, i, end);
    } else if (starts(p, i, end, "(*")) {
      size_t e = skip_comment(p, i, end);
      for (size_t k = i; k < e; k++)
        if (cs->buf[k - cs->base] != '\n') cs->buf[k - cs->base] = ' ';
      i = e;
    } else {
      i++;
    }
  }
}

static size_t label_len(const char *s) {
  if (!is_alpha(s[0]) && s[0] != '_') return 0;
  size_t n = 1;
  while (is_alnum(s[n]) || strchr("_/.-", s[n]) != NULL) n++;
  return n;
}

static bool is_space(char c) { return is_blank(c) || c == '\n'; }

/* Skip blanks, then "LABEL:" prefixes; calls f for each label. */
static size_t skip_labels(const char *s, size_t i, size_t end,
                          void (*f)(void *, size_t, size_t), void *ctx) {
  for (;;) {
    while (i < end && is_space(s[i])) i++;
    size_t n = label_len(s + i);
    if (!n || i + n > end) return i;
    size_t k = i + n;
    while (k < end && is_blank(s[k])) k++;
    if (k >= end || s[k] != ':') return i;
    if (f) f(ctx, i, n);
    i = k + 1;
  }
}

/* Does the ';' at cs->i belong to the instruction of the current cell? */
static bool semi_continues(CodeScan *cs, size_t cell) {
  const ArchOps *ops = cs->p->t->ops;
  if (!ops->semi_continues) return false;
  size_t i = skip_labels(cs->buf, cell, cs->i, NULL, NULL), e = cs->i;
  while (e > i && is_space(cs->buf[e - 1])) e--;
  char tmp[16];
  if (e - i >= sizeof tmp) return false;
  memcpy(tmp, cs->buf + i, e - i);
  tmp[e - i] = 0;
  return ops->semi_continues(tmp);
}

/* One row: cells separated by '|', ended by ';'.  False at the end. */
static bool read_row(CodeScan *cs, Span **cells, int *ncells, int *cap) {
  *ncells = 0;
  size_t cell = cs->i;
  while (cs->i < cs->n && is_space(cs->buf[cs->i])) cs->i++;
  if (cs->i >= cs->n) return false;
  for (;;) {
    if (cs->i >= cs->n)
      fail(cs->p, cs->base + cs->n, "missing ';' at the end of a code row");
    char c = cs->buf[cs->i];
    if (c == '"') {
      cs->i = skip_string(cs->p, cs->base + cs->i, cs->base + cs->n) - cs->base;
      continue;
    }
    if (c == ';' && semi_continues(cs, cell)) {
      cs->i++;
      continue;
    }
    if (c == '|' && cs->p->t->ops->pipe_continues &&
        cs->p->t->ops->pipe_continues(cs->buf + cs->i + 1)) {
      cs->i++;
      continue;
    }
    if (c == '|' || c == ';') {
      Span sp = {cs->base + cell, cs->i - cell};
      APUSH(cs->p->a, *cells, *ncells, *cap, sp);
      cell = ++cs->i;
      if (c == ';') return true;
      continue;
    }
    cs->i++;
  }
}

static void trim(const char *s, size_t *off, size_t *len) {
  while (*len && is_space(s[*off])) (*off)++, (*len)--;
  while (*len && is_space(s[*off + *len - 1])) (*len)--;
}

static void check_threads(CodeScan *cs, const Span *cells, int n, Thread *th) {
  for (int k = 0; k < n; k++) {
    size_t off = cells[k].off - cs->base, len = cells[k].len;
    trim(cs->buf, &off, &len);
    const char *at = cs->p->t->ops->scoped_threads ? memchr(cs->buf + off, '@', len) : NULL;
    if (at) {
      /* "P0@cta 0,gpu 0": the attributes are the architecture's */
      size_t a = (size_t)(at - cs->buf) + 1, alen = off + len - a;
      trim(cs->buf, &a, &alen);
      th[k].attrs = arena_strndup(cs->p->a, cs->buf + a, alen);
      len = (size_t)(at - (cs->buf + off));
      trim(cs->buf, &off, &len);
    }
    char want[24], *w = dec_digits(want + sizeof want - 1, (uint64_t)k, false);
    want[sizeof want - 1] = 0;
    *--w = 'P'; /* "P%d" */
    if (!lit_word_is(w, cs->buf + off, len))
      fail(cs->p, cs->base + off,
           "Processes must be P0, P1, ... (found '%.*s' for %s)",
           (int)MIN(len, 40), cs->buf + off, w);
  }
}

typedef struct CellCtx {
  CodeScan *cs;
  Thread *th;
  int *cap;
} CellCtx;

static void add_label(void *ctx, size_t i, size_t n) {
  CellCtx *c = ctx;
  Parser *p = c->cs->p;
  CodeEntry e = {arena_strndup(p->a, c->cs->buf + i, n), NULL,
                 pos_at(p, c->cs->base + i)};
  APUSH(p->a, c->th->entries, c->th->nentries, *c->cap, e);
}

static void parse_cell(CodeScan *cs, Span cell, Thread *th, int *cap) {
  CellCtx ctx = {cs, th, cap};
  size_t b = cell.off - cs->base;
  size_t i = skip_labels(cs->buf, b, b + cell.len, add_label, &ctx);
  size_t len = cell.len - (i - b);
  trim(cs->buf, &i, &len);
  if (!len) return;
  Parser *p = cs->p;
  char *text = arena_strndup(p->a, cs->buf + i, len);
  Instr *ins =
      p->t->ops->parse_instr(p->a, p->err, text, pos_at(p, cs->base + i));
  CodeEntry e = {NULL, ins, ins->pos};
  APUSH(p->a, th->entries, th->nentries, *cap, e);
}

void parse_code(Parser *p, size_t start, size_t end) {
  Test *t = p->t;
  CodeScan cs = {p, arena_strndup(p->a, p->text + start, end - start), start,
                 end - start, 0};
  blank_comments(&cs);
  while (cs.i < cs.n && is_space(cs.buf[cs.i])) cs.i++;
  if (cs.i < cs.n && cs.buf[cs.i] == ';') cs.i++;
  Span *cells = NULL;
  int ncells = 0, cap = 0;
  if (!read_row(&cs, &cells, &ncells, &cap))
    fail(p, start, "missing thread header row 'P0 | P1 ... ;'");
  t->nthreads = ncells;
  t->threads = ARENA_NEWN(p->a, Thread, ncells);
  check_threads(&cs, cells, ncells, t->threads);
  int *caps = ARENA_NEWN(p->a, int, ncells);
  for (;;) {
    if (!read_row(&cs, &cells, &ncells, &cap)) break;
    if (ncells != t->nthreads) {
      size_t row = cells[0].off - cs.base;
      while (row < cs.n && is_space(cs.buf[row])) row++;
      fail(p, cs.base + row,
           "mismatch in instruction lines: %d cells instead of %d", ncells,
           t->nthreads);
    }
    for (int k = 0; k < ncells; k++)
      parse_cell(&cs, cells[k], &t->threads[k], &caps[k]);
  }
}
