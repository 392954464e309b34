# GatherND with constant indices: random (negative ones wrap) pairs into a
# bool mask, torch's attention-mask expansion (indices [b, 1, 1, k, 2] =
# (b, k) at every position: a broadcast read, no index table), and
# batch_dims = 1 with slices of the remaining dimension.
import numpy as np
from onnxtest import f32, model, node

TOL = [0, 0, 0]


def make(rng):
    x = f32(rng.standard_normal((6, 7, 5)))
    pairs = np.stack([rng.integers(-6, 6, (4, 3)), rng.integers(-7, 7, (4, 3))], axis=-1).astype(np.int64)
    mask = rng.uniform(size=(5, 13)) < 0.7
    b, k = np.meshgrid(np.arange(5), np.arange(13), indexing="ij")
    expand = np.stack([b, k], axis=-1).reshape(5, 1, 1, 13, 2).astype(np.int64)
    per_batch = rng.integers(0, 7, (6, 2, 1)).astype(np.int64)
    nodes = [
        node("GatherND", ["x", "pairs"], ["g_pairs"]),
        node("GatherND", ["mask", "expand"], ["g_mask"]),
        node("GatherND", ["x", "per_batch"], ["g_batch"], batch_dims=1),
    ]
    wrapped = np.where(pairs < 0, pairs + np.array([6, 7]), pairs)
    outputs = [("g_pairs", x[wrapped[..., 0], wrapped[..., 1]]),
               ("g_mask", np.broadcast_to(mask[:, None, None, :], (5, 1, 1, 13)).copy()),
               ("g_batch", np.stack([x[j][per_batch[j, :, 0]] for j in range(6)]))]
    return model(nodes, inputs=[("x", x), ("mask", mask)], outputs=outputs,
                 initializers=[("pairs", pairs), ("expand", expand), ("per_batch", per_batch)])
