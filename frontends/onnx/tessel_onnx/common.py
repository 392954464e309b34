"""Helpers shared by the op handlers."""

import numpy as np

from .ir import Const


class NodeError(Exception):
    """A problem with one node; the graph walk prefixes the node's
    description (name, op_type, domain)."""


def all_const(xs):
    return all(isinstance(x, Const) for x in xs if x is not None)


def normalize_axis(axis, rank, what="axis"):
    axis = int(axis)
    if not -rank <= axis < max(rank, 1):
        raise NodeError("%s %d is out of range for rank %d" % (what, axis, rank))
    return axis + rank if axis < 0 else axis


def normalize_axes(axes, rank, what="axes"):
    out = [normalize_axis(a, rank, what) for a in axes]
    if len(set(out)) != len(out):
        raise NodeError("%s %s repeat an axis" % (what, list(axes)))
    return out


def broadcast_shape(*shapes):
    """numpy's (multidirectional) broadcast of the shapes."""
    try:
        return tuple(int(d) for d in np.broadcast_shapes(*[tuple(s) for s in shapes]))
    except ValueError:
        raise NodeError("shapes %s do not broadcast" % ", ".join(str(list(s)) for s in shapes))


def same_dtype(xs):
    """The element type the inputs share (ONNX requires one)."""
    dts = {x.dtype for x in xs if x is not None}
    if len(dts) != 1:
        raise NodeError("inputs have different element types (%s)"
                        % ", ".join(sorted(d.mlir for d in dts)))
    return dts.pop()
