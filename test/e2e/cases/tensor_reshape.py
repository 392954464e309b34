"""tensor.expand_shape / collapse_shape combined with reduce and matmul."""
import numpy as np

FUNCTION = "reshape"
TOL = 1e-5  # 5- and 9-term f32 sums


def inputs(rng):
    return [rng.uniform(-1, 1, (1155,)).astype(np.float32),
            rng.uniform(-1, 1, (5, 7, 9)).astype(np.float32),
            rng.uniform(-1, 1, (9, 13)).astype(np.float32)]


def reference(v, x, w):
    e4 = v.reshape(3, 5, 7, 11).copy()
    red = e4.astype(np.float64).sum(axis=1).reshape(231)
    mm = (x.astype(np.float64).reshape(35, 9) @ w.astype(np.float64)).reshape(5, 7, 13)
    return [e4, red.astype(np.float32), mm.astype(np.float32)]
