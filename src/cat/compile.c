/*
 * compile.c — from the parsed files of a model to a flat, resolved
 * program (see cprog.h).
 *
 * The walk follows execution order: stdlib.cat, the bell file, the model,
 * with each `include` expanded in place (a fresh copy every time, as herd7
 * re-executes included files) and each `if "variant"` replaced by the
 * branch the configuration selects.  Names are resolved against a
 * compile-time image of the environment: a stack of lexical scopes for
 * function frames, and `gmap` (name -> latest global slot) for top-level
 * bindings.  Anything still unbound is a primitive or a predefined name of
 * the engine; whether the engine knows it is only found out at run time,
 * where `try ... with` may catch the error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cprog.h"

typedef struct FrameInfo {
  int nlocals;
} FrameInfo;

typedef struct ScopeEnt {
  int name, slot;
} ScopeEnt;

typedef struct Scope {
  struct Scope *up;
  FrameInfo *frame;     /* the frame whose slots this scope's names use */
  bool frame_root;      /* entering this scope from `up` enters a new frame */
  ScopeEnt *ents;       /* in the program's arena: a compile error that
                         * jumps out of a scope leaves nothing to free */
  int n, cap;
  Arena *a;
} Scope;

typedef struct ProcEnt {
  int name;
  CProc *proc;
} ProcEnt;

typedef struct TagEnt {
  int name, type, index;
} TagEnt;

typedef struct Comp {
  CProg *p;
  CatModel *m;
  const CatConfig *cfg;
  Err *err;
  Arena *a;
  VEC(int) gmap;        /* name -> global slot + 1 */
  VEC(int) gname;       /* slot -> name */
  VEC(int) gdepth;      /* slot -> fork depth */
  VEC(int) gnlocals;
  VEC(CExpr *) gexpr;
  VEC(uint8_t) gkind;
  VEC(const CIns *) gletrec;
  VEC(ProcEnt) procs;
  VEC(TagEnt) tags;
  VEC(EnumType) enums;
  VEC(const char *) flags;
  VEC(int) annot_kinds;
  VEC(int) annot_enums;
  int8_t *prim_of;      /* name -> primitive or -1 (prim_table) */
  int nnames;           /* names prim_of covers */
  int fork_depth;
  int include_depth;
  int in_bell;          /* compiling the bell file: checks are ignored */
} Comp;

static CR_NORETURN void cerr(Comp *c, SrcPos pos, const char *fmt, ...)
    CR_PRINTF(3, 4);
static void cerr(Comp *c, SrcPos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  err_vraise(c->err, ERRK_SEMANTIC, pos, fmt, ap);
}

static const char *nm(Comp *c, int id) {
  return id >= 0 ? intern_name(&c->m->names.in, id) : "_";
}

/* ------------------------------------------------------------ scopes */

static void scope_add(Scope *s, int name, int slot) {
  if (s->n == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 8;
    ScopeEnt *e = arena_alloc(s->a, sizeof(ScopeEnt) * (size_t)s->cap);
    if (s->n) memcpy(e, s->ents, sizeof(ScopeEnt) * (size_t)s->n);
    s->ents = e;
  }
  s->ents[s->n].name = name;
  s->ents[s->n].slot = slot;
  s->n++;
}


static int frame_slot(Scope *s) { return s->frame->nlocals++; }

/* Bind `name` in scope s to a new slot of its frame (-1 for "_"). */
static int scope_bind(Scope *s, int name) {
  if (name < 0) return -1;
  int slot = frame_slot(s);
  scope_add(s, name, slot);
  return slot;
}

/* Look a name up through the lexical scopes: returns true with the slot
 * and how many frames up it is. */
static bool scope_lookup(const Scope *s, int name, int *slot, int *depth) {
  int d = 0;
  for (; s; s = s->up) {
    for (int i = s->n - 1; i >= 0; i--)
      if (s->ents[i].name == name) {
        *slot = s->ents[i].slot;
        *depth = d;
        return true;
      }
    if (s->frame_root) d++;
  }
  return false;
}

/* ------------------------------------------------------------ globals */

static int global_lookup(Comp *c, int name) {
  if (name < c->gmap.len && c->gmap.data[name]) return c->gmap.data[name] - 1;
  return -1;
}

