"""Gather via tensor.extract with data-dependent indices in a generic body
(embedding lookup), and a reversed-neighbour read via linalg.index."""
import numpy as np

FUNCTION = "gather"
TOL = 1e-6  # copies + one subtraction


def inputs(rng):
    return [rng.standard_normal((50, 13)).astype(np.float32),
            rng.integers(0, 50, (37,), dtype=np.int32),
            rng.standard_normal((9, 23)).astype(np.float32)]


def reference(table, ids, x):
    return [table[ids].copy(), (x[:, ::-1].astype(np.float64) - x).astype(np.float32)]
