"""linalg.pooling_nhwc_max (stride 2, -inf init) and pooling_nhwc_sum."""
import numpy as np
from convref import pool_nhwc

FUNCTION = "pool"
# max is exact; the 6-term f32 sums of values in [-3, 3] (|sum| <= 18, ulp
# 2e-6 there) are within a few ulp: 1e-5 relative to (1+|exp|).
TOL = 1e-5


def inputs(rng):
    return [rng.uniform(-3, 3, (2, 15, 17, 3)).astype(np.float32)]


def reference(x):
    x = x.astype(np.float64)
    return [pool_nhwc(x, (3, 3), strides=(2, 2), op="max").astype(np.float32),
            pool_nhwc(x, (2, 3), op="sum").astype(np.float32)]
