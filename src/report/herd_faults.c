/*
 * herd_faults.c — the faults at the end of a final state line, as herd7
 * prints them (herd/archExtra_herd.ml): the state's faults, each
 * "Fault(P0:L0,x:red,TagCheck);", then " ~Fault(...);" for each observed
 * fault atom no fault of the state matches, in decreasing atom order.
 */
#include "herd.h"

#include "../exec/faults.h"

static void print_fault(const Program *p, const FaultRec *f, bool hexa, StrBuf *out) {
  const char *l[16];
  int n = fault_labels(p, f, l, 16);
  sb_printf(out, "Fault(P%d", f->thread);
  if (n == 1) sb_printf(out, ":%s", l[0]);
  if (n > 1) {
    sb_puts(out, ":{");
    for (int i = 0; i < n; i++) sb_printf(out, "%s%s", i ? "," : "", l[i]);
    sb_putc(out, '}');
  }
  if (f->loc.kind == VAL_ADDR) {
    DispLoc plain = {0};
    sb_putc(out, ',');
    herd_print_value(p, &plain, f->loc, hexa, out);
  }
  if (f->type != FT_NONE) sb_printf(out, ",%s", fault_type_name((FaultType)f->type));
  static const char *const msgs[FM_COUNT] = {NULL, "EL0", "Invalid"};
  if (f->msg > FM_NONE && f->msg < FM_COUNT) sb_printf(out, ",%s", msgs[f->msg]);
  sb_putc(out, ')');
}

void herd_faults(const Program *p, Val set, bool hexa, StrBuf *out) {
  int n;
  const FaultRec *r = faults_get(p, set, &n);
  if (n == 0 && p->nfatoms == 0) return;
  sb_putc(out, ' ');
  for (int i = 0; i < n; i++) {
    if (i) sb_putc(out, ' ');
    print_fault(p, &r[i], hexa, out);
    sb_putc(out, ';');
  }
  for (int i = p->nfatoms - 1; i >= 0; i--)
    if (!fault_atom_holds(p, p->fatoms[i], set)) {
      fault_atom_print(p->fatoms[i], " ~Fault", out);
      sb_putc(out, ';');
    }
}
