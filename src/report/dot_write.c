/*
 * dot_write.c — DotExecs as herd7's dot text: one `digraph G` per
 * execution, in herd's sections (legend, init events, events by thread,
 * iico, po, rf, then the model's relations), with herd's colours, layout
 * attributes and picture options.  See dot.h.
 *
 * Columns layout: threads are columns (x = thread), events go down in
 * program order (y = rank), and graphviz is told the positions (`pos`
 * with `!`, for neato); the initial writes are one node above.  An edge
 * within the last column, or going up across an odd number of columns, is
 * written reversed with dir=back so that its label lands on the side with
 * room; an edge across an even number of columns has its label moved to
 * the tail (-movelabel).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dot.h"

/* ------------------------------------------------------------ colours */

typedef struct EdgeStyle {
  const char *color, *style;
} EdgeStyle;

/* herd's colour of an edge label: looked up by the label up to and
 * including its first ':' ("po:1" -> "po:"), else the whole label. */
static bool style_of(const char *label, EdgeStyle *out) {
  /* one row per colour: the labels, blank-separated */
  static const struct {
    const char *names, *color;
  } table[] = {
      {" rf ", "red"},
      {" vo: seq ", "magenta"},
      {" po po: iico iico_data CY ", "black"},
      {" iico_ctrl ", "grey"},
      {" iico_order ", "darkgrey"},
      {" grf A/B: ppo-ext: ppoext membar: poloc w*w* ppo-direct ", "brown"},
      {" ppo-sela ", "#00b000"},
      {" fr ", "#ffa040"},
      {" lwfence lwf ffence ff implied mfence dmb lwsync eieio sync dmb-cumul dsb dmb.st "
       "dsb.st dmb.ld dsb.ld dmb.sy dsb.sy dmbst dsbst dsb-cumul sync-cumul lwsync-cumul "
       "sync_cumul lwsync_cumul syncext lwsyncext dmbext dsbext ",
       "darkgreen"},
      {" A B co ws Before ", "blue"},
      {" LL LS PML ll ls pml isync dep ctrl data addr ctrlisync isb ctrlisb ppo success ",
       "indigo"},
      {" iico_control ", "grey"},
      {" After ", "orange"},
  };
  char key[66];
  const char *colon = strchr(label, ':');
  size_t n = colon ? (size_t)(colon - label + 1) : strlen(label);
  if (n > 63 || n == 0 || memchr(label, ' ', n)) return false;
  key[0] = ' ';
  memcpy(key + 1, label, n);
  key[n + 1] = ' ';
  key[n + 2] = 0;
  for (size_t i = 0; i < ARRAY_LEN(table); i++)
    if (strstr(table[i].names, key)) {
      out->color = table[i].color;
      out->style = strstr(" After Before CY ", key) ? "setlinewidth(3)" : "";
      return true;
    }
  return false;
}

/* ------------------------------------------------------------ writing */

typedef struct W {
  const DotOpts *o;
  const DotExec *x;
  StrBuf *b;
  bool oneinit;              /* columns: one node for all initial writes */
  double xscale, yscale;     /* inches per column, per rank */
  double maxy;               /* y of the initial writes */
  int maxrank;
  int lastproc;
  bool place;                /* picture in columns: every node pinned */
  bool picture;
} W;

static void escaped(StrBuf *b, const char *s) {
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') sb_putc(b, '\\');
    sb_putc(b, *s);
  }
}

static void event_name(StrBuf *b, int eiid) {
  if (eiid < 26) sb_printf(b, "%c", 'a' + eiid);
  else sb_printf(b, "ev%d", eiid);
}

static void node_id(const W *w, int k, StrBuf *b) {
  const DotNode *n = &w->x->nodes[k];
  if (w->oneinit && n->proc < 0) sb_puts(b, "eiidinit");
  else sb_printf(b, "eiid%d", n->eiid);
}

static double posy(const W *w, const DotNode *n) {
  return n->proc < 0 ? w->maxy : (double)(w->maxrank - n->col_y);
}

