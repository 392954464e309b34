"""The graph walk: ONNX model -> one public func.func in MLIR text (and
the external globals it loads its parameters from, --parameters-file).

Values of the graph are either `ir.Const` (known at import time:
initializers, Constant nodes, and every node whose inputs are all constants,
evaluated with numpy) or `ir.Value` (SSA tensors of the function). Each op
family module (elementwise, matmul, shape, nn, reduce) maps (domain,
op_type) to a handler that takes a `NodeContext` and returns the node's
outputs; a handler folds when its inputs are constants and emits IR
otherwise.

Every problem with the input is an `ImportFailure` carrying one message per
problem; nothing here prints.
"""

import os
import re

import numpy as np
import onnx
from onnx import external_data_helper, numpy_helper

from . import dtypes, elementwise, ir, matmul, nn, reduce, shape
from .common import NodeError
from .symbolic import Sym, SymbolicError, is_static, shape_str

DEFAULT_DOMAIN = ""
_DOMAIN_ALIASES = {"ai.onnx": DEFAULT_DOMAIN}

OPS = {}
for _module in (elementwise, matmul, shape, nn, reduce):
    for _key, _handler in _module.OPS.items():
        assert _key not in OPS, _key
        OPS[_key] = _handler


def supported_ops():
    """"Op, Op, ..., com.microsoft.Gelu": every op type the importer takes."""
    names = sorted(op if dom == DEFAULT_DOMAIN else "%s.%s" % (dom, op) for dom, op in OPS)
    return ", ".join(names)


class ImportFailure(Exception):
    """The model cannot be imported; `messages` has one line per problem."""

    def __init__(self, messages):
        if isinstance(messages, str):
            messages = [messages]
        super().__init__("\n".join(messages))
        self.messages = list(messages)


def _domain(d):
    return _DOMAIN_ALIASES.get(d, d)


def _display_domain(d):
    return d or "ai.onnx"


def _external_location(tensor):
    for entry in tensor.external_data:
        if entry.key == "location":
            return entry.value
    return None


def load_model(path):
    """Parses an ONNX file and loads its external data; ImportFailure names
    the file when it cannot be read or is not an ONNX model. External data
    that is not next to the model is left unloaded: its initializers can
    still be arguments (--weights-as-inputs) or external globals
    (--parameters-file) from their shapes and types only, and
    `model_missing_external(model)` names them."""
    try:
        model = onnx.load(path, load_external_data=False)
    except FileNotFoundError as e:
        raise ImportFailure("cannot read '%s': %s" % (path, e.strerror or e))
    except OSError as e:
        raise ImportFailure("cannot read '%s': %s" % (path, e.strerror or e))
    except Exception as e:  # noqa: BLE001 - protobuf's DecodeError and friends
        raise ImportFailure("'%s' is not a readable ONNX model (%s: %s)"
                            % (path, type(e).__name__, str(e).strip().splitlines()[0] if str(e).strip() else "no details"))
    if model.ir_version <= 0 or not model.HasField("graph") or not model.graph.output:
        raise ImportFailure("'%s' is not an ONNX model (no graph with outputs)" % path)
    base = os.path.dirname(os.path.abspath(path))
    missing = {}
    for t in model.graph.initializer:
        if t.data_location != onnx.TensorProto.EXTERNAL:
            continue
        location = _external_location(t)
        full = os.path.join(base, location) if location else None
        if not location or not os.path.isfile(full):
            missing[t.name] = location or "(no location)"
            continue
        try:
            external_data_helper.load_external_data_for_tensor(t, base)
            t.data_location = onnx.TensorProto.DEFAULT
            del t.external_data[:]
        except Exception as e:  # noqa: BLE001 - truncated or unreadable data
            raise ImportFailure("cannot read the external data of initializer '%s' from '%s': %s"
                                % (t.name, full, e))
    _MISSING_EXTERNAL[id(model)] = missing
    return model


_MISSING_EXTERNAL = {}


def model_missing_external(model):
    """Initializer name -> external data file that was not found."""
    return _MISSING_EXTERNAL.get(id(model), {})


