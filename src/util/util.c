/*
 * util.c — allocation, arenas, string buffers, interning, errors, files.
 */
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ allocation */

static CR_NORETURN void out_of_memory(size_t n) {
  fprintf(stderr, "corral: out of memory (allocating %zu bytes)\n", n);
  abort();
}

void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) out_of_memory(n);
  return p;
}

void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) out_of_memory(n * size);
  return p;
}

void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) out_of_memory(n);
  return q;
}

char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = xmalloc(n);
  memcpy(d, s, n);
  return d;
}

/* ---------------------------------------------------------------- arenas */

struct ArenaChunk {
  ArenaChunk *next;
  size_t size;
  /* payload follows, 16-byte aligned */
  _Alignas(16) char data[];
};

enum { ARENA_CHUNK = 64 * 1024 };

void arena_init(Arena *a) { memset(a, 0, sizeof *a); }

static void free_chunks(ArenaChunk *c) {
  while (c) {
    ArenaChunk *n = c->next;
    free(c);
    c = n;
  }
}

void arena_free(Arena *a) {
  free_chunks(a->head);
  free_chunks(a->spare);
  memset(a, 0, sizeof *a);
}

void *arena_alloc_slow(Arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  if ((size_t)(a->end - a->cur) < n) {
    size_t sz = n > ARENA_CHUNK / 2 ? n : ARENA_CHUNK;
    ArenaChunk *c;
    if (sz == ARENA_CHUNK && a->spare) { /* reuse a chunk given back */
      c = a->spare;
      a->spare = c->next;
    } else {
      c = xmalloc(sizeof(ArenaChunk) + sz);
    }
    c->size = sz;
    c->next = a->head;
    a->head = c;
    a->cur = c->data;
    a->end = c->data + sz;
  }
  void *p = a->cur;
  a->cur += n;
  a->total += n;
  return p;
}

void *arena_zalloc(Arena *a, size_t n) {
  void *p = arena_alloc(a, n);
  if (n) memset(p, 0, n); /* p may be NULL for n == 0 (a structure without events) */
  return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n) {
  char *d = arena_alloc(a, n + 1);
  memcpy(d, s, n);
  d[n] = 0;
  return d;
}

char *arena_strdup(Arena *a, const char *s) {
  return arena_strndup(a, s, strlen(s));
}

