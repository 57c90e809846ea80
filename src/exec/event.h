/*
 * event.h — events and event structures.
 *
 * A thread's code is run symbolically (sem.c) once per control-flow path,
 * giving a ThreadPath: its events in program order, the intra-instruction
 * causality edges, the register reads-from edges, and the constraints
 * (branch conditions, store-conditional addresses) that the values must
 * satisfy.  One path per thread plus the initial writes make an
 * EventStructure (es.c), where events are renumbered so that the events a
 * model sees — memory accesses, fences, branch commits — come first
 * (0..nrel-1) and register events last; relations for ordinary models are
 * then bit matrices over nrel events only.
 */
#ifndef CORRAL_EVENT_H
#define CORRAL_EVENT_H

#include "../rel/rel.h"
#include "../util/util.h"
#include "value.h"

/* Event flags. */
enum {
  EV_R = 1 << 0,        /* memory read (EV_R|EV_W: single-event RMW, AMO) */
  EV_W = 1 << 1,        /* memory write */
  EV_INIT = 1 << 2,     /* initial write (no thread) */
  EV_FENCE = 1 << 3,    /* barrier */
  EV_BCC = 1 << 4,      /* commit of a conditional branch */
  EV_PRED = 1 << 5,     /* commit of a predicated instruction (CAS, CSEL) */
  EV_RREG = 1 << 6,     /* register read */
  EV_WREG = 1 << 7,     /* register write */
  EV_DATAPORT = 1 << 8, /* register read feeding the value of a store */
  EV_NEXP = 1 << 9,     /* non-explicit access (explicit is the default) */
  EV_CUTOFF = 1 << 10,  /* loop unrolling cut-off marker */
  EV_LOCK = 1 << 11,    /* C lock-like events (not in M), see c semantics */
  EV_NOP = 1 << 12,     /* an instruction without effect (AArch64 NOP), drawn
                           by herd in graphs; models see it as a register event */
  EV_FAULT = 1 << 13,   /* a fault (AArch64): Event.fault, .fault_bits, and its
                           address in loc (SYM_NONE: none) */
  EV_ERET = 1 << 14,    /* the commit of an exception return (EXC-RET) */
  EV_TLBI = 1 << 15,    /* a TLB invalidation (VMSA): loc, its TLB entry (a
                           VAL_TLB), or SYM_NONE for all entries */
  EV_REFUSE = 1 << 16,  /* marks a path corral cannot run right (sem_refuse):
                           a candidate taking it stops the run with an error;
                           Event.fault holds why (RefuseWhy) */
  EV_SCA = 1 << 17,     /* one single-copy-atomic access with the other EV_SCA
                           accesses of its direction in its instruction
                           instance (herd's para_atomic: LDXP, STXP) */
  EV_SPEC = 1 << 18,    /* -variant deps: speculated (a side of a branch not
                           taken), herd's SPEC; see ThreadPath.inst_parent */
  EV_SPUR = 1 << 19,    /* -variant kvm with TTHM=: an event of a spurious
                           update of an access flag (herd's SPURIOUS), of
                           no thread and no instruction (thread -1, inst
                           -1 in an EventStructure, as initial writes) */
};
/* Why a path is refused (EV_REFUSE): an MMU fault (-variant kvm), a
 * jump out of the code, a tag check fault inside a fault handler.
 * REFUSE_HANDLER_FAULT is no refusal: a fault inside a fault handler
 * (herd's add_fault, a Warn constraint), whose candidate is dropped with a
 * warning if the model allows it (EventStructure.handler_fault). */
typedef enum RefuseWhy {
  REFUSE_MMU_FAULT, REFUSE_OUT_OF_CODE, REFUSE_NESTED_FAULT,
  REFUSE_KVM_ADDRESS, /* -variant kvm: an address read from memory that is
                         no symbol of the test (vmsa.c) */
  REFUSE_HANDLER_FAULT
} RefuseWhy;
#define EV_MEM (EV_R | EV_W)
#define EV_COMMIT (EV_BCC | EV_PRED | EV_ERET)

/* Event.fault_bits of a fault event. */
enum {
  FB_WRITE = 1 << 0,    /* raised by a write (FAULT-WR), else by a read */
  FB_ENTRY = 1 << 1,    /* an exception entry (EXC-ENTRY) */
  FB_MSG_SHIFT = 2,     /* then a FaultMsg */
};
/* The message herd attaches to some faults (Fault(P0,x,MMU:Permission,EL0)). */
typedef enum FaultMsg { FM_NONE, FM_EL0, FM_INVALID, FM_COUNT } FaultMsg;
#define EV_REG (EV_RREG | EV_WREG)
/* Events numbered after the relevant ones, outside what a model without
 * register dependencies sees. */
