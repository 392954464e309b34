"""argmax / argmin (tessel.arg_compare and a two-result linalg.generic) and
top-k per row / min-k per column with ties."""
import numpy as np


def _argmax(x):
    return [x.max(axis=1), np.argmax(x, axis=1).astype(np.int32)]


def _topk(x):
    # Stable order: larger first, equal values in input order.
    idx = np.argsort(-x.astype(np.float64), axis=1, kind="stable")[:, :8]
    return [np.take_along_axis(x, idx, axis=1), idx.astype(np.int32)]


def _mink(x):
    idx = np.argsort(x, axis=0, kind="stable")[:5]
    return [np.take_along_axis(x, idx, axis=0), idx.astype(np.int64)]


def _mink_rows(x):
    idx = np.argsort(x, axis=1, kind="stable")[:, :16]
    return [np.take_along_axis(x, idx, axis=1), idx.astype(np.int64)]


def _topk3_ties(x):
    idx = np.argsort(-x.astype(np.float64), axis=2, kind="stable")[:, :, :3]
    return [np.take_along_axis(x, idx, axis=2), idx.astype(np.int32)]


ENTRIES = [
    ("argmax_many_rows", lambda rng: [rng.standard_normal((300, 50)).astype(np.float32)],
     lambda x: [np.argmax(x, axis=1).astype(np.int32)], 0),
    ("argmax_rows", lambda rng: [rng.standard_normal((37, 1001)).astype(np.float32)],
     _argmax, 0),
    ("argmin_cols", lambda rng: [rng.integers(-50, 50, (203, 13), dtype=np.int32)],
     lambda x: [(np.argmin(x, axis=0) + 100).astype(np.int64)], 0),
    ("argmax_generic", lambda rng: [rng.standard_normal((29, 515)).astype(np.float32)],
     lambda x: [np.argmax(x, axis=1).astype(np.int64)], 0),
    ("topk_rows", lambda rng: [rng.standard_normal((23, 1000)).astype(np.float32)],
     _topk, 0),
    ("mink_ties", lambda rng: [rng.integers(0, 9, (97, 6), dtype=np.int32)],
     _mink, 0),
    ("mink_ties_rows", lambda rng: [rng.integers(0, 6, (5, 37), dtype=np.int32)],
     _mink_rows, 0),
    # Values in quarters from -2 to 2: the top 3 are ties spread over lanes.
    ("topk_ties_3d",
     lambda rng: [(rng.integers(-8, 9, (2, 3, 1030)) / 4).astype(np.float32)],
     _topk3_ties, 0),
]
