/*
 * program.c — from a parsed Test to what the engine needs to run it.
 */
#include "program.h"
#include "faults.h"

#include <ctype.h>

#include "../litmus/c.h"


#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static CR_NORETURN void perr(Err *err, SrcPos pos, const char *fmt, ...)
    CR_PRINTF(3, 4);
static void perr(Err *err, SrcPos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  err_vraise(err, ERRK_SEMANTIC, pos, fmt, ap);
}

int program_symbol(Program *p, const char *name) {
  int n = p->syms.count;
  int id = intern(&p->syms, name);
  if (id == n) {
    vec_push(p->sym_init, val_int(0));
    LocType t = {32, true, false};
    vec_push(p->sym_type, t);
    if (lit_sym_kind(name) == SK_PTE) {
      /* herd's value of an entry the init section leaves out (with or
       * without -variant kvm, archExtra_herd's get_in_state): the
       * default entry of its page, (oa:PA(x)) */
      int pa = program_symbol(p, lit_join(&p->arena, "PA(", lit_sym_base(&p->arena, name), ")", ""));
      p->sym_init.data[id] = val_pte(pa, lit_pte_default());
      p->sym_type.data[id] = (LocType){64, false, false};
    }
  }
  return id;
}

/* The display type of a declared location (cond.c knows the C types). */
static LocType type_of(const LitType *ty, int word_bits) {
  LocType t;
  bool sgn;
  t.bits = (uint8_t)lit_type_bits(ty, word_bits, &sgn);
  t.is_signed = sgn;
  t.is_pointer = ty->kind == TY_PTR || ty->kind == TY_PTR_NOBASE;
  return t;
}

/* The memory symbol of a location x or t[i] (added if absent). */
static int loc_symbol(Program *p, const LitLoc *l) {
  int s = program_symbol(p, l->sym);
  if (l->kind != LOC_CELL || l->index == 0) return s;
  char num[24];
  const char *digits = dec_digits(num + sizeof num - 1,
                                  l->index < 0 ? 0 - (uint64_t)l->index : (uint64_t)l->index,
                                  l->index < 0);
  num[sizeof num - 1] = 0;
  return program_symbol(p, lit_join(&p->arena, l->sym, "[", digits, "]"));
}

int program_find_symbol(const Program *p, const LitLoc *l) {
  if (l->kind != LOC_CELL || l->index == 0)
    return program_mem_sym(p, intern_find(&p->syms, l->sym));
  char name[80];
  snprintf(name, sizeof name, "%s[%lld]", l->sym, (long long)l->index);
  return intern_find(&p->syms, name);
}

static const struct ArrayDecl *array_of(const Program *p, int sym) {
  for (int i = 0; i < p->narrays; i++)
    if (p->arrays[i].sym == sym) return &p->arrays[i];
  return NULL;
}

/* The symbol of cell k of array a ("t[k]"; cell 0 is t itself). */
static int cell_symbol(Program *p, const struct ArrayDecl *a, int64_t k) {
  LitLoc l = {.kind = LOC_CELL, .sym = intern_name(&p->syms, a->sym), .index = k};
  return loc_symbol(p, &l);
}

const struct ArrayDecl *program_array(const Program *p, int sym) { return array_of(p, sym); }

Val program_cell_byte(const Program *p, Val addr) {
  const struct ArrayDecl *a = addr.kind == VAL_ADDR ? array_of(p, addr.sym) : NULL;
  if (!a || addr.num < 0 || addr.num / a->esize >= a->len) return addr;
  LitLoc l = {.kind = LOC_CELL, .sym = intern_name(&p->syms, a->sym),
              .index = addr.num / a->esize};
  int s = program_find_symbol(p, &l);
  return s < 0 ? addr : val_addr(s, addr.num % a->esize);
}

