#!/usr/bin/env python3
"""Profiles Tessel's kernels of some bench modules with Nsight Compute, on
the GPU machine (evidence for bench/RESULTS.md: DRAM throughput, occupancy,
registers, cache hit rates, warp stall reasons).

  python3 .carry/bench/profile.py [--only=sum_f32,matmul_4096] [--out=DIR]

Each module runs once under ncu through bin/tessel-bench (--runs=1
--warmup=0, one buffer set) on random normal inputs; ncu reports every
kernel of that run with the sections below, clocks not locked
(--clock-control none). The full ncu text goes to DIR/ncu.txt, a short
table of key metrics to stdout.
"""
import argparse
import os
import shutil
import subprocess
import sys

import numpy as np

# module -> input shapes (f32), or (shape, dtype) pairs
CASES = {
    "matmul_f16_4096": [((4096, 4096), np.float16), ((4096, 4096), np.float16)],
    "matmul_f16_4096x768x3072": [((4096, 3072), np.float16), ((3072, 768), np.float16)],
    "matmul_f16_4096x3072x768": [((4096, 768), np.float16), ((768, 3072), np.float16)],
    "matmul_f16_8192": [((8192, 8192), np.float16), ((8192, 8192), np.float16)],
    "matmul_tf32_4096": [(4096, 4096), (4096, 4096)],
    "sum_f32": [(1 << 28,)],
    "rowsum": [(8192, 8192)],
    "colsum": [(8192, 8192)],
    "softmax": [(8192, 4096)],
    "layernorm": [(8192, 4096), (4096,), (4096,)],
    "transpose": [(8192, 8192)],
    "matmul_4096": [(4096, 4096), (4096, 4096)],
    "matmul_f16_3000x5000x2000": [((3000, 2000), np.float16), ((2000, 5000), np.float16)],
    "matmul_f16_3000x5000x2000__w256s4": [((3000, 2000), np.float16), ((2000, 5000), np.float16)],
    "matmul_f16_3072x5120x2048": [((3072, 2048), np.float16), ((2048, 5120), np.float16)],
    "matmul_f16_3000x5120x2048": [((3000, 2048), np.float16), ((2048, 5120), np.float16)],
    "matmul_f16_3072x5000x2048": [((3072, 2048), np.float16), ((2048, 5000), np.float16)],
}
METRICS = [
    "gpu__time_duration.sum",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "launch__registers_per_thread",
    "launch__grid_size",
    "launch__block_size",
    "l1tex__t_sector_hit_rate.pct",
    "lts__t_sector_hit_rate.pct",
    "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active",
    "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio",
    "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum",
    "lts__t_sectors_op_read.sum",
    "lts__t_sectors_op_write.sum",
    "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_wait_per_issue_active.ratio",
]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default=here)
    ap.add_argument("--only", default="")
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--scratch", default="/tmp/tessel-profile")
    args = ap.parse_args()
    ncu = shutil.which("ncu") or "/usr/local/cuda/bin/ncu"
    if not os.path.exists(ncu):
        sys.exit("profile.py: ncu (Nsight Compute) not found")
    os.makedirs(args.scratch, exist_ok=True)
    os.makedirs(args.out, exist_ok=True)
    only = [o for o in args.only.split(",") if o]
    rng = np.random.default_rng(2026)
    full = open(os.path.join(args.out, "ncu.txt"), "w")
    rows = []
    for module, shapes in CASES.items():
        if only and module not in only:
            continue
        inputs = []
        for j, shape in enumerate(shapes):
            dtype = np.float32
            if isinstance(shape[0], tuple):
                shape, dtype = shape
            p = os.path.join(args.scratch, f"{module}_in{j}.npy")
            np.save(p, rng.standard_normal(shape, dtype=np.float32).astype(dtype))
            inputs.append(f"--input=@{p}")
        cmd = [ncu, "--clock-control", "none", "--csv", "--page", "raw",
               "--metrics", ",".join(METRICS),
               os.path.join(args.dir, "bin", "tessel-bench"),
               os.path.join(args.dir, "modules", module + ".tmod"),
               "--device=cuda", "--runs=1", "--warmup=0", "--rotate=1",
               "--no-per-dispatch", "--copy-bytes=1048576"] + inputs
        r = subprocess.run(cmd, capture_output=True, text=True)
        full.write(f"==== {module}\n$ {' '.join(cmd)}\n{r.stdout}\n{r.stderr}\n")
        lines = [l for l in r.stdout.splitlines() if l.startswith('"')]
        if r.returncode != 0 or len(lines) < 3:
            rows.append((module, "ncu failed (see ncu.txt)"))
            continue
        import csv
        table = list(csv.reader(lines))
        head = table[0]
        for rec in table[2:]:  # [1] holds the units
            d = dict(zip(head, rec))
            rows.append((module, d))
        for p in os.listdir(args.scratch):
            os.remove(os.path.join(args.scratch, p))
    full.close()
    short = [("time us", "gpu__time_duration.sum", 1e-3),
             ("DRAM %", "dram__throughput.avg.pct_of_peak_sustained_elapsed", 1),
             ("rd MB", "dram__bytes_read.sum", 1e-6),
             ("wr MB", "dram__bytes_write.sum", 1e-6),
             ("SM %", "sm__throughput.avg.pct_of_peak_sustained_elapsed", 1),
             ("occ %", "sm__warps_active.avg.pct_of_peak_sustained_active", 1),
             ("regs", "launch__registers_per_thread", 1),
             ("grid", "launch__grid_size", 1),
             ("block", "launch__block_size", 1),
             ("L1 hit %", "l1tex__t_sector_hit_rate.pct", 1),
             ("L2 hit %", "lts__t_sector_hit_rate.pct", 1),
             ("FMA %", "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", 1),
             ("stall LSB", "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", 1),
             ("stall LG", "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio", 1),
             ("stall MIO", "smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio", 1),
             # On sm_90 the hmma pipe counts wgmma (HGMMA) as well as mma.sync.
             ("tensor %", "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active", 1),
             ("ldsm conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum", 1),
             ("stall bar", "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio", 1),
             ("stall SSB", "smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio", 1),
             ("stall math", "smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio", 1),
             ("stall wait", "smsp__average_warps_issue_stalled_wait_per_issue_active.ratio", 1)]
    out = ["| module | kernel | " + " | ".join(s[0] for s in short) + " |",
           "| --- | --- |" + " ---: |" * len(short)]
    for module, d in rows:
        if isinstance(d, str):
            out.append(f"| {module} | {d} |")
            continue
        cells = []
        for _, key, scale in short:
            v = d.get(key, "")
            try:
                f = float(v.replace(",", "")) * scale
                cells.append(f"{f:.0f}" if abs(f) >= 100 else f"{f:.1f}")
            except ValueError:
                cells.append(v or "-")
        name = d.get("Kernel Name", "?")
        out.append(f"| {module} | {name[:40]} | " + " | ".join(cells) + " |")
    text = "\n".join(out)
    print(text)
    with open(os.path.join(args.out, "ncu.md"), "w") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    main()
