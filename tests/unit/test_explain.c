/*
 * test_explain.c — explanations are correct by construction: every
 * explained execution is re-checked, while the engine's relations are
 * still live, against the model's own relations.
 *
 *   - the witness is a cycle (acyclic), a self pair (irreflexive) or a
 *     pair (empty) of the relation the failing check tested, and closes;
 *   - each edge's derivation is a path from its source to its target;
 *   - every label names a relation of the model that holds the edge (the
 *     check's expression for an edge no named part of it holds), and no
 *     relation of the check's vocabulary holding it is smaller.
 *
 * Each test runs through the session (corral_run_file with -explain and
 * the test's own options, so -conf brings its bell file, macros and
 * variants), the probe of the options seeing each explained execution.
 * It runs on our own Never tests and models (x86 with -model, LKMM with
 * models/linux-kernel.cfg), then, when ../shared is there, on every Never
 * test of the article, x86 and ppc suites (every rejected execution for
 * the first two, one per check for ppc) and of the linux suite.  Every
 * LKMM explanation must name a check of linux-kernel.cat.  The verifier
 * must also reject each explanation once corrupted (so it can fail).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cat/interp.h"
#include "check.h"
#include "core/options.h"
#include "corral.h"
#include "exec/engine.h"
#include "report/explain.h"

/* ------------------------------------------------------------ verify */

typedef struct Find {
  const char *name;
  int a, b;
  bool found;     /* some binding of that name holds (a, b) */
  int min_count;  /* smallest vocabulary relation holding (a, b), -1 none */
  Dim d;
} Find;

static void find_fn(void *ctx, const char *name, const Value *v, bool predef) {
  (void)predef;
  Find *f = ctx;
  const Word *bits = val_bits(v, NULL);
  if (!bits || !rel_get(f->d, bits, f->a, f->b)) return;
  if (!strcmp(name, f->name)) f->found = true;
  int c = rel_count(f->d, bits);
  if (f->min_count < 0 || c < f->min_count) f->min_count = c;
}

static int size_of_name(const ExecView *v, const char *name, int a, int b) {
  Find f = {name, a, b, false, -1, v->d};
  run_foreach_vocabulary(v->run, v->failure, find_fn, &f);
  return f.found ? 0 : -1;
}

/* Count of the relation of that name holding (a, b) (the smallest if
 * several bindings share the name), or -1. */
typedef struct Count {
  const char *name;
  int a, b, count;
  Dim d;
} Count;

static void count_fn(void *ctx, const char *name, const Value *v, bool predef) {
  (void)predef;
  Count *c = ctx;
  const Word *bits = val_bits(v, NULL);
  if (!bits || strcmp(name, c->name) || !rel_get(c->d, bits, c->a, c->b)) return;
  int n = rel_count(c->d, bits);
  if (c->count < 0 || n < c->count) c->count = n;
}

static void any_fn(void *ctx, const char *name, const Value *v) { count_fn(ctx, name, v, false); }

/* One labelled edge: its relation holds it and is the smallest. */
static bool edge_ok(const ExecView *v, const ExEdge *e, const Word *checked, const char *expr,
                    bool coarse, char *why, size_t n) {
  Dim d = v->d;
  if (e->a < 0 || e->b < 0 || e->a >= d.n || e->b >= d.n) {
    snprintf(why, n, "edge out of range");
    return false;
  }
  if (coarse && !rel_get(d, checked, e->a, e->b)) {
    snprintf(why, n, "edge %d->%d not in the checked relation", e->a, e->b);
    return false;
  }
  if (coarse && !strcmp(e->label, expr)) return true;
  if (size_of_name(v, e->label, e->a, e->b) < 0) {
    /* a fence step (a -mfence-> c) may name any relation of the model */
    Count any = {e->label, e->a, e->b, -1, d};
    run_foreach_relation(v->run, any_fn, &any);
    if (any.count >= 0) return true;
    snprintf(why, n, "edge %d->%d not in %s", e->a, e->b, e->label);
    return false;
  }
  if (coarse) return true; /* smallest among the parts of the checked relation */
  Find f = {e->label, e->a, e->b, false, -1, d};
  run_foreach_vocabulary(v->run, v->failure, find_fn, &f);
  Count c = {e->label, e->a, e->b, -1, d};
  run_foreach_vocabulary(v->run, v->failure, count_fn, &c);
  if (c.count > f.min_count) {
    snprintf(why, n, "edge %d->%d: %s (%d pairs) is not the smallest (%d)", e->a, e->b,
             e->label, c.count, f.min_count);
    return false;
  }
  return true;
}

