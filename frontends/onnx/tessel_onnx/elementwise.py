"""Elementwise ops: one parallel linalg.generic each, reading every operand
with ONNX's numpy broadcasting (unit dimensions that broadcast are
collapsed away and left out of the operand's indexing map; splat constants
become scalars in the body). Tessel fuses chains of these itself.

Constant inputs fold with numpy, in float64 for floats (rounded to the
result type afterwards).
"""

import math

import numpy as np

from . import dtypes
from .common import NodeError, all_const, broadcast_shape, same_dtype
from .ir import Const


def _fold_float(fn, x):
    """fn on x in float64 for floats, natively otherwise."""
    a = x.array.astype(np.float64) if x.dtype.is_float else x.array
    with np.errstate(all="ignore"):
        return fn(a)


# -- binary ops ------------------------------------------------------------

def _int_div(a, b):
    """C-style integer division (truncates toward zero), like ONNX runtimes."""
    b = np.where(b == 0, 1, b)
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -q, q)


# name -> (Body.binary kind, numpy fold, element kinds allowed)
_BINARY = {
    "Add": ("add", np.add, "float int"),
    "Sub": ("sub", np.subtract, "float int"),
    "Mul": ("mul", np.multiply, "float int"),
    "Div": ("div", None, "float int"),
    "And": ("and", np.logical_and, "bool"),
    "Or": ("or", np.logical_or, "bool"),
    "Xor": ("xor", np.logical_xor, "bool"),
}


def _binary(op_type):
    kind, fold, allowed = _BINARY[op_type]

    def handler(ctx):
        a, b = ctx.input(0, "A"), ctx.input(1, "B")
        dt = same_dtype([a, b])
        if dt.kind not in allowed.split():
            raise NodeError("element type %s is not supported (expected %s)" % (dt.mlir, allowed))
        shape = broadcast_shape(a.shape, b.shape)
        if all_const([a, b]):
            if op_type == "Div":
                out = _int_div(a.array, b.array) if dt.is_int else _fold_float(
                    lambda x: x / b.array.astype(np.float64), a)
            else:
                out = _fold_float(lambda x: fold(x, b.array.astype(x.dtype)), a)
            return [Const(out, dt)]
        return [ctx.em.elementwise([a, b], shape, dt,
                                   lambda body, n: body.binary(kind, n[0], n[1], dt))]

    return handler


def _variadic(kind, fold):
    """Max, Min, Sum, Mean: every input broadcast to one shape."""

    def handler(ctx):
        xs = [x for x in ctx.inputs() if x is not None]
        if not xs:
            raise NodeError("needs at least one input")
        dt = same_dtype(xs)
        if dt.is_bool:
            raise NodeError("element type i1 is not supported")
        shape = broadcast_shape(*[x.shape for x in xs])
        if all_const(xs):
            arrays = [x.array.astype(np.float64) if dt.is_float else x.array for x in xs]
            out = arrays[0]
            for a in arrays[1:]:
                out = fold(out, a)
            if kind == "mean":
                out = out / len(xs)
            return [Const(np.broadcast_to(out, shape), dt)]

        def body(b, n):
            acc = n[0]
            for y in n[1:]:
                acc = b.binary("add" if kind == "mean" else kind, acc, y, dt)
            if kind == "mean":
                acc = b.div(acc, b.const(len(xs), dt), dt)
            return acc

        return [ctx.em.elementwise(xs, shape, dt, body)]

    return handler


_COMPARE = {
    "Equal": ("eq", np.equal),
    "Less": ("lt", np.less),
    "Greater": ("gt", np.greater),
    "LessOrEqual": ("le", np.less_equal),
    "GreaterOrEqual": ("ge", np.greater_equal),
}


def _compare(op_type):
    pred, fold = _COMPARE[op_type]

    def handler(ctx):
        a, b = ctx.input(0, "A"), ctx.input(1, "B")
        dt = same_dtype([a, b])
        if dt.is_bool and pred != "eq":
            raise NodeError("element type i1 is not supported")
        shape = broadcast_shape(a.shape, b.shape)
        if all_const([a, b]):
            return [Const(fold(a.array, b.array), dtypes.I1)]
        return [ctx.em.elementwise([a, b], shape, dtypes.I1,
                                   lambda body, n: body.cmp(pred, n[0], n[1], dt))]

    return handler


