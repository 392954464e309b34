"""Matmul epilogues fused on every target (see the .mlir): f16 operands with
gelu and a cast to f16, a matvec, K below the packed threshold, a packed K
with a residual, a batch matmul with a per-batch bias."""
import numpy as np


def f64(x):
    return x.astype(np.float64)


def u(rng, shape, dtype=np.float32):
    return rng.uniform(-1, 1, shape).astype(dtype)


def gelu_tanh(y):
    return 0.5 * y * (1 + np.tanh(0.7978845608 * (y + 0.044715 * y ** 3)))


# f32 sums of <= 300 products of magnitude <= 1 (any order), one tanh: 1e-5
# relative; the f16 result adds its rounding (2^-11): 1e-3.
TOL = 1e-5

ENTRIES = [
    ("f16_gelu",
     lambda r: [u(r, (150, 70), np.float16), u(r, (70, 133), np.float16), u(r, 133)],
     lambda x, w, b: [gelu_tanh(f64(x) @ f64(w) + f64(b)).astype(np.float16)], 1e-3),
    ("matvec_bias", lambda r: [u(r, (1, 300)), u(r, (300, 517)), u(r, 517)],
     lambda x, w, b: [(f64(x) @ f64(w) + f64(b)).astype(np.float32)]),
    ("k96_relu", lambda r: [u(r, (203, 96)), u(r, (96, 301)), u(r, 301)],
     lambda x, w, b: [np.maximum(f64(x) @ f64(w) + f64(b), 0).astype(np.float32)]),
    ("k300_residual", lambda r: [u(r, (131, 300)), u(r, (300, 259)), u(r, (131, 259))],
     lambda x, w, c: [(f64(x) @ f64(w) + f64(c)).astype(np.float32)]),
    ("bmm_bias", lambda r: [u(r, (5, 37, 64)), u(r, (5, 64, 45)), u(r, (5, 45))],
     lambda a, b, c: [(np.matmul(f64(a), f64(b)) + f64(c)[:, None, :]).astype(np.float32)]),
]
