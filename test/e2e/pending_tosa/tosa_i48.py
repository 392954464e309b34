"""tosa conv2d with an i48 accumulator (16x8 profile) and i48 constants:
exact int64 references (TOSA 1.0 CONV2D, RESCALE with apply_scale_16)."""
import numpy as np


def conv_i48(x, w, b, bias_shift, shift):
    x, w = x.astype(np.int64), w.astype(np.int64)
    oh, ow = x.shape[1] - 2, x.shape[2] - 2
    acc = np.zeros((1, oh, ow, 3), np.int64)
    for ky in range(3):
        for kx in range(3):
            acc += np.tensordot(x[:, ky:ky + oh, kx:kx + ow, :], w[:, ky, kx, :], axes=([3], [1]))
    acc += b.astype(np.int64) << bias_shift
    return [((acc * 16384 + (1 << (shift - 1))) >> shift).astype(np.int32)]   # apply_scale_16


def _xw(rng):
    return [rng.integers(-32768, 32768, (1, 7, 6, 2), dtype=np.int16),
            rng.integers(-128, 128, (3, 3, 3, 2), dtype=np.int8)]


ENTRIES = [
    ("conv_i48", lambda rng: _xw(rng) + [rng.integers(-2**20, 2**20, (3,), dtype=np.int32)],
     lambda x, w, b: conv_i48(x, w, b, 0, 15)),
    ("conv_i48_big_bias", lambda rng: _xw(rng) + [np.array([2**30, -2**29, 12345], np.int32)],
     lambda x, w, b: conv_i48(x, w, b, 10, 24)),
    ("const_i48", lambda rng: [np.array([5 << 20, -(7 << 20), 1 << 20], np.int32)],
     lambda x: [((x.astype(np.int64) + np.array([2**40, -2**39, 12345])) >> 20).astype(np.int32)]),
]
