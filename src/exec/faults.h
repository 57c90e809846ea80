/*
 * faults.h — faults in final states and conditions (herd7's Fault sets,
 * lib/fault.ml): how a thread goes on after a fault, which fault atoms a
 * test observes, the fault set of a candidate execution as a state
 * column (a VAL_FAULTS value), their order, matching and printing.
 * Raising a fault is the semantics' business (sem.h: sem_fault_event,
 * sem_raise).
 */
#ifndef CORRAL_FAULTS_H
#define CORRAL_FAULTS_H

#include "program.h"

/* herd's -variant fatal (precise), handled (imprecise), faultToNext
 * (skip); and MTE's precision, sync (the default), async, asym. */
typedef enum FaultHandling { FH_FATAL, FH_HANDLED, FH_SKIP } FaultHandling;
typedef enum MtePrecision { MTE_SYNC, MTE_ASYNC, MTE_ASYM } MtePrecision;

/* One fault of an execution, as a final state shows it: the thread and
 * instruction (its labels), the faulting address if any, type and
 * message. */
typedef struct FaultRec {
  int thread, code_index;
  Val loc;             /* VAL_ADDR, or kind VAL_VAR: none */
  int type;            /* FaultType */
  int msg;             /* FaultMsg */
} FaultRec;

/* The faults' part of the program: variants (the last one of each kind
 * wins, the test's Variant= line coming last), -dumpallfaults, the fault
 * atoms of the condition and of locations, and the display entry of the
 * faults when the states show them. */
void program_set_faults(Program *p, const char *const *variants, int nv, bool dumpallfaults);
void program_free_faults(Program *p);

/* The fault set of the candidate a worker is on (engine_int.h), restricted
 * to the faults an observed atom matches unless -dumpallfaults. */
struct Engine;
Val faults_of_candidate(struct Engine *g);

/* The faults of a VAL_FAULTS value (in herd's order). */
const FaultRec *faults_get(const Program *p, Val set, int *n);
int faults_cmp(const Program *p, Val a, Val b);
bool fault_atom_holds(const Program *p, const FaultAtom *a, Val set);
/* The labels of the instruction of a fault, sorted (at most cap). */
int fault_labels(const Program *p, const FaultRec *f, const char **out, int cap);

#endif