bool program_cell(const Program *p, Val addr, Val *out) {
  if (addr.kind != VAL_ADDR || addr.num == 0) return false;
  const struct ArrayDecl *a = array_of(p, addr.sym);
  if (!a || addr.num % a->esize != 0 || addr.num < 0 || addr.num / a->esize >= a->len)
    return false;
  /* the cells were all interned when the array was declared */
  LitLoc l = {.kind = LOC_CELL, .sym = intern_name(&p->syms, a->sym),
              .index = addr.num / a->esize};
  int s = program_find_symbol(p, &l);
  if (s < 0) return false;
  *out = val_addr(s, 0);
  return true;
}

Val program_value(Program *p, const LitVal *v, Err *err) {
  switch (v->kind) {
  case LV_INT:
    return val_int(v->num);
  case LV_ADDR: {
    int s = program_symbol(p, v->sym);
    /* herd: the i of x[i] as a value is a byte offset (AArch64 A149:
     * uint16_t x[4] and X0=x[2] reads x[1]) */
    Val addr = val_addr(s, v->has_index ? v->index : 0), cell;
    if (program_cell(p, addr, &cell)) addr = cell;
    if (v->tag) { /* x:red (mte.c) */
      p->has_tags = true;
      addr.num += (int64_t)(intern(&p->colors, v->tag) + 1) << VAL_ADDR_TAG_SHIFT;
    }
    return addr;
  }
  case LV_TAG: {
    p->has_tags = true;
    Val r = {VAL_TAG, intern(&p->colors, v->sym), 0};
    return r;
  }
  case LV_LABEL: {
    Val r = {VAL_LABEL, v->thread, 0};
    r.num = intern(&p->labels, v->label);
    return r;
  }
  case LV_INSTR:
    return program_instr_value(p, v->instr, v->sym);
  case LV_PTE:
    if (!v->pte_oa) perr(err, v->pos, "a page-table entry value without oa is not supported");
    return val_pte(program_symbol(p, v->pte_oa), v->pte_bits);
  default:
    perr(err, v->pos, "this kind of initial value is not supported yet");
  }
}

/* ------------------------------------------------ displayed locations */

static void collect_prop_locs(const Prop *pr, const LitLoc **out, int *n, int cap) {
  if (!pr) return;
  switch (pr->kind) {
  case P_EQ:
    if (*n < cap) out[(*n)++] = &pr->loc;
    break;
  case P_LOCEQ:
    if (*n < cap) out[(*n)++] = &pr->loc;
    if (*n < cap) out[(*n)++] = &pr->loc2;
    break;
  case P_NOT:
    collect_prop_locs(pr->a, out, n, cap);
    break;
  case P_AND:
  case P_OR:
  case P_IMPL:
    collect_prop_locs(pr->a, out, n, cap);
    collect_prop_locs(pr->b, out, n, cap);
    break;
  default:
    break;
  }
}

static int count_prop_atoms(const Prop *pr) {
  if (!pr) return 0;
  switch (pr->kind) {
  case P_EQ:
    return 1;
  case P_LOCEQ:
    return 2;
  case P_NOT:
    return count_prop_atoms(pr->a);
  case P_AND:
  case P_OR:
  case P_IMPL:
    return count_prop_atoms(pr->a) + count_prop_atoms(pr->b);
  default:
    return 0;
  }
}

/* A vector register's spelling in states: upper case (V0.4S). */
static const char *vec_name(Program *p, const char *reg) {
  char *u = arena_strdup(&p->arena, reg);
  for (char *q = u; *q; q++) *q = (char)toupper((unsigned char)*q);
  return u;
}

