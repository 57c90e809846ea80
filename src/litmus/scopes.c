/*
 * scopes.c — scope trees: the `scopes:` section that may follow the code
 * of a bell test (LISA), as herd7 reads it (lib/scopeRules.mly), and the
 * questions the model's scope relations ask of it.
 *
 * `scopes: (system (gpu (cta P0) (cta P1)))` is a tree whose nodes are a
 * scope tag and either subtrees or threads.  herd binds each tag to the
 * relation between events of threads under one node of that tag (one
 * scope instance); a node is kept here as its tag and the set of threads
 * below it.  Not reproduced: herd's completion of a partial tree from the
 * bell file's scope order, and the `levels:` and `regions:` sections.
 */
#include "litmus.h"

#include <ctype.h>
#include <string.h>

size_t scope_section_start(const char *text, size_t start, size_t end) {
  static const char *const words[] = {"scopes", "levels", "regions"};
  for (size_t i = start; i < end; i++) {
    if (i > start && (isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_'))
      continue;
    for (size_t w = 0; w < ARRAY_LEN(words); w++) {
      size_t n = strlen(words[w]);
      if (i + n > end || memcmp(text + i, words[w], n) != 0) continue;
      size_t k = i + n;
      while (k < end && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r' ||
                         text[k] == '\n'))
        k++;
      if (k < end && text[k] == ':') return i;
    }
  }
  return end;
}

typedef struct ScopeParse {
  AsmScan s;
  ScopeTree *sc;
  int cap;
} ScopeParse;

/* ( NAME tree tree ... ) or ( NAME proc proc ... ): the threads below */
static uint64_t scope_tree(ScopeParse *sp, int depth) {
  AsmScan *s = &sp->s;
  if (depth > 64) asm_error(s, "scope tree too deep");
  asm_expect(s, '(');
  if (s->tok.kind != AT_NAME) asm_error(s, "expected a scope name");
  ScopeNode node = {asm_tok_str(s), 0};
  asm_next(s);
  while (!asm_is(s, ')')) {
    if (asm_is(s, '(')) {
      node.threads |= scope_tree(sp, depth + 1);
      continue;
    }
    int64_t p = -1;
    if (s->tok.kind == AT_NUM) p = s->tok.num;
    else if (s->tok.kind == AT_NAME && s->tok.s[0] == 'P' && s->tok.len > 1 &&
             lit_parse_int(s->tok.s + 1, s->tok.len - 1, &p) && s->tok.s[1] != '-')
      ;
    else asm_error(s, "expected a thread (P0, P1...), a subtree or ')'");
    if (p < 0 || p > 63) asm_error(s, "thread number out of range");
    node.threads |= (uint64_t)1 << p;
    asm_next(s);
  }
  asm_next(s);
  APUSH(s->arena, sp->sc->nodes, sp->sc->n, sp->cap, node);
  return node.threads;
}

ScopeTree *scope_tree_parse(Arena *a, Err *err, const char *text, size_t n,
                              SrcPos pos) {
  ScopeParse sp;
  memset(&sp, 0, sizeof sp);
  asm_scan_init(&sp.s, a, err, "LISA", arena_strndup(a, text, n), pos);
  AsmScan *s = &sp.s;
  if (!asm_is_name(s, "scopes"))
    err_raise(err, ERRK_SYNTAX, pos, "%.*s: only scope trees (scopes:) are supported",
              (int)s->tok.len, s->tok.s);
  asm_next(s);
  asm_expect(s, ':');
  sp.sc = ARENA_NEW(a, ScopeTree);
  /* several top trees: herd puts them under an anonymous root */
  do scope_tree(&sp, 0);
  while (asm_is(s, '('));
  asm_expect_end(s);
  return sp.sc;
}

/* index of the first node whose tag is the k-th distinct one, or -1 */
static int scope_first(const ScopeTree *sc, int k) {
  if (!sc) return -1;
  for (int i = 0; i < sc->n; i++) {
    bool seen = false;
    for (int j = 0; j < i && !seen; j++) seen = strcmp(sc->nodes[j].tag, sc->nodes[i].tag) == 0;
    if (!seen && k-- == 0) return i;
  }
  return -1;
}

const char *scope_tree_tag(const ScopeTree *sc, int k) {
  int i = scope_first(sc, k);
  return i < 0 ? NULL : sc->nodes[i].tag;
}

bool scope_tree_same(const ScopeTree *sc, int k, int a, int b) {
  int f = scope_first(sc, k);
  if (f < 0 || a > 63 || b > 63) return false;
  uint64_t both = ((uint64_t)1 << a) | ((uint64_t)1 << b);
  for (int i = f; i < sc->n; i++)
    if (strcmp(sc->nodes[i].tag, sc->nodes[f].tag) == 0 &&
        (sc->nodes[i].threads & both) == both)
      return true;
  return false;
}
