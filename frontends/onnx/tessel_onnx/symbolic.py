"""Dimension sizes known at import time only symbolically.

A graph input's dimension named by `dim_param` (and not pinned with --dim)
is a `Sym`: a polynomial with integer coefficients over such names, e.g.
`batch`, `12*batch`, `batch*seq`. Shapes are tuples of ints and Syms;
arithmetic on shapes (products for reshapes, sums for concatenations, exact
quotients for Reshape's -1) stays exact, and a result without names is a
plain int again. Shape tensors (Shape, and the Gather/Concat/Mul chains
exporters build on them) are numpy object arrays of ints and Syms, so that
numpy's indexing and arithmetic fold them as they fold static shapes.

What the importer assumes of every name, as IREE and torch-mlir do:
  - its value is at least 1 (empty inputs are not supported);
  - it is not a broadcast dimension: a named dimension broadcast against a
    different size is an import error, not a run-time decision;
  - two different polynomials are different sizes when shapes must agree
    (also an import error); equal polynomials are equal sizes.
Comparisons a handler needs (Slice clamping, index checks) are answered
only when these assumptions decide them; otherwise `SymbolicError` names
the expressions, and the handler either checks at run time (cf.assert) or
reports the node as unsupported.
"""

import numpy as np


class SymbolicError(ValueError):
    """A question about symbolic sizes that the import cannot answer."""


def _mono_str(mono):
    return "*".join(mono)


class Sym:
    """sum(coefficient * product of names): `terms` maps a sorted tuple of
    names (repeated for powers; () for the constant) to a nonzero int."""

    __slots__ = ("terms", "_key")

    def __init__(self, terms):
        self.terms = {m: c for m, c in terms.items() if c}
        self._key = tuple(sorted(self.terms.items()))

    @staticmethod
    def name(n):
        return Sym({(n,): 1})

    @staticmethod
    def _norm(terms):
        """An int when no names remain, else a Sym."""
        s = Sym(terms)
        if not s.terms:
            return 0
        if list(s.terms) == [()]:
            return s.terms[()]
        return s

    @staticmethod
    def _of(x):
        if isinstance(x, Sym):
            return x.terms
        if isinstance(x, (bool, np.bool_)):
            raise SymbolicError("a boolean is not a size")
        return {(): int(x)}

    def names(self):
        return sorted({n for m in self.terms for n in m})

    # -- arithmetic --------------------------------------------------------

    def __add__(self, other):
        if not _numeric(other):
            return NotImplemented
        out = dict(self.terms)
        for m, c in Sym._of(other).items():
            out[m] = out.get(m, 0) + c
        return Sym._norm(out)

    __radd__ = __add__

    def __neg__(self):
        return Sym._norm({m: -c for m, c in self.terms.items()})

    def __sub__(self, other):
        if not _numeric(other):
            return NotImplemented
        return self + (-other if not isinstance(other, Sym) else -other)

    def __rsub__(self, other):
        if not _numeric(other):
            return NotImplemented
        return (-self) + other

    def __mul__(self, other):
        if not _numeric(other):
            return NotImplemented
        out = {}
        for m1, c1 in self.terms.items():
            for m2, c2 in Sym._of(other).items():
                m = tuple(sorted(m1 + m2))
                out[m] = out.get(m, 0) + c1 * c2
        return Sym._norm(out)

    __rmul__ = __mul__

    def __floordiv__(self, other):
        if not _numeric(other):
            return NotImplemented
        return exact_div(self, other)

    def __rfloordiv__(self, other):
        if not _numeric(other):
            return NotImplemented
        return exact_div(other, self)

    def __mod__(self, other):
        if not _numeric(other):
            return NotImplemented
        return 0 if divides(other, self) else _undecided("%s %% %s" % (self, dim_str(other)))

    def __abs__(self):
        lo, hi = bounds(self)
        if lo is not None and lo >= 0:
            return self
        if hi is not None and hi <= 0:
            return -self
        return _undecided("|%s|" % self)

    # -- comparisons -------------------------------------------------------

    def __eq__(self, other):
        if isinstance(other, Sym):
            return self._key == other._key
        if _numeric(other):
            return False  # a Sym always has a name: never a known int
        return NotImplemented

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    def __hash__(self):
        return hash(self._key)

    def __lt__(self, other):
        return _decide(self - other, "<", "%s < %s" % (self, dim_str(other)))

    def __le__(self, other):
        return _decide(self - other, "<=", "%s <= %s" % (self, dim_str(other)))

    def __gt__(self, other):
        return _decide(self - other, ">", "%s > %s" % (self, dim_str(other)))

    def __ge__(self, other):
        return _decide(self - other, ">=", "%s >= %s" % (self, dim_str(other)))

    def __bool__(self):
        return _decide(self, "!=", "%s != 0" % self)

    def __int__(self):
        raise SymbolicError("the size %s is only known at run time here" % self)

    __index__ = __int__

    def __float__(self):
        raise SymbolicError("the size %s is only known at run time here" % self)

    def __str__(self):
        parts = []
        for m, c in sorted(self.terms.items(), key=lambda t: (-len(t[0]), t[0])):
            if not m:
                parts.append(str(c))
            elif c == 1:
                parts.append(_mono_str(m))
            elif c == -1:
                parts.append("-" + _mono_str(m))
            else:
                parts.append("%d*%s" % (c, _mono_str(m)))
        return " + ".join(parts).replace("+ -", "- ")

    __repr__ = __str__


