/*
 * util.c — allocation, arenas, string buffers, interning, errors, files.
 */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------ allocation */

static CR_NORETURN void out_of_memory(size_t n) {
  fprintf(stderr, "corral: out of memory (allocating %zu bytes)\n", n);
  exit(1); /* a bound (-maxmemory, the server's), not a bug: no core dump */
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
  if (!a->cur || (size_t)(a->end - a->cur) < n) {
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

void sb_reserve(StrBuf *b, size_t extra) {
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
void sb_puts(StrBuf *b, const char *s) { sb_putn(b, s, strlen(s)); }

static void put_digits(StrBuf *b, uint64_t u, bool neg) {
  char buf[24];
  char *k = dec_digits(buf + sizeof buf, u, neg);
  sb_putn(b, k, (size_t)(buf + sizeof buf - k));
}
void sb_put_uint(StrBuf *b, uint64_t v) { put_digits(b, v, false); }
void sb_put_int(StrBuf *b, int64_t v) {
  put_digits(b, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0);
}

/* Formatted straight into the free room, which is nearly always enough;
 * only a longer text is formatted a second time, after the buffer grew. */
void sb_vprintf(StrBuf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  sb_reserve(b, 63);
  size_t room = b->cap - b->len;
  int n = vsnprintf(b->s + b->len, room, fmt, ap);
  if (n < 0) n = 0;
  if ((size_t)n >= room) {
    sb_reserve(b, (size_t)n);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap2);
  }
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
  free(in->names);
  free(in->hashes);
  free(in->lens);
  free(in->table);
  arena_free(&in->text);
  memset(in, 0, sizeof *in);
}

static void intern_rehash(Interner *in) {
  int nc = in->tcap ? in->tcap * 2 : 64;
  int *t = xcalloc((size_t)nc, sizeof(int));
  for (int id = 0; id < in->count; id++) {
    int i = (int)(in->hashes[id] & (uint64_t)(nc - 1));
    while (t[i]) i = (i + 1) & (nc - 1);
    t[i] = id + 1;
  }
  free(in->table);
  in->table = t;
  in->tcap = nc;
}

/* The id of s (n bytes, hash h), or -1.  Inline in intern_nh, where
 * most calls find their name: a lookup is a few loads and one memcmp. */
static inline int intern_lookup(const Interner *in, const char *s, size_t n,
                                uint64_t h) {
  if (!in->tcap) return -1;
  unsigned mask = (unsigned)in->tcap - 1, i = (unsigned)h & mask;
  for (int v; (v = in->table[i]) != 0; i = (i + 1) & mask) {
    int id = v - 1;
    if (in->hashes[id] == h && in->lens[id] == n && memcmp(in->names[id], s, n) == 0)
      return id;
  }
  return -1;
}

/* Adds s, known to be absent, out of line (the path of new names). */
static CR_NOINLINE int intern_add(Interner *in, const char *s, size_t n, uint64_t h) {
  if ((in->count + 1) * 2 > in->tcap) intern_rehash(in);
  if (in->count == in->cap) {
    in->cap = in->cap ? in->cap * 2 : 64;
    in->names = xrealloc(in->names, sizeof(char *) * (size_t)in->cap);
    in->hashes = xrealloc(in->hashes, sizeof(uint64_t) * (size_t)in->cap);
    in->lens = xrealloc(in->lens, sizeof(size_t) * (size_t)in->cap);
  }
  unsigned mask = (unsigned)in->tcap - 1, i = (unsigned)h & mask;
  while (in->table[i]) i = (i + 1) & mask;
  in->names[in->count] = arena_strndup(&in->text, s, n);
  in->hashes[in->count] = h;
  in->lens[in->count] = n;
  in->table[i] = in->count + 1;
  return in->count++;
}

int intern_nh(Interner *in, const char *s, size_t n, uint64_t h) {
  int id = intern_lookup(in, s, n, h);
  return id >= 0 ? id : intern_add(in, s, n, h);
}

int intern_n(Interner *in, const char *s, size_t n) {
  return intern_nh(in, s, n, hash_bytes(s, n));
}

int intern(Interner *in, const char *s) { return intern_n(in, s, strlen(s)); }

int intern_find(const Interner *in, const char *s) {
  size_t n = strlen(s);
  return intern_lookup(in, s, n, hash_bytes(s, n));
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
  /* A message quoting a 100 KB line must still fit on a screen. */
  enum { MAX_MSG = 400 };
  if (e->msg.len > MAX_MSG) {
    sb_putn(b, e->msg.s, MAX_MSG);
    sb_puts(b, "...");
  } else {
    sb_putn(b, e->msg.s ? e->msg.s : "", e->msg.len);
  }
}

/* The excerpt shows at most this many bytes of the line, the column
 * roughly in the middle when the line is longer. */
enum { EXCERPT_WIDTH = 120 };

void err_excerpt(const Err *e, StrBuf *b) {
  if (!e->pos.file || e->pos.line <= 0) return;
  size_t len;
  char *text = read_file(e->pos.file, &len);
  if (!text) return;
  const char *s = text, *end = text + len;
  for (int l = 1; l < e->pos.line; l++) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    if (!nl) {
      free(text);
      return; /* no such line: the file changed, or the position is past it */
    }
    s = nl + 1;
  }
  const char *eol = memchr(s, '\n', (size_t)(end - s));
  size_t n = (size_t)((eol ? eol : end) - s);
  if (n && s[n - 1] == '\r') n--;
  size_t col = e->pos.col > 0 ? (size_t)e->pos.col - 1 : 0;
  if (col > n) col = n;
  size_t from = col > EXCERPT_WIDTH / 2 ? col - EXCERPT_WIDTH / 3 : 0;
  size_t to = MIN(n, from + EXCERPT_WIDTH);
  sb_printf(b, "%5d | %s", e->pos.line, from ? "..." : "");
  /* Control bytes and bytes of other encodings would garble a terminal:
   * one '?' each, so that the caret stays under its byte. */
  for (size_t i = from; i < to; i++) {
    unsigned char ch = (unsigned char)s[i];
    sb_putc(b, ch == '\t' || (ch >= 0x20 && ch < 0x7f) ? (char)ch : '?');
  }
  sb_puts(b, to < n ? "...\n" : "\n");
  sb_puts(b, "      | ");
  if (from) sb_puts(b, "   ");
  for (size_t i = from; i < col; i++) sb_putc(b, s[i] == '\t' ? '\t' : ' ');
  sb_puts(b, "^\n");
  free(text);
}

SrcPos text_pos(const char *file, const char *text, size_t off) {
  SrcPos p = {file, 1, 1};
  for (size_t i = 0; i < off; i++)
    if (text[i] == '\n') p.line++, p.col = 1;
    else p.col++;
  return p;
}

/* ---------------------------------------------------------- suggestions */

int edit_distance(const char *a, const char *b, int limit) {
  size_t la = strlen(a), lb = strlen(b);
  if ((la > lb ? la - lb : lb - la) > (size_t)limit) return limit + 1;
  if (la > 64 || lb > 64) return limit + 1; /* names, not texts */
  /* Three rows of the optimal-string-alignment table. */
  int rows[3][65];
  int *pp = rows[0], *prev = rows[1], *cur = rows[2];
  for (size_t j = 0; j <= lb; j++) prev[j] = (int)j;
  for (size_t i = 1; i <= la; i++) {
    cur[0] = (int)i;
    int best = cur[0];
    for (size_t j = 1; j <= lb; j++) {
      int cost = a[i - 1] != b[j - 1];
      int v = MIN(prev[j] + 1, cur[j - 1] + 1);
      v = MIN(v, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        v = MIN(v, pp[j - 2] + 1);
      cur[j] = v;
      best = MIN(best, v);
    }
    if (best > limit) return limit + 1;
    int *t = pp;
    pp = prev;
    prev = cur;
    cur = t;
  }
  return prev[lb] > limit ? limit + 1 : prev[lb];
}

const char *closest_name(const char *word, const char *const *cands, int n) {
  int len = (int)strlen(word);
  int limit = len <= 2 ? 1 : len <= 5 ? 2 : len / 3 + 1;
  const char *best = NULL;
  int bestd = limit + 1;
  for (int i = 0; i < n; i++) {
    if (!cands[i] || !strcmp(cands[i], word)) continue;
    int d = edit_distance(word, cands[i], bestd - 1 < limit ? bestd - 1 : limit);
    /* a word that differs only by case is the likeliest typo */
    if (d > 1 && strcasecmp(word, cands[i]) == 0) d = 1;
    if (d < bestd) {
      bestd = d;
      best = cands[i];
    }
  }
  return best;
}

/* ----------------------------------------------------------------- UTF-8 */

int utf8_char_len(const unsigned char *s, size_t n) {
  if (n == 0) return 0;
  unsigned c = s[0];
  if (c < 0x80) return 1;
  int len;
  unsigned lo = 0x80, hi = 0xBF; /* the range of the second byte (RFC 3629) */
  if (c >= 0xC2 && c <= 0xDF) len = 2;
  else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;      /* overlong */
    else if (c == 0xED) hi = 0x9F; /* surrogates */
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;      /* overlong */
    else if (c == 0xF4) hi = 0x8F; /* beyond U+10FFFF */
  } else {
    return 0;
  }
  if (n < (size_t)len || s[1] < lo || s[1] > hi) return 0;
  for (int i = 2; i < len; i++)
    if ((s[i] & 0xC0) != 0x80) return 0;
  return len;
}

/* ---------------------------------------------------------------- files */

/* A regular file is read in one read() of its size plus one byte: a
 * short count is its end, so no second read() is needed to see EOF (each
 * system call costs about a microsecond here, and a run reads a dozen
 * model files).  Anything else (a pipe, a file still growing) is read
 * until read() returns 0. */
char *read_file(const char *path, size_t *len) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat st;
  bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  size_t cap = regular && st.st_size > 0 ? (size_t)st.st_size + 1 : 4096, n = 0;
  char *s = xmalloc(cap + 1);
  if (regular && st.st_size > READ_FILE_MAX) {
    close(fd);
    free(s);
    errno = EFBIG;
    return NULL;
  }
  for (;;) {
    if (n == cap) {
      if (cap > READ_FILE_MAX) {
        close(fd);
        free(s);
        errno = EFBIG;
        return NULL;
      }
      cap *= 2;
      s = xrealloc(s, cap + 1);
    }
    ssize_t r = read(fd, s + n, cap - n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      int e = errno;
      close(fd);
      free(s);
      errno = e == EISDIR ? EISDIR : EIO;
      return NULL;
    }
    n += (size_t)r;
    if (r == 0 || (regular && n < cap)) break;
  }
  close(fd);
  s[n] = 0;
  if (len) *len = n;
  return s;
}

const char *path_not_file(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0 || S_ISREG(st.st_mode)) return NULL;
  return S_ISDIR(st.st_mode) ? "is a directory" : "is not a regular file";
}

const char *read_file_error(int err) {
  switch (err) {
  case EFBIG: return "file too large (more than 16 MiB)";
  case EISDIR: return "is a directory";
  case ENOENT: return "no such file";
  case EACCES: return "permission denied";
  default: return "cannot read it";
  }
}
