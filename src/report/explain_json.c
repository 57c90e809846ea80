/*
 * explain_json.c — an Explanation as one JSON object (-explain-format
 * json): the same content as the text, for tools.
 *
 *   {"test": "IRIW", "reached": false, "candidates": 1,
 *    "groups": [{"check": "propagation", "text": "acyclic co | prop",
 *                "pos": "ppc-checks.cat:17:1", "count": 1,
 *                "executions": [EXEC...]}]}          (never reached)
 *   {"test": ..., "reached": true, "witness": EXEC}  (reached)
 *
 * EXEC: {"events": [{"id": "a", "thread": 0, "desc": "W[x]=1",
 *        "instr": "stw r1,0(r2)"}...], "rf": [["a","c"]...], "co": [...],
 *        "state": "...", "witness": {"kind": "cycle", "edges": [{"from":
 *        "d", "to": "f", "rel": "prop", "path": [EDGE...]}...],
 *        "cycle": [EDGE...]}} with EDGE {"from", "to", "rel"}; an accepted
 *        one has "shown": {"name": [[a,b]...]}, "sc_cycle": [EDGE...] and
 *        "observations": [{"thread", "first", "then", "by"}].
 */
#include <stdio.h>
#include <string.h>

#include "explain.h"
#include "json.h"

static void str(StrBuf *b, const char *s) { json_string(b, s); }

static const char *nm(const ExExec *ex, int e) { return ex->ev[e].name; }

static void edge(const ExExec *ex, const ExEdge *e, StrBuf *b) {
  sb_puts(b, "{\"from\": ");
  str(b, nm(ex, e->a));
  sb_puts(b, ", \"to\": ");
  str(b, nm(ex, e->b));
  sb_puts(b, ", \"rel\": ");
  str(b, e->label);
  sb_putc(b, '}');
}

static void edges(const ExExec *ex, const ExEdge *e, int n, StrBuf *b) {
  sb_putc(b, '[');
  for (int i = 0; i < n; i++) {
    if (i) sb_puts(b, ", ");
    edge(ex, &e[i], b);
  }
  sb_putc(b, ']');
}

static void pairs(const ExExec *ex, const ExEdge *e, int n, StrBuf *b) {
  sb_putc(b, '[');
  for (int i = 0; i < n; i++) {
    sb_puts(b, i ? ", [" : "[");
    str(b, nm(ex, e[i].a));
    sb_puts(b, ", ");
    str(b, nm(ex, e[i].b));
    sb_putc(b, ']');
  }
  sb_putc(b, ']');
}

static void witness(const ExExec *ex, StrBuf *b) {
  static const char *const kinds[] = {"none", "cycle", "pair", "event"};
  sb_puts(b, ", \"witness\": {\"kind\": ");
  str(b, kinds[ex->kind]);
  if (ex->kind == CW_EVENT) {
    sb_puts(b, ", \"event\": ");
    str(b, nm(ex, ex->event));
  } else if (ex->kind != CW_NONE) {
    sb_puts(b, ", \"edges\": [");
    for (int i = 0; i < ex->nedges; i++) {
      sb_puts(b, i ? ", " : "");
      sb_puts(b, "{\"from\": ");
      str(b, nm(ex, ex->edges[i].a));
      sb_puts(b, ", \"to\": ");
      str(b, nm(ex, ex->edges[i].b));
      sb_puts(b, ", \"rel\": ");
      str(b, ex->edges[i].label);
      sb_puts(b, ", \"path\": ");
      edges(ex, ex->fine + ex->start[i], ex->start[i + 1] - ex->start[i], b);
      sb_putc(b, '}');
    }
    sb_puts(b, "], \"cycle\": ");
    edges(ex, ex->fine, ex->nfine, b);
  }
  sb_putc(b, '}');
}

static void exec(const ExExec *ex, StrBuf *b) {
  sb_puts(b, "{\"events\": [");
  bool first = true;
  for (int e = 0; e < ex->nev; e++) {
    const ExEvent *xe = &ex->ev[e];
    if (!xe->listed) continue;
    sb_puts(b, first ? "{\"id\": " : ", {\"id\": ");
    first = false;
    str(b, xe->name);
    sb_printf(b, ", \"thread\": %d, \"desc\": ", xe->thread);
    str(b, xe->desc);
    if (xe->instr) {
      sb_puts(b, ", \"instr\": ");
      str(b, xe->instr);
    }
    sb_putc(b, '}');
  }
  sb_puts(b, "], \"rf\": ");
  pairs(ex, ex->rf, ex->nrf, b);
  sb_puts(b, ", \"co\": ");
  pairs(ex, ex->co, ex->nco, b);
  sb_puts(b, ", \"state\": ");
  str(b, ex->state);
  if (ex->group >= 0) {
    witness(ex, b);
  } else {
    sb_puts(b, ", \"shown\": {");
    for (int i = 0; i < ex->nshown; i++) {
      if (i) sb_puts(b, ", ");
      str(b, ex->shown[i].name);
      sb_puts(b, ": ");
      pairs(ex, ex->shown[i].e, ex->shown[i].n, b);
    }
    sb_puts(b, "}, \"sc_cycle\": ");
    edges(ex, ex->sc, ex->nsc, b);
    sb_puts(b, ", \"observations\": [");
    for (int i = 0; i < ex->nobs; i++) {
      const ExObs *o = &ex->obs[i];
      sb_printf(b, "%s{\"thread\": %d, \"first\": ", i ? ", " : "", o->thread);
      str(b, nm(ex, o->w1));
      sb_puts(b, ", \"then\": ");
      str(b, nm(ex, o->w2));
      sb_puts(b, ", \"by\": ");
      ExEdge e = {o->r1, o->r2, o->label};
      edge(ex, &e, b);
      sb_putc(b, '}');
    }
    sb_putc(b, ']');
  }
  sb_putc(b, '}');
}

void explain_json(const Explanation *x, StrBuf *b) {
  sb_puts(b, "{\"test\": ");
  str(b, x->p->test->name);
  sb_printf(b, ", \"reached\": %s, \"candidates\": %llu", x->o.reached ? "true" : "false",
            (unsigned long long)x->nreach);
  if (x->o.reached) {
    if (x->execs.len) {
      sb_puts(b, ", \"witness\": ");
      exec(&x->execs.data[0], b);
    }
  } else {
    sb_puts(b, ", \"groups\": [");
    for (int g = 0; g < x->groups.len; g++) {
      const ExGroup *gr = &x->groups.data[g];
      sb_puts(b, g ? ", {\"check\": " : "{\"check\": ");
      if (gr->name) str(b, gr->name);
      else sb_puts(b, "null");
      sb_puts(b, ", \"text\": ");
      str(b, gr->text);
      const char *base = gr->pos.file ? strrchr(gr->pos.file, '/') : NULL;
      char pos[256];
      snprintf(pos, sizeof pos, "%s:%d:%d", base ? base + 1 : gr->pos.file ? gr->pos.file : "",
               gr->pos.line, gr->pos.col);
      sb_puts(b, ", \"pos\": ");
      str(b, pos);
      sb_printf(b, ", \"count\": %llu, \"executions\": [", (unsigned long long)gr->count);
      bool first = true;
      for (int i = 0; i < x->execs.len; i++) {
        if (x->execs.data[i].group != g) continue;
        if (!first) sb_puts(b, ", ");
        first = false;
        exec(&x->execs.data[i], b);
      }
      sb_puts(b, "]}");
    }
    sb_putc(b, ']');
  }
  sb_puts(b, "}\n");
}
