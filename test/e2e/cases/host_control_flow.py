"""Host control flow (scf.for / scf.if / scf.while in the host program),
device-read bounds and conditions, host integer arithmetic, tensor select by
a host condition and inlined calls. Every input the control flow depends on
is drawn so that both sides of each branch and zero-trip loops are run."""
import numpy as np


def f64(x):
    return x.astype(np.float64)


def for_inputs(n):
    return lambda rng: [rng.standard_normal((37, 5)).astype(np.float32),
                        np.array(n, dtype=np.int32)]


def for_reference(a, n):
    x = f64(a)
    for _ in range(int(n)):
        x = 0.5 * x + 0.25
    return [x.astype(np.float32)]


def if_inputs(p):
    return lambda rng: [rng.standard_normal((29, 3)).astype(np.float32),
                        rng.standard_normal((29, 3)).astype(np.float32),
                        np.array(p, dtype=np.bool_)]


def if_reference(a, b, p):
    r = (f64(a) + f64(b)) if p else (f64(a) * f64(b))
    r32 = r.astype(np.float32)
    return [r32, f64(r32).sum(axis=1).astype(np.float32)]


def while_inputs(k, limit):
    return lambda rng: [np.array(k, dtype=np.int32), np.array(limit, dtype=np.int32),
                        rng.uniform(0.5, 1.5, 13).astype(np.float32)]


def while_reference(k, limit, v):
    k, x = int(k), f64(v)
    while k < int(limit):
        k += 3
        x = 1.5 * x - 1.0
    return [np.array(k, dtype=np.int32), x.astype(np.float32)]


def select_inputs(first_a, first_b):
    def inputs(rng):
        a = rng.integers(-100, 100, 11, dtype=np.int32)
        b = rng.integers(-100, 100, 11, dtype=np.int32)
        a[0], b[0] = first_a, first_b
        return [a, b]
    return inputs


def affine(x):
    return 2.0 * x - 1.0


ENTRIES = [
    # A few f32 roundings per step (at most 6 steps): 1e-6.
    ("for_device_count", for_inputs(0), for_reference, 1e-6),
    ("for_device_count", for_inputs(1), for_reference, 1e-6),
    ("for_device_count", for_inputs(6), for_reference, 1e-6),
    # One rounding, then a 3-term f32 sum: 1e-6.
    ("if_device", if_inputs(True), if_reference, 1e-6),
    ("if_device", if_inputs(False), if_reference, 1e-6),
    # Zero, one and four trips; k exact, v a few roundings per step: 1e-6.
    ("while_device", while_inputs(10, 10), while_reference, [0, 1e-6]),
    ("while_device", while_inputs(8, 10), while_reference, [0, 1e-6]),
    ("while_device", while_inputs(-2, 10), while_reference, [0, 1e-6]),
    # Ten exact-ish f32 additions of 1.0 to N(0,1) values: 1e-6.
    ("nested", lambda rng: [rng.standard_normal((7, 9)).astype(np.float32)],
     lambda a: [(f64(a) + 10.0).astype(np.float32)], 1e-6),
    ("select_by_first", select_inputs(5, -3), lambda a, b: [a]),
    ("select_by_first", select_inputs(-3, 5), lambda a, b: [b]),
    ("select_by_first", select_inputs(4, 4), lambda a, b: [b]),
    # Five products and sums of N(0,1) values with factors up to 5: 1e-6.
    ("iv_in_kernels", lambda rng: [rng.standard_normal((5, 13)).astype(np.float32)],
     lambda a: [sum(f64(a[i]) * (i + 1) for i in range(5)).astype(np.float32)], 1e-6),
    ("count_down", lambda rng: [rng.integers(-1000, 1000, 19, dtype=np.int32),
                                np.array(7, dtype=np.int64)],
     lambda x, n: [(x + 28).astype(np.int32)]),
    ("count_down", lambda rng: [rng.integers(-1000, 1000, 19, dtype=np.int32),
                                np.array(-2, dtype=np.int64)],
     lambda x, n: [x]),
    # Five roundings: 1e-6.
    ("calls", lambda rng: [rng.uniform(-1, 1, 17).astype(np.float32)],
     lambda x: [affine(affine(f64(x)) ** 2).astype(np.float32)], 1e-6),
]
