/*
 * json.c — JSON strings for corral serve's answers, and the reader of its
 * requests.
 *
 * The reader is a recursive-descent parser over the RFC 8259 grammar with
 * a depth bound, so that hostile input (deep nesting, bad escapes, lone
 * surrogates, NUL characters) is refused with a message rather than
 * crashing or looping.  Only the top-level members are kept.
 */
#include "json.h"

#include "report/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------- output */

void jb_str(StrBuf *b, const char *s) {
  if (!s) sb_puts(b, "null");
  else json_string(b, s);
}

void jb_key(StrBuf *b, bool *first, const char *key) {
  if (!*first) sb_putc(b, ',');
  *first = false;
  jb_str(b, key);
  sb_putc(b, ':');
}

/* ----------------------------------------------------------- input */

enum { MAX_DEPTH = 32 };

typedef struct Reader {
  const char *s;
  size_t n, i;
  char *err;
  size_t cap;
  bool failed;
} Reader;

static bool fail(Reader *r, const char *what) {
  if (!r->failed) snprintf(r->err, r->cap, "bad JSON at byte %zu: %s", r->i, what);
  r->failed = true;
  return false;
}

static void ws(Reader *r) {
  while (r->i < r->n && (r->s[r->i] == ' ' || r->s[r->i] == '\t' || r->s[r->i] == '\n' ||
                         r->s[r->i] == '\r'))
    r->i++;
}

static bool at(const Reader *r, char c) { return r->i < r->n && r->s[r->i] == c; }

static int hex4(Reader *r) {
  if (r->n - r->i < 4) return -1;
  int v = 0;
  for (int k = 0; k < 4; k++) {
    char c = r->s[r->i++];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= c - '0';
    else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
    else return -1;
  }
  return v;
}

