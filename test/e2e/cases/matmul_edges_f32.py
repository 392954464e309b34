"""f32 matmuls on edge shapes of the GPU shared-memory matmul (partial
128x128 blocks, K < 8 and K % 8 != 0, unaligned rows, exact multiples,
accumulation into an argument, a batch of 128 small matrices)."""
import numpy as np

# f32 sums of up to 1001 products of magnitude <= 1, any summation order:
# error ~ sqrt(K) * eps * |partial sums| << 1e-4.
TOL = 1e-4


def _case(m, k, n, acc):
    def inputs(rng):
        xs = [rng.uniform(-1, 1, (m, k)).astype(np.float32),
              rng.uniform(-1, 1, (k, n)).astype(np.float32)]
        if acc:
            xs.append(rng.uniform(-1, 1, (m, n)).astype(np.float32))
        return xs

    def reference(a, b, *c):
        r = a.astype(np.float64) @ b.astype(np.float64)
        if c:
            r += c[0].astype(np.float64)
        return [r.astype(np.float32)]
    return inputs, reference


ENTRIES = [
    ("mm_odd", *_case(129, 130, 127, False)),
    ("mm_tiny", *_case(1, 4, 4, False)),
    ("mm_k3", *_case(200, 3, 260, False)),
    ("mm_k_odd", *_case(257, 1001, 260, False)),
    ("mm_aligned", *_case(256, 24, 384, False)),
    ("mm_one_stage", *_case(128, 8, 128, False)),
    ("mm_acc", *_case(67, 45, 131, True)),
    ("mm_acc_aligned", *_case(128, 16, 256, True)),
    ("bmm_many_small",
     lambda rng: [rng.uniform(-1, 1, (128, 33, 5)).astype(np.float32),
                  rng.uniform(-1, 1, (128, 5, 35)).astype(np.float32),
                  rng.uniform(-1, 1, (128, 33, 35)).astype(np.float32)],
     lambda a, b, c: [(np.matmul(a.astype(np.float64), b.astype(np.float64))
                       + c.astype(np.float64)).astype(np.float32)]),
]
