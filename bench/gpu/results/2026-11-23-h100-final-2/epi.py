# relu(x @ W^T + bias): fused epilogue (cuda-only module, 1 dispatch) vs
# unfused (cuda,cpu module, 2 dispatches); tessel-bench medians, outputs vs
# float64 on 64 rows, both variants compared with each other.
import json, os, subprocess, sys
import numpy as np
d = os.path.dirname(os.path.abspath(__file__))
tb, out = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(11)
x = rng.standard_normal((4096, 768), dtype=np.float32)
w = rng.standard_normal((3072, 768), dtype=np.float32)
b = rng.standard_normal(3072, dtype=np.float32)
paths = []
for n, a in (("x", x), ("w", w), ("b", b)):
    paths.append(f"/tmp/epi_{n}.npy"); np.save(paths[-1], a)
ref = np.maximum(x[:64].astype(np.float64) @ w.T.astype(np.float64) + b, 0)
rows, outs = [], {}
for v in ("fused", "unfused"):
    po, pj = f"/tmp/epi_{v}.npy", f"/tmp/epi_{v}.json"
    p = subprocess.run([tb, os.path.join(d, f"linear_relu_{v}.tmod"), "--function=linear_relu"] +
                       [f"--input=@{q}" for q in paths] + ["--runs=50", f"--output=@{po}", f"--json={pj}",
                       f"--flops={2.0*4096*3072*768}"], capture_output=True, text=True)
    if p.returncode:
        rows.append(f"| {v} | FAILED {p.stderr[-300:]} |"); continue
    j = json.load(open(pj)); o = np.load(po); outs[v] = o
    err = np.linalg.norm(o[:64] - ref) / np.linalg.norm(ref)
    pd = " / ".join(f"{q['median_us']:.1f}" for q in j["per_dispatch"])
    rows.append(f"| {v} | {j['median_us']:.1f} us | {j['p10_us']:.1f}-{j['p90_us']:.1f} | {pd} | {err:.1e} | {int(np.isnan(o).sum())} |")
same = "yes" if len(outs) == 2 and np.array_equal(outs["fused"], outs["unfused"]) else "no"
txt = ("| variant | median | p10-p90 | per dispatch (us) | rel err vs f64 (64 rows) | NaN |\n|---|---|---|---|---|---|\n"
       + "\n".join(rows) + f"\n\nfused == unfused bit for bit: {same}\n")
print(txt); open(os.path.join(out, "epilogue_ab.md"), "w").write(txt)
