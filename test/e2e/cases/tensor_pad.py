"""tensor.pad: non-zero constant, asymmetric low/high, 2-D f32 and 4-D i32;
padding value from a rank-0 argument via tensor.extract; compute after."""
import numpy as np

FUNCTION = "pad"
TOL = 1e-6  # copies + one multiplication


def inputs(rng):
    return [rng.uniform(-1, 1, (13, 17)).astype(np.float32),
            rng.integers(-100, 100, (2, 3, 5, 7), dtype=np.int32),
            np.asarray(rng.uniform(2, 3), dtype=np.float32)]


def reference(x, y, v):
    p0 = np.pad(x, ((3, 4), (0, 5)), constant_values=1.5)
    p1 = np.pad(y, ((1, 0), (0, 0), (2, 3), (0, 2)), constant_values=-9)
    p2 = np.pad(x, ((1, 1), (0, 0)), constant_values=v).astype(np.float64)
    return [p0, p1, (p2 * p2).astype(np.float32)]
