#!/usr/bin/env python3
"""Tessel end-to-end test runner.

Each case is a pair cases/NAME.mlir + cases/NAME.py (see README.md). For every
selected case this script compiles NAME.mlir with tessel-compile, writes the
inputs as .npy files (random, seeded by a stable hash of the case name), runs
each function with tessel-run and compares the outputs with the numpy
reference.

Modes:
  run_e2e.py --compiler=tessel-compile --runner=tessel-run [--target=cpu]
             [--device=cpu] [--case=NAME ...] [--workdir=DIR] [-j N]
      compile + run + compare; one `PASS name` / `FAIL name: why` line per
      case, then `N passed, N failed`; exit status 1 if anything failed.
  run_e2e.py --list
      print the case names, one per line.
  run_e2e.py --prepare=DIR --compiler=... [--target=cuda] [--case=...]
      compile the cases and write modules, each case's .mlir and .py and
      manifest.json into DIR (plus copies of this script and the helper
      modules next to it), so
      that the suite can be run elsewhere without the compiler. Inputs and
      expected outputs are not written (they would not fit the device
      tool's carry limit): --check draws them again from the same seeds.
  run_e2e.py --check=DIR --runner=... [--device=cuda] [--case=...]
      run a prepared DIR and compare; needs only numpy and tessel-run.
"""

import argparse
import concurrent.futures
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import traceback

sys.dont_write_bytecode = True  # don't litter the source tree with __pycache__

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "cases")
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import numpy as np  # noqa: E402


import e2eutil  # noqa: E402

MANIFEST = "manifest.json"
MANIFEST_VERSION = 2
STDERR_TAIL_CHARS = 2000


class CaseError(Exception):
    """A case definition is broken (not a compiler/runtime failure)."""


# ----------------------------------------------------------------------------
# Case discovery and loading.
# ----------------------------------------------------------------------------


def list_cases(cases_dir=None):
    cases_dir = cases_dir or CASES_DIR
    names = []
    for f in sorted(os.listdir(cases_dir)):
        if f.endswith(".mlir") and not f.startswith("_"):
            name = f[:-len(".mlir")]
            if os.path.exists(os.path.join(cases_dir, name + ".py")):
                names.append(name)
    return names


def stable_seed(*parts):
    h = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(h[:8], "little")


class Entry:
    """One function call of a case: function name, inputs(rng),
    reference(*inputs), tolerance (float or per-result list)."""

    def __init__(self, function, inputs, reference, tol):
        self.function = function
        self.inputs = inputs
        self.reference = reference
        self.tol = tol

    def tol_for(self, i, nres):
        t = self.tol
        if isinstance(t, (list, tuple)):
            if len(t) != nres:
                raise CaseError("%s: TOL list has %d entries but there are %d results"
                                % (self.function, len(t), nres))
            t = t[i]
        return t


