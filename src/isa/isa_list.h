/*
 * isa_list.h — the ISA registry: one line per architecture.
 *
 * Each line is ISA(ID, NAME, ALIAS, FRONT, SEM, MODEL, FAMILY, RMW_TAG,
 * FLAGS):
 *   ID       the enum constant is ARCH_ID (only this table and the
 *            architecture's own files name it)
 *   NAME     the litmus header's spelling, printed in messages and results
 *   ALIAS    another header spelling, or NULL
 *   FRONT    the front end's ArchOps (src/litmus/<arch>.c)
 *   SEM      the semantics' SemArch (src/exec/sem_<arch>.c)
 *   MODEL    herd7's default model, looked up like -model (models/)
 *   FAMILY   models whose header names an architecture of the same
 *            family run this one's tests under -archcheck
 *   RMW_TAG  the tag on both halves of an atomic read-modify-write
 *   FLAGS    ISA_* of isa.h: what the rest of corral must know of it
 *
 * Included several times with different definitions of ISA (isa.h makes
 * the enum, registry.c the descriptors): no include guard.
 */
/*  ID       NAME       ALIAS     FRONT             SEM          MODEL                FAMILY     RMW_TAG  FLAGS */
ISA(X86,     "X86",     NULL,     x86_arch_ops,     sem_x86,     "x86tso.cat",        "X86",     "X",     ISA_RMW_ONE_INSTR | ISA_GRAPH_NO_DOLLAR)
ISA(X86_64,  "X86_64",  NULL,     x86_64_arch_ops,  sem_x86_64,  "x86tso-mixed.cat",  "X86",     "X",     ISA_RMW_ONE_INSTR | ISA_MIXED)
ISA(PPC,     "PPC",     NULL,     ppc_arch_ops,     sem_ppc,     "ppc.cat",           "PPC",     "X",     ISA_MIXED | ISA_BIG_ENDIAN)
ISA(ARM,     "ARM",     NULL,     arm_arch_ops,     sem_arm,     "arm.cat",           "ARM",     "X",     0)
ISA(AARCH64, "AArch64", NULL,     aarch64_arch_ops, sem_aarch64, "aarch64.cat",       "AArch64", "X",     ISA_GRAPH_ANNOT | ISA_REG_ENV | ISA_LOAD_MASKS | ISA_MIXED | ISA_INSTR_VALUES | ISA_PROC_ANNOT)
ISA(RISCV,   "RISCV",   "RISC-V", riscv_arch_ops,   sem_riscv,   "riscv.cat",         "RISCV",   "X",     ISA_MIXED)
ISA(MIPS,    "MIPS",    NULL,     mips_arch_ops,    sem_mips,    "mips.cat",          "MIPS",    "X",     0)
ISA(C,       "C",       NULL,     c_arch_ops,       sem_c,       "c11_partialSC.cat", "C",       "RMW",   ISA_RMW_ONE_INSTR | ISA_LANGUAGE)
ISA(BPF,     "BPF",     NULL,     bpf_arch_ops,     sem_bpf,     "bpf.cat",           "BPF",     "X",     0)
ISA(LISA,    "LISA",    "Bell",   lisa_arch_ops,    sem_lisa,    "lisa.cat",          "LISA",    "X",     ISA_BELL | ISA_PROC_ANNOT)
ISA(PTX,     "PTX",     "ptx",    ptx_arch_ops,     sem_ptx,     "ptx.cat",           "PTX",     "RMW",   0)
ISA(VULKAN,  "VULKAN",  "Vulkan", vulkan_arch_ops,  sem_vulkan,  "vulkan.cat",        "VULKAN",  "RMW",   0)