static int global_new(Comp *c, int name, CExpr *e, int nlocals) {
  int slot = c->gname.len;
  vec_push(c->gkind, GK_THUNK);
  vec_push(c->gletrec, (const CIns *)NULL);
  vec_push(c->gname, name);
  vec_push(c->gdepth, c->fork_depth);
  vec_push(c->gnlocals, nlocals);
  vec_push(c->gexpr, e);
  if (name >= 0) {
    while (c->gmap.len <= name) vec_push(c->gmap, 0);
    c->gmap.data[name] = slot + 1;
  }
  return slot;
}

static CProc *proc_lookup(Comp *c, int name) {
  for (int i = c->procs.len - 1; i >= 0; i--)
    if (c->procs.data[i].name == name) return c->procs.data[i].proc;
  return NULL;
}

static bool tag_lookup(Comp *c, int name, int *type, int *index) {
  for (int i = c->tags.len - 1; i >= 0; i--)
    if (c->tags.data[i].name == name) {
      *type = c->tags.data[i].type;
      *index = c->tags.data[i].index;
      return true;
    }
  return false;
}

/* ---------------------------------------------------------- variants */

/* herd's variant names for one variant: kvm is vmsa */
static bool same_variant(const char *a, const char *b) {
  if (strcasecmp(a, "kvm") == 0) a = "vmsa";
  if (strcasecmp(b, "kvm") == 0) b = "vmsa";
  return strcasecmp(a, b) == 0;
}

static bool variant_set(Comp *c, const char *v) {
  for (int i = 0; i < c->cfg->nvariants; i++)
    if (same_variant(c->cfg->variants[i], v)) return true;
  return false;
}

static bool vcond_eval(Comp *c, const VCond *v) {
  switch (v->kind) {
  case VC_NAME:
    return variant_set(c, v->name);
  case VC_NOT:
    return !vcond_eval(c, v->a);
  case VC_AND:
    return vcond_eval(c, v->a) && vcond_eval(c, v->b);
  case VC_OR:
    return vcond_eval(c, v->a) || vcond_eval(c, v->b);
  }
  return false;
}

/* -------------------------------------------------------- expressions */

static CExpr *cexpr(Comp *c, const Expr *e, Scope *s);

static CExpr *cnode(Comp *c, const Expr *e, int kind) {
  CExpr *x = ARENA_NEW(c->a, CExpr);
  x->kind = kind;
  x->pos = e->pos;
  x->name = -1;
  x->elt = x->rest = x->before = -1;
  x->cache = -1;
  return x;
}

static CPat cpat(Comp *c, const Pat *p, Scope *s) {
  CPat r = {0};
  r.is_tuple = p->is_tuple;
  if (!p->is_tuple) {
    r.slot = scope_bind(s, p->name);
    return r;
  }
  r.n = p->nnames;
  r.slots = ARENA_NEWN(c->a, int, p->nnames + 1);
  for (int i = 0; i < p->nnames; i++) r.slots[i] = scope_bind(s, p->names[i]);
  r.slot = -1;
  return r;
}

static CExpr *cvar(Comp *c, const Expr *e, Scope *s) {
  int slot, depth;
  CExpr *x;
  if (scope_lookup(s, e->name, &slot, &depth)) {
    x = cnode(c, e, CV_LOCAL);
    x->slot = slot;
    x->depth = depth;
  } else if ((slot = global_lookup(c, e->name)) >= 0) {
    x = cnode(c, e, CV_GLOBAL);
    x->slot = slot;
  } else {
    x = cnode(c, e, CV_PREDEF);
  }
  x->name = e->name;
  return x;
}

static CExpr **cexprs(Comp *c, Expr **v, int n, Scope *s) {
  CExpr **r = ARENA_NEWN(c->a, CExpr *, n + 1);
  for (int i = 0; i < n; i++) r[i] = cexpr(c, v[i], s);
  return r;
}

static CFun *cfun(Comp *c, const Pat *param, const Expr *body, Scope *s,
                  int name) {
  FrameInfo *fi = ARENA_NEW(c->a, FrameInfo);
  Scope fs = {.a = c->a};
  fs.up = s;
  fs.frame = fi;
  fs.frame_root = true;
  CFun *f = ARENA_NEW(c->a, CFun);
  f->param = cpat(c, param, &fs);
  f->body = cexpr(c, body, &fs);
  f->nlocals = fi->nlocals;
  f->name = name;
  return f;
}

