"""f16 elementwise (mul, exp, add in f16), truncf/extf, f16 matmul, mixed
precision f16 -> f32 row sums."""
import numpy as np

FUNCTION = "f16ops"
# Per result:
#  ew:  three f16 roundings (half-ulp up to 2e-3 at |v| in [4,8]) vs one
#       in the reference, with cancellation near 0: 1e-2
#  tr:  f32 -> f16 truncf must be correctly rounded (RNE): exact
#  ext: f16 -> f32 is exact
#  mm:  f16 matmul accumulates in f16 (K=29, |terms| <= 1): each add rounds
#       at 2^-11 of partial sums up to ~5, so allow 2e-2 on (1+|exp|)
#  sum: f32 accumulation of 47 f16 values: 1e-5
TOL = [1e-2, 0.0, 0.0, 2e-2, 1e-5]


def inputs(rng):
    return [rng.uniform(-2, 2, (33, 47)).astype(np.float16),
            rng.uniform(-2, 2, (33, 47)).astype(np.float16),
            rng.uniform(-100, 100, (33, 47)).astype(np.float32),
            rng.uniform(-1, 1, (31, 29)).astype(np.float16),
            rng.uniform(-1, 1, (29, 23)).astype(np.float16)]


def reference(a, b, w, m1, m2):
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    ew = (a64 * b64 + np.exp(a64)).astype(np.float16)
    tr = w.astype(np.float16)     # numpy rounds f32 -> f16 to nearest even
    ext = a.astype(np.float32)
    mm = (m1.astype(np.float64) @ m2.astype(np.float64)).astype(np.float16)
    s = b64.sum(axis=1).astype(np.float32)
    return [ew, tr, ext, mm, s]
