/*
 * init.c — the initial state of a test (herd's lib/stateParser.mly):
 * its items (typed, arrays, atomic), and the locations and values that
 * the final section shares with it.
 */
#include "parse_int.h"

#include <stdio.h>
#include <stdlib.h>

#include "c.h"

/* Bounds that keep hostile inputs cheap (the duplicate check and the
 * type lookups of the output are linear scans of the init items). */
enum { MAX_ARRAY = 65536, MAX_INIT = 10000 };

/* A register name of the test's architecture, or an error. */
static int check_reg(TokStream *ts, const Tok *t, const char *name) {
  if (ts->p->t->c) return c_reg(ts->p->t, name); /* C: any name */
  int r = ts->p->t->ops->parse_reg(name);
  if (r < 0) fail(ts->p, t->off, "%s is not a register", name);
  return r;
}

/* P0 or 0 (a plain decimal) followed by ':' — a thread prefix. */
bool is_thread_tok(const TokStream *ts, int k) {
  const Tok *t = peek(ts, k);
  bool num = t->kind == T_NUM && t->len < 9 &&
             strspn(t->s, "0123456789") == t->len;
  return (t->kind == T_PROC || num) && peekk(ts, k + 1) == T_COLON;
}

/* P0:REG, 0:REG, 0:%REG (register of a thread). */
static LitLoc parse_reg_loc(TokStream *ts) {
  LitLoc l;
  memset(&l, 0, sizeof l);
  const Tok *th = next(ts);
  l.pos = tok_pos(ts, th);
  l.kind = LOC_REG;
  l.thread = th->kind == T_PROC ? th->proc : atoi(th->s);
  next(ts); /* ':' */
  const Tok *r = peek(ts, 0);
  if (r->kind == T_NAME) l.reg = r->s;
  else if (r->kind == T_SYMREG) l.reg = r->s;
  else unexpected(ts, "a register name");
  next(ts);
  const ArchOps *ops = ts->p->t->ops;
  int id = !ts->p->t->c && ops->vec_loc ? ops->vec_loc(l.reg, &l.lanes, &l.lane_bits) : -1;
  l.regid = id >= 0 ? id : check_reg(ts, r, l.reg);
  return l;
}

bool starts_loc(const TokStream *ts, int k) {
  TokKind a = peekk(ts, k);
  if (a == T_NAME && peekk(ts, k + 1) == T_LPAR) {
    const char *s = peek(ts, k)->s;
    return strcmp(s, "PTE") == 0 || strcmp(s, "TTD") == 0 || strcmp(s, "PA") == 0;
  }
  return a == T_NAME || a == T_SYMREG || a == T_LBRK || is_thread_tok(ts, k);
}

/* location | [x] : registers, symbolic registers and globals. */
LitLoc parse_loc(TokStream *ts, bool brackets) {
  LitLoc l;
  memset(&l, 0, sizeof l);
  l.regid = -1;
  const Tok *t = peek(ts, 0);
  l.pos = tok_pos(ts, t);
  if (is_thread_tok(ts, 0)) return parse_reg_loc(ts);
  if (t->kind == T_SYMREG) {
    l.kind = LOC_SYMREG;
    l.reg = t->s;
    l.thread = -1;
    next(ts);
    return l;
  }
  bool brk = brackets && accept(ts, T_LBRK);
  l.kind = LOC_GLOBAL;
  l.sym = pte_parse_special(ts);
  if (!l.sym) {
    t = expect(ts, T_NAME, "a location");
    l.sym = pte_canonical_name(ts->p, t->s);
  }
  if (brk) expect(ts, T_RBRK, "']'");
  if (peekk(ts, 0) == T_COLON && peekk(ts, 1) == T_NAME)
    fail(ts->p, peek(ts, 0)->off, "tagged locations are not supported");
  return l;
}

LitVal int_val(const TokStream *ts, const Tok *t) {
  LitVal v;
  memset(&v, 0, sizeof v);
  v.kind = LV_INT;
  v.text = t->s;
  v.pos = tok_pos(ts, t);
  if (!lit_parse_int(t->s, t->len, &v.num))
    fail(ts->p, t->off, "number out of range: %s", t->s);
  return v;
}

/* A scalar constant: herd7 refuses what does not fit the machine's
 * scalar (it stops with Failure "Int32.of_string" or "Int64.of_string"),
 * so corral refuses it too rather than truncate it. */
