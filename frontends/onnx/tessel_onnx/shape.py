"""Data movement and shape ops: Reshape, Flatten, Squeeze, Unsqueeze
(collapse_shape / expand_shape), Transpose (linalg.transpose), Concat
(tensor.concat), Slice and Split (tensor.extract_slice), Gather (a
linalg.generic yielding tensor.extract of the table, which Tessel raises to
tessel.gather), Expand (a broadcasting generic), and the ops that only
describe shapes: Shape, Size, Constant, ConstantOfShape, Range, Identity.

Shape is always a constant: its elements are ints, and Syms for the
dimensions known only at run time (symbolic.py). The
Shape/Gather/Unsqueeze/Concat chains that exported graphs use to compute
Reshape targets fold with numpy, symbolically where they hold Syms.
"""

import numpy as np

from . import dtypes
from .common import NodeError, all_const, broadcast_shape, normalize_axes, normalize_axis
from .ir import Const, Value, identity_exprs
from .symbolic import (Sym, SymbolicError, dim_str, int_array, is_static, is_symbolic_array, numel,
                       shape_str)

# Slice bounds at least this large mean "to the end" (exporters write
# INT64_MAX or INT32_MAX).
_TO_THE_END = 2 ** 31 - 1


def _ints(a, what):
    """The values of an integer tensor known at import time: ints, and
    Syms for sizes known only at run time."""
    if a is None:
        return None
    a = np.asarray(a)
    if is_symbolic_array(a):
        return [v if isinstance(v, Sym) else int(v) for v in a.reshape(-1)]
    if a.dtype.kind not in "iu":
        raise NodeError("%s must be integers, not %s" % (what, a.dtype))
    return [int(v) for v in a.reshape(-1)]


def _static_ints(a, what):
    """Like _ints, for values that must be known at import time (axes,
    steps, split sizes)."""
    out = _ints(a, what)
    if out is not None and any(isinstance(v, Sym) for v in out):
        raise NodeError("%s %s must be known at import time, but depend on sizes known only "
                        "at run time" % (what, shape_str(out)))
    return out


def _axes(ctx, index, what="axes"):
    """Axes from input `index` (newer opsets) or the `axes` attribute."""
    if ctx.input(index) is not None:
        return _static_ints(ctx.const_input(index, what), what)
    v = ctx.attr("axes")
    return None if v is None else [int(a) for a in v]


def _check_nonempty(shape):
    if 0 in shape:
        raise NodeError("the result would be empty (shape %s); empty tensors are not supported"
                        % shape_str(shape))


def _reshape(ctx):
    x = ctx.input(0, "data")
    target = _ints(ctx.const_input(1, "shape"), "shape")
    if target is None:
        raise NodeError("missing input 1 (shape)")
    allowzero = int(ctx.attr("allowzero", 0))
    out, infer = [], None
    for i, d in enumerate(target):
        if d == 0 and not allowzero:
            if i >= len(x.shape):
                raise NodeError("shape %s copies dimension %d, which the input %s lacks"
                                % (shape_str(target), i, shape_str(x.shape)))
            d = x.shape[i]
        elif d == -1:
            if infer is not None:
                raise NodeError("shape %s has more than one -1" % shape_str(target))
            infer = i
        elif is_static(d) and d < 0:
            raise NodeError("shape %s has a negative size" % shape_str(target))
        out.append(d)
    total = numel(x.shape)
    if infer is not None:
        rest = numel([d for i, d in enumerate(out) if i != infer])
        try:
            out[infer] = total // rest
        except (SymbolicError, ZeroDivisionError):
            raise NodeError("cannot reshape %s to %s" % (shape_str(x.shape), shape_str(target)))
    if numel(out) != total:
        raise NodeError("cannot reshape %s (%s elements) to %s"
                        % (shape_str(x.shape), dim_str(total), shape_str(out)))
    return [ctx.em.reshape(x, out)]


