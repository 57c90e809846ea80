/*
 * files.c — the list of test files of a campaign, from the command line:
 * files, herd7's @lists (paths relative to the list's own directory, as
 * the herdtools catalogue's @all files are written), directories, stdin;
 * and -shard K/N.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* A list may name lists; this bounds a list that names itself. */
enum { MAX_LIST_DEPTH = 32 };

static void *grow(void *v, int *cap, size_t size) {
  *cap = *cap ? 2 * *cap : 16;
  v = realloc(v, size * (size_t)*cap);
  if (!v) abort();
  return v;
}

static char *dup(const char *s) {
  char *d = strdup(s);
  if (!d) abort();
  return d;
}

void files_add(Files *f, const char *path) {
  if (f->n == f->cap) f->v = grow(f->v, &f->cap, sizeof(char *));
  f->v[f->n++] = dup(path);
}

void files_free(Files *f) {
  for (int i = 0; i < f->n; i++) free(f->v[i]);
  free(f->v);
  memset(f, 0, sizeof *f);
}

static bool is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool ends_with(const char *s, const char *suf) {
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && !strcmp(s + n - m, suf);
}

static char *join(const char *dir, const char *name) {
  /* herd7 leaves names of a list in "." as they are */
  if (!strcmp(dir, ".") || name[0] == '/') return dup(name);
  size_t n = strlen(dir), m = strlen(name);
  char *s = malloc(n + m + 2);
  if (!s) abort();
  memcpy(s, dir, n);
  s[n] = '/';
  memcpy(s + n + 1, name, m + 1);
  return s;
}

static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return dup(".");
  if (slash == path) return dup("/");
  char *d = dup(path);
  d[slash - path] = 0;
  return d;
}

static int name_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* *.litmus below dir: entries of each directory in byte order, a
 * subdirectory where its name falls (the order does not depend on the
 * file system or the locale). */
static int add_dir(Files *f, const char *dir, int depth) {
  if (depth > MAX_LIST_DEPTH) {
    fprintf(stderr, "%s: error: directories nested too deeply\n", dir);
    return -1;
  }
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "%s: error: cannot read directory\n", dir);
    return -1;
  }
  Files names = {0};
  struct dirent *e;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.') files_add(&names, e->d_name);
  closedir(d);
  if (names.n > 1) qsort(names.v, (size_t)names.n, sizeof(char *), name_cmp);
  int rc = 0;
  for (int i = 0; i < names.n && rc == 0; i++) {
    char *p = join(dir, names.v[i]);
    if (is_dir(p)) rc = add_dir(f, p, depth + 1);
    else if (ends_with(p, ".litmus")) files_add(f, p);
    free(p);
  }
  files_free(&names);
  return rc;
}

static int add_arg(Files *f, const char *arg, int depth);

/* One name per line; see files_arg. */
static int add_lines(Files *f, FILE *in, const char *list, const char *dir, int depth) {
  char line[PATH_MAX + 2];
  int lineno = 0, rc = 0;
  while (rc == 0 && fgets(line, sizeof line, in)) {
    lineno++;
    size_t l = strlen(line);
    if (l == sizeof line - 1 && line[l - 1] != '\n') {
      fprintf(stderr, "%s:%d:1: error: line too long for a file name\n", list, lineno);
      return -1;
    }
    while (l && (line[l - 1] == '\n' || line[l - 1] == '\r' || line[l - 1] == ' ' ||
                 line[l - 1] == '\t'))
      line[--l] = 0;
    char *s = line;
    while (*s == ' ' || *s == '\t') s++;
    if (!*s || *s == '#') continue;
    char *p = join(dir, s);
    rc = add_arg(f, p, depth + 1);
    free(p);
  }
  return rc;
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

static int add_list(Files *f, const char *arg, int depth) {
  if (depth > MAX_LIST_DEPTH) {
    fprintf(stderr, "%s: error: lists nested too deeply (does a list name itself?)\n", arg);
    return -1;
  }
  const char *path = arg;
  FILE *in = fopen(path, "r");
  if (!in && arg[0] == '@') {
    /* "@NAME" for the file NAME, as most tools' response files */
    path = arg + 1;
    in = fopen(path, "r");
  }
  if (!in) {
    fprintf(stderr, "%s: error: cannot open list file\n", arg);
    return -1;
  }
  char *dir = dir_of(path);
  int rc = add_lines(f, in, path, dir, depth);
  free(dir);
  fclose(in);
  return rc;
}

static int add_arg(Files *f, const char *arg, int depth) {
  if (base_name(arg)[0] == '@' || arg[0] == '@') return add_list(f, arg, depth);
  if (is_dir(arg)) {
    int n0 = f->n, rc = add_dir(f, arg, depth);
    /* an empty folder given by mistake: say so, rather than run nothing */
    if (rc == 0 && f->n == n0) {
      fprintf(stderr, "%s: error: no test (*.litmus) in this directory\n", arg);
      return -1;
    }
    return rc;
  }
  files_add(f, arg);
  return 0;
}

int files_arg(Files *f, const char *arg) { return add_arg(f, arg, 0); }

void files_stdin(Files *f) {
  add_lines(f, stdin, "<stdin>", ".", 0);
}

void files_shard(Files *f, int k, int n) {
  long lo = (long)f->n * (k - 1) / n, hi = (long)f->n * k / n;
  for (long i = 0; i < f->n; i++)
    if (i < lo || i >= hi) free(f->v[i]);
  memmove(f->v, f->v + lo, sizeof(char *) * (size_t)(hi - lo));
  f->n = (int)(hi - lo);
}
