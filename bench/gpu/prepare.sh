#!/usr/bin/env bash
# Prepares the GPU benchmark suite HERE (a build machine, no GPU needed) into a
# carryable folder (default .carry/bench, git-ignored):
#   bin/tessel-bench    the runtime's benchmark tool (Release build)
#   bin/bench-ref       reference program (cuBLAS, CUB, events), nvcc -arch=sm_90
#   modules/*.tmod      bench/programs/gpu/*.mlir compiled for $TARGETS and
#                       --cuda-arch=$CUDA_ARCH (default sm_90a: wgmma + TMA
#                       matmuls); the programs in $MMA_SYNC_TOO also as
#                       NAME_sm90.tmod (--cuda-arch=sm_90: mma.sync), so that
#                       one run compares both strategies
#   compile_times.json  wall time and dispatch count of each compile, suite total
#   compile_phases.txt  phase breakdown of the largest compile (many_dispatches)
#   run.py, bench_ref.cu  the driver that runs on the GPU machine (+ reference source)
# Inputs are not carried: run.py draws them on the GPU machine (numpy, fixed
# seed). Then, on the GPU machine: python3 .carry/bench/run.py --out=$OUT
#
#   bench/gpu/prepare.sh [DIR]
# Env: TESSEL_COMPILE (default build/compiler/tools/tessel-compile),
#      RT_BUILD (default /tmp/rt-bench), NVCC (default /usr/local/cuda/bin/nvcc),
#      TARGETS (default cuda: cuda-only modules get fused row dispatches, as a
#      GPU user's would; TARGETS=cuda,cpu for run.py --device=cpu smoke tests),
#      CUDA_ARCH (default sm_90a), MMA_SYNC_TOO (default: the f16 4096^3 and
#      8192^3 matmuls), ONLY (space-separated program names: compile only
#      those).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
dir=${1:-.carry/bench}
compile=${TESSEL_COMPILE:-$root/build/compiler/tools/tessel-compile}
rt=${RT_BUILD:-/tmp/rt-bench}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
export TARGETS=${TARGETS:-cuda}
export CUDA_ARCH=${CUDA_ARCH:-sm_90a}
mma_sync_too=${MMA_SYNC_TOO-matmul_f16_4096 matmul_f16_8192}
mkdir -p "$dir/bin" "$dir/modules"

echo "== runtime (Release) in $rt"
cmake -S runtime -B "$rt" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$rt" tessel-bench tessel-run >/dev/null
cp "$rt/tessel-bench" "$dir/bin/"

echo "== reference program (nvcc -arch=sm_90, cuBLAS + CUB)"
"$nvcc" -O3 -std=c++17 -arch=sm_90 -o "$dir/bin/bench-ref" bench/gpu/bench_ref.cu -lcublas