class Case:
    def __init__(self, name, cases_dir=None):
        cases_dir = cases_dir or CASES_DIR
        self.name = name
        self.mlir = os.path.join(cases_dir, name + ".mlir")
        self.py = os.path.join(cases_dir, name + ".py")
        if not os.path.exists(self.mlir) or not os.path.exists(self.py):
            raise CaseError("no such case %r (need %s and %s)" % (name, self.mlir, self.py))
        with open(self.mlir) as f:
            self.mlir_text = f.read()
        try:
            self.signatures = e2eutil.parse_signatures(self.mlir_text)
        except ValueError as e:
            raise CaseError("cannot parse function signatures: %s" % e)
        spec = importlib.util.spec_from_file_location("e2e_case_" + name, self.py)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        self.module = mod
        # Extra tessel-compile flags the case needs (e.g. --cuda-tf32).
        self.compiler_args = list(getattr(mod, "COMPILER_ARGS", []))
        default_tol = getattr(mod, "TOL", None)
        self.entries = []
        if hasattr(mod, "ENTRIES"):
            for e in mod.ENTRIES:
                if isinstance(e, dict):
                    self.entries.append(Entry(e["function"], e["inputs"], e["reference"],
                                              e.get("tol", default_tol)))
                else:
                    e = tuple(e)
                    if len(e) not in (3, 4):
                        raise CaseError("ENTRIES items must be (function, inputs, reference[, tol])")
                    self.entries.append(Entry(e[0], e[1], e[2], e[3] if len(e) == 4 else default_tol))
        else:
            fn = getattr(mod, "FUNCTION", "main")
            self.entries.append(Entry(fn, mod.inputs, mod.reference, default_tol))
        if not self.entries:
            raise CaseError("case defines no entries")

    def signature(self, function):
        if function not in self.signatures:
            raise CaseError("function @%s not found in %s" % (function, os.path.basename(self.mlir)))
        vis, args, results = self.signatures[function]
        if vis != "public":
            raise CaseError("function @%s is %s" % (function, vis))
        return args, results

    def materialize(self, index):
        """Returns (entry, inputs, expected, kinds, tols), validated against
        the MLIR signature."""
        entry = self.entries[index]
        args, results = self.signature(entry.function)
        rng = np.random.default_rng(stable_seed(self.name, entry.function, index))
        ins = [e2eutil.contiguous(x) for x in entry.inputs(rng)]
        if len(ins) != len(args):
            raise CaseError("@%s takes %d arguments, inputs() returned %d"
                            % (entry.function, len(args), len(ins)))
        for i, (x, t) in enumerate(zip(ins, args)):
            if x.dtype != t.dtype or not t.matches(x.shape):
                raise CaseError("@%s input %d: got %s %s, signature says %r"
                                % (entry.function, i, x.dtype.str, x.shape, t))
        exp = entry.reference(*[x.copy() for x in ins])
        if isinstance(exp, np.ndarray) or not isinstance(exp, (list, tuple)):
            raise CaseError("reference() must return a list of arrays")
        exp = [e2eutil.contiguous(x) for x in exp]
        if len(exp) != len(results):
            raise CaseError("@%s has %d results, reference() returned %d"
                            % (entry.function, len(results), len(exp)))
        for i, (x, t) in enumerate(zip(exp, results)):
            if x.dtype != t.dtype or not t.matches(x.shape):
                raise CaseError("@%s result %d: reference gives %s %s, signature says %r"
                                % (entry.function, i, x.dtype.str, x.shape, t))
        kinds = [t.kind for t in results]
        tols = []
        for i, k in enumerate(kinds):
            t = entry.tol_for(i, len(results))
            if k in ("float", "bf16"):
                if t is None:
                    raise CaseError("@%s result %d is floating point but the case has no TOL"
                                    % (entry.function, i))
                tols.append(float(t))
            else:
                tols.append(0.0)
        return entry, ins, exp, kinds, tols


# ----------------------------------------------------------------------------
# Running tools.
# ----------------------------------------------------------------------------


def _tail(s, n=STDERR_TAIL_CHARS):
    s = (s or "").strip()
    if len(s) > n:
        s = "..." + s[-n:]
    return s.replace("\n", "\n    ")