static void fontsize_attr(const W *w, char sep) {
  if (w->o->fontsize) sb_printf(w->b, "%c fontsize=%d", sep, w->o->fontsize);
}

static const char *attr_of(const DotOpts *o, const char *label, const char *attr) {
  for (int i = o->nattrs - 1; i >= 0; i--)
    if (!strcmp(o->attrs[i].rel, label) && !strcmp(o->attrs[i].attr, attr))
      return o->attrs[i].value;
  return NULL;
}

static int proc_x(const DotNode *n) { return n->proc; }

/* Columns: does an edge printed before e have its label at the same
 * spot, the middle of the segment (two edges crossing between the same
 * columns: a->d and c->b in 2+2W)?  Then e's label goes to its tail,
 * or both would be drawn on top of each other. */
static bool label_taken(const W *w, const DotEdge *e) {
  if (w->o->layout != DOT_COLUMNS || e->a < 0 || e->b < 0) return false;
  const DotNode *na = &w->x->nodes[e->a], *nb = &w->x->nodes[e->b];
  double mx = proc_x(na) + proc_x(nb), my = posy(w, na) + posy(w, nb);
  for (const DotEdge *f = w->x->edges; f < e; f++) {
    if (f->a < 0 || f->b < 0 || f->kind == DOT_E_FINALRF) continue;
    const DotNode *fa = &w->x->nodes[f->a], *fb = &w->x->nodes[f->b];
    int d = proc_x(fa) - proc_x(fb);
    if (d >= 2 && d % 2 == 0) continue; /* its label is at its tail already */
    if (proc_x(fa) + proc_x(fb) == mx && fabs(posy(w, fa) + posy(w, fb) - my) < 1e-9) return true;
  }
  return false;
}

static void put_edge(const W *w, const DotEdge *e, const char *src, const char *dst) {
  const DotOpts *o = w->o;
  StrBuf *b = w->b;
  const DotNode *na = e->a >= 0 ? &w->x->nodes[e->a] : NULL;
  const DotNode *nb = e->b >= 0 ? &w->x->nodes[e->b] : NULL;
  bool backwards = false, movelbl = false;
  if (na && nb) {
    int d = proc_x(na) - proc_x(nb);
    if (d < 0) d = -d;
    bool even = d >= 2 && d % 2 == 0;
    bool last = na->proc == nb->proc && na->proc == w->lastproc;
    bool up = d >= 2 && !even && posy(w, na) < posy(w, nb);
    movelbl = even;
    backwards = o->layout == DOT_COLUMNS && e->kind != DOT_E_PO &&
                e->kind != DOT_E_INITRF && e->kind != DOT_E_FINALRF && (last || up);
  }
  EdgeStyle st = {e->kind == DOT_E_REL ? "brown" : "black", ""};
  style_of(e->label, &st);
  const char *lab_attr = attr_of(o, e->label, "label");
  bool tail = !lab_attr && ((o->movelabel && movelbl) || (w->picture && label_taken(w, e)));
  const char *key = lab_attr && !strcmp(lab_attr, "tail")   ? "taillabel"
                    : lab_attr && !strcmp(lab_attr, "head") ? "headlabel"
                    : tail                                  ? "taillabel"
                                                            : "label";
  sb_printf(b, "%s -> %s [%s=\"", backwards ? dst : src, backwards ? src : dst, key);
  escaped(b, e->label);
  if (tail)
    for (size_t i = strlen(e->label); i > 0; i--) sb_putc(b, ' ');
  sb_putc(b, '"');
  if (!attr_of(o, e->label, "color")) sb_printf(b, ", color=\"%s\", fontcolor=\"%s\"", st.color, st.color);
  if (!attr_of(o, e->label, "fontsize") && o->fontsize) sb_printf(b, ", fontsize=%d", o->fontsize);
  if (!attr_of(o, e->label, "penwidth") && o->penwidth > 0) sb_printf(b, ", penwidth=\"%f\"", o->penwidth);
  if (!attr_of(o, e->label, "arrowsize") && o->arrowsize > 0) sb_printf(b, ", arrowsize=\"%f\"", o->arrowsize);
  if (!attr_of(o, e->label, "style") && *st.style) sb_printf(b, ", style=\"%s\"", st.style);
  if (backwards) sb_puts(b, ", dir=\"back\"");
  for (int i = 0; i < o->nattrs; i++) {
    const DotEdgeAttr *a = &o->attrs[i];
    if (strcmp(a->rel, e->label) || !strcmp(a->attr, "label")) continue;
    if (!strcmp(a->attr, "color")) sb_printf(b, ", color=\"%s\", fontcolor=\"%s\"", a->value, a->value);
    else sb_printf(b, ", %s=\"%s\"", a->attr, a->value);
  }
  sb_puts(b, "];\n");
}

