#!/usr/bin/env bash
# Here (the build machine): compiles the DistilBERT graph that export.py
# wrote into DIR for cuda alone, then three ways for cpu and cuda
# (sm_80,sm_90a), and prints the
# weights' size, each module's size and compile time:
#   const.tmod            imported with its constants; the compiler keeps the
#                         weights as parameters inside the module
#   compile-params.tmod   the same, tessel-compile --parameters-file=
#                         DIR/compile.safetensors
#   import-params.tmod    tessel-import-onnx --parameters-file=
#                         DIR/import.safetensors
# then copies tessel-run and check.py next to them (DIR is carried to the GPU
# machine: python3 DIR/check.py --dir DIR --runner DIR/tessel-run).
#
#   bench/models/distilbert/prepare.sh DIR
set -euo pipefail
dir=$1
root=$(cd "$(dirname "$0")/../../.." && pwd)
bin=$root/build
imp=$bin/frontends/onnx/tessel-import-onnx
cc=$bin/compiler/tools/tessel-compile
targets=--target=cpu,cuda
seconds() { /usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1; }
"$imp" "$dir/distilbert.onnx" -o "$dir/const.mlir"
"$imp" "$dir/distilbert.onnx" -o "$dir/params.mlir" --parameters-file="$dir/import.safetensors"
rm -f "$dir/compile.safetensors"
t_cuda=$(seconds "$cc" "$dir/const.mlir" --target=cuda -o "$dir/const-cuda.tmod")
t_const=$(seconds "$cc" "$dir/const.mlir" $targets -o "$dir/const.tmod")
t_cparams=$(seconds "$cc" "$dir/const.mlir" $targets -o "$dir/compile-params.tmod" \
  --parameters-file="$dir/compile.safetensors")
t_iparams=$(seconds "$cc" "$dir/params.mlir" $targets -o "$dir/import-params.tmod")
cp "$bin/runtime/tessel-run" "$root/bench/models/distilbert/check.py" "$dir/"
size() { stat -c %s "$1"; }
weights=$(/usr/bin/python3 -c "
import onnx, numpy as np
from onnx import numpy_helper
m = onnx.load('$dir/distilbert.onnx')
print(sum(numpy_helper.to_array(t).nbytes for t in m.graph.initializer))")
echo "| module | bytes | compile s (here, sm_80,sm_90a) |"
echo "| --- | --- | --- |"
echo "| weights (ONNX initializers) | $weights | - |"
echo "| const-cuda.tmod (cuda only, weights inside) | $(size "$dir/const-cuda.tmod") | $t_cuda |"
echo "| const.tmod (cpu + cuda, weights inside) | $(size "$dir/const.tmod") | $t_const |"
echo "| compile-params.tmod + compile.safetensors | $(size "$dir/compile-params.tmod") + $(size "$dir/compile.safetensors") | $t_cparams |"
echo "| import-params.tmod + import.safetensors | $(size "$dir/import-params.tmod") + $(size "$dir/import.safetensors") | $t_iparams |"