/* let / let rec inside an expression: names live in the current frame. */
static CExpr *clet(Comp *c, const Expr *e, Scope *s, bool rec) {
  CExpr *x = cnode(c, e, rec ? E_LETREC : E_LET);
  Scope ls = {.a = c->a};
  ls.up = s;
  ls.frame = s->frame;
  x->nbinds = e->nbinds;
  x->binds = ARENA_NEWN(c->a, CBind, e->nbinds + 1);
  if (rec) {
    for (int i = 0; i < e->nbinds; i++)
      x->binds[i].pat = cpat(c, &e->binds[i].pat, &ls);
    for (int i = 0; i < e->nbinds; i++) {
      x->binds[i].e = cexpr(c, e->binds[i].e, &ls);
      x->binds[i].is_fun = e->binds[i].e->kind == E_FUN;
    }
  } else {
    for (int i = 0; i < e->nbinds; i++) {
      x->binds[i].e = cexpr(c, e->binds[i].e, s);
      x->binds[i].is_fun = e->binds[i].e->kind == E_FUN;
    }
    for (int i = 0; i < e->nbinds; i++)
      x->binds[i].pat = cpat(c, &e->binds[i].pat, &ls);
  }
  x->a = cexpr(c, e->a, &ls);
  return x;
}

static CExpr *cexpr(Comp *c, const Expr *e, Scope *s) {
  CExpr *x;
  switch (e->kind) {
  case E_VAR:
    if (e->name >= 0 && e->name < c->nnames && c->prim_of[e->name] >= 0) {
      int p = c->prim_of[e->name];
      int slot, depth;
      if (!scope_lookup(s, e->name, &slot, &depth) && global_lookup(c, e->name) < 0) {
        x = cnode(c, e, CV_PRIM);
        x->name = e->name;
        x->slot = p;
        if (prim_is_different_values(p)) c->p->uses_values = true;
        return x;
      }
    }
    return cvar(c, e, s);
  case E_TAG: {
    int type, index;
    if (tag_lookup(c, e->name, &type, &index)) {
      x = cnode(c, e, E_TAG);
      x->tag_type = type;
      x->tag = index;
    } else {
      x = cnode(c, e, CV_TAGERR);
    }
    x->name = e->name;
    return x;
  }
  case E_FUN:
    x = cnode(c, e, E_FUN);
    x->fun = cfun(c, &e->param, e->a, s, -1);
    return x;
  case E_LET:
    return clet(c, e, s, false);
  case E_LETREC:
    return clet(c, e, s, true);
  case E_IF:
    x = cnode(c, e, E_IF);
    x->cond = ARENA_NEW(c->a, CCond);
    x->cond->kind = e->cond->kind;
    if (e->cond->kind == C_VARIANT)
      x->cond->variant_value = vcond_eval(c, e->cond->v);
    else {
      x->cond->a = cexpr(c, e->cond->a, s);
      x->cond->b = cexpr(c, e->cond->b, s);
    }
    x->a = cexpr(c, e->a, s);
    x->b = cexpr(c, e->b, s);
    return x;
  case E_MATCH_TAG:
    x = cnode(c, e, E_MATCH_TAG);
    x->a = cexpr(c, e->a, s);
    x->nclauses = e->nclauses;
    x->clauses = ARENA_NEWN(c->a, CTagClause, e->nclauses + 1);
    for (int i = 0; i < e->nclauses; i++) {
      int type, index;
      x->clauses[i].tag =
          tag_lookup(c, e->clauses[i].tag, &type, &index) ? index : -1;
      x->clauses[i].e = cexpr(c, e->clauses[i].e, s);
    }
    x->dflt = e->dflt ? cexpr(c, e->dflt, s) : NULL;
    return x;
  case E_MATCH_SET: {
    x = cnode(c, e, E_MATCH_SET);
    x->a = cexpr(c, e->a, s);
    x->e_empty = cexpr(c, e->e_empty, s);
    Scope ms = {.a = c->a};
    ms.up = s;
    ms.frame = s->frame;
    x->before = e->before >= 0 ? scope_bind(&ms, e->before) : -1;
    x->elt = scope_bind(&ms, e->elt);
    x->rest = scope_bind(&ms, e->rest);
    x->e_cons = cexpr(c, e->e_cons, &ms);
      return x;
  }
  default:
    break;
  }
  /* Structural nodes. */
  x = cnode(c, e, e->kind);
  x->name = e->name;
  if (e->nargs) {
    x->nargs = e->nargs;
    x->args = cexprs(c, e->args, e->nargs, s);
  }
  if (e->a) x->a = cexpr(c, e->a, s);
  if (e->b) x->b = cexpr(c, e->b, s);
  return x;
}

