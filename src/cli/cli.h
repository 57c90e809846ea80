/*
 * cli.h — the pieces of the corral command (src/cli): lists of test
 * files, campaigns (many tests, run in parallel, reported in order), and
 * the subcommands over saved logs (merge, compare) and expectations
 * (judge).  Not part of libcorral.
 */
#ifndef CORRAL_CLI_H
#define CORRAL_CLI_H

#include <stdbool.h>

#include "corral.h"

/* ------------------------------------------------------------- heap.c */

/* Before anything else in main: the heap on huge pages where the system
 * allows it (see heap.c for why). */
void heap_prepare(void);
/* One test in this process: its helper threads allocate from the main
 * heap too (call before any thread starts). */
void heap_one_test(void);

/* ------------------------------------------------------------ files.c */

typedef struct Files {
  char **v;
  int n, cap;
} Files;

void files_add(Files *f, const char *path);
/* A command-line argument: a test file; a list file (its base name starts
 * with '@', as in herd7; for "@NAME" when no file of that name exists,
 * the file NAME), whose lines name tests relative to the list's directory
 * (empty lines and lines starting with '#' are skipped; lists may name
 * lists and directories); or a directory, whose *.litmus files are taken
 * recursively in byte order of names.  Returns 0, or -1 after printing an
 * error. */
int files_arg(Files *f, const char *arg);
/* herd7 reads the list from stdin when no file is given. */
void files_stdin(Files *f);
/* Keep the k-th (1-based) of n contiguous, nearly equal slices. */
void files_shard(Files *f, int k, int n);
void files_free(Files *f);

/* --------------------------------------------------------- campaign.c */

/* Called in input order, in the calling thread, with each test's result
 * (freed afterwards); a non-zero return stops the campaign. */
typedef int (*ResultFn)(void *ctx, int i, const char *path, corral_result *r);

/* Run the tests on `workers` threads (<= 1: in the calling thread).  With
 * `progress`, a progress line is kept on stderr.  Returns the last
 * non-zero value of fn, or 0. */
int campaign_run(const corral_options *o, const Files *f, int workers, bool progress,
                 ResultFn fn, void *ctx);

/* ------------------------------------------------------------ names.c */

/* -names FILE, -excl FILE: which tests run, by name. */
typedef struct NameFilter {
  char **keep, **drop;
  int nkeep, ndrop;
  bool select;             /* -names given: only the tests in keep */
} NameFilter;
/* Read the files the options name; 0, or 2 after printing an error. */
int names_load(NameFilter *nf, const corral_options *o);
bool names_skip(const NameFilter *nf, const char *name);
void names_free(NameFilter *nf);

/* ------------------------------------------------------------- view.c */

/* -view VIEWER: show each test's graphs (herd7's -gv, -evince, -preview). */
typedef struct Viewer {
  bool on, preview;
  const char *prog, *ext, *render, *dir, *suffix;
  char tmp[64];            /* the temporary -o directory, if one was made */
} Viewer;
/* From the options: checks that the viewer is installed (else says so
 * once on stderr and stays off) and, without -o, adds a temporary one. */
int view_prepare(Viewer *v, corral_options *o);
/* After a test that ran: render its graphs and run the viewer on them. */
void view_test(Viewer *v, const char *path);
void view_free(Viewer *v);

/* ---------------------------------------------------------- herdmsg.c */

/* herd7's line for a test that could not be run, from corral's
 * diagnostic: "Warning: File \"PATH\": MESSAGE (User error)\n" (malloc'ed). */
char *herd_test_warning(const char *path, const char *diag);
/* herd7's line for a model or bell file that cannot be found,
 * "corral: Cannot find file NAME\n", or NULL for other fatal errors. */
char *herd_fatal_line(const char *diag);

/* herd7's output for a campaign: the blocks in input order, a repeated
 * test name skipped (silently when the hash is the same, with herd7's
 * warning when it differs).  Output goes to `out` (stdout when NULL: a
 * memory buffer otherwise, see Printer). */
typedef struct Printer {
  char **names, **hashes, **files;
  int n, cap;
  int status;              /* 0; 1 (a test failed, with -exit true); 2 (fatal) */
  bool exit_on_fail;       /* -exit true: stop at the first failed test */
  const NameFilter *select; /* -names, -excl (NULL: every test) */
  Viewer *view;            /* -view (NULL: none) */
  char *buf;               /* with to_memory: everything printed */
  size_t len, bufcap;
  bool to_memory;
} Printer;
int printer_result(void *printer, int i, const char *path, corral_result *r);
void printer_free(Printer *p);

/* ------------------------------------------------------------- logs.c */

/* One test of a saved log: herd7 text blocks, JSON lines or TSV lines. */
typedef struct LogTest {
  char *name, *hash;
  char *text;              /* the block or line as saved, with its newline(s) */
  char *observation;       /* Never, Sometimes, Always ("" if absent) */
  char *states;            /* the states, one canonical string */
  int line;                /* where the block or line starts in the log */
} LogTest;

typedef struct Log {
  const char *path;
  LogTest *v;
  int n, cap;
  char *header;            /* a TSV header line, if any */
} Log;

/* Parse a saved log (from memory); returns 0, or -1 with an error printed
 * as PATH:LINE:COL: error: ... */
int log_parse(Log *l, const char *path, const char *text);
int log_read(Log *l, const char *path);
void log_free(Log *l);

/* corral merge LOG...: the logs of the shards, in order, as one run. */
int cmd_merge(int argc, char **argv);
/* corral compare LOG1 LOG2, or corral compare [options] A.cat B.cat TESTS */
int cmd_compare(int argc, char **argv);
/* corral judge [options] TESTS: Observation against the Result: line */
int cmd_judge(int argc, char **argv);

/* exe.c: corral's own models (<dir of the executable>/models in a build
 * tree, else the installed library), and `corral serve`, which runs the
 * corral-serve program (next to corral, else on PATH) with argv. */
char *default_libdir(void);
int exec_serve(char **argv);

/* -------------------------------------------------------------- main.c */

typedef struct CliArgs {
  corral_options *o;
  Files files;
  int shard_k, shard_n;    /* -shard K/N (0: all) */
  int jobs;                /* -j N as given (0: not given) */
  char **extra;            /* positional *.cat arguments (compare) */
  int nextra;
} CliArgs;

/* Parse options and file arguments from argv[from..]; with cats, arguments
 * ending in ".cat" are kept in extra rather than taken as tests.  Returns
 * 0, or an exit status (after printing the error). */
int cli_parse(CliArgs *a, int argc, char **argv, int from, bool cats);
void cli_free(CliArgs *a);
/* cli_parse, and when the command is to stop there (an error, -help,
 * -version) free a and return its exit status; -1 to go on. */
int cli_start(CliArgs *a, int argc, char **argv, int from, bool cats);
/* Run a campaign with the parsed options: -j N splits across tests when
 * there are several, as described in main.c. */
int cli_campaign(CliArgs *a, ResultFn fn, void *ctx);

#endif