static void put_utf8(StrBuf *b, unsigned cp) {
  if (cp < 0x80) {
    sb_putc(b, (char)cp);
  } else if (cp < 0x800) {
    sb_putc(b, (char)(0xC0 | (cp >> 6)));
    sb_putc(b, (char)(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    sb_putc(b, (char)(0xE0 | (cp >> 12)));
    sb_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
    sb_putc(b, (char)(0x80 | (cp & 0x3F)));
  } else {
    sb_putc(b, (char)(0xF0 | (cp >> 18)));
    sb_putc(b, (char)(0x80 | ((cp >> 12) & 0x3F)));
    sb_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
    sb_putc(b, (char)(0x80 | (cp & 0x3F)));
  }
}

/* A string (r->i at the opening quote); into out when not NULL. */
static bool string(Reader *r, StrBuf *out) {
  static const char escapes[] = "\"\\/bfnrt", meant[] = "\"\\/\b\f\n\r\t";
  r->i++;
  while (r->i < r->n) {
    unsigned char c = (unsigned char)r->s[r->i];
    if (c == '"') {
      r->i++;
      return true;
    }
    if (c < 0x20) return fail(r, "control character in a string");
    if (c >= 0x80) {
      int k = utf8_char_len((const unsigned char *)r->s + r->i, r->n - r->i);
      if (k == 0) return fail(r, "bytes that are not UTF-8 in a string");
      if (out) sb_putn(out, r->s + r->i, (size_t)k);
      r->i += (size_t)k;
      continue;
    }
    if (c != '\\') {
      if (out) sb_putc(out, (char)c);
      r->i++;
      continue;
    }
    if (++r->i >= r->n) break;
    char e = r->s[r->i++];
    const char *simple = e ? strchr(escapes, e) : NULL;
    if (simple) {
      if (out) sb_putc(out, meant[simple - escapes]);
      continue;
    }
    if (e != 'u') return fail(r, "bad escape");
    int cp = hex4(r);
    if (cp < 0) return fail(r, "bad \\u escape");
    if (cp >= 0xD800 && cp < 0xDC00) {
      if (r->n - r->i < 6 || r->s[r->i] != '\\' || r->s[r->i + 1] != 'u')
        return fail(r, "lone surrogate");
      r->i += 2;
      int lo = hex4(r);
      if (lo < 0xDC00 || lo >= 0xE000) return fail(r, "lone surrogate");
      cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    } else if (cp >= 0xDC00 && cp < 0xE000) {
      return fail(r, "lone surrogate");
    }
    if (cp == 0) return fail(r, "NUL character in a string");
    if (out) put_utf8(out, (unsigned)cp);
  }
  return fail(r, "unterminated string");
}

static bool literal(Reader *r, const char *word) {
  size_t l = strlen(word);
  if (r->n - r->i < l || memcmp(r->s + r->i, word, l) != 0) return fail(r, "unexpected token");
  r->i += l;
  return true;
}

static bool number(Reader *r, double *v) {
  size_t st = r->i;
  while (r->i < r->n && r->s[r->i] && strchr("0123456789.eE+-", r->s[r->i])) r->i++;
  if (r->i == st || r->i - st > 64) return fail(r, "bad number");
  char buf[80];
  memcpy(buf, r->s + st, r->i - st);
  buf[r->i - st] = 0;
  char *end;
  *v = strtod(buf, &end);
  if (*end) return fail(r, "bad number");
  return true;
}

static bool value(Reader *r, int depth, JMember *m);

/* An object's "name": part; the name into key when not NULL. */
static bool member_name(Reader *r, StrBuf *key) {
  ws(r);
  if (!at(r, '"')) return fail(r, "expected a member name");
  if (!string(r, key)) return false;
  ws(r);
  if (!at(r, ':')) return fail(r, "expected ':'");
  r->i++;
  return true;
}

/* After a member or element: true to go on, false at the end (done) or
 * on an error (r->failed). */
static bool more(Reader *r, char close) {
  ws(r);
  if (at(r, ',')) {
    r->i++;
    return true;
  }
  if (at(r, close)) r->i++;
  else fail(r, "expected ',' or the end of the object or array");
  return false;
}

static bool container(Reader *r, int depth, char close) {
  if (depth > MAX_DEPTH) return fail(r, "nested too deeply");
  r->i++;
  ws(r);
  if (at(r, close)) {
    r->i++;
    return true;
  }
  do {
    if (close == '}' && !member_name(r, NULL)) return false;
    if (!value(r, depth + 1, NULL)) return false;
  } while (more(r, close));
  return !r->failed;
}

/* A value; its decoded form into m when m is not NULL. */
static bool value(Reader *r, int depth, JMember *m) {
  ws(r);
  if (r->i >= r->n) return fail(r, "unexpected end");
  char c = r->s[r->i];
  if (m) m->kind = J_OTHER;
  switch (c) {
  case '"': {
    StrBuf b;
    sb_init(&b);
    bool ok = string(r, &b);
    if (ok && m) {
      m->kind = J_STRING;
      m->str = xstrdup(sb_cstr(&b));
    }
    sb_free(&b);
    return ok;
  }
  case '{': return container(r, depth, '}');
  case '[': return container(r, depth, ']');
  case 't':
  case 'f':
    if (!literal(r, c == 't' ? "true" : "false")) return false;
    if (m) {
      m->kind = J_BOOL;
      m->b = c == 't';
    }
    return true;
  case 'n': return literal(r, "null");
  default: {
    double v = 0;
    if (!number(r, &v)) return false;
    if (m) {
      m->kind = J_NUMBER;
      m->num = v;
    }
    return true;
  }
  }
}

bool json_parse_object(const char *text, size_t len, JObject *o, char *err, size_t err_cap) {
  Reader r = {text, len, 0, err, err_cap, false};
  o->v = NULL;
  o->n = 0;
  ws(&r);
  if (!at(&r, '{')) return fail(&r, "expected an object");
  r.i++;
  ws(&r);
  if (at(&r, '}')) {
    r.i++;
  } else {
    do {
      StrBuf key;
      sb_init(&key);
      bool ok = member_name(&r, &key);
      JMember m = {xstrdup(sb_cstr(&key)), J_OTHER, NULL, false, 0, NULL, 0};
      sb_free(&key);
      ws(&r);
      size_t st = r.i;
      if (ok) ok = value(&r, 1, &m);
      m.raw = text + st;
      m.raw_len = r.i - st;
      o->v = xrealloc(o->v, sizeof(JMember) * (size_t)(o->n + 1));
      o->v[o->n++] = m; /* kept even when bad: freed below */
      if (!ok) break;
    } while (more(&r, '}'));
  }
  ws(&r);
  if (!r.failed && r.i != r.n) fail(&r, "text after the object");
  if (r.failed) json_object_free(o);
  return !r.failed;
}

void json_object_free(JObject *o) {
  for (int i = 0; i < o->n; i++) {
    free(o->v[i].key);
    free(o->v[i].str);
  }
  free(o->v);
  o->v = NULL;
  o->n = 0;
}

const JMember *json_get(const JObject *o, const char *key) {
  const JMember *found = NULL;
  for (int i = 0; i < o->n; i++)
    if (!strcmp(o->v[i].key, key)) found = &o->v[i]; /* the last one wins */
  return found;
}

bool json_each_object(const char *text, size_t len, bool (*fn)(void *ctx, const JObject *o),
                      void *ctx, char *err, size_t err_cap) {
  Reader r = {text, len, 0, err, err_cap, false};
  ws(&r);
  if (!at(&r, '[')) return fail(&r, "expected an array");
  r.i++;
  ws(&r);
  if (at(&r, ']')) {
    r.i++;
  } else {
    do {
      ws(&r);
      size_t st = r.i;
      if (!value(&r, 1, NULL)) return false;
      JObject o;
      if (!json_parse_object(text + st, r.i - st, &o, err, err_cap)) return false;
      bool go = fn(ctx, &o);
      json_object_free(&o);
      if (!go) return fail(&r, "element refused");
    } while (more(&r, ']'));
  }
  ws(&r);
  if (!r.failed && r.i != r.n) fail(&r, "text after the array");
  return !r.failed;
}
