# -format json and -format tsv: one object / one line per test, in input
# order, with what herd's text says (checked field by field against the
# text run), and stable against saved expectations (time removed).
set -eu
bin=$1 tmp=$2
files="t/x86/SB.litmus t/x86/MP.litmus t/x86/more/2+2W.litmus"
# shellcheck disable=SC2086
"$bin" -format json $files | sed 's/,"time":[0-9.]*}$/}/' >"$tmp/json"
cmp "$tmp/json" formats.json.expected
# shellcheck disable=SC2086
"$bin" -format tsv $files | sed 's/\t[0-9.]*$//' >"$tmp/tsv"
cmp "$tmp/tsv" formats.tsv.expected
# the same Observation as the herd text, for every test
# shellcheck disable=SC2086
"$bin" $files | grep '^Observation ' >"$tmp/obs.herd"
sed 's/^{"test":"\([^"]*\)".*"observation":"\([A-Za-z]*\)","pos":\([0-9]*\),"neg":\([0-9]*\).*/Observation \1 \2 \3 \4/' \
  "$tmp/json" >"$tmp/obs.json"
cmp "$tmp/obs.herd" "$tmp/obs.json"
sed 1d "$tmp/tsv" | cut -f1,6,7,8 | tr '\t' ' ' | sed 's/^/Observation /' >"$tmp/obs.tsv"
cmp "$tmp/obs.herd" "$tmp/obs.tsv"
# and the same Hash= lines
"$bin" $files | sed -n 's/^Hash=//p' >"$tmp/h.herd"
sed 's/.*"hash":"\([0-9a-f]*\)".*/\1/' "$tmp/json" >"$tmp/h.json"
cmp "$tmp/h.herd" "$tmp/h.json"
echo ok
