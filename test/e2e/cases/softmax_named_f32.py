"""linalg.softmax, dimension 1 of 1000x1001 and dimension 0 of 7x5x3."""
import numpy as np

FUNCTION = "softmax"
# Outputs are in [0, 1]; exp + a 1001-term f32 sum + divide: relative error
# of a few 1e-7 on each probability, so 1e-5 on (1+|exp|) is generous while
# still catching a missing max-subtraction or a wrong normalisation.
TOL = 1e-5


def inputs(rng):
    return [rng.uniform(-10, 10, (1000, 1001)).astype(np.float32),
            rng.uniform(-3, 3, (7, 5, 3)).astype(np.float32)]


def _softmax(x, axis):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return (e / e.sum(axis=axis, keepdims=True)).astype(np.float32)


def reference(x, y):
    return [_softmax(x, 1), _softmax(y, 0)]
