/*
 * pool.c — helper threads kept for a series of jobs (see pool.h).
 */
#include "pool.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "spawn.h"
#include "util.h"

/* How long an idle helper spins before it sleeps. */
#define SPIN_NS 2000000L

typedef struct Helper {
  pthread_t tid;
  pthread_mutex_t lock;
  pthread_cond_t cond;   /* a job was posted, or one is done */
  void *(*fn)(void *);   /* the job; NULL when idle (written under lock) */
  void *arg;
  int posted;            /* fn is set (1) or not (0), read while spinning;
                            1 also once quit is set */
  bool quit;
  bool running;          /* the helper has taken fn (under lock) */
  bool started;          /* the thread runs (set by the poster only) */
} Helper;

struct Pool {
  Helper *h;
  int n;
  size_t stack;
  CpuPlan plan;          /* made when the first helper starts */
  bool planned;
};

static double mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/* Spin until h->posted is `want` or SPIN_NS have passed. */
static void spin_until(Helper *h, int want) {
  double until = mono_ns() + SPIN_NS;
  for (unsigned k = 1;; k++) {
    if (__atomic_load_n(&h->posted, __ATOMIC_ACQUIRE) == want) return;
    cpu_relax();
    if (k % 256 == 0 && mono_ns() > until) return;
  }
}

static void *helper_main(void *arg) {
  Helper *h = arg;
  for (;;) {
    spin_until(h, 1);
    pthread_mutex_lock(&h->lock);
    while (!h->fn && !h->quit) pthread_cond_wait(&h->cond, &h->lock);
    if (!h->fn) { /* quit, nothing left to do */
      pthread_mutex_unlock(&h->lock);
      return NULL;
    }
    void *(*fn)(void *) = h->fn;
    void *a = h->arg;
    h->running = true;
    pthread_mutex_unlock(&h->lock);
    fn(a);
    pthread_mutex_lock(&h->lock);
    h->fn = NULL;
    h->running = false;
    __atomic_store_n(&h->posted, h->quit, __ATOMIC_RELAXED); /* a quit ends the next spin */
    pthread_cond_broadcast(&h->cond);
    pthread_mutex_unlock(&h->lock);
  }
}

Pool *pool_new(int n, size_t stack) {
  if (n < 1) return NULL;
  Pool *p = xcalloc(1, sizeof *p);
  p->h = xcalloc((size_t)n, sizeof *p->h);
  p->n = n;
  p->stack = stack;
  for (int i = 0; i < n; i++) {
    pthread_mutex_init(&p->h[i].lock, NULL);
    pthread_cond_init(&p->h[i].cond, NULL);
  }
  return p;
}

/* Start helper i's thread if it has none; false when it cannot start. */
static bool ensure_started(Pool *p, int i) {
  Helper *h = &p->h[i];
  if (h->started) return true;
  if (!p->planned) {
    cpuplan_init(&p->plan);
    p->planned = true;
  }
  h->started = cpuplan_spawn(&p->plan, i + 1, p->stack, &h->tid, helper_main, h);
  return h->started;
}

int pool_size(const Pool *p) { return p ? p->n : 0; }

void pool_wait(Pool *p, int i) {
  Helper *h = &p->h[i];
  if (!h->started) return; /* its jobs ran in pool_post */
  spin_until(h, 0); /* the job is usually about to end */
  pthread_mutex_lock(&h->lock);
  while (h->fn) pthread_cond_wait(&h->cond, &h->lock);
  pthread_mutex_unlock(&h->lock);
}

bool pool_withdraw(Pool *p, int i) {
  Helper *h = &p->h[i];
  if (!h->started) return false; /* its jobs ran in pool_post */
  pthread_mutex_lock(&h->lock);
  bool taken = h->fn && !h->running;
  if (taken) {
    h->fn = NULL;
    __atomic_store_n(&h->posted, h->quit, __ATOMIC_RELAXED);
    pthread_cond_broadcast(&h->cond);
  }
  pthread_mutex_unlock(&h->lock);
  if (!taken) pool_wait(p, i);
  return taken;
}

void pool_post(Pool *p, int i, void *(*fn)(void *), void *arg) {
  Helper *h = &p->h[i];
  if (!ensure_started(p, i)) {
    fn(arg);
    return;
  }
  pthread_mutex_lock(&h->lock);
  while (h->fn) pthread_cond_wait(&h->cond, &h->lock);
  h->fn = fn;
  h->arg = arg;
  __atomic_store_n(&h->posted, 1, __ATOMIC_RELEASE);
  pthread_cond_broadcast(&h->cond);
  pthread_mutex_unlock(&h->lock);
}

void pool_each(Pool *p, int n, void *(*fn)(void *), void *base, size_t size) {
  int k = MIN(n - 1, pool_size(p));
  for (int i = 1; i <= k; i++) pool_post(p, i - 1, fn, (char *)base + (size_t)i * size);
  for (int i = 0; i < n; i++)
    if (i == 0 || i > k) fn((char *)base + (size_t)i * size);
  for (int i = 1; i <= k; i++) pool_wait(p, i - 1);
}

void pool_free(Pool *p) {
  if (!p) return;
  for (int i = 0; i < p->n; i++) {
    Helper *h = &p->h[i];
    if (!h->started) continue;
    pthread_mutex_lock(&h->lock);
    h->quit = true;
    __atomic_store_n(&h->posted, 1, __ATOMIC_RELEASE); /* ends a spin */
    pthread_cond_broadcast(&h->cond);
    pthread_mutex_unlock(&h->lock);
  }
  for (int i = 0; i < p->n; i++) {
    if (p->h[i].started) pthread_join(p->h[i].tid, NULL);
    pthread_cond_destroy(&p->h[i].cond);
    pthread_mutex_destroy(&p->h[i].lock);
  }
  free(p->h);
  free(p);
}
