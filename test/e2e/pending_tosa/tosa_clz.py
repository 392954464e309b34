"""tosa.clz: count of leading zero bits of i32 (32 for 0), exact."""
import numpy as np


def _inputs(rng, shape):
    b = rng.integers(-2**31, 2**31, shape, dtype=np.int64).astype(np.int32)
    # Every magnitude, zeros included.
    small = (rng.integers(0, 2**31, shape, dtype=np.int64) >> rng.integers(0, 32, shape)).astype(np.int32)
    b = np.where(rng.random(shape) < 0.5, small, b).astype(np.int32)
    b.reshape(-1)[:3] = 0
    return [b]


def clz32(x):
    u = x.astype(np.int64) & 0xFFFFFFFF
    n = np.full(u.shape, 32, np.int64)
    for bit in range(32):      # the highest set bit decides
        n = np.where((u >> bit) & 1 == 1, 31 - bit, n)
    return [n.astype(np.int32)]


ENTRIES = [
    ("clz_2d", lambda rng: _inputs(rng, (37, 53)), clz32),
    ("clz_1d", lambda rng: _inputs(rng, (301,)), clz32),
]
