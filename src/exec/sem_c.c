/*
 * sem_c.c — events of C litmus statements (litmus.md §6.2-§6.5).
 *
 * The C front end (litmus/c.c) lowers each thread to CInstrs: one per
 * simple statement, plus branch, jump and control-scope entries for if and
 * while.  A statement's expression tree is evaluated left to right here;
 * every memory access, fence and lock operation becomes an event, and all
 * events of one statement are po-ordered when sequenced (es.c).
 *
 * Annotations: a Linux access carries the set name of its bell annotation
 * (ONCE, Acquire's ACQUIRE, Rmb, ...) and the two halves of an RMW the set
 * RMW as well; a C11 access carries its memory order (RLX, ACQ, SC...) and
 * A, a plain access NA.  Lock operations are lock-like events (EV_LOCK:
 * they have a location but are not in M), named LKR, LKW, UL, LF, RL, RU;
 * lock.cat builds their rf and co.
 *
 * Only herd's lkmmv2 translation of RMWs is implemented: both halves carry
 * the macro's annotation and no fences are added.
 */
#include "../litmus/c.h"
#include "sem.h"

/* A statement with k operations that may fail (cmpxchg, trylock, CAS...)
 * runs as 2^k alternatives: bit i of `alts` says how the i-th one, in
 * evaluation order, goes. */
typedef struct CEval {
  SemCtx *c;
  unsigned alts;
  int next;            /* next bit of alts */
} CEval;

enum { MAX_CHOICES = 6 };

static int count_choices(const CNode *n) {
  if (!n) return 0;
  int k = n->kind == CK_CMPXCHG || n->kind == CK_ADDUNLESS || n->kind == CK_TRYLOCK ||
          n->kind == CK_ISLOCKED || n->kind == CK_CAS;
  k += count_choices(n->a) + count_choices(n->b) + count_choices(n->c) + count_choices(n->d);
  return k;
}

static const char *const mo_names[] = {
    [MO_RLX] = "RLX", [MO_CON] = "CON", [MO_ACQ] = "ACQ",
    [MO_REL] = "REL", [MO_ACQ_REL] = "ACQ_REL", [MO_SC] = "SC",
};

/* Tags of an access or fence: its annotation, or its memory order. */
static uint64_t tags_of(CEval *x, const CNode *n, int mo, bool access) {
  SemCtx *c = x->c;
  if (n->ann) return sem_tag(c, n->ann);
  if (mo != MO_NONE) return sem_tag(c, mo_names[mo]) | (access ? sem_tag(c, "A") : 0);
  return access ? sem_tag(c, "NA") : 0;
}

static int choose2(CEval *x) { return (int)(x->alts >> x->next++ & 1); }

static SymOp sym_op(int op) {
  switch (op) {
  case CB_ADD: return S_ADD;
  case CB_SUB: return S_SUB;
  case CB_MUL: return S_MUL;
  case CB_DIV: return S_DIV;
  case CB_AND: return S_AND;
  case CB_OR: return S_OR;
  case CB_XOR: return S_XOR;
  case CB_ANDNOT: return S_ANDNOT;
  case CB_EQ: return S_EQ;
  case CB_NE: return S_NE;
  case CB_LT: return S_LT;
  case CB_GT: return S_GT;
  case CB_LE: return S_LE;
  default: return S_GE;
  }
}

static SVal truth(SemCtx *c, SVal v) { return sem_op(c, S_NE, v, sem_int(c, 0)); }

static SVal eval(CEval *x, const CNode *n);

/* A Linux RMW's read half and, unless `no_write`, its write half. */
static SVal rmw_read(CEval *x, const CNode *n, SVal addr) {
  SVal r = sem_load(x->c, addr, 4, tags_of(x, n, n->mo, true) | sem_tag(x->c, "RMW"));
  sem_order_after(x->c, r);
  return r;
}
static void rmw_write(CEval *x, const CNode *n, SVal addr, SVal v) {
  sem_store(x->c, addr, v, 4, tags_of(x, n, n->mo, true) | sem_tag(x->c, "RMW"));
}

/* C11 read-modify-write: one event, both R and W. */
static SVal c11_rmw(CEval *x, const CNode *n, SVal addr, int mo, int *ev) {
  uint64_t t = tags_of(x, n, mo, true) | sem_tag(x->c, "RMW");
  return sem_rmw_event(x->c, addr, 4, t, ev);
}

