/*
 * explain_dot.c — an Explanation as dot graphs (-explain with -o DIR): one
 * digraph per explained execution, events clustered by thread in program
 * order, rf and co in grey, and the witness — the failing cycle, or for an
 * accepted execution the cycle sequential consistency forbids — in red
 * with its relations' names.  Plain on purpose: the graph writer of
 * pictures (-o, src/report/dot_write.c) draws executions in herd7's style.
 */
#include <string.h>

#include "explain.h"

/* A dot string: values may be labels, spelled label:"P1:L0". */
static void escaped(StrBuf *b, const char *s) {
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') sb_putc(b, '\\');
    sb_putc(b, *s);
  }
}

static void quoted(StrBuf *b, const char *s) {
  sb_putc(b, '"');
  escaped(b, s);
  sb_putc(b, '"');
}

/* "s1: s2" */
static void quoted2(StrBuf *b, const char *s1, const char *s2) {
  sb_putc(b, '"');
  escaped(b, s1);
  sb_puts(b, ": ");
  escaped(b, s2);
  sb_putc(b, '"');
}

static void node_id(const ExExec *ex, int e, StrBuf *b) { quoted(b, ex->ev[e].name); }

static void dot_edge(const ExExec *ex, const ExEdge *e, const char *attrs, StrBuf *b) {
  sb_puts(b, "  ");
  node_id(ex, e->a, b);
  sb_puts(b, " -> ");
  node_id(ex, e->b, b);
  sb_printf(b, " [%s", attrs);
  if (e->label) {
    sb_puts(b, ", label=");
    quoted(b, e->label);
  }
  sb_puts(b, "];\n");
}

static void dot_exec(const Explanation *x, const ExExec *ex, int k, StrBuf *b) {
  sb_puts(b, "digraph \"");
  escaped(b, x->p->test->name);
  sb_printf(b, "-%d\" {\n  node [shape=none];\n  label=", k);
  if (ex->group >= 0) {
    const ExGroup *g = &x->groups.data[ex->group];
    quoted2(b, g->name ? g->name : "check", g->text);
  } else {
    quoted(b, "witness");
  }
  sb_puts(b, ";\n");
  int maxt = -1;
  for (int e = 0; e < ex->nev; e++)
    if (ex->ev[e].thread > maxt) maxt = ex->ev[e].thread;
  for (int t = -1; t <= maxt; t++) {
    int prev = -1;
    for (int e = 0; e < ex->nev; e++) {
      const ExEvent *xe = &ex->ev[e];
      if (!xe->listed || xe->thread != t) continue;
      if (prev < 0) {
        if (t >= 0) sb_printf(b, "  subgraph cluster_P%d { label=\"P%d\";\n", t, t);
        else sb_puts(b, "  subgraph cluster_init { label=\"init\";\n");
      }
      sb_puts(b, "    ");
      node_id(ex, e, b);
      sb_puts(b, " [label=");
      quoted2(b, xe->name, xe->desc);
      sb_puts(b, "];\n");
      if (prev >= 0 && t >= 0) {
        sb_puts(b, "    ");
        node_id(ex, prev, b);
        sb_puts(b, " -> ");
        node_id(ex, e, b);
        sb_puts(b, " [label=\"po\", color=black];\n");
      }
      prev = e;
    }
    if (prev >= 0) sb_puts(b, "  }\n");
  }
  for (int i = 0; i < ex->nrf; i++) {
    ExEdge e = ex->rf[i];
    e.label = "rf";
    dot_edge(ex, &e, "color=grey", b);
  }
  for (int i = 0; i < ex->nco; i++) {
    ExEdge e = ex->co[i];
    e.label = "co";
    dot_edge(ex, &e, "color=grey, style=dashed", b);
  }
  const ExEdge *w = ex->group >= 0 ? ex->fine : ex->sc;
  int nw = ex->group >= 0 ? ex->nfine : ex->nsc;
  for (int i = 0; i < nw; i++) dot_edge(ex, &w[i], "color=red, fontcolor=red, penwidth=2", b);
  sb_puts(b, "}\n");
}

void explain_dot_exec(const Explanation *x, int k, StrBuf *b) {
  dot_exec(x, &x->execs.data[k], k, b);
}

void explain_dot(const Explanation *x, StrBuf *b) {
  for (int i = 0; i < x->execs.len; i++) dot_exec(x, &x->execs.data[i], i, b);
}
