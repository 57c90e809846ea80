/*
 * test_dot.c — the graph writer (src/report/dot*.c): herd7's dot text for a
 * hand-made execution in each layout, the picture options, the
 * transitive reduction, which executions -show selects, option checking;
 * then -o DIR end to end through the public API on the bundled example.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "corral.h"
#include "report/dot.h"

static bool has(const char *text, const char *line) {
  return strstr(text, line) != NULL;
}

/* Store buffering, two threads: a: W[x]=1, b: R[y]=0 | c: W[y]=1,
 * d: R[x]=0, initial writes e: W[y]=0 and f: W[x]=0. */
static DotExec sb_exec(DotNode *n, DotEdge *e) {
  DotNode nodes[] = {
      {5, "W[x]=0", -1, 0, NULL, "x", 0, false, false}, {4, "W[y]=0", -1, 0, NULL, "y", 0, false, false},
      {0, "W[x]=1", 0, 0, "MOV [x],1", "x", 0, false, false},
      {1, "R[y]=0", 0, 1, "MOV EAX,[y]", "y", 1, false, false},
      {2, "W[y]=1", 1, 0, "MOV [y],1", "y", 0, false, false},
      {3, "R[x]=0", 1, 1, "MOV EAX,[x]", "x", 1, false, false},
  };
  DotEdge edges[] = {
      {2, 3, "po", DOT_E_PO},  {4, 5, "po", DOT_E_PO},  {1, 3, "rf", DOT_E_RF},
      {0, 5, "rf", DOT_E_RF},  {3, 4, "fr", DOT_E_REL}, {5, 2, "fr", DOT_E_REL},
      {0, 2, "co", DOT_E_REL}, {1, 4, "co", DOT_E_REL},
  };
  memcpy(n, nodes, sizeof nodes);
  memcpy(e, edges, sizeof edges);
  DotExec x = {n, 6, e, 8, 2, 1, "0:EAX=0; 1:EAX=0;", NULL, 0};
  return x;
}

static void test_cluster(void) {
  DotNode n[6];
  DotEdge e[8];
  DotExec x = sb_exec(n, e);
  DotOpts o;
  dot_opts_init(&o);
  StrBuf b;
  sb_init(&b);
  dot_write_exec(&o, "Test SB, Generic(TSO)", &x, false, &b);
  const char *t = sb_cstr(&b);
  CHECK(!strncmp(t, "digraph G {\n", 12));
  CHECK(has(t, "label=\"Test SB, Generic(TSO)\";\n"));
  CHECK(has(t, "eiid5 [label=\"f: W[x]=0\\lInit\", shape=\"box\", color=\"blue\"];\n"));
  CHECK(has(t, "subgraph cluster_proc0 { rank=sink; label = \"Thread 0\"; color=magenta; shape=box;\n"));
  CHECK(has(t, "eiid0 [label=\"a: W[x]=1\\lproc:P0 poi:0\\lMOV [x],1\", shape=\"box\", color=\"blue\"];\n"));
  CHECK(has(t, "eiid0 -> eiid1 [label=\"po\", color=\"black\", fontcolor=\"black\"];\n"));
  CHECK(has(t, "eiid4 -> eiid1 [label=\"rf\", color=\"red\", fontcolor=\"red\"];\n"));
  CHECK(has(t, "eiid5 -> eiid3 [label=\"rf\", color=\"red\", fontcolor=\"red\"];\n"));
  CHECK(has(t, "eiid3 -> eiid0 [label=\"fr\", color=\"#ffa040\", fontcolor=\"#ffa040\"];\n"));
  CHECK(has(t, "eiid5 -> eiid0 [label=\"co\", color=\"blue\", fontcolor=\"blue\"];\n"));
  CHECK(!has(t, "0:EAX=0")); /* herd's legend has no state */
  CHECK(!has(t, "(data)"));
  CHECK(!has(t, "pos="));
  sb_clear(&b);
  n[3].data = true;
  dot_write_exec(&o, "Test SB, Generic(TSO)", &x, false, &b);
  CHECK(has(sb_cstr(&b), "[label=\"b: R[y]=0 (data)\\lproc:P0 poi:1\\lMOV EAX,[y]\""));
  n[3].data = false;
  sb_clear(&b);
  dot_write_exec(&o, "Test SB, Generic(TSO)", &x, true, &b);
  CHECK(has(sb_cstr(&b), "label=\"Test SB, Generic(TSO)\\n0:EAX=0; 1:EAX=0;\";"));
  sb_free(&b);
  dot_opts_free(&o);
}