/* ------------------------------------------------------- instructions */

typedef VEC(CIns *) InsVec;

static CIns *cins_new(Comp *c, CInsKind k, SrcPos pos) {
  CIns *i = ARENA_NEW(c->a, CIns);
  i->kind = k;
  i->pos = pos;
  i->prune_with = -1;
  i->check_name = -1;
  i->flag = -1;
  i->slot = -1;
  return i;
}

static void ins_list(Comp *c, const InsList *l, Scope *s, InsVec *out);

static CInsList finish_list(Comp *c, InsVec *v) {
  CInsList l;
  l.n = v->len;
  l.v = ARENA_NEWN(c->a, CIns *, v->len + 1);
  if (v->len) memcpy(l.v, v->data, sizeof(CIns *) * (size_t)v->len);
  vec_free(*v);
  return l;
}

/* Compile an expression that appears at instruction level: in scope s if
 * inside a local body, else in a fresh frame whose size goes to *nlocals. */
static CExpr *ctop_expr(Comp *c, const Expr *e, Scope *s, int *nlocals) {
  if (s) {
    *nlocals = 0;
    return cexpr(c, e, s);
  }
  FrameInfo fi = {0};
  Scope ts = {.a = c->a};
  ts.frame = &fi;
  ts.frame_root = true;
  CExpr *x = cexpr(c, e, &ts);
  *nlocals = fi.nlocals;
  return x;
}

static CExpr *proj_expr(Comp *c, SrcPos pos, int hidden, bool local, int i) {
  CExpr *v = ARENA_NEW(c->a, CExpr);
  v->kind = local ? CV_LOCAL : CV_GLOBAL;
  v->pos = pos;
  v->slot = hidden;
  v->name = -1;
  CExpr *p = ARENA_NEW(c->a, CExpr);
  p->kind = CV_PROJ;
  p->pos = pos;
  p->a = v;
  p->slot = i;
  p->name = -1;
  p->cache = -1;
  v->cache = -1;
  return p;
}

/* let at instruction level. Non-recursive: right-hand sides see the
 * previous bindings; tuple patterns go through a hidden slot. */
