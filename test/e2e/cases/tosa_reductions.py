"""TOSA reductions (keep_dims: the reduced axis has size 1), argmax (axis
removed, first index of the maximum; NaN modes per TOSA 1.0)."""
import numpy as np

S = (13, 27, 19)


def inputs_f32(rng):
    return [rng.standard_normal(S).astype(np.float32),
            rng.uniform(0.8, 1.25, S).astype(np.float32)]


def reference_f32(x, p):
    x, p = x.astype(np.float64), p.astype(np.float64)
    r = []
    for f in (np.sum, np.max, np.min):
        r += [f(x, axis=a, keepdims=True) for a in range(3)]
    r += [np.prod(p, axis=a, keepdims=True) for a in range(3)]
    return [v.astype(np.float32) for v in r]


def inputs_int(rng):
    return [rng.integers(-100000, 100000, S, dtype=np.int32),
            rng.integers(-128, 128, S, dtype=np.int8)]


def reference_int(a, b):
    a64 = a.astype(np.int64)
    r = [np.sum(a64, axis=ax, keepdims=True).astype(np.int32) for ax in range(3)]
    r += [f(a, axis=ax, keepdims=True) for f in (np.max, np.min) for ax in range(3)]
    r += [f(b, axis=ax, keepdims=True) for f in (np.max, np.min) for ax in range(3)]
    return r


def inputs_bool(rng):
    p = rng.random(S) < 0.97
    p[:, :, 3] = True          # all-true lines along every axis through them
    p[2, :, :] = True
    q = rng.random(S) < 0.03
    q[:, 5, :] = False
    q[:, :, 7] = False
    return [p, q]


def reference_bool(p, q):
    return ([np.all(p, axis=a, keepdims=True) for a in range(3)]
            + [np.any(q, axis=a, keepdims=True) for a in range(3)])


def inputs_argmax(rng):
    return [rng.integers(-3, 4, S).astype(np.float32) + np.float32(0.5),
            rng.integers(-128, 128, S, dtype=np.int8)]


def reference_argmax(x, b):
    # np.argmax returns the first occurrence of the maximum.
    return ([np.argmax(x, axis=a).astype(np.int32) for a in range(3)]
            + [np.argmax(b, axis=a).astype(np.int32) for a in range(3)])


def inputs_nan(rng):
    x = rng.standard_normal((9, 11)).astype(np.float32)
    x[rng.random((9, 11)) < 0.2] = np.nan
    x[0, :] = rng.standard_normal(11)     # no NaN
    x[8, :] = np.nan                      # all NaN
    x[2, :] = rng.standard_normal(11)
    x[2, 4] = np.nan                      # one NaN after the maximum below
    x[2, 1] = 9.0
    return [x]


def _argmax_propagate(row):
    nan = np.isnan(row)
    return int(np.argmax(nan)) if nan.any() else int(np.argmax(row))


def _argmax_ignore(row):
    nan = np.isnan(row)
    return 0 if nan.all() else int(np.argmax(np.where(nan, -np.inf, row)))


def reference_nan(x):
    x = x.astype(np.float64)
    hasnan = np.isnan(x).any(axis=1, keepdims=True)
    allnan = np.isnan(x).all(axis=1, keepdims=True)
    with np.errstate(invalid="ignore"), np.testing.suppress_warnings() as sup:
        sup.filter(RuntimeWarning)
        mx = np.nanmax(np.where(allnan, 0.0, x), axis=1, keepdims=True)
        mn = np.nanmin(np.where(allnan, 0.0, x), axis=1, keepdims=True)
    sentinel = 1000.0
    r = [np.where(hasnan, sentinel, mx), np.where(hasnan, sentinel, mn),
         np.where(allnan, sentinel, mx), np.where(allnan, sentinel, mn)]
    r = [v.astype(np.float32) for v in r]
    r.append(np.array([_argmax_propagate(row) for row in x], np.int32))
    r.append(np.array([_argmax_ignore(row) for row in x], np.int32))
    r.append(np.array([_argmax_propagate(col) for col in x.T], np.int32))
    return r


ENTRIES = [
    # Sums of 13-27 f32 values in any order and products of 13-27 values
    # near 1: a few e-7 relative, so 1e-5; max/min are exact.
    ("reduce_f32", inputs_f32, reference_f32, 1e-5),
    ("reduce_int", inputs_int, reference_int),
    ("reduce_bool", inputs_bool, reference_bool),
    ("argmax", inputs_argmax, reference_argmax),
    ("nan_modes", inputs_nan, reference_nan, 0.0),   # max/min select an input: exact
]