static DispLoc make_disp(Program *p, const LitLoc *l, Err *err) {
  DispLoc d = {0};
  char num[24];
  const char *digits;
  switch (l->kind) {
  case LOC_REG:
    d.kind = DL_REG;
    d.thread = l->thread;
    d.reg = l->regid;
    if (d.thread < 0 || d.thread >= p->nthreads)
      perr(err, l->pos, "thread %d does not exist", d.thread);
    if (d.reg < 0) perr(err, l->pos, "%s is not a register", l->reg);
    d.type = p->reg_type[d.thread][d.reg];
    digits = dec_digits(num + sizeof num - 1, (uint64_t)d.thread, false);
    num[sizeof num - 1] = 0;
    d.lanes = l->lanes;
    d.lane_bits = l->lane_bits;
    d.name = lit_join(&p->arena, digits, ":", l->lanes ? vec_name(p, l->reg) : test_reg_name(p->test, d.reg), "");
    break;
  case LOC_GLOBAL:
    d.kind = DL_GLOBAL;
    d.sym = program_mem_sym(p, program_symbol(p, l->sym));
    d.type = p->sym_type.data[d.sym];
    d.name = lit_join(&p->arena, "[", l->sym, "]", "");
    break;
  case LOC_CELL:
    d.kind = DL_CELL;
    d.sym = loc_symbol(p, l);
    d.index = l->index;
    d.type = p->sym_type.data[d.sym];
    digits = dec_digits(num + sizeof num - 1, l->index < 0 ? 0 - (uint64_t)l->index : (uint64_t)l->index,
                        l->index < 0);
    num[sizeof num - 1] = 0;
    d.name = lit_join(&p->arena, l->sym, "[", digits, "]");
    break;
  case LOC_SYMREG:
    perr(err, l->pos, "symbolic registers are not supported");
  }
  d.namelen = strlen(d.name);
  return d;
}

static int disp_cmp(const Program *p, const DispLoc *a, const DispLoc *b) {
  /* whole locations before cells; registers before globals */
  int ra = a->kind == DL_CELL ? 2 : a->kind == DL_GLOBAL ? 1 : 0;
  int rb = b->kind == DL_CELL ? 2 : b->kind == DL_GLOBAL ? 1 : 0;
  if (ra != rb) return ra - rb;
  if (a->kind == DL_REG) {
    if (a->thread != b->thread) return a->thread - b->thread;
    if (p->test->c) /* C registers are locals: by name */
      return strcmp(test_reg_name(p->test, a->reg), test_reg_name(p->test, b->reg));
    return a->reg - b->reg;
  }
  /* herd's symbols: virtual < physical (PA(x)) < page-table entries */
  const char *na = intern_name(&p->syms, a->sym), *nb = intern_name(&p->syms, b->sym);
  int ka = lit_sym_rank(na), kb = lit_sym_rank(nb);
  if (ka != kb) return ka < kb ? -1 : 1;
  if (a->kind == DL_CELL) { /* cell t[i] is named "t[i]": by array, then index */
    size_t la = strcspn(na, "["), lb = strcspn(nb, "[");
    int c = strncmp(na, nb, MIN(la, lb));
    if (c || la != lb) return c ? c : (la > lb) - (la < lb);
    return (a->index > b->index) - (a->index < b->index);
  }
  int c = strcmp(na, nb);
  if (c) return c;
  return (a->index > b->index) - (a->index < b->index);
}

static bool disp_same(const DispLoc *a, const DispLoc *b) {
  if (a->kind != b->kind) return false;
  if (a->kind == DL_REG)
    return a->thread == b->thread && a->reg == b->reg && a->lanes == b->lanes &&
           a->lane_bits == b->lane_bits;
  return a->sym == b->sym && a->index == b->index;
}

/* A whole array shown (x={1,2}): one entry per cell, the first named
 * after the array and marked with the group size (herd_state). */
