"""Helpers for the ONNX end-to-end cases (test/onnx/cases/*.py).

A case's `make(rng)` draws its weights and inputs, computes the expected
outputs with its own float64 numpy reference, and returns
`model(nodes, inputs, outputs, ...)`: the ONNX model built with onnx.helper
plus the inputs and expected outputs the runner compares against.
"""

import math

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

_ELEM = {
    np.dtype(np.float32): TensorProto.FLOAT,
    np.dtype(np.float64): TensorProto.DOUBLE,
    np.dtype(np.float16): TensorProto.FLOAT16,
    np.dtype(np.int64): TensorProto.INT64,
    np.dtype(np.int32): TensorProto.INT32,
    np.dtype(np.int8): TensorProto.INT8,
    np.dtype(np.bool_): TensorProto.BOOL,
}


class Model:
    """An ONNX model with its inputs, expected outputs and the extra
    arguments it needs from tessel-import-onnx (e.g. --dim). A model with
    dynamic dimensions may list more `calls` of the same module ([(inputs,
    expected)]) and `bad_calls` ([(inputs, text the error must contain)])."""

    def __init__(self, proto, inputs, expected, import_args, calls=(), bad_calls=()):
        self.proto = proto
        self.inputs = inputs
        self.expected = expected
        self.import_args = import_args
        self.calls = list(calls)
        self.bad_calls = list(bad_calls)


def elem(dtype):
    return _ELEM[np.dtype(dtype)]


def value_info(name, array_or_shape, dtype=None, dims=None):
    """A tensor value_info from an array (or a shape and dtype); `dims`
    replaces dimensions by names (None keeps the size)."""
    if isinstance(array_or_shape, np.ndarray):
        shape, dtype = array_or_shape.shape, array_or_shape.dtype
    else:
        shape = array_or_shape
    shape = list(shape)
    if dims is not None:
        shape = [d if n is None else n for d, n in zip(shape, dims)]
    return helper.make_tensor_value_info(name, elem(dtype), shape)


def model(nodes, inputs, outputs, initializers=(), opset=17, extra_opsets=(), input_dims=None,
          dims=None, check=True, calls=(), bad_calls=()):
    """nodes: onnx NodeProtos; inputs/outputs/initializers: [(name,
    array)] (outputs: the expected arrays); input_dims: {input or output
    name: [dim name or None per dimension]} for dynamic dimensions, which
    `dims` ({name: size}) pins through --dim; calls, bad_calls: see
    Model."""
    input_dims = input_dims or {}
    graph = helper.make_graph(
        nodes, "test",
        [value_info(n, a, dims=input_dims.get(n)) for n, a in inputs],
        [value_info(n, a, dims=input_dims.get(n)) for n, a in outputs],
        [numpy_helper.from_array(np.asarray(a), n) for n, a in initializers])
    opsets = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, v) for d, v in extra_opsets]
    proto = helper.make_model(graph, opset_imports=opsets, producer_name="tessel-onnx-tests")
    proto.ir_version = 8
    if check:
        onnx.checker.check_model(proto)
    args = ["--dim=%s=%d" % (k, v) for k, v in sorted((dims or {}).items())]
    return Model(proto, [a for _, a in inputs], [a for _, a in outputs], args, calls, bad_calls)


def node(op_type, inputs, outputs, **attrs):
    return helper.make_node(op_type, inputs, outputs, **attrs)


def const_node(name, array):
    """A Constant node producing `array` as `name`."""
    return helper.make_node("Constant", [], [name], value=numpy_helper.from_array(np.asarray(array), name))


def f32(x):
    return np.asarray(x, dtype=np.float32)


def erf(x):
    """erf elementwise in float64 (numpy has none)."""
    return np.vectorize(math.erf, otypes=[np.float64])(np.asarray(x, dtype=np.float64))
