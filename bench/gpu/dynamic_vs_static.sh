#!/usr/bin/env bash
# Dynamic against static extents (issue 39), each case compiled once with
# dynamic extents and once per shape with static ones, timed by tessel-bench
# (median of 200 runs after warm-up, device events) on the same inputs,
# results checked against float64 numpy:
# - exp(a + b) in f32, ?x? extents;
# - f16 GEMM with dynamic M (N = K = 4096, f32 accumulation, f16 result),
#   the issue's M = 16, 1000, 4096, 8192 (one module: variants per bucket);
# - layernorm f16 over rows of 768 (a fused row dispatch), the rows of
#   BERT at (b, s) = (1, 128), (8, 384), (32, 512);
# - BERT-base attention f16 (flash kernel, padding mask) at the issue's
#   (b, s) = (1, 128), (8, 384), (32, 128), (32, 512).
# Templates of the last two: bench/gpu/templates/.
#   here:            bash bench/gpu/dynamic_vs_static.sh prepare DIR
#   on the GPU host: bash DIR/run.sh        (table last)
# prepare needs build/ (tessel-compile) and build-gpu-check/ (the static
# tessel-bench that scripts/gpu-check.sh prepare configures).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ "${1:-}" = prepare ] && [ -n "${2:-}" ] || { echo "usage: $0 prepare DIR" >&2; exit 2; }
dir=$2
exp_shapes="4096x4096 3001x4097 7x1000003"
gemm_ms="16 1000 4096 8192"
ln_rows="128 3072 16384"
attn_shapes="1x128 8x384 32x128 32x512"
mkdir -p "$dir"
ninja -C build-gpu-check tessel-bench >/dev/null
cp build-gpu-check/tessel-bench "$dir/"
exp_source='func.func @add(%a: tensor<SHAPE>, %b: tensor<SHAPE>) -> tensor<SHAPE> {
  %0 = arith.addf %a, %b : tensor<SHAPE>
  %1 = math.exp %0 : tensor<SHAPE>
  return %1 : tensor<SHAPE>
}'
gemm_source='func.func @mm(%a: tensor<Mx4096xf16>, %b: tensor<4096x4096xf16>) -> tensor<Mx4096xf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<Mx4096xf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(DIMS) : tensor<Mx4096xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<Mx4096xf32>) -> tensor<Mx4096xf32>
  %r = linalg.matmul ins(%a, %b : tensor<Mx4096xf16>, tensor<4096x4096xf16>) outs(%z : tensor<Mx4096xf32>) -> tensor<Mx4096xf32>
  %o = tensor.empty(DIMS) : tensor<Mx4096xf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<Mx4096xf32>) outs(%o : tensor<Mx4096xf16>) {
  ^bb0(%v: f32, %out: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<Mx4096xf16>
  return %h : tensor<Mx4096xf16>
}'
src=$(mktemp --suffix=.mlir)
compile() { printf '%s\n' "$1" >"$src" &&
            build/compiler/tools/tessel-compile "$src" --target=cuda -o "$dir/$2"; }
compile "${exp_source//SHAPE/?x?xf32}" exp_dynamic.tmod
for s in $exp_shapes; do compile "${exp_source//SHAPE/${s}xf32}" "exp_static_$s.tmod"; done
g=${gemm_source//DIMS/%m}
compile "${g//Mx/?x}" gemm_dynamic.tmod
for m in $gemm_ms; do g=${gemm_source//DIMS/}; compile "${g//Mx/${m}x}" "gemm_static_$m.tmod"; done
ln_source=$(cat bench/gpu/templates/layernorm_f16.mlir)
l=${ln_source//DIMS/%m}
compile "${l//ROWS/?}" ln_dynamic.tmod
for r in $ln_rows; do l=${ln_source//DIMS/}; compile "${l//ROWS/$r}" "ln_static_$r.tmod"; done
attn_source=$(cat bench/gpu/templates/attention_bert.mlir)
a=${attn_source//DIMS/%b, %m}
compile "${a//BS/?x?}" attn_dynamic.tmod
for s in $attn_shapes; do a=${attn_source//DIMS/}; compile "${a//BS/$s}" "attn_static_$s.tmod"; done
rm -f "$src"
cat >"$dir/run.sh" <<RUN
#!/usr/bin/env bash
cd "\$(dirname "\$0")"
exp_shapes="$exp_shapes"
gemm_ms="$gemm_ms"
ln_rows="$ln_rows"
attn_shapes="$attn_shapes"
RUN
cat >>"$dir/run.sh" <<'RUN'
python3 - "$exp_shapes" "$gemm_ms" "$ln_rows" "$attn_shapes" <<'PY'
import sys, numpy as np
rng = np.random.default_rng(1)
exp_shapes, gemm_ms, ln_rows, attn_shapes = (a.split() for a in sys.argv[1:])
for s in exp_shapes:
    m, n = map(int, s.split("x"))
    np.save(f"exp_a_{s}.npy", rng.standard_normal((m, n)).astype(np.float32))
    np.save(f"exp_b_{s}.npy", rng.standard_normal((m, n)).astype(np.float32))
np.save("gemm_b.npy", rng.uniform(-1, 1, (4096, 4096)).astype(np.float16))
for m in gemm_ms:
    np.save(f"gemm_a_{m}.npy", rng.uniform(-1, 1, (int(m), 4096)).astype(np.float16))
np.save("ln_g.npy", rng.uniform(0.5, 1.5, 768).astype(np.float32))
np.save("ln_b.npy", rng.standard_normal(768).astype(np.float32))
for r in ln_rows:
    np.save(f"ln_x_{r}.npy", rng.standard_normal((int(r), 768)).astype(np.float16))
for s in attn_shapes:
    b, n = map(int, s.split("x"))
    for t in "qkv":
        np.save(f"attn_{t}_{s}.npy", rng.standard_normal((b, n, 12, 64)).astype(np.float16))
    pad = np.zeros((b, n), np.float32)
    pad[b // 2:, n // 2:] = -10000.0  # padded keys in half the batch
    np.save(f"attn_pad_{s}.npy", pad)
PY
bench() { # case shape inputs...
  local c=$1 s=$2; shift 2
  for kind in static dynamic; do
    mod=${c}_dynamic.tmod; [ $kind = static ] && mod=${c}_static_$s.tmod
    ./tessel-bench $mod "$@" --runs=200 --output=@out_${c}_${kind}_$s.npy \
      >log_${c}_${kind}_$s.txt 2>&1 || echo "FAIL $c $kind $s"
  done
}
for s in $exp_shapes; do bench exp $s --input=@exp_a_$s.npy --input=@exp_b_$s.npy; done
for m in $gemm_ms; do bench gemm $m --input=@gemm_a_$m.npy --input=@gemm_b.npy; done
for r in $ln_rows; do bench ln $r --input=@ln_x_$r.npy --input=@ln_g.npy --input=@ln_b.npy; done
for s in $attn_shapes; do
  bench attn $s --input=@attn_q_$s.npy --input=@attn_k_$s.npy --input=@attn_v_$s.npy --input=@attn_pad_$s.npy
done
python3 - "$exp_shapes" "$gemm_ms" "$ln_rows" "$attn_shapes" <<'PY'
import re, sys, numpy as np
cases = dict(zip(("exp", "gemm", "ln", "attn"), (a.split() for a in sys.argv[1:])))
f64 = lambda name: np.load(name).astype(np.float64)
def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
def ref(c, s):
    if c == "exp":
        return np.exp(f64(f"exp_a_{s}.npy") + f64(f"exp_b_{s}.npy"))
    if c == "gemm":
        return f64(f"gemm_a_{s}.npy") @ f64("gemm_b.npy")
    if c == "ln":
        x = f64(f"ln_x_{s}.npy")
        mu = x.mean(axis=1, keepdims=True)
        var = ((x - mu) ** 2).mean(axis=1, keepdims=True)
        return (x - mu) / np.sqrt(var + 1e-5) * f64("ln_g.npy") + f64("ln_b.npy")
    q, k, v = (f64(f"attn_{t}_{s}.npy") for t in "qkv")
    scores = np.einsum("bmhd,bnhd->bhmn", q, k) * 0.125 + f64(f"attn_pad_{s}.npy")[:, None, None, :]
    return np.einsum("bhmn,bnhd->bmhd", softmax(scores), v)
print("%-5s %-11s %12s %12s %7s %10s" % ("case", "shape", "static us", "dynamic us", "ratio", "max err"))
for c, shapes in cases.items():
    for s in shapes:
        r, t, err = ref(c, s), {}, 0.0
        for k in ("static", "dynamic"):
            log = open(f"log_{c}_{k}_{s}.txt").read()
            t[k] = float(re.search(r"median ([0-9.]+) us", log).group(1))
            out = np.load(f"out_{c}_{k}_{s}.npy").astype(np.float64)
            # exp: relative error; the others: error relative to the
            # largest result.
            scale = np.maximum(np.abs(r), 1e-30) if c == "exp" else np.max(np.abs(r))
            err = max(err, float(np.max(np.abs(out - r) / scale)))
        shape = {"exp": s, "gemm": f"M={s}", "ln": f"rows={s}"}.get(c, f"b,s={s}")
        print("%-5s %-11s %12.2f %12.2f %7.2f %10.1e" % (c, shape, t["static"], t["dynamic"], t["static"] / t["dynamic"], err))
PY
RUN
chmod +x "$dir/run.sh"
echo "prepared $dir: run bash $dir/run.sh on the GPU host"
