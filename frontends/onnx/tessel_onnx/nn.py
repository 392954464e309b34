"""Neural-network ops: Softmax (linalg.softmax), LayerNormalization (the row
chain Tessel fuses), Conv (NHWC linalg.conv_2d_nhwc_hwcf between
transposes), MaxPool (linalg.pooling_nchw_max), GlobalAveragePool,
GlobalMaxPool and inference BatchNormalization (a per-channel scale and
shift).
"""

import numpy as np

from . import dtypes
from .common import NodeError, all_const, broadcast_shape, normalize_axis
from .ir import Const, identity_exprs
from .reduce import reduce_tensor
from .symbolic import numel


def _float_input(ctx, i, what):
    x = ctx.input(i, what)
    if not x.dtype.is_float:
        raise NodeError("%s has element type %s; floats only" % (what, x.dtype.mlir))
    return x


def _only_first_output(ctx, what):
    if ctx.num_outputs() > 1:
        raise NodeError("only the first output is supported (%s)" % what)


# -- Softmax -----------------------------------------------------------------

def _softmax_np(a, axis):
    e = np.exp(a - a.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _softmax(ctx):
    """Softmax along `axis`; before opset 13, over all dimensions from
    `axis` on (the input seen as 2-D)."""
    x = _float_input(ctx, 0, "input")
    rank = len(x.shape)
    if rank == 0:
        raise NodeError("input must have rank >= 1")
    axis = normalize_axis(ctx.attr("axis", -1 if ctx.opset >= 13 else 1), rank)
    shape = x.shape
    em = ctx.em
    if ctx.opset < 13 and axis < rank - 1:
        x = em.reshape(x, shape[:axis] + (numel(shape[axis:]),))
    if isinstance(x, Const):
        y = Const(_softmax_np(x.array.astype(np.float64), axis), x.dtype)
    else:
        # 16-bit inputs: the max, exponentials and sum in f32 (as torch
        # does), rounded once at the end; Tessel fuses the f32 chain into
        # one row kernel.
        dt = x.dtype
        if dt.bits < 32:
            x = em.elementwise([x], x.shape, dtypes.F32, lambda b, n: b.cast(n[0], dt, dtypes.F32))
        init = em.empty(x.shape, x.dtype)
        y = em.op("linalg.softmax dimension(%d) ins(%s : %s) outs(%s : %s) -> %s"
                  % (axis, x.name, x.type, init.name, init.type, init.type), x.shape, x.dtype)
        if dt.bits < 32:
            y = em.elementwise([y], y.shape, dt, lambda b, n: b.cast(n[0], dtypes.F32, dt))
    return [em.reshape(y, shape)]


# -- LayerNormalization ------------------------------------------------------

def _layer_norm(ctx):
    """Normalizes over the axes from `axis` on. The trailing axes are
    collapsed into one row of length N; then a row sum, the mean (a per-row
    generic), a row sum of squared deviations and one elementwise generic
    for (x - mean) * rsqrt(var + eps) * scale + bias: the chain that Tessel
    runs as one fused row kernel (test/e2e/cases/row_chains_f32.mlir)."""
    x = _float_input(ctx, 0, "X")
    scale, bias = _float_input(ctx, 1, "Scale"), ctx.input(2)
    _only_first_output(ctx, "Mean and InvStdDev are not")
    rank = len(x.shape)
    axis = normalize_axis(ctx.attr("axis", -1), rank)
    eps = float(ctx.attr("epsilon", 1e-5))
    dt = x.dtype
    rows, norm = x.shape[:axis], x.shape[axis:]
    n = numel(norm)
    params = [scale] + ([bias] if bias is not None else [])
    for p in params:
        if broadcast_shape(p.shape, norm) != norm:
            raise NodeError("Scale/B of shape %s does not broadcast to the normalized shape %s"
                            % (list(p.shape), list(norm)))
    if all_const([x] + params):
        a = x.array.astype(np.float64)
        ax = tuple(range(axis, rank))
        mean = a.mean(axis=ax, keepdims=True)
        var = ((a - mean) ** 2).mean(axis=ax, keepdims=True)
        y = (a - mean) / np.sqrt(var + eps) * scale.array
        if bias is not None:
            y = y + bias.array
        return [Const(y, dt)]
    em = ctx.em
    c = dtypes.compute_type(dt)
    p = len(rows)
    row_exprs = identity_exprs(p)
    all_exprs = identity_exprs(p + 1)
    xr = em.reshape(em.value(x), rows + (n,))
    vecs = [em.reshape(em.broadcast_to(v, norm), (n,)) for v in params]
    zero = em.filled(0, rows, c)
    total = em.generic([(xr, all_exprs)], (zero, row_exprs), ["parallel"] * p + ["reduction"],
                       lambda b, ins, out: b.add(b.cast(ins[0], dt, c), out, c))
    mean = em.generic([(total, row_exprs)], (em.empty(rows, c), row_exprs), ["parallel"] * p,
                      lambda b, ins, out: b.div(ins[0], b.const(n, c), c))

    def squares(b, ins, out):
        d = b.sub(b.cast(ins[0], dt, c), ins[1], c)
        return b.add(b.mul(d, d, c), out, c)

    sq = em.generic([(xr, all_exprs), (mean, row_exprs)], (zero, row_exprs),
                    ["parallel"] * p + ["reduction"], squares)

    def normalize(b, ins, out):
        var = b.div(ins[2], b.const(n, c), c)
        r = b.math("rsqrt", b.add(var, b.const(eps, c), c), c)
        y = b.mul(b.mul(b.sub(b.cast(ins[0], dt, c), ins[1], c), r, c), b.cast(ins[3], scale.dtype, c), c)
        if bias is not None:
            y = b.add(y, b.cast(ins[4], bias.dtype, c), c)
        return b.cast(y, c, dt)

    ins = [(xr, all_exprs), (mean, row_exprs), (sq, row_exprs)] + [(v, ["d%d" % p]) for v in vecs]
    y = em.generic(ins, (em.empty(rows + (n,), dt), all_exprs), ["parallel"] * (p + 1), normalize)
    return [em.reshape(y, x.shape)]


# -- Conv and pooling ----------------------------------------------------------

def _spatial_attrs(ctx, kernel, spatial, with_dilations=True):
    """strides, dilations, pads (begin..., end...) of a 2-D window op, with
    auto_pad applied."""
    k = len(kernel)
    strides = [int(s) for s in ctx.attr("strides", [1] * k)]
    dilations = [int(d) for d in ctx.attr("dilations", [1] * k)] if with_dilations else [1] * k
    pads = [int(p) for p in ctx.attr("pads", [0] * (2 * k))]
    if len(strides) != k or len(dilations) != k or len(pads) != 2 * k:
        raise NodeError("strides, dilations and pads must have %d, %d and %d values" % (k, k, 2 * k))
    if any(s < 1 for s in strides) or any(d < 1 for d in dilations) or any(p < 0 for p in pads):
        raise NodeError("strides and dilations must be positive and pads non-negative")
    auto_pad = ctx.attr("auto_pad", "NOTSET")
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        for i in range(k):
            out = -(-spatial[i] // strides[i])
            total = max(0, (out - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 - spatial[i])
            small = total // 2
            pads[i], pads[k + i] = (small, total - small) if auto_pad == "SAME_UPPER" else (total - small, small)
    elif auto_pad == "VALID":
        pads = [0] * (2 * k)
    elif auto_pad != "NOTSET":
        raise NodeError("auto_pad '%s' is not supported" % auto_pad)
    return strides, dilations, pads


def _out_size(size, kernel, stride, dilation, pad_begin, pad_end, ceil_mode=False):
    window = (kernel - 1) * dilation + 1
    span = size + pad_begin + pad_end - window
    if span < 0:
        raise NodeError("the window (%d) is larger than the padded input (%d)"
                        % (window, size + pad_begin + pad_end))
    out = (-(-span // stride) if ceil_mode else span // stride) + 1
    # A window may not start in the end padding (ONNX, PyTorch).
    if ceil_mode and (out - 1) * stride >= size + pad_begin:
        out -= 1
    return out


def _conv(ctx):
    x, w, b = _float_input(ctx, 0, "X"), _float_input(ctx, 1, "W"), ctx.input(2)
    if len(x.shape) != 4 or len(w.shape) != 4:
        raise NodeError("only 2-D convolutions (4-D X and W) are supported, not X %s, W %s"
                        % (list(x.shape), list(w.shape)))
    if int(ctx.attr("group", 1)) != 1:
        raise NodeError("group=%d is not supported (only 1)" % int(ctx.attr("group", 1)))
    dt = x.dtype
    if w.dtype is not dt or (b is not None and b.dtype is not dt):
        raise NodeError("inputs have different element types")
    n, c, h, wd = x.shape
    f, cw, kh, kw = w.shape
    if cw != c:
        raise NodeError("W has %d input channels, X has %d" % (cw, c))
    if ctx.has_attr("kernel_shape") and [int(k) for k in ctx.attr("kernel_shape")] != [kh, kw]:
        raise NodeError("kernel_shape %s does not match W %s" % (ctx.attr("kernel_shape"), list(w.shape)))
    if b is not None and b.shape != (f,):
        raise NodeError("B must have shape [%d], not %s" % (f, list(b.shape)))
    strides, dilations, pads = _spatial_attrs(ctx, (kh, kw), (h, wd))
    oh = _out_size(h, kh, strides[0], dilations[0], pads[0], pads[2])
    ow = _out_size(wd, kw, strides[1], dilations[1], pads[1], pads[3])
    em = ctx.em
    acc = dtypes.compute_type(dt)
    xt = em.transpose(x, [0, 2, 3, 1])
    if any(pads):
        xt = em.pad(em.value(xt), [0, pads[0], pads[1], 0], [0, pads[2], pads[3], 0], 0)
    wt = em.transpose(w, [2, 3, 1, 0])  # OIHW -> HWCF; folded when W is a constant
    xt, wt = em.value(xt), em.value(wt)
    init = em.filled(0, (n, oh, ow, f), acc)
    y = em.op("linalg.conv_2d_nhwc_hwcf {dilations = dense<[%d, %d]> : tensor<2xi64>, "
              "strides = dense<[%d, %d]> : tensor<2xi64>} ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
              % (dilations[0], dilations[1], strides[0], strides[1], xt.name, wt.name,
                 xt.type, wt.type, init.name, init.type, init.type), init.shape, acc)
    if b is not None or acc is not dt:
        terms = [y] + ([b] if b is not None else [])

        def body(bd, names):
            v = names[0]
            if b is not None:
                v = bd.add(v, bd.cast(names[1], dt, acc), acc)
            return bd.cast(v, acc, dt)

        y = em.elementwise(terms, y.shape, dt, body)
    return [em.transpose(y, [0, 3, 1, 2])]


def _max_pool(ctx):
    x = _float_input(ctx, 0, "X")
    _only_first_output(ctx, "Indices is not")
    if len(x.shape) != 4:
        raise NodeError("only 2-D pooling (4-D X) is supported, not %s" % list(x.shape))
    kernel = [int(k) for k in ctx.attr("kernel_shape", [])]
    if len(kernel) != 2:
        raise NodeError("kernel_shape must have 2 values")
    n, c, h, wd = x.shape
    strides, dilations, pads = _spatial_attrs(ctx, kernel, (h, wd))
    ceil_mode = bool(ctx.attr("ceil_mode", 0))
    out = [_out_size(s, kernel[i], strides[i], dilations[i], pads[i], pads[2 + i], ceil_mode)
           for i, s in enumerate((h, wd))]
    # ceil_mode's last window may reach past the end padding: pad more.
    ends = [max(pads[2 + i], (out[i] - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1
                - s - pads[i]) for i, s in enumerate((h, wd))]
    em = ctx.em
    xv = em.value(x)
    if any(pads[:2]) or any(ends):
        xv = em.pad(xv, [0, 0, pads[0], pads[1]], [0, 0, ends[0], ends[1]], -np.inf)
    window = em.empty(kernel, x.dtype)
    init = em.filled(-np.inf, (n, c, out[0], out[1]), x.dtype)
    return [em.op("linalg.pooling_nchw_max {dilations = dense<[%d, %d]> : tensor<2xi64>, "
                  "strides = dense<[%d, %d]> : tensor<2xi64>} ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                  % (dilations[0], dilations[1], strides[0], strides[1], xv.name, window.name,
                     xv.type, window.type, init.name, init.type, init.type), init.shape, x.dtype)]


def _global_pool(kind):
    def handler(ctx):
        x = _float_input(ctx, 0, "X")
        if len(x.shape) < 3:
            raise NodeError("X must have rank >= 3 (N, C, spatial...), not %s" % list(x.shape))
        axes = list(range(2, len(x.shape)))
        if isinstance(x, Const):
            a = x.array.astype(np.float64)
            y = a.mean(axis=tuple(axes), keepdims=True) if kind == "mean" else a.max(
                axis=tuple(axes), keepdims=True)
            return [Const(y, x.dtype)]
        y = reduce_tensor(ctx.em, x, axes, kind)
        return [ctx.em.reshape(y, x.shape[:2] + (1,) * len(axes))]

    return handler


def _batch_norm(ctx):
    """Inference BatchNormalization as y = x * a[c] + b[c] with
    a = scale / sqrt(var + eps) and b = B - mean * a, computed at import
    time when the parameters are constants."""
    x = _float_input(ctx, 0, "X")
    params = [_float_input(ctx, i, what) for i, what in
              enumerate(("scale", "B", "input_mean", "input_var"), start=1)]
    if int(ctx.attr("training_mode", 0)):
        raise NodeError("training_mode=1 is not supported (inference only)")
    _only_first_output(ctx, "running statistics are training outputs, not")
    if len(x.shape) < 2:
        raise NodeError("X must have rank >= 2")
    ch = x.shape[1]
    for p in params:
        if p.shape != (ch,):
            raise NodeError("parameters must have shape [%d], not %s" % (ch, list(p.shape)))
    eps = float(ctx.attr("epsilon", 1e-5))
    dt = x.dtype
    c = dtypes.compute_type(dt)
    shape = (ch,) + (1,) * (len(x.shape) - 2)  # numpy-broadcasts along dimension 1
    em = ctx.em
    if all_const(params):
        scale, bias, mean, var = (p.array.astype(np.float64) for p in params)
        a = scale / np.sqrt(var + eps)
        a_t, b_t = Const(a.reshape(shape), c), Const((bias - mean * a).reshape(shape), c)
        if isinstance(x, Const):
            return [Const(x.array.astype(np.float64) * a_t.array + b_t.array, dt)]
    else:
        def scale_body(b, n):
            s, v = (b.cast(t, p.dtype, c) for t, p in zip(n, (params[0], params[3])))
            return b.mul(s, b.math("rsqrt", b.add(v, b.const(eps, c), c), c), c)

        a_t = em.elementwise([params[0], params[3]], (ch,), c, scale_body)
        b_t = em.elementwise([params[1], params[2], a_t], (ch,), c,
                             lambda b, n: b.sub(b.cast(n[0], dt, c),
                                                b.mul(b.cast(n[1], dt, c), n[2], c), c))
        a_t, b_t = em.reshape(a_t, shape), em.reshape(b_t, shape)
    return [em.elementwise([x, a_t, b_t], x.shape, dt,
                           lambda b, n: b.cast(b.add(b.mul(b.cast(n[0], dt, c), n[1], c), n[2], c), c, dt))]


OPS = {
    ("", "Softmax"): _softmax,
    ("", "LayerNormalization"): _layer_norm,
    ("", "Conv"): _conv,
    ("", "MaxPool"): _max_pool,
    ("", "GlobalAveragePool"): _global_pool("mean"),
    ("", "GlobalMaxPool"): _global_pool("max"),
    ("", "BatchNormalization"): _batch_norm,
}