static void test_columns(void) {
  DotNode n[6];
  DotEdge e[8];
  DotExec x = sb_exec(n, e);
  DotOpts o;
  dot_opts_init(&o);
  dot_opt_apply(&o, "graph", "columns");
  dot_opt_apply(&o, "squished", "true");
  dot_opt_apply(&o, "fontsize", "8");
  dot_opt_apply(&o, "edgeattr", "co,color,green");
  dot_opt_apply(&o, "unshow", "fr");
  StrBuf b;
  sb_init(&b);
  dot_write_exec(&o, "L", &x, false, &b);
  const char *t = sb_cstr(&b);
  /* one node for the initial writes, named by location */
  CHECK(has(t, "eiidinit [label=\"ix: W[x]=0, iy: W[y]=0\", shape=\"none\", fontsize=8, pos=\""));
  CHECK(has(t, "eiidinit -> eiid3 [label=\"rf\""));
  CHECK(has(t, "proc1_label_node [shape=none, fontsize=8, label=\"Thread 1\", pos=\"2.000000,"));
  CHECK(has(t, "eiid0 [label=\"a: W[x]=1\", shape=\"none\", fontsize=8, pos=\"1.000000,0.750000!\""));
  /* -edgeattr colours replace the default, after the others */
  CHECK(has(t, "eiidinit -> eiid2 [label=\"co\", fontsize=8, color=\"green\", fontcolor=\"green\"];\n"));
  CHECK(!has(t, "label=\"fr\""));
  CHECK(has(t, "fontsize=8;\n"));
  sb_free(&b);
  dot_opts_free(&o);
}

static void test_backwards_and_free(void) {
  DotNode n[6];
  DotEdge e[8];
  DotExec x = sb_exec(n, e);
  e[0] = (DotEdge){4, 5, "rf", DOT_E_RF}; /* within the last thread */
  DotOpts o;
  dot_opts_init(&o);
  dot_opt_apply(&o, "graph", "columns");
  StrBuf b;
  sb_init(&b);
  dot_write_exec(&o, "L", &x, false, &b);
  CHECK(has(sb_cstr(&b), "eiid3 -> eiid2 [label=\"rf\", color=\"red\", fontcolor=\"red\", dir=\"back\"];\n"));
  CHECK(has(sb_cstr(&b), "eiidinit [label=\"Init\", shape=\"box\", color=\"blue\"];\n"));
  sb_clear(&b);
  dot_opt_apply(&o, "graph", "free");
  dot_write_exec(&o, "L", &x, false, &b);
  CHECK(has(sb_cstr(&b), "eiid2 -> eiid3 [label=\"rf\", color=\"red\", fontcolor=\"red\"];\n"));
  CHECK(!has(sb_cstr(&b), "subgraph"));
  sb_free(&b);
  dot_opts_free(&o);
}

static void test_reduce(void) {
  Dim d = dim_make(70);
  Word *r = calloc((size_t)rel_words(d), sizeof(Word));
  Word *out = calloc((size_t)rel_words(d), sizeof(Word));
  /* a total order 0 < 1 < ... < 69 reduces to its successor edges */
  for (int i = 0; i < d.n; i++)
    for (int j = i + 1; j < d.n; j++) rel_set(d, r, i, j);
  dot_reduce(d, r, out);
  CHECK_INT(rel_count(d, out), 69);
  CHECK(rel_get(d, out, 68, 69) && !rel_get(d, out, 0, 2));
  /* a relation without paths of two edges is unchanged */
  rel_clear(d, r);
  rel_set(d, r, 0, 1);
  rel_set(d, r, 0, 2);
  rel_set(d, r, 3, 2);
  dot_reduce(d, r, out);
  CHECK(rel_equal(d, r, out));
  free(r);
  free(out);
}

