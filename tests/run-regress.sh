#!/bin/sh
# Regression tests that need nothing outside this repository:
#   tests/litmus/NAME.litmus  run with corral's own models; the output, Time
#                             lines removed, must equal NAME.expected.
#                             Extra options, if any, are in NAME.opts.
#   examples/NAME.litmus      the bundled examples, the same way (with no
#                             -model: each runs under its architecture's
#                             default model from models/); each
#                             architecture must have one with no .opts.
#   tests/bad/NAME.*          malformed inputs: corral must not crash and
#                             must print the diagnostics given in NAME.err:
#                             line K of stderr starts with line K of
#                             NAME.err.  When the first is herd7's line for
#                             a test it could not run ("Warning: File ..."),
#                             the exit status must be herd7's, 0, and 1
#                             with -exit true; otherwise (a fatal error) 2;
#                             NAME.status, when present, gives the status.
#                             NAME.opts gives the command line (default:
#                             the file itself).
#   tests/campaign/NAME.sh    scripts run as "sh NAME.sh CORRAL TMPDIR" from
#                             tests/campaign; exit 0 means passed.
# Usage: tests/run-regress.sh ./corral
set -u
bin=$(cd "$(dirname "${1:-./corral}")" && pwd)/$(basename "${1:-./corral}")
here=$(cd "$(dirname "$0")" && pwd)
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for t in "$here"/litmus/*.litmus "$here"/../examples/*.litmus; do
  [ -e "$t" ] || continue
  base=${t%.litmus}
  opts=""
  [ -f "$base.opts" ] && opts=$(cat "$base.opts")
  # shellcheck disable=SC2086
  (cd "$(dirname "$t")" && "$bin" $opts "$(basename "$t")") 2>"$tmp/err" | grep -v '^Time ' >"$tmp/out"
  if [ -f "$base.expected" ] && cmp -s "$tmp/out" "$base.expected"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $(basename "$(dirname "$t")")/$(basename "$t")"
    diff "$base.expected" "$tmp/out" | head -20
    head -5 "$tmp/err"
  fi
done

for e in "$here"/bad/*.err; do
  [ -e "$e" ] || continue
  base=${e%.err}
  name=$(basename "$base")
  if [ -f "$base.opts" ]; then
    cmd=$(cat "$base.opts")
  else
    cmd=$(cd "$here/bad" && ls "$name".* | grep -v -e '\.err$' -e '\.opts$' -e '\.status$' | head -1)
  fi
  # shellcheck disable=SC2086
  (cd "$here/bad" && "$bin" $cmd) >"$tmp/out" 2>"$tmp/err"
  rc=$?
  match=1
  k=0
  while IFS= read -r want; do
    k=$((k + 1))
    got=$(sed -n "${k}p" "$tmp/err")
    case "$got" in "$want"*) ;; *) match=0 ;; esac
    [ -n "$want" ] || match=0
  done <"$e"
  [ "$k" -gt 0 ] || match=0
  first=$(head -1 "$e")
  [ -f "$base.status" ] && first="status $(cat "$base.status")"
  case "$first" in
    "status "*) ok_rc=$([ "$rc" -eq "${first#status }" ] && echo 1) ;;
    "Warning: File "*)
      # a test herd7 could not run: status 0, and 1 under -exit true
      # shellcheck disable=SC2086
      (cd "$here/bad" && "$bin" -exit true $cmd) >/dev/null 2>&1
      rc_exit=$?
      ok_rc=$([ "$rc" -eq 0 ] && [ "$rc_exit" -eq 1 ] && echo 1) ;;
    *) ok_rc=$([ "$rc" -eq 2 ] && echo 1) ;;
  esac
  if [ "$match" = 1 ] && [ "$ok_rc" = 1 ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL bad/$name (exit $rc${rc_exit:+, with -exit true $rc_exit})"
    echo "  want: $(cat "$e")"
    echo "  got:  $(head -"$k" "$tmp/err")"
  fi
  rc_exit=
done

# Every architecture has a bundled example that runs with no -model and
# no options (its default model from models/); the loop above checked its
# output.
# (the architectures: the names of the ISA registry's lines)
for a in $(sed -n 's/^ISA([A-Z0-9_]*, *"\([^"]*\)".*/\1/p' "$here/../src/isa/isa_list.h"); do
  found=0
  for t in "$here"/../examples/*.litmus; do
    [ -e "$t" ] || continue
    [ -f "${t%.litmus}.opts" ] && continue
    [ "$(head -1 "$t" | cut -d' ' -f1)" = "$a" ] && found=1
  done
  if [ "$found" = 1 ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL examples: no $a example that runs with no options"
  fi
done

for s in "$here"/campaign/*.sh; do
  [ -e "$s" ] || continue
  mkdir -p "$tmp/c" && rm -rf "$tmp/c"/*
  if (cd "$here/campaign" && sh "$s" "$bin" "$tmp/c") >"$tmp/out" 2>&1; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL campaign/$(basename "$s")"
    head -20 "$tmp/out"
  fi
done

echo "regress: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