echo "== modules (compile wall time on this machine, $(nproc) cores)"
times=$(mktemp)
for f in bench/programs/gpu/*.mlir; do
  name=$(basename "$f" .mlir)
  if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]]; then
    continue
  fi
  start=$(date +%s.%N)
  # A program may ask for flags in a first-line comment (--cuda-tf32).
  flags=$(sed -n '1s|^// tessel-compile-flags: ||p' "$f")
  # shellcheck disable=SC2086
  "$compile" "$f" --target="$TARGETS" --cuda-arch="$CUDA_ARCH" $flags -o "$dir/modules/$name.tmod"
  if [[ " $mma_sync_too " == *" $name "* ]]; then
    # shellcheck disable=SC2086
    "$compile" "$f" --target="$TARGETS" --cuda-arch=sm_90 $flags -o "$dir/modules/${name}_sm90.tmod"
  fi
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  # Dispatches of all functions, from the host program (same for both targets).
  n=$("$rt/tessel-run" "$dir/modules/$name.tmod" --device=cpu --print-module 2>/dev/null |
      sed -n 's/^function .*, \([0-9]*\) dispatches$/\1/p' | paste -sd+ | bc)
  printf '  %-24s %6.1f s  %3s dispatches\n' "$name" "$secs" "$n"
  printf '%s\t%s\t%s\n' "$name" "$secs" "$n" >>"$times"
done
# Phases of the largest compile (for cuda,cpu): --mlir-timing and the times at which --dump-intermediates
# writes each stage, plus ptxas alone on the dumped PTX.
echo "== compile times -> $dir/compile_times.json, phases -> $dir/compile_phases.txt"
python3 - "$times" "$dir" "$compile" "$(dirname "$nvcc")/ptxas" <<'PY'
import json, os, platform, shutil, subprocess, sys, tempfile, time
times, d, compile_, ptxas = sys.argv[1:5]
rows = []
for line in open(times):
    name, secs, n = line.rstrip("\n").split("\t")
    n = int(n) if n else 0
    rows.append(dict(module=name, seconds=float(secs), dispatches=n,
                     seconds_per_dispatch=float(secs) / n if n else None))
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
total = sum(r["seconds"] for r in rows)
json.dump(dict(machine=f"{platform.node()}: {cpu}, {os.cpu_count()} cores",
               command=f"tessel-compile --target={os.environ['TARGETS']} --cuda-arch={os.environ['CUDA_ARCH']} (one process per module)",
               modules=rows, total_seconds=total, total_dispatches=sum(r["dispatches"] for r in rows)),
          open(os.path.join(d, "compile_times.json"), "w"), indent=1)
src = "bench/programs/gpu/many_dispatches.mlir"
dump = tempfile.mkdtemp(prefix="tessel-phases-")
# Both targets, whatever TARGETS says: the stages below are those of a cuda,cpu compile.
cmd = [compile_, src, "--target=cuda,cpu", "--cuda-arch=sm_90", "-o", os.path.join(dump, "m.tmod"),
       f"--dump-intermediates={dump}", "--mlir-timing", "--mlir-timing-display=list"]
t0 = time.time_ns()
p = subprocess.run(cmd, capture_output=True, text=True)
t1 = time.time_ns()
if p.returncode:
    sys.exit(f"prepare: {' '.join(cmd)} failed: {p.stderr[-600:]}")
stages = [("host-and-dispatches.mlir", "parse, input + dispatch pipelines"),
          ("cuda-kernels.ptx", "cuda: MLIR GPU lowering, NVPTX backend -> PTX"),
          ("cpu-kernels.mlir", "cuda: ptxas (sm_90 cubin); cpu: MLIR codegen pipeline"),
          ("cpu-kernels.ll", "cpu: translation to LLVM IR, LLVM O3"),
          (None, "cpu: object code, ld, writing the module")]
out = [f"Phases of one compile of {src} on {cpu} ({os.cpu_count()} cores), "
       f"{time.strftime('%Y-%m-%d %H:%MZ', time.gmtime())}",
       "  " + " ".join(os.path.basename(c) if i == 0 else c.replace(dump, "TMP") for i, c in enumerate(cmd)),
       "From the times at which --dump-intermediates wrote each stage (includes writing the dumps):", ""]
prev = t0
for f, what in stages:
    at = t1 if f is None else os.stat(os.path.join(dump, f)).st_mtime_ns
    out.append(f"  {(at - prev) / 1e9:7.2f} s  {what}" + (f"  (until {f} was written)" if f else ""))
    prev = at
out.append(f"  {(t1 - t0) / 1e9:7.2f} s  total")
if os.access(ptxas, os.X_OK):
    s = time.time()
    r = subprocess.run([ptxas, "-arch=sm_90", "-O3", os.path.join(dump, "cuda-kernels.ptx"), "-o",
                        os.path.join(dump, "k.cubin")], capture_output=True, text=True)
    out.append(f"  ptxas -arch=sm_90 -O3 alone on the PTX: {time.time() - s:.2f} s"
               + ("" if r.returncode == 0 else f" (failed: {r.stderr.strip()[-200:]})"))
timing = (p.stdout + p.stderr).strip()
out += ["", "--mlir-timing output:",
        timing if timing else "  (none printed)"]
open(os.path.join(d, "compile_phases.txt"), "w").write("\n".join(out) + "\n")
shutil.rmtree(dump, ignore_errors=True)
print("\n".join(out))
print(f"  suite: {len(rows)} modules, {total:.1f} s, {sum(r['dispatches'] for r in rows)} dispatches")
PY
rm -f "$times"
cp bench/gpu/run.py bench/gpu/profile.py bench/gpu/conv_bench.py bench/gpu/triton_matmul.py bench/gpu/bench_ref.cu "$dir/"
echo "== prepared $dir ($(du -sh "$dir" | cut -f1))"
