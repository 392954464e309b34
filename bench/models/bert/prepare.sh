#!/usr/bin/env bash
# Prepares the BERT-base benchmark HERE into a carryable folder (default
# .carry/bert, git-ignored):
#   bin/tessel-bench, bin/tessel-run the runtime (Release)
#   frontends/onnx/                  the importer (run there to write weights)
#   export.py, run.py                the exporter and the driver
#   modules/bert_f16_b32.tmod        GRAPHS/bert_f16_b32.onnx imported with
#                                    --weights-as-inputs, compiled for cuda
#   modules/bert_f32_b8.tmod         GRAPHS/bert_f32_b8.onnx, for cpu
#   modules/attention_s{128,1024}.tmod  tessel.attention, b32 h12 d64 f16
# GRAPHS holds the graph files (weights external, not needed) that
# export.py wrote on the GPU machine (run.py --no-tessel copies them out).
#
#   bench/models/bert/prepare.sh GRAPHS [DIR]
# Then there: python3 DIR/run.py --dir=DIR --out=$OUT
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
graphs=$(cd "$1" && pwd)
dir=${2:-$root/.carry/bert}
compile=${TESSEL_COMPILE:-$root/build/compiler/tools/tessel-compile}
import=$root/frontends/onnx/tessel-import-onnx
cd "$root"
. bench/models/bert/carry_tools.sh
carry_tools "$dir" bench/models/bert/export.py bench/models/bert/run.py
work=$(mktemp -d)
for spec in "bert_f16_b32 cuda" "bert_f32_b8 cpu"; do
  set -- $spec
  start=$(date +%s.%N)
  "$import" "$graphs/$1.onnx" -o "$work/$1.mlir" --weights-as-inputs --weights-dir "$work/$1.w"
  "$compile" "$work/$1.mlir" --target="$2" -o "$dir/modules/$1.tmod"
  printf '%-14s import + compile %5.1f s\n' "$1" "$(echo "$(date +%s.%N) - $start" | bc)"
done
for seq in 128 1024; do
  sed "s/SEQ/$seq/g" bench/models/bert/attention.mlir.in > "$work/attention_s$seq.mlir"
  "$compile" "$work/attention_s$seq.mlir" --target=cuda -o "$dir/modules/attention_s$seq.tmod"
done
rm -rf "$work"
git rev-parse --short HEAD > "$dir/commit"
echo "== ready: $dir ($(du -sh "$dir" | cut -f1)); there: python3 $dir/run.py --dir=$dir --out=\$OUT"
