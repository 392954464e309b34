"""linalg.matvec / vecmat / dot in f64; dot returns a rank-0 tensor."""
import numpy as np

FUNCTION = "mv"
# f64 with at most 1023-term sums: error ~ sqrt(1023)*1.1e-16*|sum| ~ 1e-14;
# 1e-11 allows any reassociation.
TOL = 1e-11


def inputs(rng):
    return [rng.uniform(-1, 1, (67, 129)), rng.uniform(-1, 1, (129,)),
            rng.uniform(-1, 1, (67,)), rng.uniform(-1, 1, (1023,)),
            rng.uniform(-1, 1, (1023,))]


def reference(m, x, y, u, v):
    return [m @ x, y @ m, np.asarray(np.dot(u, v), dtype=np.float64)]
