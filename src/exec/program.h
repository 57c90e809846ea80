/*
 * program.h — what the engine derives from a parsed Test before running
 * it: the memory locations (symbols) and their initial values, the initial
 * registers of each thread, the tag table, the observed and displayed
 * locations.  One Program per test run; it owns its arena.
 */
#ifndef CORRAL_PROGRAM_H
#define CORRAL_PROGRAM_H

#include "../litmus/litmus.h"
#include "event.h"

/* A C-like type of a location, for printing and comparing values. */
typedef struct LocType {
  uint8_t bits;        /* 8, 16, 32, 64; 0 = the arch width */
  bool is_signed;
  bool is_pointer;
} LocType;

/* DL_FAULTS: the faults of a final state (faults.c), the last entry,
 * present when the test observes faults or with -dumpallfaults. */
typedef enum DispKind { DL_REG, DL_GLOBAL, DL_CELL, DL_FAULTS } DispKind;

/* A location shown in final states or tested by the condition. */
typedef struct DispLoc {
  DispKind kind;
  int thread, reg;     /* DL_REG (reg: the arch id, or the C local's index) */
  int sym;             /* DL_GLOBAL, DL_CELL */
  int group;           /* a whole array x: n > 0 on its first cell's entry
                          (printed x={v0,...}), -1 on the n-1 others */
  int64_t index;       /* DL_CELL */
  /* DL_REG, a lane of a vector register (LitLoc's fields): lanes > 0
   * before expand_vectors, lane_bits > 0 after, on every lane */
  int lanes, lane_bits, lane_shift;
  LocType type;
  const char *name;    /* spelling in states: "1:r3", "[x]", "t[1]" */
  size_t namelen;      /* strlen(name): state lines are printed by the 100000 */
} DispLoc;