def _flatten(ctx):
    x = ctx.input(0, "input")
    rank = len(x.shape)
    axis = int(ctx.attr("axis", 1))
    if not -rank <= axis <= rank:
        raise NodeError("axis %d is out of range for rank %d" % (axis, rank))
    axis = axis + rank if axis < 0 else axis
    return [ctx.em.reshape(x, (numel(x.shape[:axis]), numel(x.shape[axis:])))]


def _unsqueeze(ctx):
    x = ctx.input(0, "data")
    axes = _axes(ctx, 1)
    if axes is None:
        raise NodeError("no axes (input 1 or attribute)")
    rank = len(x.shape) + len(axes)
    axes = set(normalize_axes(axes, rank))
    dims = iter(x.shape)
    y = ctx.em.reshape(x, [1 if i in axes else next(dims) for i in range(rank)])
    if isinstance(x, Value) and isinstance(x.grid, int) and y is not x:
        y.grid = [i for i in range(rank) if i not in axes][x.grid]
    return [y]


def _squeeze(ctx):
    x = ctx.input(0, "data")
    axes = _axes(ctx, 1)
    if axes is None:
        axes = [i for i, d in enumerate(x.shape) if d == 1]
    axes = normalize_axes(axes, len(x.shape))
    for a in axes:
        if x.shape[a] != 1:
            raise NodeError("cannot squeeze axis %d of size %s" % (a, dim_str(x.shape[a])))
    return [ctx.em.reshape(x, [d for i, d in enumerate(x.shape) if i not in axes])]


def _transpose(ctx):
    x = ctx.input(0, "data")
    rank = len(x.shape)
    perm = ctx.attr("perm")
    perm = list(range(rank))[::-1] if perm is None else [int(p) for p in perm]
    if sorted(perm) != list(range(rank)):
        raise NodeError("perm %s is not a permutation of %d axes" % (perm, rank))
    return [ctx.em.transpose(x, perm)]


def _concat(ctx):
    xs = [x for x in ctx.inputs() if x is not None]
    if not xs:
        raise NodeError("needs at least one input")
    rank = len(xs[0].shape)
    axis = normalize_axis(ctx.attr("axis"), rank) if ctx.has_attr("axis") else None
    if axis is None:
        raise NodeError("missing attribute 'axis'")
    dts = {x.dtype for x in xs}
    if len(dts) != 1:
        raise NodeError("inputs have different element types")
    for x in xs:
        if len(x.shape) != rank or any(a != b for i, (a, b) in enumerate(zip(x.shape, xs[0].shape))
                                       if i != axis):
            raise NodeError("input shapes %s do not concatenate along axis %d"
                            % (", ".join(shape_str(x.shape) for x in xs), axis))
    if all_const(xs):
        return [Const(np.concatenate([x.array for x in xs], axis=axis), xs[0].dtype)]
    xs = [x for x in xs if x.shape[axis] != 0]
    if len(xs) == 1:
        return [xs[0]]
    y = ctx.em.concat(xs, axis)
    if axis == rank - 1 and all(isinstance(x, Value) and isinstance(x.grid, int) and
                                x.grid < axis and x.shape[axis] == 1 for x in xs):
        y.grid = tuple(x.grid for x in xs)  # index tuples, one coordinate each
    return [y]


