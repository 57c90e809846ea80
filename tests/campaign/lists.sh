# @lists: one path a line, relative to the list file's directory, '#'
# comments and empty lines skipped, lists naming lists; the blocks come in
# list order, as the single runs of the same files.
. ./common.inc
"$bin" t/@all | notime >"$tmp/list"
each t/x86/MP.litmus t/x86/more/LB.litmus t/x86/SB+mfences.litmus t/x86/more/CoRR.litmus \
  t/x86/SB.litmus >"$tmp/each"
cmp "$tmp/list" "$tmp/each" || fail "t/@all differs from the single runs"
# the same from another directory: names are relative to the list
here=$(pwd)
(cd "$tmp" && "$bin" "$here/t/@all") | notime >"$tmp/list2"
cmp "$tmp/list" "$tmp/list2" || fail "t/@all depends on the working directory"
# @NAME for a list file NAME without the '@', and the list on stdin
printf '%s\n' "$here/t/x86/SB.litmus" "$here/t/x86/MP.litmus" >"$tmp/plain"
"$bin" "@$tmp/plain" | notime >"$tmp/a"
printf 't/x86/SB.litmus\nt/x86/MP.litmus\n' | "$bin" | notime >"$tmp/b"
each t/x86/SB.litmus t/x86/MP.litmus >"$tmp/c"
cmp "$tmp/a" "$tmp/c" || fail "@FILE"
cmp "$tmp/b" "$tmp/c" || fail "list on stdin"
# a missing list is an error, not an empty campaign
if "$bin" t/@nothere 2>"$tmp/err" >/dev/null; then fail "missing list accepted"; fi
grep -q '^t/@nothere: error: cannot open list file' "$tmp/err" || fail "missing list message"
# a list naming itself is refused, not followed for ever
printf '@self\n' >"$tmp/@self"
if "$bin" "$tmp/@self" 2>"$tmp/err" >/dev/null; then fail "self-naming list accepted"; fi
grep -q 'error: lists nested too deeply' "$tmp/err" || fail "self-naming list message"
echo ok