static bool unshown(const DotOpts *o, const char *label) {
  for (int i = 0; i < o->nunshow; i++)
    if (!strcmp(o->unshow[i], label)) return true;
  return false;
}

static void edge(const W *w, const DotEdge *e) {
  if (unshown(w->o, e->label)) return;
  StrBuf s, d;
  sb_init(&s);
  sb_init(&d);
  if (e->kind == DOT_E_INITRF) {
    const DotNode *nb = &w->x->nodes[e->b];
    sb_printf(&s, "initeiid%d", nb->eiid);
    sb_printf(w->b, "%s [shape=point, height=0.14, width=0.14, color=\"red\"", sb_cstr(&s));
    if (w->o->layout == DOT_COLUMNS)
      sb_printf(w->b, ", pos=\"%f,%f!\"", w->xscale * (double)nb->proc + 1.0 - 0.2 * w->xscale,
                w->yscale * (posy(w, nb) + 0.2));
    sb_puts(w->b, "];\n");
  } else {
    node_id(w, e->a, &s);
  }
  if (e->kind == DOT_E_FINALRF) {
    const DotNode *na = &w->x->nodes[e->a];
    sb_printf(&d, "finaleiid%d", na->eiid);
    if (w->picture) /* say what the arrow goes to */
      sb_printf(w->b, "%s [shape=none, label=\"final %s\"", sb_cstr(&d), na->loc ? na->loc : "");
    else
      sb_printf(w->b, "%s [shape=none, height=0.0, width=0.0, label=\"\"", sb_cstr(&d));
    if (w->o->layout == DOT_COLUMNS)
      sb_printf(w->b, ", pos=\"%f,%f!\"", w->xscale * (double)na->proc + 1.0 + 0.2 * w->xscale,
                w->yscale * (posy(w, na) - 0.4));
    sb_puts(w->b, "];\n");
  } else {
    node_id(w, e->b, &d);
  }
  put_edge(w, e, sb_cstr(&s), sb_cstr(&d));
  sb_free(&s);
  sb_free(&d);
}

/* Node label: "a: W[x]=1\lproc:P0 poi:0\lstw r1,0(r2)" (squished:
 * "a: W[x]=1"; initial writes "g: W[x]=0\lInit", or "ix: W[x]=0"). */
static void node_label(const W *w, const DotNode *n, StrBuf *b) {
  if (w->o->squished && n->proc < 0) {
    sb_printf(b, "i%s: ", n->loc ? n->loc : "?");
    escaped(b, n->act);
    return;
  }
  event_name(b, n->eiid);
  sb_puts(b, ": ");
  escaped(b, n->act);
  if (w->o->squished) return;
  if (n->data) sb_puts(b, " (data)");
  sb_puts(b, "\\l");
  if (n->proc < 0) {
    sb_puts(b, n->spurious ? "Spurious" : "Init");
    return;
  }
  sb_printf(b, "proc:P%d poi:%d\\l", n->proc, n->poi);
  if (n->instr) escaped(b, n->instr);
}

static double fscale(const W *w) { return w->o->fontsize ? w->o->fontsize / 14.0 : 1.0; }

