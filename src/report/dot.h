/*
 * dot.h — execution graphs as herd7 draws them (-o DIR).
 *
 * The session runs the engine a second time in capture mode with
 * dot_sink as its execution sink.  For each accepted execution that the
 * -show option selects, dot_select.c builds a DotExec — plain data: the
 * nodes with herd7's event names and labels, and the labelled edges (po
 * between consecutive instructions, rf, iico, and every relation the model
 * shows, transitively reduced) restricted to the events -showevents and
 * -showinitwrites keep.  dot_write.c prints DotExecs as herd7's dot text
 * in the -graph layout (free, cluster, columns; -squished), with its
 * colours and the picture options.  dot_run.c ties the two to the engine
 * and, with -graph-format svg|png|pdf, runs graphviz's `dot`.
 *
 * herd7's event numbering, which the labels show ("a:", "b:", ... then
 * "ev26:"), is: memory accesses first, thread by thread in program order;
 * then the initial writes, locations in decreasing order; then every other
 * event (fences, branches, register accesses) thread by thread,
 * instruction by instruction, an instruction's register reads before its
 * fence or branch event and its register writes after.
 */
#ifndef CORRAL_DOT_H
#define CORRAL_DOT_H

#include "../exec/engine.h"

typedef enum DotLayout { DOT_FREE, DOT_CLUSTER, DOT_COLUMNS } DotLayout;
typedef enum DotShow {
  DOT_SHOW_PROP, DOT_SHOW_NEG, DOT_SHOW_ALL, DOT_SHOW_COND, DOT_SHOW_WIT, DOT_SHOW_NONE
} DotShow;
typedef enum DotEvents { DOT_EV_ALL, DOT_EV_MEM, DOT_EV_NOREGS, DOT_EV_MEMF } DotEvents;
typedef enum DotFormat { DOT_FMT_DOT, DOT_FMT_SVG, DOT_FMT_PNG, DOT_FMT_PDF } DotFormat;

/* -edgeattr REL,ATTR,VALUE */
typedef struct DotEdgeAttr {
  char *rel, *attr, *value;
} DotEdgeAttr;

typedef struct DotOpts {
  char *dir;                 /* -o DIR; NULL: no graphs */
  DotLayout layout;          /* -graph (default cluster) */
  DotShow show;              /* -show (default prop) */
  int nshow;                 /* -nshow N: at most N executions; 0: all */
  DotEvents events;          /* -showevents (default noregs) */
  bool showinitrf, showfinalrf, showinitwrites, squished, movelabel;
  bool showthread, showlegend, showpo, dumpes;
  char **doshow, **unshow, **showraw;
  int ndoshow, nunshow, nshowraw;
  DotEdgeAttr *attrs;
  int nattrs;
  int fontsize;              /* 0: graphviz's default */
  double scale, xscale, yscale;
  double arrowsize, penwidth, pad; /* 0: not set */
  char *splines;             /* NULL: not set */
  DotFormat format;          /* -graph-format (default dot) */
  char *suffix;              /* -suffix: added to the files' names */
} DotOpts;

/* Check one picture option's argument ("graph", "cluster"); 0 or -1 with
 * a malloc'ed message. */
int dot_opt_check(const char *key, const char *arg, char **msg);
/* Whether option `key` names the directory graphs are written to (-o):
 * the only one that makes a run write graphs at all. */
bool dot_opt_is_dir(const char *key);
/* Apply one picture option (already checked); false if key is not one. */
bool dot_opt_apply(DotOpts *o, const char *key, const char *arg);
void dot_opts_init(DotOpts *o);
void dot_opts_free(DotOpts *o);
/* The -show word of o ("prop", "all", ...). */
const char *dot_show_name(const DotOpts *o);
/* "DIR/STEM", the graph files' name without extension (malloc'ed), for
 * the litmus file at path: STEM is that file's name without directory and
 * extension, as herd7 names it (not the test's name, which may hold a
 * '/'), then -suffix.  Makes DIR, which may exist already. */
