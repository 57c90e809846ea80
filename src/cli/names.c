/*
 * names.c — -names FILE and -excl FILE, herd7's selection of tests by
 * name: with -names, only the tests named in the files run; with -excl,
 * those named there do not.  A file gives one name a line (the line's
 * first word).  Both can be repeated; a name in both is excluded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int add_file(char ***v, int *n, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "corral: open_in failed: %s: cannot open the file of test names\n", path);
    return 2;
  }
  char line[4096];
  while (fgets(line, sizeof line, f)) {
    size_t k = strcspn(line, " \t\r\n");
    line[k] = 0;
    *v = realloc(*v, sizeof(char *) * (size_t)(*n + 1));
    if (!*v) abort();
    (*v)[(*n)++] = strdup(line);
  }
  fclose(f);
  return 0;
}

int names_load(NameFilter *nf, const corral_options *o) {
  memset(nf, 0, sizeof *nf);
  const char *path;
  for (int i = 0; (path = corral_option_nth(o, "names", i)); i++) {
    nf->select = true;
    if (add_file(&nf->keep, &nf->nkeep, path)) return 2;
  }
  for (int i = 0; (path = corral_option_nth(o, "excl", i)); i++)
    if (add_file(&nf->drop, &nf->ndrop, path)) return 2;
  return 0;
}

static bool listed(char **v, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(v[i], name)) return true;
  return false;
}

bool names_skip(const NameFilter *nf, const char *name) {
  if (nf->select && !listed(nf->keep, nf->nkeep, name)) return true;
  return listed(nf->drop, nf->ndrop, name);
}

void names_free(NameFilter *nf) {
  for (int i = 0; i < nf->nkeep; i++) free(nf->keep[i]);
  for (int i = 0; i < nf->ndrop; i++) free(nf->drop[i]);
  free(nf->keep);
  free(nf->drop);
  memset(nf, 0, sizeof *nf);
}
