"""Long elementwise chain in one generic body (exp, tanh, log, log1p, sqrt,
absf, divf, cmpf, select, negf, minimumf), 1-D and 3-D; i1 mask output."""
import numpy as np

# ~15 f32 operations incl. several transcendental ones (possibly polynomial
# approximations): errors of ~10 ulp in the worst case -> 1e-5 relative.
TOL = 1e-5


def _chain(a, b):
    a, b = a.astype(np.float64), b.astype(np.float64)
    ab = np.abs(b)
    l = np.log1p(ab)
    d = (np.exp(a) * np.tanh(b) + np.log(1.0 + ab)) / np.sqrt(1.0 + ab)
    c = a > b
    sel = np.where(c, d, -d)
    return (np.minimum(sel, l) * 0.5 + sel).astype(np.float32), c


def _inputs(rng, shape):
    x = rng.uniform(-3, 3, shape).astype(np.float32)
    y = rng.uniform(-3, 3, shape).astype(np.float32)
    return [x, y]


def reference_1d(x, y):
    r, c = _chain(x, y)
    return [r, c]


def reference_3d(x, y):
    return [_chain(x, y)[0]]


ENTRIES = [
    ("chain1d", lambda rng: _inputs(rng, (1023,)), reference_1d),
    ("chain3d", lambda rng: _inputs(rng, (5, 37, 41)), reference_3d),
]
