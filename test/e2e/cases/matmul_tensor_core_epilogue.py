"""Tensor-core matmuls with fused epilogues (see the .mlir)."""
import numpy as np

from e2eutil import bf16_to_f64, to_bf16


def _h(rng, *shape):
    return rng.uniform(-1, 1, shape).astype(np.float16)


def _bf(rng, *shape):
    return to_bf16(rng.uniform(-1, 1, shape))


def _gelu(y):
    return 0.5 * y * (1 + np.tanh(0.7978845608 * (y + 0.044715 * y ** 3)))


def ref_linear(x, w, bias):
    y = x.astype(np.float64) @ w.astype(np.float64).T + bias
    return [_gelu(y).astype(np.float16)]


def ref_residual(a, b, bias, res):
    y = bf16_to_f64(a) @ bf16_to_f64(b) + bf16_to_f64(bias)
    return [(np.maximum(y, 0) * 0.125 + res).astype(np.float32)]


def ref_bf16(a, b):
    return [to_bf16(bf16_to_f64(a) @ bf16_to_f64(b))]


ENTRIES = [
    # One f16 rounding of the result (2^-11 relative) after an f32
    # accumulation of 200 terms and a tanh approximation: 2e-3.
    ("linear_gelu_f16",
     lambda r: [_h(r, 133, 200), _h(r, 72, 200),
                r.uniform(-1, 1, 72).astype(np.float32)],
     ref_linear, 2e-3),
    # f32 accumulation of 160 exact bf16 products, f32 epilogue: 1e-4.
    ("bias_relu_residual_bf16",
     lambda r: [_bf(r, 96, 160), _bf(r, 160, 136), _bf(r, 136),
                r.uniform(-1, 1, (96, 136)).astype(np.float32)],
     ref_residual, 1e-4),
    # A bf16 result: the GPU accumulates in f32 and rounds once; the CPU
    # rounds every add to bf16 (40 terms, 2^-8 each, of the partial sums'
    # magnitude): 6e-2.
    ("bf16_result", lambda r: [_bf(r, 65, 40), _bf(r, 40, 33)], ref_bf16,
     6e-2),
]
