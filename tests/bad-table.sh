#!/bin/sh
# The table of bad inputs in README.md, made from tests/bad: one row per
# case listed in tests/bad/CASES.tsv, its message being the case's .err
# (the start of what corral prints, checked by run-regress.sh).
#   tests/bad-table.sh                print the table
#   tests/bad-table.sh --update FILE  rewrite the table in FILE (between
#                                     the bad-inputs markers)
#   tests/bad-table.sh --check FILE   fail if FILE's table is not the one
#                                     tests/bad gives; warn about cases
#                                     the table does not list
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bad=$here/bad
table() {
  echo "| input | kind | corral answers (first line of stderr) |"
  echo "|---|---|---|"
  grep -v '^#' "$bad/CASES.tsv" | while IFS='	' read -r name kind what; do
    [ -f "$bad/$name.err" ] || { echo "bad-table: $name is listed but has no .err" >&2; exit 1; }
    msg=$(sed 's/|/\\|/g' "$bad/$name.err")
    echo "| $what | $kind | \`$msg\` |"
  done
}
begin='<!-- bad-inputs:begin (tests/bad-table.sh --update README.md) -->'
end='<!-- bad-inputs:end -->'
section() { awk -v b="$begin" -v e="$end" '$0 == e {p = 0} p {print} $0 == b {p = 1}' "$1"; }
case "${1:-}" in
  "") table ;;
  --update)
    tmp=$(mktemp)
    table >"$tmp.t"
    awk -v b="$begin" -v e="$end" -v t="$tmp.t" '
      $0 == b {print; while ((getline l < t) > 0) print l; skip = 1; next}
      $0 == e {skip = 0}
      !skip {print}' "$2" >"$tmp"
    cat "$tmp" >"$2"
    rm -f "$tmp" "$tmp.t" ;;
  --check)
    for e in "$bad"/*.err; do
      n=$(basename "$e" .err)
      grep -q "^$n	" "$bad/CASES.tsv" || echo "bad-table: warning: tests/bad/$n is not in CASES.tsv (README table)" >&2
    done
    if [ "$(table)" = "$(section "$2")" ]; then
      echo "bad-table: README table matches tests/bad"
    else
      echo "bad-table: the table in $2 differs from tests/bad: run tests/bad-table.sh --update $2" >&2
      exit 1
    fi ;;
  *) echo "usage: $0 [--update FILE | --check FILE]" >&2; exit 2 ;;
esac
