# Before/after table of two bench/gpu/run.py results.json files:
#   python3 bench/gpu/compare_runs.py OLD/results.json NEW/results.json
import json, sys
old = {r["case"]: r for r in json.load(open(sys.argv[1]))["rows"]}
new = {r["case"]: r for r in json.load(open(sys.argv[2]))["rows"]}
print("| case | before us | after us | after/before | ref/after |")
print("| --- | ---: | ---: | ---: | ---: |")
ratios = []
for case, n in new.items():
    o = old.get(case)
    if not o or not o.get("tessel_us") or not n.get("tessel_us"):
        print(f"| {case} | - | - | - | - |"); continue
    r = n["tessel_us"] / o["tessel_us"]; ratios.append(r)
    ref = n.get("ref_us")
    print(f"| {case} | {o['tessel_us']:.1f} | {n['tessel_us']:.1f} | {r:.3f} | {ref / n['tessel_us']:.2f} |" if ref else
          f"| {case} | {o['tessel_us']:.1f} | {n['tessel_us']:.1f} | {r:.3f} | - |")
ratios.sort()
if ratios:
    import statistics
    print(f"\n{len(ratios)} cases: after/before median {statistics.median(ratios):.3f}, min {ratios[0]:.3f}, max {ratios[-1]:.3f}")
