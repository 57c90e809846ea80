# A subcommand after corral's options: judge and compare take them there
# as after their name; merge and serve refuse them with one clear line.
. ./common.inc
"$bin" -model sc.cat judge t/x86 >"$tmp/before" 2>&1 || true
"$bin" judge -model sc.cat t/x86 >"$tmp/after" 2>&1 || true
cmp "$tmp/before" "$tmp/after" || fail "judge: options before and after differ"
tail -1 "$tmp/before" | grep -qx '3 passed, 2 failed' || fail "judge: $(tail -1 "$tmp/before")"
"$bin" -j 2 compare x86tso.cat sc.cat t/x86 | tail -1 |
  grep -qx 'compare: 6 tests in both, 1 differ (1 by Observation, 0 by states only), 0 only in A, 0 only in B' ||
  fail "compare after -j 2"
for s in merge serve; do
  set +e
  "$bin" -j 2 $s x >"$tmp/out" 2>"$tmp/err"
  rc=$?
  set -e
  [ "$rc" = 2 ] || fail "$s: exit status $rc"
  [ ! -s "$tmp/out" ] || fail "$s: printed on stdout"
  grep -q "^corral: option -j before '$s': " "$tmp/err" || fail "$s: $(cat "$tmp/err")"
done
echo ok
