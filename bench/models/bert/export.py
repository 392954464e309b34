#!/usr/bin/env python3
"""Exports HuggingFace BERT-base (BertModel(BertConfig()), random weights
from a fixed seed, no download) to ONNX with torch.onnx.export, on the GPU
machine. Writes, per precision:
  DIR/bert_<dtype>_b<batch>.onnx        the graph; initializers over 1 KiB
                                        as external data in
  DIR/bert_<dtype>_b<batch>.weights     (not carried back: regenerate it)
Static shapes (batch x 128 tokens), or with --dynamic batch and sequence
as the dynamic axes `batch` and `sequence` (DIR/bert_<dtype>_dyn.onnx).

  python3 export.py --out DIR [--what f16:32,f32:8] [--seq 128] [--dynamic]
"""
import argparse
import collections
import json
import os
import sys

import numpy as np
import onnx
import torch
import transformers
from onnx import numpy_helper


def build(dtype, device):
    torch.manual_seed(0)
    model = transformers.BertModel(transformers.BertConfig()).eval()
    if dtype == "f16":
        model = model.half()
    return model.to(device)


def inputs(batch, seq, device, seed=1):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 30522, (batch, seq), generator=g)
    mask = torch.ones(batch, seq, dtype=torch.int64)
    # Padding at the end of every other sequence: the mask matters.
    mask[1::2, seq - seq // 4:] = 0
    return ids.to(device), mask.to(device)


FLOATS = {onnx.TensorProto.FLOAT, onnx.TensorProto.FLOAT16,
          onnx.TensorProto.BFLOAT16, onnx.TensorProto.DOUBLE}


def externalize_float_weights(model, weights_path):
    """Moves float initializers over 1 KiB into `weights_path` (the graph
    file stays small enough to carry); integer ones (position ids, shapes)
    stay inline, as the importer folds them."""
    location = os.path.basename(weights_path)
    with open(weights_path, "wb") as f:
        for t in model.graph.initializer:
            array = numpy_helper.to_array(t)
            if t.data_type not in FLOATS or array.nbytes <= 1024:
                continue
            offset = f.tell()
            f.write(np.ascontiguousarray(array).tobytes())
            dims, dtype, name = list(t.dims), t.data_type, t.name
            t.Clear()
            t.name, t.data_type = name, dtype
            t.dims.extend(dims)
            for key, value in (("location", location), ("offset", str(offset)),
                               ("length", str(array.nbytes))):
                entry = t.external_data.add()
                entry.key, entry.value = key, value
            t.data_location = onnx.TensorProto.EXTERNAL


DYNAMIC_AXES = {"input_ids": {0: "batch", 1: "sequence"},
                "attention_mask": {0: "batch", 1: "sequence"},
                "last_hidden_state": {0: "batch", 1: "sequence"},
                "pooler_output": {0: "batch"}}


def export(dtype, batch, seq, out, dynamic=False):
    device = "cuda" if dtype == "f16" else "cpu"
    model = build(dtype, device)
    ids, mask = inputs(batch, seq, device)
    name = f"bert_{dtype}_dyn" if dynamic else f"bert_{dtype}_b{batch}"
    path = os.path.join(out, name + ".onnx")
    kwargs = dict(input_names=["input_ids", "attention_mask"],
                  output_names=["last_hidden_state", "pooler_output"],
                  opset_version=17)
    if dynamic:
        kwargs["dynamic_axes"] = DYNAMIC_AXES
    try:
        torch.onnx.export(model, (ids, mask), path, dynamo=False, **kwargs)
        exporter = "torchscript"
    except TypeError:
        torch.onnx.export(model, (ids, mask), path, **kwargs)
        exporter = "default"
    m = onnx.load(path)
    externalize_float_weights(m, os.path.join(out, name + ".weights"))
    onnx.save_model(m, path)
    m = onnx.load(path, load_external_data=False)
    ops = collections.Counter(n.op_type for n in m.graph.node)
    summary = dict(name=name, exporter=exporter, opset=[(o.domain, o.version) for o in m.opset_import],
                   nodes=len(m.graph.node), ops=dict(ops),
                   initializers=len(m.graph.initializer),
                   bytes=os.path.getsize(path))
    print(json.dumps(summary))
    return summary


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--seq", type=int, default=128)
    p.add_argument("--what", default="f16:32,f32:8")
    p.add_argument("--dynamic", action="store_true")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    print("torch", torch.__version__, "transformers", transformers.__version__,
          "onnx", onnx.__version__, file=sys.stderr)
    for item in a.what.split(","):
        dtype, batch = item.split(":")
        export(dtype, int(batch), a.seq, a.out, a.dynamic)


if __name__ == "__main__":
    main()
