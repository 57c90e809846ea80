/*
 * cond.c — the "Condition" line (../shared/spec/output.md §7): the
 * condition re-printed from its tree with herd's minimal parenthesisation,
 * locations in state-line spelling and values cast to their location's
 * declared type (output.md §3.4).
 */
#include "cond.h"

#include <ctype.h>
#include <string.h>

/* ------------------------------------------------------------- locations */

static bool same_reg(const LitLoc *a, const LitLoc *b) {
  bool ra = a->kind == LOC_REG || a->kind == LOC_SYMREG;
  bool rb = b->kind == LOC_REG || b->kind == LOC_SYMREG;
  return ra && rb && a->thread == b->thread && a->regid == b->regid &&
         a->regid >= 0;
}

static const InitItem *find_init(const Test *t, const LitLoc *l) {
  for (int i = 0; i < t->ninit; i++) {
    const LitLoc *m = &t->init[i].loc;
    if (same_reg(m, l)) return &t->init[i];
    if (m->kind == LOC_GLOBAL && (l->kind == LOC_GLOBAL || l->kind == LOC_CELL)
        && strcmp(m->sym, l->sym) == 0)
      return &t->init[i];
    if (m->kind == LOC_SYMREG && l->kind == LOC_SYMREG &&
        strcmp(m->reg, l->reg) == 0)
      return &t->init[i];
  }
  return NULL;
}

const LitType *test_loc_type(const Test *t, const LitLoc *l) {
  const InitItem *it = find_init(t, l);
  if (!it || it->type.kind == TY_NONE) return NULL;
  return &it->type;
}

static bool is_array(const Test *t, const LitLoc *l) {
  const LitType *ty = test_loc_type(t, l);
  return ty && ty->kind == TY_ARRAY;
}

void print_loc_state(const Test *t, const LitLoc *l, StrBuf *out) {
  switch (l->kind) {
  case LOC_REG:
  case LOC_SYMREG: {
    bool named = l->regid >= 0 && t->ops;
    if (l->kind == LOC_REG && l->lanes) { /* a vector register: V0.4S */
      sb_put_int(out, l->thread);
      sb_putc(out, ':');
      for (const char *q = l->reg; *q; q++) sb_putc(out, (char)toupper((unsigned char)*q));
    } else if (named || l->kind == LOC_REG) {
      sb_put_int(out, l->thread);
      sb_putc(out, ':');
      sb_puts(out, named ? test_reg_name(t, l->regid) : l->reg);
    } else {
      sb_putc(out, '%');
      sb_puts(out, l->reg);
    }
    break;
  }
  case LOC_GLOBAL:
    if (is_array(t, l)) {
      sb_puts(out, l->sym);
    } else {
      sb_putc(out, '[');
      sb_puts(out, l->sym);
      sb_putc(out, ']');
    }
    break;
  case LOC_CELL: lit_print_loc_hash(l, out); break; /* x[i], as written */
  }
}

/* ---------------------------------------------------------------- values */

void print_int_value(const Test *t, const LitLoc *l, int64_t v, bool hexa,
                     StrBuf *out) {
  bool sgn;
  int bits = lit_type_bits(l ? test_loc_type(t, l) : NULL,
                           t->ops ? t->ops->word_bits : 64, &sgn);
  uint64_t mask = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
  uint64_t u = (uint64_t)v & mask;
  if (hexa) {
    sb_printf(out, "0x%llx", (unsigned long long)u);
  } else if (sgn) {
    if (bits < 64 && (u >> (bits - 1)) & 1) u |= ~mask; /* sign-extend */
    sb_put_int(out, (int64_t)u);
  } else {
    sb_put_uint(out, u);
  }
}

/* A constant of the condition as herd prints it: the scalar it parsed,
 * whatever the location's type (herd casts only to compare), so a signed
 * decimal of the machine's width, or its bit pattern with hexa. */
static void print_constant(const Test *t, int64_t v, bool hexa, StrBuf *out) {
  int bits = t->ops ? t->ops->word_bits : 64;
  uint64_t u = (uint64_t)v;
  if (bits < 64) {
    u &= ((uint64_t)1 << bits) - 1;
    if (!hexa && (u >> (bits - 1)) & 1) u |= ~(((uint64_t)1 << bits) - 1);
  }
  if (hexa) sb_printf(out, "0x%llx", (unsigned long long)u);
  else sb_put_int(out, (int64_t)u);
}

