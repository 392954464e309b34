# Where the prefetched stage is stored: after all 8 k steps (base) or after
# 4 / 2 of them (k4, k2). tessel-bench medians; outputs vs base bit for bit.
import json, os, subprocess, sys
import numpy as np
d = os.path.dirname(os.path.abspath(__file__)); tb, out = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(3)
shapes = {"matmul_1024": ((1024, 1024), (1024, 1024)), "matmul_2048": ((2048, 2048), (2048, 2048)),
          "matmul_4096": ((4096, 4096), (4096, 4096)), "matmul_4096x3072x768": ((4096, 768), (768, 3072)),
          "linear_4096x3072x768": ((4096, 768), (3072, 768))}
lines = ["| module | base | k4 | k2 | outputs equal to base |", "|---|---|---|---|---|"]
for m, shp in shapes.items():
    paths = []
    for i, s in enumerate(shp):
        paths.append(f"/tmp/{m}_{i}.npy"); np.save(paths[-1], rng.standard_normal(s, dtype=np.float32))
    res, outs = {}, {}
    for v in ("base", "k4", "k2"):
        pj, po = f"/tmp/{m}_{v}.json", f"/tmp/{m}_{v}.npy"
        p = subprocess.run([tb, os.path.join(d, f"{m}_{v}.tmod")] + [f"--input=@{q}" for q in paths] +
                           ["--runs=30", f"--json={pj}", f"--output=@{po}"], capture_output=True, text=True)
        if p.returncode:
            res[v] = "FAIL"; continue
        j = json.load(open(pj)); res[v] = f"{j['median_us']:.1f} us ({j['p10_us']:.1f}-{j['p90_us']:.1f})"
        outs[v] = np.load(po)
    eq = ",".join(v for v in ("k4", "k2") if v in outs and "base" in outs and np.array_equal(outs[v], outs["base"]))
    lines.append(f"| {m} | {res.get('base')} | {res.get('k4')} | {res.get('k2')} | {eq} |")
txt = "\n".join(lines); print(txt); open(os.path.join(out, "ab_store.md"), "w").write(txt + "\n")
