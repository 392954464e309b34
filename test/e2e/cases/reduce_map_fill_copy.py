"""linalg.reduce (middle dim sum; two-dim max), linalg.map, linalg.fill,
linalg.copy."""
import numpy as np

FUNCTION = "rmfc"
# 53-term f32 sums: 1e-5; max/map/fill/copy are exact or 1 rounding.
TOL = 1e-5


def inputs(rng):
    return [rng.uniform(-1, 1, (37, 53, 19)).astype(np.float32),
            rng.uniform(-2, 2, (29, 31)).astype(np.float32),
            rng.uniform(-2, 2, (29, 31)).astype(np.float32)]


def reference(x, a, b):
    x64 = x.astype(np.float64)
    return [x64.sum(axis=1).astype(np.float32),
            x.max(axis=(0, 2)),
            (a.astype(np.float64) * b.astype(np.float64) + 1.0).astype(np.float32),
            np.full((17, 23), 2.5, dtype=np.float32),
            b.copy()]
