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

#endif
