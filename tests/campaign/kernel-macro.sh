# herd7's conventions for a test it cannot run, as the Linux kernel's
# tools/memory-model scripts read them (judgelitmus.sh, cmplitmushist.sh
# look for ": Unknown macro NAME"): an unknown macro prints herd7's line
# `Warning: File "FILE": Unknown macro NAME (User error)` on stderr, then
# corral's located diagnostic; the next file still runs; the exit status
# is 0, or 1 at once with -exit true.
. ./common.inc
bad=t/kernel/MP+wmbx.litmus
good=../../examples/MP-linux.litmus
set +e
"$bin" -conf linux-kernel.cfg "$bad" "$good" >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" = 0 ] || fail "exit status $rc, expected 0"
[ "$(head -1 "$tmp/err")" = "Warning: File \"$bad\": Unknown macro smp_wmbx (User error)" ] ||
  fail "herd7's line: $(head -1 "$tmp/err")"
sed -n 2p "$tmp/err" | grep -q "^$bad:8:3: error: " || fail "corral's diagnostic: $(sed -n 2p "$tmp/err")"
# what judgelitmus.sh extracts: the macro's name
[ "$(sed -n 's/^.*: Unknown macro \(.*\) (User error)$/\1/p' "$tmp/err")" = smp_wmbx ] ||
  fail "the macro's name"
# the next file ran: its block, and only it, on stdout
"$bin" -conf linux-kernel.cfg "$good" | notime >"$tmp/want"
notime <"$tmp/out" | cmp - "$tmp/want" || fail "the next file's block"
# -exit true: stop at the failed test, status 1, nothing on stdout
set +e
"$bin" -exit true -conf linux-kernel.cfg "$bad" "$good" >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" = 1 ] || fail "-exit true: exit status $rc, expected 1"
[ ! -s "$tmp/out" ] || fail "-exit true: the next file ran"
grep -qx "Warning: File \"$bad\": Unknown macro smp_wmbx (User error)" "$tmp/err" ||
  fail "-exit true: herd7's line"
echo ok
