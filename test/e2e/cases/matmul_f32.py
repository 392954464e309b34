"""linalg.matmul f32, 129x301 @ 301x67 (K=301), fill-initialised accumulator."""
import numpy as np

FUNCTION = "matmul"
# f32 accumulation over K=301 terms of magnitude <= 1: rounding error grows
# like sqrt(K)*eps*|partial sums| ~ 1e-6; 1e-4 leaves room for any
# summation order (tiled / split-K / vectorised reassociation).
TOL = 1e-4


def inputs(rng):
    return [rng.uniform(-1, 1, (129, 301)).astype(np.float32),
            rng.uniform(-1, 1, (301, 67)).astype(np.float32)]


def reference(a, b):
    return [(a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)]
