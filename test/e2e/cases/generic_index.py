"""linalg.index: triangular mask, iota (index_cast to i32), (i-j) weights."""
import numpy as np

FUNCTION = "index"
TOL = 1e-6  # one f32 rounding at most; the i32 result is exact


def inputs(rng):
    return [rng.uniform(-1, 1, (45, 61)).astype(np.float32)]


def reference(x):
    i, j = np.meshgrid(np.arange(45), np.arange(61), indexing="ij")
    tri = np.where(j <= i, x, np.float32(-1.0)).astype(np.float32)
    iota = (i * 1000 + j).astype(np.int32)
    w = (x.astype(np.float64) * (i - j)).astype(np.float32)
    return [tri, iota, w]
