/*
 * pte.c — the VMSA forms of the state sections (herd's stateParser.mly,
 * lib/AArch64PteVal.ml): the locations PTE(x) (or TTD(x)) and PA(x), the
 * names pte_x and phy_x that mean the same, and page-table entry values
 * (oa:PA(x), valid:0, af:1, ...).
 *
 * All of them become symbols spelt "PTE(x)" and "PA(x)", herd's spelling
 * in outputs; the hash prints the legacy pte_x, phy_x (hash.md §3).  A PTE
 * value is the full entry (pte_bits: the defaults for the fields not
 * written); its hash text lists every field, as herd hashes it, and the
 * item's type is then pteval_t when none is written.
 */
#include "parse_int.h"


static const char *const field_names[PTE_NFIELDS] = {"af", "db", "dbm", "valid", "el0"};

unsigned lit_pte_default(void) {
  return 1u << PTE_AF | 1u << PTE_DB | 1u << PTE_VALID | 1u << PTE_EL0;
}

SymKind lit_sym_kind(const char *sym) {
  size_t n = strlen(sym);
  if (n > 4 && strncmp(sym, "PTE(", 4) == 0 && sym[n - 1] == ')') return SK_PTE;
  if (n > 3 && strncmp(sym, "PA(", 3) == 0 && sym[n - 1] == ')') return SK_PHYSICAL;
  return SK_VIRTUAL;
}

int lit_sym_rank(const char *sym) {
  static const int rank[] = {[SK_VIRTUAL] = 0, [SK_PHYSICAL] = 1, [SK_PTE] = 3};
  SymKind k = lit_sym_kind(sym);
  if (k == SK_VIRTUAL && strncmp(sym, "tag(", 4) == 0) return 2;
  return rank[k];
}

const char *lit_sym_base(Arena *a, const char *sym) {
  SymKind k = lit_sym_kind(sym);
  if (k == SK_VIRTUAL) return sym;
  size_t skip = k == SK_PTE ? 4 : 3;
  return arena_strndup(a, sym + skip, strlen(sym) - skip - 1);
}

void lit_print_sym_hash(const char *sym, StrBuf *out) {
  SymKind k = lit_sym_kind(sym);
  if (k == SK_VIRTUAL) {
    sb_puts(out, sym);
    return;
  }
  size_t skip = k == SK_PTE ? 4 : 3;
  sb_puts(out, k == SK_PTE ? "pte_" : "phy_");
  sb_putn(out, sym + skip, strlen(sym) - skip - 1);
}

void lit_print_pte(const char *oa, unsigned bits, StrBuf *out) {
  sb_puts(out, "(oa:");
  sb_puts(out, oa ? oa : "PA()");
  unsigned def = lit_pte_default();
  for (int f = 0; f < PTE_NFIELDS; f++)
    if (((bits ^ def) >> f) & 1) sb_printf(out, ", %s:%u", field_names[f], (bits >> f) & 1);
  sb_putc(out, ')');
}

/* "PTE(x)" / "PA(x)" for a name pte_x / phy_x (herd's Constant.mk_sym);
 * the name itself otherwise. */
const char *pte_canonical_name(Parser *p, const char *name) {
  if (strncmp(name, "pte_", 4) == 0 && name[4]) {
    if (strncmp(name + 4, "pte_", 4) == 0)
      return lit_join(p->a, "PTE(PTE(", name + 8, "))", "");
    return lit_join(p->a, "PTE(", name + 4, ")", "");
  }
  if (strncmp(name, "phy_", 4) == 0 && name[4]) return lit_join(p->a, "PA(", name + 4, ")", "");
  return name;
}

static bool is_word(const Tok *t, const char *w) {
  return t->kind == T_NAME && strcmp(t->s, w) == 0;
}

/* PTE(x), TTD(x), PA(x) at the stream's position: consumed, their symbol
 * returned; NULL (nothing consumed) for anything else. */
const char *pte_parse_special(TokStream *ts) {
  const Tok *t = peek(ts, 0);
  if (is_word(t, "tag") && peekk(ts, 1) == T_LPAR) { /* MTE: tag(x) */
    next(ts), next(ts);
    const Tok *n = expect(ts, T_NAME, "a location name");
    expect(ts, T_RPAR, "')'");
    return lit_join(ts->p->a, "tag(", n->s, ")", "");
  }
  bool pte = is_word(t, "PTE") || is_word(t, "TTD"), pa = is_word(t, "PA");
  if (!(pte || pa) || peekk(ts, 1) != T_LPAR) return NULL;
  next(ts), next(ts);
  if (pte && (is_word(peek(ts, 0), "PTE") || is_word(peek(ts, 0), "TTD")))
    fail(ts->p, t->off, "PTE(PTE(x)) (-variant pte2) is not supported");
  const Tok *n = expect(ts, T_NAME, "a location name");
  expect(ts, T_RPAR, "')'");
  return lit_join(ts->p->a, pte ? "PTE(" : "PA(", n->s, ")", "");
}

