/*
 * value.c — arithmetic on machine values.
 *
 * Integers are kept sign-extended from the operation's width, so a 32-bit
 * architecture's -1 is -1 whatever the host does, and arithmetic wraps
 * (computed on uint64_t to stay clear of signed-overflow UB).  Addresses
 * support the arithmetic herd7 allows: offsetting by an integer, and the
 * difference of two addresses of the same symbol.
 */
#include <stdbool.h>

#include "../litmus/litmus.h" /* PTE_AF... */
#include "event.h"
#include "value.h"

bool sym_apply(SymOp op, int width, Val a, Val b, Val c3, Val *out);

static int64_t sext(uint64_t x, int width) {
  if (width >= 64 || width <= 0) return (int64_t)x;
  uint64_t m = (uint64_t)1 << (width - 1);
  x &= ((uint64_t)1 << width) - 1;
  return (int64_t)((x ^ m) - m);
}

static uint64_t zext(uint64_t x, int width) {
  if (width >= 64 || width <= 0) return x;
  return x & (((uint64_t)1 << width) - 1);
}

static bool truthy(Val v) { return !(v.kind == VAL_INT && v.num == 0); }

/* herd's machine-level operations on page-table entries (AArch64Op.ml):
 * the bits of a descriptor an OR sets, a BIC clears, an AND tests (valid
 * bit 0, el0 6, db 7 (inverted: set means not dirty), af 10, dbm 51);
 * a SUB compares two entries (0 when equal), as herd compares values. */
static const struct { int field; int bit; bool inverted; } pte_mask_bits[] = {
    {PTE_VALID, 0, false}, {PTE_EL0, 6, false}, {PTE_DB, 7, true},
    {PTE_AF, 10, false},   {PTE_DBM, 51, false},
};

static bool pte_mask_ok(uint64_t m) {
  uint64_t known = 0;
  for (size_t i = 0; i < sizeof pte_mask_bits / sizeof *pte_mask_bits; i++)
    known |= (uint64_t)1 << pte_mask_bits[i].bit;
  return (m & ~known) == 0;
}

static bool pte_apply(SymOp op, Val a, Val b, Val *out) {
  if (op == S_XOR && val_eq(a, b)) { /* herd: v ^ v is 0 */
    *out = val_int(0);
    return true;
  }
  if (op == S_SUB && a.kind == VAL_PTE && b.kind == VAL_PTE) {
    int c = a.sym != b.sym ? (a.sym < b.sym ? -1 : 1) : (a.num > b.num) - (a.num < b.num);
    *out = val_int(c);
    return true;
  }
  if (op == S_SUB && ((b.kind == VAL_INT && b.num == 0) || (a.kind == VAL_INT && a.num == 0))) { /* 0: an invalid entry */
    *out = val_int(1);
    return true;
  }
  Val p = a.kind == VAL_PTE ? a : b, k = a.kind == VAL_PTE ? b : a;
  if (k.kind != VAL_INT) return false;
  uint64_t m = (uint64_t)k.num;
  unsigned bits = (unsigned)p.num;
  size_t n = sizeof pte_mask_bits / sizeof *pte_mask_bits;
  switch (op) {
  case S_OR:
  case S_ANDNOT:
    if (op == S_ANDNOT && a.kind != VAL_PTE) return false;
    if (m == 0) {
      *out = p;
      return true;
    }
    if (!pte_mask_ok(m)) return false;
    for (size_t i = 0; i < n; i++) {
      if (!((m >> pte_mask_bits[i].bit) & 1)) continue;
      bool set = (op == S_OR) != pte_mask_bits[i].inverted;
      unsigned f = 1u << pte_mask_bits[i].field;
      bits = set ? bits | f : bits & ~f;
    }
    *out = val_pte(p.sym, bits);
    return true;
  case S_AND: {
    uint64_t r = 0;
    for (size_t i = 0; i < n; i++) {
      bool on = ((bits >> pte_mask_bits[i].field) & 1) != pte_mask_bits[i].inverted;
      if (on && ((m >> pte_mask_bits[i].bit) & 1)) r |= (uint64_t)1 << pte_mask_bits[i].bit;
    }
    *out = val_int((int64_t)r);
    return true;
  }
  default:
    return false;
  }
}

