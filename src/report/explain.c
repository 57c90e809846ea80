/*
 * explain.c — collecting explanations from the explain run (the sink) and
 * printing them as text.  See explain.h.
 *
 * Everything the sink keeps is copied into the Explanation's arena: the
 * execution view and the relations are valid only during the callback.
 */
#include "explain.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dot.h"
#include "litmus/c.h"
#include "herd.h"

/* ------------------------------------------------------------ labels */

/* The named relations that may label edges, with their sizes. */
typedef struct Labels {
  Dim d;
  VEC(const char *) name;
  VEC(const Word *) rel;
  VEC(int) count;
  VEC(bool) predef;
  Run *run;
} Labels;

static void labels_add(void *ctx, const char *name, const Value *v, bool predef) {
  Labels *l = ctx;
  const Word *bits = val_bits(v, NULL);
  if (!bits) return;
  vec_push(l->name, name);
  vec_push(l->rel, bits);
  vec_push(l->count, rel_count(l->d, bits));
  vec_push(l->predef, predef);
}

static void labels_init(Labels *l, const ExecView *v) {
  memset(l, 0, sizeof *l);
  l->d = v->d;
  l->run = v->run;
  run_foreach_vocabulary(v->run, v->failure, labels_add, l);
}

/* The relations the execution shows (graphs draw them), in the order of
 * their last show: the last show of a name counts, an unshow hides it. */
static void labels_shown(Labels *l, const ExecView *v) {
  memset(l, 0, sizeof *l);
  l->d = v->d;
  l->run = v->run;
  for (int i = 0; i < v->nshown; i++) {
    const CatShown *s = &v->shown[i];
    bool later = false;
    for (int k = i + 1; k < v->nshown && !later; k++) later = !strcmp(v->shown[k].name, s->name);
    bool is_set = false;
    if (!later && s->v && val_bits(s->v, &is_set) && !is_set) labels_add(l, s->name, s->v, false);
  }
}

static void labels_free(Labels *l) {
  vec_free(l->name);
  vec_free(l->rel);
  vec_free(l->count);
  vec_free(l->predef);
}

/* The smallest relation containing (a, b), among those included in
 * `within` unless NULL; among equals the one the derivation went through
 * (`via`), else one of the model's own rather than a predefined one (rfe
 * rather than rf) — the reverse when `primitive` (addr rather than ppo,
 * for a derivation that could not look into ppo) — else the first
 * defined.  NULL if none. */
static const char *pick(const Labels *l, int a, int b, const char *via, const Word *within,
                        bool primitive) {
  int best = -1;
  for (int i = 0; i < l->name.len; i++) {
    if (!rel_get(l->d, l->rel.data[i], a, b)) continue;
    if (within && !rel_subset(l->d, l->rel.data[i], within)) continue;
    if (best >= 0 && l->count.data[i] > l->count.data[best]) continue;
    if (best >= 0 && l->count.data[i] == l->count.data[best]) {
      bool is_via = via && !strcmp(l->name.data[i], via);
      bool best_via = via && !strcmp(l->name.data[best], via);
      bool mine = primitive ? !l->predef.data[i] || l->predef.data[best]
                            : l->predef.data[i] || !l->predef.data[best];
      if (best_via || (!is_via && mine)) continue;
    }
    best = i;
  }
  return best >= 0 ? l->name.data[best] : NULL;
}

static const char *label_of(const Labels *l, int a, int b, const char *via, bool primitive) {
  const char *n = pick(l, a, b, primitive ? NULL : via, NULL, primitive);
  return n ? n : via ? via : "?";
}

/* The value of a named relation of the model at this point, or NULL. */
static const Word *named_relation(Run *run, const char *name) {
  const Value *v = run_relation_named(run, name);
  return v ? val_bits(v, NULL) : NULL;
}

/* ------------------------------------------------------------ events */

static void print_val(const Program *p, Val v, StrBuf *b) { herd_print_plain(p, v, b); }

