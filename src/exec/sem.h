/*
 * sem.h — the interface between instruction semantics and the symbolic
 * executor.
 *
 * Each architecture's semantics (sem_ppc.c, sem_x86.c, ...) is one function
 * that runs one instruction by calling the builders below.  Values are
 * SVals: a symbolic expression plus the set of events of the *current
 * instruction* it was computed from.  Every builder that creates an event
 * adds the intra-instruction causality edges (iico_data) from the events
 * its inputs came from — the way herd7's semantics monad threads data —
 * so an architecture only says what an instruction reads, computes and
 * writes, never draws edges by hand.
 *
 * Control flow: an instruction falls through unless it calls sem_jump,
 * sem_branch or sem_exit.  Alternatives (a store-conditional that may fail,
 * a CAS that may not write) are expressed with sem_choose: the executor
 * runs the instruction once per alternative, each on its own path.
 */
#ifndef CORRAL_SEM_H
#define CORRAL_SEM_H

#include "../litmus/litmus.h"
#include "event.h"
#include "program.h"

typedef struct SVal {
  Sym s;
  uint64_t deps;   /* bit i: event i of the current instruction */
  /* herd7 holds a variable, not a constant, for this value while it runs
   * the code (values-and-loops.md §1.4.1): a loaded value, a register
   * read outside AArch64's register environment, an operation on such a
   * value.  corral may know more (it carries register values along); a
   * branch on a value herd does not know counts for -unroll all the same. */
  bool unk;
  /* herd's variable S<hv> for it, 0 when herd holds a constant.  herd
   * numbers its variables in the order it creates them: one per memory
   * read, per register read it does not know, per operation on a
   * variable; printed as S<n> when a value stays unsolved. */
  int hv;
} SVal;

typedef struct SemCtx SemCtx;

/* Values and arithmetic (no event). */
SVal sem_int(SemCtx *c, int64_t k);
SVal sem_val(SemCtx *c, Val v);
SVal sem_op(SemCtx *c, SymOp op, SVal a, SVal b);
SVal sem_op1(SemCtx *c, SymOp op, SVal a);
SVal sem_select(SemCtx *c, SVal cond, SVal a, SVal b);
SVal sem_mask(SemCtx *c, SVal a, int bits);   /* zero-extend from bits */
SVal sem_sext(SemCtx *c, SVal a, int bits);   /* sign-extend from bits */
/* The extension of a narrow load into a register where herd's semantics
 * computes nothing (PPC lwz): no herd variable, and a value copied
 * through it is still a copy for the solver (solve.c). */
SVal sem_load_extend(SemCtx *c, SVal a, int bits, bool is_signed);
/* herd's ToInteger: a when it is an integer, else b (the carry and
 * overflow of a comparison of instructions use the difference and 0). */
SVal sem_to_int(SemCtx *c, SVal a, SVal b);
/* herd makes a variable here that corral's semantics does without (X86_64
 * reads a register's old value before it writes the register): counted,
 * so that unsolved values print with herd's numbers S<n>. */
void sem_herd_var(SemCtx *c);
bool sem_is_const(SemCtx *c, SVal a, Val *out);
/* Whether a is the sum of a known address and a value computed at run
 * time (x + W5 with W5 loaded): *out is that address. */
bool sem_addr_base(SemCtx *c, SVal a, Val *out);
/* a as r + *k, *k the known integers added to it (X2 + 4): r (with a's
 * dependencies). */
SVal sem_addr_split(SemCtx *c, SVal a, int64_t *k);

/* An operation with an explicit width field (S_PTE_FIELD: the field). */
SVal sem_op1_width(SemCtx *c, SymOp op, int width, SVal a);
/* Add EV_ flags (EV_NEXP) to the events v carries. */
void sem_add_flags(SemCtx *c, SVal v, uint32_t flags);
/* Add tag bits (sem_tag) to the events v carries (an MMU fault takes the
 * annotation of its access). */
void sem_add_tags(SemCtx *c, SVal v, uint64_t tags);
/* A TLB invalidation (EV_TLBI) of the entry `loc` holds (a VAL_TLB), or
 * of all entries when `all`. */
void sem_tlbi(SemCtx *c, SVal loc, bool all, uint64_t tags);
/* -variant kvm with TTHM=: a spurious update of the access flag of the
 * entry at `entry` (a PTE address), made at the end of the instruction
 * (events in the set SPURIOUS, of no thread). */
void sem_spurious_af(SemCtx *c, SVal entry);
/* This path is one corral does not model yet (a VMSA fault): a candidate
 * execution that takes it stops the run with an error at the current
 * instruction. */
void sem_refuse(SemCtx *c);
/* The same for another reason (RefuseWhy). */
void sem_refuse_why(SemCtx *c, int why);

/* Registers: a register-read / register-write event each. */
SVal sem_read_reg(SemCtx *c, int reg);
void sem_write_reg(SemCtx *c, int reg, SVal v);
/* Register access without an event (architectural constants such as an
 * always-zero register are better handled in the semantics itself). */

