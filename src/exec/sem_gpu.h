/*
 * sem_gpu.h — the semantics PTX and Vulkan share (sem_gpu.c), told
 * apart by a GpuSem: the scope levels of thread headers, the tags that
 * name them, the relations the architecture binds, and how an atomic's
 * memory order goes to its halves.
 */
#ifndef CORRAL_SEM_GPU_H
#define CORRAL_SEM_GPU_H

#include "../litmus/gpu.h"
#include "sem.h"

enum { GPU_MAX_THREADS = 64 };

typedef struct GpuSem {
  /* thread header words, innermost first (PTX: cta, gpu; Vulkan: sg, wg,
   * qf); NULL past the last */
  const char *level_names[3];
  bool levels[3];          /* which of the three levels exist */
  /* the tag naming each level and the outermost (system/device), or -1 */
  int scope_tags[4];
  const char *const *rel_names;
  bool split_rmw_orders;   /* PTX: acquire on the load half, release on
                              the store half */
} GpuSem;

void gpu_exec(SemCtx *c, const Instr *ins, const GpuSem *gs);
void gpu_rel(const Program *p, const EventStructure *es, int which, Dim d, Word *bits,
             bool (*value)(void *ctx, Sym s, int64_t *out), void *vctx, const GpuSem *gs);
/* Does relation `which` of gs depend on the execution's values? */
bool gpu_rel_reads_values(const GpuSem *gs, int which);

/* The SemArch functions of an architecture described by GpuSem G. */
#define GPU_SEM_FUNCTIONS(NAME, G)                                              \
  static void exec_##NAME(SemCtx *c, const Instr *ins) { gpu_exec(c, ins, &(G)); } \
  static void rel_##NAME(const Program *p, const EventStructure *es, int which,   \
                         Dim d, Word *bits,                                       \
                         bool (*value)(void *ctx, Sym s, int64_t *out),           \
                         void *vctx) {                                            \
    gpu_rel(p, es, which, d, bits, value, vctx, &(G));                            \
  }                                                                               \
  static bool rel_values_##NAME(int which) { return gpu_rel_reads_values(&(G), which); }

#endif