static char *event_desc(Explanation *x, const ExecView *v, int e) {
  const Program *p = v->p;
  const Event *ev = &v->es->ev[e];
  StrBuf b;
  sb_init(&b);
  bool c_event = isa_has(p->test->arch, ISA_LANGUAGE) && !(ev->flags & EV_INIT);
  if (c_event && (ev->flags & (EV_MEM | EV_FENCE))) {
    /* as herd's graphs label them: W[ONCE][x]=1, R(Acq)[y]=0, F[MB] */
    dot_c_access_label(v, e, &b);
  } else if (c_event && (ev->flags & EV_LOCK)) {
    /* a lock operation: its kind (LKW, UL, RL...) and its lock */
    for (int t = 0; t < p->tags.count; t++)
      if (ev->tags >> t & 1) sb_printf(&b, "%s%s", b.len ? "," : "", p->tags.names[t]);
    sb_putc(&b, '[');
    print_val(p, v->loc[e], &b);
    sb_putc(&b, ']');
  } else if (ev->flags & EV_MEM) {
    herd_print_access(v, e, &b);
  } else if (ev->flags & EV_FENCE) {
    sb_putc(&b, 'F');
  } else if (ev->flags & EV_COMMIT) {
    sb_puts(&b, ev->flags & EV_BCC ? "Branch" : "Commit");
  } else if (ev->flags & EV_REG) {
    sb_printf(&b, "%s[%s]=", ev->flags & EV_RREG ? "Rreg" : "Wreg",
              p->ops && p->ops->reg_name ? test_reg_name(p->test, ev->reg) : "?");
    print_val(p, v->val[e], &b);
  }
  /* annotations and fence kinds, as the model's sets name them (a C
   * event's label has them already) */
  bool first = true;
  for (int t = 0; t < p->tags.count && !c_event; t++) {
    if (!(ev->tags >> t & 1)) continue;
    sb_puts(&b, first ? (ev->flags & EV_FENCE ? "[" : " {") : ",");
    const char *n = p->tags.names[t];
    for (; *n; n++) sb_putc(&b, ev->flags & EV_FENCE ? (char)tolower((unsigned char)*n) : *n);
    first = false;
  }
  if (!first) sb_puts(&b, ev->flags & EV_FENCE ? "]" : "}");
  char *s = arena_strdup(&x->arena, sb_cstr(&b));
  sb_free(&b);
  return s;
}

static const char *event_instr(const Program *p, const Event *ev) {
  const Test *t = p->test;
  if (ev->thread < 0 || !t->threads || ev->thread >= t->nthreads) return NULL;
  const Thread *th = &t->threads[ev->thread];
  if (ev->code_index < 0 || ev->code_index >= th->nentries) return NULL;
  const Instr *ins = th->entries[ev->code_index].ins;
  if (!ins) return NULL;
  const char *text = ins->text;
  if (isa_has(t->arch, ISA_LANGUAGE)) {
    int poi; /* herd's statement number: graphs show it, explanations do not */
    text = c_instr_label(ins, &poi);
  }
  if (!text) return NULL;
  for (const char *c = text; *c; c++)
    if (!isspace((unsigned char)*c)) return text;
  return NULL; /* no text to show (a C access with no statement of its own) */
}

static void capture_events(Explanation *x, const ExecView *v, ExExec *ex) {
  const EventStructure *es = v->es;
  ex->nev = v->d.n;
  ex->ev = ARENA_NEWN(&x->arena, ExEvent, ex->nev);
  int k = 0;
  for (int e = 0; e < ex->nev; e++) {
    const Event *ev = &es->ev[e];
    ExEvent *xe = &ex->ev[e];
    xe->thread = ev->flags & EV_INIT ? -1 : ev->thread;
    if (ev->flags & EV_INIT) {
      StrBuf b;
      sb_init(&b);
      sb_putc(&b, 'I');
      print_val(v->p, v->loc[e], &b);
      xe->name = arena_strdup(&x->arena, sb_cstr(&b));
      sb_free(&b);
    } else {
      xe->name = k < 26 ? arena_printf(&x->arena, "%c", 'a' + k) : arena_printf(&x->arena, "e%d", k);
      k++;
      xe->listed = !(ev->flags & EV_IRRELEVANT);
    }
    xe->desc = event_desc(x, v, e);
    xe->instr = event_instr(v->p, ev);
  }
}

