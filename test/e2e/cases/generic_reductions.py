"""linalg.generic reductions: inner dim (sum), outer dim (max), full
reduction to rank-0 (sum of squares)."""
import numpy as np

FUNCTION = "reduce"
# The full reduction sums 8643 positive f32 terms (~2900 total): error
# grows ~sqrt(n)*eps or, for a sequential loop, ~n*eps ~ 1e-3 relative in
# the worst case; 1e-4 relative works for any tree/sequential order in
# practice (typical error ~1e-6). Row sums: 67 terms.
TOL = 1e-4


def inputs(rng):
    return [rng.uniform(-1, 1, (129, 67)).astype(np.float32)]


def reference(x):
    x64 = x.astype(np.float64)
    return [x64.sum(axis=1).astype(np.float32), x.max(axis=0),
            np.asarray((x64 * x64).sum(), dtype=np.float32)]
