"""Dynamic dimensions: every function is called with several shapes (odd
sizes, one element, empty tensors) from the same module."""
import numpy as np

TOL = 1e-5


def f64(x):
    return x.astype(np.float64)


def normal(*shape):
    return lambda rng: [rng.standard_normal(shape).astype(np.float32)]


def add_exp_inputs(m, n):
    return lambda rng: [rng.standard_normal((m, n)).astype(np.float32),
                        rng.standard_normal((m, n)).astype(np.float32)]


def add_exp_reference(a, b):
    return [np.exp(f64(a) + f64(b)).astype(np.float32)]


def row_sum_reference(a):
    return [f64(a).sum(axis=1).astype(np.float32)]


def bias_relu_inputs(m):
    return lambda rng: [rng.standard_normal((m, 48)).astype(np.float32),
                        rng.standard_normal(48).astype(np.float32)]


def bias_relu_reference(a, bias):
    return [np.maximum(f64(a) + f64(bias), 0).astype(np.float32)]


def loop_inputs(length, n):
    return lambda rng: [rng.standard_normal(length).astype(np.float32),
                        np.array(n, dtype=np.int32)]


def loop_reference(a, n):
    x = f64(a)
    for _ in range(int(n)):
        x = 0.5 * x + 0.25
    return [x.astype(np.float32)]


def reshape_reference(a):
    return [(-a).reshape(a.shape[0], 2, 2)]


ENTRIES = (
    [("add_exp", add_exp_inputs(m, n), add_exp_reference)
     for m, n in [(1, 1), (3, 5), (17, 129), (1000, 37), (0, 4), (5, 0)]] +
    [("row_sum", normal(m, n), row_sum_reference, 1e-4)
     for m, n in [(1, 1), (7, 3), (33, 1000), (513, 17), (0, 5)]] +
    [("bias_relu", bias_relu_inputs(m), bias_relu_reference)
     for m in [1, 2, 77, 1031, 0]] +
    [("loop", loop_inputs(length, n), loop_reference)
     for length, n in [(1, 0), (13, 3), (4099, 2), (0, 2)]] +
    [("reshape", normal(m, 4), reshape_reference) for m in [1, 6, 301, 0]]
)
