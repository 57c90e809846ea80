/*
 * litmus.h — a parsed litmus test, independent of the architecture.
 *
 * The front end (parse.c) splits a file into header, metadata, init
 * section, code and final section (see ../shared/spec/litmus.md), parses
 * the init and final sections here, and hands each code cell to the
 * architecture's parser (x86.c, ppc.c, ...) through ArchOps.  Everything is
 * allocated in the Test's arena.  Source spellings are kept next to parsed
 * values because the Hash digest is computed on the test as written.
 */
#ifndef CORRAL_LITMUS_H
#define CORRAL_LITMUS_H

#include "../util/util.h"

#include <string.h>

#include "isa/isa.h" /* Arch: the registry's constants */

/* ---------------------------------------------------------------- values */
typedef enum LitValKind {
  LV_INT,     /* 42, -1, 0x10 */
  LV_ADDR,    /* x, &x, x[3] (address of a location or array cell) */
  LV_LABEL,   /* label:"P1:L0", P1:L0, 1:L0 */
  LV_ARRAY,   /* {1,2,3} */
  LV_TAG,     /* :green */
  LV_PTE,     /* (oa:PA(x), af:1, ...): a page-table entry (VMSA, pte.c) */
  LV_INSTR,   /* NOP, instr:"B .+12" (AArch64 instructions as values) */
} LitValKind;

struct Instr;

/* The flags of a page-table entry, in herd's printing order; bit f of
 * LitVal.pte_set says field f was written, bit f of pte_bits its value. */
enum { PTE_AF, PTE_DB, PTE_DBM, PTE_VALID, PTE_EL0, PTE_NFIELDS };

typedef struct LitVal {
  LitValKind kind;
  const char *text;     /* spelling for the hash: "0x10", "y", "1:L0", "{1,2}" */
  int64_t num;          /* LV_INT: the value */
  const char *sym;      /* LV_ADDR: the symbol (VMSA: "PTE(x)", "PA(x)" for
                           pte_x, phy_x, see pte.c); LV_TAG: the tag */
  const char *tag;      /* LV_ADDR: the MTE tag of x:red, or NULL */
  bool has_index;       /* LV_ADDR: x[i] */
  int64_t index;
  int thread;           /* LV_LABEL */
  const char *label;    /* LV_LABEL */
  const struct Instr *instr; /* LV_INSTR: the parsed instruction, its
                           canonical spelling ("NOP", "B .+12") in sym;
                           text is the hash's (NOP, instr:"as written") */
  struct LitVal *elems; /* LV_ARRAY */
  int nelems;
  const char *pte_oa;   /* LV_PTE: "PA(x)" or "PTE(x)", NULL if none given */
  uint8_t pte_set, pte_bits;
  SrcPos pos;
} LitVal;

/* ------------------------------------------------------------- locations */
typedef enum LocKind {
  LOC_REG,      /* P0:r1, 0:EAX */
  LOC_SYMREG,   /* %name */
  LOC_GLOBAL,   /* x, [x] */
  LOC_CELL,     /* t[i] */
} LocKind;

typedef struct LitLoc {
  LocKind kind;
  int thread;           /* LOC_REG; LOC_SYMREG: the thread whose code uses
                           the symbolic register (set by litmus_parse) */
  const char *reg;      /* LOC_REG: as written ("EAX", "a0"; a leading '%'
                           is dropped, as herd does); LOC_SYMREG: name
                           without '%' */
  int regid;            /* LOC_REG: the architecture's register number, or -1
                           (C tests: locals are named, see Test.c);
                           LOC_SYMREG: the real register it was allocated */
  const char *sym;      /* LOC_GLOBAL, LOC_CELL */
  int64_t index;        /* LOC_CELL */
  /* LOC_REG of a vector view (AArch64 0:V0.4S): lanes > 0 lanes of
   * lane_bits each, regid the register's first 64-bit chunk; lanes == 0
   * and lane_bits > 0: one lane, bits lane_shift.. of chunk regid. */
  int lanes, lane_bits, lane_shift;
  SrcPos pos;
} LitLoc;

