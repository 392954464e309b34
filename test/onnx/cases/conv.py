# Conv (NCHW, OIHW) with bias, pads, strides and dilations; auto_pad
# SAME_UPPER without bias; a 1x1 convolution.
import numpy as np
from nchwref import conv2d
from onnxtest import f32, model, node

TOL = [1e-5, 1e-5, 1e-5]  # K = C*KH*KW <= 7*3*3 = 63 in f32


def make(rng):
    x = f32(rng.standard_normal((2, 7, 13, 11)))
    w = f32(rng.standard_normal((5, 7, 3, 3)) / 4)
    b = f32(rng.standard_normal((5,)))
    w2 = f32(rng.standard_normal((6, 7, 2, 3)) / 4)
    w3 = f32(rng.standard_normal((9, 7, 1, 1)))
    X, W, B, W2, W3 = (t.astype(np.float64) for t in (x, w, b, w2, w3))
    nodes = [
        node("Conv", ["x", "w", "b"], ["y0"], pads=[1, 2, 0, 1], strides=[2, 1], dilations=[1, 2]),
        node("Conv", ["x", "w2"], ["y1"], auto_pad="SAME_UPPER", strides=[2, 2]),
        node("Conv", ["x", "w3"], ["y2"], kernel_shape=[1, 1]),
    ]
    # SAME_UPPER, stride 2: out = ceil(13/2) = 7, ceil(11/2) = 6; total pad
    # rows (7-1)*2+2-13 = 1 -> (0, 1), cols (6-1)*2+3-11 = 2 -> (1, 1).
    outputs = [("y0", f32(conv2d(X, W, B, strides=(2, 1), pads=(1, 2, 0, 1), dilations=(1, 2)))),
               ("y1", f32(conv2d(X, W2, strides=(2, 2), pads=(0, 1, 1, 1)))),
               ("y2", f32(conv2d(X, W3)))]
    return model(nodes, inputs=[("x", x)], outputs=outputs,
                 initializers=[("w", w), ("b", b), ("w2", w2), ("w3", w3)])
