/*
 * sem.c — symbolic execution of one thread, path by path.
 *
 * The executor walks the thread's code from its first entry, calling the
 * architecture's semantics for each instruction.  State that an instruction
 * changes is either append-only (events, expression nodes, edges,
 * assumptions) or small (registers, reservation, loop counters), so a
 * choice point is handled by recording the vector lengths and copying the
 * small state (a Mark), exploring one successor, and rewinding to the mark
 * for the next.  Each path that reaches the end of the code (or the
 * unrolling bound) is copied out as a ThreadPath.
 */
#include "sem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program.h"
#include "es.h"
#include "faults.h"
#include "mte.h"

typedef struct RegState {
  Sym val;
  int last_w;          /* local id of the last register-write event, or -1 */
  bool inenv;          /* AArch64: herd's register environment has it
                          (see sem_read_reg) */
  int hv;              /* herd's variable for its value, 0: a constant */
} RegState;

typedef enum Flow {
  FLOW_NEXT, FLOW_JUMP, FLOW_BRANCH, FLOW_EXIT, FLOW_DEAD, FLOW_FAULT, FLOW_ERET
} Flow;

enum { MAX_PATH_INSTS = 20000 };

typedef struct Resume Resume; /* -variant deps: a leg still to run */

struct SemCtx {
  Program *prog;
  const SemArch *arch;
  Err *err;
  SemStop stop;              /* asked every few paths */
  bool stopped;              /* it said stop: the exploration was abandoned */
  Arena *out;                /* where finished paths are stored */
  int thread;
  const Thread *code;        /* the code running: the thread's or its handler's */
  const Thread *main_code;   /* the thread's */
  int code_base;             /* code_index of code's first entry (test_entry) */
  int code_thread;           /* the thread whose code `code` is (another
                                thread's after a jump to its label, as
                                herd's labels are global) */
  int *foreign_base;         /* per thread: code_base of its code run by
                                this thread (beyond this thread's own) */
  bool in_handler;           /* herd's re_exec: in the handler, or running an
                                instruction again after a handled fault */
  int nentries;              /* entries of the thread and its handler */
  int unroll;
  bool reg_env;              /* ISA_REG_ENV: herd keeps a register environment */
  int hv_base;               /* herd variables before this thread's */
  bool no_hvar;              /* an operation herd does not make */
  VEC(int) regeq;            /* herd's register stage: pairs (variable of a
                                register read, variable of its source) */

  /* Path state (append-only vectors and small state). */
  VEC(Event) ev;
  VEC(SymNode) nodes;
  EdgeVec iico_data, iico_ctrl, iico_order, rf_reg, cctrl, seq;
  VEC(int) csrc;             /* C control scopes: -1 opens a scope, then
                                the events its condition was read from */
  VEC(Sym) assume;
  RegState *regs;            /* nregs */
  int nregs;
  bool has_resv;
  SVal resv_addr;
  int resv_size;
  int *backjumps;            /* per code entry: backward jumps taken to it */
  VEC(int) bj_trail;         /* the entries whose count rose, in order: a
                                mark keeps its length, not a copy of the
                                counts (a copy per instruction was
                                quadratic in the thread's length) */
  int ninsts;                /* instruction instances on the path */
  /* -variant deps (herd's speculation): po is a tree of instances, each
   * after its parent (inst_parent, indexed by instance); events of a
   * speculated leg are EV_SPEC; legs still to run when the current one
   * reaches the end of the code wait in `resume` (see deps_branch). */
  bool spec;
  int last_inst;             /* the parent of the next instance, or -1 */
  VEC(int) inst_parent;
  VEC(Resume *) resume;

  /* Current instruction. */
  const Instr *ins;
  int code_index;
  int inst_first;            /* local id of its first event */
  uint64_t ctrl_from;        /* iico_ctrl sources for new events */
  uint64_t order_from;       /* iico_order sources for the next event */
  uint64_t data_from;        /* iico_data sources for the next event */
  uint64_t seq_from;         /* C: events sequenced before new events */
  struct Choices *choices;   /* the current instruction's (sem_choose) */
  int nalts;                 /* 1 until a choice of several alternatives */
  Flow flow;
  const char *target;
  SVal cond;
  Sym spur_addr;             /* a spurious update to make at the end of the
                                instruction (sem_spurious_af), or SYM_NONE */

  VEC(ThreadPath) paths;
};

/* ------------------------------------------------------------ helpers */

static int new_node(SemCtx *c, SymNode n) {
  vec_push(c->nodes, n);
  return c->nodes.len - 1;
}

static Sym const_node(SemCtx *c, Val v) {
  SymNode n = {0};
  n.op = S_CONST;
  n.k = v;
  n.a = n.b = n.c = SYM_NONE;
  return new_node(c, n);
}

bool sem_addr_base(SemCtx *c, SVal a, Val *out) {
  const SymNode *n = &c->nodes.data[a.s];
  if (n->op != S_ADD) return false;
  const SymNode *x = &c->nodes.data[n->a], *y = &c->nodes.data[n->b];
  bool xa = x->op == S_CONST && x->k.kind == VAL_ADDR, ya = y->op == S_CONST && y->k.kind == VAL_ADDR;
  if (xa == ya) return false;
  *out = xa ? x->k : y->k;
  return true;
}

SVal sem_addr_split(SemCtx *c, SVal a, int64_t *k) {
  *k = 0;
  for (;;) {
    const SymNode *n = &c->nodes.data[a.s];
    if (n->op != S_ADD) return a;
    const SymNode *x = &c->nodes.data[n->a], *y = &c->nodes.data[n->b];
    if (y->op == S_CONST && y->k.kind == VAL_INT) {
      *k += y->k.num;
      a.s = n->a;
    } else if (x->op == S_CONST && x->k.kind == VAL_INT) {
      *k += x->k.num;
      a.s = n->b;
    } else {
      return a;
    }
  }
}

bool sem_is_const(SemCtx *c, SVal a, Val *out) {
  const SymNode *n = &c->nodes.data[a.s];
  if (n->op != S_CONST) return false;
  if (out) *out = n->k;
  return true;
}

/* Evaluate an operation on known values; false if it cannot be folded
 * (operands are not integers where integers are needed). */
bool sym_apply(SymOp op, int width, Val a, Val b, Val c3, Val *out);

/* An event of kind `flags` with no location, value, written value or
 * register: the fields each constructor below does not set. */
static Event blank_event(uint32_t flags) {
  Event e = {0};
  e.flags = flags;
  e.loc = e.val = e.wval = SYM_NONE;
  e.reg = -1;
  return e;
}

static int add_event(SemCtx *c, Event e, uint64_t deps) {
  e.thread = (int16_t)c->thread;
  e.inst = c->ninsts;
  e.code_index = c->code_index + c->code_base;
  e.sub = (int16_t)(c->ev.len - c->inst_first);
  if (c->spec) e.flags |= EV_SPEC;
  vec_push(c->ev, e);
  int id = c->ev.len - 1;
  if (id - c->inst_first >= 64)
    sem_error(c, "instruction generates too many events");
  if (id >= ES_MAX_EVENTS)
    sem_error(c, "thread P%d has more than %d events on one path (a relation over "
              "them would take %d MiB): test too large", c->thread, ES_MAX_EVENTS,
              (int)((size_t)ES_MAX_EVENTS * (ES_MAX_EVENTS / 64) * 8 >> 20));
  for (uint64_t d = c->seq_from; d; d &= d - 1) {
    Edge ed = {c->inst_first + __builtin_ctzll(d), id};
    vec_push(c->seq, ed);
  }
  for (int k = 0; k < c->csrc.len; k++)
    if (c->csrc.data[k] >= 0) {
      Edge ed = {c->csrc.data[k], id};
      vec_push(c->cctrl, ed);
    }
  deps |= c->data_from;
  c->data_from = 0;
  for (uint64_t d = deps; d; d &= d - 1) {
    Edge ed = {c->inst_first + __builtin_ctzll(d), id};
    vec_push(c->iico_data, ed);
  }
  for (uint64_t d = c->ctrl_from; d; d &= d - 1) {
    Edge ed = {c->inst_first + __builtin_ctzll(d), id};
    vec_push(c->iico_ctrl, ed);
  }
  for (uint64_t d = c->order_from; d; d &= d - 1) {
    Edge ed = {c->inst_first + __builtin_ctzll(d), id};
    vec_push(c->iico_order, ed);
  }
  c->order_from = 0;
  return id;
}

