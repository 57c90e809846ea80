/*
 * dot_opts.c — the picture options (-graph, -show, -showevents, ...) and
 * their defaults, which are herd7's: cluster layout, executions that
 * satisfy the condition, every event but register accesses, initial
 * writes shown, edges reduced.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dot.h"

static const char *const layouts[] = {"free", "cluster", "columns", NULL};
static const char *const shows[] = {"prop", "neg", "all", "cond", "wit", "none", NULL};
static const char *const events[] = {"all", "mem", "noregs", "memf", NULL};
static const char *const formats[] = {"dot", "svg", "png", "pdf", NULL};
static const char *const splines[] = {"spline", "true", "line", "false", "polyline",
                                      "ortho", "curved", "none", NULL};

static int word_index(const char *const *w, const char *s) {
  for (int i = 0; w[i]; i++)
    if (!strcmp(w[i], s)) return i;
  return -1;
}

static bool is_bool_key(const char *k) {
  static const char *const b[] = {"showinitrf", "showfinalrf", "showinitwrites", "squished",
                                  "movelabel", "showthread", "showlegend", "showpo",
                                  "dumpes", "showkind", "shortlegend", "texmacros",
                                  "edgemerge", "showfr", "showobserved", NULL};
  return word_index(b, k) >= 0;
}

static bool is_number_key(const char *k) {
  static const char *const n[] = {"xscale", "yscale", "scale", "arrowsize", "penwidth",
                                  "pad", NULL};
  return word_index(n, k) >= 0;
}

static int bad(char **msg, const char *key, const char *arg, const char *expected) {
  size_t n = strlen(key) + strlen(arg) + strlen(expected) + 64;
  *msg = malloc(n);
  if (*msg) snprintf(*msg, n, "option -%s: wrong argument '%s' (expected %s)", key, arg, expected);
  return -1;
}

static bool parse_bool(const char *s, bool *out) {
  if (!strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "on")) *out = true;
  else if (!strcmp(s, "false") || !strcmp(s, "no") || !strcmp(s, "off")) *out = false;
  else return false;
  return true;
}

static bool parse_number(const char *s, double *out) {
  char *end;
  double v = strtod(s, &end);
  if (!*s || *end || !(v >= 0) || v > 1e6) return false;
  *out = v;
  return true;
}

static bool parse_int(const char *s, int *out) {
  char *end;
  long v = strtol(s, &end, 10);
  if (!*s || *end || v < 0 || v > 1000000) return false;
  *out = (int)v;
  return true;
}

/* REL,ATTR,VALUE with three non-empty parts. */
static bool split_attr(const char *s, char **rel, char **attr, char **value) {
  const char *c1 = strchr(s, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
  if (!c1 || !c2 || c1 == s || c2 == c1 + 1 || !c2[1]) return false;
  if (rel) {
    *rel = xstrdup(s);
    (*rel)[c1 - s] = 0;
    *attr = xstrdup(c1 + 1);
    (*attr)[c2 - c1 - 1] = 0;
    *value = xstrdup(c2 + 1);
  }
  return true;
}

int dot_opt_check(const char *key, const char *arg, char **msg) {
  bool b;
  double d;
  int i;
  *msg = NULL;
  if (!strcmp(key, "graph") && word_index(layouts, arg) < 0)
    return bad(msg, key, arg, "free, cluster or columns");
  if (!strcmp(key, "show") && word_index(shows, arg) < 0)
    return bad(msg, key, arg, "prop, neg, all, cond, wit or none");
  if (!strcmp(key, "showevents") && word_index(events, arg) < 0)
    return bad(msg, key, arg, "all, mem, noregs or memf");
  if (!strcmp(key, "graph-format") && word_index(formats, arg) < 0)
    return bad(msg, key, arg, "dot, svg, png or pdf");
  if (!strcmp(key, "splines") && word_index(splines, arg) < 0)
    return bad(msg, key, arg, "spline, line, polyline, ortho, curved, true, false or none");
  if (is_bool_key(key) && !parse_bool(arg, &b)) return bad(msg, key, arg, "true or false");
  if (is_number_key(key) && !parse_number(arg, &d)) return bad(msg, key, arg, "a number");
  if ((!strcmp(key, "nshow") || !strcmp(key, "fontsize")) && !parse_int(arg, &i))
    return bad(msg, key, arg, "a non-negative integer");
  if (!strcmp(key, "edgeattr") && !split_attr(arg, NULL, NULL, NULL))
    return bad(msg, key, arg, "REL,ATTRIBUTE,VALUE");
  if (!strcmp(key, "o") && !*arg) return bad(msg, key, arg, "a directory");
  return 0;
}

void dot_opts_init(DotOpts *o) {
  memset(o, 0, sizeof *o);
  o->layout = DOT_CLUSTER;
  o->show = DOT_SHOW_PROP;
  o->events = DOT_EV_NOREGS;
  o->showinitwrites = true;
  o->showthread = true;
  o->showlegend = true;
  o->showpo = true;
  o->scale = o->xscale = o->yscale = 1.0;
}

static void free_list(char **v, int n) {
  for (int i = 0; i < n; i++) free(v[i]);
  free(v);
}

const char *dot_show_name(const DotOpts *o) { return shows[o->show]; }

void dot_opts_free(DotOpts *o) {
  free(o->dir);
  free(o->splines);
  free(o->suffix);
  free_list(o->doshow, o->ndoshow);
  free_list(o->unshow, o->nunshow);
  free_list(o->showraw, o->nshowraw);
  for (int i = 0; i < o->nattrs; i++) {
    free(o->attrs[i].rel);
    free(o->attrs[i].attr);
    free(o->attrs[i].value);
  }
  free(o->attrs);
  memset(o, 0, sizeof *o);
}

static void push_names(char ***v, int *n, const char *list) {
  char *s = xstrdup(list);
  char *save = NULL; /* strtok_r: tests run in parallel threads */
  for (char *tok = strtok_r(s, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
    *v = xrealloc(*v, sizeof(char *) * (size_t)(*n + 1));
    (*v)[(*n)++] = xstrdup(tok);
  }
  free(s);
}

bool dot_opt_is_dir(const char *key) { return !strcmp(key, "o"); }

bool dot_opt_apply(DotOpts *o, const char *key, const char *arg) {
  bool b = false;
  double d = 0;
  if (is_bool_key(key)) parse_bool(arg, &b);
  if (is_number_key(key)) parse_number(arg, &d);
  if (dot_opt_is_dir(key)) {
    free(o->dir);
    o->dir = xstrdup(arg);
  } else if (!strcmp(key, "graph")) o->layout = (DotLayout)word_index(layouts, arg);
  else if (!strcmp(key, "show")) o->show = (DotShow)word_index(shows, arg);
  else if (!strcmp(key, "showevents")) o->events = (DotEvents)word_index(events, arg);
  else if (!strcmp(key, "graph-format")) o->format = (DotFormat)word_index(formats, arg);
  else if (!strcmp(key, "nshow")) parse_int(arg, &o->nshow);
  else if (!strcmp(key, "fontsize")) parse_int(arg, &o->fontsize);
  else if (!strcmp(key, "showinitrf")) o->showinitrf = b;
  else if (!strcmp(key, "showfinalrf")) o->showfinalrf = b;
  else if (!strcmp(key, "showinitwrites")) o->showinitwrites = b;
  else if (!strcmp(key, "squished")) o->squished = b;
  else if (!strcmp(key, "movelabel")) o->movelabel = b;
  else if (!strcmp(key, "showthread")) o->showthread = b;
  else if (!strcmp(key, "showlegend")) o->showlegend = b;
  else if (!strcmp(key, "showpo")) o->showpo = b;
  else if (!strcmp(key, "dumpes")) o->dumpes = b;
  else if (!strcmp(key, "scale")) o->scale = d;
  else if (!strcmp(key, "xscale")) o->xscale = d;
  else if (!strcmp(key, "yscale")) o->yscale = d;
  else if (!strcmp(key, "arrowsize")) o->arrowsize = d;
  else if (!strcmp(key, "penwidth")) o->penwidth = d;
  else if (!strcmp(key, "pad")) o->pad = d;
  else if (!strcmp(key, "splines")) {
    free(o->splines);
    o->splines = xstrdup(arg);
  } else if (!strcmp(key, "suffix")) {
    free(o->suffix);
    o->suffix = xstrdup(arg);
  } else if (!strcmp(key, "doshow")) push_names(&o->doshow, &o->ndoshow, arg);
  else if (!strcmp(key, "unshow")) push_names(&o->unshow, &o->nunshow, arg);
  else if (!strcmp(key, "showraw") || !strcmp(key, "symetric"))
    push_names(&o->showraw, &o->nshowraw, arg);
  else if (!strcmp(key, "edgeattr")) {
    DotEdgeAttr a;
    if (!split_attr(arg, &a.rel, &a.attr, &a.value)) return true;
    o->attrs = xrealloc(o->attrs, sizeof(DotEdgeAttr) * (size_t)(o->nattrs + 1));
    o->attrs[o->nattrs++] = a;
  } else return false;
  return true;
}
