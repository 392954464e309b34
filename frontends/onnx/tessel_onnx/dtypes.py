"""Element types: ONNX TensorProto codes <-> MLIR names <-> numpy dtypes.

Only the element types that Tessel takes at a function boundary are here.
bf16 has no numpy dtype: an import-time bf16 tensor is a float32 array whose
values are all bf16 values (rounded with `round_to_bf16`), and a bf16 .npy
file holds the raw bits as uint16 (what tessel-run reads).
"""

import numpy as np
from onnx import TensorProto


class DType:
    """One element type. `kind` is "float", "int" or "bool"."""

    def __init__(self, mlir, onnx_code, np_dtype, kind, bits):
        self.mlir = mlir
        self.onnx = onnx_code
        self.np = np.dtype(np_dtype)
        self.kind = kind
        self.bits = bits

    @property
    def is_float(self):
        return self.kind == "float"

    @property
    def is_int(self):
        return self.kind == "int"

    @property
    def is_bool(self):
        return self.kind == "bool"

    def __repr__(self):
        return self.mlir


F64 = DType("f64", TensorProto.DOUBLE, np.float64, "float", 64)
F32 = DType("f32", TensorProto.FLOAT, np.float32, "float", 32)
F16 = DType("f16", TensorProto.FLOAT16, np.float16, "float", 16)
BF16 = DType("bf16", TensorProto.BFLOAT16, np.float32, "float", 16)
I64 = DType("i64", TensorProto.INT64, np.int64, "int", 64)
I32 = DType("i32", TensorProto.INT32, np.int32, "int", 32)
I8 = DType("i8", TensorProto.INT8, np.int8, "int", 8)
I1 = DType("i1", TensorProto.BOOL, np.bool_, "bool", 1)

ALL = (F64, F32, F16, BF16, I64, I32, I8, I1)
_BY_ONNX = {d.onnx: d for d in ALL}


def onnx_type_name(code):
    """TensorProto's name for an element type code (FLOAT, UINT8, ...)."""
    try:
        return TensorProto.DataType.Name(code)
    except ValueError:
        return "type code %d" % code


def from_onnx(code):
    """The DType of an ONNX element type code, or None if Tessel has none."""
    return _BY_ONNX.get(code)


def supported_names():
    return ", ".join(onnx_type_name(d.onnx) for d in ALL)


def round_to_bf16(a):
    """float array -> float32 array of the nearest bf16 values (ties to
    even; NaN stays NaN)."""
    f = np.ascontiguousarray(a, dtype=np.float32)
    u = f.view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    out = r.astype(np.uint32).view(np.float32).reshape(f.shape)
    return np.where(np.isnan(f), f, out).astype(np.float32)


def bf16_bits(a):
    """float32 array of bf16 values -> uint16 raw bits."""
    f = np.ascontiguousarray(round_to_bf16(a), dtype=np.float32)
    return (f.view(np.uint32) >> 16).astype(np.uint16).reshape(f.shape)


def as_dtype(a, dtype):
    """numpy array converted to the storage of `dtype` (bf16 rounded)."""
    if dtype is BF16:
        return round_to_bf16(a)
    return np.asarray(a).astype(dtype.np)


def compute_type(dt):
    """The type arithmetic of `dt` runs in where it accumulates or chains
    many roundings (sums, normalizations): f32 for f16 and bf16."""
    return F32 if dt in (F16, BF16) else dt
