/*
 * ifetch.c — instructions as values and code locations (herd7's
 * self-modifying code support, AArch64).
 *
 * A value may be an instruction (NOP, instr:"B .+8"): VAL_INSTR, its num
 * the instruction's id in Program.instrs (interned by its canonical
 * spelling, so equal instructions are equal values) and its sym a rank
 * in herd's order of instructions (the declaration order of its
 * instruction type: NOP first), which CMP and the sorting of states use.
 *
 * A code label used as a value — in the initial state (0:X1=P1:L0) or
 * by an ADR — names a memory location: a symbol of its own ("P1:L0"),
 * holding at the start the instruction the label marks, its branch
 * targets rewritten as offsets (B L1 is B .+8), as herd's loader has
 * them.  Without -variant ifetch each such label is its own location;
 * with it, as in herd, every label of one instruction designates a
 * single location, named by the least of them, and label values are
 * normalised to that name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program.h"
#include "../litmus/aarch64.h"

/* herd's rank of an instruction in its type's order (polymorphic compare
 * puts constructors without arguments first, then the others in
 * declaration order). */
static int herd_rank(const Instr *ins) {
  switch ((AAOp)ins->op) {
  case AA_NOP: return 0;
  case AA_ERET: return 1;
  case AA_B: return 10;
  case AA_BCC: return 11;
  case AA_CBZ: return 12;
  case AA_CBNZ: return 13;
  case AA_TBNZ: return 14;
  case AA_TBZ: return 15;
  case AA_BL: return 16;
  case AA_RET: return 17;
  case AA_SVC: return 18;
  case AA_LDR: case AA_LDRS: return 19;
  case AA_LDRSW: return 20;
  case AA_LDUR: return 21;
  case AA_LDP: return 60;
  case AA_LDPSW: return 61;
  case AA_LDAR: case AA_LDAPR: case AA_LDXR: case AA_LDAXR: return 62;
  case AA_LDXP: return 63;
  case AA_STR: return 64;
  case AA_STP: return 65;
  case AA_STLR: return 66;
  case AA_STXR: case AA_STLXR: return 67;
  case AA_STXP: return 68;
  case AA_CAS: return 130;
  case AA_CASP: return 132;
  case AA_SWP: return 133;
  case AA_LDOP: return 135;
  case AA_STOP: return 137;
  case AA_MOV: return 139;
  case AA_MOVZ: return 140;
  case AA_MOVN: return 141;
  case AA_MOVK: return 142;
  case AA_SXTW: return 143;
  case AA_SBFM: return 144;
  case AA_UBFM: return 145;
  case AA_ADDSUBEXT: return 146;
  case AA_MOPL: return 147;
  case AA_MOP: return 148;
  case AA_ADR: return 150;
  case AA_RBIT: return 151;
  case AA_ABS: return 152;
  case AA_REV: return 153;
  case AA_EXTR: return 154;
  case AA_DMB: case AA_DSB: case AA_ISB: return 155;
  case AA_CSEL: return 156;
  case AA_MRS: return 160;
  case AA_MSR: return 161;
  case AA_UDF: return 166;
  case AA_BR: case AA_BLR: return 170;
  default: break;
  }
  return AA_IS_ALU(ins->op) ? 149 : 200 + ins->op;
}

Val program_instr_value(Program *p, const Instr *ins, const char *text) {
  int id = intern(&p->instrs, text);
  while (p->instr_code.len <= id) vec_push(p->instr_code, NULL);
  if (!p->instr_code.data[id]) p->instr_code.data[id] = ins;
  Val v = {VAL_INSTR, herd_rank(ins), id};
  return v;
}

const Instr *program_instr(const Program *p, Val v) {
  return v.kind == VAL_INSTR && v.num < p->instr_code.len ? p->instr_code.data[v.num] : NULL;
}

const char *program_instr_text(const Program *p, Val v) {
  return intern_name(&p->instrs, (int)v.num);
}

int program_instr_cmp(const Program *p, Val a, Val b) {
  if (a.sym != b.sym) return a.sym < b.sym ? -1 : 1;
  return strcmp(program_instr_text(p, a), program_instr_text(p, b));
}

/* ------------------------------------------------------ code locations */

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void program_intern_labels(Program *p) {
  const Test *t = p->test;
  if (t->c) return;
  int n = 0;
  for (int th = 0; th < t->nthreads; th++)
    for (int e = 0; e < t->threads[th].nentries; e++) n += t->threads[th].entries[e].label != NULL;
  const char **v = xmalloc(sizeof *v * (size_t)(n + 1));
  n = 0;
  for (int th = 0; th < t->nthreads; th++)
    for (int e = 0; e < t->threads[th].nentries; e++)
      if (t->threads[th].entries[e].label) v[n++] = t->threads[th].entries[e].label;
  qsort(v, (size_t)n, sizeof *v, cmp_str);
  for (int i = 0; i < n; i++) intern(&p->labels, v[i]);
  free(v);
}

