#!/usr/bin/env python3
"""Build and run the self-checking CUDA C programs of test/cuda-e2e.

Each case is one NAME.cu here: a whole CUDA program whose main computes a
reference on the host, compares, prints `PASS NAME` and returns 0 (or prints
the first mismatches, `FAIL NAME: ...`, and returns 1). Most also print
`CHECKSUM NAME <hex>` over results that are exact on every target.

Modes:
  run_cuda_e2e.py --list
      print the case names, one per line.
  run_cuda_e2e.py --tessel-cc PATH [--target cpu] [--case NAME ...] [--workdir DIR]
      build each case with `tessel-cc --target=T NAME.cu -o WORK/NAME`, run it,
      check exit status 0 and the PASS line. One `PASS NAME` / `FAIL NAME: why`
      line per case, then a summary; exit status 1 if anything failed.
  run_cuda_e2e.py --tessel-cc PATH --build-only OUT [--target cpu,cuda] [--case ...]
      build only, into OUT/NAME, plus a copy of this script and OUT/cases.txt,
      so that OUT can be carried to another machine (the GPU one).
  run_cuda_e2e.py --run-dir DIR [--devices cpu,cuda] [--case ...]
      run prebuilt binaries DIR/NAME, once per device with TESSEL_DEVICE set to
      it (binaries built with --target=cpu,cuda), checking each run and that
      the CHECKSUM lines of all devices agree.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = "cases.txt"
OUTPUT_TAIL = 3000


def list_cases(src_dir=HERE):
    return sorted(f[:-3] for f in os.listdir(src_dir)
                  if f.endswith(".cu") and not f.startswith("_"))


def tail(text, n=OUTPUT_TAIL):
    text = text.strip()
    return text if len(text) <= n else "...\n" + text[-n:]


def build(tessel_cc, target, case, out_dir, extra):
    """Returns (exe, None) or (None, why)."""
    exe = os.path.join(out_dir, case)
    src = os.path.join(HERE, case + ".cu")
    cmd = [tessel_cc, "--target=" + target] + extra + [src, "-o", exe]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=600)
    except subprocess.TimeoutExpired:
        return None, "build timed out: " + " ".join(cmd)
    if p.returncode != 0 or not os.path.exists(exe):
        return None, "build failed (exit %d): %s\n%s" % (p.returncode, " ".join(cmd),
                                                        tail(p.stdout))
    return exe, None


def run(exe, case, device, timeout):
    """Runs one binary. Returns (ok, why, checksums)."""
    env = dict(os.environ)
    if device:
        env["TESSEL_DEVICE"] = device
    try:
        p = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return False, "timed out after %ds" % timeout, {}
    out = p.stdout
    checksums = dict(re.findall(r"^CHECKSUM (\S+) ([0-9a-fA-F]+)$", out, re.M))
    passed = re.search(r"^PASS %s$" % re.escape(case), out, re.M) is not None
    if p.returncode != 0 or not passed:
        why = "exit status %d%s" % (p.returncode, "" if passed else ", no 'PASS %s' line" % case)
        return False, "%s\n%s" % (why, tail(out)), checksums
    return True, None, checksums


def report(results):
    failed = [c for c, ok in results if not ok]
    print("%d passed, %d failed%s" % (len(results) - len(failed), len(failed),
                                      (": " + " ".join(failed)) if failed else ""))
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tessel-cc", metavar="PATH", help="the tessel-cc to build with")
    ap.add_argument("--target", default="cpu", help="tessel-cc --target (cpu, cuda, cpu,cuda)")
    ap.add_argument("--case", action="append", default=[], metavar="NAME",
                    help="only this case (repeatable)")
    ap.add_argument("--workdir", metavar="DIR", help="keep the binaries here")
    ap.add_argument("--list", action="store_true", help="list the cases")
    ap.add_argument("--build-only", metavar="OUT", help="build into OUT, do not run")
    ap.add_argument("--run-dir", metavar="DIR", help="run the prebuilt binaries in DIR")
    ap.add_argument("--devices", default="cpu,cuda",
                    help="with --run-dir: the TESSEL_DEVICE values to run each binary with")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per run")
    ap.add_argument("--cc-arg", action="append", default=[], metavar="ARG",
                    help="extra tessel-cc argument (repeatable)")
    a = ap.parse_args()

    if a.list:
        for c in list_cases():
            print(c)
        return 0

    if a.run_dir:
        run_dir = os.path.abspath(a.run_dir)
        cases = a.case
        if not cases:
            manifest = os.path.join(run_dir, MANIFEST)
            if os.path.exists(manifest):
                with open(manifest) as f:
                    cases = [l.strip() for l in f if l.strip()]
            else:
                cases = [c for c in list_cases() if os.path.exists(os.path.join(run_dir, c))]
        devices = [d for d in a.devices.split(",") if d]
        results = []
        for case in cases:
            exe = os.path.join(run_dir, case)
            if not os.path.exists(exe):
                print("FAIL %s: no binary %s" % (case, exe))
                results.append((case, False))
                continue
            ok, sums = True, {}
            for dev in devices:
                r, why, checksums = run(exe, case, dev, a.timeout)
                if not r:
                    print("FAIL %s [TESSEL_DEVICE=%s]: %s" % (case, dev, why))
                    ok = False
                sums[dev] = checksums
            present = {d: s for d, s in sums.items() if s}
            if len(set(tuple(sorted(s.items())) for s in present.values())) > 1:
                print("FAIL %s: checksums differ between devices: %s" % (
                    case, "; ".join("%s %s" % (d, " ".join("%s=%s" % kv for kv in sorted(s.items())))
                                    for d, s in present.items())))
                ok = False
            if ok:
                print("PASS %s [%s]%s" % (case, ",".join(devices),
                                          (" checksum " + " ".join(sorted(
                                              next(iter(present.values())).values())))
                                          if present else ""))
            results.append((case, ok))
        return report(results)

    if not a.tessel_cc:
        ap.error("--tessel-cc is required (or --list / --run-dir)")
    tessel_cc = os.path.abspath(a.tessel_cc) if os.sep in a.tessel_cc else a.tessel_cc
    known = list_cases()
    cases = a.case or known
    for c in cases:
        if c not in known:
            ap.error("no such case %r (have: %s)" % (c, " ".join(known)))

    if a.build_only:
        out = os.path.abspath(a.build_only)
        os.makedirs(out, exist_ok=True)
        results = []
        built = []
        for case in cases:
            exe, why = build(tessel_cc, a.target, case, out, a.cc_arg)
            if exe:
                print("built %s" % exe)
                built.append(case)
            else:
                print("FAIL %s: %s" % (case, why))
            results.append((case, exe is not None))
        shutil.copy(os.path.abspath(__file__), os.path.join(out, os.path.basename(__file__)))
        with open(os.path.join(out, MANIFEST), "w") as f:
            f.write("".join(c + "\n" for c in built))
        return report(results)

    work = a.workdir
    tmp = None
    if work:
        work = os.path.abspath(work)
        os.makedirs(work, exist_ok=True)
    else:
        tmp = tempfile.mkdtemp(prefix="cuda-e2e-")
        work = tmp
    try:
        results = []
        for case in cases:
            exe, why = build(tessel_cc, a.target, case, work, a.cc_arg)
            if not exe:
                print("FAIL %s: %s" % (case, why))
                results.append((case, False))
                continue
            ok, why, _ = run(exe, case, None, a.timeout)
            print(("PASS %s" % case) if ok else ("FAIL %s: %s" % (case, why)))
            results.append((case, ok))
        return report(results)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
