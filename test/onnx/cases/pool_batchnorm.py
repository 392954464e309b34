# MaxPool (pads and strides; ceil_mode), GlobalAveragePool, GlobalMaxPool
# and inference BatchNormalization.
import numpy as np
from nchwref import maxpool2d
from onnxtest import f32, model, node

TOL = [0, 0, 1e-5, 0, 1e-5]


def make(rng):
    x = f32(rng.standard_normal((2, 5, 15, 12)))
    scale = f32(rng.uniform(0.5, 1.5, (5,)))
    bias = f32(rng.standard_normal((5,)))
    mean = f32(rng.standard_normal((5,)))
    var = f32(rng.uniform(0.2, 2.0, (5,)))
    X = x.astype(np.float64)
    nodes = [
        node("MaxPool", ["x"], ["p0"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
        node("MaxPool", ["x"], ["p1"], kernel_shape=[2, 3], strides=[2, 2], ceil_mode=1),
        node("GlobalAveragePool", ["x"], ["gap"]),
        node("GlobalMaxPool", ["x"], ["gmp"]),
        node("BatchNormalization", ["x", "scale", "bias", "mean", "var"], ["bn"], epsilon=1e-3),
    ]
    c = lambda a: a.astype(np.float64).reshape(1, -1, 1, 1)  # noqa: E731
    bn = (X - c(mean)) / np.sqrt(c(var) + 1e-3) * c(scale) + c(bias)
    outputs = [("p0", f32(maxpool2d(X, (3, 3), (2, 2), (1, 1, 1, 1)))),
               ("p1", f32(maxpool2d(X, (2, 3), (2, 2), ceil_mode=True))),
               ("gap", f32(X.mean(axis=(2, 3), keepdims=True))),
               ("gmp", x.max(axis=(2, 3), keepdims=True)),
               ("bn", f32(bn))]
    return model(nodes, inputs=[("x", x)], outputs=outputs,
                 initializers=[("scale", scale), ("bias", bias), ("mean", mean), ("var", var)])
