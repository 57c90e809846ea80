/*
 * hash.c — herd7's test digest (../shared/spec/hash.md): MD5 over the
 * digests of the cache/memory-type metadata, the initial state as written,
 * the code laid out in padded columns after label renaming and instruction
 * normalisation, and the set of observed locations.
 *
 * The code part covers assembly tests; C tests (Test.c) hash the raw
 * function bodies (hash.md §6) and are the C front end's to add.
 */
#include "hash.h"

#include "../litmus/c.h"

#include <nettle/md5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------------ md5 */

static void md5_raw(const void *data, size_t n, uint8_t out[MD5_DIGEST_SIZE]) {
  struct md5_ctx ctx;
  md5_init(&ctx);
  md5_update(&ctx, n, data);
  md5_digest(&ctx, MD5_DIGEST_SIZE, out);
}

static void to_hex(const uint8_t *d, size_t n, char *out) {
  static const char hex[] = "0123456789abcdef";
  for (size_t i = 0; i < n; i++) {
    out[2 * i] = hex[d[i] >> 4];
    out[2 * i + 1] = hex[d[i] & 15];
  }
  out[2 * n] = 0;
}

/* ------------------------------------------------------------- metadata */

static int cmp_meta(const void *a, const void *b) {
  const Meta *const *x = a, *const *y = b;
  int c = strcmp((*x)->key, (*y)->key);
  return c ? c : (*x < *y ? -1 : *x > *y); /* stable: file order */
}

static bool digested_key(const char *k) {
  return strcasecmp(k, "MemoryType") == 0 || strcasecmp(k, "MT") == 0 ||
         strcasecmp(k, "CacheType") == 0;
}

/* lowercase(KEY)=VALUE of the digested keys, in reverse sorted order. */
static bool info_string(const Test *t, StrBuf *out) {
  if (t->nmeta == 0) return false;
  const Meta **m = xmalloc(sizeof *m * (size_t)t->nmeta);
  for (int i = 0; i < t->nmeta; i++) m[i] = &t->meta[i];
  qsort(m, (size_t)t->nmeta, sizeof *m, cmp_meta);
  bool any = false;
  for (int i = t->nmeta - 1; i >= 0; i--) {
    if (!digested_key(m[i]->key)) continue;
    any = true;
    for (const char *k = m[i]->key; *k; k++)
      sb_putc(out, (char)(*k >= 'A' && *k <= 'Z' ? *k - 'A' + 'a' : *k));
    sb_putc(out, '=');
    sb_puts(out, m[i]->value);
  }
  free(m);
  return any;
}

/* ------------------------------------------------------ location order */

static int loc_class(const LitLoc *l) {
  switch (l->kind) {
  case LOC_REG: return 0;
  case LOC_SYMREG: return 1;
  case LOC_GLOBAL: return 2;
  case LOC_CELL: return 3;
  }
  return 4;
}

/* registers (thread, name as written) < symbolic registers < globals <
 * array cells (name, then index). */
static int cmp_loc(const LitLoc *a, const LitLoc *b) {
  int ca = loc_class(a), cb = loc_class(b);
  if (ca != cb) return ca < cb ? -1 : 1;
  switch (a->kind) {
  case LOC_REG:
    if (a->thread != b->thread) return a->thread < b->thread ? -1 : 1;
    return strcmp(a->reg, b->reg);
  case LOC_SYMREG: return strcmp(a->reg, b->reg);
  case LOC_GLOBAL: {
    /* herd's symbols: virtual < physical < page-table entries */
    int ka = lit_sym_rank(a->sym), kb = lit_sym_rank(b->sym);
    if (ka != kb) return ka < kb ? -1 : 1;
    return strcmp(a->sym, b->sym);
  }
  case LOC_CELL: {
    int c = strcmp(a->sym, b->sym);
    if (c) return c;
    return a->index < b->index ? -1 : a->index > b->index;
  }
  }
  return 0;
}

