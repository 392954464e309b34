#!/usr/bin/python3
"""End-to-end tests of tessel-import-onnx.

Each case cases/NAME.py defines `make(rng)` (returns onnxtest.model(...):
an ONNX model built with onnx.helper from random weights, its inputs, and
the outputs of an independent float64 numpy reference) and `TOL` (a float,
or one per output); a case that fails because of a known compiler issue
says so in `XFAIL` (a reason): it must still fail (XFAIL), and a pass is
reported as a failure so that the mark gets removed. A case may list the
names of the globals that --parameters-file declares, in order, in
`PARAMETERS`. For every case and import mode this script imports the
model with tessel-import-onnx, compiles it with tessel-compile, runs it with
tessel-run and compares: float outputs pass if |got-exp| <= TOL*(1+|exp|),
integer and bool outputs must match exactly (test/e2e/e2eutil.compare).

Import modes: `const` (initializers become constants), `weights`
(--weights-as-inputs: the weights are passed from the .npy files the
importer wrote, in the order of its weights.txt) and `parameters`
(--parameters-file: the large constants are external globals, their data in
a safetensors file; run with `tessel-run --parameters=FILE`). The
parameters mode also checks the import itself (check_parameters: the file
against the constants of the `const` import, the MLIR with mlir-opt).

  run_onnx_tests.py [--importer=...] [--compiler=...] [--runner=...]
                    [--target=cpu] [--device=cpu] [--case=NAME ...]
                    [--mode=const|weights|parameters]
                    [--mlir-opt=...] [--workdir=DIR] [-j N]
  run_onnx_tests.py --list
  run_onnx_tests.py --prepare=DIR --target=cuda [--case=...]   (here)
  python3 DIR/run_onnx_tests.py --check=DIR --runner=tessel-run --device=cuda
                                                         (on the GPU machine)

One `PASS name` / `XFAIL name (reason)` / `FAIL name [mode]: why` line per
case, then
`N passed, N expected failures, N failed`; exit status 1 if anything failed.
"""

import argparse
import concurrent.futures
import hashlib
import importlib.util
import json
import os
import re
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
IMPORTER_DIR = os.path.join(ROOT, "frontends", "onnx")
for path in (HERE, CASES_DIR, os.path.join(ROOT, "test", "e2e")):
    if path not in sys.path:
        sys.path.insert(0, path)

import numpy as np  # noqa: E402
import onnx  # noqa: E402

import e2eutil  # noqa: E402

MODES = ("const", "weights", "parameters")


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


def prepare_mode(args, built, tols, cdir, mode, parameters=None):
    """Import and compile in one mode and write the inputs and expected
    outputs; returns (record, None) or (None, why not). The record (paths
    relative to the case directory's parent) is what check_record runs."""
    mdir = os.path.join(cdir, mode)
    os.makedirs(mdir, exist_ok=True)
    mlir = os.path.join(mdir, "model.mlir")
    tmod = os.path.join(mdir, "model.tmod")
    cmd = [args.importer, os.path.join(cdir, "model.onnx"), "-o", mlir] + built.import_args
    wdir = os.path.join(mdir, "weights")
    params = os.path.join(mdir, "parameters.safetensors")
    if mode == "weights":
        cmd += ["--weights-as-inputs", "--weights-dir", wdir]
    if mode == "parameters":
        cmd += ["--parameters-file", params]
    err = run_tool(cmd, args.timeout)
    if err:
        return None, "import failed: " + err
    if mode == "parameters":
        why = check_parameters(args, built, cdir, mlir, params, parameters)
        if why:
            return None, why
    err = run_tool([args.compiler, mlir, "--target=" + args.target, "-o", tmod], args.timeout)
    if err:
        return None, "compile failed: " + err
    weights = []
    if mode == "weights":
        files = weight_files(wdir)
        if [i for i, _ in files] != list(range(len(built.inputs), len(built.inputs) + len(files))):
            return None, "weights.txt: weight arguments are not the ones after the inputs: %s" % files
        weights = [f for _, f in files]
    top = os.path.dirname(cdir)
    rel = lambda f: os.path.relpath(f, top)  # noqa: E731

    def save(prefix, arrays):
        files = []
        for i, x in enumerate(arrays):
            files.append(os.path.join(mdir, "%s%d.npy" % (prefix, i)))
            np.save(files[-1], np.array(x, order="C"), allow_pickle=False)  # keeps rank 0
        return [rel(f) for f in files]

    calls = [dict(inputs=save("in", built.inputs) + [rel(f) for f in weights],
                  expected=save("expected", built.expected))]
    for c, (inputs, expected) in enumerate(built.calls, start=1):
        calls.append(dict(inputs=save("c%d_in" % c, inputs) + [rel(f) for f in weights],
                          expected=save("c%d_expected" % c, expected)))
    bad = [dict(inputs=save("bad%d_in" % c, inputs) + [rel(f) for f in weights], error=text)
           for c, (inputs, text) in enumerate(built.bad_calls)]
    return dict(module=rel(tmod), parameters=rel(params) if mode == "parameters" else None,
                calls=calls, bad_calls=bad, tols=list(tols)), None


