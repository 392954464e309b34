# What --parameters-file makes a parameter and how it names it (the
# harness's parameters mode checks the globals against the constants
# import, and their names against PARAMETERS): f32, f64 and f16
# initializers of at least 1024 bytes (one named so that its symbol is
# quoted, one read by two MatMuls: one global, one named like the function:
# main_1), a folded Transpose of an initializer (T.transpose), a folded Cast
# to bf16 (Wb.cast), a large Constant node, and BatchNormalization's
# multiplier and offset folded from 256 channels' parameters (no name:
# const_N); a large splat, a large int32 tensor and a small bias stay
# constants.
import numpy as np
from e2eutil import bf16_to_f64, f32_to_bf16
from onnxtest import const_node, f32, model, node

TOL = [1e-5] * 6 + [1e-12, 1e-3, 1.6e-2, 0, 1e-5]  # f32 (K = 24), f64, f16, bf16, int32, f32

PARAMETERS = ["enc/layer-0/W", "T.transpose", "main_1", "C", "D", "H", "Wb.cast", "const_0", "const_1"]


def bf16(x):
    """x rounded to bf16 (through f32), as float64."""
    return bf16_to_f64(f32_to_bf16(x))


def make(rng):
    x, x2 = f32(rng.standard_normal((3, 24))), f32(rng.standard_normal((3, 24)))
    w = f32(rng.standard_normal((24, 16)))
    b = f32(rng.standard_normal((16,)))
    t = f32(rng.standard_normal((16, 24)))
    m = f32(rng.standard_normal((24, 16)))
    c = f32(rng.standard_normal((24, 16)))
    splat = np.full((24, 16), 0.25, np.float32)
    d, dw = rng.standard_normal((16, 16)), rng.standard_normal((16, 16))
    h, hw = (rng.standard_normal((32, 24)).astype(np.float16) for _ in range(2))
    xq, wq = f32(rng.standard_normal((32, 32))), f32(rng.standard_normal((32, 32)))
    i = rng.integers(-1000, 1000, (300,)).astype(np.int32)
    iw = rng.integers(-1000, 1000, (300,)).astype(np.int32)
    z = f32(rng.standard_normal((2, 256, 2, 2)))
    scale, bias, mean = (f32(rng.standard_normal((256,))) for _ in range(3))
    var = f32(rng.uniform(0.5, 2, (256,)))
    nodes = [
        node("MatMul", ["x", "enc/layer-0/W"], ["xw"]),
        node("Add", ["xw", "b"], ["y0"]),
        node("MatMul", ["x2", "enc/layer-0/W"], ["y1"]),
        node("Transpose", ["T"], ["Tt"]),
        node("MatMul", ["x", "Tt"], ["y2"]),
        node("MatMul", ["x", "main"], ["y3"]),
        const_node("C", c),
        node("MatMul", ["x", "C"], ["y4"]),
        node("MatMul", ["x", "splat"], ["y5"]),
        node("Add", ["d", "D"], ["y6"]),
        node("Mul", ["h", "H"], ["y7"]),
        node("Cast", ["xq"], ["xb"], to=16),  # BFLOAT16
        node("Cast", ["Wb"], ["wb"], to=16),
        node("Mul", ["xb", "wb"], ["pb"]),
        node("Cast", ["pb"], ["y8"], to=1),
        node("Add", ["i", "I"], ["y9"]),
        node("BatchNormalization", ["z", "scale", "bias", "mean", "var"], ["y10"]),
    ]
    per_channel = lambda p: p.astype(np.float64).reshape(256, 1, 1)  # noqa: E731
    bn = (z - per_channel(mean)) / np.sqrt(per_channel(var) + 1e-5) * per_channel(scale) + per_channel(bias)
    X, X2 = x.astype(np.float64), x2.astype(np.float64)
    outputs = [("y0", f32(X @ w + b)), ("y1", f32(X2 @ w)), ("y2", f32(X @ t.T)), ("y3", f32(X @ m)),
               ("y4", f32(X @ c)), ("y5", f32(X @ splat)), ("y6", d + dw),
               ("y7", (h.astype(np.float64) * hw).astype(np.float16)),
               ("y8", f32(bf16(bf16(xq) * bf16(wq)))), ("y9", i + iw), ("y10", f32(bn))]
    return model(nodes, inputs=[("x", x), ("x2", x2), ("d", d), ("h", h), ("xq", xq), ("i", i), ("z", z)],
                 outputs=outputs,
                 initializers=[("enc/layer-0/W", w), ("b", b), ("T", t), ("main", m), ("splat", splat),
                               ("D", dw), ("H", hw), ("Wb", wq), ("I", iw), ("scale", scale),
                               ("bias", bias), ("mean", mean), ("var", var)])
