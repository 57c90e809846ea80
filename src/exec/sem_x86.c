/*
 * sem_x86.c — semantics of X86 (Intel syntax, 32-bit) and X86_64 (AT&T
 * syntax, 64-bit) instructions.
 *
 * Both front ends lay operands out the same way (ops[0] destination,
 * ops[1] source; see x86.h, x86_64.h), so one set of helpers serves both;
 * only register views and access sizes differ.  Conditional jumps read the
 * flags but create no commit event: herd7 gives X86 no control
 * dependencies.  XCHG with memory and LOCK-prefixed instructions access
 * memory atomically (annotation X), which the engine pairs into rmw.
 */
#include <stdio.h>

#include "../litmus/x86.h"
#include "../litmus/x86_64.h"
#include "sem.h"

typedef struct X86Ctx {
  SemCtx *c;
  bool is64;
  int zf, sf, cf;      /* flag register ids */
  int size;            /* access size of the instruction, bytes */
  uint64_t tags;       /* memory annotation (X when atomic) */
} X86Ctx;

static int view_bits(int view) {
  switch (view) {
  case X86_64_V32: return 32;
  case X86_64_V16: return 16;
  case X86_64_V8L:
  case X86_64_V8H: return 8;
  default: return 64;
  }
}

static SVal read_reg_view(X86Ctx *x, int reg, int view) {
  SVal v = sem_read_reg(x->c, reg);
  if (!x->is64) return v;
  int bits = view_bits(view);
  if (view == X86_64_V8H) v = sem_op(x->c, S_SHR, v, sem_int(x->c, 8));
  return bits < 64 ? sem_mask(x->c, v, bits) : v;
}

static void write_reg_view(X86Ctx *x, int reg, int view, SVal v) {
  if (x->is64 && view_bits(view) < 64) v = sem_mask(x->c, v, view_bits(view));
  /* herd's X86_64 write_reg reads the register's old value first */
  if (x->is64) sem_herd_var(x->c);
  sem_write_reg(x->c, reg, v);
}

/* Address of a memory operand. */
static SVal ea_addr(X86Ctx *x, const Operand *o) {
  SemCtx *c = x->c;
  if (o->kind == OPK_SYM) {
    Val a = val_addr(sem_symbol(c, o->sym), 0);
    return sem_val(c, a);
  }
  SVal a = o->reg >= 0 ? read_reg_view(x, o->reg, o->sub & 15) : sem_int(c, 0);
  if (o->reg2 >= 0) {
    SVal i = read_reg_view(x, o->reg2, (o->sub >> 4) & 15);
    if (o->imm2 > 1) i = sem_op(c, S_MUL, i, sem_int(c, o->imm2));
    a = sem_op(c, S_ADD, a, i);
  }
  if (o->imm) a = sem_op(c, S_ADD, a, sem_int(c, o->imm));
  return a;
}

static bool is_mem(const Operand *o) { return o->kind == OPK_SYM || o->kind == OPK_MEM; }

static SVal read_op(X86Ctx *x, const Operand *o, SVal *addr) {
  switch (o->kind) {
  case OPK_REG:
    return read_reg_view(x, o->reg, o->sub & 15);
  case OPK_IMM:
    return sem_int(x->c, o->imm);
  default: {
    SVal a = ea_addr(x, o);
    if (addr) *addr = a;
    return sem_load(x->c, a, x->size, x->tags);
  }
  }
}

static void write_op(X86Ctx *x, const Operand *o, SVal v, const SVal *addr) {
  if (o->kind == OPK_REG) {
    write_reg_view(x, o->reg, o->sub & 15, v);
    return;
  }
  if (!is_mem(o)) sem_error(x->c, "cannot write to this operand");
  SVal a = addr ? *addr : ea_addr(x, o);
  sem_store(x->c, a, v, x->size, x->tags);
}

static void set_flags(X86Ctx *x, SVal res, SVal cf) {
  SemCtx *c = x->c;
  sem_write_reg(c, x->zf, sem_op(c, S_EQ, res, sem_int(c, 0)));
  sem_write_reg(c, x->sf, sem_op(c, S_LT, res, sem_int(c, 0)));
  sem_write_reg(c, x->cf, cf);
}