_GLOBAL = re.compile(r'ml_program\.global private @("(?:[^"\\]|\\.)*"|[^(]+)'
                     r'\(#ml_program\.extern<(tensor<[^>]*>)>\) : (tensor<[^>]*>)')
_LOAD = re.compile(r'  (%v[0-9]+) = ml_program\.global_load_const @("(?:[^"\\]|\\.)*"|[^ ]+) : '
                   r'(tensor<[^>]*>)')
_BLOB = re.compile(r'  (%v[0-9]+) = arith\.constant dense<"0x([0-9A-F]*)"> : (tensor<[^>]*>)')
_FLOATS = {"f64": "<f8", "f32": "<f4", "f16": "<f2", "bf16": "<u2"}


def _symbol(ref):
    """The name in an MLIR symbol reference (without the @)."""
    if not ref.startswith('"'):
        return ref
    return re.sub(r'\\([0-9A-Fa-f]{2}|.)',
                  lambda m: chr(int(m.group(1), 16)) if len(m.group(1)) == 2 else m.group(1), ref[1:-1])


def _st_type(dtype, shape):
    """The tensor type of a safetensors entry."""
    return "tensor<%s>" % "x".join([str(d) for d in shape] + [dtype.lower()])


def _is_parameter(raw, elem):
    """Whether constant data of element type `elem` is what
    --parameters-file makes a parameter: floating point, at least 1024
    bytes, not a splat (all elements equal, or all NaN)."""
    if elem not in _FLOATS or len(raw) < 1024:
        return False
    a = np.frombuffer(raw, dtype=_FLOATS[elem])
    if elem == "bf16":
        a = e2eutil.bf16_to_f32(a)
    return not ((a == a[0]).all() or np.isnan(a).all())


