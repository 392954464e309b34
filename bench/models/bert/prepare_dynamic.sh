#!/usr/bin/env bash
# Prepares issue 39's BERT target HERE into a carryable folder (default
# .carry/bert-dynamic, git-ignored): BERT-base f16 exported by torch with
# symbolic batch and sequence (export.py --dynamic, on the GPU machine; its
# graph file is GRAPH), imported with --weights-as-inputs and compiled for
# cuda
#   modules/dynamic.tmod          once, batch and sequence `?`
#   modules/static_B_S.tmod       once per shape, --dim batch=B sequence=S
# with the import + compile time of each printed (target: dynamic < 30 s),
# plus bin/tessel-bench, bin/tessel-run, the importer, export.py, run.py and
# dynamic.py (carry_tools.sh).
#
#   bench/models/bert/prepare_dynamic.sh GRAPH [DIR]
# Then there: python3 DIR/dynamic.py --dir=DIR --out=$OUT   (table last)
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
graph=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
dir=${2:-$root/.carry/bert-dynamic}
compile=${TESSEL_COMPILE:-$root/build/compiler/tools/tessel-compile}
import=$root/frontends/onnx/tessel-import-onnx
shapes="1x128 8x384 32x128 32x512"
cd "$root"
. bench/models/bert/carry_tools.sh
carry_tools "$dir" bench/models/bert/export.py bench/models/bert/run.py bench/models/bert/dynamic.py
echo "$shapes" > "$dir/shapes"
work=$(mktemp -d)
build() {  # name, importer flags...
  local name=$1 start
  shift
  start=$(date +%s.%N)
  "$import" "$graph" -o "$work/$name.mlir" --weights-as-inputs --weights-dir "$work/$name.w" "$@"
  "$compile" "$work/$name.mlir" --target=cuda -o "$dir/modules/$name.tmod"
  printf '%-16s import + compile %5.1f s\n' "$name" "$(echo "$(date +%s.%N) - $start" | bc)"
}
build dynamic
for s in $shapes; do
  build "static_${s%x*}_${s#*x}" --dim "batch=${s%x*}" --dim "sequence=${s#*x}"
done
rm -rf "$work"
git rev-parse --short HEAD > "$dir/commit"
echo "== ready: $dir ($(du -sh "$dir" | cut -f1)); there: python3 $dir/dynamic.py --dir=$dir --out=\$OUT"