typedef struct Program {
  Arena arena;
  const Test *test;
  const ArchOps *ops;
  int word_bits;
  Interner syms;             /* memory locations */
  Interner labels;           /* code labels used as values */
  Interner colors;           /* MTE tag colours (VAL_TAG; "green" is 0) */
  bool has_tags;             /* a tag or tagged address in the test (mte.c) */
  VEC(Val) sym_init;         /* initial value per symbol */
  VEC(LocType) sym_type;
  int nthreads;
  int nregs;                 /* register ids 0..nregs-1 (all threads) */
  Val **init_regs;           /* [thread][reg] */
  bool **init_reg_set;
  LocType **reg_type;        /* [thread][reg] declared type (default int) */
  TagTable tags;
  /* Displayed locations, in output order (sorted as herd sorts them). */
  DispLoc *disp;
  int ndisp;
  bool has_groups;           /* some entry shows a whole array */
  size_t int_line_cap;       /* bound on a state line of integers: each
                                name, " =;" and 24 digits */
  /* Symbols whose final write is chosen (condition, locations, filter). */
  int *observed;
  int nobserved;
  int unroll;
  int hvars;                 /* herd7's variables S1..S<hvars> allocated so
                                far while running the threads (sem.c) */
  /* -variant mixed (mixed.c): every symbol of the test (ids below
   * mixed_nsyms0) is split into byte symbols; byte i of symbol s is symbol
   * byte_base[s] + i, for i < byte_count[s].  Memory events access byte
   * symbols only, and observed holds byte symbols. */
  bool mixed;
  int mixed_nsyms0;
  int *byte_base, *byte_count;
  int *byte_owner;           /* per symbol below mixed_nsyms1: the test's
                                symbol a byte symbol belongs to, -1 for the
                                test's own */
  int mixed_nsyms1;
  bool mixed_unaligned;      /* -variant unaligned: no alignment check */
  /* Arrays of the initial state (int64_t t[2]): cell 0 is the array's
   * own symbol, cell i > 0 the symbol named "t[i]"; an address t+off
   * designates cell off/esize (program_cell). */
  struct ArrayDecl {
    int sym, len, esize;
  } *arrays;
  int narrays;
  /* -variant deps: herd7 then also runs the side of each conditional
   * branch that is not taken, as speculated ("ghost") events the model
   * sees; corral does not, so sem_branch refuses such tests. */
  bool deps;
  /* -variant telechat (herd's quirks for compiled code): an AArch64 RET
   * of the link register ends the thread */
  bool telechat;
  /* -variant NV2: AArch64 MRS / MSR of ELR_EL1, ESR_EL1, VNCR_EL2 access
   * the page at VNCR_EL2 (sem_aarch64.c) */
  bool nv2;
  /* AArch64 -variant neon / sve / sme (bits AV_VAR_*, aarch64_simd.h;
   * sve implies neon, sme both), and the vector lengths sve:N / sme:N
   * (0: herd's default, 128). */
  unsigned simd;
  int sve_bits, sme_bits;
  /* Faults (faults.c): how a thread goes on after one (herd's -variant
   * fatal, handled, faultToNext), -dumpallfaults, the fault atoms the
   * final states show (the condition's and locations'), the display
   * entry of the faults (-1: none), and the fault sets met so far. */
  int fault_handling;
  int mte_precision;
  bool memtag;
  bool dumpallfaults;
  const FaultAtom **fatoms;
  int nfatoms;
  int fault_disp;
  struct FaultTable *faults;
  /* -variant kvm (vmsa.c): every virtual symbol x (ids below kvm_nsyms,
   * pa_of[x] >= 0) has a physical page PA(x), holding its initial value,
   * and a page-table entry PTE(x); memory events access only those, x
   * itself has no initial write.  Locations x of the init and final
   * sections designate PA(x).  pte_tag: the tag bit of the set PTE. */
  bool kvm;
  int kvm_nsyms;
  int *pa_of, *pte_of;
  uint64_t pte_tag;
  /* Hardware updates of the access flag and dirty bit (TTHM=, vmsa.c):
   * per thread (bit t), herd's ha (HA or HD given), hd (HD given) and
   * sw (SW given: no hardware management however ha and hd read);
   * some_ha: any HA or HD at all, which makes spurious updates of the
   * access flag possible.  spur_syms: the entries PTE(x) whose initial
   * value has af:0, each of which a spurious update may set before the
   * threads run (nspur of them, a subset per structure). */
  uint64_t tthm_ha, tthm_hd, tthm_sw;
  /* Threads at EL0 (EL0= or user=, herd's ProcsUser), bit t (vmsa.c). */
  uint64_t el0;
  bool some_ha;
  bool tthm_all_ha, tthm_all_hd; /* HA (or HD), HD given without a thread:
                                    herd's all_ha, all_hd, the flags of the
                                    events of no thread (ReadOnly) */
  int *spur_syms, nspur;
  /* Instructions as values (ifetch.c): VAL_INSTR's num indexes instrs
   * (canonical spellings, "NOP", "B .+8") and instr_code (the parsed
   * instruction, branch targets as offsets). */
  Interner instrs;
  VEC(const Instr *) instr_code;
  /* Code locations (ifetch.c): a label used as a value (init state, ADR)
   * names a memory location holding the instruction it marks, a symbol
   * of its own.  code_locs maps (thread, label id) to that symbol;
   * code_sym[thread][entry] is the symbol of the instruction at code
   * entry `entry` (-1 when none). */
  struct CodeLoc {
    int thread, label, sym;
  } *code_locs;
  int ncode_locs;
  int **code_sym;
  VEC(Val) fetch_cands;      /* -variant ifetch: the instructions a fetch
                                may read (every instruction value of the
                                initial state, code locations included) */
  /* -variant ifetch (self): instructions at code locations are fetched
   * from memory (an IFetch read) and the fetched one is run. */
  bool ifetch;
  /* herd's exported labels (ifetch.c), in (thread, name) order: the
   * labels of the initial state's values and of ADR instructions, the
   * targets an indirect jump to a value not known yet may take. */
  VEC(Val) jump_labels;
} Program;

/* Build a Program from a test; raises through err on semantic errors
 * (a register that the architecture does not have, an undefined label in
 * the init section...). */
