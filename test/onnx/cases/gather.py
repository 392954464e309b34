# Gather: embedding rows of a constant table by an int64 index tensor
# (negative indices count from the end), axis 1 of an input with constant
# indices (two of them negative), a scalar index, and int32 indices into an
# input table.
import numpy as np
from onnxtest import f32, model, node

TOL = [0, 0, 0, 0]


def make(rng):
    table = f32(rng.standard_normal((101, 37)))
    ids = rng.integers(-101, 101, (3, 11)).astype(np.int64)
    x = f32(rng.standard_normal((4, 9, 5)))
    cols = np.array([[8, -1], [0, -9], [3, 3]], np.int64)
    rows = rng.integers(0, 4, (6,)).astype(np.int32)
    nodes = [
        node("Gather", ["table", "ids"], ["emb"]),
        node("Gather", ["x", "cols"], ["g1"], axis=1),
        node("Gather", ["x", "two"], ["g2"], axis=-1),
        node("Gather", ["x", "rows"], ["g3"]),
    ]
    outputs = [("emb", table[np.where(ids < 0, ids + 101, ids)]),
               ("g1", x[:, np.where(cols < 0, cols + 9, cols), :]),
               ("g2", x[:, :, 2]), ("g3", x[rows])]
    return model(nodes, inputs=[("ids", ids), ("x", x), ("rows", rows)], outputs=outputs,
                 initializers=[("table", table), ("cols", cols), ("two", np.array(2, np.int64))])