/* The edges of r (its immediate ones: r \ (r;r) when `reduce`). */
static ExEdge *edges_of(Explanation *x, Dim d, const Word *r, bool reduce, int *n) {
  Word *rr = NULL;
  if (reduce) {
    rr = xmalloc(sizeof(Word) * (size_t)rel_words(d));
    rel_compose(d, rr, r, r);
  }
  int cnt = 0;
  for (int a = 0; a < d.n; a++)
    for (int b = 0; b < d.n; b++)
      if (rel_get(d, r, a, b) && !(rr && rel_get(d, rr, a, b))) cnt++;
  ExEdge *e = ARENA_NEWN(&x->arena, ExEdge, cnt + 1);
  cnt = 0;
  for (int a = 0; a < d.n; a++)
    for (int b = 0; b < d.n; b++)
      if (rel_get(d, r, a, b) && !(rr && rel_get(d, rr, a, b))) e[cnt++] = (ExEdge){a, b, NULL};
  free(rr);
  *n = cnt;
  return e;
}

static void mark_listed(ExExec *ex, const ExEdge *e, int n) {
  for (int i = 0; i < n; i++) ex->ev[e[i].a].listed = ex->ev[e[i].b].listed = true;
}

static ExExec *capture_common(Explanation *x, const ExecView *v) {
  ExExec ex = {0};
  capture_events(x, v, &ex);
  ex.rf = edges_of(x, v->d, v->rf, false, &ex.nrf);
  const Word *co = named_relation(v->run, "co");
  if (co) ex.co = edges_of(x, v->d, co, true, &ex.nco);
  mark_listed(&ex, ex.rf, ex.nrf);
  mark_listed(&ex, ex.co, ex.nco);
  ex.state = herd_state_text(v->p, v->state, &x->arena);
  ex.event = -1;
  vec_push(x->execs, ex);
  return &vec_last(x->execs);
}

/* ---------------------------------------------------------- rejected */

static int group_of(Explanation *x, const ExecView *v) {
  const CatFailure *f = v->failure;
  for (int i = 0; i < x->groups.len; i++) {
    const ExGroup *g = &x->groups.data[i];
    if (g->pos.line == f->pos.line && g->pos.col == f->pos.col &&
        !strcmp(g->pos.file ? g->pos.file : "", f->pos.file ? f->pos.file : ""))
      return i;
  }
  ExGroup g = {0};
  g.name = f->name ? arena_strdup(&x->arena, f->name) : NULL;
  StrBuf b;
  sb_init(&b);
  run_check_text(v->run, f, &b);
  g.text = arena_strdup(&x->arena, sb_cstr(&b));
  sb_free(&b);
  g.pos = f->pos;
  g.pos.file = f->pos.file ? arena_strdup(&x->arena, f->pos.file) : NULL;
  vec_push(x->groups, g);
  return x->groups.len - 1;
}

/* x -po-> f -po-> y through a fence f becomes x -mfence-> y when the model
 * names a relation after the fence (mfence, sync...) that holds (x, y):
 * people read fences as edges, not as events. */
static void merge_fences(Explanation *x, const ExecView *v, ExExec *ex) {
  const Program *p = v->p;
  for (int i = 0; i < ex->nedges; i++) {
    int s = ex->start[i], t = ex->start[i + 1];
    for (int k = s; k + 1 < t; k++) {
      const Event *f = &v->es->ev[ex->fine[k].b];
      if (!(f->flags & EV_FENCE) || strcmp(ex->fine[k].label, "po") ||
          strcmp(ex->fine[k + 1].label, "po"))
        continue;
      int tag = f->tags ? __builtin_ctzll(f->tags) : -1;
      if (tag < 0 || tag >= p->tags.count) continue;
      char name[64];
      snprintf(name, sizeof name, "%s", p->tags.names[tag]);
      for (char *c = name; *c; c++) *c = (char)tolower((unsigned char)*c);
      const Word *r = named_relation(v->run, name);
      int a = ex->fine[k].a, b = ex->fine[k + 1].b;
      if (!r || !rel_get(v->d, r, a, b)) continue;
      ex->fine[k] = (ExEdge){a, b, arena_strdup(&x->arena, name)};
      memmove(ex->fine + k + 1, ex->fine + k + 2, sizeof(ExEdge) * (size_t)(ex->nfine - k - 2));
      ex->nfine--;
      t--;
      for (int j = i + 1; j <= ex->nedges; j++) ex->start[j]--;
    }
  }
}