static void test_options(void) {
  char *msg = NULL;
  CHECK_INT(dot_opt_check("graph", "columns", &msg), 0);
  CHECK_INT(dot_opt_check("graph", "rows", &msg), -1);
  CHECK(msg && strstr(msg, "option -graph: wrong argument 'rows'"));
  free(msg);
  CHECK_INT(dot_opt_check("nshow", "-3", &msg), -1);
  free(msg);
  CHECK_INT(dot_opt_check("xscale", "2.5", &msg), 0);
  CHECK_INT(dot_opt_check("edgeattr", "co,color,blue", &msg), 0);
  CHECK_INT(dot_opt_check("edgeattr", "co,,blue", &msg), -1);
  free(msg);
  CHECK_INT(dot_opt_check("graph-format", "gif", &msg), -1);
  free(msg);
  DotOpts o;
  dot_opts_init(&o);
  CHECK(o.layout == DOT_CLUSTER && o.show == DOT_SHOW_PROP && o.events == DOT_EV_NOREGS);
  CHECK(o.showinitwrites && !o.showinitrf && !o.squished);
  CHECK(dot_opt_apply(&o, "show", "neg") && o.show == DOT_SHOW_NEG);
  CHECK(dot_opt_apply(&o, "doshow", "ppo,hb") && o.ndoshow == 2);
  CHECK(!dot_opt_apply(&o, "model", "x.cat"));
  dot_opts_free(&o);
}

/* -o DIR through the public API: the example's store-buffering outcome
 * under our x86-TSO model, its fr cycle drawn. */
static void test_end_to_end(void) {
  char dir[] = "/tmp/corral-dot-XXXXXX";
  if (!mkdtemp(dir)) {
    CHECK(!"mkdtemp");
    return;
  }
  corral_options *o = corral_options_new("models");
  char *msg = NULL;
  CHECK_INT(corral_option(o, "-o", dir, &msg), 0);
  CHECK_INT(corral_option(o, "-show", "prop", &msg), 0);
  corral_result r;
  CHECK_INT(corral_run_file(o, "examples/SB.litmus", &r), CORRAL_OK);
  char path[128];
  snprintf(path, sizeof path, "%s/SB.dot", dir);
  size_t len = 0;
  char *text = read_file(path, &len);
  CHECK(text != NULL);
  if (text) {
    CHECK(has(text, "label=\"Test SB, Generic(x86-TSO)\""));
    CHECK(has(text, "eiid1 [label=\"b: R[flag1]=0\\lproc:P0 poi:1\\lMOV EAX,[flag1]\""));
    CHECK(has(text, "eiid1 -> eiid2 [label=\"fr\""));
    CHECK(has(text, "eiid3 -> eiid0 [label=\"fr\""));
    int graphs = 0;
    for (const char *c = text; (c = strstr(c, "digraph G")); c++) graphs++;
    CHECK_INT(graphs, 1); /* one execution reaches the condition */
    free(text);
  }
  corral_result_free(&r);
  /* pictures without graphviz: a clear error, not a crash */
  const char *saved = getenv("PATH");
  char *keep = saved ? strdup(saved) : NULL;
  setenv("PATH", "/nonexistent", 1);
  CHECK_INT(corral_option(o, "-graph-format", "svg", &msg), 0);
  CHECK(corral_run_file(o, "examples/SB.litmus", &r) != CORRAL_OK);
  CHECK(r.diag && strstr(r.diag, ": error: -graph-format svg needs graphviz's `dot` command"));
  corral_result_free(&r);
  /* nothing selected: no picture to render, a note says so (graphviz
   * is not needed, so PATH may stay broken) */
  CHECK_INT(corral_option(o, "-show", "none", &msg), 0);
  CHECK_INT(corral_run_file(o, "examples/SB.litmus", &r), CORRAL_OK);
  CHECK(r.diag && strstr(r.diag, "SB.dot: note: no execution to draw with -show none"));
  corral_result_free(&r);
  if (keep) setenv("PATH", keep, 1);
  free(keep);
  char side[160];
  snprintf(side, sizeof side, "%s/SB.svg.dot", dir);
  CHECK(access(side, F_OK) != 0); /* no leftovers */
  corral_options_free(o);
  unlink(path);
  rmdir(dir);
}

int main(void) {
  test_cluster();
  test_columns();
  test_backwards_and_free();
  test_reduce();
  test_options();
  test_end_to_end();
  return check_report("test_dot");
}
