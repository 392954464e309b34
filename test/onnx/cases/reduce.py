# ReduceMean (axes attribute, keepdims 0 and 1), ReduceSum (axes input,
# opset 13+), ReduceMax, ReduceMin, ReduceProd, and a reduction over all
# axes.
import numpy as np
from onnxtest import f32, model, node

TOL = [1e-5, 1e-5, 1e-5, 0, 0, 1e-5, 1e-5]


def make(rng):
    x = f32(rng.standard_normal((4, 7, 13)))
    p = f32(rng.uniform(0.8, 1.2, (3, 9)))
    X, P = x.astype(np.float64), p.astype(np.float64)
    nodes = [
        node("ReduceMean", ["x"], ["mean_last"], axes=[-1]),
        node("ReduceMean", ["x"], ["mean_01"], axes=[0, 1], keepdims=0),
        node("ReduceSum", ["x", "ax1"], ["sum_mid"], keepdims=0),
        node("ReduceMax", ["x"], ["max_last"], axes=[2], keepdims=0),
        node("ReduceMin", ["x"], ["min_first"], axes=[0]),
        node("ReduceProd", ["p"], ["prod"], axes=[1]),
        node("ReduceSum", ["x"], ["sum_all"], keepdims=0),
    ]
    outputs = [("mean_last", f32(X.mean(axis=-1, keepdims=True))),
               ("mean_01", f32(X.mean(axis=(0, 1)))),
               ("sum_mid", f32(X.sum(axis=1))),
               ("max_last", x.max(axis=2)),
               ("min_first", x.min(axis=0, keepdims=True)),
               ("prod", f32(P.prod(axis=1, keepdims=True))),
               ("sum_all", f32(X.sum()))]
    return model(nodes, inputs=[("x", x), ("p", p)], outputs=outputs,
                 initializers=[("ax1", np.array([1], np.int64))], opset=13)