/* "acyclic co | prop" -> "co | prop" */
static const char *check_expr(const char *text) {
  const char *sp = strchr(text, ' ');
  return sp ? sp + 1 : text;
}

static void capture_rejected(Explanation *x, const ExecView *v, int group) {
  CatWitness w;
  Arena tmp;
  arena_init(&tmp);
  bool ok = run_explain(v->run, v->failure, &w, &tmp);
  ExExec *ex = capture_common(x, v);
  ex->group = group;
  if (ok) {
    Labels l;
    labels_init(&l, v);
    ex->kind = w.kind;
    if (w.kind == CW_EVENT) {
      ex->event = w.node[0];
      ex->ev[ex->event].listed = true;
    } else if (w.kind != CW_NONE) {
      ex->nedges = w.nedges;
      ex->edges = ARENA_NEWN(&x->arena, ExEdge, w.nedges);
      ex->start = ARENA_NEWN(&x->arena, int, w.nedges + 1);
      for (int i = 0; i < w.nedges; i++) {
        int a = w.node[i], b = w.node[i + 1];
        /* an edge that is one step: named as the step is */
        const CatStep *one = w.start[i + 1] - w.start[i] == 1 ? &w.fine[w.start[i]] : NULL;
        const char *lab = pick(&l, a, b, one && !one->opaque ? one->via : NULL, w.checked, false);
        if (!lab) lab = check_expr(x->groups.data[group].text);
        ex->edges[i] = (ExEdge){a, b, arena_strdup(&x->arena, lab)};
        ex->start[i] = w.start[i];
      }
      ex->start[w.nedges] = w.nfine;
      ex->nfine = w.nfine;
      ex->fine = ARENA_NEWN(&x->arena, ExEdge, w.nfine + 1);
      for (int i = 0; i < w.nfine; i++) {
        const CatStep *s = &w.fine[i];
        ex->fine[i] = (ExEdge){s->a, s->b, arena_strdup(&x->arena, label_of(&l, s->a, s->b, s->via, s->opaque))};
      }
      merge_fences(x, v, ex);
      mark_listed(ex, ex->edges, ex->nedges);
      mark_listed(ex, ex->fine, ex->nfine);
    }
    labels_free(&l);
  }
  arena_free(&tmp);
}

/* ---------------------------------------------------------- accepted */

/* The shown relations that hold edges, listed in the explanation. */
static void capture_shown(Explanation *x, const Labels *shown, ExExec *ex) {
  ex->shown = ARENA_NEWN(&x->arena, ExRel, shown->name.len + 1);
  ex->nshown = 0;
  for (int i = 0; i < shown->name.len; i++) {
    if (!shown->count.data[i]) continue;
    ExRel *r = &ex->shown[ex->nshown++];
    r->name = arena_strdup(&x->arena, shown->name.data[i]);
    r->e = edges_of(x, shown->d, shown->rel.data[i], false, &r->n);
  }
}

/* An edge of an accepted execution: named by the smallest relation it
 * shows that holds it, as its graph draws it and as the explanation lists
 * them, else by the model's vocabulary. */
static const char *shown_label(const Labels *shown, const Labels *l, int a, int b) {
  const char *n = pick(shown, a, b, NULL, NULL, false);
  return n ? n : label_of(l, a, b, NULL, false);
}

/* The cycle of po | rf | co | fr over memory events that sequential
 * consistency forbids, if the execution has one. */
