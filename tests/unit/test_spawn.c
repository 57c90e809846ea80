/*
 * test_spawn.c — helper threads started on another CPU: the helper runs,
 * starts on a single CPU other than its creator's when the process has
 * several, and has every allowed CPU back after cpuplan_release.
 */
#include <stdbool.h>

#include "check.h"
#include "util/spawn.h"

typedef struct Probe {
  const CpuPlan *plan;
  cpu_set_t before, after;
  bool ran;
} Probe;

static void *probe(void *arg) {
  Probe *pr = arg;
  sched_getaffinity(0, sizeof pr->before, &pr->before);
  cpuplan_release(pr->plan);
  sched_getaffinity(0, sizeof pr->after, &pr->after);
  pr->ran = true;
  return NULL;
}

int main(void) {
  CpuPlan plan;
  cpuplan_init(&plan);
  CHECK(plan.ncpu >= 1);
  for (int i = 1; i <= 3; i++) {
    Probe pr = {&plan, {{0}}, {{0}}, false};
    pthread_t tid;
    CHECK(cpuplan_spawn(&plan, i, 1 << 20, &tid, probe, &pr));
    pthread_join(tid, NULL);
    CHECK(pr.ran);
    if (plan.ncpu > 1 && plan.here >= 0) {
      CHECK_INT(CPU_COUNT(&pr.before), 1);
      /* the i-th CPU after the creator's: not the creator's unless i
       * wraps round to it */
      CHECK(CPU_ISSET(plan.here, &pr.before) == (i % plan.ncpu == 0));
    }
    CHECK(CPU_EQUAL(&pr.after, &plan.cpus));
  }
  return check_report("test_spawn");
}
