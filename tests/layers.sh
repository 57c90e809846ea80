#!/bin/sh
# layers.sh — the directories of src/ form layers: a directory includes
# headers of the directories below it only (DESIGN.md, "Layers").  Each
# line: a directory, then those it must not include.  The ISA registry
# (src/isa) is the one place that wires an architecture's front end and
# semantics together; below it only isa/isa.h (the Arch constants) is
# included.
here=$(cd "$(dirname "$0")" && pwd)
src="$here/../src"
fail=0
check() {
  dir=$1; shift
  for up in "$@"; do
    hits=$(grep -lE "#include \"(\.\./)?$up/" "$src/$dir"/*.[ch] 2>/dev/null)
    if [ -n "$hits" ]; then
      echo "FAIL layers: src/$dir includes src/$up: $hits"
      fail=1
    fi
  done
}
check util rel cat litmus exec report core isa cli serve
check rel cat litmus exec report core isa cli serve
check cat litmus exec report core isa cli serve
check litmus cat exec report core cli serve
check exec report core cli serve
check report core cli serve
check core cli serve
[ "$fail" = 0 ] && echo "layers: src/ includes follow the layers"
exit $fail