static void capture_sc(Explanation *x, const ExecView *v, ExExec *ex, const Labels *shown,
                       const Labels *l) {
  const EventStructure *es = v->es;
  Dim d = v->d;
  const Word *co = named_relation(v->run, "co");
  size_t words = (size_t)rel_words(d);
  Word *com = xcalloc(words * 3, sizeof(Word)), *inv = com + words, *fr = com + 2 * words;
  rel_or(d, com, com, v->rf);
  if (co) {
    rel_or(d, com, com, co);
    rel_inverse(d, inv, v->rf);
    rel_compose(d, fr, inv, co);
    for (int e = 0; e < d.n; e++) rel_row(d, fr, e)[e >> 6] &= ~((Word)1 << (e & 63));
    rel_or(d, com, com, fr);
  }
  for (int a = 0; a < d.n; a++)
    for (int b = 0; b < d.n; b++)
      if ((es->ev[a].flags & EV_MEM) && (es->ev[b].flags & EV_MEM) &&
          rel_get(es->full, es->po_full, a, b))
        rel_set(d, com, a, b);
  int *path = xmalloc(sizeof(int) * (size_t)(4 * d.n + 2));
  int k = rel_shortest_cycle(d, com, path, path + d.n + 1);
  ex->nsc = k;
  ex->sc = ARENA_NEWN(&x->arena, ExEdge, k + 1);
  for (int i = 0; i < k; i++)
    ex->sc[i] = (ExEdge){path[i], path[i + 1],
                         arena_strdup(&x->arena, shown_label(shown, l, path[i], path[i + 1]))};
  mark_listed(ex, ex->sc, ex->nsc);
  free(path);
  /* observation orders: r1 -po-> r2 in one thread, r1 reads an external w1,
   * r2 reads a value older than an external w2 of another location */
  VEC(ExObs) obs = {0};
  for (int r1 = 0; r1 < d.n && co; r1++) {
    const Event *e1 = &es->ev[r1];
    if ((e1->flags & EV_MEM) != EV_R) continue;
    int w1 = -1;
    for (int w = 0; w < d.n; w++)
      if (rel_get(d, v->rf, w, r1)) w1 = w;
    if (w1 < 0 || (es->ev[w1].flags & EV_INIT) || es->ev[w1].thread == e1->thread) continue;
    for (int r2 = 0; r2 < d.n; r2++) {
      if ((es->ev[r2].flags & EV_MEM) != EV_R || !rel_get(es->full, es->po_full, r1, r2)) continue;
      for (int w2 = 0; w2 < d.n; w2++) {
        const Event *f2 = &es->ev[w2];
        if (!rel_get(d, fr, r2, w2) || (f2->flags & EV_INIT) || f2->thread == e1->thread ||
            !memcmp(&v->loc[w2], &v->loc[w1], sizeof(Val)))
          continue;
        ExObs o = {e1->thread, w1, w2, r1, r2,
                   arena_strdup(&x->arena, shown_label(shown, l, r1, r2))};
        vec_push(obs, o);
        ex->ev[w1].listed = ex->ev[w2].listed = true;
      }
    }
  }
  ex->nobs = obs.len;
  ex->obs = ARENA_NEWN(&x->arena, ExObs, obs.len + 1);
  if (obs.len) memcpy(ex->obs, obs.data, sizeof(ExObs) * (size_t)obs.len);
  vec_free(obs);
  free(com);
}

static void capture_accepted(Explanation *x, const ExecView *v) {
  ExExec *ex = capture_common(x, v);
  ex->group = -1;
  Labels shown, l;
  labels_shown(&shown, v);
  capture_shown(x, &shown, ex);
  labels_init(&l, v);
  capture_sc(x, v, ex, &shown, &l);
  labels_free(&shown);
  labels_free(&l);
}

/* ------------------------------------------------------------- sink */

Explanation *explain_new(const Program *p, const ExplainOpts *o) {
  Explanation *x = xcalloc(1, sizeof *x);
  arena_init(&x->arena);
  x->p = p;
  x->o = *o;
  return x;
}

void explain_free(Explanation *x) {
  if (!x) return;
  vec_free(x->groups);
  vec_free(x->execs);
  arena_free(&x->arena);
  free(x);
}