static SVal lock_event(CEval *x, SVal addr, const char *kind) {
  return sem_lock_event(x->c, addr, sem_tag(x->c, kind));
}

static SVal eval_rmw(CEval *x, const CNode *n) {
  SemCtx *c = x->c;
  SVal addr = eval(x, n->a);
  switch (n->kind) {
  case CK_XCHG: {
    SVal v = eval(x, n->b);
    if (n->mo) {
      int ev;
      SVal old = c11_rmw(x, n, addr, n->mo, &ev);
      sem_rmw_set_write(c, ev, v);
      return old;
    }
    SVal old = rmw_read(x, n, addr);
    sem_ctrl_dep(c, old); /* herd's linux_exch: the read controls the write */
    rmw_write(x, n, addr, v);
    sem_ctrl_reset(c); /* the write alone */
    return old;
  }
  case CK_FETCHOP:
  case CK_OPRET: {
    SVal v = eval(x, n->b);
    if (n->mo) {
      int ev;
      SVal old = c11_rmw(x, n, addr, n->mo, &ev);
      sem_rmw_set_write(c, ev, sem_op(c, sym_op(n->op), old, v));
      return old;
    }
    SVal old = rmw_read(x, n, addr);
    SVal nv = sem_op(c, sym_op(n->op), old, v);
    rmw_write(x, n, addr, nv);
    return n->kind == CK_OPRET ? nv : old;
  }
  case CK_CMPXCHG: {
    SVal v = eval(x, n->b), w = eval(x, n->c);
    int alt = choose2(x);
    SVal old = rmw_read(x, n, addr);
    if (alt == 0) {
      sem_assume(c, sem_op(c, S_EQ, old, v));
      /* herd's linux_cmpexch_ok: the read and the expected value control
       * the write */
      sem_ctrl_dep(c, old);
      sem_ctrl_dep(c, v);
      rmw_write(x, n, addr, w);
      sem_ctrl_reset(c); /* the write alone */
    } else {
      sem_assume(c, sem_op(c, S_NE, old, v));
    }
    return old;
  }
  case CK_ADDUNLESS: {
    SVal v = eval(x, n->b), u = eval(x, n->c);
    int alt = choose2(x);
    SVal old = rmw_read(x, n, addr);
    if (alt == 0) {
      sem_assume(c, sem_op(c, S_NE, old, u));
      sem_ctrl_dep(c, u); /* herd's linux_add_unless_ok: u controls the write */
      rmw_write(x, n, addr, sem_op(c, S_ADD, old, v));
      sem_ctrl_reset(c); /* the write alone */
      return sem_int(c, 1);
    }
    sem_assume(c, sem_op(c, S_EQ, old, u));
    return sem_int(c, 0);
  }
  case CK_CAS: {
    SVal pexp = eval(x, n->b), d = eval(x, n->c);
    SVal expected = sem_load(c, pexp, 4, sem_tag(c, "NA"));
    sem_order_after(c, expected);
    sem_ctrl_dep(c, expected);
    if (choose2(x) == 0) {
      int ev;
      SVal old = c11_rmw(x, n, addr, n->mo, &ev);
      sem_assume(c, sem_op(c, S_EQ, old, expected));
      sem_rmw_set_write(c, ev, d);
      return sem_int(c, 1);
    }
    SVal old = sem_load(c, addr, 4, tags_of(x, n, n->mo2, true));
    if (!n->weak) sem_assume(c, sem_op(c, S_NE, old, expected));
    sem_store(c, pexp, old, 4, sem_tag(c, "NA"));
    return sem_int(c, 0);
  }
  case CK_TRYLOCK:
    if (choose2(x) == 0) {
      sem_order_after(c, lock_event(x, addr, "LKR"));
      lock_event(x, addr, "LKW");
      return sem_int(c, 1);
    }
    lock_event(x, addr, "LF");
    return sem_int(c, 0);
  case CK_ISLOCKED:
    if (choose2(x) == 0) {
      lock_event(x, addr, "RL");
      return sem_int(c, 1);
    }
    lock_event(x, addr, "RU");
    return sem_int(c, 0);
  default:
    sem_error(c, "internal: not an RMW form");
  }
}

