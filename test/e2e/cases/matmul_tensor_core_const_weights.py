"""Constant weights and bias (see the .mlir)."""
import numpy as np

FUNCTION = "linear_const"
K, N = 40, 24
W = np.array([[((i * 7 + j * 3) % 17 - 8) / 8.0 for j in range(N)] for i in range(K)])
BIAS = np.array([((j * 5) % 11 - 5) / 4.0 for j in range(N)])
# f16 operands exact in f32, 40 f32-accumulated terms: 1e-4.
TOL = 1e-4


def inputs(rng):
    return [rng.uniform(-1, 1, (77, K)).astype(np.float16)]


def reference(x):
    return [(x.astype(np.float64) @ W + BIAS).astype(np.float32)]
