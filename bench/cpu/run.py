#!/usr/bin/env python3
"""CPU benchmark suite (issue 15), run on the GPU machine's host CPU.

Tessel (`tessel-bench --device=cpu`, one module per CPU variant), numpy and
PyTorch CPU on the same inputs in one process; every Tessel output is checked
against a float64 reference (norm-wise relative error). Then the thread
sweep: matmul 2048^3 at 1, 2, 4, 8, 16 threads for Tessel
(TESSEL_CPU_THREADS) and torch (torch.set_num_threads).

Times: Tessel's is the median of tessel-bench's timed runs (host clock around
each run, inputs in buffers); numpy's and torch's the median of the call
after warm-up. Ratios are reference time / Tessel time (> 1: Tessel faster).

With --experiment (or --experiment-only), then issue 15's 16-thread
experiments on matmul 2048^3 and 4096^3 (pack_experiment below): every
module variant of the case in alternating rounds, a `diag-pack1` module
(SWEEP="diag-pack1=--cpu=x86-64-v4
--tessel-cpu-diagnostic-pack-first-k-block-only") giving the time
without re-packing, and 16 single-thread processes at once.

usage: python3 .carry/cpubench/run.py --out=DIR [--only=a,b] [--runs=N]
       [--threads=1,2,4,8,16] [--no-sweep] [--variants=v3,v4]
       [--experiment | --experiment-only] [--experiment-threads=1,16]
"""
import argparse
import glob
import json
import os
import platform
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def f64(a):
    return np.asarray(a, dtype=np.float64)


