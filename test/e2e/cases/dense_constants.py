"""Non-splat dense constants as matmul weights, bias, conv filter, and an
i32 multiplier."""
import numpy as np

from convref import conv2d_nhwc_hwcf

FUNCTION = "consts"
TOL = 1e-5  # 5- and 9-term f32 sums

W = np.array([[1.0, -1.0, 0.5, 2.0], [0.25, 3.0, -2.0, 1.0], [-1.5, 0.0, 1.0, -0.5],
              [2.0, 0.75, -0.25, 1.0], [0.0, -3.0, 1.25, 0.5]])
BIAS = np.array([0.5, -1.0, 2.0, -0.125])
F = np.zeros((3, 3, 1, 2))
F[:, :, 0, 0] = [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]
F[:, :, 0, 1] = np.array([[1, 2, 1], [2, 4, 2], [1, 2, 1]]) / 16.0


def inputs(rng):
    return [rng.uniform(-1, 1, (13, 5)).astype(np.float32),
            rng.uniform(0, 1, (1, 9, 11, 1)).astype(np.float32),
            rng.integers(-1000, 1000, (4,), dtype=np.int32)]


def reference(x, img, k):
    out = x.astype(np.float64) @ W + BIAS
    conv = conv2d_nhwc_hwcf(img.astype(np.float64), F)
    return [out.astype(np.float32), conv.astype(np.float32),
            (k * np.array([3, -7, 100, 0], dtype=np.int32)).astype(np.int32)]
