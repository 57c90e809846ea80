/*
 * spawn.c — helper threads started on other CPUs (see spawn.h).
 */
#include "spawn.h"

#include <string.h>

void cpuplan_init(CpuPlan *pl) {
  memset(pl, 0, sizeof *pl);
  pl->here = -1;
  if (sched_getaffinity(0, sizeof pl->cpus, &pl->cpus) != 0) return;
  pl->ncpu = CPU_COUNT(&pl->cpus);
  pl->here = sched_getcpu();
}

/* The i-th allowed CPU after the creator's, cyclically. */
static int cpu_for(const CpuPlan *pl, int i) {
  int c = pl->here;
  for (int k = i % pl->ncpu; k > 0;) {
    c = (c + 1) % CPU_SETSIZE;
    if (CPU_ISSET(c, &pl->cpus)) k--;
  }
  return c;
}

/* One try: placed on cpu unless it is negative. */
static bool start(int cpu, size_t stack, pthread_t *tid, void *(*fn)(void *), void *arg) {
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) return false;
  bool ok = stack == 0 || pthread_attr_setstacksize(&attr, stack) == 0;
  if (ok && cpu >= 0) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    ok = pthread_attr_setaffinity_np(&attr, sizeof one, &one) == 0;
  }
  ok = ok && pthread_create(tid, &attr, fn, arg) == 0;
  pthread_attr_destroy(&attr);
  return ok;
}

bool cpuplan_spawn(const CpuPlan *pl, int i, size_t stack, pthread_t *tid,
                   void *(*fn)(void *), void *arg) {
  bool place = pl->ncpu > 1 && pl->here >= 0 && CPU_ISSET(pl->here, &pl->cpus);
  return (place && start(cpu_for(pl, i), stack, tid, fn, arg)) || start(-1, stack, tid, fn, arg);
}

void cpuplan_release(const CpuPlan *pl) {
  if (pl->ncpu > 1) pthread_setaffinity_np(pthread_self(), sizeof pl->cpus, &pl->cpus);
}
