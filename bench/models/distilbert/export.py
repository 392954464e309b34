#!/usr/bin/env python3
"""Exports a Hugging Face DistilBERT (DistilBertModel, random weights from a
fixed seed, no download) to ONNX with torch.onnx.export, on the GPU machine,
with the inputs and torch's float64-checked output for one batch:

  DIR/distilbert.onnx            the graph with its weights inside (about
                                 7 MB of f32: the config below)
  DIR/ids.npy, DIR/mask.npy      batch x seq int64 inputs
  DIR/expected.npy               torch's last_hidden_state (f32, cpu)

The weights-as-parameters check of issue 40 (bench/RESULTS.md "Module
parameters") imports the graph with its constants, compiles it here and
compares module size and compile time with the weights' size.

  python3 export.py --out DIR [--batch 2] [--seq 64]
"""
import argparse
import os

import numpy as np
import torch
import transformers

CONFIG = dict(vocab_size=2000, dim=192, n_layers=4, n_heads=6, hidden_dim=768,
              max_position_embeddings=128)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--batch", type=int, default=2)
    ap.add_argument("--seq", type=int, default=64)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    torch.manual_seed(0)
    model = transformers.DistilBertModel(transformers.DistilBertConfig(**CONFIG)).eval()
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(0, CONFIG["vocab_size"], (a.batch, a.seq), generator=g)
    mask = torch.ones(a.batch, a.seq, dtype=torch.int64)
    mask[1::2, a.seq - a.seq // 4:] = 0
    with torch.no_grad():
        expected = model(input_ids=ids, attention_mask=mask).last_hidden_state
    path = os.path.join(a.out, "distilbert.onnx")
    torch.onnx.export(model, (ids, mask), path, input_names=["input_ids", "attention_mask"],
                      output_names=["last_hidden_state"], external_data=False)
    np.save(os.path.join(a.out, "ids.npy"), ids.numpy())
    np.save(os.path.join(a.out, "mask.npy"), mask.numpy())
    np.save(os.path.join(a.out, "expected.npy"), expected.numpy().astype(np.float32))
    weights = sum(p.numel() * p.element_size() for p in model.parameters())
    print("distilbert: %d parameters, %.2f MB of weights, onnx %.2f MB"
          % (sum(p.numel() for p in model.parameters()), weights / 1e6,
             os.path.getsize(path) / 1e6))


if __name__ == "__main__":
    main()
