"""tessel.sort: stable key-value sorts with duplicate keys (5001 and 2^20
pairs: radix sorts), descending rows, and a two-key lexicographic sort
along columns (insertion sort per thread)."""
import numpy as np


def _kv(k, v):
    order = np.argsort(k, kind="stable")
    return [k[order], v[order]]


def _two_keys(a, b):
    outs_a, outs_b = np.empty_like(a), np.empty_like(b)
    for c in range(a.shape[1]):
        order = np.lexsort((-b[:, c].astype(np.int64), a[:, c]))  # stable
        outs_a[:, c], outs_b[:, c] = a[order, c], b[order, c]
    return [outs_a, outs_b]


ENTRIES = [
    ("sort_kv_2e20",
     lambda rng: [rng.integers(-40000, 40000, (1 << 20,), dtype=np.int32),
                  np.arange(1 << 20, dtype=np.int32)],
     _kv, 0),
    ("sort_kv",
     lambda rng: [rng.integers(-300, 300, (5001,), dtype=np.int32),
                  rng.standard_normal((5001,)).astype(np.float32)],
     _kv, 0),
    ("sort_rows_desc",
     lambda rng: [rng.standard_normal((17, 129)).astype(np.float32)],
     lambda x: [-np.sort(-x, axis=1)], 0),
    ("sort_two_keys",
     lambda rng: [rng.integers(0, 20, (301, 3), dtype=np.int32),
                  rng.integers(0, 1000, (301, 3), dtype=np.int32)],
     _two_keys, 0),
]