int explain_run_mode(const ExplainOpts *o) {
  return o->reached ? RUN_CAPTURE : RUN_EXPLAIN;
}

/* With -explain-all, explanations stop after this many executions. */
enum { MAX_EXPLAINED = 1000 };

void explain_sink(void *ctx, const ExecView *v) {
  Explanation *x = ctx;
  if (!v->cond_true) return;
  x->nreach++;
  if (v->failure) {
    if (x->o.reached) return;
    int g = group_of(x, v);
    if (x->groups.data[g].count++ && !x->o.all) return;
    if (x->execs.len < MAX_EXPLAINED) capture_rejected(x, v, g);
  } else if (x->o.reached && x->execs.len == 0) {
    capture_accepted(x, v);
  }
}

/* ------------------------------------------------------------- text */

static void put_edges(const ExExec *ex, const ExEdge *e, int n, StrBuf *b) {
  for (int i = 0; i < n; i++) {
    if (i == 0) sb_puts(b, ex->ev[e[i].a].name);
    sb_printf(b, " -%s-> %s", e[i].label, ex->ev[e[i].b].name);
  }
}

static void put_pairs(const ExExec *ex, const ExEdge *e, int n, StrBuf *b) {
  for (int i = 0; i < n; i++)
    sb_printf(b, "%s%s -> %s", i ? ", " : "", ex->ev[e[i].a].name, ex->ev[e[i].b].name);
  if (!n) sb_puts(b, "(none)");
}

/* Immediate coherence edges as chains, one per location: Ix -> a -> b. */
static void put_chains(const ExExec *ex, const ExEdge *e, int n, StrBuf *b) {
  bool first = true;
  for (int i = 0; i < n; i++) {
    bool head = true;
    for (int k = 0; k < n; k++) head &= e[k].b != e[i].a;
    if (!head) continue;
    sb_printf(b, "%s%s", first ? "" : ", ", ex->ev[e[i].a].name);
    first = false;
    for (int cur = i, steps = 0; cur >= 0 && steps <= n; steps++) {
      sb_printf(b, " -> %s", ex->ev[e[cur].b].name);
      int next = -1;
      for (int k = 0; k < n; k++)
        if (e[k].a == e[cur].b) next = k;
      cur = next;
    }
  }
  if (first) sb_puts(b, "(none)");
}

static void put_exec(const ExExec *ex, StrBuf *b) {
  sb_puts(b, "    events:\n");
  for (int e = 0; e < ex->nev; e++) {
    const ExEvent *xe = &ex->ev[e];
    if (!xe->listed) continue;
    if (xe->thread < 0) sb_puts(b, "      init");
    else sb_printf(b, "      P%-3d", xe->thread);
    sb_printf(b, " %s: %s", xe->name, xe->desc);
    int pad = 16 - (int)strlen(xe->desc);
    if (xe->instr) sb_printf(b, "%*s%s", pad > 1 ? pad : 1, "", xe->instr);
    sb_putc(b, '\n');
  }
  sb_puts(b, "    rf: ");
  put_pairs(ex, ex->rf, ex->nrf, b);
  sb_puts(b, "\n");
  if (ex->co) {
    sb_puts(b, "    co: ");
    put_chains(ex, ex->co, ex->nco, b);
    sb_puts(b, "\n");
  }
  sb_printf(b, "    final state: %s\n", ex->state);
}

/* herd's own relations that no model file defines, said in words when a
 * witness uses them */
static void put_glosses(const ExExec *ex, StrBuf *b) {
  static const char *const glosses[][2] = {
      {"co0", "the initial write of a location is co-before its other writes, and the "
              "write the final state shows is co-last"},
  };
  for (size_t g = 0; g < ARRAY_LEN(glosses); g++) {
    bool used = false;
    for (int i = 0; i < ex->nfine; i++) used |= !strcmp(ex->fine[i].label, glosses[g][0]);
    if (used) sb_printf(b, "    (%s: %s)\n", glosses[g][0], glosses[g][1]);
  }
}