static void squished_attrs(const W *w, double x, double y, size_t chars) {
  StrBuf *b = w->b;
  sb_puts(b, ", shape=\"none\"");
  fontsize_attr(w, ',');
  if (w->o->layout == DOT_COLUMNS) sb_printf(b, ", pos=\"%f,%f!\"", x, y);
  double dsize = 14.0 / 72.0;
  sb_printf(b, ", fixedsize=\"false\", height=\"%f\", width=\"%f\"];\n", fscale(w) * dsize,
            (double)chars * fscale(w) * dsize);
}

static void node(const W *w, int k) {
  const DotNode *n = &w->x->nodes[k];
  StrBuf *b = w->b;
  StrBuf l;
  sb_init(&l);
  node_label(w, n, &l);
  sb_printf(b, "eiid%d [label=\"%s\"", n->eiid, sb_cstr(&l));
  if (w->o->squished) {
    squished_attrs(w, w->xscale * (double)n->proc + 1.0, w->yscale * posy(w, n), strlen(n->act));
  } else {
    sb_puts(b, ", shape=\"box\"");
    fontsize_attr(w, ',');
    if (w->place && !w->o->squished)
      sb_printf(b, ", pos=\"%f,%f!\"", w->xscale * (double)n->proc + 1.0, w->yscale * posy(w, n));
    sb_puts(b, ", color=\"blue\"];\n");
  }
  sb_free(&l);
}

/* Columns: the single node of the initial writes. */
static void init_node(const W *w) {
  StrBuf *b = w->b;
  double x = w->lastproc == 1 ? -0.3333 : (double)w->lastproc / 2.0 - 0.5;
  if (!w->o->squished) {
    sb_puts(b, "eiidinit [label=\"Init\", shape=\"box\"");
    fontsize_attr(w, ',');
    if (w->place) sb_printf(b, ", pos=\"%f,%f!\"", w->xscale * x + 1.0, w->yscale * w->maxy);
    sb_puts(b, ", color=\"blue\"];\n");
    return;
  }
  StrBuf l;
  sb_init(&l);
  /* locations in increasing order */
  const DotNode *prev = NULL;
  for (;;) {
    const DotNode *next = NULL;
    for (int k = 0; k < w->x->nnodes; k++) {
      const DotNode *n = &w->x->nodes[k];
      const char *loc = n->loc ? n->loc : "";
      if (n->proc >= 0 || (prev && strcmp(loc, prev->loc ? prev->loc : "") <= 0)) continue;
      if (!next || strcmp(loc, next->loc ? next->loc : "") < 0) next = n;
    }
    if (!next) break;
    sb_printf(&l, "%si%s: %s", prev ? ", " : "", next->loc ? next->loc : "?", next->act);
    prev = next;
  }
  sb_puts(b, "eiidinit [label=\"");
  escaped(b, sb_cstr(&l));
  sb_putc(b, '"');
  squished_attrs(w, w->xscale * x + 1.0, w->yscale * w->maxy, strlen(sb_cstr(&l)));
  sb_free(&l);
}

static void thread_prelude(const W *w, int proc) {
  StrBuf *b = w->b;
  if (w->o->layout == DOT_CLUSTER) {
    sb_printf(b, "subgraph cluster_proc%d { rank=sink; label = \"", proc);
    if (w->o->showthread) sb_printf(b, "Thread %d", proc);
    sb_putc(b, '"');
    fontsize_attr(w, ';');
    sb_puts(b, "; color=magenta; shape=box;\n");
  } else if (w->o->layout == DOT_COLUMNS && w->o->showthread) {
    sb_printf(b, "proc%d_label_node [shape=none", proc);
    fontsize_attr(w, ',');
    /* herd fixes the size, too small for the label at the default scale:
     * graphviz warns.  We let the label widen the node. */
    sb_printf(b, ", label=\"Thread %d\", pos=\"%f,%f!\", fixedsize=false, width=%f, height=%f]\n",
              proc, w->xscale * (double)proc + 1.0, w->yscale * (w->maxy + 0.6),
              w->xscale * 0.65, w->yscale * 0.25);
  }
}

