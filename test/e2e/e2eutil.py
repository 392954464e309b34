"""Shared helpers for the Tessel end-to-end suite.

Only depends on numpy, so that `run_e2e.py --check` can use it on a machine
that has neither the compiler nor anything else installed.

Contents:
  * bf16 <-> float conversion on raw uint16 bit patterns (round-to-nearest-even)
  * MLIR element type <-> numpy dtype mapping
  * a small parser for `func.func` signatures in a case's .mlir text
  * the comparison used by the runner
"""

import re

import numpy as np

def contiguous(x, dtype=None):
    """Like np.ascontiguousarray but keeps rank-0 arrays rank 0."""
    x = np.asarray(x, dtype=dtype)
    return x if x.flags.c_contiguous else x.copy(order="C")


# ----------------------------------------------------------------------------
# bfloat16 helpers. numpy has no bf16; the suite represents bf16 tensors as
# numpy uint16 arrays holding the raw bits (that is also what tessel-run reads
# and writes for bf16 arguments/results: '<u2' .npy files).
# ----------------------------------------------------------------------------


def f32_to_bf16(x):
    """float32 array -> uint16 array of bf16 bits, round-to-nearest-even.

    NaNs stay NaNs (quiet, sign preserved); overflow rounds to +-inf.
    """
    x = contiguous(x, np.float32)
    u = x.view(np.uint32)
    sixteen = np.uint32(16)
    with np.errstate(over="ignore"):
        # Overflow of u + bias only happens for NaN bit patterns, fixed below.
        bias = ((u >> sixteen) & np.uint32(1)) + np.uint32(0x7FFF)
        r = ((u + bias) >> sixteen).astype(np.uint16)
    nan = np.isnan(x)
    if np.any(nan):
        r = np.where(nan, ((u >> sixteen) | np.uint32(0x40)).astype(np.uint16), r)
    return np.asarray(r, dtype=np.uint16)


def _f64_to_f32_round_to_odd(x):
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        f = x.astype(np.float32)
        # Step back towards zero where RNE rounded away from zero: that gives
        # the truncated value.
        away = np.isfinite(f) & (np.abs(f.astype(np.float64)) > np.abs(x))
        f = np.where(away, np.nextafter(f, np.float32(0)), f).astype(np.float32)
        inexact = np.isfinite(x) & (f.astype(np.float64) != x)
    bits = contiguous(f).view(np.uint32)
    bits = np.where(inexact, bits | np.uint32(1), bits).astype(np.uint32)
    return bits.view(np.float32)


def to_bf16(x):
    """float64/float32 array -> bf16 bits (uint16), correctly rounded (RNE).

    float64 input goes through float32 with round-to-odd first, which makes
    the final RNE rounding to bf16 exact (no double-rounding error).
    """
    x = np.asarray(x)
    if x.dtype == np.float64:
        x = _f64_to_f32_round_to_odd(x)
    return f32_to_bf16(x)


def bf16_to_f32(b):
    """uint16 array of bf16 bits -> float32 array (exact)."""
    b = contiguous(b, np.uint16)
    return (b.astype(np.uint32) << np.uint32(16)).view(np.float32)


def bf16_to_f64(b):
    return bf16_to_f32(b).astype(np.float64)


# ----------------------------------------------------------------------------
# Types.
# ----------------------------------------------------------------------------

MLIR_TO_NUMPY = {
    "f64": np.dtype("<f8"),
    "f32": np.dtype("<f4"),
    "f16": np.dtype("<f2"),
    "bf16": np.dtype("<u2"),  # raw bits
    "i64": np.dtype("<i8"),
    "i32": np.dtype("<i4"),
    "i16": np.dtype("<i2"),
    "i8": np.dtype("|i1"),
    "i1": np.dtype("|b1"),
}

FLOAT_TYPES = ("f64", "f32", "f16", "bf16")


def kind_of_elem(elem):
    """Comparison kind for an MLIR element type: 'float', 'bf16', 'int', 'bool'."""
    if elem == "bf16":
        return "bf16"
    if elem in FLOAT_TYPES:
        return "float"
    if elem == "i1":
        return "bool"
    return "int"


def kind_of_dtype(dt):
    """Fallback when no MLIR type is known: uint16 is taken to be bf16."""
    dt = np.dtype(dt)
    if dt == np.uint16:
        return "bf16"
    if dt.kind == "f":
        return "float"
    if dt.kind == "b":
        return "bool"
    return "int"


class TensorType:
    """A tensor type of a signature; None in `shape` is a dynamic ('?')
    dimension."""

    def __init__(self, shape, elem):
        self.shape = tuple(shape)
        self.elem = elem

    def matches(self, shape):
        return len(shape) == len(self.shape) and all(
            want is None or want == got for want, got in zip(self.shape, shape))

    @property
    def dtype(self):
        return MLIR_TO_NUMPY[self.elem]

    @property
    def kind(self):
        return kind_of_elem(self.elem)

    def __repr__(self):
        dims = "".join("?x" if d is None else "%dx" % d for d in self.shape)
        return "tensor<%s%s>" % (dims, self.elem)


