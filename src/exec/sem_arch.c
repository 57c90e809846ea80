/*
 * sem_arch.c — the table of instruction semantics per architecture.
 */
#include "sem.h"

extern const SemArch sem_x86, sem_x86_64, sem_ppc, sem_riscv, sem_arm,
    sem_mips, sem_c, sem_aarch64;

const SemArch *sem_arch(Arch a) {
  switch (a) {
  case ARCH_X86: return &sem_x86;
  case ARCH_X86_64: return &sem_x86_64;
  case ARCH_PPC: return &sem_ppc;
  case ARCH_RISCV: return &sem_riscv;
  case ARCH_ARM: return &sem_arm;
  case ARCH_AARCH64: return &sem_aarch64;
  case ARCH_MIPS: return &sem_mips;
  case ARCH_C: return &sem_c;
  default: return NULL;
  }
}
