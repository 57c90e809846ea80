/*
 * prelude.c — built-in cat text run before stdlib.cat for architectures
 * whose models take names herd7's engine does not bind.
 *
 * GPU models (Dartagnan's, and corral's own PTX and Vulkan models) use
 * `co` and `sync_fence` without enumerating them: the engine chooses
 * them (../shared/gpu/README.md, "Execution semantics").  A prelude says
 * so in cat, with the order primitives of orders.c, so that the rest of
 * the model runs once per choice as under herd7's `with co from ...`.
 * It also rejects executions where a control barrier waits for ever
 * (corral-stuck, bound by the architecture's semantics: such executions
 * do not terminate, and only terminating ones count), and binds `lxsx`,
 * which Dartagnan's implicit library reads.
 */
#include <string.h>

#include "interp.h"

static const struct {
  const char *name, *text;
} preludes[] = {
    /* PTX: coherence is a partial order per location (the model closes
     * it), the initial write first and the final write one of the
     * co-maximal ones; sync_fence a total order on the SC fences whose
     * scopes include each other. */
    {"gpu-partial-co",
     "\"corral: PTX's chosen orders\"\n"
     "empty corral-stuck as corral-barrier-blocks\n"
     "let lxsx = rmw \\ amo\n"
     "with co from partial-cos(W, loc & (IW * (W \\ IW)), FW)\n"
     "with sync_fence from orders-within(F & SC, sr)\n"},
    /* Vulkan: a total coherence order per location, as herd7's. */
    {"gpu-total-co",
     "\"corral: Vulkan's chosen orders\"\n"
     "empty corral-stuck as corral-barrier-blocks\n"
     "let lxsx = rmw \\ amo\n"
     "with co from total-cos(W, loc & ((IW * (W \\ IW)) | ((W \\ FW) * FW)))\n"},
};

int cat_prelude_count(void) { return (int)(sizeof preludes / sizeof *preludes); }
const char *cat_prelude_name(int i) { return preludes[i].name; }
const char *cat_prelude_text(int i) { return preludes[i].text; }

int cat_prelude_find(const char *name) {
  for (int i = 0; i < cat_prelude_count(); i++)
    if (strcmp(preludes[i].name, name) == 0) return i;
  return -1;
}
