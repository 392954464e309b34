"""TOSA avg_pool2d / max_pool2d / resize, references written from the TOSA
1.0 pseudocode (float64 / Python ints)."""
import numpy as np


def _windows(x, kernel, stride, pad):
    """Yields (oy, ox, window values (N, k, C) of the valid taps only)."""
    n, ih, iw, c = x.shape
    oh = (ih + pad[0] + pad[1] - kernel[0]) // stride[0] + 1
    ow = (iw + pad[2] + pad[3] - kernel[1]) // stride[1] + 1
    for oy in range(oh):
        for ox in range(ow):
            y0, x0 = oy * stride[0] - pad[0], ox * stride[1] - pad[2]
            ys = range(max(y0, 0), min(y0 + kernel[0], ih))
            xs = range(max(x0, 0), min(x0 + kernel[1], iw))
            yield oy, ox, x[:, ys.start:ys.stop, xs.start:xs.stop, :].reshape(n, -1, c)


def pool(x, kernel, stride, pad, fn, dtype):
    n, ih, iw, c = x.shape
    oh = (ih + pad[0] + pad[1] - kernel[0]) // stride[0] + 1
    ow = (iw + pad[2] + pad[3] - kernel[1]) // stride[1] + 1
    out = np.zeros((n, oh, ow, c), dtype)
    for oy, ox, win in _windows(x, kernel, stride, pad):
        out[:, oy, ox, :] = fn(win)
    return out


def resize(x, scale, offset, border, mode, integer=False):
    n, ih, iw, c = x.shape
    yn, yd, xn, xd = scale
    oh = ((ih - 1) * yn - offset[0] + border[0]) // yd + 1
    ow = ((iw - 1) * xn - offset[1] + border[1]) // xd + 1
    xv = x.astype(np.int64 if integer else np.float64)
    out = np.zeros((n, oh, ow, c), xv.dtype)
    for oy in range(oh):
        for ox in range(ow):
            y = oy * yd + offset[0]
            xx = ox * xd + offset[1]
            iy, ix = y // yn, xx // xn           # floor division
            ry, rx = y - iy * yn, xx - ix * xn   # remainders >= 0
            iy0, iy1 = max(iy, 0), min(iy + 1, ih - 1)
            ix0, ix1 = max(ix, 0), min(ix + 1, iw - 1)
            if mode == "nearest":
                sy = iy1 if 2 * ry >= yn else iy0
                sx = ix1 if 2 * rx >= xn else ix0
                out[:, oy, ox, :] = xv[:, sy, sx, :]
            else:
                if integer:
                    uy, ux, dy, dx = yn, xn, ry, rx
                else:
                    uy, ux, dy, dx = 1.0, 1.0, ry / yn, rx / xn
                out[:, oy, ox, :] = (xv[:, iy0, ix0, :] * (uy - dy) * (ux - dx)
                                     + xv[:, iy0, ix1, :] * (uy - dy) * dx
                                     + xv[:, iy1, ix0, :] * dy * (ux - dx)
                                     + xv[:, iy1, ix1, :] * dy * dx)
    return out


def _f(rng, shape):
    return rng.standard_normal(shape).astype(np.float32)


def _i8(rng, shape):
    return rng.integers(-128, 128, shape, dtype=np.int8)


def reference_resize_f32(x):
    r1 = ([4, 2, 4, 2], [-1, -1], [1, 1])
    r2 = ([3, 5, 5, 7], [-3, 2], [0, 0])
    return [resize(x, *r1, "bilinear").astype(np.float32), resize(x, *r1, "nearest").astype(np.float32),
            resize(x, *r2, "bilinear").astype(np.float32), resize(x, *r2, "nearest").astype(np.float32)]


def reference_resize_i8(x):
    return [resize(x, [4, 2, 4, 2], [-1, -1], [1, 1], "nearest", True).astype(np.int8),
            resize(x, [4, 2, 4, 2], [0, 0], [2, 2], "bilinear", True).astype(np.int32)]


ENTRIES = [
    # Mean of <= 9 values: a few f32 roundings, 1e-6.
    ("avg_pool_f32", lambda rng: [_f(rng, (2, 11, 13, 5))],
     lambda x: [pool(x.astype(np.float64), (3, 3), (2, 2), (1, 1, 1, 1),
                     lambda w: w.mean(axis=1), np.float64).astype(np.float32)], 1e-6),
    ("max_pool", lambda rng: [_f(rng, (2, 11, 13, 5)), _i8(rng, (1, 9, 10, 3))],
     lambda x, y: [pool(x, (2, 3), (2, 2), (1, 0, 0, 2), lambda w: w.max(axis=1), np.float32),
                   pool(y, (2, 2), (2, 2), (1, 0, 0, 0), lambda w: w.max(axis=1), np.int8)],
     0.0),   # selects an input: exact
    # Bilinear: 4 products with fractions k/4 or k/5, k/7 and 3 adds: a few
    # f32 roundings, 1e-6; nearest is exact.
    ("resize_f32", lambda rng: [_f(rng, (1, 5, 7, 3))], reference_resize_f32, 1e-6),
    ("resize_i8", lambda rng: [_i8(rng, (2, 5, 7, 3))], reference_resize_i8),
]