static void put_witness(const ExExec *ex, const ExGroup *g, StrBuf *b) {
  switch (ex->kind) {
  case CW_NONE:
    sb_puts(b, "    (a negated check: nothing to show)\n");
    return;
  case CW_EVENT:
    sb_printf(b, "    %s is in a set that must be empty: %s: %s\n", g->text,
              ex->ev[ex->event].name, ex->ev[ex->event].desc);
    return;
  case CW_PAIR:
  case CW_CYCLE:
    break;
  }
  const char *what = ex->kind == CW_CYCLE ? "cycle" : ex->edges[0].a == ex->edges[0].b
                                                          ? "self edge" : "pair";
  sb_printf(b, "    %s: ", what);
  put_edges(ex, ex->edges, ex->nedges, b);
  sb_putc(b, '\n');
  bool refined = false;
  for (int i = 0; i < ex->nedges; i++) refined |= ex->start[i + 1] - ex->start[i] > 1;
  if (!refined) {
    put_glosses(ex, b);
    return;
  }
  for (int i = 0; i < ex->nedges; i++) {
    const ExEdge *f = &ex->fine[ex->start[i]];
    if (ex->start[i + 1] - ex->start[i] == 1 && !strcmp(f->label, ex->edges[i].label))
      continue; /* "c -po-> d is c -po-> d" says nothing */
    sb_printf(b, "      %s -%s-> %s is ", ex->ev[ex->edges[i].a].name, ex->edges[i].label,
              ex->ev[ex->edges[i].b].name);
    put_edges(ex, ex->fine + ex->start[i], ex->start[i + 1] - ex->start[i], b);
    sb_putc(b, '\n');
  }
  if (ex->kind == CW_CYCLE || ex->edges[0].a == ex->edges[0].b) {
    /* the whole cycle, from its first event in program order */
    int first = 0;
    for (int i = 1; i < ex->nfine; i++)
      if (ex->fine[i].a < ex->fine[first].a) first = i;
    sb_puts(b, "    that is: ");
    sb_puts(b, ex->ev[ex->fine[first].a].name);
    for (int k = 0; k < ex->nfine; k++) {
      const ExEdge *e = &ex->fine[(first + k) % ex->nfine];
      sb_printf(b, " -%s-> %s", e->label, ex->ev[e->b].name);
    }
    sb_putc(b, '\n');
  }
  put_glosses(ex, b);
}

static void put_group_head(const ExGroup *g, StrBuf *b) {
  if (g->name) sb_printf(b, "  Check %s (%s", g->name, g->text);
  else sb_printf(b, "  Check %s (", g->text);
  if (g->pos.file) {
    const char *base = strrchr(g->pos.file, '/');
    sb_printf(b, "%s%s:%d:%d", g->name ? ", " : "", base ? base + 1 : g->pos.file,
              g->pos.line, g->pos.col);
  }
  sb_printf(b, ") rejects %llu execution%s reaching the condition\n",
            (unsigned long long)g->count, g->count == 1 ? "" : "s");
}

static void put_accepted(const ExExec *ex, StrBuf *b) {
  sb_puts(b, "  Witness: an execution the model accepts\n");
  put_exec(ex, b);
  for (int i = 0; i < ex->nshown; i++) {
    if (!strcmp(ex->shown[i].name, "co") && ex->co) continue; /* printed above */
    sb_printf(b, "    %s: ", ex->shown[i].name);
    put_pairs(ex, ex->shown[i].e, ex->shown[i].n, b);
    sb_putc(b, '\n');
  }
  if (ex->nsc) {
    sb_puts(b, "    a cycle sequential consistency forbids: ");
    put_edges(ex, ex->sc, ex->nsc, b);
    sb_putc(b, '\n');
  }
  for (int i = 0; i < ex->nobs; i++) {
    const ExObs *o = &ex->obs[i];
    sb_printf(b, "    P%d sees %s before %s (%s -%s-> %s)\n", o->thread, ex->ev[o->w1].name,
              ex->ev[o->w2].name, ex->ev[o->r1].name, o->label, ex->ev[o->r2].name);
  }
  for (int i = 0; i < ex->nobs; i++)
    for (int k = i + 1; k < ex->nobs; k++)
      if (ex->obs[i].w1 == ex->obs[k].w2 && ex->obs[i].w2 == ex->obs[k].w1 &&
          ex->obs[i].thread != ex->obs[k].thread)
        sb_printf(b, "    %s and %s propagate to P%d and P%d in different orders\n",
                  ex->ev[ex->obs[i].w1].name, ex->ev[ex->obs[i].w2].name, ex->obs[i].thread,
                  ex->obs[k].thread);
}

