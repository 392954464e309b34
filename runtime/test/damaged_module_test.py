#!/usr/bin/env python3
"""Damaged-module test suite: runs tessel-run on deterministic mutants of
valid modules and classifies every run (standard library only).

usage: damaged_module_test.py TESSEL_RUN MAKE_TEST_MODULE WORKDIR
                              [--mutants=N] [--seed=S] [--timeout=SEC]
                              [--jobs=J] [--report]

make_test_module writes add.tmod and multi.tmod (cpu executables holding a
real shared object of kernels) into WORKDIR. Each mutant is one of: single
or multiple bit flips, an overwritten byte run, a zeroed range, a
truncation, appended garbage, two swapped sections. Positions are biased
towards the file's head and its last 32 bytes (where the trailer is) so
that every part of the file is hit. Every mutant runs

  tessel-run MUTANT --device=cpu --function=F --input=... (timeout SEC)

and every fourth one also `tessel-run MUTANT --print-module`. Outcomes:

  same     exit 0, stdout identical to the undamaged module's
  error    exit 1 with a "tessel-run: error:" line on stderr
  wrong    exit 0 with different output          (silent wrong result)
  crash    killed by a signal
  hang     still running after SEC seconds
  unclear  any other exit: no message, another exit code, or stderr that
           is not printable ASCII (raw bytes quoted from the file)

Exits 1 unless wrong, crash, hang and unclear are all 0 (ctest runs it
with a few hundred mutants). --report prints the table in Markdown, e.g.

  damaged_module_test.py build-rt/tessel-run build-rt/test/make_test_module \\
      /tmp/mutants --mutants=3000 --report
"""
import argparse
import collections
import concurrent.futures
import os
import random
import shutil
import signal
import subprocess
import sys

# The modules make_test_module writes and a call of each.
CASES = [
    ("add.tmod", ["--function=add", "--input=2x3xf32=1,2,3,4,5,6", "--input=2x3xf32=0.5"],
     "result[0]: 2x3xf32=[[1.5 2.5 3.5][4.5 5.5 6.5]]\n"),
    ("multi.tmod", ["--function=add_scale", "--input=7xf32=1,2,3,4,5,6,7", "--input=7xf32=3"],
     "result[0]: 7xf32=[8 10 12 14 16 18 20]\nresult[1]: 7xf32=[4 5 6 7 8 9 10]\n"),
]

KINDS = ["bitflip", "multibit", "overwrite", "zero", "truncate", "append", "swap"]


def position(rng, size):
    """A byte position, biased to the head and the last 32 bytes."""
    r = rng.random()
    if r < 0.15:
        return rng.randrange(min(64, size))
    if r < 0.30:
        return size - 1 - rng.randrange(min(32, size))
    return rng.randrange(size)