/* Read-modify-write of an ea with op (ADD, XOR, OR, AND...). */
static void alu(X86Ctx *x, const Instr *ins, SymOp op) {
  SemCtx *c = x->c;
  SVal addr, a = read_op(x, &ins->ops[0], &addr);
  SVal b = read_op(x, &ins->ops[1], NULL);
  SVal r = sem_op(c, op, a, b);
  write_op(x, &ins->ops[0], r, is_mem(&ins->ops[0]) ? &addr : NULL);
  SVal cf = op == S_ADD ? sem_op(c, S_LTU, r, a) : sem_int(c, 0);
  set_flags(x, r, cf);
}

static void cmp(X86Ctx *x, const Instr *ins) {
  SVal a = read_op(x, &ins->ops[0], NULL), b = read_op(x, &ins->ops[1], NULL);
  set_flags(x, sem_op(x->c, S_SUB, a, b), sem_op(x->c, S_LTU, a, b));
}

/* INC / DEC: like ADD / SUB of 1, but the carry flag is left alone. */
static void incdec(X86Ctx *x, const Instr *ins, SymOp op) {
  SemCtx *c = x->c;
  SVal addr, a = read_op(x, &ins->ops[0], &addr);
  SVal r = sem_op(c, op, a, sem_int(c, 1));
  write_op(x, &ins->ops[0], r, is_mem(&ins->ops[0]) ? &addr : NULL);
  sem_write_reg(c, x->zf, sem_op(c, S_EQ, r, sem_int(c, 0)));
  sem_write_reg(c, x->sf, sem_op(c, S_LT, r, sem_int(c, 0)));
}

static void cmovc(X86Ctx *x, const Instr *ins) {
  SemCtx *c = x->c;
  SVal cf = sem_read_reg(c, x->cf);
  SVal src = read_op(x, &ins->ops[1], NULL);
  SVal old = sem_read_reg(c, ins->ops[0].reg);
  sem_write_reg(c, ins->ops[0].reg, sem_select(c, cf, src, old));
}

static SVal cond_value(X86Ctx *x, int cc) {
  SemCtx *c = x->c;
  switch (cc) {
  case X86_CC_E: return sem_read_reg(c, x->zf);
  case X86_CC_NE: return sem_op1(c, S_NOT, sem_read_reg(c, x->zf));
  case X86_CC_S: return sem_read_reg(c, x->sf);
  case X86_CC_NS: return sem_op1(c, S_NOT, sem_read_reg(c, x->sf));
  case X86_CC_L: return sem_read_reg(c, x->sf);
  case X86_CC_GE: return sem_op1(c, S_NOT, sem_read_reg(c, x->sf));
  case X86_CC_LE:
    return sem_op(c, S_OR, sem_read_reg(c, x->zf), sem_read_reg(c, x->sf));
  case X86_CC_G:
    return sem_op1(c, S_NOT,
                   sem_op(c, S_OR, sem_read_reg(c, x->zf), sem_read_reg(c, x->sf)));
  }
  sem_error(c, "unknown condition");
}

static void exchange(X86Ctx *x, const Instr *ins) {
  SVal a0, a1;
  SVal v0 = read_op(x, &ins->ops[0], &a0);
  SVal v1 = read_op(x, &ins->ops[1], &a1);
  /* herd7's exch (event.ml): each operand's write takes data from the
   * other operand's read and is controlled (iico_ctrl) by its own read, so
   * the memory write is iico-after the memory read and cannot feed it. */
  sem_ctrl_dep(x->c, v0);
  write_op(x, &ins->ops[0], v1, is_mem(&ins->ops[0]) ? &a0 : NULL);
  sem_ctrl_reset(x->c);
  sem_ctrl_dep(x->c, v1);
  write_op(x, &ins->ops[1], v0, is_mem(&ins->ops[1]) ? &a1 : NULL);
  sem_ctrl_reset(x->c);
}

static void xchg(X86Ctx *x, const Instr *ins) {
  /* A memory operand makes the exchange atomic, LOCK or not. */
  if (is_mem(&ins->ops[0]) || is_mem(&ins->ops[1])) x->tags = sem_tag(x->c, "X");
  exchange(x, ins);
}

