"""TOSA elementwise ops on f32: broadcasting binary ops, unary math, clamp,
comparisons/select, logical ops on i1 and the NaN propagation modes.
References follow the TOSA 1.0 specification, computed in float64."""
import math

import numpy as np

from e2eutil import bf16_to_f64, to_bf16

S = (37, 53)


def _f64(*xs):
    return [x.astype(np.float64) for x in xs]


def _f32(xs):
    return [x.astype(np.float32) for x in xs]


def inputs_binary(rng):
    a = rng.uniform(0.5, 2.0, S).astype(np.float32)        # pow base > 0
    b = rng.uniform(-2.0, 2.0, (1, 53)).astype(np.float32)
    c = rng.uniform(-2.0, 2.0, (37, 1)).astype(np.float32)
    d = rng.uniform(-2.0, 2.0, S).astype(np.float32)
    return [a, b, c, d]


def reference_binary(a, b, c, d):
    a, b, c, d = _f64(a, b, c, d)
    return _f32([d + b, c - d, d * b, np.maximum(d, c), np.minimum(b, d),
                 np.power(a, b), c + b])


def inputs_unary(rng):
    p = rng.uniform(0.05, 10.0, S).astype(np.float32)
    x = rng.uniform(-4.0, 4.0, S).astype(np.float32)
    halves = (rng.integers(-8, 8, S) / 2.0).astype(np.float32)
    x = np.where(rng.random(S) < 0.2, halves, x).astype(np.float32)
    return [p, x]


def reference_unary(p, x):
    p, x = _f64(p, x)
    erf = np.vectorize(math.erf, otypes=[np.float64])
    return _f32([np.abs(x), -x, 1.0 / p, 1.0 / np.sqrt(p), np.exp(x), np.log(p),
                 np.ceil(x), np.floor(x), np.sin(x), np.cos(x), np.tanh(x),
                 1.0 / (1.0 + np.exp(-x)), erf(x), np.clip(x, -1.5, 2.25)])


def inputs_compare(rng):
    x = rng.uniform(-2.0, 2.0, S).astype(np.float32)
    y = rng.uniform(-2.0, 2.0, S).astype(np.float32)
    y = np.where(rng.random(S) < 0.2, x, y).astype(np.float32)   # ties
    yb = rng.uniform(-2.0, 2.0, (1, 53)).astype(np.float32)
    yb[0, :5] = x[3, :5]
    return [x, y, yb]


def reference_compare(x, y, yb):
    gt = x > y
    gtb = yb > x
    return [x == y, gt, x >= y, gtb, np.where(gt, x, y),
            np.where(gtb, x, np.broadcast_to(yb, S)).astype(np.float32)]


def inputs_logical(rng):
    return [rng.random(S) < 0.5, rng.random(S) < 0.5, rng.random((37, 1)) < 0.5]


def reference_logical(p, q, r):
    o = p | r
    return [p & q, o, r ^ q, ~p, o & ~p]


def inputs_nan(rng):
    x = rng.uniform(-1.0, 1.0, S).astype(np.float32)
    y = rng.uniform(-1.0, 1.0, S).astype(np.float32)
    x[rng.random(S) < 0.15] = np.nan
    y[rng.random(S) < 0.15] = np.nan
    return [x, y]


def _ignore(f, x, y):
    # NaN only where both are NaN; otherwise the non-NaN operand wins.
    r = f(x, y)
    r = np.where(np.isnan(x), y, r)
    return np.where(np.isnan(y), x, r)


def reference_nan(x, y):
    x, y = _f64(x, y)
    clampp = np.clip(x, -0.5, 0.75)                       # NaN stays NaN
    clampi = np.where(np.isnan(x), -0.5, clampp)          # NaN -> min_val
    r = [np.maximum(x, y), np.minimum(x, y), _ignore(np.maximum, x, y),
         _ignore(np.minimum, x, y), clampp, clampi]
    return _f32([np.where(np.isnan(v), 1000.0, v) for v in r])   # NaN -> sentinel


def inputs_half(rng):
    return [rng.uniform(-3, 3, S).astype(np.float16), rng.uniform(-3, 3, (1, 53)).astype(np.float16),
            to_bf16(rng.uniform(-3, 3, S)), to_bf16(rng.uniform(-3, 3, (37, 1)))]


def reference_half(h, hb, b, bb):
    h, hb = _f64(h, hb)
    b, bb = bf16_to_f64(b), bf16_to_f64(bb)
    return ([v.astype(np.float16) for v in (h + hb, h * hb, np.exp(h), 1 / (1 + np.exp(-h)))]
            + [to_bf16(v) for v in (b + bb, b * bb, np.tanh(b), np.clip(b, -1.0, 1.5))])


# binary/compare/nan: one f32 rounding (exact for max/min/clamp/select), pow
# with a few ulp: 1e-6 would do except pow, so 1e-5. unary: exp/log/sin/cos/
# tanh/sigmoid/erf are polynomial approximations with a few ulp: 1e-5.
ENTRIES = [
    ("binary", inputs_binary, reference_binary, 1e-5),
    ("unary", inputs_unary, reference_unary, 1e-5),
    ("compare", inputs_compare, reference_compare, 0.0),   # exact selects
    ("logical", inputs_logical, reference_logical),
    ("nan_modes", inputs_nan, reference_nan, 0.0),         # exact (NaN -> 1000)
    # One f16 / bf16 rounding of the result (4.9e-4 / 3.9e-3 relative),
    # possibly of an f32 intermediate too: 1e-2.
    ("half_types", inputs_half, reference_half, 1e-2),
]