static void ins_let(Comp *c, const Ins *in, Scope *s, InsVec *out, bool rec) {
  CIns *ci = cins_new(c, rec ? CI_LETREC : CI_LET, in->pos);
  ci->is_local = s != NULL;
  ci->nbinds = in->nbinds;
  ci->binds = ARENA_NEWN(c->a, CBind, in->nbinds + 1);
  /* For rec, names are bound before the right-hand sides are compiled. */
  int nslots = 0;
  for (int i = 0; i < in->nbinds; i++)
    nslots += in->binds[i].pat.is_tuple ? in->binds[i].pat.nnames + 1 : 1;
  ci->slots = ARENA_NEWN(c->a, int, nslots + 1);
  ci->slot_exprs = ARENA_NEWN(c->a, CExpr *, nslots + 1);
  ci->slot_nlocals = ARENA_NEWN(c->a, int, nslots + 1);
  int *nloc = ARENA_NEWN(c->a, int, in->nbinds + 1);
  if (rec) {
    for (int i = 0; i < in->nbinds; i++) {
      const Pat *p = &in->binds[i].pat;
      if (p->is_tuple) cerr(c, in->pos, "let rec with a tuple pattern");
      ci->slots[i] = s ? scope_bind(s, p->name) : global_new(c, p->name, NULL, 0);
      if (!s && ci->slots[i] >= 0) {
        c->gkind.data[ci->slots[i]] = GK_LETREC;
        c->gletrec.data[ci->slots[i]] = ci;
      }
    }
    ci->nslots = in->nbinds;
    for (int i = 0; i < in->nbinds; i++) {
      ci->binds[i].e = ctop_expr(c, in->binds[i].e, s, &nloc[i]);
      ci->binds[i].is_fun = in->binds[i].e->kind == E_FUN;
      ci->slot_exprs[i] = ci->binds[i].e;
      ci->slot_nlocals[i] = nloc[i];
      if (!s && ci->slots[i] >= 0) {
        c->gexpr.data[ci->slots[i]] = ci->binds[i].e;
        c->gnlocals.data[ci->slots[i]] = nloc[i];
      }
    }
    if (in->when) {
      int nl;
      ci->when = in->when;
      ci->when_e = ctop_expr(c, in->when->e, s, &nl);
      ci->nlocals = nl;
    }
    vec_push(*out, ci);
    return;
  }
  for (int i = 0; i < in->nbinds; i++) {
    ci->binds[i].e = ctop_expr(c, in->binds[i].e, s, &nloc[i]);
    ci->binds[i].is_fun = in->binds[i].e->kind == E_FUN;
  }
  /* Now bind the names: per binding, its own slot (a hidden one for a
   * tuple pattern) followed by the components, each a projection. */
  int k = 0;
  for (int i = 0; i < in->nbinds; i++) {
    const Pat *p = &in->binds[i].pat;
    CExpr *rhs = ci->binds[i].e;
    if (!p->is_tuple) {
      ci->slot_exprs[k] = rhs;
      ci->slot_nlocals[k] = nloc[i];
      ci->slots[k++] =
          s ? scope_bind(s, p->name) : global_new(c, p->name, rhs, nloc[i]);
      continue;
    }
    int hidden = s ? frame_slot(s) : global_new(c, -1, rhs, nloc[i]);
    ci->slot_exprs[k] = rhs;
    ci->slot_nlocals[k] = nloc[i];
    ci->slots[k++] = hidden;
    for (int j = 0; j < p->nnames; j++) {
      CExpr *pe = proj_expr(c, in->pos, hidden, s != NULL, j);
      ci->slot_exprs[k] = pe;
      ci->slot_nlocals[k] = 0;
      if (p->names[j] < 0) {
        ci->slots[k++] = -1;
        continue;
      }
      ci->slots[k++] = s ? scope_bind(s, p->names[j])
                         : global_new(c, p->names[j], pe, 0);
    }
  }
  ci->nslots = k;
  vec_push(*out, ci);
}

static bool is_skipped(Comp *c, int name) {
  if (name < 0) return false;
  for (int i = 0; i < c->cfg->nskipchecks; i++)
    if (strcmp(c->cfg->skipchecks[i], nm(c, name)) == 0) return true;
  return false;
}

static int flag_index(Comp *c, int name, SrcPos pos) {
  const char *n = nm(c, name);
  for (int i = 0; i < c->flags.len; i++)
    if (strcmp(c->flags.data[i], n) == 0) return i;
  if (c->flags.len >= 64) cerr(c, pos, "more than 63 distinct flags");
  vec_push(c->flags, n);
  return c->flags.len - 1;
}

static void ins_check(Comp *c, const Ins *in, Scope *s, InsVec *out) {
  if (c->in_bell && in->check.mode == CM_CHECK) return; /* ignored in bells */
  CIns *ci = cins_new(c, CI_CHECK, in->pos);
  const Check *k = &in->check;
  ci->mode = k->mode;
  ci->test = k->test;
  ci->negated = k->negated;
  ci->check_name = k->name;
  ci->skipped = is_skipped(c, k->name);
  if (k->mode == CM_FLAG) ci->flag = k->name >= 0 ? flag_index(c, k->name, in->pos) : -1;
  ci->e = ctop_expr(c, k->e, s, &ci->nlocals);
  vec_push(*out, ci);
}

static CInsList local_body(Comp *c, const InsList *body, Scope *s,
                           FrameInfo *fi, const Pat *param, CPat *cparam,
                           int bound_name, int *bound_slot) {
  /* on the heap, as cat_compile's list: a compile error in the body jumps
   * through here, which frees them */
  Scope *bs = xcalloc(1, sizeof *bs);
  bs->a = c->a;
  InsVec *v = xcalloc(1, sizeof *v);
  bs->up = s;
  bs->frame = fi;
  bs->frame_root = true;
  ErrJmp j;
  err_push(c->err, &j);
  if (setjmp(j.jb) != 0) {
    free(bs);
    vec_free(*v);
    free(v);
    err_rethrow(c->err);
  }
  if (param) *cparam = cpat(c, param, bs);
  if (bound_slot) *bound_slot = scope_bind(bs, bound_name);
  ins_list(c, body, bs, v);
  err_pop(c->err, &j);
  free(bs);
  CInsList l = finish_list(c, v);
  free(v);
  return l;
}

