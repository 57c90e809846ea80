# A test with many states (WWC-13: 12285, six chunks of state lines, so
# several rounds of the formatting helpers): the same block at -j 1, 2
# and 3, streamed and (with -explain) built in memory first.
. ./common.inc
f=t/big/WWC-13.litmus
"$bin" -j 1 "$f" | notime >"$tmp/a"
[ "$(sed -n 2p "$tmp/a")" = "States 12285" ] || fail "WWC-13: $(sed -n 2p "$tmp/a")"
"$bin" -j 1 -explain "$f" | notime >"$tmp/ea"
for j in 2 3; do
  "$bin" -j $j "$f" | notime >"$tmp/b"
  cmp "$tmp/a" "$tmp/b" || fail "-j $j: the block differs from -j 1"
  "$bin" -j $j -explain "$f" | notime >"$tmp/eb"
  cmp "$tmp/ea" "$tmp/eb" || fail "-j $j -explain: differs from -j 1"
done
echo ok
