"""Transposes (2-D f32, 2-D f16 with a negation, 3-D permutation) at
sizes that are not multiples of any tile."""
import numpy as np

FUNCTION = "transposes"
TOL = 0  # data movement and an exact negation


def inputs(rng):
    return [rng.standard_normal((131, 67)).astype(np.float32),
            rng.standard_normal((45, 203)).astype(np.float16),
            rng.standard_normal((13, 7, 29)).astype(np.float32)]


def reference(a, b, c):
    return [np.ascontiguousarray(a.T), np.ascontiguousarray(-b.T),
            np.ascontiguousarray(np.transpose(c, (1, 2, 0)))]
