/*
 * parse.c — reading a litmus file into a Test (../shared/spec/litmus.md
 * §1-§4): the line index, and the entry points that run the stages in
 * order (see parse_int.h for the files of each stage).
 *
 * Everything lives in the Test's arena; errors longjmp through Err with a
 * file:line:column position, and litmus_parse frees the partial Test.
 */
#include "parse_int.h"

#include <stdlib.h>
#include <strings.h>

#include "c.h"
#include "lisa.h"

static void index_lines(Parser *p) {
  const char *s = p->text, *end = s + p->len;
  int n = 1;
  for (const char *q = s; (q = memchr(q, '\n', (size_t)(end - q))); q++) n++;
  p->lines = ARENA_NEWN(p->a, size_t, n);
  p->nlines = 0;
  p->lines[p->nlines++] = 0;
  for (const char *q = s; (q = memchr(q, '\n', (size_t)(end - q))); q++)
    p->lines[p->nlines++] = (size_t)(q - s) + 1;
}

/* herd's `name`: alpha (alpha | digit | _ / . -)* */
size_t name_len(const char *s) {
  if (!is_alpha(s[0])) return 0;
  size_t n = 1;
  while (is_alnum(s[n]) || s[n] == '_' || s[n] == '/' || s[n] == '.' ||
         s[n] == '-')
    n++;
  return n;
}

/* Skip a nested (* *) comment starting at off (on "(*"); returns the
 * offset after it. */
size_t skip_comment(Parser *p, size_t off, size_t end) {
  size_t start = off;
  int depth = 0;
  while (off < end) {
    if (off + 1 < end && p->text[off] == '(' && p->text[off + 1] == '*') {
      depth++;
      off += 2;
    } else if (off + 1 < end && p->text[off] == '*' &&
               p->text[off + 1] == ')') {
      off += 2;
      if (--depth == 0) return off;
    } else {
      off++;
    }
  }
  fail(p, start, "unterminated comment");
}

/* The C parser descends once per bracket: bound the nesting before it
 * runs, so that no input can exhaust the stack (comments and literals
 * are skipped; an unbalanced file is the parser's to report). */
enum { C_MAX_NESTING = 256 };

static void check_c_nesting(Parser *p, size_t from, size_t to) {
  const char *s = p->text;
  int depth = 0;
  for (size_t i = from; i < to; i++) {
    char ch = s[i];
    if (ch == '/' && i + 1 < to && s[i + 1] == '/') {
      while (i < to && s[i] != '\n') i++;
    } else if (ch == '/' && i + 1 < to && s[i + 1] == '*') {
      for (i += 2; i + 1 < to && !(s[i] == '*' && s[i + 1] == '/'); i++) {}
      i++;
    } else if (ch == '"' || ch == '\'') {
      for (i++; i < to && s[i] != ch && s[i] != '\n'; i++)
        if (s[i] == '\\') i++;
    } else if (ch == '(' || ch == '[' || ch == '{') {
      if (++depth > C_MAX_NESTING)
        fail(p, i, "C code nested too deeply (more than %d levels of brackets)", C_MAX_NESTING);
    } else if ((ch == ')' || ch == ']' || ch == '}') && depth > 0) {
      depth--;
    }
  }
}

static SrcPos pos_cb(void *ctx, size_t off) { return pos_at(ctx, off); }

static void parse_all(Parser *p) {
  index_lines(p);
  Split sp = split_test(p);
  if (p->t->ops->sections) {
    /* the architecture's own items are blanked in a copy: offsets, and
     * so positions, stay those of the file */
    char *buf = arena_strndup(p->a, p->text, p->len);
    sp.code_start = p->t->ops->sections(p->t, p->err, buf, sp.init_start, sp.init_end,
                                        sp.code_start, pos_cb, p);
    p->text = buf;
  }
  parse_init(p, sp.init_start, sp.init_end);
  if (p->t->c) check_c_nesting(p, sp.code_start, sp.code_end);
  if (p->t->c)
    c_parse_code(p->t, p->err, p->text, sp.code_start, sp.code_end,
                 pos_at(p, sp.code_start));
  else
    parse_code(p, sp.code_start, sp.code_end);
  parse_final(p, sp.final_start, sp.final_end);
  if (!p->t->c) alloc_symregs(p);
}

Test *litmus_parse(const char *path, const char *text, Err *err) {
  Test *t = xcalloc(1, sizeof *t);
  arena_init(&t->arena);
  t->file = arena_strdup(&t->arena, path ? path : "<input>");
  size_t n = strlen(text);
  t->text = arena_strndup(&t->arena, text, n);
  Parser p = {t, err, &t->arena, t->text, n, NULL, 0};
  ErrJmp j;
  err_push(err, &j);
  if (setjmp(j.jb) == 0) {
    parse_all(&p);
    err_pop(err, &j);
    return t;
  }
  test_free(t);
  return NULL;
}

void test_free(Test *t) {
  if (!t) return;
  arena_free(&t->arena);
  free(t);
}

/* herd matches info keys ignoring case (MiscParser.key_match): a
 * "variant=..." line is the test's Variant. */
const char *test_meta(const Test *t, const char *key) {
  for (int i = 0; i < t->nmeta; i++)
    if (strcasecmp(t->meta[i].key, key) == 0) return t->meta[i].value;
  return NULL;
}
