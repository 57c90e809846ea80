/*
 * sem_ptx.c — PTX's semantics: sem_gpu.c's, with PTX's scopes (cta
 * inside gpu inside sys, from headers "P0@cta 0,gpu 0"), atomics whose
 * load half is acquire and store half release, and the relations PTX
 * models read (sr, scta, syncbar, vloc).  Executions are chosen with
 * the "gpu-partial-co" prelude (src/cat/prelude.c): co partial per
 * location, sync_fence a chosen order of SC fences, blocked barriers
 * rejected.
 */
#include "sem_gpu.h"

static const char *const ptx_rels[] = {"sr", "scta", "syncbar", "vloc", "corral-stuck", NULL};

static const GpuSem ptx_gpu = {
    .level_names = {"cta", "gpu", NULL},
    .levels = {true, true, false},
    .scope_tags = {GT_CTA, GT_GPU, -1, GT_SYS},
    .rel_names = ptx_rels,
    .split_rmw_orders = true,
};

GPU_SEM_FUNCTIONS(ptx, ptx_gpu)

/* Every tag a PTX model may name is bound, empty when no event has it
 * (Dartagnan binds any undefined name to the events of that tag). */
static const char *const ptx_sets[] = {
    "RLX", "REL", "ACQ", "ACQ_REL", "SC", "GEN", "SUR", "TEX", "CON", "ALIAS",
    "CTA", "GPU", "SYS", "RMW", "UB", NULL,
};

const SemArch sem_ptx = {.arch = ARCH_PTX, .exec = exec_ptx, .set_names = ptx_sets,
                         .rel_names = ptx_rels, .rel = rel_ptx, .rel_reads_values = rel_values_ptx,
                         .cat_prelude = "gpu-partial-co"};
