"""Integer matmuls: i8*i8->i32 (sign extension), i32 with accumulator, and an
i64 dot to a rank-0 tensor."""
import numpy as np

TOL = 0  # integers: exact


def inputs_q(rng):
    return [rng.integers(-128, 128, (33, 71), dtype=np.int8),
            rng.integers(-128, 128, (71, 19), dtype=np.int8)]


def reference_q(a, b):
    return [(a.astype(np.int64) @ b.astype(np.int64)).astype(np.int32)]


def inputs_i(rng):
    return [rng.integers(-1000, 1000, (21, 17), dtype=np.int32),
            rng.integers(-1000, 1000, (17, 13), dtype=np.int32),
            rng.integers(-10**6, 10**6, (21, 13), dtype=np.int32),
            rng.integers(-10**6, 10**6, (999,), dtype=np.int64),
            rng.integers(-10**6, 10**6, (999,), dtype=np.int64)]


def reference_i(a, b, c, u, v):
    r = c.astype(np.int64) + a.astype(np.int64) @ b.astype(np.int64)
    return [r.astype(np.int32), np.asarray(np.dot(u, v), dtype=np.int64)]


ENTRIES = [
    ("qmm", inputs_q, reference_q),
    ("imm", inputs_i, reference_i),
]