def softmax_np(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def chain_np(x, z):
    return np.tanh(x * x.dtype.type(0.5) + z) * np.exp(-np.abs(x)) + np.sqrt(z * z + x.dtype.type(1))


def layernorm_np(x, g, b):
    m = x.mean(axis=1, keepdims=True)
    v = ((x - m) ** 2).mean(axis=1, keepdims=True)
    return (x - m) / np.sqrt(v + x.dtype.type(1e-5)) * g + b


def conv_torch(torch, x, w):
    # x NHWC, w HWCF -> NHWC; torch on channels-last tensors (oneDNN).
    xt = torch.from_numpy(x).permute(0, 3, 1, 2)
    wt = torch.from_numpy(w).permute(3, 2, 0, 1).contiguous(memory_format=torch.channels_last)
    return lambda: torch.nn.functional.conv2d(xt, wt, padding=1)


def conv_ref(x, w):
    # float64, padding 1, stride 1: the sum over the 9 taps of shifted GEMMs.
    n, h, wd, c = x.shape
    xp = np.zeros((n, h + 2, wd + 2, c))
    xp[:, 1:-1, 1:-1] = x
    out = np.zeros((n, h, wd, w.shape[3]))
    for i in range(3):
        for j in range(3):
            out += xp[:, i:i + h, j:j + wd] @ f64(w[i, j])
    return out


def gelu_np(y):
    return 0.5 * y * (1 + np.tanh(0.7978845608 * (y + 0.044715 * y ** 3)))


def normal(rng, shape):
    return rng.standard_normal(shape, dtype=np.float32)


def cases(torch):
    T = torch.from_numpy if torch else None
    for m, n, k, mod in [(2048, 2048, 2048, "matmul_2048"), (4096, 4096, 4096, "matmul_4096"),
                         (4096, 3072, 768, "matmul_4096x3072x768")]:
        yield dict(name=f"matmul {m}x{n}x{k} f32", module=mod, fn="matmul", flops=2.0 * m * n * k,
                   inputs=lambda r, m=m, n=n, k=k: [normal(r, (m, k)), normal(r, (k, n))],
                   np=lambda a, b: (lambda: a @ b), torch=lambda a, b: (lambda: T(a) @ T(b)),
                   ref=lambda a, b: f64(a) @ f64(b), tol=1e-5, group="matmul")
    yield dict(name="ffn gelu(x@W+b) 4096x3072x768 f32", module="ffn_gelu_4096x3072x768", fn="ffn",
               flops=2.0 * 4096 * 3072 * 768,
               inputs=lambda r: [normal(r, (4096, 768)), normal(r, (768, 3072)) * np.float32(0.05),
                                 normal(r, (3072,))],
               np=lambda x, w, b: (lambda: gelu_np(x @ w + b)),
               torch=lambda x, w, b: (lambda: torch.nn.functional.gelu(T(x) @ T(w) + T(b),
                                                                       approximate="tanh")),
               ref=lambda x, w, b: gelu_np(f64(x) @ f64(w) + f64(b)), tol=1e-5, group="matmul")
    yield dict(name="batch_matmul 384x(128x128x64) f32", module="bmm_384x128x128x64", fn="bmm",
               flops=2.0 * 384 * 128 * 128 * 64,
               inputs=lambda r: [normal(r, (384, 128, 64)), normal(r, (384, 64, 128))],
               np=lambda a, b: (lambda: a @ b), torch=lambda a, b: (lambda: torch.bmm(T(a), T(b))),
               ref=lambda a, b: f64(a) @ f64(b), tol=1e-5, group="matmul")
    for hw, c in [(56, 64), (28, 128), (14, 256)]:
        yield dict(name=f"conv2d 3x3 NHWC b8 {hw}x{hw}x{c} f32", module=f"conv3x3_b8_{hw}x{hw}x{c}", fn="conv",
                   flops=2.0 * 8 * hw * hw * c * c * 9,
                   inputs=lambda r, hw=hw, c=c: [normal(r, (8, hw, hw, c)), normal(r, (3, 3, c, c)) * np.float32(0.05)],
                   np=None, torch=lambda x, w: conv_torch(torch, x, w),
                   ref=conv_ref, tol=1e-5, group="conv")
    yield dict(name="softmax 4096x4096 f32", module="softmax_4096", fn="softmax",
               inputs=lambda r: [normal(r, (4096, 4096))],
               np=lambda x: (lambda: softmax_np(x)), torch=lambda x: (lambda: torch.softmax(T(x), dim=1)),
               ref=lambda x: softmax_np(f64(x)), tol=1e-5, group="mem")
    yield dict(name="layernorm 8192x1024 f32", module="layernorm_8192x1024", fn="layernorm",
               inputs=lambda r: [normal(r, (8192, 1024)), normal(r, (1024,)), normal(r, (1024,))],
               np=lambda x, g, b: (lambda: layernorm_np(x, g, b)),
               torch=lambda x, g, b: (lambda: torch.nn.functional.layer_norm(T(x), (1024,), T(g), T(b), 1e-5)),
               ref=lambda x, g, b: layernorm_np(f64(x), f64(g), f64(b)), tol=1e-5, group="mem")
    yield dict(name="elementwise chain 2^24 f32", module="chain_16m", fn="chain",
               inputs=lambda r: [normal(r, (1 << 24,)), normal(r, (1 << 24,))],
               np=lambda x, z: (lambda: chain_np(x, z)),
               torch=lambda x, z: (lambda: torch.tanh(T(x) * 0.5 + T(z)) * torch.exp(-torch.abs(T(x)))
                                   + torch.sqrt(T(z) * T(z) + 1)),
               ref=lambda x, z: chain_np(f64(x), f64(z)), tol=1e-5, group="mem")


def median_ms(fn, runs, warmup=3):
    for _ in range(warmup):
        fn()
    ts = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return float(np.median(ts)) * 1e3


def rel_err(out, ref):
    out = f64(out)
    ref = f64(ref)
    if out.shape != ref.shape:
        return float("inf")
    if np.isnan(out).any():
        return float("inf")
    den = np.linalg.norm(ref.ravel())
    return float(np.linalg.norm((out - ref).ravel()) / (den if den else 1.0))


def tessel(tb, module, fn, paths, out, runs, threads=None, timeout=300):
    js = out + ".json"
    env = dict(os.environ)
    if threads:
        env["TESSEL_CPU_THREADS"] = str(threads)
    cmd = [tb, module, f"--function={fn}", "--device=cpu", f"--runs={runs}", "--warmup=3",
           f"--output=@{out}", f"--json={js}"] + [f"--input=@{p}" for p in paths]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    if p.returncode != 0:
        raise RuntimeError(f"tessel-bench exited {p.returncode}: {p.stderr.strip()[-400:]}")
    j = json.load(open(js))
    return j["median_us"] / 1e3, j


TORCH_WORKER = """
import sys, time, numpy as np, torch
torch.set_num_threads(1)
a, b = torch.from_numpy(np.load(sys.argv[1])), torch.from_numpy(np.load(sys.argv[2]))
for _ in range(3):
    a @ b
ts = []
for _ in range(int(sys.argv[3])):
    t = time.perf_counter(); a @ b; ts.append(time.perf_counter() - t)
print(float(np.median(ts)) * 1e3)
"""


def concurrent_1thread(tb, mod, paths, scratch, procs, runs):
    """Medians (ms) of `procs` single-thread processes started together, each
    on its own core (taskset): Tessel's module and torch, one after the other."""
    cpus = sorted(os.sched_getaffinity(0))[:procs]
    out = {}
    for impl in ("tessel", "torch"):
        ps = []
        for i, cpu in enumerate(cpus):
            env = dict(os.environ, TESSEL_CPU_THREADS="1")
            if impl == "tessel":
                js = os.path.join(scratch, f"conc_{i}.json")
                cmd = ["taskset", "-c", str(cpu), tb, mod, "--function=matmul", "--device=cpu",
                       f"--runs={runs}", "--warmup=3", f"--json={js}"] + [f"--input=@{p}" for p in paths]
            else:
                js = None
                cmd = ["taskset", "-c", str(cpu), sys.executable, "-c", TORCH_WORKER, paths[0], paths[1], str(runs)]
            ps.append((subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env), js))
        ms = []
        for p, js in ps:
            o, e = p.communicate(timeout=600)
            if p.returncode != 0:
                raise RuntimeError(f"{impl} worker exited {p.returncode}: {e.strip()[-300:]}")
            ms.append(json.load(open(js))["median_us"] / 1e3 if js else float(o.strip().splitlines()[-1]))
        out[impl] = ms
    return out


