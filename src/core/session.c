/*
 * session.c — libcorral's public API: herd7's options, model loading
 * (cached across tests), and the simulation of one file.
 */
#include <ctype.h>
#include <pthread.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "corral.h"
#include "../cat/interp.h"
#include "../exec/engine.h"
#include "../exec/faults.h"
#include "../exec/mte.h"
#include "../exec/sem.h"
#include "../litmus/c.h"
#include "../litmus/litmus.h"
#include "../report/hash.h"
#include "../report/dot.h"
#include "../report/explain.h"
#include "../report/herd.h"
#include "../report/json.h"
#include "../util/pool.h"
#include "../util/spawn.h"
#include "bell_check.h"
#include "options.h"

/* ------------------------------------------------------------ models */

typedef struct ModelEnt {
  char *key;              /* model \0 bell */
  CatModel *m;
  char *error;            /* load error message, if loading failed */
} ModelEnt;

struct ModelCache {
  pthread_mutex_t lock;
  ModelEnt *v;
  int n;
};

static void cache_free(ModelCache *c) {
  for (int i = 0; i < c->n; i++) {
    free(c->v[i].key);
    cat_model_free(c->v[i].m);
    free(c->v[i].error);
  }
  free(c->v);
  pthread_mutex_destroy(&c->lock);
  free(c);
}

void corral_options_set_stream(corral_options *o, FILE *to) { o->stream = to; }

corral_options *corral_options_new(const char *libdir) {
  corral_options *o = xcalloc(1, sizeof *o);
  o->libdir = xstrdup(libdir ? libdir : ".");
  o->unroll = 2;
  o->checkfilter = true;
  o->archcheck = true;
  o->natives = true;
  o->jobs = MIN(usable_cpus(), 64);
  o->cache = xcalloc(1, sizeof(ModelCache));
  pthread_mutex_init(&o->cache->lock, NULL);
  return o;
}

void corral_options_free(corral_options *o) {
  if (!o) return;
  free(o->libdir);
  free(o->model);
  free(o->bell);
  free(o->macros);
  for (int i = 0; i < o->nincludes; i++) free(o->includes[i]);
  free(o->includes);
  for (int i = 0; i < o->nvariants; i++) free(o->variants[i]);
  free(o->variants);
  for (int i = 0; i < o->nskip; i++) free(o->skipchecks[i]);
  free(o->skipchecks);
  for (int i = 0; i < o->ndisplay; i++) {
    free(o->display[i].key);
    free(o->display[i].value);
  }
  free(o->display);
  cache_free(o->cache);
  free(o);
}

/* The search path of cat.md §8: ".", -I dirs, $HERDLIB, the library. */
/* The directories files are looked up in; for a model pasted in corral
 * serve (pasted), only the -I directories and the library: not the
 * server's current directory, nor $HERDLIB. */
static int search_path(const corral_options *o, const char **out, int cap, Arena *a,
                       bool pasted) {
  int n = 0;
  if (!pasted) out[n++] = ".";
  for (int i = 0; i < o->nincludes && n < cap - 2; i++) {
    const char *d = o->includes[i];
    out[n++] = d[0] == '+' ? arena_printf(a, "%s/%s", o->libdir, d + 1) : d;
  }
  const char *h = pasted ? NULL : getenv("HERDLIB");
  if (h && *h && n < cap - 1) out[n++] = h;
  out[n++] = o->libdir;
  return n;
}

/* Load a model (from its file, or its text when text is not NULL) and
 * bell on the search path; NULL with *msg (malloc'ed) on error. */
static CatModel *load_model(const corral_options *o, const char *model, const char *text,
                            const char *bell, char **msg) {
  Arena a;
  arena_init(&a);
  const char *sp[64];
  int ns = search_path(o, sp, 64, &a, text != NULL);
  Err err;
  err_init(&err);
  CatModel *m = text ? cat_load_text(model, text, bell, sp, ns, &err)
                     : cat_load(model, bell, sp, ns, &err);
  if (!m) {
    StrBuf b;
    sb_init(&b);
    err_format(&err, &b);
    sb_putc(&b, '\n');
    err_excerpt(&err, &b);
    b.s[--b.len] = 0; /* the caller adds the last newline */
    *msg = xstrdup(sb_cstr(&b));
    sb_free(&b);
  }
  err_free(&err);
  arena_free(&a);
  return m;
}

