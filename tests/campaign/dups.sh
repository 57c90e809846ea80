# herd7's rule for a repeated test name: the same test again is skipped
# silently, another test with that name is skipped with a warning; a test
# that fails does not stop the campaign (exit status 1 at the end).
. ./common.inc
set +e
"$bin" t/x86/SB.litmus t/bad/broken.litmus t/x86/SB.litmus t/dup/SB.litmus t/x86/MP.litmus \
  >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" = 1 ] || fail "exit status $rc, expected 1"
notime <"$tmp/out" >"$tmp/got"
each t/x86/SB.litmus t/x86/MP.litmus >"$tmp/want"
cmp "$tmp/got" "$tmp/want" || fail "blocks"
grep -q '^t/bad/broken.litmus:5:2: error: ' "$tmp/err" || fail "error of broken.litmus"
grep -qF 'Warning: File "t/dup/SB.litmus": Different hashes for test SB (previous file t/x86/SB.litmus) (User error)' \
  "$tmp/err" || fail "different-hash warning"
# (the source line and caret under an error are not counted)
[ "$(grep -vc '^ *[0-9]* |' "$tmp/err")" = 2 ] || fail "stderr: $(cat "$tmp/err")"
echo ok
