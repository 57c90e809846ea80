/*
 * solve.c — the values of a candidate execution: each node of the
 * structure's value graph computed for the current rf choice (a cycle
 * through rf, or an operation on incompatible values, leaves it
 * unknown), the locations of events, and the final value of registers
 * and memory locations given the final writes.
 */
#include "engine_int.h"

bool sym_apply(SymOp op, int width, Val a, Val b, Val c3, Val *out);

/* Value of node s for the current rf; false if it cannot be computed (a
 * cycle through rf, or an operation on incompatible values). */
bool eval_node(Engine *g, Sym s, Val *out) {
  if (g->vstate[s] == 2) {
    *out = g->vals[s];
    return true;
  }
  if (g->vstate[s] != 0) return false; /* busy (cycle) or failed */
  const SymNode *n = &g->es->nodes[s];
  Val r;
  bool ok = true;
  g->vstate[s] = 1;
  if (n->op == S_CONST) {
    r = n->k;
  } else if (n->op == S_READ) {
    int ri = g->read_index[n->a];
    if (ri < 0) {
      ok = false;
    } else {
      const Event *w = &g->es->ev[g->rf_src[ri]];
      Sym wv = (w->flags & EV_R) && w->wval != SYM_NONE ? w->wval : w->val;
      ok = eval_node(g, wv, &r);
    }
  } else {
    Val a = val_int(0), b = val_int(0), c = val_int(0);
    ok = eval_node(g, n->a, &a);
    if (ok && n->b != SYM_NONE) ok = eval_node(g, n->b, &b);
    if (ok && n->c != SYM_NONE) ok = eval_node(g, n->c, &c);
    if (ok) ok = sym_apply((SymOp)n->op, n->width, a, b, c, &r);
  }
  if (!ok) {
    g->vstate[s] = 3;
    return false;
  }
  g->vals[s] = r;
  g->vstate[s] = 2;
  *out = r;
  return true;
}

/* Location of a memory event as a symbol id (-1 if not a location). */
bool ev_loc(Engine *g, int e, Val *out) {
  if (!eval_node(g, g->es->ev[e].loc, out) || out->kind != VAL_ADDR) return false;
  program_cell(g->p, *out, out); /* a computed address inside an array */
  return true;
}

int64_t typed_int(const Program *p, LocType t, int64_t x) {
  int bits = t.bits ? t.bits : p->word_bits;
  if (bits >= 64) return x;
  uint64_t m = ((uint64_t)1 << bits) - 1;
  uint64_t u = (uint64_t)x & m;
  if (t.is_signed && (u >> (bits - 1)) & 1) u |= ~m;
  return (int64_t)u;
}

/* -variant mixed: a location's final value combines its bytes' (mixed.c). */
static bool mixed_final_value(Engine *g, int s, Val *out) {
  const Program *p = g->p;
  uint64_t u = 0;
  for (int i = 0; i < p->byte_count[s]; i++) {
    Val b;
    if (!global_final_value(g, p->byte_base[s] + i, &b) || b.kind != VAL_INT) return false;
    u |= ((uint64_t)b.num & 0xff) << (8 * i);
  }
  *out = val_int((int64_t)u);
  return true;
}

/* Final value of memory symbol s: its final write's, or its initial one. */
bool global_final_value(Engine *g, int s, Val *out) {
  if (s < 0) return false;
  if (g->p->mixed && s < g->p->mixed_nsyms0) return mixed_final_value(g, s, out);
  int w = g->fw[s] >= 0 ? g->fw[s] : g->es->init_of_sym[s];
  const Event *e = &g->es->ev[w];
  return eval_node(g, (e->flags & EV_R) && e->wval != SYM_NONE ? e->wval : e->val, out);
}

/* Value of a register or memory location in the final state. */
bool final_value(Engine *g, const LitLoc *l, Val *out) {
  if (l->kind == LOC_REG) {
    if (l->thread < 0 || l->thread >= g->es->nthreads || l->regid < 0) return false;
    return eval_node(g, g->es->final_regs[l->thread][l->regid], out);
  }
  if (l->kind == LOC_GLOBAL || l->kind == LOC_CELL)
    return global_final_value(g, program_find_symbol(g->p, l), out);
  return false;
}
