"""tensor.extract_slice (strided, rank-reducing), tensor.insert_slice
(strided into an argument; overlapping inserts into a filled tensor)."""
import numpy as np

FUNCTION = "slices"
TOL = 1e-6  # data movement + one mul/add (x*2 exact, +1 one rounding)


def inputs(rng):
    return [rng.uniform(-1, 1, (37, 53)).astype(np.float32),
            rng.uniform(-1, 1, (37, 53)).astype(np.float32)]


def reference(x, y):
    s = x[3:3 + 2 * 11:2, 5:5 + 3 * 16:3].copy()
    row = x[7, :].copy()
    ins = y.copy()
    ins[1:1 + 3 * 11:3, 2:2 + 2 * 16:2] = (s.astype(np.float64) * 2 + 1).astype(np.float32)
    p = np.full((5, 61), -7.0, dtype=np.float32)
    p[1, 3:56] = row
    p[4, 8:61] = row
    return [s, row, ins, p]
