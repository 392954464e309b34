# ReduceMean of opset 18 (axes as an input, a Constant node here) over the
# last axis with keepdims, and noop_with_empty_axes.
import numpy as np
from onnxtest import const_node, f32, model, node

TOL = [1e-5, 0]


def make(rng):
    x = f32(rng.standard_normal((5, 3, 41)))
    X = x.astype(np.float64)
    nodes = [const_node("axes", np.array([-1], np.int64)),
             node("ReduceMean", ["x", "axes"], ["m"]),
             node("ReduceMean", ["x"], ["same"], noop_with_empty_axes=1)]
    return model(nodes, inputs=[("x", x)],
                 outputs=[("m", f32(X.mean(axis=-1, keepdims=True))), ("same", x)], opset=18,
                 check=False)