static void edges_of_kind(const W *w, DotEdgeKind k1, DotEdgeKind k2) {
  for (int i = 0; i < w->x->nedges; i++) {
    const DotEdge *e = &w->x->edges[i];
    if (e->kind == k1 || e->kind == k2) edge(w, e);
  }
}

void dot_write_exec(const DotOpts *o, const char *legend, const DotExec *x, bool picture,
                    StrBuf *b) {
  W w = {o, x, b, o->layout == DOT_COLUMNS, 0, 0, 0, x->maxrank, x->nprocs - 1, false, picture};
  w.xscale = o->scale * o->xscale;
  w.yscale = o->scale * o->yscale * 0.75;
  if (picture && o->layout == DOT_COLUMNS) {
    /* herd leaves boxes unplaced, for people to arrange, and its columns
     * are narrower than the labels; a picture pins every node, in
     * columns wide enough for them */
    w.place = true;
    w.xscale *= o->squished ? 2.2 : 2.5;
    w.yscale *= o->squished ? 1.3 : 1.6;
  }
  bool inits = false;
  for (int k = 0; k < x->nnodes; k++) inits |= x->nodes[k].proc < 0;
  w.maxy = (double)x->maxrank + (inits ? w.place ? 1.0 : 0.66667 : 0.0);
  sb_puts(b, "digraph G {\n\n");
  if (o->splines) sb_printf(b, "splines=%s;\n", o->splines);
  else if (w.place) sb_puts(b, "splines=true;\n"); /* edges around the boxes */
  if (o->pad > 0) sb_printf(b, "pad=\"%f\";\n", o->pad);
  sb_putc(b, '\n');
  if (o->showlegend && legend) {
    sb_puts(b, "/* legend */\n");
    if (o->fontsize) sb_printf(b, "fontsize=%d;\n", o->fontsize);
    sb_puts(b, "label=\"");
    escaped(b, legend);
    if (picture && x->state) {
      /* the pictures say which outcome they draw */
      sb_puts(b, "\\n");
      escaped(b, x->state);
    }
    sb_puts(b, "\";\n\n");
  }
  if (inits) {
    sb_puts(b, "\n/* init events */\n");
    if (w.oneinit) init_node(&w);
    else
      for (int k = 0; k < x->nnodes; k++)
        if (x->nodes[k].proc < 0) node(&w, k);
  }
  sb_puts(b, "\n/* the unlocked events */\n");
  for (int k = 0; k < x->nnodes;) {
    int proc = x->nodes[k].proc;
    if (proc < 0) {
      k++;
      continue;
    }
    thread_prelude(&w, proc);
    for (; k < x->nnodes && x->nodes[k].proc == proc; k++) node(&w, k);
    if (o->layout == DOT_CLUSTER) sb_puts(b, "}\n");
  }
  sb_puts(b, "\n/* the intra_causality_data edges */\n\n");
  edges_of_kind(&w, DOT_E_IICO, DOT_E_IICO);
  sb_puts(b, "\n/* the intra_causality_control edges */\n");
  edges_of_kind(&w, DOT_E_IICO_CTRL, DOT_E_IICO_CTRL);
  edges_of_kind(&w, DOT_E_IICO_ORDER, DOT_E_IICO_ORDER); /* herd: same section */
  if (o->showpo) {
    sb_puts(b, "\n/* the poi edges */\n");
    edges_of_kind(&w, DOT_E_PO, DOT_E_PO);
  }
  sb_puts(b, "/* the rfmap edges */\n");
  edges_of_kind(&w, DOT_E_RF, DOT_E_INITRF);
  edges_of_kind(&w, DOT_E_FINALRF, DOT_E_FINALRF);
  sb_puts(b, "\n\n/* The viewed-before edges */\n");
  edges_of_kind(&w, DOT_E_REL, DOT_E_REL);
  sb_puts(b, "}\n");
}

void dot_write(const DotRun *r, StrBuf *b) {
  for (int i = 0; i < r->execs.len; i++) dot_write_exec(r->o, r->legend, &r->execs.data[i], false, b);
}
