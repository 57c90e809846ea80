# herd7's rule for a repeated test name: the same test again is skipped
# silently, another test with that name is skipped with a warning; a test
# that fails does not stop the campaign and, as in herd7, leaves the exit
# status 0; with -exit true it stops it, status 1.
. ./common.inc
set +e
"$bin" t/x86/SB.litmus t/bad/broken.litmus t/x86/SB.litmus t/dup/SB.litmus t/x86/MP.litmus \
  >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" = 0 ] || fail "exit status $rc, expected 0"
notime <"$tmp/out" >"$tmp/got"
each t/x86/SB.litmus t/x86/MP.litmus >"$tmp/want"
cmp "$tmp/got" "$tmp/want" || fail "blocks"
grep -q '^Warning: File "t/bad/broken.litmus": .* (User error)$' "$tmp/err" || fail "herd7's line for broken.litmus"
grep -q '^t/bad/broken.litmus:5:2: error: ' "$tmp/err" || fail "error of broken.litmus"
grep -qF 'Warning: File "t/dup/SB.litmus": Different hashes for test SB (previous file t/x86/SB.litmus) (User error)' \
  "$tmp/err" || fail "different-hash warning"
# (the source line and caret under an error are not counted)
[ "$(grep -vc '^ *[0-9]* |' "$tmp/err")" = 3 ] || fail "stderr: $(cat "$tmp/err")"
# -exit true: the run stops at broken.litmus, status 1
set +e
"$bin" -exit true t/x86/SB.litmus t/bad/broken.litmus t/x86/MP.litmus >"$tmp/out" 2>/dev/null
rc=$?
set -e
[ "$rc" = 1 ] || fail "-exit true: exit status $rc, expected 1"
notime <"$tmp/out" | cmp - "$(each t/x86/SB.litmus >"$tmp/sb"; echo "$tmp/sb")" || fail "-exit true: blocks"
echo ok