static void ins_one(Comp *c, const Ins *in, Scope *s, InsVec *out) {
  switch (in->kind) {
  case I_LET:
    ins_let(c, in, s, out, false);
    return;
  case I_LETREC:
    ins_let(c, in, s, out, true);
    return;
  case I_CHECK:
    ins_check(c, in, s, out);
    return;
  case I_SHOW:
  case I_UNSHOW: {
    if (c->in_bell) return;
    CIns *ci = cins_new(c, CI_SHOW, in->pos);
    ci->unshow = in->kind == I_UNSHOW;
    int n = in->e ? 1 : in->nnames;
    ci->nshow = n;
    ci->show_names = ARENA_NEWN(c->a, int, n + 1);
    ci->show_exprs = ARENA_NEWN(c->a, CExpr *, n + 1);
    if (in->e) {
      ci->show_names[0] = in->name;
      ci->show_exprs[0] = ctop_expr(c, in->e, s, &ci->nlocals);
    } else {
      for (int k = 0; k < n; k++) {
        Expr v = {0};
        v.kind = E_VAR;
        v.pos = in->pos;
        v.name = in->names[k];
        ci->show_names[k] = in->names[k];
        int nl = 0;
        ci->show_exprs[k] = ci->unshow ? NULL : ctop_expr(c, &v, s, &nl);
        ci->nlocals = MAX(ci->nlocals, nl);
      }
    }
    vec_push(*out, ci);
    return;
  }
  case I_INCLUDE: {
    if (!in->included) cerr(c, in->pos, "include \"%s\" was not loaded", in->str);
    if (++c->include_depth > 64)
      cerr(c, in->pos, "include \"%s\": includes nested too deeply (a file that includes itself?)",
           in->str);
    ins_list(c, &in->included->body, s, out);
    c->include_depth--;
    return;
  }
  case I_PROCEDURE: {
    CProc *p = ARENA_NEW(c->a, CProc);
    FrameInfo *fi = ARENA_NEW(c->a, FrameInfo);
    p->name = in->name;
    ProcEnt pe = {in->name, p};
    /* `procedure rec` sees itself; any other procedure is bound only
     * after its body, so a call of itself there is unbound, as in herd7
     * (whose non-rec procedure closes over the environment before it). */
    if (in->is_rec) vec_push(c->procs, pe);
    p->body = local_body(c, &in->body, s, fi, &in->param, &p->param, -1, NULL);
    p->nlocals = fi->nlocals;
    if (!in->is_rec) vec_push(c->procs, pe);
    return;
  }
  case I_CALL: {
    if (c->in_bell) return;
    CIns *ci = cins_new(c, CI_CALL, in->pos);
    ci->proc = proc_lookup(c, in->name);
    if (!ci->proc) {
      VEC(const char *) known = {0};
      for (int i = 0; i < c->procs.len; i++) vec_push(known, nm(c, c->procs.data[i].name));
      const char *hint = closest_name(nm(c, in->name), known.data, known.len);
      vec_free(known);
      if (hint) cerr(c, in->pos, "unbound procedure: %s (did you mean '%s'?)", nm(c, in->name), hint);
      cerr(c, in->pos, "unbound procedure: %s", nm(c, in->name));
    }
    ci->e = ctop_expr(c, in->e, s, &ci->nlocals);
    ci->check_name = in->call_as;
    ci->call_skipped = is_skipped(c, in->call_as) || is_skipped(c, in->name);
    vec_push(*out, ci);
    return;
  }
  case I_FORALL: {
    if (c->in_bell) return;
    CIns *ci = cins_new(c, CI_FORALL, in->pos);
    ci->e = ctop_expr(c, in->e, s, &ci->nlocals);
    FrameInfo *fi = ARENA_NEW(c->a, FrameInfo);
    ci->body = local_body(c, &in->body, s, fi, NULL, NULL, in->name, &ci->slot);
    ci->forall_nlocals = fi->nlocals;
    vec_push(*out, ci);
    return;
  }
  case I_WITH: {
    if (c->in_bell) return;
    if (s) cerr(c, in->pos, "`with` inside a procedure or loop is not supported");
    CIns *ci = cins_new(c, CI_WITH, in->pos);
    ci->e = ctop_expr(c, in->e, s, &ci->nlocals);
    ci->depth = ++c->fork_depth;
    if (c->fork_depth >= MAX_LEVELS)
      cerr(c, in->pos, "too many nested `with` choices");
    ci->slot = global_new(c, in->name, NULL, 0);
    c->gkind.data[ci->slot] = GK_WITH;
    vec_push(*out, ci);
    return;
  }
  case I_IF_VARIANT:
    ins_list(c, vcond_eval(c, in->vcond) ? &in->body : &in->body2, s, out);
    return;
  case I_MATCH_TAG: {
    CIns *ci = cins_new(c, CI_MATCH, in->pos);
    ci->e = ctop_expr(c, in->e, s, &ci->nlocals);
    ci->nclauses = in->nclauses;
    ci->clauses = ARENA_NEWN(c->a, CMatchClause, in->nclauses + 1);
    for (int i = 0; i < in->nclauses; i++) {
      int type, index;
      ci->clauses[i].tag =
          in->clauses[i].tag < 0 ? -1
          : tag_lookup(c, in->clauses[i].tag, &type, &index) ? index : -2;
      FrameInfo *fi = ARENA_NEW(c->a, FrameInfo);
      ci->clauses[i].body =
          local_body(c, &in->clauses[i].body, s, fi, NULL, NULL, -1, NULL);
      ci->forall_nlocals = MAX(ci->forall_nlocals, fi->nlocals);
    }
    vec_push(*out, ci);
    return;
  }
  case I_ENUM: {
    EnumType et = {0};
    et.name = in->name;
    et.ntags = in->nnames;
    et.tags = ARENA_NEWN(c->a, int, in->nnames + 1);
    memcpy(et.tags, in->names, sizeof(int) * (size_t)in->nnames);
    vec_push(c->enums, et);
    int type = c->enums.len - 1;
    for (int i = 0; i < in->nnames; i++) {
      TagEnt te = {in->names[i], type, i};
      vec_push(c->tags, te);
    }
    CIns *ci = cins_new(c, CI_ENUM, in->pos);
    ci->enum_type = type;
    ci->slot = global_new(c, in->name, NULL, 0);
    c->gkind.data[ci->slot] = GK_ENUM;
    vec_push(*out, ci);
    return;
  }
  case I_INSTRUCTIONS:
    /* instructions K[T,...]: events of kind K may carry tags of T */
    for (int i = 0; i < in->nargs; i++) {
      const Expr *a = in->args[i];
      if (a->kind != E_VAR) continue;
      for (int k = 0; k < c->enums.len; k++)
        if (c->enums.data[k].name == a->name) {
          vec_push(c->annot_kinds, in->name);
          vec_push(c->annot_enums, k);
        }
    }
    return;
  case I_DEFAULT:
  case I_DEBUG:
    return;
  }
}

