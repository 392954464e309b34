"""Tensor-core matmuls with 128x128 blocks (see the .mlir)."""
import numpy as np

COMPILER_ARGS = ["--cuda-tf32"]


def _mm(a, b):
    return a.astype(np.float64) @ b.astype(np.float64)


ENTRIES = [
    # f16 operands exact in f32, 200 f32-accumulated terms: 1e-4.
    ("f16_nn", lambda r: [r.uniform(-1, 1, (2100, 200)).astype(np.float16),
                          r.uniform(-1, 1, (200, 1100)).astype(np.float16)],
     lambda a, b: [_mm(a, b).astype(np.float32)], 1e-4),
    ("i8_nt", lambda r: [r.integers(-128, 128, (2100, 208)).astype(np.int8),
                         r.integers(-128, 128, (1100, 208)).astype(np.int8)],
     lambda a, b: [(a.astype(np.int64) @ b.astype(np.int64).T).astype(np.int32)], 0.0),
    # TF32 inputs (10 mantissa bits), 100 terms of magnitude < 1: see
    # matmul_tensor_core_tf32.py.
    ("tf32_nt", lambda r: [r.uniform(-1, 1, (2100, 100)).astype(np.float32),
                           r.uniform(-1, 1, (1100, 100)).astype(np.float32)],
     lambda a, b: [_mm(a, b.T).astype(np.float32)], 1e-2),
]
