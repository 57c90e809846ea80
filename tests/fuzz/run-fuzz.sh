#!/bin/sh
# make fuzz: build the libFuzzer harnesses (clang) and run each for
# FUZZ_SECONDS (default 60), seeded from our tests and, when present, the
# public corpus.  Fails on any crash, leak, sanitizer report or timeout.
# FUZZ_HARNESSES chooses the harnesses (default: all of them, one at a
# time).  Inputs kept in tests/fuzz/regress/HARNESS/ (crashes found
# before) are replayed first.
set -eu
cd "$(dirname "$0")/../.."
secs=${FUZZ_SECONDS:-60}
build=build-fuzz
flags="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all"
make -s BUILD=$build BIN=$build/corral CC=clang \
  CFLAGS="$flags -fsanitize=fuzzer-no-link" LDFLAGS="-fsanitize=address,undefined" \
  $build/libcorral.a >/dev/null
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
mkdir -p "$seeds/litmus" "$seeds/cat" "$seeds/cfg" "$seeds/def"
cp tests/fuzz/*.def "$seeds/def/"
cp tests/fuzz/*.litmus "$seeds/litmus/"
cp tests/litmus/*.litmus tests/bad/*.litmus examples/*.litmus "$seeds/litmus/" 2>/dev/null || true
# models, bad models (a recursive procedure, an endless include: issue 32)
# and tests/fuzz/*.cat (a chain of lets)
cp models/*.cat tests/bad/*.cat tests/fuzz/*.cat "$seeds/cat/" 2>/dev/null || true
if [ -d ../shared/conformance ]; then
  ls ../shared/conformance/suites/*/*.litmus | awk 'NR % 20 == 1' | while read -r f; do
    cp "$f" "$seeds/litmus/$(echo "$f" | tr '/' '_')"; done
  cp ../shared/conformance/models/*.cat ../shared/conformance/models/*.bell "$seeds/cat/" 2>/dev/null || true
  cp ../shared/conformance/models/*.cfg "$seeds/cfg/" 2>/dev/null || true
  cp ../shared/conformance/models/*.def "$seeds/def/" 2>/dev/null || true
fi
status=0
for h in ${FUZZ_HARNESSES:-litmus run cat model bell cfg def}; do
  case $h in litmus|run) dir=litmus ;; model|bell) dir=cat ;; *) dir=$h ;; esac
  # bell: fuzz_model with the bytes given as -bell
  src=$h
  if [ "$h" = bell ]; then src=model; CORRAL_FUZZ_BELL=1; export CORRAL_FUZZ_BELL; fi
  bin=$build/fuzz_$h
  clang -std=c17 -D_GNU_SOURCE -Iinclude -Isrc $flags -fsanitize=fuzzer \
    -o "$bin" tests/fuzz/fuzz_$src.c $build/libcorral.a -lnettle -lpthread -lm
  if [ -d tests/fuzz/regress/$h ] && [ -n "$(ls tests/fuzz/regress/$h)" ]; then
    if ! "$bin" -runs=0 tests/fuzz/regress/$h/* >"$build/fuzz_$h.replay.log" 2>&1; then
      status=1
      echo "fuzz_$h: a kept input fails again: see $build/fuzz_$h.replay.log"
    fi
  fi
  work=$(mktemp -d)
  cp -r "$seeds/$dir/." "$work/"
  echo "== fuzz_$h for ${secs}s"
  if ! "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
       -artifact_prefix="$build/crash-$h-" "$work" 2>"$build/fuzz_$h.log"; then
    status=1
    echo "fuzz_$h FAILED: see $build/fuzz_$h.log and $build/crash-$h-*"
  fi
  grep -E "^#[0-9]+.*DONE|Done [0-9]+ runs" "$build/fuzz_$h.log" | tail -1 || true
  rm -rf "$work"
  unset CORRAL_FUZZ_BELL
done
exit $status