static LitVal scalar_val(const TokStream *ts, const Tok *t) {
  LitVal v = int_val(ts, t);
  const ArchOps *ops = ts->p->t->ops;
  int bits = ops ? ops->word_bits : 64;
  if (!lit_scalar_of_string(t->s, t->len, bits, &v.num))
    fail(ts->p, t->off, "%s does not fit %s's %d-bit values (herd7 refuses it too)",
         t->s, ops ? ops->name : "the machine", bits);
  return v;
}

static LitVal zero_val(const TokStream *ts, SrcPos pos) {
  LitVal v;
  memset(&v, 0, sizeof v);
  v.kind = LV_INT;
  v.text = "0";
  v.pos = pos;
  (void)ts;
  return v;
}

static LitVal label_val(TokStream *ts, const Tok *at, int thread,
                        const char *label) {
  LitVal v;
  memset(&v, 0, sizeof v);
  v.kind = LV_LABEL;
  v.pos = tok_pos(ts, at);
  v.thread = thread;
  v.label = label;
  v.text = arena_printf(ts->p->a, "%d:%s", thread, label);
  return v;
}

/* x, &x or x[i]: the address of a location (or of an array cell). */
static LitVal addr_val(TokStream *ts) {
  LitVal v;
  memset(&v, 0, sizeof v);
  accept(ts, T_AMPER);
  v.kind = LV_ADDR;
  v.pos = tok_pos(ts, peek(ts, 0));
  const char *special = pte_parse_special(ts);
  if (special) {
    StrBuf b;
    sb_init(&b);
    lit_print_sym_hash(special, &b);
    v.sym = special;
    v.text = arena_strdup(ts->p->a, sb_cstr(&b));
    sb_free(&b);
    return v;
  }
  const Tok *t = expect(ts, T_NAME, "a location name");
  v.text = t->s;
  v.sym = pte_canonical_name(ts->p, t->s);
  if (peekk(ts, 0) == T_LBRK && peekk(ts, 1) == T_NUM &&
      peekk(ts, 2) == T_RBRK) {
    next(ts);
    LitVal k = int_val(ts, next(ts));
    next(ts);
    v.has_index = true;
    v.index = k.num;
    v.text = arena_printf(ts->p->a, "%s+%lld", v.sym, (long long)k.num);
  }
  if (peekk(ts, 0) == T_COLON && peekk(ts, 1) == T_NAME) { /* x:red (MTE) */
    next(ts);
    v.tag = next(ts)->s;
    v.text = arena_printf(ts->p->a, "%s:%s", v.text, v.tag);
  }
  return v;
}

/* NOP or instr:"TEXT": an instruction as a value (herd's self-modifying
 * code tests), parsed by the architecture's parser and kept with its
 * canonical spelling, which is what herd prints and hashes. */
static LitVal instr_val(TokStream *ts, const Tok *t) {
  const ArchOps *ops = ts->p->t->ops;
  if (!ops || !isa_has(ops->arch, ISA_INSTR_VALUES))
    fail(ts->p, t->off, "instruction values are not supported for %s",
         ops ? ops->name : "this language");
  LitVal v;
  memset(&v, 0, sizeof v);
  v.kind = LV_INSTR;
  v.pos = tok_pos(ts, t);
  Instr *ins = ops->parse_instr(ts->p->a, ts->p->err, t->kind == T_NOP ? "NOP" : t->s, v.pos);
  for (int i = 0; i < ins->nops; i++)
    if (ins->ops[i].kind == OPK_LABEL && ins->ops[i].sym)
      fail(ts->p, t->off, "an instruction value names its branch target by an offset "
           "(.+k), not by label %s", ins->ops[i].sym);
  StrBuf b;
  sb_init(&b);
  arch_print_value(ops, ins, &b);
  v.sym = arena_strdup(ts->p->a, sb_cstr(&b));
  sb_free(&b);
  v.text = t->kind == T_NOP ? "NOP" : arena_printf(ts->p->a, "instr:\"%s\"", t->s);
  v.instr = ins;
  return v;
}

