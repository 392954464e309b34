"""tessel.scan: cumsum (rows, columns), cumprod, exclusive i32 with a seed
and the running total, running max on a 3-D tensor."""
import numpy as np


def _cumsum_rows(x):
    c = np.cumsum(x.astype(np.float64), axis=1)
    return [c.astype(np.float32), c[:, -1].astype(np.float32)]


def _cumprod(x):
    return [np.cumprod(x.astype(np.float64), axis=1).astype(np.float32)]


def _exclusive(x):
    inc = 5 + np.cumsum(x.astype(np.int64))
    exc = np.concatenate([[5], inc[:-1]])
    return [exc.astype(np.int32), np.array(inc[-1], dtype=np.int32)]


ENTRIES = [
    # Sums of up to 301 f32 terms, sequential in f32: error ~n * eps * |partial sums|.
    ("cumsum_rows", lambda rng: [rng.standard_normal((37, 53)).astype(np.float32)],
     _cumsum_rows, 1e-4),
    ("cumsum_cols", lambda rng: [rng.standard_normal((301, 45)).astype(np.float32)],
     lambda x: [np.cumsum(x.astype(np.float64), axis=0).astype(np.float32)], 1e-4),
    # Products of 29 factors near 1: relative error ~29 eps.
    ("cumprod_rows", lambda rng: [rng.uniform(0.5, 1.5, (19, 29)).astype(np.float32)],
     _cumprod, 1e-5),
    ("exclusive_i32", lambda rng: [rng.integers(-1000, 1000, (1001,), dtype=np.int32)],
     _exclusive, 0),
    ("cummax_3d", lambda rng: [rng.standard_normal((5, 67, 3)).astype(np.float32)],
     lambda x: [np.maximum.accumulate(x, axis=1)], 0),
]
