/*
 * bell_check.c — herd7's check of a bell test (LISA) against its bell file
 * (lib/BellCheck.ml, lib/BellModel.ml).
 *
 * A bell file declares which annotation lists each kind of instruction
 * may carry: `instructions F[Fences]` allows a fence one annotation taken
 * from the enum Fences, `instructions R[{'e,'p}]` a read one of 'e, 'p; a
 * declaration with n arguments allows lists of n annotations, the i-th
 * from the i-th argument; several declarations of a kind are
 * alternatives.  A kind with no declaration allows only the empty list.
 * An instruction whose list matches no declaration is refused with herd's
 * message ("annotation error, instruction '...' does not match bell
 * declarations", then the kind's declarations).
 *
 * What is not reproduced: `default` declarations (an empty list replaced
 * by the default), and arguments other than an enum's name, a tag or a
 * set of tags (those accept any annotation).
 */
#include "bell_check.h"

#include <stdlib.h>
#include <string.h>

#include "../cat/ast.h"
#include "../isa/isa.h"

enum { MAX_GROUP = 8, MAX_DECLS = 32, MAX_SET = 64 };

/* One argument of a declaration: the tag names it allows, or any. */
typedef struct ArgSet {
  bool any;
  const char *tags[MAX_SET];
  int n;
} ArgSet;

typedef struct Decl {
  const char *kind;
  ArgSet args[MAX_GROUP];
  int nargs;
} Decl;

typedef struct Decls {
  Decl v[MAX_DECLS];
  int n;
  const InsList *body;
  const Interner *in;
} Decls;

static void add_tag(ArgSet *s, const char *tag) {
  for (int i = 0; i < s->n; i++)
    if (strcmp(s->tags[i], tag) == 0) return;
  if (s->n < MAX_SET) s->tags[s->n++] = tag;
  else s->any = true;
}

/* The tags of enum `name` declared in the bell file, into s. */
static bool enum_tags(const Decls *d, int name, ArgSet *s) {
  for (int i = 0; i < d->body->n; i++) {
    const Ins *in = d->body->v[i];
    if (in->kind != I_ENUM || in->name != name) continue;
    for (int k = 0; k < in->nnames; k++) add_tag(s, intern_name(d->in, in->names[k]));
    return true;
  }
  return false;
}

static void arg_set(const Decls *d, const Expr *e, ArgSet *s) {
  memset(s, 0, sizeof *s);
  if (e->kind == E_VAR && enum_tags(d, e->name, s)) return;
  if (e->kind == E_TAG) {
    add_tag(s, intern_name(d->in, e->name));
    return;
  }
  if (e->kind == E_EMPTY) return;
  if (e->kind == E_SET) {
    for (int i = 0; i < e->nargs; i++) {
      if (e->args[i]->kind != E_TAG) {
        s->any = true;
        return;
      }
      add_tag(s, intern_name(d->in, e->args[i]->name));
    }
    return;
  }
  s->any = true;
}

static void collect(Decls *d) {
  for (int i = 0; i < d->body->n && d->n < MAX_DECLS; i++) {
    const Ins *in = d->body->v[i];
    if (in->kind != I_INSTRUCTIONS) continue;
    Decl *x = &d->v[d->n++];
    x->kind = intern_name(d->in, in->name);
    x->nargs = in->nargs < MAX_GROUP ? in->nargs : MAX_GROUP;
    for (int k = 0; k < x->nargs; k++) arg_set(d, in->args[k], &x->args[k]);
  }
}

static bool matches(const Decl *x, const Instr *ins, const ArchOps *ops, int nannots) {
  if (x->nargs != nannots) return false;
  char buf[128];
  for (int i = 0; i < x->nargs; i++) {
    if (x->args[i].any) continue;
    ops->bell_annot(ins, i, buf, sizeof buf);
    bool in = false;
    for (int k = 0; k < x->args[i].n && !in; k++) in = strcmp(x->args[i].tags[k], buf) == 0;
    if (!in) return false;
  }
  return true;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* herd's pp_event_dec: "[{a,b}, {c}],[{d}]", sets sorted; "[]" for a kind
 * without declaration (its only group is the empty one). */
static void print_decls(const Decls *d, const char *kind, StrBuf *msg) {
  bool first = true;
  for (int i = 0; i < d->n; i++) {
    const Decl *x = &d->v[i];
    if (strcmp(x->kind, kind) != 0) continue;
    if (!first) sb_putc(msg, ',');
    first = false;
    sb_putc(msg, '[');
    for (int a = 0; a < x->nargs; a++) {
      const char *tags[MAX_SET];
      int n = x->args[a].n;
      memcpy(tags, x->args[a].tags, sizeof(char *) * (size_t)n);
      qsort(tags, (size_t)n, sizeof *tags, cmp_str);
      sb_puts(msg, a ? ", {" : "{");
      for (int k = 0; k < n; k++) sb_printf(msg, "%s%s", k ? "," : "", tags[k]);
      sb_putc(msg, '}');
    }
    sb_putc(msg, ']');
  }
  if (first) sb_puts(msg, "[]");
}

bool bell_check_test(const Test *t, const CatModel *m, SrcPos *pos, StrBuf *msg) {
  const ArchOps *ops = t->ops;
  if (!isa_has(t->arch, ISA_BELL) || !m->bell || !ops->bell_kind) return true;
  Decls *d = calloc(1, sizeof *d);
  if (!d) return true;
  d->body = &m->bell->body;
  d->in = &m->names.in;
  collect(d);
  bool ok = true;
  for (int th = 0; th < t->nthreads && ok; th++)
    for (int k = 0; k < t->threads[th].nentries && ok; k++) {
      const Instr *ins = t->threads[th].entries[k].ins;
      const char *kind = ins ? ops->bell_kind(ins) : NULL;
      if (!kind) continue;
      char buf[128];
      int nannots = 0;
      while (ops->bell_annot(ins, nannots, buf, sizeof buf)) nannots++;
      bool any_decl = false, match = false;
      for (int i = 0; i < d->n && !match; i++)
        if (strcmp(d->v[i].kind, kind) == 0) any_decl = true, match = matches(&d->v[i], ins, ops, nannots);
      if (!any_decl) match = nannots == 0;
      if (match) continue;
      ok = false;
      *pos = ins->pos;
      sb_puts(msg, "annotation error, instruction '");
      t->ops->print_instr(ins, msg, NULL, NULL);
      sb_printf(msg, "' does not match bell declarations\n%s: ", kind);
      print_decls(d, kind, msg);
    }
  free(d);
  return ok;
}
