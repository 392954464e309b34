"""Stream compaction: predicate, exclusive scan, scatter (about half of the
elements selected)."""
import numpy as np

FUNCTION = "compact"
TOL = 0  # pure data movement


def inputs(rng):
    return [rng.standard_normal((3001,)).astype(np.float32)]


def reference(x):
    sel = x[x > 0]
    out = np.zeros_like(x)
    out[:sel.size] = sel
    return [out, np.array(sel.size, dtype=np.int32)]