def check_model(model, path):
    """Runs onnx.checker on models whose default-domain opset this onnx
    package knows. Newer models are left to the importer's own checks (an
    older onnx parses them, but its checker rejects every newer op).
    Initializers whose external data is missing (load_model) are checked
    as graph inputs of their type and shape: the checker would require
    their files."""
    known = onnx.defs.onnx_opset_version()
    if model.ir_version > onnx.IR_VERSION:
        return
    for imp in model.opset_import:
        if _domain(imp.domain) == DEFAULT_DOMAIN and imp.version > known:
            return
    missing = model_missing_external(model)
    if missing:
        model = _without_initializers(model, missing)
    try:
        onnx.checker.check_model(model)
    except onnx.checker.ValidationError as e:
        first = str(e).strip().splitlines()
        raise ImportFailure("'%s' fails the ONNX checker: %s" % (path, first[0] if first else e))


def _without_initializers(model, names):
    """A copy of the model in which the initializers `names` are graph
    inputs instead."""
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    graph = copy.graph
    inputs = {vi.name for vi in graph.input}
    for i in reversed(range(len(graph.initializer))):
        t = graph.initializer[i]
        if t.name in names:
            if t.name not in inputs:
                graph.input.append(onnx.helper.make_tensor_value_info(t.name, t.data_type, t.dims))
            del graph.initializer[i]
    return copy


def sanitize(name):
    """A file-name-safe form of an ONNX tensor name."""
    s = re.sub(r"[^A-Za-z0-9_.-]", "_", name).lstrip(".")
    return s[:100] or "tensor"


class NodeContext:
    """What a handler sees of one node: its inputs, attributes, opset and
    the emitter."""

    def __init__(self, importer, node):
        self.node = node
        self.em = importer.em
        self.opset = importer.opsets.get(_domain(node.domain), 1)
        self._importer = importer
        self._attrs = {a.name: a for a in node.attribute}

    @property
    def op_type(self):
        return self.node.op_type

    def num_inputs(self):
        return len(self.node.input)

    def input(self, i, what=None):
        """Input i (Const or Value); None when absent (optional input)."""
        if i >= len(self.node.input) or not self.node.input[i]:
            if what is not None:
                raise NodeError("missing input %d (%s)" % (i, what))
            return None
        return self._importer.lookup(self.node.input[i])

    def inputs(self):
        return [self.input(i) for i in range(len(self.node.input))]

    def const_input(self, i, what):
        """The numpy array of input i, which must be known at import time;
        None when the optional input is absent."""
        x = self.input(i)
        if x is None:
            return None
        if not isinstance(x, ir.Const):
            raise NodeError("the %s (input %d, '%s') must be known at import time: an "
                            "initializer, a Constant, or computed from those only"
                            % (what, i, self.node.input[i]))
        return x.array

    def has_attr(self, name):
        return name in self._attrs

    def attr(self, name, default=None):
        a = self._attrs.get(name)
        if a is None:
            return default
        v = onnx.helper.get_attribute_value(a)
        if isinstance(v, bytes):
            return v.decode("utf-8", "replace")
        if isinstance(v, onnx.TensorProto):
            return self._importer.tensor_to_const(v, "attribute '%s'" % name)
        if isinstance(v, list) and v and isinstance(v[0], bytes):
            return [s.decode("utf-8", "replace") for s in v]
        return v

    def num_outputs(self):
        """Outputs the graph uses (trailing empty names dropped)."""
        outs = list(self.node.output)
        while outs and not outs[-1]:
            outs.pop()
        return len(outs)


