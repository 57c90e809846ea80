/*
 * herd.h — herd7's text block for one test (../shared/spec/output.md §1).
 */
#ifndef CORRAL_HERD_H
#define CORRAL_HERD_H

#include <stdio.h>

#include "../exec/engine.h"

typedef struct HerdPrintOpts {
  bool hexa;
  bool show_time;
  double seconds;
  bool candidates;          /* -candidates true */
  const char *const *flag_names;
  int nflags;
  /* when set, the text is written there as it is formatted (in chunks of
   * about a megabyte): `out` holds only what was not written yet */
  FILE *stream;
  struct Pool *pool;        /* helpers that may format state lines (NULL: this thread only) */
} HerdPrintOpts;

void herd_print(const Program *p, const Outcome *o, const HerdPrintOpts *opt,
                StrBuf *out);

/* The pieces of the block, for the other formats (json.c): "Allowed",
 * "Forbidden" or "Required"; "Ok", "No" or "Undef"; the Witnesses
 * counts (swapped for ~exists); "Never", "Sometimes" or "Always"; the
 * raised flags' names, sorted (names holds 64); a state line without its
 * newline. */
const char *herd_kind(const Program *p);
const char *herd_result(const Program *p, const Outcome *o);
void herd_witnesses(const Program *p, const Outcome *o, uint64_t *P, uint64_t *N);
const char *herd_observation(const Outcome *o);
int herd_flags(const Outcome *o, const HerdPrintOpts *opt, const char **names);
void herd_state(const Program *p, const Val *st, bool hexa, StrBuf *out);
/* The faults' part of a state line (herd_faults.c), with its leading
 * space; nothing when the test observes no fault and there is none. */
void herd_faults(const Program *p, Val set, bool hexa, StrBuf *out);

/* One value as in state lines, for the display location d. */
void herd_print_value(const Program *p, const DispLoc *d, Val v, bool hexa,
                      StrBuf *out);

/* For pictures and explanations of one execution: a value without a
 * location's type; a memory event "R[x]=1", "W[y]=2", "RMW[x]=0->1"; the
 * final state "0:r1=1; x=2;" as in state lines (allocated in a). */
void herd_print_plain(const Program *p, Val v, StrBuf *out);
void herd_print_access(const ExecView *v, int e, StrBuf *out);
const char *herd_state_text(const Program *p, const Val *state, Arena *a);

#endif
