#!/bin/sh
# The table of bad inputs in README.md, made from tests/bad: one row per
# case listed in tests/bad/CASES.tsv, its message being the case's .err
# (the first lines of what corral prints on stderr, checked by
# run-regress.sh) and its exit status.
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
  echo "| input | kind | corral answers (the start of stderr) | exit |"
  echo "|---|---|---|---|"
  grep -v '^#' "$bad/CASES.tsv" | while IFS='	' read -r name kind what; do
    [ -f "$bad/$name.err" ] || { echo "bad-table: $name is listed but has no .err" >&2; exit 1; }
    # one code span a line of the .err, on one table row
    msg=$(sed 's/|/\\|/g; s/^/`/; s/$/`/' "$bad/$name.err" | awk 'NR > 1 {printf "<br>"} {printf "%s", $0}')
    # the status run-regress.sh checks
    if [ -f "$bad/$name.status" ]; then st=$(cat "$bad/$name.status")
    else case "$(head -1 "$bad/$name.err")" in
      "Warning: File "*) st="0 (1 with \`-exit true\`)" ;;
      *) st=2 ;;
    esac; fi
    echo "| $what | $kind | $msg | $st |"
  done
}
begin='<!-- bad-inputs:begin (tests/bad-table.sh --update README.md) -->'
end='<!-- bad-inputs:end -->'
. "$(dirname "$0")/readme-section.inc"
case "${1:-}" in
  "") table ;;
  --update) update "$2" ;;
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
