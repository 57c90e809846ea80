/*
 * herdmsg.c — herd7's own lines for failures, printed before corral's
 * located diagnostics so that scripts written for herd7 find what they
 * look for.  The Linux kernel's tools/memory-model scripts, for one,
 * capture stderr with stdout and search it for ": Unknown macro NAME"; a
 * test that fails there is reported as using a primitive the model does
 * not know.
 *
 * herd7 (herd.ml, the loop over test files) reports a test it could not
 * run as
 *     Warning: File "FILE": MESSAGE (User error)
 * ("(User error)" only for the errors it classes as the user's) and goes
 * on with the next file.  corral's message is turned into herd7's where
 * herd7's wording is known (the table below), else kept as it is.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The message of corral's diagnostic: the rest of its first line after
 * "error: " (diagnostics start "FILE:LINE:COL: error: ", "FILE: error: "
 * or "error: "); NULL when there is none. */
static char *diag_message(const char *diag) {
  if (!diag) return NULL;
  const char *s = strstr(diag, "error: ");
  const char *eol = strchr(diag, '\n');
  if (!s || (eol && s > eol)) return NULL;
  s += strlen("error: ");
  size_t n = eol ? (size_t)(eol - s) : strlen(s);
  char *m = malloc(n + 1);
  if (!m) abort();
  memcpy(m, s, n);
  m[n] = 0;
  return m;
}

static char *printf_alloc(const char *fmt, const char *a, const char *b, const char *c) {
  int n = snprintf(NULL, 0, fmt, a, b, c);
  char *s = malloc((size_t)n + 1);
  if (!s) abort();
  snprintf(s, (size_t)n + 1, fmt, a, b, c);
  return s;
}

/* corral's wording -> herd7's, for the messages herd7 words otherwise.
 * `user`: herd7 classes it as a user error (adds "(User error)"). */
static const struct {
  const char *corral;     /* a prefix of corral's message */
  const char *herd;       /* herd7's message; %s is what follows the prefix */
  bool user;
} wording[] = {
    {"unknown macro or function ", "Unknown macro %s", true},
    {"thread ", "Bad process P%s", false},  /* "thread N does not exist" */
};

/* Prefixes of corral messages that herd7 raises as Warn.fatal. */
static const char *const fatal_prefixes[] = {
    "Non symbolic location with no initial write: ",
    "illegal shift immediate ",
    "I_CMPXCHG not implemented",
    "I_MOVSD not implemented",
};

char *herd_test_warning(const char *path, const char *diag) {
  char *m = diag_message(diag);
  char *text = NULL;
  bool user = true;
  const char *nl = "";
  if (!m) {
    text = strdup("cannot simulate this test");
  } else if (!strcmp(m, "cannot open file")) {
    /* herd7 words it after OCaml's open_in, with the system's reason */
    FILE *f = fopen(path, "r");
    int e = f ? 0 : errno;
    if (f) fclose(f);
    text = printf_alloc("open_in failed: %s: %s%s", path, e ? strerror(e) : "cannot read", "");
    user = false;
  } else {
    for (size_t i = 0; i < sizeof wording / sizeof wording[0] && !text; i++) {
      size_t l = strlen(wording[i].corral);
      if (strncmp(m, wording[i].corral, l) != 0) continue;
      const char *rest = m + l;
      char arg[256];
      size_t k = strcspn(rest, " ");
      if (k >= sizeof arg) continue;
      memcpy(arg, rest, k);
      arg[k] = 0;
      if (i == 1 && strcmp(rest + k, " does not exist") != 0) continue;
      text = printf_alloc(wording[i].herd, arg, "", "");
      user = wording[i].user;
    }
    if (!text) text = strdup(m);
    /* herd's Warn.fatal messages: no "(User error)"; the one of mem.ml
     * ends with a newline of its own */
    for (size_t i = 0; i < sizeof fatal_prefixes / sizeof fatal_prefixes[0]; i++)
      if (!strncmp(m, fatal_prefixes[i], strlen(fatal_prefixes[i]))) user = false;
    if (!strncmp(m, fatal_prefixes[0], strlen(fatal_prefixes[0]))) nl = "\n";
  }
  /* herd's parse errors are located: line, characters (0-based, end
   * excluded) of the token */
  int l, c;
  size_t pl = strlen(path);
  char loc[64] = "";
  if (m && !strncmp(m, "unexpected '", 12) && strstr(m, "' (in ") && diag &&
      !strncmp(diag, path, pl) && sscanf(diag + pl, ":%d:%d:", &l, &c) == 2) {
    int tl = (int)(strstr(m, "' (in ") - (m + 12));
    snprintf(loc, sizeof loc, ", line %d, characters %d-%d", l, c - 1, c - 1 + tl);
  }
  char *line = printf_alloc("Warning: File \"%s\"%s: %s", path, loc, text);
  char *full = printf_alloc("%s%s\n", line, user ? " (User error)" : nl, "");
  free(line);
  line = full;
  free(text);
  free(m);
  return line;
}

char *herd_fatal_line(const char *diag) {
  /* a model or bell file not found (no position: named on the command
   * line or in a configuration file) */
  static const char prefix[] = "error: cannot find file ";
  if (!diag || strncmp(diag, prefix, strlen(prefix)) != 0) return NULL;
  const char *name = diag + strlen(prefix);
  size_t n = strcspn(name, " \n");
  char *line = malloc(n + 64);
  if (!line) abort();
  snprintf(line, n + 64, "corral: Cannot find file %.*s\n", (int)n, name);
  return line;
}
