# Why is matmul + epilogue faster than the plain matmul? Times 4 variants of
# x @ W^T (4096x3072x768) with tessel-bench, then ncu key metrics of plain
# and biasrelu.
import json, os, subprocess, sys
import numpy as np
d = os.path.dirname(os.path.abspath(__file__)); tb, out = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(5)
ins = [rng.standard_normal((4096, 768), dtype=np.float32), rng.standard_normal((3072, 768), dtype=np.float32),
       rng.standard_normal(3072, dtype=np.float32)]
paths = []
for i, a in enumerate(ins):
    paths.append(f"/tmp/p{i}.npy"); np.save(paths[-1], a)
lines = ["| variant | median us | p10-p90 |", "|---|---|---|"]
for v in ("plain", "bias", "relu", "biasrelu", "plain"):
    pj = f"/tmp/{v}.json"
    for rot in ("0", "1"):
        p = subprocess.run([tb, os.path.join(d, v + ".tmod")] + [f"--input=@{q}" for q in paths] +
                           ["--runs=50", f"--rotate={rot}", f"--json={pj}"], capture_output=True, text=True)
        if p.returncode:
            lines.append(f"| {v} rot={rot} | FAILED {p.stderr[-200:]} | |"); continue
        j = json.load(open(pj))
        lines.append(f"| {v} rotate={j.get('rotate')} | {j['median_us']:.1f} | {j['p10_us']:.1f}-{j['p90_us']:.1f} |")
metrics = ",".join(["gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sectors_op_write.sum",
                    "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", "sm__warps_active.avg.pct_of_peak_sustained_active",
                    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
                    "smsp__average_warp_latency_issue_stalled_barrier.ratio", "smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio",
                    "smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio", "smsp__average_warp_latency_issue_stalled_mio_throttle.ratio",
                    "smsp__inst_executed.sum", "launch__registers_per_thread", "launch__occupancy_limit_registers"])
ncu = subprocess.run(["bash", "-lc", "command -v ncu || ls /usr/local/cuda/bin/ncu"], capture_output=True, text=True).stdout.strip().split("\n")[0]
for v in ("plain", "biasrelu"):
    p = subprocess.run([ncu, "--clock-control", "none", "--metrics", metrics, tb, os.path.join(d, v + ".tmod")] +
                       [f"--input=@{q}" for q in paths] + ["--runs=1", "--warmup=0", "--rotate=1", "--no-per-dispatch"],
                       capture_output=True, text=True, timeout=300)
    keep = [l for l in p.stdout.split("\n") if any(k in l for k in ("__", "dispatch"))]
    lines.append(f"\n### ncu {v} (rc {p.returncode})\n```\n" + "\n".join(keep[-40:]) + "\n" + p.stderr[-300:] + "\n```")
txt = "\n".join(lines); print(txt); open(os.path.join(out, "probe.md"), "w").write(txt + "\n")
