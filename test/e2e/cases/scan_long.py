"""Long scans (decoupled look-back on the GPU) and long rows (a block per
row), with partial last tiles; float inputs are small integers so that
every summation order is exact."""
import numpy as np


def _small_ints_f32(rng, shape):
    return rng.integers(-3, 8, shape).astype(np.float32)  # sums stay < 2^24


def _inclusive(x):
    c = np.cumsum(x.astype(np.float64))
    return [c.astype(np.float32), np.array(c[-1], dtype=np.float32)]


def _exclusive(x):
    inc = 7 + np.cumsum(x.astype(np.int64), axis=1)
    exc = np.concatenate([np.full((1, 1), 7), inc[:, :-1]], axis=1)
    return [exc.astype(np.int32), inc[:, -1].astype(np.int32)]


def _rows(x):
    c = np.cumsum(x.astype(np.float64), axis=1)
    return [c.astype(np.float32), c[:, -1].astype(np.float32)]


def _seeded(x, seed):
    inc = seed[:, None].astype(np.int64) + np.cumsum(x.astype(np.int64), axis=1)
    exc = np.concatenate([seed[:, None], inc[:, :-1]], axis=1)
    return [exc.astype(np.int32), inc[:, -1].astype(np.int32)]


ENTRIES = [
    ("inclusive_f32", lambda rng: [_small_ints_f32(rng, (1000003,))], _inclusive, 0),
    ("exclusive_i32", lambda rng: [rng.integers(-1000, 1000, (1, 300001), dtype=np.int32)],
     _exclusive, 0),
    ("running_max", lambda rng: [rng.standard_normal((99999,)).astype(np.float32)],
     lambda x: [np.maximum.accumulate(x)], 0),
    ("rows_f32", lambda rng: [_small_ints_f32(rng, (3, 10001))], _rows, 0),
    ("rows_seeded", lambda rng: [rng.integers(-1000, 1000, (5, 8192), dtype=np.int32),
                                 rng.integers(-50, 50, (5,), dtype=np.int32)],
     _seeded, 0),
]
