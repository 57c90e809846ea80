/*
 * dot_select.c — which events and edges an execution graph shows (the
 * capture sink of -o DIR).  See dot.h.
 *
 * Everything the view holds is valid only during the callback: the sink
 * copies what it keeps (labels, edges as node indices) into the run's
 * arena.  Relations of the model are over the view's dimension (the
 * relevant events, or all of them for catdep models); the structure's own
 * relations (iico, po) are over all events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dot.h"
#include "herd.h"
#include "../exec/es.h"
#include "../litmus/c.h"

bool dot_selects(const DotOpts *o, const Program *p, bool ok) {
  Quant q = p->test->quant;
  switch (o->show) {
  case DOT_SHOW_PROP: return ok;
  case DOT_SHOW_NEG: return !ok;
  case DOT_SHOW_COND: return q == Q_NOT_EXISTS ? !ok : ok;
  case DOT_SHOW_WIT: return q == Q_FORALL ? !ok : ok;
  case DOT_SHOW_ALL: return true;
  case DOT_SHOW_NONE: return false;
  }
  return false;
}

void dot_reduce(Dim d, const Word *r, Word *out) {
  size_t words = (size_t)rel_words(d);
  Word *plus = xmalloc(sizeof(Word) * words * 2), *two = plus + words;
  rel_copy(d, plus, r);
  rel_closure(d, plus);
  rel_compose(d, two, r, plus);
  rel_andnot(d, out, r, two);
  free(plus);
}

/* ------------------------------------------------------------ labels */

static void put_val(const Program *p, Val v, StrBuf *b) { herd_print_plain(p, v, b); }

/* herd's names of fences: PPC's are capitalised words (with herd's
 * "Eioio"), RISC-V's "F pred,succ", x86's upper case. */
static void put_fence(const char *tag, StrBuf *b) {
  static const char *const names[][2] = {
      {"SYNC", "Sync"}, {"LWSYNC", "Lwsync"}, {"EIEIO", "Eioio"}, {"ISYNC", "Isync"},
      {"Fence.tso", "F.tso"}, {"Fence.i", "F.i"},
  };
  for (size_t i = 0; i < ARRAY_LEN(names); i++)
    if (!strcmp(tag, names[i][0])) {
      sb_puts(b, names[i][1]);
      return;
    }
  if (!strncmp(tag, "Fence.", 6)) {
    /* Fence.rw.w -> F rw,w */
    sb_puts(b, "F ");
    for (const char *c = tag + 6; *c; c++) sb_putc(b, *c == '.' ? ',' : *c);
    return;
  }
  sb_puts(b, tag);
}

/* C accesses and fences as herd writes them: the memory order in
 * parentheses, short ("R(Acq)[x]=1", "F(Sc)"), annotations in brackets
 * ("W[ONCE][x]=1", "F[MB]"), an RMW as "RMW(Rel)[x](0>1)". */
void dot_c_access_label(const ExecView *v, int e, StrBuf *b) {
  static const char *const orders[][2] = {
      {"RLX", "Rlx"}, {"CON", "Con"}, {"ACQ", "Acq"}, {"REL", "Rel"}, {"ACQ_REL", "AR"}, {"SC", "Sc"},
  };
  const Program *p = v->p;
  const Event *ev = &v->es->ev[e];
  bool rmw = (ev->flags & EV_MEM) == EV_MEM;
  sb_puts(b, ev->flags & EV_FENCE ? "F" : rmw ? "RMW" : ev->flags & EV_R ? "R" : "W");
  for (int t = 0; t < p->tags.count; t++) {
    if (!(ev->tags >> t & 1)) continue;
    const char *n = p->tags.names[t];
    if (!strcmp(n, "A") || !strcmp(n, "NA") || !strcmp(n, "RMW")) continue;
    const char *mo = NULL;
    for (size_t i = 0; i < ARRAY_LEN(orders); i++)
      if (!strcmp(n, orders[i][0])) mo = orders[i][1];
    sb_printf(b, mo ? "(%s)" : "[%s]", mo ? mo : n);
  }
  if (ev->flags & EV_FENCE) return;
  sb_putc(b, '[');
  put_val(p, v->loc[e], b);
  sb_putc(b, ']');
  if (rmw) {
    sb_putc(b, '(');
    put_val(p, v->val[e], b);
    sb_putc(b, '>');
    put_val(p, v->wval[e], b);
    sb_putc(b, ')');
  } else {
    sb_putc(b, '=');
    put_val(p, v->val[e], b);
  }
}

