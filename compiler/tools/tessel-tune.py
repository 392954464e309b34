#!/usr/bin/env python3
"""tessel-tune: time each dispatch's candidate strategies on the GPU or
the CPU and write a tuning database that `tessel-compile --tuning-db` uses.

Two steps, so that the compile can run where the compiler is and the
timing where the device is (or both on one machine):

  tessel-tune.py prepare PROGRAM.mlir -o DIR [--function=F]
                 [--target=cuda [--cuda-arch=sm_90a] | --target=cpu [--cpu=host]]
                 [--max-candidates=N] [--compiler=tessel-compile] [-- FLAGS...]
      Compiles PROGRAM once with the cost model's strategies, asking the
      compiler for each dispatch's key and candidates
      (--tessel-strategy-report), then once per round r (r = 1, 2, ...)
      with candidate r of every dispatch forced (--tessel-strategy-file).
      --max-candidates keeps the cost model's and N - 1 more, evenly spaced
      over each dispatch's list.
      Writes DIR/plan.json, DIR/default.tmod, DIR/round_R.tmod. Rounds
      already compiled are kept (resumes). For the cpu, --cpu names the
      machine that will measure (an LLVM CPU such as x86-64-v4 or
      sapphirerapids; host: this one), as tessel-compile --cpu.

  tessel-tune.py measure DIR [--db=FILE] [--budget=SECONDS] [--bench=tessel-bench]
      Times the default module and every round with tessel-bench on the
      plan's device (cuda: device events, per dispatch when the function
      has several; cpu: wall clock of the call; median of --runs after
      warm-up), on the same random inputs, and checks every
      round's outputs against the default module's. Each dispatch gets the
      fastest candidate whose round computed the same outputs. Progress is
      saved after each round in DIR/measure.json: a run cut short by
      --budget (or anything else) resumes where it stopped. Writes (or
      updates) the database FILE (default DIR/tuning.json).

The database holds, per dispatch: the target description, the dispatch
key, its signature, the strategy, its time and the default's, the date and
the device (tessel/Codegen/Common/TuningDatabase.h).
"""

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import time

DTYPES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64",
          "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64"}


class TuneError(Exception):
    pass


def find_tool(name, given):
    if given:
        return given
    here = os.path.dirname(os.path.abspath(__file__))
    for cand in (os.path.join(here, "..", "..", "build", "compiler", "tools", name),
                 os.path.join(here, "..", "..", "build", "runtime", name),
                 os.path.join(here, name)):
        if os.path.exists(cand):
            return os.path.abspath(cand)
    found = shutil.which(name)
    if not found:
        raise TuneError(f"{name} not found (give --{name.split('-')[1]}=PATH)")
    return found


def public_functions(text):
    """{name: (arguments as [(shape, dtype)], number of results)} of the
    program's public functions."""
    funcs = {}
    for m in re.finditer(r"func\.func\s+(private\s+)?@([\w$.]+)\s*\(([^)]*)\)\s*(->\s*(\([^{]*\)|[^{]*))?\{",
                         text):
        if m.group(1):
            continue
        name, results = m.group(2), m.group(5) or ""
        args = []
        for t in re.findall(r"tensor<([^>]*)>", m.group(3)):
            *dims, elem = t.split("x")
            if elem not in DTYPES or any(not d.isdigit() for d in dims):
                # Reported if this is the function to tune.
                args = f"@{name}: argument tensor<{t}>: tessel-tune draws inputs of " \
                       f"static shapes and of {', '.join(DTYPES)} only"
                break
            args.append(([int(d) for d in dims], DTYPES[elem]))
        funcs[name] = (args, results.count("tensor<"))
    return funcs


def run(cmd, what):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise TuneError(f"{what} failed (exit {p.returncode}): {' '.join(cmd)}\n"
                        f"{(p.stderr or p.stdout)[-3000:]}")
    return p