class Importer:
    """Imports one model; `run()` returns the MLIR text and the weight
    arguments [(argument index, ONNX name, Const)]. With `parameters`, the
    large floating-point constants are external globals instead
    (ir.is_parameter; `parameters()` lists them)."""

    def __init__(self, model, dims=None, weights_as_inputs=False, parameters=False,
                 function="main", source_name="model.onnx"):
        assert not (weights_as_inputs and parameters)
        self.model = model
        self.graph = model.graph
        self.dims = dict(dims or {})
        self.weights_as_inputs = weights_as_inputs
        self.function = function
        self.source_name = source_name
        self.opsets = {}
        for imp in model.opset_import:
            self.opsets[_domain(imp.domain)] = imp.version
        # "__metadata__" is the parameters file's own entry (safetensors.py).
        self.em = ir.Emitter(parameters=parameters, symbols=(function, "__metadata__"))
        self.env = {}
        self._initializers = {t.name: t for t in self.graph.initializer}
        self._pending = {}  # initializer name -> TensorProto, converted on first use
        self.args = []  # (kind, onnx name, Value, Const or None)

    # -- values ----------------------------------------------------------

    def tensor_to_const(self, tensor, what):
        missing = model_missing_external(self.model).get(tensor.name)
        if missing is not None:
            raise NodeError("%s '%s' has its data in the external file '%s', which is not next "
                            "to the model; only --weights-as-inputs (floating-point tensors of more "
                            "than one element) and --parameters-file (floating-point tensors of at "
                            "least %d bytes) import tensors without their data"
                            % (what, tensor.name, missing, ir.PARAMETER_MIN_BYTES))
        dt = dtypes.from_onnx(tensor.data_type)
        if dt is None:
            raise NodeError("%s '%s' has element type %s, which Tessel does not support "
                            "(supported: %s)" % (what, tensor.name, dtypes.onnx_type_name(tensor.data_type),
                                                 dtypes.supported_names()))
        try:
            array = numpy_helper.to_array(tensor)
        except Exception as e:  # noqa: BLE001 - malformed tensor data
            raise NodeError("%s '%s' cannot be read: %s" % (what, tensor.name, e))
        return ir.Const(array, dt)

    def lookup(self, name):
        if name in self.env:
            return self.env[name]
        if name in self._pending:
            t = self._pending.pop(name)
            if self.em.parameters and self._is_unloaded_parameter(t):
                # Shape and type only: the parameters file lacks it (the
                # tool says so), see docs/onnx-import.md.
                g = self.em.new_global(name, tuple(t.dims), dtypes.from_onnx(t.data_type), None, name)
                self.env[name] = self.em.load_global(g)
                return self.env[name]
            c = self.tensor_to_const(t, "initializer")
            c.name = name
            self.env[name] = c
            return c
        raise NodeError("input '%s' is not defined (not a graph input, an initializer or "
                        "an output of an earlier node)" % name)

    # -- arguments -------------------------------------------------------

    def _input_shape(self, vi, errors):
        t = vi.type
        if t.WhichOneof("value") != "tensor_type":
            errors.append("input '%s' is not a tensor (%s); only tensors are supported"
                          % (vi.name, t.WhichOneof("value")))
            return None
        dt = dtypes.from_onnx(t.tensor_type.elem_type)
        if dt is None:
            errors.append("input '%s' has element type %s, which Tessel does not support "
                          "(supported: %s)" % (vi.name, dtypes.onnx_type_name(t.tensor_type.elem_type),
                                               dtypes.supported_names()))
        if not t.tensor_type.HasField("shape"):
            errors.append("input '%s' has no shape (rank unknown); Tessel needs the rank of "
                          "every input" % vi.name)
            return None
        shape = []
        for i, d in enumerate(t.tensor_type.shape.dim):
            which = d.WhichOneof("value")
            if which == "dim_value" and d.dim_value > 0:
                shape.append(d.dim_value)
            elif which == "dim_value":
                errors.append("input '%s' dimension %d is %d; only positive sizes are supported"
                              % (vi.name, i, d.dim_value))
            elif which == "dim_param" and d.dim_param in self.dims:
                shape.append(self.dims[d.dim_param])
            elif which == "dim_param":
                shape.append(Sym.name(d.dim_param))
            else:
                # Unnamed: a name of its own, equal to no other dimension.
                shape.append(Sym.name("%s_dim%d" % (vi.name, i)))
        return (tuple(shape), dt) if dt is not None and len(shape) == len(t.tensor_type.shape.dim) else None

    def _used_names(self):
        used = set()
        for node in self.graph.node:
            used.update(n for n in node.input if n)
        used.update(o.name for o in self.graph.output)
        return used

    def _bind_arguments(self):
        errors = []
        graph_inputs = [vi for vi in self.graph.input if vi.name not in self._initializers]
        dim_names = set()
        for vi in graph_inputs:
            if vi.type.WhichOneof("value") == "tensor_type":
                for d in vi.type.tensor_type.shape.dim:
                    if d.WhichOneof("value") == "dim_param":
                        dim_names.add(d.dim_param)
        for name in sorted(self.dims):
            if name not in dim_names:
                errors.append("--dim %s: no graph input has a dimension named '%s'%s"
                              % (name, name, " (named dimensions: %s)" % ", ".join(sorted(dim_names))
                                 if dim_names else " (the inputs have no named dimensions)"))
        for vi in graph_inputs:
            typ = self._input_shape(vi, errors)
            if typ is not None:
                v = ir.Value("%%arg%d" % len(self.args), typ[0], typ[1])
                self.args.append(("input", vi.name, v, None))
                self.env[vi.name] = v
        if errors:
            raise ImportFailure(errors)
        self._bind_dim_names()
        used = self._used_names()
        for name, t in self._initializers.items():
            if name in self.env or name not in used:
                continue
            if self.weights_as_inputs and self._is_weight(t):
                if name in model_missing_external(self.model):
                    # Shape and type only: the weight's .npy is written
                    # where its external data is (see docs/onnx-import.md).
                    v = ir.Value("%%arg%d" % len(self.args), tuple(t.dims),
                                 dtypes.from_onnx(t.data_type))
                    self.args.append(("weight", name, v, None))
                    self.env[name] = v
                    continue
                try:
                    c = self.tensor_to_const(t, "initializer")
                except NodeError as e:
                    raise ImportFailure(str(e))
                v = ir.Value("%%arg%d" % len(self.args), c.shape, c.dtype)
                self.args.append(("weight", name, v, c))
                self.env[name] = v
            else:
                self._pending[name] = t

    def _bind_dim_names(self):
        """Each dimension name is the size of its first occurrence among
        the inputs; every other occurrence is checked against it when the
        function is called."""
        first = {}
        for kind, onnx_name, v, _ in self.args:
            for axis, d in enumerate(v.shape):
                if not isinstance(d, Sym):
                    continue
                (name,) = d.names()
                if name not in first:
                    first[name] = (onnx_name, axis, self.em.bind_name(name, v, axis))
                    continue
                other, other_axis, bound = first[name]
                self.em.assert_equal(
                    self.em.arg_dim(v, axis), bound,
                    "input '%s' dimension %d and input '%s' dimension %d must be equal (both are "
                    "'%s')" % (onnx_name, axis, other, other_axis, name))

    def _is_unloaded_parameter(self, t):
        """An initializer whose data is in a missing external file and that
        would be a parameter (ir.is_parameter) by its type and size, assuming
        it is not a splat."""
        dt = dtypes.from_onnx(t.data_type)
        return (t.name in model_missing_external(self.model) and dt is not None and dt.is_float
                and int(np.prod(t.dims, dtype=np.int64)) * dt.bits // 8 >= ir.PARAMETER_MIN_BYTES)

    def parameters(self):
        """The external globals in the order of their declarations:
        ([(symbol name, Const)], [(symbol name, external data file)] of
        those whose data is in an external file not next to the model)."""
        missing = model_missing_external(self.model)
        return ([(g.symbol, g.const) for g in self.em.globals if g.const is not None],
                [(g.symbol, missing[g.source]) for g in self.em.globals if g.const is None])

    @staticmethod
    def _is_weight(t):
        """Initializers that --weights-as-inputs passes as arguments:
        floating-point ones with more than one element. Integer and bool
        initializers (shapes, axes, indices) and float scalars (epsilons,
        exponents, scales) stay constants, since the importer needs many of
        them at import time."""
        dt = dtypes.from_onnx(t.data_type)
        return dt is not None and dt.is_float and int(np.prod(t.dims, dtype=np.int64)) > 1

    # -- the walk --------------------------------------------------------

    def _describe(self, index, node):
        who = "node '%s'" % node.name if node.name else "node #%d" % index
        return "%s (op_type %s, domain %s)" % (who, node.op_type, _display_domain(node.domain))

    def _check_ops(self):
        errors, seen = [], set()
        for i, node in enumerate(self.graph.node):
            key = (_domain(node.domain), node.op_type)
            if key not in OPS and key not in seen:
                seen.add(key)
                errors.append("%s: not supported; supported: %s"
                              % (self._describe(i, node), supported_ops()))
        if errors:
            raise ImportFailure(errors)

    def _import_node(self, index, node):
        ctx = NodeContext(self, node)
        handler = OPS[(_domain(node.domain), node.op_type)]
        self.em.comment("%s" % self._describe(index, node))
        try:
            outs = handler(ctx)
        except (NodeError, SymbolicError) as e:
            raise ImportFailure("%s: %s" % (self._describe(index, node), e))
        except Exception as e:  # noqa: BLE001 - a bug here, reported with the node
            if os.environ.get("TESSEL_IMPORT_ONNX_TRACEBACK"):
                raise
            raise ImportFailure("%s: internal error in tessel-import-onnx (%s: %s); please report it"
                                % (self._describe(index, node), type(e).__name__, e))
        n = ctx.num_outputs()
        if len(outs) < n:
            raise ImportFailure("%s: output %d ('%s') is not supported"
                                % (self._describe(index, node), len(outs), node.output[len(outs)]))
        for name, v in zip(node.output, outs):
            if name:
                if isinstance(v, ir.Const) and v.name is None:
                    v.name = self._const_name(node, name)
                self.env[name] = v

    def _const_name(self, node, output):
        """The name of a Const that a node computes (its global's, should
        it become a parameter): a Constant's output name; for a folded node
        `INPUT.op_type`, INPUT the first of its inputs with a name; else
        None."""
        if node.op_type == "Constant":
            return output
        for i in node.input:
            x = self.env.get(i) if i else None
            if isinstance(x, ir.Const) and x.name is not None:
                return "%s.%s" % (x.name, node.op_type.lower())
        return None

    def _result(self, vi):
        try:
            x = self.lookup(vi.name)
        except NodeError as e:
            raise ImportFailure("graph output '%s': %s" % (vi.name, e))
        t = vi.type
        if t.WhichOneof("value") == "tensor_type":
            tt = t.tensor_type
            declared = dtypes.from_onnx(tt.elem_type) if tt.elem_type else x.dtype
            if declared is not x.dtype:
                raise ImportFailure("graph output '%s' is declared %s but computes %s"
                                    % (vi.name, dtypes.onnx_type_name(tt.elem_type),
                                       dtypes.onnx_type_name(x.dtype.onnx)))
            if tt.HasField("shape"):
                dims = [d.dim_value if d.WhichOneof("value") == "dim_value" else None
                        for d in tt.shape.dim]
                if len(dims) != len(x.shape) or any(
                        d is not None and is_static(s) and d != s for d, s in zip(dims, x.shape)):
                    raise ImportFailure("graph output '%s' is declared with shape %s but computes %s"
                                        % (vi.name, [d if d is not None else "?" for d in dims],
                                           shape_str(x.shape)))
                for i, (d, s) in enumerate(zip(dims, x.shape)):
                    if d is not None and not is_static(s):
                        self.em.check(s, "eq", d, "graph output '%s' dimension %d is declared %d "
                                      "but is %s" % (vi.name, i, d, s))
        return self.em.value(x)

    def run(self):
        self._check_ops()
        self._bind_arguments()
        for i, node in enumerate(self.graph.node):
            self._import_node(i, node)
        results = [self._result(vi) for vi in self.graph.output]
        return self._text(results), [(i, name, c) for i, (kind, name, v, c) in enumerate(self.args)
                                     if kind == "weight"]

    def _text(self, results):
        lines = ["// Imported by tessel-import-onnx from %s (%s, opsets %s)." % (
            self.source_name,
            ("producer %s %s" % (self.model.producer_name, self.model.producer_version)).strip()
            if self.model.producer_name else "no producer",
            ", ".join("%s %d" % (_display_domain(d), v) for d, v in sorted(self.opsets.items())))]
        lines.extend(g.declaration() for g in self.em.globals)
        for kind, name, v, _ in self.args:
            lines.append("// %s: %s '%s'" % (v.name, kind, name))
        for vi in self.graph.output:
            lines.append("// result: '%s'" % vi.name)
        sig = ", ".join("%s: %s" % (v.name, v.type) for _, _, v, _ in self.args)
        rtypes = ", ".join(r.type for r in results)
        lines.append("func.func @%s(%s) -> (%s) {" % (self.function, sig, rtypes))
        lines.extend(self.em.lines)
        lines.append("  return %s : %s" % (", ".join(r.name for r in results), rtypes))
        lines.append("}")
        return "\n".join(lines) + "\n"


def import_model(model, **kwargs):
    """(mlir_text, weights) for a loaded ModelProto; see Importer."""
    return Importer(model, **kwargs).run()
