/*
 * mte.c — memory tagging (herd7's -variant memtag): tag locations and the
 * operations on tags and tagged addresses.
 *
 * A value may be an allocation tag, VAL_TAG (:green), or an address may
 * carry one (x:red, value.h).  Every location x of the test has a tag
 * location, the symbol tag(x), holding a VAL_TAG, green unless the init
 * section gives it ([tag(x)]=:red); an array has one per 16-byte granule,
 * tag(t), tag(t+16)...  (herd's add_inittags, MachSize.granule).
 */
#include "mte.h"

#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { GRANULE = 16 };

static bool is_tag_sym(const char *name) { return strncmp(name, "tag(", 4) == 0; }

/* The name of the tag location of byte `byte` of symbol base. */
static void tag_name(char *buf, size_t cap, const char *base, int64_t byte) {
  int64_t g = byte / GRANULE * GRANULE;
  if (g) snprintf(buf, cap, "tag(%s+%lld)", base, (long long)g);
  else snprintf(buf, cap, "tag(%s)", base);
}

void mte_program_setup(Program *p, Err *err, SrcPos where) {
  if (!p->has_tags && !p->memtag) return;
  if (p->has_tags && !p->memtag)
    err_raise(err, ERRK_SEMANTIC, where, "tagged addresses need -variant memtag");
  if (p->test->arch != ARCH_AARCH64)
    err_raise(err, ERRK_SEMANTIC, where, "-variant memtag is supported for AArch64 only");
  /* -variant mixed: the test's own locations, not their bytes (mixed.c) */
  int n0 = p->mixed ? p->mixed_nsyms0 : p->syms.count;
  for (int s = 0; s < n0; s++) {
    const char *name = intern_name(&p->syms, s);
    if (is_tag_sym(name) || lit_sym_kind(name) != SK_VIRTUAL || strchr(name, '[') ||
        program_is_code_sym(p, s))
      continue;
    const struct ArrayDecl *a = program_array(p, s);
    int64_t bytes = a ? (int64_t)a->len * a->esize : 1;
    for (int64_t b = 0; b < bytes; b += GRANULE) {
      char buf[256];
      tag_name(buf, sizeof buf, name, b);
      int t = program_symbol(p, buf);
      if (p->sym_init.data[t].kind != VAL_TAG) {
        Val green = {VAL_TAG, 0, 0};
        p->sym_init.data[t] = green;
      }
    }
  }
}

bool mte_is_tag_loc(const Program *p, int sym) {
  return sym >= 0 && sym < p->syms.count && is_tag_sym(intern_name(&p->syms, sym));
}

/* The base symbol and byte offset of an address (a cell t[k] is byte
 * k * esize of t). */
static bool base_byte(const Program *p, Val a, const char **base, int64_t *byte) {
  const char *name = intern_name(&p->syms, a.sym);
  *byte = val_addr_off(a);
  const char *br = strchr(name, '[');
  if (!br) {
    *base = name;
    return true;
  }
  char buf[256];
  size_t n = (size_t)(br - name);
  if (n >= sizeof buf) return false;
  memcpy(buf, name, n);
  buf[n] = 0;
  int s = intern_find(&p->syms, buf);
  const struct ArrayDecl *arr = s >= 0 ? program_array(p, s) : NULL;
  if (!arr) return false;
  *base = intern_name(&p->syms, s);
  *byte += (int64_t)atoll(br + 1) * arr->esize;
  return true;
}

bool mte_apply(const Program *p, SymOp op, Val a, Val b, Val *out) {
  if (op == S_SUB) {
    if (!p->memtag) return false;
    int c = engine_val_cmp(p, a, b);
    *out = val_int((c > 0) - (c < 0));
    return true;
  }
  if (a.kind != VAL_ADDR) return false;
  switch (op) {
  case S_TAGLOC: {
    const char *base;
    int64_t byte;
    if (!base_byte(p, a, &base, &byte)) return false;
    char buf[256];
    tag_name(buf, sizeof buf, base, byte);
    int s = intern_find(&p->syms, buf);
    if (s < 0) return false;
    *out = val_addr(s, 0);
    return true;
  }
  case S_TAGOF: {
    int t = val_addr_tag(a);
    Val r = {VAL_TAG, t ? t - 1 : 0, 0};
    *out = r;
    return true;
  }
  case S_UNTAG:
    *out = val_addr(a.sym, val_addr_off(a));
    return true;
  case S_SETTAG:
    if (b.kind != VAL_TAG) return false;
    *out = val_addr_tagged(a.sym, val_addr_off(a), b.sym + 1);
    return true;
  default:
    return false;
  }
}