char *dot_out_base(const DotOpts *o, const char *path);

/* ------------------------------------------------------- one execution */

enum { DOT_INIT_NODE = -2 };   /* DotEdge end: the single "Init" node */

typedef struct DotNode {
  int eiid;                  /* herd's event number */
  const char *act;           /* "W[x]=1", "Sync", "Branching(bcc)" */
  int proc;                  /* -1: initial write */
  int poi;                   /* instruction index in its thread */
  const char *instr;         /* as herd prints it, or NULL */
  const char *loc;           /* memory events: the location */
  int col_y;                 /* columns: rank from the top of its thread */
  bool data;                 /* shown with " (data)" (data ports, C loads) */
  bool spurious;             /* proc -1: a spurious update (TTHM=), not an
                                initial write */
} DotNode;

typedef enum DotEdgeKind {
  DOT_E_IICO, DOT_E_IICO_CTRL, DOT_E_IICO_ORDER, DOT_E_PO, DOT_E_RF, DOT_E_INITRF, DOT_E_FINALRF, DOT_E_REL
} DotEdgeKind;

typedef struct DotEdge {
  int a, b;                  /* node indices (DotExec.nodes) */
  const char *label;
  DotEdgeKind kind;
} DotEdge;

typedef struct DotExec {
  DotNode *nodes;            /* inits first, then threads in program order */
  int nnodes;
  DotEdge *edges;            /* in the order herd prints them */
  int nedges;
  int nprocs;
  int maxrank;               /* columns: the tallest thread's events - 1 */
  const char *state;         /* final state, as in state lines */
  int *key;                  /* -nshow: herd's enumeration order (heap) */
  int nkey;
} DotExec;

/* The graphs of one test: what the sink collected. */
typedef struct DotRun {
  Arena arena;
  const DotOpts *o;
  const Program *p;
  const char *legend;        /* "Test NAME, Generic(MODEL)" */
  VEC(DotExec) execs;
  VEC(int) seen_es;          /* -dumpes: path choices already dumped */
  uint64_t nshown;
} DotRun;

/* Capture sink (ctx: the DotRun), see dot_select.c; then the executions
 * in herd's order. */
void dot_sink(void *ctx, const ExecView *v);
/* The label of C access or fence e as herd writes it: "W[ONCE][x]=1",
 * "R(Acq)[x]=1", "RMW(Rel)[x](0>1)", "F[MB]" (also used by -explain). */
void dot_c_access_label(const ExecView *v, int e, StrBuf *b);
void dot_sort_execs(DotRun *r);
/* Whether -show selects an execution whose condition is cond_true. */
bool dot_selects(const DotOpts *o, const Program *p, bool cond_true);
/* Transitive reduction r \ (r ; r+), into out (dimension d). */
void dot_reduce(Dim d, const Word *r, Word *out);

/* Write the executions as herd7's dot text (dot_write.c); `picture`:
 * legend with the final state, for rendering. */
void dot_write_exec(const DotOpts *o, const char *legend, const DotExec *x,
                    bool picture, StrBuf *out);
void dot_write(const DotRun *r, StrBuf *out);

/* Run the engine in capture mode and write DIR/NAME.dot (and the
 * pictures).  False on an error, reported in err (run errors) or as a
 * message in *msg (files, graphviz); true with a note in *msg when a
 * picture was asked for and no execution was selected. */
bool dot_run(Program *p, const CProg *prog, const EngineOpts *eo, const DotOpts *o,
             const char *model_title, Err *err, char **msg);

/* The same capture run, returning each selected execution's picture (dot
 * text with the legend, as -graph-format renders) instead of writing
 * files: *n strings, malloc'ed, in a malloc'ed array.  NULL on an error
 * of the run, reported in err.  o->dir is not used. */
char **dot_pictures(Program *p, const CProg *prog, const EngineOpts *eo, const DotOpts *o,
                    const char *model_title, int *n, Err *err);

#endif