/* herd's AArch64 annotation of an access, written between its location
 * and its value: "Acq" (A), "AcqPc" (Q), "Rel" (L), and a trailing '*'
 * for an exclusive or atomic access (X): "W[x]Rel=1", "R[z]*=1". */
static void put_aarch64_annot(const Program *p, const Event *ev, StrBuf *b) {
  bool x = false, a = false, q = false, l = false;
  for (int t = 0; t < p->tags.count; t++) {
    if (!(ev->tags >> t & 1)) continue;
    const char *n = p->tags.names[t];
    x |= !strcmp(n, "X");
    a |= !strcmp(n, "A");
    q |= !strcmp(n, "Q");
    l |= !strcmp(n, "L");
  }
  if (a) sb_puts(b, "Acq");
  if (q) sb_puts(b, "AcqPc");
  if (l) sb_puts(b, "Rel");
  if (x) sb_putc(b, '*');
}

static void put_access(const ExecView *v, int e, StrBuf *b) {
  const Program *p = v->p;
  if (!isa_has(p->test->arch, ISA_GRAPH_ANNOT)) {
    herd_print_access(v, e, b);
    return;
  }
  StrBuf plain;
  sb_init(&plain);
  herd_print_access(v, e, &plain);
  const char *s = sb_cstr(&plain), *close = strchr(s, ']');
  if (!close) {
    sb_puts(b, s);
  } else {
    sb_printf(b, "%.*s", (int)(close + 1 - s), s);
    put_aarch64_annot(p, &v->es->ev[e], b);
    sb_puts(b, close + 1);
  }
  sb_free(&plain);
}

/* herd writes the condition of a predicated instruction (a CAS) after
 * its branch: the memory value it compares with a register,
 * "([z]==1:X0)".  Nothing when the branch does not have that shape. */
static void put_pred_cond(const ExecView *v, int e, StrBuf *b) {
  const EventStructure *es = v->es;
  const Program *p = v->p;
  int mem = -1, reg = -1;
  for (int s = 0; s < es->n; s++) {
    if (!rel_get(es->full, es->iico_data, s, e)) continue;
    uint32_t f = es->ev[s].flags;
    if ((f & EV_MEM) == EV_R && mem < 0) mem = s;
    if ((f & EV_RREG) && reg < 0) reg = s;
  }
  if (mem < 0 || reg < 0 || !p->ops || !p->ops->reg_name) return;
  sb_puts(b, "([");
  put_val(p, v->loc[mem], b);
  sb_printf(b, "]==%d:%s)", es->ev[reg].thread, p->ops->reg_name(es->ev[reg].reg));
}

static const char *event_act(DotRun *r, const ExecView *v, int e) {
  const Program *p = v->p;
  const Event *ev = &v->es->ev[e];
  StrBuf b;
  sb_init(&b);
  if (isa_has(p->test->arch, ISA_LANGUAGE) && (ev->flags & (EV_MEM | EV_FENCE)) && !(ev->flags & EV_INIT)) {
    dot_c_access_label(v, e, &b);
  } else if (ev->flags & EV_MEM) {
    put_access(v, e, &b);
  } else if (ev->flags & EV_FENCE) {
    int tag = ev->tags ? __builtin_ctzll(ev->tags) : -1;
    put_fence(tag >= 0 && tag < p->tags.count ? p->tags.names[tag] : "F", &b);
  } else if (ev->flags & EV_COMMIT) {
    sb_puts(&b, ev->flags & EV_BCC ? "Branching(bcc)" : "Branching(pred)");
    if (ev->flags & EV_PRED) put_pred_cond(v, e, &b);
  } else if (ev->flags & EV_REG) {
    sb_printf(&b, "%s%d:%s=", ev->flags & EV_RREG ? "R" : "W", ev->thread,
              p->ops && p->ops->reg_name ? p->ops->reg_name(ev->reg) : "?");
    put_val(p, v->val[e], &b);
  } else if (ev->flags & EV_CUTOFF) {
    sb_puts(&b, "Cutoff");
  }
  const char *s = arena_strdup(&r->arena, sb_cstr(&b));
  sb_free(&b);
  return s;
}

