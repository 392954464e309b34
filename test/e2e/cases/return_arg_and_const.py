"""Identity function, an argument returned twice, zero-argument functions
returning constants (non-splat f32, splat i64, i1, rank-0 i8)."""
import numpy as np

TOL = 0.0  # copies and constants: exact


def reference_identity(a):
    return [a.copy()]


def reference_arg_twice(a, b):
    return [b.copy(), (a + b).astype(np.int32), b.copy()]


def reference_constants():
    return [np.array([[1.5, -2.0, 3.25], [0.0, 1.0e-3, -7.0e5]], dtype=np.float32),
            np.full((3, 5), 42, dtype=np.int64),
            np.array([True, False, False, True]),
            np.asarray(-5, dtype=np.int8)]


ENTRIES = [
    ("identity", lambda rng: [rng.standard_normal((17, 3)).astype(np.float32)], reference_identity),
    ("arg_twice", lambda rng: [rng.integers(-100, 100, (5,), dtype=np.int32),
                               rng.integers(1, 100, (5,), dtype=np.int32)], reference_arg_twice),
    ("constants", lambda rng: [], reference_constants),
]
