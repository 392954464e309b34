"""Radix sorts of every key kind against numpy's stable argsort (positions
as values check stability exactly), and the sorts that stay merge sorts."""
import numpy as np


def _positions(n):
    return np.arange(n, dtype=np.int32)


def _by(order_keys):
    def ref(k, v):
        order = np.argsort(order_keys(k), kind="stable")
        return [k[order], v[order]]
    return ref


def _desc_u64(k):
    # Descending unsigned 64-bit order as an ascending key numpy can sort
    # exactly: the bitwise complement.
    return ~k.view(np.uint64)


def _u32_keys(rng):
    # Full 32-bit range (negative as i32 = large as u32), with duplicates.
    pool = rng.integers(-2**31, 2**31, (5000,), dtype=np.int64).astype(np.int32)
    return pool[rng.integers(0, 5000, (70001,))]


def _f32_keys(rng):
    k = rng.integers(-50, 50, (3001,)).astype(np.float32) / 4
    special = np.array([0.0, -0.0, np.inf, -np.inf, 1e-40, -1e-40, 3e38],
                       dtype=np.float32)
    k[rng.integers(0, 3001, (70,))] = special[rng.integers(0, 7, (70,))]
    return k


ENTRIES = [
    ("sort_u32", lambda rng: [_u32_keys(rng), _positions(70001)],
     _by(lambda k: k.view(np.uint32)), 0),
    ("sort_f32_desc", lambda rng: [_f32_keys(rng), _positions(3001)],
     _by(lambda k: -k.astype(np.float64)), 0),
    ("sort_i64",
     lambda rng: [rng.integers(-2**63, 2**63 - 1, (500,), dtype=np.int64)[
                      rng.integers(0, 500, (2049,))],
                  _positions(2049)],
     _by(lambda k: k), 0),
    ("sort_i8_desc",
     lambda rng: [rng.integers(-128, 128, (1001,), dtype=np.int64).astype(np.int8),
                  _positions(1001)],
     _by(lambda k: -k.astype(np.int64)), 0),
    ("sort_f16",
     lambda rng: [(rng.standard_normal((4099,)) * 100).astype(np.float16),
                  _positions(4099)],
     _by(lambda k: k), 0),
    ("sort_swapped",
     lambda rng: [rng.integers(-1000, 1000, (1500,), dtype=np.int32)],
     lambda k: [np.sort(k, kind="stable")], 0),
    ("sort_i64_wide",
     lambda rng: [rng.integers(-2**63, 2**63 - 1, (300,), dtype=np.int64)[
                      rng.integers(0, 300, (3001,))],
                  np.arange(3001, dtype=np.int64),
                  rng.standard_normal((3001,))],
     lambda k, v, w: [a[np.argsort(_desc_u64(k), kind="stable")]
                      for a in (k, v, w)], 0),
    ("sort_abs_merge",
     lambda rng: [rng.integers(-60, 60, (3001,)).astype(np.float32) / 8,
                  _positions(3001)],
     _by(lambda k: np.abs(k)), 0),
    ("sort_rows_long",
     lambda rng: [rng.standard_normal((3, 2500)).astype(np.float32)],
     lambda x: [np.sort(x, axis=1)], 0),
]
