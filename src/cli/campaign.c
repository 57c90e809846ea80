/*
 * campaign.c — many tests at once.  Worker threads take the next test of
 * the list and simulate it; the calling thread hands the results on in
 * input order as soon as the next one is done, so output streams and is
 * the same for any number of workers.  A result waits in memory only
 * while an earlier test is still running, and workers run at most WINDOW
 * tests ahead of the first one not yet handed on, which bounds that
 * memory when one test is much slower than the others.
 */
#include <malloc.h>
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
  pthread_mutex_t lock;
  pthread_cond_t done_cv;  /* a test is done */
  pthread_cond_t taken_cv; /* a result was handed on */
  int next;                /* next test to start */
  int taken;               /* results handed on */
  bool stop;
  corral_result *res;
  bool *done;
} Campaign;

static void *worker(void *arg) {
  Campaign *c = arg;
  for (;;) {
    pthread_mutex_lock(&c->lock);
    while (!c->stop && c->next < c->f->n && c->next >= c->taken + WINDOW)
      pthread_cond_wait(&c->taken_cv, &c->lock);
    int i = c->stop || c->next >= c->f->n ? -1 : c->next++;
    pthread_mutex_unlock(&c->lock);
    if (i < 0) return NULL;
    corral_result r;
    corral_run_file(c->o, c->f->v[i], &r);
    pthread_mutex_lock(&c->lock);
    c->res[i] = r;
    c->done[i] = true;
    pthread_cond_broadcast(&c->done_cv);
    pthread_mutex_unlock(&c->lock);
  }
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

int campaign_run(const corral_options *o, const Files *f, int workers, bool progress,
                 ResultFn fn, void *ctx) {
  Campaign c;
  memset(&c, 0, sizeof c);
  c.o = o;
  c.f = f;
  pthread_mutex_init(&c.lock, NULL);
  pthread_cond_init(&c.done_cv, NULL);
  pthread_cond_init(&c.taken_cv, NULL);
  c.res = calloc((size_t)f->n + 1, sizeof(corral_result));
  c.done = calloc((size_t)f->n + 1, sizeof(bool));
  if (!c.res || !c.done) abort();
  if (workers > f->n) workers = f->n;
  /* glibc gives the free top of a malloc arena back to the kernel as soon
   * as it passes 128 KiB (brk for the main arena, madvise for a thread's
   * own): with a test's memory freed at its end, the next test faulted
   * the same pages in again, and the page faults of the threads of one
   * process contend on its memory map lock (-j 2 had 4 to 8 times the
   * faults of -j 1 and 3 to 5 times its system time).  Keeping up to
   * 64 MiB per arena stops the churn.  The CLI owns the process, so this
   * process-wide setting is made here, not in libcorral. */
  if (f->n > 1) mallopt(M_TRIM_THRESHOLD, 64 << 20);
  pthread_t *tid = calloc((size_t)workers + 1, sizeof(pthread_t));
  if (!tid) abort();
  int started = 0;
  if (workers > 1) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, thread_stack());
    for (; started < workers; started++)
      if (pthread_create(&tid[started], &attr, worker, &c) != 0) break;
    pthread_attr_destroy(&attr);
  }
  double t0 = wall_now(), shown = 0;
  int rc = 0, failed = 0;
  for (int i = 0; i < f->n; i++) {
    corral_result r;
    if (started == 0) {
      corral_run_file(o, f->v[i], &r); /* no thread could start: run here */
    } else {
      pthread_mutex_lock(&c.lock);
      while (!c.done[i]) pthread_cond_wait(&c.done_cv, &c.lock);
      r = c.res[i];
      memset(&c.res[i], 0, sizeof r); /* now owned here */
      c.taken = i + 1;
      pthread_cond_broadcast(&c.taken_cv);
      pthread_mutex_unlock(&c.lock);
    }
    if (r.status != CORRAL_OK) failed++;
    int v = fn(ctx, i, f->v[i], &r);
    corral_result_free(&r);
    if (progress && (i + 1 == f->n || wall_now() - shown > 0.1)) {
      progress_line(i + 1, f->n, failed, t0); /* at most ten a second */
      shown = wall_now();
    }
    if (v) {
      rc = v;
      pthread_mutex_lock(&c.lock);
      c.stop = true;
      pthread_cond_broadcast(&c.taken_cv);
      pthread_mutex_unlock(&c.lock);
      break;
    }
  }
  for (int k = 0; k < started; k++) pthread_join(tid[k], NULL);
  if (progress) fputs("\r\033[K", stderr);
  /* results of the tests that ran after a stop (zero for the others) */
  for (int i = 0; i < f->n; i++) corral_result_free(&c.res[i]);
  free(tid);
  free(c.res);
  free(c.done);
  pthread_cond_destroy(&c.done_cv);
  pthread_cond_destroy(&c.taken_cv);
  pthread_mutex_destroy(&c.lock);
  return rc;
}