static const char *keep_label(void *ctx, const char *label) {
  (void)ctx;
  return label;
}

/* The instruction as herd prints it, and its index among the thread's
 * instructions (labels do not count). */
static const char *event_instr(DotRun *r, const Program *p, const Event *ev, int *poi) {
  const Test *t = p->test;
  *poi = 0;
  if (ev->thread < 0 || !t->threads || ev->thread >= t->nthreads) return NULL;
  const Thread *th = &t->threads[ev->thread];
  if (ev->code_index < 0 || ev->code_index >= th->nentries) return NULL;
  if (isa_has(t->arch, ISA_LANGUAGE) && th->entries[ev->code_index].ins)
    return c_instr_label(th->entries[ev->code_index].ins, poi);
  for (int i = 0; i < ev->code_index; i++) *poi += th->entries[i].ins != NULL;
  const Instr *ins = th->entries[ev->code_index].ins;
  if (!ins) return NULL;
  if (!p->ops || !p->ops->print_instr) return ins->text;
  StrBuf b;
  sb_init(&b);
  p->ops->print_instr(ins, &b, keep_label, NULL);
  char *s = arena_strdup(&r->arena, sb_cstr(&b));
  if (isa_has(t->arch, ISA_GRAPH_NO_DOLLAR)) {
    /* herd shows x86 immediates without the '$' the hash spells */
    char *w = s;
    for (const char *c = s; *c; c++)
      if (*c != '$') *w++ = *c;
    *w = 0;
  }
  sb_free(&b);
  return s;
}

/* ------------------------------------------------------ the numbering */

typedef struct Order {
  const ExecView *v;
  const char **locname;      /* per event, memory events */
} Order;

/* Position of an event in its instruction: reads of registers, then the
 * event itself (fence, branch, access), then writes of registers. */
static int step_class(const Event *ev) {
  if (ev->flags & EV_RREG) return 0;
  if (ev->flags & EV_WREG) return 2;
  /* a predicated instruction's condition comes last: herd numbers CAS's
   * branch after the register the CAS writes */
  if (ev->flags & EV_PRED) return 3;
  return 1;
}

/* Ordering of initial writes (locations in decreasing order) and of the
 * other non-memory events (thread, instruction, step). */
static bool before(const Order *o, bool init, int a, int b) {
  if (init) {
    int c = strcmp(o->locname[b], o->locname[a]);
    return c ? c < 0 : a < b;
  }
  const Event *ea = &o->v->es->ev[a], *eb = &o->v->es->ev[b];
  if (ea->thread != eb->thread) return ea->thread < eb->thread;
  if (ea->inst != eb->inst) return ea->inst < eb->inst;
  int ca = step_class(ea), cb = step_class(eb);
  if (ca != cb) return ca < cb;
  return a < b;
}

/* Insertion sort: a few dozen events, and qsort has no context. */
static void sort_events(const Order *o, bool init, int *v, int n) {
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && before(o, init, v[j], v[j - 1]); j--) {
      int t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
}

/* herd's event numbers (see dot.h), eiid[e] for every event. */
static void number_events(const ExecView *v, const char **locname, int *eiid) {
  const EventStructure *es = v->es;
  int n = es->n, k = 0;
  int *tmp = xmalloc(sizeof(int) * (size_t)(n + 1));
  for (int e = 0; e < n; e++)
    if ((es->ev[e].flags & EV_MEM) && !(es->ev[e].flags & EV_INIT)) eiid[e] = k++;
  Order ord = {v, locname};
  int ni = 0, no = 0;
  for (int e = 0; e < n; e++)
    if (es->ev[e].flags & EV_INIT) tmp[ni++] = e;
  sort_events(&ord, true, tmp, ni);
  for (int i = 0; i < ni; i++) eiid[tmp[i]] = k++;
  for (int e = 0; e < n; e++)
    if (!(es->ev[e].flags & EV_MEM)) tmp[no++] = e;
  sort_events(&ord, false, tmp, no);
  for (int i = 0; i < no; i++) eiid[tmp[i]] = k++;
  free(tmp);
}

