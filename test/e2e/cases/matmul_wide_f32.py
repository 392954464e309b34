"""linalg.matmul f32 2051x37 @ 37x2053 (the GPU's 8x8-per-thread tiles,
with partial tiles on every side)."""
import numpy as np

FUNCTION = "matmul_wide"
# f32 with K=37 in any order: a few ulps of the row/column magnitudes.
TOL = 1e-5


def inputs(rng):
    return [rng.uniform(-1, 1, (2051, 37)).astype(np.float32),
            rng.uniform(-1, 1, (37, 2053)).astype(np.float32)]


def reference(a, b):
    return [(a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)]
