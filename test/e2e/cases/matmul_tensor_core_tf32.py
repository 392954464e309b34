"""f32 matmuls with --cuda-tf32 (see the .mlir)."""
import numpy as np

COMPILER_ARGS = ["--cuda-tf32"]


def _f(rng, *shape):
    return rng.uniform(-1, 1, shape).astype(np.float32)


def _mm(a, b):
    return a.astype(np.float64) @ b.astype(np.float64)


# TF32 keeps 10 mantissa bits of each input (relative error up to 2^-10
# each, so about 2^-9 per product); K <= 96 products of magnitude < 1
# accumulate about sqrt(K) * 2^-9 * 0.3 ~ 6e-3 absolute against results
# of magnitude ~3: 1e-2 (the cpu computes exact f32 and is far inside).
TOL = 1e-2

ENTRIES = [
    ("nn", lambda r: [_f(r, 150, 96), _f(r, 96, 136)],
     lambda a, b: [_mm(a, b).astype(np.float32)]),
    ("nt_unaligned", lambda r: [_f(r, 70, 37), _f(r, 45, 37)],
     lambda a, b: [_mm(a, b.T).astype(np.float32)]),
    ("tn", lambda r: [_f(r, 64, 72), _f(r, 64, 40)],
     lambda a, b: [_mm(a.T, b).astype(np.float32)]),
]
