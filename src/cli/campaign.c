/*
 * campaign.c — many tests at once.  Worker threads take the next test of
 * the list and simulate it; results are handed on (printed) in input
 * order as soon as the next one is done, so output streams and is the
 * same for any number of workers.  The worker that completes the test
 * next in order hands on that result and every later one already done:
 * no thread sits waiting to print (a printing thread woke up, and
 * preempted a worker, once per test).  A result waits in memory only
 * while an earlier test is still running, and workers run at most
 * WINDOW tests ahead of the first one not yet handed on, which bounds
 * that memory when one test is much slower than the others.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

enum { WINDOW = 256 };

typedef struct Campaign {
  const corral_options *o;
  const Files *f;
  ResultFn fn;
  void *ctx;
  bool progress;
  double t0, shown;        /* start, and when the progress line was drawn */
  pthread_mutex_t lock;
  pthread_cond_t taken_cv; /* results were handed on */
  int next;                /* next test to start */
  int taken;               /* results handed on */
  int window_waiters;      /* workers waiting for taken to move */
  int failed;
  int rc;                  /* the first non-zero return of fn */
  bool handing;            /* a worker is handing results on */
  bool stop;
  corral_result *res;
  bool *done;
} Campaign;

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void progress_line(int done, int total, int failed, double t0) {
  double el = wall_now() - t0;
  fprintf(stderr, "\r\033[K[%d/%d] %d failed, %.0fs elapsed", done, total, failed, el);
  if (done > 0 && done < total) fprintf(stderr, ", ~%.0fs left", el / done * (total - done));
  fflush(stderr);
}

/* Hand on result i (owned by the caller until then): fn, progress. */
static void hand_on(Campaign *c, int i, corral_result *r) {
  if (r->status != CORRAL_OK) c->failed++;
  int v = c->fn(c->ctx, i, c->f->v[i], r);
  corral_result_free(r);
  if (c->progress && (i + 1 == c->f->n || wall_now() - c->shown > 0.1)) {
    progress_line(i + 1, c->f->n, c->failed, c->t0); /* at most ten a second */
    c->shown = wall_now();
  }
  if (v && !c->rc) c->rc = v;
}

/* With the lock held: hand on the results done in order, unless another
 * worker is at it (it will see ours: done[] is set under the lock). */
static void hand_on_ready(Campaign *c) {
  if (c->handing) return;
  c->handing = true;
  while (!c->stop && c->taken < c->f->n && c->done[c->taken]) {
    int i = c->taken;
    corral_result r = c->res[i];
    memset(&c->res[i], 0, sizeof r); /* now owned here */
    pthread_mutex_unlock(&c->lock);
    hand_on(c, i, &r);
    pthread_mutex_lock(&c->lock);
    c->taken = i + 1;
    if (c->rc) c->stop = true;
    if (c->window_waiters || c->stop) pthread_cond_broadcast(&c->taken_cv);
  }
  c->handing = false;
}

static void *worker(void *arg) {
  Campaign *c = arg;
  pthread_mutex_lock(&c->lock);
  for (;;) {
    while (!c->stop && c->next < c->f->n && c->next >= c->taken + WINDOW) {
      c->window_waiters++;
      pthread_cond_wait(&c->taken_cv, &c->lock);
      c->window_waiters--;
    }
    if (c->stop || c->next >= c->f->n) break;
    int i = c->next++;
    pthread_mutex_unlock(&c->lock);
    corral_result r;
    corral_run_file(c->o, c->f->v[i], &r);
    pthread_mutex_lock(&c->lock);
    c->res[i] = r;
    c->done[i] = true;
    hand_on_ready(c);
  }
  pthread_mutex_unlock(&c->lock);
  return NULL;
}

/* The stack the cat interpreter assumes a thread has (see run_new): that
 * of the main thread. */
static size_t thread_stack(void) {
  struct rlimit rl;
  size_t lim = (size_t)8 << 20;
  if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) lim = rl.rlim_cur;
  if (lim > (size_t)256 << 20) lim = (size_t)256 << 20;
  return lim < ((size_t)16 << 20) ? (size_t)16 << 20 : lim;
}

int campaign_run(const corral_options *o, const Files *f, int workers, bool progress,
                 ResultFn fn, void *ctx) {
  Campaign c;
  memset(&c, 0, sizeof c);
  c.o = o;
  c.f = f;
  c.fn = fn;
  c.ctx = ctx;
  c.progress = progress;
  pthread_mutex_init(&c.lock, NULL);
  pthread_cond_init(&c.taken_cv, NULL);
  c.res = calloc((size_t)f->n + 1, sizeof(corral_result));
  c.done = calloc((size_t)f->n + 1, sizeof(bool));
  if (!c.res || !c.done) abort();
  if (workers > f->n) workers = f->n;
  pthread_t *tid = calloc((size_t)workers + 1, sizeof(pthread_t));
  if (!tid) abort();
  c.t0 = wall_now();
  int started = 0;
  if (workers > 1) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, thread_stack());
    for (; started < workers; started++)
      if (pthread_create(&tid[started], &attr, worker, &c) != 0) break;
    pthread_attr_destroy(&attr);
  }
  if (started == 0) { /* one worker, or no thread could start: run here */
    for (int i = 0; i < f->n && !c.rc; i++) {
      corral_result r;
      corral_run_file(o, f->v[i], &r);
      hand_on(&c, i, &r);
    }
  }
  for (int k = 0; k < started; k++) pthread_join(tid[k], NULL);
  if (progress) fputs("\r\033[K", stderr);
  /* results of the tests that ran after a stop (zero for the others) */
  for (int i = 0; i < f->n; i++) corral_result_free(&c.res[i]);
  free(tid);
  free(c.res);
  free(c.done);
  pthread_cond_destroy(&c.taken_cv);
  pthread_mutex_destroy(&c.lock);
  return c.rc;
}
