/*
 * herd.h — herd7's text block for one test (../shared/spec/output.md §1).
 */
#ifndef CORRAL_HERD_H
#define CORRAL_HERD_H

#include "../exec/engine.h"

typedef struct HerdPrintOpts {
  bool hexa;
  bool show_time;
  double seconds;
  bool candidates;          /* -candidates true */
  const char *const *flag_names;
  int nflags;
} HerdPrintOpts;

void herd_print(const Program *p, const Outcome *o, const HerdPrintOpts *opt,
                StrBuf *out);

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
