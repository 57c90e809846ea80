/*
 * options.c — herd7's command-line options and configuration files.
 *
 * Each option is a table row: its name, whether it takes an argument, and
 * how to apply it.  A configuration file (-conf) is a list of lines
 * "key arg" or "key = arg" applied exactly as "-key arg" would be, in
 * order (cat.md §8), so options after -conf override it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "corral.h"
#include "options.h"
#include "../report/dot.h"

typedef int (*OptFn)(corral_options *o, const char *name, const char *arg, char **msg);

static int fail(char **msg, const char *fmt, const char *a, const char *b) {
  size_t n = strlen(fmt) + strlen(a) + (b ? strlen(b) : 0) + 1;
  free(*msg); /* a more precise message may replace a helper's */
  *msg = xmalloc(n);
  snprintf(*msg, n, fmt, a, b ? b : "");
  return -1;
}

static int parse_bool(const char *name, const char *arg, bool *out, char **msg) {
  if (!strcmp(arg, "true") || !strcmp(arg, "yes") || !strcmp(arg, "on")) *out = true;
  else if (!strcmp(arg, "false") || !strcmp(arg, "no") || !strcmp(arg, "off")) *out = false;
  else return fail(msg, "option %s: wrong argument '%s' (expected true or false)", name, arg);
  return 0;
}

static void set_str(char **dst, const char *v) {
  free(*dst);
  *dst = xstrdup(v);
}

static void push_list(char ***v, int *n, const char *list) {
  char *s = xstrdup(list);
  for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
    while (*tok == ' ') tok++;
    size_t l = strlen(tok);
    while (l && tok[l - 1] == ' ') tok[--l] = 0;
    if (!*tok) continue;
    *v = xrealloc(*v, sizeof(char *) * (size_t)(*n + 1));
    (*v)[(*n)++] = xstrdup(tok);
  }
  free(s);
}

static int o_model(corral_options *o, const char *n, const char *a, char **m) {
  (void)n, (void)m;
  set_str(&o->model, a);
  return 0;
}
static int o_bell(corral_options *o, const char *n, const char *a, char **m) {
  (void)n, (void)m;
  set_str(&o->bell, a);
  return 0;
}
static int o_macros(corral_options *o, const char *n, const char *a, char **m) {
  (void)n, (void)m;
  set_str(&o->macros, a);
  return 0;
}
static int o_include(corral_options *o, const char *n, const char *a, char **m) {
  (void)n, (void)m;
  push_list(&o->includes, &o->nincludes, a);
  return 0;
}
static int o_libdir(corral_options *o, const char *n, const char *a, char **m) {
  (void)n, (void)m;
  set_str(&o->libdir, a);
  return 0;
}
static int o_variant(corral_options *o, const char *n, const char *a, char **m) {
  (void)n, (void)m;
  int first = o->nvariants;
  push_list(&o->variants, &o->nvariants, a);
  for (int i = first; i < o->nvariants; i++)
    for (char *q = o->variants[i]; *q; q++) *q = (char)tolower((unsigned char)*q);
  return 0;
}
static int o_skip(corral_options *o, const char *n, const char *a, char **m) {
  (void)n, (void)m;
  push_list(&o->skipchecks, &o->nskip, a);
  return 0;
}
static int o_through(corral_options *o, const char *n, const char *a, char **m) {
  if (!strcmp(a, "none")) o->through = THROUGH_NONE;
  else if (!strcmp(a, "all")) o->through = THROUGH_ALL;
  else if (!strcmp(a, "invalid")) o->through = THROUGH_INVALID;
  else return fail(m, "option %s: wrong argument '%s' (expected all, invalid or none)", n, a);
  return 0;
}
static int o_speedcheck(corral_options *o, const char *n, const char *a, char **m) {
  if (!strcmp(a, "fast")) {
    o->speedcheck = SPEED_FAST;
    return 0;
  }
  bool b;
  if (parse_bool(n, a, &b, m)) return fail(m, "option %s: wrong argument '%s' (expected true, false or fast)", n, a);
  o->speedcheck = b ? SPEED_TRUE : SPEED_FALSE;
  return 0;
}
static int o_unroll(corral_options *o, const char *n, const char *a, char **m) {
  char *end;
  errno = 0;
  long v = strtol(a, &end, 10);
  if (*a == 0 || *end || v < 0 || v > 1000 || errno)
    return fail(m, "option %s: wrong argument '%s' (expected a small integer)", n, a);
  o->unroll = (int)v;
  return 0;
}
static int o_maxcand(corral_options *o, const char *n, const char *a, char **m) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(a, &end, 10);
  /* (strtoull takes "-1" as the largest number) */
  if (*a == 0 || *end || errno || strchr(a, '-'))
    return fail(m, "option %s: wrong argument '%s' (expected a number of candidates)", n, a);
  o->maxcandidates = v;
  return 0;
}
static int o_jobs(corral_options *o, const char *n, const char *a, char **m) {
  char *end;
  long v = strtol(a, &end, 10);
  if (*a == 0 || *end || v < 1 || v > 64)
    return fail(m, "option %s: wrong argument '%s' (expected 1 to 64)", n, a);
  o->jobs = (int)v;
  return 0;
}

