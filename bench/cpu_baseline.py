#!/usr/bin/env python3
"""CPU baseline: Tessel against numpy (OpenBLAS) on the same inputs.

Compiles bench/programs/*.mlir, runs each with `tessel-run --benchmark`,
checks Tessel's output against numpy (float64 reference, stated tolerance),
and times numpy on the same inputs (median of N after warm-up). Prints a
markdown table; Tessel's time is the dispatch-only median that tessel-run
reports (inputs already in device buffers), numpy's is the call itself.

usage: bench/cpu_baseline.py [--build=build] [--runs=N]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def chain(x, z):
    return np.tanh(x * np.float32(0.5) + z) * np.exp(-np.abs(x)) + np.sqrt(z * z + np.float32(1))


def cases(rng):
    n = 1024
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    yield ("matmul 1024x1024x1024 f32", "matmul_1024", "matmul", [a, b],
           lambda a, b: a @ b, lambda a, b: a.astype(np.float64) @ b, 2.0 * n ** 3, 1e-4)
    m = 1 << 24
    x = rng.standard_normal(m, dtype=np.float32)
    z = rng.standard_normal(m, dtype=np.float32)
    yield ("elementwise chain 2^24 f32", "elementwise_16m", "chain", [x, z],
           chain, lambda x, z: chain(x.astype(np.float64), z.astype(np.float64)), None, 1e-5)
    s = rng.standard_normal((4096, 4096), dtype=np.float32)
    yield ("row softmax 4096x4096 f32", "softmax_4096", "softmax", [s],
           softmax, lambda s: softmax(s.astype(np.float64)), None, 1e-5)


def median_time(fn, args, runs):
    fn(*args)
    fn(*args)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t)
    return float(np.median(times)) * 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    compiler = os.path.join(args.build, "compiler/tools/tessel-compile")
    runner = os.path.join(args.build, "runtime/tessel-run")
    rng = np.random.default_rng(7)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for title, prog, fn, inputs, np_fn, ref_fn, flops, tol in cases(rng):
            tmod = os.path.join(tmp, prog + ".tmod")
            subprocess.run([compiler, os.path.join(HERE, "programs", prog + ".mlir"),
                            "--target=cpu", "-o", tmod], check=True)
            cmd = [runner, tmod, "--function=" + fn, "--benchmark=%d" % args.runs]
            for i, x in enumerate(inputs):
                path = os.path.join(tmp, "in%d.npy" % i)
                np.save(path, x)
                cmd.append("--input=@" + path)
            out = os.path.join(tmp, "out.npy")
            cmd.append("--output=@" + out)
            res = subprocess.run(cmd, capture_output=True, text=True, check=True)
            m = re.search(r"dispatch only: median ([0-9.]+) ms", res.stdout + res.stderr)
            tessel_ms = float(m.group(1))
            got = np.load(out).astype(np.float64)
            exp = ref_fn(*inputs)
            err = float(np.max(np.abs(got - exp) / (1 + np.abs(exp))))
            ok = "ok" if err <= tol else "WRONG (err %.2e > %.0e)" % (err, tol)
            numpy_ms = median_time(np_fn, inputs, args.runs)
            gf = lambda ms: "%.1f" % (flops / ms / 1e6) if flops else "-"
            rows.append((title, tessel_ms, numpy_ms, gf(tessel_ms), gf(numpy_ms), ok))
    threads = os.environ.get("TESSEL_CPU_THREADS", str(os.cpu_count()))
    print("| case | Tessel ms | numpy ms | numpy/Tessel (>1: Tessel faster) | Tessel GFLOP/s | numpy GFLOP/s | check |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for t, tm, nm, gt, gn, ok in rows:
        print("| %s | %.2f | %.2f | %.2f | %s | %s | %s |" % (t, tm, nm, nm / tm, gt, gn, ok))
    print("\n(median of %d runs after 2 warm-ups; %s CPU threads for Tessel; numpy %s)"
          % (args.runs, threads, np.__version__))


if __name__ == "__main__":
    sys.exit(main())
