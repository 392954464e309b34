"""tosa.rescale and tosa.table, exact references of TOSA 1.0's RESCALE
(apply_scale_32 with SINGLE_ROUND / DOUBLE_ROUND, apply_scale_16) and TABLE
(i8 lookup, i16 interpolation). Python ints: no overflow."""
import numpy as np

M7 = [1543657631, 1638819831, 1981934886, 1468276100, 1786200163, 1879559864, 626310777]
S7 = [26, 25, 38, 39, 20, 30, 37]
M41 = [11422, 27780, 11118, 19691, 28257, 15639, 16587, 15034, 25873, 14455, 32533, 19130,
       19942, 20591, 22508, 21794, 20712, 32657, 28041, 27672, 25401, 23482, 16573, 32496,
       19650, 13483, 28960, 12129, 29264, 23245, 11011, 9271, 19122, 9068, 11670, 20845,
       32037, 19649, 28060, 30732, 28429]
S41 = [24, 21, 22, 18, 21, 20, 17, 29, 14, 15, 17, 29, 25, 28, 17, 25, 19, 21, 14, 23, 27, 24,
       16, 22, 18, 29, 28, 16, 22, 29, 27, 25, 24, 14, 25, 21, 15, 17, 22, 25, 22]


def apply_scale_32(value, multiplier, shift, double_round):
    rnd = 1 << (shift - 1)
    if double_round and shift > 31:
        rnd += (1 << 30) if value >= 0 else -(1 << 30)
    return (value * multiplier + rnd) >> shift      # arithmetic (floor) shift


def apply_scale_16(value, multiplier, shift):
    return (value * multiplier + (1 << (shift - 1))) >> shift


def rescale(x, mult, shift, izp, ozp, lo, hi, double_round=False, scale32=True,
            unsigned_in=False):
    """mult/shift: lists (per channel along the last axis) of length 1 or C."""
    out = np.empty(x.shape, dtype=np.int64)
    for idx in np.ndindex(x.shape):
        v = int(x[idx])
        if unsigned_in:
            v &= 0xFF
        v -= izp
        c = idx[-1] if len(mult) > 1 else 0
        if scale32:
            r = apply_scale_32(v, mult[c], shift[c], double_round)
        else:
            r = apply_scale_16(v, mult[c], shift[c])
        out[idx] = min(max(r + ozp, lo), hi)
    return out


def _differs(v, m, s):
    return apply_scale_32(v, m, s, True) != apply_scale_32(v, m, s, False)


def inputs_i32_i8(rng):
    x = rng.integers(-2**15, 2**15, (37, 53), dtype=np.int32)
    x = np.where(rng.random(x.shape) < 0.2, rng.integers(-2**20, 2**20, x.shape), x).astype(np.int32)
    # Values where DOUBLE_ROUND and SINGLE_ROUND give different results.
    cand = [v for v in range(-20000, 20000) if _differs(v, 1518500250, 38)]
    x[1, :20] = rng.choice(np.array(cand), 20)
    return [x]


def reference_i32_i8(x):
    return [rescale(x, [1518500250], [38], 0, -3, -128, 127, double_round=True).astype(np.int8),
            rescale(x, [1518500250], [38], 0, -3, -128, 127).astype(np.int8)]


def inputs_i32_i16(rng):
    x = rng.integers(-2**20, 2**20, (37, 53), dtype=np.int32)
    x = np.where(rng.random(x.shape) < 0.1, rng.integers(-2**24, 2**24, x.shape), x).astype(np.int32)
    cand = [v for v in range(-200000, 200000, 7) if _differs(v, 1234567891, 35)]
    x[2, :20] = rng.choice(np.array(cand), 20)
    return [x]


def reference_i32_i16(x):
    return [rescale(x, [1234567891], [35], 0, 0, -32768, 32767, double_round=True).astype(np.int16)]


def inputs_per_channel(rng):
    x = rng.integers(-128, 128, (5, 9, 7), dtype=np.int8)
    # x - 5 = +-69 (channel 2) and +-109 (channel 6) round differently under
    # DOUBLE_ROUND.
    x[0, :2, 2] = [74, -64]
    x[1, :2, 6] = [114, -104]
    return [x]


def reference_per_channel(x):
    lo, hi = -2**31, 2**31 - 1
    return [rescale(x, M7, S7, 5, 0, lo, hi).astype(np.int32),
            rescale(x, M7, S7, 5, 0, lo, hi, double_round=True).astype(np.int32)]


def inputs_scale16(rng):
    return [rng.integers(-128, 128, (23, 41), dtype=np.int8),
            rng.integers(-32768, 32768, (23, 41), dtype=np.int16)]


def reference_scale16(x, y):
    return [rescale(x, [23170], [15], -10, 17, -128, 127, scale32=False).astype(np.int8),
            rescale(y, M41, S41, 0, -4, -128, 127, scale32=False).astype(np.int8)]


def inputs_unsigned(rng):
    return [rng.integers(-128, 128, (23, 41), dtype=np.int8)]


def reference_unsigned(x):
    u2s = rescale(x, [1518500250], [30], 128, 0, -128, 127, unsigned_in=True)
    s2u = rescale(x, [1518500250], [30], 0, 128, 0, 255)
    return [u2s.astype(np.int8), (s2u & 0xFF).astype(np.uint8).view(np.int8)]


def inputs_table(rng):
    x = rng.integers(-128, 128, (23, 41), dtype=np.int8)
    x[0, :2] = [-128, 127]
    y = rng.integers(-32768, 32768, (23, 41), dtype=np.int16)
    y[0, :3] = [-32768, 32767, 0]
    return [x, rng.integers(-128, 128, (256,), dtype=np.int8), y,
            rng.integers(-16000, 16000, (513,), dtype=np.int16)]


def reference_table(x, t8, y, t16):
    a = t8[x.astype(np.int64) + 128]
    v = y.astype(np.int64) + 32768
    base = t16[v >> 7].astype(np.int64)
    nxt = t16[(v >> 7) + 1].astype(np.int64)
    b = (base << 7) + (nxt - base) * (v & 0x7F)
    return [a, b.astype(np.int32)]


def inputs_apply_scale(rng):
    v = rng.integers(-2**20, 2**20, (37, 53), dtype=np.int32)
    m = rng.integers(2**30, 2**31, (1, 53), dtype=np.int64).astype(np.int32)
    s = rng.integers(21, 51, (1, 53), dtype=np.int8)
    # Values that round differently under DOUBLE_ROUND in column 0 (shift > 31).
    s[0, 0] = 40
    cand = [x for x in range(-300000, 300000, 3) if _differs(x, int(m[0, 0]), 40)]
    v[:10, 0] = rng.choice(np.array(cand), 10)
    return [v, m, s]


def reference_apply_scale(v, m, s):
    out = [np.empty(v.shape, np.int32), np.empty(v.shape, np.int32)]
    for i, j in np.ndindex(v.shape):
        for k, dbl in enumerate((False, True)):
            out[k][i, j] = apply_scale_32(int(v[i, j]), int(m[0, j]), int(s[0, j]), dbl)
    return out


# Integer results: exact.
ENTRIES = [
    ("i32_to_i8", inputs_i32_i8, reference_i32_i8),
    ("i32_to_i16", inputs_i32_i16, reference_i32_i16),
    ("i8_to_i32_per_channel", inputs_per_channel, reference_per_channel),
    ("scale16", inputs_scale16, reference_scale16),
    ("unsigned", inputs_unsigned, reference_unsigned),
    ("table", inputs_table, reference_table),
    ("apply_scale", inputs_apply_scale, reference_apply_scale),
]
