"""bf16 via raw uint16 bits: arith.addf on bf16 tensors, f32 compute in a
generic with extf/truncf, truncf f32->bf16 (RNE, exact), extf, and a
bf16 x bf16 -> f32 matmul."""
import numpy as np

from e2eutil import bf16_to_f64, to_bf16

FUNCTION = "bf16ops"
# Per result:
#  sum: one bf16 rounding (ulp 2^-7 relative); whether the compiler adds in
#       f32 and rounds once or otherwise, 1 ulp difference is allowed: 1e-2
#  g:   f32 compute + one bf16 rounding: 1e-2
#  tr:  truncf f32 -> bf16 must be exactly round-to-nearest-even: exact
#  ext: exact
#  mm:  bf16 operands are exact in f32; 67-term f32 accumulation: 1e-5
TOL = [1e-2, 1e-2, 0.0, 0.0, 1e-5]


def _rand_bf16(rng, shape, lo, hi):
    return to_bf16(rng.uniform(lo, hi, shape))


def inputs(rng):
    w = rng.uniform(-100, 100, (37, 43)).astype(np.float32)
    # Include exact bf16 ties (low 16 bits 0x8000) to check RNE in truncf.
    wb = w.view(np.uint32)
    tie = (wb & np.uint32(0xFFFF0000)) | np.uint32(0x8000)
    wb = np.where(rng.random((37, 43)) < 0.25, tie, wb).astype(np.uint32)
    return [_rand_bf16(rng, (37, 43), -2, 2), _rand_bf16(rng, (37, 43), -2, 2),
            wb.view(np.float32),
            _rand_bf16(rng, (19, 67), -1, 1), _rand_bf16(rng, (67, 21), -1, 1)]


def reference(a, b, w, m1, m2):
    a64, b64 = bf16_to_f64(a), bf16_to_f64(b)
    s = to_bf16(a64 + b64)
    g = to_bf16(np.tanh(a64) * b64 + 1.0)
    tr = to_bf16(w)                        # f32 -> bf16, RNE
    ext = a64.astype(np.float32)
    mm = (bf16_to_f64(m1) @ bf16_to_f64(m2)).astype(np.float32)
    return [s, g, tr, ext, mm]
