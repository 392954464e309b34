"""Tensor-core matmuls with 128x128 blocks (see the .mlir)."""
import numpy as np


def _mm(a, b):
    return a.astype(np.float64) @ b.astype(np.float64)


ENTRIES = [
    # f32 accumulation of 200 exact f16 products, one f16 rounding
    # (2^-11 relative): 1e-3.
    ("f16_nn", lambda r: [r.uniform(-1, 1, (2100, 200)).astype(np.float16),
                          r.uniform(-1, 1, (200, 1100)).astype(np.float16)],
     lambda a, b: [_mm(a, b).astype(np.float16)], 1e-3),
    # f16 operands exact in f32, 64 f32-accumulated terms: 1e-4.
    ("f16_narrow_n", lambda r: [r.uniform(-1, 1, (16500, 64)).astype(np.float16),
                                r.uniform(-1, 1, (64, 40)).astype(np.float16)],
     lambda a, b: [_mm(a, b).astype(np.float32)], 1e-4),
    ("f16_narrow_m", lambda r: [r.uniform(-1, 1, (50, 64)).astype(np.float16),
                                r.uniform(-1, 1, (64, 16500)).astype(np.float16)],
     lambda a, b: [_mm(a, b).astype(np.float32)], 1e-4),
]
