# A/B of matmul block sizes: tessel-bench medians, outputs vs float64.
import json, os, subprocess, sys
import numpy as np
d = os.path.dirname(os.path.abspath(__file__))
tb = sys.argv[1]
out = sys.argv[2]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)
groups = {"m1024": (1024, 1024, 1024), "odd": (1000, 999, 1001), "m2048": (2048, 2048, 2048), "m4096": (4096, 4096, 4096)}
rows = []
for g, (m, k, n) in groups.items():
    a = rng.standard_normal((m, k), dtype=np.float32); b = rng.standard_normal((k, n), dtype=np.float32)
    pa, pb = f"/tmp/ab_{g}_a.npy", f"/tmp/ab_{g}_b.npy"
    np.save(pa, a); np.save(pb, b)
    ref = a[:64].astype(np.float64) @ b.astype(np.float64)
    for blk in ("b128", "b64"):
        mod = os.path.join(d, f"{g}_{blk}.tmod")
        po, pj = f"/tmp/ab_{g}_{blk}_o.npy", f"/tmp/ab_{g}_{blk}.json"
        p = subprocess.run([tb, mod, f"--input=@{pa}", f"--input=@{pb}", "--runs=30", f"--output=@{po}", f"--json={pj}", f"--flops={2.0*m*n*k}"], capture_output=True, text=True)
        if p.returncode:
            rows.append(f"| {g} | {blk} | FAILED: {p.stderr[-300:]} |"); continue
        j = json.load(open(pj)); o = np.load(po)
        err = np.linalg.norm(o[:64] - ref) / np.linalg.norm(ref)
        nan = int(np.isnan(o).sum())
        rows.append(f"| {g} {m}x{k}x{n} | {blk} | {j['median_us']:.1f} us | {j['p10_us']:.1f}-{j['p90_us']:.1f} | {2.0*m*n*k/j['median_us']/1e6:.1f} TFLOP/s | {err:.1e} | {nan} NaN |")
txt = "| case | block | median | p10-p90 | rate | rel err vs f64 (64 rows) | NaN |\n|---|---|---|---|---|---|---|\n" + "\n".join(rows)
print(txt); open(os.path.join(out, "ab.md"), "w").write(txt + "\n")
