"""Reductions split into partials (full, few rows, columns, int max) and
one that cannot be split (prime length), at odd sizes."""
import numpy as np

FUNCTION = "split"
# Sums of up to 49152 uniform [-1, 1) f32 terms in any order (chunked
# partials, then a tree): relative error ~sqrt(n)*eps on a total of
# magnitude ~sqrt(n); 1e-4 relative to (1 + |total|) covers any order.
# The int max is exact.
TOL = [1e-4, 1e-4, 1e-4, 0, 1e-4]


def inputs(rng):
    return [rng.uniform(-1, 1, 49152).astype(np.float32),
            rng.uniform(-1, 1, (5, 12288)).astype(np.float32),
            rng.uniform(-1, 1, (1000, 77)).astype(np.float32),
            rng.integers(-2**31, 2**31 - 1, (4104, 33), dtype=np.int32),
            rng.uniform(-1, 1, (3, 4099)).astype(np.float32)]


def reference(a, b, c, d, e):
    f64 = np.float64
    return [np.asarray(a.astype(f64).sum(), dtype=np.float32),
            b.astype(f64).sum(axis=1).astype(np.float32),
            c.astype(f64).sum(axis=0).astype(np.float32),
            d.max(axis=0),
            e.astype(f64).sum(axis=1).astype(np.float32)]
