# Slice with negative steps: the elements of the positive-step slice from
# the other end (tensor.extract_slice), reversed by a linalg.generic whose
# input map is -d + (n - 1).
import numpy as np
from onnxtest import f32, model, node

TOL = [0, 0]
# tessel-legalize-input reads the reversed operand with tensor.extract
# (docs/onnx-import-compiler-issues.md, issue 1, fixed).


def make(rng):
    x = f32(rng.standard_normal((5, 12, 9)))
    i64 = lambda v: np.array(v, np.int64)  # noqa: E731
    nodes = [node("Slice", ["x", "st2", "en2", "ax2", "sp2"], ["s2"]),
             node("Slice", ["x", "st3", "en3", "ax3", "sp3"], ["s3"])]
    return model(nodes, inputs=[("x", x)],
                 outputs=[("s2", x[1:-1, ::2, 7:0:-3]), ("s3", x[::-2])],
                 initializers=[("st2", i64([1, 0, 7])), ("en2", i64([-1, 2**62, 0])),
                               ("ax2", i64([0, 1, -1])), ("sp2", i64([1, 2, -3])),
                               ("st3", i64([-1])), ("en3", i64([-2**62])), ("ax3", i64([0])),
                               ("sp3", i64([-2]))], opset=13)
