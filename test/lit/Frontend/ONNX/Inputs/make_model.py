"""Writes a small ONNX model for the tessel-import-onnx lit tests.

  make_model.py KIND OUT.onnx

Weights are drawn from a fixed seed, so the output is the same every run.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.default_rng(12)


def f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def graph_model(nodes, inputs, outputs, inits=(), opset=17, extra=()):
    g = helper.make_graph(nodes, "lit", inputs, outputs, list(inits))
    opsets = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, v) for d, v in extra]
    m = helper.make_model(g, opset_imports=opsets, producer_name="make_model.py")
    m.ir_version = 8
    return m


F = TensorProto.FLOAT
I64 = TensorProto.INT64
N = helper.make_node


def linear():
    """x[batch, 5, 7] @ W[7, 9] + b, Relu: the linear-layer form (a
    batch-dimension named 'batch')."""
    return graph_model(
        [N("MatMul", ["x", "W"], ["mm"], name="mm"), N("Add", ["mm", "b"], ["a"], name="bias"),
         N("Relu", ["a"], ["y"], name="relu")],
        [vi("x", F, ["batch", 5, 7])], [vi("y", F, ["batch", 5, 9])],
        [init("W", f32(7, 9)), init("b", f32(9)), init("unused", f32(3))])


def broadcast():
    """Add of [3,1,5] and [4,1], Mul by a scalar initializer, Sub of an int64
    constant vector."""
    return graph_model(
        [N("Add", ["a", "b"], ["s"]), N("Mul", ["s", "two"], ["y"]), N("Sub", ["i", "c"], ["z"])],
        [vi("a", F, [3, 1, 5]), vi("b", F, [4, 1]), vi("i", I64, [2, 3])],
        [vi("y", F, [3, 4, 5]), vi("z", I64, [2, 3])],
        [init("two", np.float32(2.0)), init("c", np.array([1, -2, 3], np.int64))])


def layernorm():
    return graph_model(
        [N("LayerNormalization", ["x", "g", "b"], ["y"], axis=-1, epsilon=1e-5)],
        [vi("x", F, [2, 3, 11])], [vi("y", F, [2, 3, 11])], [init("g", f32(11)), init("b", f32(11))])


def gather():
    """Embedding lookup (dynamic ids) and a gather with constant indices."""
    return graph_model(
        [N("Gather", ["table", "ids"], ["emb"]), N("Gather", ["x", "idx"], ["g"], axis=1)],
        [vi("ids", I64, [2, 3]), vi("x", F, [4, 6])],
        [vi("emb", F, [2, 3, 8]), vi("g", F, [4, 2])],
        [init("table", f32(10, 8)), init("idx", np.array([-1, 2], np.int64))])


def shape_chain():
    """Shape/Gather/Unsqueeze/Concat computing a Reshape target, as
    torch.onnx.export writes view(b, s, 2, -1)."""
    return graph_model(
        [N("Shape", ["x"], ["sh"]),
         N("Gather", ["sh", "zero"], ["b"]), N("Gather", ["sh", "one"], ["s"]),
         N("Unsqueeze", ["b", "ax"], ["bu"]), N("Unsqueeze", ["s", "ax"], ["su"]),
         N("Concat", ["bu", "su", "two", "m1"], ["target"], axis=0),
         N("Reshape", ["x", "target"], ["y"])],
        [vi("x", F, [2, 3, 8])], [vi("y", F, [2, 3, 2, 4])],
        [init("zero", np.array(0, np.int64)), init("one", np.array(1, np.int64)),
         init("ax", np.array([0], np.int64)), init("two", np.array([2], np.int64)),
         init("m1", np.array([-1], np.int64))])


def gemm():
    """Gemm with transB=1, alpha and C."""
    return graph_model(
        [N("Gemm", ["a", "w", "c"], ["y"], transB=1, alpha=0.5)],
        [vi("a", F, [3, 4])], [vi("y", F, [3, 5])], [init("w", f32(5, 4)), init("c", f32(5))])


def conv():
    return graph_model(
        [N("Conv", ["x", "w", "b"], ["y"], pads=[1, 1, 1, 1], strides=[2, 2])],
        [vi("x", F, [1, 3, 8, 8])], [vi("y", F, [1, 4, 4, 4])], [init("w", f32(4, 3, 3, 3)), init("b", f32(4))])


def softmax():
    return graph_model([N("Softmax", ["x"], ["y"], axis=1)], [vi("x", F, [2, 5, 3])], [vi("y", F, [2, 5, 3])],
                       opset=13)


def unsupported():
    """Two ops the importer does not take (one in a custom domain)."""
    return graph_model(
        [N("Relu", ["x"], ["r"], name="ok"), N("Det", ["r"], ["d"], name="det_1"),
         N("Frobnicate", ["d"], ["y"], name="frob", domain="com.example")],
        [vi("x", F, [3, 3])], [vi("y", F, [])], extra=[("com.example", 1)])


def dynamic():
    """Dynamic dimensions: a named one (batch), and an unnamed one."""
    return graph_model([N("Relu", ["x"], ["y"])], [vi("x", F, ["batch", 4, None])],
                       [vi("y", F, ["batch", 4, None])])


def dynamic_chain():
    """x[batch, seq, 8] and mask[batch, seq] with symbolic dimensions: a
    view(b, s, 2, -1) through Shape/Gather/Unsqueeze/Concat, positions
    sliced from a constant table by seq (Slice) and added, arange(seq)
    (Range), and the mask as float."""
    return graph_model(
        [N("Shape", ["x"], ["sh"]),
         N("Gather", ["sh", "zero"], ["b"]), N("Gather", ["sh", "one"], ["s"]),
         N("Unsqueeze", ["b", "ax"], ["bu"]), N("Unsqueeze", ["s", "ax"], ["su"]),
         N("Concat", ["bu", "su", "two", "m1"], ["target"], axis=0),
         N("Reshape", ["x", "target"], ["heads"]),
         N("Slice", ["table", "ax", "su", "one_1d"], ["pos"]),
         N("Add", ["x", "pos"], ["xp"]),
         N("Range", ["zero", "s", "one"], ["r"]),
         N("Cast", ["mask"], ["mf"], to=F)],
        [vi("x", F, ["batch", "seq", 8]), vi("mask", I64, ["batch", "seq"])],
        [vi("heads", F, ["batch", "seq", 2, 4]), vi("xp", F, ["batch", "seq", 8]),
         vi("r", I64, ["seq"]), vi("mf", F, ["batch", "seq"])],
        [init("zero", np.array(0, np.int64)), init("one", np.array(1, np.int64)),
         init("ax", np.array([0], np.int64)), init("one_1d", np.array([1], np.int64)),
         init("two", np.array([2], np.int64)), init("m1", np.array([-1], np.int64)),
         init("table", f32(1, 16, 8))])


def dynamic_broadcast():
    """x[batch, 4] + c[3, 4]: a symbolic size against a static one."""
    return graph_model([N("Add", ["x", "c"], ["y"], name="add")], [vi("x", F, ["batch", 4])],
                       [vi("y", F, ["batch", 4])], [init("c", f32(3, 4))])


def uint8_input():
    return graph_model([N("Identity", ["x"], ["y"])], [vi("x", TensorProto.UINT8, [4])],
                       [vi("y", TensorProto.UINT8, [4])])


def missing_value():
    """A node reading a value nothing defines (opset 18: the onnx package of
    Debian 12 does not check it, the importer does)."""
    return graph_model([N("Add", ["x", "nowhere"], ["y"], name="add")], [vi("x", F, [4])],
                       [vi("y", F, [4])], opset=18)


def nonconst_shape():
    """Reshape whose target is a graph input."""
    return graph_model([N("Reshape", ["x", "shape"], ["y"], name="r")],
                       [vi("x", F, [4, 6]), vi("shape", I64, [2])], [vi("y", F, [6, 4])])


KINDS = {f.__name__: f for f in (linear, broadcast, layernorm, gather, shape_chain, gemm, conv, softmax,
                                 unsupported, dynamic, dynamic_chain, dynamic_broadcast, uint8_input,
                                 missing_value, nonconst_shape)}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in KINDS:
        sys.exit("usage: make_model.py {%s} OUT.onnx" % ",".join(KINDS))
    onnx.save(KINDS[sys.argv[1]](), sys.argv[2])


if __name__ == "__main__":
    main()