/* ----------------------------------------------------------------- types */
typedef enum TypeKind {
  TY_NONE,        /* x=1 */
  TY_PTR_NOBASE,  /* *x=y */
  TY_BASE,        /* int x=1 */
  TY_ATOMIC,      /* _Atomic int x=1 */
  TY_PTR,         /* int *x=y */
  TY_ARRAY,       /* int t[2] */
} TypeKind;

typedef struct LitType {
  TypeKind kind;
  const char *base;     /* "int", "uint64_t", ... (NULL for TY_NONE/TY_PTR_NOBASE) */
  int array_len;        /* TY_ARRAY */
} LitType;

typedef struct InitItem {
  LitLoc loc;
  LitType type;
  LitVal val;           /* value 0 (text "0") when none was written */
  bool has_val;
  SrcPos pos;
} InitItem;

/* ---------------------------------------------------------- propositions */
typedef enum PropKind {
  P_TRUE,
  P_FALSE,
  P_EQ,         /* loc = val   (also ==) */
  P_LOCEQ,      /* loc = loc2 */
  P_NOT,        /* ~a, not a, and loc != val (as NOT of EQ) */
  P_AND,
  P_OR,
  P_IMPL,
  P_FAULT,      /* fault(P0:L0,x,TagCheck): Prop.fault */
} PropKind;

/* herd7's AArch64 fault types, in herd's order (the order of faults in a
 * final state); FT_NONE: not given. */
typedef enum FaultType {
  FT_NONE, FT_TAGCHECK, FT_UNDEF, FT_SVC, FT_MMU_TRANSLATION,
  FT_MMU_ACCESSFLAG, FT_MMU_PERMISSION, FT_COUNT
} FaultType;

/* Spelling of a fault type ("MMU:Translation"), and the type of a
 * spelling (FT_NONE if it is none); faults.c. */
const char *fault_type_name(FaultType t);
FaultType fault_type_parse(const char *s, size_t n);

/* A fault atom of the final section, fault(P0), fault(P0:L0,x),
 * fault(P0,x,TagCheck), fault(P0,PTE(x)), as herd's grammar has it. */
typedef struct FaultAtom {
  int thread;
  const char *label;    /* NULL: any instruction of the thread */
  const char *sym;      /* the location's symbol, NULL: any */
  bool pte;             /* the location is PTE(sym) */
  FaultType type;       /* FT_NONE: any */
  SrcPos pos;
} FaultAtom;

/* The atom as herd prints it, after `head` ("fault", "Fault"). */
void fault_atom_print(const FaultAtom *f, const char *head, StrBuf *out);

typedef struct Prop {
  PropKind kind;
  LitLoc loc, loc2;
  LitVal val;
  struct Prop *a, *b;
  FaultAtom *fault;     /* P_FAULT */
  SrcPos pos;
} Prop;

typedef enum Quant { Q_EXISTS, Q_NOT_EXISTS, Q_FORALL } Quant;

/* ------------------------------------------------------------------ code */

/* Generic instruction: each architecture gives `op`, `flags` and the
 * operands their meaning (see its own file).  Labels are kept by name;
 * the hash renames them, the semantics resolves them per thread. */
typedef enum OperandKind {
  OPK_NONE,
  OPK_REG,      /* reg */
  OPK_IMM,      /* imm */
  OPK_MEM,      /* memory operand: base reg, index reg2, imm offset, sym,
                   shift/extend in sub, per architecture */
  OPK_LABEL,    /* label (name in sym) */
  OPK_SYM,      /* absolute symbol, e.g. X86 [x] (name in sym) */
  OPK_COND,     /* condition code (imm holds the arch's code) */
  OPK_STR,      /* raw text (e.g. PPC "com" pseudo-instruction) */
  OPK_VREG,     /* a vector register (AArch64 SIMD, aarch64_simd.h) */
} OperandKind;

