# -timeout inside one long phase (issue 32): a thread of 2000 stores to
# one location puts the time in the search of coherence orders (2000
# events on one location), which ran 41 s of CPU before it looked at the
# clock.  It must stop after about its 1 s (the shell's CPU bound, 20 s,
# turns a miss into a failure, whatever the load of the machine).
. ./common.inc
awk 'BEGIN { print "X86 long"; print "{ x=0; }"; print " P0 ;";
  for (k = 1; k <= 2000; k++) print " MOV [x],$" k " ;"; print "exists (x=1)" }' > "$tmp/long.litmus"
set +e
(ulimit -t 20; exec "$bin" -j 1 -timeout 1 "$tmp/long.litmus") >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
# a stopped test leaves herd7's status, 0 (a CPU-limit kill would not)
[ "$rc" -eq 0 ] || fail "exit $rc: $(head -2 "$tmp/err")"
grep -q 'error: test long stopped: more than 1 s of CPU time (-timeout)' "$tmp/err" || fail "$(head -2 "$tmp/err")"

# ... and inside the exploration of a thread's control-flow paths: 18
# branches on read values make 2^18 paths, refused at 16384 after about
# 0.3 s; with -timeout 0.05 the run stops first (it ran to the path
# limit before, 7 s under ASan, whatever the bound).
awk 'BEGIN { print "X86 paths"; print "{ x=0; }"; print " P0 ;";
  for (k = 1; k <= 18; k++) { print " MOV EAX,[x] ;"; print " CMP EAX,$0 ;";
    print " JE L" k " ;"; print "L" k ": ;" } print "exists (x=1)" }' > "$tmp/paths.litmus"
"$bin" -j 1 -timeout 0.05 "$tmp/paths.litmus" >"$tmp/out" 2>"$tmp/err" || fail "paths: exit $?"
grep -q 'error: test paths stopped: more than 0.05 s of CPU time (-timeout)' "$tmp/err" ||
  fail "paths: $(head -2 "$tmp/err")"