static void expand_arrays(Program *p) {
  int n = p->ndisp;
  for (int k = 0; k < p->ndisp; k++) {
    const struct ArrayDecl *ar = p->disp[k].kind == DL_GLOBAL ? array_of(p, p->disp[k].sym) : NULL;
    if (ar) n += ar->len - 1;
  }
  if (n == p->ndisp) return;
  DispLoc *d = arena_alloc(&p->arena, sizeof(DispLoc) * (size_t)(n + 1));
  int m = 0;
  for (int k = 0; k < p->ndisp; k++) {
    const DispLoc *e = &p->disp[k];
    const struct ArrayDecl *ar = e->kind == DL_GLOBAL ? array_of(p, e->sym) : NULL;
    if (!ar) {
      d[m++] = *e;
      continue;
    }
    const char *name = intern_name(&p->syms, e->sym);
    for (int i = 0; i < ar->len; i++) {
      DispLoc c = *e;
      c.sym = cell_symbol(p, ar, i);
      c.type = p->sym_type.data[c.sym];
      c.name = i == 0 ? name : "";
      c.namelen = strlen(c.name);
      c.group = i == 0 ? ar->len : -1;
      d[m++] = c;
    }
  }
  p->disp = d;
  p->ndisp = m;
  p->has_groups = true;
}

/* A vector register shown (0:V0.4S={1,2,3,4}): one entry per lane, the
 * first named after the register and marked with the group size; lanes
 * of 8 and 16 bits are unsigned, of 32 signed, of 64 unsigned (herd's
 * TestType.tr_nbits). */
static void expand_vectors(Program *p) {
  int n = p->ndisp;
  for (int k = 0; k < p->ndisp; k++) n += p->disp[k].lanes ? p->disp[k].lanes - 1 : 0;
  if (n == p->ndisp) return;
  DispLoc *d = arena_alloc(&p->arena, sizeof(DispLoc) * (size_t)(n + 1));
  int m = 0;
  for (int k = 0; k < p->ndisp; k++) {
    const DispLoc *e = &p->disp[k];
    if (!e->lanes) {
      d[m++] = *e;
      continue;
    }
    for (int i = 0; i < e->lanes; i++) {
      DispLoc c = *e;
      int off = i * e->lane_bits;
      c.reg = e->reg + off / 64;
      c.lane_shift = off % 64;
      c.lanes = 0;
      c.type = (LocType){(uint8_t)e->lane_bits, e->lane_bits == 32, false};
      c.name = i == 0 ? e->name : "";
      c.namelen = strlen(c.name);
      c.group = i == 0 ? e->lanes : -1;
      d[m++] = c;
    }
  }
  p->disp = d;
  p->ndisp = m;
  p->has_groups = true;
}

static void build_display(Program *p, Err *err) {
  const Test *t = p->test;
  int cap = count_prop_atoms(t->cond) + t->nlocations + 1;
  const LitLoc **locs = arena_alloc(&p->arena, sizeof(LitLoc *) * (size_t)cap);
  int n = 0;
  collect_prop_locs(t->cond, locs, &n, cap);
  for (int i = 0; i < t->nlocations; i++) locs[n++] = &t->locations[i];
  p->disp = arena_alloc(&p->arena, sizeof(DispLoc) * (size_t)(n + 1));
  p->ndisp = 0;
  for (int i = 0; i < n; i++) {
    DispLoc d = make_disp(p, locs[i], err);
    bool dup = false;
    for (int k = 0; k < p->ndisp; k++) dup |= disp_same(&p->disp[k], &d);
    if (dup) continue;
    /* insertion in sorted position */
    int k = p->ndisp++;
    while (k > 0 && disp_cmp(p, &p->disp[k - 1], &d) > 0) {
      p->disp[k] = p->disp[k - 1];
      k--;
    }
    p->disp[k] = d;
  }
  expand_arrays(p);
  expand_vectors(p);
  p->int_line_cap = 0;
  for (int k = 0; k < p->ndisp; k++) p->int_line_cap += p->disp[k].namelen + 3 + 24;
  /* Observed symbols: displayed globals plus those of the filter. */
  int fcap = count_prop_atoms(t->filter) + 1;
  const LitLoc **fl = arena_alloc(&p->arena, sizeof(LitLoc *) * (size_t)fcap);
  int fn = 0;
  collect_prop_locs(t->filter, fl, &fn, fcap);
  p->observed = arena_alloc(&p->arena, sizeof(int) * (size_t)(p->ndisp + fn + 1));
  p->nobserved = 0;
  for (int i = 0; i < p->ndisp + fn; i++) {
    int sym;
    if (i < p->ndisp) {
      if (p->disp[i].kind == DL_REG) continue;
      sym = p->disp[i].sym;
    } else {
      const LitLoc *l = fl[i - p->ndisp];
      if (l->kind == LOC_REG || l->kind == LOC_SYMREG) continue;
      sym = program_mem_sym(p, loc_symbol(p, l));
    }
    bool dup = false;
    for (int k = 0; k < p->nobserved; k++) dup |= p->observed[k] == sym;
    if (!dup) p->observed[p->nobserved++] = sym;
  }
}