typedef struct Operand {
  uint8_t kind;
  uint8_t sub;        /* architecture-specific refinement (shift kind...) */
  int reg, reg2;      /* -1 when absent */
  int64_t imm;
  int64_t imm2;       /* second immediate (shift amount...) */
  const char *sym;
  /* Symbolic registers (`%name` in the source, litmus.md §2.1): the name
   * without '%' of reg / reg2, else NULL.  litmus_parse() allocates every
   * symbolic register to a free real register of its thread (as herd
   * does), so reg / reg2 always hold a real register id afterwards; the
   * names are kept because the hash prints the instruction as written. */
  const char *sreg, *sreg2;
} Operand;

enum { INSTR_MAX_OPS = 6 };

typedef struct Instr {
  int op;             /* the architecture's opcode enum */
  uint32_t flags;     /* architecture-specific bits (sizes, '.', .aq...) */
  int nops;
  Operand ops[INSTR_MAX_OPS];
  const char *text;   /* source text of the cell, trimmed, for messages */
  SrcPos pos;
} Instr;

typedef struct CodeEntry {
  const char *label;  /* non-NULL: this entry is the definition "label:" */
  Instr *ins;         /* non-NULL: an instruction */
  SrcPos pos;
} CodeEntry;

typedef struct Thread {
  CodeEntry *entries; /* labels and instructions in program order; empty
                         cells produce no entry */
  int nentries;
  const char *attrs;  /* header "P0@cta 0,gpu 0": the text after '@'
                         (ArchOps.scoped_threads), else NULL */
  /* The thread's fault handler (a "P0.F" column, AArch64), or NULL.  An
   * event of the handler's code has code_index nentries + its entry's
   * index (test_entry). */
  struct Thread *handler;
} Thread;

/* The code entry of an event's (thread, code_index), handler code
 * included. */
const CodeEntry *test_entry(const Thread *th, int code_index);

/* ------------------------------------------------------------------ test */
typedef struct Meta {
  const char *key, *value;
} Meta;

struct ArchOps;
struct CCode;
struct ScopeTree;

typedef struct Test {
  Arena arena;
  const char *file;      /* path as given */
  const char *text;      /* whole file */
  Arch arch;
  const struct ArchOps *ops;
  const char *name;      /* test name (".litmus" removed) */
  const char *doc;       /* doc string or NULL */
  Meta *meta;            /* metadata in file order */
  int nmeta;
  InitItem *init;        /* init items as written, in order */
  int ninit;
  Thread *threads;       /* assembly tests */
  int nthreads;
  struct CCode *c;       /* C tests (see c.h), else NULL */
  struct ScopeTree *scopes; /* the scope tree after the code (LISA), or NULL */
  LitLoc *locations;     /* `locations [...]` */
  int nlocations;
  FaultAtom *loc_faults; /* the fault atoms of `locations [...]` */
  int nloc_faults;
  /* The code columns as written, fault handlers included (the hash
   * prints them all); NULL when they are threads[0..nthreads-1]. */
  Thread **cols;
  int ncols;
  Prop *filter;          /* or NULL */
  bool has_cond;         /* false: no condition (behaves as forall true) */
  Quant quant;
  Prop *cond;            /* P_TRUE when has_cond is false */
  SrcPos cond_pos;
  /* The hash's digest, "" until test_hash_keep (report/hash.c) fills it:
   * the session asks for it and the printers again. */
  char digest[33];
  void *arch_data;       /* the front end's own (GPU scopes, aliases), in
                            the arena, or NULL */
} Test;

/* Parse a litmus file.  Returns NULL on error, with the error in err
 * (position and message).  The Test owns its arena; free with test_free. */
Test *litmus_parse(const char *path, const char *text, Err *err);
void test_free(Test *t);

/* Value of the metadata key (matched ignoring case, as herd does) or NULL. */
const char *test_meta(const Test *t, const char *key);

/* --------------------------------------------------------- architectures
 * Each architecture front end fills one of these (x86.c, ppc.c, ...). */
