#!/usr/bin/env python3
"""Tessel's convolutions next to cuDNN through PyTorch, on the GPU machine.

  python3 .carry/bench/conv_bench.py [--dir=.carry/bench]

For each case: random f16 NHWC input and HWCF filter; Tessel's module run
by bin/tessel-bench (per-call event timing after a 25 ms warm-up, median);
PyTorch's conv2d (channels_last, f16, cudnn.benchmark) timed as 100 calls
captured in one CUDA graph, replay time / 100, median of 50 replays; the
outputs compared (Tessel f32 against PyTorch's f16 output, relative L2).
Prints a table. Needs torch; without it, says so and times Tessel alone.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

# module, N, H, W (unpadded), C, F, KH, KW, stride, pad
CASES = [
    ("conv1x1_f16_56x56x64x128", 1, 56, 56, 64, 128, 1, 1, 1, 0),
    ("conv1x1_f16_28x28x128x256", 1, 28, 28, 128, 256, 1, 1, 1, 0),
    ("conv1x1_f16_28x28x256x256", 1, 28, 28, 256, 256, 1, 1, 1, 0),
    ("conv3x3_f16_b1_56x56x64", 1, 56, 56, 64, 64, 3, 3, 1, 1),
    ("conv3x3_f16_b32_56x56x64", 32, 56, 56, 64, 64, 3, 3, 1, 1),
]


def torch_time(x, w, stride, pad):
    import torch
    xt = torch.from_numpy(x).cuda().permute(0, 3, 1, 2).contiguous(memory_format=torch.channels_last)
    conv = torch.nn.Conv2d(w.shape[2], w.shape[3], (w.shape[0], w.shape[1]), stride=stride,
                           padding=pad, bias=False).cuda().half().to(memory_format=torch.channels_last)
    with torch.no_grad():
        conv.weight.copy_(torch.from_numpy(w).cuda().permute(3, 2, 0, 1))
        for _ in range(20):
            y = conv(xt)
        torch.cuda.synchronize()
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(3):
                conv(xt)
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            for _ in range(100):
                y = conv(xt)
        for _ in range(5):
            g.replay()
        t0, t1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        ts = []
        for _ in range(50):
            t0.record(); g.replay(); t1.record(); t1.synchronize()
            ts.append(t0.elapsed_time(t1) * 1000 / 100)
    ts.sort()
    return ts[len(ts) // 2], y.permute(0, 2, 3, 1).float().cpu().numpy()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default=here)
    args = ap.parse_args()
    try:
        import torch
        have_torch = torch.cuda.is_available()
        print(f"torch {torch.__version__}, cudnn {torch.backends.cudnn.version()}")
        torch.backends.cudnn.benchmark = True
    except Exception as e:
        have_torch = False
        print(f"torch not available ({e}): Tessel timed alone")
    rng = np.random.default_rng(2026)
    rows = ["| case | Tessel (per call) | cuDNN via PyTorch (graph) | cuDNN / Tessel | Tessel TFLOP/s | rel. L2 vs PyTorch |",
            "| --- | ---: | ---: | ---: | ---: | --- |"]
    tmp = tempfile.mkdtemp()
    for module, n, h, wd, c, f, kh, kw, stride, pad in CASES:
        x = rng.standard_normal((n, h, wd, c), dtype=np.float32).astype(np.float16)
        w = (rng.standard_normal((kh, kw, c, f), dtype=np.float32) / np.sqrt(kh * kw * c)).astype(np.float16)
        xin = np.pad(x, ((0, 0), (pad, pad), (pad, pad), (0, 0))) if pad else x
        px, pw, po, pj = (os.path.join(tmp, p) for p in ("x.npy", "w.npy", "o.npy", "t.json"))
        np.save(px, xin)
        np.save(pw, w)
        oh = (h + 2 * pad - kh) // stride + 1
        ow = (wd + 2 * pad - kw) // stride + 1
        flops = 2.0 * n * oh * ow * f * kh * kw * c
        fn = "conv" if module.startswith("conv3x3") else "matmul"
        cmd = [os.path.join(args.dir, "bin", "tessel-bench"),
               os.path.join(args.dir, "modules", module + ".tmod"), f"--function={fn}",
               f"--input=@{px}", f"--input=@{pw}", f"--output=@{po}", f"--json={pj}",
               "--device=cuda", "--runs=100", f"--flops={flops}"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            rows.append(f"| {module} | ERROR: {r.stderr.strip()[-200:]} | | | | |")
            continue
        tj = json.load(open(pj))
        tout = np.load(po).reshape(n, oh, ow, f)
        ref_us, err = None, "-"
        if have_torch:
            ref_us, ref = torch_time(x, w, stride, pad)
            err = f"{np.linalg.norm(tout - ref) / np.linalg.norm(ref):.1e}"
        t_us = tj["median_us"]
        rows.append(f"| {module} | {t_us:.2f} us | {'-' if ref_us is None else f'{ref_us:.2f} us'} | "
                    f"{'-' if ref_us is None else f'{ref_us / t_us:.2f}'} | {flops / (t_us * 1e6):.1f} | {err} |")
    print("\n".join(rows))


if __name__ == "__main__":
    sys.exit(main())
