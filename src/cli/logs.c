/*
 * logs.c — saved results: reading logs (herd7 text blocks, -format json
 * lines, -format tsv lines), merging shard logs into one run's output,
 * and comparing two logs or two models, as herdtools' mcompare7 does:
 * which tests differ by Observation or by their sets of final states.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "serve/json.h"

static char *dupn(const char *s, size_t n) {
  char *d = malloc(n + 1);
  if (!d) abort();
  memcpy(d, s, n);
  d[n] = 0;
  return d;
}

static LogTest *log_push(Log *l) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 64;
    l->v = realloc(l->v, sizeof(LogTest) * (size_t)l->cap);
    if (!l->v) abort();
  }
  LogTest *t = &l->v[l->n++];
  memset(t, 0, sizeof *t);
  return t;
}

void log_free(Log *l) {
  for (int i = 0; i < l->n; i++) {
    free(l->v[i].name);
    free(l->v[i].hash);
    free(l->v[i].text);
    free(l->v[i].observation);
    free(l->v[i].states);
  }
  free(l->v);
  free(l->header);
  memset(l, 0, sizeof *l);
}

/* ------------------------------------------------------------ herd text */

static size_t line_len(const char *s) {
  const char *e = strchr(s, '\n');
  return e ? (size_t)(e - s) : strlen(s);
}

static bool starts(const char *s, size_t n, const char *pre) {
  size_t m = strlen(pre);
  return n >= m && !memcmp(s, pre, m);
}

/* Word k (0-based, space separated) of the line s[0..n). */
static char *word(const char *s, size_t n, int k) {
  size_t i = 0;
  for (int w = 0;; w++) {
    while (i < n && s[i] == ' ') i++;
    size_t b = i;
    while (i < n && s[i] != ' ') i++;
    if (b == i) return NULL;
    if (w == k) return dupn(s + b, i - b);
  }
}

/* A block from "Test NAME ..." to its empty line; *pos advances. */
static int parse_block(Log *l, const char *text, size_t *pos, int *lineno) {
  size_t start = *pos, i = *pos;
  int first = *lineno;
  LogTest *t = log_push(l);
  t->line = first;
  t->name = word(text + i, line_len(text + i), 1);
  size_t st0 = 0, st1 = 0;
  int nstates = -1;
  while (text[i]) {
    size_t n = line_len(text + i);
    const char *s = text + i;
    if (n == 0) {
      i += text[i + n] ? n + 1 : n;
      (*lineno)++;
      break;
    }
    if (starts(s, n, "States ")) {
      nstates = atoi(s + 7);
      st0 = i + n + (text[i + n] ? 1 : 0);
      st1 = st0;
      for (int k = 0; k < nstates && text[st1]; k++) {
        size_t m = line_len(text + st1);
        st1 += m + (text[st1 + m] ? 1 : 0);
      }
    } else if (starts(s, n, "Observation ")) {
      t->observation = word(s, n, 2);
    } else if (starts(s, n, "Hash=")) {
      t->hash = dupn(s + 5, n - 5);
    }
    i += n + (text[i + n] ? 1 : 0);
    (*lineno)++;
  }
  *pos = i;
  t->text = dupn(text + start, i - start);
  t->states = nstates >= 0 ? dupn(text + st0, st1 - st0) : dupn("", 0);
  if (!t->name || !t->observation) {
    fprintf(stderr, "%s:%d:1: error: test block %s has no Observation line (truncated log?)\n",
            l->path, first, t->name ? t->name : "without a name");
    return -1;
  }
  if (!t->hash) t->hash = dupn("", 0);
  return 0;
}

/* ----------------------------------------------------------- JSON lines */

/* A state of JSON's "states" array, {"k":"v",...}, as herd's state line
 * "k=v; k=v;", so that logs of any format compare. */
static bool state_line(void *ctx, const JObject *o) {
  StrBuf *b = ctx;
  for (int i = 0; i < o->n; i++) {
    if (o->v[i].kind != J_STRING) return false;
    sb_printf(b, "%s%s=%s;", i ? " " : "", o->v[i].key, o->v[i].str);
  }
  sb_putc(b, '\n');
  return true;
}

/* Member k of o as a malloc'ed string if it is one, else NULL. */
static char *str_member(const JObject *o, const char *k) {
  const JMember *m = json_get(o, k);
  return m && m->kind == J_STRING ? xstrdup(m->str) : NULL;
}

/* ... and from TSV's "k=v; k=v; | k=v; ..." */
static char *states_of_tsv(const char *a) {
  size_t n = 0;
  char *d = malloc(strlen(a) + 2);
  if (!d) abort();
  for (const char *p = a; *p; p++) {
    if (!strncmp(p, " | ", 3)) {
      d[n++] = '\n';
      p += 2;
    } else {
      d[n++] = *p;
    }
  }
  if (n) d[n++] = '\n';
  d[n] = 0;
  return d;
}

