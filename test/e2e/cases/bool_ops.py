"""i1 inputs/outputs: cmpf, andi/ori/xori on i1, select, any-reduction,
extui i1->i32 count."""
import numpy as np

FUNCTION = "bools"
TOL = 0.0  # exact (select only copies floats)


def inputs(rng):
    m = rng.random((37, 29)) < 0.5
    n = rng.random((37, 29)) < 0.1   # sparse, so some rows have no m&n
    n[0, :] = False
    m[1, :] = False
    return [rng.uniform(-1, 1, (37, 29)).astype(np.float32),
            rng.uniform(-1, 1, (37, 29)).astype(np.float32), m, n]


def reference(x, y, m, n):
    ge = x >= y
    comb = (ge ^ (m & n)) | n
    sel = np.where(m, x, y)
    anyr = (m & n).any(axis=1)
    cnt = m.sum(axis=1).astype(np.int32)
    return [ge, comb, sel, anyr, cnt]
