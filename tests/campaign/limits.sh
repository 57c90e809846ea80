# -maxcandidates and -timeout: a test over its bound is reported on one
# stderr line, prints no block, and the campaign goes on.  As with
# herd7's -timeout, a stopped test is not a failure: exit status 0, even
# with -exit true.
. ./common.inc
set +e
"$bin" -maxcandidates 2 t/x86/SB.litmus t/small/W.litmus >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" = 0 ] || fail "exit status $rc"
each t/small/W.litmus >"$tmp/want"
notime <"$tmp/out" | cmp - "$tmp/want" || fail "blocks with -maxcandidates"
[ "$(cat "$tmp/err")" = "t/x86/SB.litmus: error: test SB stopped: more than 2 candidates (-maxcandidates)" ] ||
  fail "stderr: $(cat "$tmp/err")"
set +e
"$bin" -exit true -maxcandidates 2 t/x86/SB.litmus t/small/W.litmus >"$tmp/out2" 2>/dev/null
rc=$?
set -e
[ "$rc" = 0 ] || fail "-exit true: exit status $rc"
cmp "$tmp/out" "$tmp/out2" || fail "-exit true: a stopped test stopped the run"
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