def pack_experiment(args, tb, torch, say):
    """Issue 15's 16-thread question: how much of a packed matmul's time is
    re-packing A and B, at 1 and at 16 threads, and is one thread's kernel
    still at torch's speed when every core runs one. Each round runs every
    module variant of the case (`diag-pack1` packs in the first K block
    only: timing only, its output is wrong by design and not checked; the
    others are checked), each extra `bin/tessel-bench-LABEL` on the default
    module, and torch, so that host drift hits all of them alike."""
    extra_tb = sorted(glob.glob(os.path.join(args.dir, "bin", "tessel-bench-*")))
    md = []
    for mod_name, n in [("matmul_2048", 2048), ("matmul_4096", 4096)]:
        mods = sorted(glob.glob(os.path.join(args.dir, "modules", f"{mod_name}.*.tmod")))
        mods = [m for m in mods if not os.path.basename(m).split(".")[1].startswith("v3")]
        labels = [os.path.basename(m).split(".")[1] for m in mods]
        if "v4" not in labels:
            say(f"experiment: {mod_name}: no v4 module, skipped")
            continue
        runs_of = [(lab, tb, m) for lab, m in zip(labels, mods)]
        runs_of += [(os.path.basename(t)[len("tessel-bench-"):] + " (v4)", t,
                     mods[labels.index("v4")]) for t in extra_tb]
        cols = [r[0] for r in runs_of] + (["torch"] if torch else [])
        if not md:
            md = ["", "Pack-cost experiment (rounds alternate every column; medians of the rounds' medians, "
                  "ms). `diag-pack1` packs A and B in the first K block only (output wrong by design, not "
                  "checked): v4 - diag-pack1 = the time spent re-packing.", ""]
        md += [f"| matmul {n}^3 f32, threads | " + " | ".join(cols) + " | re-packing share of v4 | torch / v4 |",
               "| --- | " + " | ".join("---" for _ in cols) + " | --- | --- |"]
        rng = np.random.default_rng(args.seed)
        a, b = normal(rng, (n, n)), normal(rng, (n, n))
        paths = [os.path.join(args.scratch, f"pack_{n}_in{j}.npy") for j in range(2)]
        np.save(paths[0], a)
        np.save(paths[1], b)
        ref = f64(a) @ f64(b)
        for threads in [int(x) for x in args.experiment_threads.split(",")]:
            rounds = 3 if (n == 4096 and threads == 1) else args.experiment_rounds
            runs = 2 if (n == 4096 and threads == 1) else 7
            got = {c: [] for c in cols}
            for _ in range(rounds):
                for lab, bench, mod in runs_of:
                    out = os.path.join(args.scratch, f"pack_{n}.{lab.split()[0]}.npy")
                    got[lab].append(tessel(bench, mod, "matmul", paths, out, runs, threads=threads)[0])
                    if not lab.startswith("diag") and rel_err(np.load(out), ref) > 1e-5:
                        raise RuntimeError(f"{mod_name} {lab} at {threads} threads: wrong result")
                if torch:
                    torch.set_num_threads(threads)
                    got["torch"].append(median_ms(lambda: torch.from_numpy(a) @ torch.from_numpy(b), runs, warmup=2))
            m = {c: float(np.median(v)) for c, v in got.items()}
            share = f"{(m['v4'] - m['diag-pack1']) / m['v4']:.0%}" if "diag-pack1" in m else "-"
            md.append(f"| {threads} | " + " | ".join(f"{m[c]:.2f}" for c in cols) + f" | {share} | "
                      + (f"{m['torch'] / m['v4']:.2f}x |" if torch else "- |"))
            say(md[-1])
    if torch and args.concurrent:
        mod = os.path.join(args.dir, "modules", "matmul_2048.v4.tmod")
        paths = [os.path.join(args.scratch, f"pack_2048_in{j}.npy") for j in range(2)]
        if os.path.exists(mod) and os.path.exists(paths[0]):
            md += ["", f"{args.concurrent} single-thread processes at once, one per core (taskset), "
                   "matmul 2048^3 f32, each process's median (ms): min / median / max over processes.", "",
                   "| impl | min | median | max |", "| --- | --- | --- | --- |"]
            res = concurrent_1thread(tb, mod, paths, args.scratch, args.concurrent, 10)
            for impl, ms in res.items():
                md.append(f"| {impl} | {min(ms):.1f} | {float(np.median(ms)):.1f} | {max(ms):.1f} |")
            md.append(f"| torch / Tessel (medians) | | {float(np.median(res['torch'])) / float(np.median(res['tessel'])):.2f}x | |")
            say("\n".join(md[-6:]))
    return md


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=30).stdout
    except Exception as e:  # noqa: BLE001
        return str(e)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default=HERE)
    ap.add_argument("--out", default="/tmp/cpubench-out")
    ap.add_argument("--scratch", default="/tmp/cpubench-inputs")
    ap.add_argument("--only", default="")
    ap.add_argument("--runs", type=int, default=0, help="timed runs (default: by case size)")
    ap.add_argument("--variants", default="", help="comma list, e.g. v3,v4 (default: all present)")
    ap.add_argument("--threads", default="1,2,4,8,16")
    ap.add_argument("--no-sweep", action="store_true")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--experiment", action="store_true",
                    help="after the cases and the sweep, the pack-cost and concurrent single-thread "
                         "experiments (issue 15)")
    ap.add_argument("--experiment-only", action="store_true", help="only the experiments")
    ap.add_argument("--experiment-threads", default="1,16")
    ap.add_argument("--experiment-rounds", type=int, default=5)
    ap.add_argument("--concurrent", type=int, default=16,
                    help="processes of the concurrent single-thread experiment (0: skip)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.scratch, exist_ok=True)
    try:
        import torch
    except ImportError:  # smoke tests on a build machine: Tessel and numpy only
        torch = None

    log = open(os.path.join(args.out, "cpubench.log"), "w")

    def say(*a):
        s = " ".join(str(x) for x in a)
        print(s, flush=True)
        log.write(s + "\n")
        log.flush()

    tb = os.path.join(args.dir, "bin", "tessel-bench")
    commit = open(os.path.join(args.dir, "commit")).read().strip() if os.path.exists(
        os.path.join(args.dir, "commit")) else "?"
    say(f"# CPU bench at {commit}, {time.strftime('%Y-%m-%d %H:%MZ', time.gmtime())}")
    say("```")
    say(sh("lscpu | grep -E 'Model name|^CPU\\(s\\)|Thread|Core|Socket|L1d|L2|L3|NUMA node0|MHz'").rstrip())
    flags = sh("grep -m1 '^flags' /proc/cpuinfo")
    say("avx512:", " ".join(sorted(f for f in flags.split() if "avx512" in f or "amx" in f or "vnni" in f)))
    say(f"python {platform.python_version()}, numpy {np.__version__}, torch {torch.__version__ if torch else 'absent'}, "
        f"torch threads {torch.get_num_threads() if torch else '-'}, os.cpu_count {os.cpu_count()}, "
        f"affinity {len(os.sched_getaffinity(0))}")
    say("```")

    mods = sorted(glob.glob(os.path.join(args.dir, "modules", "*.tmod")))
    # diag-* modules are timing experiments with wrong outputs by design.
    variants = sorted({os.path.basename(m).split(".")[1] for m in mods
                       if not os.path.basename(m).split(".")[1].startswith("diag")})
    if args.experiment_only:
        md = pack_experiment(args, tb, torch, say)
        open(os.path.join(args.out, "results.md"), "w").write("\n".join(md) + "\n")
        return 0
    if args.variants:
        variants = [v for v in variants if v in args.variants.split(",")]
    only = set(filter(None, args.only.split(",")))
    rows = []
    for i, c in enumerate(cases(torch)):
        if only and c["module"] not in only:
            continue
        rng = np.random.default_rng(args.seed + i)
        ins = c["inputs"](rng)
        paths = []
        for j, a in enumerate(ins):
            p = os.path.join(args.scratch, f"{c['module']}_in{j}.npy")
            np.save(p, a)
            paths.append(p)
        ref = c["ref"](*ins)
        row = dict(name=c["name"], group=c["group"], flops=c.get("flops"), tessel={}, err={})
        for v in variants:
            mod = os.path.join(args.dir, "modules", f"{c['module']}.{v}.tmod")
            if not os.path.exists(mod):
                continue
            out = os.path.join(args.scratch, f"{c['module']}.{v}.out.npy")
            try:
                ms, tj = tessel(tb, mod, c["fn"], paths, out, args.runs or 20)
                err = rel_err(np.load(out), ref)
                row["tessel"][v] = ms
                if len(tj.get("per_dispatch", [])) > 1:
                    row.setdefault("dispatch_ms", {})[v] = [round(d["median_us"] / 1e3, 3) for d in tj["per_dispatch"]]
                row["err"][v] = err
                if err > c["tol"]:
                    row.setdefault("fail", []).append(f"{v}: error {err:.1e} > {c['tol']:.0e}")
            except Exception as e:  # noqa: BLE001
                row.setdefault("fail", []).append(f"{v}: {e}")
        runs = args.runs or 20
        row["numpy"] = median_ms(c["np"](*ins), runs) if c["np"] else None
        row["torch"], row["torch_err"] = None, float("nan")
        if torch:
            tf = c["torch"](*ins)
            row["torch"] = median_ms(tf, runs)
            row["torch_err"] = rel_err(np.asarray(tf().permute(0, 2, 3, 1) if c["group"] == "conv" else tf()), ref)
        rows.append(row)
        say(json.dumps(row))

    def fmt(ms):
        return "-" if ms is None else (f"{ms:.2f}" if ms < 100 else f"{ms:.0f}")

    md = [f"Tessel --device=cpu (all threads) vs numpy and torch CPU ({torch.get_num_threads() if torch else '-'} threads), "
          f"ms, median; ratio = torch / best Tessel (> 1: Tessel faster); error = norm-wise vs float64.", "",
          "| case | " + " | ".join(f"Tessel {v}" for v in variants)
          + " | GFLOP/s (best) | numpy | torch | vs torch | error (Tessel / torch) |",
          "| --- | " + " | ".join("---" for _ in variants) + " | --- | --- | --- | --- | --- |"]
    for r in rows:
        best = min(r["tessel"].values()) if r["tessel"] else None
        gf = f"{r['flops'] / best / 1e6:.0f}" if best and r["flops"] else "-"
        ratio = (f"{r['torch'] / best:.2f}x" if r["torch"] else "-") if best else "FAIL"
        errs = "/".join(f"{e:.0e}" for e in r["err"].values())
        md.append(f"| {r['name']} | " + " | ".join(fmt(r["tessel"].get(v)) for v in variants)
                  + f" | {gf} | {fmt(r['numpy'])} | {fmt(r['torch'])} | {ratio} | {errs} / {r['torch_err']:.0e} |")
        for f in r.get("fail", []):
            md.append(f"|  FAILED: {r['name']} {f} |")
    per = [f"- {r['name']}: " + "; ".join(f"{v} " + " + ".join(f"{x:.3f}" for x in ds)
                                         for v, ds in r["dispatch_ms"].items())
           for r in rows if r.get("dispatch_ms")]
    if per:
        md += ["", "Per-dispatch medians (ms) of multi-dispatch cases:", ""] + per
    say("\n".join(md))

    if torch and not args.no_sweep and (not only or "matmul_2048" in only):
        v = "v4" if "v4" in variants else variants[-1]
        mod = os.path.join(args.dir, "modules", f"matmul_2048.{v}.tmod")
        rng = np.random.default_rng(args.seed)
        a, b = normal(rng, (2048, 2048)), normal(rng, (2048, 2048))
        paths = [os.path.join(args.scratch, f"sweep_in{j}.npy") for j in range(2)]
        np.save(paths[0], a)
        np.save(paths[1], b)
        ref = f64(a) @ f64(b)
        nt0 = torch.get_num_threads()
        sweep = ["", f"Thread sweep, matmul 2048^3 f32 (Tessel {v}, TESSEL_CPU_THREADS=n; torch.set_num_threads(n)), ms:", "",
                 "| threads | Tessel | speed-up vs 1 | torch | speed-up vs 1 | vs torch |", "| --- | --- | --- | --- | --- | --- |"]
        t1 = p1 = None
        for n in [int(x) for x in args.threads.split(",")]:
            out = os.path.join(args.scratch, f"sweep_{n}.npy")
            try:
                ms, _ = tessel(tb, mod, "matmul", paths, out, 5 if n < 4 else 10, threads=n)
                bad = rel_err(np.load(out), ref) > 1e-5
            except Exception as e:  # noqa: BLE001
                ms, bad = None, str(e)
            torch.set_num_threads(n)
            pt = median_ms(lambda: torch.from_numpy(a) @ torch.from_numpy(b), 5 if n < 4 else 10, warmup=2)
            t1 = t1 or ms
            p1 = p1 or pt
            sweep.append(f"| {n} | {fmt(ms)}{' WRONG' if bad else ''} | {t1 / ms if ms else 0:.1f}x | {fmt(pt)} | "
                         f"{p1 / pt:.1f}x | {pt / ms if ms else 0:.2f}x |")
        torch.set_num_threads(nt0)
        say("\n".join(sweep))
        md += sweep
    if args.experiment:
        md += pack_experiment(args, tb, torch, say)
    open(os.path.join(args.out, "results.md"), "w").write("\n".join(md) + "\n")
    json.dump(rows, open(os.path.join(args.out, "results.json"), "w"), indent=1)
    return 1 if any(r.get("fail") for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
