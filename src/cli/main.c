/*
 * main.c — the corral command: herd7's command line over libcorral.
 *
 * Options are applied left to right; every other argument is a litmus
 * file, an @list or a directory (files.c).  Tests run in order and their
 * blocks are printed in order.  As in herd7, a second test with an
 * already seen name is skipped when its hash is the same, and reported on
 * stderr when it differs.
 *
 * -j N: with one test, N threads share that test's search (the engine
 * splits it); with several, N tests run at once, each on one thread (or
 * N/T threads each when there are only T < N tests); the output is the
 * same.  Subcommands: corral judge, corral compare, corral merge.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli.h"
#include "util/spawn.h"

static const char campaign_usage[] =
    "Subcommands:\n"
    "  corral judge [options] TESTS  check each Observation against the test's Result: line\n"
    "  corral compare LOG1 LOG2  the tests whose Observation or states differ\n"
    "  corral compare [options] A.cat B.cat TESTS  the same for two models\n"
    "  corral merge LOG...  the logs of shards, in order, as one run\n"
    "  corral serve [--port N]  the playground, on http://127.0.0.1:8080/\n";

static int parse_shard(CliArgs *a, const char *s) {
  int k, n;
  char tail;
  if (sscanf(s, "%d/%d%c", &k, &n, &tail) != 2 || n < 1 || k < 1 || k > n) {
    fprintf(stderr, "corral: option -shard: wrong argument '%s' (expected K/N, 1 <= K <= N)\n", s);
    return 2;
  }
  a->shard_k = k;
  a->shard_n = n;
  return 0;
}

int cli_parse(CliArgs *a, int argc, char **argv, int from, bool cats) {
  memset(a, 0, sizeof *a);
  /* corral's own models are the library unless -set-libdir comes before
   * anything that looks a file up in it (-conf): then finding them (a
   * readlink and a stat, and two pages of stack) is not needed */
  bool own_libdir = true;
  for (int i = from; i < argc && own_libdir; i++) {
    if (!strcmp(argv[i], "-conf")) break;
    if (!strcmp(argv[i], "-set-libdir") && i + 1 < argc) own_libdir = false;
  }
  char *libdir = own_libdir ? default_libdir() : NULL;
  a->o = corral_options_new(libdir);
  free(libdir);
  bool any_file = false;
  for (int i = from; i < argc; i++) {
    const char *s = argv[i];
    if (!strcmp(s, "-version") || !strcmp(s, "--version")) {
      printf("corral %s (herd7 %s compatible)\n", CORRAL_VERSION, CORRAL_HERD_VERSION);
      return -1;
    }
    if (!strcmp(s, "-libdir")) {
      puts(corral_options_libdir(a->o));
      return -1;
    }
    if (!strcmp(s, "-help") || !strcmp(s, "--help") || !strcmp(s, "-h")) {
      fputs(corral_usage(), stdout);
      fputs(campaign_usage, stdout);
      return -1;
    }
    if (s[0] == '-' && s[1]) {
      bool ours = !strcmp(s, "-shard");
      int ar = ours ? 1 : corral_option_arity(s);
      if (ar < 0) {
        const char *hint = corral_option_suggest(s);
        /* herd7's words (OCaml's Arg), then a suggestion */
        if (hint)
          fprintf(stderr, "corral: unknown option '%s'. (did you mean %s?)\n%s", s, hint,
                  corral_usage());
        else
          fprintf(stderr, "corral: unknown option '%s'.\n%s", s, corral_usage());
        return 2;
      }
      const char *arg = NULL;
      if (ar == 1) {
        if (i + 1 >= argc) {
          fprintf(stderr, "corral: option '%s' needs an argument.\n", s);
          return 2;
        }
        arg = argv[++i];
      }
      char *msg = NULL;
      if (ours) {
        if (parse_shard(a, arg)) return 2;
        continue;
      }
      if (corral_option(a->o, s, arg, &msg) != 0) {
        /* a message from a configuration file starts with its position */
        fprintf(stderr, "%s%s\n", msg && strstr(msg, ": error: ") ? "" : "corral: ",
                msg ? msg : "bad option");
        free(msg);
        return 2;
      }
      if (!strcmp(s, "-j")) a->jobs = atoi(arg); /* checked by corral_option */
      continue;
    }
    size_t l = strlen(s);
    if (cats && l > 4 && !strcmp(s + l - 4, ".cat")) {
      a->extra = realloc(a->extra, sizeof(char *) * (size_t)(a->nextra + 1));
      if (!a->extra) abort();
      a->extra[a->nextra++] = argv[i];
      continue;
    }
    any_file = true;
    if (files_arg(&a->files, s)) return 2;
  }
  /* options herd7 has and corral ignores: one line each */
  const char *note;
  for (int k = 0; (note = corral_option_nth(a->o, "note", k)); k++)
    fprintf(stderr, "corral: %s\n", note);
  if (!any_file) files_stdin(&a->files);
  if (a->shard_n) files_shard(&a->files, a->shard_k, a->shard_n);
  return 0;
}

