/*
 * options.h — the option set of a session (private to src/core).
 */
#ifndef CORRAL_OPTIONS_H
#define CORRAL_OPTIONS_H

#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>

#include "../cat/interp.h"
#include "../exec/engine.h"
#include "../report/explain.h"

typedef struct ModelCache ModelCache;

enum { FORMAT_HERD, FORMAT_JSON, FORMAT_TSV };

typedef struct DisplayOpt {
  char *key, *value;
} DisplayOpt;

struct corral_options {
  char *libdir;
  char *model, *bell, *macros;
  char **includes;
  int nincludes;
  char **variants;
  int nvariants;
  char **skipchecks;
  int nskip;
  Through through;
  bool strictskip;
  SpeedCheck speedcheck;
  bool checkfilter, archcheck, hexa, candidates;
  bool natives;            /* -natives: run known cat functions natively */
  bool dumpallfaults;      /* -dumpallfaults: states show every fault */
  int unroll;
  int verbose;
  int jobs;                /* worker threads per test */
  uint64_t maxcandidates;
  bool has_maxphantom;     /* -maxphantom given: at most maxphantom */
  long maxphantom;         /* spurious updates per structure (TTHM=) */
  double timeout;
  unsigned long long maxmemory; /* MiB of address space (corral's CLI sets it); 0: none */
  /* -explain, -explain-all, -explain-format (0 text, 1 json) */
  bool explain, explain_all;
  int explain_format;
  /* the re-check test's look at each explained execution (not an option) */
  ExplainProbe explain_probe;
  void *explain_probe_ctx;
  int format;              /* -format: FORMAT_HERD, FORMAT_JSON, FORMAT_TSV */
  /* picture options, kept for the graph writer */
  DisplayOpt *display;
  int ndisplay;
  int conf_depth;
  ModelCache *cache;
  /* corral_options_set_stream: where plain text blocks are written as
   * they are formatted (not an option) */
  FILE *stream;
};

#endif
