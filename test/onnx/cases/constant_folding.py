# Shape computations the way torch.onnx.export writes them, all folded at
# import time: Shape -> Gather -> Unsqueeze -> Concat feeding Reshape, a
# Div of shape values, Shape with start/end, ConstantOfShape, Range, Cast,
# Equal/Where feeding Expand, Constant nodes with value_float/value_ints,
# and Size.
import numpy as np
from onnxtest import const_node, f32, model, node
from onnx import helper

TOL = [0, 1e-6, 0, 0, 0]


def make(rng):
    x = f32(rng.standard_normal((2, 9, 12)))
    v = f32(rng.standard_normal((1, 12)))
    i64 = lambda a: np.array(a, np.int64)  # noqa: E731
    nodes = [
        node("Shape", ["x"], ["shape"]),
        const_node("zero", i64(0)), const_node("one", i64(1)), const_node("heads", i64([3])),
        const_node("minus1", i64([-1])), const_node("three", i64(3)),
        node("Gather", ["shape", "zero"], ["b"]),
        node("Gather", ["shape", "one"], ["s"]),
        node("Unsqueeze", ["b", "axes0"], ["bu"]),
        node("Unsqueeze", ["s", "axes0"], ["su"]),
        node("Shape", ["x"], ["hidden"], start=-1),
        node("Div", ["hidden", "three"], ["dh"]),
        node("Concat", ["bu", "su", "heads", "dh"], ["newshape"], axis=0),
        node("Reshape", ["x", "newshape"], ["heads4"]),      # [2, 9, 3, 4]
        # Expand(v, where(shape == -1, 1, shape)) with shape = [2, 9, 12] - as torch writes it
        node("ConstantOfShape", ["three_i"], ["ones"], value=helper.make_tensor("v", 7, [1], [1])),
        node("Mul", ["ones", "minus1"], ["neg"]),
        node("Equal", ["shape", "neg"], ["is_neg"]),
        node("Where", ["is_neg", "ones", "shape"], ["target"]),
        node("Expand", ["v", "target"], ["vx"]),
        node("Add", ["vx", "x"], ["sum"]),
        # Range + Cast: positions 0..8 as float, scaled by a value_float Constant
        node("Range", ["zero", "s", "one"], ["pos"]),
        node("Cast", ["pos"], ["posf"], to=1),
        helper.make_node("Constant", [], ["scale"], value_float=0.5),
        node("Mul", ["posf", "scale"], ["pos_half"]),
        helper.make_node("Constant", [], ["perm_shape"], value_ints=[9, 2, 12]),
        node("Reshape", ["x", "perm_shape"], ["r2"]),
        node("Size", ["x"], ["size"]),
    ]
    outputs = [("heads4", x.reshape(2, 9, 3, 4)),
               ("sum", f32(x.astype(np.float64) + v)),
               ("pos_half", f32(np.arange(9) * 0.5)),
               ("r2", x.reshape(9, 2, 12)),
               ("size", i64(x.size))]
    return model(nodes, inputs=[("x", x), ("v", v)], outputs=outputs,
                 initializers=[("axes0", i64([0])), ("three_i", i64([3]))], opset=15)
