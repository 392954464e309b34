# Gelu: com.microsoft's (erf form) and the erf decomposition exported by
# torch (Div, Erf, Add, Mul, Mul), on a matmul result.
import numpy as np
from onnxtest import erf, f32, model, node

TOL = [2e-5, 2e-5]


def make(rng):
    x = f32(rng.standard_normal((3, 11, 20)))
    w = f32(rng.standard_normal((20, 13)) / 4)
    h = x.astype(np.float64) @ w.astype(np.float64)
    g = 0.5 * h * (1.0 + erf(h / np.sqrt(2.0)))
    nodes = [
        node("MatMul", ["x", "w"], ["h"]),
        node("Gelu", ["h"], ["ms"], domain="com.microsoft"),
        node("Div", ["h", "sqrt2"], ["d"]),
        node("Erf", ["d"], ["e"]),
        node("Add", ["e", "one"], ["e1"]),
        node("Mul", ["h", "e1"], ["m"]),
        node("Mul", ["m", "halfc"], ["torch"]),
    ]
    return model(nodes, inputs=[("x", x)], outputs=[("ms", f32(g)), ("torch", f32(g))],
                 initializers=[("w", w), ("sqrt2", f32(np.sqrt(2.0))), ("one", f32(1.0)),
                               ("halfc", f32(0.5))],
                 extra_opsets=[("com.microsoft", 1)])
