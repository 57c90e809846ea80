# corral judge: each test's Observation against its "Result:" line; the
# deliberately wrong one (t/x86/more/CoRR.litmus says Always, TSO says
# Never) must fail, and make the exit status 1.
. ./common.inc
set +e
"$bin" judge -j 2 t/x86 >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" = 1 ] || fail "exit status $rc, expected 1"
cat >"$tmp/want" <<'END'
ok   MP: Never
ok   SB+mfences: Never
ok   SB: Sometimes
--   2+2W: no Result: line
FAIL CoRR: Never, expected Always
ok   LB: Never
1 tests without a Result: line
4 passed, 1 failed
END
cmp "$tmp/out" "$tmp/want" || { diff "$tmp/want" "$tmp/out"; fail "judge output"; }
# all right: exit 0
"$bin" judge t/x86/SB.litmus t/x86/MP.litmus | tail -1 | grep -qx '2 passed, 0 failed' || fail "good tests"
# a test that does not run fails
set +e
printf 'X86 B\n(* Result: Never *)\n{ x=0; }\n P0 ;\n NOP2 ;\nexists (x=1)\n' >"$tmp/B.litmus"
"$bin" judge "$tmp/B.litmus" >"$tmp/out" 2>/dev/null
rc=$?
set -e
[ "$rc" = 1 ] || fail "broken test: exit status $rc"
grep -qx '0 passed, 1 failed' "$tmp/out" || fail "broken test: $(cat "$tmp/out")"
echo ok
