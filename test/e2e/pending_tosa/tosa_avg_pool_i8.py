"""Integer tosa.avg_pool2d (TOSA 1.0): acc = sum(x - input_zp) over the
valid (non-padding) taps, scaled by reciprocal_scale(count) with
apply_scale_32 (single rounding), plus output_zp, saturated to i8."""
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


def reciprocal_scale(count):
    k = (count - 1).bit_length()          # 2^(k-1) < count <= 2^k
    multiplier = (((1 << 30) + 1) << k) // count
    return multiplier, 30 + k


def avg_i8(win, izp, ozp):
    out = np.zeros((win.shape[0], win.shape[2]), np.int64)
    count = win.shape[1]
    m, s = reciprocal_scale(count)
    for idx in np.ndindex(out.shape):
        acc = int(np.sum(win[idx[0], :, idx[1]].astype(np.int64) - izp))
        r = (acc * m + (1 << (s - 1))) >> s
        out[idx] = min(max(r + ozp, -128), 127)
    return out


ENTRIES = [
    ("avg_pool_i8", lambda rng: [rng.integers(-128, 128, (1, 9, 10, 3), dtype=np.int8)],
     lambda x: [pool(x, (2, 3), (1, 2), (1, 0, 0, 1), lambda w: avg_i8(w, -3, 5),
                     np.int64).astype(np.int8)]),
]
