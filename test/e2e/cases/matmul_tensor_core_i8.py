"""i8 x i8 -> i32 matmuls on tensor cores (see the .mlir): exact."""
import numpy as np


def _i8(rng, *shape):
    return rng.integers(-128, 128, shape).astype(np.int8)


def _mm(a, b):
    return a.astype(np.int64) @ b.astype(np.int64)


ENTRIES = [
    ("s8_nt",
     lambda r: [_i8(r, 133, 208), _i8(r, 72, 208),
                r.integers(-1000, 1000, (133, 72)).astype(np.int32)],
     lambda a, b, c: [(c + _mm(a, b.T)).astype(np.int32)], 0.0),
    ("u8_unaligned", lambda r: [_i8(r, 65, 77), _i8(r, 31, 77)],
     lambda a, b: [_mm(a.view(np.uint8), b.view(np.uint8).T).astype(np.int32)],
     0.0),
    ("s8_batch", lambda r: [_i8(r, 3, 40, 96), _i8(r, 3, 24, 96)],
     lambda a, b: [np.einsum("bmk,bnk->bmn", a.astype(np.int64),
                             b.astype(np.int64)).astype(np.int32)], 0.0),
]
