"""Elementwise consumers of f32 matmuls (bias + tanh after x @ W^T, per-row
scale + column index, per-batch scale, relu after a matmul of a slice, a
matmul result used twice), fused into the matmul's epilogue on cuda."""
import numpy as np

# f32 sums of <= 50 products of magnitude <= 1 (any summation order) and one
# tanh (libdevice or polynomial): 1e-5 relative.
TOL = 1e-5


def f64(x):
    return x.astype(np.float64)


def u(rng, shape):
    return rng.uniform(-1, 1, shape).astype(np.float32)


ENTRIES = [
    ("linear_tanh", lambda r: [u(r, (67, 45)), u(r, (131, 45)), u(r, 131)],
     lambda x, w, b: [np.tanh(f64(x) @ f64(w).T + f64(b)).astype(np.float32)]),
    ("rowscale_index", lambda r: [u(r, (130, 33)), u(r, (33, 129)), u(r, 130)],
     lambda a, b, s: [((f64(a) @ f64(b)) * f64(s)[:, None]
                       + np.arange(129, dtype=np.float64)[None, :]).astype(np.float32)]),
    ("bmm_scale", lambda r: [u(r, (3, 65, 17)), u(r, (3, 17, 66)), u(r, 3)],
     lambda a, b, s: [(np.matmul(f64(a), f64(b)) * f64(s)[:, None, None]).astype(np.float32)]),
    ("slice_relu", lambda r: [u(r, (120, 60)), u(r, (50, 77))],
     lambda a, b: [np.maximum(f64(a)[3:103, 5:55] @ f64(b), 0).astype(np.float32)]),
    ("two_uses", lambda r: [u(r, (37, 29)), u(r, (29, 41))],
     lambda a, b: [(f64(a) @ f64(b)).astype(np.float32),
                   np.maximum(f64(a) @ f64(b), 0).astype(np.float32)]),
]
