"""linalg.batch_matmul (plain, accumulating into an argument) and with a
transposed RHS via indexing_maps; two results."""
import numpy as np

FUNCTION = "bmm"
# f32, K=53: 1e-4 (see matmul_f32).
TOL = 1e-4


def inputs(rng):
    return [rng.uniform(-1, 1, (5, 37, 53)).astype(np.float32),
            rng.uniform(-1, 1, (5, 53, 41)).astype(np.float32),
            rng.uniform(-1, 1, (5, 37, 41)).astype(np.float32),
            rng.uniform(-1, 1, (5, 41, 53)).astype(np.float32)]


def reference(a, b, c, bt):
    a64, b64, c64, bt64 = (x.astype(np.float64) for x in (a, b, c, bt))
    r = c64 + np.matmul(a64, b64)
    t = np.matmul(a64, np.transpose(bt64, (0, 2, 1)))
    return [r.astype(np.float32), t.astype(np.float32)]
