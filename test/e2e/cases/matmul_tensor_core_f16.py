"""f16 contractions on tensor cores (see the .mlir): every layout, odd and
unaligned shapes, M/K of 1, f16 accumulation, a generic batch matmul."""
import numpy as np


def _h(rng, *shape):
    return rng.uniform(-1, 1, shape).astype(np.float16)


def _mm(a, b):
    return a.astype(np.float64) @ b.astype(np.float64)


# f16 operands are exact in f32; f32 accumulation of K <= 517 terms of
# magnitude < 1 (any order): 1e-4.
TOL_F32 = 1e-4
# f16 result accumulated in f16 (24 terms, each add rounded to f16: up to
# ~24 * 2^-11 of the partial sums' magnitude): 3e-2.
TOL_F16ACC = 3e-2

ENTRIES = [
    ("nn_unaligned", lambda r: [_h(r, 1023, 517), _h(r, 517, 1001)],
     lambda a, b: [_mm(a, b).astype(np.float32)], TOL_F32),
    ("nn_edges",
     lambda r: [_h(r, 200, 136), _h(r, 136, 264),
                r.uniform(-1, 1, (200, 264)).astype(np.float32)],
     lambda a, b, c: [(c.astype(np.float64) + _mm(a, b)).astype(np.float32)],
     TOL_F32),
    ("nt", lambda r: [_h(r, 77, 264), _h(r, 40, 264)],
     lambda a, b: [_mm(a, b.T).astype(np.float32)], TOL_F32),
    ("tn", lambda r: [_h(r, 72, 136), _h(r, 72, 48)],
     lambda a, b: [_mm(a.T, b).astype(np.float32)], TOL_F32),
    ("tt", lambda r: [_h(r, 7, 57), _h(r, 31, 7)],
     lambda a, b: [_mm(a.T, b.T).astype(np.float32)], TOL_F32),
    ("m1_k1", lambda r: [_h(r, 1, 64), _h(r, 64, 7), _h(r, 33, 1), _h(r, 1, 17)],
     lambda a, b, c, d: [_mm(a, b).astype(np.float32),
                         _mm(c, d).astype(np.float32)], TOL_F32),
    ("f16_accumulate", lambda r: [_h(r, 130, 24), _h(r, 24, 96)],
     lambda a, b: [_mm(a, b).astype(np.float16)], TOL_F16ACC),
    ("batch_middle", lambda r: [_h(r, 45, 3, 40), _h(r, 3, 40, 56)],
     lambda a, b: [np.einsum("mbk,bkn->bmn", a.astype(np.float64),
                             b.astype(np.float64)).astype(np.float32)],
     TOL_F32),
]
