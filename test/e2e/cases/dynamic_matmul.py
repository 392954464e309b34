"""Matmuls with a dynamic M, called at M across every bucket edge of the
cuda variants (64, 256, 1024), at 1 and at 0."""
import numpy as np


def _f16(rng, *shape):
    return rng.uniform(-1, 1, shape).astype(np.float16)


def _mm(a, b):
    return a.astype(np.float64) @ b.astype(np.float64)


def mm_inputs(m):
    return lambda rng: [_f16(rng, m, 520), _f16(rng, 520, 776)]


def linear_inputs(m):
    return lambda rng: [_f16(rng, m, 264), _f16(rng, 392, 264),
                        rng.uniform(-1, 1, 392).astype(np.float32)]


def linear3d_inputs(b, s):
    return lambda rng: [_f16(rng, b, s, 264), _f16(rng, 392, 264),
                        rng.uniform(-1, 1, 392).astype(np.float32)]


def linear_reference(x, w, bias):
    y = _mm(x, w.T) + bias.astype(np.float64)
    return [np.maximum(y, 0).astype(np.float16)]


ENTRIES = (
    # f16 products are exact in f32; f32 accumulation of 520 terms.
    [("mm_f16", mm_inputs(m), lambda a, b: [_mm(a, b).astype(np.float32)],
      1e-4) for m in [1, 17, 64, 65, 256, 257, 1024, 1025, 1537, 0]] +
    # One f16 rounding of the result.
    [("linear_relu_f16", linear_inputs(m), linear_reference, 2e-3)
     for m in [1, 63, 64, 65, 1023, 1025, 2050, 0]] +
    # batch * seq at 1, 64 (a bucket edge), 66, 1025 and 0.
    [("linear3d_relu_f16", linear3d_inputs(b, s), linear_reference, 2e-3)
     for b, s in [(1, 1), (2, 32), (3, 22), (5, 205), (0, 7)]]
)
