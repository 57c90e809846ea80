/*
 * main.c — the corral command: herd7's command line over libcorral.
 *
 * Options are applied left to right; every other argument is a litmus
 * file (or @FILE, a list of files, one per line).  Tests run in order and
 * their blocks are printed in order.  As in herd7, a second test with an
 * already seen name is skipped when its hash is the same, and reported on
 * stderr when it differs.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "corral.h"
#include "serve/serve.h"

#ifndef CORRAL_LIBDIR
#define CORRAL_LIBDIR "/usr/local/share/corral/models"
#endif

/* corral's own models: <dir of the executable>/models in a build tree,
 * else the installed library. */
static char *default_libdir(void) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) {
      *slash = 0;
      static const char *const cands[] = {"%s/models", "%s/../models", "%s/../share/corral/models"};
      for (size_t i = 0; i < sizeof cands / sizeof cands[0]; i++) {
        char buf[PATH_MAX + 32];
        snprintf(buf, sizeof buf, cands[i], exe);
        struct stat st;
        if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode)) return strdup(buf);
      }
    }
  }
  return strdup(CORRAL_LIBDIR);
}

typedef struct Seen {
  char *name, *hash, *file;
} Seen;

typedef struct Files {
  char **v;
  int n, cap;
} Files;

static void add_file(Files *f, const char *s) {
  if (f->n == f->cap) {
    f->cap = f->cap ? 2 * f->cap : 16;
    f->v = realloc(f->v, sizeof(char *) * (size_t)f->cap);
    if (!f->v) abort();
  }
  f->v[f->n++] = strdup(s);
}

static int add_list(Files *f, const char *list) {
  FILE *in = fopen(list, "r");
  if (!in) {
    fprintf(stderr, "corral: cannot open %s\n", list);
    return -1;
  }
  char line[PATH_MAX + 2];
  while (fgets(line, sizeof line, in)) {
    size_t l = strlen(line);
    while (l && (line[l - 1] == '\n' || line[l - 1] == '\r' || line[l - 1] == ' ')) line[--l] = 0;
    char *s = line;
    while (*s == ' ' || *s == '\t') s++;
    if (!*s || *s == '#') continue;
    add_file(f, s);
  }
  fclose(in);
  return 0;
}

int main(int argc, char **argv) {
  char *libdir = default_libdir();
  if (argc > 1 && !strcmp(argv[1], "serve")) {
    int st = serve_main(argc - 1, argv + 1, libdir);
    free(libdir);
    return st;
  }
  corral_options *o = corral_options_new(libdir);
  free(libdir);
  Files files = {0};
  int status = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-version") || !strcmp(a, "--version")) {
      printf("corral %s (herd7 %s compatible)\n", CORRAL_VERSION, CORRAL_HERD_VERSION);
      corral_options_free(o);
      return 0;
    }
    if (!strcmp(a, "-help") || !strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(corral_usage(), stdout);
      corral_options_free(o);
      return 0;
    }
    if (a[0] == '-' && a[1]) {
      int ar = corral_option_arity(a);
      if (ar < 0) {
        fprintf(stderr, "corral: %s: unknown option\n%s", a, corral_usage());
        corral_options_free(o);
        return 2;
      }
      const char *arg = NULL;
      if (ar == 1) {
        if (i + 1 >= argc) {
          fprintf(stderr, "corral: option %s needs an argument\n", a);
          corral_options_free(o);
          return 2;
        }
        arg = argv[++i];
      }
      char *msg = NULL;
      if (corral_option(o, a, arg, &msg) != 0) {
        fprintf(stderr, "corral: %s\n", msg ? msg : "bad option");
        free(msg);
        corral_options_free(o);
        return 2;
      }
      continue;
    }
    if (a[0] == '@') {
      if (add_list(&files, a + 1)) status = 1;
      continue;
    }
    add_file(&files, a);
  }
  if (files.n == 0) {
    /* herd7 reads the list of files from stdin */
    char line[PATH_MAX + 2];
    while (fgets(line, sizeof line, stdin)) {
      size_t l = strlen(line);
      while (l && (line[l - 1] == '\n' || line[l - 1] == '\r')) line[--l] = 0;
      if (l) add_file(&files, line);
    }
  }
  Seen *seen = calloc((size_t)files.n + 1, sizeof(Seen));
  int nseen = 0;
  for (int i = 0; i < files.n; i++) {
    corral_result r;
    corral_status st = corral_run_file(o, files.v[i], &r);
    bool print = st == CORRAL_OK;
    if (r.name) {
      for (int k = 0; k < nseen; k++) {
        if (strcmp(seen[k].name, r.name) != 0) continue;
        if (strcmp(seen[k].hash, r.hash) != 0)
          fprintf(stderr,
                  "Warning: File \"%s\": Different hashes for test %s (previous file %s) (User error)\n",
                  files.v[i], r.name, seen[k].file);
        print = false;
        st = CORRAL_OK; /* already reported or identical */
        goto seen_done;
      }
      seen[nseen].name = strdup(r.name);
      seen[nseen].hash = strdup(r.hash);
      seen[nseen].file = files.v[i];
      nseen++;
    }
  seen_done:
    if (print && r.output) fputs(r.output, stdout);
    if (r.diag && (st != CORRAL_OK || print)) fputs(r.diag, stderr);
    fflush(stdout);
    if (st == CORRAL_EFATAL) {
      /* the model cannot be used: no test can run (herd7 exits 2 too) */
      corral_result_free(&r);
      status = 2;
      break;
    }
    if (st != CORRAL_OK) status = 1;
    corral_result_free(&r);
  }
  for (int k = 0; k < nseen; k++) {
    free(seen[k].name);
    free(seen[k].hash);
  }
  free(seen);
  for (int i = 0; i < files.n; i++) free(files.v[i]);
  free(files.v);
  corral_options_free(o);
  return status;
}
