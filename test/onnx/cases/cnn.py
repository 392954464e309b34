# A tiny CNN: (Conv + BatchNormalization + Relu) -> MaxPool -> (Conv + BN +
# Relu) -> GlobalAveragePool -> Flatten -> Gemm (transB, bias), as a
# classifier is exported.
import numpy as np
from nchwref import conv2d, maxpool2d
from onnxtest import f32, model, node

TOL = [1e-4]  # two convolutions (K 27 and 72) and a Gemm (K 12) in f32


def bn_params(rng, c):
    return (f32(rng.uniform(0.5, 1.5, (c,))), f32(rng.standard_normal((c,)) * 0.1),
            f32(rng.standard_normal((c,)) * 0.1), f32(rng.uniform(0.5, 1.5, (c,))))


def make(rng):
    x = f32(rng.standard_normal((2, 3, 17, 19)))
    w1, b1 = f32(rng.standard_normal((8, 3, 3, 3)) / 3), f32(rng.standard_normal((8,)) * 0.1)
    w2, b2 = f32(rng.standard_normal((12, 8, 3, 3)) / 6), f32(rng.standard_normal((12,)) * 0.1)
    bn1, bn2 = bn_params(rng, 8), bn_params(rng, 12)
    fc, fcb = f32(rng.standard_normal((10, 12)) / 3), f32(rng.standard_normal((10,)))
    d = lambda a: a.astype(np.float64)  # noqa: E731

    def bn(y, p):
        s, b, m, v = (d(t).reshape(1, -1, 1, 1) for t in p)
        return (y - m) / np.sqrt(v + 1e-5) * s + b

    y = np.maximum(bn(conv2d(d(x), d(w1), d(b1), pads=(1, 1, 1, 1)), bn1), 0)
    y = maxpool2d(y, (2, 2), (2, 2))
    y = np.maximum(bn(conv2d(y, d(w2), d(b2)), bn2), 0)
    y = y.mean(axis=(2, 3))
    logits = y @ d(fc).T + d(fcb)
    names = ["s", "b", "m", "v"]
    nodes = [
        node("Conv", ["x", "w1", "b1"], ["c1"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        node("BatchNormalization", ["c1"] + ["bn1_" + n for n in names], ["n1"]),
        node("Relu", ["n1"], ["r1"]),
        node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
        node("Conv", ["p1", "w2", "b2"], ["c2"], kernel_shape=[3, 3]),
        node("BatchNormalization", ["c2"] + ["bn2_" + n for n in names], ["n2"]),
        node("Relu", ["n2"], ["r2"]),
        node("GlobalAveragePool", ["r2"], ["g"]),
        node("Flatten", ["g"], ["f"]),
        node("Gemm", ["f", "fc", "fcb"], ["logits"], transB=1),
    ]
    inits = [("w1", w1), ("b1", b1), ("w2", w2), ("b2", b2), ("fc", fc), ("fcb", fcb)]
    inits += [("bn1_" + n, t) for n, t in zip(names, bn1)] + [("bn2_" + n, t) for n, t in zip(names, bn2)]
    return model(nodes, inputs=[("x", x)], outputs=[("logits", f32(logits))], initializers=inits)
