# MatMul in every numpy form: 2-D; a batched left operand with a 2-D weight
# (one collapsed linalg.matmul); batched on both sides with broadcasting
# batch dimensions (batch_matmul); 1-D operands on either side; a [1,K,N]
# right operand (one matrix); an f16 product (accumulated in f32).
import numpy as np
from onnxtest import f32, model, node

# f32 contractions with K up to 37: 1e-5 relative; f16 result: half an ulp
# of f16 (~5e-4) plus accumulation.
TOL = [1e-5, 1e-5, 1e-5, 1e-5, 1e-5, 1e-5, 2e-3]


def make(rng):
    a = f32(rng.standard_normal((13, 37)))
    w = f32(rng.standard_normal((37, 19)))
    x = f32(rng.standard_normal((2, 5, 37)))
    p = f32(rng.standard_normal((2, 1, 5, 7)))
    q = f32(rng.standard_normal((3, 7, 4)))
    v = f32(rng.standard_normal((37,)))
    u = f32(rng.standard_normal((1, 37, 6)))
    h = rng.standard_normal((9, 21)).astype(np.float16)
    hw = (rng.standard_normal((21, 10)) / 4).astype(np.float16)
    A, W, X, P, Q, V, U = (t.astype(np.float64) for t in (a, w, x, p, q, v, u))
    nodes = [
        node("MatMul", ["a", "w"], ["mm2d"]),
        node("MatMul", ["x", "w"], ["mm3d"]),
        node("MatMul", ["p", "q"], ["bmm"]),
        node("MatMul", ["v", "w"], ["vecmat"]),
        node("MatMul", ["a", "v"], ["matvec"]),
        node("MatMul", ["x", "u"], ["one"]),
        node("MatMul", ["h", "hw"], ["half"]),
    ]
    outputs = [("mm2d", f32(A @ W)), ("mm3d", f32(X @ W)), ("bmm", f32(P @ Q)),
               ("vecmat", f32(V @ W)), ("matvec", f32(A @ V)), ("one", f32(X @ U)),
               ("half", (h.astype(np.float64) @ hw.astype(np.float64)).astype(np.float16))]
    return model(nodes, inputs=[("a", a), ("x", x), ("p", p), ("v", v), ("h", h)],
                 outputs=outputs, initializers=[("w", w), ("q", q), ("u", u), ("hw", hw)])
