#!/bin/sh
# The Linux kernel's way of running herd7 (tools/memory-model/scripts):
# from a folder holding only the kernel's model files, with no -set-libdir
# and no HERDLIB, `herd7 -conf linux-kernel.cfg TEST`.  Their lock.cat
# includes cross.cat and cos-opt.cat, which must come from corral's own
# library.  Every test of the corpus's linux suite must print its
# .expected, Time lines aside.
# Usage: tests/kernel/cwd.sh ./corral SHARED
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
corpus=$2/conformance
models=$corpus/models
if [ ! -f "$models/linux-kernel.cfg" ] || [ ! -f "$models/lock.cat" ]; then
  echo "kernel: $models has no kernel model files, skipped"
  exit 0
fi
corpus=$(cd "$corpus" && pwd) models=$corpus/models
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/mm"
cp "$models"/linux-kernel.cfg "$models"/linux-kernel.cat "$models"/linux-kernel.bell \
   "$models"/linux-kernel.def "$models"/lock.cat "$tmp/mm/"
pass=0 fail=0
# suite, test, options (tab-separated) of the linux rows of the manifest
awk -F '\t' '$1 == "linux" { print $2 "\t" $3 }' "$corpus/MANIFEST.tsv" >"$tmp/rows"
while IFS='	' read -r test opts; do
  exp=$corpus/${test%.litmus}.expected
  # shellcheck disable=SC2086
  (cd "$tmp/mm" && env -u HERDLIB "$bin" $opts "$corpus/$test") \
    2>"$tmp/err" | grep -v '^Time ' >"$tmp/out"
  grep -v '^Time ' "$exp" >"$tmp/exp"
  if cmp -s "$tmp/out" "$tmp/exp" && [ ! -s "$tmp/err" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    [ "$fail" -gt 5 ] && continue
    echo "FAIL $test (from a folder holding only the kernel's files)"
    diff "$tmp/exp" "$tmp/out" | head -10
    head -3 "$tmp/err"
  fi
done <"$tmp/rows"
[ -s "$tmp/rows" ] || { echo "kernel: no linux test in the manifest"; exit 1; }
echo "kernel: $pass passed, $fail failed (linux suite from the kernel's own folder)"
[ "$fail" -eq 0 ]
