"""relu(matmul + bias): matmul 97x129x75, broadcast bias, relu generic."""
import numpy as np

FUNCTION = "mlp"
# f32 matmul with K=129: 1e-4 (see matmul_f32).
TOL = 1e-4


def inputs(rng):
    return [rng.uniform(-1, 1, (97, 129)).astype(np.float32),
            rng.uniform(-1, 1, (129, 75)).astype(np.float32),
            rng.uniform(-1, 1, (75,)).astype(np.float32)]


def reference(a, b, bias):
    r = a.astype(np.float64) @ b.astype(np.float64) + bias.astype(np.float64)[None, :]
    return [np.maximum(r, 0.0).astype(np.float32)]
