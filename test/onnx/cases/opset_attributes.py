# Opset 11 passes axes and split sizes as attributes: Unsqueeze and
# Squeeze (axes, one negative), ReduceSum (axes, keepdims), Split (split).
# Slice and Clip attributes (older still) are in slice_opset9.
import numpy as np
from onnxtest import f32, model, node

TOL = [0, 1e-5, 0, 0]


def make(rng):
    x = f32(rng.standard_normal((3, 8, 5)))
    X = x.astype(np.float64)
    nodes = [
        node("Unsqueeze", ["x"], ["u"], axes=[1, -1]),        # [3, 1, 8, 5, 1]
        node("Squeeze", ["u"], ["s"], axes=[1]),              # [3, 8, 5, 1]
        node("ReduceSum", ["x"], ["r"], axes=[1], keepdims=1),
        node("Split", ["x"], ["p0", "p1"], axis=1, split=[3, 5]),
    ]
    return model(nodes, inputs=[("x", x)],
                 outputs=[("s", x.reshape(3, 8, 5, 1)), ("r", f32(X.sum(axis=1, keepdims=True))),
                          ("p0", x[:, :3]), ("p1", x[:, 3:])], opset=11)
