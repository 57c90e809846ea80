/*
 * model.c — finding and loading model files.
 *
 * Search rule (cat.md §8): a name with a directory part is used as is;
 * otherwise the current directory, then each -I directory, then $HERDLIB,
 * then the library directory — the caller passes all of these, in order,
 * as the search path ("." first).  Every file is parsed once, even if
 * included several times; the compiler expands each inclusion.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "interp.h"

static bool is_file(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

const char *cat_find_file(const char *name, const char *const *search,
                          int nsearch, Arena *a) {
  if (strchr(name, '/')) return is_file(name) ? arena_strdup(a, name) : NULL;
  /* "DIR/NAME" ("./NAME" for "."), built in one buffer (no printf: a run
   * looks up a dozen files in a few directories each) and copied to the
   * arena once found. */
  size_t nl = strlen(name), cap = 0;
  char *buf = NULL;
  const char *found = NULL;
  for (int i = 0; i < nsearch && !found; i++) {
    const char *dir = search[i];
    size_t dl = strlen(dir);
    if (dl + nl + 2 > cap) {
      cap = dl + nl + 2 > 256 ? dl + nl + 2 : 256;
      free(buf);
      buf = xmalloc(cap);
    }
    memcpy(buf, dir, dl);
    buf[dl] = '/';
    memcpy(buf + dl + 1, name, nl + 1);
    if (is_file(buf)) found = arena_strndup(a, buf, dl + 1 + nl);
  }
  free(buf);
  return found;
}

static CatFile *load_file(CatModel *m, const char *name, SrcPos from, Err *err);

/* Load the files included by a list of instructions, recursively. */
static void load_includes(CatModel *m, const InsList *l, Err *err) {
  for (int i = 0; i < l->n; i++) {
    Ins *in = l->v[i];
    switch (in->kind) {
    case I_INCLUDE:
      if (!in->included) in->included = load_file(m, in->str, in->pos, err);
      break;
    case I_IF_VARIANT:
      load_includes(m, &in->body, err);
      load_includes(m, &in->body2, err);
      break;
    case I_PROCEDURE:
    case I_FORALL:
      load_includes(m, &in->body, err);
      break;
    case I_MATCH_TAG:
      for (int k = 0; k < in->nclauses; k++)
        load_includes(m, &in->clauses[k].body, err);
      break;
    default:
      break;
    }
  }
}

/* Names the interpreter looks up by string at run time must exist in the
 * table before runs start (the table is read-only while running). */
static void intern_runtime_names(CatModel *m, const InsList *l) {
  for (int i = 0; i < l->n; i++) {
    const Ins *in = l->v[i];
    if (in->kind == I_ENUM)
      for (int k = 0; k < in->nnames; k++) {
        const char *t = intern_name(&m->names.in, in->names[k]);
        char buf[256];
        size_t n = strlen(t);
        if (n + 1 > sizeof buf) continue;
        memcpy(buf, t, n + 1);
        if (buf[0] >= 'a' && buf[0] <= 'z') buf[0] = (char)(buf[0] - 'a' + 'A');
        intern(&m->names.in, buf);
      }
    if (in->kind == I_IF_VARIANT) {
      intern_runtime_names(m, &in->body);
      intern_runtime_names(m, &in->body2);
    }
  }
}

/* Parse one file's text, which is in the model's arena already, and load
 * its includes.  (cat_parse keeps its own copy of the path.) */
static CatFile *parse_text(CatModel *m, const char *path, const char *text, Err *err) {
  CatFile *f = cat_parse(&m->arena, &m->names, err, path, text);
  m->files = xrealloc(m->files, sizeof(CatFile *) * (size_t)(m->nfiles + 1));
  m->files[m->nfiles++] = f;
  load_includes(m, &f->body, err);
  intern_runtime_names(m, &f->body);
  return f;
}