/* The output address after "oa:": phy_x, pte_x, PA(x) or PTE(x). */
static const char *parse_oa(TokStream *ts) {
  const Tok *t = peek(ts, 0);
  const char *s = pte_parse_special(ts);
  if (!s) {
    s = pte_canonical_name(ts->p, expect(ts, T_NAME, "an output address")->s);
    if (lit_sym_kind(s) == SK_VIRTUAL)
      fail(ts->p, t->off, "identifier %s cannot be used as output address", t->s);
  }
  if (strncmp(s, "PTE(PTE(", 8) == 0)
    fail(ts->p, t->off, "PTE(PTE(x)) (-variant pte2) is not supported");
  return s;
}

/* herd's AArch64PteVal.pp_hash: every field but el0 always, the legacy
 * spelling of oa (phy_x; phy_ when none was given). */
static const char *pte_hash_text(Arena *a, const char *oa, unsigned bits) {
  StrBuf b;
  sb_init(&b);
  sb_puts(&b, "(oa:");
  if (oa) lit_print_sym_hash(oa, &b);
  else sb_puts(&b, "phy_");
  for (int f = 0; f < PTE_EL0; f++) sb_printf(&b, ", %s:%u", field_names[f], (bits >> f) & 1);
  if (!((bits >> PTE_EL0) & 1)) sb_puts(&b, ", el0:0");
  sb_putc(&b, ')');
  const char *r = arena_strdup(a, sb_cstr(&b));
  sb_free(&b);
  return r;
}

/* ( prop, ... ): herd's pteval. */
LitVal parse_pte_value(TokStream *ts) {
  LitVal v;
  memset(&v, 0, sizeof v);
  const Tok *open = expect(ts, T_LPAR, "'('");
  v.kind = LV_PTE;
  v.pos = tok_pos(ts, open);
  v.pte_bits = (uint8_t)lit_pte_default();
  do {
    const Tok *k = expect(ts, T_NAME, "a page-table entry property");
    if (peekk(ts, 0) != T_COLON || strcmp(k->s, "attrs") == 0)
      fail(ts->p, k->off, "page-table entry attributes are not supported");
    next(ts);
    if (strcmp(k->s, "oa") == 0) {
      if (v.pte_oa) fail(ts->p, k->off, "multiple defintion or property oa");
      v.pte_oa = parse_oa(ts);
      continue;
    }
    int f = 0;
    while (f < PTE_NFIELDS && strcmp(field_names[f], k->s) != 0) f++;
    if (f == PTE_NFIELDS)
      fail(ts->p, k->off, "Illegal AArch64 page table entry property %s", k->s);
    if ((v.pte_set >> f) & 1) fail(ts->p, k->off, "multiple defintion or property %s", k->s);
    const Tok *n = peek(ts, 0);
    if (n->kind != T_NUM) fail(ts->p, n->off, "PTE field %s should be an integer", k->s);
    next(ts);
    int64_t x;
    if (!lit_parse_int(n->s, n->len, &x) || (x != 0 && x != 1))
      fail(ts->p, n->off, "PTE field %s: only 0 and 1 are supported", k->s);
    v.pte_set |= (uint8_t)(1u << f);
    v.pte_bits = (uint8_t)((v.pte_bits & ~(1u << f)) | (unsigned)x << f);
  } while (accept(ts, T_COMMA));
  expect(ts, T_RPAR, "',' or ')'");
  v.text = pte_hash_text(ts->p->a, v.pte_oa, v.pte_bits);
  return v;
}

/* herd's add_oa_if_none: an entry stored at PTE(x) without oa maps x to
 * PA(x). */
void pte_default_oa(Parser *p, LitVal *v, const LitLoc *loc) {
  if (v->kind != LV_PTE || v->pte_oa || loc->kind != LOC_GLOBAL ||
      lit_sym_kind(loc->sym) != SK_PTE)
    return;
  const char *base = lit_sym_base(p->a, loc->sym);
  v->pte_oa = lit_join(p->a, "PA(", base, ")", "");
  v->text = pte_hash_text(p->a, v->pte_oa, v->pte_bits);
}

static bool loc_is_vmsa(const LitLoc *l) {
  return (l->kind == LOC_GLOBAL || l->kind == LOC_CELL) && lit_sym_kind(l->sym) != SK_VIRTUAL;
}

static bool val_is_vmsa(const LitVal *v) {
  return v->kind == LV_PTE || (v->kind == LV_ADDR && lit_sym_kind(v->sym) != SK_VIRTUAL);
}

static bool prop_is_vmsa(const Prop *p) {
  if (!p) return false;
  if ((p->kind == P_EQ || p->kind == P_LOCEQ) &&
      (loc_is_vmsa(&p->loc) || val_is_vmsa(&p->val) ||
       (p->kind == P_LOCEQ && loc_is_vmsa(&p->loc2))))
    return true;
  return prop_is_vmsa(p->a) || prop_is_vmsa(p->b);
}

bool lit_test_uses_vmsa(const Test *t) {
  for (int i = 0; i < t->ninit; i++)
    if (loc_is_vmsa(&t->init[i].loc) || val_is_vmsa(&t->init[i].val)) return true;
  for (int i = 0; i < t->nlocations; i++)
    if (loc_is_vmsa(&t->locations[i])) return true;
  return prop_is_vmsa(t->cond) || prop_is_vmsa(t->filter);
}