/* --------------------------------------------------------- the sink */

/* Per event, its location as printed (memory events; NULL otherwise);
 * the array is malloc'ed, the names are in `a`. */
static const char **location_names(const ExecView *v, Arena *a) {
  const EventStructure *es = v->es;
  const char **locname = xcalloc((size_t)es->n + 1, sizeof(char *));
  StrBuf sb;
  sb_init(&sb);
  for (int e = 0; e < es->n; e++)
    if (es->ev[e].flags & EV_MEM) {
      sb_clear(&sb);
      put_val(v->p, v->loc[e], &sb);
      locname[e] = arena_strdup(a, sb_cstr(&sb));
    }
  sb_free(&sb);
  return locname;
}

static bool shown_event(const DotOpts *o, const Event *ev) {
  if ((ev->flags & EV_INIT) && !o->showinitwrites) return false;
  switch (o->events) {
  case DOT_EV_ALL: return true;
  case DOT_EV_MEM: return (ev->flags & EV_MEM) != 0;
  case DOT_EV_NOREGS: return !(ev->flags & (EV_REG | EV_CUTOFF));
  case DOT_EV_MEMF: return (ev->flags & (EV_MEM | EV_FENCE)) != 0;
  }
  return false;
}

static bool in_list(char *const *v, int n, const char *s) {
  for (int i = 0; i < n; i++)
    if (!strcmp(v[i], s)) return true;
  return false;
}

typedef struct Builder {
  DotRun *r;
  const ExecView *v;
  int *node;                 /* event -> node index, -1 if not shown */
  Dim full;
  Word *covered;             /* full dim: rf and shown pairs, both ways */
  VEC(DotEdge) edges;
} Builder;

static void add_edge(Builder *b, int ea, int eb, const char *label, DotEdgeKind k) {
  DotEdge e = {b->node[ea], b->node[eb], label, k};
  vec_push(b->edges, e);
}

/* The relations the model shows at the end of the run: the last `show`
 * of each name, minus `unshow`, plus -doshow, minus -unshow. */
typedef struct Shown {
  const char *name;
  const Word *bits;
} Shown;

static int collect_shown(const DotOpts *o, const ExecView *v, Shown *out, int cap) {
  int n = 0;
  for (int i = 0; i < v->nshown; i++) {
    const CatShown *s = &v->shown[i];
    int k = 0;
    while (k < n && strcmp(out[k].name, s->name) != 0) k++;
    if (k < n) {
      memmove(out + k, out + k + 1, sizeof(Shown) * (size_t)(n - k - 1));
      n--;
    }
    bool is_set = false;
    const Word *bits = s->v ? val_bits(s->v, &is_set) : NULL;
    if (!bits || is_set || n == cap) continue;
    out[n++] = (Shown){s->name, bits};
  }
  for (int i = 0; i < o->ndoshow && n < cap; i++) {
    const Value *val = v->run ? run_relation_named(v->run, o->doshow[i]) : NULL;
    bool is_set = false;
    const Word *bits = val ? val_bits(val, &is_set) : NULL;
    int k = 0;
    while (k < n && strcmp(out[k].name, o->doshow[i]) != 0) k++;
    if (bits && !is_set && k == n) out[n++] = (Shown){o->doshow[i], bits};
  }
  int m = 0;
  for (int i = 0; i < n; i++)
    if (!in_list(o->unshow, o->nunshow, out[i].name)) out[m++] = out[i];
  return m;
}