/* ----------------------------------------------------------------- init */

static int cmp_item(const void *a, const void *b) {
  const InitItem *const *x = a, *const *y = b;
  int c = cmp_loc(&(*x)->loc, &(*y)->loc);
  return c ? c : (*x < *y ? -1 : *x > *y);
}

static void print_item(const InitItem *it, StrBuf *out) {
  const LitType *ty = &it->type;
  switch (ty->kind) {
  case TY_NONE: break;
  case TY_PTR_NOBASE: sb_putc(out, '*'); break;
  case TY_ATOMIC:
    sb_puts(out, "_Atomic ");
    /* fall through */
  case TY_BASE:
    sb_puts(out, ty->base);
    sb_putc(out, ' ');
    break;
  case TY_PTR:
    sb_puts(out, ty->base);
    sb_puts(out, " *");
    break;
  case TY_ARRAY:
    sb_puts(out, ty->base);
    sb_putc(out, ' ');
    lit_print_loc_hash(&it->loc, out);
    sb_putc(out, '[');
    sb_put_int(out, ty->array_len);
    sb_putc(out, ']');
    return;
  }
  lit_print_loc_hash(&it->loc, out);
  sb_putc(out, '=');
  sb_puts(out, it->has_val ? it->val.text : "0");
}

void hash_init_string(const Test *t, StrBuf *out) {
  if (t->ninit == 0) return;
  const InitItem **v = xmalloc(sizeof *v * (size_t)t->ninit);
  for (int i = 0; i < t->ninit; i++) v[i] = &t->init[i];
  qsort(v, (size_t)t->ninit, sizeof *v, cmp_item);
  for (int i = 0; i < t->ninit; i++) {
    if (i > 0 && cmp_loc(&v[i]->loc, &v[i - 1]->loc) == 0) continue;
    if (i > 0) sb_puts(out, "; ");
    print_item(v[i], out);
  }
  free(v);
}

/* ------------------------------------------------------ observed locations */

typedef struct LocSet {
  const LitLoc **v;
  int n, cap;
  struct OwnLoc {    /* the locations of fault atoms */
    LitLoc l;
    char name[136];
  } *own[64];
  int nown;
} LocSet;

static void locset_add(LocSet *s, const LitLoc *l) {
  for (int i = 0; i < s->n; i++)
    if (cmp_loc(s->v[i], l) == 0) return;
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 16;
    s->v = xrealloc(s->v, sizeof *s->v * (size_t)s->cap);
  }
  s->v[s->n++] = l;
}

static void collect_prop(const Prop *p, LocSet *s) {
  for (; p; p = p->b) {
    if (p->kind == P_EQ || p->kind == P_LOCEQ) locset_add(s, &p->loc);
    /* herd observes the location of a fault atom fault(P0:L0,x) too */
    if (p->kind == P_FAULT && p->fault && p->fault->sym && s->nown < 64) {
      struct OwnLoc *o = xcalloc(1, sizeof *o);
      snprintf(o->name, sizeof o->name, p->fault->pte ? "PTE(%s)" : "%s", p->fault->sym);
      o->l.kind = LOC_GLOBAL;
      o->l.sym = o->name;
      s->own[s->nown++] = o;
      locset_add(s, &o->l);
    }
    if (p->kind == P_LOCEQ) locset_add(s, &p->loc2);
    if (p->a) collect_prop(p->a, s);
    if (p->kind != P_AND && p->kind != P_OR && p->kind != P_IMPL) return;
  }
}

static int cmp_locp(const void *a, const void *b) {
  return cmp_loc(*(const LitLoc *const *)a, *(const LitLoc *const *)b);
}