def _slice_params(ctx, x):
    """Per-axis (start, size, step) of a Slice, clamped as ONNX says. With
    sizes known only at run time, bounds are assumed in range (step 1
    only), and the bounds that need it are checked when the function is
    called."""
    rank = len(x.shape)
    if ctx.num_inputs() > 1:  # opset 10+: inputs
        starts = _ints(ctx.const_input(1, "starts"), "starts")
        ends = _ints(ctx.const_input(2, "ends"), "ends")
        axes = _static_ints(ctx.const_input(3, "axes"), "axes")
        steps = _static_ints(ctx.const_input(4, "steps"), "steps")
    else:
        starts, ends = ctx.attr("starts"), ctx.attr("ends")
        axes, steps = ctx.attr("axes"), None
    if starts is None or ends is None or len(starts) != len(ends):
        raise NodeError("starts and ends must be given, of one length")
    axes = list(range(len(starts))) if axes is None else list(axes)
    steps = [1] * len(starts) if steps is None else list(steps)
    if len(axes) != len(starts) or len(steps) != len(starts):
        raise NodeError("starts, ends, axes and steps differ in length")
    params = [(0, d, 1) for d in x.shape]
    for a, s, e, st in zip(normalize_axes(axes, rank), starts, ends, steps):
        dim = x.shape[a]
        if st == 0:
            raise NodeError("step 0 on axis %d" % a)
        if not all(is_static(v) for v in (s, e, dim)):
            params[a] = _symbolic_slice(ctx, a, s, e, st, dim)
            continue
        s = s + dim if s < 0 else s
        e = e + dim if e < 0 else e
        if st > 0:
            s, e = min(max(s, 0), dim), min(max(e, 0), dim)
            size = max(0, (e - s + st - 1) // st)
        else:
            s, e = min(max(s, 0), dim - 1), min(max(e, -1), dim - 1)
            size = max(0, (s - e + (-st) - 1) // (-st))
        params[a] = (s, size, st)
    return params


def _symbolic_slice(ctx, axis, s, e, st, dim):
    """(start, size, 1) of one axis whose bounds or size are symbolic:
    negative constants count from the end, large ones mean the end; the
    others must lie in [0, dim], which is checked at run time where the
    import cannot decide it."""
    if st != 1:
        raise NodeError("a step of %d on axis %d, whose bounds or size (%s) are known only at "
                        "run time, is not supported (step 1 is)" % (st, axis, dim_str(dim)))

    def bound(v, what):
        if is_static(v) and v >= _TO_THE_END:
            return dim
        if is_static(v) and v < 0:
            v = v + dim
        where = "Slice axis %d: %s %s" % (axis, what, dim_str(v))
        ctx.em.check(0, "sle", v, "%s must not be negative" % where)
        ctx.em.check(v, "sle", dim, "%s must be at most the size %s" % (where, dim_str(dim)))
        return v

    s, e = bound(s, "start"), bound(e, "end")
    ctx.em.check(s, "sle", e, "Slice axis %d: start %s must be at most end %s"
                 % (axis, dim_str(s), dim_str(e)))
    return s, e - s, 1


def _slice(ctx):
    x = ctx.input(0, "data")
    params = _slice_params(ctx, x)
    symbolic = not all(is_static(v) for p in params for v in p)
    if isinstance(x, Const) and not symbolic:
        index = tuple(slice(s, s + st * n, st) if st > 0 else
                      slice(s, s + st * n if s + st * n >= 0 else None, st)
                      for s, n, st in params)
        return [Const(x.array[index], x.dtype)]
    _check_nonempty([n for _, n, _ in params])
    # A negative step reads the same elements as the positive one from the
    # other end, reversed afterwards.
    lows = [s if st > 0 else s + st * (n - 1) for s, n, st in params]
    strides = [abs(st) for _, _, st in params]
    sizes = [n for _, n, _ in params]
    em = ctx.em
    y = x
    if (isinstance(x, Const) or any(lo != 0 for lo in lows) or sizes != list(x.shape)
            or any(s != 1 for s in strides)):
        y = em.extract_slice(x, lows, sizes, strides)
    reversed_axes = [a for a, (_, n, st) in enumerate(params) if st < 0 and n > 1]
    if reversed_axes:
        exprs = ["-d%d + %d" % (a, sizes[a] - 1) if a in reversed_axes else "d%d" % a
                 for a in range(len(sizes))]
        init = em.empty(sizes, x.dtype)
        y = em.generic([(y, exprs)], (init, identity_exprs(len(sizes))),
                       ["parallel"] * len(sizes), lambda b, ins, out: ins[0])
    return [y]


def _split(ctx):
    x = ctx.input(0, "input")
    axis = normalize_axis(ctx.attr("axis", 0), len(x.shape))
    dim = x.shape[axis]
    sizes = _static_ints(ctx.const_input(1, "split"), "split") if ctx.input(1) is not None else None
    if sizes is None and ctx.has_attr("split"):
        sizes = [int(s) for s in ctx.attr("split")]
    if sizes is None:
        count = int(ctx.attr("num_outputs", 0)) or len(ctx.node.output)
        chunk = -(-dim // count)
        sizes = [min(chunk, dim - i * chunk) for i in range(count)]
    if sum(sizes) != dim or any(s < 0 for s in sizes):
        raise NodeError("split sizes %s do not add up to dimension %d (%s)"
                        % (sizes, axis, dim_str(dim)))
    outs, start = [], 0
    for s in sizes:
        if isinstance(x, Const):
            outs.append(Const(np.take(x.array, range(start, start + s), axis=axis), x.dtype))
        else:
            shape = list(x.shape)
            shape[axis] = s
            _check_nonempty(shape)
            offsets = [start if i == axis else 0 for i in range(len(shape))]
            outs.append(ctx.em.extract_slice(x, offsets, shape, [1] * len(shape)))
        start += s
    return outs


def _wrapped_indices(idx, dim, axis):
    """Constant indices checked against an axis of size `dim` and wrapped
    (ONNX: negative indices count from the end); run-time ones unchanged."""
    if not isinstance(idx, Const):
        return idx
    if idx.symbolic:
        raise NodeError("indices computed from sizes known only at run time are not supported")
    i = idx.array.astype(np.int64)
    if not is_static(dim):
        if (i < 0).any():
            raise NodeError("negative indices on axis %d, whose size (%s) is known only at run "
                            "time, are not supported" % (axis, dim_str(dim)))
        return Const(i, dtypes.I64)
    bad = (i < -dim) | (i >= dim)
    if bad.any():
        raise NodeError("index %d is out of range for axis %d of size %d"
                        % (int(i[bad].reshape(-1)[0]), axis, dim))
    return Const(np.where(i < 0, i + dim, i), dtypes.I64)


def _wrap_in_body(b, i, dim, dtype):
    """The body's form of the wrap, for indices known only at run time."""
    neg = b.cmp("lt", i, b.const(0, dtype), dtype)
    return b.select(neg, b.add(i, b.const(dim, dtype), dtype), i, dtype)


def _gather(ctx):
    data, idx = ctx.input(0, "data"), ctx.input(1, "indices")
    rank = len(data.shape)
    if rank == 0:
        raise NodeError("data must have rank >= 1")
    axis = normalize_axis(ctx.attr("axis", 0), rank)
    if not idx.dtype.is_int:
        raise NodeError("indices must be integers, not %s" % idx.dtype.mlir)
    dim = data.shape[axis]
    wrap = not isinstance(idx, Const)
    idx = _wrapped_indices(idx, dim, axis)
    if not wrap and isinstance(data, Const):
        return [Const(np.take(data.array, idx.array, axis=axis), data.dtype)]
    out_shape = data.shape[:axis] + idx.shape + data.shape[axis + 1:]
    em = ctx.em
    table = em.value(data)
    ri = len(idx.shape)

    def body(b, ins, out):
        i = ins[0]
        if wrap:
            # This select keeps Tessel from raising the generic to
            # tessel.gather (docs/onnx-import-compiler-issues.md).
            i = _wrap_in_body(b, i, dim, idx.dtype)
        pos = b.index_cast(i, idx.dtype)
        subs = ([b.index(d) for d in range(axis)] + [pos] +
                [b.index(axis + ri + j) for j in range(rank - axis - 1)])
        return b("tensor.extract %s[%s] : %s" % (table.name, ", ".join(subs), table.type))

    init = em.empty(out_shape, data.dtype)
    n = len(out_shape)
    return [em.generic([(em.value(idx), ["d%d" % (axis + j) for j in range(ri)])],
                       (init, identity_exprs(n)), ["parallel"] * n, body)]


def _gather_elements(ctx):
    """out[i...] = data[i... with i[axis] replaced by indices[i...]]."""
    data, idx = ctx.input(0, "data"), ctx.input(1, "indices")
    rank = len(data.shape)
    if len(idx.shape) != rank:
        raise NodeError("indices must have the data's rank %d, not %d" % (rank, len(idx.shape)))
    axis = normalize_axis(ctx.attr("axis", 0), rank)
    if not idx.dtype.is_int:
        raise NodeError("indices must be integers, not %s" % idx.dtype.mlir)
    dim = data.shape[axis]
    wrap = not isinstance(idx, Const)
    idx = _wrapped_indices(idx, dim, axis)
    if not wrap and isinstance(data, Const):
        return [Const(np.take_along_axis(data.array, idx.array, axis=axis), data.dtype)]
    em = ctx.em
    table = em.value(data)
    n = len(idx.shape)

    def body(b, ins, out):
        i = ins[0]
        if wrap:
            i = _wrap_in_body(b, i, dim, idx.dtype)
        subs = [b.index_cast(i, idx.dtype) if d == axis else b.index(d) for d in range(rank)]
        return b("tensor.extract %s[%s] : %s" % (table.name, ", ".join(subs), table.type))

    init = em.empty(idx.shape, data.dtype)
    return [em.generic([(em.value(idx), identity_exprs(n))], (init, identity_exprs(n)),
                       ["parallel"] * n, body)]


def _index_axes(i, batch):
    """For GatherND's (wrapped) constant indices i [..., k]: the leading
    axis of i that each component equals at every position (distinct axes,
    none of the first `batch`), or None."""
    lead = i.shape[:-1]
    grids = np.indices(lead) if lead else np.zeros((0,), np.int64)
    axes = []
    for c in range(i.shape[-1]):
        match = [a for a in range(batch, len(lead))
                 if lead[a] > 1 and a not in axes and np.array_equal(i[..., c], grids[a])]
        if not match:
            return None
        axes.append(match[0])
    return axes


def _gather_nd(ctx):
    """out[b..., i..., r...] = data[b..., indices[b..., i..., :], r...]."""
    data, idx = ctx.input(0, "data"), ctx.input(1, "indices")
    batch = int(ctx.attr("batch_dims", 0))
    if not idx.dtype.is_int:
        raise NodeError("indices must be integers, not %s" % idx.dtype.mlir)
    if not isinstance(idx, Const) and not isinstance(idx.grid, tuple):
        raise NodeError("indices computed at run time are not supported (a constant "
                        "index tensor is, or one built from Range by Unsqueeze, Expand "
                        "and Concat)")
    if len(idx.shape) < 1 or batch < 0 or batch >= min(len(idx.shape), len(data.shape)) + (1 if batch == 0 else 0):
        raise NodeError("batch_dims %d does not fit data rank %d and indices rank %d"
                        % (batch, len(data.shape), len(idx.shape)))
    k = idx.shape[-1]
    if batch + k > len(data.shape):
        raise NodeError("indices address %d dimensions after %d batch dimensions of a rank-%d "
                        "data tensor" % (k, batch, len(data.shape)))
    if not isinstance(idx, Const):
        return [_gather_nd_of_coordinates(ctx, data, idx, batch)]
    i = idx.array.astype(np.int64)
    dims = np.array(data.shape[batch:batch + k], dtype=np.int64)
    bad = (i < -dims) | (i >= dims)
    if bad.any():
        raise NodeError("an index is out of range for the addressed dimensions %s"
                        % list(data.shape[batch:batch + k]))
    i = np.where(i < 0, i + dims, i)
    rest = list(data.shape[batch + k:])
    out_shape = list(idx.shape[:-1]) + rest
    if isinstance(data, Const):
        src = data.array
        flat_b = int(np.prod(data.shape[:batch], dtype=np.int64))
        src_b = src.reshape((flat_b,) + tuple(data.shape[batch:]))
        i_b = i.reshape((flat_b, -1, k))
        out = np.stack([src_b[j][tuple(i_b[j].T)] for j in range(flat_b)])
        return [Const(out.reshape(out_shape), data.dtype)]
    em = ctx.em
    table = em.value(data)
    n = len(out_shape)
    q = len(idx.shape) - 1  # loops over the index tensor's leading dims
    axes = _index_axes(i, batch)
    if axes is not None:
        # Every index component is one of the index tensor's coordinates
        # (torch's mask expansion): a broadcast read, no index table.
        return [_read_at_coordinates(em, data, idx.shape, batch, axes)]
    icon = em.value(Const(i, dtypes.I64))

    def body(b, ins, out):
        subs = [b.index(d) for d in range(batch)]
        for c in range(k):
            at = [b.index(d) for d in range(q)] + [b("arith.constant %d : index" % c)]
            v = b("tensor.extract %s[%s] : %s" % (icon.name, ", ".join(at), icon.type))
            subs.append(b.index_cast(v, dtypes.I64))
        subs += [b.index(q + j) for j in range(len(rest))]
        return b("tensor.extract %s[%s] : %s" % (table.name, ", ".join(subs), table.type))

    init = em.empty(out_shape, data.dtype)
    return [em.generic([], (init, identity_exprs(n)), ["parallel"] * n, body)]


def _gather_nd_of_coordinates(ctx, data, idx, batch):
    """GatherND whose index tuples are coordinates of the index tensor
    (idx.grid), as torch exports a mask broadcast with Range over run-time
    sizes; each addressed dimension is checked to hold its coordinate's
    range."""
    axes = list(idx.grid)
    if len(set(axes)) != len(axes) or any(a < batch for a in axes):
        raise NodeError("index components repeat a coordinate or read a batch dimension")
    for c, a in enumerate(axes):
        ctx.em.check(idx.shape[a], "sle", data.shape[batch + c],
                     "GatherND: index dimension %d (%s) must be at most data dimension %d (%s)"
                     % (a, dim_str(idx.shape[a]), batch + c, dim_str(data.shape[batch + c])))
    return _read_at_coordinates(ctx.em, data, idx.shape, batch, axes)


def _read_at_coordinates(em, data, idx_shape, batch, axes):
    """GatherND where index component c is coordinate axes[c] of the index
    tensor (shape idx_shape): a broadcast read of the data, no index
    table."""
    q = len(idx_shape) - 1  # loops over the index tensor's leading dims
    rest = list(data.shape[batch + len(axes):])
    out_shape = list(idx_shape[:-1]) + rest
    n = len(out_shape)
    exprs = (["d%d" % d for d in range(batch)] + ["d%d" % a for a in axes] +
             ["d%d" % (q + j) for j in range(len(rest))])
    init = em.empty(out_shape, data.dtype)
    return em.generic([(em.value(data), exprs)], (init, identity_exprs(n)), ["parallel"] * n,
                      lambda b, ins, out: ins[0])


def _expand(ctx):
    x = ctx.input(0, "input")
    target = _ints(ctx.const_input(1, "shape"), "shape")
    if target is None:
        raise NodeError("missing input 1 (shape)")
    shape = broadcast_shape(x.shape, target)
    if isinstance(x, Const) and all(is_static(d) for d in shape):
        return [Const(np.broadcast_to(x.array, shape), x.dtype)]
    y = ctx.em.broadcast_to(x, shape)
    if isinstance(x, Value) and isinstance(x.grid, int) and y is not x:
        y.grid = x.grid + len(shape) - len(x.shape)
    return [y]


def _shape(ctx):
    x = ctx.input(0, "data")
    rank = len(x.shape)
    start, end = int(ctx.attr("start", 0)), ctx.attr("end")
    start = min(max(start + rank if start < 0 else start, 0), rank)
    end = rank if end is None else int(end)
    end = min(max(end + rank if end < 0 else end, 0), rank)
    return [Const(int_array(x.shape[start:end]), dtypes.I64)]


def _size(ctx):
    x = ctx.input(0, "data")
    return [Const(int_array([numel(x.shape)], shape=()), dtypes.I64)]


def _constant(ctx):
    for name in ("value", "value_float", "value_floats", "value_int", "value_ints"):
        if ctx.has_attr(name):
            v = ctx.attr(name)
            if name == "value":
                return [v]
            dt = dtypes.F32 if "float" in name else dtypes.I64
            return [Const(np.array(v), dt)]
    present = ", ".join(a.name for a in ctx.node.attribute) or "none"
    raise NodeError("only tensor, float(s) and int(s) values are supported (attribute: %s)" % present)


def _constant_of_shape(ctx):
    shape = _ints(ctx.const_input(0, "shape"), "shape")
    value = ctx.attr("value")
    if value is None:
        value = Const(np.zeros(1, np.float32), dtypes.F32)
    if value.array.size != 1:
        raise NodeError("value must have one element")
    if not all(is_static(d) for d in shape):
        return [ctx.em.filled(value.array.reshape(-1)[0], shape, value.dtype)]
    return [Const(np.full(shape, value.array.reshape(-1)[0]), value.dtype)]


def _range(ctx):
    xs = [ctx.input(i, what) for i, what in enumerate(("start", "limit", "delta"))]
    if not all_const(xs):
        raise NodeError("start, limit and delta must be constants (the result's size must be "
                        "known at import time, or be a size known at run time)")
    start, limit, delta = (x.array.reshape(()) for x in xs)
    if any(x.symbolic for x in xs):
        return [_symbolic_range(ctx, start[()], limit[()], delta[()], xs[0].dtype)]
    if delta == 0:
        raise NodeError("delta is 0")
    return [Const(np.arange(start, limit, delta), xs[0].dtype)]


def _symbolic_range(ctx, start, limit, delta, dtype):
    """start, start + 1, ..., limit - 1 for a limit known only at run time
    (torch.arange(seq)): a generic over linalg.index."""
    if not (is_static(start) and is_static(delta) and int(delta) == 1 and dtype.is_int):
        raise NodeError("a Range whose bounds are known only at run time needs an integer "
                        "constant start and delta 1 (start %s, limit %s, delta %s)"
                        % (dim_str(start), dim_str(limit), dim_str(delta)))
    n = limit - int(start)
    ctx.em.check(0, "sle", n, "Range: limit %s must be at least start %d" % (dim_str(limit), start))
    init = ctx.em.empty((n,), dtype)

    def body(b, ins, out):
        i = b("arith.index_cast %s : index to %s" % (b.index(0), dtype.mlir))
        return b.add(i, b.const(int(start), dtype), dtype)

    y = ctx.em.generic([], (init, identity_exprs(1)), ["parallel"], body)
    if int(start) == 0:
        y.grid = 0
    return y


def _identity(ctx):
    return [ctx.input(0, "input")]


OPS = {
    ("", "Reshape"): _reshape,
    ("", "Flatten"): _flatten,
    ("", "Unsqueeze"): _unsqueeze,
    ("", "Squeeze"): _squeeze,
    ("", "Transpose"): _transpose,
    ("", "Concat"): _concat,
    ("", "Slice"): _slice,
    ("", "Split"): _split,
    ("", "Gather"): _gather,
    ("", "GatherElements"): _gather_elements,
    ("", "GatherND"): _gather_nd,
    ("", "Expand"): _expand,
    ("", "Shape"): _shape,
    ("", "Size"): _size,
    ("", "Constant"): _constant,
    ("", "ConstantOfShape"): _constant_of_shape,
    ("", "Range"): _range,
    ("", "Identity"): _identity,
}
