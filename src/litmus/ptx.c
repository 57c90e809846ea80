/*
 * ptx.c — the PTX front end (Dat3M's LitmusPTX.g4 dialect,
 * ../shared/gpu/README.md): loads and stores with a memory order and a
 * scope, proxy accesses (tld, suld, sust, cold, suatom, sured), atomics
 * and reductions, fences (sc, acq_rel, proxy), CTA barriers with
 * instance ids, named barriers and quorums, arithmetic and branches.
 * The layout of a parsed instruction is gpu.h's; the tags given here are
 * Dat3M's:
 *   ld/st.weak                 GEN (weak: no order tag, no scope)
 *   ld/st.relaxed|acquire|release.S   RLX|ACQ|REL, scope S, GEN
 *   tld / suld, sust / cold    TEX / SUR / CON instead of GEN
 *   atom|red.SEM.S.OP          scope, GEN, RMW; SEM (relaxed, acquire,
 *                              release, acq_rel) kept as RLX, ACQ, REL or
 *                              ACQ_REL: the semantics splits it per half
 *   fence.sc.S                 SC, S, GEN;   fence.acq_rel.S  ACQ_REL, S, GEN
 *   fence.proxy.P              TEX, SUR or CON;  fence.proxy.alias  ALIAS
 *   bar.cta.sync|arrive N[, id[, quorum]]   CTA
 */
#include "gpu.h"

#include <string.h>

static int64_t scope_tag(const GpuWords *g, int i) {
  if (gpu_word_is(g, i, "cta")) return GT(GT_CTA);
  if (gpu_word_is(g, i, "gpu")) return GT(GT_GPU);
  if (gpu_word_is(g, i, "sys")) return GT(GT_SYS);
  return 0;
}

static int64_t order_tag(const GpuWords *g, int i, bool *weak) {
  *weak = false;
  if (gpu_word_is(g, i, "weak")) return *weak = true, 0;
  if (gpu_word_is(g, i, "relaxed")) return GT(GT_RLX);
  if (gpu_word_is(g, i, "acquire")) return GT(GT_ACQ);
  if (gpu_word_is(g, i, "release")) return GT(GT_REL);
  if (gpu_word_is(g, i, "acq_rel")) return GT(GT_ACQ_REL);
  return -1;
}

/* ld, st and the proxy accesses: KIND.ORDER[.SCOPE] */
static Instr *access(AsmScan *s, const GpuWords *g, const char *mnemo) {
  static const struct {
    const char *name;
    GpuOp op;
    GpuTag proxy;
  } kinds[] = {
      {"ld", G_LOAD, GT_GEN},  {"st", G_STORE, GT_GEN},  {"tld", G_LOAD, GT_TEX},
      {"suld", G_LOAD, GT_SUR}, {"sust", G_STORE, GT_SUR}, {"cold", G_LOAD, GT_CON},
  };
  int k = -1;
  for (int i = 0; i < (int)ARRAY_LEN(kinds); i++)
    if (gpu_word_is(g, 0, kinds[i].name)) k = i;
  if (k < 0 || g->n < 2) return NULL;
  bool weak;
  int64_t order = order_tag(g, 1, &weak);
  if (order < 0 || (order & GT(GT_ACQ_REL))) return NULL;
  if (kinds[k].op == G_LOAD && (order & GT(GT_REL))) return NULL;
  if (kinds[k].op == G_STORE && (order & GT(GT_ACQ))) return NULL;
  int64_t scope = g->n == 3 ? scope_tag(g, 2) : 0;
  /* weak accesses take no scope, strong ones need one */
  if (weak ? g->n != 2 : (g->n != 3 || !scope)) return NULL;
  asm_next(s);
  Instr *ins = gpu_new_instr(s, kinds[k].op, mnemo, order | scope | GT(kinds[k].proxy), 0);
  if (kinds[k].op == G_LOAD) {
    gpu_operand_reg(s, ins);
    asm_expect(s, ',');
    gpu_operand_loc(s, ins);
  } else {
    gpu_operand_loc(s, ins);
    asm_expect(s, ',');
    gpu_operand_val(s, ins);
  }
  return ins;
}

