"""tensor.insert at a constant, a data-dependent and an out-of-range
position (the last leaves the tensor unchanged: Tessel's defined rule)."""
import numpy as np

FUNCTION = "insert"
TOL = 0  # data movement


def inputs(rng):
    return [rng.standard_normal((13, 17)).astype(np.float32),
            np.array([9, 2], dtype=np.int32),
            np.array(-3.25, dtype=np.float32)]


def reference(x, at, v):
    out = x.copy()
    out[1, 4] = 42.5
    out[at[0], at[1]] = v
    return [out]