def _pow(ctx):
    x, y = ctx.input(0, "X"), ctx.input(1, "Y")
    dt = x.dtype
    if not dt.is_float:
        raise NodeError("base of element type %s is not supported (floats only)" % dt.mlir)
    if y.dtype.is_bool:
        raise NodeError("exponent of element type i1 is not supported")
    shape = broadcast_shape(x.shape, y.shape)
    if all_const([x, y]):
        return [Const(_fold_float(lambda a: np.power(a, y.array.astype(np.float64)), x), dt)]
    exponent = y.splat() if isinstance(y, Const) else None
    # x^2 and x^0.5 (variances and norms in exported graphs) as mulf and
    # sqrt: exact and cheaper than powf.
    if exponent is not None and float(exponent) in (1.0, 2.0, 0.5) and shape == x.shape:
        e = float(exponent)
        if e == 1.0:
            return [x]
        if e == 2.0:
            return [ctx.em.elementwise([x], shape, dt, lambda b, n: b.mul(n[0], n[0], dt))]
        return [ctx.em.elementwise([x], shape, dt, lambda b, n: b.math("sqrt", n[0], dt))]
    return [ctx.em.elementwise([x, y], shape, dt,
                               lambda b, n: b.binary("powf", n[0], b.cast(n[1], y.dtype, dt), dt))]


# -- unary ops -------------------------------------------------------------

def _erf(a):
    return np.vectorize(math.erf, otypes=[np.float64])(a) if a.size else a


# name -> (body(b, x, dt), numpy fold, element kinds allowed)
_UNARY = {
    "Relu": (lambda b, x, dt: b.binary("max", x, b.const(0, dt), dt), lambda a: np.maximum(a, 0),
             "float int"),
    "Neg": (lambda b, x, dt: b.neg(x, dt), np.negative, "float int"),
    "Abs": (lambda b, x, dt: b.math("absf", x, dt) if dt.is_float else b.math("absi", x, dt),
            np.abs, "float int"),
    "Tanh": (lambda b, x, dt: b.math("tanh", x, dt), np.tanh, "float"),
    "Erf": (lambda b, x, dt: b.math("erf", x, dt), _erf, "float"),
    "Sqrt": (lambda b, x, dt: b.math("sqrt", x, dt), np.sqrt, "float"),
    "Exp": (lambda b, x, dt: b.math("exp", x, dt), np.exp, "float"),
    "Log": (lambda b, x, dt: b.math("log", x, dt), np.log, "float"),
    "Sin": (lambda b, x, dt: b.math("sin", x, dt), np.sin, "float"),
    "Cos": (lambda b, x, dt: b.math("cos", x, dt), np.cos, "float"),
    "Floor": (lambda b, x, dt: b.math("floor", x, dt), np.floor, "float"),
    "Ceil": (lambda b, x, dt: b.math("ceil", x, dt), np.ceil, "float"),
    "Reciprocal": (lambda b, x, dt: b.div(b.const(1.0, dt), x, dt), lambda a: 1.0 / a, "float"),
    "Sigmoid": (lambda b, x, dt: b.div(b.const(1.0, dt),
                                       b.add(b.const(1.0, dt), b.math("exp", b.neg(x, dt), dt), dt), dt),
                lambda a: 1.0 / (1.0 + np.exp(-a)), "float"),
    "Not": (lambda b, x, dt: b.binary("xor", x, b.const(True, dt), dt), np.logical_not, "bool"),
}


def _unary(op_type):
    body_fn, fold, allowed = _UNARY[op_type]

    def handler(ctx):
        x = ctx.input(0, "X")
        dt = x.dtype
        if dt.kind not in allowed.split():
            raise NodeError("element type %s is not supported (expected %s)" % (dt.mlir, allowed))
        if isinstance(x, Const):
            return [Const(_fold_float(fold, x), dt)]
        return [ctx.em.elementwise([x], x.shape, dt, lambda b, n: body_fn(b, n[0], dt))]

    return handler


def _isnan(ctx):
    x = ctx.input(0, "X")
    if not x.dtype.is_float:
        raise NodeError("element type %s is not supported (expected a float)" % x.dtype.mlir)
    if isinstance(x, Const):
        return [Const(np.isnan(x.array), dtypes.I1)]
    return [ctx.em.elementwise([x], x.shape, dtypes.I1,
                               lambda b, n: b("arith.cmpf uno, %s, %s : %s"
                                              % (n[0], n[0], x.dtype.mlir)))]


def _gelu_body(approximate):
    def body(b, n, dt):
        x = n[0]
        half = b.mul(x, b.const(0.5, dt), dt)
        if approximate == "tanh":
            # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
            x3 = b.mul(b.mul(x, x, dt), x, dt)
            inner = b.add(x, b.mul(x3, b.const(0.044715, dt), dt), dt)
            t = b.math("tanh", b.mul(inner, b.const(math.sqrt(2.0 / math.pi), dt), dt), dt)
        else:
            # 0.5 x (1 + erf(x / sqrt(2)))
            t = b.math("erf", b.mul(x, b.const(1.0 / math.sqrt(2.0), dt), dt), dt)
        return b.mul(half, b.add(t, b.const(1.0, dt), dt), dt)

    return body