void explain_text(const Explanation *x, StrBuf *b) {
  const Test *t = x->p->test;
  sb_printf(b, "Explain %s\n", t->name);
  if (x->o.reached) {
    sb_puts(b, "  The condition is reached.\n");
    if (x->execs.len) put_accepted(&x->execs.data[0], b);
  } else if (x->nreach == 0) {
    sb_puts(b, "  The condition is never reached: no candidate execution has a final state "
               "satisfying it, whatever the model.\n");
  } else {
    if (x->nreach == 1)
      sb_puts(b, "  The condition is never reached: the model rejects the only candidate "
                 "execution whose final state satisfies it.\n");
    else
      sb_printf(b, "  The condition is never reached: the model rejects all %llu candidate "
                   "executions whose final state satisfies it.\n",
                (unsigned long long)x->nreach);
    for (int g = 0; g < x->groups.len; g++) {
      const ExGroup *gr = &x->groups.data[g];
      put_group_head(gr, b);
      int k = 0;
      for (int i = 0; i < x->execs.len; i++) {
        const ExExec *ex = &x->execs.data[i];
        if (ex->group != g) continue;
        if (x->o.all) sb_printf(b, "    execution %d:\n", ++k);
        put_exec(ex, b);
        put_witness(ex, gr, b);
      }
    }
  }
  sb_putc(b, '\n');
}

/* -------------------------------------------------------------- run */

/* explain_sink, then the options' probe on what it kept */
static void probed_sink(void *ctx, const ExecView *v) {
  Explanation *x = ctx;
  int first = x->execs.len;
  explain_sink(x, v);
  x->o.probe(x->o.probe_ctx, x, v, first);
}

Explanation *explain_capture(Program *p, const CProg *prog, const EngineOpts *eo,
                             const ExplainOpts *xo, Err *err) {
  Explanation *volatile x = explain_new(p, xo);
  EngineOpts o = *eo;
  o.run_mode = explain_run_mode(xo);
  o.exec_sink = xo->probe ? probed_sink : explain_sink;
  o.sink_ctx = x;
  Arena a;
  arena_init(&a);
  Outcome out;
  ErrJmp j;
  err_push(err, &j);
  if (setjmp(j.jb) == 0) {
    engine_run(p, prog, &o, &out, &a, err);
    err_pop(err, &j);
    outcome_free(&out);
  } else {
    explain_free(x);
    x = NULL;
  }
  arena_free(&a);
  return x;
}

char *explain_run(Program *p, const CProg *prog, const EngineOpts *eo,
                  const ExplainOpts *xo, ExplainFormat fmt, const char *dot_path,
                  Err *err) {
  Explanation *x = explain_capture(p, prog, eo, xo, err);
  if (!x) return NULL;
  StrBuf b;
  sb_init(&b);
  if (fmt == EXPLAIN_JSON) explain_json(x, &b);
  else explain_text(x, &b);
  char *text = xstrdup(sb_cstr(&b));
  if (dot_path) {
    sb_clear(&b);
    explain_dot(x, &b);
    FILE *f = fopen(dot_path, "w");
    bool ok = f && fputs(sb_cstr(&b), f) >= 0;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) {
      /* the explanation itself is still worth printing */
      char *with = xmalloc(strlen(text) + strlen(dot_path) + 64);
      sprintf(with, "%sWarning: cannot write %s\n", text, dot_path);
      free(text);
      text = with;
    }
  }
  sb_free(&b);
  explain_free(x);
  return text;
}