/* Memory.  `tags` are Event.tags bits from sem_tag(); `flags` extra EV_
 * flags (EV_NEXP...).  Sizes in bytes. */
SVal sem_load(SemCtx *c, SVal addr, int size, uint64_t tags);
/* Returns an SVal carrying the write event, for sem_ctrl_dep (RISC-V sc:
 * the success result depends on the write). */
SVal sem_store(SemCtx *c, SVal addr, SVal data, int size, uint64_t tags);
/* A single read-modify-write event (both R and W): returns the old value;
 * the value written is wfun applied by the caller: pass `data` computed
 * from the returned old value with sem_rmw_set_write(). */
/* Mark the register reads `v` comes from as data ports (DATA), as herd
 * marks every read of a value operand (AArch64 CAS's Rs); sem_store marks
 * the reads feeding its data itself. */
void sem_data_port(SemCtx *c, SVal v);
/* The memory events `v` comes from, and the others so marked in this
 * instruction with the same direction, are one single-copy-atomic access
 * (herd's para_atomic): related by sm / si. */
void sem_single_copy(SemCtx *c, SVal v);
SVal sem_rmw_event(SemCtx *c, SVal addr, int size, uint64_t tags, int *ev);
void sem_rmw_set_write(SemCtx *c, int ev, SVal data);

/* A lock-like event (C spinlocks, SRCU): it has a location but is not a
 * memory access (not in M).  Returns an SVal carrying it. */
SVal sem_lock_event(SemCtx *c, SVal addr, uint64_t tags);
/* An event of the same kind at a location of the test (a code location
 * or an array cell as a memory access has them): AArch64 DC / IC. */
SVal sem_located_event(SemCtx *c, SVal addr, uint64_t tags);
/* An event of no kind and no location, in the sets `tags` only: AArch64
 * cache maintenance of no address (IC IALLU, DC by set/way). */
void sem_tagged_event(SemCtx *c, uint64_t tags);

/* Fences and commits. */
void sem_fence(SemCtx *c, uint64_t tags);
/* A fence with operands (a GPU barrier's instance id, named barrier and
 * thread count): their values are kept in the event's val, wval and loc
 * (SYM_NONE where absent), for the architecture's relations. */
void sem_fence_args(SemCtx *c, uint64_t tags, const SVal *args, int nargs);
void sem_nop(SemCtx *c);
/* A commit event (EV_BCC or EV_PRED) depending on cond; returns an SVal
 * carrying the commit event, to make later events of the instruction
 * depend on it (iico_ctrl) with sem_ctrl_dep. */
SVal sem_commit(SemCtx *c, SVal cond, uint32_t kind, uint64_t tags);
/* Events created after this call, until the end of the instruction, get
 * iico_ctrl edges from the events of `from`. */
void sem_ctrl_dep(SemCtx *c, SVal from);
/* Events created after this call get no more iico_ctrl edges (until the
 * next sem_ctrl_dep). */
void sem_ctrl_reset(SemCtx *c);
/* sem_ctrl_reset, returning what controlled the events until now (for a
 * later sem_ctrl_dep). */
SVal sem_ctrl_take(SemCtx *c);
/* The next event created is iico_order-after the events of `from`: an
 * order with neither data nor control (herd's SWP: its write after its
 * read). */
void sem_order_dep(SemCtx *c, SVal from);
/* The next event created is iico_data-after the events of `from` (herd's
 * data sequencing where no value flows: ERET's read of ELR_EL1 after its
 * commit). */
void sem_data_dep(SemCtx *c, SVal from);
/* iico_order from every memory event of `from` to every memory event of
 * `to`, both already built (herd's seq_mem: LDIAPP, STILP). */
void sem_order_mem(SemCtx *c, SVal from, SVal to);

/* C: events created after this call, until the end of the statement, are
 * sequenced (po) after the events of `from`. */
void sem_order_after(SemCtx *c, SVal from);

/* C control scopes (if/while): until the matching pop, every new event
 * is control-dependent on the events `cond` was computed from. */
void sem_ctrl_push(SemCtx *c, SVal cond);
void sem_ctrl_pop(SemCtx *c);

/* The id of a memory location named in the code (X86 [x]). */
int sem_symbol(SemCtx *c, const char *name);

/* Annotation / fence set bit for a name ("X", "SYNC", ...). */
uint64_t sem_tag(SemCtx *c, const char *name);

/* Paths. */
void sem_assume(SemCtx *c, SVal cond);            /* cond != 0 on this path */
int sem_choose(SemCtx *c, int nalts);             /* which alternative */
void sem_jump(SemCtx *c, const char *label);
/* Jump to label when cond != 0, fall through otherwise (both paths are
 * explored when cond is symbolic). */
