"""tensor.concat along dim 1 (3-D f32, three operands; 2-D i16)."""
import numpy as np

FUNCTION = "concat"
TOL = 0.0  # x*2 is exact in f32; ints exact


def inputs(rng):
    return [rng.uniform(-1, 1, (5, 7, 3)).astype(np.float32),
            rng.uniform(-1, 1, (5, 2, 3)).astype(np.float32),
            rng.uniform(-1, 1, (5, 11, 3)).astype(np.float32),
            rng.integers(-1000, 1000, (9, 4), dtype=np.int16),
            rng.integers(-1000, 1000, (9, 13), dtype=np.int16)]


def reference(a, b, c, i, j):
    cat = np.concatenate([a, b, c], axis=1) * np.float32(2)
    icat = (np.concatenate([i, j], axis=1) + np.int16(3)).astype(np.int16)
    return [cat.astype(np.float32), icat]
