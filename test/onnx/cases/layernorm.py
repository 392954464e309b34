# LayerNormalization (opset 17) over the last axis with scale and bias,
# over the last two axes, and without bias; the normalized axis has 773
# elements (odd).
import numpy as np
from onnxtest import f32, model, node

TOL = [1e-5, 1e-5, 1e-5]  # sums over <= 773 elements and a rsqrt in f32


def layernorm(x, axis, scale, bias, eps):
    axes = tuple(range(axis % x.ndim, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    y = (x - mean) / np.sqrt(var + eps) * scale
    return y + bias if bias is not None else y


def make(rng):
    x = f32(rng.standard_normal((3, 5, 773)) * 2 + 1)
    g = f32(rng.standard_normal((773,)))
    b = f32(rng.standard_normal((773,)))
    g2 = f32(rng.standard_normal((5, 773)))
    X, G, B, G2 = (t.astype(np.float64) for t in (x, g, b, g2))
    nodes = [
        node("LayerNormalization", ["x", "g", "b"], ["y0"], axis=-1, epsilon=1e-5),
        node("LayerNormalization", ["x", "g2"], ["y1"], axis=1, epsilon=1e-3),
        node("LayerNormalization", ["x", "g"], ["y2"]),
    ]
    return model(nodes, inputs=[("x", x)],
                 outputs=[("y0", f32(layernorm(X, -1, G, B, 1e-5))),
                          ("y1", f32(layernorm(X, 1, G2, None, 1e-3))),
                          ("y2", f32(layernorm(X, -1, G, None, 1e-5)))],
                 initializers=[("g", g), ("b", b), ("g2", g2)])