/* A scalar value (herd's maybev; with labels, maybev_label: P1:L0). */
LitVal parse_value(TokStream *ts, bool labels) {
  const Tok *t = peek(ts, 0);
  if (labels && is_thread_tok(ts, 0) && peekk(ts, 2) == T_NAME) {
    next(ts), next(ts);
    int thread = t->kind == T_PROC ? t->proc : atoi(t->s);
    return label_val(ts, t, thread, next(ts)->s);
  }
  switch (t->kind) {
  case T_NUM:
    next(ts);
    if (peekk(ts, 0) == T_COLON && peekk(ts, 1) == T_NUM)
      fail(ts->p, t->off, "capability values are not supported");
    return scalar_val(ts, t);
  case T_LABEL: next(ts); return label_val(ts, t, t->proc, t->s);
  case T_COLON: {
    next(ts);
    LitVal v;
    memset(&v, 0, sizeof v);
    v.kind = LV_TAG;
    v.pos = tok_pos(ts, t);
    v.sym = expect(ts, T_NAME, "a tag name")->s;
    v.text = arena_printf(ts->p->a, ":%s", v.sym);
    return v;
  }
  case T_NOP: case T_INSTR: next(ts); return instr_val(ts, t);
  case T_AMPER: case T_NAME: return addr_val(ts);
  case T_LPAR: return parse_pte_value(ts);
  default: unexpected(ts, "a value");
  }
}

/* "{a,b,c}": the hash spelling of an array (elements as written). */
static const char *array_text(Arena *a, const LitVal *elems, int n) {
  size_t len = 3;
  for (int i = 0; i < n; i++) len += strlen(elems[i].text) + 1;
  char *s = arena_alloc(a, len), *q = s;
  *q++ = '{';
  for (int i = 0; i < n; i++) {
    if (i) *q++ = ',';
    size_t k = strlen(elems[i].text);
    memcpy(q, elems[i].text, k);
    q += k;
  }
  *q++ = '}';
  *q = 0;
  return s;
}

/* { v0, v1, ... } */
LitVal parse_array_val(TokStream *ts) {
  LitVal v;
  memset(&v, 0, sizeof v);
  const Tok *open = expect(ts, T_LCURLY, "'{'");
  v.kind = LV_ARRAY;
  v.pos = tok_pos(ts, open);
  int cap = 0;
  do {
    LitVal e = parse_value(ts, false);
    APUSH(ts->p->a, v.elems, v.nelems, cap, e);
  } while (accept(ts, T_COMMA));
  if (peekk(ts, 0) != T_RCURLY) unexpected(ts, "',' or '}'");
  next(ts);
  v.text = array_text(ts->p->a, v.elems, v.nelems);
  return v;
}

/* "= v", "= &v" (pointers), "= ATOMIC_INIT(v)" (base types), or nothing. */
static void parse_init_value(TokStream *ts, InitItem *it, bool atomic_init) {
  if (!accept(ts, T_EQ)) {
    it->val = zero_val(ts, it->pos);
    return;
  }
  it->has_val = true;
  if (atomic_init && accept(ts, T_ATOMICINIT)) {
    expect(ts, T_LPAR, "'('");
    it->val = parse_value(ts, false);
    expect(ts, T_RPAR, "')'");
    return;
  }
  it->val = parse_value(ts, true);
  pte_default_oa(ts->p, &it->val, &it->loc);
  if (it->val.kind == LV_PTE && it->type.kind == TY_NONE) {
    it->type.kind = TY_BASE;
    it->type.base = "pteval_t";
  }
}

/* T t[N] [= {...}] */
static void parse_array_item(TokStream *ts, InitItem *it) {
  it->loc.kind = LOC_GLOBAL;
  it->loc.regid = -1;
  it->loc.pos = tok_pos(ts, peek(ts, 0));
  it->loc.sym = next(ts)->s;
  next(ts);
  const Tok *n = next(ts);
  LitVal len = int_val(ts, n);
  next(ts);
  if (len.num < 0 || len.num > MAX_ARRAY)
    fail(ts->p, n->off, "bad array size %s (at most %d)", n->s, MAX_ARRAY);
  it->type.kind = TY_ARRAY;
  it->type.array_len = (int)len.num;
  if (accept(ts, T_EQ)) {
    it->has_val = true;
    it->val = parse_array_val(ts);
    if (it->val.nelems != it->type.array_len)
      fail(ts->p, n->off,
           "Declared size of array %s does not match initial value size",
           it->loc.sym);
    return;
  }
  LitVal v;
  memset(&v, 0, sizeof v);
  v.kind = LV_ARRAY;
  v.pos = it->pos;
  v.nelems = it->type.array_len;
  v.elems = ARENA_NEWN(ts->p->a, LitVal, v.nelems ? v.nelems : 1);
  for (int i = 0; i < v.nelems; i++) v.elems[i] = zero_val(ts, it->pos);
  v.text = array_text(ts->p->a, v.elems, v.nelems);
  it->val = v;
}

