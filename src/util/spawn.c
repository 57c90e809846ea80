/*
 * spawn.c — helper threads started on other CPUs (see spawn.h).
 */
#include "spawn.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

int usable_cpus(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)MIN(n, 1 << 20) : 1;
}

void cpuplan_init(CpuPlan *pl) {
  memset(pl, 0, sizeof *pl);
  pl->here = -1;
  if (sched_getaffinity(0, sizeof pl->cpus, &pl->cpus) != 0) return;
  pl->ncpu = CPU_COUNT(&pl->cpus);
  pl->here = sched_getcpu();
}

bool cpuplan_start_mask(const CpuPlan *pl, int i, cpu_set_t *one) {
  if (pl->ncpu < 2 || pl->here < 0 || pl->here >= CPU_SETSIZE || !CPU_ISSET(pl->here, &pl->cpus))
    return false;
  int c = pl->here;
  for (int k = i % pl->ncpu; k > 0;) {
    c = (c + 1) % CPU_SETSIZE;
    if (CPU_ISSET(c, &pl->cpus)) k--;
  }
  CPU_ZERO(one);
  CPU_SET(c, one);
  return true;
}

/* What a placed helper needs before it runs: the mask to widen to. */
typedef struct Start {
  cpu_set_t cpus;
  void *(*fn)(void *);
  void *arg;
} Start;

static void *placed_start(void *arg) {
  Start s = *(Start *)arg;
  free(arg);
  pthread_setaffinity_np(pthread_self(), sizeof s.cpus, &s.cpus);
  return s.fn(s.arg);
}

/* One try: with the start mask one unless it is NULL. */
static bool start(const cpu_set_t *one, size_t stack, pthread_t *tid, void *(*fn)(void *),
                  void *arg) {
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) return false;
  bool ok = stack == 0 || pthread_attr_setstacksize(&attr, stack) == 0;
  if (ok && one) ok = pthread_attr_setaffinity_np(&attr, sizeof *one, one) == 0;
  ok = ok && pthread_create(tid, &attr, fn, arg) == 0;
  pthread_attr_destroy(&attr);
  return ok;
}

bool cpuplan_spawn(const CpuPlan *pl, int i, size_t stack, pthread_t *tid,
                   void *(*fn)(void *), void *arg) {
  cpu_set_t one;
  if (cpuplan_start_mask(pl, i, &one)) {
    Start *s = xmalloc(sizeof *s);
    *s = (Start){pl->cpus, fn, arg};
    if (start(&one, stack, tid, placed_start, s)) return true;
    free(s);
  }
  return start(NULL, stack, tid, fn, arg);
}
