/*
 * vmsa.h — -variant kvm translation for the semantics (vmsa.c).
 */
#ifndef CORRAL_VMSA_H
#define CORRAL_VMSA_H

#include "sem.h"

/* Translate the address *a of an access of the current instruction under
 * -variant kvm (nothing otherwise): a virtual address becomes the
 * physical one, after the walk and its check, and the events created
 * until sem_ctrl_reset are controlled by the check; a page-table entry
 * address adds the PTE tag to *tags.  False when this path faults (it has
 * ended: the caller returns at once). */
bool vmsa_access(SemCtx *c, SVal *a, bool write, uint64_t *tags);
/* The same with herd's two other parameters: updatedb, whether the
 * access may update the dirty bit (a write; or a CAS that fails without
 * writing, write false), and an, the A, Q or L annotation of the access
 * (the walk carries it when TTHM= gives HA or HD); vmsa_access takes
 * updatedb = write and the annotation in *tags. */
bool vmsa_access_an(SemCtx *c, SVal *a, bool write, bool updatedb, uint64_t an, uint64_t *tags);

#endif