static uint64_t ev_bit(SemCtx *c, int id) {
  return (uint64_t)1 << (id - c->inst_first);
}

/* ------------------------------------------------------------- values */

SVal sem_val(SemCtx *c, Val v) {
  SVal r = {const_node(c, v), 0, false, 0};
  return r;
}

SVal sem_int(SemCtx *c, int64_t k) { return sem_val(c, val_int(k)); }

static SVal mk_op(SemCtx *c, SymOp op, int width, SVal a, SVal b, SVal x) {
  Val va, vb, vx = val_int(0);
  bool ka = sem_is_const(c, a, &va);
  bool kb = b.s == SYM_NONE || sem_is_const(c, b, &vb);
  bool kx = x.s == SYM_NONE || sem_is_const(c, x, &vx);
  if (b.s == SYM_NONE) vb = val_int(0);
  SVal r;
  r.deps = a.deps | (b.s != SYM_NONE ? b.deps : 0) | (x.s != SYM_NONE ? x.deps : 0);
  Val out;
  /* herd computes an operation at once when its arguments are known;
   * otherwise it makes a variable, except for x^x (0) and x+0 (x). */
  r.unk = a.unk || (b.s != SYM_NONE && b.unk) || (x.s != SYM_NONE && x.unk);
  r.hv = 0;
  if (r.unk) {
    if (op == S_XOR && a.hv == b.hv) {
      /* herd's x^x is 0 at once, whatever x: a cycle through rf, or a
       * speculated read from no write, leaves no equation there */
      r.unk = false;
      if (b.unk && a.hv > 0) {
        r.s = const_node(c, val_int(0));
        return r;
      }
    } else if (op == S_ADD && ((ka && va.kind == VAL_INT && va.num == 0) ||
                               (kb && vb.kind == VAL_INT && vb.num == 0))) {
      SVal o = ka && va.kind == VAL_INT && va.num == 0 ? b : a;
      r.unk = o.unk;
      r.hv = o.hv;
    } else if (!c->no_hvar) {
      r.hv = ++c->prog->hvars;
    }
  }
  if (ka && kb && kx &&
      (mte_handles(op, va, vb) ? mte_apply(c->prog, op, va, vb, &out) : sym_apply(op, width, va, vb, vx, &out))) {
    r.s = const_node(c, out);
    return r;
  }
  SymNode n = {0};
  n.op = (uint8_t)op;
  n.width = (uint8_t)width;
  n.a = a.s;
  n.b = b.s;
  n.c = x.s;
  r.s = new_node(c, n);
  return r;
}

static const SVal NONE_SVAL = {SYM_NONE, 0, false, 0};

SVal sem_op(SemCtx *c, SymOp op, SVal a, SVal b) {
  return mk_op(c, op, c->prog->word_bits, a, b, NONE_SVAL);
}
SVal sem_op1(SemCtx *c, SymOp op, SVal a) {
  return mk_op(c, op, c->prog->word_bits, a, NONE_SVAL, NONE_SVAL);
}
SVal sem_select(SemCtx *c, SVal cond, SVal a, SVal b) {
  /* operands: a = cond, b = then, c = else */
  return mk_op(c, S_SELECT, c->prog->word_bits, cond, a, b);
}
SVal sem_mask(SemCtx *c, SVal a, int bits) {
  return mk_op(c, S_MASK, bits, a, NONE_SVAL, NONE_SVAL);
}
SVal sem_sext(SemCtx *c, SVal a, int bits) {
  return mk_op(c, S_SEXT, bits, a, NONE_SVAL, NONE_SVAL);
}

SVal sem_to_int(SemCtx *c, SVal a, SVal b) {
  Val k;
  if (sem_is_const(c, a, &k) && k.kind == VAL_INT) return a;
  c->no_hvar = true;
  SVal r = mk_op(c, S_TOINT, c->prog->word_bits, a, b, NONE_SVAL);
  c->no_hvar = false;
  r.hv = a.hv;
  return r;
}

SVal sem_load_extend(SemCtx *c, SVal a, int bits, bool is_signed) {
  c->no_hvar = true;
  SVal r = mk_op(c, is_signed ? S_SEXT : S_MASK, bits, a, NONE_SVAL, NONE_SVAL);
  c->no_hvar = false;
  r.hv = a.hv;
  if (!sem_is_const(c, r, NULL)) c->nodes.data[r.s].k.num = 1; /* herd: a copy */
  return r;
}

void sem_herd_var(SemCtx *c) { ++c->prog->hvars; }

uint64_t sem_tag(SemCtx *c, const char *name) {
  int b = tag_bit(&c->prog->tags, name);
  if (b < 0) sem_error(c, "too many distinct annotations in one test");
  return (uint64_t)1 << b;
}

int sem_thread(SemCtx *c) { return c->thread; }
int sem_symbol(SemCtx *c, const char *name) { return program_symbol(c->prog, name); }
const Instr *sem_instr(SemCtx *c) { return c->ins; }

void sem_error(SemCtx *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  SrcPos pos = c->ins ? c->ins->pos : (SrcPos){c->prog->test->file, 0, 0};
  err_vraise(c->err, ERRK_SEMANTIC, pos, fmt, ap);
}

void sem_unsupported(SemCtx *c, const char *detail) {
  const char *text = c->ins && c->ins->text ? c->ins->text : "?";
  if (detail)
    sem_error(c, "unsupported %s instruction '%s' (%s)", arch_name(c->prog->test->arch), text,
              detail);
  sem_error(c, "unsupported %s instruction '%s'", arch_name(c->prog->test->arch), text);
}

/* ---------------------------------------------------------- registers */

SVal sem_read_reg(SemCtx *c, int reg) {
  if (reg < 0 || reg >= c->nregs) sem_error(c, "bad register");
  Event e = blank_event(EV_RREG);
  e.reg = (int16_t)reg;
  e.val = c->regs[reg].val;
  int id = add_event(c, e, 0);
  if (c->regs[reg].last_w >= 0) {
    Edge ed = {c->regs[reg].last_w, id};
    vec_push(c->rf_reg, ed);
  }
  /* herd knows a register's value only through AArch64's register
   * environment; elsewhere every register read is a fresh variable. */
  SVal r = {c->regs[reg].val, ev_bit(c, id), true, c->regs[reg].hv};
  if (c->regs[reg].inenv) {
    r.unk = r.hv != 0;
  } else {
    /* a fresh variable, equated with the source's value by herd's
     * register stage */
    r.hv = ++c->prog->hvars;
    if (c->regs[reg].hv) {
      vec_push(c->regeq, r.hv);
      vec_push(c->regeq, c->regs[reg].hv);
    }
  }
  return r;
}

/* Has the current instruction accessed memory yet? */
static bool inst_accessed_memory(const SemCtx *c) {
  for (int i = c->inst_first; i < c->ev.len; i++)
    if (c->ev.data[i].flags & (EV_R | EV_W)) return true;
  return false;
}

void sem_write_reg(SemCtx *c, int reg, SVal v) {
  if (reg < 0 || reg >= c->nregs) sem_error(c, "bad register");
  Event e = blank_event(EV_WREG);
  e.reg = (int16_t)reg;
  e.val = v.s;
  int id = add_event(c, e, v.deps);
  c->regs[reg].val = v.s;
  c->regs[reg].last_w = id;
  /* herd's AArch64 environment takes the results of instructions that do
   * not access memory (MOV, ADD, CMP...); a load, store-conditional or
   * atomic removes its destination (herd's `killed`), even on a path of
   * the instruction without access (a failing store-conditional). */
  c->regs[reg].inenv = c->reg_env && c->nalts == 1 && !inst_accessed_memory(c);
  c->regs[reg].hv = v.hv;
}

/* ------------------------------------------------------------- memory */

/* -variant mixed: the byte symbol of byte i of an access at constant
 * address addr (see mixed.c). */
