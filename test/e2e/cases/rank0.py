"""Rank-0 tensors: broadcast of a scalar argument, full reduction to
tensor<f32>, arith/math on tensor<f32>/tensor<i32>/tensor<f64>,
tensor.extract / tensor.from_elements."""
import numpy as np

# The full reduction sums 943 f32 terms with partial sums up to ~30: a
# sequential sum errs by ~2.5e-6 (measured), so 5e-5; everything else is one
# rounding. f64 function: 1e-13.
TOL = 5e-5


def inputs_rank0(rng):
    return [np.asarray(rng.uniform(-3, -1), dtype=np.float32),
            rng.uniform(-1, 1, (41, 23)).astype(np.float32),
            np.asarray(rng.integers(-100, 100) or 7, dtype=np.int32)]


def reference_rank0(s, x, i):
    s64 = np.float64(s)
    xs = (x.astype(np.float64) * s64).astype(np.float32)
    total = np.asarray(xs.astype(np.float64).sum(), dtype=np.float32)
    rt = np.asarray(np.sqrt(np.float64(np.float32(s64 * s64))), dtype=np.float32)
    i10 = np.asarray((int(i) + 5) * int(i), dtype=np.int32)
    filled = np.full((41, 23), s, dtype=np.float32)
    pair = np.array([s, total], dtype=np.float32)
    return [xs, total, rt, i10, filled, pair]


def inputs_scalar(rng):
    return [np.asarray(rng.uniform(0.5, 1.5)), np.asarray(rng.uniform(-1, 1) or 0.5)]


def reference_scalar(a, b):
    return [np.asarray(np.exp(a * b), dtype=np.float64)]


ENTRIES = [
    ("rank0", inputs_rank0, reference_rank0),
    ("scalar_only", inputs_scalar, reference_scalar, 1e-13),
]
