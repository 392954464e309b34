#!/usr/bin/env python3
"""GPU benchmark suite: Tessel next to the reference, on identical inputs.

Runs on the GPU machine from the folder bench/gpu/prepare.sh filled (default
.carry/bench): draws each case's inputs with numpy (fixed seed) into a
scratch folder, times Tessel with bin/tessel-bench (CUDA events, graph
replays, rotating buffer sets when the working set is small) and the
reference with bin/bench-ref (cuBLAS / CUB / cudaMemcpy, events), and checks
Tessel's output (result buffers poisoned with NaN before the run) against
the reference output (cuBLAS, CUB) or a float64 numpy reference.

    python3 .carry/bench/run.py [--dir=.carry/bench] [--out=DIR] [--only=a,b]
                                [--overheads-only | --no-overheads]

Prints a table and writes results.md, results.csv and results.json to --out
(default $OUT, else the current folder). Then a second table, "Overheads"
(overheads.md, overheads.json): compile time per module and per dispatch and
for the suite (measured by prepare.sh on the build machine), module load and
first-call times per module (tessel-bench --startup, here), and the host's
wall-clock cost per dispatch in stream and in graph mode for
many_dispatches (tessel-bench --host-overhead). --overheads-only runs only
that part.

Reference column: cuBLAS (CUBLAS_COMPUTE_32F_PEDANTIC, no TF32) for matmul,
cub::DeviceReduce::Sum for the full sum, cudaMemcpyAsync D2D for the copy;
for the other (memory-bound) cases the "copy floor": the time a
device-to-device copy moving the same bytes would take at the copy bandwidth
bench-ref measured, so ratio = fraction of copy bandwidth.
Check: ||tessel - ref||_2 / ||ref||_2 <= tol and no NaN.
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import time

import numpy as np

MiB = 1 << 20
E = 1 << 26  # elementwise size


def f64(a):
    return a.astype(np.float64)


def chain_ref(x, z):
    x, z = f64(x), f64(z)
    return np.tanh(x * 0.5 + z) * np.exp(-np.abs(x)) + np.sqrt(z * z + 1)


def softmax_ref(x):
    x = f64(x)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def layernorm_ref(x, g, b):
    x = f64(x)
    m = x.mean(axis=1, keepdims=True)
    v = ((x - m) ** 2).mean(axis=1, keepdims=True)
    return (x - m) / np.sqrt(v + 1e-5) * f64(g) + f64(b)


def many_dispatches_ref(x):
    # bench/programs/gpu/many_dispatches.mlir: 32 x (column mean, x <- tanh(x - mean)).
    x = f64(x)
    for _ in range(32):
        x = np.tanh(x - x.mean(axis=0, keepdims=True))
    return x


def normal(rng, shape, dtype):
    return rng.standard_normal(shape, dtype=np.float32).astype(dtype)


# name, module, function, inputs(rng), reference, tolerance, target class,
# runs, extra tessel-bench flags.
#   reference: ("numpy", fn) | ("cub",) | ("cublas",)
#   target: "ew" (>= 90% of copy BW), "mem" (>= 80% of copy BW),
#           "reduce" (>= 90% of CUB), "gemm" (>= 70% of cuBLAS), None
CASES = [
    dict(name="add f32 2^26", module="add_f32", fn="add",
         inputs=lambda r: [normal(r, E, np.float32), normal(r, E, np.float32)],
         ref=("numpy", lambda a, b: f64(a) + f64(b)), tol=1e-6, target="ew"),
    dict(name="add f16 2^26", module="add_f16", fn="add",
         inputs=lambda r: [normal(r, E, np.float16), normal(r, E, np.float16)],
         ref=("numpy", lambda a, b: f64(a) + f64(b)), tol=2e-3, target="ew"),
    dict(name="chain exp/tanh f32 2^26", module="chain_f32", fn="chain",
         inputs=lambda r: [normal(r, E, np.float32), normal(r, E, np.float32)],
         ref=("numpy", chain_ref), tol=1e-5, target="ew"),
    dict(name="chain exp/tanh f16 2^26", module="chain_f16", fn="chain",
         inputs=lambda r: [normal(r, E, np.float16), normal(r, E, np.float16)],
         ref=("numpy", chain_ref), tol=2e-3, target="ew"),
    dict(name="bias add f32 8192x8192", module="bias_f32", fn="bias",
         inputs=lambda r: [normal(r, (8192, 8192), np.float32), normal(r, 8192, np.float32)],
         ref=("numpy", lambda x, b: f64(x) + f64(b)[None, :]), tol=1e-6, target="ew"),
    dict(name="bias add f16 8192x8192", module="bias_f16", fn="bias",
         inputs=lambda r: [normal(r, (8192, 8192), np.float16), normal(r, 8192, np.float16)],
         ref=("numpy", lambda x, b: f64(x) + f64(b)[None, :]), tol=2e-3, target="ew"),
    dict(name="full sum f32 2^28", module="sum_f32", fn="sum",
         inputs=lambda r: [r.random(1 << 28, dtype=np.float32)],
         ref=("cub",), tol=1e-4, target="reduce"),
    dict(name="row sum 8192x8192", module="rowsum", fn="rowsum",
         inputs=lambda r: [normal(r, (8192, 8192), np.float32)],
         ref=("numpy", lambda x: f64(x).sum(axis=1)), tol=1e-4, target="mem"),
    dict(name="column sum 8192x8192", module="colsum", fn="colsum",
         inputs=lambda r: [normal(r, (8192, 8192), np.float32)],
         ref=("numpy", lambda x: f64(x).sum(axis=0)), tol=1e-4, target="mem", runs=20),
    dict(name="softmax 8192x4096", module="softmax", fn="softmax",
         inputs=lambda r: [normal(r, (8192, 4096), np.float32)],
         ref=("numpy", softmax_ref), tol=1e-5, target="mem"),
    dict(name="layernorm 8192x4096", module="layernorm", fn="layernorm",
         inputs=lambda r: [normal(r, (8192, 4096), np.float32), normal(r, 4096, np.float32),
                           normal(r, 4096, np.float32)],
         ref=("numpy", layernorm_ref), tol=1e-5, target="mem"),
    dict(name="transpose 8192x8192", module="transpose", fn="transpose",
         inputs=lambda r: [normal(r, (8192, 8192), np.float32)],
         ref=("numpy", lambda x: f64(x).T), tol=0.0, target="mem"),
    dict(name="64 small dispatches 128x256", module="many_dispatches", fn="many",
         inputs=lambda r: [normal(r, (128, 256), np.float32)],
         ref=("numpy", many_dispatches_ref), tol=1e-5, target=None, per_dispatch=False),
]
for m, n, k in [(1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 4096), (4096, 3072, 768)]:
    label = f"{m}" if m == n == k else f"{m}x{n}x{k}"
    CASES.append(dict(
        name=f"matmul f32 {m}x{n}x{k}", module=f"matmul_{label}", fn="matmul",
        inputs=lambda r, m=m, n=n, k=k: [normal(r, (m, k), np.float32), normal(r, (k, n), np.float32)],
        ref=("cublas",), tol=1e-3, flops=2.0 * m * n * k,
        target={4096: "gemm", 1024: "gemm90"}.get(m) if m == n == k else None,
        runs=20 if m >= 4096 else 50))
# Split-K off (same program, --tessel-split-k-target-blocks=0): what
# split-K gains on a grid of 64 blocks, measured in the same run.
CASES.append(dict(
    name="matmul f32 1024x1024x1024 (no split-K)", module="matmul_1024_nosplit", fn="matmul",
    inputs=lambda r: [normal(r, (1024, 1024), np.float32), normal(r, (1024, 1024), np.float32)],
    ref=("cublas",), tol=1e-3, flops=2.0 * 1024 ** 3, target=None, runs=50))
# A linear layer's x @ W^T (W stored N x K), against cuBLAS with B transposed.
CASES.append(dict(
    name="linear x @ W^T f32 4096x3072x768", module="linear_4096x3072x768", fn="linear",
    inputs=lambda r: [normal(r, (4096, 768), np.float32), normal(r, (3072, 768), np.float32)],
    ref=("cublas",), transb=True, tol=1e-3, flops=2.0 * 4096 * 3072 * 768, target=None, runs=50))




def bf16(rng, shape):
    """Raw bf16 bits (uint16, what tessel-bench and bench-ref read) of
    normal values, rounded to nearest even."""
    bits = normal(rng, shape, np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def val64(x):
    """float64 values of an input (bf16 carried as uint16 bits)."""
    if x.dtype == np.uint16:
        return (x.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return f64(x)


# Tensor-core cases (issue 9): f16/bf16 operands, f32 result, against
# cuBLAS with tensor cores (default math mode, CUBLAS_COMPUTE_32F).
#   (module, m, n, k, dtype, B transposed, batch, target)
TC_CASES = [
    ("matmul_f16_4096", 4096, 4096, 4096, "f16", False, None, "gemm90"),
    ("matmul_bf16_4096", 4096, 4096, 4096, "bf16", False, None, "gemm90"),
    ("matmul_f16_8192", 8192, 8192, 8192, "f16", False, None, "gemm90"),
    ("matmul_bf16_8192", 8192, 8192, 8192, "bf16", False, None, "gemm90"),
    ("matmul_i8_8192", 8192, 8192, 8192, "i8", True, None, "gemm80"),
    # The same programs compiled for sm_90 (mma.sync; prepare.sh's
    # MMA_SYNC_TOO), for a same-run comparison with sm_90a (wgmma).
    ("matmul_f16_4096_sm90", 4096, 4096, 4096, "f16", False, None, None),
    ("matmul_f16_8192_sm90", 8192, 8192, 8192, "f16", False, None, None),
    ("matmul_f16_4096x3072x768", 4096, 3072, 768, "f16", False, None, "gemm90"),
    ("matmul_f16_4096x768x3072", 4096, 768, 3072, "f16", False, None, "gemm90"),
    ("matmul_f16_512x64x512", 512, 64, 512, "f16", False, None, "faster"),
    ("matmul_f16_512x32x512", 512, 32, 512, "f16", False, None, "faster"),
    ("matmul_f16_512x16x512", 512, 16, 512, "f16", False, None, "faster"),
    ("bmm_f16_384x128x128x64", 128, 128, 64, "f16", True, 384, "bmm"),
    ("bmm_f16_384x128x64x128", 128, 64, 128, "f16", False, 384, "bmm"),
    ("matmul_i8_4096", 4096, 4096, 4096, "i8", True, None, "gemm80"),
    ("matmul_i8_512x64x512", 512, 64, 512, "i8", True, None, "faster"),
    ("matmul_i8_512x32x512", 512, 32, 512, "i8", True, None, "faster"),
    ("matmul_i8_512x16x512", 512, 16, 512, "i8", True, None, "faster"),
    ("matmul_tf32_4096", 4096, 4096, 4096, "tf32", False, None, "gemm"),
    # Split-K: 16 tiles of 128x128, K = 8192 in 8 chunks; and split-K off.
    ("matmul_f16_512x512x8192", 512, 512, 8192, "f16", False, None, None),
    ("matmul_f16_512x512x8192_nosplit", 512, 512, 8192, "f16", False, None, None),
    # Issue 38: shapes nobody tuned for, and the same program with forced
    # strategies (bench/programs/gpu/strategies/; module suffix __NAME).
    ("matmul_f16_3000x5000x2000", 3000, 5000, 2000, "f16", False, None, None),
    ("matmul_f16_3000x5000x2000__w256s4", 3000, 5000, 2000, "f16", False, None, None),
    ("matmul_f16_3000x5000x2000__w128s7", 3000, 5000, 2000, "f16", False, None, None),
    ("matmul_f16_3000x5000x2000__mma128", 3000, 5000, 2000, "f16", False, None, None),
    ("matmul_f16_16x4096x4096", 16, 4096, 4096, "f16", False, None, None),
    # With tessel-tune's database (bench/programs/gpu/tuning/h200.json).
    ("matmul_f16_3000x5000x2000__tuned", 3000, 5000, 2000, "f16", False, None, None),
    ("matmul_f16_4096x3072x768__tuned", 4096, 3072, 768, "f16", False, None, None),
    ("matmul_f16_16x4096x4096__tuned", 16, 4096, 4096, "f16", False, None, None),
    # Its twins: all dimensions tile-aligned, and K alone aligned.
    ("matmul_f16_3072x5120x2048", 3072, 5120, 2048, "f16", False, None, None),
    ("matmul_f16_3000x5000x2048", 3000, 5000, 2048, "f16", False, None, None),
    # ... and M or N alone unaligned.
    ("matmul_f16_3000x5120x2048", 3000, 5120, 2048, "f16", False, None, None),
    ("matmul_f16_3072x5000x2048", 3072, 5000, 2048, "f16", False, None, None),
]


def _tc_inputs(r, m, n, k, dtype, transb, batch):
    lead = (batch,) if batch else ()
    shapes = [lead + (m, k), lead + ((n, k) if transb else (k, n))]
    if dtype == "bf16":
        return [bf16(r, s) for s in shapes]
    if dtype == "i8":
        return [r.integers(-128, 128, s).astype(np.int8) for s in shapes]
    if dtype == "tf32":
        return [normal(r, s, np.float32) for s in shapes]
    return [normal(r, s, np.float16) for s in shapes]


for module, m, n, k, dtype, transb, batch, target in TC_CASES:
    CASES.append(dict(
        name=f"matmul {dtype} " + (f"{batch} x " if batch else "") + f"{m}x{n}x{k}"
             + (" (B^T)" if transb else "") + (" (no split-K)" if module.endswith("_nosplit") else "")
             + (" (sm_90: mma.sync)" if module.endswith("_sm90") else "")
             + ((" [tuned]" if module.endswith("__tuned") else
                 " [forced " + module.split("__")[1] + "]") if "__" in module else ""),
        module=module, fn="matmul",
        inputs=lambda r, a=(m, n, k, dtype, transb, batch): _tc_inputs(r, *a),
        ref=("cublas",), transb=transb, tf32=dtype == "tf32",
        # i8: exact; tf32: both truncate or round inputs to 10 mantissa bits,
        # not necessarily the same way.
        tol={"i8": 0.0, "tf32": 1e-2}.get(dtype, 1e-3), flops=2.0 * m * n * k * (batch or 1),
        target=target, runs=20 if m * n * k * (batch or 1) >= 4096 ** 3 else 100))


# MobileNet 1x1 convolutions (NHWC, batch 1, f16 -> f32): the reference is
# cuBLAS on the same data viewed as the [H*W, C] x [C, F] matmul.
for h, cin, cout in [(56, 64, 128), (28, 128, 256), (28, 256, 256)]:
    CASES.append(dict(
        name=f"conv 1x1 f16 {h}x{h}x{cin}->{cout}", module=f"conv1x1_f16_{h}x{h}x{cin}x{cout}",
        fn="matmul",
        inputs=lambda r, h=h, cin=cin, cout=cout: [normal(r, (1, h, h, cin), np.float16),
                                                   normal(r, (1, 1, cin, cout), np.float16)],
        ref=("cublas",), gemm_view=True, tol=1e-3, flops=2.0 * h * h * cin * cout,
        target="faster", runs=100))


def gemm_view(c, ins):
    """The matmul operands a case's reference multiplies."""
    if c.get("gemm_view"):
        x, w = ins
        return [x.reshape(-1, x.shape[-1]), w.reshape(-1, w.shape[-1])]
    return ins


