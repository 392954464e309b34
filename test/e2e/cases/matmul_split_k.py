"""Split-K contractions (see the .mlir)."""
import numpy as np

# Split on every target, as a cuda module would be (cpu-only modules are
# not split by default).
COMPILER_ARGS = ["--tessel-split-k-target-blocks=256"]


def _f(rng, dtype, *shape):
    return rng.uniform(-1, 1, shape).astype(dtype)


def _mm(a, b):
    return a.astype(np.float64) @ b.astype(np.float64)


# f32 with K up to 3000: products of magnitude < 1, results ~ sqrt(K)/3 ~ 18,
# any summation order; f32 rounding over K terms stays below ~K * 2^-24 * 18
# ~ 3e-3 absolute in the worst case, typically far less: 1e-4 relative to
# (1 + |exp|) covers it.
F32 = 1e-4
# f16 operands, f32 accumulation, one rounding to f16 (2^-11 relative).
F16_OUT = 2e-3
# f16 accumulation over K = 1024 (every add rounds to f16: the cpu rounds
# each of the 1024 steps, the tensor-core kernel its f16 registers, the
# partials and their sum too): sums of magnitude ~5 round at ~2^-9, a random
# walk over 256 adds per chunk gives ~0.02 absolute, 0.06 at 3 sigma; 0.1
# relative to (1 + |exp|). A wrong split errs by whole partials (~5).
F16_ACC = 0.1

ENTRIES = [
    ("nn_bias_relu",
     lambda r: [_f(r, np.float32, 100, 3000), _f(r, np.float32, 3000, 90),
                _f(r, np.float32, 90)],
     lambda a, b, bias: [np.maximum(_mm(a, b) + bias, 0).astype(np.float32)],
     F32),
    ("nt_accumulate",
     lambda r: [_f(r, np.float32, 130, 2048), _f(r, np.float32, 70, 2048),
                _f(r, np.float32, 130, 70)],
     lambda a, b, c: [(c + _mm(a, b.T)).astype(np.float32)], F32),
    ("tn",
     lambda r: [_f(r, np.float32, 1200, 77), _f(r, np.float32, 1200, 50)],
     lambda a, b: [_mm(a.T, b).astype(np.float32)], F32),
    ("f16_cast",
     lambda r: [_f(r, np.float16, 64, 1536), _f(r, np.float16, 1536, 200)],
     lambda a, b: [_mm(a, b).astype(np.float16)], F16_OUT),
    ("i8_nt",
     lambda r: [r.integers(-128, 128, (33, 4096)).astype(np.int8),
                r.integers(-128, 128, (47, 4096)).astype(np.int8)],
     lambda a, b: [(a.astype(np.int64) @ b.astype(np.int64).T).astype(np.int32)],
     0),
    ("f16_accumulate",
     lambda r: [_f(r, np.float16, 96, 1024), _f(r, np.float16, 1024, 80)],
     lambda a, b: [_mm(a, b).astype(np.float16)], F16_ACC),
    ("prime_k",
     lambda r: [_f(r, np.float32, 40, 1031), _f(r, np.float32, 1031, 24)],
     lambda a, b: [_mm(a, b).astype(np.float32)], F32),
]