int cli_start(CliArgs *a, int argc, char **argv, int from, bool cats) {
  int rc = cli_parse(a, argc, argv, from, cats);
  if (rc == 0 && corral_memory_bound(a->o)) {
    /* -maxmemory: a bound of the address space; past it an allocation
     * fails and corral stops with "out of memory" */
    struct rlimit rl;
    rlim_t want = (rlim_t)corral_memory_bound(a->o);
    if (getrlimit(RLIMIT_AS, &rl) == 0 && (rl.rlim_max == RLIM_INFINITY || want <= rl.rlim_max)) {
      rl.rlim_cur = want;
      setrlimit(RLIMIT_AS, &rl);
    }
  }
  if (rc == 0) return -1;
  cli_free(a);
  return rc < 0 ? 0 : rc;
}

void cli_free(CliArgs *a) {
  files_free(&a->files);
  free(a->extra);
  corral_options_free(a->o);
  memset(a, 0, sizeof *a);
}

int cli_campaign(CliArgs *a, ResultFn fn, void *ctx) {
  int n = a->files.n, workers = 1;
  if (n > 1) {
    int cores = usable_cpus();
    int want = a->jobs ? a->jobs : cores < 64 ? cores : 64;
    workers = want < n ? want : n;
    char per[16];
    snprintf(per, sizeof per, "%d", want / workers > 0 ? want / workers : 1);
    char *msg = NULL;
    corral_option(a->o, "-j", per, &msg);
    free(msg);
  }
  bool progress = n > 1 && isatty(2);
  return campaign_run(a->o, &a->files, workers, progress, fn, ctx);
}

/* ------------------------------------------------------------ printer */

static void emit(Printer *p, const char *s, FILE *to) {
  if (!p->to_memory) {
    fputs(s, to);
    return;
  }
  if (to != stdout) {
    fputs(s, to);
    return;
  }
  size_t l = strlen(s);
  if (p->len + l + 1 > p->bufcap) {
    p->bufcap = (p->len + l + 1) * 2;
    p->buf = realloc(p->buf, p->bufcap);
    if (!p->buf) abort();
  }
  memcpy(p->buf + p->len, s, l + 1);
  p->len += l;
}

int printer_result(void *printer, int i, const char *path, corral_result *r) {
  Printer *p = printer;
  (void)i;
  corral_status st = r->status;
  /* -names, -excl: herd7 does not run the others at all */
  if (p->select && r->name && names_skip(p->select, r->name)) return 0;
  bool print = st == CORRAL_OK;
  if (r->name) {
    int k = 0;
    while (k < p->n && strcmp(p->names[k], r->name) != 0) k++;
    if (k < p->n) {
      if (strcmp(p->hashes[k], r->hash) != 0)
        fprintf(stderr,
                "Warning: File \"%s\": Different hashes for test %s (previous file %s) (User error)\n",
                path, r->name, p->files[k]);
      print = false;
      st = CORRAL_OK; /* already reported, or identical */
    } else {
      if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        p->names = realloc(p->names, sizeof(char *) * (size_t)p->cap);
        p->hashes = realloc(p->hashes, sizeof(char *) * (size_t)p->cap);
        p->files = realloc(p->files, sizeof(char *) * (size_t)p->cap);
        if (!p->names || !p->hashes || !p->files) abort();
      }
      p->names[p->n] = strdup(r->name);
      p->hashes[p->n] = strdup(r->hash);
      p->files[p->n] = strdup(path);
      p->n++;
    }
  }
  if (print && r->output) emit(p, r->output, stdout);
  /* herd7's line first (scripts written for herd7 look for it), then
   * corral's located diagnostic.  A stopped test (-timeout,
   * -maxcandidates) is not a failure to herd7: it prints nothing. */
  char *herd = st == CORRAL_ETEST && !r->stopped ? herd_test_warning(path, r->diag)
               : st == CORRAL_EFATAL             ? herd_fatal_line(r->diag)
                                                 : NULL;
  if (herd) emit(p, herd, stderr);
  free(herd);
  if (r->diag && (st != CORRAL_OK || print)) emit(p, r->diag, stderr);
  if (!p->to_memory) fflush(stdout);
  if (print && p->view) view_test(p->view, path);
  if (st == CORRAL_EFATAL) {
    /* the model cannot be used: no test can run (herd7 exits 2 too) */
    p->status = 2;
    return 2;
  }
  /* As herd7: a test that could not be run does not change the exit
   * status, the run goes on; with -exit true it stops here, status 1. */
  if (st != CORRAL_OK && !r->stopped && p->exit_on_fail) {
    p->status = 1;
    return 1;
  }
  return 0;
}

