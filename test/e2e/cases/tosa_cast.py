"""tosa.cast (TOSA 1.0): float -> int rounds to nearest, ties to even, and
saturates (infinities included); float -> narrower float and int -> float
round to nearest even; widening int casts sign-extend, narrowing ones
truncate (keep the low bits); int -> bool is != 0; bool -> int is 0/1."""
import numpy as np

from e2eutil import bf16_to_f64, to_bf16

S = (37, 53)


def _f2i(x, dtype):
    info = np.iinfo(dtype)
    return np.clip(np.rint(x.astype(np.float64)), info.min, info.max).astype(dtype)


def _trunc(x, dtype):
    bits = np.iinfo(dtype).bits
    x = x.astype(np.int64) & ((1 << bits) - 1)
    return (x - ((x >> (bits - 1)) << bits)).astype(dtype)


def _mix(rng, parts):
    """Picks each element from one of `parts` (arrays of shape S)."""
    which = rng.integers(0, len(parts), S)
    out = parts[0].copy()
    for k, p in enumerate(parts[1:], 1):
        out = np.where(which == k, p, out)
    return out


def inputs_from_f32(rng):
    x = _mix(rng, [rng.uniform(-300.0, 300.0, S),
                   rng.integers(-200, 200, S) + 0.5,                       # ties
                   rng.choice([-1.0, 1.0], S) * 10.0 ** rng.uniform(4.0, 10.0, S),
                   rng.choice([-np.inf, np.inf, -2.5, 2.5, -0.5, 0.5], S)]).astype(np.float32)
    y = rng.uniform(-1000.0, 1000.0, S).astype(np.float32)    # f16/bf16 range, full mantissas
    return [x, y]


def reference_from_f32(x, y):
    return [_f2i(x, np.int32), _f2i(x, np.int16), _f2i(x, np.int8),
            y.astype(np.float64).astype(np.float16), to_bf16(y.astype(np.float64))]


def inputs_from_half(rng):
    h = _mix(rng, [rng.uniform(-300.0, 300.0, S), rng.integers(-200, 200, S) + 0.5,
                   rng.choice([-1.0, 1.0], S) * rng.uniform(3e4, 6e4, S),
                   rng.choice([-65504.0, 65504.0, -2.5, 3.5], S)]).astype(np.float16)
    b = to_bf16(_mix(rng, [rng.uniform(-300.0, 300.0, S), rng.integers(-60, 60, S) + 0.5,
                           rng.choice([-1.0, 1.0], S) * 10.0 ** rng.uniform(4.0, 12.0, S),
                           rng.choice([-3e38, 3e38, -2.5, 3.5], S)]).astype(np.float32))
    return [h, b]


def reference_from_half(h, b):
    bf = bf16_to_f64(b)
    return [h.astype(np.float32), bf.astype(np.float32), _f2i(h, np.int16), _f2i(h, np.int8),
            _f2i(bf, np.int32), _f2i(bf, np.int8)]


def inputs_to_float(rng):
    a = rng.integers(-2**31, 2**31, S, dtype=np.int64)
    a = np.where(rng.random(S) < 0.3, rng.integers(-1000, 1000, S), a).astype(np.int32)
    return [a, rng.integers(-32768, 32768, S, dtype=np.int16),
            rng.integers(-128, 128, S, dtype=np.int8)]


def reference_to_float(a, c, d):
    a, c, d = (x.astype(np.float64) for x in (a, c, d))   # exact in f64
    return [a.astype(np.float32), to_bf16(a), c.astype(np.float32), c.astype(np.float16),
            d.astype(np.float32), d.astype(np.float16), to_bf16(d)]


def inputs_int_int(rng):
    a = rng.integers(-2**31, 2**31, S, dtype=np.int64).astype(np.int32)
    c = rng.integers(-32768, 32768, S, dtype=np.int16)
    d = rng.integers(-128, 128, S, dtype=np.int8)
    for x in (a, c, d):
        x[rng.random(S) < 0.2] = 0           # int -> bool sees zeros
    a[0, :4] = [256, -256, 0x10080, -129]    # low byte 0 / low byte 0x80
    return [a, c, d, rng.random(S) < 0.5]


def reference_int_int(a, c, d, p):
    return [_trunc(a, np.int8), _trunc(a, np.int16), _trunc(c, np.int8), d.astype(np.int32),
            d.astype(np.int16), c.astype(np.int32), a != 0, c != 0, d != 0,
            p.astype(np.int32), p.astype(np.int8), p.astype(np.int16)]


# Casts are exact or a single correctly rounded conversion that the reference
# performs the same way (RNE): tolerance 0.
ENTRIES = [
    ("from_f32", inputs_from_f32, reference_from_f32, 0.0),
    ("from_half", inputs_from_half, reference_from_half, 0.0),
    ("to_float", inputs_to_float, reference_to_float, 0.0),
    ("int_int", inputs_int_int, reference_int_int),
]