/* The whole explanation of one rejected execution. */
static bool verify(const ExecView *v, const ExExec *ex, const char *check_text, char *why,
                   size_t n) {
  const CatFailure *fl = v->failure;
  Dim d = v->d;
  if (ex->kind == CW_NONE) {
    snprintf(why, n, "no witness");
    return fl->negated;
  }
  if (ex->kind == CW_EVENT) {
    bool is_set = false;
    const Word *bits = val_bits(fl->v, &is_set);
    if (!bits || !is_set || !bit_get(bits, ex->event)) {
      snprintf(why, n, "event not in the checked set");
      return false;
    }
    return true;
  }
  const Word *checked = val_bits(fl->v, NULL);
  if (!checked) {
    snprintf(why, n, "checked value is not a relation");
    return false;
  }
  const char *expr = strchr(check_text, ' ') ? strchr(check_text, ' ') + 1 : check_text;
  if (ex->nedges < 1) {
    snprintf(why, n, "empty witness");
    return false;
  }
  for (int i = 0; i < ex->nedges; i++) {
    const ExEdge *e = &ex->edges[i];
    if (!edge_ok(v, e, checked, expr, true, why, n)) return false;
    if (ex->kind == CW_CYCLE && e->b != ex->edges[(i + 1) % ex->nedges].a) {
      snprintf(why, n, "cycle does not close at edge %d", i);
      return false;
    }
    int s = ex->start[i], t = ex->start[i + 1];
    if (s >= t) {
      snprintf(why, n, "edge %d has no derivation", i);
      return false;
    }
    if (ex->fine[s].a != e->a || ex->fine[t - 1].b != e->b) {
      snprintf(why, n, "derivation of edge %d does not join its ends", i);
      return false;
    }
    for (int k = s; k < t; k++) {
      if (k > s && ex->fine[k].a != ex->fine[k - 1].b) {
        snprintf(why, n, "derivation of edge %d breaks at step %d", i, k - s);
        return false;
      }
      if (!edge_ok(v, &ex->fine[k], checked, expr, false, why, n)) return false;
    }
  }
  if (ex->kind == CW_PAIR && fl->test == T_IRREFLEXIVE && ex->edges[0].a != ex->edges[0].b) {
    snprintf(why, n, "irreflexive witness is not a self pair");
    return false;
  }
  (void)d;
  return true;
}

/* ---------------------------------------------------------- the probe */

typedef struct Probe {
  const char *path;
  int verified, failed, mutations_caught, mutations;
  int groups;        /* checks the explanation names */
  int foreign;       /* explained by a check outside the expected model files */
  const char *model_files; /* the files every check must come from ("a.cat b.cat"), or NULL */
  uint64_t nreach;   /* candidates reaching the condition */
  char names[16][64]; /* the checks named (copies: the model goes with the run) */
  int nnames;
  bool mutate;
} Probe;

/* Is the base name of path one of the space-separated names? */
static bool one_of(const char *path, const char *names) {
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  size_t k = strlen(base);
  for (const char *n = names; *n;) {
    size_t len = strcspn(n, " ");
    if (len == k && !strncmp(n, base, k)) return true;
    n += len;
    n += strspn(n, " ");
  }
  return false;
}

/* Re-check what explain_sink has just kept (execs first..), then corrupt
 * it to see the re-check fail. */
