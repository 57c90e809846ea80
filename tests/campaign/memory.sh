# Memory bounds (issue 32): an initial state of 400,000 items is refused
# while it is read (it took gigabytes before its 10000-item bound was
# seen); -maxmemory bounds the process, past which corral stops with a
# message rather than being killed.
. ./common.inc
awk 'BEGIN { print "X86 big"; printf "{";
  for (i = 0; i < 400000; i++) printf " x%d=0;", i; print " }";
  print " P0 ;"; print " MOV [x0],$1 ;"; print "exists (x0=1)" }' > "$tmp/init.litmus"
# (sanitizers map terabytes of shadow memory: no ulimit -v under them)
# (sanitizer runtimes are linked dynamically: look at the binary and its libraries)
san=$( { strings "$bin" 2>/dev/null; ldd "$bin" 2>/dev/null; } | grep -oE 'AddressSanitizer|ThreadSanitizer|libasan|libtsan' | head -1)
lim="ulimit -v 1000000;"
[ -n "$san" ] && lim=""
set +e
(eval "$lim" exec "$bin" "$tmp/init.litmus") >/dev/null 2>"$tmp/err"
rc=$?
set -e
# (a test that cannot run is a user error: herd7 goes on and exits 0)
[ "$rc" -eq 0 ] || fail "init: exit $rc"
grep -q 'error: section too large (over 1048576 tokens)' "$tmp/err" || fail "init: $(head -1 "$tmp/err")"
# (sanitizers reserve terabytes of address space: no -maxmemory there)
[ -n "$san" ] && exit 0
awk 'BEGIN { print "X86 rows"; print "{ x=0; }"; print " P0 ;";
  for (k = 1; k <= 17000; k++) print " MOV [x],$" (k % 7) " ;"; print "exists (x=1)" }' > "$tmp/rows.litmus"
set +e
"$bin" -maxmemory 64 "$tmp/rows.litmus" >/dev/null 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] || fail "-maxmemory: exit $rc"
grep -q 'out of memory' "$tmp/err" || fail "-maxmemory: $(head -1 "$tmp/err")"
