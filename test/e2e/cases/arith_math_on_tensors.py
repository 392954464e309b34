"""arith/math ops directly on tensors (7x9 and 1-D 100003), incl. cmpf
producing tensor<7x9xi1> and select on tensors."""
import numpy as np

# Chains of <= 8 f32 ops incl. exp/log/tanh approximations: 1e-5.
TOL = 1e-5


def inputs_small(rng):
    return [rng.uniform(-2, 2, (7, 9)).astype(np.float32),
            rng.uniform(-2, 2, (7, 9)).astype(np.float32),
            rng.uniform(0.1, 3, (7, 9)).astype(np.float32)]


def reference_small(a, b, p):
    a, b, p = (v.astype(np.float64) for v in (a, b, p))
    mx = np.maximum(-(((a + b) * a - b) / p), b)
    t3 = np.exp(a) + np.log(p) - np.sqrt(p) * np.tanh(b) + np.abs(b)
    cmp = a < b
    # The select picks between the f32-rounded %max and %t3.
    mx32, t332 = mx.astype(np.float32), t3.astype(np.float32)
    return [mx32, t332, cmp, np.where(cmp, mx32, t332)]


def inputs_1d(rng):
    return [rng.uniform(-2, 2, (100003,)).astype(np.float32),
            rng.uniform(-2, 2, (100003,)).astype(np.float32)]


def reference_1d(a, b):
    a, b = a.astype(np.float64), b.astype(np.float64)
    return [np.tanh(a * b + np.exp(a) * b).astype(np.float32)]


ENTRIES = [
    ("tensor_ops", inputs_small, reference_small),
    ("tensor_ops_1d", inputs_1d, reference_1d),
]