/* cmpxchg ea,reg: if accumulator == ea then ea <- reg else acc <- ea. */
static void cmpxchg(X86Ctx *x, const Instr *ins, int acc) {
  SemCtx *c = x->c;
  SVal addr, m = read_op(x, &ins->ops[0], &addr);
  SVal a = sem_read_reg(c, acc);
  SVal eq = sem_op(c, S_EQ, m, a);
  int alt = sem_choose(c, 2);
  if (alt == 0) {
    sem_assume(c, eq);
    write_op(x, &ins->ops[0], read_op(x, &ins->ops[1], NULL),
             is_mem(&ins->ops[0]) ? &addr : NULL);
  } else {
    sem_assume(c, sem_op1(c, S_NOT, eq));
    sem_write_reg(c, acc, m);
  }
  sem_write_reg(c, x->zf, eq);
}

/* herd's X86Sem / X86_64Sem: a LOCK prefix is a user error on an
 * instruction it does not make atomic, named as herd dumps it. */
static void check_lock(SemCtx *c, const Instr *ins, const ArchOps *ops, uint32_t lock) {
  Instr inner = *ins;
  inner.flags &= ~lock;
  StrBuf b;
  sb_init(&b);
  ops->print_instr(&inner, &b, NULL, NULL);
  char text[256];
  snprintf(text, sizeof text, "%s", sb_cstr(&b));
  sb_free(&b);
  sem_error(c, "Illegal lock prefix on instruction %s", text);
}

static void exec_x86(SemCtx *c, const Instr *ins) {
  X86Ctx x = {c, false, X86_ZF, X86_SF, X86_CF, 4, 0};
  if (ins->flags & X86_F_LOCK) {
    X86Op op = (X86Op)ins->op;
    if (op != X86_XCHG && op != X86_ADD && op != X86_XOR && op != X86_INC && op != X86_DEC)
      check_lock(c, ins, &x86_arch_ops, X86_F_LOCK);
    x.tags = sem_tag(c, "X");
  }
  switch ((X86Op)ins->op) {
  case X86_NOP:
    return;
  /* herd7 7.58's X86Sem runs neither (X86_64's runs cmpxchg) */
  case X86_MOVSD: sem_error(c, "I_MOVSD not implemented");
  case X86_MOVB: x.size = 1; goto mov;
  case X86_MOVW: x.size = 2; goto mov;
  case X86_MOVQ: x.size = 8; goto mov;
  case X86_MOVT: x.size = 10; goto mov;
  case X86_MOV:
  case X86_MOVL:
  mov:
    write_op(&x, &ins->ops[0], read_op(&x, &ins->ops[1], NULL), NULL);
    return;
  case X86_ADD: alu(&x, ins, S_ADD); return;
  case X86_XOR: alu(&x, ins, S_XOR); return;
  case X86_OR: alu(&x, ins, S_OR); return;
  case X86_CMP: cmp(&x, ins); return;
  case X86_INC: incdec(&x, ins, S_ADD); return;
  case X86_DEC: incdec(&x, ins, S_SUB); return;
  case X86_SETNB:
    write_op(&x, &ins->ops[0], sem_op1(c, S_NOT, sem_read_reg(c, X86_CF)), NULL);
    return;
  case X86_CMOVC: cmovc(&x, ins); return;
  case X86_XCHG: xchg(&x, ins); return;
  case X86_CMPXCHG: sem_error(c, "I_CMPXCHG not implemented");
  case X86_JMP: sem_jump(c, ins->ops[0].sym); return;
  case X86_JCC: sem_branch(c, cond_value(&x, (int)ins->ops[0].imm), ins->ops[1].sym); return;
  case X86_MFENCE: sem_fence(c, sem_tag(c, "MFENCE")); return;
  case X86_SFENCE: sem_fence(c, sem_tag(c, "SFENCE")); return;
  case X86_LFENCE: sem_fence(c, sem_tag(c, "LFENCE")); return;
  }
  sem_unsupported(c, NULL);
}