void printer_free(Printer *p) {
  for (int k = 0; k < p->n; k++) {
    free(p->names[k]);
    free(p->hashes[k]);
    free(p->files[k]);
  }
  free(p->names);
  free(p->hashes);
  free(p->files);
  free(p->buf);
  memset(p, 0, sizeof *p);
}

/* The index of the first argument that is neither an option nor an
 * option's argument (argc if none, or if an unknown option comes first:
 * cli_parse reports it). */
static int first_operand(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i];
    if (s[0] != '-' || !s[1]) return i;
    int ar = !strcmp(s, "-shard") ? 1 : corral_option_arity(s);
    if (ar < 0) return argc;
    i += ar;
  }
  return argc;
}

static bool is_subcommand(const char *s) {
  return !strcmp(s, "judge") || !strcmp(s, "compare") || !strcmp(s, "merge") ||
         !strcmp(s, "serve");
}

int main(int argc, char **argv) {
  heap_prepare();
  int sub = first_operand(argc, argv);
  if (sub > 1 && sub < argc && is_subcommand(argv[sub])) {
    const char *s = argv[sub];
    if (!strcmp(s, "merge") || !strcmp(s, "serve")) {
      bool merge = !strcmp(s, "merge");
      fprintf(stderr, "corral: option %s before '%s': %s (usage: corral %s)\n", argv[1], s,
              merge ? "merge takes no options" : "serve's options go after it",
              merge ? "merge LOG..." : "serve [options]");
      return 2;
    }
    /* judge and compare take corral's options anywhere: move the name
     * first, the options before it keep their order */
    memmove(argv + 2, argv + 1, sizeof(char *) * (size_t)(sub - 1));
    argv[1] = (char *)s;
  }
  if (argc > 1 && !strcmp(argv[1], "judge")) return cmd_judge(argc, argv);
  if (argc > 1 && !strcmp(argv[1], "compare")) return cmd_compare(argc, argv);
  if (argc > 1 && !strcmp(argv[1], "merge")) return cmd_merge(argc, argv);
  if (argc > 1 && !strcmp(argv[1], "serve")) return exec_serve(argv + 1);
  CliArgs a;
  int st = cli_start(&a, argc, argv, 1, false);
  if (st >= 0) return st;
  const char *header = corral_output_header(a.o);
  if (header) fputs(header, stdout);
  Printer p;
  memset(&p, 0, sizeof p);
  NameFilter names;
  Viewer view;
  if (names_load(&names, a.o) || view_prepare(&view, a.o)) {
    names_free(&names);
    cli_free(&a);
    return 2;
  }
  const char *v;
  for (int k = 0; (v = corral_option_nth(a.o, "exit", k)); k++) p.exit_on_fail = !strcmp(v, "true");
  if (names.select || names.ndrop) p.select = &names;
  if (view.on) p.view = &view;
  /* one test: its block goes to stdout as it is formatted (a chain test
   * prints hundreds of thousands of states) */
  if (a.files.n == 1) {
    corral_options_set_stream(a.o, stdout);
    heap_one_test();
  }
  cli_campaign(&a, printer_result, &p);
  int status = p.status;
  printer_free(&p);
  names_free(&names);
  view_free(&view);
  cli_free(&a);
  return status;
}
