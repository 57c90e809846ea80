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

/* The thread header row: "P0", "P1"... in order, and "Pk.F", the fault
 * handler of thread k (AArch64), anywhere after Pk-1 (herd's check).
 * Fills col[k] with the Thread each column's cells go to. */
static void check_threads(CodeScan *cs, const Span *cells, int n, Thread **col) {
  Test *t = cs->p->t;
  Thread *th = ARENA_NEWN(cs->p->a, Thread, n);
  int nmain = 0;
  int *handler_of = ARENA_NEWN(cs->p->a, int, n);
  for (int k = 0; k < n; k++) {
    size_t off = cells[k].off - cs->base, len = cells[k].len;
    trim(cs->buf, &off, &len);
    handler_of[k] = -1;
    const char *at = cs->p->t->ops->scoped_threads ? memchr(cs->buf + off, '@', len) : NULL;
    if (at) {
      /* "P0@cta 0,gpu 0": the attributes are the architecture's */
      size_t a = (size_t)(at - cs->buf) + 1, alen = off + len - a;
      trim(cs->buf, &a, &alen);
      th[nmain].attrs = arena_strndup(cs->p->a, cs->buf + a, alen);
      len = (size_t)(at - (cs->buf + off));
      trim(cs->buf, &off, &len);
    }
    /* herd's procRules: P0: with an (empty) annotation list */
    if (len > 1 && cs->buf[off + len - 1] == ':' && isa_has(cs->p->t->arch, ISA_PROC_ANNOT)) {
      len--;
      trim(cs->buf, &off, &len);
    }
    const char *s = cs->buf + off;
    if (len > 3 && s[0] == 'P' && s[len - 2] == '.' && s[len - 1] == 'F' &&
        t->arch == ARCH_AARCH64) {
      size_t d = 1;
      while (d < len - 2 && is_digit(s[d])) d++;
      if (d == len - 2 && d > 1 && d < 8) {
        int p = atoi(s + 1);
        if (p > nmain)
          fail(cs->p, cs->base + off, "Fault Handler for an undefined process (%.*s)",
               (int)len, s);
        handler_of[k] = p;
        continue;
      }
    }
    char want[24], *w = dec_digits(want + sizeof want - 1, (uint64_t)nmain, false);
    want[sizeof want - 1] = 0;
    *--w = 'P'; /* "P%d" */
    if (!lit_word_is(w, s, len))
      fail(cs->p, cs->base + off,
           "Processes must be P0, P1, ... (found '%.*s' for %s)",
           (int)MIN(len, 40), s, w);
    col[k] = &th[nmain++];
  }
  t->threads = th;
  t->nthreads = nmain;
  for (int k = 0; k < n; k++) {
    int p = handler_of[k];
    if (p < 0) continue;
    size_t off = cells[k].off - cs->base, len = cells[k].len;
    trim(cs->buf, &off, &len);
    if (p >= nmain)
      fail(cs->p, cs->base + off, "Fault Handler for an undefined process (%.*s)",
           (int)len, cs->buf + off);
    if (th[p].handler)
      fail(cs->p, cs->base + off, "a second fault handler for P%d", p);
    th[p].handler = ARENA_NEW(cs->p->a, Thread);
    col[k] = th[p].handler;
  }
  if (nmain != n) {
    t->cols = col;
    t->ncols = n;
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
  CodeScan cs = {p, arena_strndup(p->a, p->text + start, end - start), start,
                 end - start, 0};
  blank_comments(&cs);
  while (cs.i < cs.n && is_space(cs.buf[cs.i])) cs.i++;
  if (cs.i < cs.n && cs.buf[cs.i] == ';') cs.i++;
  Span *cells = NULL;
  int ncells = 0, cap = 0;
  if (!read_row(&cs, &cells, &ncells, &cap))
    fail(p, start, "missing thread header row 'P0 | P1 ... ;'");
  int ncols = ncells;
  Thread **col = ARENA_NEWN(p->a, Thread *, ncols);
  check_threads(&cs, cells, ncols, col);
  int *caps = ARENA_NEWN(p->a, int, ncols);
  for (;;) {
    if (!read_row(&cs, &cells, &ncells, &cap)) break;
    if (ncells != ncols) {
      size_t row = cells[0].off - cs.base;
      while (row < cs.n && is_space(cs.buf[row])) row++;
      fail(p, cs.base + row,
           "mismatch in instruction lines: %d cells instead of %d", ncells,
           ncols);
    }
    for (int k = 0; k < ncells; k++)
      parse_cell(&cs, cells[k], col[k], &caps[k]);
  }
}