void print_lit_value(const Test *t, const LitLoc *l, const LitVal *v,
                     bool hexa, StrBuf *out) {
  switch (v->kind) {
  case LV_INT: print_constant(t, v->num, hexa, out); break;
  case LV_ADDR:
    sb_puts(out, v->sym);
    if (v->tag) sb_printf(out, ":%s", v->tag);
    if (v->has_index && v->index != 0) {
      sb_putc(out, '+');
      sb_put_int(out, v->index);
    }
    break;
  case LV_LABEL: sb_printf(out, "label:\"P%d:%s\"", v->thread, v->label); break;
  case LV_INSTR:
    if (strcmp(v->sym, "NOP") == 0) sb_puts(out, v->sym);
    else sb_printf(out, "instr:\"%s\"", v->sym);
    break;
  case LV_TAG:
    sb_putc(out, ':');
    sb_puts(out, v->sym);
    break;
  case LV_PTE: lit_print_pte(v->pte_oa, v->pte_bits, out); break;
  case LV_ARRAY:
    sb_putc(out, '{');
    for (int i = 0; i < v->nelems; i++) {
      if (i) sb_putc(out, ',');
      print_lit_value(t, l, &v->elems[i], hexa, out);
    }
    sb_putc(out, '}');
    break;
  }
}

/* ---------------------------------------------------------- propositions */

/* herd's ConstrGen.pp_prop: parentheses only where a looser operator sits
 * under a tighter one, except that a conjunction inside a disjunction and
 * nested operators of one kind stay bare. */
typedef enum Ctx { C_TOP, C_AND, C_OR, C_IMPL } Ctx;

static bool needs_paren(Ctx above, Ctx here) {
  switch (above) {
  case C_TOP: return false;
  case C_IMPL: return here != C_IMPL;
  case C_AND: return here != C_AND;
  case C_OR: return here == C_IMPL;
  }
  return false;
}

static void print_prop(const Test *t, const Prop *p, Ctx above, bool hexa,
                       StrBuf *out);

static void print_binary(const Test *t, const Prop *p, Ctx above, bool hexa,
                         StrBuf *out) {
  Ctx here = p->kind == P_AND ? C_AND : p->kind == P_OR ? C_OR : C_IMPL;
  const char *op = here == C_AND ? " /\\ " : here == C_OR ? " \\/ " : " => ";
  bool paren = needs_paren(above, here);
  if (paren) sb_putc(out, '(');
  print_prop(t, p->a, here, hexa, out);
  sb_puts(out, op);
  print_prop(t, p->b, here, hexa, out);
  if (paren) sb_putc(out, ')');
}

static void print_prop(const Test *t, const Prop *p, Ctx above, bool hexa,
                       StrBuf *out) {
  switch (p->kind) {
  case P_TRUE: sb_puts(out, "true"); break;
  case P_FALSE: sb_puts(out, "false"); break;
  case P_EQ:
    print_loc_state(t, &p->loc, out);
    sb_putc(out, '=');
    print_lit_value(t, &p->loc, &p->val, hexa, out);
    break;
  case P_LOCEQ:
    print_loc_state(t, &p->loc, out);
    sb_putc(out, '=');
    print_loc_state(t, &p->loc2, out);
    break;
  case P_NOT:
    sb_puts(out, "not (");
    print_prop(t, p->a, C_TOP, hexa, out);
    sb_putc(out, ')');
    break;
  case P_AND: case P_OR: case P_IMPL: print_binary(t, p, above, hexa, out); break;
  case P_FAULT: fault_atom_print(p->fault, "fault", out); break;
  }
}

void print_condition(const Test *t, bool hexa, StrBuf *out) {
  const char *q = "forall";
  if (t->has_cond && t->quant == Q_EXISTS) q = "exists";
  if (t->has_cond && t->quant == Q_NOT_EXISTS) q = "~exists";
  sb_puts(out, q);
  sb_puts(out, " (");
  if (t->has_cond && t->cond) print_prop(t, t->cond, C_TOP, hexa, out);
  else sb_puts(out, "true");
  sb_putc(out, ')');
}