def prepare(args):
    compiler = find_tool("tessel-compile", args.compiler)
    with open(args.program) as f:
        funcs = public_functions(f.read())
    if not funcs:
        raise TuneError(f"{args.program}: no public function")
    function = args.function or next(iter(funcs))
    if function not in funcs:
        raise TuneError(f"{args.program} has no public function @{function} "
                        f"(it has: {', '.join(funcs)})")
    if isinstance(funcs[function][0], str):
        raise TuneError(funcs[function][0])
    os.makedirs(args.out, exist_ok=True)
    if args.target == "cuda":
        # Strategy-file entries for this arch; the report is per arch.
        arch = args.cuda_arch
        base = [compiler, args.program, "--target=cuda", f"--cuda-arch={arch}"] + args.flags
        forced_target = arch
    else:
        # One cpu variant: the report is PREFIX.<cpu>.json.
        arch = args.cpu
        if "," in arch:
            raise TuneError(f"--cpu={arch}: tune one CPU at a time")
        base = [compiler, args.program, "--target=cpu", f"--cpu={arch}"] + args.flags
        forced_target = "cpu"
    report_prefix = os.path.join(args.out, "report")
    run(base + [f"--tessel-strategy-report={report_prefix}",
                "-o", os.path.join(args.out, "default.tmod")], "the default compile")
    with open(f"{report_prefix}.{arch}.json") as f:
        report = json.load(f)
    prefix = function + "_dispatch_"
    dispatches = sorted((d for d in report["dispatches"] if d["name"].startswith(prefix)),
                        key=lambda d: int(d["name"][len(prefix):]))
    if not dispatches:
        raise TuneError(f"@{function} has no dispatch in {report_prefix}.{arch}.json")
    if args.max_candidates:
        for d in dispatches:
            d["candidates"] = spread(d["candidates"], args.max_candidates)
    count = max(len(d["candidates"]) for d in dispatches)
    rounds = []
    for r in range(1, count):
        forced = {d["name"]: d["candidates"][r] for d in dispatches if r < len(d["candidates"])}
        strategy_file = os.path.join(args.out, f"round_{r}.json")
        module = os.path.join(args.out, f"round_{r}.tmod")
        if not os.path.exists(module):
            with open(strategy_file, "w") as f:
                json.dump({"strategies": [{"dispatch": n, "target": forced_target, "strategy": s}
                                          for n, s in forced.items()]}, f, indent=1)
            run(base + [f"--tessel-strategy-file={strategy_file}", "-o", module + ".tmp"],
                f"round {r}'s compile")
            os.replace(module + ".tmp", module)
        rounds.append({"module": os.path.basename(module), "strategies": forced})
        progress(r, count - 1, "compiled")
    plan = {"program": os.path.abspath(args.program), "function": function,
            "device": args.target, "arch": arch, "target": report["target"],
            "inputs": [{"shape": s, "dtype": t} for s, t in funcs[function][0]],
            "results": funcs[function][1],
            "dispatches": dispatches, "rounds": rounds}
    with open(os.path.join(args.out, "plan.json"), "w") as f:
        json.dump(plan, f, indent=1)
    print(f"tessel-tune: {len(dispatches)} dispatch(es), {len(rounds)} round(s) in {args.out}")


def spread(candidates, most):
    """At most `most` of `candidates`: the first (the cost model's) and the
    rest evenly spaced over the list (every tile size, a range of stage
    counts), in order."""
    if len(candidates) <= most:
        return candidates
    if most <= 1:
        return candidates[:1]
    rest = candidates[1:]
    picks = sorted({round(i * (len(rest) - 1) / max(most - 2, 1)) for i in range(most - 1)})
    return candidates[:1] + [rest[i] for i in picks]


def progress(done, total, what, start=None):
    width = 30
    filled = width * done // max(total, 1)
    extra = f" {time.time() - start:.0f}s" if start else ""
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {what}{extra}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def bench(tool, module, plan, inputs, outputs, json_path, runs):
    # A small copy ceiling: tessel-bench measures one per call, and the
    # tuner compares times, not bandwidth.
    device = plan.get("device", "cuda")
    cmd = [tool, module, f"--function={plan['function']}", f"--device={device}", f"--runs={runs}",
           "--copy-bytes=1048576", f"--json={json_path}"] + [f"--input=@{p}" for p in inputs] + \
          [f"--output=@{p}" for p in outputs]
    run(cmd, f"tessel-bench {os.path.basename(module)}")
    with open(json_path) as f:
        result = json.load(f)
    per = result.get("per_dispatch") or []
    if per:
        return [d["median_us"] for d in per]
    return [result["median_us"]]


def same_outputs(np, got_paths, ref_paths):
    """None if every output matches the default's, else why not."""
    for g, r in zip(got_paths, ref_paths):
        got, ref = np.load(g), np.load(r)
        if ref.dtype == np.uint16:  # bf16 results, as their 16 bits
            got, ref = [(x.astype(np.uint32) << 16).view(np.float32) for x in (got, ref)]
        if got.shape != ref.shape:
            return f"shape {got.shape} != {ref.shape}"
        if np.issubdtype(ref.dtype, np.floating):
            got64, ref64 = got.astype(np.float64), ref.astype(np.float64)
            if not np.all(np.isfinite(got64) == np.isfinite(ref64)):
                return "NaN or Inf where the default has none (or the reverse)"
            scale = max(float(np.max(np.abs(ref64))), 1e-30)
            err = float(np.max(np.abs(got64 - ref64))) / scale
            if err > 1e-2:
                return f"max error {err:.2e} of the largest output"
        elif not np.array_equal(got, ref):
            return "integer outputs differ"
    return None