def _gelu_fold(a, approximate):
    if approximate == "tanh":
        return 0.5 * a * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (a + 0.044715 * a ** 3)))
    return 0.5 * a * (1.0 + _erf(a / math.sqrt(2.0)))


def _gelu(ctx):
    """Gelu of opset 20 (`approximate` = none | tanh) and com.microsoft's
    Gelu (the erf form)."""
    x = ctx.input(0, "X")
    approximate = ctx.attr("approximate", "none")
    if approximate not in ("none", "tanh"):
        raise NodeError("approximate='%s' is not supported (none or tanh)" % approximate)
    if not x.dtype.is_float:
        raise NodeError("element type %s is not supported (floats only)" % x.dtype.mlir)
    if isinstance(x, Const):
        return [Const(_fold_float(lambda a: _gelu_fold(a, approximate), x), x.dtype)]
    body = _gelu_body(approximate)
    return [ctx.em.elementwise([x], x.shape, x.dtype, lambda b, n: body(b, n, x.dtype))]


def _where(ctx):
    c, x, y = ctx.input(0, "condition"), ctx.input(1, "X"), ctx.input(2, "Y")
    if not c.dtype.is_bool:
        raise NodeError("condition must be bool, not %s" % c.dtype.mlir)
    dt = same_dtype([x, y])
    shape = broadcast_shape(c.shape, x.shape, y.shape)
    if all_const([c, x, y]):
        return [Const(np.where(c.array, x.array, y.array), dt)]
    return [ctx.em.elementwise([c, x, y], shape, dt, lambda b, n: b.select(n[0], n[1], n[2], dt))]


def _cast(ctx):
    x = ctx.input(0, "input")
    to = ctx.attr("to")
    dt = dtypes.from_onnx(to) if to is not None else None
    if dt is None:
        raise NodeError("cast to %s is not supported (supported: %s)"
                        % (dtypes.onnx_type_name(to) if to is not None else "nothing (no 'to')",
                           dtypes.supported_names()))
    if isinstance(x, Const):
        a = x.array
        if dt.is_bool:
            out = a != 0
        elif dt.is_int and x.dtype.is_float:
            out = np.trunc(a.astype(np.float64))
        else:
            out = a
        return [Const(out, dt)]
    if x.dtype is dt:
        return [x]
    return [ctx.em.elementwise([x], x.shape, dt, lambda b, n: b.cast(n[0], x.dtype, dt))]


def _clip(ctx):
    """Clip with min/max as inputs (opset 11+) or attributes (before)."""
    x = ctx.input(0, "input")
    dt = x.dtype
    if dt.is_bool:
        raise NodeError("element type i1 is not supported")
    bounds = []
    for i, (name, kind) in enumerate((("min", "max"), ("max", "min")), start=1):
        v = ctx.input(i)
        if v is None and ctx.has_attr(name):
            v = Const(np.array(ctx.attr(name)), dt)
        if v is not None:
            if v.shape != ():
                raise NodeError("%s must be a scalar, not shape %s" % (name, list(v.shape)))
            if v.dtype is not dt:
                raise NodeError("%s has element type %s, input %s" % (name, v.dtype.mlir, dt.mlir))
            bounds.append((kind, v))
    if all_const([x] + [v for _, v in bounds]):
        a = x.array
        for kind, v in bounds:
            a = np.maximum(a, v.array) if kind == "max" else np.minimum(a, v.array)
        return [Const(a, dt)]

    def body(b, n):
        y = n[0]
        for (kind, _), bound in zip(bounds, n[1:]):
            y = b.binary(kind, y, bound, dt)
        return y

    return [ctx.em.elementwise([x] + [v for _, v in bounds], x.shape, dt, body)]


OPS = {}
for _op in _BINARY:
    OPS[("", _op)] = _binary(_op)
for _op in _COMPARE:
    OPS[("", _op)] = _compare(_op)
for _op in _UNARY:
    OPS[("", _op)] = _unary(_op)
OPS[("", "Max")] = _variadic("max", np.maximum)
OPS[("", "Min")] = _variadic("min", np.minimum)
OPS[("", "Sum")] = _variadic("add", np.add)
OPS[("", "Mean")] = _variadic("mean", np.add)
OPS[("", "Pow")] = _pow
OPS[("", "Gelu")] = _gelu
OPS[("com.microsoft", "Gelu")] = _gelu
OPS[("", "Where")] = _where
OPS[("", "IsNaN")] = _isnan
OPS[("", "Cast")] = _cast
OPS[("", "Clip")] = _clip
