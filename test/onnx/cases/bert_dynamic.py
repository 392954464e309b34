# bert.py's 2-layer encoder imported with batch and sequence symbolic (no
# --dim): one module called at several (batch, sequence), odd ones, a
# single token, and the longest sequence the position table holds (40).
# Calls it must refuse with a clear error: a sequence longer than the
# position table (the Slice of position_ids is checked at run time) and an
# attention mask whose batch differs from input_ids'.
import numpy as np
from bert import MAXPOS, graph, tokens
from onnxtest import model

TOL = [1e-4]
DIMS = ["batch", "sequence"]


def make(rng):
    nodes, inits, reference = graph(rng)
    first = tokens(rng, 2, 17)
    calls = []
    for b, s in ((1, 1), (3, MAXPOS), (5, 9)):
        ids, mask = tokens(rng, b, s)
        calls.append(([ids, mask], [reference(ids, mask)]))
    too_long = tokens(rng, 1, MAXPOS + 1)
    ids, mask = tokens(rng, 2, 8)
    bad_calls = [(list(too_long), "end sequence must be at most the size %d" % MAXPOS),
                 ([ids, mask[:1]], "input 'attention_mask' dimension 0 and input 'input_ids' "
                                   "dimension 0 must be equal")]
    return model(nodes, inputs=[("input_ids", first[0]), ("attention_mask", first[1])],
                 outputs=[("last_hidden_state", reference(*first))], initializers=list(inits.items()),
                 input_dims={"input_ids": DIMS, "attention_mask": DIMS,
                             "last_hidden_state": DIMS + [None]},
                 calls=calls, bad_calls=bad_calls)