/* Nodes: initial writes, then threads in program order. */
static void make_nodes(Builder *b, DotExec *x, const int *eiid, const char **locname) {
  DotRun *r = b->r;
  const ExecView *v = b->v;
  const EventStructure *es = v->es;
  int n = es->n;
  int *order = xmalloc(sizeof(int) * (size_t)(n + 1)), cnt = 0;
  for (int e = 0; e < n; e++)
    if (shown_event(r->o, &es->ev[e])) order[cnt++] = e;
  /* sort by (init first, thread, instance, step, id) */
  for (int i = 1; i < cnt; i++)
    for (int j = i; j > 0; j--) {
      const Event *a = &es->ev[order[j - 1]], *c = &es->ev[order[j]];
      int ka = a->flags & EV_INIT ? -1 : a->thread, kc = c->flags & EV_INIT ? -1 : c->thread;
      bool swap = ka != kc ? ka > kc
                  : ka < 0 ? eiid[order[j - 1]] > eiid[order[j]]
                  : a->inst != c->inst ? a->inst > c->inst
                  : step_class(a) != step_class(c) ? step_class(a) > step_class(c)
                  : order[j - 1] > order[j];
      if (!swap) break;
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  x->nnodes = cnt;
  x->nodes = ARENA_NEWN(&r->arena, DotNode, cnt + 1);
  x->nprocs = es->nthreads;
  int rank = 0, last_thread = -2;
  x->maxrank = 0;
  for (int i = 0; i < cnt; i++) {
    int e = order[i];
    const Event *ev = &es->ev[e];
    DotNode *nd = &x->nodes[i];
    b->node[e] = i;
    nd->eiid = eiid[e];
    nd->act = event_act(r, v, e);
    /* herd marks data ports, and in C every load (its value is data) */
    nd->data = (ev->flags & EV_DATAPORT) ||
               (isa_has(v->p->test->arch, ISA_LANGUAGE) && (ev->flags & EV_MEM) == EV_R && !(ev->flags & EV_INIT));
    nd->proc = ev->flags & EV_INIT ? -1 : ev->thread;
    nd->spurious = (ev->flags & EV_SPUR) != 0;
    nd->instr = ev->flags & (EV_INIT | EV_SPUR) ? NULL : event_instr(r, v->p, ev, &nd->poi);
    nd->loc = ev->flags & EV_MEM ? arena_strdup(&r->arena, locname[e]) : NULL;
    if (nd->proc >= 0) {
      if (nd->proc != last_thread) rank = 0;
      else rank++;
      last_thread = nd->proc;
      nd->col_y = rank;
      if (rank > x->maxrank) x->maxrank = rank;
    }
  }
  free(order);
}

/* The instructions' po edges: from the last events of an instruction
 * (no iico successor among shown events) to the first events of the
 * next instruction of the thread that has shown events. */
static void po_edges(Builder *b, const DotExec *x, bool avoid_covered) {
  const ExecView *v = b->v;
  const EventStructure *es = v->es;
  Dim f = es->full;
  size_t words = (size_t)rel_words(f);
  Word *ii = xcalloc(words, sizeof(Word));
  for (int a = 0; a < es->n; a++)
    for (int c = 0; c < es->n; c++)
      if (b->node[a] >= 0 && b->node[c] >= 0 &&
          (rel_get(f, es->iico_data, a, c) || rel_get(f, es->iico_ctrl, a, c) ||
           rel_get(f, es->iico_order, a, c)))
        rel_set(f, ii, a, c);
  rel_closure(f, ii);
  int *ev_of = xmalloc(sizeof(int) * (size_t)(x->nnodes + 1));
  for (int e = 0; e < es->n; e++)
    if (b->node[e] >= 0) ev_of[b->node[e]] = e;
  /* groups: maximal runs of nodes of one thread and one instance */
  int prev_s = -1, prev_t = -1;
  for (int s = 0; s < x->nnodes;) {
    const Event *es0 = &es->ev[ev_of[s]];
    int t = s;
    while (t < x->nnodes && x->nodes[t].proc == x->nodes[s].proc &&
           es->ev[ev_of[t]].inst == es0->inst)
      t++;
    if (x->nodes[s].proc >= 0 && prev_s >= 0 && x->nodes[prev_s].proc == x->nodes[s].proc) {
      for (int i = prev_s; i < prev_t; i++) {
        int a = ev_of[i];
        bool is_max = true;
        for (int k = prev_s; k < prev_t; k++)
          if (k != i && rel_get(f, ii, a, ev_of[k])) is_max = false;
        if (!is_max) continue;
        for (int j = s; j < t; j++) {
          int c = ev_of[j];
          bool is_min = true;
          for (int k = s; k < t; k++)
            if (k != j && rel_get(f, ii, ev_of[k], c)) is_min = false;
          if (!is_min || (avoid_covered && rel_get(f, b->covered, a, c))) continue;
          const char *lab = "po";
          if (b->r->o->layout == DOT_FREE && b->r->o->showthread)
            lab = arena_printf(&b->r->arena, "po:%d", x->nodes[s].proc);
          add_edge(b, a, c, lab, DOT_E_PO);
        }
      }
    }
    prev_s = s;
    prev_t = t;
    s = t;
  }
  free(ev_of);
  free(ii);
}

/* herd's order within a section: the model's relations by decreasing
 * name, then pairs by event number (rf by the read's). */
static bool edge_before(const DotExec *x, const DotEdge *e, const DotEdge *f) {
  if (e->kind != f->kind) return e->kind < f->kind;
  if (e->kind == DOT_E_REL) {
    int c = strcmp(e->label, f->label);
    if (c) return c > 0;
  }
  int ea = e->a >= 0 ? x->nodes[e->a].eiid : -1, eb = e->b >= 0 ? x->nodes[e->b].eiid : -1;
  int fa = f->a >= 0 ? x->nodes[f->a].eiid : -1, fb = f->b >= 0 ? x->nodes[f->b].eiid : -1;
  if (e->kind == DOT_E_RF) return eb != fb ? eb < fb : ea < fa;
  return ea != fa ? ea < fa : eb < fb;
}

static void sort_edges(DotExec *x) {
  for (int i = 1; i < x->nedges; i++)
    for (int j = i; j > 0 && edge_before(x, &x->edges[j], &x->edges[j - 1]); j--) {
      DotEdge t = x->edges[j];
      x->edges[j] = x->edges[j - 1];
      x->edges[j - 1] = t;
    }
}

static void capture(DotRun *r, const ExecView *v) {
  const DotOpts *o = r->o;
  const EventStructure *es = v->es;
  int n = es->n;
  Dim d = v->d, f = es->full;
  Builder b = {r, v, NULL, f, NULL, {0}};
  b.node = xmalloc(sizeof(int) * (size_t)(n + 1));
  for (int e = 0; e < n; e++) b.node[e] = -1;
  const char **locname = location_names(v, &r->arena);
  int *eiid = xmalloc(sizeof(int) * (size_t)(n + 1));
  number_events(v, locname, eiid);
  DotExec x = {0};
  make_nodes(&b, &x, eiid, locname);
  x.state = herd_state_text(v->p, v->state, &r->arena);

  /* iico between shown events */
  for (int a = 0; a < n; a++)
    for (int c = 0; c < n; c++)
      if (b.node[a] >= 0 && b.node[c] >= 0) {
        if (rel_get(f, es->iico_data, a, c)) add_edge(&b, a, c, "iico_data", DOT_E_IICO);
        if (rel_get(f, es->iico_ctrl, a, c)) add_edge(&b, a, c, "iico_ctrl", DOT_E_IICO_CTRL);
        if (rel_get(f, es->iico_order, a, c)) add_edge(&b, a, c, "iico_order", DOT_E_IICO_ORDER);
      }

  /* the relations shown, reduced unless -showraw */
  Shown shown[128];
  int nshown = collect_shown(o, v, shown, 128);
  size_t words = (size_t)rel_words(d);
  Word *red = xmalloc(sizeof(Word) * words * (size_t)(nshown + 1));
  b.covered = xcalloc((size_t)rel_words(f), sizeof(Word));
  bool rf_shown = false;
  for (int i = 0; i < nshown; i++) {
    Word *ri = red + words * (size_t)i;
    if (in_list(o->showraw, o->nshowraw, shown[i].name)) rel_copy(d, ri, shown[i].bits);
    else dot_reduce(d, shown[i].bits, ri);
    if (!strcmp(shown[i].name, "rf")) rf_shown = true;
    for (int a = 0; a < d.n; a++)
      for (int c = 0; c < d.n; c++)
        if (rel_get(d, ri, a, c) && b.node[a] >= 0 && b.node[c] >= 0) {
          rel_set(f, b.covered, a, c);
          rel_set(f, b.covered, c, a);
        }
  }
  for (int a = 0; a < d.n; a++)
    for (int c = 0; c < d.n; c++)
      if (rel_get(d, v->rf, a, c) && b.node[a] >= 0 && b.node[c] >= 0) {
        rel_set(f, b.covered, a, c);
        rel_set(f, b.covered, c, a);
      }

  if (o->showpo) po_edges(&b, &x, o->layout != DOT_FREE);

  /* rf: between shown events; from hidden initial writes with
   * -showinitrf; to the final state with -showfinalrf */
  if (!rf_shown)
    for (int a = 0; a < d.n; a++)
      for (int c = 0; c < d.n; c++) {
        if (!rel_get(d, v->rf, a, c) || b.node[c] < 0) continue;
        if (b.node[a] >= 0) add_edge(&b, a, c, "rf", DOT_E_RF);
        else if ((es->ev[a].flags & EV_INIT) && o->showinitrf) {
          DotEdge e = {-1, b.node[c], "rf", DOT_E_INITRF};
          vec_push(b.edges, e);
        }
      }
  if (o->showfinalrf) {
    const Value *cov = v->run ? run_relation_named(v->run, "co") : NULL;
    const Word *co = cov ? val_bits(cov, NULL) : NULL;
    for (int a = 0; a < d.n && co; a++) {
      if (!(es->ev[a].flags & EV_W) || b.node[a] < 0 || (es->ev[a].flags & EV_INIT)) continue;
      bool last = true;
      for (int c = 0; c < d.n; c++)
        if (rel_get(d, co, a, c)) last = false;
      if (last) {
        DotEdge e = {b.node[a], -1, "rf", DOT_E_FINALRF};
        vec_push(b.edges, e);
      }
    }
  }
  for (int i = 0; i < nshown; i++) {
    const Word *ri = red + words * (size_t)i;
    const char *name = arena_strdup(&r->arena, shown[i].name);
    for (int a = 0; a < d.n; a++)
      for (int c = 0; c < d.n; c++)
        if (rel_get(d, ri, a, c) && b.node[a] >= 0 && b.node[c] >= 0)
          add_edge(&b, a, c, name, DOT_E_REL);
  }
  x.nedges = b.edges.len;
  x.edges = ARENA_NEWN(&r->arena, DotEdge, x.nedges + 1);
  if (x.nedges) memcpy(x.edges, b.edges.data, sizeof(DotEdge) * (size_t)x.nedges);
  sort_edges(&x);
  vec_push(r->execs, x);
  vec_free(b.edges);
  free(b.covered);
  free(red);
  free(eiid);
  free(locname);
  free(b.node);
}

/* Executions are written, and -nshow keeps the first N, in herd's order
 * of enumeration as far as we know it:
 * thread paths, then each read's write (reads in event order, the
 * initial write first), then the
 * coherence order of each location (locations in increasing order, each
 * as its sequence of writes).  The key says where an execution comes in
 * that order; smaller comes first. */
static int *exec_key(const ExecView *v, int *nkey) {
  const EventStructure *es = v->es;
  Dim d = v->d;
  int n = es->n;
  Arena names;
  arena_init(&names);
  const char **locname = location_names(v, &names);
  int *eiid = xmalloc(sizeof(int) * (size_t)(n + 1));
  number_events(v, locname, eiid);
  int *key = xmalloc(sizeof(int) * (size_t)(es->nthreads + 2 * n + 2));
  int k = 0;
  /* corral explores a branch taken first, herd falls through first; in
   * C, corral's branch skips the `if` body, which herd also tries first */
  bool in_c = isa_has(v->p->test->arch, ISA_LANGUAGE);
  for (int t = 0; t < es->nthreads; t++) key[k++] = in_c ? es->path_index[t] : -es->path_index[t];
  for (int i = 0; i < es->nreads; i++) {
    int rd = es->reads[i];
    int w = -1;
    for (int a = 0; a < d.n && w < 0; a++)
      if (rel_get(d, v->rf, a, rd)) w = a;
    /* herd tries the initial write first */
    key[k++] = w < 0 ? -2 : es->ev[w].flags & EV_INIT ? -1 : eiid[w];
  }
  const Value *cov = v->run ? run_relation_named(v->run, "co") : NULL;
  const Word *co = cov ? val_bits(cov, NULL) : NULL;
  /* writes in (location, co rank) order: rank = co predecessors */
  int *w = xmalloc(sizeof(int) * (size_t)(n + 1)), *rank = xcalloc((size_t)n + 1, sizeof(int));
  int nw = 0;
  for (int e = 0; e < d.n && co; e++) {
    if (!(es->ev[e].flags & EV_W) || (es->ev[e].flags & EV_INIT)) continue;
    for (int a = 0; a < d.n; a++) rank[e] += rel_get(d, co, a, e);
    w[nw++] = e;
  }
  for (int i = 1; i < nw; i++)
    for (int j = i; j > 0; j--) {
      int c = strcmp(locname[w[j - 1]], locname[w[j]]);
      if (c < 0 || (c == 0 && rank[w[j - 1]] <= rank[w[j]])) break;
      int tmp = w[j];
      w[j] = w[j - 1];
      w[j - 1] = tmp;
    }
  for (int i = 0; i < nw; i++) key[k++] = eiid[w[i]];
  free(w);
  free(rank);
  free(eiid);
  free(locname);
  arena_free(&names);
  *nkey = k;
  return key;
}

static int key_cmp(const int *a, int na, const int *b, int nb) {
  for (int i = 0; i < na && i < nb; i++)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return na - nb;
}

/* Keep v in order; with -nshow, only if it is among the first N seen so
 * far. */
static void capture_ordered(DotRun *r, const ExecView *v) {
  int nkey;
  int *key = exec_key(v, &nkey);
  int worst = -1;
  if (r->o->nshow && r->execs.len >= r->o->nshow) {
    for (int i = 0; i < r->execs.len; i++)
      if (worst < 0 || key_cmp(r->execs.data[i].key, r->execs.data[i].nkey,
                               r->execs.data[worst].key, r->execs.data[worst].nkey) > 0)
        worst = i;
    if (key_cmp(key, nkey, r->execs.data[worst].key, r->execs.data[worst].nkey) >= 0) {
      free(key);
      return;
    }
    free(r->execs.data[worst].key);
    memmove(r->execs.data + worst, r->execs.data + worst + 1,
            sizeof(DotExec) * (size_t)(r->execs.len - worst - 1));
    r->execs.len--;
  }
  capture(r, v);
  vec_last(r->execs).key = key;
  vec_last(r->execs).nkey = nkey;
  if (!r->o->nshow) return; /* dot_sort_execs puts them in order at the end */
  /* in order: a few executions */
  for (int i = r->execs.len - 1; i > 0; i--) {
    DotExec *x = r->execs.data;
    if (key_cmp(x[i - 1].key, x[i - 1].nkey, x[i].key, x[i].nkey) <= 0) break;
    DotExec t = x[i];
    x[i] = x[i - 1];
    x[i - 1] = t;
  }
}

static int exec_cmp(const void *a, const void *b) {
  const DotExec *x = a, *y = b;
  return key_cmp(x->key, x->nkey, y->key, y->nkey);
}

void dot_sort_execs(DotRun *r) {
  if (r->execs.len > 1) qsort(r->execs.data, (size_t)r->execs.len, sizeof(DotExec), exec_cmp);
}

/* -dumpes: one graph per event structure (with the values of the first
 * candidate execution the model sees, accepted or not), without rf or
 * the model's relations. */
static bool structure_seen(DotRun *r, const EventStructure *es) {
  int nt = es->nthreads;
  for (int i = 0; i + nt <= r->seen_es.len; i += nt)
    if (!memcmp(r->seen_es.data + i, es->path_index, sizeof(int) * (size_t)nt)) return true;
  for (int t = 0; t < nt; t++) vec_push(r->seen_es, es->path_index[t]);
  return false;
}

void dot_sink(void *ctx, const ExecView *v) {
  DotRun *r = ctx;
  if (r->o->dumpes) {
    if (structure_seen(r, v->es)) return;
    ExecView bare = *v;
    bare.nshown = 0;
    Word *norf = xcalloc((size_t)rel_words(v->d) + 1, sizeof(Word));
    bare.rf = norf;
    bare.run = NULL;
    DotOpts o = *r->o;
    o.ndoshow = 0;
    const DotOpts *saved = r->o;
    r->o = &o;
    capture(r, &bare);
    r->o = saved;
    free(norf);
    return;
  }
  if (v->failure || !dot_selects(r->o, v->p, v->cond_true)) return;
  r->nshown++;
  capture_ordered(r, v);
}