static int parse_json_line(Log *l, const char *s, size_t n, int lineno) {
  LogTest *t = log_push(l);
  t->line = lineno;
  t->text = dupn(s, n + 1); /* with its newline, if any */
  if (s[n] != '\n') {
    t->text = realloc(t->text, n + 2);
    t->text[n] = '\n';
    t->text[n + 1] = 0;
  }
  char err[128] = "";
  JObject o;
  if (!json_parse_object(s, n, &o, err, sizeof err)) {
    fprintf(stderr, "%s:%d:1: error: not a corral JSON result (%s)\n", l->path, lineno, err);
    return -1;
  }
  t->name = str_member(&o, "test");
  t->observation = str_member(&o, "observation");
  t->hash = str_member(&o, "hash");
  const JMember *st = json_get(&o, "states");
  if (st) {
    StrBuf b;
    sb_init(&b);
    if (json_each_object(st->raw, st->raw_len, state_line, &b, err, sizeof err))
      t->states = xstrdup(sb_cstr(&b));
    sb_free(&b);
  }
  json_object_free(&o);
  if (!t->name || !t->observation || !t->states) {
    fprintf(stderr, "%s:%d:1: error: not a corral JSON result (test, observation, states)\n",
            l->path, lineno);
    return -1;
  }
  if (!t->hash) t->hash = dupn("", 0);
  return 0;
}

/* ------------------------------------------------------------ TSV lines */

static char *tsv_get(const char *s, size_t n, int k) {
  size_t i = 0;
  for (int f = 0; f < k; f++) {
    while (i < n && s[i] != '\t') i++;
    if (i == n) return NULL;
    i++;
  }
  size_t b = i;
  while (i < n && s[i] != '\t') i++;
  return dupn(s + b, i - b);
}

static int parse_tsv_line(Log *l, const char *s, size_t n, int lineno) {
  LogTest *t = log_push(l);
  t->line = lineno;
  t->text = dupn(s, n);
  t->text = realloc(t->text, n + 2);
  t->text[n] = '\n';
  t->text[n + 1] = 0;
  /* the columns of json_tsv_header */
  t->name = tsv_get(s, n, 0);
  t->observation = tsv_get(s, n, 5);
  char *states = tsv_get(s, n, 10);
  t->states = states ? states_of_tsv(states) : NULL;
  free(states);
  t->hash = tsv_get(s, n, 14);
  if (!t->name || !t->observation || !t->states || !t->hash) {
    fprintf(stderr, "%s:%d:1: error: not a corral TSV result line\n", l->path, lineno);
    return -1;
  }
  return 0;
}

int log_parse(Log *l, const char *path, const char *text) {
  memset(l, 0, sizeof *l);
  l->path = path;
  size_t i = 0;
  int lineno = 1;
  while (text[i]) {
    const char *s = text + i;
    size_t n = line_len(s);
    int rc = 0;
    if (starts(s, n, "Test ")) {
      rc = parse_block(l, text, &i, &lineno);
      if (rc) return rc;
      continue;
    }
    if (n && s[0] == '{') {
      rc = parse_json_line(l, s, n, lineno);
    } else if (starts(s, n, "test\t")) {
      if (!l->header) l->header = dupn(s, n + (s[n] ? 1 : 0));
    } else if (memchr(s, '\t', n)) {
      rc = parse_tsv_line(l, s, n, lineno);
    }
    /* anything else (warnings saved with 2>&1...) is not a result */
    if (rc) return rc;
    i += n + (s[n] ? 1 : 0);
    lineno++;
  }
  return 0;
}

int log_read(Log *l, const char *path) {
  FILE *in = fopen(path, "rb");
  if (!in) {
    memset(l, 0, sizeof *l);
    fprintf(stderr, "%s: error: cannot open log\n", path);
    return -1;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  if (!buf) abort();
  size_t k;
  while ((k = fread(buf + n, 1, cap - n - 1, in)) > 0) {
    n += k;
    if (cap - n < 2) {
      cap *= 2;
      buf = realloc(buf, cap);
      if (!buf) abort();
    }
  }
  fclose(in);
  buf[n] = 0;
  if (strlen(buf) != n) {
    free(buf);
    memset(l, 0, sizeof *l);
    fprintf(stderr, "%s: error: log contains a NUL byte\n", path);
    return -1;
  }
  int rc = log_parse(l, path, buf);
  free(buf);
  return rc;
}

/* ---------------------------------------------------------------- merge */

int cmd_merge(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: corral merge LOG...  (the shards' logs, in shard order)\n");
    return 2;
  }
  int nlogs = argc - 2;
  Log *logs = calloc((size_t)nlogs, sizeof(Log));
  if (!logs) abort();
  int rc = 0;
  for (int k = 0; k < nlogs && rc == 0; k++)
    if (log_read(&logs[k], argv[k + 2])) rc = 1;
  if (rc == 0) {
    for (int k = 0; k < nlogs; k++)
      if (logs[k].header) {
        fputs(logs[k].header, stdout);
        break;
      }
    /* herd7's rule for a repeated name, across the shards as in one run */
    for (int k = 0; k < nlogs; k++)
      for (int i = 0; i < logs[k].n; i++) {
        LogTest *t = &logs[k].v[i];
        const LogTest *seen = NULL;
        int sk = 0;
        for (int a = 0; a <= k && !seen; a++)
          for (int b = 0; b < (a == k ? i : logs[a].n); b++)
            if (!strcmp(logs[a].v[b].name, t->name)) {
              seen = &logs[a].v[b];
              sk = a;
              break;
            }
        if (!seen) {
          fputs(t->text, stdout);
        } else if (strcmp(seen->hash, t->hash) != 0) {
          /* herd7 keeps the first and warns, naming the two files; the
           * logs do not hold test file names, so name the two results */
          fprintf(stderr,
                  "%s:%d:1: warning: different hashes for test %s (previous result at %s:%d); "
                  "this one is dropped, as in one run\n",
                  argv[k + 2], t->line, t->name, argv[sk + 2], seen->line);
        }
      }
  }
  for (int k = 0; k < nlogs; k++) log_free(&logs[k]);
  free(logs);
  return rc;
}
