# -maxcandidates and -timeout: a test over its bound is reported on one
# stderr line, prints no block, and the campaign goes on.
. ./common.inc
set +e
"$bin" -maxcandidates 2 t/x86/SB.litmus t/small/W.litmus >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" = 1 ] || fail "exit status $rc"
each t/small/W.litmus >"$tmp/want"
notime <"$tmp/out" | cmp - "$tmp/want" || fail "blocks with -maxcandidates"
[ "$(cat "$tmp/err")" = "t/x86/SB.litmus: error: test SB stopped: more than 2 candidates (-maxcandidates)" ] ||
  fail "stderr: $(cat "$tmp/err")"
# exactly at the bound is not over it (SB has 4 candidates)
each t/x86/SB.litmus >"$tmp/x"
"$bin" -maxcandidates 4 t/x86/SB.litmus | notime | cmp - "$tmp/x" || fail "-maxcandidates 4"
# a budget no test can meet: every test is stopped, on one thread or two
for j in 1 2; do
  set +e
  "$bin" -j $j -timeout 0.000000001 t/x86/SB.litmus t/small/W.litmus >"$tmp/out" 2>"$tmp/err"
  set -e
  [ ! -s "$tmp/out" ] || fail "-timeout printed a block"
  [ "$(grep -c 'stopped: more than 1e-09 s of CPU time (-timeout)$' "$tmp/err")" = 2 ] ||
    fail "-timeout: $(cat "$tmp/err")"
done
echo ok
