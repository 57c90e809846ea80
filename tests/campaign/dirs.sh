# A directory: its *.litmus files, recursively, entries in byte order
# (a subdirectory where its name sorts), the same from run to run.
. ./common.inc
"$bin" t/x86 | notime >"$tmp/dir"
each t/x86/MP.litmus t/x86/SB+mfences.litmus t/x86/SB.litmus t/x86/more/2+2W.litmus \
  t/x86/more/CoRR.litmus t/x86/more/LB.litmus >"$tmp/each"
cmp "$tmp/dir" "$tmp/each" || fail "t/x86 differs from the single runs in byte order"
# non-litmus files (the @some list) are not tests
"$bin" -format tsv t/x86 | cut -f2 | sed 1d >"$tmp/files"
printf '%s\n' t/x86/MP.litmus t/x86/SB+mfences.litmus t/x86/SB.litmus t/x86/more/2+2W.litmus \
  t/x86/more/CoRR.litmus t/x86/more/LB.litmus | cmp - "$tmp/files" || fail "files of t/x86"
echo ok
# an empty directory: an error that says so, not a silent success
mkdir -p "$tmp/empty"
set +e
"$bin" "$tmp/empty" >/dev/null 2>"$tmp/empty.err"
rc=$?
set -e
[ "$rc" -ne 0 ] || fail "empty directory: exit 0"
grep -q 'error: no test (\*.litmus) in this directory' "$tmp/empty.err" || fail "empty directory: $(cat "$tmp/empty.err")"