static int o_timeout(corral_options *o, const char *n, const char *a, char **m) {
  char *end;
  double v = strtod(a, &end);
  if (*a == 0 || *end || !(v > 0) || v > 1e9) /* nan, inf and 0 too */
    return fail(m, "option %s: wrong argument '%s' (expected a positive number of seconds)", n, a);
  o->timeout = v;
  return 0;
}
unsigned long long corral_memory_bound(const corral_options *o) { return o->maxmemory << 20; }

static int o_maxmemory(corral_options *o, const char *n, const char *a, char **m) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(a, &end, 10);
  if (*a == 0 || *end || errno || strchr(a, '-') || v < 16 || v > (1ULL << 30))
    return fail(m, "option %s: wrong argument '%s' (expected MiB, at least 16)", n, a);
  o->maxmemory = v;
  return 0;
}
static int o_bool_field(corral_options *o, const char *n, const char *a, char **m) {
  bool b;
  if (parse_bool(n, a, &b, m)) return -1;
  if (!strcmp(n, "-checkfilter")) o->checkfilter = b;
  else if (!strcmp(n, "-archcheck")) o->archcheck = b;
  else if (!strcmp(n, "-hexa")) o->hexa = b;
  else if (!strcmp(n, "-candidates")) o->candidates = b;
  else if (!strcmp(n, "-natives")) o->natives = b;
  else if (!strcmp(n, "-strictskip")) o->strictskip = b;
  return 0;
}
/* Accepted for compatibility; they do not change results (see README). */
static int o_accept_bool(corral_options *o, const char *n, const char *a, char **m) {
  bool b;
  (void)o;
  return parse_bool(n, a, &b, m);
}
static int o_optace(corral_options *o, const char *n, const char *a, char **m) {
  (void)o;
  if (!strcmp(a, "iico") || !strcmp(a, "true") || !strcmp(a, "false")) return 0;
  return fail(m, "option %s: wrong argument '%s' (expected true, false or iico)", n, a);
}
static int o_display(corral_options *o, const char *n, const char *a, char **m) {
  if (a && dot_opt_check(n + 1, a, m)) return -1;
  o->display = xrealloc(o->display, sizeof(DisplayOpt) * (size_t)(o->ndisplay + 1));
  o->display[o->ndisplay].key = xstrdup(n + 1);
  o->display[o->ndisplay].value = xstrdup(a ? a : "");
  o->ndisplay++;
  return 0;
}
static int o_verbose(corral_options *o, const char *n, const char *a, char **m) {
  (void)n, (void)a, (void)m;
  o->verbose++;
  return 0;
}
static int o_quiet(corral_options *o, const char *n, const char *a, char **m) {
  (void)n, (void)a, (void)m;
  o->verbose = -1;
  return 0;
}
/* -explain takes no argument on the command line; `explain true` in a
 * configuration file passes one. */
static int o_explain(corral_options *o, const char *n, const char *a, char **m) {
  bool b = true;
  if (a && parse_bool(n, a, &b, m)) return -1;
  if (!strcmp(n, "-explain-all")) o->explain_all = b;
  if (b || !strcmp(n, "-explain")) o->explain = b;
  return 0;
}
static int o_explain_format(corral_options *o, const char *n, const char *a, char **m) {
  if (!strcmp(a, "text")) o->explain_format = 0;
  else if (!strcmp(a, "json")) o->explain_format = 1;
  else return fail(m, "option %s: wrong argument '%s' (expected text or json)", n, a);
  return 0;
}
static int o_format(corral_options *o, const char *n, const char *a, char **m) {
  if (!strcmp(a, "herd") || !strcmp(a, "text")) o->format = FORMAT_HERD;
  else if (!strcmp(a, "json")) o->format = FORMAT_JSON;
  else if (!strcmp(a, "tsv")) o->format = FORMAT_TSV;
  else return fail(m, "option %s: wrong argument '%s' (expected herd, json or tsv)", n, a);
  return 0;
}
static int o_conf(corral_options *o, const char *n, const char *a, char **m);

typedef struct OptDef {
  const char *name;
  int arity;
  OptFn fn;
} OptDef;