void sem_branch(SemCtx *c, SVal cond, const char *label);
void sem_exit(SemCtx *c);                         /* end of the thread */
/* Indirect jump (ARM BX, MIPS jr): to the label the value holds, which
 * must be a known label of the current thread. */
void sem_jump_value(SemCtx *c, SVal target);
/* The code address after the current instruction, a label value (a
 * branch with link's return address): its label when one marks it. */
SVal sem_return_label(SemCtx *c);
/* The target `bytes` away from the current instruction, instructions
 * being ins_bytes long (AArch64 B .-8), as a label for sem_jump and
 * sem_branch; outside the code, a target whose path is refused if a
 * candidate takes it (herd's delayed "Segmentation fault"). */
const char *sem_offset_target(SemCtx *c, int64_t bytes, int ins_bytes);
/* The value of a label of the current thread (AArch64 ADR). */
SVal sem_label(SemCtx *c, const char *label);

/* Faults (AArch64; docs/DESIGN.md "Faults").  An instruction that faults
 * makes a fault event with sem_fault_event (and, as herd's semantics
 * does, writes ELR_EL1), then ends with sem_raise: the executor goes on
 * as the test says (the thread's fault handler P0.F if it has one, else
 * -variant fatal: the thread stops; faultToNext: the next instruction;
 * handled: the instruction again, a second fault dropping the path).
 * sem_eret returns from the handler to the label `target` holds. */
typedef struct SemFault {
  FaultType type;
  bool write;          /* raised by a write (FAULT-WR), else a read */
  bool entry;          /* an exception entry (EXC-ENTRY) */
  SVal addr;           /* the faulting address; addr.s == SYM_NONE: none */
  FaultMsg msg;
} SemFault;
SVal sem_fault_event(SemCtx *c, const SemFault *f);
void sem_raise(SemCtx *c);
void sem_eret(SemCtx *c, SVal target);
/* Whether the thread has a fault handler; whether the executor runs it
 * (or an instruction again after a handled fault) right now. */
bool sem_has_handler(const SemCtx *c);
bool sem_in_handler(const SemCtx *c);
/* The value of register reg becomes v without an event (herd's register
 * bindings of a faulting instruction). */
void sem_set_reg_value(SemCtx *c, int reg, SVal v);
/* The value of the current instruction's label (its first label, else
 * its return-point name), as herd gives ELR_EL1. */
SVal sem_instr_label(SemCtx *c);

/* Exclusive reservation of the thread (lwarx/stwcx., LDXR/STXR...). */
void sem_reserve(SemCtx *c, SVal addr, int size);
bool sem_reservation(SemCtx *c, SVal *addr, int *size); /* false if none */
void sem_clear_reservation(SemCtx *c);
/* The program being explored (its -variant mixed flag...). */
const Program *sem_program(const SemCtx *c);

/* Errors in semantics (unsupported forms) */
CR_NORETURN void sem_error(SemCtx *c, const char *fmt, ...) CR_PRINTF(2, 3);

/* Per-thread static information the semantics may consult. */
int sem_thread(SemCtx *c);
const Instr *sem_instr(SemCtx *c);
/* The current instruction has no semantics here, or not with these
 * operands (detail says which, or NULL): one message for every
 * architecture, "unsupported PPC instruction 'lmw r1,0(r2)'", as the
 * front ends say "unknown PPC instruction '...'" of what they cannot
 * parse. */
CR_NORETURN void sem_unsupported(SemCtx *c, const char *detail);

/* An architecture's semantics. */
typedef struct SemArch {
  Arch arch;
  void (*exec)(SemCtx *c, const Instr *ins);
  /* Architecture set names that are always bound (possibly empty) in the
   * cat environment, e.g. "X", "SYNC", "LWSYNC", "ISYNC", "EIEIO". */
  const char *const *set_names;
  /* Relations the architecture binds in cat (GPU scopes: "sr", "scta",
   * "syncbar"...), NULL-terminated or NULL, and their computation over
   * the structure's events 0..d.n-1: fill bits (a cleared d x d matrix)
   * with relation rel_names[which]; `value` gives a node's value in the
   * current execution (false if unknown).  Computed for every choice of
   * rf when rel_reads_values(which) says it may depend on values (a
   * barrier id loaded from memory), once per structure otherwise; no
   * rel_reads_values: every relation per rf choice. */
  const char *const *rel_names;
  void (*rel)(const Program *p, const EventStructure *es, int which, Dim d, Word *bits,
              bool (*value)(void *ctx, Sym s, int64_t *out), void *ctx);
  bool (*rel_reads_values)(int which);
  /* The built-in cat prelude (src/cat/prelude.c) run before stdlib.cat
   * for this architecture's tests, or NULL. */
  const char *cat_prelude;
  /* -variant ifetch: the fault of a fetch that read no instruction
   * (AArch64: UndefinedInstruction), or NULL: refused. */
  void (*fetch_fault)(SemCtx *c);
} SemArch;

const SemArch *sem_arch(Arch a);

#endif