static SVal eval(CEval *x, const CNode *n) {
  SemCtx *c = x->c;
  switch (n->kind) {
  case CK_INT: return sem_int(c, n->num);
  case CK_REG: return sem_read_reg(c, n->reg);
  case CK_DEREF: return sem_load(c, eval(x, n->a), 4, sem_tag(c, "NA"));
  case CK_NOT: return sem_op1(c, S_NOT, eval(x, n->a));
  case CK_NEG: return sem_op1(c, S_NEG, eval(x, n->a));
  case CK_BIN: {
    SVal a = eval(x, n->a), b = eval(x, n->b);
    if (n->op == CB_LAND) return sem_op(c, S_AND, truth(c, a), truth(c, b));
    if (n->op == CB_LOR) return sem_op(c, S_OR, truth(c, a), truth(c, b));
    return sem_op(c, sym_op(n->op), a, b);
  }
  case CK_LOAD: return sem_load(c, eval(x, n->a), 4, tags_of(x, n, n->mo, true));
  case CK_XCHG:
  case CK_CMPXCHG:
  case CK_OPRET:
  case CK_FETCHOP:
  case CK_ADDUNLESS:
  case CK_TRYLOCK:
  case CK_ISLOCKED:
  case CK_CAS:
    return eval_rmw(x, n);
  case CK_ADDROF:
    sem_error(c, "'&' is not supported in thread code (use the parameter)");
  default:
    sem_error(c, "internal: not an expression");
  }
}

static void exec_stmt(CEval *x, const CNode *n) {
  SemCtx *c = x->c;
  switch (n->kind) {
  case CK_ASSIGN:
    if (n->a->kind == CK_REG) {
      sem_write_reg(c, n->a->reg, eval(x, n->b));
    } else {
      SVal addr = eval(x, n->a->a);
      SVal v = eval(x, n->b);
      sem_store(c, addr, v, 4, sem_tag(c, "NA"));
    }
    return;
  case CK_EXPR:
    eval(x, n->a);
    return;
  case CK_STORE: {
    SVal addr = eval(x, n->a);
    SVal v = eval(x, n->b);
    sem_store(c, addr, v, 4, tags_of(x, n, n->mo, true));
    return;
  }
  case CK_FENCE:
    sem_fence(c, tags_of(x, n, n->mo, false));
    return;
  case CK_ATOMICOP: {
    SVal addr = eval(x, n->a);
    SVal v = eval(x, n->b);
    SVal old = rmw_read(x, n, addr);
    rmw_write(x, n, addr, sem_op(c, sym_op(n->op), old, v));
    return;
  }
  case CK_LOCK: {
    SVal addr = eval(x, n->a);
    sem_order_after(c, lock_event(x, addr, "LKR"));
    lock_event(x, addr, "LKW");
    return;
  }
  case CK_MTXLOCK:
    sem_lock_event(c, eval(x, n->a), sem_tag(c, "LS") | sem_tag(c, "LK"));
    return;
  case CK_UNLOCK:
    lock_event(x, eval(x, n->a), "UL");
    return;
  case CK_SRCU: {
    SVal addr = eval(x, n->a);
    if (n->b) eval(x, n->b);
    sem_lock_event(c, addr, n->ann ? sem_tag(c, n->ann) : 0);
    return;
  }
  default:
    sem_error(c, "internal: not a statement");
  }
}

static void exec_c(SemCtx *c, const Instr *ins) {
  const CInstr *ci = (const CInstr *)ins;
  CEval x = {c, 0, 0};
  int k = ins->op == COP_STMT || ins->op == COP_BRANCHZ ? count_choices(ci->node) : 0;
  if (k > MAX_CHOICES)
    sem_error(c, "a statement may contain at most %d operations that can fail", MAX_CHOICES);
  if (k) x.alts = (unsigned)sem_choose(c, 1 << k);
  switch (ins->op) {
  case COP_STMT:
    exec_stmt(&x, ci->node);
    return;
  case COP_BRANCHZ: {
    SVal cond = eval(&x, ci->node);
    sem_ctrl_push(c, cond);
    sem_branch(c, sem_op1(c, S_NOT, cond), ins->ops[0].sym);
    return;
  }
  case COP_JUMP:
    sem_jump(c, ins->ops[0].sym);
    return;
  case COP_CTRL_POP:
    sem_ctrl_pop(c);
    return;
  }
}

/* Sets every C test binds, whether or not an event carries them. */
static const char *const c_sets[] = {
    "RMW", "LKR", "LKW", "UL", "LF", "RL", "RU", "LS", "LK", "RLX", "CON",
    "ACQ", "REL", "ACQ_REL", "SC", "A", "NA", NULL,
};

const SemArch sem_c = {.arch = ARCH_C, .exec = exec_c, .set_names = c_sets};