def run_tool(cmd, timeout):
    """Returns None on success or a failure description."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=timeout)
    except FileNotFoundError:
        return "cannot execute %s" % cmd[0]
    except subprocess.TimeoutExpired:
        return "timed out after %ss: %s" % (timeout, " ".join(cmd))
    if p.returncode != 0:
        why = "exit status %d" % p.returncode
        if p.returncode < 0:
            why = "killed by signal %d" % -p.returncode
        out = (p.stderr or "") + ("\n" + p.stdout if p.stdout and p.stdout.strip() else "")
        return "%s: %s\n    %s" % (why, " ".join(cmd), _tail(out))
    return None


def compile_case(args, case, tmod):
    cmd = ([args.compiler, case.mlir, "--target=" + args.target, "-o", tmod]
           + case.compiler_args + list(args.compiler_arg or []))
    err = run_tool(cmd, args.timeout)
    if err is None and not os.path.exists(tmod):
        err = "%s exited 0 but wrote no %s" % (args.compiler, tmod)
    return err


def run_and_compare(args, tmod, function, in_files, exp_arrays, kinds, tols, out_prefix):
    """Runs one function and compares. Returns None or a failure reason."""
    out_files = ["%s_out%d.npy" % (out_prefix, i) for i in range(len(exp_arrays))]
    for f in out_files:
        if os.path.exists(f):
            os.remove(f)
    cmd = [args.runner, tmod, "--function=" + function]
    if args.device:
        cmd.append("--device=" + args.device)
    cmd += ["--input=@" + f for f in in_files]
    cmd += ["--output=@" + f for f in out_files]
    cmd += list(args.runner_arg or [])
    err = run_tool(cmd, args.timeout)
    if err:
        return "run @%s failed: %s" % (function, err)
    problems = []
    for i, (f, exp, kind, tol) in enumerate(zip(out_files, exp_arrays, kinds, tols)):
        if not os.path.exists(f):
            problems.append("@%s result %d: %s not written" % (function, i, os.path.basename(f)))
            continue
        try:
            got = np.load(f, allow_pickle=False)
        except Exception as e:  # noqa: BLE001
            problems.append("@%s result %d: cannot load %s: %s" % (function, i, f, e))
            continue
        why = e2eutil.compare(got, exp, kind, tol)
        if why:
            problems.append("@%s result %d: %s" % (function, i, why))
    return "; ".join(problems) if problems else None


def save_npy(path, arr):
    np.save(path, e2eutil.contiguous(arr), allow_pickle=False)


# ----------------------------------------------------------------------------
# Modes.
# ----------------------------------------------------------------------------


def do_run_case(args, name, workdir):
    cdir = os.path.join(workdir, name)
    os.makedirs(cdir, exist_ok=True)
    try:
        case = Case(name)
        materialized = [case.materialize(i) for i in range(len(case.entries))]
    except CaseError as e:
        return "bad case: %s" % e
    except Exception:  # noqa: BLE001
        return "bad case: exception in case code:\n    " + _tail(traceback.format_exc())
    tmod = os.path.join(cdir, name + ".tmod")
    err = compile_case(args, case, tmod)
    if err:
        return "compile failed: " + err
    problems = []
    for idx, (entry, ins, exp, kinds, tols) in enumerate(materialized):
        prefix = os.path.join(cdir, "e%d" % idx)
        in_files = []
        for i, x in enumerate(ins):
            f = "%s_in%d.npy" % (prefix, i)
            save_npy(f, x)
            in_files.append(f)
        for i, x in enumerate(exp):
            save_npy("%s_exp%d.npy" % (prefix, i), x)
        why = run_and_compare(args, tmod, entry.function, in_files, exp, kinds, tols, prefix)
        if why:
            problems.append(why)
    return "; ".join(problems) if problems else None


def run_parallel(names, jobs, fn, ok_word="PASS"):
    """Calls fn(name) -> None|reason on a pool; prints PASS/FAIL lines as
    they complete. Returns the list of failed names."""
    failed = []
    lock = threading.Lock()

    def report(name, why):
        with lock:
            if why is None:
                print("%s %s" % (ok_word, name), flush=True)
            else:
                print("FAIL %s: %s" % (name, why), flush=True)
                failed.append(name)

    def wrapped(name):
        try:
            why = fn(name)
        except Exception:  # noqa: BLE001
            why = "runner exception:\n    " + _tail(traceback.format_exc())
        report(name, why)

    if jobs <= 1:
        for n in names:
            wrapped(n)
    else:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            list(pool.map(wrapped, names))
    return failed


def summarize(names, failed):
    print("%d passed, %d failed" % (len(names) - len(failed), len(failed)))
    if failed:
        print("failed: " + " ".join(sorted(failed)))
    return 1 if failed else 0


def select_cases(args, available):
    if not args.case:
        return available
    names = []
    for c in args.case:
        for n in c.split(","):
            n = n.strip()
            if n.endswith(".mlir") or n.endswith(".py"):
                n = os.path.splitext(os.path.basename(n))[0]
            if not n:
                continue
            if n not in available:
                sys.exit("run_e2e.py: unknown case %r (see --list)" % n)
            if n not in names:
                names.append(n)
    return names


def make_workdir(args):
    if args.workdir:
        os.makedirs(args.workdir, exist_ok=True)
        return os.path.abspath(args.workdir), False
    return tempfile.mkdtemp(prefix="tessel-e2e-"), True


def mode_run(args):
    names = select_cases(args, list_cases())
    workdir, temporary = make_workdir(args)
    failed = run_parallel(names, args.jobs, lambda n: do_run_case(args, n, workdir))
    if temporary:
        if failed and not args.clean:
            print("work files kept in %s" % workdir)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return summarize(names, failed)


def mode_prepare(args):
    names = select_cases(args, list_cases())
    out = os.path.abspath(args.prepare)
    os.makedirs(out, exist_ok=True)
    records = {}

    def prep(name):
        rec = {"name": name, "module": None, "error": None, "entries": []}
        records[name] = rec
        cdir = os.path.join(out, name)
        os.makedirs(cdir, exist_ok=True)
        try:
            case = Case(name)
            materialized = [case.materialize(i) for i in range(len(case.entries))]
        except CaseError as e:
            rec["error"] = "bad case: %s" % e
            return rec["error"]
        except Exception:  # noqa: BLE001
            rec["error"] = "bad case: exception in case code:\n    " + _tail(traceback.format_exc())
            return rec["error"]
        tmod = os.path.join(cdir, name + ".tmod")
        err = compile_case(args, case, tmod)
        if err:
            rec["error"] = "compile failed: " + err
            return rec["error"]
        rec["module"] = os.path.relpath(tmod, out)
        # The sources, from which --check draws inputs and references again.
        for src in (case.mlir, case.py):
            shutil.copy(src, cdir)
        rec["entries"] = [{"function": entry.function} for entry in case.entries]
        return None

    failed = run_parallel(names, args.jobs, prep, ok_word="PREPARED")
    manifest = {"version": MANIFEST_VERSION, "target": args.target,
                "compiler_args": list(args.compiler_arg or []),
                "cases": [records[n] for n in names]}
    with open(os.path.join(out, MANIFEST), "w") as f:
        json.dump(manifest, f, indent=1)
    # This script and the helpers cases import (e2eutil, convref, ...).
    for src in os.listdir(HERE):
        if src.endswith(".py"):
            shutil.copy(os.path.join(HERE, src), os.path.join(out, src))
    print("prepared %d cases in %s (%d failed to prepare)" % (len(names) - len(failed), out, len(failed)))
    return 1 if failed else 0


def mode_check(args):
    root = os.path.abspath(args.check)
    with open(os.path.join(root, MANIFEST)) as f:
        manifest = json.load(f)
    if manifest.get("version") != MANIFEST_VERSION:
        sys.exit("run_e2e.py: unsupported manifest version %r" % manifest.get("version"))
    by_name = {c["name"]: c for c in manifest["cases"]}
    names = select_cases(args, [c["name"] for c in manifest["cases"]])
    workdir, temporary = make_workdir(args)

    def check(name):
        rec = by_name[name]
        if rec.get("error"):
            return "(at prepare time) " + rec["error"]
        cdir = os.path.join(workdir, name)
        os.makedirs(cdir, exist_ok=True)
        tmod = os.path.join(root, rec["module"])
        try:
            case = Case(name, cases_dir=os.path.join(root, name))
            materialized = [case.materialize(i) for i in range(len(case.entries))]
        except Exception:  # noqa: BLE001
            return "bad case: " + _tail(traceback.format_exc())
        problems = []
        for idx, (entry, ins, exp, kinds, tols) in enumerate(materialized):
            prefix = os.path.join(cdir, "e%d" % idx)
            in_files = []
            for i, x in enumerate(ins):
                in_files.append("%s_in%d.npy" % (prefix, i))
                save_npy(in_files[-1], x)
            why = run_and_compare(args, tmod, entry.function, in_files, exp, kinds, tols, prefix)
            if why:
                problems.append(why)
        return "; ".join(problems) if problems else None

    failed = run_parallel(names, args.jobs, check)
    if temporary:
        if failed and not args.clean:
            print("work files kept in %s" % workdir)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return summarize(names, failed)


def default_tool(env, name):
    return os.environ.get(env) or shutil.which(name) or name


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compiler", default=default_tool("TESSEL_COMPILE", "tessel-compile"),
                    help="tessel-compile binary (default: $TESSEL_COMPILE or PATH)")
    ap.add_argument("--runner", default=default_tool("TESSEL_RUN", "tessel-run"),
                    help="tessel-run binary (default: $TESSEL_RUN or PATH)")
    ap.add_argument("--target", default="cpu", help="compile target (default cpu)")
    ap.add_argument("--device", default=None, help="passed to tessel-run as --device=")
    ap.add_argument("--case", action="append", help="case name(s) to run (repeatable, comma-separated)")
    ap.add_argument("--workdir", help="keep work files here (default: a temp dir, removed on success)")
    ap.add_argument("--clean", action="store_true", help="remove the temp work dir even on failure")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="parallel cases")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per compile/run command")
    ap.add_argument("--compiler-arg", action="append", help="extra argument for tessel-compile")
    ap.add_argument("--runner-arg", action="append", help="extra argument for tessel-run")
    ap.add_argument("--cases-dir", help="directory holding NAME.mlir + NAME.py (default: cases/ next to this script)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--list", action="store_true", help="print case names and exit")
    mode.add_argument("--prepare", metavar="DIR", help="compile cases and write a self-contained DIR")
    mode.add_argument("--check", metavar="DIR", help="run a DIR made by --prepare")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        ap.error("-j must be >= 1")
    if args.cases_dir:
        global CASES_DIR
        CASES_DIR = os.path.abspath(args.cases_dir)

    if args.list:
        for n in list_cases():
            print(n)
        return 0
    if args.prepare:
        return mode_prepare(args)
    if args.check:
        return mode_check(args)
    return mode_run(args)


if __name__ == "__main__":
    sys.exit(main())
