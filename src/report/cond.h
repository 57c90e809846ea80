/*
 * cond.h — printing the final condition the way herd7 does on its
 * "Condition" line (../shared/spec/output.md §7), and the location and
 * value spellings of state lines (output.md §3.3-§3.4) it shares with the
 * output module.
 */
#ifndef CORRAL_COND_H
#define CORRAL_COND_H

#include "../litmus/litmus.h"

/* The text after "Condition ": "exists ([x]=1 /\ 0:EAX=0)",
 * "forall (true)" for a test without condition.  -hexa prints integers as
 * 0x... of the value masked to its location's type. */
void print_condition(const Test *t, bool hexa, StrBuf *out);

/* A location as in state lines: "[x]", "1:r3", "0:rax", "t[1]", and "t"
 * for a global declared as an array. */
void print_loc_state(const Test *t, const LitLoc *l, StrBuf *out);

/* The declared type of a location (an array cell: its array's), or NULL
 * when undeclared (it is then an `int`). */
const LitType *test_loc_type(const Test *t, const LitLoc *l);

/* An integer held by location l, cast to l's type as herd prints it:
 * sign-extended (signed types) or masked (unsigned) decimal, or 0x... of
 * the masked value with hexa. */
void print_int_value(const Test *t, const LitLoc *l, int64_t v, bool hexa,
                     StrBuf *out);

/* A literal value of the test (an atom's right side), spelled as herd's
 * Condition line does: integers as parsed, a signed decimal of the
 * machine's width (0x... of its bit pattern with hexa), addresses "x", labels label:"P1:L0", arrays
 * {1,2}, tags :green. */
void print_lit_value(const Test *t, const LitLoc *l, const LitVal *v,
                     bool hexa, StrBuf *out);

#endif
