"""Row chains over a dynamic number of rows: each function is called at
odd row counts, one row, a count that leaves a block of 8 warps partly
empty, and zero rows."""
import numpy as np


def f64(x):
    return x.astype(np.float64)


def layernorm(x, gamma, beta):
    x = f64(x)
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * f64(gamma) + f64(beta)


def layernorm_inputs(shape, dtype):
    def make(rng):
        width = shape[-1]
        return [rng.standard_normal(shape).astype(dtype),
                rng.uniform(0.5, 1.5, width).astype(np.float32),
                rng.standard_normal(width).astype(np.float32)]
    return make


def softmax(x):
    x = f64(x)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)


def normal(*shape):
    return lambda rng: [(3 * rng.standard_normal(shape)).astype(np.float32)]


ENTRIES = (
    [("layernorm_f32", layernorm_inputs((m, 769), np.float32),
      lambda x, g, b: [layernorm(x, g, b).astype(np.float32)], 1e-4)
     for m in [1, 7, 130, 0]] +
    # One f16 rounding of the result.
    [("layernorm_f16", layernorm_inputs((b, s, 1536), np.float16),
      lambda x, g, b: [layernorm(x, g, b).astype(np.float16)], 4e-3)
     for b, s in [(1, 1), (3, 37), (2, 0)]] +
    [("softmax_256", normal(m, 256), lambda x: [softmax(x)], 1e-5)
     for m in [1, 9, 1001, 0]] +
    [("softmax_heads", normal(m, 4, 2500), lambda x: [softmax(x)], 1e-5)
     for m in [1, 3, 0]]
)