def weights(c, ins):
    """The K x N right-hand side of a matmul case (W^T for a linear layer)."""
    ins = gemm_view(c, ins)
    w = val64(ins[1])
    return np.swapaxes(w, -1, -2) if c.get("transb") else w


def rotate_for(io_bytes):
    # Same rule as tessel-bench --rotate=0.
    return max(1, min(32, math.ceil(256 * MiB / io_bytes)))


def run(cmd, timeout):
    t = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()[-600:]}")
    return p.stdout, time.time() - t


def rel_err(out, ref):
    out = out.astype(np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    if out.shape != ref.shape:
        return float("inf"), f"shape {out.shape} vs {ref.shape}"
    nan = int(np.isnan(out).sum())
    if nan:
        return float("inf"), f"{nan} NaN"
    den = np.linalg.norm(ref.ravel())
    return float(np.linalg.norm((out - ref).ravel()) / (den if den else 1.0)), ""


def fmt_time(us):
    return "-" if us is None else (f"{us / 1000:.2f} ms" if us >= 10000 else f"{us:.1f} us")


def ensure_ref_binary(d):
    ref = os.path.join(d, "bin", "bench-ref")
    ok = subprocess.run(["ldd", ref], capture_output=True, text=True)
    if "not found" not in ok.stdout:
        return ref
    # Look for libcublas.so.13 where the image keeps it.
    cands = []
    for root in ["/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib"]:
        cands.append(root)
    try:
        import nvidia.cublas  # noqa: F401
        cands += [os.path.join(p, "lib") for p in nvidia.cublas.__path__]
    except Exception:
        pass
    for c in cands:
        if os.path.exists(os.path.join(c, "libcublas.so.13")):
            os.environ["LD_LIBRARY_PATH"] = c + ":" + os.environ.get("LD_LIBRARY_PATH", "")
            print(f"bench: libcublas from {c}", flush=True)
            return ref
    # Rebuild here.
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench_ref.cu")
    out = "/tmp/bench-ref"
    subprocess.run(["nvcc", "-O3", "-std=c++17", "-arch=sm_90", "-o", out, src, "-lcublas"], check=True)
    print("bench: rebuilt bench-ref with the local nvcc", flush=True)
    return out


def fmt_ms(ms):
    return "-" if ms is None else (f"{ms:.0f} ms" if ms >= 100 else f"{ms:.2f} ms")


def overheads(args, d, tb, only, startups, say):
    """The Overheads table (overheads.md, overheads.json in --out); returns 0, or 1 if a
    measurement failed. `startups`: module -> tessel-bench "startup" of the cases just run."""
    ok = True
    ct_path = os.path.join(d, "compile_times.json")
    ct = json.load(open(ct_path)) if os.path.exists(ct_path) else None
    compiled = {m["module"]: m for m in ct["modules"]} if ct else {}
    modules = sorted(f[:-5] for f in os.listdir(os.path.join(d, "modules")) if f.endswith(".tmod"))
    if only:
        modules = [m for m in modules if any(o in m for o in only)]
    device = None
    rows = []
    for m in modules:
        st, note = startups.get(m), ""
        if st is None:
            js = os.path.join(args.scratch, f"{m}_startup.json")
            try:
                run([tb, os.path.join(d, "modules", m + ".tmod"), f"--device={args.device}", "--startup",
                     f"--json={js}"], 300)
                tj = json.load(open(js))
                st, device = tj["startup"], tj["device"]
            except Exception as e:  # keep going, as the cases do
                ok, note = False, str(e)[-300:]
            if os.path.exists(js):
                os.remove(js)
        c = compiled.get(m, {})
        rows.append(dict(module=m, dispatches=c.get("dispatches"), compile_s=c.get("seconds"),
                         compile_s_per_dispatch=c.get("seconds_per_dispatch"), startup=st, note=note))
        say(f"overheads: {m}: compile {c.get('seconds', float('nan')):.1f} s, startup "
            + (json.dumps(st) if st else "ERROR " + note))

    host, host_note = None, ""
    if any(o in "many_dispatches" for o in only) or not only:
        xp = os.path.join(args.scratch, "many_dispatches_overhead_in0.npy")
        js = os.path.join(args.scratch, "many_dispatches_overhead.json")
        np.save(xp, normal(np.random.default_rng(args.seed), (128, 256), np.float32))
        try:
            run([tb, os.path.join(d, "modules", "many_dispatches.tmod"), "--function=many",
                 f"--device={args.device}", "--host-overhead", f"--runs={args.overhead_runs}",
                 "--warmup=20", f"--input=@{xp}", f"--json={js}"], 300)
            host = json.load(open(js))
            device = device or host["device"]
        except Exception as e:
            ok, host_note = False, str(e)[-400:]
        for p in (xp, js):
            if os.path.exists(p):
                os.remove(p)
        say("overheads: host overhead " + ("ERROR " + host_note if host is None else "done"))

    def sum_of(key):
        v = [r["startup"][key] for r in rows if r["startup"]]
        return sum(v) if v else None

    md = ["## Overheads", ""]
    if ct:
        md.append(f"Compile: `{ct['command']}`, measured by prepare.sh on the build machine "
                  f"({ct['machine']}), not on the GPU machine.")
    else:
        md.append(f"Compile: no compile_times.json in {d} (prepared by an older prepare.sh).")
    md.append(f"Startup (tessel-bench --startup, or the case's own run, on {device or args.device}), host "
              "wall clock: device = createDevice; load = Module::loadFile (read, verify, on cuda "
              "cuModuleLoadData + kernel lookup, constants); again = the same file loaded a second time; "
              "first prepare = buffers, input upload, recording; first run = on a graph device capture + "
              "instantiate + launch + wait (and the kernels' first launch); second run = a replay.")
    md += ["", "| module | dispatches | compile | compile / dispatch | device | load | load again | "
           "first prepare | first run | second run |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        st = r["startup"] or {}
        md.append("| " + " | ".join([
            r["module"] + (f" (ERROR: {r['note']})" if r["note"] else ""),
            "-" if r["dispatches"] is None else str(r["dispatches"]),
            "-" if r["compile_s"] is None else f"{r['compile_s']:.2f} s",
            "-" if r["compile_s_per_dispatch"] is None else f"{r['compile_s_per_dispatch']:.2f} s",
            fmt_ms(st.get("device_create_ms")), fmt_ms(st.get("load_ms")), fmt_ms(st.get("reload_ms")),
            fmt_ms(st.get("first_prepare_ms")), fmt_ms(st.get("first_run_ms")),
            fmt_ms(st.get("second_run_ms"))]) + " |")
    if ct:
        n, t = ct["total_dispatches"], ct["total_seconds"]
        md.append(f"| suite ({len(ct['modules'])} modules) | {n} | {t:.1f} s | "
                  f"{t / n if n else 0:.2f} s | - | {fmt_ms(sum_of('load_ms'))} (sum) | - | - | - | - |")
    phases = os.path.join(d, "compile_phases.txt")
    if os.path.exists(phases):
        md += ["", "Phases of one compile (prepare.sh, compile_phases.txt):", "",
               "```", open(phases).read().rstrip(), "```"]
    md.append("")
    if host:
        n = host["dispatches"]
        md += [f"Host overhead per dispatch: many_dispatches ({n} dispatches, 128x256 f32), "
               f"`tessel-bench --host-overhead`, host wall clock per call including the wait, median of "
               f"{host['runs']} calls after 20 warm-up (fresh calls: median of up to 20). replay = "
               "PreparedCall::run; per dispatch = replay / dispatches; device-timed = the same replays "
               "timed by the device (events on cuda, back to back); fresh call = a new PreparedCall: "
               "prepare, then its first run (graph: capture + instantiate + launch); Function::call = "
               "buffers, upload, recording, run, read back (what tessel-run does per call), and its "
               "recording + running part.", "",
               "| mode | replay / call | per dispatch | device-timed / call | fresh: prepare | "
               "fresh: first run | first run - replay | Function::call | its recording + running |",
               "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for h in host["host_overhead"]:
            md.append("| " + " | ".join([
                h["mode"], fmt_time(h["replay"]["median_us"]), f"{h['per_dispatch_us']:.2f} us",
                fmt_time(h["device_timed"]["median_us"]), fmt_time(h["fresh_prepare"]["median_us"]),
                fmt_time(h["fresh_first_run"]["median_us"]),
                fmt_time(h["fresh_first_run"]["median_us"] - h["replay"]["median_us"]),
                fmt_time(h["call"]["median_us"]), fmt_time(h["call_dispatch"]["median_us"])]) + " |")
        md.append("")
    elif host_note:
        md += [f"Host overhead: ERROR {host_note}", ""]
    text = "\n".join(md) + "\n"
    open(os.path.join(args.out, "overheads.md"), "w").write(text)
    json.dump(dict(device=device, compile=ct, modules=rows, host_overhead=host),
              open(os.path.join(args.out, "overheads.json"), "w"), indent=1)
    say("\n" + text)
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--dir", default=here)
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--scratch", default="/tmp/tessel-bench-inputs")
    ap.add_argument("--only", default="")
    ap.add_argument("--runs", type=int, default=None,
                    help="timed runs per case (default 100 on cuda, 5 on cpu; some cases set their own)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--device", default="cuda",
                    help="cpu: smoke test of the driver without a GPU (numpy references only)")
    ap.add_argument("--overheads-only", action="store_true",
                    help="only the Overheads table (compile, module load, host cost per dispatch)")
    ap.add_argument("--no-overheads", action="store_true", help="skip the Overheads table")
    ap.add_argument("--overhead-runs", type=int, default=200,
                    help="calls per mode timed by tessel-bench --host-overhead")
    args = ap.parse_args()
    if args.overheads_only and args.no_overheads:
        ap.error("--overheads-only and --no-overheads exclude each other")
    d = os.path.abspath(args.dir)
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.scratch, exist_ok=True)
    tb = os.path.join(d, "bin", "tessel-bench")
    cpu = args.device == "cpu"
    log = open(os.path.join(args.out, "bench.log"), "w")

    def say(*a):
        s = " ".join(str(x) for x in a)
        print(s, flush=True)
        log.write(s + "\n")
        log.flush()

    only = [s for s in args.only.split(",") if s]
    if args.overheads_only:
        return overheads(args, d, tb, only, {}, say)
    ref_bin = None if cpu else ensure_ref_binary(d)

    if cpu:
        copy = dict(device="cpu (smoke test)", l2_bytes=0, bytes=1 << 28, median_us=1e9)
    else:
        copy = json.loads(run([ref_bin, "copy", str(1 << 30), "50"], 120)[0])
    copy_gbps = 2 * copy["bytes"] / (copy["median_us"] * 1e3)
    device = copy["device"]
    say(f"bench: {device}, L2 {copy['l2_bytes'] / MiB:.0f} MiB; reference copy 1 GiB: "
        f"{copy['median_us']:.1f} us = {copy_gbps:.0f} GB/s (read + write)")

    rows = []
    tessel_copy = None
    # The full sum is slow in Tessel today (one warp): run it last.
    ordered = [c for c in CASES if c["module"] != "sum_f32"] + [c for c in CASES if c["module"] == "sum_f32"]
    for i, c in enumerate(ordered):
        if only and not any(o in c["module"] for o in only):
            continue
        row = dict(case=c["name"], module=c["module"], tessel_us=None, ref_us=None, ref_kind="",
                   ratio=None, gbps=None, tflops=None, pct_copy=None, err=None, tol=c["tol"],
                   check="", target=c.get("target"), per_dispatch=[], note="")
        rows.append(row)
        t0 = time.time()
        try:
            rng = np.random.default_rng(args.seed + i)
            ins = c["inputs"](rng)
            paths = []
            for j, a in enumerate(ins):
                p = os.path.join(args.scratch, f"{c['module']}_in{j}.npy")
                np.save(p, a)
                paths.append(p)
            out_t = os.path.join(args.scratch, f"{c['module']}_tessel.npy")
            js = os.path.join(args.scratch, f"{c['module']}_tessel.json")
            runs = c.get("runs", args.runs or 100)
            if cpu:  # checks the driver, not speed (chain f16 takes 1.2 s a run on 2 cores)
                runs = min(runs, args.runs or 5)
            cmd = [tb, os.path.join(d, "modules", c["module"] + ".tmod"), f"--function={c['fn']}",
                   f"--device={args.device}", f"--runs={runs}", f"--warmup={c.get('warmup', 5)}",
                   f"--output=@{out_t}", f"--json={js}"] + [f"--input=@{p}" for p in paths]
            if "flops" in c:
                cmd.append(f"--flops={c['flops']:.0f}")
            if not c.get("per_dispatch", True):
                cmd.append("--no-per-dispatch")
            out, secs = run(cmd, c.get("timeout", 150))
            tj = json.load(open(js))
            row.update(tessel_us=tj["median_us"], gbps=tj["gbps"], pct_copy=tj["pct_copy"],
                       tflops=tj["tflops"] if tj["tflops"] > 0 else None,
                       per_dispatch=[p["median_us"] for p in tj["per_dispatch"]],
                       tessel_spread=f"{tj['p10_us']:.1f}-{tj['p90_us']:.1f}", rotate=tj["rotate"],
                       startup=tj.get("startup"))
            if tessel_copy is None:
                tessel_copy = tj
            tout = np.load(out_t)
            kind = c["ref"][0]
            if cpu and kind != "numpy":
                ref = f64(ins[0]).sum() if kind == "cub" else val64(ins[0]) @ weights(c, ins)
                row["ref_kind"], row["ref_us"] = "numpy (cpu smoke test)", tj["median_us"]
            elif kind == "numpy":
                ref = c["ref"][1](*ins)
                row["ref_kind"] = "copy floor"
                row["ref_us"] = tj["bytes"] / (copy_gbps * 1e3)
            elif kind == "cub":
                rp = os.path.join(args.scratch, f"{c['module']}_ref.npy")
                rout, _ = run([ref_bin, "sum", paths[0], rp, str(max(runs, 20))], 240)
                rj = json.loads(rout)
                ref = np.load(rp)
                row["ref_kind"] = "CUB"
                row["ref_us"] = rj["median_us"]
                e64, _ = rel_err(tout, f64(ins[0]).sum())
                ecub, _ = rel_err(ref, f64(ins[0]).sum())
                row["note"] = f"vs float64: Tessel {e64:.1e}, CUB {ecub:.1e}"
            else:
                rp = os.path.join(args.scratch, f"{c['module']}_ref.npy")
                io = sum(a.nbytes for a in ins) + tout.nbytes
                if c.get("gemm_view"):  # the reference multiplies 2-D views
                    gpaths = []
                    for j, a in enumerate(gemm_view(c, ins)):
                        gp = os.path.join(args.scratch, f"{c['module']}_gemm{j}.npy")
                        np.save(gp, a)
                        gpaths.append(gp)
                    tout = tout.reshape(-1, tout.shape[-1])
                else:
                    gpaths = paths
                rout, _ = run([ref_bin, "gemm", gpaths[0], gpaths[1], rp, str(max(runs, 50)),
                               str(rotate_for(io))] + (["nt"] if c.get("transb") else [])
                              + (["tf32"] if c.get("tf32") else []), 240)
                rj = json.loads(rout)
                ref = np.load(rp)
                row["ref_kind"] = "cuBLAS" + (" TF32" if c.get("tf32") else "")
                row["ref_us"] = rj["median_us"]
                row["ref_tflops"] = c["flops"] / (rj["median_us"] * 1e6)
                # Both against float64 on the first 64 rows.
                # Batched: the first 4 matrices.
                a0 = gemm_view(c, ins)[0]
                head = 4 if a0.ndim == 3 else 64
                w = weights(c, ins)
                r64 = val64(a0[:head]) @ (w[:head] if a0.ndim == 3 else w)
                et, _ = rel_err(tout[:head], r64)
                ec, _ = rel_err(ref[:head], r64)
                what = "4 matrices" if a0.ndim == 3 else "64 rows"
                row["note"] = f"vs float64 ({what}): Tessel {et:.1e}, cuBLAS {ec:.1e}"
            row["ratio"] = row["ref_us"] / row["tessel_us"]
            err, why = rel_err(tout, ref)
            row["err"] = err
            row["check"] = ("ok" if err <= c["tol"] else "FAIL") + f" ({err:.1e}{', ' + why if why else ''})"
        except Exception as e:  # keep going: one broken case must not hide the others
            row["check"] = "ERROR"
            row["note"] = str(e)[-400:]
        for p in os.listdir(args.scratch):
            if p.startswith(c["module"] + "_"):
                os.remove(os.path.join(args.scratch, p))
        say(f"bench: {c['name']}: tessel {fmt_time(row['tessel_us'])}, {row['ref_kind'] or 'ref'} "
            f"{fmt_time(row['ref_us'])}, check {row['check']} {row['note']} ({time.time() - t0:.0f} s)")

    # Copy row: Tessel's HAL copy (cuMemcpyDtoDAsync via a command buffer, same tool) vs cudaMemcpyAsync.
    copy_row = dict(case="copy D2D 1 GiB (ceiling)", tessel_us=tessel_copy and tessel_copy["copy_median_us"],
                    ref_us=copy["median_us"], ref_kind="cudaMemcpy", gbps=tessel_copy and tessel_copy["copy_gbps"],
                    tflops=None, pct_copy=100.0 if tessel_copy else None, check="-", target=None,
                    per_dispatch=[],
                    note=(f"Tessel: HAL copy on a stream; in a CUDA graph {tessel_copy['copy_own_gbps']:.0f} GB/s"
                          if tessel_copy and "copy_own_gbps" in tessel_copy else ""))
    copy_row["ratio"] = copy_row["ref_us"] / copy_row["tessel_us"] if tessel_copy else None
    rows.insert(0, copy_row)

    def target_status(r):
        t = r.get("target")
        if not t or r["tessel_us"] is None or r.get("ratio") is None:
            return "-"
        if t == "ew":
            return ("met" if r["pct_copy"] >= 90 else "missed") + " (>=90% copy)"
        if t == "mem":
            return ("met" if r["pct_copy"] >= 80 else "missed") + " (>=80% copy)"
        if t == "reduce":
            return ("met" if r["ratio"] >= 0.9 else "missed") + " (>=90% CUB)"
        if t == "gemm":
            return ("met" if r["ratio"] >= 0.7 else "missed") + " (>=70% cuBLAS)"
        if t == "gemm90":
            return ("met" if r["ratio"] >= 0.9 else "missed") + " (>=90% cuBLAS)"
        if t == "gemm60":
            return ("met" if r["ratio"] >= 0.6 else "missed") + " (>=60% cuBLAS)"
        if t == "gemm80":
            return ("met" if r["ratio"] >= 0.8 else "missed") + " (>=80% cuBLAS)"
        if t == "bmm":
            return ("met" if r["ratio"] >= 0.8 else "missed") + " (>=80% cuBLAS)"
        if t == "faster":
            return ("met" if r["ratio"] > 1.0 else "missed") + " (faster than cuBLAS)"
        return "-"

    hdr = ["case", "Tessel", "Tessel p10-p90", "reference", "ref/Tessel", "Tessel GB/s", "Tessel TFLOP/s",
           "% copy BW", "check (rel. L2 err)", "target", "per dispatch (us)"]
    lines = ["| " + " | ".join(hdr) + " |", "| " + " | ".join(["---"] + ["---:"] * 7 + ["---"] * 3) + " |"]
    csv = [",".join(["case", "tessel_us", "ref_kind", "ref_us", "ratio_ref_over_tessel", "tessel_gbps",
                     "tessel_tflops", "pct_copy_bw", "rel_err", "tolerance", "check", "target",
                     "per_dispatch_us", "note"])]
    for r in rows:
        ts = target_status(r)
        pd = " / ".join(f"{x:.1f}" for x in r["per_dispatch"]) if r["per_dispatch"] else "-"
        ref = f"{fmt_time(r['ref_us'])} {r['ref_kind']}" if r["ref_us"] is not None else "-"
        lines.append("| " + " | ".join([
            r["case"], fmt_time(r["tessel_us"]), r.get("tessel_spread") or "-", ref,
            "-" if r.get("ratio") is None else f"{r['ratio']:.2f}",
            "-" if r.get("gbps") is None else f"{r['gbps']:.0f}",
            "-" if r.get("tflops") is None else f"{r['tflops']:.2f}",
            "-" if r.get("pct_copy") is None or r.get("tflops") else f"{r['pct_copy']:.0f}%",
            r["check"] + (f"; {r['note']}" if r.get("note") else ""), ts, pd]) + " |")
        csv.append(",".join(str(x).replace(",", ";") for x in [
            r["case"], r["tessel_us"], r["ref_kind"], r["ref_us"], r.get("ratio"), r.get("gbps"),
            r.get("tflops"), r.get("pct_copy"), r.get("err"), r.get("tol"), r["check"], ts, pd,
            r.get("note", "")]))
    head = (f"Device: {device}; copy ceiling (bench-ref, 1 GiB D2D, read + write): {copy_gbps:.0f} GB/s"
            + (f"; Tessel's own copy measurement: {tessel_copy['copy_gbps']:.0f} GB/s" if tessel_copy else ""))
    md = head + "\n\n" + "\n".join(lines) + "\n"
    open(os.path.join(args.out, "results.md"), "w").write(md)
    open(os.path.join(args.out, "results.csv"), "w").write("\n".join(csv) + "\n")
    json.dump(dict(device=device, copy=copy, rows=rows), open(os.path.join(args.out, "results.json"), "w"),
              indent=1, default=str)
    say("\n" + md)
    ok = all(not r["check"].startswith(("FAIL", "ERROR")) for r in rows)
    if not args.no_overheads:
        startups = {r["module"]: r["startup"] for r in rows if r.get("startup")}
        ok = overheads(args, d, tb, only, startups, say) == 0 and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
