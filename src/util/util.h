/*
 * util.h — the small toolbox every stage of corral uses: arenas, growable
 * arrays, string buffers, interned names and error reporting.
 *
 * Memory discipline: everything that lives as long as a test (parsed
 * files, event structures, models) is allocated from an Arena and freed in
 * one go.  Nothing here keeps global state, so several tests can run in
 * parallel threads, each with its own arenas and error context.
 */
#ifndef CORRAL_UTIL_H
#define CORRAL_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

#if defined(__GNUC__)
#define CR_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define CR_NORETURN __attribute__((noreturn))
#define CR_NOINLINE __attribute__((noinline))
#else
#define CR_PRINTF(f, a)
#define CR_NORETURN
#define CR_NOINLINE
#endif

/* ---- allocation that never returns NULL (aborts on exhaustion) ---- */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* ---- arenas: bump allocation in chunks, freed all at once ---- */
typedef struct ArenaChunk ArenaChunk;
typedef struct Arena {
  ArenaChunk *head;
  char *cur, *end;
  size_t total;            /* bytes handed out, for limits and statistics */
  ArenaChunk *spare;       /* chunks given back by arena_reset, for reuse */
} Arena;

typedef struct ArenaMark {
  ArenaChunk *head;
  char *cur, *end;
  size_t total;
} ArenaMark;

void arena_init(Arena *a);
void arena_free(Arena *a);
void *arena_alloc_slow(Arena *a, size_t n);
/* 16-byte aligned, uninitialised.  Inline: the interpreter allocates a
 * value per operation. */
static inline void *arena_alloc(Arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  /* <=: a request of 0 bytes from an arena with no chunk yet (cur NULL)
   * takes the slow path too, rather than offsetting a null pointer */
  if ((size_t)(a->end - a->cur) <= n) return arena_alloc_slow(a, n);
  void *p = a->cur;
  a->cur += n;
  a->total += n;
  return p;
}
void *arena_zalloc(Arena *a, size_t n);  /* zeroed */
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...) CR_PRINTF(2, 3);
/* Marks let a loop reuse the same memory for every iteration. */
ArenaMark arena_mark(Arena *a);
void arena_reset(Arena *a, ArenaMark m);
/* Forget everything but keep the first chunk, for arenas reused in loops. */
void arena_rewind(Arena *a);

#define ARENA_NEW(a, T) ((T *)arena_zalloc((a), sizeof(T)))
#define ARENA_NEWN(a, T, n) ((T *)arena_zalloc((a), sizeof(T) * (size_t)(n)))

/* ---- growable arrays (heap), used as VEC(T) v = {0}; vec_push(v, x) ---- */
#define VEC(T) struct { T *data; int len, cap; }
#define vec_grow(v, n)                                                        \
  do {                                                                        \
    if ((v).len + (n) > (v).cap) {                                            \
      int nc_ = (v).cap ? (v).cap * 2 : 8;                                    \
      while (nc_ < (v).len + (n)) nc_ *= 2;                                   \
      (v).data = xrealloc((v).data, sizeof(*(v).data) * (size_t)nc_);         \
      (v).cap = nc_;                                                          \
    }                                                                         \
  } while (0)
#define vec_push(v, x)                                                        \
  do {                                                                        \
    vec_grow(v, 1);                                                           \
    (v).data[(v).len++] = (x);                                                \
  } while (0)
#define vec_free(v)                                                           \
  do {                                                                        \
    free((v).data);                                                           \
    (v).data = NULL;                                                          \
    (v).len = (v).cap = 0;                                                    \
  } while (0)
#define vec_last(v) ((v).data[(v).len - 1])

/* ---- string buffers ---- */
typedef struct StrBuf {
  char *s;
  size_t len, cap;
} StrBuf;

void sb_init(StrBuf *b);
void sb_free(StrBuf *b);
void sb_clear(StrBuf *b);
/* room for `extra` more bytes (and the NUL), to write into b->s directly */
void sb_reserve(StrBuf *b, size_t extra);
void sb_putn(StrBuf *b, const char *s, size_t n);
void sb_puts(StrBuf *b, const char *s);
/* Inline: printers put text a character at a time. */
static inline void sb_putc(StrBuf *b, char c) {
  if (b->len + 2 > b->cap) sb_reserve(b, 1);
  b->s[b->len++] = c;
  b->s[b->len] = 0;
}
/* The decimal digits of u, after a '-' when neg, written backwards so
 * that they end at `end` (24 bytes of room suffice); returns where they
 * start.  Output that is printed by the hundred thousand uses it rather
 * than printf. */
