#!/usr/bin/env python3
"""Sanity-checks the e2e case definitions without the Tessel compiler.

For every case (or those named on the command line):
  * the .mlir parses and verifies with tessel-opt or mlir-opt (--mlir-opt=PATH,
    default $MLIR_OPT, build/compiler/tools/tessel-opt, tessel-opt on PATH,
    /usr/lib/llvm-22/bin/mlir-opt, mlir-opt on PATH; upstream mlir-opt skips
    cases that use tessel ops);
  * every function named by the .py exists in the .mlir and is public;
  * inputs(rng) matches the function's argument types (dtype, shape), and no
    input is all zeros (bool inputs must contain both values);
  * reference(*inputs) returns one array per result with the result's
    dtype and shape, and floating-point results have a tolerance;
  * the reference is deterministic (run twice with the same seed).
Prints `ok NAME` / `BAD NAME: why`, exits 1 if anything is bad.
"""

import argparse
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

import run_e2e  # noqa: E402


def find_mlir_opt(explicit):
    # tessel-opt knows the tessel primitives (scan, gather, ...) as well as
    # every upstream dialect; upstream mlir-opt is the fallback.
    built = os.path.join(os.path.dirname(run_e2e.CASES_DIR), "..", "..", "build",
                         "compiler", "tools", "tessel-opt")
    for c in (explicit, os.environ.get("MLIR_OPT"), built, shutil.which("tessel-opt"),
              "/usr/lib/llvm-22/bin/mlir-opt", shutil.which("mlir-opt")):
        if c and os.path.exists(c):
            return c
    return None


def check_case(name, mlir_opt):
    problems = []
    case_mlir = os.path.join(run_e2e.CASES_DIR, name + ".mlir")
    uses_tessel = "tessel." in open(case_mlir).read()
    if mlir_opt and uses_tessel and "tessel-opt" not in os.path.basename(mlir_opt):
        print("note: %s uses tessel ops; %s cannot parse it (skipped)" % (name, mlir_opt))
    elif mlir_opt:
        p = subprocess.run([mlir_opt, case_mlir], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           universal_newlines=True)
        if p.returncode != 0:
            problems.append("mlir-opt failed:\n" + p.stderr.strip())
    try:
        case = run_e2e.Case(name)
    except Exception as e:  # noqa: BLE001
        return problems + ["cannot load: %r" % (e,)]
    nelem = 0
    for i, entry in enumerate(case.entries):
        try:
            _, ins, exp, kinds, tols = case.materialize(i)
            _, ins2, exp2, _, _ = case.materialize(i)
        except Exception as e:  # noqa: BLE001
            problems.append("@%s: %s" % (entry.function, e))
            continue
        for j, x in enumerate(ins):
            nelem += x.size
            if x.dtype == np.bool_:
                if x.size > 1 and (x.all() or not x.any()):
                    problems.append("@%s input %d: bool input is constant" % (entry.function, j))
            elif x.dtype == np.uint16:
                if not np.any(x & 0x7FFF):
                    problems.append("@%s input %d: all zeros" % (entry.function, j))
            elif not np.any(x):
                problems.append("@%s input %d: all zeros" % (entry.function, j))
        for j, (a, b) in enumerate(zip(ins, ins2)):
            # NaN inputs (NaN-propagation cases) compare equal to themselves.
            if not np.array_equal(a, b, equal_nan=(a.dtype.kind == "f")):
                problems.append("@%s input %d not deterministic" % (entry.function, j))
        for j, (a, b, k) in enumerate(zip(exp, exp2, kinds)):
            nelem += a.size
            if not np.array_equal(a, b, equal_nan=(k == "float")):
                problems.append("@%s result %d: reference not deterministic" % (entry.function, j))
            if k == "float" and not np.all(np.isfinite(a)):
                problems.append("@%s result %d: reference has non-finite values" % (entry.function, j))
    return problems, nelem


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="*")
    ap.add_argument("--mlir-opt")
    ap.add_argument("-v", "--verbose", action="store_true", help="print sizes and timings")
    args = ap.parse_args()
    mlir_opt = find_mlir_opt(args.mlir_opt)
    if not mlir_opt:
        print("warning: mlir-opt not found; skipping parse/verify")
    names = args.cases or run_e2e.list_cases()
    bad = 0
    for n in names:
        t0 = time.time()
        r = check_case(n, mlir_opt)
        problems, nelem = r if isinstance(r, tuple) else (r, 0)
        dt = time.time() - t0
        if problems:
            bad += 1
            print("BAD %s: %s" % (n, "; ".join(problems)))
        else:
            print("ok %s" % n + ("  (%d elements in+out, %.2fs)" % (nelem, dt) if args.verbose else ""))
    print("%d cases, %d bad" % (len(names), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
