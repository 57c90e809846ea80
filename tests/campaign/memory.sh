# Memory bounds (issue 32, case 7): an initial state of 400,000 items is refused
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
# A set holding a linearisations() value and another order: the two are
# compared by the number of orders, not by listing the 11! orders of 11
# writes (that listing took gigabytes; a location of 1,000 writes, 1000!).
printf '"t"\nlet l = linearisations(W, 0)\nlet s = { l, {0} }\nflag ~empty s as two\n' > "$tmp/lin.cat"
awk 'BEGIN { print "X86 lin"; print "{ x=0; }"; print " P0 ;";
  for (k = 1; k <= 10; k++) print " MOV [x],$" k " ;"; print "exists (x=1)" }' > "$tmp/lin.litmus"
set +e
(eval "$lim" exec timeout 60 "$bin" -model "$tmp/lin.cat" "$tmp/lin.litmus") >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 0 ] || fail "linearisations in a set: exit $rc $(head -1 "$tmp/err")"
grep -q '^Flag two$' "$tmp/out" || fail "linearisations in a set: no flag"
# (sanitizers reserve terabytes of address space: no -maxmemory there)
[ -n "$san" ] && exit 0
# A thread of 60,000 rows is refused at its 4,097th event in a few MB:
# the state saved per instruction no longer copies a counter per row of
# the thread (4,096 copies of 240 KB were 1 GB).
awk 'BEGIN { print "X86 long"; print "{ x=0; }"; print " P0 ;";
  for (k = 1; k <= 60000; k++) print " MOV [x],$1 ;"; print "exists (x=1)" }' > "$tmp/long.litmus"
set +e
(ulimit -v 300000; exec "$bin" "$tmp/long.litmus") >/dev/null 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 0 ] || fail "long thread: exit $rc $(head -1 "$tmp/err")"
grep -q 'more than 4096 events on one path' "$tmp/err" || fail "long thread: $(head -1 "$tmp/err")"
awk 'BEGIN { print "X86 rows"; print "{ x=0; }"; print " P0 ;";
  for (k = 1; k <= 4000; k++) print " MOV [x],$" (k % 7) " ;"; print "exists (x=1)" }' > "$tmp/rows.litmus"
set +e
"$bin" -maxmemory 64 "$tmp/rows.litmus" >/dev/null 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] || fail "-maxmemory: exit $rc"
grep -q 'out of memory' "$tmp/err" || fail "-maxmemory: $(head -1 "$tmp/err")"
# Coherence orders of many locations: a linearisations() value keeps a row
# per write of its location, not one per event of the test (300 locations
# of 3 writes each: 300 MB before, 66 MB now).
awk 'BEGIN { print "X86 manylocs"; printf "{"; for (i = 0; i < 300; i++) printf " x%d=0;", i; print " }";
  print " P0 ;"; for (k = 1; k <= 3; k++) for (i = 0; i < 300; i++) print " MOV [x" i "],$" k " ;";
  print "exists (x0=3)" }' > "$tmp/locs.litmus"
printf '"t"\ninclude "cos.cat"\nacyclic po | co as x\n' > "$tmp/cos-po.cat"
set +e
(ulimit -v 200000; exec "$bin" -set-libdir ../../models -model "$tmp/cos-po.cat" "$tmp/locs.litmus") >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 0 ] || fail "many locations: exit $rc $(head -1 "$tmp/err")"
grep -q '^Observation manylocs Always 1 0$' "$tmp/out" || fail "many locations: $(grep Observation "$tmp/out")"