static Sym mixed_byte_loc(SemCtx *c, SVal addr, int size, int i) {
  Val a;
  if (!sem_is_const(c, addr, &a) || a.kind != VAL_ADDR)
    sem_error(c, "-variant mixed: an access whose address is computed from memory "
              "is not supported");
  /* an array's bytes: those of the cell holding byte a.num + i */
  Val cell = program_cell_byte(c->prog, val_addr(a.sym, a.num + i));
  int b = program_byte_sym(c->prog, cell.sym, cell.num);
  if (b < 0)
    sem_error(c, "-variant mixed: access of %d bytes at offset %lld of %s goes "
              "beyond the location", size, (long long)a.num,
              intern_name(&c->prog->syms, a.sym));
  return const_node(c, val_addr(b, 0));
}

/* One read event at location node loc, its value an S_READ node. */
static SVal read_event(SemCtx *c, Sym loc, uint64_t deps, int size, uint64_t tags) {
  Event e = blank_event(EV_R);
  e.loc = loc; /* the value is set below, once the event has its number */
  e.size = (uint8_t)size;
  e.tags = tags;
  int id = add_event(c, e, deps);
  SymNode n = {0};
  n.op = S_READ;
  n.a = id;
  n.b = n.c = SYM_NONE;
  Sym s = new_node(c, n);
  c->ev.data[id].val = s;
  SVal r = {s, ev_bit(c, id), true, ++c->prog->hvars};
  c->ev.data[id].hv = r.hv;
  return r;
}

/* -variant mixed: herd's check of the whole access (not of its bytes),
 * unless -variant unaligned: n bytes at a multiple of n inside the
 * location (or the array's cells). */
static void mixed_check_aligned(SemCtx *c, SVal addr, int size) {
  Val a;
  if (c->prog->mixed_unaligned || !sem_is_const(c, addr, &a) || a.kind != VAL_ADDR) return;
  if (program_mixed_aligned(c->prog, a.sym, a.num, size)) return;
  const char *name = intern_name(&c->prog->syms, a.sym);
  if (a.num == 0)
    sem_error(c, "Unaligned or out-of-bound access: %s, %d bytes", name, size);
  sem_error(c, "Unaligned or out-of-bound access: %s+%lld, %d bytes", name, (long long)a.num,
            size);
}

/* -variant mixed: n byte reads; the value is their combination in the
 * architecture's byte order (program_byte_shift) and depends on all of them. */
static SVal mixed_load(SemCtx *c, SVal addr, int size, uint64_t tags) {
  mixed_check_aligned(c, addr, size);
  SVal acc = {SYM_NONE, 0, false, 0};
  int16_t first = 0;
  for (int i = 0; i < size; i++) {
    SVal byte = read_event(c, mixed_byte_loc(c, addr, size, i), addr.deps, 1, tags);
    Event *e = &c->ev.data[c->ev.len - 1];
    e->acc_size = (uint8_t)size;
    if (i == 0) first = e->sub;
    e->acc = first;
    if (i == 0)
      acc = sem_op(c, S_SHL, byte, sem_int(c, program_byte_shift(c->prog, 0, size)));
    else
      acc = sem_op(c, S_OR, acc, sem_op(c, S_SHL, byte, sem_int(c, program_byte_shift(c->prog, i, size))));
  }
  return acc;
}

/* A constant address inside an array names its cell's symbol (see
 * program_cell), so that locations known now compare by symbol. */
static SVal cell_addr(SemCtx *c, SVal addr) {
  Val a, cell;
  int s;
  if (sem_is_const(c, addr, &a) && (s = program_label_symbol(c->prog, a)) >= 0) {
    /* a code location (ifetch.c) */
    SVal r = {const_node(c, val_addr(s, 0)), addr.deps, addr.unk, addr.hv};
    return r;
  }
  if (sem_is_const(c, addr, &a) && program_cell(c->prog, a, &cell)) {
    SVal r = {const_node(c, cell), addr.deps, addr.unk, addr.hv};
    return r;
  }
  return addr;
}

/* -variant mixed with memtag: an access to a tag location, one event
 * (mte.h), an access of its own for mixed.c's matching. */
static bool whole_tag_access(SemCtx *c, SVal addr) {
  Val a;
  return c->prog->memtag && sem_is_const(c, addr, &a) && a.kind == VAL_ADDR &&
         mte_is_tag_loc(c->prog, a.sym);
}

static void own_access(SemCtx *c, int id) {
  Event *e = &c->ev.data[id];
  e->acc = e->sub;
  e->acc_size = e->size;
}

SVal sem_load(SemCtx *c, SVal addr, int size, uint64_t tags) {
  bool whole_tag = c->prog->mixed && whole_tag_access(c, addr);
  if (c->prog->mixed && !whole_tag) return mixed_load(c, addr, size, tags);
  addr = cell_addr(c, addr);
  SVal v = read_event(c, addr.s, addr.deps, size, tags);
  if (whole_tag) own_access(c, c->ev.len - 1);
  return v;
}

static void mark_data_ports(SemCtx *c, uint64_t deps) {
  for (uint64_t d = deps; d; d &= d - 1) {
    Event *e = &c->ev.data[c->inst_first + __builtin_ctzll(d)];
    if (e->flags & EV_RREG) e->flags |= EV_DATAPORT;
  }
}

/* -variant mixed: n byte writes, byte i holding the 8 bits at
 * program_byte_shift (bits 8i..8i+7 little-endian). */
static SVal mixed_store(SemCtx *c, SVal addr, SVal data, int size, uint64_t tags) {
  Val k;
  if (sem_is_const(c, data, &k) && k.kind != VAL_INT)
    sem_error(c, "-variant mixed: storing an address is not supported");
  mixed_check_aligned(c, addr, size);
  mark_data_ports(c, data.deps);
  uint64_t bits = 0;
  int16_t first = 0;
  for (int i = 0; i < size; i++) {
    Event e = blank_event(EV_W);
    e.loc = mixed_byte_loc(c, addr, size, i);
    e.val = sem_mask(c, sem_op(c, S_SHR, data, sem_int(c, program_byte_shift(c->prog, i, size))), 8).s;
    e.size = 1;
    e.acc_size = (uint8_t)size;
    e.tags = tags;
    int id = add_event(c, e, addr.deps | data.deps);
    if (i == 0) first = c->ev.data[id].sub;
    c->ev.data[id].acc = first;
    bits |= ev_bit(c, id);
  }
  SVal r = {data.s, bits, data.unk, data.hv};
  return r;
}

void sem_data_port(SemCtx *c, SVal v) { mark_data_ports(c, v.deps); }

void sem_single_copy(SemCtx *c, SVal v) {
  for (uint64_t d = v.deps; d; d &= d - 1) {
    Event *e = &c->ev.data[c->inst_first + __builtin_ctzll(d)];
    if (e->flags & EV_MEM) e->flags |= EV_SCA;
  }
}

SVal sem_store(SemCtx *c, SVal addr, SVal data, int size, uint64_t tags) {
  bool whole_tag = c->prog->mixed && whole_tag_access(c, addr);
  if (c->prog->mixed && !whole_tag) return mixed_store(c, addr, data, size, tags);
  Val a;
  if (sem_is_const(c, addr, &a) && a.kind == VAL_LABEL) {
    const char *name = intern_name(&c->prog->labels, (int)a.num);
    if (!c->prog->ifetch)
      sem_error(c, "Store to P%d:%s requires instruction fetch functionality. Please use "
                "`-variant self` as an argument to herd7 to enable it.", (int)a.sym, name);
    if (program_label_symbol(c->prog, a) < 0)
      sem_error(c, "Final label %s cannot be overwritten", name);
  }
  addr = cell_addr(c, addr);
  Event e = blank_event(EV_W);
  e.loc = addr.s;
  e.val = data.s;
  e.size = (uint8_t)size;
  e.tags = tags;
  e.hv = data.hv;
  mark_data_ports(c, data.deps);
  int id = add_event(c, e, addr.deps | data.deps);
  if (whole_tag) own_access(c, id);
  SVal r = {data.s, ev_bit(c, id), data.unk, data.hv};
  return r;
}

SVal sem_rmw_event(SemCtx *c, SVal addr, int size, uint64_t tags, int *ev) {
  if (c->prog->mixed)
    sem_error(c, "-variant mixed: atomic read-modify-write instructions are not "
              "supported");
  SVal r = sem_load(c, addr, size, tags);
  int id = c->ev.len - 1;
  c->ev.data[id].flags |= EV_W;
  *ev = id;
  return r;
}

