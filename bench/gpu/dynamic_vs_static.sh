#!/usr/bin/env bash
# Dynamic against static extents (issue 39): exp(a + b) in f32 compiled once
# with ?x? extents and once per shape with static ones, timed by
# tessel-bench (median of 200 runs after warm-up, device events) on the
# same inputs, results checked against float64 numpy.
#   here:            bash bench/gpu/dynamic_vs_static.sh prepare DIR
#   on the GPU host: bash DIR/run.sh        (table last)
# prepare needs build/ (tessel-compile) and build-gpu-check/ (the static
# tessel-bench that scripts/gpu-check.sh prepare configures).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ "${1:-}" = prepare ] && [ -n "${2:-}" ] || { echo "usage: $0 prepare DIR" >&2; exit 2; }
dir=$2
shapes="4096x4096 3001x4097 7x1000003"
mkdir -p "$dir"
ninja -C build-gpu-check tessel-bench >/dev/null
cp build-gpu-check/tessel-bench "$dir/"
source=$(mktemp)
cat >"$source" <<'MLIR'
func.func @add(%a: tensor<SHAPE>, %b: tensor<SHAPE>) -> tensor<SHAPE> {
  %0 = arith.addf %a, %b : tensor<SHAPE>
  %1 = math.exp %0 : tensor<SHAPE>
  return %1 : tensor<SHAPE>
}
MLIR
compile() { sed "s/SHAPE/$1/g" "$source" >"$source.mlir" &&
            build/compiler/tools/tessel-compile "$source.mlir" --target=cuda -o "$dir/$2"; }
compile "?x?xf32" dynamic.tmod
for s in $shapes; do compile "${s}xf32" "static_$s.tmod"; done
rm -f "$source" "$source.mlir"
cat >"$dir/run.sh" <<RUN
#!/usr/bin/env bash
cd "\$(dirname "\$0")"
shapes="$shapes"
RUN
cat >>"$dir/run.sh" <<'RUN'
python3 - $shapes <<'PY'
import sys, numpy as np
rng = np.random.default_rng(1)
for s in sys.argv[1:]:
    m, n = map(int, s.split("x"))
    np.save(f"a_{s}.npy", rng.standard_normal((m, n)).astype(np.float32))
    np.save(f"b_{s}.npy", rng.standard_normal((m, n)).astype(np.float32))
PY
for s in $shapes; do
  for kind in static dynamic; do
    mod=dynamic.tmod; [ $kind = static ] && mod=static_$s.tmod
    ./tessel-bench $mod --input=@a_$s.npy --input=@b_$s.npy --runs=200 \
      --output=@out_${kind}_$s.npy >log_${kind}_$s.txt 2>&1 || echo "FAIL $kind $s"
  done
done
python3 - $shapes <<'PY'
import re, sys, numpy as np
print("%-11s %12s %12s %7s %10s" % ("shape", "static us", "dynamic us", "ratio", "max err"))
for s in sys.argv[1:]:
    ref = np.exp(np.load(f"a_{s}.npy").astype(np.float64) + np.load(f"b_{s}.npy"))
    t, err = {}, 0.0
    for k in ("static", "dynamic"):
        t[k] = float(re.search(r"median ([0-9.]+) us", open(f"log_{k}_{s}.txt").read()).group(1))
        out = np.load(f"out_{k}_{s}.npy")
        err = max(err, float(np.max(np.abs(out - ref) / np.maximum(np.abs(ref), 1e-30))))
    print("%-11s %12.2f %12.2f %7.2f %10.1e" % (s, t["static"], t["dynamic"], t["static"] / t["dynamic"], err))
PY
RUN
chmod +x "$dir/run.sh"
echo "prepared $dir: run bash $dir/run.sh on the GPU host"
