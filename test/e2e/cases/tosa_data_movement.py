"""TOSA data movement ops: reshape, transpose, slice, pad, concat, reverse,
tile, gather, identity, const (f32, i8, i1; rank 0 reshapes). Pure data
movement: exact."""
import numpy as np

TOL = 0.0   # every float result is a copy of an input or a constant


def inputs_shape(rng):
    return [rng.standard_normal((5, 6, 7)).astype(np.float32)]


def reference_shape(x):
    pad = np.pad(x, [(1, 2), (0, 3), (2, 1)], constant_values=np.float32(-2.5))
    return [x.reshape(30, 7), x.transpose(2, 0, 1), x.transpose(1, 2, 0), x[1:4, 2:6, 0:5],
            pad, x[::-1], x[:, :, ::-1], np.tile(x, (2, 1, 3)), x]


K = np.array([[1.0, 2.0, 3.0, 4.0, 5.0], [-1.0, -2.0, -3.0, -4.0, -5.0],
              [0.5, 0.25, 0.125, 0.0625, 0.03125]], np.float32)


def inputs_concat(rng):
    return [rng.standard_normal((3, 5)).astype(np.float32),
            rng.standard_normal((3, 2)).astype(np.float32),
            rng.standard_normal((4, 5)).astype(np.float32)]


def reference_concat(a, b, c):
    # a + K: one f32 rounding, which the reference does in f32 too (exact).
    return [np.concatenate([a, b, a], axis=1), np.concatenate([a, c], axis=0), a + K, K]


def inputs_gather(rng):
    i = rng.integers(0, 11, (3, 7), dtype=np.int32)
    i[0, :2] = [0, 10]
    i[1, 3] = i[1, 4]
    return [rng.standard_normal((3, 11, 5)).astype(np.float32), i,
            rng.integers(-128, 128, (2, 13, 9), dtype=np.int8),
            rng.integers(0, 13, (2, 4), dtype=np.int32)]


def _gather(v, i):
    return np.stack([v[n][i[n]] for n in range(v.shape[0])])


def reference_gather(v, i, w, j):
    return [_gather(v, i), _gather(w, j)]


def inputs_other(rng):
    return [rng.integers(-128, 128, (5, 6, 7), dtype=np.int8), rng.random((5, 6, 7)) < 0.5,
            np.array([[-77]], np.int8)]


def reference_other(x, p, s):
    return [x.transpose(1, 0, 2), np.pad(x, [(2, 0), (0, 0), (0, 0)], constant_values=-100),
            np.concatenate([x, x], axis=2), x[:, 3:6, :], p.transpose(1, 0, 2),
            np.pad(p, [(0, 0), (1, 1), (0, 0)], constant_values=True), p[:, ::-1, :],
            p.reshape(210), s.reshape(()), s.reshape(1, 1, 1)]


ENTRIES = [
    ("shape_ops", inputs_shape, reference_shape),
    ("concat_const", inputs_concat, reference_concat),
    ("gather", inputs_gather, reference_gather),
    ("other_types", inputs_other, reference_other),
]