def check_parameters(args, built, cdir, mlir, params, names):
    """The --parameters-file import against a constants import of the same
    model: the MLIR must be the same but for the parameters, each
    `arith.constant dense<"0x...">` that is a parameter (_is_parameter)
    there being a global_load_const of a declared external global here, and
    the file must hold exactly those constants' bytes, under the globals'
    names, in a well-formed safetensors file. mlir-opt must parse and
    verify the MLIR; `names`, if given, are the globals' names in order.
    None or why not."""
    if IMPORTER_DIR not in sys.path:
        sys.path.insert(0, IMPORTER_DIR)
    from tessel_onnx import safetensors  # noqa: E402 - here: --check runs without it
    ref = os.path.join(os.path.dirname(mlir), "constants.mlir")
    err = run_tool([args.importer, os.path.join(cdir, "model.onnx"), "-o", ref] + built.import_args,
                   args.timeout)
    if err:
        return "import with constants failed: " + err
    try:
        _, start, _ = safetensors.read_header(params)
        tensors, metadata = safetensors.read(params)
    except (OSError, ValueError) as e:
        return "%s is not a valid safetensors file: %s" % (params, e)
    problems = []
    if start % 8:
        problems.append("the data section starts at %d, not at a multiple of 8" % start)
    if metadata != {"format": "tessel", "source": "model.onnx"}:
        problems.append("__metadata__ is %s" % metadata)
    with open(mlir) as f:
        lines = f.read().splitlines()
    with open(ref) as f:
        ref_lines = f.read().splitlines()
    declared = {}
    for line in [l for l in lines if l.startswith("ml_program.global")]:
        m = _GLOBAL.fullmatch(line)
        if not m or m.group(2) != m.group(3) or _symbol(m.group(1)) in declared:
            problems.append("bad or repeated declaration: %s" % line)
            continue
        declared[_symbol(m.group(1))] = m.group(2)
    if names is not None and list(declared) != names:
        problems.append("globals %s, expected %s" % (list(declared), names))
    if set(declared) != set(tensors):
        problems.append("globals %s, but the file holds %s" % (sorted(declared), sorted(tensors)))
    body = [l for l in lines if not l.startswith("ml_program.global")]
    if len(body) != len(ref_lines):
        return "; ".join(problems + ["%d lines besides the globals, %d with constants"
                                     % (len(body), len(ref_lines))])
    loaded = set()
    for line, ref_line in zip(body, ref_lines):
        load, blob = _LOAD.fullmatch(line), _BLOB.fullmatch(ref_line)
        is_param = blob is not None and _is_parameter(bytes.fromhex(blob.group(2)),
                                                      blob.group(3)[len("tensor<"):-1].split("x")[-1])
        if line == ref_line:
            if is_param:
                problems.append("not a parameter: %s" % line[:120])
            continue
        if not (load and is_param and load.group(1) == blob.group(1) and load.group(3) == blob.group(3)):
            problems.append("differs from the constants import: %s" % line[:120])
            continue
        name = _symbol(load.group(2))
        loaded.add(name)
        if declared.get(name) != load.group(3):
            problems.append("%s loads an undeclared global or at another type" % line)
        elif name in tensors:
            dtype, array = tensors[name]
            if _st_type(dtype, array.shape) != load.group(3):
                problems.append("'%s' is %s %s in the file, %s in the MLIR"
                                % (name, dtype, list(array.shape), load.group(3)))
            elif array.tobytes() != bytes.fromhex(blob.group(2)):
                problems.append("'%s' in the file differs from the constant" % name)
    if set(declared) - loaded:
        problems.append("globals declared but not loaded: %s" % sorted(set(declared) - loaded))
    err = run_tool([args.mlir_opt, mlir, "-o", os.devnull], args.timeout)
    if err:
        problems.append("mlir-opt rejects the MLIR: " + err)
    return "; ".join(problems) or None


def run_call(args, top, rec, inputs, n_outputs):
    """Runs the module once: (output files, None) or (None, the failure)."""
    path = lambda f: os.path.join(top, f)  # noqa: E731
    mdir = os.path.dirname(path(rec["module"]))
    out_files = [os.path.join(mdir, "out%d.npy" % i) for i in range(n_outputs)]
    cmd = [args.runner, path(rec["module"]), "--function=main"]
    if rec.get("parameters"):
        cmd.append("--parameters=" + path(rec["parameters"]))
    cmd += ["--input=@" + path(f) for f in inputs]
    cmd += ["--output=@" + f for f in out_files]
    if args.device:
        cmd.append("--device=" + args.device)
    return out_files, run_tool(cmd, args.timeout)


