"""f64: interleaved parallel/reduction generic (reduce dims 1 and 3 with a
broadcast weight), and an elementwise chain with log/sqrt/exp/powf/cos/atan."""
import numpy as np

FUNCTION = "f64ops"
# f64: 117-term sums and libm-accurate transcendental functions: 1e-12.
TOL = 1e-12


def inputs(rng):
    return [rng.uniform(-1, 1, (7, 9, 11, 13)), rng.uniform(-1, 1, (13,)),
            rng.uniform(0.1, 5, (23, 19))]


def reference(x, w, p):
    r = np.einsum("abcd,d->ac", x, w)
    c = (np.log(p) * np.sqrt(p) - np.exp(-p) + p ** 1.5 / (1 + np.cos(p) ** 2) + np.arctan(p))
    return [r, c]