/* ---------------------------------------------------------------- API */

/* C: each parameter of a thread function is a register holding the
 * address of the global of the same name. */
static void c_init_params(Program *p) {
  const CCode *c = p->test->c;
  for (int th = 0; th < c->nthreads && th < p->nthreads; th++)
    for (int k = 0; k < c->threads[th].nparams; k++) {
      const CParam *pm = &c->threads[th].params[k];
      if (p->init_reg_set[th][pm->reg]) continue;
      p->init_regs[th][pm->reg] = val_addr(program_symbol(p, pm->name), 0);
      p->init_reg_set[th][pm->reg] = true;
      p->reg_type[th][pm->reg] = (LocType){0, false, true};
    }
}

/* An array of the initial state: one symbol per cell, each holding its
 * element (0 when none is given), typed by the element type. */
static void init_array(Program *p, const InitItem *it, LocType ty, Err *err) {
  int len = it->type.array_len;
  const LitVal *v = &it->val;
  if (len <= 0) perr(err, it->pos, "an array needs a positive length");
  if (it->has_val && v->kind != LV_ARRAY)
    perr(err, v->pos, "an array's initial value is a list {v0,v1,...}");
  if (it->has_val && v->nelems > len)
    perr(err, v->pos, "%d values for an array of %d", v->nelems, len);
  int bits = ty.bits ? ty.bits : p->word_bits;
  struct ArrayDecl a = {program_symbol(p, it->loc.sym), len, bits / 8};
  if (array_of(p, a.sym)) perr(err, it->pos, "array %s is declared twice", it->loc.sym);
  p->arrays[p->narrays++] = a; /* room for one per init item */
  for (int k = 0; k < len; k++) {
    int s = cell_symbol(p, &a, k);
    /* first the value: it may add symbols, moving sym_init */
    Val x = it->has_val && k < v->nelems ? program_value(p, &v->elems[k], err) : val_int(0);
    p->sym_init.data[s] = x;
    p->sym_type.data[s] = ty;
  }
}

static void program_init_state(Program *p, Err *err) {
  const Test *t = p->test;
  p->arrays = arena_alloc(&p->arena, sizeof *p->arrays * (size_t)(t->ninit + 1));
  for (int i = 0; i < t->ninit; i++) {
    const InitItem *it = &t->init[i];
    const LitLoc *l = &it->loc;
    LocType ty = type_of(&it->type, p->word_bits);
    /* symbolic registers were allocated by the front end */
    if (l->kind == LOC_REG || (l->kind == LOC_SYMREG && l->regid >= 0)) {
      if (l->thread < 0 || l->thread >= p->nthreads)
        perr(err, l->pos, "thread %d does not exist", l->thread);
      if (l->regid < 0 || l->regid >= p->nregs)
        perr(err, l->pos, "%s is not a register", l->reg);
      if (l->lanes) { /* a vector register: 0, as every register starts */
        if (it->has_val) perr(err, it->pos, "initial values of vector registers are not supported");
        continue;
      }
      p->init_regs[l->thread][l->regid] = program_value(p, &it->val, err);
      p->init_reg_set[l->thread][l->regid] = true;
      p->reg_type[l->thread][l->regid] = ty;
    } else if (l->kind == LOC_GLOBAL && it->type.kind == TY_ARRAY) {
      init_array(p, it, ty, err);
    } else if (l->kind == LOC_GLOBAL) {
      int s = program_symbol(p, l->sym);
      Val x = program_value(p, &it->val, err); /* may move sym_init */
      p->sym_init.data[s] = x;
      p->sym_type.data[s] = ty;
    } else {
      perr(err, it->pos, "unsupported location in the initial state");
    }
  }
}

