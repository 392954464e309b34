"""i32 integer ops in a generic body and directly on tensors (div/rem with
negative operands, arithmetic/logical shifts, bitwise, cmpi, select)."""
import numpy as np

TOL = 0  # integers and booleans: exact


def _c_div(a, b):
    """C-style (truncating) integer division and remainder."""
    q = np.abs(a) // np.abs(b) * np.sign(a) * np.sign(b)
    return q, a - q * b


def _nonzero(rng, shape, lo, hi):
    v = rng.integers(lo, hi, shape, dtype=np.int32)
    return np.where(v == 0, np.int32(5), v).astype(np.int32)


def inputs_generic(rng):
    a = rng.integers(-1000, 1000, (29, 43), dtype=np.int32)
    a[::5, ::3] = 7  # exercise the x == 7 branch
    return [a, _nonzero(rng, (29, 43), -50, 50),
            rng.integers(0, 31, (29, 43), dtype=np.int32)]


def reference_generic(x, y, sh):
    x64, y64 = x.astype(np.int64), y.astype(np.int64)
    q, r = _c_div(x64, y64)
    arith = (x64 + y64) * 3 - q + r
    shl = (x.astype(np.uint32) << sh.astype(np.uint32)).astype(np.int32)  # wraps
    shrs = x >> sh
    shru = (x.astype(np.uint32) >> sh.astype(np.uint32)).astype(np.int32)
    shifts = shl ^ shrs ^ shru
    bits = (x & y) | (~x & np.int32(0x0F0F))
    alt = np.where(x == 7, 100, -y64)
    sel = np.where(x < y, np.maximum(x64, y64) - np.minimum(x64, y64), alt)
    flag = (x >= y) & (x != 0)
    return [arith.astype(np.int32), shifts.astype(np.int32), bits.astype(np.int32),
            sel.astype(np.int32), flag]


def inputs_tensor(rng):
    return [rng.integers(-10**6, 10**6, (29, 43), dtype=np.int32),
            _nonzero(rng, (29, 43), -1000, 1000)]


def reference_tensor(a, b):
    q, r = _c_div(a.astype(np.int64), b.astype(np.int64))
    cmp = a <= b
    sel = np.where(cmp, a ^ b, r)
    return [q.astype(np.int32), sel.astype(np.int32), cmp]


ENTRIES = [
    ("int_generic", inputs_generic, reference_generic),
    ("int_tensor", inputs_tensor, reference_tensor),
]
