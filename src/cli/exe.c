/*
 * exe.c — where corral's executables and models are, found from the
 * running executable (/proc/self/exe) so that a build tree and an
 * installed tree both work without configuration.  Shared by corral and
 * corral-serve.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#ifndef CORRAL_LIBDIR
#define CORRAL_LIBDIR "/usr/local/share/corral/models"
#endif

/* The directory of the running executable into dir; false if unknown. */
static bool exe_dir(char *dir, size_t size) {
  ssize_t n = readlink("/proc/self/exe", dir, size - 1);
  if (n <= 0) return false;
  dir[n] = 0;
  char *slash = strrchr(dir, '/');
  if (!slash) return false;
  *slash = 0;
  return true;
}

char *default_libdir(void) {
  char exe[PATH_MAX];
  if (exe_dir(exe, sizeof exe)) {
    static const char *const cands[] = {"%s/models", "%s/../models", "%s/../share/corral/models"};
    for (size_t i = 0; i < sizeof cands / sizeof cands[0]; i++) {
      char buf[PATH_MAX + 32];
      snprintf(buf, sizeof buf, cands[i], exe);
      struct stat st;
      if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode)) return strdup(buf);
    }
  }
  return strdup(CORRAL_LIBDIR);
}

int exec_serve(char **argv) {
  char exe[PATH_MAX], path[PATH_MAX + 16] = "";
  argv[0] = "corral-serve";
  if (exe_dir(exe, sizeof exe)) {
    snprintf(path, sizeof path, "%s/corral-serve", exe);
    if (access(path, X_OK) == 0) execv(path, argv);
  }
  execvp("corral-serve", argv);
  fprintf(stderr, "corral serve: cannot run corral-serve (%s%s%s): %s; it is built and "
                  "installed with corral (make, make install)\n",
          *path ? "looked next to corral, at " : "", path, *path ? ", and on PATH" : "on PATH",
          strerror(errno));
  return 2;
}
