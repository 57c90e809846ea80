#!/bin/sh
# natives.sh — the functions corral runs natively (cat/analyse.c) give
# the outputs their cat definitions give: the corpus suites whose models
# use them, run with -natives false (tests/corral-no-natives), must match
# herd7's outputs byte for byte, as the ordinary run does (make conform,
# make test-models).  First, that the natives are recognised at all, so
# that the comparison compares two paths.
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "$(dirname "${1:-$here/../corral}")" && pwd)/$(basename "${1:-corral}")
export CORRAL_BIN=$bin
shared=${SHARED:-$here/../../shared}
conform=$shared/tools/conform
corpus=$shared/conformance
if [ ! -x "$conform" ]; then echo "natives: $shared not present, skipped"; exit 0; fi
fail=0
expect_native() { # libdir file name
  if ! CORRAL_FINGERPRINTS=1 "$bin" -set-libdir "$1" "$here/../examples/MP-aarch64.litmus" 2>&1 >/dev/null |
       grep -q "^fingerprint $2 $3 .* native$"; then
    echo "FAIL natives: $3 of $2 ($1) is not recognised"
    fail=1
  fi
}
expect_native "$corpus/models" cross.cat cross
expect_native "$corpus/models" cross.cat co_locs
expect_native "$here/../models" corral-orders.cat pick-one-each
# herd7's models (cross.cat), then corral's (corral-orders.cat), sampled
"$conform" --corpus "$corpus" --bin "$here/corral-no-natives" --strict --quiet --jobs 2 \
  --suite article --suite x86 --suite linux --suite c11 --suite c11-partialsc --sample 2 |
  tail -1 | grep -q ' 0 failed$' || { echo "FAIL natives: herd7's models with -natives false"; fail=1; }
"$conform" --corpus "$corpus" --bin "$here/corral-no-natives" --models "$here/../models" --strict \
  --quiet --jobs 2 --suite aarch64 --suite c11 --sample 4 |
  tail -1 | grep -q ' 0 failed$' || { echo "FAIL natives: corral's models with -natives false"; fail=1; }
[ "$fail" = 0 ] && echo "natives: the native and the cat paths agree"
exit $fail
