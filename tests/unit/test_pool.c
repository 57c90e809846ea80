/*
 * test_pool.c — helpers kept for a series of jobs: each posted job runs
 * exactly once, on a thread other than the poster's, and has finished
 * when pool_wait returns; a job posted while the last one runs waits for
 * it; jobs just past the spin (the helper asleep) still run; pool_free
 * waits for a job still running; helpers start with their first job
 * only; pool_each runs each record once, the first and those past the
 * pool's size on the caller; a job taken back by pool_withdraw never
 * runs, and one it could not take back has run when it returns.
 */
#include <pthread.h>
#include <stdbool.h>
#include <time.h>

#include "check.h"
#include "util/pool.h"

typedef struct Job {
  pthread_t ran_on;
  int runs;
  int sleep_ms;
  int begun; /* written first by the job */
  int done;  /* written last by the job */
} Job;

static void nap(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static void *job(void *arg) {
  Job *j = arg;
  __atomic_store_n(&j->begun, 1, __ATOMIC_RELEASE);
  if (j->sleep_ms) nap(j->sleep_ms);
  j->ran_on = pthread_self();
  j->runs++;
  __atomic_store_n(&j->done, 1, __ATOMIC_RELEASE);
  return NULL;
}

int main(void) {
  CHECK(pool_new(0, 0) == NULL);
  pool_free(NULL);
  CHECK_INT(pool_size(NULL), 0);

  /* no job, no thread: free at once; a job for helper 1 alone */
  pool_free(pool_new(3, 0));
  Pool *q = pool_new(2, 0);
  Job only = {0};
  pool_wait(q, 0); /* never started: nothing to wait for */
  pool_post(q, 1, job, &only);
  pool_wait(q, 1);
  CHECK_INT(only.runs, 1);
  CHECK(!pthread_equal(only.ran_on, pthread_self()));
  pool_free(q);

  /* pool_each: 5 records on a pool of 2, then with no pool */
  Job each[5] = {{0}};
  q = pool_new(2, 0);
  pool_each(q, 5, job, each, sizeof each[0]);
  for (int i = 0; i < 5; i++) {
    CHECK_INT(each[i].runs, 1);
    CHECK(pthread_equal(each[i].ran_on, pthread_self()) == (i == 0 || i > 2));
  }
  pool_free(q);
  Job alone[3] = {{0}};
  pool_each(NULL, 3, job, alone, sizeof alone[0]);
  for (int i = 0; i < 3; i++) CHECK(alone[i].runs == 1 && pthread_equal(alone[i].ran_on, pthread_self()));

  Pool *p = pool_new(2, 1 << 20);
  CHECK(p != NULL);
  if (!p) return check_report("pool");
  CHECK_INT(pool_size(p), 2);

  /* rounds, as the state lines use them: one job per helper, then wait */
  Job j[2][20] = {{{0}}};
  for (int r = 0; r < 20; r++) {
    for (int i = 0; i < 2; i++) pool_post(p, i, job, &j[i][r]);
    for (int i = 0; i < 2; i++) {
      pool_wait(p, i);
      CHECK_INT(__atomic_load_n(&j[i][r].done, __ATOMIC_ACQUIRE), 1);
      CHECK_INT(j[i][r].runs, 1);
      CHECK(!pthread_equal(j[i][r].ran_on, pthread_self()));
    }
  }
  /* the same helper each round, the two helpers different threads */
  CHECK(pthread_equal(j[0][0].ran_on, j[0][19].ran_on));
  CHECK(!pthread_equal(j[0][0].ran_on, j[1][0].ran_on));

  /* a second job posted while the first runs: both run, in order */
  Job slow = {.sleep_ms = 20}, next = {0};
  pool_post(p, 0, job, &slow);
  pool_post(p, 0, job, &next); /* waits for slow */
  CHECK_INT(__atomic_load_n(&slow.done, __ATOMIC_ACQUIRE), 1);
  pool_wait(p, 0);
  CHECK_INT(next.runs, 1);

  /* past the spin, the helper sleeps: a job still wakes it */
  nap(10);
  Job late = {0};
  pool_post(p, 1, job, &late);
  pool_wait(p, 1);
  CHECK_INT(late.runs, 1);

  /* pool_withdraw: a job taken back never runs; one the helper had begun
   * has finished when it returns.  Fresh pools, where the helper's thread
   * is still starting, give the first case; a running job the second. */
  for (int r = 0; r < 50; r++) {
    Pool *w = pool_new(1, 0);
    Job a = {0};
    pool_post(w, 0, job, &a);
    bool taken = pool_withdraw(w, 0);
    CHECK_INT(a.runs, taken ? 0 : 1);
    Job b = {0}; /* the helper still takes jobs */
    pool_post(w, 0, job, &b);
    pool_wait(w, 0);
    CHECK_INT(b.runs, 1);
    pool_free(w);
    CHECK_INT(a.runs, taken ? 0 : 1);
  }
  Job busy = {.sleep_ms = 20};
  pool_post(p, 0, job, &busy);
  while (!__atomic_load_n(&busy.begun, __ATOMIC_ACQUIRE)) nap(1);
  CHECK(!pool_withdraw(p, 0));
  CHECK_INT(__atomic_load_n(&busy.done, __ATOMIC_ACQUIRE), 1);
  CHECK(!pool_withdraw(p, 0)); /* no job: nothing to take back */

  /* pool_free with a job still running waits for it */
  Job last = {.sleep_ms = 20};
  pool_post(p, 1, job, &last);
  pool_free(p);
  CHECK_INT(__atomic_load_n(&last.done, __ATOMIC_ACQUIRE), 1);
  CHECK_INT(last.runs, 1);
  return check_report("pool");
}
