"""linalg.depthwise_conv_2d_nhwc_hwc: padded 'same' conv and strided+dilated."""
import numpy as np
from convref import depthwise_conv2d_nhwc_hwc

FUNCTION = "dw"
# f32, 9-term reductions: 1e-5.
TOL = 1e-5


def inputs(rng):
    return [rng.uniform(-1, 1, (1, 15, 13, 11)).astype(np.float32),
            rng.uniform(-1, 1, (3, 3, 11)).astype(np.float32)]


def reference(x, f):
    x, f = x.astype(np.float64), f.astype(np.float64)
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    return [depthwise_conv2d_nhwc_hwc(xp, f).astype(np.float32),
            depthwise_conv2d_nhwc_hwc(x, f, strides=(2, 2), dilations=(2, 2)).astype(np.float32)]
