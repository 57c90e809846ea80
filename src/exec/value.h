/*
 * value.h — machine values and symbolic value expressions.
 *
 * A Val is what a register or memory cell holds: an integer, the address
 * of a location (symbol plus byte offset) or a code label.  During symbolic
 * execution of a thread, the value of every memory read is unknown until
 * reads-from is chosen, so values are expressions (SymExpr) over the reads
 * of the same thread.  They are evaluated once per rf choice; an
 * expression whose inputs form a cycle through rf (out of thin air) with
 * an operation on it has no value and discards the candidate, as herd7's
 * equation solver does; a value only copied round it is herd's unsolved
 * variable (VAL_VAR, solve.c).
 */
#ifndef CORRAL_VALUE_H
#define CORRAL_VALUE_H

#include <stdbool.h>
#include <stdint.h>

/* VAL_VAR: a value herd7 leaves unsolved, its variable S<num> (a value
 * read out of thin air, solve.c); it equals only itself. */
/* VAL_FAULTS: the faults of a final state, num a set of the Program's
 * fault table (faults.c).  VAL_INSTR: an instruction (AArch64
 * self-modifying code), num its id in Program.instrs, sym its rank in
 * herd's order (ifetch.c). */
/* VMSA (-variant kvm, sem_vmsa.c): VAL_PTE, a page-table entry, its
 * output address the symbol `sym` (PA(y), the physical page), its flags
 * in `num` (bit PTE_AF... of litmus.h); VAL_TLB, the TLB entry of the
 * virtual symbol `sym` (herd's TLB(x), an address shifted right by 12),
 * what TLBI operates on. */
/* MTE (-variant memtag, mte.c): VAL_TAG, an allocation tag (:green), sym
 * its colour in Program.colors; an address may carry a tag (x:red), kept
 * in the high bits of its offset (val_addr_tag below) so that address
 * arithmetic keeps it. */
typedef enum ValKind { VAL_INT, VAL_ADDR, VAL_LABEL, VAL_VAR, VAL_FAULTS, VAL_PTE, VAL_TLB,
               VAL_INSTR, VAL_TAG } ValKind;

/* No padding: states are hashed and compared as bytes. */
typedef struct Val {
  int32_t kind;
  int32_t sym;      /* VAL_ADDR: symbol id; VAL_LABEL: thread */
  int64_t num;      /* VAL_INT: value; VAL_ADDR: byte offset; VAL_LABEL: label id */
} Val;

_Static_assert(sizeof(Val) == 16, "Val must have no padding");

static inline Val val_int(int64_t n) {
  Val v = {VAL_INT, 0, n};
  return v;
}
static inline Val val_addr(int sym, int64_t off) {
  Val v = {VAL_ADDR, sym, off};
  return v;
}
static inline Val val_pte(int oa_sym, unsigned bits) {
  Val v = {VAL_PTE, oa_sym, (int64_t)bits};
  return v;
}
/* A tagged address: colour c (Program.colors) plus one in bits 48.. of
 * num; 0 there is an address without tag. */
enum { VAL_ADDR_TAG_SHIFT = 48 };
static inline int val_addr_tag(Val v) {
  return (int)((v.num + ((int64_t)1 << (VAL_ADDR_TAG_SHIFT - 1))) >> VAL_ADDR_TAG_SHIFT);
}
static inline int64_t val_addr_off(Val v) {
  return v.num - ((int64_t)val_addr_tag(v) << VAL_ADDR_TAG_SHIFT);
}
static inline Val val_addr_tagged(int sym, int64_t off, int colour_plus_one) {
  Val v = {VAL_ADDR, sym, off + ((int64_t)colour_plus_one << VAL_ADDR_TAG_SHIFT)};
  return v;
}
static inline bool val_eq(Val a, Val b) {
  return a.kind == b.kind && a.sym == b.sym && a.num == b.num;
}
/* herd's value order for sorting states: integers (signed) < addresses
 * (by symbol name, compared by the caller's name table) < labels. */

/* ---- symbolic expressions ----
 * Nodes live in an array owned by the event structure; a Sym is an index.
 * Node 0.. are created in program order, so operands precede results. */
typedef int32_t Sym;
enum { SYM_NONE = -1 };

typedef enum SymOp {
  S_CONST,   /* c */
  S_READ,    /* the value read by memory event `ev` */
  S_ADD, S_SUB, S_MUL, S_DIV, S_AND, S_OR, S_XOR, S_NOR, S_ANDNOT,
  S_SHL, S_SHR, S_SAR,
  S_EQ, S_NE, S_LT, S_LE, S_GT, S_GE,      /* signed comparisons, 0/1 */
  S_LTU, S_LEU, S_GTU, S_GEU,              /* unsigned comparisons */
  S_NOT,     /* logical not: a == 0 */
  S_NEG,
  S_MASK,    /* a truncated to `width` bits, zero-extended */
  S_SEXT,    /* a truncated to `width` bits, sign-extended */
  S_SELECT,  /* c ? a : b  (c = operand c) */
  S_CMP3,    /* PPC-style compare: a <  b -> 8 (LT), > -> 4 (GT), = -> 2 (EQ) */
  S_CMP3U,   /* same, unsigned */
  /* VMSA: of a PTE value a, field `width` (PTE_AF...) as 0/1; its output
   * address (a VAL_ADDR); a with field `width` set to 1. */
  S_PTE_FIELD, S_PTE_OA, S_PTE_SET,
  S_TOINT,   /* herd's ToInteger: a if an integer, else b if one (flags of
                a comparison of instructions) */
  /* MTE (mte.c, computed with the Program): the tag location tag(x) of
   * an address; the tag an address carries (green when none); the
   * address without its tag; address a with tag b. */
  S_TAGLOC, S_TAGOF, S_UNTAG, S_SETTAG,
} SymOp;

typedef struct SymNode {
  uint8_t op;
  uint8_t width;    /* S_MASK, S_SEXT: bits; arithmetic: the arch width */
  int32_t a, b, c;  /* operand syms; S_READ: a = event id */
  Val k;            /* S_CONST; S_MASK, S_SEXT: k.num = 1 when herd7
                       computes nothing there (sem_load_extend) */
} SymNode;

/* herd7's union-find over its variables (values-and-loops.md §1.4.2):
 * the class of x; joining a := b ranks the roots, the left one winning a
 * tie.  parent[i] = i and rank[i] = 0 at the start of each solve. */
int herd_uf_find(int *parent, int x);
void herd_uf_join(int *parent, unsigned char *rank, int a, int b);

#endif
