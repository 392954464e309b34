"""f32 -> fp8 -> f32 casts: round to nearest even (in range, subnormals
included)."""
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


ENTRIES = [
    # Each result is one correctly rounded conversion: exact.
    ("fp8_roundtrip", inputs_fp8, reference_fp8, 0.0),
]
