/*
 * vulkan.c — the Vulkan/SPIR-V front end (Dat3M's LitmusVulkan.g4
 * dialect, ../shared/gpu/README.md): plain, non-private, available and
 * visible accesses, atomics, memory barriers, control barriers with
 * instance ids, named barriers and quorums, device-domain availability
 * and visibility operations, arithmetic and branches.  The layout of a
 * parsed instruction is gpu.h's; the tags are Dat3M's:
 *   st|ld.scI                    SCi
 *   st|ld.nonpriv.scI            NONPRIV, SCi
 *   st.av.S.scI / ld.vis.S.scI   AV / VIS, scope S, NONPRIV, SCi
 *   st.atom[.rel].S.scI[.semscJ]*[.semav]      ATOM, NONPRIV, AV, ...
 *   ld.atom[.acq].S.scI[.semscJ]*[.semvis]     ATOM, NONPRIV, VIS, ...
 *   rmw.atom[.acq|.rel|.acq_rel].S.scI[.semscJ]*[.semav][.semvis][.OP]
 *                                ATOM, NONPRIV, AV, VIS, RMW (acq_rel is
 *                                ACQ and REL)
 *   membar.ORDER.S[.semscJ]*[.semav][.semvis]  ORDER, S, ...
 *   cbar[.ORDER].S[.semscJ]*[.semav][.semvis] N[, id[, quorum]]
 *                                CBAR, S, ORDER...
 *   avdevice / visdevice         AVDEVICE / VISDEVICE
 * Scopes sg, wg, qf, dv give the tags SG, WG, QF, DV.
 */
#include "gpu.h"

#include <string.h>

static int64_t scope_tag(const GpuWords *g, int i) {
  if (gpu_word_is(g, i, "sg")) return GT(GT_SG);
  if (gpu_word_is(g, i, "wg")) return GT(GT_WG);
  if (gpu_word_is(g, i, "qf")) return GT(GT_QF);
  if (gpu_word_is(g, i, "dv")) return GT(GT_DV);
  return 0;
}

static int64_t order_tag(const GpuWords *g, int i) {
  if (gpu_word_is(g, i, "acq")) return GT(GT_ACQ);
  if (gpu_word_is(g, i, "rel")) return GT(GT_REL);
  if (gpu_word_is(g, i, "acq_rel")) return GT(GT_ACQ) | GT(GT_REL);
  return 0;
}

/* scI at word i: its tag, else 0 */
static int64_t class_tag(const GpuWords *g, int i) {
  static const char *const n[] = {"sc0", "sc1", "sc2", "sc3"};
  for (int k = 0; k < 4; k++)
    if (gpu_word_is(g, i, n[k])) return GT(GT_SC0 + k);
  return 0;
}

/* The trailing .semscJ, .semav, .semvis words from i; false on others
 * (the operation word of an rmw is left to the caller through *alu). */
static bool semantics(const GpuWords *g, int i, int64_t *tags, int *alu) {
  static const char *const n[] = {"semsc0", "semsc1", "semsc2", "semsc3"};
  for (; i < g->n; i++) {
    bool ok = false;
    for (int k = 0; k < 4; k++)
      if (gpu_word_is(g, i, n[k])) *tags |= GT(GT_SEMSC0 + k), ok = true;
    if (gpu_word_is(g, i, "semav")) *tags |= GT(GT_SEMAV), ok = true;
    if (gpu_word_is(g, i, "semvis")) *tags |= GT(GT_SEMVIS), ok = true;
    if (!ok && alu && i == g->n - 1 && gpu_alu_word(g, i) >= 0 && gpu_alu_word(g, i) != GA_CAS) {
      *alu = gpu_alu_word(g, i);
      ok = true;
    }
    if (!ok) return false;
  }
  return true;
}

static void load_ops(AsmScan *s, Instr *ins) {
  gpu_operand_reg(s, ins);
  asm_expect(s, ',');
  gpu_operand_loc(s, ins);
}

static void store_ops(AsmScan *s, Instr *ins) {
  gpu_operand_loc(s, ins);
  asm_expect(s, ',');
  gpu_operand_val(s, ins);
}

/* st|ld[.nonpriv|.av.S|.vis.S].scI */
static Instr *plain(AsmScan *s, const GpuWords *g, const char *mnemo) {
  bool st = gpu_word_is(g, 0, "st");
  if (!st && !gpu_word_is(g, 0, "ld")) return NULL;
  int64_t tags = 0;
  int i = 1;
  if (gpu_word_is(g, 1, "nonpriv")) {
    tags |= GT(GT_NONPRIV);
    i = 2;
  } else if (gpu_word_is(g, 1, st ? "av" : "vis")) {
    int64_t sc = scope_tag(g, 2);
    if (!sc) return NULL;
    tags |= GT(st ? GT_AV : GT_VIS) | sc | GT(GT_NONPRIV);
    i = 3;
  }
  int64_t cls = class_tag(g, i);
  if (!cls || g->n != i + 1) return NULL;
  asm_next(s);
  Instr *ins = gpu_new_instr(s, st ? G_STORE : G_LOAD, mnemo, tags | cls, 0);
  if (st) store_ops(s, ins);
  else load_ops(s, ins);
  return ins;
}