static int size_of_64(const Instr *ins) {
  switch (ins->flags & X86_64_SZ_MASK) {
  case X86_64_SZ_B: return 1;
  case X86_64_SZ_W: return 2;
  case X86_64_SZ_L: return 4;
  case X86_64_SZ_Q: return 8;
  default:
    for (int i = 0; i < ins->nops; i++)
      if (ins->ops[i].kind == OPK_REG) return view_bits(ins->ops[i].sub & 15) / 8;
    return 8;
  }
}

static void exec_x86_64(SemCtx *c, const Instr *ins) {
  X86Ctx x = {c, true, X86_64_ZF, X86_64_SF, X86_64_CF, size_of_64(ins), 0};
  if (ins->flags & X86_64_F_LOCK) {
    X86_64Op op = (X86_64Op)ins->op;
    if (op != X86_64_XCHG && op != X86_64_UXCH && op != X86_64_ADD && op != X86_64_XOR &&
        op != X86_64_INC && op != X86_64_DEC && op != X86_64_CMPXCHG)
      check_lock(c, ins, &x86_64_arch_ops, X86_64_F_LOCK);
    x.tags = sem_tag(c, "X");
  }
  switch ((X86_64Op)ins->op) {
  case X86_64_NOP:
  case X86_64_CLFLUSH:
  case X86_64_CLFLUSHOPT:
    return;
  case X86_64_MOV:
    write_op(&x, &ins->ops[0], read_op(&x, &ins->ops[1], NULL), NULL);
    return;
  case X86_64_MOVNTI:
    x.tags |= sem_tag(c, "NT");
    write_op(&x, &ins->ops[0], read_op(&x, &ins->ops[1], NULL), NULL);
    return;
  case X86_64_ADD: alu(&x, ins, S_ADD); return;
  case X86_64_OR: alu(&x, ins, S_OR); return;
  case X86_64_AND: alu(&x, ins, S_AND); return;
  case X86_64_XOR: alu(&x, ins, S_XOR); return;
  case X86_64_SHL: alu(&x, ins, S_SHL); return;
  case X86_64_CMP: cmp(&x, ins); return;
  case X86_64_INC: incdec(&x, ins, S_ADD); return;
  case X86_64_DEC: incdec(&x, ins, S_SUB); return;
  case X86_64_SETNB:
    x.size = 1;
    write_op(&x, &ins->ops[0], sem_op1(c, S_NOT, sem_read_reg(c, X86_64_CF)), NULL);
    return;
  case X86_64_CMOVC: cmovc(&x, ins); return;
  case X86_64_XCHG:
  case X86_64_UXCH:
    /* herd pairs the bytes of an exchange's read with its own write too
     * (mem.ml's expose_scas); when other writes overlap part of it, the
     * executions it counts are not reproduced: refused, not miscounted */
    if (sem_program(c)->mixed)
      sem_error(c, "-variant mixed: xchg is not supported yet for X86_64");
    if (ins->op == X86_64_XCHG) xchg(&x, ins);
    else exchange(&x, ins);
    return;
  case X86_64_CMPXCHG: cmpxchg(&x, ins, X86_64_RAX); return;
  case X86_64_JMP: sem_jump(c, ins->ops[0].sym); return;
  case X86_64_JCC:
    sem_branch(c, cond_value(&x, (int)ins->ops[0].imm), ins->ops[1].sym);
    return;
  case X86_64_MFENCE: sem_fence(c, sem_tag(c, "MFENCE")); return;
  case X86_64_SFENCE: sem_fence(c, sem_tag(c, "SFENCE")); return;
  case X86_64_LFENCE: sem_fence(c, sem_tag(c, "LFENCE")); return;
  case X86_64_RET: sem_exit(c); return;
  case X86_64_MOVD:
  case X86_64_MOVNTDQA:
    /* parsed by herd7 7.58, which stops there too */
    sem_unsupported(c, NULL);
  }
  sem_unsupported(c, NULL);
}

static const char *const x86_sets[] = {"X", "MFENCE", "SFENCE", "LFENCE", NULL};
static const char *const x86_64_sets[] = {"X", "NT", "MFENCE", "SFENCE", "LFENCE", NULL};

const SemArch sem_x86 = {.arch = ARCH_X86, .exec = exec_x86, .set_names = x86_sets};
const SemArch sem_x86_64 = {.arch = ARCH_X86_64, .exec = exec_x86_64, .set_names = x86_64_sets};
