"""Edge shapes of the CPU packed-panel strategy: matmuls at and around its
MR/NR/KC boundaries, a linear layer (B stored N x K), a batch, accumulation
into an argument, f64, and implicit-GEMM convolutions."""
import numpy as np
from convref import conv2d_nhwc_hwcf

# f32 sums of up to 513 products of magnitude <= 1, any order.
TOL = 1e-4


def _u(rng, shape, dtype=np.float32):
    return rng.uniform(-1, 1, shape).astype(dtype)


def _f64(*xs):
    return [x.astype(np.float64) for x in xs]


def _mm(m, n, k, dtype=np.float32):
    return (lambda rng: [_u(rng, (m, k), dtype), _u(rng, (k, n), dtype)],
            lambda a, b: [(np.matmul(*_f64(a, b))).astype(dtype)])


def _conv(n, h, w, c, kh, kw, f, s, d):
    return (lambda rng: [_u(rng, (n, h, w, c)), _u(rng, (kh, kw, c, f))],
            lambda x, fl: [conv2d_nhwc_hwcf(*_f64(x, fl), strides=(s, s),
                                            dilations=(d, d)).astype(np.float32)])


ENTRIES = [
    ("pk_min", *_mm(17, 33, 128)),
    ("pk_kc_edges", *_mm(97, 95, 257)),
    ("pk_odd", *_mm(255, 257, 513)),
    ("pk_f64", *_mm(60, 50, 140, np.float64)),
    ("pk_linear",
     lambda rng: [_u(rng, (129, 300)), _u(rng, (67, 300))],
     lambda a, w: [(np.matmul(*_f64(a, w.T))).astype(np.float32)]),
    ("pk_batch",
     lambda rng: [_u(rng, (3, 45, 200)), _u(rng, (3, 200, 70))],
     lambda a, b: [np.matmul(*_f64(a, b)).astype(np.float32)]),
    ("pk_acc",
     lambda rng: [_u(rng, (70, 130)), _u(rng, (130, 50)), _u(rng, (70, 50))],
     lambda a, b, c: [(np.matmul(*_f64(a, b)) + c).astype(np.float32)]),
    ("pk_conv_odd", *_conv(2, 13, 11, 16, 3, 3, 33, 1, 1)),
    ("pk_conv_stride2", *_conv(3, 17, 19, 24, 3, 3, 40, 2, 1)),
    ("pk_conv_dilated", *_conv(2, 15, 15, 24, 3, 2, 40, 1, 2)),
    ("pk_conv_stem", *_conv(1, 23, 23, 3, 7, 7, 17, 2, 1)),
]
