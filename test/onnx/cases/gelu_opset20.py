# Gelu of opset 20 (newer than the onnx package checks): approximate
# "none" (erf) and "tanh".
import numpy as np
from onnxtest import erf, f32, model, node

TOL = [2e-5, 2e-5]


def make(rng):
    x = f32(rng.uniform(-5.0, 5.0, (7, 33)))
    X = x.astype(np.float64)
    exact = 0.5 * X * (1.0 + erf(X / np.sqrt(2.0)))
    tanh = 0.5 * X * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (X + 0.044715 * X ** 3)))
    nodes = [node("Gelu", ["x"], ["exact"]), node("Gelu", ["x"], ["tanh"], approximate="tanh")]
    return model(nodes, inputs=[("x", x)], outputs=[("exact", f32(exact)), ("tanh", f32(tanh))],
                 opset=20, check=False)
