/*
 * explain.h — why an outcome is forbidden, or how it happens (-explain).
 *
 * The session runs the engine a second time in explain mode with
 * explain_sink as its execution sink.  When the condition is never
 * reached, the sink keeps the candidates whose final state satisfies it,
 * grouped by the first check of the model that rejects them, and for one
 * per group (every one with -explain-all) the witness of that failure: the
 * cycle, pair or event, each edge labelled with the smallest named
 * relation of the model containing it and derived as a path of finer
 * edges (src/cat/witness.c).  When it is reached, the sink keeps one
 * accepted execution that reaches it, with the relations the model shows,
 * the cycle of program order and communications that sequential
 * consistency would forbid, and the order in which each thread observes
 * the writes of others.
 *
 * An Explanation is plain data, independent of the run: the text and JSON
 * printers (explain.c, explain_json.c) and the dot writer (explain_dot.c)
 * only read it.
 */
#ifndef CORRAL_EXPLAIN_H
#define CORRAL_EXPLAIN_H

#include "../exec/engine.h"

typedef struct Explanation Explanation;

/* A look at each execution the sink has just explained, while the engine's
 * relations are still live: `first` is the index of its first new entry in
 * x->execs (== x->execs.len when it kept none).  Used by the re-check test
 * (tests/unit/test_explain.c); NULL otherwise. */
typedef void (*ExplainProbe)(void *ctx, Explanation *x, const ExecView *v, int first);

typedef struct ExplainOpts {
  bool all;          /* -explain-all: every rejected candidate */
  bool reached;      /* the normal run reached the condition (pos > 0) */
  ExplainProbe probe;
  void *probe_ctx;
} ExplainOpts;

/* An event of an explained execution; ExEdge ends are indices in ev. */
typedef struct ExEvent {
  const char *name;  /* "a", "b"...; initial writes "Ix" */
  int thread;        /* -1: initial write */
  bool listed;       /* printed in the event list */
  const char *desc;  /* "W[x]=1", "R[y]=0", "F[sync]" */
  const char *instr; /* its instruction as written, or NULL */
} ExEvent;

typedef struct ExEdge {
  int a, b;
  const char *label; /* a relation of the model containing (a, b) */
} ExEdge;

typedef struct ExRel {
  const char *name;
  ExEdge *e;
  int n;
} ExRel;

/* Thread `thread` reads w1 (read r1) then, later in program order, a value
 * older than w2 (read r2): it observes w1 before w2. */
typedef struct ExObs {
  int thread, w1, w2, r1, r2;
  const char *label; /* of r1 -> r2 */
} ExObs;

typedef struct ExExec {
  ExEvent *ev;
  int nev;
  ExEdge *rf, *co;   /* co: immediate successors only */
  int nrf, nco;
  const char *state; /* final state, as in state lines */
  /* rejected */
  int group;
  CatWitnessKind kind;
  ExEdge *edges;     /* the cycle (kind CW_CYCLE) or the pair (CW_PAIR) */
  int nedges;
  int event;         /* CW_EVENT */
  ExEdge *fine;      /* edges[i] derived as fine[start[i] .. start[i+1]-1] */
  int *start;
  int nfine;
  /* accepted */
  ExRel *shown;
  int nshown;
  ExEdge *sc;        /* a cycle of po | rf | co | fr, or none */
  int nsc;
  ExObs *obs;
  int nobs;
} ExExec;

typedef struct ExGroup {
  const char *name;  /* `as NAME`, or NULL */
  const char *text;  /* "acyclic co | prop" */
  SrcPos pos;
  uint64_t count;    /* rejected executions reaching the condition */
} ExGroup;

struct Explanation {
  Arena arena;
  const Program *p;
  ExplainOpts o;
  uint64_t nreach;   /* candidates reaching the condition, seen */
  VEC(ExGroup) groups;
  VEC(ExExec) execs;
};

Explanation *explain_new(const Program *p, const ExplainOpts *o);
void explain_free(Explanation *x);
/* The run mode the engine needs for these options (RUN_*). */
int explain_run_mode(const ExplainOpts *o);
/* The ExecSink (ctx: the Explanation). */
void explain_sink(void *ctx, const ExecView *v);

typedef enum ExplainFormat { EXPLAIN_TEXT, EXPLAIN_JSON } ExplainFormat;

/* Run the engine again in explain mode and return the explanation (text
 * or JSON, malloc'ed), writing its dot graphs to dot_path unless NULL.
 * NULL on an error of the run, reported in err. */
char *explain_run(Program *p, const CProg *prog, const EngineOpts *eo,
                  const ExplainOpts *xo, ExplainFormat fmt, const char *dot_path,
                  Err *err);

/* The "Explain" section (explain.c) or its JSON object (explain_json.c),
 * ending with a newline. */
void explain_text(const Explanation *x, StrBuf *out);
void explain_json(const Explanation *x, StrBuf *out);
/* A dot graph per explained execution, the witness in red
 * (explain_dot.c). */
void explain_dot(const Explanation *x, StrBuf *out);
/* The graph of execution k alone. */
void explain_dot_exec(const Explanation *x, int k, StrBuf *out);

/* Run the engine again in explain mode and return the Explanation (to be
 * freed with explain_free), for callers that print it several ways; NULL
 * on an error of the run, reported in err. */
Explanation *explain_capture(Program *p, const CProg *prog, const EngineOpts *eo,
                             const ExplainOpts *xo, Err *err);

#endif