def check_record(args, top, rec):
    """Runs a prepared module on the inputs of each call and compares; a
    bad call must fail with its error. None or why not."""
    problems = []
    for c, call in enumerate(rec["calls"]):
        where = "call %d: " % c if len(rec["calls"]) > 1 else ""
        out_files, err = run_call(args, top, rec, call["inputs"], len(call["expected"]))
        if err:
            problems.append(where + "run failed: " + err)
            continue
        for i, (f, e, tol) in enumerate(zip(out_files, call["expected"], rec["tols"])):
            got = np.load(f, allow_pickle=False)
            exp = np.load(os.path.join(top, e), allow_pickle=False)
            why = e2eutil.compare(got, exp, e2eutil.kind_of_dtype(exp.dtype), tol)
            if why:
                problems.append("%soutput %d: %s" % (where, i, why))
    for c, call in enumerate(rec["bad_calls"]):
        _, err = run_call(args, top, rec, call["inputs"], 1)
        if not err or "exit status 1:" not in err or call["error"] not in err:
            problems.append("bad call %d: expected exit status 1 with '%s', got: %s"
                            % (c, call["error"], err or "success"))
    return "; ".join(problems) or None


def build_case(name, cdir):
    """The case's model, inputs and references, written to cdir/model.onnx;
    (case module, built, tolerances) or raises."""
    os.makedirs(cdir, exist_ok=True)
    case = load_case(name)
    built = case.make(np.random.default_rng(stable_seed(name)))
    tols = case.TOL if isinstance(case.TOL, (list, tuple)) else [case.TOL] * len(built.expected)
    if len(tols) != len(built.expected):
        raise ValueError("%d tolerances for %d outputs" % (len(tols), len(built.expected)))
    onnx.save(built.proto, os.path.join(cdir, "model.onnx"))
    return case, built, tols


def outcome(problems, xfail):
    if xfail:
        if not problems:
            return "passed, but is marked XFAIL (%s): remove the mark" % xfail
        return Expected(xfail, "; ".join(problems))
    return "; ".join(problems) or None


def run_case(args, name, workdir):
    cdir = os.path.join(workdir, name)
    try:
        case, built, tols = build_case(name, cdir)
    except Exception:  # noqa: BLE001
        return "bad case: " + traceback.format_exc().strip().replace("\n", "\n    ")
    problems = []
    for mode in args.mode or MODES:
        rec, why = prepare_mode(args, built, tols, cdir, mode, getattr(case, "PARAMETERS", None))
        if rec:
            why = check_record(args, workdir, rec)
        if why:
            problems.append("[%s] %s" % (mode, why))
    return outcome(problems, getattr(case, "XFAIL", None))


def prepare_case(args, name, out):
    """--prepare: one manifest entry (or a failure description)."""
    cdir = os.path.join(out, name)
    try:
        case, built, tols = build_case(name, cdir)
    except Exception:  # noqa: BLE001
        return None, "bad case: " + traceback.format_exc().strip().replace("\n", "\n    ")
    entry = dict(name=name, xfail=getattr(case, "XFAIL", None), modes={})
    for mode in args.mode or MODES:
        rec, why = prepare_mode(args, built, tols, cdir, mode, getattr(case, "PARAMETERS", None))
        if rec or why:
            entry["modes"][mode] = rec or dict(error=why)
    return entry, None


def check_case(args, top, entry):
    """--check: runs every mode of a manifest entry."""
    problems = []
    for mode, rec in entry["modes"].items():
        why = rec.get("error") or check_record(args, top, rec)
        if why:
            problems.append("[%s] %s" % (mode, why))
    return outcome(problems, entry.get("xfail"))


class Expected:
    """The outcome of an XFAIL case that failed as expected."""

    def __init__(self, reason, problems):
        self.reason = reason
        self.problems = problems


def default_tool(env, name):
    return os.environ.get(env) or shutil.which(name) or name