def _numeric(x):
    return isinstance(x, (Sym, int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _undecided(what):
    raise SymbolicError("%s cannot be decided at import time (it depends on dimensions "
                        "known only at run time)" % what)


def bounds(x):
    """(lowest, highest) value of x when every name is at least 1; None for
    an unknown side."""
    if not isinstance(x, Sym):
        return int(x), int(x)
    const = x.terms.get((), 0)
    coeffs = [c for m, c in x.terms.items() if m]
    at_one = const + sum(coeffs)
    lo = at_one if all(c > 0 for c in coeffs) else None
    hi = at_one if all(c < 0 for c in coeffs) else None
    return lo, hi


def _decide(diff, op, what):
    lo, hi = bounds(diff)
    known = {
        "<": (hi is not None and hi < 0, lo is not None and lo >= 0),
        "<=": (hi is not None and hi <= 0, lo is not None and lo > 0),
        ">": (lo is not None and lo > 0, hi is not None and hi <= 0),
        ">=": (lo is not None and lo >= 0, hi is not None and hi < 0),
        "!=": (lo is not None and lo > 0 or hi is not None and hi < 0, False),
    }[op]
    if known[0]:
        return True
    if known[1]:
        return False
    return _undecided(what)


def is_static(d):
    return not isinstance(d, Sym)


def dim_str(d):
    return str(d) if isinstance(d, Sym) else str(int(d))


def shape_str(shape):
    """[batch, 128, 768]-style text of a shape."""
    return "[%s]" % ", ".join(dim_str(d) for d in shape)


def numel(shape):
    """The product of a shape's sizes (an int or a Sym)."""
    out = 1
    for d in shape:
        out = out * d
    return out


def divides(q, p):
    """Whether p is q times a polynomial (with integer coefficients)."""
    try:
        exact_div(p, q)
        return True
    except SymbolicError:
        return False


def exact_div(p, q):
    """p / q where it is exact for every value of the names: by an int
    dividing every coefficient, by a single term dividing every term, or by
    a polynomial p is a one-term multiple of."""
    if not isinstance(p, Sym) and not isinstance(q, Sym):
        p, q = int(p), int(q)
        if q == 0 or p % q:
            return _undecided("%d / %d as an exact quotient" % (p, q))
        return p // q
    pt, qt = Sym._of(p), Sym._of(q)
    if len(qt) == 1:
        (qm, qc), = qt.items()
        out = {}
        for m, c in pt.items():
            rest = list(m)
            for n in qm:
                if n not in rest:
                    return _undecided("%s / %s as an exact quotient" % (dim_str(p), dim_str(q)))
                rest.remove(n)
            if c % qc:
                return _undecided("%s / %s as an exact quotient" % (dim_str(p), dim_str(q)))
            out[tuple(rest)] = c // qc
        return Sym._norm(out)
    # A polynomial divisor: try the quotient of the leading terms.
    lead = lambda t: max(t.items(), key=lambda mc: (len(mc[0]), mc[0]))  # noqa: E731
    pm, pc = lead(pt)
    r = exact_div(Sym._norm({pm: pc}), Sym._norm({lead(qt)[0]: lead(qt)[1]}))
    if r * q == p:
        return r
    return _undecided("%s / %s as an exact quotient" % (dim_str(p), dim_str(q)))


def has_sym(values):
    return any(isinstance(v, Sym) for v in values)


def int_array(values, shape=None):
    """An int64 array of `values`, or an object array when some are Syms."""
    values = list(values)
    if has_sym(values):
        a = np.empty(len(values), dtype=object)
        a[:] = [v if isinstance(v, Sym) else int(v) for v in values]
    else:
        a = np.array([int(v) for v in values], dtype=np.int64)
    return a.reshape(shape) if shape is not None else a


def is_symbolic_array(a):
    return isinstance(a, np.ndarray) and a.dtype == object


def normalize_array(a):
    """An object array of ints and Syms as int64 when no Syms are left;
    other element kinds in an object array are rejected."""
    flat = a.reshape(-1)
    for v in flat:
        if not _numeric(v):
            raise SymbolicError("a shape tensor holds %r, which is not a size" % (v,))
    if has_sym(flat):
        out = np.empty(a.shape, dtype=object)
        out.reshape(-1)[:] = [v if isinstance(v, Sym) else int(v) for v in flat]
        return out
    return np.array([int(v) for v in flat], dtype=np.int64).reshape(a.shape)
