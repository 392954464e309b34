#!/usr/bin/python3
"""End-to-end tests of tessel-import-onnx.

Each case cases/NAME.py defines `make(rng)` (returns onnxtest.model(...):
an ONNX model built with onnx.helper from random weights, its inputs, and
the outputs of an independent float64 numpy reference) and `TOL` (a float,
or one per output); a case that fails because of a known compiler issue
says so in `XFAIL` (a reason): it must still fail (XFAIL), and a pass is
reported as a failure so that the mark gets removed. For every case and import mode this script imports the
model with tessel-import-onnx, compiles it with tessel-compile, runs it with
tessel-run and compares: float outputs pass if |got-exp| <= TOL*(1+|exp|),
integer and bool outputs must match exactly (test/e2e/e2eutil.compare).

Import modes: `const` (initializers become constants) and `weights`
(--weights-as-inputs: the weights are passed from the .npy files the
importer wrote, in the order of its weights.txt).

  run_onnx_tests.py [--importer=...] [--compiler=...] [--runner=...]
                    [--target=cpu] [--device=cpu] [--case=NAME ...]
                    [--mode=const|weights] [--workdir=DIR] [-j N]
  run_onnx_tests.py --list

One `PASS name` / `XFAIL name (reason)` / `FAIL name [mode]: why` line per
case, then
`N passed, N expected failures, N failed`; exit status 1 if anything failed.
"""

import argparse
import concurrent.futures
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import traceback

sys.dont_write_bytecode = True

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CASES_DIR = os.path.join(HERE, "cases")
for path in (HERE, os.path.join(ROOT, "test", "e2e")):
    if path not in sys.path:
        sys.path.insert(0, path)

import numpy as np  # noqa: E402
import onnx  # noqa: E402

import e2eutil  # noqa: E402

MODES = ("const", "weights")


def list_cases():
    return sorted(f[:-3] for f in os.listdir(CASES_DIR) if f.endswith(".py") and not f.startswith("_"))


def stable_seed(name):
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "little")


