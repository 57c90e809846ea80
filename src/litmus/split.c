/*
 * split.c — splitting a litmus file (herd's lib/splitter.mll): the
 * header line (architecture, name), the metadata lines, and the offsets
 * of the init, code and final sections.
 */
#include "parse_int.h"

#include <stdlib.h>

#include "c.h"

static void parse_arch(Parser *p, size_t off, size_t n) {
  char *w = arena_strndup(p->a, p->text + off, n);
  if (!arch_from_name(w, &p->t->arch)) {
    if (isa_known_elsewhere(w)) fail(p, off, "%s tests are not supported", w);
    fail(p, off, "%s is not an implemented architecture", w);
  }
  p->t->ops = arch_ops(p->t->arch);
  if (!p->t->ops)
    fail(p, off, "%s tests are not supported yet", arch_name(p->t->arch));
  if (p->t->ops->begin) p->t->ops->begin(p->t);
}

static bool testname_char(char c) {
  return is_alnum(c) || strchr("_/.-+[]", c) != NULL;
}

/* The test name, with ".litmus" removed; "--" means the file name. */
static const char *clean_name(Parser *p, const char *name) {
  if (strcmp(name, "--") == 0) {
    const char *base = strrchr(p->t->file, '/');
    name = base ? base + 1 : p->t->file;
    const char *dot = strrchr(name, '.');
    if (dot && dot != name) name = arena_strndup(p->a, name, (size_t)(dot - name));
  }
  size_t n = strlen(name);
  if (n > 7 && strcmp(name + n - 7, ".litmus") == 0)
    name = arena_strndup(p->a, name, n - 7);
  return name;
}

/* ARCH NAME [(TEXNAME)] ["DOC"] [;]  — returns the offset after it. */
static size_t parse_header(Parser *p) {
  const char *s = p->text;
  size_t i = 0, end = p->len;
  if (end >= 3 && !memcmp(s, "\xef\xbb\xbf", 3))
    fail(p, 0, "the file starts with a UTF-8 byte order mark (BOM): remove it");
  while (i < end && is_blank(s[i])) i++;
  size_t a0 = i;
  while (i < end && (is_alnum(s[i]) || s[i] == '_' || s[i] == '-' ||
                     s[i] == '+'))
    i++;
  if (i == a0) fail(p, a0, "expected 'ARCH NAME' on the first line");
  parse_arch(p, a0, i - a0);
  size_t b = i;
  while (i < end && is_blank(s[i])) i++;
  size_t n0 = i;
  while (i < end && testname_char(s[i])) i++;
  if (n0 == b || i == n0)
    fail(p, i, "expected a test name after the architecture");
  p->t->name = clean_name(p, arena_strndup(p->a, s + n0, i - n0));
  while (i < end && is_blank(s[i])) i++;
  if (i < end && s[i] == '(') {
    size_t k = i + 1, n = name_len(s + k);
    if (n && k + n < end && s[k + n] == ')') {
      i = k + n + 1;
      while (i < end && is_blank(s[i])) i++;
    }
  }
  size_t k = i;
  if (k < end && s[k] == '\n') k++;
  while (k < end && is_blank(s[k])) k++;
  if (k < end && s[k] == '"') {
    const char *q = memchr(s + k + 1, '"', end - k - 1);
    /* never closed: herd reads on to the '{' (the string is not a doc
     * string then); with none, the file ends inside it */
    if (!q && !memchr(s + k + 1, '{', end - k - 1))
      fail(p, k, "the file ends inside the doc string opened here (no closing '\"')");
    if (q) {
      p->t->doc = arena_strndup(p->a, s + k + 1, (size_t)(q - s - k - 1));
      i = (size_t)(q - s) + 1;
      while (i < end && is_blank(s[i])) i++;
    }
  }
  if (i < end && s[i] == ';') i++;
  return i;
}

static void add_meta(Parser *p, size_t k0, size_t klen, size_t v0,
                     size_t vlen, int *cap) {
  while (vlen > 0 && p->text[v0 + vlen - 1] == '\r') vlen--;
  Meta m = {arena_strndup(p->a, p->text + k0, klen),
            arena_strndup(p->a, p->text + v0, vlen)};
  APUSH(p->a, p->t->meta, p->t->nmeta, *cap, m);
}

/* KEY = VALUE '\n' at off, as herd's rule: returns its length (0 if none),
 * including the newline. */
