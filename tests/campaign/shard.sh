# -shard K/N and corral merge: four shards run at once (plain sh, & and
# wait, as a cluster would run them), merged, give the output of one run
# (Time lines aside), repeated names across shards included; in herd text
# and in JSON lines.
. ./common.inc
args="t/x86 t/@all t/dup/SB.litmus t/small/W.litmus t/bad/broken.litmus t/x86/SB.litmus"
for fmt in herd json tsv; do
  for k in 1 2 3 4; do
    # shellcheck disable=SC2086
    "$bin" -j 1 -format $fmt -shard $k/4 $args >"$tmp/shard$k.$fmt" 2>/dev/null &
  done
  wait
  "$bin" merge "$tmp/shard1.$fmt" "$tmp/shard2.$fmt" "$tmp/shard3.$fmt" "$tmp/shard4.$fmt" \
    2>/dev/null >"$tmp/merged.$fmt"
  # shellcheck disable=SC2086
  "$bin" -format $fmt $args 2>/dev/null >"$tmp/one.$fmt" || true
  strip() { notime | sed -e 's/,"time":[0-9.]*}$/}/' -e 's/\t[0-9.]*$//'; }
  strip <"$tmp/merged.$fmt" >"$tmp/a"
  strip <"$tmp/one.$fmt" >"$tmp/b"
  cmp "$tmp/a" "$tmp/b" || fail "$fmt: merged shards differ from one run"
  [ -s "$tmp/b" ] || fail "$fmt: empty output"
done
# the slices partition the list, in order
: >"$tmp/all"
for k in 1 2 3 4; do
  # shellcheck disable=SC2086
  "$bin" -format tsv -shard $k/4 $args 2>/dev/null | sed 1d | cut -f2 >>"$tmp/all" || true
done
# 14 files, broken.litmus does not run
[ "$(grep -c . "$tmp/all")" = 13 ] || fail "shards ran $(grep -c . "$tmp/all") tests, expected 13"
# a merged block that is cut short is an error, not silently dropped
head -3 "$tmp/shard1.herd" >"$tmp/cut"
if "$bin" merge "$tmp/cut" >/dev/null 2>"$tmp/err"; then fail "truncated log accepted"; fi
grep -q "cut:1:1: error: test block .* has no Observation line" "$tmp/err" || fail "$(cat "$tmp/err")"
if "$bin" -shard 5/4 t/x86 2>"$tmp/err"; then fail "-shard 5/4 accepted"; fi
grep -q "option -shard: wrong argument '5/4'" "$tmp/err" || fail "$(cat "$tmp/err")"
# a name repeated across logs with another hash: the warning names both
# results as LOG:LINE; the same test again (MP, after a line that is not
# a result) is dropped silently
"$bin" t/x86/SB.litmus t/x86/MP.litmus >"$tmp/l1" 2>/dev/null
"$bin" -format json t/dup/SB.litmus >"$tmp/l2" 2>/dev/null
printf 'junk\n' >"$tmp/l3"
"$bin" -format json t/x86/MP.litmus >>"$tmp/l3" 2>/dev/null
"$bin" merge "$tmp/l1" "$tmp/l2" "$tmp/l3" >"$tmp/out" 2>"$tmp/err"
[ "$(grep -c '^Test ' "$tmp/out")" = 2 ] || fail "merge with repeats: $(cat "$tmp/out")"
cat >"$tmp/want" <<END
$tmp/l2:1:1: warning: different hashes for test SB (previous result at $tmp/l1:1); this one is dropped, as in one run
END
cmp "$tmp/err" "$tmp/want" || { diff "$tmp/want" "$tmp/err"; fail "merge warnings"; }
# a JSON log line that is not JSON: its position and what is wrong
printf '{"test":"SB",,}\n' >"$tmp/badjson"
if "$bin" merge "$tmp/badjson" >/dev/null 2>"$tmp/err"; then fail "bad JSON log accepted"; fi
grep -qx "$tmp/badjson:1:1: error: not a corral JSON result (bad JSON at byte 13: expected a member name)" \
  "$tmp/err" || fail "bad JSON: $(cat "$tmp/err")"
echo ok
