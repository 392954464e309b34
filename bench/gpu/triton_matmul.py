#!/usr/bin/env python3
"""Triton's tutorial-style matmul (blocked, grouped launch order, autotuned
over the tutorial's Hopper configurations), timed like Tessel's suite:
CUDA events, warm-up, median of many. Run on the GPU machine, where the
image has PyTorch and Triton:

    python3 bench/gpu/triton_matmul.py [--sizes=8192,4096] [--dtypes=f16,bf16]
        [--out=FILE.json]

Prints, per case, Triton's and torch.matmul's (cuBLAS) median time and
TFLOP/s, and checks Triton's result against torch.matmul's (f32 output).
"""
import argparse
import json
import sys

import torch
import triton
import triton.language as tl


def _configs():
    out = []
    for bm, bn, bk, stages, warps in [
            (128, 256, 64, 3, 8), (64, 256, 32, 4, 4), (128, 128, 32, 4, 4),
            (128, 64, 32, 4, 4), (64, 128, 32, 4, 4), (128, 128, 64, 4, 8),
            (128, 256, 64, 4, 8), (256, 128, 64, 3, 8)]:
        out.append(triton.Config({"BM": bm, "BN": bn, "BK": bk, "GROUP": 8},
                                 num_stages=stages, num_warps=warps))
    return out


@triton.autotune(configs=_configs(), key=["M", "N", "K"])
@triton.jit
def _matmul(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
            GROUP: tl.constexpr):
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    in_group = GROUP * tiles_n
    first_m = (pid // in_group) * GROUP
    rows = min(tiles_m - first_m, GROUP)
    pm = first_m + (pid % in_group) % rows
    pn = (pid % in_group) // rows
    om = (pm * BM + tl.arange(0, BM)) % M
    on = (pn * BN + tl.arange(0, BN)) % N
    ok = tl.arange(0, BK)
    pa = a + om[:, None] * sam + ok[None, :] * sak
    pb = b + ok[:, None] * sbk + on[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        x = tl.load(pa, mask=ok[None, :] < K - k * BK, other=0.0)
        y = tl.load(pb, mask=ok[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(x, y, acc)
        pa += BK * sak
        pb += BK * sbk
    cm = pm * BM + tl.arange(0, BM)
    cn = pn * BN + tl.arange(0, BN)
    tl.store(c + cm[:, None] * scm + cn[None, :] * scn, acc,
             mask=(cm[:, None] < M) & (cn[None, :] < N))


def triton_matmul(a, b):
    m, k = a.shape
    _, n = b.shape
    c = torch.empty((m, n), device=a.device, dtype=torch.float32)
    grid = lambda meta: (triton.cdiv(m, meta["BM"]) * triton.cdiv(n, meta["BN"]),)
    _matmul[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                  c.stride(0), c.stride(1))
    return c


def median_ms(fn, warmup_ms=25.0, runs=50):
    """Median of `runs` event-timed calls after `warmup_ms` of calls."""
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    stop.record()
    torch.cuda.synchronize()
    one = max(start.elapsed_time(stop), 1e-3)
    for _ in range(int(warmup_ms / one) + 1):
        fn()
    times = []
    for _ in range(runs):
        start.record()
        fn()
        stop.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(stop))
    times.sort()
    return times[len(times) // 2]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="8192,4096")
    ap.add_argument("--dtypes", default="f16,bf16")
    ap.add_argument("--out")
    args = ap.parse_args()
    torch.manual_seed(0)
    rows = []
    ok = True
    for size in [int(s) for s in args.sizes.split(",")]:
        for name in args.dtypes.split(","):
            dtype = {"f16": torch.float16, "bf16": torch.bfloat16}[name]
            a = torch.randn(size, size, device="cuda", dtype=dtype)
            b = torch.randn(size, size, device="cuda", dtype=dtype)
            try:
                ref = torch.mm(a, b, out_dtype=torch.float32)
                cublas = lambda: torch.mm(a, b, out_dtype=torch.float32)
            except TypeError:  # older torch: f16 output
                ref = torch.mm(a, b).float()
                cublas = lambda: torch.mm(a, b)
            got = triton_matmul(a, b)
            err = ((got - ref).abs() / (1 + ref.abs())).max().item()
            good = err < 1e-2
            ok = ok and good
            t_triton = median_ms(lambda: triton_matmul(a, b))
            t_cublas = median_ms(cublas)
            flops = 2.0 * size ** 3
            row = dict(case=f"matmul {name} {size}^3", triton_ms=t_triton, cublas_ms=t_cublas,
                       triton_tflops=flops / t_triton / 1e9, cublas_tflops=flops / t_cublas / 1e9,
                       max_err=err, check="ok" if good else "FAIL",
                       config=str(_matmul.best_config))
            rows.append(row)
            print(f"{row['case']:22s} triton {t_triton:8.3f} ms {row['triton_tflops']:6.1f} TFLOP/s | "
                  f"torch.mm (cuBLAS) {t_cublas:8.3f} ms {row['cublas_tflops']:6.1f} TFLOP/s | "
                  f"err {err:.1e} {row['check']} | {row['config']}", flush=True)
    if args.out:
        json.dump(dict(device=torch.cuda.get_device_name(), torch=torch.__version__,
                       triton=triton.__version__, rows=rows), open(args.out, "w"), indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
