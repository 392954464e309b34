# Softmax before opset 13: the input seen as 2-D at `axis`, normalized over
# all dimensions from `axis` on.
import numpy as np
from onnxtest import f32, model, node

TOL = [1e-5, 1e-5]


def softmax_2d(x, axis):
    flat = x.reshape(int(np.prod(x.shape[:axis])), -1)
    e = np.exp(flat - flat.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).reshape(x.shape)


def make(rng):
    x = f32(rng.standard_normal((2, 3, 5, 7)) * 2)
    X = x.astype(np.float64)
    nodes = [node("Softmax", ["x"], ["y1"]), node("Softmax", ["x"], ["y2"], axis=2)]
    return model(nodes, inputs=[("x", x)],
                 outputs=[("y1", f32(softmax_2d(X, 1))), ("y2", f32(softmax_2d(X, 2)))], opset=11)