static void ins_list(Comp *c, const InsList *l, Scope *s, InsVec *out) {
  for (int i = 0; i < l->n; i++) ins_one(c, l->v[i], s, out);
}

/* ---------------------------------------------------------------- API */

static void comp_free(Comp *c) {
  vec_free(c->gmap);
  vec_free(c->gname);
  vec_free(c->gdepth);
  vec_free(c->gnlocals);
  vec_free(c->gexpr);
  vec_free(c->gkind);
  vec_free(c->gletrec);
  vec_free(c->procs);
  vec_free(c->tags);
  vec_free(c->enums);
  vec_free(c->flags);
  vec_free(c->annot_kinds);
  vec_free(c->annot_enums);
  free(c->prim_of);
}

CProg *cat_compile(CatModel *m, const CatConfig *cfg, Err *err) {
  CProg *p = xcalloc(1, sizeof(CProg));
  arena_init(&p->arena);
  p->model = m;
  p->names = &m->names;
  Comp c;
  memset(&c, 0, sizeof c);
  c.p = p;
  c.m = m;
  c.cfg = cfg;
  c.err = err;
  c.a = &p->arena;
  c.prim_of = prim_table(&m->names.in);
  c.nnames = m->names.in.count;
  vec_push(c.flags, "*undef*");
  /* on the heap: a compile error jumps back here and must free it */
  InsVec *top = xcalloc(1, sizeof *top);
  ErrJmp j;
  err_push(err, &j);
  if (setjmp(j.jb) != 0) {
    vec_free(*top);
    free(top);
    comp_free(&c);
    cat_prog_free(p);
    err_rethrow(err);
  }
  if (cfg->prelude) {
    int k = cat_prelude_find(cfg->prelude);
    if (k < 0) cerr(&c, (SrcPos){NULL, 0, 0}, "no built-in prelude %s", cfg->prelude);
    ins_list(&c, &m->preludes[k]->body, NULL, top);
  }
  if (m->stdlib) ins_list(&c, &m->stdlib->body, NULL, top);
  if (m->bell) {
    c.in_bell = 1;
    ins_list(&c, &m->bell->body, NULL, top);
    c.in_bell = 0;
  }
  if (m->main) ins_list(&c, &m->main->body, NULL, top);
  err_pop(err, &j);
  p->top = finish_list(&c, top);
  free(top);
  p->catdep = (m->main && m->main->catdep) || cfg->catdep_variant;
  p->through = cfg->through;
  p->nglobals = c.gname.len;
#define MOVE(dst, v, T)                                               \
  do {                                                                \
    dst = arena_alloc(&p->arena, sizeof(T) * (size_t)((v).len + 1));  \
    if ((v).len) memcpy(dst, (v).data, sizeof(T) * (size_t)(v).len);  \
  } while (0)
  MOVE(p->global_name, c.gname, int);
  MOVE(p->global_depth, c.gdepth, int);
  MOVE(p->global_nlocals, c.gnlocals, int);
  MOVE(p->global_expr, c.gexpr, CExpr *);
  MOVE(p->global_kind, c.gkind, uint8_t);
  MOVE(p->global_letrec, c.gletrec, const CIns *);
  MOVE(p->enums, c.enums, EnumType);
  p->nenums = c.enums.len;
  MOVE(p->flag_names, c.flags, const char *);
  p->nflags = c.flags.len;
  MOVE(p->annot_kinds, c.annot_kinds, int);
  MOVE(p->annot_enums, c.annot_enums, int);
  p->nannot_types = c.annot_kinds.len;
#undef MOVE
  p->maxdepth = c.fork_depth;
  comp_free(&c);
  cat_analyse(p, !cfg->no_natives);
  return p;
}

