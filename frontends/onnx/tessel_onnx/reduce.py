"""Reductions: ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd.

One linalg.generic whose loops are the input's dimensions, the reduced ones
"reduction", into a filled accumulator of the kept dimensions; a mean
divides in a second (elementwise) generic. Reducing the last axis this way
is the row reduction Tessel fuses into softmax/layernorm-like row chains
(compiler/lib/Dispatch/RowGroups.h). f16/bf16 accumulate in f32. keepdims
is an expand_shape of the result.
"""

import numpy as np

from . import dtypes
from .common import NodeError, normalize_axes
from .ir import Const, identity_exprs
from .symbolic import is_static, numel

# kind -> (Body.binary kind, numpy fold)
_KINDS = {
    "sum": ("add", np.sum),
    "mean": ("add", np.mean),
    "max": ("max", np.max),
    "min": ("min", np.min),
    "prod": ("mul", np.prod),
}


def _identity(kind, dt):
    if kind in ("sum", "mean"):
        return 0
    if kind == "prod":
        return 1
    if dt.is_float:
        return -np.inf if kind == "max" else np.inf
    info = np.iinfo(dt.np)
    return info.min if kind == "max" else info.max


def reduce_tensor(em, x, axes, kind):
    """x reduced over `axes` (kept dimensions in order), in x's element
    type (f16/bf16 accumulated in f32)."""
    dt = x.dtype
    acc_dt = dtypes.compute_type(dt)
    rank = len(x.shape)
    kept = [d for d in range(rank) if d not in axes]
    out_shape = tuple(x.shape[d] for d in kept)
    init = em.filled(_identity(kind, acc_dt), out_shape, acc_dt)
    combine = _KINDS[kind][0]

    def body(b, ins, out):
        return b.binary(combine, b.cast(ins[0], dt, acc_dt), out, acc_dt)

    acc = em.generic([(em.value(x), identity_exprs(rank))],
                     (init, ["d%d" % d for d in kept]),
                     ["reduction" if d in axes else "parallel" for d in range(rank)], body)
    if kind != "mean" and acc_dt is dt:
        return acc
    count = numel([x.shape[d] for d in axes])
    if kind == "mean" and not is_static(count):
        count = em.index_as_float(count, acc_dt)

    def finish(b, n):
        y = n[0]
        if kind == "mean":
            y = b.div(y, b.const(count, acc_dt) if is_static(count) else count, acc_dt)
        return b.cast(y, acc_dt, dt)

    return em.elementwise([acc], out_shape, dt, finish)


def _reduce(kind):
    def handler(ctx):
        x = ctx.input(0, "data")
        rank = len(x.shape)
        if x.dtype.is_bool or (kind == "mean" and not x.dtype.is_float):
            raise NodeError("element type %s is not supported" % x.dtype.mlir)
        if ctx.input(1) is not None:
            axes = ctx.const_input(1, "axes")
            axes = [int(a) for a in np.asarray(axes).reshape(-1)]
        else:
            axes = ctx.attr("axes")
        keepdims = bool(ctx.attr("keepdims", 1))
        if not axes:
            if int(ctx.attr("noop_with_empty_axes", 0)):
                return [x]
            axes = list(range(rank))
        axes = sorted(normalize_axes(axes, rank))
        keep_shape = tuple(1 if d in axes else n for d, n in enumerate(x.shape))
        if isinstance(x, Const):
            a = x.array.astype(np.float64) if x.dtype.is_float else x.array
            out = _KINDS[kind][1](a, axis=tuple(axes), keepdims=True)
            return [Const(out if keepdims else out.reshape(
                [n for d, n in enumerate(x.shape) if d not in axes]), x.dtype)]
        y = reduce_tensor(ctx.em, x, axes, kind)
        return [ctx.em.reshape(y, keep_shape) if keepdims else y]

    return handler


OPS = {("", "Reduce" + k.capitalize()): _reduce(k) for k in _KINDS}
