"""MatMul and Gemm as linalg.matmul / linalg.batch_matmul.

The forms are chosen for what Tessel optimizes: a 2-D right operand with a
batched left one (x[B,S,K] @ W[K,N], every linear layer of a transformer)
is one linalg.matmul on x collapsed to [B*S, K], expanded back afterwards,
so that Tessel's packed GEMMs and epilogue fusion see one large matmul.
Operands transposed by Gemm are transposed at import time when they are
constants, else read through linalg.matmul's indexing_maps. f16 and bf16
products accumulate in f32 and are rounded once at the end.
"""

import numpy as np

from . import dtypes
from .common import NodeError, all_const, broadcast_shape, same_dtype
from .ir import Const
from .symbolic import numel


def _check_dtype(dt):
    if dt.is_bool or dt is dtypes.I8:
        raise NodeError("element type %s is not supported (floats, i32 and i64)" % dt.mlir)


def _matmul2d(em, a, b, acc_dt, trans_a=False, trans_b=False):
    """acc[M,N] = op(a) @ op(b) in acc_dt, op = transpose where asked."""
    m = a.shape[1] if trans_a else a.shape[0]
    n = b.shape[0] if trans_b else b.shape[1]
    a, b = em.value(a), em.value(b)
    init = em.filled(0, (m, n), acc_dt)
    maps = ""
    if trans_a or trans_b:
        mk = "affine_map<(d0, d1, d2) -> (d2, d0)>" if trans_a else "affine_map<(d0, d1, d2) -> (d0, d2)>"
        kn = "affine_map<(d0, d1, d2) -> (d1, d2)>" if trans_b else "affine_map<(d0, d1, d2) -> (d2, d1)>"
        maps = " indexing_maps = [%s, %s, affine_map<(d0, d1, d2) -> (d0, d1)>]" % (mk, kn)
    return em.op("linalg.matmul%s ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                 % (maps, a.name, b.name, a.type, b.type, init.name, init.type, init.type),
                 (m, n), acc_dt)


def _batch_matmul(em, a, b, acc_dt):
    bt, m, _ = a.shape
    n = b.shape[2]
    a, b = em.value(a), em.value(b)
    init = em.filled(0, (bt, m, n), acc_dt)
    return em.op("linalg.batch_matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                 % (a.name, b.name, a.type, b.type, init.name, init.type, init.type),
                 (bt, m, n), acc_dt)


def _round(em, acc, dt):
    if acc.dtype is dt:
        return acc
    return em.elementwise([acc], acc.shape, dt, lambda b, n: b.cast(n[0], acc.dtype, dt))


def _matmul(ctx):
    a, b = ctx.input(0, "A"), ctx.input(1, "B")
    dt = same_dtype([a, b])
    _check_dtype(dt)
    if a.shape == () or b.shape == ():
        raise NodeError("operands must have rank >= 1 (shapes %s, %s)" % (list(a.shape), list(b.shape)))
    k_a = a.shape[-1]
    k_b = b.shape[0] if len(b.shape) == 1 else b.shape[-2]
    if k_a != k_b:
        raise NodeError("contraction sizes differ: A %s, B %s" % (list(a.shape), list(b.shape)))
    if all_const([a, b]):
        wide = np.float64 if dt.is_float else a.array.dtype
        return [Const(np.matmul(a.array.astype(wide), b.array.astype(wide)), dt)]
    em = ctx.em
    # numpy's rules: a 1-D A is a row [1, K], a 1-D B a column [K, 1];
    # the added dimension is dropped from the result.
    out_shape = (tuple(broadcast_shape(a.shape[:-2], b.shape[:-2]))
                 + (a.shape[-2:-1] if len(a.shape) > 1 else ())
                 + (b.shape[-1:] if len(b.shape) > 1 else ()))
    if len(a.shape) == 1:
        a = em.reshape(a, (1,) + a.shape)
    if len(b.shape) == 1:
        b = em.reshape(b, b.shape + (1,))
    batch_a, batch_b = a.shape[:-2], b.shape[:-2]
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
    acc_dt = dtypes.compute_type(dt)
    if numel(batch_b) == 1:
        # B is one matrix: rows of every batch of A go into M.
        rows = numel(batch_a) * m
        acc = _matmul2d(em, em.reshape(a, (rows, k)), em.reshape(b, (k, n)), acc_dt)
    else:
        batch = broadcast_shape(batch_a, batch_b)
        bt = numel(batch)
        a = em.broadcast_to(a, batch + (m, k))
        b = em.broadcast_to(b, batch + (k, n))
        acc = _batch_matmul(em, em.reshape(a, (bt, m, k)), em.reshape(b, (bt, k, n)), acc_dt)
    return [em.reshape(_round(em, acc, dt), out_shape)]