void sem_rmw_set_write(SemCtx *c, int ev, SVal data) {
  mark_data_ports(c, data.deps & ~ev_bit(c, ev));
  c->ev.data[ev].wval = data.s;
  /* The written value's sources feed the event too. */
  for (uint64_t d = data.deps & ~ev_bit(c, ev); d; d &= d - 1) {
    Edge ed = {c->inst_first + __builtin_ctzll(d), ev};
    vec_push(c->iico_data, ed);
  }
}

/* -------------------------------------------------- fences and commits */

void sem_fence(SemCtx *c, uint64_t tags) {
  Event e = blank_event(EV_FENCE);
  e.tags = tags;
  add_event(c, e, 0);
}

void sem_fence_args(SemCtx *c, uint64_t tags, const SVal *args, int nargs) {
  Event e = blank_event(EV_FENCE);
  e.tags = tags;
  uint64_t deps = 0;
  Sym *slot[3] = {&e.val, &e.wval, &e.loc};
  for (int i = 0; i < nargs && i < 3; i++) {
    *slot[i] = args[i].s;
    deps |= args[i].deps;
  }
  add_event(c, e, deps);
}

/* An instruction that does nothing still has an event in herd's graphs. */
void sem_nop(SemCtx *c) {
  add_event(c, blank_event(EV_NOP), 0);
}

SVal sem_located_event(SemCtx *c, SVal addr, uint64_t tags) {
  return sem_lock_event(c, cell_addr(c, addr), tags);
}

void sem_tagged_event(SemCtx *c, uint64_t tags) {
  Event e = blank_event(0);
  e.tags = tags;
  add_event(c, e, 0);
}

SVal sem_lock_event(SemCtx *c, SVal addr, uint64_t tags) {
  Event e = blank_event(EV_LOCK);
  e.tags = tags;
  e.loc = addr.s;
  e.val = const_node(c, val_int(0));
  e.size = 4;
  int id = add_event(c, e, addr.deps);
  SVal r = {addr.s, ev_bit(c, id), addr.unk, addr.hv};
  return r;
}

SVal sem_op1_width(SemCtx *c, SymOp op, int width, SVal a) {
  return mk_op(c, op, width, a, NONE_SVAL, NONE_SVAL);
}

void sem_add_flags(SemCtx *c, SVal v, uint32_t flags) {
  for (uint64_t d = v.deps; d; d &= d - 1)
    c->ev.data[c->inst_first + __builtin_ctzll(d)].flags |= flags;
}

void sem_add_tags(SemCtx *c, SVal v, uint64_t tags) {
  for (uint64_t d = v.deps; d; d &= d - 1)
    c->ev.data[c->inst_first + __builtin_ctzll(d)].tags |= tags;
}

void sem_spurious_af(SemCtx *c, SVal entry) { c->spur_addr = entry.s; }

/* herd's test_and_set_af_succeeds with IdSpurious: an atomic (X)
 * non-explicit read of the entry, which must be valid with af clear, and
 * a write of it with af set, data-dependent on the read, both in AF and
 * in no thread (es_build); nothing else of the instruction leads to them
 * (herd composes them in parallel with the write). */
/* not inlined: run_instruction recurses once per instruction of a path,
 * its frame stays small */
__attribute__((noinline)) static void spurious_events(SemCtx *c) {
  c->ctrl_from = c->order_from = c->data_from = c->seq_from = 0;
  uint64_t tags = c->prog->pte_tag | sem_tag(c, "X") | sem_tag(c, "AF");
  SVal loc = {c->spur_addr, 0, false, 0};
  c->spur_addr = SYM_NONE;
  SVal v = read_event(c, loc.s, 0, 8, tags);
  c->ev.data[c->ev.len - 1].flags |= EV_NEXP | EV_SPUR;
  SVal ok = sem_op(c, S_AND, sem_op1(c, S_NOT, sem_op1_width(c, S_PTE_FIELD, PTE_AF, v)),
                   sem_op1_width(c, S_PTE_FIELD, PTE_VALID, v));
  sem_assume(c, ok);
  SVal nv = sem_op1_width(c, S_PTE_SET, PTE_AF, v);
  nv.deps = v.deps;
  Event e = blank_event(EV_W | EV_NEXP | EV_SPUR);
  e.loc = loc.s;
  e.val = nv.s;
  e.size = 8;
  e.tags = tags;
  e.hv = nv.hv;
  add_event(c, e, v.deps);
}

void sem_tlbi(SemCtx *c, SVal loc, bool all, uint64_t tags) {
  Event e = blank_event(EV_TLBI);
  e.tags = tags;
  if (!all) e.loc = loc.s;
  add_event(c, e, loc.deps);
}

void sem_refuse_why(SemCtx *c, int why) {
  Event e = blank_event(EV_REFUSE);
  e.fault = (uint8_t)why;
  add_event(c, e, 0);
}

void sem_refuse(SemCtx *c) { sem_refuse_why(c, REFUSE_MMU_FAULT); }

/* sem_offset_target's name for a target outside the code */
static const char OUT_OF_CODE[] = "@outside";

SVal sem_commit(SemCtx *c, SVal cond, uint32_t kind, uint64_t tags) {
  Event e = blank_event(kind);
  e.tags = tags;
  e.val = cond.s;
  int id = add_event(c, e, cond.deps);
  SVal r = {cond.s, ev_bit(c, id), cond.unk, cond.hv};
  return r;
}

void sem_ctrl_dep(SemCtx *c, SVal from) { c->ctrl_from |= from.deps; }

void sem_ctrl_reset(SemCtx *c) { c->ctrl_from = 0; }

SVal sem_ctrl_take(SemCtx *c) {
  SVal r = {SYM_NONE, c->ctrl_from, false, false};
  c->ctrl_from = 0;
  return r;
}

void sem_order_dep(SemCtx *c, SVal from) { c->order_from |= from.deps; }

void sem_data_dep(SemCtx *c, SVal from) { c->data_from |= from.deps; }
void sem_order_mem(SemCtx *c, SVal from, SVal to) {
  for (uint64_t d = from.deps; d; d &= d - 1)
    for (uint64_t e = to.deps; e; e &= e - 1) {
      Edge ed = {c->inst_first + __builtin_ctzll(d), c->inst_first + __builtin_ctzll(e)};
      if ((c->ev.data[ed.a].flags & EV_MEM) && (c->ev.data[ed.b].flags & EV_MEM))
        vec_push(c->iico_order, ed);
    }
}

void sem_order_after(SemCtx *c, SVal from) { c->seq_from |= from.deps; }

void sem_ctrl_push(SemCtx *c, SVal cond) {
  vec_push(c->csrc, -1);
  for (uint64_t d = cond.deps; d; d &= d - 1) vec_push(c->csrc, c->inst_first + __builtin_ctzll(d));
}

void sem_ctrl_pop(SemCtx *c) {
  while (c->csrc.len > 0 && c->csrc.data[c->csrc.len - 1] >= 0) c->csrc.len--;
  if (c->csrc.len == 0) sem_error(c, "internal: unbalanced control scope");
  c->csrc.len--;
}

/* ---------------------------------------------------------------- flow */

void sem_assume(SemCtx *c, SVal cond) {
  Val v;
  if (sem_is_const(c, cond, &v)) {
    if (v.kind == VAL_INT && v.num == 0) c->flow = FLOW_DEAD;
    return;
  }
  vec_push(c->assume, cond.s);
}

/* The choices one instruction makes (sem_choose), enumerated as an
 * odometer whose wheels are found as the instruction runs: the k-th call
 * of a run returns digit[k], and a run's calls may differ with the digits
 * of the earlier ones (a fetched instruction, then its own choice). */
enum { SEM_MAX_CHOICES = 8 };
struct Choices {
  int digit[SEM_MAX_CHOICES], radix[SEM_MAX_CHOICES];
  int ndigits, ncalls;
};

