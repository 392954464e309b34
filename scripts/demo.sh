#!/usr/bin/env bash
# Installs, builds, compiles samples/mlp.mlir, runs it on the best device
# present and checks the result against numpy, then times it.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
work=build/demo
mkdir -p "$work"
# With a CUDA toolkit the module also carries GPU code; tessel-run picks the
# GPU when one is present and says which device it uses.
targets=cpu
if [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/ptxas" ]; then targets=cpu,cuda; fi
build/compiler/tools/tessel-compile samples/mlp.mlir --target=$targets -o "$work/mlp.tmod"
/usr/bin/python3 samples/mlp_reference.py "$work"
build/runtime/tessel-run "$work/mlp.tmod" --function=mlp \
  --input=@"$work/x.npy" --input=@"$work/w1.npy" --input=@"$work/b1.npy" \
  --input=@"$work/w2.npy" --input=@"$work/b2.npy" \
  --expected_output=@"$work/expected.npy" --tolerance=1e-4
build/runtime/tessel-run "$work/mlp.tmod" --function=mlp \
  --input=@"$work/x.npy" --input=@"$work/w1.npy" --input=@"$work/b1.npy" \
  --input=@"$work/w2.npy" --input=@"$work/b2.npy" --benchmark=20 --output=@"$work/out.npy"
