"""Chains of row ops (softmax, layernorm with two row dims, a scaled
log-sum-exp) that cuda-only modules run as one fused kernel each, plus a
softmax whose rows are too long to fuse."""
import numpy as np


def softmax(x):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)


def layernorm(x, g, b):
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=-1, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=-1, keepdims=True)
    y = (x64 - mean) / np.sqrt(var + 1e-5) * g + b
    return [y.astype(np.float32), mean[..., 0].astype(np.float32)]


def lse(x, w):
    v = x.astype(np.float64) * w.astype(np.float64)
    m = v.max(axis=1)
    return [(np.log(np.exp(v - m[:, None]).sum(axis=1)) + m).astype(np.float32)]


# f32 exp/log/rsqrt (polynomial or libdevice) and sums of up to 4100 terms
# in any order: 1e-5 relative to (1 + |exp|).
ENTRIES = [
    ("softmax1000", lambda rng: [rng.standard_normal((37, 1000)).astype(np.float32) * 3],
     lambda x: [softmax(x)], 1e-5),
    ("layernorm3d", lambda rng: [rng.standard_normal((3, 5, 4092)).astype(np.float32) * 2 + 1,
                                 rng.standard_normal(4092).astype(np.float32),
                                 rng.standard_normal(4092).astype(np.float32)],
     layernorm, 1e-5),
    ("logsumexp_scaled", lambda rng: [rng.standard_normal((19, 333)).astype(np.float32),
                                      rng.uniform(0.5, 2, 333).astype(np.float32)],
     lse, 1e-5),
    ("softmax2051", lambda rng: [rng.standard_normal((37, 2051)).astype(np.float32) * 3],
     lambda x: [softmax(x)], 1e-5),
    ("softmax4100", lambda rng: [rng.standard_normal((5, 4100)).astype(np.float32)],
     lambda x: [softmax(x)], 1e-5),
]