typedef struct ArchOps {
  Arch arch;
  const char *name;           /* "PPC", as in the litmus header */
  int word_bits;              /* 32 or 64: the scalar width */
  int nregs;                  /* register ids are 0..nregs-1 */
  /* Parse a register name as written in the init or final section
   * ("EAX", "r3", "X0", "W0", "a0"); returns its id or -1. */
  int (*parse_reg)(const char *s);
  /* A vector register with an arrangement as a location (AArch64
   * "V0.4S"): the id of its first chunk, its lanes and their bits; -1 if
   * s is not one.  NULL: the architecture has none. */
  int (*vec_loc)(const char *s, int *lanes, int *lane_bits);
  /* Canonical spelling in final states ("EAX", "r3", "X0", "x10"). */
  const char *(*reg_name)(int reg);
  /* Parse one code cell's instruction (text without labels, trimmed, not
   * empty).  On failure raises through err at pos, e.g.
   * "unknown instruction 'foo r1' (PPC)". */
  Instr *(*parse_instr)(Arena *a, Err *err, const char *text, SrcPos pos);
  /* Canonical spelling for the hash (../shared/spec/hash.md §7), with
   * labels renamed by `rename` (called with the label name). */
  void (*print_instr)(const Instr *ins, StrBuf *out,
                      const char *(*rename)(void *ctx, const char *label),
                      void *ctx);
  /* The spelling of an instruction as a value (instr:"..." in states),
   * when it is not print_instr's (AArch64: herd's non-compat printer);
   * NULL: print_instr's. */
  void (*print_value)(const Instr *ins, StrBuf *out);
  /* Added fields. */
  /* Code-table splitting: true if a ';' right after this cell text (labels
   * already removed, trimmed) belongs to the instruction rather than ending
   * the row (X86 "LOCK; ADD ..."); NULL: never. */
  bool (*semi_continues)(const char *cell);
  /* Code-table splitting: true if a '|' followed by `rest` belongs to the
   * instruction rather than separating cells (BPF "r1 |= r2"); NULL:
   * never. */
  bool (*pipe_continues)(const char *rest);
  /* Registers that symbolic registers may be allocated to, in herd's
   * preference order (PPC: r1..r31, X86: EAX..EDI, ...). */
  const int *symb_regs;
  int nsymb_regs;
  /* Architectures whose instructions carry annotations a bell file
   * declares (ISA_BELL): the kind an instruction's annotation list is
   * checked against ("R", "W", "F", "RMW", "B"), or NULL when it has
   * none; and its i-th annotation into buf (size n), false past the
   * end. */
  const char *(*bell_kind)(const Instr *ins);
  bool (*bell_annot)(const Instr *ins, int i, char *buf, size_t n);
  /* Called when a test's header names this architecture (C: the code
   * section is a program, parsed by c.c); NULL: nothing to do. */
  void (*begin)(Test *t);
  /* Thread headers may carry attributes, "P0@cta 0,gpu 0" (PTX, Vulkan):
   * kept in Thread.attrs for the architecture to read. */
  bool scoped_threads;
  /* Sections herd's grammar lacks (PTX, Vulkan: "y aliases x;" items in
   * the init section, a second "{ ssw 0 1; }" block after it).  Called
   * with a writable copy of the text: the hook consumes what is its own
   * (blanking it with spaces, offsets unchanged) and returns where the
   * code section starts (code_start if nothing follows the init block);
   * pos maps an offset to a position for errors.  NULL: none. */
  size_t (*sections)(Test *t, Err *err, char *buf, size_t init_start,
                     size_t init_end, size_t code_start,
                     SrcPos (*pos)(void *ctx, size_t off), void *ctx);
} ArchOps;

/* An instruction as a value: print_value, or print_instr without renaming. */
static inline void arch_print_value(const ArchOps *ops, const Instr *ins, StrBuf *out) {
  if (ops->print_value) ops->print_value(ins, out);
  else ops->print_instr(ins, out, NULL, NULL);
}

/* --------------------------------------------------------- scope trees
 * A `scopes:` section after the code (herd's bell tests, scopes.c):
 * `scopes: (system (gpu (cta P0) (cta P1)))`, its nodes each a scope tag
 * and the threads below it.  herd binds, for each tag, the relation
 * between events of threads under one node of that tag. */
typedef struct ScopeNode {
  const char *tag;
  uint64_t threads;   /* bit i: thread Pi */
} ScopeNode;