int sem_choose(SemCtx *c, int nalts) {
  struct Choices *ch = c->choices;
  int k = ch->ncalls++;
  if (k >= SEM_MAX_CHOICES)
    sem_error(c, "more than %d choices in one instruction", SEM_MAX_CHOICES);
  if (k >= ch->ndigits) ch->digit[k] = 0, ch->ndigits = k + 1;
  ch->radix[k] = nalts;
  if (nalts != 1) c->nalts = nalts;
  return ch->digit[k];
}

/* The next choices after a run: false when all were made. */
static bool next_choices(struct Choices *ch) {
  int k = ch->ncalls - 1;
  while (k >= 0 && ch->digit[k] + 1 >= ch->radix[k]) k--;
  if (k < 0) return false;
  ch->digit[k]++;
  ch->ndigits = k + 1;
  return true;
}

void sem_jump(SemCtx *c, const char *label) {
  c->flow = FLOW_JUMP;
  c->target = label;
}

void sem_branch(SemCtx *c, SVal cond, const char *label) {
  c->flow = FLOW_BRANCH;
  c->target = label;
  c->cond = cond;
}

void sem_exit(SemCtx *c) { c->flow = FLOW_EXIT; }

SVal sem_fault_event(SemCtx *c, const SemFault *f) {
  Event e = blank_event(EV_FAULT);
  e.fault = (uint8_t)f->type;
  e.fault_bits = (uint8_t)((f->write ? FB_WRITE : 0) | (f->entry ? FB_ENTRY : 0) |
                           (f->msg << FB_MSG_SHIFT));
  uint64_t deps = 0;
  if (f->addr.s != SYM_NONE) {
    e.loc = f->addr.s;
    deps = f->addr.deps;
  }
  /* herd's sets of faults, bound for the architectures that have faults
   * (their SemArch.set_names) */
  static const char *const type_sets[FT_COUNT][2] = {
      [FT_TAGCHECK] = {"TagCheck", NULL},
      [FT_UNDEF] = {"UndefinedInstruction", NULL},
      [FT_SVC] = {"SupervisorCall", NULL},
      [FT_MMU_TRANSLATION] = {"MMU", "Translation"},
      [FT_MMU_ACCESSFLAG] = {"MMU", "AccessFlag"},
      [FT_MMU_PERMISSION] = {"MMU", "Permission"},
  };
  e.tags = sem_tag(c, "FAULT") | sem_tag(c, f->write ? "FAULT-WR" : "FAULT-RD");
  if (f->entry) e.tags |= sem_tag(c, "EXC-ENTRY");
  for (int k = 0; k < 2 && f->type < FT_COUNT && type_sets[f->type][k]; k++)
    e.tags |= sem_tag(c, type_sets[f->type][k]);
  int id = add_event(c, e, deps);
  SVal r = {f->addr.s, ev_bit(c, id), f->addr.unk, f->addr.hv};
  return r;
}

void sem_raise(SemCtx *c) { c->flow = FLOW_FAULT; }

void sem_eret(SemCtx *c, SVal target) {
  Val v;
  if (!sem_is_const(c, target, &v) || v.kind != VAL_LABEL || v.sym != c->thread)
    sem_error(c, "ERET to a value that is not a known label of thread P%d", c->thread);
  c->flow = FLOW_ERET;
  c->target = intern_name(&c->prog->labels, (int)v.num);
}

bool sem_has_handler(const SemCtx *c) { return c->main_code->handler != NULL; }
bool sem_in_handler(const SemCtx *c) { return c->in_handler; }

void sem_set_reg_value(SemCtx *c, int reg, SVal v) {
  if (reg < 0 || reg >= c->nregs) sem_error(c, "bad register");
  c->regs[reg].val = v.s;
  c->regs[reg].hv = v.hv;
}

/* The name of entry pc of the current code when no label marks it: '@'
 * and the index, "@K:index" in thread K's code run by another thread
 * (return_point). */
static const char *point_name(SemCtx *c, int pc) {
  char buf[32];
  if (c->code_thread != c->thread)
    snprintf(buf, sizeof buf, "@%d:%d", c->code_thread, pc);
  else
    snprintf(buf, sizeof buf, "@%d", pc);
  return intern_name(&c->prog->labels, intern(&c->prog->labels, buf));
}

SVal sem_instr_label(SemCtx *c) {
  const char *best = NULL;
  for (int i = c->code_index - 1; i >= 0 && !c->code->entries[i].ins; i--)
    if (!best || strcmp(c->code->entries[i].label, best) < 0) best = c->code->entries[i].label;
  if (best) return sem_label(c, best);
  return sem_label(c, point_name(c, c->code_index));
}

void sem_jump_value(SemCtx *c, SVal target) {
  Val v;
  if (!sem_is_const(c, target, &v)) {
    /* a value not known yet (read from memory): herd's one alternative
     * per exported label, assumed to be the value */
    const Program *p = c->prog;
    if (p->jump_labels.len == 0)
      sem_error(c, "indirect jump to a value that is not a known label");
    v = p->jump_labels.data[sem_choose(c, p->jump_labels.len)];
    sem_assume(c, sem_op(c, S_EQ, target, sem_val(c, v)));
  } else if (v.kind != VAL_LABEL) {
    sem_error(c, "indirect jump to a value that is not a known label");
  }
  /* herd's labels are global: the label may be another thread's code */
  sem_jump(c, intern_name(&c->prog->labels, (int)v.num));
}

const char *sem_offset_target(SemCtx *c, int64_t bytes, int ins_bytes) {
  int64_t steps = bytes / ins_bytes;
  int pc = c->code_index;
  while (steps != 0) {
    pc += steps > 0 ? 1 : -1;
    if (pc < 0 || pc > c->code->nentries)
      return intern_name(&c->prog->labels, intern(&c->prog->labels, OUT_OF_CODE));
    if (pc == c->code->nentries || c->code->entries[pc].ins) steps += steps > 0 ? -1 : 1;
  }
  const char *name = point_name(c, pc);
  return intern_name(&c->prog->labels, intern(&c->prog->labels, name));
}

SVal sem_label(SemCtx *c, const char *label) {
  Val v = {VAL_LABEL, c->thread, intern(&c->prog->labels, label)};
  return sem_val(c, v);
}

SVal sem_return_label(SemCtx *c) {
  int next = c->code_index + 1;
  const char *name = NULL;
  for (int i = next; i < c->code->nentries && !c->code->entries[i].ins && !name; i++)
    name = c->code->entries[i].label;
  if (!name) name = point_name(c, next);
  return sem_label(c, name);
}

void sem_reserve(SemCtx *c, SVal addr, int size) {
  c->has_resv = true;
  c->resv_addr = addr;
  c->resv_addr.deps = 0;
  c->resv_size = size;
}

bool sem_reservation(SemCtx *c, SVal *addr, int *size) {
  if (!c->has_resv) return false;
  if (addr) *addr = c->resv_addr;
  if (size) *size = c->resv_size;
  return true;
}

void sem_clear_reservation(SemCtx *c) { c->has_resv = false; }

const Program *sem_program(const SemCtx *c) { return c->prog; }

/* ----------------------------------------------------- path exploration */

typedef struct Mark {
  int nev, nnodes, ndata, nctrl, norder, nrf, nassume, ninsts, ncctrl, ncsrc, nseq, nregeq, nbj;
  int last_inst;
  bool spec;
  int *csrc;
  bool has_resv;
  SVal resv_addr;
  int resv_size;
  RegState *regs;
  const Thread *code;
  int code_base, code_thread;
  bool in_handler;
} Mark;

static void mark_save(SemCtx *c, Mark *m, Arena *scratch) {
  m->nev = c->ev.len;
  m->nnodes = c->nodes.len;
  m->ndata = c->iico_data.len;
  m->nctrl = c->iico_ctrl.len;
  m->norder = c->iico_order.len;
  m->nrf = c->rf_reg.len;
  m->ncctrl = c->cctrl.len;
  m->nseq = c->seq.len;
  m->nregeq = c->regeq.len;
  m->ncsrc = c->csrc.len;
  m->csrc = arena_alloc(scratch, sizeof(int) * (size_t)(c->csrc.len + 1));
  if (c->csrc.len) memcpy(m->csrc, c->csrc.data, sizeof(int) * (size_t)c->csrc.len);
  m->nassume = c->assume.len;
  m->ninsts = c->ninsts;
  m->last_inst = c->last_inst;
  m->spec = c->spec;
  m->has_resv = c->has_resv;
  m->resv_addr = c->resv_addr;
  m->resv_size = c->resv_size;
  m->regs = arena_alloc(scratch, sizeof(RegState) * (size_t)c->nregs);
  memcpy(m->regs, c->regs, sizeof(RegState) * (size_t)c->nregs);
  m->nbj = c->bj_trail.len;
  m->code = c->code;
  m->code_base = c->code_base;
  m->code_thread = c->code_thread;
  m->in_handler = c->in_handler;
}

