"""MLIR text for one function body: tensors, constants and the few op forms
the importer emits (linalg.generic with broadcasting maps, fills, reshapes,
transposes), and the external globals that it loads its parameters from
(--parameters-file).

The importer writes MLIR as text rather than through MLIR's Python bindings:
Debian ships no bindings for LLVM 22, and the forms are few. Every SSA name
comes from one counter (`%vN`), so that names in generic bodies never shadow
outer ones. Function arguments are `%argN`.
"""

import hashlib
import re

import numpy as np

from . import dtypes
from .symbolic import Sym, SymbolicError, has_sym, is_static, is_symbolic_array, normalize_array, numel

# Constants with more elements than this (or any non-finite element) are
# written as hex blobs, dense<"0x...">, which keep files small and exact.
LIST_LIMIT = 16

# The smallest constant that becomes a parameter (is_parameter), in bytes.
PARAMETER_MIN_BYTES = 1024


def _dim(d):
    return d if isinstance(d, Sym) else int(d)


class Value:
    """A tensor SSA value: its name, shape (ints and Syms, the `?`
    dimensions) and element type. `grid` describes integer tensors whose
    elements are their own coordinates (what exporters build index tensors
    from, with Range over a run-time size): an int a when v[i...] = i[a],
    or a tuple of axes when v[..., c] = i[axes[c]] (index tuples for
    GatherND); None otherwise."""

    __slots__ = ("name", "shape", "dtype", "grid")

    def __init__(self, name, shape, dtype, grid=None):
        self.name = name
        self.shape = tuple(_dim(d) for d in shape)
        self.dtype = dtype
        self.grid = grid

    @property
    def type(self):
        return tensor_type(self.shape, self.dtype)


class Const:
    """A tensor known at import time (an initializer, a Constant, or the
    result of folding a node whose inputs are all constants). `array` holds
    the values in `dtype`'s numpy storage (bf16: float32 of bf16 values).
    An integer tensor computed from symbolic sizes (a shape tensor) holds
    ints and Syms in an object array (`symbolic`). `name` is the model's
    name for it (an initializer's, a Constant's output), or one derived from
    that (`W.transpose`), or None: what its global is called when it
    becomes a parameter (Emitter.value)."""

    __slots__ = ("array", "dtype", "name")

    def __init__(self, array, dtype, name=None):
        if is_symbolic_array(np.asarray(array)) and dtype.is_int:
            self.array = normalize_array(np.asarray(array))
        else:
            self.array = dtypes.as_dtype(array, dtype)
        self.dtype = dtype
        self.name = name

    def derive(self, array, what):
        """A Const of the same type computed from this one alone, named
        `NAME.what` (`what` None: the same tensor, the same name)."""
        name = self.name if self.name is None or what is None else "%s.%s" % (self.name, what)
        return Const(array, self.dtype, name)

    def reshaped(self, shape):
        """The same elements at `shape`."""
        shape = tuple(int(d) for d in shape)
        return self.derive(self.array.reshape(shape), None if shape == self.shape else "reshape")

    @property
    def symbolic(self):
        return is_symbolic_array(self.array)

    @property
    def shape(self):
        return tuple(int(d) for d in self.array.shape)

    def splat(self):
        """The one value every element has, or None."""
        a = self.array
        if a.size == 0:
            return None
        first = a.reshape(-1)[0]
        if a.dtype.kind == "f" and np.isnan(first):
            return first if np.isnan(a).all() else None
        return first if (a == first).all() else None


def tensor_type(shape, dtype):
    return "tensor<%s>" % "x".join(["?" if isinstance(d, Sym) else str(int(d)) for d in shape]
                                   + [dtype.mlir])


def affine_map(ndims, exprs):
    dims = ", ".join("d%d" % i for i in range(ndims))
    return "affine_map<(%s) -> (%s)>" % (dims, ", ".join(exprs))


def identity_exprs(n):
    """(d0, ..., d(n-1)): the map of an operand read at the loops."""
    return ["d%d" % i for i in range(n)]