typedef struct ScopeTree {
  ScopeNode *nodes;
  int n;
} ScopeTree;

/* Offset in [start, end) of a `scopes:`, `levels:` or `regions:` section,
 * or end. */
size_t scope_section_start(const char *text, size_t start, size_t end);
/* Parse that section (n bytes of text, at pos): only `scopes:` is
 * supported; errors raise through err. */
ScopeTree *scope_tree_parse(Arena *a, Err *err, const char *text, size_t n,
                            SrcPos pos);
/* The k-th distinct tag of the tree (NULL past the end, or t NULL), and
 * whether threads a and b are both below one node of that tag. */
const char *scope_tree_tag(const ScopeTree *t, int k);
bool scope_tree_same(const ScopeTree *t, int k, int a, int b);

/* The registry's (src/isa) lookups. */
const ArchOps *arch_ops(Arch a);
/* A register's spelling in final states: the architecture's, or for C
 * tests the local's name (c.c). */
const char *test_reg_name(const Test *t, int reg);      /* NULL if not supported yet */
const char *arch_name(Arch a);
bool arch_from_name(const char *s, Arch *a);

/* types.c: width in bits and signedness of values of a type on an architecture
 * whose scalars have word_bits (NULL type: int).  The width is at most
 * word_bits. */
int lit_type_bits(const LitType *ty, int word_bits, bool *is_signed);

/* Printing helpers shared by the hash and the output (print.c). */
void lit_print_loc_hash(const LitLoc *l, StrBuf *out);  /* as written */

/* pte.c: VMSA names.  Page-table entries and physical addresses are
 * symbols named "PTE(x)" and "PA(x)" (herd's spelling in outputs), whether
 * written so or pte_x, phy_x. */
typedef enum SymKind { SK_VIRTUAL, SK_PHYSICAL, SK_PTE } SymKind;
SymKind lit_sym_kind(const char *sym);
/* herd's order of kinds of symbols: virtual < physical < MTE tag
 * locations tag(x) < page-table entries. */
int lit_sym_rank(const char *sym);
/* The x of "PTE(x)" / "PA(x)" (an arena copy), sym itself otherwise. */
const char *lit_sym_base(Arena *a, const char *sym);
/* The legacy spelling the hash uses: pte_x, phy_x, else sym. */
void lit_print_sym_hash(const char *sym, StrBuf *out);
/* A PTE value as herd prints it in outputs: oa first, then the fields
 * that differ from the default (valid:1, af:1, db:1, dbm:0, el0:1). */
void lit_print_pte(const char *oa, unsigned bits, StrBuf *out);
/* The default flags of an entry (bit f: field f). */
unsigned lit_pte_default(void);
/* Whether the init or final section names a PTE, a physical address or
 * holds a PTE value. */
bool lit_test_uses_vmsa(const Test *t);

/* a, b, c and d joined, in arena a (printf costs hundreds of
 * instructions a call; names are joined a few times per test). */
char *lit_join(Arena *ar, const char *a, const char *b, const char *c, const char *d);

/* ------------------------------------------------ helpers (arch.c)
 * Growable arrays in an arena (old blocks are simply abandoned: the
 * arrays are small and the arena is freed with the test). */
void *lit_grow(Arena *a, void *data, int len, int *cap, size_t elem);
/* Room for `want` elements in all (one block, the len first ones copied). */
void *lit_reserve(Arena *a, void *data, int len, int *cap, int want, size_t elem);
#define APUSH(a, arr, len, cap, x)                                           \
  do {                                                                       \
    if ((len) >= (cap))                                                      \
      (arr) = lit_grow((a), (arr), (len), &(cap), sizeof *(arr));            \
    (arr)[(len)++] = (x);                                                    \
  } while (0)

/* Shared by the parsers of the state sections and of the instructions. */

/* Whether the n bytes at s (no NUL among them) spell exactly the string
 * w.  The front ends look words up in tables this way, hundreds of times
 * a test: the first byte is compared before anything else. */
