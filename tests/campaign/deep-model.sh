# Models deep enough to have overflowed the C stack (issue 32): a chain
# of 20,000 `let`s, each the union of the one before with itself, runs
# (herd7 runs it) and gives what its last link means, `acyclic po | com`;
# a chain of 60,000 links through `;`, which the interpreter still
# recurses on, is refused with a located error, not a crash.
. ./common.inc
ex=../../examples/SB.litmus
# chain N FIRST LINK: r0 = FIRST, r_i = LINK with @ for r_i-1, acyclic r_N
chain() {
  echo '"chain"'
  echo 'include "cos.cat"'
  echo "let r0 = $2"
  awk -v n="$1" -v link="$3" 'BEGIN {
    for (i = 1; i <= n; i++) { l = link; gsub(/@/, "r" (i - 1), l); print "let r" i " = " l } }'
  echo "acyclic r$1 as sc"
}
chain 20000 'po | rf | co | fr' '@ | @' > "$tmp/chain.cat"
printf '"short"\ninclude "cos.cat"\nacyclic po | rf | co | fr as sc\n' > "$tmp/short.cat"
"$bin" -model "$tmp/chain.cat" "$ex" 2>"$tmp/err" | notime > "$tmp/chain.out" || fail "chain of 20000: $(head -3 "$tmp/err")"
"$bin" -model "$tmp/short.cat" "$ex" | notime > "$tmp/short.out"
cmp -s "$tmp/chain.out" "$tmp/short.out" || fail "chain of 20000 differs from its meaning"
grep -q '^Observation SB Never' "$tmp/chain.out" || fail "chain: not SC"
chain 60000 po '@ ; po?' > "$tmp/seq.cat"
set +e
"$bin" -model "$tmp/seq.cat" "$ex" >/dev/null 2>"$tmp/err"
rc=$?
set -e
# a test that cannot run: herd7's status 0, herd7's line, then corral's
[ "$rc" -eq 0 ] || fail "seq chain: exit $rc"
head -1 "$tmp/err" | grep -q '^Warning: File ".*": recursion too deep in model evaluation (User error)$' ||
  fail "seq chain: $(head -1 "$tmp/err")"
grep -q 'error: recursion too deep in model evaluation' "$tmp/err" || fail "seq chain: $(head -1 "$tmp/err")"
