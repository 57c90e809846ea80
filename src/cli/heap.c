/*
 * heap.c — back the corral command's heap with transparent huge pages.
 *
 * Why: a run touches from a few hundred KiB to a few MiB of fresh heap,
 * and on the virtual machines we run on the first touch of each 4 KiB
 * page costs about 10 us (the guest's fault and the hypervisor's page
 * table fill).  CoWR-8 took 120 such faults on its main thread, about
 * 1.2 ms, more than parsing and compiling its model.  One 2 MiB huge
 * page costs about 0.2 ms to fault in, then nothing.
 *
 * How: glibc grows its main heap with brk.  We make it grow in large
 * steps (M_TOP_PAD); skip the heap to the next 2 MiB boundary with one
 * allocation that is never written (address space, not memory); and mark
 * what lies beyond MADV_HUGEPAGE before anything writes there: a 2 MiB
 * range that already has a page table never gets a huge page.
 *
 * glibc also gives the free top of an arena back to the kernel as soon
 * as it passes 128 KiB (brk for the main arena, madvise for a thread's
 * own).  A campaign frees each test's memory at its end, and the next
 * test faulted the same pages in again; the faults of one process's
 * threads contend on its memory map lock (-j 2 had 4 to 8 times the
 * faults of -j 1 and 3 to 5 times its system time).  Keeping up to
 * 64 MiB per arena (M_TRIM_THRESHOLD) stops the churn.
 *
 * Everything here is a hint.  Where a step does not apply (another libc,
 * huge pages disabled, a sanitizer's allocator) the heap stays as it was
 * and only the faults are paid.  The CLI does this, not libcorral: it is
 * a policy of the process, and the library must not touch the
 * allocator's global settings.
 */
#include <stdint.h>
#include <stdlib.h>

#include "cli.h"

#if defined(__GLIBC__) && defined(__linux__) && !defined(__SANITIZE_ADDRESS__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

enum { HUGE = 2 << 20, GROWTH = 16 << 20 };

/* kept for the life of the process, never written (volatile: a compiler
 * may drop an allocation that is never read) */
static void *volatile heap_skip;

void heap_prepare(void) {
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  mallopt(M_TOP_PAD, GROWTH);
  mallopt(M_MMAP_THRESHOLD, 32 << 20); /* the skip below comes from the heap */
  /* a small block comes from the top of the heap: where the next ones go.
   * The skip must outgrow the heap glibc made at its first malloc (132 KiB
   * by default), so that the heap grows, by M_TOP_PAD, past `from`: a
   * range beyond the heap's end cannot be marked.  With 8 KiB here, one
   * run in seven (by where the kernel put the heap) kept the small heap
   * and every page of its blocks was faulted in alone. */
  char *probe = malloc(64);
  uintptr_t from = ((uintptr_t)probe + (256 << 10) + HUGE - 1) & ~(uintptr_t)(HUGE - 1);
  if (probe) heap_skip = malloc(from - (uintptr_t)probe - 256); /* ends just below `from` */
  free(probe);
  uintptr_t to = (uintptr_t)sbrk(0) & ~(uintptr_t)(HUGE - 1);
  if (heap_skip && to > from) madvise((void *)from, to - from, MADV_HUGEPAGE);
  /* Blocks of 1 MiB and more (large state tables) get mappings of their
   * own again: on the heap, growing one (a new block, a copy, the old
   * freed) raised RCU-19's peak from 31 to 38 MB; mremap moves none. */
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
}

/* A helper thread's first malloc makes it an arena of its own: a fresh
 * mapping whose pages are faulted in one by one (CoWR-8 -j 2: 17 of its
 * 74 faults, on the helper's critical path).  When the process runs one
 * test, its helpers allocate little (corral's own arenas take their
 * memory in 64 KiB blocks) and the main heap, on huge pages, serves them
 * without contention: CoWR-8 -j 2 0.3 ms and WWC-16 -j 2 5 ms faster, in
 * alternating runs.  A campaign runs whole tests in parallel threads,
 * which malloc all the time: they keep their own arenas (sharing one made
 * a -j 2 campaign 10% slower). */
void heap_one_test(void) { mallopt(M_ARENA_MAX, 1); }

#else

void heap_prepare(void) {}
void heap_one_test(void) {}

#endif
