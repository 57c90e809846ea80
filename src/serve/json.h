/*
 * json.h — the little JSON corral serve needs: JSON strings written into
 * a StrBuf, and a reader for the flat request object of
 * POST /run (string, boolean and number members decoded; anything else,
 * nested values included, checked and kept as its text).  corral merge
 * and compare read saved JSON logs with it too.
 */
#ifndef CORRAL_SERVE_JSON_H
#define CORRAL_SERVE_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "util/util.h"

/* A JSON string literal (s may be NULL: null); the n bytes at s are
 * json_string_n (report/json.h). */
void jb_str(StrBuf *b, const char *s);
/* "key": — with a comma before it unless it opens the object. */
void jb_key(StrBuf *b, bool *first, const char *key);

/* One member of the request object. */
typedef enum JKind { J_STRING, J_BOOL, J_NUMBER, J_OTHER } JKind;
typedef struct JMember {
  char *key;
  JKind kind;
  char *str;     /* J_STRING: decoded UTF-8 (no NUL inside: refused) */
  bool b;
  double num;
  const char *raw; /* the value as written: raw_len bytes of the text parsed */
  size_t raw_len;
} JMember;

typedef struct JObject {
  JMember *v;
  int n;
} JObject;

/* Parse text (len bytes) as one object; false with a message in err
 * (err_cap bytes) naming the offset of the problem. */
bool json_parse_object(const char *text, size_t len, JObject *o, char *err, size_t err_cap);
void json_object_free(JObject *o);
const JMember *json_get(const JObject *o, const char *key);
/* text (len bytes) is an array of objects: json_parse_object each in
 * turn, fn sees it (and may stop the walk by returning false); false
 * with a message in err on bad JSON or when fn stopped. */
bool json_each_object(const char *text, size_t len, bool (*fn)(void *ctx, const JObject *o),
                      void *ctx, char *err, size_t err_cap);

#endif
