"""The safetensors format (https://github.com/huggingface/safetensors), the
parameters file of --parameters-file, with numpy and json only.

A file is an 8-byte little-endian header length N, N bytes of UTF-8 JSON
({name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__":
{str: str}}), then the data: each tensor's little-endian bytes in C order,
the offsets relative to the data's start. The writer stores the tensors in
order, back to back (the Rust library rejects holes and overlaps), and pads
the JSON with spaces so that the data starts at a multiple of 8 bytes, as
the Python library does (aligned loads when the file is mapped).
"""

import json
import os
import struct

import numpy as np

# Element types by safetensors name; BF16 arrays hold the raw bits (uint16).
DTYPES = {
    "F64": np.dtype("<f8"),
    "F32": np.dtype("<f4"),
    "F16": np.dtype("<f2"),
    "BF16": np.dtype("<u2"),
}

METADATA = "__metadata__"
_ALIGN = 8


def write(path, tensors, metadata):
    """Writes [(name, dtype name, array)] (the array of that DTYPES entry,
    any byte order) and `metadata` ({str: str}) to `path` through a
    temporary file, so that `path` is either the old file or the whole new
    one. OSError when it cannot be written."""
    header, arrays, offset = {}, [], 0
    for name, dtype, array in tensors:
        if name == METADATA or name in header:
            raise ValueError("tensor name '%s' is reserved or repeated" % name)
        a = np.asarray(array)
        if a.dtype.newbyteorder("<") != DTYPES[dtype]:
            raise ValueError("tensor '%s': a %s array is not %s" % (name, a.dtype, dtype))
        a = a.astype(DTYPES[dtype], order="C", copy=False)
        header[name] = {"dtype": dtype, "shape": [int(d) for d in a.shape],
                        "data_offsets": [offset, offset + a.nbytes]}
        arrays.append(a)
        offset += a.nbytes
    header[METADATA] = dict(metadata)
    text = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    text += b" " * (-(8 + len(text)) % _ALIGN)
    tmp = path + ".tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(struct.pack("<Q", len(text)))
            f.write(text)
            for a in arrays:
                f.write(a.data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def read_header(path):
    """(header dict, offset of the data section, size of the data section)
    of a safetensors file; ValueError when the header is malformed."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        prefix = f.read(8)
        if len(prefix) != 8:
            raise ValueError("%s: shorter than the 8-byte header length" % path)
        (n,) = struct.unpack("<Q", prefix)
        if n > size - 8:
            raise ValueError("%s: header length %d exceeds the file" % (path, n))
        raw = f.read(n)
    try:
        header = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise ValueError("%s: the header is not UTF-8 JSON: %s" % (path, e))
    if not isinstance(header, dict):
        raise ValueError("%s: the header is not a JSON object" % path)
    return header, 8 + n, size - 8 - n


def read(path):
    """({name: (dtype name, array)} in header order, metadata) of a
    safetensors file, checked as the Rust library checks it: known dtypes,
    offsets that match the shapes and cover the data section exactly,
    without holes or overlaps. BF16 arrays hold the raw bits."""
    header, start, data_size = read_header(path)
    metadata = header.pop(METADATA, {})
    spans, tensors = [], {}
    with open(path, "rb") as f:
        for name, info in header.items():
            dtype = info.get("dtype")
            if dtype not in DTYPES:
                raise ValueError("%s: tensor '%s' has dtype %r (known: %s)"
                                 % (path, name, dtype, ", ".join(DTYPES)))
            shape = tuple(int(d) for d in info["shape"])
            begin, end = (int(o) for o in info["data_offsets"])
            count = int(np.prod(shape, dtype=np.int64))
            if end - begin != count * DTYPES[dtype].itemsize or begin > end:
                raise ValueError("%s: tensor '%s' offsets [%d, %d] do not hold %s %s"
                                 % (path, name, begin, end, dtype, list(shape)))
            spans.append((begin, end, name))
            f.seek(start + begin)
            raw = f.read(end - begin)
            if len(raw) != end - begin:
                raise ValueError("%s: tensor '%s' extends past the end of the file" % (path, name))
            tensors[name] = (dtype, np.frombuffer(raw, dtype=DTYPES[dtype]).reshape(shape))
    at = 0
    for begin, end, name in sorted(spans):
        if begin != at:
            raise ValueError("%s: tensor '%s' starts at %d, not at %d (a hole or an overlap)"
                             % (path, name, begin, at))
        at = end
    if at != data_size:
        raise ValueError("%s: the tensors cover %d of the %d data bytes" % (path, at, data_size))
    return tensors, metadata