static CatFile *load_file(CatModel *m, const char *name, SrcPos from, Err *err) {
  /* A pasted model (corral serve) may include the library's files and
   * nothing else: a path is refused with the words of a missing file, so
   * that the answer says nothing of the files the server can read. */
  bool refused = m->confined && from.file && (strchr(name, '/') || name[0] == '.');
  const char *path = refused ? NULL : cat_find_file(name, m->search, m->nsearch, &m->arena);
  if (!path) {
    if (from.file) err_raise(err, ERRK_IO, from, "cannot find file %s", name);
    const char *why = path_not_file(name);
    if (why) err_raise(err, ERRK_IO, from, "%s %s, not a model file", name, why);
    StrBuf b;
    sb_init(&b);
    for (int i = 0; i < m->nsearch; i++) sb_printf(&b, "%s%s", i ? ":" : "", m->search[i]);
    char *dirs = arena_strdup(&m->arena, sb_cstr(&b));
    sb_free(&b);
    err_raise(err, ERRK_IO, from, "cannot find file %s (search path %s)", name, dirs);
  }
  for (int i = 0; i < m->nfiles; i++)
    if (strcmp(m->files[i]->path, path) == 0) return m->files[i];
  size_t len;
  char *text = read_file(path, &len);
  if (!text) err_raise(err, ERRK_IO, from, "cannot read %s: %s", path, read_file_error(errno));
  /* in the model's arena: a syntax error jumps out of parse_text (and of
   * the files it includes) and the text must not leak */
  char *t = arena_alloc(&m->arena, len + 1);
  memcpy(t, text, len + 1);
  free(text);
  if (strlen(t) != len)
    err_raise(err, ERRK_SYNTAX, text_pos(path, t, strlen(t)), "file contains a NUL byte");
  return parse_text(m, path, t, err);
}

static CatModel *load(const char *model_path, const char *model_text,
                      const char *bell_path, const char *const *search, int nsearch,
                      Err *err) {
  CatModel *m = xcalloc(1, sizeof(CatModel));
  arena_init(&m->arena);
  intern_init(&m->names.in);
  m->search = arena_alloc(&m->arena, sizeof(char *) * (size_t)(nsearch + 1));
  for (int i = 0; i < nsearch; i++) m->search[i] = arena_strdup(&m->arena, search[i]);
  m->nsearch = nsearch;
  m->confined = model_text != NULL;
  /* Names the engine and the primitives look up. */
  static const char *const wellknown[] = {"loc", "po", "rf", "co", "id"};
  for (size_t i = 0; i < ARRAY_LEN(wellknown); i++) intern(&m->names.in, wellknown[i]);
  ErrJmp j;
  err_push(err, &j);
  if (setjmp(j.jb) != 0) {
    cat_model_free(m);
    return NULL;
  }
  SrcPos none = {NULL, 0, 0};
  m->preludes = arena_zalloc(&m->arena, sizeof(CatFile *) * (size_t)(cat_prelude_count() + 1));
  for (int i = 0; i < cat_prelude_count(); i++)
    m->preludes[i] = parse_text(m, cat_prelude_name(i),
                                arena_strdup(&m->arena, cat_prelude_text(i)), err);
  m->stdlib = load_file(m, "stdlib.cat", none, err);
  if (bell_path) m->bell = load_file(m, bell_path, none, err);
  if (model_text) m->main = parse_text(m, model_path, arena_strdup(&m->arena, model_text), err);
  else if (model_path) m->main = load_file(m, model_path, none, err);
  err_pop(err, &j);
  return m;
}

CatModel *cat_load(const char *model_path, const char *bell_path,
                   const char *const *search, int nsearch, Err *err) {
  return load(model_path, NULL, bell_path, search, nsearch, err);
}

CatModel *cat_load_text(const char *name, const char *text, const char *bell_path,
                        const char *const *search, int nsearch, Err *err) {
  return load(name, text, bell_path, search, nsearch, err);
}

void cat_model_free(CatModel *m) {
  if (!m) return;
  free(m->files);
  intern_free(&m->names.in);
  arena_free(&m->arena);
  free(m);
}