/* st.atom, ld.atom, rmw.atom */
static Instr *atomic(AsmScan *s, const GpuWords *g, const char *mnemo) {
  bool st = gpu_word_is(g, 0, "st"), ld = gpu_word_is(g, 0, "ld");
  bool rmw = gpu_word_is(g, 0, "rmw");
  if ((!st && !ld && !rmw) || !gpu_word_is(g, 1, "atom")) return NULL;
  int i = 2;
  int64_t order = order_tag(g, i);
  if (order) {
    if ((st && order != GT(GT_REL)) || (ld && order != GT(GT_ACQ))) return NULL;
    i++;
  }
  int64_t scope = scope_tag(g, i);
  int64_t cls = class_tag(g, i + 1);
  if (!scope || !cls) return NULL;
  int64_t tags = order | scope | cls | GT(GT_ATOM) | GT(GT_NONPRIV);
  int alu = GA_EXCH;
  if (!semantics(g, i + 2, &tags, rmw ? &alu : NULL)) return NULL;
  tags |= st ? GT(GT_AV) : ld ? GT(GT_VIS) : GT(GT_AV) | GT(GT_VIS) | GT(GT_RMW);
  asm_next(s);
  Instr *ins = gpu_new_instr(s, st ? G_STORE : ld ? G_LOAD : G_RMW, mnemo, tags, alu);
  if (st) {
    store_ops(s, ins);
  } else {
    load_ops(s, ins);
    if (rmw) {
      asm_expect(s, ',');
      gpu_operand_val(s, ins);
    }
  }
  return ins;
}

/* membar.ORDER.S... and cbar[.ORDER].S... N[, id[, quorum]] */
static Instr *barrier(AsmScan *s, const GpuWords *g, const char *mnemo) {
  bool cbar = gpu_word_is(g, 0, "cbar");
  if (!cbar && !gpu_word_is(g, 0, "membar")) return NULL;
  int i = 1;
  int64_t order = order_tag(g, i);
  if (order) i++;
  else if (!cbar) return NULL;
  int64_t scope = scope_tag(g, i);
  if (!scope) return NULL;
  int64_t tags = order | scope | (cbar ? GT(GT_CBAR) : 0);
  if (!semantics(g, i + 1, &tags, NULL)) return NULL;
  asm_next(s);
  Instr *ins = gpu_new_instr(s, cbar ? G_BAR : G_FENCE, mnemo, tags, 0);
  if (cbar) gpu_parse_barrier(s, ins);
  return ins;
}

static Instr *device_op(AsmScan *s, const GpuWords *g, const char *mnemo) {
  if (g->n != 1) return NULL;
  bool av = gpu_word_is(g, 0, "avdevice");
  if (!av && !gpu_word_is(g, 0, "visdevice")) return NULL;
  asm_next(s);
  return gpu_new_instr(s, av ? G_AVDEV : G_VISDEV, mnemo, GT(av ? GT_AVDEVICE : GT_VISDEVICE), 0);
}

static Instr *vulkan_parse_instr(Arena *a, Err *err, const char *text, SrcPos pos) {
  AsmScan s;
  asm_scan_init(&s, a, err, "VULKAN", text, pos);
  if (s.tok.kind != AT_NAME) asm_unknown(&s);
  GpuWords g;
  gpu_split_words(s.tok.s, s.tok.len, &g);
  const char *mnemo = asm_tok_str(&s);
  Instr *ins = atomic(&s, &g, mnemo);
  if (!ins) ins = plain(&s, &g, mnemo);
  if (!ins) ins = barrier(&s, &g, mnemo);
  if (!ins) ins = device_op(&s, &g, mnemo);
  if (!ins) ins = gpu_parse_common(&s, &g, mnemo);
  if (!ins) asm_unknown(&s);
  asm_expect_end(&s);
  return ins;
}

const ArchOps vulkan_arch_ops = {
    .arch = ARCH_VULKAN,
    .name = "VULKAN",
    .word_bits = 64,
    .nregs = GPU_NREGS,
    .parse_reg = gpu_parse_reg,
    .reg_name = gpu_reg_name,
    .parse_instr = vulkan_parse_instr,
    .print_instr = gpu_print_instr,
    .scoped_threads = true,
    .sections = gpu_sections,
};
