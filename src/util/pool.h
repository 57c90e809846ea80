/*
 * pool.h — helper threads kept for a series of jobs.
 *
 * A helper is of use only some time after it is created: it has to be
 * placed on another CPU (spawn.h), and its first steps fault in a fresh
 * stack and malloc arena; on this VM a thread costs about 0.1 ms to start
 * and join, more before it runs at full speed.  So one run of a test has
 * one pool, and every stage that shares work (the search of each event
 * structure, the sort of each worker's states, the rounds of state lines)
 * posts jobs to the same helpers instead of starting threads of its own.
 *
 * A helper waits for its next job spinning for a short while (the next
 * round is usually a millisecond away, and waking a sleeping vCPU costs
 * more), then asleep.
 */
#ifndef CORRAL_POOL_H
#define CORRAL_POOL_H

#include <stdbool.h>
#include <stddef.h>

typedef struct Pool Pool;

/* Room for up to n helpers with stacks of `stack` bytes (NULL when n < 1).
 * No thread starts here: helper i starts with its first job, so a run
 * that turns out too small to share pays nothing, and one that shares
 * several times (each event structure's search, the sort of the states,
 * the state lines) starts each helper once. */
Pool *pool_new(int n, size_t stack);
/* How many helpers there is room for (0 for NULL). */
int pool_size(const Pool *p);
/* Helper i (0-based) runs fn(arg) after its current job, if any.  When
 * its thread cannot be started, fn(arg) runs here, before the return. */
void pool_post(Pool *p, int i, void *(*fn)(void *), void *arg);
/* Returns when helper i has no job. */
void pool_wait(Pool *p, int i);
/* Takes back helper i's job if the helper has not begun it (true: it
 * never runs), else waits for it like pool_wait (false).  For jobs that
 * may find nothing left to do: the caller need not wait for a helper
 * that is still being scheduled. */
bool pool_withdraw(Pool *p, int i);
/* fn on each of n records of `size` bytes from base: the first here, the
 * others on helpers 0, 1, ... (here too past the pool's size, or with no
 * pool).  Returns when all are done. */
void pool_each(Pool *p, int n, void *(*fn)(void *), void *base, size_t size);
/* Waits for the jobs, stops the helpers.  NULL is accepted. */
void pool_free(Pool *p);

#endif