void hash_obs_string(const Test *t, StrBuf *out) {
  LocSet s = {0};
  for (int i = 0; i < t->nlocations; i++) locset_add(&s, &t->locations[i]);
  if (t->has_cond) collect_prop(t->cond, &s);
  if (s.n > 1) qsort(s.v, (size_t)s.n, sizeof *s.v, cmp_locp);
  for (int i = 0; i < s.n; i++) {
    if (i > 0) sb_puts(out, "; ");
    lit_print_loc_hash(s.v[i], out);
  }
  free(s.v);
  for (int i = 0; i < s.nown; i++) free(s.own[i]);
}

/* ----------------------------------------------------------------- code */

typedef struct Labels {
  const char **names; /* sorted, unique */
  char (*renamed)[16];
  int n, cap;
} Labels;

static void labels_add(Labels *l, const char *name) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 16;
    l->names = xrealloc(l->names, sizeof *l->names * (size_t)l->cap);
  }
  l->names[l->n++] = name;
}

static int cmp_name(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every label defined or referenced anywhere, renamed L00, L01... in
 * byte-wise order (hash.md §5.2). */
/* Column j of the code table (fault handlers are columns of their own). */
static const Thread *code_col(const Test *t, int j) {
  return t->cols ? t->cols[j] : &t->threads[j];
}
static int code_ncols(const Test *t) { return t->cols ? t->ncols : t->nthreads; }

static void collect_labels(const Test *t, Labels *l) {
  for (int th = 0; th < code_ncols(t); th++)
    for (int k = 0; k < code_col(t, th)->nentries; k++) {
      const CodeEntry *e = &code_col(t, th)->entries[k];
      if (e->label) labels_add(l, e->label);
      for (int o = 0; e->ins && o < e->ins->nops; o++)
        if (e->ins->ops[o].kind == OPK_LABEL && e->ins->ops[o].sym)
          labels_add(l, e->ins->ops[o].sym);
    }
  if (l->n > 1) qsort(l->names, (size_t)l->n, sizeof *l->names, cmp_name);
  int u = 0;
  for (int i = 0; i < l->n; i++)
    if (u == 0 || strcmp(l->names[u - 1], l->names[i]) != 0)
      l->names[u++] = l->names[i];
  l->n = u;
  l->renamed = xmalloc(sizeof *l->renamed * (size_t)(u ? u : 1));
  for (int i = 0; i < u; i++) { /* "L%02d" */
    char d[24], *k = dec_digits(d + sizeof d, (uint64_t)i, false);
    if (i < 10) *--k = '0';
    l->renamed[i][0] = 'L';
    memcpy(l->renamed[i] + 1, k, (size_t)(d + sizeof d - k));
    l->renamed[i][1 + (d + sizeof d - k)] = 0;
  }
}

static const char *rename_label(void *ctx, const char *name) {
  const Labels *l = ctx;
  const char **hit =
      l->n ? bsearch(&name, l->names, (size_t)l->n, sizeof *l->names, cmp_name)
           : NULL;
  return hit ? l->renamed[hit - l->names] : name;
}

/* The entry strings of one thread, each NUL-terminated, in one buffer. */
static void thread_entries(const Test *t, const Thread *th, Labels *l,
                           StrBuf *buf, size_t *offs) {
  for (int k = 0; k < th->nentries; k++) {
    const CodeEntry *e = &th->entries[k];
    offs[k] = buf->len;
    if (e->label) {
      sb_puts(buf, rename_label(l, e->label));
      sb_putc(buf, ':');
    } else {
      t->ops->print_instr(e->ins, buf, rename_label, l);
    }
    sb_putc(buf, 0);
  }
}

void hash_code_string(const Test *t, StrBuf *out) {
  int n = code_ncols(t), rows = 0;
  if (t->c) {
    c_hash_code(t, out);
    return;
  }
  if (n == 0 || !t->ops) return;
  Labels l = {0};
  collect_labels(t, &l);
  StrBuf *bufs = xcalloc((size_t)n, sizeof *bufs);
  size_t **offs = xcalloc((size_t)n, sizeof *offs);
  size_t *width = xcalloc((size_t)n, sizeof *width);
  for (int j = 0; j < n; j++) {
    const Thread *th = code_col(t, j);
    /* offs[j][k + 1] is where entry k ends (after its NUL) */
    offs[j] = xcalloc((size_t)th->nentries + 1, sizeof **offs);
    thread_entries(t, th, &l, &bufs[j], offs[j]);
    offs[j][th->nentries] = bufs[j].len;
    for (int k = 0; k < th->nentries; k++)
      width[j] = MAX(width[j], offs[j][k + 1] - offs[j][k] - 1);
    rows = MAX(rows, th->nentries);
  }
  for (int k = 0; k < rows; k++) {
    for (int j = 0; j < n; j++) { /* "%s %-*s " */
      size_t len = 0;
      if (j) sb_putc(out, '|');
      sb_putc(out, ' ');
      if (k < code_col(t, j)->nentries) {
        len = offs[j][k + 1] - offs[j][k] - 1;
        sb_putn(out, bufs[j].s + offs[j][k], len);
      }
      sb_reserve(out, width[j] - len + 1);
      memset(out->s + out->len, ' ', width[j] - len + 1);
      out->len += width[j] - len + 1;
      out->s[out->len] = 0;
    }
    sb_puts(out, ";\n");
  }
  for (int j = 0; j < n; j++) sb_free(&bufs[j]), free(offs[j]);
  free(bufs), free(offs), free(width);
  free(l.names), free(l.renamed);
}

/* ---------------------------------------------------------------- total */

static void digest_of(void (*f)(const Test *, StrBuf *), const Test *t,
                      uint8_t *out) {
  StrBuf b;
  sb_init(&b);
  f(t, &b);
  md5_raw(b.s ? b.s : "", b.len, out);
  sb_free(&b);
}

void test_hash_compute(const Test *t, char out[33]) {
  if (t->digest[0]) { /* kept by test_hash_keep */
    memcpy(out, t->digest, 33);
    return;
  }
  uint8_t all[4 * MD5_DIGEST_SIZE], *p = all;
  StrBuf info;
  sb_init(&info);
  if (info_string(t, &info)) {
    md5_raw(info.s, info.len, p);
    p += MD5_DIGEST_SIZE;
  }
  sb_free(&info);
  digest_of(hash_init_string, t, p), p += MD5_DIGEST_SIZE;
  digest_of(hash_code_string, t, p), p += MD5_DIGEST_SIZE;
  digest_of(hash_obs_string, t, p), p += MD5_DIGEST_SIZE;
  uint8_t d[MD5_DIGEST_SIZE];
  md5_raw(all, (size_t)(p - all), d);
  to_hex(d, MD5_DIGEST_SIZE, out);
}

/* The value of the first metadata line whose key is "hash" in any case,
 * or NULL; *exact tells whether it is spelled "Hash". */
static const char *hash_key(const Test *t, bool *exact) {
  for (int i = 0; i < t->nmeta; i++)
    if (strcasecmp(t->meta[i].key, "hash") == 0) {
      *exact = strcmp(t->meta[i].key, "Hash") == 0;
      return t->meta[i].value;
    }
  return NULL;
}

void test_hash_keep(Test *t) {
  bool exact;
  if (!t->digest[0] && !hash_key(t, &exact)) test_hash_compute(t, t->digest);
}

const char *test_hash_text(const Test *t, char buf[33]) {
  bool exact;
  const char *v = hash_key(t, &exact);
  if (v) return v;
  test_hash_compute(t, buf);
  return buf;
}

void test_hash(const Test *t, char out[33]) {
  bool exact;
  const char *v = hash_key(t, &exact);
  if (!v) {
    test_hash_compute(t, out);
    return;
  }
  size_t n = exact ? strlen(v) : 0;
  if (n > 32) n = 32;
  memcpy(out, v, n);
  out[n] = 0;
}
