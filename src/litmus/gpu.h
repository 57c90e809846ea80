/*
 * gpu.h — what the PTX and Vulkan front ends (ptx.c, vulkan.c) share:
 * registers, the layout of a parsed instruction, the tags its qualifiers
 * give, thread scopes and the test's aliases (../shared/gpu/README.md,
 * "Litmus dialect", from Dat3M's LitmusPTX.g4 and LitmusVulkan.g4).
 *
 * REGISTERS: r0..r127 (ids 0..127), printed "rN".
 *
 * INSTRUCTIONS: Instr.op is a GpuOp.  ops[0] is always OPK_STR: the
 * mnemonic as written ("ld.acquire.gpu"), with
 *   ops[0].imm  the tag mask (bit GT_x: tag name gpu_tag_names[x]),
 *   ops[0].sub  the operation of an atomic or arithmetic (GpuAlu), or
 *               the comparison of a branch (GpuCmp).
 * The operands follow in source order: registers OPK_REG, memory
 * locations OPK_SYM (sym = the name as written), constants OPK_IMM,
 * labels OPK_LABEL:
 *   G_LOAD   r, loc              G_STORE  loc, r|k
 *   G_RMW    r, loc, r|k         (atom / rmw: r gets the old value)
 *   G_CAS    r, loc, r|k, r|k    (expected, new)
 *   G_RED    loc, r|k            (a reduction: no result)
 *   G_FENCE  -                   G_AVDEV, G_VISDEV  -
 *   G_BAR    k (instance id) [, r|k (named barrier) [, r|k (quorum)]];
 *            Instr.flags GPU_ARRIVE for bar.*.arrive
 *   G_MOV    r, r|k              G_ALU  r, r|k, r|k
 *   G_GOTO   label               G_BCC  r|k, r|k, label
 */
#ifndef CORRAL_GPU_H
#define CORRAL_GPU_H

#include "litmus.h"

enum { GPU_NREGS = 128, GPU_ARRIVE = 1 };

typedef enum GpuOp {
  G_LOAD, G_STORE, G_RMW, G_CAS, G_RED, G_FENCE, G_AVDEV, G_VISDEV, G_BAR,
  G_MOV, G_ALU, G_GOTO, G_BCC,
} GpuOp;

typedef enum GpuAlu {
  GA_ADD, GA_SUB, GA_MUL, GA_DIV, GA_AND, GA_OR, GA_XOR, GA_EXCH, GA_CAS,
} GpuAlu;

typedef enum GpuCmp { GC_EQ, GC_NE, GC_LT, GC_GT, GC_LE, GC_GE } GpuCmp;

/* Tags (cat sets of the events an instruction has). */
typedef enum GpuTag {
  GT_RLX, GT_REL, GT_ACQ, GT_ACQ_REL, GT_SC, GT_GEN, GT_SUR, GT_TEX, GT_CON,
  GT_ALIAS, GT_CTA, GT_GPU, GT_SYS,
  GT_NONPRIV, GT_ATOM, GT_SC0, GT_SC1, GT_SC2, GT_SC3, GT_SEMSC0, GT_SEMSC1,
  GT_SEMSC2, GT_SEMSC3, GT_AV, GT_VIS, GT_SEMAV, GT_SEMVIS, GT_AVDEVICE,
  GT_VISDEVICE, GT_CBAR, GT_SG, GT_WG, GT_QF, GT_DV, GT_RMW,
  GT_COUNT
} GpuTag;

extern const char *const gpu_tag_names[GT_COUNT];
#define GT(x) ((int64_t)1 << (x))

/* An alias declared in the init section. */
typedef enum AliasKind { AK_GENERIC, AK_TEXTURE, AK_SURFACE, AK_CONSTANT } AliasKind;

typedef struct GpuAlias {
  const char *name, *target;
  AliasKind kind;
} GpuAlias;

/* Test.arch_data of a PTX or Vulkan test. */
typedef struct GpuTest {
  GpuAlias *aliases;
  int naliases, cap_aliases;
  int (*ssw)[2];          /* Vulkan's ssw block: thread pairs */
  int nssw, cap_ssw;
} GpuTest;

/* A thread's scope ids: PTX cta, gpu; Vulkan sg, wg, qf (-1: absent). */
typedef struct GpuScopes {
  int id[3];
} GpuScopes;

/* The scope ids of thread k's header ("cta 0,gpu 0", "sg 0,wg 0, qf 0"),
 * the names given in order; false if the header does not say them. */
bool gpu_thread_scopes(const Test *t, int k, const char *const names[3], GpuScopes *out);

/* The location a name stands for (aliases followed to their target), and
 * its generic (virtual) address: a texture, surface or constant alias
 * shares its target's, a generic alias is its own. */
const char *gpu_physical(const Test *t, const char *name);
const char *gpu_virtual(const Test *t, const char *name);

/* Shared front-end pieces. */
int gpu_parse_reg(const char *s);
const char *gpu_reg_name(int reg);
void gpu_print_instr(const Instr *ins, StrBuf *out,
                     const char *(*rename)(void *ctx, const char *label), void *ctx);
size_t gpu_sections(Test *t, Err *err, char *buf, size_t init_start, size_t init_end,
                    size_t code_start, SrcPos (*pos)(void *ctx, size_t off), void *ctx);

/* Parsing one instruction: the scanner is on the mnemonic; `dots` are
 * its dot-separated words (w[0] the first), `tags` what the front end
 * made of the qualifiers.  Reads the operands of `op` (see above). */
typedef struct GpuWords {
  const char *w[16];
  size_t len[16];
  int n;
} GpuWords;

void gpu_split_words(const char *s, size_t n, GpuWords *out);
bool gpu_word_is(const GpuWords *g, int i, const char *w);
/* Operand readers for the front ends. */
void gpu_operand_reg(AsmScan *s, Instr *ins);
void gpu_operand_loc(AsmScan *s, Instr *ins);
void gpu_operand_val(AsmScan *s, Instr *ins);   /* register or constant */
Instr *gpu_new_instr(AsmScan *s, GpuOp op, const char *mnemo, int64_t tags, int sub);
/* The operands of the arithmetic, move, goto and branch forms common to
 * both dialects; NULL if the mnemonic is not one of them. */
Instr *gpu_parse_common(AsmScan *s, const GpuWords *g, const char *mnemo);
/* Barrier operands: N[, id[, quorum]]. */
void gpu_parse_barrier(AsmScan *s, Instr *ins);
/* An atomic operation's word ("add", "cas", ...) or -1. */
int gpu_alu_word(const GpuWords *g, int i);

#endif
