"""TMA-aligned tensor-core matmuls (see the .mlir): wgmma on sm_90a."""
import numpy as np
from e2eutil import bf16_to_f64, to_bf16


# Small problems keep mma.sync by default (fewer than 66 128x128 tiles):
# here every case takes wgmma on sm_90a.
COMPILER_ARGS = ["--tessel-wgmma-min-tiles=0"]


def _f16(rng, *shape):
    return rng.uniform(-1, 1, shape).astype(np.float16)


def _i8(rng, *shape):
    return rng.integers(-128, 128, shape).astype(np.int8)


def _mm(a, b):
    return a.astype(np.float64) @ b.astype(np.float64)


def _bf16(rng, *shape):
    return to_bf16(rng.uniform(-1, 1, shape))


ENTRIES = [
    # f16 products are exact in f32; f32 accumulation of <= 264 terms.
    ("nn_persistent", lambda r: [_f16(r, 1000, 264), _f16(r, 264, 4104)],
     lambda a, b: [_mm(a, b).astype(np.float32)], 1e-4),
    # One f16 rounding of the f32 sum (2^-11 relative).
    ("nt_wide", lambda r: [_f16(r, 2050, 136), _f16(r, 2600, 136)],
     lambda a, b: [_mm(a, b.T).astype(np.float16)], 2e-3),
    ("nn_wide_256", lambda r: [_f16(r, 500, 64), _f16(r, 64, 6400)],
     lambda a, b: [_mm(a, b).astype(np.float16)], 2e-3),
    ("tn", lambda r: [_f16(r, 136, 200), _f16(r, 136, 72)],
     lambda a, b: [_mm(a.T, b).astype(np.float32)], 1e-4),
    ("tt_small_k", lambda r: [_f16(r, 8, 264), _f16(r, 152, 8)],
     lambda a, b: [_mm(a.T, b.T).astype(np.float32)], 1e-4),
    ("batch_bias_relu",
     lambda r: [_f16(r, 5, 130, 96), _f16(r, 5, 96, 200),
                r.uniform(-4, 4, (5, 130, 200)).astype(np.float32),
                r.uniform(-1, 1, 200).astype(np.float32)],
     lambda a, b, c, bias: [np.maximum(
         c + np.einsum("bmk,bkn->bmn", a.astype(np.float64), b.astype(np.float64)) + bias,
         0).astype(np.float32)], 1e-4),
    # bf16 result: one bf16 rounding (2^-8 relative).
    ("bf16_result", lambda r: [_bf16(r, 300, 520), _bf16(r, 520, 264)],
     lambda a, b: [to_bf16(bf16_to_f64(a) @ bf16_to_f64(b))], 1e-2),
    ("s8_nt",
     lambda r: [_i8(r, 260, 400), _i8(r, 136, 400),
                r.integers(-1000, 1000, (260, 136)).astype(np.int32)],
     lambda a, b, c: [(c + a.astype(np.int64) @ b.astype(np.int64).T).astype(np.int32)], 0.0),
    ("u8_nt", lambda r: [_i8(r, 65, 80), _i8(r, 31, 80)],
     lambda a, b: [(a.view(np.uint8).astype(np.int64) @ b.view(np.uint8).astype(np.int64).T).astype(np.int32)],
     0.0),
]
