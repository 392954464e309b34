"""pad + conv_2d_nhwc_hwcf + bias + relu + max pool (2x2, stride 2)."""
import numpy as np

from convref import conv2d_nhwc_hwcf, pool_nhwc

FUNCTION = "block"
TOL = 1e-5  # 54-term f32 reductions of values <= 1


def inputs(rng):
    return [rng.uniform(-1, 1, (2, 21, 19, 6)).astype(np.float32),
            rng.uniform(-0.5, 0.5, (3, 3, 6, 10)).astype(np.float32),
            rng.uniform(-0.5, 0.5, (10,)).astype(np.float32)]


def reference(x, f, bias):
    xp = np.pad(x.astype(np.float64), ((0, 0), (1, 1), (1, 1), (0, 0)))
    c = conv2d_nhwc_hwcf(xp, f.astype(np.float64)) + bias.astype(np.float64)
    a = np.maximum(c, 0.0)
    return [pool_nhwc(a, (2, 2), strides=(2, 2), op="max").astype(np.float32)]
