"""Writes random inputs for samples/mlp.mlir and the float64 numpy reference."""
import os
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(2026)
x = rng.standard_normal((197, 301)).astype(np.float32)
w1 = (rng.standard_normal((301, 259)) / np.sqrt(301)).astype(np.float32)
b1 = rng.standard_normal(259).astype(np.float32)
w2 = (rng.standard_normal((259, 61)) / np.sqrt(259)).astype(np.float32)
b2 = rng.standard_normal(61).astype(np.float32)
for name, a in dict(x=x, w1=w1, b1=b1, w2=w2, b2=b2).items():
    np.save(os.path.join(out, name + ".npy"), a)
h = np.maximum(x.astype(np.float64) @ w1 + b1, 0.0)
logits = h @ w2 + b2
e = np.exp(logits - logits.max(axis=1, keepdims=True))
np.save(os.path.join(out, "expected.npy"), (e / e.sum(axis=1, keepdims=True)).astype(np.float32))
