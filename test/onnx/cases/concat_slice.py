# Concat (with a constant operand), Slice with negative, clamped and
# omitted values and steps 2 and 3, and Split (sizes as input, and
# equal parts).
import numpy as np
from onnxtest import f32, model, node

TOL = [0] * 7


def make(rng):
    x = f32(rng.standard_normal((5, 12, 9)))
    y = f32(rng.standard_normal((5, 3, 9)))
    c = f32(rng.standard_normal((5, 2, 9)))
    i64 = lambda v: np.array(v, np.int64)  # noqa: E731
    nodes = [
        node("Concat", ["x", "y", "c"], ["cat"], axis=1),
        node("Slice", ["x", "st1", "en1", "ax1"], ["s1"]),
        node("Slice", ["x", "st2", "en2", "ax2", "sp2"], ["s2"]),
        node("Slice", ["x", "st4", "en4"], ["s4"]),
        node("Split", ["x", "sizes"], ["p0", "p1"], axis=1),
        node("Split", ["y"], ["q0", "q1", "q2"], axis=1),
    ]
    outputs = [("cat", np.concatenate([x, y, c], axis=1)),
               ("s1", x[:, -5:100]),
               ("s2", x[1:-1, ::2, 1:9:3]),
               ("s4", x[-100:3, 2:-2]),
               ("p0", x[:, :5]), ("p1", x[:, 5:])]
    # Split into equal parts is checked through their concatenation.
    nodes.append(node("Concat", ["q2", "q0", "q1"], ["qs"], axis=1))
    outputs.append(("qs", np.concatenate([y[:, 2:], y[:, :1], y[:, 1:2]], axis=1)))
    return model(nodes, inputs=[("x", x), ("y", y)], outputs=outputs,
                 initializers=[("c", c), ("st1", i64([-5])), ("en1", i64([100])), ("ax1", i64([1])),
                               ("st2", i64([1, 0, 1])), ("en2", i64([-1, 2**62, 9])),
                               ("ax2", i64([0, 1, -1])), ("sp2", i64([1, 2, 3])),
                               ("st4", i64([-100, 2])), ("en4", i64([3, -2])),
                               ("sizes", i64([5, 7]))], opset=13)
