#!/usr/bin/env bash
# Prepares the CPU benchmark suite HERE into a carryable folder (default
# .carry/cpubench, git-ignored):
#   bin/tessel-bench         the runtime's benchmark tool (Release build)
#   modules/NAME.VARIANT.tmod  bench/programs/cpu/*.mlir compiled with
#                            --target=cpu --cpu=VARIANT for each of $VARIANTS
#   run.py                   the driver that runs on the GPU machine's CPU
# Then, there: python3 .carry/cpubench/run.py --out=$OUT
#
#   bench/cpu/prepare.sh [DIR]
# Env: TESSEL_COMPILE (default build/compiler/tools/tessel-compile),
#      RT_BUILD (default /tmp/rt-bench), VARIANTS (default "x86-64-v3
#      x86-64-v4"), ONLY (space-separated program names), SWEEP
#      (";"-separated LABEL=FLAGS: each program also compiled with
#      --target=cpu FLAGS as NAME.LABEL.tmod, e.g.
#      SWEEP="v4-kc128=--cpu=x86-64-v4 --tessel-strategy-file=kc128.json":
#      a strategy file forces the packed_matmul panel per dispatch;
#      --tessel-print-strategy shows the cost model's).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
dir=${1:-.carry/cpubench}
compile=${TESSEL_COMPILE:-$root/build/compiler/tools/tessel-compile}
rt=${RT_BUILD:-/tmp/rt-bench}
variants=${VARIANTS:-x86-64-v3 x86-64-v4}
mkdir -p "$dir/bin" "$dir/modules"

echo "== runtime (Release) in $rt"
cmake -S runtime -B "$rt" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$rt" tessel-bench tessel-run >/dev/null
cp "$rt/tessel-bench" "$rt/tessel-run" "$dir/bin/"

echo "== modules"
for f in bench/programs/cpu/*.mlir; do
  name=$(basename "$f" .mlir)
  if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]]; then
    continue
  fi
  for v in $variants; do
    short=${v#x86-64-}
    start=$(date +%s.%N)
    "$compile" "$f" --target=cpu --cpu="$v" -o "$dir/modules/$name.$short.tmod"
    printf '%-28s %-10s %5.1f s\n' "$name" "$v" "$(echo "$(date +%s.%N) - $start" | bc)"
  done
  IFS=';' read -ra sweep <<< "${SWEEP:-}"
  for entry in "${sweep[@]}"; do
    [ -n "$entry" ] || continue
    # shellcheck disable=SC2086
    "$compile" "$f" --target=cpu ${entry#*=} -o "$dir/modules/$name.${entry%%=*}.tmod"
  done
done
cp bench/cpu/run.py "$dir/"
git rev-parse --short HEAD > "$dir/commit"
echo "== ready: $dir ($(du -sh "$dir" | cut -f1)); there: python3 $dir/run.py --out=\$OUT"
