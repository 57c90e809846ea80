/*
 * sem_vulkan.c — Vulkan's semantics: sem_gpu.c's, with Vulkan's scopes
 * (subgroup inside workgroup inside queue family inside the device, from
 * headers "P0@sg 0,wg 0, qf 0"), atomics tagged alike on both halves,
 * and the relations the Vulkan model reads (ssg, swg, sqf, syncbar,
 * vloc, ssw).  Executions are chosen with the "gpu-total-co" prelude
 * (src/cat/prelude.c): co total per location, blocked control barriers
 * rejected.
 */
#include "sem_gpu.h"

static const char *const vulkan_rels[] = {
    "ssg", "swg", "sqf", "syncbar", "vloc", "ssw", "sr", "corral-stuck", NULL,
};

static const GpuSem vulkan_gpu = {
    .level_names = {"sg", "wg", "qf"},
    .levels = {true, true, true},
    .scope_tags = {GT_SG, GT_WG, GT_QF, GT_DV},
    .rel_names = vulkan_rels,
    .split_rmw_orders = false,
};

GPU_SEM_FUNCTIONS(vulkan, vulkan_gpu)

/* Every tag a Vulkan model may name is bound, empty when no event has it
 * (Dartagnan binds any undefined name to the events of that tag). */
static const char *const vulkan_sets[] = {
    "NONPRIV", "ATOM", "REL", "ACQ", "SC0", "SC1", "SC2", "SC3", "SEMSC0",
    "SEMSC1", "SEMSC2", "SEMSC3", "AV", "VIS", "SEMAV", "SEMVIS", "AVDEVICE",
    "VISDEVICE", "CBAR", "SG", "WG", "QF", "DV", "RMW", "UB", NULL,
};

const SemArch sem_vulkan = {.arch = ARCH_VULKAN, .exec = exec_vulkan, .set_names = vulkan_sets,
                         .rel_names = vulkan_rels, .rel = rel_vulkan, .rel_reads_values = rel_values_vulkan,
                         .cat_prelude = "gpu-total-co"};
