/*
 * pool.h — helper threads kept for a series of jobs.
 *
 * A helper is of use only some time after it is created: it has to be
 * placed on another CPU (spawn.h), and its first steps fault in a fresh
 * stack and malloc arena; on this VM a thread costs about 0.1 ms to start
 * and join, more before it runs at full speed.  Work done in rounds (the
 * state lines: a chunk per thread per round, written in order) keeps its
 * helpers for all the rounds instead of starting new ones each time.
 *
 * A helper waits for its next job spinning for a short while (the next
 * round is usually a millisecond away, and waking a sleeping vCPU costs
 * more), then asleep.
 */
#ifndef CORRAL_POOL_H
#define CORRAL_POOL_H

#include <stddef.h>

typedef struct Pool Pool;

/* Up to n helpers with stacks of `stack` bytes; NULL when none starts. */
Pool *pool_new(int n, size_t stack);
/* How many helpers started. */
int pool_size(const Pool *p);
/* Helper i (0-based) runs fn(arg) after its current job, if any. */
void pool_post(Pool *p, int i, void *(*fn)(void *), void *arg);
/* Returns when helper i has no job. */
void pool_wait(Pool *p, int i);
/* Waits for the jobs, stops the helpers.  NULL is accepted. */
void pool_free(Pool *p);

#endif
