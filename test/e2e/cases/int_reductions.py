"""Integer reductions: i8 -> i32 column sums, i16 max/min via linalg.reduce,
i64 full sum to rank 0, i32 row sums of a 257x1001 tensor."""
import numpy as np

FUNCTION = "ired"
TOL = 0  # exact


def inputs(rng):
    return [rng.integers(-128, 128, (301, 45), dtype=np.int8),
            rng.integers(-30000, 30000, (33, 65), dtype=np.int16),
            rng.integers(-10**12, 10**12, (1023,), dtype=np.int64),
            rng.integers(-10**5, 10**5, (257, 1001), dtype=np.int32)]


def reference(a, h, l, big):
    return [a.astype(np.int64).sum(axis=0).astype(np.int32), h.max(axis=1), h.min(axis=0),
            np.asarray(l.sum(), dtype=np.int64), big.astype(np.int64).sum(axis=1).astype(np.int32)]
