"""LayerNorm over the last dim (129x769) written as generics."""
import numpy as np

FUNCTION = "layernorm"
# Normalised values are O(1)..O(4); mean/var are 769-term f32 sums with
# ~1e-6 relative error, amplified at most ~|x-mean|/std: 1e-4.
TOL = 1e-4


def inputs(rng):
    x = (rng.standard_normal((129, 769)) * 2.0 + 0.5).astype(np.float32)
    return [x, rng.uniform(0.5, 1.5, (769,)).astype(np.float32),
            rng.uniform(-0.5, 0.5, (769,)).astype(np.float32)]


def reference(x, gamma, beta):
    x = x.astype(np.float64)
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    y = (x - mean) / np.sqrt(var + np.float64(np.float32(1e-5)))
    return [(y * gamma.astype(np.float64) + beta.astype(np.float64)).astype(np.float32)]
