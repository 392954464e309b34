#!/usr/bin/env python3
"""Primitives benchmark (issue 11), on the GPU machine, one command:

    python3 .carry/prim/primitives.py --out=$OUT [--only=a,b]

Tessel (tessel-bench: CUDA events, 25 ms warm-up, median) against the
reference measured in the same run: CUB (primitives-ref, same timing rule),
PyTorch (CUDA events, 25 ms warm-up, median of 20), copy bandwidth
(cudaMemcpy device to device) or numpy.cumsum (CPU case). Inputs are drawn
here with numpy (fixed seed); every Tessel output is checked against numpy
before its time counts. Prints a table and writes primitives.md/.json.
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
N28, N26, N24 = 1 << 28, 1 << 26, 1 << 24


def run(cmd, timeout):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if p.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr[-800:]}")
    return p.stdout


def torch_time(fn, runs=20):
    import torch
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    warm = 0.0
    while warm < 25.0:
        start.record(); fn(); end.record(); end.synchronize()
        warm += start.elapsed_time(end)
    t = []
    for _ in range(runs):
        start.record(); fn(); end.record(); end.synchronize()
        t.append(start.elapsed_time(end) * 1000.0)
    return float(np.median(t))


# --- inputs and checks (numpy) ----------------------------------------------

def small_ints_f32(rng, n):
    # -1, 0, 1: partial sums stay far below 2^24, so every order is exact.
    return rng.integers(-1, 2, n).astype(np.float32)


def check_incl(ins, outs):
    return np.array_equal(outs[0], np.cumsum(ins[0], dtype=np.float64).astype(np.float32))


def check_excl(ins, outs):
    inc = np.cumsum(ins[0], dtype=np.int64)
    exp = np.concatenate([[0], inc[:-1]]).astype(np.int32)
    return np.array_equal(outs[0], exp)


def check_rows(ins, outs):
    exp = np.cumsum(ins[0][:64], axis=1, dtype=np.float64)  # 64 rows suffice
    return np.allclose(outs[0][:64], exp, rtol=1e-4, atol=1e-3)


def check_compact(ins, outs):
    x = ins[0]
    sel = x[x > 0]
    return int(outs[1]) == sel.size and np.array_equal(outs[0][:sel.size], sel)


def check_sort(ins, outs):
    k = ins[0].view(np.uint32)
    order = np.argsort(k, kind="stable")
    ok = np.array_equal(outs[0].view(np.uint32), k[order])
    if len(ins) > 1:
        ok = ok and np.array_equal(outs[1], ins[1][order])
    return ok


def check_gather(ins, outs):
    return np.array_equal(outs[0].view(np.uint16), ins[0][ins[1]].view(np.uint16))


def scatter_inputs(rng):
    idx = rng.permutation(N24).astype(np.int32)
    dup = rng.choice(N24, N24 // 10, replace=False)  # 10% duplicates
    idx[dup] = idx[rng.integers(0, N24, dup.size)]
    return [rng.standard_normal(N24).astype(np.float32), idx,
            rng.standard_normal(N24).astype(np.float32)]


def check_scatter(ins, outs):
    dst, idx, src = ins
    exp = dst.astype(np.float64)
    np.add.at(exp, idx, src.astype(np.float64))
    return np.allclose(outs[0], exp, rtol=1e-5, atol=1e-5)


def check_topk(ins, outs):
    x = ins[0][:256]  # 256 rows suffice
    exp = -np.sort(-x, axis=1)[:, :8]
    vals_ok = np.array_equal(outs[0][:256], exp)
    idx_ok = np.array_equal(np.take_along_axis(x, outs[1][:256].astype(np.int64), 1), exp)
    return vals_ok and idx_ok


def gather_inputs(rng):
    table = np.empty((1 << 20, 768), np.float16)
    for i in range(0, 1 << 20, 1 << 16):
        table[i:i + (1 << 16)] = rng.standard_normal((1 << 16, 768), dtype=np.float32)
    return [table, rng.integers(0, 1 << 20, 32768, dtype=np.int32)]


# --- references ---------------------------------------------------------------

def cub(mode, n):
    def ref(d, ins):
        out = run([os.path.join(d, "bin", "primitives-ref"), mode, str(n), "20"], 600)
        j = json.loads(out.strip().splitlines()[-1])
        if not j["ok"]:
            raise RuntimeError(f"CUB {mode} gave a wrong result")
        return "CUB " + mode, j["median_us"]
    return ref


def copy_floor(nbytes):
    def ref(d, ins):
        out = run([os.path.join(d, "bin", "primitives-ref"), "copy", str(nbytes // 2), "50"], 300)
        return "copy (same bytes)", json.loads(out.strip().splitlines()[-1])["median_us"]
    return ref


def torch_ref(name):
    def ref(d, ins):
        import torch
        dev = torch.device("cuda")
        t = [torch.from_numpy(a).to(dev) for a in ins]
        if name == "cumsum":
            fn = lambda: torch.cumsum(t[0], dim=1)
        elif name == "index_add":
            idx64 = t[1].long()
            base = t[0]
            fn = lambda: base.clone().index_add_(0, idx64, t[2])
            # The clone is part of an out-of-place index_add; time it apart.
            clone_us = torch_time(lambda: base.clone())
            return "torch index_add_ (minus its clone)", torch_time(fn) - clone_us
        elif name == "topk":
            fn = lambda: torch.topk(t[0], 8, dim=1)
        elif name == "embedding":
            idx64 = t[1].long()
            fn = lambda: torch.index_select(t[0], 0, idx64)
        return "torch " + name, torch_time(fn)
    return ref


def numpy_cumsum(d, ins):
    x = ins[0]
    np.cumsum(x)
    t = []
    for _ in range(5):
        s = time.perf_counter()
        np.cumsum(x)
        t.append((time.perf_counter() - s) * 1e6)
    return "numpy.cumsum (1 core)", float(np.median(t))


# name, function, inputs, check, references (first = target), target ratio,
# tessel-bench runs, device
CASES = [
    ("scan_incl_f32_2e28", "scan", lambda r: [small_ints_f32(r, N28)], check_incl,
     [cub("scan_f32", N28)], 1.0, 20, "cuda"),
    ("scan_excl_i32_2e28", "scan", lambda r: [r.integers(-1000, 1000, N28, dtype=np.int32)],
     check_excl, [cub("scan_i32_excl", N28)], 1.0, 20, "cuda"),
    ("cumsum_rows_8192", "cumsum", lambda r: [r.standard_normal((8192, 8192), dtype=np.float32)],
     check_rows, [copy_floor(2 * 8192 * 8192 * 4), torch_ref("cumsum")], 0.9, 20, "cuda"),
    ("compact_f32_2e28", "compact", lambda r: [r.standard_normal(N28, dtype=np.float32)],
     check_compact, [cub("select", N28)], 0.9, 10, "cuda"),
    ("compact_empty_f32_2e28", "compact", lambda r: [r.standard_normal(N28, dtype=np.float32)],
     check_compact, [cub("select", N28)], 0.9, 10, "cuda"),
    ("sort_u32_2e26", "sort", lambda r: [r.integers(0, 1 << 32, N26, dtype=np.uint64).astype(np.uint32).view(np.int32)],
     check_sort, [cub("sort_keys", N26)], 0.6, 20, "cuda"),
    ("sort_kv_u32_2e26", "sort", lambda r: [r.integers(0, 1 << 32, N26, dtype=np.uint64).astype(np.uint32).view(np.int32),
                                            np.arange(N26, dtype=np.int32)],
     check_sort, [cub("sort_pairs", N26)], 0.6, 20, "cuda"),
    ("gather_f16_32768x768", "gather", gather_inputs, check_gather,
     [copy_floor(2 * 32768 * 768 * 2), torch_ref("embedding")], 0.85, 50, "cuda"),
    ("scatter_add_f32_2e24", "index_add", scatter_inputs, check_scatter,
     [torch_ref("index_add")], 1.0, 20, "cuda"),
    ("topk_4096x32000", "topk", lambda r: [r.standard_normal((4096, 32000), dtype=np.float32)],
     check_topk, [torch_ref("topk")], 1.0, 5, "cuda"),
    ("scan_incl_f32_2e26_cpu", "scan", lambda r: [small_ints_f32(r, N26)], check_incl,
     [numpy_cumsum], 3.0, 10, "cpu"),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default=HERE)
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--scratch", default="/tmp/tessel-prim")
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.scratch, exist_ok=True)
    only = set(filter(None, args.only.split(",")))
    rows = []
    for name, fn, make, check, refs, target, runs, device in CASES:
        if only and name not in only:
            continue
        row = dict(case=name, target=target)
        try:
            rng = np.random.default_rng(2026)
            ins = make(rng)
            paths = []
            for i, a in enumerate(ins):
                p = os.path.join(args.scratch, f"{name}_in{i}.npy")
                np.save(p, a)
                paths.append(p)
            js = os.path.join(args.scratch, f"{name}.json")
            cmd = [os.path.join(args.dir, "bin", "tessel-bench"),
                   os.path.join(args.dir, "modules", name + ".tmod"), f"--function={fn}",
                   f"--device={device}", f"--runs={runs}", f"--json={js}",
                   # Dispatches re-run alone would find their workspace
                   # (zeroed by the dispatch before) stale.
                   "--no-per-dispatch"]
            cmd += [f"--input=@{p}" for p in paths]
            nout = 2 if name.startswith(("compact", "topk", "sort_kv")) else 1
            outs_p = [os.path.join(args.scratch, f"{name}_out{i}.npy") for i in range(nout)]
            cmd += [f"--output=@{p}" for p in outs_p]
            if runs <= 3:
                cmd += ["--warmup=1", "--warmup-ms=0"]
            t0 = time.time()
            run(cmd, 900)
            tj = json.load(open(js))
            row["tessel_us"] = tj["median_us"]
            row["correct"] = bool(check(ins, [np.load(p) for p in outs_p]))
            row["refs"] = []
            for ref in refs:
                kind, us = ref(args.dir, ins)
                row["refs"].append(dict(kind=kind, us=us))
            row["ratio"] = row["refs"][0]["us"] / row["tessel_us"]
            row["met"] = row["correct"] and row["ratio"] >= target
            row["seconds"] = round(time.time() - t0, 1)
        except Exception as e:  # noqa: BLE001 - report and go on
            row["error"] = str(e)[-600:]
        rows.append(row)
        print(json.dumps(row), flush=True)
    lines = ["| case | Tessel | reference | ratio (ref time / Tessel time) | target | correct | met |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['case']} | error: {r['error'][:120]} | | | | | |")
            continue
        refs = "; ".join(f"{x['kind']} {x['us']:.1f} us" for x in r["refs"])
        lines.append(f"| {r['case']} | {r['tessel_us']:.1f} us | {refs} | {r['ratio']:.3f} | "
                     f">= {r['target']} | {r['correct']} | {'yes' if r['met'] else 'no'} |")
    table = "\n".join(lines)
    print(table)
    open(os.path.join(args.out, "primitives.md"), "w").write(table + "\n")
    json.dump(rows, open(os.path.join(args.out, "primitives.json"), "w"), indent=1)


if __name__ == "__main__":
    sys.exit(main())
