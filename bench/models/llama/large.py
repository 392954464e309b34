#!/usr/bin/env python3
"""The TinyLlama-1.1B shape of issue 40 (hidden 2048, 22 layers, 32 heads,
4 KV heads, MLP 5632, vocab 32000, f16, random weights from a fixed seed, no
download), on the GPU machine, in two steps:

  python3 large.py graph --out DIR
      exports LlamaForCausalLM (input_ids [1, sequence] -> logits, no KV
      cache, sequence dynamic) and writes DIR/llama_large.onnx with every
      floating-point initializer over 1 KiB external in a file that is not
      written (the graph alone is carried back; `tessel-import-onnx
      --parameters-file` makes those tensors external parameters).
  python3 large.py bench --dir DIR --bench BIN/tessel-bench --run BIN/tessel-run
      exports the same model again, writes its weights as
      DIR/weights.safetensors under the graph's initializer names, then
      times, in one run, HF eager's forward pass on a 512-token prompt
      (torch cuda events, median of 20 after 5 warm-ups) and Tessel's
      (tessel-bench --parameters, device events), and compares the last
      position's logits. A table last.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import torch
import transformers
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export import Logits, no_packed_sequences  # noqa: E402

CONFIG = dict(vocab_size=32000, hidden_size=2048, intermediate_size=5632, num_hidden_layers=22,
              num_attention_heads=32, num_key_value_heads=4, max_position_embeddings=2048,
              rms_norm_eps=1e-5, attn_implementation="eager")
FLOATS = {onnx.TensorProto.FLOAT, onnx.TensorProto.FLOAT16, onnx.TensorProto.BFLOAT16,
          onnx.TensorProto.DOUBLE}
PROMPT = 512


def build():
    torch.manual_seed(0)
    model = transformers.LlamaForCausalLM(transformers.LlamaConfig(**CONFIG)).eval()
    return model.half().cuda()


def prompt():
    g = torch.Generator().manual_seed(1)
    return torch.randint(0, CONFIG["vocab_size"], (1, PROMPT), generator=g)


def export(model, tmp):
    """The exported graph with its initializers loaded."""
    no_packed_sequences()
    path = os.path.join(tmp, "m.onnx")
    torch.onnx.export(Logits(model), (prompt().cuda(),), path, input_names=["input_ids"],
                      output_names=["logits"],
                      dynamic_shapes={"input_ids": {1: torch.export.Dim("sequence", max=2047)}},
                      external_data=True)
    return onnx.load(path)


def is_weight(t):
    return t.data_type in FLOATS and numpy_helper.to_array(t).nbytes > 1024


def graph(a):
    os.makedirs(a.out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        m = export(build(), tmp)
    for t in m.graph.initializer:
        if not is_weight(t):
            continue
        dims, dtype, name = list(t.dims), t.data_type, t.name
        t.Clear()
        t.name, t.data_type = name, dtype
        t.dims.extend(dims)
        entry = t.external_data.add()
        entry.key, entry.value = "location", "llama_large.weights"
        t.data_location = onnx.TensorProto.EXTERNAL
    onnx.save_model(m, os.path.join(a.out, "llama_large.onnx"))
    print("graph: %d nodes, %d initializers, %.1f MB" % (
        len(m.graph.node), len(m.graph.initializer),
        os.path.getsize(os.path.join(a.out, "llama_large.onnx")) / 1e6))


def bench(a):
    sys.path.insert(0, a.tessel_onnx)
    from tessel_onnx import safetensors
    model = build()
    with tempfile.TemporaryDirectory() as tmp:
        m = export(model, tmp)
        tensors = [(t.name, "F16", numpy_helper.to_array(t)) for t in m.graph.initializer
                   if is_weight(t)]
        weights = os.path.join(a.dir, "weights.safetensors")
        safetensors.write(weights, tensors, {"format": "tessel"})
    del m, tensors
    ids = prompt()
    np.save(os.path.join(a.dir, "ids.npy"), ids.numpy())
    with torch.no_grad():
        x = ids.cuda()
        for _ in range(5):
            ref = model(input_ids=x, use_cache=False).logits
        times = []
        for _ in range(20):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            model(input_ids=x, use_cache=False)
            e.record()
            torch.cuda.synchronize()
            times.append(s.elapsed_time(e))
    hf = float(np.median(times))
    last = ref[0, -1].float().cpu().numpy()
    module = os.path.join(a.dir, "llama_large.tmod")
    out = os.path.join(a.dir, "bench.json")
    r = subprocess.run([a.bench, module, "--device=cuda", "--parameters=" + weights,
                        "--input=@" + os.path.join(a.dir, "ids.npy"), "--runs=20", "--rotate=1",
                        "--no-per-dispatch", "--json=" + out], capture_output=True, text=True)
    rows = [("HF eager forward, 512 tokens (cuda events)", "%.2f ms" % hf)]
    if r.returncode != 0:
        rows.append(("tessel-bench", "FAIL: " + r.stderr.strip()[-300:]))
    else:
        result = json.load(open(out))
        ms = result.get("median_ms") or result.get("median_us", 0) / 1000.0
        rows.append(("Tessel forward, 512 tokens (tessel-bench)", "%.2f ms" % ms if ms else json.dumps(result)[:300]))
        if ms:
            rows.append(("Tessel / HF eager speed", "%.2fx" % (hf / ms)))
    logits = os.path.join(a.dir, "logits.npy")
    r = subprocess.run([a.run, module, "--device=cuda", "--parameters=" + weights,
                        "--input=@" + os.path.join(a.dir, "ids.npy"), "--output=@" + logits],
                       capture_output=True, text=True)
    if r.returncode != 0:
        rows.append(("tessel-run logits", "FAIL: " + r.stderr.strip()[-300:]))
    else:
        got = np.load(logits)[0, -1].astype(np.float32)
        rows.append(("last-position logits vs HF (f16)", "max abs err %.3g (max |logit| %.3g), argmax %s"
                     % (np.abs(got - last).max(), np.abs(last).max(),
                        "equal" if got.argmax() == last.argmax() else "DIFFERS")))
    print("| measurement | value |\n| --- | --- |")
    for k, v in rows:
        print("| %s | %s |" % (k, v))


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("graph")
    g.add_argument("--out", required=True)
    b = sub.add_parser("bench")
    b.add_argument("--dir", required=True)
    b.add_argument("--bench", required=True)
    b.add_argument("--run", required=True)
    b.add_argument("--tessel-onnx", default=os.path.join(os.path.dirname(__file__), "../../../frontends/onnx"))
    a = ap.parse_args()
    graph(a) if a.cmd == "graph" else bench(a)


if __name__ == "__main__":
    main()