def load_case(name):
    spec = importlib.util.spec_from_file_location("onnx_case_" + name, os.path.join(CASES_DIR, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run_tool(cmd, timeout):
    """None on success, else a description with the tail of the output."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=timeout)
    except FileNotFoundError:
        return "cannot execute %s" % cmd[0]
    except subprocess.TimeoutExpired:
        return "timed out after %ss: %s" % (timeout, " ".join(cmd))
    if p.returncode != 0:
        out = (p.stderr + p.stdout).strip()
        if len(out) > 2000:
            out = "..." + out[-2000:]
        return "exit status %d: %s\n    %s" % (p.returncode, " ".join(cmd), out.replace("\n", "\n    "))
    return None


def weight_files(weights_dir):
    """The .npy files of the weight arguments, in argument order, from
    weights.txt (index, kind, type, file, name)."""
    files = []
    with open(os.path.join(weights_dir, "weights.txt")) as f:
        for line in f:
            if line.startswith("#"):
                continue
            index, kind, _, fname, _ = line.rstrip("\n").split("\t", 4)
            if kind == "weight":
                files.append((int(index), os.path.join(weights_dir, fname)))
    return files


def run_mode(args, built, tols, cdir, mode):
    """Import, compile, run and compare in one mode; None or why not."""
    mdir = os.path.join(cdir, mode)
    os.makedirs(mdir, exist_ok=True)
    mlir = os.path.join(mdir, "model.mlir")
    tmod = os.path.join(mdir, "model.tmod")
    cmd = [args.importer, os.path.join(cdir, "model.onnx"), "-o", mlir] + built.import_args
    wdir = os.path.join(mdir, "weights")
    if mode == "weights":
        cmd += ["--weights-as-inputs", "--weights-dir", wdir]
    err = run_tool(cmd, args.timeout)
    if err:
        return "import failed: " + err
    err = run_tool([args.compiler, mlir, "--target=" + args.target, "-o", tmod], args.timeout)
    if err:
        return "compile failed: " + err
    in_files = []
    for i, x in enumerate(built.inputs):
        in_files.append(os.path.join(mdir, "in%d.npy" % i))
        np.save(in_files[-1], np.ascontiguousarray(x), allow_pickle=False)
    if mode == "weights":
        files = weight_files(wdir)
        if [i for i, _ in files] != list(range(len(in_files), len(in_files) + len(files))):
            return "weights.txt: weight arguments are not the ones after the inputs: %s" % files
        in_files += [f for _, f in files]
    out_files = [os.path.join(mdir, "out%d.npy" % i) for i in range(len(built.expected))]
    cmd = [args.runner, tmod, "--function=main"] + ["--input=@" + f for f in in_files]
    cmd += ["--output=@" + f for f in out_files]
    if args.device:
        cmd.append("--device=" + args.device)
    err = run_tool(cmd, args.timeout)
    if err:
        return "run failed: " + err
    problems = []
    for i, (f, exp, tol) in enumerate(zip(out_files, built.expected, tols)):
        got = np.load(f, allow_pickle=False)
        why = e2eutil.compare(got, exp, e2eutil.kind_of_dtype(exp.dtype), tol)
        if why:
            problems.append("output %d: %s" % (i, why))
    return "; ".join(problems) or None


def run_case(args, name, workdir):
    cdir = os.path.join(workdir, name)
    os.makedirs(cdir, exist_ok=True)
    try:
        case = load_case(name)
        built = case.make(np.random.default_rng(stable_seed(name)))
        tols = case.TOL if isinstance(case.TOL, (list, tuple)) else [case.TOL] * len(built.expected)
        if len(tols) != len(built.expected):
            return "bad case: %d tolerances for %d outputs" % (len(tols), len(built.expected))
        onnx.save(built.proto, os.path.join(cdir, "model.onnx"))
    except Exception:  # noqa: BLE001
        return "bad case: " + traceback.format_exc().strip().replace("\n", "\n    ")
    problems = []
    for mode in args.mode or MODES:
        why = run_mode(args, built, tols, cdir, mode)
        if why:
            problems.append("[%s] %s" % (mode, why))
    xfail = getattr(case, "XFAIL", None)
    if xfail:
        if not problems:
            return "passed, but is marked XFAIL (%s): remove the mark" % xfail
        return Expected(xfail, "; ".join(problems))
    return "; ".join(problems) or None


class Expected:
    """The outcome of an XFAIL case that failed as expected."""

    def __init__(self, reason, problems):
        self.reason = reason
        self.problems = problems


def default_tool(env, name):
    return os.environ.get(env) or shutil.which(name) or name


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--importer", default=os.path.join(ROOT, "frontends", "onnx", "tessel-import-onnx"),
                    help="tessel-import-onnx (default: the one in this source tree)")
    ap.add_argument("--compiler", default=default_tool("TESSEL_COMPILE", "tessel-compile"))
    ap.add_argument("--runner", default=default_tool("TESSEL_RUN", "tessel-run"))
    ap.add_argument("--target", default="cpu", help="tessel-compile --target (default cpu)")
    ap.add_argument("--device", help="tessel-run --device")
    ap.add_argument("--case", action="append", help="case name(s), repeatable or comma-separated")
    ap.add_argument("--mode", action="append", choices=MODES, help="import mode(s) (default: both)")
    ap.add_argument("--workdir", help="keep work files here (default: a temporary directory, "
                                      "removed when every case passes)")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=300, help="seconds per command")
    ap.add_argument("--list", action="store_true", help="print the case names")
    args = ap.parse_args(argv)
    available = list_cases()
    if args.list:
        print("\n".join(available))
        return 0
    names = available
    if args.case:
        names = [n for c in args.case for n in c.split(",") if n]
        unknown = [n for n in names if n not in available]
        if unknown:
            ap.error("unknown case(s) %s (see --list)" % ", ".join(unknown))
    workdir = os.path.abspath(args.workdir) if args.workdir else tempfile.mkdtemp(prefix="tessel-onnx-")
    os.makedirs(workdir, exist_ok=True)
    failed, xfailed, lock = [], [], threading.Lock()

    def one(name):
        try:
            why = run_case(args, name, workdir)
        except Exception:  # noqa: BLE001
            why = "runner exception: " + traceback.format_exc()
        with lock:
            if isinstance(why, Expected):
                xfailed.append(name)
                print("XFAIL %s (%s): %s" % (name, why.reason, why.problems.splitlines()[0][:300]),
                      flush=True)
            elif why:
                failed.append(name)
                print("FAIL %s %s" % (name, why), flush=True)
            else:
                print("PASS %s" % name, flush=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        list(pool.map(one, names))
    print("%d passed, %d expected failures, %d failed"
          % (len(names) - len(failed) - len(xfailed), len(xfailed), len(failed)))
    if not args.workdir:
        if failed:
            print("work files kept in %s" % workdir)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