char *arena_printf(Arena *a, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *d = arena_alloc(a, (size_t)n + 1);
  vsnprintf(d, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  return d;
}

ArenaMark arena_mark(Arena *a) {
  ArenaMark m = {a->head, a->cur, a->end, a->total};
  return m;
}

/* A chunk no longer used: standard-size ones are kept for reuse (loops
 * reset the same arena over and over), large ones freed. */
static void give_back(Arena *a, ArenaChunk *c) {
  if (c->size == ARENA_CHUNK) {
    c->next = a->spare;
    a->spare = c;
  } else {
    free(c);
  }
}

void arena_reset(Arena *a, ArenaMark m) {
  /* Give back the chunks allocated after the mark, then rewind. */
  while (a->head != m.head) {
    ArenaChunk *n = a->head->next;
    give_back(a, a->head);
    a->head = n;
  }
  a->cur = m.cur;
  a->end = m.end;
  a->total = m.total;
}

void arena_rewind(Arena *a) {
  if (!a->head) return;
  while (a->head->next) {
    ArenaChunk *n = a->head->next;
    give_back(a, a->head);
    a->head = n;
  }
  a->cur = a->head->data;
  a->end = a->head->data + a->head->size;
  a->total = 0;
}

/* ----------------------------------------------------------- string buf */

void sb_init(StrBuf *b) { memset(b, 0, sizeof *b); }
void sb_free(StrBuf *b) {
  free(b->s);
  memset(b, 0, sizeof *b);
}
void sb_clear(StrBuf *b) {
  b->len = 0;
  if (b->s) b->s[0] = 0;
}

static void sb_reserve(StrBuf *b, size_t extra) {
  if (b->len + extra + 1 > b->cap) {
    size_t nc = b->cap ? b->cap * 2 : 64;
    while (nc < b->len + extra + 1) nc *= 2;
    b->s = xrealloc(b->s, nc);
    b->cap = nc;
  }
}

void sb_putn(StrBuf *b, const char *s, size_t n) {
  sb_reserve(b, n);
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = 0;
}
void sb_putc(StrBuf *b, char c) { sb_putn(b, &c, 1); }
void sb_puts(StrBuf *b, const char *s) { sb_putn(b, s, strlen(s)); }

void sb_vprintf(StrBuf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  sb_reserve(b, (size_t)n);
  vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  b->len += (size_t)n;
}

void sb_printf(StrBuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(b, fmt, ap);
  va_end(ap);
}

const char *sb_cstr(StrBuf *b) {
  if (!b->s) sb_reserve(b, 0), b->s[0] = 0;
  return b->s;
}

/* ------------------------------------------------------------- interner */

void intern_init(Interner *in) { memset(in, 0, sizeof *in); }

void intern_free(Interner *in) {
  for (int i = 0; i < in->count; i++) free(in->names[i]);
  free(in->names);
  free(in->table);
  memset(in, 0, sizeof *in);
}

static void intern_rehash(Interner *in) {
  int nc = in->tcap ? in->tcap * 2 : 64;
  int *t = xcalloc((size_t)nc, sizeof(int));
  for (int id = 0; id < in->count; id++) {
    const char *s = in->names[id];
    uint64_t h = hash_bytes(s, strlen(s));
    int i = (int)(h & (uint64_t)(nc - 1));
    while (t[i]) i = (i + 1) & (nc - 1);
    t[i] = id + 1;
  }
  free(in->table);
  in->table = t;
  in->tcap = nc;
}

static int intern_lookup(const Interner *in, const char *s, size_t n,
                         int *slot) {
  if (!in->tcap) {
    *slot = -1;
    return -1;
  }
  uint64_t h = hash_bytes(s, n);
  int i = (int)(h & (uint64_t)(in->tcap - 1));
  while (in->table[i]) {
    const char *c = in->names[in->table[i] - 1];
    if (strncmp(c, s, n) == 0 && c[n] == 0) return in->table[i] - 1;
    i = (i + 1) & (in->tcap - 1);
  }
  *slot = i;
  return -1;
}

int intern_n(Interner *in, const char *s, size_t n) {
  int slot;
  int id = intern_lookup(in, s, n, &slot);
  if (id >= 0) return id;
  if ((in->count + 1) * 2 > in->tcap) {
    intern_rehash(in);
    intern_lookup(in, s, n, &slot);
  }
  if (in->count == in->cap) {
    in->cap = in->cap ? in->cap * 2 : 64;
    in->names = xrealloc(in->names, sizeof(char *) * (size_t)in->cap);
  }
  char *d = xmalloc(n + 1);
  memcpy(d, s, n);
  d[n] = 0;
  in->names[in->count] = d;
  in->table[slot] = in->count + 1;
  return in->count++;
}

int intern(Interner *in, const char *s) { return intern_n(in, s, strlen(s)); }

int intern_find(const Interner *in, const char *s) {
  int slot;
  return intern_lookup(in, s, strlen(s), &slot);
}

/* --------------------------------------------------------------- errors */

void err_init(Err *e) {
  memset(e, 0, sizeof *e);
  sb_init(&e->msg);
  sb_init(&e->file);
}

void err_free(Err *e) {
  sb_free(&e->msg);
  sb_free(&e->file);
}

void err_vraise(Err *e, int kind, SrcPos pos, const char *fmt, va_list ap) {
  sb_clear(&e->msg);
  sb_vprintf(&e->msg, fmt, ap);
  if (pos.file && pos.file != e->file.s) {
    sb_clear(&e->file);
    sb_puts(&e->file, pos.file);
    pos.file = e->file.s;
  }
  e->pos = pos;
  e->kind = kind;
  err_rethrow(e);
}

void err_raise(Err *e, int kind, SrcPos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  err_vraise(e, kind, pos, fmt, ap);
}

void err_rethrow(Err *e) {
  ErrJmp *j = e->top;
  if (!j) {
    /* No handler: a programming error, never user-triggerable. */
    StrBuf b;
    sb_init(&b);
    err_format(e, &b);
    fprintf(stderr, "corral: unhandled error: %s\n", sb_cstr(&b));
    sb_free(&b);
    abort();
  }
  e->top = j->prev;
  longjmp(j->jb, 1);
}

void err_format(const Err *e, StrBuf *b) {
  if (e->pos.file && e->pos.line > 0)
    sb_printf(b, "%s:%d:%d: ", e->pos.file, e->pos.line,
              e->pos.col > 0 ? e->pos.col : 1);
  else if (e->pos.file)
    sb_printf(b, "%s: ", e->pos.file);
  sb_puts(b, "error: ");
  sb_putn(b, e->msg.s ? e->msg.s : "", e->msg.len);
}

/* ---------------------------------------------------------------- files */

char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  StrBuf b;
  sb_init(&b);
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) sb_putn(&b, buf, n);
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    sb_free(&b);
    errno = EIO;
    return NULL;
  }
  if (len) *len = b.len;
  sb_cstr(&b);
  return b.s;
}
