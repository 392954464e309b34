"""tosa.matmul: batched f32, f16 (f32 and f16 results) and i8 -> i32 with
zero points."""
import numpy as np

from e2eutil import bf16_to_f64, to_bf16


def _mm(a, b):
    return np.matmul(a.astype(np.float64), b.astype(np.float64))


def inputs_f32(rng):
    return [rng.standard_normal((3, 37, 53)).astype(np.float32),
            rng.standard_normal((3, 53, 29)).astype(np.float32)]


def inputs_f16(rng):
    return [rng.uniform(-1, 1, (2, 19, 33)).astype(np.float16),
            rng.uniform(-1, 1, (2, 33, 23)).astype(np.float16)]


def inputs_i8(rng):
    return [rng.integers(-128, 128, (2, 17, 45), dtype=np.int8),
            rng.integers(-128, 128, (2, 45, 13), dtype=np.int8)]


def reference_i8(a, b):
    a, b = a.astype(np.int64), b.astype(np.int64)
    return [np.matmul(a, b).astype(np.int32), np.matmul(a - 3, b + 5).astype(np.int32)]


ENTRIES = [
    # K = 53 f32 products summed in any order: ~1e-6 relative to the sum of
    # |terms|, below 1e-5 relative to (1+|exp|).
    ("matmul_f32", inputs_f32, lambda a, b: [_mm(a, b).astype(np.float32)], 1e-5),
    # f16 inputs are exact; an f32 accumulator gives ~1e-6 (1e-5 covers it).
    # The f16 result may also accumulate in f16 (K = 33, |sum| ~ 3): ~1e-2.
    ("matmul_f16", inputs_f16,
     lambda a, b: [_mm(a, b).astype(np.float32), _mm(a, b).astype(np.float16)], [1e-5, 1e-2]),
    ("matmul_i8", inputs_i8, reference_i8),
    # bf16 products are exact in f32; K = 67 summed in f32: 1e-5.
    ("matmul_bf16",
     lambda rng: [to_bf16(rng.uniform(-1, 1, (2, 21, 67))), to_bf16(rng.uniform(-1, 1, (2, 67, 31)))],
     lambda a, b: [np.matmul(bf16_to_f64(a), bf16_to_f64(b)).astype(np.float32)], 1e-5),
]