def _gemm(ctx):
    """Y = alpha * op(A) @ op(B) + beta * C."""
    a, b, c = ctx.input(0, "A"), ctx.input(1, "B"), ctx.input(2)
    dt = same_dtype([a, b, c])
    _check_dtype(dt)
    alpha, beta = float(ctx.attr("alpha", 1.0)), float(ctx.attr("beta", 1.0))
    trans_a, trans_b = bool(ctx.attr("transA", 0)), bool(ctx.attr("transB", 0))
    if len(a.shape) != 2 or len(b.shape) != 2:
        raise NodeError("A and B must be 2-D (shapes %s, %s)" % (list(a.shape), list(b.shape)))
    m, k = (a.shape[1], a.shape[0]) if trans_a else a.shape
    k_b, n = (b.shape[1], b.shape[0]) if trans_b else b.shape
    if k != k_b:
        raise NodeError("contraction sizes differ: A %s%s, B %s%s"
                        % (list(a.shape), " transposed" if trans_a else "",
                           list(b.shape), " transposed" if trans_b else ""))
    if c is not None:
        if len(c.shape) > 2 or broadcast_shape(c.shape, (m, n)) != (m, n):
            raise NodeError("C of shape %s does not broadcast to [%d, %d]" % (list(c.shape), m, n))
    if all_const([a, b, c]):
        wide = np.float64 if dt.is_float else a.array.dtype
        aa, bb = a.array.astype(wide), b.array.astype(wide)
        y = alpha * np.matmul(aa.T if trans_a else aa, bb.T if trans_b else bb)
        if c is not None:
            y = y + beta * c.array.astype(wide)
        return [Const(y, dt)]
    em = ctx.em
    # A transposed constant becomes a plain operand: the matmul form
    # Tessel's fastest GEMMs take.
    if trans_a and isinstance(a, Const):
        a, trans_a = a.derive(a.array.T, "transpose"), False
    if trans_b and isinstance(b, Const):
        b, trans_b = b.derive(b.array.T, "transpose"), False
    acc_dt = dtypes.compute_type(dt)
    acc = _matmul2d(em, a, b, acc_dt, trans_a, trans_b)
    terms = []
    if c is not None and beta != 0.0:
        if isinstance(c, Const) and beta != 1.0:
            c, beta = c.derive(c.array.astype(np.float64) * beta, "scaled"), 1.0
        terms.append(c)
    if alpha == 1.0 and not terms:
        return [_round(em, acc, dt)]

    def body(bd, names):
        y = names[0]
        if alpha != 1.0:
            y = bd.mul(y, bd.const(alpha, acc_dt), acc_dt)
        if terms:
            t = bd.cast(names[1], dt, acc_dt)
            if beta != 1.0:
                t = bd.mul(t, bd.const(beta, acc_dt), acc_dt)
            y = bd.add(y, t, acc_dt)
        return bd.cast(y, acc_dt, dt)

    return [em.elementwise([acc] + terms, (m, n), dt, body)]


OPS = {
    ("", "MatMul"): _matmul,
    ("", "Gemm"): _gemm,
}
