"""linalg.matmul with indexing_maps: A*B^T and A^T*B (two public functions)."""
import numpy as np

# f32, K=131: 1e-4 (see matmul_f32).
TOL = 1e-4


def inputs_tb(rng):
    return [rng.uniform(-1, 1, (45, 131)).astype(np.float32),
            rng.uniform(-1, 1, (77, 131)).astype(np.float32)]


def reference_tb(a, b):
    return [(a.astype(np.float64) @ b.astype(np.float64).T).astype(np.float32)]


def inputs_ta(rng):
    return [rng.uniform(-1, 1, (131, 45)).astype(np.float32),
            rng.uniform(-1, 1, (131, 77)).astype(np.float32)]


def reference_ta(a, b):
    return [(a.astype(np.float64).T @ b.astype(np.float64)).astype(np.float32)]


ENTRIES = [
    ("matmul_tb", inputs_tb, reference_tb),
    ("matmul_ta", inputs_ta, reference_ta),
]
