# Gemm with transA/transB, alpha, beta and C of shapes [N], [M,1], [M,N]
# and none. Constant operands are transposed at import time; with
# --weights-as-inputs they are read through linalg.matmul's indexing_maps.
import numpy as np
from onnxtest import f32, model, node

TOL = [1e-5] * 5  # K = 45, a few roundings in the epilogue


def make(rng):
    a = f32(rng.standard_normal((33, 45)))
    at = f32(rng.standard_normal((45, 33)))
    b = f32(rng.standard_normal((45, 29)))
    bt = f32(rng.standard_normal((29, 45)))
    cn = f32(rng.standard_normal((29,)))
    cm = f32(rng.standard_normal((33, 1)))
    cmn = f32(rng.standard_normal((33, 29)))
    A, AT, B, BT, CN, CM, CMN = (t.astype(np.float64) for t in (a, at, b, bt, cn, cm, cmn))
    nodes = [
        node("Gemm", ["a", "b", "cn"], ["y0"]),
        node("Gemm", ["a", "bt", "cm"], ["y1"], transB=1, alpha=0.5, beta=2.0),
        node("Gemm", ["at", "b", "cmn"], ["y2"], transA=1, beta=-1.0),
        node("Gemm", ["at", "bt"], ["y3"], transA=1, transB=1, alpha=1.5),
        node("Gemm", ["a", "x"], ["y4"], transB=1),  # both operands inputs
    ]
    x = f32(rng.standard_normal((29, 45)))
    X = x.astype(np.float64)
    outputs = [("y0", f32(A @ B + CN)), ("y1", f32(0.5 * (A @ BT.T) + 2.0 * CM)),
               ("y2", f32(AT.T @ B - CMN)), ("y3", f32(1.5 * (AT.T @ BT.T))), ("y4", f32(A @ X.T))]
    return model(nodes, inputs=[("a", a), ("at", at), ("x", x)], outputs=outputs,
                 initializers=[("b", b), ("bt", bt), ("cn", cn), ("cm", cm), ("cmn", cmn)])
