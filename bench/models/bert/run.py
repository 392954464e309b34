#!/usr/bin/env python3
"""BERT-base benchmark on the GPU machine (issue 12): Tessel against PyTorch
eager, torch.compile (inductor) and ONNX Runtime, same weights and inputs,
outputs compared. Prepared here by bench/models/bert/prepare.sh (modules
compiled from the graphs that export.py wrote there); run there:

  python3 .carry/bert/run.py --dir=.carry/bert --out=$OUT [--no-tessel]

Steps: export BERT-base (export.py, fixed seed) for f16 batch 32 (GPU) and
f32 batch 8 (CPU); write the weights as .npy in the modules' argument order
(the importer, run here on the full model); time each system (median of
runs after warm-up; CUDA events on the GPU); compare Tessel's outputs with
torch eager's.
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import export  # noqa: E402

SEQ = 128


def log(*a):
    print(*a, flush=True)


# Fastest call of the last timing (torch's GPU times are launch-bound and
# vary from call to call: the minimum is the conservative comparison).
LAST_MIN = {}


def gpu_ms(fn, runs=100, warmup=10):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    LAST_MIN["ms"] = float(np.min(times))
    return float(np.median(times))


def cpu_ms(fn, runs=10, warmup=2):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    return float(np.median(times))


def rel_err(a, b):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        return float("inf")
    return float(np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-30))


def tessel_run(d, module, device, inputs, outdir, runs, n_out):
    """tessel-bench median ms and the outputs (one run's, poisoned before)."""
    outs = [os.path.join(outdir, "out%d.npy" % i) for i in range(n_out)]
    js = os.path.join(outdir, "bench.json")
    cmd = [os.path.join(d, "bin", "tessel-bench"), module, "--device=" + device,
           "--runs=%d" % runs, "--warmup=3", "--json=" + js, "--rotate=1"]
    cmd += ["--input=@" + p for p in inputs] + ["--output=@" + o for o in outs]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if p.returncode != 0:
        raise RuntimeError("tessel-bench: " + (p.stderr or p.stdout).strip()[-600:])
    with open(js) as f:
        j = json.load(f)
    return j["median_us"] / 1e3, [np.load(o) for o in outs], j


def weights_for(d, onnx_path, wdir):
    """The importer writes the weights (.npy, argument order) from the full
    model; the module was compiled here from the same graph."""
    cmd = [sys.executable, os.path.join(d, "frontends", "onnx", "tessel-import-onnx"), onnx_path,
           "-o", os.devnull, "--weights-as-inputs", "--weights-dir", wdir]
    subprocess.run(cmd, check=True)
    files = []
    with open(os.path.join(wdir, "weights.txt")) as f:
        for line in f:
            if line.startswith("#"):
                continue
            cols = line.rstrip("\n").split("\t")
            if cols[1] == "weight":
                files.append(os.path.join(wdir, cols[3]))
    return files


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--no-tessel", action="store_true")
    ap.add_argument("--work", default="/tmp/bert-bench")
    ap.add_argument("--only", default="", help="comma-separated cases: bert_f16_b32, "
                    "bert_f32_b8, attention")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    os.makedirs(a.work, exist_ok=True)
    import transformers
    log("torch %s, transformers %s, GPU %s" % (torch.__version__, transformers.__version__,
                                               torch.cuda.get_device_name(0)))
    rows, results = [], {}
    only = set(filter(None, a.only.split(",")))
    for dtype, batch, device in [("f16", 32, "cuda"), ("f32", 8, "cpu")]:
        name = "bert_%s_b%d" % (dtype, batch)
        if only and name not in only:
            continue
        export.export(dtype, batch, SEQ, a.work)
        tdev = "cuda" if device == "cuda" else "cpu"
        model = export.build(dtype, tdev)
        ids, mask = export.inputs(batch, SEQ, tdev)
        np.save(os.path.join(a.work, name + "_ids.npy"), ids.cpu().numpy())
        np.save(os.path.join(a.work, name + "_mask.npy"), mask.cpu().numpy())
        with torch.no_grad():
            ref = model(ids, attention_mask=mask)
            ref = [ref.last_hidden_state.float().cpu().numpy(), ref.pooler_output.float().cpu().numpy()]
            timer = gpu_ms if device == "cuda" else cpu_ms
            eager = timer(lambda: model(ids, attention_mask=mask))
            r = dict(case=name, eager_ms=eager)
            if device == "cuda":
                r["eager_min_ms"] = LAST_MIN["ms"]
                compiled = torch.compile(model)
                r["compile_ms"] = timer(lambda: compiled(ids, attention_mask=mask))
                r["compile_min_ms"] = LAST_MIN["ms"]
            else:
                try:
                    import onnxruntime as ort
                    so = ort.SessionOptions()
                    so.intra_op_num_threads = 16
                    sess = ort.InferenceSession(os.path.join(a.work, name + ".onnx"), so,
                                                providers=["CPUExecutionProvider"])
                    feeds = {"input_ids": ids.numpy(), "attention_mask": mask.numpy()}
                    r["ort_ms"] = cpu_ms(lambda: sess.run(None, feeds))
                except Exception as e:  # noqa: BLE001
                    r["ort_error"] = str(e)[:200]
        module = os.path.join(a.dir, "modules", name + ".tmod")
        if not a.no_tessel and os.path.exists(module):
            try:
                wfiles = weights_for(a.dir, os.path.join(a.work, name + ".onnx"),
                                     os.path.join(a.work, name + ".w"))
                ins = [os.path.join(a.work, name + "_ids.npy"), os.path.join(a.work, name + "_mask.npy")] + wfiles
                ms, outs, j = tessel_run(a.dir, module, device, ins, a.work,
                                         20 if device == "cuda" else 5, 2)
                r["tessel_ms"] = ms
                r["tessel_err"] = [rel_err(o, x) for o, x in zip(outs, ref)]
                per = [d["median_us"] for d in (j.get("per_dispatch") or [])]
                r["tessel_dispatches"] = len(per)
                results.setdefault("per_dispatch_us", {})[name] = per
                top = sorted(range(len(per)), key=lambda i: -per[i])[:12]
                log("  slowest dispatches (index: us): " +
                    ", ".join("%d: %.0f" % (i, per[i]) for i in top) +
                    "; total %.0f us" % sum(per))
            except Exception as e:  # noqa: BLE001
                r["tessel_error"] = str(e)[-600:]
        log(json.dumps(r))
        results[name] = r
        del model
        torch.cuda.empty_cache()

    # Attention alone: SDPA (flash backend) vs Tessel's attention modules.
    from torch.nn.attention import SDPBackend, sdpa_kernel
    for seq in ((128, 1024) if not only or "attention" in only else ()):
        q, k, v = (torch.randn(32, 12, seq, 64, device="cuda", dtype=torch.float16) for _ in range(3))
        with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
            ms = gpu_ms(lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v))
        r = dict(case="attention_b32_h12_s%d_d64_f16" % seq, sdpa_flash_ms=ms,
                 sdpa_flash_min_ms=LAST_MIN["ms"])
        module = os.path.join(a.dir, "modules", "attention_s%d.tmod" % seq)
        if not a.no_tessel and os.path.exists(module):
            try:
                paths = []
                for nm, t in zip("qkv", (q, k, v)):
                    p = os.path.join(a.work, "att%d_%s.npy" % (seq, nm))
                    np.save(p, t.cpu().numpy())
                    paths.append(p)
                tms, outs, _ = tessel_run(a.dir, module, "cuda", paths, a.work, 20, 1)
                with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                    ref = torch.nn.functional.scaled_dot_product_attention(q, k, v).float().cpu().numpy()
                r["tessel_ms"] = tms
                r["tessel_err"] = rel_err(outs[0], ref)
            except Exception as e:  # noqa: BLE001
                r["tessel_error"] = str(e)[-600:]
        log(json.dumps(r))
        results[r["case"]] = r
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