bool sym_apply(SymOp op, int width, Val a, Val b, Val c3, Val *out) {
  /* an operation on an unsolved variable leaves herd an equation: the
   * candidate is dropped (solve.c) */
  if (a.kind == VAL_VAR || b.kind == VAL_VAR || c3.kind == VAL_VAR) return false;
  if ((a.kind == VAL_PTE || b.kind == VAL_PTE) && pte_apply(op, a, b, out)) return true;
  bool ints = a.kind == VAL_INT && b.kind == VAL_INT;
  if (op == S_XOR && !ints && a.kind != VAL_VAR && val_eq(a, b)) { /* herd: v ^ v is 0 */
    *out = val_int(0);
    return true;
  }
  uint64_t x = (uint64_t)a.num, y = (uint64_t)b.num;
  int64_t r = 0;
  switch (op) {
  case S_CONST:
    *out = a;
    return true;
  case S_ADD:
    if (ints) {
      r = sext(x + y, width);
      break;
    }
    /* herd: v + 0 is v, whatever v is (a label, an instruction...) */
    if (b.kind == VAL_INT && b.num == 0) {
      *out = a;
      return true;
    }
    if (a.kind == VAL_INT && a.num == 0) {
      *out = b;
      return true;
    }
    if (a.kind == VAL_ADDR && b.kind == VAL_INT) {
      *out = val_addr(a.sym, a.num + b.num);
      return true;
    }
    if (a.kind == VAL_INT && b.kind == VAL_ADDR) {
      *out = val_addr(b.sym, b.num + a.num);
      return true;
    }
    return false;
  case S_SUB:
    if (ints) {
      r = sext(x - y, width);
      break;
    }
    if (a.kind == VAL_ADDR && b.kind == VAL_INT) {
      *out = val_addr(a.sym, a.num - b.num);
      return true;
    }
    if (a.kind == VAL_ADDR && b.kind == VAL_ADDR && a.sym == b.sym) {
      *out = val_int(a.num - b.num);
      return true;
    }
    if (a.kind == VAL_INSTR && b.kind == VAL_INSTR) {
      /* herd compares two instructions (the flags of CMP): -1, 0 or 1 in
       * its order, by constructor rank (ifetch.c), then by id */
      int c = a.sym != b.sym ? (a.sym > b.sym) - (a.sym < b.sym)
                             : (a.num > b.num) - (a.num < b.num);
      *out = val_int(c);
      return true;
    }
    if (a.kind == VAL_LABEL && b.kind == VAL_LABEL) {
      /* herd compares labels by thread, then name: label ids are
       * given in name order (program_intern_labels) */
      int c = a.sym != b.sym ? (a.sym > b.sym) - (a.sym < b.sym)
                             : (a.num > b.num) - (a.num < b.num);
      *out = val_int(c);
      return true;
    }
    return false;
  case S_TOINT:
    if (a.kind == VAL_INT) *out = a;
    else if (b.kind == VAL_INT) *out = b;
    else return false;
    return true;
  case S_EQ:
    *out = val_int(val_eq(a, b));
    return true;
  case S_NE:
    *out = val_int(!val_eq(a, b));
    return true;
  case S_NOT:
    *out = val_int(!truthy(a));
    return true;
  case S_PTE_FIELD:
    if (a.kind != VAL_PTE) return false;
    *out = val_int((a.num >> width) & 1);
    return true;
  case S_PTE_OA:
    if (a.kind != VAL_PTE) return false;
    *out = val_addr(a.sym, 0);
    return true;
  case S_PTE_SET:
    if (a.kind != VAL_PTE) return false;
    *out = val_pte(a.sym, (unsigned)a.num | 1u << width);
    return true;
  case S_SELECT:
    *out = truthy(a) ? b : c3;
    return true;
  case S_MASK:
  case S_SEXT:
    if (a.kind != VAL_INT) { /* an address keeps its identity */
      *out = a;
      return true;
    }
    break;
  case S_SHR:
    /* herd: a virtual address shifted right by 12 is its TLB entry */
    if (a.kind == VAL_ADDR && b.kind == VAL_INT && b.num == 12) {
      Val t = {VAL_TLB, a.sym, 0};
      *out = t;
      return true;
    }
    break;
  case S_CMP3:
  case S_CMP3U:
    if (!ints) {
      /* Comparing an address: only equality is meaningful; an address
       * counts as greater than any integer. */
      int64_t k = val_eq(a, b) ? 2
                  : a.kind == VAL_INT ? 8
                  : b.kind == VAL_INT ? 4
                  : a.sym != b.sym ? (a.sym < b.sym ? 8 : 4)
                  : a.num < b.num ? 8 : 4;
      *out = val_int(k);
      return true;
    }
    break;
  default:
    break;
  }
  if (op != S_ADD && op != S_SUB) {
    if (op == S_NEG || op == S_MASK || op == S_SEXT) {
      if (a.kind != VAL_INT) return false;
    } else if (!ints) {
      return false;
    }
    switch (op) {
    case S_MUL: r = sext(x * y, width); break;
    case S_DIV:
      if (y == 0) r = 0;
      else if ((int64_t)y == -1) r = sext(0 - x, width);
      else r = sext((uint64_t)((int64_t)x / (int64_t)y), width);
      break;
    case S_AND: r = sext(x & y, width); break;
    case S_OR: r = sext(x | y, width); break;
    case S_XOR: r = sext(x ^ y, width); break;
    case S_NOR: r = sext(~(x | y), width); break;
    case S_ANDNOT: r = sext(x & ~y, width); break;
    case S_SHL: r = sext(y >= 64 ? 0 : x << y, width); break;
    case S_SHR: r = sext(y >= 64 ? 0 : zext(x, width) >> y, width); break;
    case S_SAR:
      r = y >= 64 ? ((int64_t)x < 0 ? -1 : 0) : (int64_t)x >> y;
      r = sext((uint64_t)r, width);
      break;
    case S_LT: r = (int64_t)x < (int64_t)y; break;
    case S_LE: r = (int64_t)x <= (int64_t)y; break;
    case S_GT: r = (int64_t)x > (int64_t)y; break;
    case S_GE: r = (int64_t)x >= (int64_t)y; break;
    case S_LTU: r = zext(x, width) < zext(y, width); break;
    case S_LEU: r = zext(x, width) <= zext(y, width); break;
    case S_GTU: r = zext(x, width) > zext(y, width); break;
    case S_GEU: r = zext(x, width) >= zext(y, width); break;
    case S_NEG: r = sext(0 - x, width); break;
    case S_MASK: r = (int64_t)zext(x, width); break;
    case S_SEXT: r = sext(x, width); break;
    case S_CMP3:
      r = (int64_t)x < (int64_t)y ? 8 : (int64_t)x > (int64_t)y ? 4 : 2;
      break;
    case S_CMP3U:
      r = x < y ? 8 : x > y ? 4 : 2;
      break;
    default:
      return false;
    }
  }
  *out = val_int(r);
  return true;
}

int tag_bit(TagTable *t, const char *name) {
  int i = tag_find(t, name);
  if (i >= 0) return i;
  if (t->count >= TAG_MAX) return -1;
  t->names[t->count] = name;
  return t->count++;
}

int tag_find(const TagTable *t, const char *name) {
  /* the first letters differ for most pairs: no call for those */
  for (int i = 0; i < t->count; i++)
    if (t->names[i][0] == name[0] && __builtin_strcmp(t->names[i], name) == 0) return i;
  return -1;
}

int herd_uf_find(int *parent, int x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

void herd_uf_join(int *parent, unsigned char *rank, int a, int b) {
  a = herd_uf_find(parent, a);
  b = herd_uf_find(parent, b);
  if (a == b) return;
  if (rank[a] < rank[b]) {
    parent[a] = b;
  } else {
    parent[b] = a;
    if (rank[a] == rank[b]) rank[a]++;
  }
}
