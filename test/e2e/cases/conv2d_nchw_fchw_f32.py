"""linalg.conv_2d_nchw_fchw, strides [1,2], dilations [2,1], non-zero init."""
import numpy as np
from convref import conv2d_nchw_fchw

FUNCTION = "conv"
# f32, 45-term reductions: 1e-5.
TOL = 1e-5


def inputs(rng):
    return [rng.uniform(-1, 1, (2, 3, 23, 21)).astype(np.float32),
            rng.uniform(-1, 1, (6, 3, 5, 3)).astype(np.float32),
            rng.uniform(-1, 1, (2, 6, 15, 10)).astype(np.float32)]


def reference(x, f, init):
    r = init.astype(np.float64) + conv2d_nchw_fchw(
        x.astype(np.float64), f.astype(np.float64), strides=(1, 2), dilations=(2, 1))
    return [r.astype(np.float32)]
