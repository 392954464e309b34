"""extsi/extui/trunci/sitofp/fptosi across i8/i16/i32/i64/f32/f64."""
import numpy as np

FUNCTION = "casts"
# sitofp of |v| < 2^24 and x/2 in f64 are exact: TOL 0 for the float
# results too.
TOL = 0.0


def inputs(rng):
    return [rng.integers(-128, 128, (1023,), dtype=np.int8),
            rng.integers(-10**6, 10**6, (37, 41), dtype=np.int32),
            rng.uniform(-1000, 1000, (37, 41)).astype(np.float32),
            rng.integers(-5000, 5000, (37, 41), dtype=np.int16),
            rng.integers(-10**9, 10**9, (37, 41), dtype=np.int64)]


def reference(a, b, f, h, l):
    sa = a.astype(np.int32)
    ua = a.astype(np.uint8).astype(np.int32)
    t8 = b.astype(np.int8)    # numpy astype wraps (two's complement), like trunci
    t16 = b.astype(np.int16)
    bf = b.astype(np.float32)
    fi = np.trunc(f).astype(np.int32)
    h64, l64 = h.astype(np.int64), l
    r = (h64 * 3 + l64).astype(np.float64) / 2.0
    q = l64 * h64 - l64
    return [sa, ua, t8, t16, bf, fi, r, q]