def _float_literal(x):
    s = repr(float(x))
    if "e" in s and "." not in s:
        s = s.replace("e", ".0e")
    elif "." not in s:
        s += ".0"
    return s


def _hex_bits(x, dtype):
    if dtype is dtypes.BF16:
        bits = int(dtypes.bf16_bits(np.array([x]))[0])
        return "0x%04X" % bits
    raw = np.array([x], dtype=dtype.np).view("<u%d" % (dtype.bits // 8))[0]
    return "0x%0*X" % (dtype.bits // 4, int(raw))


def scalar_literal(x, dtype):
    """An MLIR literal for one element of `dtype` (non-finite floats as
    their bit pattern, which MLIR accepts for float types)."""
    if dtype.is_bool:
        return "true" if bool(x) else "false"
    if dtype.is_int:
        return str(int(x))
    if not np.isfinite(x):
        return _hex_bits(x, dtype)
    return _float_literal(x)


def constant_op(x, dtype):
    """arith.constant of one element (an i1 is written `true`/`false`,
    without a type)."""
    if dtype.is_bool:
        return "arith.constant %s" % scalar_literal(x, dtype)
    return "arith.constant %s : %s" % (scalar_literal(x, dtype), dtype.mlir)


def _nested_list(a, dtype):
    if a.ndim == 0:
        return scalar_literal(a[()], dtype)
    return "[" + ", ".join(_nested_list(s, dtype) for s in a) + "]"


def dense_literal(const):
    """dense<...> for a Const: a splat, a nested list for small tensors,
    else the raw little-endian bytes in hex."""
    a, dt = const.array, const.dtype
    s = const.splat()
    if s is not None and (dt.is_bool or dt.is_int or np.isfinite(s)):
        return "dense<%s>" % scalar_literal(s, dt)
    if dt.is_bool or (a.size <= LIST_LIMIT and (dt.is_int or np.isfinite(a).all())):
        return "dense<%s>" % _nested_list(a, dt)
    if dt is dtypes.BF16:
        raw = dtypes.bf16_bits(a).astype("<u2").tobytes()
    else:
        raw = np.ascontiguousarray(a).astype(dt.np.newbyteorder("<")).tobytes()
    return 'dense<"0x%s">' % raw.hex().upper()


# Scalar ops by element kind: (float op, int op, bool op).
_BINARY = {
    "add": ("arith.addf", "arith.addi", None),
    "sub": ("arith.subf", "arith.subi", None),
    "mul": ("arith.mulf", "arith.muli", None),
    "div": ("arith.divf", "arith.divsi", None),
    "rem": ("arith.remf", "arith.remsi", None),
    "max": ("arith.maximumf", "arith.maxsi", "arith.ori"),
    "min": ("arith.minimumf", "arith.minsi", "arith.andi"),
    "and": (None, None, "arith.andi"),
    "or": (None, None, "arith.ori"),
    "xor": (None, None, "arith.xori"),
    "powf": ("math.powf", None, None),
}

_CMP = {  # predicate: (cmpf, cmpi)
    "eq": ("oeq", "eq"),
    "lt": ("olt", "slt"),
    "gt": ("ogt", "sgt"),
    "le": ("ole", "sle"),
    "ge": ("oge", "sge"),
    "ne": ("une", "ne"),
}


class Body:
    """Builds the scalar ops of one generic body. Each method returns the
    SSA name of its result."""

    def __init__(self, em):
        self.em = em
        self.lines = []

    def __call__(self, rhs):
        name = self.em.fresh()
        self.lines.append("%s = %s" % (name, rhs))
        return name

    def const(self, x, dtype):
        return self(constant_op(x, dtype))

    def binary(self, kind, x, y, dtype):
        ops = _BINARY[kind]
        op = ops[0] if dtype.is_float else ops[1] if dtype.is_int else ops[2]
        if op is None:
            raise ValueError("no %s on %s" % (kind, dtype.mlir))
        return self("%s %s, %s : %s" % (op, x, y, dtype.mlir))

    def add(self, x, y, dtype):
        return self.binary("add", x, y, dtype)

    def sub(self, x, y, dtype):
        return self.binary("sub", x, y, dtype)

    def mul(self, x, y, dtype):
        return self.binary("mul", x, y, dtype)

    def div(self, x, y, dtype):
        return self.binary("div", x, y, dtype)

    def math(self, fn, x, dtype):
        return self("math.%s %s : %s" % (fn, x, dtype.mlir))

    def neg(self, x, dtype):
        if dtype.is_float:
            return self("arith.negf %s : %s" % (x, dtype.mlir))
        return self.sub(self.const(0, dtype), x, dtype)

    def cmp(self, pred, x, y, dtype):
        f, i = _CMP[pred]
        if dtype.is_float:
            return self("arith.cmpf %s, %s, %s : %s" % (f, x, y, dtype.mlir))
        return self("arith.cmpi %s, %s, %s : %s" % (i, x, y, dtype.mlir))

    def select(self, c, x, y, dtype):
        return self("arith.select %s, %s, %s : %s" % (c, x, y, dtype.mlir))

    def cast(self, x, src, dst):
        """Converts one element as ONNX Cast does: floats to ints truncate
        toward zero, to bool is `!= 0`, bool to numbers is 0/1."""
        if src is dst:
            return x
        s, d = src.mlir, dst.mlir
        if dst.is_bool:
            return self.cmp("ne", x, self.const(0, src), src)
        if src.is_bool:
            if dst.is_int:
                return self("arith.extui %s : i1 to %s" % (x, d))
            return self("arith.uitofp %s : i1 to %s" % (x, d))
        if src.is_float and dst.is_float:
            if {s, d} == {"f16", "bf16"}:  # no direct conversion: via f32
                x = self.cast(x, src, dtypes.F32)
                return self.cast(x, dtypes.F32, dst)
            op = "arith.extf" if dst.bits > src.bits else "arith.truncf"
            return self("%s %s : %s to %s" % (op, x, s, d))
        if src.is_float:
            return self("arith.fptosi %s : %s to %s" % (x, s, d))
        if dst.is_float:
            return self("arith.sitofp %s : %s to %s" % (x, s, d))
        op = "arith.extsi" if dst.bits > src.bits else "arith.trunci"
        return self("%s %s : %s to %s" % (op, x, s, d))

    def index(self, dim):
        return self("linalg.index %d : index" % dim)

    def index_cast(self, x, src):
        return self("arith.index_cast %s : %s to index" % (x, src.mlir))


def is_parameter(const):
    """Whether a Const becomes an external global under --parameters-file:
    floating point, not a splat, at least PARAMETER_MIN_BYTES. What is left
    (shapes, indices, scalars, small or splat tensors) stays in the module,
    where the compiler folds it."""
    return (const.dtype.is_float and not const.symbolic and
            const.array.size * const.dtype.bits // 8 >= PARAMETER_MIN_BYTES and const.splat() is None)


def symbol_ref(name):
    """`@name`, quoted as an MLIR string (`@"a-b"`) unless a bare
    identifier."""
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", name):
        return "@" + name
    out = []
    for c in name:
        if c in '"\\':
            out.append("\\" + c)
        elif c < " " or c == "\x7f":
            out.append("\\%02X" % ord(c))  # control characters as hex escapes
        else:
            out.append(c)
    return '@"%s"' % "".join(out)


class Global:
    """An external ml_program.global that the function loads: its symbol
    name, shape and element type, its value (a Const; None when the data
    was not available at import time) and the model's name for that value
    (None for a folded constant without one)."""

    __slots__ = ("symbol", "shape", "dtype", "const", "source")

    def __init__(self, symbol, shape, dtype, const, source):
        self.symbol = symbol
        self.shape = shape
        self.dtype = dtype
        self.const = const
        self.source = source

    @property
    def type(self):
        return tensor_type(self.shape, self.dtype)

    def declaration(self):
        return "ml_program.global private %s(#ml_program.extern<%s>) : %s" % (
            symbol_ref(self.symbol), self.type, self.type)


class Emitter:
    """Accumulates the lines of one function body. With `parameters`, the
    large floating-point constants (is_parameter) are loaded from external
    globals (`globals`, declared before the function) instead of written
    as arith.constant; `symbols` are the module's other symbol names, which
    the globals' names avoid."""

    def __init__(self, parameters=False, symbols=()):
        self.lines = []
        self.parameters = parameters
        self.globals = []
        self._symbols = set(symbols)
        self._by_content = {}  # (type, digest of the data) -> Global
        self._unnamed = 0
        self._counter = 0
        self._materialized = {}
        self._indices = {}  # int or Sym -> SSA name of that index value

    # -- symbolic sizes as index values ------------------------------------

    def arg_dim(self, arg, axis):
        """A tensor.dim of `arg`'s dimension `axis`."""
        v = self.fresh()
        self.emit("%s = tensor.dim %s, %s : %s" % (v, arg.name, self.index(axis), arg.type))
        return v

    def bind_name(self, name, arg, axis):
        """The dimension name `name` is the size of `arg`'s dimension
        `axis` (emit it before any use of the name)."""
        v = self.arg_dim(arg, axis)
        self._indices[Sym.name(name)] = v
        return v

    def index(self, d):
        """The SSA name of an index value equal to size d (an int, or a Sym
        over bound names: products and sums emitted once, reused after)."""
        key = d if isinstance(d, Sym) else int(d)
        if key in self._indices:
            return self._indices[key]
        if is_static(key):
            v = self.fresh()
            self.emit("%s = arith.constant %d : index" % (v, key))
        else:
            v = None
            for mono, c in sorted(key.terms.items()):
                term = self.index(c) if not mono else None
                for n in mono:
                    if Sym.name(n) not in self._indices:
                        raise ValueError("dimension name '%s' is not bound" % n)
                    f = self._indices[Sym.name(n)]
                    term = f if term is None else self._arith("muli", term, f)
                if mono and c != 1:
                    term = self._arith("muli", term, self.index(c))
                v = term if v is None else self._arith("addi", v, term)
        self._indices[key] = v
        return v

    def _arith(self, op, a, b):
        v = self.fresh()
        self.emit("%s = arith.%s %s, %s : index" % (v, op, a, b))
        return v

    def dim(self, d):
        """An operand for size d in a mixed static/dynamic list (an
        extract_slice's sizes, an expand_shape's output_shape)."""
        return str(int(d)) if is_static(d) else self.index(d)

    def index_as_float(self, d, dtype):
        """The SSA name of size d converted to float type `dtype` (for
        means over dimensions known only at run time)."""
        i = self.fresh()
        self.emit("%s = arith.index_cast %s : index to i64" % (i, self.index(d)))
        f = self.fresh()
        self.emit("%s = arith.sitofp %s : i64 to %s" % (f, i, dtype.mlir))
        return f

    def dynamic_sizes(self, shape):
        """The index values of a shape's `?` dimensions, in order."""
        return [self.index(d) for d in shape if not is_static(d)]

    def check(self, a, pred, b, message):
        """A run-time check `a pred b` of sizes (cf.assert), or nothing when
        it holds for every value of the names; an error when it never
        does. pred: "eq" or "sle"."""
        try:
            holds = bool(a == b) if pred == "eq" else bool(a <= b)
            decided = pred != "eq" or holds or (is_static(a) and is_static(b))
        except SymbolicError:
            decided = False
        if decided and holds:
            return
        if decided:
            raise SymbolicError(message)
        self._assert(pred, self.index(a), self.index(b), message)

    def assert_equal(self, x, y, message):
        """A run-time check that index values x and y are equal."""
        self._assert("eq", x, y, message)

    def _assert(self, pred, x, y, message):
        c = self.fresh()
        self.emit("%s = arith.cmpi %s, %s, %s : index" % (c, pred, x, y))
        self.emit('cf.assert %s, "%s"' % (c, message.replace("\\", "\\\\").replace('"', '\\"')))

    def fresh(self):
        name = "%%v%d" % self._counter
        self._counter += 1
        return name

    def emit(self, line):
        self.lines.append("  " + line)

    def comment(self, text):
        self.emit("// " + text)

    def op(self, rhs, shape, dtype):
        """Emits `%vN = rhs` and returns it as a Value of the given type."""
        v = Value(self.fresh(), shape, dtype)
        self.emit("%s = %s" % (v.name, rhs))
        return v

    def value(self, x):
        """A Value for x; a Const becomes an arith.constant, or a load of
        its global (is_parameter), once."""
        if isinstance(x, Value):
            return x
        key = id(x)
        if key not in self._materialized and x.symbolic:
            elems = []
            for e in x.array.reshape(-1):
                elems.append(self.fresh())
                self.emit("%s = arith.index_cast %s : index to %s"
                          % (elems[-1], self.index(e), x.dtype.mlir))
            v = self.op("tensor.from_elements %s : %s" % (", ".join(elems), tensor_type(x.shape, x.dtype)),
                        x.shape, x.dtype)
            self._materialized[key] = (v, x)
        if key not in self._materialized and self.parameters and is_parameter(x):
            v = self.load_global(self._global_of(x))
            self._materialized[key] = (v, x)
        if key not in self._materialized:
            v = self.op("arith.constant %s : %s" % (dense_literal(x), tensor_type(x.shape, x.dtype)),
                        x.shape, x.dtype)
            # Keep x alive so that its id is not reused by another Const.
            self._materialized[key] = (v, x)
        return self._materialized[key][0]

    def _global_of(self, const):
        """The global holding const's data: one per distinct type and data
        (ops that take a weight reshaped, as broadcast_operand does, each
        materialize a Const of their own)."""
        key = (tensor_type(const.shape, const.dtype),
               hashlib.sha256(np.ascontiguousarray(const.array).data).digest())
        if key not in self._by_content:
            name = const.name
            if name is None:
                name = "const_%d" % self._unnamed
                self._unnamed += 1
            self._by_content[key] = self.new_global(name, const.shape, const.dtype, const, const.name)
        return self._by_content[key]

    def new_global(self, name, shape, dtype, const, source):
        """A new external global named `name` (`name_N` when that is taken)
        holding `const` (None: data that the caller supplies from
        elsewhere); `source`: the model's name for it, or None."""
        symbol, n = name, 0
        while symbol in self._symbols:
            n += 1
            symbol = "%s_%d" % (name, n)
        self._symbols.add(symbol)
        g = Global(symbol, tuple(shape), dtype, const, source)
        self.globals.append(g)
        return g

    def load_global(self, g):
        """ml_program.global_load_const of global g."""
        return self.op("ml_program.global_load_const %s : %s" % (symbol_ref(g.symbol), g.type),
                       g.shape, g.dtype)

    def scalar(self, x, dtype):
        name = self.fresh()
        self.emit("%s = %s" % (name, constant_op(x, dtype)))
        return name

    def empty(self, shape, dtype):
        return self.op("tensor.empty(%s) : %s" % (", ".join(self.dynamic_sizes(shape)),
                                                  tensor_type(shape, dtype)), shape, dtype)

    def filled(self, x, shape, dtype):
        """A tensor of `shape` with every element x (linalg.fill)."""
        s = self.scalar(x, dtype)
        e = self.empty(shape, dtype)
        return self.op("linalg.fill ins(%s : %s) outs(%s : %s) -> %s"
                       % (s, dtype.mlir, e.name, e.type, e.type), shape, dtype)

    def generic(self, ins, out, iterators, body_fn):
        """linalg.generic with one result. ins: [(Value, exprs)]; out:
        (init Value, exprs); iterators: "parallel"/"reduction" per loop;
        body_fn(body, in_names, out_name) -> the yielded name."""
        n = len(iterators)
        init, out_exprs = out
        maps = [affine_map(n, e) for _, e in ins] + [affine_map(n, out_exprs)]
        body = Body(self)
        in_args = [self.fresh() for _ in ins]
        out_arg = self.fresh()
        yielded = body_fn(body, in_args, out_arg)
        result = Value(self.fresh(), init.shape, init.dtype)
        text = "%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]}" % (
            result.name, ", ".join(maps), ", ".join('"%s"' % it for it in iterators))
        if ins:
            text += " ins(%s : %s)" % (", ".join(v.name for v, _ in ins),
                                       ", ".join(v.type for v, _ in ins))
        text += " outs(%s : %s) {" % (init.name, init.type)
        self.emit(text)
        args = ["%s: %s" % (a, v.dtype.mlir) for a, v in
                zip(in_args + [out_arg], [v for v, _ in ins] + [init])]
        self.emit("^bb0(%s):" % ", ".join(args))
        for line in body.lines:
            self.emit("  " + line)
        self.emit("  linalg.yield %s : %s" % (yielded, init.dtype.mlir))
        self.emit("} -> %s" % result.type)
        return result

    def elementwise(self, operands, shape, dtype, body_fn):
        """One parallel generic over `shape` reading each operand with
        ONNX (numpy) broadcasting. Operands that are splat constants become
        scalars in the body. body_fn(body, names) -> the yielded name."""
        ins, slots = [], []
        for x in operands:
            if isinstance(x, Const) and not x.symbolic and x.splat() is not None:
                slots.append(("const", x))
                continue
            v, exprs = self.broadcast_operand(x, shape)
            slots.append(("arg", len(ins)))
            ins.append((v, exprs))
        init = self.empty(shape, dtype)

        def body(b, in_args, out_arg):
            names = []
            for kind, x in slots:
                names.append(in_args[x] if kind == "arg" else b.const(x.splat(), x.dtype))
            return body_fn(b, names)

        return self.generic(ins, (init, identity_exprs(len(shape))),
                            ["parallel"] * len(shape), body)

    def broadcast_operand(self, x, shape):
        """x read at the loops of `shape` with numpy broadcasting: x with its
        broadcast unit dimensions collapsed away (a view), and the indexing
        expressions of the dimensions that remain."""
        offset = len(shape) - len(x.shape)
        keep = [i for i, d in enumerate(x.shape) if not (d == 1 and shape[offset + i] != 1)]
        kept_shape = tuple(x.shape[i] for i in keep)
        exprs = ["d%d" % (offset + i) for i in keep]
        if isinstance(x, Const):
            return self.value(x.reshaped(kept_shape)), exprs
        return self.reshape(x, kept_shape), exprs

    def broadcast_to(self, x, shape):
        """x materialized at `shape` (numpy broadcasting)."""
        if tuple(x.shape) == tuple(shape):
            return self.value(x)
        if isinstance(x, Const):
            return self.value(x.derive(np.broadcast_to(x.array, shape), "broadcast"))
        return self.elementwise([x], shape, x.dtype, lambda b, a: a[0])

    def collapse(self, v, groups, shape):
        return self.op("tensor.collapse_shape %s %s : %s into %s"
                       % (v.name, _groups(groups), v.type, tensor_type(shape, v.dtype)),
                       shape, v.dtype)

    def expand(self, v, groups, shape):
        sizes = ", ".join(self.dim(d) for d in shape)
        return self.op("tensor.expand_shape %s %s output_shape [%s] : %s into %s"
                       % (v.name, _groups(groups), sizes,
                          v.type, tensor_type(shape, v.dtype)), shape, v.dtype)

    def reshape(self, x, shape):
        """x with a new shape of the same size: one collapse_shape or
        expand_shape where the dimensions regroup, else a collapse to 1-D
        followed by an expand."""
        shape = tuple(_dim(d) for d in shape)
        if isinstance(x, Const) and has_sym(shape):
            x = self.value(x)
        if isinstance(x, Const):
            return x.reshaped(shape)
        if x.shape == shape:
            return x
        if len(shape) < len(x.shape):
            groups = collapse_groups(x.shape, shape)
            if groups is not None:
                return self.collapse(x, groups, shape)
        elif len(shape) > len(x.shape):
            groups = collapse_groups(shape, x.shape)
            if groups is not None:
                return self.expand(x, groups, shape)
        total = numel(shape)
        flat = x if len(x.shape) == 1 else self.collapse(x, collapse_groups(x.shape, (total,)), (total,))
        if len(shape) == 1:
            return flat
        return self.expand(flat, collapse_groups(shape, (total,)), shape)

    def pad(self, x, low, high, value):
        """tensor.pad of x with `value` (low/high per dimension)."""
        shape = [d + lo + hi for d, lo, hi in zip(x.shape, low, high)]
        s = self.scalar(value, x.dtype)
        args = ", ".join("%s: index" % self.fresh() for _ in shape)
        v = self.op("tensor.pad %s low[%s] high[%s] {" % (x.name, ", ".join(map(str, low)),
                                                          ", ".join(map(str, high))), shape, x.dtype)
        self.emit("^bb0(%s):" % args)
        self.emit("  tensor.yield %s : %s" % (s, x.dtype.mlir))
        self.emit("} : %s to %s" % (x.type, v.type))
        return v

    def extract_slice(self, x, offsets, sizes, strides):
        x = self.value(x)
        offs, lens = [self.dim(o) for o in offsets], [self.dim(s) for s in sizes]
        return self.op("tensor.extract_slice %s[%s] [%s] [%s] : %s to %s"
                       % (x.name, ", ".join(offs), ", ".join(lens),
                          ", ".join(map(str, strides)), x.type, tensor_type(sizes, x.dtype)),
                       sizes, x.dtype)

    def concat(self, xs, axis):
        vs = [self.value(x) for x in xs]
        shape = list(vs[0].shape)
        shape[axis] = sum(v.shape[axis] for v in vs)
        return self.op("tensor.concat dim(%d) %s : (%s) -> %s"
                       % (axis, ", ".join(v.name for v in vs), ", ".join(v.type for v in vs),
                          tensor_type(shape, vs[0].dtype)), shape, vs[0].dtype)

    def transpose(self, x, perm):
        perm = [int(p) for p in perm]
        shape = tuple(x.shape[p] for p in perm)
        if isinstance(x, Const):
            return x.derive(np.transpose(x.array, perm), "transpose")
        if perm == list(range(len(perm))):
            return x
        init = self.empty(shape, x.dtype)
        return self.op("linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [%s]"
                       % (x.name, x.type, init.name, init.type, ", ".join(map(str, perm))),
                       shape, x.dtype)


def _groups(groups):
    return "[%s]" % ", ".join("[%s]" % ", ".join(str(i) for i in g) for g in groups)


def collapse_groups(src, dst):
    """Reassociation groups that collapse shape `src` into `dst` (each dst
    dimension the product of a run of src dimensions), or None."""
    src, dst = list(src), list(dst)
    if len(dst) > len(src):
        return None
    if not dst:
        return [] if all(d == 1 for d in src) else None
    groups, i = [], 0
    for d in dst:
        if i >= len(src):
            return None
        group, p = [i], src[i]
        i += 1
        while p != d:
            if i >= len(src) or (d != 0 and _exceeds(p, d)):
                return None
            group.append(i)
            p *= src[i]
            i += 1
        groups.append(group)
    while i < len(src):
        if src[i] != 1:
            return None
        groups[-1].append(i)
        i += 1
    return groups


def _exceeds(p, d):
    """p > d where that is known at import time (a product of symbolic
    sizes may still reach d: keep multiplying)."""
    try:
        return bool(p > d)
    except SymbolicError:
        return False