static inline char *dec_digits(char *end, uint64_t u, bool neg) {
  char *k = end;
  do {
    *--k = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (neg) *--k = '-';
  return k;
}
/* Decimal integers, as printf's %lld / %llu would write them. */
void sb_put_int(StrBuf *b, int64_t v);
void sb_put_uint(StrBuf *b, uint64_t v);
void sb_printf(StrBuf *b, const char *fmt, ...) CR_PRINTF(2, 3);
void sb_vprintf(StrBuf *b, const char *fmt, va_list ap);
const char *sb_cstr(StrBuf *b); /* always NUL-terminated, never NULL */

/* ---- interned names: equal strings get equal small integers ---- */
typedef struct Interner {
  char **names;      /* id -> string (in text) */
  uint64_t *hashes;  /* id -> its string's hash (hash_bytes): compared
                        before the text, and reused when the table grows */
  size_t *lens;      /* id -> its string's length, compared next */
  int count, cap;
  int *table;        /* open addressing: slot -> id+1, 0 = empty */
  int tcap;
  Arena text;        /* the strings, one block for all */
} Interner;

void intern_init(Interner *in);
void intern_free(Interner *in);
int intern(Interner *in, const char *s);
int intern_n(Interner *in, const char *s, size_t n);
/* intern_n when the caller has h = hash_bytes(s, n) already (a scanner
 * can compute it with hash_step while it finds the end of a name). */
int intern_nh(Interner *in, const char *s, size_t n, uint64_t h);
int intern_find(const Interner *in, const char *s); /* -1 if absent */
static inline const char *intern_name(const Interner *in, int id) {
  return in->names[id];
}

/* ---- errors ----
 * A source position: file name, 1-based line, 1-based column.  Errors are
 * reported as "FILE:LINE:COL: error: message".  Parsers and interpreters
 * raise errors with err_raise(), which longjmps to the innermost handler
 * installed with ERR_TRY; the message is kept in the Err context. */
typedef struct SrcPos {
  const char *file;
  int line, col;
} SrcPos;

typedef struct ErrJmp {
  jmp_buf jb;
  struct ErrJmp *prev;
} ErrJmp;

typedef struct Err {
  ErrJmp *top;       /* innermost handler */
  StrBuf msg;        /* formatted message of the last error */
  StrBuf file;       /* a copy of pos.file: the error outlives its source */
  SrcPos pos;        /* where it happened (file may be NULL) */
  int kind;          /* ERRK_* below */
  const char *src_line_text; /* optional: the offending source line */
} Err;

enum { ERRK_NONE, ERRK_SYNTAX, ERRK_SEMANTIC, ERRK_IO, ERRK_LIMIT, ERRK_INTERNAL };

void err_init(Err *e);
void err_free(Err *e);
CR_NORETURN void err_raise(Err *e, int kind, SrcPos pos, const char *fmt, ...)
    CR_PRINTF(4, 5);
CR_NORETURN void err_vraise(Err *e, int kind, SrcPos pos, const char *fmt,
                            va_list ap);
CR_NORETURN void err_rethrow(Err *e);
/* Format the current error as "FILE:LINE:COL: error: msg" into b. */
void err_format(const Err *e, StrBuf *b);
/* Append, gcc-style, the source line the error points at and a caret
 * under its column ("    4 |  FOO [x]\n      |  ^\n"), read again from
 * the file; nothing when there is no position or the file is gone. */
void err_excerpt(const Err *e, StrBuf *b);

/* Usage (setjmp must stand alone in the condition, hence the two steps):
 *   ErrJmp j;
 *   err_push(err, &j);
 *   if (setjmp(j.jb) == 0) { ... code that may raise ...; err_pop(err, &j); }
 *   else { ... handle the error: err_raise already popped the handler ... }
 */
static inline void err_push(Err *e, ErrJmp *j) { j->prev = e->top; e->top = j; }
static inline void err_pop(Err *e, ErrJmp *j) { e->top = j->prev; }

/* The position of byte `off` of text, a file's contents (for errors
 * found by scanning bytes rather than tokens). */
SrcPos text_pos(const char *file, const char *text, size_t off);

/* ---- UTF-8 ---- */
/* The length (1 to 4) of the well-formed UTF-8 character at s (n bytes
 * left), or 0: a stray byte, an overlong form, a surrogate, beyond
 * U+10FFFF, or cut short. */
int utf8_char_len(const unsigned char *s, size_t n);

/* ---- files ---- */
/* Read a whole file; returns NULL (and sets errno) on failure: EFBIG for
 * a file of more than READ_FILE_MAX bytes (no test or model comes near;
 * /dev/zero or /proc/self/pagemap would otherwise fill memory), EISDIR
 * for a directory.  read_file_error(errno) says why in words. */
enum { READ_FILE_MAX = 16 << 20 };
char *read_file(const char *path, size_t *len);
const char *read_file_error(int err);
/* Why path, which exists, cannot be a model or configuration file ("is a
 * directory", "is not a regular file"), or NULL. */
const char *path_not_file(const char *path);

/* ---- suggestions ("did you mean ...") ---- */
/* Edit distance (insert, delete, substitute, swap of neighbours) between
 * a and b, or limit + 1 when it is more than limit. */
int edit_distance(const char *a, const char *b, int limit);
/* The candidate closest to word, if it is close enough to be a likely
 * typo (about a third of its length), else NULL.  NULL entries are
 * skipped. */
const char *closest_name(const char *word, const char *const *cands, int n);

/* ---- small helpers ---- */
/* FNV-1a, good enough for hash tables of states and names: hash_bytes(p,
 * n) is HASH_SEED followed by hash_step for each byte. */
#define HASH_SEED 1469598103934665603ULL
static inline uint64_t hash_step(uint64_t h, unsigned char c) {
  return (h ^ c) * 1099511628211ULL;
}
static inline uint64_t hash_bytes(const void *p, size_t n) {
  const unsigned char *s = p;
  uint64_t h = HASH_SEED;
  for (size_t i = 0; i < n; i++) h = hash_step(h, s[i]);
  return h;
}

#endif
