"""1x1 convolutions (see the .mlir)."""
import numpy as np


def _h(rng, *shape):
    return rng.uniform(-1, 1, shape).astype(np.float16)


def ref_bias_relu(x, w, b):
    y = np.einsum("nhwc,cf->nhwf", x.astype(np.float64), w[0, 0].astype(np.float64))
    return [np.maximum(y + b, 0).astype(np.float32)]


def ref_stride2(x, w):
    y = np.einsum("nhwc,cf->nhwf", x[:, ::2, ::2, :].astype(np.float64),
                  w[0, 0].astype(np.float64))
    return [y.astype(np.float32)]


# f16 operands exact in f32, 64 or 16 f32-accumulated terms: 1e-4.
TOL = 1e-4

ENTRIES = [
    ("conv1x1_bias_relu",
     lambda r: [_h(r, 2, 13, 11, 64), _h(r, 1, 1, 64, 40),
                r.uniform(-1, 1, 40).astype(np.float32)], ref_bias_relu),
    ("conv1x1_stride2", lambda r: [_h(r, 1, 9, 9, 16), _h(r, 1, 1, 16, 24)],
     ref_stride2),
]
