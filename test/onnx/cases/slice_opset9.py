# Opset 9: Slice bounds as attributes (clamped ends), and Clip with min and
# max as attributes (opset 6-10).
import numpy as np
from onnxtest import f32, model, node

TOL = [0, 0]


def make(rng):
    x = f32(rng.standard_normal((6, 10)) * 3)
    nodes = [node("Slice", ["x"], ["s"], starts=[1, -4], ends=[1000, -1], axes=[0, 1]),
             node("Clip", ["x"], ["c"], min=-1.0, max=2.0)]
    return model(nodes, inputs=[("x", x)], outputs=[("s", x[1:, -4:-1]), ("c", np.clip(x, -1.0, 2.0))],
                 opset=9)