Program *program_new(const Test *t, Err *err, int unroll) {
  return program_new_kvm(t, err, unroll, false);
}

Program *program_new_kvm(const Test *t, Err *err, int unroll, bool kvm) {
  Program *p = xcalloc(1, sizeof(Program));
  p->kvm = kvm;
  arena_init(&p->arena);
  intern_init(&p->syms);
  intern_init(&p->labels);
  intern_init(&p->instrs);
  intern_init(&p->colors);
  intern(&p->colors, "green"); /* herd's default tag */
  p->test = t;
  p->ops = t->ops;
  p->word_bits = t->ops ? t->ops->word_bits : 32;
  p->nthreads = t->nthreads;
  p->nregs = t->c ? t->c->nregs : t->ops ? t->ops->nregs : 0;
  p->unroll = unroll;
  p->fault_disp = -1;
  const char *u = test_meta(t, "Unroll");
  if (u) p->unroll = atoi(u);
  ErrJmp j;
  err_push(err, &j);
  if (setjmp(j.jb) != 0) {
    program_free(p);
    err_rethrow(err);
  }
  p->init_regs = arena_alloc(&p->arena, sizeof(Val *) * (size_t)(p->nthreads + 1));
  p->init_reg_set = arena_alloc(&p->arena, sizeof(bool *) * (size_t)(p->nthreads + 1));
  p->reg_type = arena_alloc(&p->arena, sizeof(LocType *) * (size_t)(p->nthreads + 1));
  for (int th = 0; th < p->nthreads; th++) {
    p->init_regs[th] = arena_zalloc(&p->arena, sizeof(Val) * (size_t)(p->nregs + 1));
    p->init_reg_set[th] = arena_zalloc(&p->arena, sizeof(bool) * (size_t)(p->nregs + 1));
    p->reg_type[th] = arena_alloc(&p->arena, sizeof(LocType) * (size_t)(p->nregs + 1));
    for (int r = 0; r < p->nregs; r++) {
      p->init_regs[th][r] = val_int(0);
      p->reg_type[th][r] = (LocType){32, true, false};
    }
  }
  program_intern_labels(p);
  program_init_state(p, err);
  if (kvm) vmsa_program_setup(p, err);
  else vmsa_check_tthm(t, err);
  if (t->c) c_init_params(p);
  build_display(p, err);
  err_pop(err, &j);
  return p;
}

void program_free(Program *p) {
  if (!p) return;
  program_free_faults(p);
  vec_free(p->sym_init);
  vec_free(p->sym_type);
  intern_free(&p->syms);
  intern_free(&p->labels);
  intern_free(&p->instrs);
  intern_free(&p->colors);
  vec_free(p->instr_code);
  vec_free(p->fetch_cands);
  vec_free(p->jump_labels);
  arena_free(&p->arena);
  free(p);
}

int program_disp_index(const Program *p, const LitLoc *l) {
  for (int i = 0; i < p->ndisp; i++) {
    const DispLoc *d = &p->disp[i];
    switch (l->kind) {
    case LOC_REG:
      if (d->kind == DL_REG && d->thread == l->thread && d->reg == l->regid &&
          d->lane_bits == l->lane_bits && d->lane_shift == l->lane_shift && !l->lanes)
        return i;
      break;
    case LOC_GLOBAL:
      if (d->kind == DL_GLOBAL && d->sym == program_find_symbol(p, l)) return i;
      break;
    case LOC_CELL:
      if (d->kind == DL_CELL && d->index == l->index &&
          strcmp(intern_name(&p->syms, d->sym), l->sym) == 0)
        return i;
      break;
    default:
      break;
    }
  }
  return -1;
}
