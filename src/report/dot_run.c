/*
 * dot_run.c — the graph run of one test: the engine again, in capture
 * mode, with dot_sink; then DIR/NAME.dot and, with -graph-format, the
 * pictures graphviz's `dot` renders from it (one per execution:
 * DIR/NAME.svg, or DIR/NAME-1.svg, DIR/NAME-2.svg... when there are
 * several).  See dot.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dot.h"

static char *msgf(const char *fmt, const char *a, const char *b) {
  size_t n = strlen(fmt) + strlen(a) + (b ? strlen(b) : 0) + 1;
  char *m = xmalloc(n);
  snprintf(m, n, fmt, a, b ? b : "");
  return m;
}

static bool write_text(const char *path, const char *text, char **msg) {
  FILE *f = fopen(path, "w");
  if (!f) {
    *msg = msgf("%s: error: cannot write graph file (%s)", path, strerror(errno));
    return false;
  }
  fputs(text, f);
  if (fclose(f) != 0) {
    *msg = msgf("%s: error: cannot write graph file (%s)", path, strerror(errno));
    return false;
  }
  return true;
}

/* graphviz's `cmd` -Tfmt in -o out, its stderr kept in err_path; exit
 * status, 127 when the command could not be run. */
static int run_graphviz(const char *cmd, const char *fmt, const char *in, const char *out,
                        const char *err_path) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, 2);
      close(fd);
    }
    char tflag[16];
    snprintf(tflag, sizeof tflag, "-T%s", fmt);
    execlp(cmd, cmd, tflag, in, "-o", out, (char *)NULL);
    _exit(127);
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return -1;
  if (!WIFEXITED(st)) return -1;
  return WEXITSTATUS(st);
}

static void free_run(DotRun *r) {
  for (int i = 0; i < r->execs.len; i++) free(r->execs.data[i].key);
  vec_free(r->execs);
  vec_free(r->seen_es);
  arena_free(&r->arena);
  free(r);
}

static bool render(const DotRun *r, const char *base, char **msg) {
  static const char *const ext[] = {"dot", "svg", "png", "pdf"};
  const char *fmt = ext[r->o->format];
  Arena a;
  arena_init(&a);
  bool ok = true;
  for (int i = 0; i < r->execs.len && ok; i++) {
    StrBuf b;
    sb_init(&b);
    dot_write_exec(r->o, r->legend, &r->execs.data[i], true, &b);
    const char *stem = r->execs.len == 1 ? base : arena_printf(&a, "%s-%d", base, i + 1);
    const char *in = arena_printf(&a, "%s.%s.dot", stem, fmt);
    const char *out = arena_printf(&a, "%s.%s", stem, fmt);
    const char *errp = arena_printf(&a, "%s.%s.err", stem, fmt);
    ok = write_text(in, sb_cstr(&b), msg);
    sb_free(&b);
    if (!ok) break;
    /* columns pin every node: neato honours positions, dot does not */
    const char *cmd = r->o->layout == DOT_COLUMNS ? "neato" : "dot";
    int rc = run_graphviz(cmd, fmt, in, out, errp);
    if (rc == 127 || rc < 0) {
      char what[64];
      snprintf(what, sizeof what, "%s needs graphviz's `%s`", fmt, cmd);
      *msg = msgf("%s: error: -graph-format %s command, which was not found (install graphviz, "
                  "or use -graph-format dot)", in, what);
      unlink(in); /* nothing to look at: the .dot file of the test stays */
      unlink(errp);
      ok = false;
    } else if (rc != 0) {
      *msg = msgf("%s: error: graphviz failed (see %s)", in, errp);
      ok = false;
    } else {
      unlink(in);
      unlink(errp);
    }
  }
  arena_free(&a);
  return ok;
}

/* The capture run: a DotRun holding the selected executions, or NULL on
 * an error of the run (in err). */
static DotRun *collect(Program *p, const CProg *prog, const EngineOpts *eo, const DotOpts *o,
                       const char *model_title, Err *err) {
  DotRun *r = xcalloc(1, sizeof *r);
  arena_init(&r->arena);
  r->o = o;
  r->p = p;
  r->legend = arena_printf(&r->arena, "Test %s, %s", p->test->name, model_title);
  EngineOpts e = *eo;
  /* -dumpes wants every structure: rejected candidates too */
  e.run_mode = o->dumpes ? RUN_EXPLAIN : RUN_CAPTURE;
  e.exec_sink = dot_sink;
  e.sink_ctx = r;
  /* pictures are of real executions: no early stop on the condition */
  e.speedcheck = SPEED_FALSE;
  Arena a;
  arena_init(&a);
  Outcome out;
  volatile bool ok = false;
  ErrJmp j;
  err_push(err, &j);
  if (setjmp(j.jb) == 0) {
    engine_run(p, prog, &e, &out, &a, err);
    err_pop(err, &j);
    outcome_free(&out);
    ok = true;
  }
  arena_free(&a);
  if (!ok) {
    free_run(r);
    return NULL;
  }
  dot_sort_execs(r);
  return r;
}

char **dot_pictures(Program *p, const CProg *prog, const EngineOpts *eo, const DotOpts *o,
                    const char *model_title, int *n, Err *err) {
  DotRun *r = collect(p, prog, eo, o, model_title, err);
  *n = 0;
  if (!r) return NULL;
  char **v = xcalloc((size_t)r->execs.len + 1, sizeof(char *));
  for (int i = 0; i < r->execs.len; i++) {
    StrBuf b;
    sb_init(&b);
    dot_write_exec(r->o, r->legend, &r->execs.data[i], true, &b);
    v[i] = xstrdup(sb_cstr(&b));
    sb_free(&b);
  }
  *n = r->execs.len;
  free_run(r);
  return v;
}

char *dot_out_base(const DotOpts *o, const char *path) {
  mkdir(o->dir, 0777); /* may exist; fopen reports what matters */
  const char *file = strrchr(path, '/');
  file = file ? file + 1 : path;
  const char *ext = strrchr(file, '.');
  int n = ext && ext != file ? (int)(ext - file) : (int)strlen(file);
  const char *suffix = o->suffix ? o->suffix : "";
  char *base = xmalloc(strlen(o->dir) + (size_t)n + strlen(suffix) + 2);
  sprintf(base, "%s/%.*s%s", o->dir, n, file, suffix);
  return base;
}

bool dot_run(Program *p, const CProg *prog, const EngineOpts *eo, const DotOpts *o,
             const char *model_title, Err *err, char **msg) {
  *msg = NULL;
  DotRun *r = collect(p, prog, eo, o, model_title, err);
  if (!r) return false;
  char *base = dot_out_base(o, p->test->file);
  StrBuf b;
  sb_init(&b);
  dot_write(r, &b);
  char *path = xmalloc(strlen(base) + 8);
  sprintf(path, "%s.dot", base);
  bool ok = write_text(path, sb_cstr(&b), msg);
  sb_free(&b);
  free(path);
  if (ok && o->format != DOT_FMT_DOT) {
    ok = render(r, base, msg);
    /* herd writes the empty .dot file; a picture asked for and not made
     * deserves a word */
    if (ok && r->execs.len == 0)
      *msg = msgf("%s.dot: note: no execution to draw with -show %s, so no picture "
                  "(-show all draws every execution the model allows)",
                  base, dot_show_name(o));
  }
  free(base);
  free_run(r);
  return ok;
}