/* atom|red|suatom|sured.SEM.SCOPE.OP */
static Instr *atomic(AsmScan *s, const GpuWords *g, const char *mnemo) {
  bool red = gpu_word_is(g, 0, "red") || gpu_word_is(g, 0, "sured");
  bool sur = gpu_word_is(g, 0, "suatom") || gpu_word_is(g, 0, "sured");
  if (!red && !sur && !gpu_word_is(g, 0, "atom")) return NULL;
  if (g->n != 4) return NULL;
  bool weak;
  int64_t order = order_tag(g, 1, &weak);
  int64_t scope = scope_tag(g, 2);
  int alu = gpu_alu_word(g, 3);
  if (order <= 0 || !scope || alu < 0 || (red && alu >= GA_EXCH)) return NULL;
  asm_next(s);
  GpuOp op = red ? G_RED : alu == GA_CAS ? G_CAS : G_RMW;
  Instr *ins = gpu_new_instr(s, op, mnemo, order | scope | GT(sur ? GT_SUR : GT_GEN) | GT(GT_RMW), alu);
  if (!red) {
    gpu_operand_reg(s, ins);
    asm_expect(s, ',');
  }
  gpu_operand_loc(s, ins);
  asm_expect(s, ',');
  gpu_operand_val(s, ins);
  if (op == G_CAS) {
    asm_expect(s, ',');
    gpu_operand_val(s, ins);
  }
  return ins;
}

static Instr *fence(AsmScan *s, const GpuWords *g, const char *mnemo) {
  if (!gpu_word_is(g, 0, "fence") || g->n != 3) return NULL;
  int64_t tags;
  if (gpu_word_is(g, 1, "proxy")) {
    if (gpu_word_is(g, 2, "texture")) tags = GT(GT_TEX);
    else if (gpu_word_is(g, 2, "surface")) tags = GT(GT_SUR);
    else if (gpu_word_is(g, 2, "constant")) tags = GT(GT_CON);
    else if (gpu_word_is(g, 2, "alias")) tags = GT(GT_ALIAS);
    else return NULL;
  } else {
    int64_t scope = scope_tag(g, 2);
    if (!scope) return NULL;
    if (gpu_word_is(g, 1, "sc")) tags = GT(GT_SC) | scope | GT(GT_GEN);
    else if (gpu_word_is(g, 1, "acq_rel")) tags = GT(GT_ACQ_REL) | scope | GT(GT_GEN);
    else return NULL;
  }
  asm_next(s);
  return gpu_new_instr(s, G_FENCE, mnemo, tags, 0);
}

static Instr *barrier(AsmScan *s, const GpuWords *g, const char *mnemo) {
  if (!gpu_word_is(g, 0, "bar") || g->n != 3 || !gpu_word_is(g, 1, "cta")) return NULL;
  bool arrive = gpu_word_is(g, 2, "arrive");
  if (!arrive && !gpu_word_is(g, 2, "sync")) return NULL;
  asm_next(s);
  Instr *ins = gpu_new_instr(s, G_BAR, mnemo, GT(GT_CTA), 0);
  if (arrive) ins->flags |= GPU_ARRIVE;
  gpu_parse_barrier(s, ins);
  return ins;
}

/* "ld r0, 1": a register move */
static Instr *move(AsmScan *s, const GpuWords *g, const char *mnemo) {
  if (g->n != 1 || !gpu_word_is(g, 0, "ld")) return NULL;
  asm_next(s);
  Instr *ins = gpu_new_instr(s, G_MOV, mnemo, 0, 0);
  gpu_operand_reg(s, ins);
  asm_expect(s, ',');
  if (s->tok.kind != AT_NUM) asm_error(s, "expected a constant");
  gpu_operand_val(s, ins);
  return ins;
}

static Instr *ptx_parse_instr(Arena *a, Err *err, const char *text, SrcPos pos) {
  AsmScan s;
  asm_scan_init(&s, a, err, "PTX", text, pos);
  if (s.tok.kind != AT_NAME) asm_unknown(&s);
  GpuWords g;
  gpu_split_words(s.tok.s, s.tok.len, &g);
  const char *mnemo = asm_tok_str(&s);
  Instr *ins = access(&s, &g, mnemo);
  if (!ins) ins = atomic(&s, &g, mnemo);
  if (!ins) ins = fence(&s, &g, mnemo);
  if (!ins) ins = barrier(&s, &g, mnemo);
  if (!ins) ins = move(&s, &g, mnemo);
  if (!ins) ins = gpu_parse_common(&s, &g, mnemo);
  if (!ins) asm_unknown(&s);
  asm_expect_end(&s);
  return ins;
}

const ArchOps ptx_arch_ops = {
    .arch = ARCH_PTX,
    .name = "PTX",
    .word_bits = 64,
    .nregs = GPU_NREGS,
    .parse_reg = gpu_parse_reg,
    .reg_name = gpu_reg_name,
    .parse_instr = ptx_parse_instr,
    .print_instr = gpu_print_instr,
    .scoped_threads = true,
    .sections = gpu_sections,
};
