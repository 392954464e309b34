"""TOSA convolutions: float64 / int64 references written from the TOSA 1.0
pseudocode (padded taps are skipped, i.e. read input_zp; zero points are
subtracted before multiplying; bias per output channel)."""
import numpy as np


def conv_nd(x, w, b, pad, stride, dil, izp=0, wzp=0):
    """x: (N, *spatial, IC), w: (OC, *kernel, IC), pad: (lo, hi) per spatial dim."""
    x = x.astype(np.float64 if x.dtype.kind == "f" else np.int64) - izp
    w = w.astype(x.dtype) - wzp
    nd = w.ndim - 2
    x = np.pad(x, [(0, 0)] + [(pad[2 * d], pad[2 * d + 1]) for d in range(nd)] + [(0, 0)])
    out_sp = [(x.shape[1 + d] - (w.shape[1 + d] - 1) * dil[d] - 1) // stride[d] + 1 for d in range(nd)]
    out = np.zeros((x.shape[0], *out_sp, w.shape[0]), x.dtype)
    for k in np.ndindex(*w.shape[1:-1]):
        sl = tuple(slice(k[d] * dil[d], k[d] * dil[d] + (out_sp[d] - 1) * stride[d] + 1, stride[d])
                   for d in range(nd))
        out += np.tensordot(x[(slice(None),) + sl], w[(slice(None),) + k], axes=([nd + 1], [1]))
    return out + b.astype(x.dtype)


def depthwise(x, w, b, pad, stride, dil, izp=0, wzp=0):
    """w: (KH, KW, C, M); output channel c * M + m."""
    c, m = w.shape[2], w.shape[3]
    # As a conv per (c, m) pair: the input channel c feeds outputs c*M .. c*M+M-1.
    outs = []
    for ci in range(c):
        wc = np.transpose(w[:, :, ci:ci + 1, :], (3, 0, 1, 2))    # (M, KH, KW, 1)
        outs.append(conv_nd(x[..., ci:ci + 1], wc, np.zeros(m, np.int64), pad, stride, dil, izp, wzp))
    out = np.concatenate(outs, axis=-1)
    return out + b.astype(out.dtype)


def transpose_conv(x, w, b, out_pad, stride, out_shape):
    """Input pixel (iy, ix) adds w[oc, ky, kx, :] . x to output
    (iy*sy + out_pad_top + ky, ix*sx + out_pad_left + kx) when in bounds."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    n, ih, iw, _ = x.shape
    oc, kh, kw, _ = w.shape
    oh, ow = out_shape
    # Rows/columns past the last tap (out_pad_bottom/right > 0) hold only the
    # bias; taps past OH/OW (negative out_pad) are cut.
    big = np.zeros((n, max(oh, (ih - 1) * stride[0] + out_pad[0] + kh),
                    max(ow, (iw - 1) * stride[1] + out_pad[2] + kw), oc))
    for ky in range(kh):
        for kx in range(kw):
            y0, x0 = out_pad[0] + ky, out_pad[2] + kx
            big[:, y0:y0 + (ih - 1) * stride[0] + 1:stride[0], x0:x0 + (iw - 1) * stride[1] + 1:stride[1], :] += \
                np.tensordot(x, w[:, ky, kx, :], axes=([3], [1]))
    return big[:, :oh, :ow, :] + b


def _f(rng, shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


def _i8(rng, shape):
    return rng.integers(-128, 128, shape, dtype=np.int8)


ENTRIES = [
    # K = 3*4*5 = 60 f32 products: 1e-5.
    ("conv2d_f32",
     lambda rng: [_f(rng, (2, 13, 11, 5)), _f(rng, (7, 3, 4, 5)), _f(rng, (7,))],
     lambda x, w, b: [conv_nd(x, w, b, (1, 1, 0, 1), (2, 1), (1, 2)).astype(np.float32)], 1e-5),
    # K = 16 and 144: 1e-4 for the 3x3 (any summation order).
    ("conv2d_f32_simple",
     lambda rng: [_f(rng, (1, 9, 9, 16)), _f(rng, (13, 1, 1, 16)), _f(rng, (13, 3, 3, 16)),
                  _f(rng, (1,))],
     lambda x, w1, w3, b: [conv_nd(x, w1, b, (0, 0, 0, 0), (1, 1), (1, 1)).astype(np.float32),
                           conv_nd(x, w3, b, (1, 1, 1, 1), (1, 1), (1, 1)).astype(np.float32)],
     1e-4),
    # acc_type f32: f16 products are exact in f32, so the result is off by
    # the final f16 rounding (4.9e-4 relative) plus f32 summation noise;
    # 2e-3 (an f16 accumulator over 54 terms would exceed it).
    ("conv2d_f16",
     lambda rng: [_f(rng, (1, 10, 9, 6), np.float16), _f(rng, (5, 3, 3, 6), np.float16),
                  _f(rng, (5,), np.float16)],
     lambda x, w, b: [conv_nd(x, w, b, (0, 0, 1, 1), (1, 2), (1, 1)).astype(np.float16)], 2e-3),
    ("conv2d_i8",
     lambda rng: [_i8(rng, (2, 9, 8, 3)), _i8(rng, (6, 3, 3, 3)),
                  rng.integers(-5000, 5000, (6,), dtype=np.int32)],
     lambda x, w, b: [conv_nd(x, w, b, (1, 1, 1, 1), (1, 1), (1, 1), 4, -2).astype(np.int32)]),
    # 9 taps per output: 1e-5.
    ("depthwise",
     lambda rng: [_f(rng, (1, 10, 9, 4)), _f(rng, (3, 3, 4, 2)), _f(rng, (8,)),
                  _i8(rng, (1, 7, 7, 5)), _i8(rng, (3, 3, 5, 1)),
                  rng.integers(-5000, 5000, (5,), dtype=np.int32)],
     lambda x, w, b, xi, wi, bi: [
         depthwise(x, w, b, (1, 1, 1, 1), (1, 2), (2, 1)).astype(np.float32),
         depthwise(xi, wi, bi, (0, 0, 0, 0), (1, 1), (1, 1), -6, 1).astype(np.int32)],
     [1e-5, 0]),
    # At most 3*2*3 = 18 products per output: 1e-5.
    ("transpose_conv",
     lambda rng: [_f(rng, (2, 5, 6, 3)), _f(rng, (4, 3, 2, 3)), _f(rng, (4,))],
     lambda x, w, b: [transpose_conv(x, w, b, (0, 1, 1, 0), (2, 3), (12, 18)).astype(np.float32),
                      transpose_conv(x, w, b, (0, 0, 0, -1), (2, 2), (11, 11)).astype(np.float32)],
     1e-5),
    # K = 576: 1e-4 for f32 (any summation order); the f16 result adds its
    # final rounding (4.9e-4 relative; products are exact in the f32
    # accumulator): 2e-3.
    ("conv2d_large",
     lambda rng: [_f(rng, (1, 28, 28, 64)), _f(rng, (96, 3, 3, 64)) * np.float32(0.1),
                  _f(rng, (96,)), _f(rng, (2, 14, 14, 64), np.float16),
                  (_f(rng, (128, 3, 3, 64)) * 0.1).astype(np.float16), _f(rng, (128,), np.float16)],
     lambda x, w, b, xh, wh, bh: [
         conv_nd(x, w, b, (1, 1, 1, 1), (1, 1), (1, 1)).astype(np.float32),
         conv_nd(xh, wh, bh, (1, 1, 1, 1), (1, 1), (1, 1)).astype(np.float16)],
     [1e-4, 2e-3]),
    # K = 2*3*3*3 = 54: 1e-5.
    ("conv3d",
     lambda rng: [_f(rng, (1, 6, 7, 8, 3)), _f(rng, (4, 2, 3, 3, 3)), _f(rng, (4,))],
     lambda x, w, b: [conv_nd(x, w, b, (0, 1, 1, 1, 1, 0), (1, 2, 2), (2, 1, 1)).astype(np.float32)],
     1e-5),
]
