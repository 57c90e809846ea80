/*
 * workers.c — the search of one structure shared between worker threads,
 * and the limits that stop it: the rf choices of the first reads are cut
 * into work items that the workers take in turn; helpers are posted only
 * when the search is long enough to pay for them; -timeout,
 * -maxcandidates and the server's deadline stop every worker.
 */
#include <stdlib.h>
#include <time.h>

#include "engine_int.h"
#include "util/pool.h"

double shared_cpu_time(const Shared *sh) {
  struct timespec ts;
  if (clock_gettime(sh->cpu_clock, &ts) != 0) return 0;
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* True when the search must stop: another worker stopped it (an error
 * or a limit), or this one finds the -timeout budget spent.  Cheap enough
 * for the inner loops: an atomic load, and a clock read every 256 calls
 * (a system call; candidates and work items take microseconds each). */
bool over_limits(Engine *g) {
  Shared *sh = g->sh;
  if (__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) return true;
  unsigned tick = g->limit_tick++;
  return (tick & 255) == 0 && limits_now(g);
}

/* The same, reading the clocks now: the model's long loops ask it
 * through CatHost.stop, after a bounded amount of work each time. */
bool limits_now(Engine *g) {
  Shared *sh = g->sh;
  if (__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) return true;
  if (g->o->timeout > 0 && shared_cpu_time(sh) - sh->cpu_start > g->o->timeout) {
    g->out->limit_hit = true;
    __atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
    return true;
  }
  /* corral serve: the request's cancel flag and wall-clock deadline */
  bool cancelled = g->o->cancel && __atomic_load_n(g->o->cancel, __ATOMIC_RELAXED);
  if (!cancelled && g->o->deadline > 0) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    cancelled = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 > g->o->deadline;
  }
  if (cancelled) {
    g->out->limit_hit = true;
    __atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
    return true;
  }
  return false;
}

bool host_stop(void *ctx) { return limits_now(ctx); }

static double thread_cpu_now(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void worker_items_run(Engine *g);

/* The items of the current structure, timed in this worker's CPU clock
 * (CORRAL_STATS prints the balance between workers). */
static void worker_items(Engine *g) {
  if (!g->sh->timed) {
    worker_items_run(g); /* a CPU clock is a system call: only for the stats */
    return;
  }
  double t0 = thread_cpu_now();
  worker_items_run(g);
  g->busy_cpu += thread_cpu_now() - t0;
}

/* Sharing a structure's search costs the calling thread 0.1 to 0.2 ms
 * (more for a process's first thread), a helper takes longer than that to
 * run at full speed, and most tests' searches are shorter: sharing them
 * made 465 of the 531 corpus tests that shared slower.  So the helpers are
 * posted at once only when the structure has many candidates; otherwise
 * the caller starts alone and posts them as soon as its first items show
 * that the rest would take SHARE_AFTER seconds or more. */
#define SHARE_AT_ONCE 1e6
#define SHARE_AFTER 1e-3

typedef struct Later {
  Pool *pool;
  Engine *w;      /* all workers; w[0] is the caller's */
  int n;          /* workers the search may use */
  int posted;     /* helpers posted: 0 or n - 1 */
  long done;      /* items the caller finished before posting */
  double t0;      /* when the caller finished its first item */
} Later;

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* An upper bound on the structure's candidates, up to SHARE_AT_ONCE: rf
 * choices times the coherence orders of writes that may share a location. */
static double candidate_bound(const Shared *sh) {
  const EventStructure *es = sh->es;
  double n = 1;
  for (int i = 0; i < es->nreads && n < SHARE_AT_ONCE; i++) n *= MAX(sh->ncands[i], 1);
  for (int a = 0; a < es->nwrites && n < SHARE_AT_ONCE; a++) {
    int k = 1; /* a, and the writes before it that it may be ordered with */
    for (int b = 0; b < a; b++) k += may_alias(es, es->writes[a], es->writes[b]);
    n *= k;
  }
  return n;
}

static void *worker_thread(void *arg);

static void post_helpers(Later *l) {
  for (int i = 1; i < l->n; i++) pool_post(l->pool, i - 1, worker_thread, &l->w[i]);
  l->posted = l->n - 1;
}

/* After each of the caller's items, until the helpers are posted.  The
 * first item is not timed: it pays for cold caches and fresh pages. */
static void share_if_worth(Later *l, const Shared *sh) {
  if (l->done++ == 0) {
    l->t0 = wall_now();
    return;
  }
  long left = sh->nitems - __atomic_load_n(&sh->next_item, __ATOMIC_RELAXED);
  if (left > 0 && (wall_now() - l->t0) * (double)left >= SHARE_AFTER * (double)(l->done - 1))
    post_helpers(l);
}

/* Work item k fixes the choices of the first `prefix` reads (mixed radix). */
static void worker_items_run(Engine *g) {
  Shared *sh = g->sh;
  for (;;) {
    long k = __atomic_fetch_add(&sh->next_item, 1, __ATOMIC_RELAXED);
    if (k >= sh->nitems || over_limits(g)) return;
    for (int i = sh->prefix - 1; i >= 0; i--) {
      g->rf_src[i] = sh->cands[i][k % sh->ncands[i]];
      k /= sh->ncands[i];
    }
    choose_rf(g, sh->prefix);
    if (g->later && !g->later->posted) share_if_worth(g->later, sh);
  }
}

static void *worker_thread(void *arg) {
  Engine *g = arg;
  ErrJmp j;
  err_push(&g->werr, &j);
  if (setjmp(j.jb) == 0) {
    worker_begin(g);
    worker_items(g);
    err_pop(&g->werr, &j);
  } else {
    g->failed = true;
    __atomic_store_n(&g->sh->stop, 1, __ATOMIC_RELAXED);
  }
  return NULL;
}

/* Enough work items to keep every worker busy, and few enough reads fixed
 * per item that an item is not trivial. */
static void split_work(Shared *sh, int nworkers) {
  long items = 1;
  int k = 0;
  while (k < sh->es->nreads && items < 16L * nworkers) {
    items *= MAX(sh->ncands[k], 1);
    k++;
  }
  sh->prefix = k;
  sh->nitems = items;
  for (int i = 0; i < k; i++)
    if (sh->ncands[i] == 0) sh->nitems = 0;
  sh->next_item = 0;
}

/* Run the rf search of the current structure on the workers: the first
 * here, the others on the run's helpers. */
void run_structure(Engine *w, int nworkers, Shared *sh, Pool *pool) {
  split_work(sh, nworkers);
  long total = 1;
  for (int i = 0; i < sh->es->nreads && total < 4096; i++) total *= MAX(sh->ncands[i], 1);
  Later later = {pool, w, total < 64 ? 1 : nworkers, 0, 0, 0};
  if (later.n > 1 && candidate_bound(sh) >= SHARE_AT_ONCE) post_helpers(&later);
  worker_begin(&w[0]);
  w[0].later = later.n > 1 ? &later : NULL;
  worker_items(&w[0]);
  w[0].later = NULL;
  /* a helper that has not begun would find no items left */
  for (int i = 1; i <= later.posted; i++) pool_withdraw(pool, i - 1);
  for (int i = 1; i <= later.posted; i++)
    if (w[i].failed) {
      /* report the worker's error as the test's */
      Err *e = w[0].err;
      sb_clear(&e->msg);
      sb_puts(&e->msg, sb_cstr(&w[i].werr.msg));
      SrcPos pos = w[i].werr.pos;
      w[i].failed = false;
      err_raise(e, w[i].werr.kind, pos, "%s", sb_cstr(&e->msg));
    }
}
