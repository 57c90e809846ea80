/*
 * test_spawn.c — helper threads started on another CPU: helper i starts
 * on a single CPU other than its creator's when the process has several
 * (the creator's only when i wraps round), its function runs with every
 * allowed CPU back.
 */
#include <stdbool.h>

#include "check.h"
#include "util/spawn.h"

typedef struct Probe {
  cpu_set_t mask;
  int runs;
} Probe;

static void *probe(void *arg) {
  Probe *pr = arg;
  sched_getaffinity(0, sizeof pr->mask, &pr->mask);
  pr->runs++;
  return NULL;
}

int main(void) {
  CpuPlan plan;
  cpuplan_init(&plan);
  CHECK(plan.ncpu >= 1);
  /* the default -j: the CPUs the plan may place helpers on */
  CHECK(usable_cpus() == plan.ncpu);
  cpu_set_t mine, one_cpu;
  if (sched_getaffinity(0, sizeof mine, &mine) == 0) {
    CPU_ZERO(&one_cpu);
    CPU_SET(plan.here >= 0 ? plan.here : 0, &one_cpu);
    if (sched_setaffinity(0, sizeof one_cpu, &one_cpu) == 0) {
      CHECK(usable_cpus() == 1); /* taskset -c N corral: -j 1 */
      sched_setaffinity(0, sizeof mine, &mine);
    }
  }
  for (int i = 1; i <= 3; i++) {
    cpu_set_t one;
    bool placed = cpuplan_start_mask(&plan, i, &one);
    CHECK(placed == (plan.ncpu > 1 && plan.here >= 0));
    if (placed) {
      CHECK_INT(CPU_COUNT(&one), 1);
      CHECK(CPU_ISSET(plan.here, &one) == (i % plan.ncpu == 0));
      CPU_AND(&one, &one, &plan.cpus);
      CHECK_INT(CPU_COUNT(&one), 1); /* an allowed CPU */
    }
    Probe pr = {{{0}}, 0};
    pthread_t tid;
    CHECK(cpuplan_spawn(&plan, i, 1 << 20, &tid, probe, &pr));
    pthread_join(tid, NULL);
    CHECK_INT(pr.runs, 1);
    CHECK(CPU_EQUAL(&pr.mask, &plan.cpus));
  }
  return check_report("test_spawn");
}
