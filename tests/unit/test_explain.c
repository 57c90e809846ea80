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
 * It runs on our own tests and models, then on every Never test of the
 * article, x86 and ppc suites of ../shared when it is there (every
 * rejected execution for the first two, one per check for ppc), and checks
 * that the verifier rejects each explanation once corrupted (so it can
 * fail).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cat/interp.h"
#include "check.h"
#include "exec/engine.h"
#include "litmus/litmus.h"
#include "out/explain.h"

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

/* ---------------------------------------------------------- the sink */

typedef struct Probe {
  Explanation *x;
  const char *path;
  int verified, failed, mutations_caught, mutations;
  bool mutate;
} Probe;

static void probe_sink(void *ctx, const ExecView *v) {
  Probe *pr = ctx;
  int before = pr->x->execs.len;
  explain_sink(pr->x, v);
  if (pr->x->execs.len == before || !v->failure) return;
  ExExec *ex = &pr->x->execs.data[before];
  const char *text = pr->x->groups.data[ex->group].text;
  char why[256];
  if (verify(v, ex, text, why, sizeof why)) {
    pr->verified++;
  } else {
    pr->failed++;
    printf("  %s: %s: %s\n", pr->path, text, why);
  }
  if (!pr->mutate || ex->nfine == 0) return;
  /* the verifier must see a wrong label, and a broken path */
  pr->mutations += 2;
  ExEdge saved = ex->fine[0];
  ex->fine[0].label = "no-such-relation";
  if (!verify(v, ex, text, why, sizeof why)) pr->mutations_caught++;
  ex->fine[0] = saved;
  ex->fine[0].a = (saved.a + 1) % v->d.n;
  if (!verify(v, ex, text, why, sizeof why)) pr->mutations_caught++;
  ex->fine[0] = saved;
}

/* ---------------------------------------------------------- running */

typedef struct Job {
  char path[1024];
  char model[256];
  bool all;       /* explain every rejected execution, not one per check */
} Job;

typedef struct Totals {
  pthread_mutex_t lock;
  int tests, errors, verified, failed, groups, unexplained;
  int mutations, caught;
} Totals;

static void run_one(const Job *j, const char *libdir, Totals *tot) {
  Err err;
  err_init(&err);
  char *text = read_file(j->path, NULL);
  Test *volatile t = NULL;
  CatModel *volatile m = NULL;
  CProg *volatile prog = NULL;
  Program *volatile p = NULL;
  Explanation *volatile x = NULL;
  Arena a;
  arena_init(&a);
  Probe pr = {0};
  bool ok = false;
  ErrJmp jb;
  err_push(&err, &jb);
  if (text && setjmp(jb.jb) == 0) {
    t = litmus_parse(j->path, text, &err);
    const char *search[] = {libdir};
    if (t) m = cat_load(j->model, NULL, search, 1, &err);
    if (t && m) {
      CatConfig cfg = {0};
      prog = cat_compile(m, &cfg, &err);
      p = program_new(t, &err, 2);
      EngineOpts eo = {0};
      eo.checkfilter = true;
      ExplainOpts xo = {j->all, false};
      x = explain_new(p, &xo);
      pr.x = x;
      pr.path = j->path;
      pr.mutate = true;
      eo.run_mode = explain_run_mode(&xo);
      eo.exec_sink = probe_sink;
      eo.sink_ctx = &pr;
      Outcome out;
      engine_run(p, prog, &eo, &out, &a, &err);
      outcome_free(&out);
      ok = true;
    }
    err_pop(&err, &jb);
  }
  pthread_mutex_lock(&tot->lock);
  tot->tests++;
  if (!ok) {
    tot->errors++;
    printf("  %s: did not run\n", j->path);
  } else {
    tot->verified += pr.verified;
    tot->failed += pr.failed;
    tot->groups += x->groups.len;
    tot->mutations += pr.mutations;
    tot->caught += pr.mutations_caught;
    /* a Never test explains each group with at least one execution */
    if (pr.verified + pr.failed < x->groups.len) tot->unexplained++;
  }
  pthread_mutex_unlock(&tot->lock);
  explain_free(x);
  program_free(p);
  cat_prog_free(prog);
  cat_model_free(m);
  test_free(t);
  arena_free(&a);
  err_free(&err);
  free(text);
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

/* Our own tests with our own models (no ../shared needed), with every
 * rejected execution explained and the mutations checked. */
static void own_tests(void) {
  static const char *const tests[] = {"tests/litmus/SB-mfences.litmus",
                                      "tests/litmus/CoWR4.litmus"};
  Totals tot = {PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, 0, 0, 0, 0, 0};
  for (size_t i = 0; i < ARRAY_LEN(tests); i++) {
    Job j;
    snprintf(j.path, sizeof j.path, "%s", tests[i]);
    snprintf(j.model, sizeof j.model, "x86tso.cat");
    j.all = true;
    run_one(&j, "models", &tot);
  }
  printf("own: %d tests, %d explanations verified, %d wrong, %d/%d mutations caught\n",
         tot.tests, tot.verified, tot.failed, tot.caught, tot.mutations);
  CHECK_INT(tot.errors, 0);
  CHECK_INT(tot.failed, 0);
  CHECK(tot.verified > 2);
  CHECK(tot.mutations > 0);
  CHECK_INT(tot.caught, tot.mutations);
}

/* Every Never test of the article, x86 and ppc suites. */
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
  for (char *line = strtok(man, "\n"); line; line = strtok(NULL, "\n")) {
    char suite[64], test[900], opts[256], ms[32], obs[32];
    /* suite \t test \t options \t ms \t observation */
    if (sscanf(line, "%63[^\t]\t%899[^\t]\t%255[^\t]\t%31[^\t]\t%31s", suite, test, opts, ms,
               obs) != 5)
      continue;
    if (strcmp(obs, "Never") || (strcmp(suite, "article") && strcmp(suite, "x86") &&
                                 strcmp(suite, "ppc")))
      continue;
    char model[256], extra[8];
    if (sscanf(opts, "-model %255s %7s", model, extra) != 1) continue;
    Job j;
    snprintf(j.path, sizeof j.path, "%s/%s", root, test);
    snprintf(j.model, sizeof j.model, "%s", model);
    j.all = strcmp(suite, "ppc") != 0; /* the small suites: every execution */
    vec_push(jobs, j);
  }
  free(man);
  snprintf(path, sizeof path, "%s/models", root);
  Totals tot = {PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, 0, 0, 0, 0, 0};
  run_pool(jobs.data, jobs.len, path, &tot);
  printf("corpus: %d Never tests, %d groups, %d explanations verified, %d wrong, "
         "%d not run, %d unexplained, %d/%d mutations caught\n",
         tot.tests, tot.groups, tot.verified, tot.failed, tot.errors, tot.unexplained,
         tot.caught, tot.mutations);
  CHECK(tot.tests > 900);
  CHECK_INT(tot.errors, 0);
  CHECK_INT(tot.failed, 0);
  CHECK_INT(tot.unexplained, 0);
  CHECK(tot.verified >= tot.groups);
  CHECK_INT(tot.caught, tot.mutations);
  vec_free(jobs);
}

int main(void) {
  own_tests();
  corpus();
  return check_report("test_explain");
}