static void probe(void *ctx, Explanation *x, const ExecView *v, int first) {
  Probe *pr = ctx;
  pr->groups = x->groups.len;
  pr->nreach = x->nreach;
  if (x->execs.len == first || !v->failure) return;
  ExExec *ex = &x->execs.data[first];
  const ExGroup *g = &x->groups.data[ex->group];
  char why[256];
  if (verify(v, ex, g->text, why, sizeof why)) {
    pr->verified++;
  } else {
    pr->failed++;
    printf("  %s: %s: %s\n", pr->path, g->text, why);
  }
  if (pr->model_files && (!g->pos.file || !one_of(g->pos.file, pr->model_files))) {
    pr->foreign++;
    printf("  %s: %s comes from %s, not one of %s\n", pr->path, g->text,
           g->pos.file ? g->pos.file : "nowhere", pr->model_files);
  }
  char name[64];
  snprintf(name, sizeof name, "%s", g->name ? g->name : g->text);
  bool seen = false;
  for (int i = 0; i < pr->nnames; i++) seen |= !strcmp(pr->names[i], name);
  if (!seen && pr->nnames < (int)ARRAY_LEN(pr->names))
    memcpy(pr->names[pr->nnames++], name, sizeof name);
  if (!pr->mutate || ex->nfine == 0) return;
  /* the verifier must see a wrong label, and a broken path */
  pr->mutations += 2;
  ExEdge saved = ex->fine[0];
  ex->fine[0].label = "no-such-relation";
  if (!verify(v, ex, g->text, why, sizeof why)) pr->mutations_caught++;
  ex->fine[0] = saved;
  ex->fine[0].a = (saved.a + 1) % v->d.n;
  if (!verify(v, ex, g->text, why, sizeof why)) pr->mutations_caught++;
  ex->fine[0] = saved;
}

/* ---------------------------------------------------------- running */

typedef struct Job {
  char path[1024];
  char opts[256];     /* as the corpus gives them: "-conf linux-kernel.cfg" */
  const char *model_files; /* every check must come from them, or NULL */
  bool all;           /* explain every rejected execution, not one per check */
} Job;

typedef struct Totals {
  pthread_mutex_t lock;
  int tests, errors, verified, failed, groups, unexplained;
  int mutations, caught;
  int named;          /* tests whose every check is of model_files, and verified */
  int unreachable;    /* tests no candidate of which reaches the condition */
  char checks[1024];  /* "name count" of each check named, for the log */
} Totals;

/* Count one more test explained by check `name` in t->checks. */
static void count_check(Totals *t, const char *name) {
  char key[128];
  snprintf(key, sizeof key, "%s ", name);
  char *at = strstr(t->checks, key);
  while (at && at != t->checks && at[-1] != ' ') at = strstr(at + 1, key);
  if (!at) {
    size_t n = strlen(t->checks);
    snprintf(t->checks + n, sizeof t->checks - n, "%s%s 1", n ? ", " : "", name);
    return;
  }
  char *num = at + strlen(key);
  int c = atoi(num) + 1;
  char rest[1024];
  snprintf(rest, sizeof rest, "%s", num + strspn(num, "0123456789"));
  snprintf(num, sizeof t->checks - (size_t)(num - t->checks), "%d%s", c, rest);
}

/* Apply "-name [arg] ..." to o; false with a message printed. */
static bool apply_opts(corral_options *o, const char *opts, const char *path) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", opts);
  char *save = NULL;
  for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
    int arity = corral_option_arity(w);
    char *arg = arity > 0 ? strtok_r(NULL, " ", &save) : NULL;
    char *msg = NULL;
    if (arity < 0 || (arity > 0 && !arg) || corral_option(o, w, arg, &msg) != 0) {
      printf("  %s: option %s: %s\n", path, w, msg ? msg : "unknown");
      free(msg);
      return false;
    }
  }
  return true;
}