bool cexpr_closed_over(const CExpr *e, bool (*global_ok)(const void *ctx, int slot),
                       const void *ctx) {
  switch (e->kind) {
  case E_ZERO:
  case E_EMPTY:
  case CV_PREDEF:
    return true;
  case CV_GLOBAL:
    return global_ok(ctx, e->slot);
  case E_UNION:
  case E_SEQ:
    for (int i = 0; i < e->nargs; i++)
      if (!cexpr_closed_over(e->args[i], global_ok, ctx)) return false;
    return true;
  case E_INTER:
  case E_DIFF:
  case E_PROD:
    return cexpr_closed_over(e->a, global_ok, ctx) && cexpr_closed_over(e->b, global_ok, ctx);
  case E_STAR:
  case E_PLUS:
  case E_OPT:
  case E_INV:
  case E_BRACKET:
    return cexpr_closed_over(e->a, global_ok, ctx);
  default:
    return false;
  }
}

void cat_prog_free(CProg *p) {
  if (!p) return;
  arena_free(&p->arena);
  free(p);
}

bool cat_prog_catdep(const CProg *p) { return p->catdep; }
bool cat_prog_uses_values(const CProg *p) { return p->uses_values; }
const CatNames *cat_prog_names(const CProg *p) { return p->names; }
int cat_prog_nflags(const CProg *p) { return p->nflags; }

void cat_prog_each_tag(const CProg *p, void (*f)(void *ctx, const char *tag), void *ctx) {
  for (int e = 0; e < p->nenums; e++)
    for (int k = 0; k < p->enums[e].ntags; k++)
      f(ctx, intern_name(&p->names->in, p->enums[e].tags[k]));
}
const char *cat_prog_flag_name(const CProg *p, int i) { return p->flag_names[i]; }