/* Load (or find in the cache) the model and bell; NULL with *msg on error. */
static CatModel *get_model(const corral_options *o, const char *model,
                           const char *bell, char **msg) {
  ModelCache *c = o->cache;
  size_t lm = strlen(model), lb = bell ? strlen(bell) : 0;
  char *key = xmalloc(lm + lb + 2);
  memcpy(key, model, lm + 1);
  if (bell) memcpy(key + lm + 1, bell, lb + 1);
  else key[lm + 1] = 0;
  pthread_mutex_lock(&c->lock);
  CatModel *m = NULL;
  for (int i = 0; i < c->n; i++)
    if (memcmp(c->v[i].key, key, lm + lb + 2) == 0) {
      m = c->v[i].m;
      if (!m) *msg = xstrdup(c->v[i].error);
      pthread_mutex_unlock(&c->lock);
      free(key);
      return m;
    }
  char *error = NULL;
  m = load_model(o, model, NULL, bell, &error);
  if (!m) *msg = xstrdup(error);
  c->v = xrealloc(c->v, sizeof(ModelEnt) * (size_t)(c->n + 1));
  c->v[c->n].key = key;
  c->v[c->n].m = m;
  c->v[c->n].error = error;
  c->n++;
  pthread_mutex_unlock(&c->lock);
  return m;
}

/* A model pasted into corral serve: loaded for this run only. */
static CatModel *load_pasted(const corral_options *o, const corral_source *src, char **msg) {
  return load_model(o, src->cat_name ? src->cat_name : "model.cat", src->cat_text, o->bell, msg);
}

static const char *default_model(Arch a) {
  const Isa *i = isa_of(a);
  return i ? i->default_model : NULL;
}

/* --------------------------------------------------------------- runs */

static char *format_err(const Err *e) {
  StrBuf b;
  sb_init(&b);
  err_format(e, &b);
  sb_putc(&b, '\n');
  err_excerpt(e, &b);
  char *s = xstrdup(sb_cstr(&b));
  sb_free(&b);
  return s;
}

/* CPU time of the test: the thread's when it runs alone on it (tests of
 * a campaign run in parallel threads), the process's when the engine
 * spreads it over workers. */
