"""linalg.generic with transposed input, row/column broadcasts and a rank-0
scalar input broadcast through a () map."""
import numpy as np

FUNCTION = "bt"
TOL = 1e-6  # three f32 roundings


def inputs(rng):
    return [rng.uniform(-1, 1, (53, 37)).astype(np.float32),
            rng.uniform(-1, 1, (53,)).astype(np.float32),
            rng.uniform(-1, 1, (37,)).astype(np.float32),
            np.asarray(rng.uniform(0.5, 1.5), dtype=np.float32)]


def reference(x, row, col, s):
    x, row, col, s = (v.astype(np.float64) for v in (x, row, col, s))
    return [(x.T * row[None, :] + col[:, None] - s).astype(np.float32)]
