"""Helpers shared by the op handlers."""

from .ir import Const
from .symbolic import is_static, shape_str


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
    """numpy's (multidirectional) broadcast of the shapes. A symbolic size
    is assumed not to be 1 (symbolic.py): it broadcasts with 1 and with
    itself only."""
    rank = max((len(s) for s in shapes), default=0)
    out = []
    for i in range(rank):
        sizes = {s[len(s) - rank + i] for s in shapes if len(s) - rank + i >= 0}
        big = sizes - {1}
        if len(big) > 1:
            raise NodeError("shapes %s do not broadcast%s"
                            % (", ".join(shape_str(s) for s in shapes),
                               "" if all(is_static(d) for d in big) else
                               " (a dimension known only at run time is assumed to be neither 1 "
                               "nor another size)"))
        out.append(big.pop() if big else 1)
    return tuple(out)


def same_dtype(xs):
    """The element type the inputs share (ONNX requires one)."""
    dts = {x.dtype for x in xs if x is not None}
    if len(dts) != 1:
        raise NodeError("inputs have different element types (%s)"
                        % ", ".join(sorted(d.mlir for d in dts)))
    return dts.pop()