def report(names, run, jobs):
    """Runs `run(name)` for every name (outcome: None, a reason or an
    Expected), prints a line each and the totals; returns the failures."""
    failed, xfailed, lock = [], [], threading.Lock()

    def one(name):
        try:
            why = run(name)
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

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(one, names))
    print("%d passed, %d expected failures, %d failed"
          % (len(names) - len(failed) - len(xfailed), len(xfailed), len(failed)))
    return failed


def prepare_all(args, names):
    out = os.path.abspath(args.prepare)
    os.makedirs(out, exist_ok=True)
    entries, bad = [], []
    for name in names:
        entry, why = prepare_case(args, name, out)
        if why:
            bad.append(name)
            print("FAIL %s %s" % (name, why), flush=True)
            continue
        errors = [m for m, r in entry["modes"].items() if "error" in r]
        print("PREPARED %s%s" % (name, " (errors in %s, reported by --check)" % errors
                                   if errors else ""), flush=True)
        entries.append(entry)
    for f in (os.path.abspath(__file__), os.path.join(ROOT, "test", "e2e", "e2eutil.py")):
        shutil.copy(f, out)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(dict(target=args.target, cases=entries), f, indent=1)
    print("prepared %d cases in %s (%d failed to prepare); there: python3 %s/run_onnx_tests.py "
          "--check=%s --runner=tessel-run --device=..." % (len(entries), out, len(bad), out, out))
    return 1 if bad else 0


def check_prepared(args):
    top = os.path.abspath(args.check)
    with open(os.path.join(top, "manifest.json")) as f:
        manifest = json.load(f)
    entries = {e["name"]: e for e in manifest["cases"]}
    names = list(entries)
    if args.case:
        names = [n for c in args.case for n in c.split(",") if n in entries]
    print("checking %d cases compiled for --target=%s" % (len(names), manifest["target"]))
    failed = report(names, lambda n: check_case(args, top, entries[n]), args.jobs)
    return 1 if failed else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--importer", default=os.path.join(IMPORTER_DIR, "tessel-import-onnx"),
                    help="tessel-import-onnx (default: the one in this source tree)")
    ap.add_argument("--compiler", default=default_tool("TESSEL_COMPILE", "tessel-compile"))
    ap.add_argument("--runner", default=default_tool("TESSEL_RUN", "tessel-run"))
    ap.add_argument("--target", default="cpu", help="tessel-compile --target (default cpu)")
    ap.add_argument("--device", help="tessel-run --device")
    ap.add_argument("--case", action="append", help="case name(s), repeatable or comma-separated")
    ap.add_argument("--mode", action="append", choices=MODES, help="import mode(s) (default: all)")
    ap.add_argument("--mlir-opt",
                    default=os.environ.get("TESSEL_MLIR_OPT") or "/usr/lib/llvm-22/bin/mlir-opt",
                    help="mlir-opt, which checks the parameters mode's MLIR (default: "
                         "$TESSEL_MLIR_OPT or LLVM 22's)")
    ap.add_argument("--workdir", help="keep work files here (default: a temporary directory, "
                                      "removed when every case passes)")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=300, help="seconds per command")
    ap.add_argument("--list", action="store_true", help="print the case names")
    ap.add_argument("--prepare", metavar="DIR",
                    help="import and compile every case into DIR (with inputs, expected "
                         "outputs, manifest.json and the scripts), for --check elsewhere")
    ap.add_argument("--check", metavar="DIR",
                    help="run and compare what --prepare wrote (needs numpy, onnx and "
                         "tessel-run only)")
    args = ap.parse_args(argv)
    if args.check:
        return check_prepared(args)
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
    if args.prepare:
        return prepare_all(args, names)
    workdir = os.path.abspath(args.workdir) if args.workdir else tempfile.mkdtemp(prefix="tessel-onnx-")
    os.makedirs(workdir, exist_ok=True)
    failed = report(names, lambda n: run_case(args, n, workdir), args.jobs)
    if not args.workdir:
        if failed:
            print("work files kept in %s" % workdir)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