/* Items starting with a type name: T *x, T t[N], T x. */
static void parse_typed_item(TokStream *ts, InitItem *it) {
  it->type.base = next(ts)->s;
  if (accept(ts, T_STAR)) {
    it->type.kind = TY_PTR;
    it->loc = parse_loc(ts, true);
    parse_init_value(ts, it, false);
  } else if (peekk(ts, 0) == T_NAME && peekk(ts, 1) == T_LBRK &&
             peekk(ts, 2) == T_NUM && peekk(ts, 3) == T_RBRK) {
    parse_array_item(ts, it);
  } else {
    it->type.kind = TY_BASE;
    it->loc = parse_loc(ts, true);
    parse_init_value(ts, it, true);
  }
}

static void parse_init_item(TokStream *ts, InitItem *it) {
  memset(it, 0, sizeof *it);
  const Tok *t = peek(ts, 0);
  it->pos = tok_pos(ts, t);
  if (accept(ts, T_ATOMIC)) {
    it->type.kind = TY_ATOMIC;
    it->type.base = expect(ts, T_NAME, "a type name")->s;
    it->loc = parse_loc(ts, true);
    parse_init_value(ts, it, true);
  } else if (accept(ts, T_STAR)) {
    it->type.kind = TY_PTR_NOBASE;
    it->loc = parse_loc(ts, true);
    parse_init_value(ts, it, false);
  } else if (t->kind == T_NAME && peekk(ts, 1) == T_LBRK &&
             peekk(ts, 2) == T_NUM) {
    fail(ts->p, t->off, "array cells cannot be initialised one by one");
  } else if (t->kind == T_NAME &&
             (peekk(ts, 1) == T_STAR || starts_loc(ts, 1))) {
    parse_typed_item(ts, it);
  } else {
    it->type.kind = TY_NONE;
    it->loc = parse_loc(ts, true);
    parse_init_value(ts, it, false);
  }
}

static bool same_loc(const LitLoc *a, const LitLoc *b) {
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case LOC_REG: return a->thread == b->thread && a->regid == b->regid;
  case LOC_SYMREG: return strcmp(a->reg, b->reg) == 0;
  case LOC_GLOBAL: return strcmp(a->sym, b->sym) == 0;
  case LOC_CELL: return strcmp(a->sym, b->sym) == 0 && a->index == b->index;
  }
  return false;
}

static void check_duplicate(TokStream *ts, const InitItem *it) {
  Test *t = ts->p->t;
  for (int i = 0; i < t->ninit; i++)
    if (same_loc(&t->init[i].loc, &it->loc)) {
      StrBuf b;
      sb_init(&b);
      lit_print_loc_hash(&it->loc, &b);
      char *name = arena_strdup(ts->p->a, sb_cstr(&b));
      sb_free(&b);
      err_raise(ts->p->err, ERRK_SYNTAX, it->pos,
                "Location %s is initialized more than once", name);
    }
}

void parse_init(Parser *p, size_t start, size_t end) {
  TokStream ts;
  lex_section(p, start, end, &ts);
  int cap = 0;
  while (peekk(&ts, 0) != T_EOF) {
    if (accept(&ts, T_SEMI)) continue;
    if (p->t->ninit >= MAX_INIT)
      fail(p, peek(&ts, 0)->off, "initial state too large (over %d items)",
           MAX_INIT);
    InitItem it;
    parse_init_item(&ts, &it);
    if (it.val.kind == LV_INSTR) { /* herd types every instruction ins_t */
      it.type.kind = TY_BASE;
      it.type.base = "ins_t";
    }
    check_duplicate(&ts, &it);
    APUSH(p->a, p->t->init, p->t->ninit, cap, it);
    if (peekk(&ts, 0) != T_EOF && !accept(&ts, T_SEMI))
      unexpected(&ts, "';' between initial state items");
  }
}