/* The index of the first instruction at or after entry e of thread t
 * (nentries if none), and its address in instructions from the start. */
static int instr_at(const Thread *th, int e) {
  while (e < th->nentries && !th->entries[e].ins) e++;
  return e;
}

static int instr_number(const Thread *th, int e) {
  int n = 0;
  for (int i = 0; i < e && i < th->nentries; i++) n += th->entries[i].ins != NULL;
  return n;
}

static int find_label_entry(const Thread *th, const char *label) {
  for (int i = 0; i < th->nentries; i++)
    if (th->entries[i].label && strcmp(th->entries[i].label, label) == 0) return i;
  return -1;
}

/* The instruction at entry e of thread t as a value: its label operands
 * turned into offsets (herd's loader), printed canonically. */
static Val code_value(Program *p, const Thread *th, int e, Err *err) {
  const Instr *ins = th->entries[e].ins;
  Instr *copy = arena_alloc(&p->arena, sizeof *copy);
  *copy = *ins;
  int here = instr_number(th, e);
  for (int i = 0; i < copy->nops; i++) {
    Operand *o = &copy->ops[i];
    if (o->kind != OPK_LABEL || !o->sym) continue;
    int to = find_label_entry(th, o->sym);
    if (to < 0) err_raise(err, ERRK_SEMANTIC, ins->pos, "label %s not found", o->sym);
    o->imm = 4 * (int64_t)(instr_number(th, instr_at(th, to)) - here);
    o->sym = NULL;
  }
  StrBuf b;
  sb_init(&b);
  arch_print_value(p->ops, copy, &b);
  Val v = program_instr_value(p, copy, sb_cstr(&b));
  sb_free(&b);
  return v;
}

/* The least label (strcmp) of the instruction at entry e: the labels
 * right before it. */
static const char *least_label(const Thread *th, int e) {
  const char *best = NULL;
  for (int i = e - 1; i >= 0 && !th->entries[i].ins; i--) {
    const char *l = th->entries[i].label;
    if (l && (!best || strcmp(l, best) < 0)) best = l;
  }
  return best;
}

static void add_loc(Program *p, int *cap, int thread, int label, int sym) {
  for (int i = 0; i < p->ncode_locs; i++)
    if (p->code_locs[i].thread == thread && p->code_locs[i].label == label) return;
  if (p->ncode_locs == *cap) {
    int ncap = *cap ? 2 * *cap : 8;
    struct CodeLoc *n = arena_alloc(&p->arena, sizeof *n * (size_t)ncap);
    if (p->ncode_locs) memcpy(n, p->code_locs, sizeof *n * (size_t)p->ncode_locs);
    p->code_locs = n;
    *cap = ncap;
  }
  struct CodeLoc c = {thread, label, sym};
  p->code_locs[p->ncode_locs++] = c;
}

/* Exported label (thread, name) becomes a location. */
static void export_label(Program *p, int *cap, bool ifetch, int thread, const char *label,
                         Err *err, SrcPos pos) {
  if (thread < 0 || thread >= p->nthreads) return;
  const Thread *th = &p->test->threads[thread];
  int e = find_label_entry(th, label);
  if (e < 0)
    err_raise(err, ERRK_SEMANTIC, pos, "Label %s is undefined, yet it is used as constant",
              label);
  int at = instr_at(th, e);
  if (at >= th->nentries) return; /* the end of the code: no instruction */
  const char *name = ifetch ? least_label(th, at) : label;
  char buf[256];
  snprintf(buf, sizeof buf, "P%d:%s", thread, name);
  bool fresh = intern_find(&p->syms, buf) < 0;
  int s = program_symbol(p, buf);
  if (fresh) p->sym_init.data[s] = code_value(p, th, at, err);
  if (p->code_sym[thread][at] < 0 || ifetch) p->code_sym[thread][at] = s;
  if (ifetch) /* every label of the instruction designates it */
    for (int i = at - 1; i >= 0 && !th->entries[i].ins; i--)
      if (th->entries[i].label)
        add_loc(p, cap, thread, intern(&p->labels, th->entries[i].label), s);
  add_loc(p, cap, thread, intern(&p->labels, label), s);
}

bool program_is_code_sym(const Program *p, int s) {
  for (int i = 0; i < p->ncode_locs; i++)
    if (p->code_locs[i].sym == s) return true;
  return false;
}

bool program_instr_restricted(const Program *p, Val v) {
  const Instr *ins = program_instr(p, v);
  if (!ins) return false;
  switch ((AAOp)ins->op) {
  case AA_B: case AA_BL: case AA_CBNZ: case AA_CBZ: case AA_ISB: case AA_NOP:
  case AA_TBNZ: case AA_TBZ: case AA_SVC:
    return false;
  default:
    return true;
  }
}

int program_label_symbol(const Program *p, Val label) {
  if (label.kind != VAL_LABEL) return -1;
  for (int i = 0; i < p->ncode_locs; i++)
    if (p->code_locs[i].thread == label.sym && p->code_locs[i].label == label.num)
      return p->code_locs[i].sym;
  return -1;
}