Program *program_new(const Test *t, Err *err, int unroll);
/* The same, with -variant kvm when kvm (virtual memory, vmsa.c). */
Program *program_new_kvm(const Test *t, Err *err, int unroll, bool kvm);
/* vmsa.c: the physical pages and page-table entries of -variant kvm. */
void vmsa_program_setup(Program *p, Err *err);
/* The test's TTHM= field, checked without -variant kvm too (vmsa.c). */
void vmsa_check_tthm(const Test *t, Err *err);
/* The symbol of memory a symbol designates: PA(x) for a virtual x under
 * -variant kvm, s itself otherwise. */
static inline int program_mem_sym(const Program *p, int s) {
  return p->kvm && s >= 0 && s < p->kvm_nsyms && p->pa_of[s] >= 0 ? p->pa_of[s] : s;
}
void program_free(Program *p);

int program_symbol(Program *p, const char *name); /* adds if absent */
/* An address inside an array (a VAL_ADDR at a non-zero offset, a
 * multiple of the element size, within bounds): its cell's address, with
 * offset 0, in *out.  False for anything else (addr is kept as is). */
bool program_cell(const Program *p, Val addr, Val *out);
/* The array whose symbol is sym, or NULL. */
const struct ArrayDecl *program_array(const Program *p, int sym);
/* -variant mixed: the address of a byte inside an array (t+off) as the
 * address in its cell (t[i]+rest); other values unchanged. */
Val program_cell_byte(const Program *p, Val addr);
/* The symbol of a location x or t[i] (LOC_GLOBAL, LOC_CELL); -1 if the
 * program has none. */
int program_find_symbol(const Program *p, const LitLoc *l);
/* The display location of a parsed location; -1 if not displayed. */
int program_disp_index(const Program *p, const LitLoc *l);
/* Convert a parsed value (LV_INT, LV_ADDR, LV_LABEL) to a machine value. */
Val program_value(Program *p, const LitVal *v, Err *err);

/* The -variant list's vector extensions (sem_aarch64_simd.c). */
void program_set_simd(Program *p, const char *const *vars, int nv);
/* Instructions as values and code locations (ifetch.c). */
Val program_instr_value(Program *p, const Instr *ins, const char *text);
const Instr *program_instr(const Program *p, Val v);
const char *program_instr_text(const Program *p, Val v);
/* herd's order of two instruction values (<0, 0, >0). */
int program_instr_cmp(const Program *p, Val a, Val b);
/* Create the code locations (labels used as values) and their initial
 * instructions; with ifetch, herd's -variant ifetch normalisation (one
 * location per instruction, named by its least label).  Raises through
 * err. */
void program_code_locations(Program *p, bool ifetch, Err *err);
/* Intern the code labels in name order, so that label values compare
 * as herd's do (by thread, then name). */
void program_intern_labels(Program *p);
/* Whether symbol s is a code location. */
bool program_is_code_sym(const Program *p, int s);
/* Whether v is an instruction herd's Restricted-CMODX holds of (all but
 * B, BL, B.cond-free branches CBZ/CBNZ/TBZ/TBNZ, ISB, NOP and SVC). */
bool program_instr_restricted(const Program *p, Val v);
/* The symbol of the code location a label value designates, -1 if none. */
int program_label_symbol(const Program *p, Val label);

/* -variant mixed (mixed.c): split the symbols into byte symbols; raises
 * through err, at `where`, for what byte accesses cannot represent. */
void program_set_mixed(Program *p, Err *err, SrcPos where);
/* The byte symbol at byte offset off of symbol sym, -1 if outside it. */
int program_byte_sym(const Program *p, int sym, int64_t off);
/* -variant mixed: the shift of byte i of an n-byte value, by the
 * architecture's byte order (little-endian but for ISA_BIG_ENDIAN). */
int program_byte_shift(const Program *p, int i, int n);
/* herd's alignment of an access of n bytes at byte offset off of symbol
 * sym (a location, or an array and its cells). */
bool program_mixed_aligned(const Program *p, int sym, int64_t off, int n);

#endif