/* One test through the session, as `corral OPTS -explain` runs it. */
static void run_one(const Job *j, const char *libdir, Totals *tot) {
  corral_options *o = corral_options_new(libdir);
  Probe pr = {0};
  pr.path = j->path;
  pr.mutate = true;
  pr.model_files = j->model_files;
  bool ok = apply_opts(o, j->opts, j->path) &&
            apply_opts(o, j->all ? "-explain -explain-all" : "-explain", j->path);
  o->explain_probe = probe;
  o->explain_probe_ctx = &pr;
  corral_result r = {0};
  if (ok) {
    ok = corral_run_file(o, j->path, &r) == CORRAL_OK;
    if (!ok) printf("  %s: %s", j->path, r.diag ? r.diag : "failed\n");
  }
  pthread_mutex_lock(&tot->lock);
  tot->tests++;
  if (!ok) {
    tot->errors++;
    printf("  %s: did not run\n", j->path);
  } else {
    tot->verified += pr.verified;
    tot->failed += pr.failed;
    tot->groups += pr.groups;
    tot->mutations += pr.mutations;
    tot->caught += pr.mutations_caught;
    /* a Never test explains each group with at least one execution;
     * without a group, no candidate may reach the condition (values out
     * of thin air: LB with data dependencies) */
    if (pr.groups == 0 && pr.nreach == 0) {
      tot->unreachable++;
      printf("  %s: no candidate reaches the condition\n", j->path);
    } else if (pr.groups == 0 || pr.verified + pr.failed < pr.groups) {
      tot->unexplained++;
      printf("  %s: %d checks, %d explained\n", j->path, pr.groups, pr.verified + pr.failed);
    }
    if (pr.groups > 0 && pr.verified >= pr.groups && !pr.failed && !pr.foreign) tot->named++;
    for (int i = 0; i < pr.nnames; i++) count_check(tot, pr.names[i]);
  }
  pthread_mutex_unlock(&tot->lock);
  corral_result_free(&r);
  corral_options_free(o);
}

typedef struct Pool {
  Job *jobs;
  int n, next;
  const char *libdir;
  pthread_mutex_t lock;
  Totals *tot;
} Pool;

static void *worker(void *arg) {
  Pool *pl = arg;
  for (;;) {
    pthread_mutex_lock(&pl->lock);
    int i = pl->next++;
    pthread_mutex_unlock(&pl->lock);
    if (i >= pl->n) return NULL;
    run_one(&pl->jobs[i], pl->libdir, pl->tot);
  }
}

static void run_pool(Job *jobs, int n, const char *libdir, Totals *tot) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int nt = cores > 0 ? (int)(cores < 32 ? cores : 32) : 1;
  Pool pl = {jobs, n, 0, libdir, PTHREAD_MUTEX_INITIALIZER, tot};
  pthread_t th[32];
  for (int i = 0; i < nt; i++) pthread_create(&th[i], NULL, worker, &pl);
  for (int i = 0; i < nt; i++) pthread_join(th[i], NULL);
}

static void print_totals(const char *what, const Totals *t) {
  printf("%s: %d Never tests, %d checks, %d explanations verified, %d wrong, "
         "%d not run, %d unexplained, %d unreachable, %d/%d mutations caught\n",
         what, t->tests, t->groups, t->verified, t->failed, t->errors, t->unexplained,
         t->unreachable, t->caught, t->mutations);
}

static void check_totals(const Totals *t) {
  CHECK_INT(t->errors, 0);
  CHECK_INT(t->failed, 0);
  CHECK_INT(t->unexplained, 0);
  CHECK(t->verified >= t->groups);
  CHECK(t->mutations > 0);
  CHECK_INT(t->caught, t->mutations);
}

/* The files of the LKMM: linux-kernel.cat and what it includes (ours:
 * lkmm-locks.cat; herd's: lock.cat, which includes cos-opt.cat). */
#define LKMM_OWN "linux-kernel.cat lkmm-locks.cat"
#define LKMM_CORPUS "linux-kernel.cat lock.cat cos-opt.cat"

/* Our own Never tests with our own models (no ../shared needed), every
 * rejected execution explained: x86 with -model, and the LKMM ones with
 * models/linux-kernel.cfg (bell, macros, variant), each explained by a
 * check of linux-kernel.cat. */
