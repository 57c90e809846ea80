# corral compare: two models on the same tests (x86tso against sc: only
# SB differs, in Observation and states), two saved logs, and a log with
# itself (no difference, exit 0).
. ./common.inc
set +e
"$bin" compare x86tso.cat sc.cat t/x86 >"$tmp/out" 2>&1
rc=$?
set -e
[ "$rc" = 1 ] || fail "exit status $rc"
cat >"$tmp/want" <<'END'
A: x86tso.cat
B: sc.cat
Test        A           B           
SB          Sometimes   Never       Observation and states differ
compare: 6 tests in both, 1 differ (1 by Observation, 0 by states only), 0 only in A, 0 only in B
END
cmp "$tmp/out" "$tmp/want" || { diff "$tmp/want" "$tmp/out"; fail "models"; }
"$bin" -model x86tso.cat t/x86 >"$tmp/tso.log"
"$bin" -model sc.cat t/x86 t/small/W.litmus >"$tmp/sc.log"
set +e
"$bin" compare "$tmp/tso.log" "$tmp/sc.log" >"$tmp/out"
rc=$?
set -e
[ "$rc" = 1 ] || fail "logs: exit status $rc"
grep -q '^SB  *Sometimes  *Never  *Observation and states differ$' "$tmp/out" || fail "logs: SB"
grep -q '^W  *-  *Always  *only in B$' "$tmp/out" || fail "logs: W"
tail -1 "$tmp/out" | grep -qx 'compare: 6 tests in both, 1 differ (1 by Observation, 0 by states only), 0 only in A, 1 only in B' ||
  fail "logs: $(tail -1 "$tmp/out")"
# JSON logs compare like text logs
"$bin" -format json -model sc.cat t/x86 t/small/W.litmus >"$tmp/sc.json"
"$bin" -format tsv -model sc.cat t/x86 t/small/W.litmus >"$tmp/sc.tsv"
"$bin" compare "$tmp/sc.json" "$tmp/sc.log" >"$tmp/out" || fail "json against text: $(cat "$tmp/out")"
"$bin" compare "$tmp/sc.tsv" "$tmp/sc.json" >"$tmp/out" || fail "tsv against json: $(cat "$tmp/out")"
"$bin" -format json -model x86tso.cat t/x86 >"$tmp/tso.json"
set +e
"$bin" compare "$tmp/tso.json" "$tmp/sc.tsv" >"$tmp/out"
set -e
grep -q '^SB  *Sometimes  *Never  *Observation and states differ$' "$tmp/out" || fail "json/tsv: SB"
"$bin" compare "$tmp/tso.log" "$tmp/tso.log" | tail -1 |
  grep -qx 'compare: 6 tests in both, 0 differ (0 by Observation, 0 by states only), 0 only in A, 0 only in B' ||
  fail "a log with itself"
echo ok
