# Reshape (0 and -1, a regrouping that is one collapse or expand, and one
# that is neither), Transpose (default and explicit perm), Flatten (axis 0,
# 2, -1), Squeeze/Unsqueeze with axes as inputs (opset 13), Identity.
import numpy as np
from onnxtest import f32, model, node

TOL = [0] * 8 + [1e-6]  # data movement, then x*4 as three f32 additions (exact)


def make(rng):
    x = f32(rng.standard_normal((2, 3, 5, 7)))
    i64 = lambda v: np.array(v, np.int64)  # noqa: E731
    nodes = [
        node("Reshape", ["x", "s_collapse"], ["r1"]),   # [0, -1, 7] -> [2, 15, 7]
        node("Reshape", ["x", "s_expand"], ["r2"]),     # [2, 3, 5, 7, 1] with 0s
        node("Reshape", ["x", "s_odd"], ["r3"]),        # [6, 35]: one collapse
        node("Reshape", ["x", "s_mix"], ["r4"]),        # [10, 21]: neither
        node("Transpose", ["x"], ["t1"]),
        node("Transpose", ["r4"], ["t2"], perm=[1, 0]),
        node("Flatten", ["x"], ["f0"], axis=0),
        node("Flatten", ["x"], ["f2"], axis=2),
        node("Flatten", ["x"], ["fm1"], axis=-1),
        node("Unsqueeze", ["x", "ax_u"], ["u"]),        # [1, 2, 3, 5, 1, 7]
        node("Squeeze", ["u", "ax_s"], ["sq"]),
        node("Squeeze", ["u"], ["sq_all"]),
        node("Identity", ["sq"], ["id"]),
    ]
    outputs = [("r1", x.reshape(2, 15, 7)), ("r2", x.reshape(2, 3, 5, 7, 1)),
               ("r4", x.reshape(10, 21)), ("t1", x.transpose()), ("t2", x.reshape(10, 21).T),
               ("f0", x.reshape(1, -1)), ("f2", x.reshape(6, 35)), ("fm1", x.reshape(30, 7))]
    # r3, sq, sq_all and id are checked through their sum with x, which
    # adds an elementwise consumer behind each reshape.
    nodes += [node("Reshape", ["r3", "s_back"], ["r3b"]), node("Add", ["r3b", "sq"], ["s1"]),
              node("Add", ["s1", "sq_all"], ["s2"]), node("Add", ["s2", "id"], ["s3"])]
    outputs.append(("s3", f32(x.astype(np.float64) * 4)))
    return model(nodes, inputs=[("x", x)], outputs=outputs,
                 initializers=[("s_collapse", i64([0, -1, 7])), ("s_expand", i64([0, 0, 5, -1, 1])),
                               ("s_odd", i64([6, 35])), ("s_mix", i64([10, 21])),
                               ("s_back", i64([2, 3, 5, 7])), ("ax_u", i64([0, -2])),
                               ("ax_s", i64([0, 4]))], opset=13)
