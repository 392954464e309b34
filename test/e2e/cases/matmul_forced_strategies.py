"""Matmuls with forced strategies (see the .mlir and the .json)."""
import os

import numpy as np
from e2eutil import bf16_to_f64, to_bf16

COMPILER_ARGS = ["--tessel-strategy-file=" +
                 os.path.join(os.path.dirname(os.path.abspath(__file__)),
                              "matmul_forced_strategies.json")]


def _f16(rng, *shape):
    return rng.uniform(-1, 1, shape).astype(np.float16)


def _mm(a, b):
    return [(a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)]


# f16 products are exact in f32; f32 accumulation of 200 terms.
_F16 = (lambda r: [_f16(r, 333, 200), _f16(r, 200, 520)], _mm, 1e-4)

ENTRIES = [
    ("mm_a",) + _F16,
    ("mm_b",) + _F16,
    ("mm_c",) + _F16,
    ("mm_e", lambda r: [_f16(r, 2000, 72), _f16(r, 72, 2104)], _mm, 1e-4),
    # One f16 rounding of the f32 sum (2^-11 relative).
    ("nt_g", lambda r: [_f16(r, 2050, 192), _f16(r, 2600, 192)],
     lambda a, b: [(a.astype(np.float64) @ b.astype(np.float64).T).astype(np.float16)], 2e-3),
    ("linear_d",
     lambda r: [to_bf16(r.uniform(-1, 1, (301, 136))), to_bf16(r.uniform(-1, 1, (259, 136)))],
     lambda x, w: [(bf16_to_f64(x) @ bf16_to_f64(w).T).astype(np.float32)], 1e-4),
    ("mm_f32",
     lambda r: [r.uniform(-1, 1, (301, 77)).astype(np.float32),
                r.uniform(-1, 1, (77, 259)).astype(np.float32)],
     _mm, 1e-4),
]
