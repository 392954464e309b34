# Add/Sub/Mul/Div with numpy broadcasting: rank promotion, unit dimensions
# broadcast on either side, a scalar constant, a constant vector, int64.
import numpy as np
from onnxtest import f32, model, node

TOL = [1e-6, 1e-6, 1e-6, 1e-6, 0]  # one f32 rounding per op (Div of two f32: one)


def make(rng):
    a = f32(rng.standard_normal((3, 1, 5)))
    b = f32(rng.standard_normal((4, 1)))
    c = f32(rng.standard_normal((2, 3, 4, 5)))
    d = f32(rng.uniform(0.5, 2.0, (5,)))
    i = rng.integers(-50, 50, (3, 7)).astype(np.int64)
    bias = f32(rng.standard_normal((5,)))
    two = f32(2.5)
    A, B, C, D = (t.astype(np.float64) for t in (a, b, c, d))
    nodes = [
        node("Add", ["a", "b"], ["add"]),                      # [3,1,5] + [4,1] -> [3,4,5]
        node("Sub", ["c", "add"], ["sub"]),                    # [2,3,4,5] - [3,4,5]
        node("Mul", ["sub", "two"], ["mul"]),                  # scalar constant
        node("Div", ["mul", "d"], ["div"]),                    # per-column divisor
        node("Add", ["div", "bias"], ["y2"]),                  # constant vector
        node("Mul", ["a", "b"], ["y3"]),
        node("Sub", ["b", "a"], ["y4"]),
        node("Add", ["i", "i"], ["y5"]),
        node("Identity", ["sub"], ["y1"]),
    ]
    add = A + B
    sub = C - add
    y2 = (sub * 2.5) / D + bias
    return model(nodes,
                 inputs=[("a", a), ("b", b), ("c", c), ("d", d), ("i", i)],
                 outputs=[("y1", f32(sub)), ("y2", f32(y2)), ("y3", f32(A * B)),
                          ("y4", f32(B - A)), ("y5", i + i)],
                 initializers=[("two", two), ("bias", bias)])
