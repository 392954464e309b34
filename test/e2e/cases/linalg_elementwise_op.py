"""linalg.elementwise with kinds add/exp/mul and broadcast/transpose
indexing_maps; linalg.select with an i1 tensor condition (i1 input)."""
import numpy as np

FUNCTION = "ew"
# A few f32 roundings + exp: 1e-5.
TOL = 1e-5


def inputs(rng):
    return [rng.uniform(-1, 1, (41, 67)).astype(np.float32),
            rng.uniform(-1, 1, (67,)).astype(np.float32),
            rng.uniform(-2, 2, (67, 41)).astype(np.float32),
            rng.random((41, 67)) < 0.5]


def reference(a, v, t, cond):
    a64 = a.astype(np.float64)
    add = a64 + v.astype(np.float64)[None, :]
    add32 = add.astype(np.float32)
    exp = np.exp(t.astype(np.float64).T)
    exp32 = exp.astype(np.float32)
    # The op multiplies the two rounded f32 intermediates.
    mul32 = (add32.astype(np.float64) * exp32.astype(np.float64)).astype(np.float32)
    sel = np.where(cond, a, mul32)
    return [add32, exp32, mul32, sel]
