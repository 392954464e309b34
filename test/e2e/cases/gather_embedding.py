"""tessel.gather: embedding rows (out-of-range ids clamped), embedding +
layernorm, and a gather of points with two batch dimensions."""
import numpy as np


def _ids(rng):
    ids = rng.integers(0, 1000, (129,), dtype=np.int32)
    ids[[3, 50, 100]] = [-7, 1000, 5000]  # clamped to 0, 999, 999
    return ids


def _layernorm(table, ids):
    g = table[np.clip(ids[:, 0], 0, 499)].astype(np.float64)
    c = g - g.mean(axis=1, keepdims=True)
    return [(c / np.sqrt((c * c).mean(axis=1, keepdims=True) + 1e-5)).astype(np.float32)]


def _points(x, idx):
    cols = np.clip(idx[..., 0], 0, 29)
    rows = np.clip(idx[..., 1], 0, 39)
    return [x[rows, cols]]


ENTRIES = [
    ("embedding_wide",
     lambda rng: [rng.standard_normal((50, 300)).astype(np.float32),
                  rng.integers(0, 50, (7,), dtype=np.int32)],
     lambda t, i: [t[i]], 0),
    ("embedding",
     lambda rng: [rng.standard_normal((1000, 37)).astype(np.float32), _ids(rng)],
     lambda t, i: [t[np.clip(i, 0, 999)]], 0),
    # Row sums of 77 f32 values and an rsqrt: a few e-6 relative.
    ("embedding_layernorm",
     lambda rng: [rng.standard_normal((500, 77)).astype(np.float32),
                  rng.integers(0, 500, (33, 1), dtype=np.int64)],
     _layernorm, 1e-4),
    ("gather_points",
     lambda rng: [rng.integers(-100, 100, (40, 30), dtype=np.int32),
                  rng.integers(-2, 42, (7, 11, 2), dtype=np.int32)],
     _points, 0),
]