static inline bool lit_word_is(const char *w, const char *s, size_t n) {
  if (n == 0) return w[0] == 0;
  return w[0] == s[0] && strncmp(w, s, n) == 0 && w[n] == 0;
}

/* Parse an integer literal: optional '-', then decimal digits or 0x/0X and
 * hex digits, the whole of [s, s+n).  Values up to 2^64-1 are accepted and
 * wrap to int64_t (herd reads 0xffffffffffffffff as -1).  False on bad
 * syntax or overflow. */
bool lit_parse_int(const char *s, size_t n, int64_t *out);

/* A constant of the initial state or the condition, read as herd7 reads
 * it into the machine's scalar of `bits` (32 or 64) bits (OCaml's
 * Int32/Int64.of_string): a decimal must fit the signed range, a hex
 * constant the unsigned one (then wraps, 0xffffffff is -1 on 32 bits);
 * the result is sign-extended into *out.  False when herd7 refuses it. */
bool lit_scalar_of_string(const char *s, size_t n, int bits, int64_t *out);

/* A tokenizer for one instruction's text, used by x86.c, ppc.c, ...
 * Tokens: names ([A-Za-z_][A-Za-z0-9_./-]*), numbers (as lit_parse_int,
 * a '-' only directly before a digit), "%name" (one token), double-quoted
 * strings, and single punctuation characters. */
typedef enum AsmTokKind {
  AT_END, AT_NAME, AT_NUM, AT_PCTNAME, AT_STRING, AT_PUNCT
} AsmTokKind;

typedef struct AsmTok {
  AsmTokKind kind;
  const char *s;        /* AT_NAME / AT_PCTNAME (without '%') / AT_STRING
                           (without quotes): start in the text */
  size_t len;
  int64_t num;          /* AT_NUM */
  char c;               /* AT_PUNCT */
  SrcPos pos;
} AsmTok;

typedef struct AsmScan {
  Arena *arena;
  Err *err;
  const char *arch;     /* "PPC", for messages */
  const char *text;     /* the whole instruction text */
  SrcPos start;         /* its position */
  size_t i;             /* scanning offset */
  SrcPos cur;           /* position of offset i */
  AsmTok tok;           /* current token */
} AsmScan;

void asm_scan_init(AsmScan *s, Arena *a, Err *err, const char *arch,
                   const char *text, SrcPos pos);
void asm_next(AsmScan *s);
bool asm_is(const AsmScan *s, char punct);
bool asm_accept(AsmScan *s, char punct);
void asm_expect(AsmScan *s, char punct);
bool asm_is_name(const AsmScan *s, const char *name);
/* [s, s+n) is `upper` or its all-lower-case spelling (herd's X86 and ARM
 * lexers accept both, not mixed case). */
bool asm_upper_or_lower(const char *upper, const char *s, size_t n);
char *asm_tok_str(const AsmScan *s);  /* current token's text, arena copy */
int64_t asm_expect_num(AsmScan *s);
void asm_expect_end(AsmScan *s);
/* "ARCH instruction 'TEXT': MESSAGE" at the current token. */
CR_NORETURN void asm_error(AsmScan *s, const char *fmt, ...) CR_PRINTF(2, 3);
/* "unknown ARCH instruction 'TEXT'" at the instruction. */
CR_NORETURN void asm_unknown(AsmScan *s);
Instr *asm_new_instr(AsmScan *s, int op);
/* Append an operand (all fields cleared, reg = reg2 = -1). */
Operand *asm_add_op(AsmScan *s, Instr *ins, OperandKind kind);
/* A label operand (name in sym): "expected a label" otherwise. */
void asm_parse_label(AsmScan *s, Instr *ins);
/* Operands separated by commas per a pattern: 'r' a register parsed by
 * `reg`, 'k' an immediate (OPK_IMM). */
void asm_parse_list(AsmScan *s, Instr *ins, const char *pat,
                    void (*reg)(AsmScan *s, Instr *ins));
/* Print a label operand through the hash's renaming callback. */
const char *asm_label_name(const Operand *o,
                           const char *(*rename)(void *ctx, const char *l),
                           void *ctx);

#endif