/* herd -variant ifetch: a label value becomes the least label of its
 * instruction. */
static Val norm_label(Program *p, Val v) {
  int s = program_label_symbol(p, v);
  if (s < 0) return v;
  const char *name = strchr(intern_name(&p->syms, s), ':') + 1;
  v.num = intern(&p->labels, name);
  return v;
}

/* herd's overwriting instructions: those of the initial state. */
static void add_cand(Program *p, Val v) {
  if (v.kind != VAL_INSTR) return;
  for (int i = 0; i < p->fetch_cands.len; i++)
    if (val_eq(p->fetch_cands.data[i], v)) return;
  vec_push(p->fetch_cands, v);
}

static void export_value(Program *p, int *cap, bool ifetch, const LitVal *v, Err *err) {
  if (v->kind == LV_LABEL) export_label(p, cap, ifetch, v->thread, v->label, err, v->pos);
  if (v->kind == LV_ARRAY)
    for (int i = 0; i < v->nelems; i++) export_value(p, cap, ifetch, &v->elems[i], err);
}

/* herd's exported labels: add label value v (once), in (thread, name)
 * order (label ids are interned in name order). */
static void add_jump_label(Program *p, Val v) {
  if (v.kind != VAL_LABEL) return;
  int i = 0;
  while (i < p->jump_labels.len &&
         (p->jump_labels.data[i].sym < v.sym ||
          (p->jump_labels.data[i].sym == v.sym && p->jump_labels.data[i].num < v.num)))
    i++;
  if (i < p->jump_labels.len && val_eq(p->jump_labels.data[i], v)) return;
  vec_push(p->jump_labels, v);
  memmove(&p->jump_labels.data[i + 1], &p->jump_labels.data[i],
          sizeof v * (size_t)(p->jump_labels.len - 1 - i));
  p->jump_labels.data[i] = v;
}

/* The labels of the initial state (as normalised) and of ADR Xd,L; an
 * ADR of an offset (.+k) in the code is herd's error. */
static void collect_jump_labels(Program *p, Err *err) {
  const Test *t = p->test;
  for (int th = 0; th < p->nthreads; th++)
    for (int r = 0; r < p->nregs; r++) add_jump_label(p, p->init_regs[th][r]);
  for (int s = 0; s < p->sym_init.len; s++) add_jump_label(p, p->sym_init.data[s]);
  for (int th = 0; th < p->nthreads; th++)
    for (int e = 0; e < t->threads[th].nentries; e++) {
      const Instr *ins = t->threads[th].entries[e].ins;
      if (!ins || ins->op != AA_ADR || ins->nops < 2 || ins->ops[1].kind != OPK_LABEL) continue;
      if (!ins->ops[1].sym) {
        StrBuf b;
        sb_init(&b);
        arch_print_value(p->ops, ins, &b);
        const char *text = arena_strdup(&p->arena, sb_cstr(&b));
        sb_free(&b);
        err_raise(err, ERRK_SEMANTIC, ins->pos, "Replace offset by label in instruction %s", text);
      }
      Val v = {VAL_LABEL, th, intern(&p->labels, ins->ops[1].sym)};
      add_jump_label(p, v);
    }
}

void program_code_locations(Program *p, bool ifetch, Err *err) {
  const Test *t = p->test;
  if (!isa_has(t->arch, ISA_INSTR_VALUES) || t->c) return;
  p->ifetch = ifetch;
  p->code_sym = arena_alloc(&p->arena, sizeof(int *) * (size_t)(p->nthreads + 1));
  for (int th = 0; th < p->nthreads; th++) {
    int n = t->threads[th].nentries + 1;
    p->code_sym[th] = arena_alloc(&p->arena, sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) p->code_sym[th][i] = -1;
  }
  int cap = 0;
  for (int i = 0; i < t->ninit; i++) export_value(p, &cap, ifetch, &t->init[i].val, err);
  for (int th = 0; th < p->nthreads; th++) {
    const Thread *c = &t->threads[th];
    for (int e = 0; e < c->nentries; e++) {
      const Instr *ins = c->entries[e].ins;
      if (ins && ins->op == AA_ADR && ins->nops > 1 && ins->ops[1].kind == OPK_LABEL &&
          ins->ops[1].sym)
        export_label(p, &cap, ifetch, th, ins->ops[1].sym, err, ins->pos);
    }
  }
  if (ifetch) {
    for (int th = 0; th < p->nthreads; th++)
      for (int r = 0; r < p->nregs; r++) {
        p->init_regs[th][r] = norm_label(p, p->init_regs[th][r]);
        add_cand(p, p->init_regs[th][r]);
      }
    for (int s = 0; s < p->sym_init.len; s++) {
      p->sym_init.data[s] = norm_label(p, p->sym_init.data[s]);
      add_cand(p, p->sym_init.data[s]);
    }
  }
  collect_jump_labels(p, err);
}