def mutate(data, kind, rng):
    """Returns (mutant bytes, description)."""
    b = bytearray(data)
    n = len(b)
    if kind == "bitflip":
        p = position(rng, n)
        bit = rng.randrange(8)
        b[p] ^= 1 << bit
        return bytes(b), "flip bit %d of byte %d" % (bit, p)
    if kind == "multibit":
        k = rng.randint(2, 16)
        for _ in range(k):
            b[position(rng, n)] ^= 1 << rng.randrange(8)
        return bytes(b), "flip %d bits" % k
    if kind == "overwrite":
        p = position(rng, n)
        k = min(rng.randint(1, 64), n - p)
        b[p:p + k] = bytes(rng.randrange(256) for _ in range(k))
        return bytes(b), "overwrite %d bytes at %d" % (k, p)
    if kind == "zero":
        p = position(rng, n)
        k = min(rng.choice([1, 4, 16, 64, 512, 4096]), n - p)
        b[p:p + k] = bytes(k)
        return bytes(b), "zero %d bytes at %d" % (k, p)
    if kind == "truncate":
        # Short files, cuts near the end (the trailer) and anywhere.
        r = rng.random()
        length = (rng.randrange(64) if r < 0.2 else
                  n - 1 - rng.randrange(min(48, n)) if r < 0.5 else rng.randrange(n))
        return bytes(b[:length]), "truncate to %d bytes" % length
    if kind == "append":
        k = rng.choice([1, 8, 24, 100, 1000])
        return bytes(b) + bytes(rng.randrange(256) for _ in range(k)), "append %d bytes" % k
    if kind == "swap":
        k = min(rng.choice([4, 16, 64, 256, 1024]), n // 2)
        p = rng.randrange(n - 2 * k + 1)
        q = rng.randrange(p + k, n - k + 1)
        b[p:p + k], b[q:q + k] = b[q:q + k], b[p:p + k]
        return bytes(b), "swap %d bytes at %d and %d" % (k, p, q)
    raise ValueError(kind)


def printable_ascii(text):
    return all(c == "\n" or " " <= c <= "~" for c in text)


def run(cmd, timeout):
    """(outcome, signal name or '', stdout, stderr) of one tessel-run call."""
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang", "", "", ""
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode < 0:
        try:
            name = signal.Signals(-p.returncode).name
        except ValueError:
            name = "signal %d" % -p.returncode
        return "crash", name, out, err
    if not printable_ascii(p.stderr.decode("latin-1")):
        return "unclear", "", out, err
    if p.returncode == 0:
        return "ok", "", out, err
    if p.returncode == 1 and "tessel-run: error: " in err:
        return "error", "", out, err
    return "unclear", "", out, err


def check_mutant(args, index, path, case, reference, describe_reference):
    name, call, _ = case
    outcomes = []
    outcome, sig, out, err = run([args.tessel_run, path, "--device=cpu"] + call, args.timeout)
    if outcome == "ok":
        outcome = "same" if out == reference else "wrong"
    outcomes.append(("call", outcome, sig, err))
    if index % 4 == 0:
        outcome, sig, out, err = run([args.tessel_run, path, "--print-module"], args.timeout)
        if outcome == "ok":
            out = out.replace(path, "MODULE")
            outcome = "same" if out == describe_reference[name] else "wrong"
        outcomes.append(("print-module", outcome, sig, err))
    return outcomes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tessel_run")
    ap.add_argument("make_test_module")
    ap.add_argument("workdir")
    ap.add_argument("--mutants", type=int, default=400)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1))
    ap.add_argument("--report", action="store_true", help="print the outcome table (Markdown)")
    args = ap.parse_args()

    os.makedirs(args.workdir, exist_ok=True)
    subprocess.run([args.make_test_module, args.workdir], check=True)

    # The undamaged modules must give the known results, or the suite
    # would compare against garbage.
    originals, describe_reference = {}, {}
    for name, call, expected in CASES:
        path = os.path.join(args.workdir, name)
        with open(path, "rb") as f:
            originals[name] = f.read()
        p = subprocess.run([args.tessel_run, path, "--device=cpu"] + call, capture_output=True,
                           text=True, timeout=60)
        if p.returncode != 0 or p.stdout != expected:
            sys.exit("undamaged %s: exit %d, stdout %r, stderr %r (expected %r)" %
                     (name, p.returncode, p.stdout, p.stderr, expected))
        p = subprocess.run([args.tessel_run, path, "--print-module"], capture_output=True,
                           text=True, timeout=60, check=True)
        describe_reference[name] = p.stdout.replace(path, "MODULE")

    rng = random.Random(args.seed)
    mutant_dir = os.path.join(args.workdir, "mutants")
    shutil.rmtree(mutant_dir, ignore_errors=True)
    os.makedirs(mutant_dir)
    jobs = []
    identical = 0  # mutations that changed nothing (zeroing zeros, ...)
    for i in range(args.mutants):
        case = CASES[i % len(CASES)]
        kind = KINDS[(i // len(CASES)) % len(KINDS)]
        data, what = mutate(originals[case[0]], kind, rng)
        path = os.path.join(mutant_dir, "m%05d.tmod" % i)
        with open(path, "wb") as f:
            f.write(data)
        changed = data != originals[case[0]]
        jobs.append((i, path, case, kind, what, changed))
        identical += not changed

    counts = collections.Counter()
    by_kind = collections.defaultdict(collections.Counter)
    signals = collections.Counter()
    bad = []
    same_changed = 0  # runs of a changed mutant that gave the original's output
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(check_mutant, args, i, path, case, case[2], describe_reference):
                   (path, case, kind, what, changed)
                   for i, path, case, kind, what, changed in jobs}
        for future in concurrent.futures.as_completed(futures):
            path, case, kind, what, changed = futures[future]
            keep = False
            for mode, outcome, sig, err in future.result():
                counts[outcome] += 1
                same_changed += outcome == "same" and changed
                by_kind[kind][outcome] += 1
                if sig:
                    signals[sig] += 1
                if outcome in ("wrong", "crash", "hang", "unclear"):
                    keep = True
                    bad.append("%s: %s of %s, %s: %s %s %s" %
                               (path, what, case[0], mode, outcome, sig, err.strip()[-300:]))
            if not keep:
                os.remove(path)  # failing mutants stay for a rerun

    total = sum(counts.values())
    order = ["same", "error", "wrong", "crash", "hang", "unclear"]
    labels = {"same": "same result as the undamaged module", "error": "a clear error",
              "wrong": "exit 0 with different output", "crash": "crash",
              "hang": "hang (> %g s)" % args.timeout,
              "unclear": "other (no message, odd exit code, raw bytes on stderr)"}
    print("%d mutants (seed %d; %d of them identical to the original), %d tessel-run runs; "
          "%d runs of changed mutants gave the original's output" %
          (args.mutants, args.seed, identical, total, same_changed))
    if args.report:
        print("\n| outcome | runs |\n| --- | --- |")
        for o in order:
            extra = ""
            if o == "crash" and signals:
                extra = " (" + ", ".join("%s %d" % kv for kv in sorted(signals.items())) + ")"
            print("| %s | %d%s |" % (labels[o], counts[o], extra))
        print("\n| mutation | " + " | ".join(order) + " |\n| --- |" + " --- |" * len(order))
        for kind in KINDS:
            print("| %s | " % kind + " | ".join(str(by_kind[kind][o]) for o in order) + " |")
    else:
        print(", ".join("%s %d" % (o, counts[o]) for o in order))
    for line in sorted(bad)[:40]:
        print("FAIL " + line)
    if len(bad) > 40:
        print("... and %d more" % (len(bad) - 40))
    if counts["error"] == 0:
        print("FAIL: no mutant was rejected: the suite did not reach the checks")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