static const OptDef opts[] = {
    {"-model", 1, o_model},          {"-cat", 1, o_model},
    {"-bell", 1, o_bell},            {"-macros", 1, o_macros},
    {"-conf", 1, o_conf},            {"-I", 1, o_include},
    {"-set-libdir", 1, o_libdir},    {"-variant", 1, o_variant},
    {"-skipchecks", 1, o_skip},      {"-skipcheck", 1, o_skip},
    {"-through", 1, o_through},      {"-speedcheck", 1, o_speedcheck},
    {"-unroll", 1, o_unroll},        {"-maxcandidates", 1, o_maxcand},
    {"-timeout", 1, o_timeout},      {"-maxmemory", 1, o_maxmemory},      {"-j", 1, o_jobs},      {"-checkfilter", 1, o_bool_field},
    {"-archcheck", 1, o_bool_field}, {"-hexa", 1, o_bool_field},
    {"-candidates", 1, o_bool_field},{"-strictskip", 1, o_bool_field},
    {"-natives", 1, o_bool_field},
    {"-initwrites", 1, o_accept_bool}, {"-badexecs", 1, o_accept_bool},
    {"-optace", 1, o_optace},        {"-v", 0, o_verbose},
    {"-q", 0, o_quiet},
    {"-explain", 0, o_explain},      {"-explain-all", 0, o_explain},
    {"-explain-format", 1, o_explain_format},
    {"-format", 1, o_format},
    /* pictures (used by the graph writer) */
    {"-o", 1, o_display},            {"-graph", 1, o_display},
    {"-show", 1, o_display},         {"-nshow", 1, o_display},
    {"-showevents", 1, o_display},   {"-doshow", 1, o_display},
    {"-unshow", 1, o_display},       {"-showinitrf", 1, o_display},
    {"-showfinalrf", 1, o_display},  {"-showinitwrites", 1, o_display},
    {"-squished", 1, o_display},     {"-edgeattr", 1, o_display},
    {"-fontsize", 1, o_display},     {"-xscale", 1, o_display},
    {"-yscale", 1, o_display},       {"-scale", 1, o_display},
    {"-splines", 1, o_display},      {"-pad", 1, o_display},
    {"-arrowsize", 1, o_display},    {"-movelabel", 1, o_display},
    {"-penwidth", 1, o_display},     {"-showlegend", 1, o_display},
    {"-showkind", 1, o_display},     {"-shortlegend", 1, o_display},
    {"-showthread", 1, o_display},   {"-texmacros", 1, o_display},
    {"-dotmode", 1, o_display},      {"-dotcom", 1, o_display},
    {"-symetric", 1, o_display},     {"-showraw", 1, o_display},
    {"-edgemerge", 1, o_display},    {"-showpo", 1, o_display},
    {"-dumpes", 1, o_display},       {"-restrict", 1, o_display},
    {"-showfr", 1, o_display},       {"-showobserved", 1, o_display},
    {"-graph-format", 1, o_display}, {"-suffix", 1, o_display},
};

static const OptDef *find_opt(const char *name) {
  for (size_t i = 0; i < ARRAY_LEN(opts); i++)
    if (!strcmp(opts[i].name, name)) return &opts[i];
  return NULL;
}

int corral_option_arity(const char *name) {
  const OptDef *d = find_opt(name);
  return d ? d->arity : -1;
}

const char *corral_option_suggest(const char *name) {
  const char *names[ARRAY_LEN(opts)];
  for (size_t i = 0; i < ARRAY_LEN(opts); i++) names[i] = opts[i].name;
  return closest_name(name, names, (int)ARRAY_LEN(opts));
}

int corral_option(corral_options *o, const char *name, const char *arg, char **msg) {
  const OptDef *d = find_opt(name);
  *msg = NULL;
  if (!d) return fail(msg, "%s: unknown option%s", name, NULL);
  if (d->arity && !arg) return fail(msg, "option %s needs an argument%s", name, NULL);
  return d->fn(o, name, arg, msg);
}

/* Find a configuration file like a model file: current directory, -I
 * directories, $HERDLIB, then the library. */
static char *find_conf(const corral_options *o, const char *name) {
  Arena a;
  arena_init(&a);
  const char *dirs[64];
  int n = 0;
  dirs[n++] = ".";
  for (int i = 0; i < o->nincludes && n < 60; i++) dirs[n++] = o->includes[i];
  const char *h = getenv("HERDLIB");
  if (h && *h) dirs[n++] = h;
  dirs[n++] = o->libdir;
  const char *p = cat_find_file(name, dirs, n, &a);
  char *r = p ? xstrdup(p) : NULL;
  arena_free(&a);
  return r;
}

