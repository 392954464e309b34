"""linalg.matmul f32, 257x263 @ 263x259 + C (accumulate into an argument)."""
import numpy as np

FUNCTION = "matmul_acc"
# f32, K=263 (+1 for C): see matmul_f32; 1e-4 relative to (1+|exp|).
TOL = 1e-4


def inputs(rng):
    return [rng.uniform(-1, 1, (257, 263)).astype(np.float32),
            rng.uniform(-1, 1, (263, 259)).astype(np.float32),
            rng.uniform(-4, 4, (257, 259)).astype(np.float32)]


def reference(a, b, c):
    r = c.astype(np.float64) + a.astype(np.float64) @ b.astype(np.float64)
    return [r.astype(np.float32)]