/* The small state of a mark: registers, reservation, loop counters, the
 * parent of the next instance (what a leg of a branch starts from). */
static void small_restore(SemCtx *c, const Mark *m) {
  c->has_resv = m->has_resv;
  c->resv_addr = m->resv_addr;
  c->resv_size = m->resv_size;
  c->last_inst = m->last_inst;
  memcpy(c->regs, m->regs, sizeof(RegState) * (size_t)c->nregs);
  while (c->bj_trail.len > m->nbj) c->backjumps[c->bj_trail.data[--c->bj_trail.len]]--;
  c->code = m->code;
  c->code_base = m->code_base;
  c->code_thread = m->code_thread;
  c->in_handler = m->in_handler;
}

static void mark_restore(SemCtx *c, const Mark *m) {
  c->ev.len = m->nev;
  c->nodes.len = m->nnodes;
  c->iico_data.len = m->ndata;
  c->iico_ctrl.len = m->nctrl;
  c->iico_order.len = m->norder;
  c->rf_reg.len = m->nrf;
  c->cctrl.len = m->ncctrl;
  c->seq.len = m->nseq;
  c->regeq.len = m->nregeq;
  c->csrc.len = m->ncsrc;
  if (m->ncsrc) memcpy(c->csrc.data, m->csrc, sizeof(int) * (size_t)m->ncsrc);
  c->assume.len = m->nassume;
  c->ninsts = m->ninsts;
  if (c->inst_parent.len > m->ninsts) c->inst_parent.len = m->ninsts;
  c->spec = m->spec;
  small_restore(c, m);
}

#define COPY_OUT(dst, src, T)                                          \
  do {                                                                 \
    (dst) = arena_alloc(c->out, sizeof(T) * (size_t)((src).len + 1));  \
    if ((src).len) memcpy((dst), (src).data, sizeof(T) * (size_t)(src).len); \
  } while (0)

static void herd_register_stage(SemCtx *c, Event *ev, int nev);

static void emit_path(SemCtx *c, bool cutoff, const char *label) {
  if (c->stop.now && (c->paths.len & 15) == 15 && c->stop.now(c->stop.ctx)) {
    c->stopped = true;
    err_raise(c->err, ERRK_LIMIT, (SrcPos){0}, "stopped");
  }
  if (c->paths.len >= SEM_MAX_PATHS)
    sem_error(c, "thread P%d has more than %d control-flow paths: test too large",
              c->thread, SEM_MAX_PATHS);
  if (c->out->total > SEM_MAX_PATH_BYTES)
    sem_error(c, "the control-flow paths of the threads take more than %d MiB: test too large",
              (int)(SEM_MAX_PATH_BYTES >> 20));
  ThreadPath p = {0};
  COPY_OUT(p.ev, c->ev, Event);
  p.nev = c->ev.len;
  COPY_OUT(p.nodes, c->nodes, SymNode);
  p.nnodes = c->nodes.len;
  COPY_OUT(p.iico_data, c->iico_data, Edge);
  p.n_iico_data = c->iico_data.len;
  COPY_OUT(p.iico_ctrl, c->iico_ctrl, Edge);
  p.n_iico_ctrl = c->iico_ctrl.len;
  COPY_OUT(p.iico_order, c->iico_order, Edge);
  p.n_iico_order = c->iico_order.len;
  COPY_OUT(p.rf_reg, c->rf_reg, Edge);
  p.n_rf_reg = c->rf_reg.len;
  COPY_OUT(p.cctrl, c->cctrl, Edge);
  p.n_cctrl = c->cctrl.len;
  COPY_OUT(p.seq, c->seq, Edge);
  p.n_seq = c->seq.len;
  COPY_OUT(p.assume, c->assume, Sym);
  p.nassume = c->assume.len;
  p.nregs = c->nregs;
  p.final_regs = arena_alloc(c->out, sizeof(Sym) * (size_t)c->nregs);
  for (int r = 0; r < c->nregs; r++) p.final_regs[r] = c->regs[r].val;
  p.cutoff = cutoff;
  p.cutoff_label = label;
  if (c->prog->deps) {
    COPY_OUT(p.inst_parent, c->inst_parent, int);
    p.ninst = c->inst_parent.len;
  }
  herd_register_stage(c, p.ev, p.nev);
  vec_push(c->paths, p);
}

/* herd's register stage names the variables of one path: each equation
 * "register read := its source", in decreasing event order, joins two
 * classes by rank, the left side winning ties (values-and-loops.md
 * §1.4.2); every variable then becomes its class's representative.  Only
 * the names matter here (corral computes values itself): events record
 * the representative of their value's variable. */
static void herd_register_stage(SemCtx *c, Event *ev, int nev) {
  int base = c->hv_base, n = c->prog->hvars - base;
  if (n <= 0 || c->regeq.len == 0) return;
  int *parent = xcalloc((size_t)n + 1, sizeof(int));
  unsigned char *rank = xcalloc((size_t)n + 1, 1);
  for (int i = 0; i <= n; i++) parent[i] = i;
  for (int k = c->regeq.len - 2; k >= 0; k -= 2)
    herd_uf_join(parent, rank, c->regeq.data[k] - base, c->regeq.data[k + 1] - base);
  for (int i = 0; i < nev; i++)
    if (ev[i].hv > base) ev[i].hv = herd_uf_find(parent, ev[i].hv - base) + base;
  free(parent);
  free(rank);
}

/* The name of the return point after entry `pc` when no label marks it
 * (sem_return_label): '@' and the entry index, not a litmus label. */
static bool return_point(const char *label, int *pc) {
  if (label[0] != '@') return false;
  *pc = atoi(label + 1);
  return true;
}

static int label_in(const Thread *code, const char *label) {
  for (int i = 0; i < code->nentries; i++) {
    const char *l = code->entries[i].label;
    if (l && strcmp(l, label) == 0) return i;
  }
  return -1;
}

/* Switch to thread k's code (k == c->thread: its own). */
static void enter_code(SemCtx *c, int k) {
  c->code = &c->prog->test->threads[k];
  c->code_thread = k;
  c->code_base = k == c->thread ? 0 : c->foreign_base[k];
}

/* The entry of `label`: in the current code, else in a thread's code
 * (this thread's first), which becomes the current one; -1 if none. */
static int find_label(SemCtx *c, const char *label) {
  int pc;
  if (label[0] == '@' && strchr(label, ':')) {
    int k = atoi(label + 1);
    pc = atoi(strchr(label, ':') + 1);
    if (k < 0 || k >= c->prog->nthreads) return -1;
    enter_code(c, k);
    return pc <= c->code->nentries ? pc : -1; /* the end: a return after the last */
  }
  if (return_point(label, &pc)) {
    if (c->code_thread != c->thread) enter_code(c, c->thread);
    return pc <= c->code->nentries ? pc : -1; /* the end: a return after the last */
  }
  if ((pc = label_in(c->code, label)) >= 0) return pc;
  const Test *t = c->prog->test;
  for (int j = -1; j < t->nthreads; j++) {
    int k = j < 0 ? c->thread : j;
    if ((pc = label_in(&t->threads[k], label)) >= 0) {
      enter_code(c, k);
      return pc;
    }
  }
  return -1;
}

static void run_from(SemCtx *c, int pc, Arena *scratch);
static void path_end(SemCtx *c, Arena *scratch);
static void deps_branch(SemCtx *c, int pc, Arena *scratch);

/* A new instruction instance: under -variant deps, record its parent. */
static void begin_instance(SemCtx *c) {
  if (!c->prog->deps) return;
  c->inst_parent.len = c->ninsts;
  vec_push(c->inst_parent, c->last_inst);
}

