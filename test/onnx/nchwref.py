"""float64 numpy references for ONNX convolution and max pooling in NCHW,
with ONNX padding and ceil_mode (test/e2e/convref.py has linalg's forms;
these are written for the ONNX cases, independent of the importer)."""

import numpy as np


def conv2d(x, w, b=None, strides=(1, 1), pads=(0, 0, 0, 0), dilations=(1, 1)):
    """x [N,C,H,W], w [F,C,KH,KW], pads (top, left, bottom, right)."""
    n, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    xp = np.zeros((n, c, h + pads[0] + pads[2], wd + pads[1] + pads[3]))
    xp[:, :, pads[0]:pads[0] + h, pads[1]:pads[1] + wd] = x
    oh = (xp.shape[2] - (kh - 1) * dilations[0] - 1) // strides[0] + 1
    ow = (xp.shape[3] - (kw - 1) * dilations[1] - 1) // strides[1] + 1
    y = np.zeros((n, f, oh, ow))
    for i in range(kh):
        for j in range(kw):
            r0, c0 = i * dilations[0], j * dilations[1]
            patch = xp[:, :, r0:r0 + strides[0] * (oh - 1) + 1:strides[0],
                       c0:c0 + strides[1] * (ow - 1) + 1:strides[1]]
            y += np.einsum("nchw,fc->nfhw", patch, w[:, :, i, j])
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y


def maxpool2d(x, kernel, strides=(1, 1), pads=(0, 0, 0, 0), ceil_mode=False):
    n, c, h, wd = x.shape
    out = []
    for i, size in enumerate((h, wd)):
        span = size + pads[i] + pads[2 + i] - kernel[i]
        o = (-(-span // strides[i]) if ceil_mode else span // strides[i]) + 1
        if ceil_mode and (o - 1) * strides[i] >= size + pads[i]:
            o -= 1
        out.append(o)
    y = np.full((n, c, out[0], out[1]), -np.inf)
    for oi in range(out[0]):
        for oj in range(out[1]):
            r0, c0 = oi * strides[0] - pads[0], oj * strides[1] - pads[1]
            r1, c1 = min(r0 + kernel[0], h), min(c0 + kernel[1], wd)
            r0, c0 = max(r0, 0), max(c0, 0)
            y[:, :, oi, oj] = x[:, :, r0:r1, c0:c1].max(axis=(2, 3))
    return y
