"""TOSA cond_if and while_loop: IREE's six control-flow e2e cases (if.mlir:
if_true_test, if_false_test; while.mlir: while_test_iter0, iter1, iter2,
iter4, each with its inputs and expected value) plus a loop carrying an odd
sized f32 tensor."""
import numpy as np


def scalars(*values):
    def inputs(rng):
        return [np.array(v, dtype=np.bool_ if isinstance(v, bool) else np.int32)
                for v in values]
    return inputs


def cond_then(cond, x):
    return [np.array(int(x) + 10 if cond else int(x), dtype=np.int32)]


def cond_else(cond, x):
    return [np.array(int(x) if cond else int(x) + 10, dtype=np.int32)]


def while_le3(i, n):
    i = int(i)
    while i <= 3:
        i += int(n)
    return [np.array(i, dtype=np.int32)]


def with_tensor_inputs(k, limit):
    return lambda rng: [np.array(k, dtype=np.int32), np.array(limit, dtype=np.int32),
                        rng.standard_normal((3, 7)).astype(np.float32)]


def with_tensor(k, limit, v):
    k, x = int(k), v.astype(np.float64)
    while int(limit) > k:
        k += 1
        x = x * 0.5
    return [np.array(k, dtype=np.int32), x.astype(np.float32)]


ENTRIES = [
    # if_true_test: cond true, 10 -> 20; if_false_test: cond false -> 20.
    ("cond_if_then_adds", scalars(True, 10), cond_then),
    ("cond_if_else_adds", scalars(False, 10), cond_else),
    # The arms that do not add, too.
    ("cond_if_then_adds", scalars(False, 10), cond_then),
    ("cond_if_else_adds", scalars(True, -7), cond_else),
    # while_test_iter0 (4, 2), iter1 (2, 2), iter2 (0, 2), iter4 (0, 1): 4.
    ("while_le3", scalars(4, 2), while_le3),
    ("while_le3", scalars(2, 2), while_le3),
    ("while_le3", scalars(0, 2), while_le3),
    ("while_le3", scalars(0, 1), while_le3),
    # Halving is exact in binary floating point.
    ("while_with_tensor", with_tensor_inputs(0, 5), with_tensor, [0, 0]),
    ("while_with_tensor", with_tensor_inputs(9, 5), with_tensor, [0, 0]),
]
