#!/usr/bin/env python3
"""Issue 38's 24 GEMM shapes that nobody tuned for, f16 and bf16, Tessel
against cuBLAS (same run), with the cost model's strategies and with a
tuning database.

The shapes: M, N and K drawn log-uniformly from [16, 16384] with numpy's
generator seeded 38; shapes 2, 5, 8, ... (a third) keep their odd sizes,
the others are rounded to multiples of 8.

Here (a build machine, no GPU):
  python3 bench/gpu/gemm_shapes.py prepare DIR [--tuning-db=F] [--only=a,b]
      Writes DIR/programs/NAME.mlir (NAME = gemm_DTYPE_MxNxK), compiles
      them (--target=cuda --cuda-arch=sm_90a) into DIR/modules/NAME.tmod,
      and with --tuning-db into DIR/modules/NAME__tuned.tmod, and copies
      this script. Needs bench/gpu/prepare.sh's DIR/bin (tessel-bench,
      bench-ref) and run.py: use DIR = .carry/bench after prepare.sh.
  python3 bench/gpu/gemm_shapes.py list
      Prints the shapes.
There (the GPU machine):
  python3 DIR/gemm_shapes.py run --out=OUT [--only=a,b] [--tuned]
      Per program: tessel-bench (device events, median after warm-up) and
      cuBLAS (bench-ref gemm, f32 accumulate, same inputs), outputs checked
      against cuBLAS (1e-3 relative, norm-wise) and both against float64 on
      the first 64 rows; writes OUT/gemm_shapes.json and a table
      OUT/gemm_shapes.md with the geometric mean of the ratios.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 38
LOW, HIGH = 16, 16384


def shapes():
    """The 24 (m, n, k) of issue 38, in draw order."""
    rng = np.random.default_rng(SEED)
    out = []
    for i in range(24):
        dims = [int(round(math.exp(rng.uniform(math.log(LOW), math.log(HIGH))))) for _ in range(3)]
        if i % 3 == 2:  # odd sizes: make sure none is a multiple of 8
            dims = [d + 1 if d % 8 == 0 else d for d in dims]
        else:
            dims = [max(LOW, min(HIGH, (d + 4) // 8 * 8)) for d in dims]
        out.append(tuple(dims))
    return out


def programs():
    """[(name, m, n, k, dtype)] of the suite."""
    return [(f"gemm_{dt}_{m}x{n}x{k}", m, n, k, dt) for dt in ("f16", "bf16") for m, n, k in shapes()]


PROGRAM = """// Issue 38 GEMM shape (bench/gpu/gemm_shapes.py): C = A @ B, {m}x{n}x{k} {dt} -> f32.
func.func @matmul(%a: tensor<{m}x{k}x{dt}>, %b: tensor<{k}x{n}x{dt}>) -> tensor<{m}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{m}x{n}xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %r = linalg.matmul ins(%a, %b : tensor<{m}x{k}x{dt}>, tensor<{k}x{n}x{dt}>) outs(%z : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %r : tensor<{m}x{n}xf32>
}}
"""


def selected(only):
    names = [s for s in only.split(",") if s]
    return [p for p in programs() if not names or any(n in p[0] for n in names)]


def prepare(args):
    root = os.path.abspath(os.path.join(HERE, "..", ".."))
    compiler = args.compiler or os.path.join(root, "build", "compiler", "tools", "tessel-compile")
    os.makedirs(os.path.join(args.dir, "programs"), exist_ok=True)
    os.makedirs(os.path.join(args.dir, "modules"), exist_ok=True)
    for name, m, n, k, dt in selected(args.only):
        src = os.path.join(args.dir, "programs", name + ".mlir")
        with open(src, "w") as f:
            f.write(PROGRAM.format(m=m, n=n, k=k, dt=dt))
        variants = [("", [])]
        if args.tuning_db:
            variants.append(("__tuned", [f"--tuning-db={args.tuning_db}"]))
        for suffix, flags in variants:
            out = os.path.join(args.dir, "modules", name + suffix + ".tmod")
            t = time.time()
            subprocess.run([compiler, src, "--target=cuda", "--cuda-arch=sm_90a", "-o", out] + flags,
                           check=True)
            print(f"  {name + suffix:36s} {time.time() - t:5.1f} s", flush=True)
    subprocess.run(["cp", os.path.abspath(__file__), args.dir], check=True)


def run_suite(args):
    sys.path.insert(0, HERE)
    import run as bench  # bench/gpu/run.py, carried beside this script

    d = HERE
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.scratch, exist_ok=True)
    tb = os.path.join(d, "bin", "tessel-bench")
    ref_bin = bench.ensure_ref_binary(d)
    rows = []
    suffixes = ["", "__tuned"] if args.tuned else [""]
    for i, (name, m, n, k, dt) in enumerate(selected(args.only)):
        rng = np.random.default_rng(2026 + i)
        ins = [bench.bf16(rng, s) if dt == "bf16" else bench.normal(rng, s, np.float16)
               for s in [(m, k), (k, n)]]
        paths = []
        for j, a in enumerate(ins):
            p = os.path.join(args.scratch, f"in{j}.npy")
            np.save(p, a)
            paths.append(p)
        flops = 2.0 * m * n * k
        runs = 20 if flops >= 2 * 4096 ** 3 else 100
        io = sum(a.nbytes for a in ins) + m * n * 4
        row = dict(name=name, m=m, n=n, k=k, dtype=dt)
        try:
            rp = os.path.join(args.scratch, "ref.npy")
            rout, _ = bench.run([ref_bin, "gemm", paths[0], paths[1], rp, str(max(runs, 50)),
                                 str(bench.rotate_for(io))], 600)
            row["cublas_us"] = json.loads(rout)["median_us"]
            ref = np.load(rp)
            a64 = bench.val64(ins[0][:64])
            r64 = a64 @ bench.val64(ins[1])
            row["cublas_err64"] = bench.rel_err(ref[:64], r64)[0]
            for suffix in suffixes:
                module = os.path.join(d, "modules", name + suffix + ".tmod")
                out_t = os.path.join(args.scratch, "tessel.npy")
                js = os.path.join(args.scratch, "tessel.json")
                bench.run([tb, module, "--function=matmul", f"--runs={runs}", "--warmup=5",
                           f"--output=@{out_t}", f"--json={js}", f"--flops={flops:.0f}"]
                          + [f"--input=@{p}" for p in paths], 600)
                tj = json.load(open(js))
                tout = np.load(out_t)
                err = bench.rel_err(tout, ref)[0]
                key = "tuned" if suffix else "default"
                row[f"{key}_us"] = tj["median_us"]
                row[f"{key}_ratio"] = row["cublas_us"] / tj["median_us"]
                row[f"{key}_err"] = err
                row[f"{key}_err64"] = bench.rel_err(tout[:64], r64)[0]
                row[f"{key}_check"] = "ok" if err <= 1e-3 else "FAIL"
        except Exception as e:  # one broken case must not hide the others
            row["error"] = str(e)[-400:]
        for p in os.listdir(args.scratch):
            os.remove(os.path.join(args.scratch, p))
        rows.append(row)
        print("gemm_shapes:", json.dumps(row), flush=True)
    json.dump(rows, open(os.path.join(args.out, "gemm_shapes.json"), "w"), indent=1)
    lines = ["| shape | dtype | cuBLAS | Tessel (cost model) | ratio | check |"
             + (" Tessel (tuned) | ratio | check |" if args.tuned else ""),
             "| --- | --- | ---: | ---: | ---: | --- |" + (" ---: | ---: | --- |" if args.tuned else "")]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['m']}x{r['n']}x{r['k']} | {r['dtype']} | ERROR: {r['error'][-120:]} |")
            continue
        line = (f"| {r['m']}x{r['n']}x{r['k']} | {r['dtype']} | {bench.fmt_time(r['cublas_us'])} | "
                f"{bench.fmt_time(r['default_us'])} | {r['default_ratio']:.2f} | {r['default_check']} |")
        if args.tuned:
            line += (f" {bench.fmt_time(r['tuned_us'])} | {r['tuned_ratio']:.2f} | {r['tuned_check']} |")
        lines.append(line)
    for key in ["default"] + (["tuned"] if args.tuned else []):
        for dt in ("f16", "bf16", None):
            ratios = [r[f"{key}_ratio"] for r in rows if f"{key}_ratio" in r and (dt is None or r["dtype"] == dt)]
            if ratios:
                geo = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
                lines.append(f"\n{key}, {dt or 'all'}: geomean {geo:.3f} over {len(ratios)}, "
                             f"min {min(ratios):.2f}, below 0.8: {sum(x < 0.8 for x in ratios)}")
    text = "\n".join(lines) + "\n"
    open(os.path.join(args.out, "gemm_shapes.md"), "w").write(text)
    print(text)
    return 0 if all("error" not in r for r in rows) else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("dir")
    p.add_argument("--tuning-db")
    p.add_argument("--only", default="")
    p.add_argument("--compiler")
    sub.add_parser("list")
    r = sub.add_parser("run")
    r.add_argument("--out", default=os.environ.get("OUT", "."))
    r.add_argument("--only", default="")
    r.add_argument("--tuned", action="store_true", help="also the NAME__tuned modules")
    r.add_argument("--scratch", default="/tmp/tessel-gemm-shapes")
    args = ap.parse_args()
    if args.cmd == "list":
        for name, *_ in programs():
            print(name)
        return 0
    if args.cmd == "prepare":
        return prepare(args)
    return run_suite(args)


if __name__ == "__main__":
    sys.exit(main())