static double cpu_now(int jobs) {
  struct timespec ts;
  clock_gettime(jobs > 1 ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Variants for this test: the options' and the test's Variant= line. */
static int test_variants(const corral_options *o, const Test *t, const char **v,
                         int cap, Arena *a) {
  int n = 0;
  for (int i = 0; i < o->nvariants && n < cap; i++) v[n++] = o->variants[i];
  const char *tv = test_meta(t, "Variant");
  if (tv) {
    char *s = arena_strdup(a, tv);
    char *save = NULL; /* strtok_r: tests run in parallel threads */
    for (char *tok = strtok_r(s, ", \t", &save); tok && n < cap; tok = strtok_r(NULL, ", \t", &save)) {
      for (char *q = tok; *q; q++) *q = (char)tolower((unsigned char)*q);
      v[n++] = tok;
    }
  }
  /* CacheType=DIC IDC (herd's lib/cacheType.mll): the variants "dic"
   * and "idc" of the model, DIC implying IDC; other words were refused
   * by test_cache_type */
  const char *ct = test_meta(t, "CacheType");
  if (ct) {
    bool dic = false, idc = false;
    char *s = arena_strdup(a, ct), *save = NULL;
    for (char *tok = strtok_r(s, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
      if (!strcasecmp(tok, "dic")) dic = true;
      if (!strcasecmp(tok, "idc")) idc = true;
    }
    if (dic && n < cap) v[n++] = "dic";
    if ((dic || idc) && n < cap) v[n++] = "idc";
  }
  return n;
}

/* herd refuses a CacheType= word other than DIC and IDC. */
static void check_cache_type(const Test *t, Err *err, SrcPos where) {
  const char *ct = test_meta(t, "CacheType");
  if (!ct) return;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", ct);
  char *save = NULL;
  for (char *tok = strtok_r(buf, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
    bool letters = true;
    for (char *q = tok; *q; q++) letters &= isalpha((unsigned char)*q) != 0;
    if (!letters)
      err_raise(err, ERRK_SEMANTIC, where, "Incorrect cache-type feature specification '%s'", ct);
    if (strcasecmp(tok, "dic") && strcasecmp(tok, "idc"))
      err_raise(err, ERRK_SEMANTIC, where, "'%s' is not a cache-type key, keys are DIC, IDC", tok);
  }
}

/* The picture options into d (dot_opts_free it). */
static void graph_opts(const corral_options *o, DotOpts *d) {
  dot_opts_init(d);
  for (int i = 0; i < o->ndisplay; i++) dot_opt_apply(d, o->display[i].key, o->display[i].value);
}

/* Whether -o asks for graph files (an empty directory is refused when
 * the option is given). */
static bool graph_dir(const corral_options *o) {
  for (int i = 0; i < o->ndisplay; i++)
    if (dot_opt_is_dir(o->display[i].key)) return true;
  return false;
}

/* -explain: a second run, after the usual block is complete, so that the
 * block is the same with or without it.  With -o DIR, also DIR/STEM-explain.dot
 * (DIR/STEM: dot_out_base). */
static bool explain_block(const corral_options *o, Program *p, const CProg *prog,
                          const EngineOpts *eo, const Outcome *out, StrBuf *b, Err *err) {
  ExplainOpts xo = {o->explain_all, out->pos > 0, o->explain_probe, o->explain_probe_ctx};
  char *dot = NULL;
  if (graph_dir(o)) {
    DotOpts d;
    graph_opts(o, &d);
    char *base = dot_out_base(&d, p->test->file);
    dot = xmalloc(strlen(base) + 16);
    sprintf(dot, "%s-explain.dot", base);
    free(base);
    dot_opts_free(&d);
  }
  char *text = explain_run(p, prog, eo, &xo, o->explain_format ? EXPLAIN_JSON : EXPLAIN_TEXT,
                           dot, err);
  free(dot);
  if (!text) return false;
  sb_puts(b, text);
  free(text);
  return true;
}

static void model_title(const CatModel *m, char *title, size_t n);

/* -o DIR (with -explain, DIR/STEM-explain.dot is written too): the
 * execution graphs, from a capture run after the block is complete.
 * False with *msg on an error. */
static bool graph_block(const corral_options *o, const CatModel *m, Program *p,
                        const CProg *prog, const EngineOpts *eo, Err *err, char **msg) {
  if (!graph_dir(o)) return true;
  DotOpts d;
  graph_opts(o, &d);
  char title[512];
  model_title(m, title, sizeof title);
  bool ok = dot_run(p, prog, eo, &d, title, err, msg);
  dot_opts_free(&d);
  return ok;
}

/* corral_run_text with -explain: the text section into the block, as
 * the command prints it, and the JSON object and graphs into r. */
static bool explain_parts(const corral_options *o, Program *p, const CProg *prog,
                          const EngineOpts *eo, const Outcome *out, StrBuf *b,
                          corral_result *r, Err *err) {
  ExplainOpts xo = {o->explain_all, out->pos > 0, o->explain_probe, o->explain_probe_ctx};
  Explanation *x = explain_capture(p, prog, eo, &xo, err);
  if (!x) return false;
  explain_text(x, b);
  StrBuf j;
  sb_init(&j);
  explain_json(x, &j);
  r->explain_json = xstrdup(sb_cstr(&j));
  r->explain_graphs = xcalloc((size_t)x->execs.len + 1, sizeof(char *));
  for (int i = 0; i < x->execs.len; i++) {
    sb_clear(&j);
    explain_dot_exec(x, i, &j);
    r->explain_graphs[i] = xstrdup(sb_cstr(&j));
  }
  r->nexplain_graphs = x->execs.len;
  sb_free(&j);
  explain_free(x);
  return true;
}

/* The model's title in graph legends: "Generic(x86-TSO)". */
static void model_title(const CatModel *m, char *title, size_t n) {
  const CatFile *f = m->main;
  snprintf(title, n, "Generic%s(%s)", f && f->catdep ? "[withcatdep]" : "",
           f && f->title ? f->title : "Unknown");
}

/* corral_run_text with graphs: the pictures -show selects, into r. */
static bool graph_pictures(const corral_options *o, const CatModel *m, Program *p,
                           const CProg *prog, const EngineOpts *eo, corral_result *r,
                           Err *err) {
  DotOpts d;
  graph_opts(o, &d);
  char title[512];
  model_title(m, title, sizeof title);
  r->graphs = dot_pictures(p, prog, eo, &d, title, &r->ngraphs, err);
  dot_opts_free(&d);
  return r->graphs != NULL;
}

/* Compile the model for this test and run the engine; fills r. */
static corral_status simulate(const corral_options *o, const Test *t,
                              CatModel *m, const char *path, const corral_source *src,
                              corral_result *r) {
  Arena a;
  arena_init(&a);
  Err err;
  err_init(&err);
  /* assigned between setjmp and a possible longjmp: volatile */
  Program *volatile p = NULL;
  CProg *volatile prog = NULL;
  corral_status st = CORRAL_ETEST;
  const char *vars[64];
  int nv = test_variants(o, t, vars, 64, &a);
  CatConfig cfg = {0};
  cfg.variants = vars;
  cfg.nvariants = nv;
  cfg.through = o->through;
  cfg.skipchecks = (const char *const *)o->skipchecks;
  cfg.nskipchecks = o->nskip;
  cfg.strictskip = o->strictskip;
  cfg.prelude = sem_arch(t->arch) ? sem_arch(t->arch)->cat_prelude : NULL;
  cfg.no_natives = !o->natives;
  const SrcPos where = {path, 1, 1}; /* the test as a whole: its header */
  /* the run's helper threads, started when a stage first shares work */
  Pool *const pool = o->jobs > 1 ? pool_new(MIN(o->jobs, 64) - 1, ENGINE_STACK) : NULL;
  ErrJmp j;
  err_push(&err, &j);
  if (setjmp(j.jb) != 0) {
    r->diag = format_err(&err);
    goto done;
  }
  check_cache_type(t, &err, where);
  bool mixed = false, deps = false, kvm = false, ifetch = false;
  for (int i = 0; i < nv; i++) {
    if (!strcmp(vars[i], "deps")) deps = true;
    if (!strcmp(vars[i], "ifetch") || !strcmp(vars[i], "self")) ifetch = true;
    if (!strcmp(vars[i], "kvm") || !strcmp(vars[i], "vmsa")) kvm = true;
  }
  for (int i = 0; i < nv && deps; i++) /* reads from no write: not in mixed.c */
    if (!strcmp(vars[i], "mixed"))
      err_raise(&err, ERRK_SEMANTIC, where,
                "-variant deps with -variant mixed is not supported yet");
  for (int i = 0; i < nv; i++)
    if (!strcmp(vars[i], "mixed")) {
      mixed = true;
      /* byte-split accesses exist for some architectures only (mixed.c):
       * refuse the others rather than give a wrong answer */
      if (!isa_has(t->arch, ISA_MIXED))
        err_raise(&err, ERRK_SEMANTIC, where,
                  "-variant mixed (mixed-size accesses) is not supported yet for %s",
                  arch_name(t->arch));
    }
  if (o->archcheck && m->main && m->main->arch) {
    Arch ma;
    bool known = arch_from_name(m->main->arch, &ma);
    bool compatible = !known || ma == t->arch ||
                      strcmp(isa_of(ma)->family, isa_of(t->arch)->family) == 0;
    if (!compatible)
      err_raise(&err, ERRK_SEMANTIC, where,
                "Architecture mismatch between test and model (%s vs. %s)",
                arch_name(t->arch), m->main->arch);
  }
  prog = cat_compile(m, &cfg, &err);
  if (kvm && mixed)
    err_raise(&err, ERRK_SEMANTIC, where, "-variant kvm with -variant mixed is not supported yet");
  if (kvm && t->arch != ARCH_AARCH64)
    err_raise(&err, ERRK_SEMANTIC, where, "-variant kvm is supported for AArch64 only");
  p = program_new_kvm(t, &err, o->unroll, kvm);
  /* herd's NoPteBranch (walks and faults without commits) and PTE2
   * (page tables themselves mapped) change what -variant kvm builds */
  for (int i = 0; i < nv && kvm; i++)
    if (!strcasecmp(vars[i], "noptebranch") || !strcasecmp(vars[i], "nobranch") ||
        !strcasecmp(vars[i], "pte2") || !strcasecmp(vars[i], "pte-squared"))
      err_raise(&err, ERRK_SEMANTIC, where, "-variant %s with -variant kvm is not supported yet",
                vars[i]);
  for (int i = 0; i < nv && p->some_ha; i++)
    if (!strcasecmp(vars[i], "PhantomOnLoad"))
      err_raise(&err, ERRK_SEMANTIC, where,
                "-variant PhantomOnLoad (spurious updates of the access flag on loads) is not "
                "supported yet");
  if (kvm && ifetch)
    err_raise(&err, ERRK_SEMANTIC, where, "-variant kvm with -variant ifetch is not supported");
  if (!kvm) program_code_locations(p, ifetch, &err);
  if (mixed && p->ncode_locs)
    err_raise(&err, ERRK_SEMANTIC, where,
              "-variant mixed with code locations (labels as values) is not supported");
  if (mixed) program_set_mixed(p, &err, where);
  for (int i = 0; i < nv && mixed; i++)
    if (!strcmp(vars[i], "unaligned")) p->mixed_unaligned = true;
  p->deps = deps;
  for (int i = 0; i < nv; i++)
    if (!strcmp(vars[i], "telechat")) p->telechat = true;
    else if (!strcasecmp(vars[i], "nv2")) p->nv2 = true;
  program_set_simd(p, vars, nv);
  program_set_faults(p, vars, nv, o->dumpallfaults);
  mte_program_setup(p, &err, where);
  EngineOpts eo = {0};
  eo.speedcheck = o->speedcheck;
  eo.checkfilter = o->checkfilter;
  eo.max_candidates = o->maxcandidates;
  eo.has_max_phantom = o->has_maxphantom;
  eo.max_phantom = o->maxphantom;
  eo.timeout = o->timeout;
  eo.pool = pool;
  if (src) {
    eo.deadline = src->deadline;
    eo.cancel = src->cancel;
  }
  Outcome out;
  double t0 = cpu_now(o->jobs);
  engine_run(p, prog, &eo, &out, &a, &err);
  r->seconds = cpu_now(o->jobs) - t0;
  if (out.refused && out.refused_thread < 0) {
    outcome_free(&out);
    err_raise(&err, ERRK_SEMANTIC, where,
              "-variant kvm: an operation on page-table entries or TLB entries that corral "
              "does not compute yet");
  }
  if (out.refused) {
    /* a candidate took a path corral does not model (sem_refuse) */
    const CodeEntry *ce = test_entry(&t->threads[out.refused_thread], out.refused_code);
    const Instr *ins = ce ? ce->ins : NULL;
    int why = out.refused_why;
    outcome_free(&out);
    if (why == REFUSE_OUT_OF_CODE)
      err_raise(&err, ERRK_SEMANTIC, ins ? ins->pos : where,
                "Segmentation fault (kidding, the instruction run here jumps outside "
                "the code)");
    if (why == REFUSE_KVM_ADDRESS)
      err_raise(&err, ERRK_SEMANTIC, ins ? ins->pos : where,
                "%s: -variant kvm: an address read from memory that is not a location of the "
                "test (an offset from one, an integer) is not supported yet",
                ins && ins->text ? ins->text : "this access");
    if (why == REFUSE_NESTED_FAULT)
      err_raise(&err, ERRK_SEMANTIC, ins ? ins->pos : where,
                "%s may fault here, inside a fault handler: a fault inside a fault handler is "
                "not supported",
                ins && ins->text ? ins->text : "this access");
    err_raise(&err, ERRK_SEMANTIC, ins ? ins->pos : where,
              "%s may fault here: MMU faults (-variant kvm) are not supported yet",
              ins && ins->text ? ins->text : "this access");
  }
  err_pop(&err, &j);
  if (out.limit_hit) {
    outcome_free(&out);
    r->stopped = 1;
    StrBuf b;
    sb_init(&b);
    if (o->maxcandidates && out.candidates >= o->maxcandidates)
      sb_printf(&b, "%s: error: test %s stopped: more than %llu candidates (-maxcandidates)\n",
                path, t->name, (unsigned long long)o->maxcandidates);
    else if (o->timeout > 0 && r->seconds > o->timeout)
      sb_printf(&b, "%s: error: test %s stopped: more than %g s of CPU time (-timeout)\n",
                path, t->name, o->timeout);
    else
      sb_printf(&b, "%s: error: test %s stopped: the request's time bound was exceeded\n",
                path, t->name);
    r->diag = xstrdup(sb_cstr(&b));
    sb_free(&b);
    goto done;
  }
  HerdPrintOpts po = {0};
  po.hexa = o->hexa;
  po.show_time = true;
  po.seconds = r->seconds;
  po.candidates = o->candidates;
  po.pool = pool;
  const char *fnames[64];
  int nf = cat_prog_nflags(prog);
  for (int i = 0; i < nf && i < 64; i++) fnames[i] = cat_prog_flag_name(prog, i);
  po.flag_names = fnames;
  po.nflags = nf;
  /* a plain block is streamed when asked: nothing may be added to it
   * (explanations) or make it be withheld (a failing graph writer) */
  if (o->stream && !src && o->format == FORMAT_HERD && !o->explain && !graph_dir(o))
    po.stream = o->stream;
  StrBuf b;
  sb_init(&b);
  if (o->format == FORMAT_JSON) json_test(p, &out, &po, path, &b);
  else if (o->format == FORMAT_TSV) tsv_test(p, &out, &po, path, &b);
  else herd_print(p, &out, &po, &b);
  bool explained = !o->explain ||
                   (src ? explain_parts(o, p, prog, &eo, &out, &b, r, &err)
                        : explain_block(o, p, prog, &eo, &out, &b, &err));
  outcome_free(&out);
  if (!explained) {
    r->diag = format_err(&err);
    sb_free(&b);
    goto done;
  }
  char *gmsg = NULL;
  if (src && src->graphs && !graph_pictures(o, m, p, prog, &eo, r, &err)) {
    r->diag = format_err(&err);
    sb_free(&b);
    goto done;
  }
  if (!src && !graph_block(o, m, p, prog, &eo, &err, &gmsg)) {
    if (gmsg) {
      r->diag = xmalloc(strlen(gmsg) + 2);
      sprintf(r->diag, "%s\n", gmsg);
      free(gmsg);
    } else {
      r->diag = format_err(&err);
    }
    sb_free(&b);
    goto done;
  }
  sb_cstr(&b);
  r->output = b.s; /* the buffer becomes the result: no copy */
  sb_init(&b);
  if (out.loop)
    sb_printf(&b, "Warning: File \"%s\": unrolling limit exceeded at %s, legal outcomes may "
              "be missing.\n", path, out.loop_label ? out.loop_label : "?");
  /* herd warns once per execution it leaves out (here at most 100 times) */
  for (uint64_t k = 0; k < out.handler_faults && k < 100; k++)
    sb_puts(&b, "Warning: Fault inside a fault handler, legal outcomes may be missing\n");
  if (gmsg) sb_printf(&b, "%s\n", gmsg); /* a note of the graph writer */
  free(gmsg);
  if (b.len) r->diag = xstrdup(sb_cstr(&b));
  sb_free(&b);
  st = CORRAL_OK;
done:
  pool_free(pool);
  program_free(p);
  cat_prog_free(prog);
  err_free(&err);
  arena_free(&a);
  return st;
}

/* C tests: expand the macros of the -macros file (found on the search
 * path) and lower the threads; false with the error in err. */
static bool expand_c(const corral_options *o, Test *t, const char *path, Err *err) {
  Arena a;
  arena_init(&a);
  char *text = NULL;
  const char *file = NULL;
  bool ok = true;
  if (o->macros) {
    const char *sp[64];
    int ns = search_path(o, sp, 64, &a, false);
    file = cat_find_file(o->macros, sp, ns, &a);
    size_t len;
    text = file ? read_file(file, &len) : NULL;
    if (!text) {
      err->pos = (SrcPos){path, 0, 0};
      sb_clear(&err->msg);
      sb_printf(&err->msg, "cannot find macro file %s", o->macros);
      ok = false;
    }
  }
  if (ok) {
    ErrJmp j;
    err_push(err, &j);
    if (setjmp(j.jb) == 0) {
      c_expand(t, file, text, err);
      err_pop(err, &j);
    } else {
      ok = false;
    }
  }
  free(text);
  arena_free(&a);
  return ok;
}

/* One test's text (owned by the caller), from a file or not (src). */
static corral_status run_text(const corral_options *o, const char *path, const char *text,
                              size_t len, const corral_source *src, corral_result *r) {
  Err err;
  err_init(&err);
  Test *t = NULL;
  if (strlen(text) != len) {
    err.pos = text_pos(path, text, strlen(text));
    sb_puts(&err.msg, "file contains a NUL byte");
    r->diag = format_err(&err);
    r->status = CORRAL_ETEST;
    goto done;
  }
  t = litmus_parse(path, text, &err);
  if (!t) {
    r->diag = format_err(&err);
    r->status = CORRAL_ETEST;
    goto done;
  }
  if (t->c && !expand_c(o, t, path, &err)) {
    r->diag = format_err(&err);
    r->status = CORRAL_ETEST;
    goto done;
  }
  r->name = xstrdup(t->name);
  test_hash_keep(t);
  {
    char buf[33];
    const char *h = test_hash_text(t, buf);
    snprintf(r->hash, sizeof r->hash, "%s", h);
  }
  const char *model = o->model ? o->model : default_model(t->arch);
  if (!model) {
    err.pos = (SrcPos){path, 1, 1};
    sb_clear(&err.msg);
    sb_printf(&err.msg, "no default model for %s tests", arch_name(t->arch));
    r->diag = format_err(&err);
    r->status = CORRAL_ETEST;
    goto done;
  }
  char *msg = NULL;
  CatModel *pasted = NULL;
  CatModel *m;
  if (src && src->cat_text) {
    m = pasted = load_pasted(o, src, &msg);
  } else {
    /* bell tests (LISA) with neither -model nor -bell: the default
     * model's bell file too (herd7 has no default model for LISA and
     * asks for -model; corral ships lisa.bell and lisa.cat) */
    char *bell = o->bell ? xstrdup(o->bell) : NULL;
    size_t ml = strlen(model);
    if (!bell && !o->model && isa_has(t->arch, ISA_BELL) && ml > 4 &&
        strcmp(model + ml - 4, ".cat") == 0) {
      bell = xmalloc(ml + 2);
      memcpy(bell, model, ml - 4);
      memcpy(bell + ml - 4, ".bell", 6);
    }
    m = get_model(o, model, bell, &msg);
    free(bell);
  }
  if (!m) {
    size_t n = strlen(msg);
    r->diag = xmalloc(n + 2);
    memcpy(r->diag, msg, n);
    r->diag[n] = '\n';
    r->diag[n + 1] = 0;
    free(msg);
    r->status = CORRAL_EFATAL;
    goto done;
  }
  {
    SrcPos bpos;
    if (!bell_check_test(t, m, &bpos, &err.msg)) {
      err.pos = bpos;
      r->diag = format_err(&err);
      r->status = CORRAL_ETEST;
      cat_model_free(pasted);
      goto done;
    }
  }
  r->status = simulate(o, t, m, path, src, r);
  cat_model_free(pasted);
done:
  test_free(t);
  err_free(&err);
  return r->status;
}

const char *corral_output_header(const corral_options *o) {
  return o->format == FORMAT_TSV ? json_tsv_header() : NULL;
}

corral_status corral_run_file(const corral_options *o, const char *path,
                              corral_result *r) {
  memset(r, 0, sizeof *r);
  size_t len;
  char *text = read_file(path, &len);
  if (!text) {
    StrBuf b;
    sb_init(&b);
    if (errno == EFBIG || errno == EISDIR)
      sb_printf(&b, "%s: error: %s\n", path, read_file_error(errno));
    else
      sb_printf(&b, "%s: error: cannot open file\n", path);
    r->diag = xstrdup(sb_cstr(&b));
    sb_free(&b);
    return r->status = CORRAL_ETEST;
  }
  corral_status st = run_text(o, path, text, len, NULL, r);
  free(text);
  return st;
}

corral_status corral_run_text(const corral_options *o, const corral_source *s,
                              corral_result *r) {
  memset(r, 0, sizeof *r);
  return run_text(o, s->name ? s->name : "test.litmus", s->text, strlen(s->text), s, r);
}

void corral_result_free(corral_result *r) {
  for (int i = 0; i < r->ngraphs; i++) free(r->graphs[i]);
  free(r->graphs);
  for (int i = 0; i < r->nexplain_graphs; i++) free(r->explain_graphs[i]);
  free(r->explain_graphs);
  free(r->explain_json);
  free(r->output);
  free(r->diag);
  free(r->name);
  memset(r, 0, sizeof *r);
}
