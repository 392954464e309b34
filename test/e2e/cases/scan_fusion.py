"""Scans with elementwise neighbours (fused into one kernel per scan in
cuda-only modules): partitions into an empty destination (long and short
rows, i32 and i64 positions), cumsum of a computed input with a consumer,
rows with a producer and a consumer using the column index."""
import numpy as np


def _partition(x):
    keep = x > 0
    out = np.concatenate([x[keep], x[~keep][::-1]])
    return [out, np.array(keep.sum(), dtype=np.int32)]


def _partition_short(x):
    idx = np.arange(x.size)
    keep = (idx % 2 == 0) & (x < 0)
    return [np.concatenate([x[keep], x[~keep][::-1]])]


def _small_ints_f32(rng, shape):
    return rng.integers(-3, 4, shape).astype(np.float32)  # sums of squares < 2^24


def _cumsum_squares(x, y):
    c = np.cumsum(x.astype(np.float64) ** 2)
    return [c.astype(np.float32), (c * y).astype(np.float32),
            np.array(c[-1], dtype=np.float32)]


def _rows(x):
    c = np.cumsum(x.astype(np.int64) & 7, axis=1)
    out = c * 3 - np.arange(x.shape[1])[None, :]
    return [out.astype(np.int32)]


ENTRIES = [
    ("partition", lambda rng: [rng.standard_normal((100003,)).astype(np.float32)],
     _partition, 0),  # data movement and integer counts: exact
    ("partition_short", lambda rng: [rng.standard_normal((3001,)).astype(np.float32)],
     _partition_short, 0),
    # Products of small integers by small integers: exact in f32.
    ("cumsum_squares", lambda rng: [_small_ints_f32(rng, (77777,)),
                                    _small_ints_f32(rng, (77777,))],
     _cumsum_squares, 0),
    ("rows", lambda rng: [rng.integers(-1000, 1000, (13, 5001), dtype=np.int32)],
     _rows, 0),
]
