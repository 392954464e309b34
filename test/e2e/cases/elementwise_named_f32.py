"""All elementwise linalg named ops of MLIR 22 on f32 (binary + unary)."""
import math

import numpy as np

# One f32 rounding each for the arithmetic ops; exp/log/pow/tanh/erf may be
# polynomial approximations with a few ulp of error: 1e-5 relative to
# (1+|exp|) covers both. ceil/floor/round/abs/neg are exact.
TOL = 1e-5


def inputs_binary(rng):
    a = rng.uniform(0.5, 2.0, (37, 53)).astype(np.float32)   # positive: powf base, divisor
    b = rng.uniform(-2.0, 2.0, (37, 53)).astype(np.float32)
    return [a, b]


def reference_binary(a, b):
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    r = [a64 + b64, a64 - b64, a64 * b64, b64 / a64, np.maximum(a64, b64),
         np.minimum(a64, b64), np.power(a64, b64)]
    return [x.astype(np.float32) for x in r]


def inputs_unary(rng):
    p = rng.uniform(0.05, 10.0, (37, 53)).astype(np.float32)
    x = rng.uniform(-4.0, 4.0, (37, 53)).astype(np.float32)
    # Exact halves (and integers) for round/ceil/floor edge cases.
    halves = (rng.integers(-8, 8, (37, 53)) / 2.0).astype(np.float32)
    x = np.where(rng.random((37, 53)) < 0.2, halves, x).astype(np.float32)
    return [p, x]


def _round_half_away(x):
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def reference_unary(p, x):
    p64, x64 = p.astype(np.float64), x.astype(np.float64)
    erf = np.vectorize(math.erf, otypes=[np.float64])
    r = [np.exp(x64), np.log(p64), np.abs(x64), np.ceil(x64), np.floor(x64), -x64,
         1.0 / p64, _round_half_away(x64), np.sqrt(p64), 1.0 / np.sqrt(p64), x64 * x64,
         np.tanh(x64), erf(x64)]
    return [v.astype(np.float32) for v in r]


ENTRIES = [
    ("binary", inputs_binary, reference_binary),
    ("unary", inputs_unary, reference_unary),
]
