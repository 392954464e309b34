# Comparisons, Where, Not/And/Or, Cast between f32, i32, i64 and bool,
# variadic Max/Min, Clip (constant and attribute-free bounds), Pow with
# constant exponents 2 and 0.5 (mulf, sqrt) and a tensor exponent (powf).
import numpy as np
from onnxtest import f32, model, node

# eq, both, nboth, sel, xl, xi, nbf, mx, mn, clip: exact; powf: f32 exp(log) 1e-5;
# x*x + sqrt: two roundings.
TOL = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1e-5, 1e-6]


def make(rng):
    x = f32(rng.uniform(-4.0, 4.0, (4, 9)))
    y = f32(rng.uniform(-4.0, 4.0, (9,)))
    z = f32(rng.uniform(-4.0, 4.0, (4, 1)))
    e = f32(rng.uniform(0.5, 2.0, (4, 9)))
    X, Y, Z, E = (t.astype(np.float64) for t in (x, y, z, e))
    nodes = [
        node("Greater", ["x", "y"], ["gt"]),
        node("Less", ["x", "z"], ["lt"]),
        node("Cast", ["x"], ["xi"], to=6),   # INT32, truncates toward zero
        node("Cast", ["y"], ["yi"], to=6),
        node("Equal", ["xi", "yi"], ["eq"]),
        node("And", ["gt", "lt"], ["both"]),
        node("Or", ["gt", "lt"], ["either"]),
        node("Not", ["both"], ["nboth"]),
        node("Where", ["either", "x", "y"], ["sel"]),
        node("Cast", ["nboth"], ["nbf"], to=1),
        node("Cast", ["xi"], ["xl"], to=7),  # INT64
        node("Max", ["x", "y", "z"], ["mx"]),
        node("Min", ["x", "z"], ["mn"]),
        node("Clip", ["x", "lo", "hi"], ["clip"]),
        node("Pow", ["x", "two"], ["sq"]),
        node("Abs", ["x"], ["ax"]),
        node("Pow", ["ax", "half"], ["rt"]),
        node("Pow", ["ax", "e"], ["pw"]),
    ]
    gt, lt = X > Y, X < Z
    xi, yi = np.trunc(X).astype(np.int32), np.trunc(Y).astype(np.int32)
    both, either = gt & lt, gt | lt
    outputs = [
        ("eq", xi == yi), ("both", both), ("nboth", ~both),
        ("sel", f32(np.where(either, X, Y))), ("xl", xi.astype(np.int64)), ("xi", xi),
        ("nbf", f32((~both).astype(np.float64))),
        ("mx", f32(np.maximum(np.maximum(X, Y), Z))), ("mn", f32(np.minimum(X, Z))),
        ("clip", f32(np.clip(X, -1.5, 2.25))),
        ("pw", f32(np.abs(X) ** E)),
    ]
    # x^2 and |x|^0.5 are checked through their sum, which keeps the output
    # count small.
    nodes.append(node("Add", ["sq", "rt"], ["sqrt_sum"]))
    outputs.append(("sqrt_sum", f32(X * X + np.sqrt(np.abs(X)))))
    return model(nodes, inputs=[("x", x), ("y", y), ("z", z)], outputs=outputs,
                 initializers=[("lo", f32(-1.5)), ("hi", f32(2.25)), ("two", f32(2.0)),
                               ("half", f32(0.5)), ("e", e)])
