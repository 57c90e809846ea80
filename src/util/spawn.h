/*
 * spawn.h — starting helper threads on other CPUs.
 *
 * Linux starts a new thread on its creator's CPU and the load balancer
 * moves it to an idle CPU only some milliseconds later (longer in a VM,
 * whose idle vCPU sleeps): a 20 ms search split over two threads would run
 * on one CPU for most of its life.  So helper i is started on the i-th
 * allowed CPU after the creator's, and its mask is widened back to all the
 * allowed CPUs before its function runs: placed, not pinned.
 */
#ifndef CORRAL_SPAWN_H
#define CORRAL_SPAWN_H

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct CpuPlan {
  cpu_set_t cpus; /* the CPUs the process may use */
  int ncpu;       /* how many; placement only when above 1 */
  int here;       /* the creator's CPU when the plan was made, or -1 */
} CpuPlan;

/* How many CPUs the process may run on (at least 1): the default -j.
 * One system call, where sysconf's count of online CPUs reads a file in
 * /sys (three), and a process confined by taskset or a cpuset gets the
 * CPUs it has rather than the machine's. */
int usable_cpus(void);

/* Take the allowed CPUs and the calling thread's CPU. */
void cpuplan_init(CpuPlan *pl);

/* The mask helper i (1, 2, ...) starts with: the i-th allowed CPU after
 * the creator's, cyclically.  False when there is no choice to make (one
 * CPU, or the creator's CPU unknown). */
bool cpuplan_start_mask(const CpuPlan *pl, int i, cpu_set_t *one);

/* Start fn(arg) as helper i, placed as above, with a stack of stack
 * bytes (0: the default).  False when no thread could be started (the
 * caller then runs fn itself). */
bool cpuplan_spawn(const CpuPlan *pl, int i, size_t stack, pthread_t *tid,
                   void *(*fn)(void *), void *arg);

#endif