#define EV_IRRELEVANT (EV_REG | EV_NOP | EV_REFUSE)

typedef struct Event {
  uint32_t flags;
  int16_t thread;       /* -1 for initial writes */
  int16_t reg;          /* register events: the register id */
  int32_t inst;         /* instruction instance: position in the thread's
                           path (po between instances), -1 for init */
  int32_t code_index;   /* static instruction: index in Thread.entries */
  Sym loc;              /* memory events: the address */
  Sym val;              /* read: its S_READ node; write: value written;
                           register events: the value */
  Sym wval;             /* single-event RMW (EV_R|EV_W): value written */
  uint8_t size;         /* access size in bytes */
  uint8_t acc_size;     /* -variant mixed: size of the access this byte
                           event belongs to (mixed.c); 0 otherwise */
  uint8_t fault;        /* EV_FAULT: its FaultType */
  uint8_t fault_bits;   /* EV_FAULT: FB_ bits */
  int16_t sub;          /* rank among the events of its instruction instance
                           (same-static: same instruction, same rank) */
  int16_t acc;          /* -variant mixed: the sub of the first byte event of
                           the access this one belongs to (mixed.c) */
  int32_t hv;           /* herd7's variable for the value (read: the value
                           read; write: the value written), after its
                           register stage, or 0 for a constant (sem.c) */
  uint64_t tags;        /* bits in the test's tag table (TagTable below):
                           annotations (X, A, L...) and fence kinds */
} Event;

typedef struct Edge {
  int32_t a, b;
} Edge;

typedef VEC(Edge) EdgeVec;

/* Names of architecture sets carried by events ("X", "SYNC", "DMB.ISH",
 * bell annotations...): bit i of Event.tags is names[i]. */
enum { TAG_MAX = 64 };
typedef struct TagTable {
  const char *names[TAG_MAX];
  int count;
} TagTable;

int tag_bit(TagTable *t, const char *name); /* adds; -1 if table full */
int tag_find(const TagTable *t, const char *name);

/* One control-flow path of one thread, with thread-local event ids. */
typedef struct ThreadPath {
  Event *ev;
  int nev;
  SymNode *nodes;       /* expressions; S_READ refers to local event ids */
  int nnodes;
  Edge *iico_data, *iico_ctrl, *iico_order, *rf_reg;
  int n_iico_data, n_iico_ctrl, n_iico_order, n_rf_reg;
  Edge *cctrl;          /* C: condition event -> event in a branch of its if */
  int n_cctrl;
  Edge *seq;            /* C: sequencing inside a statement beyond data flow
                           (the read of an RMW before its write) */
  int n_seq;
  Sym *assume;          /* each must evaluate to non-zero */
  int nassume;
  Sym *final_regs;      /* per register id: final value (SYM_NONE: never
                           written and no initial value: reads as 0) */
  int nregs;
  bool cutoff;          /* path ended by the unrolling bound */
  const char *cutoff_label;
  /* -variant deps: po is a tree of instruction instances (both sides of
   * a branch follow it, not each other): the parent of instance i, or -1;
   * NULL otherwise (po is then the order of instances). */
  int *inst_parent;
  int ninst;
} ThreadPath;

typedef struct ThreadPaths {
  ThreadPath *v;
  int n;
} ThreadPaths;

/* A complete abstract event structure: initial writes and one path per
 * thread.  Events 0..nrel-1 are the "relevant" ones (memory, fences,
 * commits), nrel..n-1 the register events.  Within each group events are
 * ordered: initial writes first, then thread by thread in program order. */
typedef struct EventStructure {
  Arena *arena;
  int n, nrel;
  Event *ev;
  SymNode *nodes;
  int nnodes;
  Sym *assume;
  int nassume;
  int nthreads;
  int *path_index;      /* per thread: which ThreadPath was chosen */
  Sym **final_regs;     /* per thread, per register id */
  int nregs;
  bool cutoff;          /* some thread path was cut off */
  const char *cutoff_label;
  int refuse_ev;        /* an EV_REFUSE event, or -1 */
  bool handler_fault;   /* a thread faults inside its fault handler */

  /* Full-dimension relations (over all n events). */
  Dim full;
  Word *iico_data, *iico_ctrl, *rf_reg, *po_full;
  Word *iico_order;     /* herd's intra_causality_order (SWP) */
  Word *cctrl;          /* C: see ThreadPath.cctrl */
  bool is_c;            /* a C test: statement-level po and dependencies */
  /* Memory reads and writes (event ids), in order. */
  int *reads, nreads;
  int *writes, nwrites;
  int *init_of_sym;     /* symbol id -> its initial write event */
  int nsyms;
} EventStructure;

#endif
