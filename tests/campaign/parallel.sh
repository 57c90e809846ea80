# -j N over several tests: the same stdout and stderr, in input order, as
# one test at a time; with one test, -j keeps splitting that test.
. ./common.inc
set +e
args="t/x86 t/bad/broken.litmus t/dup/SB.litmus t/@all t/small/W.litmus"
# shellcheck disable=SC2086
"$bin" -j 1 $args >"$tmp/o1" 2>"$tmp/e1"
r1=$?
for j in 2 3 8; do
  # shellcheck disable=SC2086
  "$bin" -j $j $args >"$tmp/o2" 2>"$tmp/e2"
  r2=$?
  [ "$r1" = "$r2" ] || fail "-j $j: exit status $r2, -j 1: $r1"
  notime <"$tmp/o1" >"$tmp/a"
  notime <"$tmp/o2" >"$tmp/b"
  cmp "$tmp/a" "$tmp/b" || fail "-j $j: stdout differs from -j 1"
  cmp "$tmp/e1" "$tmp/e2" || fail "-j $j: stderr differs from -j 1"
done
set -e
"$bin" -j 2 t/x86/SB.litmus | notime >"$tmp/a"
"$bin" -j 1 t/x86/SB.litmus | notime >"$tmp/b"
cmp "$tmp/a" "$tmp/b" || fail "one test, -j 2"
echo ok
