#!/bin/sh
# make check-valgrind: run corral under valgrind's memcheck on our
# regression tests (tests/run-regress.sh, bad inputs included) and, when
# ../shared is present, on the public corpus' VALGRIND_SUITES (default:
# article).  Every run writes its own log; any error or leak that
# valgrind reports fails the target, whatever corral's exit status.
# Usage: tests/valgrind.sh ./corral
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "$(dirname "${1:-./corral}")" && pwd)/$(basename "${1:-./corral}")
shared=${SHARED:-$here/../../shared}
suites=${VALGRIND_SUITES:-article}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
wrap=$logs/corral
cat >"$wrap" <<WRAP
#!/bin/sh
exec valgrind -q --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect \
  --errors-for-leak-kinds=definite,indirect --track-origins=yes \
  --log-file="$logs/vg.%p.log" "$bin" "\$@"
WRAP
chmod +x "$wrap"
status=0
"$here/run-regress.sh" "$wrap" || status=1
if [ -x "$shared/tools/conform" ]; then
  for s in $suites; do
    "$shared/tools/conform" --corpus "$shared/conformance" --bin "$wrap" --suite "$s" \
      --jobs 1 --timeout 1200 || status=1
  done
else
  echo "check-valgrind: $shared not present, corpus skipped"
fi
runs=$(ls "$logs"/vg.*.log 2>/dev/null | wc -l)
bad=0
for l in "$logs"/vg.*.log; do
  [ -s "$l" ] || continue
  bad=$((bad + 1))
  echo "== valgrind report ($l):"
  head -40 "$l"
done
echo "valgrind: $runs runs, $bad with errors or leaks"
[ "$bad" -eq 0 ] && [ "$status" -eq 0 ]
