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
static int o_maxphantom(corral_options *o, const char *n, const char *a, char **m) {
  char *end;
  errno = 0;
  long v = strtol(a, &end, 10);
  if (*a == 0 || *end || errno)
    return fail(m, "option %s: wrong argument '%s' (expected an integer)", n, a);
  o->has_maxphantom = true;
  o->maxphantom = v;
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
  else if (!strcmp(n, "-dumpallfaults")) o->dumpallfaults = b;
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

/* Options the corral command acts on itself (-exit, -view, -names,
 * -excl) and notes about options without effect in corral, kept with
 * the picture options under keys starting with '=' (which the graph
 * writer ignores): corral_option_nth reads them. */
static void keep(corral_options *o, const char *key, const char *value) {
  o->display = xrealloc(o->display, sizeof(DisplayOpt) * (size_t)(o->ndisplay + 1));
  o->display[o->ndisplay].key = xmalloc(strlen(key) + 2);
  sprintf(o->display[o->ndisplay].key, "=%s", key);
  o->display[o->ndisplay].value = xstrdup(value);
  o->ndisplay++;
}

const char *corral_option_nth(const corral_options *o, const char *key, int i) {
  for (int k = 0; k < o->ndisplay; k++) {
    const char *dk = o->display[k].key;
    if (!strcmp(dk[0] == '=' ? dk + 1 : dk, key) && i-- == 0) return o->display[k].value;
  }
  return NULL;
}

const char *corral_options_libdir(const corral_options *o) { return o->libdir; }

/* The argument's form in the table ("<bool>", "<int>", "<float>")
 * checked as herd7's parser checks it. */
static int check_arg(const char *form, const char *n, const char *a, char **m) {
  if (!form || !a) return 0;
  char *end;
  if (!strcmp(form, "<bool>")) {
    bool b;
    return parse_bool(n, a, &b, m);
  }
  if (!strcmp(form, "<int>")) {
    errno = 0;
    (void)strtol(a, &end, 10);
    if (!*a || *end || errno) return fail(m, "option %s: wrong argument '%s' (expected an integer)", n, a);
  }
  if (!strcmp(form, "<float>")) {
    (void)strtod(a, &end);
    if (!*a || *end) return fail(m, "option %s: wrong argument '%s' (expected a number)", n, a);
  }
  return 0;
}

static const struct OptDef *find_opt(const char *name);

/* -exit, -names, -excl: kept for the corral command. */
static int o_program(corral_options *o, const char *n, const char *a, char **m) {
  if (!strcmp(n, "-exit")) {
    bool b;
    if (parse_bool(n, a, &b, m)) return -1;
    keep(o, "exit", b ? "true" : "false");
    return 0;
  }
  keep(o, n + 1, a);
  return 0;
}
/* -view V, and its aliases -gv, -evince, -preview */
static int o_view(corral_options *o, const char *n, const char *a, char **m) {
  const char *v = a ? a : n + 1;
  if (strcasecmp(v, "gv") && strcasecmp(v, "evince") && strcasecmp(v, "preview"))
    return fail(m, "option %s: wrong argument '%s' (expected gv, evince or preview)", n, v);
  keep(o, "view", v);
  return 0;
}
/* -web, -c11: herd7's aliases for a configuration file. */
static int o_conf_alias(corral_options *o, const char *n, const char *a, char **m) {
  (void)a;
  return o_conf(o, "-conf", !strcmp(n, "-web") ? "web.cfg" : "cpp11.cfg", m);
}
/* -showone B: herd7's alias for -nshow 1 when B is true. */
static int o_showone(corral_options *o, const char *n, const char *a, char **m) {
  bool b;
  if (parse_bool(n, a, &b, m)) return -1;
  return b ? o_display(o, "-nshow", "1", m) : 0;
}

typedef struct OptDef {
  const char *name;
  int arity;
  OptFn fn;
  const char *arg;   /* its argument in -help ("<file>"), or NULL */
  const char *help;  /* one line; for IGNORED and REFUSED, what herd7 does */
} OptDef;

/* Options that cannot apply to corral.  IGNORED ones concern herd7's
 * pictures or diagnostics only: corral says so in one line and goes on.
 * REFUSED ones would change the results: corral stops rather than print
 * results herd7 would not (an argument that asks for herd7's default is
 * accepted silently). */
static int o_ignored(corral_options *o, const char *n, const char *a, char **m);
static int o_refused(corral_options *o, const char *n, const char *a, char **m);
#define IGNORED o_ignored
#define REFUSED o_refused

/* One table for parsing, -help, the manual page (corral.1, made from
 * -help) and README's table of every option (tests/options-table.sh).
 * Rows with a NULL name are headings. */
static const OptDef opts[] = {
    {NULL, 0, NULL, NULL, "Basic"},
    {"-version", 0, NULL, NULL, "show the version and exit"},
    {"-libdir", 0, NULL, NULL, "show the library directory and exit"},
    {"-set-libdir", 1, o_libdir, "<dir>", "the library directory (default: corral's models/)"},
    {"-v", 0, o_verbose, NULL, "more diagnostics"},
    {"-q", 0, o_quiet, NULL, "no diagnostics"},
    {"-I", 1, o_include, "<dir>", "add <dir> to the search path (+dir: relative to the library)"},
    {"-exit", 1, o_program, "<bool>", "stop at the first test that fails, with exit status 1 (default false: go on, status 0)"},
    {"-timeout", 1, o_timeout, "<float>", "stop a test after this many seconds of CPU time"},
    {"-conf", 1, o_conf, "<file>", "read configuration file <file> (lines \"key value\", each the option -key value)"},
    {"-bell", 1, o_bell, "<file>", "read bell file <file>, run before the model"},
    {"-macros", 1, o_macros, "<file>", "C tests: read macro (.def) file <file>"},
    {"-o", 1, o_display, "<dir>", "write execution graphs to <dir>/NAME.dot (NAME: the file's name without .litmus)"},
    {"-suffix", 1, o_display, "<suf>", "add <suf> to the base name of those files"},
    {"-dumpes", 1, o_display, "<bool>", "graph the event structures instead of the executions"},
    {"-view", 1, o_view, "<gv|evince|preview>", "show the graphs with this viewer (when it is installed)"},
    {"-gv", 0, o_view, NULL, "same as -view gv"},
    {"-evince", 0, o_view, NULL, "same as -view evince"},
    {"-preview", 0, o_view, NULL, "same as -view preview"},
    {"-unroll", 1, o_unroll, "<int>", "loop unrolling bound (default 2; a test's Unroll= line overrides)"},
    {"-hexa", 1, o_bool_field, "<bool>", "print values in hexadecimal"},
    {"-switch", 0, IGNORED, NULL, "herd7's internal switch for experiments"},
    {"-web", 0, o_conf_alias, NULL, "same as -conf web.cfg (pictures for web pages)"},
    {"-c11", 0, o_conf_alias, NULL, "same as -conf cpp11.cfg"},
    {"-debug", 1, IGNORED, "<tags>", "herd7's debug traces"},
    {"-morefences", 1, o_accept_bool, "<bool>", "does nothing (deprecated in herd7 too)"},
    {NULL, 0, NULL, NULL, "Engine"},
    {"-model", 1, o_model, "<file.cat>", "the cat model (default: the architecture's)"},
    {"-cat", 1, o_model, "<file.cat>", "same as -model"},
    {"-through", 1, o_through, "<all|invalid|none>", "let executions through failing checks (default none)"},
    {"-throughflag", 1, REFUSED, "<flag>", "let through the executions with this flag, and only those"},
    {"-skipcheck", 1, o_skip, "<name>", "treat the named check as passing, cumulates"},
    {"-skipchecks", 1, o_skip, "<name,...>", "treat the named checks as passing, cumulates"},
    {"-strictskip", 1, o_bool_field, "<bool>", "keep the outcomes allowed by all skipped checks"},
    {"-cycles", 1, IGNORED, "<name,...>", "herd7: draw failing checks as cycles (corral: see -explain)"},
    {"-variant", 1, o_variant, "<tag,...>", "set model variants (tested by if \"tag\" in cat)"},
    {"-machsize", 1, REFUSED, "<tag>", "the basic machine size"},
    {"-endian", 1, REFUSED, "<little|big>", "endianness"},
    {"-archcheck", 1, o_bool_field, "<bool>", "check that the model's architecture is the test's"},
    {"-optace", 1, o_optace, "<true|false|iico>", "optimise candidate generation (no effect on results)"},
    {"-initwrites", 1, o_accept_bool, "<bool>", "initial writes as events (always so in corral)"},
    {"-show", 1, o_display, "<prop|neg|all|cond|wit|none>", "executions drawn in graphs (default prop)"},
    {"-showflag", 1, IGNORED, "<flag>", "draw the executions with this flag"},
    {"-speedcheck", 1, o_speedcheck, "<true|false|fast>", "look for the condition only, not every final state"},
    {"-nshow", 1, o_display, "<int>", "draw at most this many executions"},
    {"-badexecs", 1, o_accept_bool, "<bool>", "print the results of tests with bad executions (default true)"},
    {"-badflag", 1, REFUSED, "<flag>", "the executions with this flag are bad"},
    {"-checkfilter", 1, o_bool_field, "<bool>", "honour the test's filter (default true)"},
    {"-showone", 1, o_showone, "<bool>", "same as -nshow 1 when true"},
    {"-maxphantom", 1, o_maxphantom, "<int>", "at most this many spurious updates of access flags (TTHM=) per execution"},
    {"-statelessrc11", 1, REFUSED, "<bool>", "stateless RC11 model checking"},
    {"-dumpallfaults", 1, o_bool_field, "<bool>", "final states show every fault, not only those the test observes"},
    {NULL, 0, NULL, NULL, "Graphs"},
    {"-graph", 1, o_display, "<free|cluster|columns>", "layout: loose, a box per thread (default), a column per thread"},
    {"-dotmode", 1, o_display, "<plain|fig>", "text of dot files (no effect on corral's graphs)"},
    {"-dotcom", 1, o_display, "<dot|neato|circo>", "graphviz command for the pictures (no effect on corral's .dot files)"},
    {"-showevents", 1, o_display, "<all|mem|noregs|memf>", "events drawn (default noregs)"},
    {"-mono", 1, IGNORED, "<bool>", "monochrome graphs"},
    {"-scale", 1, o_display, "<float>", "scale factor of graphs"},
    {"-xscale", 1, o_display, "<float>", "scale factor, x direction"},
    {"-yscale", 1, o_display, "<float>", "scale factor, y direction"},
    {"-dsiy", 1, IGNORED, "<float>", "vertical shift of events of one instruction"},
    {"-siwidth", 1, IGNORED, "<float>", "width of the events of one instruction"},
    {"-ptscale", 1, IGNORED, "<float>", "scale factor of points"},
    {"-boxscale", 1, IGNORED, "<float>", "scale factor of box widths"},
    {"-showthread", 1, o_display, "<bool>", "thread names in graphs"},
    {"-shift", 1, IGNORED, "<float,...>", "vertical space at the start of each thread (columns)"},
    {"-edgemerge", 1, o_display, "<bool>", "merge edges, cppmem style (no effect on corral's graphs)"},
    {"-labelinit", 1, IGNORED, "<bool>", "labels on the initial-state node"},
    {"-showlegend", 1, o_display, "<bool>", "a legend in graphs"},
    {"-showkind", 1, o_display, "<bool>", "the test's kind in legends"},
    {"-showfr", 1, o_display, "<bool>", "fr edges (older herd7; no effect on corral's graphs)"},
    {"-shortlegend", 1, o_display, "<bool>", "only the test's name in legends"},
    {"-squished", 1, o_display, "<bool>", "less text in graph nodes"},
    {"-fixedsize", 1, IGNORED, "<bool>", "fixed-size nodes"},
    {"-extrachars", 1, IGNORED, "<float>", "extra space in node widths"},
    {"-showobserved", 1, o_display, "<bool>", "highlight observed reads (no effect on corral's graphs)"},
    {"-brackets", 1, IGNORED, "<bool>", "brackets around locations"},
    {"-texmacros", 1, o_display, "<bool>", "LaTeX commands in output (no effect on corral's graphs)"},
    {"-tikz", 1, IGNORED, "<bool>", "dot files for TikZ"},
    {"-showpo", 1, o_display, "<bool>", "po edges"},
    {"-showinitrf", 1, o_display, "<bool>", "rf edges from the initial state"},
    {"-showfinalrf", 1, o_display, "<bool>", "rf edges to the final state"},
    {"-initrfpos", 1, IGNORED, "<x,y>", "position of the initial-state node of rf edges"},
    {"-finalrfpos", 1, IGNORED, "<x,y>", "position of the final-state node of rf edges"},
    {"-oneinit", 1, IGNORED, "<bool>", "one node for all initial writes"},
    {"-initpos", 1, IGNORED, "<x,y>", "position of that node"},
    {"-showinitwrites", 1, o_display, "<bool>", "initial writes (default true)"},
    {"-threadposy", 1, IGNORED, "<float>", "vertical position of thread names"},
    {"-doshow", 1, o_display, "<rel,...>", "also draw these relations"},
    {"-unshow", 1, o_display, "<rel,...>", "do not draw these relations"},
    {"-symetric", 1, o_display, "<rel,...>", "these relations are symmetric: drawn undirected"},
    {"-noid", 1, IGNORED, "<rel,...>", "like -symetric, and without identity edges"},
    {"-classes", 1, IGNORED, "<rel>", "draw the classes of this equivalence"},
    {"-showraw", 1, o_display, "<rel,...>", "draw these relations whole (no transitive reduction)"},
    {"-splines", 1, o_display, "<spline|line|polyline|ortho|curved|true|false|none>", "graphviz splines attribute"},
    {"-margin", 1, IGNORED, "<float>", "graphviz margin attribute"},
    {"-pad", 1, o_display, "<float>", "graphviz pad attribute"},
    {"-sep", 1, IGNORED, "<string>", "graphviz sep attribute"},
    {"-fontname", 1, IGNORED, "<string>", "graphviz fontname attribute"},
    {"-fontsize", 1, o_display, "<int>", "graphviz fontsize attribute"},
    {"-edgefontsizedelta", 1, IGNORED, "<int>", "added to the font size of edges"},
    {"-penwidth", 1, o_display, "<float>", "graphviz penwidth attribute"},
    {"-arrowsize", 1, o_display, "<float>", "graphviz arrowsize attribute"},
    {"-edgeattr", 1, o_display, "<rel,attr,value>", "a graphviz attribute for the edges labelled rel"},
    {"-overlap", 1, IGNORED, "<string>", "graphviz overlap attribute"},
    {"-relabel", 1, IGNORED, "<bool>", "merge Power/ARM labels (sync -> sync/dmb)"},
    {"-withbox", 1, IGNORED, "<bool>", "box the events of one instruction together"},
    {"-labelbox", 1, IGNORED, "<bool>", "label those boxes with the instruction"},
    {"-movelabel", 1, o_display, "<bool>", "labels at the tail of long edges"},
    {"-dotheader", 1, IGNORED, "<file>", "insert <file> at the start of dot files"},
    {"-restrict", 1, o_display, "<none|observed|cond>", "restrict outcomes (no effect on corral's results)"},
    {NULL, 0, NULL, NULL, "Tests"},
    {"-names", 1, o_program, "<file>", "run only the tests named in <file> (one name a line), can be repeated"},
    {"-excl", 1, o_program, "<file>", "do not run the tests named in <file>, can be repeated"},
    {"-rename", 1, REFUSED, "<file>", "rename tests (a map, hashes checked)"},
    {"-kinds", 1, REFUSED, "<file>", "the kinds of tests, from a file"},
    {"-conds", 1, REFUSED, "<file>", "the conditions of tests, from a file"},
    {"-candidates", 1, o_bool_field, "<bool>", "print the number of candidates given to the model"},
    {"-outcomereads", 1, REFUSED, "<bool>", "every memory read in outcomes"},
    {NULL, 0, NULL, NULL, "corral's own"},
    {"-j", 1, o_jobs, "<int>", "worker threads: one test's search, or that many tests at once"},
    {"-shard", 1, NULL, "<k/n>", "run the k-th of n slices of the test list"},
    {"-maxcandidates", 1, o_maxcand, "<int>", "stop a test after this many candidates"},
    {"-maxmemory", 1, o_maxmemory, "<MiB>", "bound the process's memory (address space); running out is a message and exit 1"},
    {"-natives", 1, o_bool_field, "<bool>", "run the cat functions corral knows natively (default true), or all as written"},
    {"-format", 1, o_format, "<herd|json|tsv>", "herd7's text, one JSON object or one TSV line per test"},
    {"-explain", 0, o_explain, NULL, "which check forbids the condition, and why, or how it is reached"},
    {"-explain-all", 0, o_explain, NULL, "explain every rejected execution, not one per check"},
    {"-explain-format", 1, o_explain_format, "<text|json>", "how explanations are printed"},
    {"-graph-format", 1, o_display, "<dot|svg|png|pdf>", "also render each graph with graphviz"},
    {"-help", 0, NULL, NULL, "this list"},
};

static int o_ignored(corral_options *o, const char *n, const char *a, char **m) {
  const OptDef *d = find_opt(n);
  if (check_arg(d->arg, n, a, m)) return -1;
  char note[300];
  snprintf(note, sizeof note, "option %s (herd7: %s) has no effect in corral, ignored", n, d->help);
  keep(o, "note", note);
  return 0;
}

/* The argument that asks for herd7's default behaviour, which corral has. */
static bool herd_default(const char *n, const char *a) {
  return (!strcmp(n, "-statelessrc11") ||
          !strcmp(n, "-outcomereads")) &&
         a && !strcmp(a, "false");
}

static int o_refused(corral_options *o, const char *n, const char *a, char **m) {
  (void)o;
  const OptDef *d = find_opt(n);
  if (check_arg(d->arg, n, a, m)) return -1;
  if (herd_default(n, a)) return 0;
  return fail(m, "option %s (herd7: %s) is not supported by corral", n, d->help);
}

/* The row of an option the library applies (not -version, -libdir,
 * -help, -shard: the corral command acts on those itself). */
static const OptDef *find_opt(const char *name) {
  for (size_t i = 0; i < ARRAY_LEN(opts); i++)
    if (opts[i].name && opts[i].fn && !strcmp(opts[i].name, name)) return &opts[i];
  return NULL;
}

int corral_option_arity(const char *name) {
  const OptDef *d = find_opt(name);
  return d ? d->arity : -1;
}

const char *corral_option_suggest(const char *name) {
  const char *names[ARRAY_LEN(opts)];
  int n = 0;
  for (size_t i = 0; i < ARRAY_LEN(opts); i++)
    if (opts[i].name) names[n++] = opts[i].name;
  return closest_name(name, names, n);
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

/* -help: the table, one option a line ("  -name ARG  help"), under its
 * headings; made once. */
const char *corral_usage(void) {
  static char *text;
  if (text) return text;
  StrBuf b;
  sb_init(&b);
  sb_puts(&b, "usage: corral [options] file.litmus ...\n");
  for (size_t i = 0; i < ARRAY_LEN(opts); i++) {
    const OptDef *d = &opts[i];
    if (!d->name) {
      sb_printf(&b, "%s:\n", d->help);
      continue;
    }
    char head[96];
    snprintf(head, sizeof head, "%s%s%s", d->name, d->arg ? " " : "", d->arg ? d->arg : "");
    const char *what = d->fn == IGNORED ? " (herd7's; no effect in corral)"
                       : d->fn == REFUSED ? " (herd7's; not supported by corral)"
                                          : "";
    sb_printf(&b, "  %-26s  %s%s\n", head, d->help, what);
  }
  text = xstrdup(sb_cstr(&b));
  sb_free(&b);
  return text;
}
