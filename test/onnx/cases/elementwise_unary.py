# Unary ops, each on its own output: Relu, Neg, Abs, Tanh, Erf, Sqrt, Exp,
# Log, Sin, Cos, Floor, Ceil, Reciprocal, Sigmoid.
import numpy as np
from onnxtest import erf, f32, model, node

OPS = {
    "Relu": lambda x: np.maximum(x, 0.0),
    "Neg": lambda x: -x,
    "Abs": np.abs,
    "Tanh": np.tanh,
    "Erf": erf,
    "Sqrt": lambda x: np.sqrt(np.abs(x)),
    "Exp": np.exp,
    "Log": lambda x: np.log(np.abs(x)),
    "Sin": np.sin,
    "Cos": np.cos,
    "Floor": np.floor,
    "Ceil": np.ceil,
    "Reciprocal": lambda x: 1.0 / x,
    "Sigmoid": lambda x: 1.0 / (1.0 + np.exp(-x)),
}
# Transcendentals are polynomial approximations in f32: 1e-5 relative
# (scaled by 1+|exp|); exact ops pass with the same bound.
TOL = [2e-5] * len(OPS)


def make(rng):
    x = f32(rng.uniform(-3.0, 3.0, (3, 5, 7)))
    x = np.where(np.abs(x) < 0.05, f32(0.5), x)  # keep Log, Reciprocal away from 0
    X = x.astype(np.float64)
    nodes, outputs = [node("Abs", ["x"], ["absx"])], []
    for op, ref in OPS.items():
        src = "absx" if op in ("Sqrt", "Log") else "x"
        nodes.append(node(op, [src], [op.lower()]))
        outputs.append((op.lower(), f32(ref(X))))
    return model(nodes, inputs=[("x", x)], outputs=outputs)
