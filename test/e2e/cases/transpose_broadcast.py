"""linalg.transpose (3-D perm, i32 2-D) and linalg.broadcast (f32, f16)."""
import numpy as np

FUNCTION = "tb"
TOL = 0.0  # pure data movement: bit-exact


def inputs(rng):
    return [rng.standard_normal((7, 11, 13)).astype(np.float32),
            rng.integers(-1000, 1000, (37, 53), dtype=np.int32),
            rng.standard_normal((37,)).astype(np.float32),
            rng.standard_normal((5, 9)).astype(np.float16)]


def reference(x, m, v, w):
    return [np.transpose(x, (2, 0, 1)).copy(), m.T.copy(),
            np.broadcast_to(v[None, :], (53, 37)).copy(),
            np.broadcast_to(w[:, None, :], (5, 3, 9)).copy()]
