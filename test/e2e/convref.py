"""numpy reference implementations of the linalg convolution / pooling ops
used by the cases (float64 in, float64 out). Loops only over the (small)
filter window; everything else is vectorised."""
import numpy as np


def _win(x, kh, kw, sh, sw, dh, dw, oh, ow):
    """NHWC input window for filter tap (kh, kw): shape (N, OH, OW, C)."""
    h0, w0 = kh * dh, kw * dw
    return x[:, h0:h0 + sh * (oh - 1) + 1:sh, w0:w0 + sw * (ow - 1) + 1:sw, :]


def _out_size(n, k, s, d):
    return (n - (d * (k - 1) + 1)) // s + 1


def conv2d_nhwc_hwcf(x, f, strides=(1, 1), dilations=(1, 1)):
    n, h, w, c = x.shape
    kh_, kw_, c2, fo = f.shape
    assert c == c2
    sh, sw = strides
    dh, dw = dilations
    oh, ow = _out_size(h, kh_, sh, dh), _out_size(w, kw_, sw, dw)
    out = np.zeros((n, oh, ow, fo))
    for kh in range(kh_):
        for kw in range(kw_):
            out += np.einsum("nhwc,cf->nhwf", _win(x, kh, kw, sh, sw, dh, dw, oh, ow), f[kh, kw])
    return out


def conv2d_nchw_fchw(x, f, strides=(1, 1), dilations=(1, 1)):
    xt = np.transpose(x, (0, 2, 3, 1))
    ft = np.transpose(f, (2, 3, 1, 0))
    return np.transpose(conv2d_nhwc_hwcf(xt, ft, strides, dilations), (0, 3, 1, 2))


def depthwise_conv2d_nhwc_hwc(x, f, strides=(1, 1), dilations=(1, 1)):
    n, h, w, c = x.shape
    kh_, kw_, c2 = f.shape
    assert c == c2
    sh, sw = strides
    dh, dw = dilations
    oh, ow = _out_size(h, kh_, sh, dh), _out_size(w, kw_, sw, dw)
    out = np.zeros((n, oh, ow, c))
    for kh in range(kh_):
        for kw in range(kw_):
            out += _win(x, kh, kw, sh, sw, dh, dw, oh, ow) * f[kh, kw]
    return out


def pool_nhwc(x, window, strides=(1, 1), dilations=(1, 1), op="max"):
    n, h, w, c = x.shape
    kh_, kw_ = window
    sh, sw = strides
    dh, dw = dilations
    oh, ow = _out_size(h, kh_, sh, dh), _out_size(w, kw_, sw, dw)
    out = None
    for kh in range(kh_):
        for kw in range(kw_):
            v = _win(x, kh, kw, sh, sw, dh, dw, oh, ow)
            if out is None:
                out = v.copy()
            elif op == "max":
                out = np.maximum(out, v)
            else:
                out = out + v
    return out