/* Continue at `target` (a label) after the instruction at `from`. */
static void goto_label(SemCtx *c, int from, const char *target,
                       bool counted, Arena *scratch) {
  int from_thread = c->code_thread;
  if (strcmp(target, OUT_OF_CODE) == 0) {
    /* herd fails when a candidate jumps there (its jump to an address
     * that is not code) */
    c->inst_first = c->ev.len;
    c->ctrl_from = c->order_from = 0;
    sem_refuse_why(c, REFUSE_OUT_OF_CODE);
    emit_path(c, false, NULL);
    return;
  }
  int to = find_label(c, target);
  if (to < 0) sem_error(c, "label %s not found in thread P%d", target, c->thread);
  /* herd counts backward jumps to the thread's own code only; its
   * threads' code lie in thread order (a return from a later thread's
   * code is backward) */
  bool back = from_thread == c->code_thread ? to <= from : from_thread > c->code_thread;
  if (c->code_thread != c->thread) counted = false;
  if (back && counted) {
    vec_push(c->bj_trail, c->code_base + to);
    if (++c->backjumps[c->code_base + to] > c->unroll) {
      /* The unrolling bound: this path ends here, cut off. */
      if (c->spec)
        sem_error(c, "-variant deps: a loop cut off by the unrolling bound in a "
                  "speculated branch is not supported yet");
      begin_instance(c);
      c->inst_first = c->ev.len;
      c->ctrl_from = c->order_from = 0;
      add_event(c, blank_event(EV_CUTOFF), 0);
      /* herd names a C loop's cut-off after its statement */
      emit_path(c, true, isa_has(c->prog->test->arch, ISA_LANGUAGE) ? "While" : target);
      return;
    }
  }
  run_from(c, to, scratch);
}

static void run_instruction(SemCtx *c, int pc, Arena *scratch);

/* After a fault at entry pc (herd's add_fault). */
static void take_fault(SemCtx *c, int pc, Arena *scratch) {
  const Thread *h = c->main_code->handler;
  if (h && c->in_handler) {
    /* herd: the thread's code ends here, with a warning for each
     * execution the model allows, which is then left out */
    sem_refuse_why(c, REFUSE_HANDLER_FAULT);
    emit_path(c, false, NULL);
    return;
  }
  if (c->in_handler) return; /* a second fault after a handled one: dropped */
  if (h) {
    c->code = h;
    c->code_base = c->main_code->nentries;
    c->code_thread = c->thread;
    c->in_handler = true;
    run_from(c, 0, scratch);
    return;
  }
  switch ((FaultHandling)c->prog->fault_handling) {
  case FH_FATAL: emit_path(c, false, NULL); return;
  case FH_SKIP: run_from(c, pc + 1, scratch); return;
  case FH_HANDLED:
    c->in_handler = true;
    run_instruction(c, pc, scratch);
    return;
  }
}

/* ERET: back to the thread's code, at the label c->target (herd counts
 * the jump as a backward one: the handler's code lies after the
 * thread's). */
static void exception_return(SemCtx *c, Arena *scratch) {
  c->code = c->main_code;
  c->code_base = 0;
  c->code_thread = c->thread;
  c->in_handler = false;
  goto_label(c, c->code->nentries, c->target, true, scratch);
}

/* The commit of a fetch controls the first events of the instruction it
 * selects (herd's bind_control_set_data_input_first: the minimal ones). */
static void ctrl_to_minimals(SemCtx *c, int commit) {
  int from = commit + 1, to = c->ev.len;
  for (int e = from; e < to; e++) {
    bool minimal = true;
    const EdgeVec *vs[3] = {&c->iico_data, &c->iico_ctrl, &c->iico_order};
    for (int k = 0; k < 3 && minimal; k++)
      for (int i = 0; i < vs[k]->len && minimal; i++)
        if (vs[k]->data[i].b == e && vs[k]->data[i].a >= from) minimal = false;
    if (minimal) {
      Edge ed = {commit, e};
      vec_push(c->iico_ctrl, ed);
    }
  }
}

/* -variant ifetch: the instruction at code location `sym` is read from
 * memory (an implicit IFetch read of 4 bytes) and alternative `alt` runs
 * candidate alt of Program.fetch_cands, assumed to be the value read,
 * after a commit that depends on the read (herd's check_self); the last
 * alternative, a value no candidate equals, is herd's UndefinedInstruction
 * fault.  Returns the instruction to run (NULL: none), and in *commit the
 * commit event. */
static const Instr *fetch_instruction(SemCtx *c, const Instr *orig, int sym, int *commit) {
  const Program *p = c->prog;
  int n = p->fetch_cands.len;
  int alt = sem_choose(c, n + 1);
  SVal v = read_event(c, const_node(c, val_addr(sym, 0)), 0, 4, 0);
  c->ev.data[c->ev.len - 1].flags |= EV_NEXP;
  SVal cond;
  if (alt < n) {
    cond = sem_op(c, S_EQ, v, sem_val(c, p->fetch_cands.data[alt]));
  } else {
    cond = sem_int(c, 1);
    for (int k = 0; k < n; k++)
      cond = sem_op(c, S_AND, cond, sem_op(c, S_NE, v, sem_val(c, p->fetch_cands.data[k])));
  }
  sem_assume(c, cond);
  SVal cm = sem_commit(c, cond, EV_PRED, 0);
  *commit = c->ev.len - 1;
  (void)cm;
  if (alt == n) {
    if (!c->arch->fetch_fault)
      sem_error(c, "-variant ifetch is not supported for this architecture");
    c->arch->fetch_fault(c);
    ctrl_to_minimals(c, *commit);
    return NULL;
  }
  Val k = p->fetch_cands.data[alt];
  return val_eq(k, p->sym_init.data[sym]) ? orig : program_instr(p, k);
}

/* ------------------------------------------------ -variant deps legs
 *
 * herd7 runs both sides of a conditional branch: the side the condition
 * selects, and the other one as speculated events (EV_SPEC), each side to
 * the end of the code, both in po after the branch but not after each
 * other.  Inside a speculated side both sides of every branch are
 * speculated.  The executor runs the speculated side first; when it
 * reaches the end of the code, the side taken resumes from the state of
 * the branch (its registers, reservation, loop counters), with the
 * speculated events kept, and only the end of that side emits the path. */

struct Resume {
  bool spec;           /* the leg is speculated */
  int from;            /* the branch's code entry */
  const char *target;  /* the leg starts at this label (taken), or at from+1 */
  bool counted;        /* a backward jump there counts for -unroll */
  Mark at;             /* the state at the branch */
};

static void run_leg(SemCtx *c, const Resume *r, Arena *scratch) {
  small_restore(c, &r->at);
  c->spec = r->spec;
  if (r->target)
    goto_label(c, r->from, r->target, r->counted, scratch);
  else
    run_from(c, r->from + 1, scratch);
}

/* The current leg reached the end of the code (or an exit). */
static CR_NOINLINE void path_end(SemCtx *c, Arena *scratch) {
  if (c->resume.len == 0) {
    emit_path(c, false, NULL);
    return;
  }
  Resume *r = c->resume.data[--c->resume.len];
  /* this leg's small state, back when the other one ends (its loop
   * counts: the entries of the trail after the branch's) */
  ArenaMark am = arena_mark(scratch);
  Mark here;
  mark_save(c, &here, scratch);
  int nbj = r->at.nbj, ntrail = c->bj_trail.len - nbj;
  int *trail = arena_alloc(scratch, sizeof(int) * (size_t)(ntrail + 1));
  if (ntrail) memcpy(trail, c->bj_trail.data + nbj, sizeof(int) * (size_t)ntrail);
  run_leg(c, r, scratch);
  small_restore(c, &r->at);
  for (int i = 0; i < ntrail; i++) {
    vec_push(c->bj_trail, trail[i]);
    c->backjumps[trail[i]]++;
  }
  here.nbj = c->bj_trail.len;
  small_restore(c, &here);
  c->spec = here.spec;
  arena_reset(scratch, am);
  vec_push(c->resume, r);
}

/* Run `first` now, then `then` when it ends. */
static void legs(SemCtx *c, Resume *first, Resume *then, Arena *scratch) {
  vec_push(c->resume, then);
  run_leg(c, first, scratch);
  c->resume.len--;
}

