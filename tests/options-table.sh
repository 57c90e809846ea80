#!/bin/sh
# README's table of every option, made from `corral -help` (itself made
# from the option table of src/core/options.c, as the manual page is):
#   tests/options-table.sh CORRAL                print the table
#   tests/options-table.sh CORRAL --update FILE  rewrite it in FILE
#   tests/options-table.sh CORRAL --check FILE   fail if FILE's differs
set -eu
bin=$1
shift
table() {
  echo "| option | meaning |"
  echo "|---|---|"
  # "Heading:" lines, then "  HEAD  help" (two spaces or more between)
  "$bin" -help | awk '
    NR == 1 { next }
    /^[^ ].*:$/ { sub(/:$/, ""); printf "| **%s** | |\n", $0; next }
    /^  / {
      line = substr($0, 3)
      i = match(line, /   */)
      head = substr(line, 1, i - 1); text = substr(line, i); sub(/^ */, "", text)
      gsub(/\|/, "\\|", head); gsub(/\|/, "\\|", text)
      gsub(/<[^>]*>/, "`&`", text)
      printf "| `%s` | %s |\n", head, text
    }'
}
begin='<!-- options:begin (tests/options-table.sh ./corral --update README.md) -->'
end='<!-- options:end -->'
. "$(dirname "$0")/readme-section.inc"
case "${1:-}" in
  "") table ;;
  --update) update "$2" ;;
  --check)
    if [ "$(table)" = "$(section "$2")" ]; then
      echo "options-table: README table matches corral -help"
    else
      echo "options-table: the table in $2 differs from corral -help: run tests/options-table.sh ./corral --update $2" >&2
      exit 1
    fi ;;
  *) echo "usage: $0 CORRAL [--update FILE | --check FILE]" >&2; exit 2 ;;
esac