def measure(args):
    import numpy as np
    tool = find_tool("tessel-bench", args.bench)
    with open(os.path.join(args.dir, "plan.json")) as f:
        plan = json.load(f)
    work = os.path.join(args.dir, "work")
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(0)
    inputs = []
    for i, spec in enumerate(plan["inputs"]):
        if spec["dtype"] == "bfloat16":
            # bf16 travels as its 16 bits (uint16), as tessel-run reads it.
            f = rng.standard_normal(spec["shape"]).astype(np.float32)
            a = (f.view(np.uint32) >> 16).astype(np.uint16)
            path = os.path.join(work, f"in{i}.npy")
            np.save(path, a)
            inputs.append(path)
            continue
        dtype = np.dtype(spec["dtype"])
        if np.issubdtype(dtype, np.floating):
            a = rng.standard_normal(spec["shape"]).astype(dtype)
        else:
            a = rng.integers(-100, 100, spec["shape"]).astype(dtype)
        path = os.path.join(work, f"in{i}.npy")
        np.save(path, a)
        inputs.append(path)
    state_path = os.path.join(args.dir, "measure.json")
    state = {"rounds": {}}
    if os.path.exists(state_path):
        with open(state_path) as f:
            state = json.load(f)
    start = time.time()
    if "default" not in state:
        ref = [os.path.join(work, f"ref{k}.npy") for k in range(plan["results"])]
        state["default"] = bench(tool, os.path.join(args.dir, "default.tmod"), plan, inputs,
                                 ref, os.path.join(work, "default.json"), args.runs)
    ref = [os.path.join(work, f"ref{k}.npy") for k in range(plan["results"])]
    rounds = plan["rounds"]
    for r, rnd in enumerate(rounds, start=1):
        if str(r) in state["rounds"]:
            continue
        if args.budget and time.time() - start > args.budget:
            sys.stderr.write(f"\ntessel-tune: budget of {args.budget} s spent after "
                             f"{len(state['rounds'])} of {len(rounds)} rounds; run again to go on\n")
            break
        got = [os.path.join(work, f"out{k}.npy") for k in range(plan["results"])]
        try:
            times = bench(tool, os.path.join(args.dir, rnd["module"]), plan, inputs, got,
                          os.path.join(work, f"round_{r}.json"), args.runs)
            why = same_outputs(np, got, ref)
        except TuneError as e:
            times, why = None, str(e).splitlines()[0]
        state["rounds"][str(r)] = {"times_us": times, "wrong": why}
        with open(state_path + ".tmp", "w") as f:
            json.dump(state, f, indent=1)
        os.replace(state_path + ".tmp", state_path)
        progress(r, len(rounds), "rounds", start)
    with open(state_path, "w") as f:
        json.dump(state, f, indent=1)
    write_db(args, plan, state)


def write_db(args, plan, state):
    db_path = args.db or os.path.join(args.dir, "tuning.json")
    db = {"tessel_tuning_db": 1, "entries": []}
    if os.path.exists(db_path):
        with open(db_path) as f:
            db = json.load(f)
    device = "?"
    default_json = os.path.join(args.dir, "work", "default.json")
    if os.path.exists(default_json):
        with open(default_json) as f:
            device = json.load(f).get("device", "?")
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    print(f"{'dispatch':28} {'default us':>11} {'tuned us':>9} {'speedup':>8}  strategy")
    for i, d in enumerate(plan["dispatches"]):
        default_us = state["default"][i]
        best, best_us = d["strategy"], default_us
        for r, rnd in enumerate(plan["rounds"], start=1):
            res = state["rounds"].get(str(r))
            if not res or res["wrong"] or d["name"] not in rnd["strategies"]:
                continue
            if res["times_us"][i] < best_us:
                best, best_us = rnd["strategies"][d["name"]], res["times_us"][i]
        db["entries"] = [e for e in db["entries"]
                         if not (e["target"] == plan["target"] and e["key"] == d["key"])]
        db["entries"].append({"target": plan["target"], "key": d["key"],
                              "signature": d["signature"], "dispatch": d["name"],
                              "strategy": best, "time_us": best_us, "default_us": default_us,
                              "date": date, "device": device})
        print(f"{d['name']:28} {default_us:11.2f} {best_us:9.2f} {default_us / best_us:7.2f}x  {best}")
    wrong = {r: v["wrong"] for r, v in state["rounds"].items() if v["wrong"]}
    for r, why in sorted(wrong.items(), key=lambda kv: int(kv[0])):
        print(f"round {r} not used: {why}")
    with open(db_path + ".tmp", "w") as f:
        json.dump(db, f, indent=1)
    os.replace(db_path + ".tmp", db_path)
    print(f"tessel-tune: wrote {db_path} ({len(db['entries'])} entries)")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare", help="compile the default module and one per round")
    p.add_argument("program")
    p.add_argument("-o", "--out", required=True)
    p.add_argument("--function")
    p.add_argument("--target", choices=("cuda", "cpu"), default="cuda")
    p.add_argument("--cuda-arch", default="sm_90a")
    p.add_argument("--cpu", default="host", help="the CPU that measures (tessel-compile --cpu)")
    p.add_argument("--max-candidates", type=int, default=0)
    p.add_argument("--compiler")
    p.add_argument("flags", nargs="*", help="more tessel-compile flags (after --)")
    m = sub.add_parser("measure", help="time the rounds on the device, write the database")
    m.add_argument("dir")
    m.add_argument("--db")
    m.add_argument("--budget", type=float, default=0, help="seconds (0: no limit)")
    m.add_argument("--runs", type=int, default=50)
    m.add_argument("--bench")
    args = ap.parse_args(argv)
    try:
        (prepare if args.command == "prepare" else measure)(args)
    except (TuneError, OSError, KeyError, ValueError) as e:
        sys.stderr.write(f"tessel-tune: error: {e}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