/* not inlined: its two states would enlarge every instruction's frame */
static CR_NOINLINE void deps_branch(SemCtx *c, int pc, Arena *scratch) {
  SVal cond = c->cond;
  Val v;
  bool known = sem_is_const(c, cond, &v);
  ArenaMark am = arena_mark(scratch);
  Resume taken = {false, pc, c->target, known ? cond.unk : true, {0}};
  mark_save(c, &taken.at, scratch);
  Resume fall = taken;
  fall.target = NULL;
  if (c->spec) { /* both sides speculated: the taken one first, as herd */
    taken.spec = fall.spec = true;
    legs(c, &taken, &fall, scratch);
  } else if (known) {
    bool t = !(v.kind == VAL_INT && v.num == 0);
    taken.spec = !t;
    fall.spec = t;
    legs(c, t ? &fall : &taken, t ? &taken : &fall, scratch);
  } else {
    vec_push(c->assume, cond.s);
    taken.spec = false;
    fall.spec = true;
    legs(c, &fall, &taken, scratch);
    mark_restore(c, &taken.at);
    c->no_hvar = true; /* herd assumes the condition false, no operation */
    SVal nc = sem_op1(c, S_NOT, cond);
    c->no_hvar = false;
    vec_push(c->assume, nc.s);
    taken.spec = true;
    fall.spec = false;
    legs(c, &taken, &fall, scratch);
  }
  mark_restore(c, &taken.at);
  arena_reset(scratch, am);
}

static void run_instruction(SemCtx *c, int pc, Arena *scratch) {
  const Instr *ins = c->code->entries[pc].ins;
  /* fetched: the instructions at code locations of a thread's code (not
   * of a fault handler) */
  int fsym = c->prog->ifetch && c->code == &c->prog->test->threads[c->code_thread]
                 ? c->prog->code_sym[c->code_thread][pc] : -1;
  Mark m;
  ArenaMark am = arena_mark(scratch);
  mark_save(c, &m, scratch);
  struct Choices ch = {0};
  bool more = true;
  while (more) {
    mark_restore(c, &m);
    ch.ncalls = 0;
    c->choices = &ch;
    c->ins = ins;
    c->code_index = pc;
    c->inst_first = c->ev.len;
    c->ctrl_from = c->order_from = c->data_from = 0;
    c->seq_from = 0;
    c->nalts = 1;
    c->flow = FLOW_NEXT;
    c->spur_addr = SYM_NONE;
    begin_instance(c);
    if (fsym >= 0) {
      int commit;
      const Instr *run = fetch_instruction(c, ins, fsym, &commit);
      if (run) {
        c->ins = run;
        c->arch->exec(c, run);
        ctrl_to_minimals(c, commit);
      }
    } else {
      c->arch->exec(c, ins);
    }
    if (c->spur_addr != SYM_NONE) spurious_events(c);
    more = next_choices(&ch); /* before the rest of the path, which has its own */
    c->last_inst = c->ninsts;
    c->ninsts++;
    if (c->ninsts > MAX_PATH_INSTS)
      sem_error(c, "thread P%d runs more than %d instructions (infinite loop?)",
                c->thread, MAX_PATH_INSTS);
    switch (c->flow) {
    case FLOW_DEAD:
      break;
    case FLOW_NEXT:
      run_from(c, pc + 1, scratch);
      break;
    case FLOW_EXIT:
      path_end(c, scratch);
      break;
    case FLOW_FAULT:
      take_fault(c, pc, scratch);
      break;
    case FLOW_ERET:
      exception_return(c, scratch);
      break;
    case FLOW_JUMP:
      goto_label(c, pc, c->target, true, scratch);
      break;
    case FLOW_BRANCH: {
      if (c->prog->deps) {
        deps_branch(c, pc, scratch);
        break;
      }
      Val v;
      SVal cond = c->cond;
      const char *target = c->target;
      if (sem_is_const(c, cond, &v)) {
        /* herd counts a taken backward jump whose condition it does
         * not know while running the code, though corral does */
        bool taken = !(v.kind == VAL_INT && v.num == 0);
        if (taken)
          goto_label(c, pc, target, cond.unk, scratch);
        else
          run_from(c, pc + 1, scratch);
        break;
      }
      Mark m2;
      ArenaMark am2 = arena_mark(scratch);
      mark_save(c, &m2, scratch);
      vec_push(c->assume, cond.s);
      goto_label(c, pc, target, true, scratch);
      mark_restore(c, &m2);
      c->no_hvar = true; /* herd assumes the condition false, no operation */
      SVal nc = sem_op1(c, S_NOT, cond);
      c->no_hvar = false;
      vec_push(c->assume, nc.s);
      run_from(c, pc + 1, scratch);
      arena_reset(scratch, am2);
      break;
    }
    }
  }
  arena_reset(scratch, am);
}

static void run_from(SemCtx *c, int pc, Arena *scratch) {
  while (pc < c->code->nentries && !c->code->entries[pc].ins) pc++;
  if (pc >= c->code->nentries) {
    path_end(c, scratch);
    return;
  }
  run_instruction(c, pc, scratch);
}

/* Explore every path of thread `t`.  Paths are allocated in `out`. */
ThreadPaths sem_explore(Program *p, int t, Err *err, Arena *out, SemStop stop);

ThreadPaths sem_explore(Program *p, int t, Err *err, Arena *out, SemStop stop) {
  SemCtx c;
  memset(&c, 0, sizeof c);
  c.stop = stop;
  c.prog = p;
  c.arch = sem_arch(p->test->arch);
  c.err = err;
  c.out = out;
  c.thread = t;
  c.code = c.main_code = &p->test->threads[t];
  c.nentries = c.code->nentries + (c.code->handler ? c.code->handler->nentries : 0);
  c.code_thread = t;
  c.foreign_base = xcalloc((size_t)p->nthreads + 1, sizeof(int));
  for (int k = 0; k < p->nthreads; k++) {
    c.foreign_base[k] = c.nentries;
    c.nentries += p->test->threads[k].nentries + 1;
  }
  c.unroll = p->unroll;
  c.last_inst = -1;
  if (t == 0) p->hvars = 0; /* herd numbers from S1 for each test */
  c.hv_base = p->hvars;
  c.reg_env = isa_has(p->test->arch, ISA_REG_ENV);
  c.nregs = p->nregs;
  c.regs = xcalloc((size_t)c.nregs, sizeof(RegState));
  c.backjumps = xcalloc((size_t)c.nentries + 1, sizeof(int));
  for (int r = 0; r < c.nregs; r++) {
    c.regs[r].val = const_node(&c, p->init_regs[t][r]);
    c.regs[r].last_w = -1;
    /* herd's AArch64 environment starts as the thread's init section */
    c.regs[r].inenv = c.reg_env && p->init_reg_set[t][r];
  }
  Arena scratch;
  arena_init(&scratch);
  ErrJmp j;
  err_push(err, &j);
  bool ok = setjmp(j.jb) == 0;
  if (ok) {
    run_from(&c, 0, &scratch);
    err_pop(err, &j);
  }
  arena_free(&scratch);
  ThreadPaths res = {0};
  if (ok) {
    res.n = c.paths.len;
    res.v = arena_alloc(out, sizeof(ThreadPath) * (size_t)(res.n + 1));
    if (res.n > 0)
      memcpy(res.v, c.paths.data, sizeof(ThreadPath) * (size_t)res.n);
  }
  vec_free(c.ev);
  vec_free(c.nodes);
  vec_free(c.iico_data);
  vec_free(c.iico_ctrl);
  vec_free(c.iico_order);
  vec_free(c.rf_reg);
  vec_free(c.cctrl);
  vec_free(c.seq);
  vec_free(c.csrc);
  vec_free(c.assume);
  vec_free(c.regeq);
  vec_free(c.inst_parent);
  vec_free(c.resume);
  vec_free(c.paths);
  free(c.regs);
  free(c.backjumps);
  vec_free(c.bj_trail);
  free(c.foreign_base);
  if (!ok && c.stopped) err->kind = ERRK_NONE; /* the caller sees the stop: no path */
  else if (!ok) err_rethrow(err);
  return res;
}
