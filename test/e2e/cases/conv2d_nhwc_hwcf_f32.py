"""linalg.conv_2d_nhwc_hwcf: stride 2, and stride 1 with dilation 2."""
import numpy as np
from convref import conv2d_nhwc_hwcf

FUNCTION = "conv"
# f32, 45-term reductions of values <= 1: 1e-5 relative to (1+|exp|).
TOL = 1e-5


def inputs(rng):
    return [rng.uniform(-1, 1, (2, 17, 19, 5)).astype(np.float32),
            rng.uniform(-1, 1, (3, 3, 5, 7)).astype(np.float32)]


def reference(x, f):
    x, f = x.astype(np.float64), f.astype(np.float64)
    return [conv2d_nhwc_hwcf(x, f, strides=(2, 2)).astype(np.float32),
            conv2d_nhwc_hwcf(x, f, dilations=(2, 2)).astype(np.float32)]
