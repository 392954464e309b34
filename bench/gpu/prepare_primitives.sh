#!/usr/bin/env bash
# Prepares the primitives benchmark (issue 11) HERE (no GPU needed) into a
# carryable folder (default .carry/prim, git-ignored):
#   bin/tessel-bench     the runtime's benchmark tool (Release build)
#   bin/primitives-ref   CUB references (bench/gpu/primitives_ref.cu, nvcc)
#   modules/*.tmod       bench/programs/primitives/*.mlir, for cuda (sm_90a),
#                        or for the cpu (x86-64-v3) when the name ends in _cpu
#   primitives.py        the driver that runs on the GPU machine
#   profile_primitives.sh  ncu metrics of the main kernels (tessel-run)
# Then, there: python3 .carry/prim/primitives.py --out=$OUT
#
#   bench/gpu/prepare_primitives.sh [DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
dir=${1:-.carry/prim}
compile=${TESSEL_COMPILE:-$root/build/compiler/tools/tessel-compile}
rt=${RT_BUILD:-/tmp/rt-bench}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
mkdir -p "$dir/bin" "$dir/modules"
cmake -S runtime -B "$rt" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$rt" tessel-bench tessel-run >/dev/null
cp "$rt/tessel-bench" "$rt/tessel-run" "$dir/bin/"
"$nvcc" -O3 -std=c++17 -arch=sm_90 -o "$dir/bin/primitives-ref" bench/gpu/primitives_ref.cu
for f in bench/programs/primitives/*.mlir; do
  name=$(basename "$f" .mlir)
  if [[ $name == *_cpu ]]; then
    args=(--target=cpu --cpu=x86-64-v3)
  else
    args=(--target=cuda --cuda-arch=sm_90a)
  fi
  "$compile" "$f" "${args[@]}" -o "$dir/modules/$name.tmod"
done
cp bench/gpu/primitives.py bench/gpu/profile_primitives.sh "$dir/"
git rev-parse --short HEAD >"$dir/COMMIT"
echo "prepared $dir ($(du -sh "$dir" | cut -f1))"