_TENSOR_RE = re.compile(r"tensor<([^<>]*)>")


def parse_tensor_type(body):
    """'7x9xf32' -> TensorType((7, 9), 'f32'); '?x9xf32' -> ((None, 9));
    'f32' -> rank 0."""
    parts = body.strip().split("x")
    elem = parts[-1].strip()
    dims = []
    for p in parts[:-1]:
        p = p.strip()
        if p == "?":
            dims.append(None)
            continue
        if not p.isdigit():
            raise ValueError("non-static or unsupported dim %r in tensor<%s>" % (p, body))
        dims.append(int(p))
    if elem not in MLIR_TO_NUMPY:
        raise ValueError("unsupported element type %r in tensor<%s>" % (elem, body))
    return TensorType(dims, elem)


def _match_paren(text, i):
    """text[i] == '('; return the index of the matching ')'."""
    depth = 0
    for j in range(i, len(text)):
        c = text[j]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j
    raise ValueError("unbalanced parentheses in function signature")


_FUNC_RE = re.compile(r"func\.func\s+(?:(public|private|nested)\s+)?@([A-Za-z_][\w$.]*)\s*\(")


def parse_signatures(mlir_text):
    """Returns {name: (visibility, [arg TensorType], [result TensorType])}.

    Only understands the plain forms used in this suite:
      func.func @f(%a: tensor<..>, ...) -> tensor<..> {
      func.func @f(%a: tensor<..>) -> (tensor<..>, tensor<..>) {
    """
    sigs = {}
    for m in _FUNC_RE.finditer(mlir_text):
        vis = m.group(1) or "public"
        name = m.group(2)
        lp = m.end() - 1
        rp = _match_paren(mlir_text, lp)
        args_text = mlir_text[lp + 1:rp]
        rest = mlir_text[rp + 1:]
        brace = rest.find("{")
        header = rest[:brace] if brace >= 0 else rest
        # Drop a trailing `attributes {...}` clause (brace already cut it).
        header = header.split("attributes")[0]
        results_text = ""
        if "->" in header:
            results_text = header.split("->", 1)[1]
        args = [parse_tensor_type(t) for t in _TENSOR_RE.findall(args_text)]
        results = [parse_tensor_type(t) for t in _TENSOR_RE.findall(results_text)]
        sigs[name] = (vis, args, results)
    return sigs


# ----------------------------------------------------------------------------
# Comparison.
# ----------------------------------------------------------------------------


def _fmt_index(idx):
    return "[" + ",".join(str(int(i)) for i in idx) + "]"


def compare(got, exp, kind, tol):
    """Returns None if `got` matches `exp`, else a one-line reason.

    float/bf16: |got-exp| <= tol*(1+|exp|), NaN == NaN, inf must match
    exactly. int/bool: exact. dtype and shape must match in all cases.
    """
    got = np.asarray(got)
    exp = np.asarray(exp)
    if got.dtype != exp.dtype:
        return "dtype mismatch: got %s, expected %s" % (got.dtype.str, exp.dtype.str)
    if got.shape != exp.shape:
        return "shape mismatch: got %s, expected %s" % (got.shape, exp.shape)
    if got.size == 0:
        return None
    if kind in ("float", "bf16"):
        if kind == "bf16":
            g = bf16_to_f64(got)
            e = bf16_to_f64(exp)
        else:
            g = got.astype(np.float64)
            e = exp.astype(np.float64)
        with np.errstate(invalid="ignore", over="ignore"):
            err = np.abs(g - e)
            ok = (err <= tol * (1.0 + np.abs(e))) | (np.isnan(g) & np.isnan(e)) | (g == e)
        if np.all(ok):
            return None
        bad = np.argwhere(~ok.reshape(g.shape)) if g.ndim else np.zeros((1, 0), dtype=np.int64)
        first = tuple(bad[0])
        finite = np.isfinite(err)
        maxerr = float(np.max(err[finite])) if np.any(finite) else float("nan")
        with np.errstate(invalid="ignore", divide="ignore"):
            rel = err / (1.0 + np.abs(e))
        maxrel = float(np.max(rel[np.isfinite(rel)])) if np.any(np.isfinite(rel)) else float("nan")
        return ("%d/%d elements differ (tol %g): max abs err %.6g, max err/(1+|exp|) %.6g; "
                "first bad index %s: got %r expected %r"
                % (int(np.count_nonzero(~ok)), ok.size, tol, maxerr, maxrel,
                   _fmt_index(first), float(g[first]), float(e[first])))
    # int / bool: exact
    ok = got == exp
    if np.all(ok):
        return None
    bad = np.argwhere(~ok.reshape(got.shape)) if got.ndim else np.zeros((1, 0), dtype=np.int64)
    first = tuple(bad[0])
    msg = "%d/%d elements differ (exact)" % (int(np.count_nonzero(~ok)), ok.size)
    if kind == "int":
        maxerr = int(np.max(np.abs(got.astype(np.int64) - exp.astype(np.int64))))
        msg += ": max abs err %d" % maxerr
    return msg + "; first bad index %s: got %r expected %r" % (
        _fmt_index(first), got[first].item(), exp[first].item())
