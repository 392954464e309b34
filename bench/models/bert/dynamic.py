#!/usr/bin/env python3
"""Issue 39's BERT target on the GPU machine: BERT-base f16 exported with
symbolic batch and sequence, one Tessel module run at every shape of
`shapes`, against a static module compiled per shape and torch eager, same
weights and inputs, in one process; outputs compared with torch's.
Prepared here by bench/models/bert/prepare_dynamic.sh; there:

  python3 DIR/dynamic.py --dir=DIR --out=$OUT [--runs=50]

Times: median ms (tessel-bench: device events, after warm-up; torch: CUDA
events, median of 100 after 10). Table last.
"""
import argparse
import json
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import export  # noqa: E402
from run import gpu_ms, log, rel_err, tessel_run, weights_for  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--work", default="/tmp/bert-dynamic")
    ap.add_argument("--runs", type=int, default=50)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    os.makedirs(a.work, exist_ok=True)
    shapes = [tuple(int(x) for x in s.split("x"))
              for s in open(os.path.join(a.dir, "shapes")).read().split()]
    export.export("f16", 2, 128, a.work, dynamic=True)
    graph = os.path.join(a.work, "bert_f16_dyn.onnx")
    wfiles = weights_for(a.dir, graph, os.path.join(a.work, "w"))
    model = export.build("f16", "cuda")
    rows = []
    for b, s in shapes:
        ids, mask = export.inputs(b, s, "cuda")
        paths = [os.path.join(a.work, "ids_%d_%d.npy" % (b, s)), os.path.join(a.work, "mask_%d_%d.npy" % (b, s))]
        np.save(paths[0], ids.cpu().numpy())
        np.save(paths[1], mask.cpu().numpy())
        with torch.no_grad():
            ref = model(ids, attention_mask=mask)
            ref = [ref.last_hidden_state.float().cpu().numpy(), ref.pooler_output.float().cpu().numpy()]
            r = dict(b=b, s=s, torch_ms=gpu_ms(lambda: model(ids, attention_mask=mask)))
        for kind, module in (("dynamic", "dynamic.tmod"), ("static", "static_%d_%d.tmod" % (b, s))):
            try:
                ms, outs, j = tessel_run(a.dir, os.path.join(a.dir, "modules", module), "cuda",
                                         paths + wfiles, a.work, a.runs, 2)
                r[kind + "_ms"] = ms
                per = [d["median_us"] for d in (j.get("per_dispatch") or [])]
                r[kind + "_dispatch_us"] = per
                log("  %s %dx%d: %d dispatches, slowest (us): %s" % (
                    kind, b, s, len(per), ", ".join("%.0f" % u for u in sorted(per)[::-1][:8])))
                r[kind + "_err"] = max(rel_err(o, x) for o, x in zip(outs, ref))
            except Exception as e:  # noqa: BLE001
                r[kind + "_error"] = str(e)[-400:]
        log(json.dumps({k: v for k, v in r.items() if not k.endswith("_dispatch_us")}))
        rows.append(r)
        torch.cuda.empty_cache()
    with open(os.path.join(a.out, "bert_dynamic.json"), "w") as f:
        json.dump(rows, f, indent=1)
    # speed vs static: static ms / dynamic ms (target >= 0.9); vs torch:
    # torch ms / dynamic ms (target > 1).
    log("\n%-9s %9s %9s %9s %12s %11s %9s %9s" % ("(b, s)", "torch ms", "static", "dynamic",
                                                  "vs static", "vs torch", "err dyn", "err st"))
    for r in rows:
        dyn, st = r.get("dynamic_ms"), r.get("static_ms")
        fmt = lambda v, f: (f % v) if v is not None else "-"  # noqa: E731
        log("%-9s %9.3f %9s %9s %12s %11s %9s %9s" % (
            "%dx%d" % (r["b"], r["s"]), r["torch_ms"], fmt(st, "%.3f"), fmt(dyn, "%.3f"),
            fmt(st / dyn if dyn and st else None, "%.3f"), fmt(r["torch_ms"] / dyn if dyn else None, "%.2f"),
            fmt(r.get("dynamic_err"), "%.1e"), fmt(r.get("static_err"), "%.1e")))


if __name__ == "__main__":
    main()
