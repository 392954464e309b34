"""fp8 casts and the i48 accumulator of the 16x8 profile, inside programs
whose boundary types are f32 / i16 / i8 / i32."""
import numpy as np


def round_to_format(x, mbits, emin):
    """Rounds float64 x to nearest even in a binary format with `mbits`
    fraction bits and minimum normal exponent `emin` (no overflow handling:
    inputs stay in range)."""
    x = np.asarray(x, np.float64)
    ax = np.abs(x)
    e = np.floor(np.log2(np.where(ax > 0, ax, 1.0)))
    e = np.maximum(e, emin)                  # subnormals share emin's quantum
    q = np.exp2(e - mbits)
    return np.rint(x / q) * q                # np.rint: ties to even


def inputs_fp8(rng):
    x = rng.choice([-1.0, 1.0], (37, 53)) * np.exp2(rng.uniform(-12.0, 8.5, (37, 53)))
    x[0, :6] = [0.0, 1.0625, 1.1875, -448.0, 2.0**-9, 3 * 2.0**-10]   # ties, extremes
    return [x.astype(np.float32)]


def reference_fp8(x):
    return [round_to_format(x, 3, -6).astype(np.float32),     # E4M3FN: max 448
            round_to_format(x, 2, -14).astype(np.float32)]    # E5M2: max 57344


def conv_i48(x, w, b):
    x, w = x.astype(np.int64), w.astype(np.int64)
    oh, ow = x.shape[1] - 2, x.shape[2] - 2
    acc = np.zeros((1, oh, ow, 3), np.int64)
    for ky in range(3):
        for kx in range(3):
            acc += np.tensordot(x[:, ky:ky + oh, kx:kx + ow, :], w[:, ky, kx, :], axes=([3], [1]))
    acc += b
    return [((acc * 16384 + (1 << 14)) >> 15).astype(np.int32)]   # apply_scale_16


ENTRIES = [
    # Each result is one correctly rounded conversion: exact.
    ("fp8_roundtrip", inputs_fp8, reference_fp8, 0.0),
    ("conv_i48",
     lambda rng: [rng.integers(-32768, 32768, (1, 7, 6, 2), dtype=np.int16),
                  rng.integers(-128, 128, (3, 3, 3, 2), dtype=np.int8),
                  rng.integers(-2**20, 2**20, (3,), dtype=np.int32)],
     conv_i48),
]