static size_t meta_line(Parser *p, size_t off, int *cap, bool record) {
  const char *s = p->text;
  size_t klen = name_len(s + off), i = off + klen;
  if (!klen) return 0;
  while (i < p->len && is_blank(s[i])) i++;
  if (i >= p->len || s[i] != '=') return 0;
  i++;
  while (i < p->len && is_blank(s[i])) i++;
  const char *nl = memchr(s + i, '\n', p->len - i);
  if (!nl) return 0;
  if (record) add_meta(p, off, klen, i, (size_t)(nl - s) - i, cap);
  return (size_t)(nl - s) + 1 - off;
}

/* Metadata and comments up to '{'.  This mimics herd's longest-match
 * lexer: a comment is only recognised where "(*" is directly followed by a
 * newline, '{' or the end; otherwise the text up to the next newline or
 * '{' is skipped as a block, and a KEY=VALUE line always wins. */
static size_t find_init(Parser *p, size_t i) {
  int cap = 0;
  const char *s = p->text;
  while (i < p->len) {
    char c = s[i];
    if (c == '\n') { i++; continue; }
    if (c == '{') return i;
    size_t chunk = 0;
    while (i + chunk < p->len && s[i + chunk] != '\n' && s[i + chunk] != '{')
      chunk++;
    size_t meta = meta_line(p, i, &cap, false);
    if (chunk <= 2 && starts(p, i, p->len, "(*")) i = skip_comment(p, i, p->len);
    else if (meta) i += meta_line(p, i, &cap, true);
    else i += chunk;
  }
  fail(p, p->len, "missing initial state section '{ ... }'");
}

/* Offset of the '}' matching the '{' at open (braces nest). */
static size_t match_brace(Parser *p, size_t open) {
  int depth = 0;
  for (size_t i = open; i < p->len; i++) {
    if (p->text[i] == '{') depth++;
    else if (p->text[i] == '}' && --depth == 0) return i;
  }
  fail(p, open, "unterminated initial state section (missing '}')");
}

static const char *const final_words[] = {
    "final", "forall", "exists", "cases", "observed", "Observed",
    "locations", "filter",
};

static bool is_final_word(const char *s, size_t n) {
  for (size_t i = 0; i < ARRAY_LEN(final_words); i++)
    if (lit_word_is(final_words[i], s, n))
      return true;
  return false;
}

/* Skip a double-quoted string starting at off. */
size_t skip_string(Parser *p, size_t off, size_t end) {
  const char *q = memchr(p->text + off + 1, '"', end - off - 1);
  if (!q) fail(p, off, "unterminated string");
  return (size_t)(q - p->text) + 1;
}

/* End of the code section: the first final-section keyword (a whole name,
 * or '~' blanks "exists"), skipping strings and, except for C, comments. */
static size_t find_code_end(Parser *p, size_t i, bool comments) {
  const char *s = p->text;
  while (i < p->len) {
    size_t n = name_len(s + i);
    if (n) {
      if (is_final_word(s + i, n)) return i;
      i += n;
    } else if (s[i] == '~') {
      size_t k = i + 1;
      while (k < p->len && is_blank(s[k])) k++;
      if (starts(p, k, p->len, "exists")) return i;
      i++;
    } else if (s[i] == '"') {
      i = skip_string(p, i, p->len);
    } else if (comments && starts(p, i, p->len, "(*")) {
      i = skip_comment(p, i, p->len);
    } else {
      i++;
    }
  }
  return p->len;
}

/* End of the final section: "<<" (outside comments) or the end. */
static size_t find_final_end(Parser *p, size_t i) {
  while (i < p->len) {
    if (starts(p, i, p->len, "(*")) i = skip_comment(p, i, p->len);
    else if (starts(p, i, p->len, "<<")) return i;
    else i++;
  }
  return p->len;
}

Split split_test(Parser *p) {
  Split sp;
  size_t open = find_init(p, parse_header(p));
  size_t close = match_brace(p, open);
  sp.init_start = open + 1;
  sp.init_end = close;
  sp.code_start = close + 1;
  sp.code_end = find_code_end(p, sp.code_start, !isa_has(p->t->arch, ISA_LANGUAGE));
  sp.final_start = sp.code_end;
  /* bell tests: a scope tree may sit between the code and the final
   * section */
  if (isa_has(p->t->arch, ISA_BELL)) {
    size_t k = scope_section_start(p->text, sp.code_start, sp.code_end);
    if (k < sp.code_end) {
      p->t->scopes = scope_tree_parse(p->a, p->err, p->text + k,
                                      sp.code_end - k, pos_at(p, k));
      sp.code_end = k;
    }
  }
  sp.final_end = find_final_end(p, sp.final_start);
  return sp;
}