static int o_conf(corral_options *o, const char *n, const char *a, char **m) {
  (void)n;
  if (o->conf_depth > 16)
    return fail(m, "configuration files nested too deeply (a cycle through %s?)%s", a, NULL);
  char *path = find_conf(o, a);
  const char *why = path ? NULL : path_not_file(a);
  if (why) return fail(m, "%s %s, not a configuration file", a, why);
  if (!path) return fail(m, "Cannot find file %s%s", a, NULL);
  size_t len;
  char *text = read_file(path, &len);
  if (!text) {
    int e = errno;
    free(path);
    return fail(m, "cannot read %s: %s", a, read_file_error(e));
  }
  o->conf_depth++;
  int rc = 0, line = 0;
  for (char *s = text; *s && rc == 0;) {
    char *eol = strchr(s, '\n');
    if (eol) *eol = 0;
    line++;
    char *k = s;
    while (*k == ' ' || *k == '\t') k++;
    size_t l = strlen(k);
    while (l && (k[l - 1] == ' ' || k[l - 1] == '\t' || k[l - 1] == '\r')) k[--l] = 0;
    if (*k && *k != '#') {
      char *v = k;
      while (*v && isalpha((unsigned char)*v)) v++;
      char *kend = v;
      while (*v == ' ' || *v == '\t') v++;
      if (*v == '=') {
        v++;
        while (*v == ' ' || *v == '\t') v++;
      }
      char key[128];
      size_t kl = (size_t)(kend - k);
      if (kl == 0 || kl > sizeof key - 2) {
        char where[200];
        snprintf(where, sizeof where, "%s:%d:%d", path, line, (int)(k - s) + 1);
        rc = fail(m, "%s: error: expected 'key value', found '%.60s'", where, k);
        break;
      }
      key[0] = '-';
      memcpy(key + 1, k, kl);
      key[kl + 1] = 0;
      const OptDef *d = find_opt(key);
      if (!d) {
        char where[200];
        snprintf(where, sizeof where, "%s:%d:1", path, line);
        const char *hint = corral_option_suggest(key);
        char text_[400];
        snprintf(text_, sizeof text_, "%s: error: unknown configuration key '%s'", where, key + 1);
        if (hint) rc = fail(m, "%s (did you mean '%s'?)", text_, hint + 1);
        else rc = fail(m, "%s%s", text_, NULL);
        break;
      }
      if (d->arity == 1 && !*v) {
        char where[200];
        snprintf(where, sizeof where, "%s:%d:1", path, line);
        rc = fail(m, "%s: error: configuration key '%s' needs an argument", where, key + 1);
        break;
      }
      rc = d->fn(o, key, *v ? v : NULL, m);
      if (rc && *m && !strstr(*m, ": error: ")) {
        /* a bad argument: say where it is written (a message that has a
         * position already comes from a nested file) */
        char *inner = *m;
        char where[200];
        snprintf(where, sizeof where, "%s:%d:%d", path, line, (int)(v - s) + 1);
        *m = NULL; /* fail would free it; inner is still read */
        rc = fail(m, "%s: error: %s", where, inner);
        free(inner);
      }
    }
    if (!eol) break;
    s = eol + 1;
  }
  o->conf_depth--;
  free(text);
  free(path);
  return rc;
}

const char *corral_usage(void) {
  return "usage: corral [options] file.litmus ...\n"
         "  -model FILE (-cat FILE)  cat model (default: the architecture's)\n"
         "  -bell FILE               bell file, run before the model\n"
         "  -macros FILE             C macro definitions (.def)\n"
         "  -conf FILE               configuration file (lines \"key arg\")\n"
         "  -I DIR                   add DIR to the search path\n"
         "  -set-libdir DIR          library directory (default: corral's models)\n"
         "  -variant V1,V2           set model variants\n"
         "  -through all|invalid|none  let failing checks through\n"
         "  -skipchecks N1,N2        treat the named checks as passing\n"
         "  -speedcheck true|false|fast  only look for the condition\n"
         "  -unroll N                loop unrolling bound (default 2)\n"
         "  -hexa true|false         print values in hexadecimal\n"
         "  -candidates true|false   print the number of candidates\n"
         "  -maxcandidates N, -timeout SECS  bounds per test\n"
         "  -maxmemory MIB           bound of the process's memory (address space)\n"
         "  -j N                     worker threads (default: online cores)\n"
         "  -explain                 say which check forbids the condition, and why,\n"
         "                           or how an execution reaches it\n"
         "  -explain-all             explain every rejected execution, not one per check\n"
         "  -explain-format text|json  how to print explanations\n"
         "  -format herd|json|tsv    results as herd7's text (default), one JSON\n"
         "                           object or one tab-separated line per test\n"
         "  -o DIR                   write execution graphs to DIR/NAME.dot (NAME: the\n"
         "                           file's name without .litmus; -suffix S adds S)\n"
         "  -graph free|cluster|columns, -show prop|neg|all|cond|wit|none, -nshow N,\n"
         "  -showevents all|mem|noregs|memf, -doshow R, -unshow R, -squished B ...\n"
         "                           what the graphs show and how (see README)\n"
         "  -graph-format dot|svg|png|pdf  also render them with graphviz's dot\n"
         "  -version, -help\n";
}
