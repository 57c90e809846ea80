# -o DIR: the graph file is DIR/STEM.dot, STEM the litmus file's name
# without directory and extension (herd7's rule; the test's own name,
# x86/SB-named, holds a '/'), then -suffix; -explain adds STEM-explain.dot.
. ./common.inc
"$bin" -o "$tmp/g" t/graphs/sb-file.litmus >/dev/null || fail "-o with a test named x86/SB-named"
[ -s "$tmp/g/sb-file.dot" ] || fail "no $tmp/g/sb-file.dot"
grep -q 'digraph' "$tmp/g/sb-file.dot" || fail "sb-file.dot holds no graph"
"$bin" -o "$tmp/s" -suffix -v2 -explain t/graphs/sb-file.litmus >/dev/null || fail "-suffix"
[ -s "$tmp/s/sb-file-v2.dot" ] || fail "no sb-file-v2.dot with -suffix -v2: $(ls "$tmp/s")"
[ -s "$tmp/s/sb-file-v2-explain.dot" ] || fail "no sb-file-v2-explain.dot: $(ls "$tmp/s")"
[ "$(ls "$tmp/s" | wc -l)" -eq 2 ] || fail "other files in $tmp/s: $(ls "$tmp/s")"
echo ok
