"""tessel.scatter: histogram with duplicate and out-of-range bins, segment
sum of rows (index_add), replacing rows at unique positions."""
import numpy as np


def _bins(rng):
    b = rng.integers(-3, 67, (5000,), dtype=np.int32)  # some out of [0, 64)
    return b


def _histogram(b):
    ok = (b >= 0) & (b < 64)
    return [np.bincount(b[ok], minlength=64).astype(np.int32)]


def _segment_sum(data, seg):
    out = np.zeros((11, 7), np.float64)
    s = seg[:, 0]
    ok = (s >= 0) & (s < 11)
    np.add.at(out, s[ok], data[ok].astype(np.float64))
    return [out.astype(np.float32)]


def _replace(base, rows, at):
    out = base.copy()
    out[at] = rows
    return [out]


ENTRIES = [
    ("histogram", lambda rng: [_bins(rng)], _histogram, 0),
    # Sums of ~20 f32 rows per segment, any order.
    ("segment_sum",
     lambda rng: [rng.standard_normal((203, 7)).astype(np.float32),
                  rng.integers(-1, 12, (203, 1), dtype=np.int32)],
     _segment_sum, 1e-5),
    ("replace_rows",
     lambda rng: [rng.standard_normal((50, 9)).astype(np.float32),
                  rng.standard_normal((13, 9)).astype(np.float32),
                  rng.permutation(50)[:13].astype(np.int64)],
     _replace, 0),
]
