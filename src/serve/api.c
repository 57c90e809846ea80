/*
 * api.c — the JSON API of corral serve.
 *
 * POST /run takes {"litmus": TEXT, "model": NAME, "cat": TEXT,
 * "show": "prop"|"neg"|"all"|"none", "explain": BOOL} and answers with
 * herd7's text block, the parts a page shows (states as a table, the
 * observation and its counts, each error with its file, line and column),
 * the graphs of the executions -show selects (dot text, and SVG when
 * graphviz is installed) and, with explain, the explanation (text, the
 * JSON object of -explain-format json, and its graphs, the witness in
 * red).  The states and counts are read back from the text block, whose
 * format is herd7's and fixed (../shared/spec/output.md), so the page and
 * the command line cannot disagree.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "corral.h"
#include "json.h"
#include "report/json.h"
#include "serve.h"

extern char **environ;

/* File names a request's texts get in diagnostics. */
#define TEST_NAME "test.litmus"
#define CAT_NAME "model.cat"

static double mono_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *finish(StrBuf *b, int status, int *http_status) {
  *http_status = status;
  sb_cstr(b);
  return b->s;
}

/* {"ok":false,"status":KIND,"errors":[{"message":MSG}]} */
static char *refuse(int http, const char *kind, const char *msg, int *http_status) {
  StrBuf b;
  sb_init(&b);
  sb_puts(&b, "{\"ok\":false,\"status\":");
  jb_str(&b, kind);
  sb_puts(&b, ",\"errors\":[{\"where\":\"request\",\"line\":0,\"col\":0,\"message\":");
  jb_str(&b, msg);
  sb_puts(&b, "}]}\n");
  return finish(&b, http, http_status);
}

/* ------------------------------------------------------ graphviz pipe */

/* dot text -> SVG through `dot -Tsvg`, bounded by the deadline and in
 * size; NULL when graphviz failed or took too long.  Pipes only: the
 * descriptors are close-on-exec so that a concurrent spawn in another
 * thread cannot keep them open (which would hide the end of file). */
