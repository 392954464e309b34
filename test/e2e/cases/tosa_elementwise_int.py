"""TOSA elementwise integer ops (TOSA 1.0 semantics, exact int64 references):
i32 arithmetic, mul with a rounding shift, intdiv (truncating), shifts,
bitwise ops, i8 negate with zero points, widening multiplies."""
import numpy as np

S = (37, 53)
S8 = (23, 41)


def _i32(xs):
    return [x.astype(np.int32) if x.dtype != np.bool_ else x for x in xs]


def inputs_arith(rng):
    a = rng.integers(-30000, 30000, S, dtype=np.int32)
    b = rng.integers(-30000, 30000, (1, 53), dtype=np.int32)
    c = rng.integers(1, 60, S, dtype=np.int32) * rng.choice(np.array([-1, 1], np.int32), S)
    c = np.where(rng.random(S) < 0.1, a, c).astype(np.int32)   # equal elements (a/a = 1)
    c[c == 0] = 3
    return [a, b, c]


def reference_arith(a, b, c):
    a, b, c = (x.astype(np.int64) for x in (a, b, c))
    prod = a * b
    mulr = (prod + (1 << 4)) >> 5                         # round half up, then floor shift
    div = np.sign(a) * np.sign(c) * (np.abs(a) // np.abs(c))   # truncates toward zero
    ge = c >= a
    return _i32([a + b, b - a, prod, mulr, div, np.abs(a), -a, np.maximum(a, b),
                 np.minimum(a, c), np.clip(a, -100, 250), a == c, np.broadcast_to(a > b, S),
                 ge, np.where(ge, a, b)])


def inputs_bitwise(rng):
    a = rng.integers(-2**31, 2**31, S, dtype=np.int64).astype(np.int32)
    b = rng.integers(-2**31, 2**31, S, dtype=np.int64).astype(np.int32)
    s = rng.integers(0, 32, S, dtype=np.int32)
    return [a, b, s]


def _asr(a, s, rnd):
    r = a >> s
    if rnd:
        r = r + np.where(s > 0, (a >> np.maximum(s - 1, 0)) & 1, 0)
    return r


def reference_bitwise(a, b, s):
    a64, b64, s64 = (x.astype(np.int64) for x in (a, b, s))
    ua = a64 & 0xFFFFFFFF

    def wrap(x):
        return ((x & 0xFFFFFFFF) ^ 0x80000000) - 0x80000000
    return _i32([a64 & b64, a64 | b64, a64 ^ b64, ~a64, wrap(ua << s64), wrap(ua >> s64),
                 _asr(a64, s64, False), np.clip(_asr(a64, s64, True), -2**31, 2**31 - 1)])


def inputs_i8(rng):
    a = rng.integers(-128, 128, S8, dtype=np.int8)
    a[0, :4] = [-128, 127, -1, 0]
    b = rng.integers(-128, 128, S8, dtype=np.int8)
    s = rng.integers(0, 8, (1, 41), dtype=np.int8)
    return [a, b, s]


def reference_i8(a, b, s):
    a64, b64, s64 = (x.astype(np.int64) for x in (a, b, s))
    ua = a64 & 0xFF

    def wrap(x):
        return ((x & 0xFF) ^ 0x80) - 0x80
    neg = np.clip(-(a64 - (-7)) + 12, -128, 127)
    r = [a64 & b64, a64 | b64, a64 ^ b64, ~b64, wrap(ua << s64), wrap(ua >> s64),
         _asr(a64, s64, False), np.clip(_asr(a64, s64, True), -128, 127),
         np.clip(a64, -20, 90), neg]
    return [x.astype(np.int8) for x in r]


def inputs_widen(rng):
    return [rng.integers(-128, 128, S8, dtype=np.int8), rng.integers(-128, 128, S8, dtype=np.int8),
            rng.integers(-32768, 32768, S8, dtype=np.int16),
            rng.integers(-32768, 32768, (1, 41), dtype=np.int16)]


def reference_widen(a, b, c, d):
    return [(a.astype(np.int64) * b).astype(np.int32), (c.astype(np.int64) * d).astype(np.int32)]


# All results are integers or booleans: exact.
ENTRIES = [
    ("arith_i32", inputs_arith, reference_arith),
    ("bitwise_i32", inputs_bitwise, reference_bitwise),
    ("ops_i8", inputs_i8, reference_i8),
    ("mul_widen", inputs_widen, reference_widen),
]
