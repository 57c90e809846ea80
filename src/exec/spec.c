/*
 * spec.c — the engine's side of -variant deps, herd7's speculation: the
 * side of a branch not taken is run too, its events speculated (EV_SPEC,
 * sem.c).  A speculated read may read from any write of its location,
 * or from no write at all (its value stays unknown); a read that is not
 * speculated never reads a speculated write.  herd7 then keeps a
 * candidate whose equations are not all solved, so a speculated event
 * may have an unknown value or location; everything else must be known,
 * and a contradiction (a location that differs, a path condition known
 * false) still discards the candidate.
 */
#include "engine_int.h"

bool spec_may_read(const EventStructure *es, int r, int w) {
  return (es->ev[r].flags & EV_SPEC) || !(es->ev[w].flags & EV_SPEC);
}

/* herd's variable of the value read: distinct for each read. */
Val spec_nowhere(const EventStructure *es, int r) {
  Val v = {VAL_VAR, 0, es->ev[r].hv > 0 ? es->ev[r].hv : 1000000 + r};
  return v;
}

static CR_NORETURN void unsolved(Engine *g, int e, const char *what) {
  err_raise(g->err, ERRK_SEMANTIC, (SrcPos){g->t->file, 0, 0},
            "-variant deps: %s of thread P%d that is not speculated stays unsolved "
            "(a cycle through rf): not supported yet", what, g->es->ev[e].thread);
}

/* The reads that are not speculated: every value known (false if some
 * is not), and no location that differs (*contra). */
static bool exec_reads(Engine *g, bool *contra) {
  const EventStructure *es = g->es;
  bool ok = true;
  for (int i = 0; i < es->nreads; i++) {
    int r = es->reads[i], w = g->rf_src[i];
    bool spec = (es->ev[r].flags & EV_SPEC) != 0;
    Val lr, lw, v;
    bool kr = ev_loc(g, r, &lr), kw = w >= 0 && ev_loc(g, w, &lw);
    if (kr && kw && !val_eq(lr, lw)) *contra = true;
    if (!spec && !eval_node(g, es->ev[r].val, &v)) ok = false;
  }
  return ok;
}

/* herd7 keeps a -variant deps candidate with unsolved equations (a value
 * copied round a cycle through rf and masked on the way), and the model
 * judges it: corral too, as long as what the model and the output read
 * is known (memory locations; values, if the model compares them; the
 * final state, see spec_final). */
bool spec_values(Engine *g) {
  const EventStructure *es = g->es;
  bool contra = false;
  bool known = exec_reads(g, &contra);
  if (!known && !contra && solve_unsolved(g)) known = exec_reads(g, &contra);
  if (contra) return false;
  for (int i = 0; i < es->nassume; i++) {
    Val v;
    if (eval_node(g, es->assume[i], &v) && v.kind == VAL_INT && v.num == 0) return false;
  }
  for (int e = 0; e < es->nrel; e++) {
    Val v;
    if ((es->ev[e].flags & EV_MEM) && !(es->ev[e].flags & EV_SPEC) && !ev_loc(g, e, &v))
      unsolved(g, e, "the location of an access");
  }
  if (!known && cat_prog_uses_values(g->prog))
    for (int i = 0; i < es->nreads; i++) {
      Val v;
      if (!(es->ev[es->reads[i]].flags & EV_SPEC) && !eval_node(g, es->ev[es->reads[i]].val, &v))
        unsolved(g, es->reads[i], "a value the model compares");
    }
  return true;
}

void spec_final(Engine *g) {
  err_raise(g->err, ERRK_SEMANTIC, (SrcPos){g->t->file, 0, 0},
            "-variant deps: a value of the final state stays unsolved (a cycle through "
            "rf): not supported yet");
}
