# Element types other than f32: an f16 linear layer + LayerNormalization
# (f32 arithmetic inside), f64 Softmax and ReduceSum, bf16 reached through
# Cast (bf16 Mul and Tanh), int32 and int8 arithmetic (Div truncates toward
# zero).
import numpy as np
from onnxtest import f32, model, node

# f16 results: a few f16 ulps (~1e-3) over K = 24 and a normalization;
# f64: 1e-12; bf16 round trip: bf16 has 8 bits of mantissa (4e-3), twice
# rounded; ints exact.
TOL = [4e-3, 1e-12, 1e-12, 1.6e-2, 0, 0]


def bf16(x):
    """Rounds float64 to the nearest bf16 value (ties to even), as float64."""
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16).astype(np.uint32)).view(np.float32).astype(np.float64)


def make(rng):
    h = (rng.standard_normal((3, 5, 24))).astype(np.float16)
    w = (rng.standard_normal((24, 10)) / 5).astype(np.float16)
    g = rng.uniform(0.5, 1.5, (10,)).astype(np.float16)
    d = rng.standard_normal((4, 9))
    x = f32(rng.standard_normal((6, 7)))
    s = f32(rng.uniform(-2, 2, (7,)))
    i = rng.integers(-1000, 1000, (5, 6)).astype(np.int32)
    j = rng.integers(1, 20, (6,)).astype(np.int32) * np.where(rng.random(6) < 0.5, -1, 1).astype(np.int32)
    a8 = rng.integers(-60, 60, (4, 4)).astype(np.int8)
    b8 = rng.integers(-60, 60, (4, 4)).astype(np.int8)
    nodes = [
        node("MatMul", ["h", "w"], ["hw"]),
        node("LayerNormalization", ["hw", "g"], ["ln"]),
        node("Softmax", ["d"], ["sm"]),
        node("ReduceSum", ["d", "ax"], ["rs"], keepdims=0),
        node("Cast", ["x"], ["xb"], to=16),  # BFLOAT16
        node("Cast", ["s"], ["sb"], to=16),
        node("Mul", ["xb", "sb"], ["pb"]),
        node("Tanh", ["pb"], ["tb"]),
        node("Cast", ["tb"], ["t32"], to=1),
        node("Div", ["i", "j"], ["q"]),
        node("Add", ["a8", "b8"], ["s8"]),
    ]
    hw = h.astype(np.float64) @ w.astype(np.float64)
    m = hw.mean(axis=-1, keepdims=True)
    ln = (hw - m) / np.sqrt(((hw - m) ** 2).mean(axis=-1, keepdims=True) + 1e-5) * g.astype(np.float64)
    e = np.exp(d - d.max(axis=-1, keepdims=True))
    pb = bf16(bf16(x) * bf16(s))
    tb = bf16(np.tanh(pb))
    q = np.trunc(i.astype(np.float64) / j).astype(np.int32)
    outputs = [("ln", ln.astype(np.float16)), ("sm", e / e.sum(axis=-1, keepdims=True)),
               ("rs", d.sum(axis=0)), ("t32", f32(tb)), ("q", q), ("s8", (a8.astype(np.int16) + b8).astype(np.int8))]
    return model(nodes, inputs=[("h", h), ("d", d), ("x", x), ("s", s), ("i", i), ("j", j), ("a8", a8), ("b8", b8)],
                 outputs=outputs, initializers=[("w", w), ("g", g), ("ax", np.array([0], np.int64))], opset=17)
