"""3-D permutations in a linalg.generic, plus a transposing reduction."""
import numpy as np

FUNCTION = "permute"
TOL = 1e-5  # one rounding / 17-term sums


def inputs(rng):
    return [rng.uniform(-1, 1, (13, 17, 19)).astype(np.float32),
            rng.uniform(-1, 1, (17, 19, 13)).astype(np.float32)]


def reference(x, y):
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    # out[k,i,j] = x[i,j,k] + y[j,k,i]
    r = np.einsum("ijk->kij", x64) + np.einsum("jki->kij", y64)
    r2 = np.einsum("ijk->ki", x64)
    return [r.astype(np.float32), r2.astype(np.float32)]
