#!/bin/sh
# corral's models/ as herd7's library: the corpus's models run on it.  A
# folder is made of corral's models/ with the corpus's models copied over
# it, except the library files corral provides itself (herd7's generic
# files and the per-architecture parts: LIBRARY below), so that the
# corpus's top-level models (ppc.cat, aarch64.cat, lock.cat, ...) include
# ours.  The conformance runner must then pass the given suites.
# Usage: tests/kernel/library.sh ./corral SHARED [conform options]
set -u
bin=$1 shared=$2
shift 2
here=$(cd "$(dirname "$0")/../.." && pwd)
models=$shared/conformance/models
if [ ! -d "$models" ] || [ ! -x "$shared/tools/conform" ]; then
  echo "library: $shared has no corpus, skipped"
  exit 0
fi
LIBRARY="stdlib.cat cos.cat cos-opt.cat cos-no-opt.cat cross.cat fences.cat
filters.cat enumerations.cat ppcfences.cat armfences.cat aarch64fences.cat
x86fences.cat mipsfences.cat riscv-defs.cat ppo.cat ppc-checks.cat ctrl.cat
c11_base.cat c11_cos.cat c11_los.cat"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here"/models/* "$tmp/"
for f in "$models"/*; do
  case " $(echo $LIBRARY) " in *" $(basename "$f") "*) continue ;; esac
  cp "$f" "$tmp/"
done
# herd7's cos.cat picks cos-ok-opt.cat under -variant cos-opt: ours does
# not need it, and the corpus's must not be used.
rm -f "$tmp/cos-ok-opt.cat"
for f in $LIBRARY; do
  [ -f "$tmp/$f" ] || { echo "library: models/$f missing"; exit 1; }
done
"$shared/tools/conform" --corpus "$shared/conformance" --bin "$bin" --models "$tmp" \
  --quiet "$@"
