# Softmax along the last, a middle and the first axis (opset 13).
import numpy as np
from onnxtest import f32, model, node

TOL = [1e-5] * 3  # exp + a short sum in f32


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def make(rng):
    x = f32(rng.standard_normal((3, 17, 29)) * 3)
    X = x.astype(np.float64)
    nodes = [node("Softmax", ["x"], ["last"]), node("Softmax", ["x"], ["mid"], axis=1),
             node("Softmax", ["x"], ["first"], axis=-3)]
    return model(nodes, inputs=[("x", x)],
                 outputs=[("last", f32(softmax(X, 2))), ("mid", f32(softmax(X, 1))),
                          ("first", f32(softmax(X, 0)))], opset=13)