static void own_tests(void) {
  static const char *const x86[] = {"SB-mfences", "CoWR4"};
  static const char *const lkmm[] = {
      "lkmm-2locks",    "lkmm-MP-wmb-rmb", "lkmm-atomic-after", "lkmm-plain-relacq",
      "lkmm-rcu-gp",    "lkmm-rcu-nested", "lkmm-spinlock",     "lkmm-srcu-gp",
      "lkmm-trylock",   "lkmm-unlock-lock"};
  VEC(Job) jobs = {0};
  for (size_t i = 0; i < ARRAY_LEN(x86) + ARRAY_LEN(lkmm); i++) {
    bool is_x86 = i < ARRAY_LEN(x86);
    Job j = {.all = true};
    snprintf(j.path, sizeof j.path, "tests/litmus/%s.litmus",
             is_x86 ? x86[i] : lkmm[i - ARRAY_LEN(x86)]);
    snprintf(j.opts, sizeof j.opts, "%s", is_x86 ? "-model x86tso.cat" : "-conf linux-kernel.cfg");
    j.model_files = is_x86 ? "x86tso.cat" : LKMM_OWN;
    vec_push(jobs, j);
  }
  Totals tot = {.lock = PTHREAD_MUTEX_INITIALIZER};
  run_pool(jobs.data, jobs.len, "models", &tot);
  print_totals("own", &tot);
  printf("own: %d of %d tests explained by a check of their model, every cycle re-checked "
         "(%s)\n", tot.named, tot.tests, tot.checks);
  check_totals(&tot);
  CHECK_INT(tot.tests, jobs.len);
  CHECK_INT(tot.named, jobs.len);
  CHECK_INT(tot.unreachable, 0);
  vec_free(jobs);
}

/* The Never tests of the corpus: article, x86 and ppc with their -model;
 * the whole linux suite with -conf linux-kernel.cfg, each explained by a
 * check of linux-kernel.cat. */
static void corpus(void) {
  const char *root = "../shared/conformance";
  char path[1024];
  snprintf(path, sizeof path, "%s/MANIFEST.tsv", root);
  char *man = read_file(path, NULL);
  if (!man) {
    printf("corpus: %s not found, skipped\n", path);
    return;
  }
  VEC(Job) jobs = {0};
  VEC(Job) linux = {0};
  char *save = NULL;
  for (char *line = strtok_r(man, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    char suite[64], test[900], opts[256], ms[32], obs[32];
    /* suite \t test \t options \t ms \t observation */
    if (sscanf(line, "%63[^\t]\t%899[^\t]\t%255[^\t]\t%31[^\t]\t%31s", suite, test, opts, ms,
               obs) != 5 || strcmp(obs, "Never"))
      continue;
    bool is_linux = !strcmp(suite, "linux");
    if (!is_linux && strcmp(suite, "article") && strcmp(suite, "x86") && strcmp(suite, "ppc"))
      continue;
    Job j = {0};
    snprintf(j.path, sizeof j.path, "%s/%s", root, test);
    snprintf(j.opts, sizeof j.opts, "%s", opts);
    j.all = !strcmp(suite, "article") || !strcmp(suite, "x86"); /* small: every execution */
    if (is_linux) {
      j.model_files = LKMM_CORPUS;
      vec_push(linux, j);
    } else {
      vec_push(jobs, j);
    }
  }
  free(man);
  snprintf(path, sizeof path, "%s/models", root);
  Totals tot = {.lock = PTHREAD_MUTEX_INITIALIZER};
  run_pool(jobs.data, jobs.len, path, &tot);
  print_totals("corpus article/x86/ppc", &tot);
  CHECK(tot.tests > 900);
  check_totals(&tot);
  Totals lk = {.lock = PTHREAD_MUTEX_INITIALIZER};
  run_pool(linux.data, linux.len, path, &lk);
  print_totals("corpus linux", &lk);
  printf("corpus linux: %d of %d Never tests explained by a check of linux-kernel.cat "
         "(or its lock.cat, cos-opt.cat), every cycle re-checked; %d reached by no "
         "candidate\n  checks: %s\n", lk.named, lk.tests, lk.unreachable, lk.checks);
  CHECK(lk.tests >= 40);
  check_totals(&lk);
  CHECK_INT(lk.named + lk.unreachable, lk.tests);
  vec_free(jobs);
  vec_free(linux);
}

int main(void) {
  own_tests();
  corpus();
  return check_report("test_explain");
}
