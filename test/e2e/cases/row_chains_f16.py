"""Softmax over f16/bf16 rows computed in f32 (see the .mlir), against
float64 numpy on the same 16-bit inputs."""
import numpy as np
import e2eutil


def softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def f16(r, shape):
    return (r.standard_normal(shape) * 3).astype(np.float16)


def bf16_input(r):
    return [e2eutil.to_bf16(r.standard_normal((9, 2048)) * 3)]


# f32 max/exp/sum (polynomial exp) and one rounding of the result to f16
# (2^-11 relative): 2e-3; to bf16 (2^-8): 1e-2.
ENTRIES = [
    ("softmax_f16", lambda r: [f16(r, (37, 128))],
     lambda x: [softmax(x.astype(np.float64)).astype(np.float16)], 2e-3),
    ("softmax_f16_odd", lambda r: [f16(r, (23, 100))],
     lambda x: [softmax(x.astype(np.float64)).astype(np.float16)], 2e-3),
    ("softmax_bf16_long", bf16_input,
     lambda x: [e2eutil.to_bf16(softmax(e2eutil.bf16_to_f64(x)))], 1e-2),
]
