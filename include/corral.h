/*
 * corral.h — the public interface of libcorral, a herd7-compatible
 * axiomatic memory-model simulator.
 *
 * Usage:
 *   corral_options *o = corral_options_new(libdir);
 *   corral_option(o, "-model", "ppc.cat", &msg);   // herd7's options
 *   corral_result r;
 *   corral_run_file(o, "test.litmus", &r);         // thread-safe: one
 *   fputs(r.output, stdout); ...                   // options, many tests
 *   corral_result_free(&r);
 *   corral_options_free(o);
 *
 * The library keeps no global mutable state: every run works on its own
 * data, so tests may be simulated in parallel threads sharing one
 * corral_options (which must not be modified while runs are active).
 */
#ifndef CORRAL_H
#define CORRAL_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CORRAL_VERSION "0.1"
/* The herd7 version whose behaviour corral reproduces. */
#define CORRAL_HERD_VERSION "7.58"

typedef struct corral_options corral_options;

/* libdir: the directory of corral's own model files (may be NULL). */
corral_options *corral_options_new(const char *libdir);
void corral_options_free(corral_options *o);

/* Number of arguments option `name` ("-model") takes: 0 or 1; -1 if the
 * option is unknown. */
int corral_option_arity(const char *name);

/* The known option closest to an unknown `name` ("-modle" -> "-model"),
 * for "did you mean" messages; NULL when none is close. */
const char *corral_option_suggest(const char *name);

/* Apply one option as herd7 would (configuration files named by -conf are
 * read here).  Returns 0, or -1 with *msg set to a malloc'ed message. */
int corral_option(corral_options *o, const char *name, const char *arg,
                  char **msg);

/* The i-th value (0: the first) given to an option that the corral
 * command acts on itself, by its name without '-': "exit", "view",
 * "names", "excl"; a picture option ("o", "suffix", "graph"); or "note",
 * the one-line notes about the options corral ignores.  NULL after the
 * last. */
const char *corral_option_nth(const corral_options *o, const char *key, int i);
/* The library directory (-set-libdir, or the one given at creation). */
const char *corral_options_libdir(const corral_options *o);

typedef enum corral_status {
  CORRAL_OK = 0,      /* the test ran: output holds herd7's block */
  CORRAL_ETEST = 1,   /* this test failed (syntax, semantics...): diag */
  CORRAL_EFATAL = 2,  /* the model cannot be used (missing, bad syntax) */
} corral_status;

typedef struct corral_result {
  corral_status status;
  char *output;       /* herd7's text block, or NULL */
  char *diag;         /* diagnostics for stderr, or NULL */
  char *name;         /* test name, when the test parsed */
  char hash[33];      /* its hash identity (see herd7's duplicate rule) */
  double seconds;     /* CPU time of the simulation */
  /* corral_run_text only (NULL / 0 otherwise): */
  char **graphs;      /* the executions -show selects, as dot pictures */
  int ngraphs;
  char *explain_json; /* -explain: the explanation as JSON (output has the text) */
  char **explain_graphs; /* and one graph per explained execution, witness in red */
  int nexplain_graphs;
  int stopped;        /* a bound (candidates, time, deadline, cancel) stopped it */
} corral_result;

/* Simulate one litmus file. */
corral_status corral_run_file(const corral_options *o, const char *path,
                              corral_result *r);
void corral_result_free(corral_result *r);

/* Have corral_run_file write a test's text block (the default format,
 * without -explain or -o) to `to` as it is formatted, the output of tests
 * with hundreds of thousands of states not held in memory: r->output then
 * holds "".  For one test at a time (the blocks of parallel runs would
 * mix); NULL turns it off. */
void corral_options_set_stream(corral_options *o, FILE *to);

/* What to print once before the first result: the TSV column names with
 * -format tsv, else NULL. */
const char *corral_output_header(const corral_options *o);
/* -maxmemory: the bound, in bytes, of the address space the program
 * should set (setrlimit RLIMIT_AS) before it runs tests; 0: none. */
unsigned long long corral_memory_bound(const corral_options *o);

/* One test given as text, for programs that embed libcorral (corral
 * serve): nothing is read or written but the model files. */
typedef struct corral_source {
  const char *name;      /* the test's file name in diagnostics */
  const char *text;      /* the litmus test */
  const char *cat_name;  /* the pasted model's file name in diagnostics */
  const char *cat_text;  /* a pasted model (its includes are found on the
                            search path), or NULL: -model or the default */
  int graphs;            /* fill r->graphs (the -show option selects) */
  double deadline;       /* CLOCK_MONOTONIC seconds: stop after; 0: none */
  const int *cancel;     /* stop once *cancel is non-zero; NULL: none */
} corral_source;

corral_status corral_run_text(const corral_options *o, const corral_source *s,
                              corral_result *r);

/* herd7-style usage text. */
const char *corral_usage(void);

#ifdef __cplusplus
}
#endif

#endif
