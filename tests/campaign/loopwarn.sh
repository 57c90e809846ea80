# A test cut by the unrolling bound: one warning on stderr naming the
# loop's label (herd7's words, values-and-loops.md §2.3), none without a
# cut that reaches the model.
. ./common.inc
"$bin" ../litmus/loop-aarch64-spin.litmus >/dev/null 2>"$tmp/err"
[ "$(cat "$tmp/err")" = 'Warning: File "../litmus/loop-aarch64-spin.litmus": unrolling limit exceeded at L0, legal outcomes may be missing.' ] ||
  fail "stderr: $(cat "$tmp/err")"
"$bin" -conf linux-kernel.cfg ../litmus/lkmm-while-unroll.litmus >/dev/null 2>"$tmp/err"
grep -q 'unrolling limit exceeded at While, ' "$tmp/err" || fail "C: $(cat "$tmp/err")"
"$bin" ../litmus/loop-aarch64-known.litmus >/dev/null 2>"$tmp/err"
[ ! -s "$tmp/err" ] || fail "known counter: $(cat "$tmp/err")"
echo ok
