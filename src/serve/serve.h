/*
 * serve.h — corral serve: a playground on loopback (libmicrohttpd).
 *
 *   server.c   the command line, the HTTP daemon, routing, the page
 *   api.c      POST /run: one simulation as JSON; GET /api/info
 *   json.c     JSON writing and the request reader
 *   page/      the page (HTML, CSS, JS) and examples/, embedded in the
 *              binary by the generator embed.c (build/serve_assets.c)
 *
 * Nothing is written to disk: tests and pasted models are simulated from
 * memory (corral_run_text), graphs are rendered by piping dot text
 * through graphviz's `dot -Tsvg`.  Every request is bounded: the size of
 * its input, a wall-clock deadline (checked in the engine's search loop
 * and the model's long loops, and by the graphviz pipe), and a number of
 * candidates; each simulation runs in a forked process with its own
 * memory and CPU bounds (server.c), so that a failure ends one request.
 */
#ifndef CORRAL_SERVE_H
#define CORRAL_SERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ServeConfig {
  const char *libdir;     /* corral's own models */
  char **opts;            /* herd options for every run: name, arg (or NULL) pairs */
  int nopts;              /* pairs */
  char **models;          /* the model names a request may choose, sorted */
  int nmodels;
  double max_seconds;     /* wall clock per request */
  uint64_t max_candidates;
  size_t max_input;       /* bytes of the test, and of a pasted model */
  uint64_t max_memory;    /* address space of a run's process; 0: none */
  int max_graphs;         /* executions drawn per request */
  bool have_dot;          /* graphviz's dot is on PATH */
  const int *stopping;    /* set when the server shuts down: runs stop */
} ServeConfig;

/* An embedded file (build/serve_assets.c). */
typedef struct ServeAsset {
  const char *path;       /* "/index.html", "/examples/SB.litmus" */
  const char *type;       /* its Content-Type */
  const unsigned char *data;
  size_t len;
} ServeAsset;
extern const ServeAsset serve_assets[];
extern const int serve_nassets;

/* POST /run: the JSON answer (malloc'ed) and its HTTP status. */
char *api_run(const ServeConfig *c, const char *body, size_t len, int *http_status);
/* GET /api/info: models, examples and limits, as JSON (malloc'ed). */
char *api_info(const ServeConfig *c);

/* The `corral serve` command (argv[0] is "serve"). */
int serve_main(int argc, char **argv, const char *libdir);

#endif
