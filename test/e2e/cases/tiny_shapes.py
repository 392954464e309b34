"""Unit dims and tiny tensors: 1x7x1 and K=1 matmuls, broadcasting through
constant-0 map results, unit-dim reduction and softmax, a 1-element vector."""
import numpy as np

FUNCTION = "tiny"
TOL = 1e-6  # at most 7-term sums


def inputs(rng):
    f = lambda *s: rng.uniform(-1, 1, s).astype(np.float32)  # noqa: E731
    return [f(1, 7), f(7, 1), f(3, 1), f(1, 5), f(3, 1, 5), f(1, 4, 1), f(1)]


def reference(x, y, u, v, p, q, one):
    d = lambda a: a.astype(np.float64)  # noqa: E731
    return [(d(x) @ d(y)).astype(np.float32), (d(u) @ d(v)).astype(np.float32),
            (d(p) + d(q)).astype(np.float32),  # (3,1,5) + (1,4,1) broadcasts to 3x4x5
            p[:, 0, :].copy(), np.ones((3, 1, 5), dtype=np.float32), -one]