static char *render_svg(const char *dot, double deadline) {
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0) return NULL;
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]);
    close(in[1]);
    return NULL;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  char *argv[] = {"dot", "-Tsvg", NULL};
  pid_t pid;
  int rc = posix_spawnp(&pid, "dot", &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(in[0]);
  close(out[1]);
  if (rc != 0) {
    close(in[1]);
    close(out[0]);
    return NULL;
  }
  fcntl(in[1], F_SETFL, O_NONBLOCK);
  fcntl(out[0], F_SETFL, O_NONBLOCK);
  StrBuf svg;
  sb_init(&svg);
  size_t sent = 0, total = strlen(dot);
  bool ok = true, eof = false;
  enum { MAX_SVG = 8 << 20 };
  while (!eof) {
    double left = deadline - mono_now();
    if (left <= 0 || svg.len > MAX_SVG) {
      ok = false;
      break;
    }
    struct pollfd p[2] = {{out[0], POLLIN, 0}, {in[1], POLLOUT, 0}};
    int np = in[1] >= 0 ? 2 : 1;
    int n = poll(p, (nfds_t)np, (int)(left * 1000) + 1);
    if (n < 0 && errno != EINTR) {
      ok = false;
      break;
    }
    if (np == 2 && (p[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t w = write(in[1], dot + sent, total - sent);
      if (w > 0) sent += (size_t)w;
      if (w < 0 && errno != EAGAIN && errno != EINTR) sent = total; /* dot is gone */
      if (sent == total) {
        close(in[1]);
        in[1] = -1;
      }
    }
    if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      char buf[16384];
      ssize_t r = read(out[0], buf, sizeof buf);
      if (r > 0) sb_putn(&svg, buf, (size_t)r);
      else if (r == 0) eof = true;
      else if (errno != EAGAIN && errno != EINTR) {
        ok = false;
        break;
      }
    }
  }
  if (in[1] >= 0) close(in[1]);
  close(out[0]);
  if (!ok) kill(pid, SIGKILL);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
  if (!ok || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    sb_free(&svg);
    return NULL;
  }
  /* from the <svg element on: the XML prologue and doctype cannot be inlined */
  char *start = strstr(sb_cstr(&svg), "<svg");
  char *res = start ? strdup(start) : NULL;
  sb_free(&svg);
  return res;
}

/* "graphs":[{"dot":...,"svg":...},...] */
static void put_graphs(StrBuf *b, const ServeConfig *c, char **dots, int n, int max,
                       double deadline) {
  sb_puts(b, "[");
  for (int i = 0; i < n && i < max; i++) {
    sb_puts(b, i ? ",{\"dot\":" : "{\"dot\":");
    jb_str(b, dots[i]);
    char *svg = c->have_dot ? render_svg(dots[i], deadline) : NULL;
    sb_puts(b, ",\"svg\":");
    jb_str(b, svg);
    free(svg);
    sb_puts(b, "}");
  }
  sb_puts(b, "]");
}

/* --------------------------------------------------- reading the block */

/* A line of text: [s, e). */
typedef struct Line {
  const char *s, *e;
} Line;

static bool next_line(const char **p, Line *l) {
  if (!**p) return false;
  l->s = *p;
  const char *nl = strchr(*p, '\n');
  l->e = nl ? nl : *p + strlen(*p);
  *p = nl ? nl + 1 : l->e;
  return true;
}

static bool starts(const Line *l, const char *w) {
  size_t n = strlen(w);
  return (size_t)(l->e - l->s) >= n && memcmp(l->s, w, n) == 0;
}

/* One state line "0:EAX=0; 1:EAX=1;" into its values (the columns are
 * the same on every line: herd prints the same locations). */
static void put_state(StrBuf *b, const Line *l, bool header) {
  sb_puts(b, "[");
  const char *p = l->s;
  bool first = true;
  while (p < l->e) {
    while (p < l->e && *p == ' ') p++;
    const char *semi = p;
    while (semi < l->e && !(*semi == ';' && (semi + 1 == l->e || semi[1] == ' '))) semi++;
    if (semi == p) break;
    const char *eq = p;
    while (eq < semi && *eq != '=') eq++;
    if (!first) sb_puts(b, ",");
    first = false;
    if (header) json_string_n(b, p, (size_t)(eq - p));
    else json_string_n(b, eq < semi ? eq + 1 : eq, eq < semi ? (size_t)(semi - eq - 1) : 0);
    p = semi + 1;
  }
  sb_puts(b, "]");
}

/* The members read from herd's block: test, states, ok, positive,
 * negative, condition, observation, flags. */
static void put_block_parts(StrBuf *b, const char *out) {
  const char *p = out;
  Line l;
  long nstates = -1;
  bool first_row = true;
  StrBuf rows, flags;
  sb_init(&rows);
  sb_init(&flags);
  bool nflags = false;
  Line header = {NULL, NULL};
  while (next_line(&p, &l)) {
    if (nstates < 0 && starts(&l, "States ")) {
      nstates = strtol(l.s + 7, NULL, 10);
      for (long i = 0; i < nstates && next_line(&p, &l); i++) {
        if (!header.s) header = l;
        sb_puts(&rows, first_row ? "" : ",");
        first_row = false;
        put_state(&rows, &l, false);
      }
    } else if (l.e - l.s == 2 && starts(&l, "Ok")) {
      sb_puts(b, ",\"ok_line\":\"Ok\"");
    } else if (l.e - l.s == 2 && starts(&l, "No")) {
      sb_puts(b, ",\"ok_line\":\"No\"");
    } else if (starts(&l, "Positive: ")) {
      long pos = 0, neg = 0;
      sscanf(l.s, "Positive: %ld Negative: %ld", &pos, &neg);
      sb_printf(b, ",\"positive\":%ld,\"negative\":%ld", pos, neg);
    } else if (starts(&l, "Condition ")) {
      sb_puts(b, ",\"condition\":");
      json_string_n(b, l.s + 10, (size_t)(l.e - l.s - 10));
    } else if (starts(&l, "Flag ")) {
      sb_puts(&flags, nflags ? "," : "");
      nflags = true;
      json_string_n(&flags, l.s + 5, (size_t)(l.e - l.s - 5));
    } else if (starts(&l, "Observation ")) {
      /* Observation NAME KIND P N */
      const char *w = l.s + 12;
      const char *sp = memchr(w, ' ', (size_t)(l.e - w));
      if (sp) {
        const char *k = sp + 1;
        const char *sp2 = memchr(k, ' ', (size_t)(l.e - k));
        sb_puts(b, ",\"observation\":");
        json_string_n(b, k, (size_t)((sp2 ? sp2 : l.e) - k));
      }
      break;
    }
  }
  sb_puts(b, ",\"states\":{\"columns\":");
  if (header.s) put_state(b, &header, true);
  else sb_puts(b, "[]");
  sb_puts(b, ",\"rows\":[");
  sb_puts(b, sb_cstr(&rows));
  sb_puts(b, "]},\"flags\":[");
  sb_puts(b, sb_cstr(&flags));
  sb_puts(b, "]");
  sb_free(&rows);
  sb_free(&flags);
}

/* Diagnostics "FILE:LINE:COL: error: MSG" (or warning), one a line, as
 * {"where","file","line","col","severity","message"}. */
static void put_errors(StrBuf *b, const char *diag) {
  sb_puts(b, "[");
  bool first = true;
  const char *p = diag ? diag : "";
  Line l;
  while (next_line(&p, &l)) {
    if (l.e == l.s) continue;
    const char *sev = "error";
    const char *mark = NULL;
    for (const char *q = l.s; q < l.e && !mark; q++) {
      if ((size_t)(l.e - q) >= 9 && !memcmp(q, ": error: ", 9)) mark = q;
      else if ((size_t)(l.e - q) >= 11 && !memcmp(q, ": warning: ", 11)) mark = q, sev = "warning";
    }
    if (!mark && first == false) continue; /* continuation lines stay in diag */
    long line = 0, col = 0;
    const char *file_end = mark ? mark : l.s;
    if (mark) {
      /* FILE[:LINE[:COL]] — the numbers from the right */
      const char *q = mark;
      long nums[2];
      int k = 0;
      while (k < 2) {
        const char *d = q;
        while (d > l.s && d[-1] >= '0' && d[-1] <= '9') d--;
        if (d == q || d == l.s || d[-1] != ':') break;
        nums[k++] = strtol(d, NULL, 10);
        q = d - 1;
      }
      file_end = q;
      if (k == 2) line = nums[1], col = nums[0];
      else if (k == 1) line = nums[0];
    }
    const char *msg = mark ? mark + (sev[0] == 'e' ? 9 : 11) : l.s;
    size_t flen = (size_t)(file_end - l.s);
    const char *where = "other";
    if (mark && flen == strlen(TEST_NAME) && !memcmp(l.s, TEST_NAME, flen)) where = "litmus";
    else if (mark && flen == strlen(CAT_NAME) && !memcmp(l.s, CAT_NAME, flen)) where = "cat";
    sb_puts(b, first ? "{" : ",{");
    first = false;
    sb_puts(b, "\"where\":");
    jb_str(b, where);
    sb_puts(b, ",\"file\":");
    json_string_n(b, l.s, mark ? flen : 0);
    sb_printf(b, ",\"line\":%ld,\"col\":%ld,\"severity\":\"%s\",\"message\":", line, col, sev);
    json_string_n(b, msg, (size_t)(l.e - msg));
    sb_puts(b, "}");
  }
  sb_puts(b, "]");
}

/* ------------------------------------------------------------- POST /run */

static bool model_offered(const ServeConfig *c, const char *name) {
  for (int i = 0; i < c->nmodels; i++)
    if (!strcmp(c->models[i], name)) return true;
  return false;
}

/* Apply one option; false with a message into err. */
static bool opt(corral_options *o, const char *name, const char *arg, char *err, size_t cap) {
  char *msg = NULL;
  if (corral_option(o, name, arg, &msg) == 0) return true;
  snprintf(err, cap, "%s", msg ? msg : "bad option");
  free(msg);
  return false;
}

static const char *string_member(const JObject *req, const char *key) {
  const JMember *m = json_get(req, key);
  return m && m->kind == J_STRING ? m->str : NULL;
}

/* The options of one run, from the request; NULL with a message. */
static corral_options *request_options(const ServeConfig *c, const JObject *req, bool pasted,
                                       char *err, size_t cap) {
  corral_options *o = corral_options_new(c->libdir);
  const char *model = string_member(req, "model");
  const char *show = string_member(req, "show");
  const JMember *ex = json_get(req, "explain");
  char nshow[16], maxc[32];
  snprintf(nshow, sizeof nshow, "%d", c->max_graphs);
  snprintf(maxc, sizeof maxc, "%llu", (unsigned long long)c->max_candidates);
  bool ok = true;
  for (int i = 0; i < c->nopts && ok; i++)
    ok = opt(o, c->opts[2 * i], c->opts[2 * i + 1], err, cap);
  if (ok && !pasted && model && *model && strcmp(model, "default") != 0) {
    if (!model_offered(c, model)) {
      snprintf(err, cap, "unknown model '%.100s' (see /api/info)", model);
      ok = false;
    } else {
      ok = opt(o, "-model", model, err, cap);
    }
  }
  if (ok && show && *show) {
    static const char *const shows[] = {"prop", "neg", "all", "none"};
    bool known = false;
    for (size_t i = 0; i < sizeof shows / sizeof *shows; i++) known |= !strcmp(show, shows[i]);
    if (!known) {
      snprintf(err, cap, "show must be prop, neg, all or none");
      ok = false;
    } else {
      ok = opt(o, "-show", show, err, cap);
    }
  }
  /* one thread per request: requests run side by side instead */
  if (ok) ok = opt(o, "-nshow", nshow, err, cap) && opt(o, "-j", "1", err, cap);
  if (ok && c->max_candidates) ok = opt(o, "-maxcandidates", maxc, err, cap);
  if (ok && ex && ex->kind == J_BOOL && ex->b) ok = opt(o, "-explain", NULL, err, cap);
  if (!ok) {
    corral_options_free(o);
    return NULL;
  }
  return o;
}

/* The explanation's text: the block's part after its first Hash= line. */
static const char *explain_part(const char *out) {
  const char *h = out ? strstr(out, "\nHash=") : NULL;
  if (!h) return NULL;
  const char *nl = strchr(h + 1, '\n');
  return nl && nl[1] ? nl + 1 : NULL;
}

char *api_run(const ServeConfig *c, const char *body, size_t len, int *http_status) {
  JObject req;
  char err[512];
  if (!json_parse_object(body, len, &req, err, sizeof err))
    return refuse(400, "bad-request", err, http_status);
  const char *litmus = string_member(&req, "litmus");
  const char *cat = string_member(&req, "cat");
  if (cat && !*cat) cat = NULL;
  if (!litmus) {
    json_object_free(&req);
    return refuse(400, "bad-request", "the request needs \"litmus\": the test's text", http_status);
  }
  if (strlen(litmus) > c->max_input || (cat && strlen(cat) > c->max_input)) {
    json_object_free(&req);
    snprintf(err, sizeof err, "input too large (at most %zu bytes per text)", c->max_input);
    return refuse(413, "too-large", err, http_status);
  }
  corral_options *o = request_options(c, &req, cat != NULL, err, sizeof err);
  if (!o) {
    json_object_free(&req);
    return refuse(400, "bad-request", err, http_status);
  }
  const JMember *ex = json_get(&req, "explain");
  bool explain = ex && ex->kind == J_BOOL && ex->b;
  double t0 = mono_now();
  corral_source src = {TEST_NAME, litmus, CAT_NAME, cat, 1, t0 + c->max_seconds, c->stopping};
  corral_result r;
  corral_status st = corral_run_text(o, &src, &r);
  double wall = mono_now() - t0;

  StrBuf b;
  sb_init(&b);
  const char *kind = st == CORRAL_OK ? "ok" : r.stopped ? "stopped"
                     : st == CORRAL_EFATAL          ? "model-error"
                                                    : "test-error";
  sb_printf(&b, "{\"ok\":%s,\"status\":\"%s\",\"test\":", st == CORRAL_OK ? "true" : "false",
            kind);
  jb_str(&b, r.name);
  sb_puts(&b, ",\"output\":");
  const char *xp = explain_part(r.output);
  if (r.output) json_string_n(&b, r.output, xp ? (size_t)(xp - r.output) : strlen(r.output));
  else sb_puts(&b, "null");
  sb_puts(&b, ",\"diag\":");
  jb_str(&b, r.diag);
  sb_puts(&b, ",\"errors\":");
  put_errors(&b, st == CORRAL_OK ? NULL : r.diag);
  sb_puts(&b, ",\"warnings\":");
  put_errors(&b, st == CORRAL_OK ? r.diag : NULL);
  if (r.output) put_block_parts(&b, r.output);
  /* graphs share what is left of the request's time */
  double deadline = t0 + c->max_seconds;
  sb_puts(&b, ",\"graphs\":");
  put_graphs(&b, c, r.graphs, r.ngraphs, c->max_graphs, deadline);
  sb_printf(&b, ",\"ngraphs\":%d", r.ngraphs);
  if (explain && st == CORRAL_OK) {
    sb_puts(&b, ",\"explain_text\":");
    jb_str(&b, xp);
    sb_puts(&b, ",\"explain\":");
    sb_puts(&b, r.explain_json ? r.explain_json : "null");
    sb_puts(&b, ",\"explain_graphs\":");
    put_graphs(&b, c, r.explain_graphs, r.nexplain_graphs, c->max_graphs, deadline);
  }
  sb_printf(&b, ",\"graphviz\":%s,\"seconds\":%.3f,\"wall\":%.3f}\n",
            c->have_dot ? "true" : "false", r.seconds, wall);
  corral_result_free(&r);
  corral_options_free(o);
  json_object_free(&req);
  return finish(&b, 200, http_status);
}

/* ---------------------------------------------------------- GET /api/info */

char *api_info(const ServeConfig *c) {
  StrBuf b;
  sb_init(&b);
  sb_printf(&b, "{\"version\":\"%s\",\"herd\":\"%s\",\"models\":[", CORRAL_VERSION,
            CORRAL_HERD_VERSION);
  for (int i = 0; i < c->nmodels; i++) {
    if (i) sb_puts(&b, ",");
    jb_str(&b, c->models[i]);
  }
  sb_puts(&b, "],\"examples\":[");
  bool first = true;
  for (int i = 0; i < serve_nassets; i++) {
    const char *p = serve_assets[i].path;
    if (strncmp(p, "/examples/", 10) != 0) continue;
    if (!first) sb_puts(&b, ",");
    first = false;
    /* the architecture is the first word of the test */
    const unsigned char *d = serve_assets[i].data;
    size_t k = 0;
    while (k < serve_assets[i].len && d[k] > ' ') k++;
    sb_puts(&b, "{\"path\":");
    jb_str(&b, p);
    sb_puts(&b, ",\"arch\":");
    json_string_n(&b, (const char *)d, k);
    sb_puts(&b, "}");
  }
  sb_printf(&b,
            "],\"limits\":{\"seconds\":%g,\"candidates\":%llu,\"input\":%zu,\"graphs\":%d},"
            "\"graphviz\":%s}\n",
            c->max_seconds, (unsigned long long)c->max_candidates, c->max_input, c->max_graphs,
            c->have_dot ? "true" : "false");
  sb_cstr(&b);
  return b.s;
}
