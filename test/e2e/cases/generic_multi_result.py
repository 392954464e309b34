"""Multi-output linalg.generic: fused row sum/max/argmax (reduction with an
i32 index output) and a two-result elementwise generic."""
import numpy as np

FUNCTION = "multi"
# 301-term f32 row sums whose final value is ~0 but whose partial sums
# reach ~10 (the inputs are shifted permutations): a sequential f32 sum
# errs by ~5e-6 (measured), so 5e-5. max and argmax are exact.
TOL = 5e-5


def inputs(rng):
    # Distinct values per row, so the argmax is unique regardless of order.
    x = np.stack([rng.permutation(301) for _ in range(67)]).astype(np.float64)
    x = (x / 150.0 - 1.0 + rng.uniform(0, 1e-3, (67, 301))).astype(np.float32)
    return [x, rng.uniform(-1, 1, (67, 301)).astype(np.float32)]


def reference(x, y):
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    return [x64.sum(axis=1).astype(np.float32), x.max(axis=1),
            x.argmax(axis=1).astype(np.int32),
            (x64 * y64).astype(np.float32), (x64 - y64).astype(np.float32)]
