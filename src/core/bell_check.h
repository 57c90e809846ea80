/*
 * bell_check.h — herd7's check of a bell test (LISA) against its bell file.
 */
#ifndef CORRAL_BELL_CHECK_H
#define CORRAL_BELL_CHECK_H

#include "../cat/interp.h"
#include "../litmus/litmus.h"

/* Whether every annotated instruction of the test t (of an ISA_BELL
 * architecture: LISA) matches one of
 * the bell file's `instructions K[...]` declarations for its kind K (R,
 * W, F, RMW, B); else false, with the first offending instruction's
 * position in *pos and herd's message in msg.  True without a bell. */
bool bell_check_test(const Test *t, const CatModel *m, SrcPos *pos, StrBuf *msg);

#endif
