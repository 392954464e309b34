#!/usr/bin/env bash
# Prepares the GPU benchmark suite HERE (a build machine, no GPU needed) into a
# carryable folder (default .carry/bench, git-ignored):
#   bin/tessel-bench    the runtime's benchmark tool (Release build)
#   bin/bench-ref       reference program (cuBLAS, CUB, events), nvcc -arch=sm_90
#   modules/*.tmod      bench/programs/gpu/*.mlir compiled for cuda,cpu (sm_90)
#   run.py, bench_ref.cu  the driver that runs on the GPU machine (+ reference source)
# Inputs are not carried: run.py draws them on the GPU machine (numpy, fixed
# seed). Then, on the GPU machine: python3 .carry/bench/run.py --out=$OUT
#
#   bench/gpu/prepare.sh [DIR]
# Env: TESSEL_COMPILE (default build/compiler/tools/tessel-compile),
#      RT_BUILD (default /tmp/rt-bench), NVCC (default /usr/local/cuda/bin/nvcc).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
dir=${1:-.carry/bench}
compile=${TESSEL_COMPILE:-$root/build/compiler/tools/tessel-compile}
rt=${RT_BUILD:-/tmp/rt-bench}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
mkdir -p "$dir/bin" "$dir/modules"

echo "== runtime (Release) in $rt"
cmake -S runtime -B "$rt" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$rt" tessel-bench >/dev/null
cp "$rt/tessel-bench" "$dir/bin/"

echo "== reference program (nvcc -arch=sm_90, cuBLAS + CUB)"
"$nvcc" -O3 -std=c++17 -arch=sm_90 -o "$dir/bin/bench-ref" bench/gpu/bench_ref.cu -lcublas

echo "== modules"
for f in bench/programs/gpu/*.mlir; do
  name=$(basename "$f" .mlir)
  start=$(date +%s.%N)
  "$compile" "$f" --target=cuda,cpu --cuda-arch=sm_90 -o "$dir/modules/$name.tmod"
  printf '  %-24s %6.1f s\n' "$name" "$(echo "$(date +%s.%N) - $start" | bc)"
done
cp bench/gpu/run.py bench/gpu/bench_ref.cu "$dir/"
echo "== prepared $dir ($(du -sh "$dir" | cut -f1))"
