# Run-to-run modes: per-run device times (tessel-bench --samples) of some
# suite modules, 300 runs each after warm-up; F = within 5% of the run's
# minimum, S = slower. Prints the pattern and simple statistics.
import os, subprocess, sys
import numpy as np
d = os.path.dirname(os.path.abspath(__file__))
bench = sys.argv[1]; mods = os.path.join(bench, "modules"); tb = os.path.join(bench, "bin", "tessel-bench")
out = sys.argv[2]
rng = np.random.default_rng(1)
cases = {"rowsum": [(8192, 8192)], "bias_f16": [(8192, 8192), (8192,)], "softmax": [(8192, 4096)],
         "transpose": [(8192, 8192)], "add_f32": [(1 << 26,), (1 << 26,)], "colsum": [(8192, 8192)],
         "sum_f32": [(1 << 28,)]}
lines = []
for m, shapes in cases.items():
    paths = []
    for i, s in enumerate(shapes):
        dt = np.float16 if m.endswith("f16") else np.float32
        a = rng.standard_normal(s).astype(dt); paths.append(f"/tmp/m_{m}_{i}.npy"); np.save(paths[-1], a)
    for extra in ([], ["--rotate=2"]):
        if extra and m not in ("rowsum", "bias_f16"):
            continue
        f = f"/tmp/m_{m}.txt"
        p = subprocess.run([tb, os.path.join(mods, m + ".tmod")] + [f"--input=@{q}" for q in paths] +
                           ["--runs=300", "--warmup=10", "--no-per-dispatch", f"--samples={f}"] + extra,
                           capture_output=True, text=True)
        if p.returncode:
            lines.append(f"{m} {extra}: FAILED {p.stderr[-200:]}"); continue
        t = np.array([float(x) for x in open(f)])
        fast = t <= 1.05 * t.min()
        pat = "".join("F" if x else "S" for x in fast)
        runs = [len(r) for r in pat.replace("F", " ").split()]
        c = np.corrcoef(t[:-1], t[1:])[0, 1]
        lines.append(f"{m} {' '.join(extra)}: min {t.min():.1f} median {np.median(t):.1f} max {t.max():.1f} us; "
                     f"fast {fast.mean()*100:.0f}%; slow-run lengths mean {np.mean(runs) if runs else 0:.1f} max {max(runs) if runs else 0}; "
                     f"lag-1 corr {c:.2f}; slow/fast ratio {np.median(t[~fast])/np.median(t[fast]) if (~fast).any() else 1:.3f}")
        lines.append("  " + pat[:150])
        lines.append("  first 12 us: " + " ".join(f"{x:.0f}" for x in t[:12]))
txt = "\n".join(lines); print(txt); open(os.path.join(out, "modes.md"), "w").write("```\n" + txt + "\n```\n")
