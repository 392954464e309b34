"""NHWC convolutions as implicit GEMMs on tensor cores (see the .mlir)."""
import numpy as np

from e2eutil import bf16_to_f64, to_bf16


def _h(rng, *shape):
    return rng.uniform(-1, 1, shape).astype(np.float16)


def _conv(x, w, stride=1, dilation=1):
    """float64 NHWC x HWCF convolution, no padding."""
    n, h, wd, c = x.shape
    kh, kw, _, f = w.shape
    oh = (h - dilation * (kh - 1) - 1) // stride + 1
    ow = (wd - dilation * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, oh, ow, f))
    for i in range(kh):
        for j in range(kw):
            patch = x[:, i * dilation:i * dilation + stride * (oh - 1) + 1:stride,
                      j * dilation:j * dilation + stride * (ow - 1) + 1:stride, :]
            out += np.einsum("nhwc,cf->nhwf", patch, w[i, j])
    return out


def ref_pad(x, w):
    xp = np.pad(x.astype(np.float64), ((0, 0), (1, 1), (1, 1), (0, 0)))
    return [_conv(xp, w.astype(np.float64), stride=2).astype(np.float32)]


# f16/bf16 operands are exact in f32; up to 5*5*8 = 200 f32-accumulated
# terms of magnitude < 1 (any order): 1e-4.
TOL = 1e-4

ENTRIES = [
    ("f16_3x3_s2_pad", lambda r: [_h(r, 2, 17, 19, 32), _h(r, 3, 3, 32, 24)], ref_pad),
    ("bf16_3x3_d2",
     lambda r: [to_bf16(r.uniform(-1, 1, (1, 23, 21, 16))),
                to_bf16(r.uniform(-1, 1, (3, 3, 16, 20)))],
     lambda x, w: [_conv(bf16_to_f64(x), bf16_to_f64(w), dilation=2).astype(np.float32)]),
    ("f16_5x5_batch3", lambda r: [_h(r, 3, 12, 13, 8), _h(r, 5, 5, 8, 40)],
     lambda x, w: [_conv(x.astype(np.float64), w.astype(np.float64)).astype(np.float32)]),
    ("f16_rgb", lambda r: [_h(r, 1, 15, 15, 3), _h(r, 3, 3, 3, 16)],
     lambda x, w: [_conv(x.astype(np.float64), w.astype(np.float64)).astype(np.float32)]),
]
