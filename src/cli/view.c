/*
 * view.c — -view VIEWER (-gv, -evince, -preview): after each test, show
 * its graphs as herd7 does: the test's .dot file turned into PostScript
 * (gv) or PDF (evince, macOS's Preview) by graphviz, and the viewer run on
 * it, waiting until it is closed.  Without -o the graphs go to a
 * temporary directory.  A viewer (or graphviz) that is not installed is
 * said once, in one line, and the run goes on without pictures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

/* Whether a program is on PATH. */
static bool on_path(const char *prog) {
  const char *path = getenv("PATH");
  if (!path) return false;
  char buf[4096];
  for (const char *p = path; *p;) {
    size_t n = strcspn(p, ":");
    snprintf(buf, sizeof buf, "%.*s/%s", (int)n, n ? p : ".", prog);
    if (access(buf, X_OK) == 0) return true;
    p += n + (p[n] == ':');
  }
  return false;
}

int view_prepare(Viewer *v, corral_options *o) {
  memset(v, 0, sizeof *v);
  const char *want = NULL, *s;
  for (int i = 0; (s = corral_option_nth(o, "view", i)); i++) want = s;
  if (!want) return 0;
  const char *graph = NULL;
  for (int i = 0; (s = corral_option_nth(o, "graph", i)); i++) graph = s;
  v->render = graph && !strcmp(graph, "columns") ? "neato" : "dot";
  if (!strcasecmp(want, "gv")) v->prog = "gv", v->ext = "ps";
  else if (!strcasecmp(want, "evince")) v->prog = "evince", v->ext = "pdf";
  else v->prog = "open", v->ext = "pdf"; /* macOS: open -a Preview */
#ifndef __APPLE__
  if (!strcasecmp(want, "preview")) {
    fprintf(stderr, "corral: -view preview: Preview is macOS's viewer, not available here; "
                    "graphs not shown\n");
    return 0;
  }
#endif
  if (!on_path(v->prog) || !on_path(v->render)) {
    fprintf(stderr, "corral: -view %s: %s is not installed; graphs not shown\n", want,
            on_path(v->prog) ? v->render : v->prog);
    return 0;
  }
  v->preview = !strcasecmp(want, "preview");
  v->dir = NULL;
  for (int i = 0; (s = corral_option_nth(o, "o", i)); i++) v->dir = s;
  if (!v->dir) {
    snprintf(v->tmp, sizeof v->tmp, "/tmp/corral-view-XXXXXX");
    if (!mkdtemp(v->tmp)) {
      fprintf(stderr, "corral: -view: cannot make a temporary directory; graphs not shown\n");
      return 0;
    }
    char *msg = NULL;
    corral_option(o, "-o", v->tmp, &msg);
    free(msg);
    v->dir = v->tmp;
  }
  v->suffix = "";
  for (int i = 0; (s = corral_option_nth(o, "suffix", i)); i++) v->suffix = s;
  v->on = true;
  return 0;
}

/* Run argv, waiting for it; its output is not herd's: to /dev/null. */
static void run_quiet(char *const argv[], const char *out) {
  pid_t pid = fork();
  if (pid < 0) return;
  if (pid == 0) {
    if (!freopen(out ? out : "/dev/null", "w", stdout)) _exit(127);
    if (!freopen("/dev/null", "w", stderr)) _exit(127);
    execvp(argv[0], argv);
    _exit(127);
  }
  int st;
  waitpid(pid, &st, 0);
}

void view_test(Viewer *v, const char *path) {
  if (!v->on) return;
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t n = strlen(base);
  if (n > 7 && !strcmp(base + n - 7, ".litmus")) n -= 7;
  char dot[4096], pic[4200];
  snprintf(dot, sizeof dot, "%s/%.*s%s.dot", v->dir, (int)n, base, v->suffix);
  if (access(dot, R_OK) != 0) return;
  snprintf(pic, sizeof pic, "%.*s.%s", (int)(strlen(dot) - 4), dot, v->ext);
  char flag[8];
  snprintf(flag, sizeof flag, "-T%s", v->ext);
  char *render[] = {(char *)v->render, flag, dot, NULL};
  run_quiet(render, pic);
  if (v->preview) {
    char *show[] = {"open", "-a", "Preview", pic, NULL};
    run_quiet(show, NULL);
  } else {
    char *show[] = {(char *)v->prog, pic, NULL};
    run_quiet(show, NULL);
  }
  unlink(pic);
  if (*v->tmp) unlink(dot);
}

void view_free(Viewer *v) {
  if (*v->tmp) rmdir(v->tmp);
  memset(v, 0, sizeof *v);
}
