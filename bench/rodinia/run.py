#!/usr/bin/env python3
"""Rodinia benchmark, the run half (issue 16, item 5): Tessel-transpiled CUDA
against Rodinia's OpenMP versions on the CPU, and against nvcc on the GPU.

    python3 run.py --dir=DIR [--out=OUTDIR] [--only=a,b] [--threads=1,2,4,8,16]
                   [--size=bench|smoke] [--reps=N] [--no-gpu] [--budget=S]
                   [--variants=a,b] [--env-variant=NAME:VAR=VALUE[,VAR=VALUE]]...

DIR is what prepare.sh made (a directory, or DIR.tar.xz, unpacked next to
OUTDIR). On this machine it builds the OpenMP versions (gcc -O3 -fopenmp
-march=native; clang too when `clang -fopenmp` works) and the nvcc builds
(-O3 -arch=sm_90 -cudart shared) in parallel, generates the inputs, then runs:

  phase A, per program: OpenMP and Tessel on the CPU at the highest thread
           count, Tessel's ablation variants and clang there too, in
           --reps rounds that each run every implementation once (host
           drift hits all alike); nvcc and Tessel on the GPU; then checks
           the outputs;
  phase B: the lower thread counts, all programs at 1 thread (for the
           scaling column), then 8, 4, 2; a run whose predicted time does
           not fit in what is left of --budget is skipped (and says so);
           then, while the budget lasts, more runs at those counts (up to
           --reps, medians), the shortest first.

Every run is timed twice: the whole process (wall clock), and the kernel
region: OpenMP, the time inside top-level parallel regions (shims/
omp_region.so); nvcc, events around every kernel launch (shims/
cuda_region.so); Tessel, TESSEL_CUDART_TIMING (its runtime times every
launch to completion). Progress lines go to stdout; OUTDIR/results.json is
rewritten after every run; the tables are printed last and written to
OUTDIR/results.md. See README.md.
"""
import argparse
import concurrent.futures
import datetime
import json
import math
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tarfile
import time

T0 = time.time()

# Programs in the CPU table (both versions run on the CPU) and in the GPU
# table. particlefilter_float is correct only with one block (<= 512
# particles): on the CPU that is one core, so the CPU table has
# particlefilter_naive. gaussian has no OpenMP version.
CPU_TESTS = ["backprop", "bfs", "hotspot", "hotspot3D", "lud", "nn", "nw", "pathfinder",
             "srad_v1", "srad_v2", "streamcluster", "particlefilter_naive", "lavaMD", "b+tree"]
GPU_TESTS = CPU_TESTS + ["gaussian", "particlefilter_float"]
NOTES = [
    "particlefilter: the CPU table uses particlefilter_naive; particlefilter_float is correct "
    "only with one thread block (<= 512 particles), i.e. one core, so it is in the GPU "
    "comparison only.",
    "gaussian has no OpenMP version (GPU comparison only).",
    "hotspot, streamcluster: the OpenMP versions compute something else (hotspot: another "
    "time step; streamcluster: double costs and a race), so they are timed but not checked; "
    "Tessel is checked against nvcc (no GPU: not checked).",
    "region time: OpenMP = wall time inside top-level parallel regions; nvcc = GPU events "
    "around each launch (recorded by the shim through the CUDA runtime); Tessel = each launch "
    "(cpu: host clock around the run; cuda: events its runtime records around the launch on its "
    "stream; launches are queued, as nvcc's). The OpenMP and CUDA versions do not always "
    "parallelise the same parts (e.g. serial loops in one, kernels in the other).",
]


# Programs whose OpenMP region time means something else than Tessel's.
REGION_NOT_COMPARABLE = {
    "nn": "its OpenMP version opens a parallel region around each of 200,000 file reads",
}


def omp_is_ref(t):
    """Whether the OpenMP version's output is a reference for t at this size."""
    return t.omp_comparable and t.reference == "omp" and t.OMP_AGREES


def log(msg):
    print("[%6.1fs] %s" % (time.time() - T0, msg), flush=True)


def sh(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, **kw)


def first_line(cmd):
    try:
        p = sh(cmd, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if p.returncode != 0 or not p.stdout.strip():
        return None
    return p.stdout.strip().splitlines()[0]


def geomean(xs):
    xs = [x for x in xs if x and x > 0 and math.isfinite(x)]
    if not xs:
        return None
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


# ----------------------------------------------------------------------------
# the carried directory


def open_dir(path, out):
    """DIR or DIR.tar.xz -> the directory with manifest.json."""
    if os.path.isdir(path):
        return os.path.abspath(path)
    if path.endswith(".tar.xz") and os.path.isfile(path):
        dest = os.path.join(out, "carry")
        if not os.path.exists(os.path.join(dest, "manifest.json")):
            shutil.rmtree(dest, ignore_errors=True)
            os.makedirs(dest)
            with tarfile.open(path, "r:xz") as tf:
                tf.extractall(dest)
        subs = [os.path.join(dest, d) for d in os.listdir(dest)]
        for d in [dest] + subs:
            if os.path.exists(os.path.join(d, "manifest.json")):
                return d
        sys.exit("%s has no manifest.json" % path)
    sys.exit("--dir %s: neither a directory nor a .tar.xz file" % path)


# ----------------------------------------------------------------------------
# builds


class Builds:
    def __init__(self, carry, out, rr, jobs):
        self.carry, self.out, self.rr, self.jobs = carry, out, rr, jobs
        self.exe = {}      # (test, impl) -> path
        self.failed = {}   # (test, impl) -> message
        self.shim = {}
        self.clang = None

    def shims(self):
        cc = self.rr.CC
        b = os.path.join(self.out, "build", "shims")
        os.makedirs(b, exist_ok=True)
        for name in ("omp_region", "cuda_region"):
            so = os.path.join(b, name + ".so")
            p = sh([cc, "-O2", "-shared", "-fPIC", os.path.join(self.carry, "shims", name + ".c"),
                    "-o", so, "-ldl"])
            if p.returncode != 0:
                sys.exit("building %s failed:\n%s" % (so, p.stdout))
            self.shim[name] = so
        self.shim["fixed_time"] = self.rr.fixed_time_so()

    def find_clang(self):
        """(cc, cxx) of a clang whose -fopenmp builds and runs, else None."""
        t = os.path.join(self.out, "build", "clang-probe")
        os.makedirs(t, exist_ok=True)
        src = os.path.join(t, "p.c")
        with open(src, "w") as f:
            f.write('#include <omp.h>\n#include <stdio.h>\nint main(void){int n=0;\n'
                    '#pragma omp parallel reduction(+:n)\nn+=1;\nprintf("%d\\n",n);return 0;}\n')
        tried = []
        for cc in ("clang", "clang-22", "clang-21", "clang-20", "clang-19", "clang-18"):
            if not shutil.which(cc):
                continue
            cxx = cc.replace("clang", "clang++")
            if not shutil.which(cxx):
                continue
            exe = os.path.join(t, "p-" + cc)
            p = sh([cc, "-O3", "-fopenmp", "-march=native", src, "-o", exe])
            if p.returncode != 0:
                tried.append("%s: %s" % (cc, (p.stdout.strip().splitlines() or ["?"])[-1]))
                continue
            r = sh([exe], env=dict(os.environ, OMP_NUM_THREADS="2"))
            if r.returncode == 0 and r.stdout.strip() == "2":
                return cc, cxx
            tried.append("%s: the test program did not run with 2 threads" % cc)
        log("clang -fopenmp not usable here (%s): no clang column" %
            ("; ".join(tried) if tried else "no clang found"))
        return None

    def all(self, tests, want_gpu_builds, tessel_variants, env_variants):
        rr = self.rr
        self.shims()
        self.clang = self.find_clang()
        jobs = []

        def omp(t, impl, cc=None, cxx=None, c_extra=()):
            bdir = os.path.join(self.out, "build", impl, t.name)
            shutil.rmtree(bdir, ignore_errors=True)
            os.makedirs(bdir)
            return t.omp_build(bdir, cc=cc, cxx=cxx, c_extra=c_extra)

        def nvcc(t):
            bdir = os.path.join(self.out, "build", "nvcc", t.name)
            shutil.rmtree(bdir, ignore_errors=True)
            os.makedirs(bdir)
            return t.nvcc_build(bdir)

        for t in tests:
            if t.name in CPU_TESTS and t.omp:
                jobs.append(((t.name, "omp"), lambda t=t: omp(t, "omp")))
                if self.clang:
                    cc, cxx = self.clang
                    # backprop's K&R C: implicit int and undeclared functions
                    extra = ["-Wno-error=implicit-int", "-Wno-error=implicit-function-declaration",
                             "-Wno-error=int-conversion"]
                    jobs.append(((t.name, "omp-clang"),
                                 lambda t=t, cc=cc, cxx=cxx, e=extra: omp(t, "omp-clang", cc, cxx, e)))
            if want_gpu_builds and t.name in GPU_TESTS:
                jobs.append(((t.name, "nvcc"), lambda t=t: nvcc(t)))
            for v in tessel_variants:
                suffix = "" if v == "" else "." + v
                # An environment variant runs the default build.
                built = "" if v in env_variants else suffix
                exe = os.path.join(self.carry, "bin", t.name, "tessel_" + t.name + built)
                key = (t.name, "tessel" + suffix)
                if os.access(exe, os.X_OK):
                    self.exe[key] = exe
                else:
                    self.failed[key] = "no Tessel binary %s (prepare.sh failed for it?)" % exe
        log("building %d programs (%s) with %d jobs" % (len(jobs), ", ".join(sorted(set(
            k[1] for k, _ in jobs))), self.jobs))
        with concurrent.futures.ThreadPoolExecutor(self.jobs) as ex:
            futs = {ex.submit(fn): key for key, fn in jobs}
            for f in concurrent.futures.as_completed(futs):
                key = futs[f]
                try:
                    self.exe[key] = f.result()
                except Exception as e:  # noqa: BLE001 - reported, not fatal
                    self.failed[key] = str(e).splitlines()[0][:300] + " ..."
                    log("BUILD FAIL %s %s: %s" % (key[0], key[1], str(e)[-1500:]))
        log("builds done: %d ok, %d failed" % (len(self.exe), len(self.failed)))


# ----------------------------------------------------------------------------
# running


REGION_RE = {
    "omp": re.compile(r"omp-region: regions=(\d+) region_ms=([0-9.]+)"),
    "nvcc": re.compile(r"cuda-region: launches=(\d+) kernel_ms=([0-9.]+)"),
    "tessel": re.compile(r"tessel-cudart: timing device=\S+ launches=(\d+) kernel_ms=([0-9.]+)"),
}


class Runner:
    def __init__(self, args, rr, builds, out, gpu):
        self.a, self.rr, self.b, self.out, self.gpu = args, rr, builds, out, gpu
        self.runs = []      # dicts, see record()
        self.checks = {}    # test -> impl -> dict
        self.meta = {}
        self.partial = None   # writes the tables so far (set by main)
        self.budget = args.budget
        self.cuda_lib = None
        root = os.path.dirname(os.path.dirname(os.path.realpath(rr.NVCC)))
        for d in ("lib64", "targets/x86_64-linux/lib", "lib"):
            p = os.path.join(root, d)
            if os.path.isdir(p) and any(f.startswith("libcudart.so") for f in os.listdir(p)):
                self.cuda_lib = p
                break

    def left(self):
        return self.budget - (time.time() - T0)

    # -- one process ---------------------------------------------------------
    def command(self, t, impl, threads):
        """(argv, env additions, region kind) of one configuration."""
        rr = self.rr
        d = rr.inputs(t)
        base, _, variant = impl.partition(".")
        env = {}
        if base in ("omp", "omp-clang"):
            exe = self.b.exe[(t.name, base)]
            rr.OMP_THREADS = str(threads)
            argv = [exe] + t.omp_args(d)
            env.update(OMP_NUM_THREADS=str(threads), OMP_PROC_BIND="close", OMP_PLACES="cores")
            env["LD_PRELOAD"] = self.b.shim["omp_region"]
            return argv, env, "omp"
        if base == "nvcc":
            argv = [self.b.exe[(t.name, "nvcc")]] + t.cuda_args(d)
            env["LD_PRELOAD"] = self.b.shim["cuda_region"]
            if self.cuda_lib:
                env["LD_LIBRARY_PATH"] = self.cuda_lib + (
                    ":" + os.environ["LD_LIBRARY_PATH"] if os.environ.get("LD_LIBRARY_PATH") else "")
            return argv, env, "nvcc"
        # tessel-cpu / tessel-gpu [.variant]
        key = (t.name, "tessel" + ("." + variant if variant else ""))
        argv = [self.b.exe[key]] + t.cuda_args(d)
        env["TESSEL_DEVICE"] = "cpu" if base == "tessel-cpu" else "cuda"
        if base == "tessel-cpu":
            env.update(TESSEL_CPU_THREADS=str(threads), TESSEL_CPU_PIN="1")
        env.update(self.a.env_variants.get(variant, {}))
        return argv, env, "tessel"

    def run(self, t, impl, threads, rep, keep=False, timeout=None):
        """Runs one configuration; returns its record (also stored)."""
        rr = self.rr
        rec = dict(test=t.name, impl=impl, threads=threads, rep=rep, status="ok")
        try:
            argv, extra, kind = self.command(t, impl, threads)
        except KeyError:
            rec["status"] = "no build"
            return self.record(rec)
        label = "%s-%dT-r%d" % (impl, threads, rep)
        top, rundir = rr.make_rundir(t, label)
        region = os.path.join(top, "region.txt")
        env = rr.run_env(t)
        pre = extra.pop("LD_PRELOAD", None)
        if pre:
            env["LD_PRELOAD"] = " ".join(x for x in (env.get("LD_PRELOAD"), pre) if x)
        env.update(extra)
        env["RODINIA_REGION_OUT"] = region
        if kind == "tessel":
            env["TESSEL_CUDART_TIMING"] = region
        if timeout is None:
            timeout = max(10.0, min(self.a.run_timeout, self.left()))
        out_path, err_path = os.path.join(top, "stdout.txt"), os.path.join(top, "stderr.txt")
        start = time.perf_counter()
        try:
            with open(out_path, "w") as fo, open(err_path, "w") as fe:
                p = subprocess.run(argv, cwd=rundir, env=env, stdin=subprocess.DEVNULL,
                                   stdout=fo, stderr=fe, timeout=timeout)
            rec["wall_ms"] = (time.perf_counter() - start) * 1e3
            if p.returncode != 0:
                rec["status"] = "exit %d" % p.returncode
        except subprocess.TimeoutExpired:
            rec["wall_ms"] = (time.perf_counter() - start) * 1e3
            rec["status"] = "timeout (%.0f s)" % timeout
        except OSError as e:
            rec["status"] = "cannot run: %s" % e
        text = rr.read(region) if os.path.exists(region) else ""
        m = REGION_RE[kind].search(text)
        if m:
            rec["region_count"] = int(m.group(1))
            rec["region_ms"] = float(m.group(2))
            fault = re.search(r"cuda_error=(\d+)", text) if kind == "nvcc" else None
            if fault:
                rec["cuda_error"] = int(fault.group(1))
                rec["note"] = "kernels failed with CUDA error %s, which the program " \
                    "ignores" % fault.group(1)
        elif rec["status"] == "ok":
            rec["note"] = "no region time (%s)" % (
                "a cudart without TESSEL_CUDART_TIMING?" if kind == "tessel" else "shim silent")
        err = rr.read(err_path)
        if rec["status"] != "ok":
            rec["stderr_tail"] = (err + "\n" + rr.read(out_path)[-500:])[-1500:]
        if kind == "tessel" and "tessel-cudart:" in err:
            # the runtime reports errors on stderr and goes on; the check
            # shows whether they mattered
            lines = [l for l in err.splitlines() if l.startswith("tessel-cudart:")]
            rec["note"] = "; ".join(lines[:3])[:600]
        if keep and rec["status"] == "ok":
            rec["_dir"] = (top, rundir, out_path, err_path)
        else:
            shutil.rmtree(top, ignore_errors=True)
        return self.record(rec)

    def record(self, rec):
        self.runs.append(rec)
        shown = "%-22s %-18s %3s rep %d: " % (rec["test"], rec["impl"],
                                              "%dT" % rec["threads"] if rec["threads"] else "GPU",
                                              rec["rep"])
        if "wall_ms" in rec:
            shown += "whole %9.1f ms" % rec["wall_ms"]
        if "region_ms" in rec:
            shown += "  region %9.1f ms (%d)" % (rec["region_ms"], rec["region_count"])
        if rec.get("note"):
            shown += "  note: %s" % rec["note"]
        if rec["status"] != "ok":
            shown += "  %s" % rec["status"]
            if rec.get("stderr_tail"):
                shown += "\n      " + rec["stderr_tail"].strip().replace("\n", "\n      ")[-800:]
        log(shown)
        self.save()
        return rec

    def save(self):
        path = os.path.join(self.out, "results.json")
        runs = [{k: v for k, v in r.items() if not k.startswith("_")} for r in self.runs]
        with open(path + ".tmp", "w") as f:
            json.dump({"meta": self.meta, "runs": runs, "checks": self.checks}, f, indent=1)
        os.replace(path + ".tmp", path)

    # -- checks -----------------------------------------------------------------
    def parse(self, t, impl, rec):
        rr = self.rr
        top, rundir, out_path, err_path = rec["_dir"]
        out, err = rr.read(out_path), rr.read(err_path)
        parse = t.parse_omp if impl.startswith("omp") else t.parse_cuda
        return rr.parsed(parse, impl, rundir, out, err)

    def check(self, t, kept):
        """kept: impl -> record with _dir. Fills self.checks[t]."""
        rr = self.rr
        res = self.checks.setdefault(t.name, {})
        ref, ref_name = None, None
        nv = kept.get("nvcc")
        if nv is not None and (not nv.get("region_count") or nv.get("cuda_error")):
            # nvcc's programs ignore CUDA errors: no kernel ran (or they
            # faulted: srad_v2 at 2048^2 reads outside its arrays), so its
            # output is no reference; the OpenMP version's is, where it
            # computes the same thing
            why = ("the nvcc build launched no kernel (%s)" % (nv.get("note") or "GPU unusable?")
                   if not nv.get("region_count") else "the nvcc build's %s" % nv["note"])
            res["reference"] = {"status": "FAIL", "msgs": [why]}
            res["nvcc"] = {"status": "unusable as the reference", "msgs": [why]}
            log("check %-22s nvcc reference unusable: %s" % (t.name, why))
            nv = None
        if "omp-ref" not in kept and "omp" in kept and omp_is_ref(t) and \
                t.omp_env.get("OMP_NUM_THREADS") != "1":
            kept["omp-ref"] = kept["omp"]
        try:
            if nv is not None:
                ref, ref_name = self.parse(t, "nvcc", nv), "nvcc on the GPU"
            elif omp_is_ref(t) and "omp-ref" in kept:
                ref, ref_name = self.parse(t, "omp", kept["omp-ref"]), "OpenMP (gcc)"
                res.pop("reference", None)
        except RuntimeError as e:
            res["reference"] = {"status": "FAIL", "msgs": ["reference output unreadable: %s" %
                                                          str(e)[:500]]}
            ref = None
        if ref is None and "reference" not in res:
            why = ("no GPU: only the nvcc build is a reference here (%s)" % (
                "the OpenMP version computes something else" if t.omp_comparable is False or
                t.reference != "omp" else "the OpenMP version drifts at this size")
                   if not omp_is_ref(t) and not self.gpu else
                   "no reference run (nvcc or OpenMP) succeeded")
            res["reference"] = {"status": "none", "msgs": [why]}
        else:
            res.setdefault("reference", {"status": "ok", "against": ref_name})
        for impl, rec in sorted(kept.items()):
            if impl in ("nvcc", "omp-ref") or (impl == "omp" and (
                    not t.omp_comparable or ref_name != "nvcc on the GPU")):
                continue
            if ref is None:
                res[impl] = {"status": "unchecked", "msgs": res["reference"]["msgs"]}
                continue
            try:
                cand = self.parse(t, impl, rec)
                msgs = rr.compare(t, ref, cand)
            except RuntimeError as e:
                msgs = ["output unreadable: %s" % str(e)[:500]]
            if impl.startswith("tessel") and "tessel-cudart:" in (rec.get("note") or ""):
                # the runtime reported errors (the program went on regardless)
                msgs = ["Tessel's CUDA runtime reported errors: %s" % rec["note"][:300]] + msgs
            n = sum(len(v) for v in ref.values())
            res[impl] = {"status": "FAIL" if msgs else "PASS", "against": ref_name,
                         "values": n, "msgs": msgs[:5]}
            log("check %-22s %-18s %s against %s (%d values)%s" % (
                t.name, impl, res[impl]["status"], ref_name, n,
                "".join("\n      " + m for m in msgs[:5])))
        for rec in kept.values():
            d = rec.pop("_dir", None)   # (kept may hold one record twice)
            if d:
                shutil.rmtree(d[0], ignore_errors=True)
        self.save()

    # -- phases -----------------------------------------------------------------
    def cpu_impls(self):
        impls = ["omp"] + (["omp-clang"] if self.b.clang else [])
        impls += ["tessel-cpu"] + ["tessel-cpu." + v for v in self.a.variant_names]
        return impls

    def gpu_impls(self):
        # Environment variants change the CPU runtime (TESSEL_CPU_*): CPU only.
        return ["nvcc", "tessel-gpu"] + ["tessel-gpu." + v for v in self.a.variant_names
                                         if v not in self.a.env_variants]

    def phase_a(self, tests, tmax):
        reps = self.a.reps
        for t in tests:
            kept = {}
            if t.name in CPU_TESTS:
                # Rounds: each repetition runs every implementation once, so
                # that the host's drift (these VMs move by up to 5x between
                # machines and by tens of % within a call) hits all alike.
                dropped = set()
                for rep in range(reps):
                    for impl in self.cpu_impls():
                        # clang is an extra column: one run
                        if impl in dropped or (impl == "omp-clang" and rep > 0) or self.left() <= 0:
                            continue
                        keep = rep == 0 and impl != "omp-clang"
                        r = self.run(t, impl, tmax, rep, keep=keep)
                        if keep and "_dir" in r:
                            kept[impl] = r
                        if r["status"] in ("no build",) or r["status"].startswith("timeout"):
                            dropped.add(impl)
                if not self.gpu and omp_is_ref(t):
                    # the OpenMP reference: pf_naive's sums agree only on one thread
                    one = t.omp_env.get("OMP_NUM_THREADS") == "1"
                    if one and tmax != 1:
                        r = self.run(t, "omp", 1, 0, keep=True)
                        if "_dir" in r:
                            kept["omp-ref"] = r
                    elif "omp" in kept:
                        kept["omp-ref"] = kept.pop("omp")
            if self.gpu and t.name in GPU_TESTS:
                for impl in self.gpu_impls():
                    for rep in range(reps):
                        if self.left() <= 0:
                            break
                        r = self.run(t, impl, 0, rep, keep=rep == 0)
                        if rep == 0 and "_dir" in r:
                            kept[impl] = r
                        if r["status"] != "ok" and rep == 0:
                            break
            if self.gpu and "omp" in kept and t.omp_comparable:
                pass  # OpenMP is checked against nvcc too (below), as a candidate
            elif "omp" in kept:
                shutil.rmtree(kept.pop("omp")["_dir"][0], ignore_errors=True)
            self.check(t, kept)
            if self.partial:
                self.partial()

    def phase_b(self, tests, counts):
        """Lower thread counts, highest first; skips what will not fit."""
        last = {}  # (test, impl) -> (threads, wall ms, region ms) of the highest count run
        for r in self.runs:
            if r["threads"] and r["status"] == "ok" and "wall_ms" in r:
                k = (r["test"], r["impl"])
                if k not in last or r["threads"] > last[k][0]:
                    last[k] = (r["threads"], r["wall_ms"], r.get("region_ms", r["wall_ms"]))
        impls = ["omp", "tessel-cpu"]
        for n in counts:
            for t in tests:
                if t.name not in CPU_TESTS:
                    continue
                for impl in impls:
                    if any(r["test"] == t.name and r["impl"] == impl and r["threads"] == n
                           for r in self.runs):
                        continue  # done already (pf_naive's reference run)
                    k = (t.name, impl)
                    if k not in last:
                        continue  # never ran successfully
                    # the region scales ideally, the rest not at all
                    prev_n, wall, region = last[k]
                    predicted = (wall - region + region * prev_n / n) / 1e3
                    if predicted > self.a.run_timeout or predicted > self.left():
                        self.record(dict(test=t.name, impl=impl, threads=n, rep=0,
                                         status="skipped (predicted %.0f s, %.0f s left)" % (
                                             predicted, max(0, self.left()))))
                        continue
                    r = self.run(t, impl, n, 0, timeout=max(10, min(self.a.run_timeout,
                                                                    self.left(),
                                                                    3 * predicted + 10)))
                    if r["status"] != "ok":
                        del last[k]
        self.repeat_lower(tests, counts)

    def repeat_lower(self, tests, counts):
        """More runs at the lower thread counts, up to --reps each, while the
        budget lasts: shortest first, so that the small regions, whose single
        runs are the noisiest (nn, pathfinder: milliseconds), get medians."""
        byname = {t.name: t for t in tests}
        todo = sorted((r["wall_ms"], r["test"], r["impl"], r["threads"]) for r in self.runs
                      if r["rep"] == 0 and r["threads"] in counts and r["status"] == "ok"
                      and r["impl"] in ("omp", "tessel-cpu") and "wall_ms" in r
                      and r["test"] in byname)
        for wall, name, impl, n in todo:
            for rep in range(1, self.a.reps):
                if wall / 1e3 * 1.5 + 1 > self.left():
                    break
                if any(x["test"] == name and x["impl"] == impl and x["threads"] == n
                       and x["rep"] == rep for x in self.runs):
                    continue
                self.run(byname[name], impl, n, rep,
                         timeout=max(10, min(self.a.run_timeout, self.left(), 3 * wall / 1e3 + 10)))


# ----------------------------------------------------------------------------
# tables


def med(runs, test, impl, threads, key):
    xs = [r[key] for r in runs if r["test"] == test and r["impl"] == impl and
          r["threads"] == threads and r["status"] == "ok" and key in r]
    return statistics.median(xs) if xs else None


def status_of(runs, test, impl, threads):
    st = [r["status"] for r in runs if r["test"] == test and r["impl"] == impl and
          r["threads"] == threads and r["status"] != "ok"]
    return st[0] if st else None


def fmt_ms(x):
    if x is None:
        return "-"
    return "%.1f" % x if x < 1000 else "%.0f" % x


def fmt_ratio(x):
    return "-" if x is None else "%.2f" % x


def pair(a, b, f):
    return "%s / %s" % (f(a), f(b))


def ratio(a, b):
    return a / b if a and b else None


def cell_time(runs, test, impl, threads):
    r, w = med(runs, test, impl, threads, "region_ms"), med(runs, test, impl, threads, "wall_ms")
    if r is None and w is None:
        st = status_of(runs, test, impl, threads)
        return st.split(" (")[0] if st else "-"
    return pair(r, w, fmt_ms)


def tables(runner, tests, counts_all, tmax, header):
    runs = runner.runs
    checks = runner.checks
    variants = runner.a.variant_names
    gvariants = [v for v in variants if v not in runner.a.env_variants]  # GPU columns
    clang = runner.b.clang is not None
    L = []
    L += header + [""]
    L.append("Times in ms, each cell `region / whole process` (medians); speed-ups and "
             "ratios likewise, > 1 = Tessel faster.")
    L.append("")
    cols = ["program", "omp %dT" % tmax]
    if clang:
        cols.append("omp-clang %dT" % tmax)
    cols += ["tessel cpu %dT" % tmax, "speed-up omp/tessel"]
    for v in variants:
        cols += ["tessel.%s cpu %dT" % (v, tmax), "speed-up omp/tessel.%s" % v]
    cols += ["tessel scaling 1→%d" % tmax, "omp scaling 1→%d" % tmax]
    if runner.gpu:
        cols += ["nvcc GPU", "tessel GPU", "ratio nvcc/tessel"]
        for v in gvariants:
            cols += ["tessel.%s GPU" % v]
    cols.append("check")
    L.append("| " + " | ".join(cols) + " |")
    L.append("|" + "---|" * len(cols))
    g = {k: [] for k in ("su_r", "su_w", "ts", "os", "gpu_r", "gpu_w")}
    comparable = []  # (program, region speed-up) where OpenMP computes the same thing
    gv = {v: ([], [], []) for v in variants}  # region, whole, region of comparable programs
    if not runner.gpu:
        L.insert(len(header) + 1, "No GPU: %s. No GPU columns; the programs that run on "
                 "the GPU only are left out." % runner.meta.get("gpu", "?"))
        L.insert(len(header) + 2, "")
    for t in tests:
        n = t.name
        if not runner.gpu and n not in CPU_TESTS:
            continue
        row = [n]
        cpu = n in CPU_TESTS
        gpu = n in GPU_TESTS and runner.gpu
        o_r, o_w = med(runs, n, "omp", tmax, "region_ms"), med(runs, n, "omp", tmax, "wall_ms")
        t_r, t_w = (med(runs, n, "tessel-cpu", tmax, "region_ms"),
                    med(runs, n, "tessel-cpu", tmax, "wall_ms"))
        row.append(cell_time(runs, n, "omp", tmax) if cpu else "n/a")
        if clang:
            row.append(cell_time(runs, n, "omp-clang", tmax) if cpu else "n/a")
        row.append(cell_time(runs, n, "tessel-cpu", tmax) if cpu else "n/a")
        su_r, su_w = ratio(o_r, t_r), ratio(o_w, t_w)
        row.append(pair(su_r, su_w, fmt_ratio) if cpu else "n/a")
        if cpu:
            g["su_r"].append(su_r)
            g["su_w"].append(su_w)
            if t.omp_comparable and n not in REGION_NOT_COMPARABLE:
                comparable.append((n, su_r))
        for v in variants:
            impl = "tessel-cpu." + v
            row.append(cell_time(runs, n, impl, tmax) if cpu else "n/a")
            vr, vw = ratio(o_r, med(runs, n, impl, tmax, "region_ms")), \
                ratio(o_w, med(runs, n, impl, tmax, "wall_ms"))
            row.append(pair(vr, vw, fmt_ratio) if cpu else "n/a")
            if cpu:
                gv[v][0].append(vr)
                gv[v][1].append(vw)
                if t.omp_comparable and n not in REGION_NOT_COMPARABLE:
                    gv[v][2].append(vr)
        for impl, key in (("tessel-cpu", "ts"), ("omp", "os")):
            s1 = med(runs, n, impl, 1, "region_ms")
            sN = med(runs, n, impl, tmax, "region_ms")
            sc = ratio(s1, sN)
            row.append(fmt_ratio(sc) if cpu else "n/a")
            if cpu:
                g[key].append(sc)
        if gpu:
            nv_r, nv_w = med(runs, n, "nvcc", 0, "region_ms"), med(runs, n, "nvcc", 0, "wall_ms")
            tg_r, tg_w = (med(runs, n, "tessel-gpu", 0, "region_ms"),
                          med(runs, n, "tessel-gpu", 0, "wall_ms"))
            row += [cell_time(runs, n, "nvcc", 0), cell_time(runs, n, "tessel-gpu", 0),
                    pair(ratio(nv_r, tg_r), ratio(nv_w, tg_w), fmt_ratio)]
            g["gpu_r"].append(ratio(nv_r, tg_r))
            g["gpu_w"].append(ratio(nv_w, tg_w))
            for v in gvariants:
                row.append(cell_time(runs, n, "tessel-gpu." + v, 0))
        elif runner.gpu:
            row += ["n/a"] * (3 + len(gvariants))
        c = checks.get(n, {})
        parts = []
        for impl, res in sorted(c.items()):
            if impl == "reference":
                continue
            if impl == "omp":
                if res["status"] == "FAIL":
                    parts.append("(omp differs from nvcc)")
                continue
            parts.append("%s %s" % (impl.replace("tessel-", ""), res["status"]))
        ref = c.get("reference", {})
        if runner.gpu and ref.get("against") == "OpenMP (gcc)":
            parts.append("checked against OpenMP")
        if ref.get("status") == "FAIL":
            parts.append("reference unreadable")
        elif ref.get("status") == "none":
            parts = ["unchecked (%s)" % ("no GPU" if not runner.gpu else "no reference run")]
        anyfail = any(res.get("status") == "FAIL" for i, res in c.items() if i != "omp")
        row.append(("**FAIL** " if anyfail else "") + (", ".join(parts) if parts else "-"))
        L.append("| " + " | ".join(row) + " |")
    gm = lambda k: fmt_ratio(geomean(g[k]))  # noqa: E731
    cnt = lambda k: len([x for x in g[k] if x])  # noqa: E731
    L.append("")
    L.append("Geomeans: speed-up omp/tessel (CPU, %dT) region %s (%d programs), whole %s (%d); "
             "tessel scaling 1→%d %s (%d), omp scaling %s (%d)%s." % (
                 tmax, gm("su_r"), cnt("su_r"), gm("su_w"), cnt("su_w"), tmax, gm("ts"),
                 cnt("ts"), gm("os"), cnt("os"),
                 "; GPU nvcc/tessel region %s (%d), whole %s (%d)" % (
                     gm("gpu_r"), cnt("gpu_r"), gm("gpu_w"), cnt("gpu_w")) if runner.gpu else ""))
    if comparable:
        below = ["%s %s" % (n, fmt_ratio(x)) for n, x in comparable if x and x < 0.8]
        L.append("Issue 16's CPU figure, the comparable programs only (not hotspot and "
                 "streamcluster, whose OpenMP versions compute something else, nor %s): region "
                 "speed-up omp/tessel geomean %s over %d; below 0.8: %s." % (
                     ", ".join(sorted(REGION_NOT_COMPARABLE)),
                     fmt_ratio(geomean([x for _, x in comparable])),
                     len([x for _, x in comparable if x]), ", ".join(below) or "none"))
    for v in variants:
        how = ("environment " + ",".join("%s=%s" % kv for kv in
                                          sorted(runner.a.env_variants[v].items()))
               if v in runner.a.env_variants else "build flags in manifest.json")
        L.append("Geomean speed-up omp/tessel.%s (%s): region %s, whole %s; comparable "
                 "programs region %s." % (
                     v, how, fmt_ratio(geomean(gv[v][0])), fmt_ratio(geomean(gv[v][1])),
                     fmt_ratio(geomean(gv[v][2]))))
    L.append("Checks failing anywhere make the geomeans suspect: see the check column.")
    L.append("")
    L.append("Scaling (region / whole ms; in brackets the speed-up over 1 thread of the same "
             "version, region time):")
    L.append("")
    cols = ["program", "version"] + ["%dT" % n for n in counts_all]
    L.append("| " + " | ".join(cols) + " |")
    L.append("|" + "---|" * len(cols))
    for t in tests:
        if t.name not in CPU_TESTS:
            continue
        for impl in ["omp", "tessel-cpu"]:
            one = med(runs, t.name, impl, 1, "region_ms")
            cells = []
            for n in counts_all:
                c = cell_time(runs, t.name, impl, n)
                r = med(runs, t.name, impl, n, "region_ms")
                if r and one and n != 1:
                    c += " [%.1f×]" % (one / r)
                cells.append(c)
            if all(c == "-" for c in cells):
                continue
            L.append("| " + " | ".join([t.name, impl] + cells) + " |")
    L.append("")
    L.append("Notes:")
    for n in NOTES:
        L.append("- " + n)
    fails = [(t, i, r) for t, c in checks.items() for i, r in c.items()
             if r.get("status") == "FAIL"]
    if fails:
        L.append("")
        L.append("Check failures:")
        for t, i, r in fails:
            L.append("- %s %s (against %s): %s" % (t, i, r.get("against", "?"),
                                                   "; ".join(r.get("msgs", []))[:400]))
    bad = [r for r in runs if r["status"] not in ("ok",) and not r["status"].startswith("skipped")]
    if bad:
        L.append("")
        L.append("Runs that did not finish cleanly: " + ", ".join(
            "%s %s %dT (%s)" % (r["test"], r["impl"], r["threads"], r["status"]) for r in bad))
    skipped = [r for r in runs if r["status"].startswith("skipped")]
    if skipped:
        L.append("")
        L.append("Skipped for time: " + ", ".join("%s %s %dT" % (r["test"], r["impl"], r["threads"])
                                                  for r in skipped))
    return "\n".join(L)


# ----------------------------------------------------------------------------


def host_info(rr, gpu_name):
    cpu = None
    p = first_line(["sh", "-c", "lscpu | grep -m1 'Model name'"])
    if p:
        cpu = p.split(":", 1)[1].strip()
    cpu = cpu or platform.processor() or "?"
    gcc = first_line([rr.CC, "--version"])
    nvcc = None
    try:
        out = sh([rr.NVCC, "--version"]).stdout.strip().splitlines()
        nvcc = out[-1] if out else None
    except OSError:
        pass
    return dict(date=datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
                cpu=cpu, cores=os.cpu_count(), gpu=gpu_name, gcc=gcc, nvcc=nvcc,
                host=platform.node(), command=" ".join(shlex.quote(a) for a in sys.argv))


def detect_gpu():
    """(name, None) or (None, why)."""
    if not shutil.which("nvidia-smi"):
        return None, "nvidia-smi not found"
    try:
        p = sh(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], timeout=60)
    except subprocess.TimeoutExpired:
        return None, "nvidia-smi timed out"
    names = [l.strip() for l in p.stdout.splitlines() if l.strip()]
    if p.returncode != 0 or not names:
        return None, "nvidia-smi: %s" % (p.stdout.strip().splitlines() or ["no GPU"])[-1]
    return names[0] + (" (x%d)" % len(names) if len(names) > 1 else ""), None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", required=True, help="what prepare.sh made (directory or .tar.xz)")
    ap.add_argument("--out", help="results directory (default $OUT/rodinia if $OUT is set, "
                    "else /tmp/rodinia-bench-<time>)")
    ap.add_argument("--only", help="tests or programs, comma-separated")
    ap.add_argument("--threads", default="1,2,4,8,16")
    ap.add_argument("--size", default="bench", choices=["bench", "smoke"])
    ap.add_argument("--reps", type=int, default=3, help="runs at the highest thread count and "
                    "on the GPU (medians); lower thread counts: once, then up to N "
                    "times (shortest first) while the budget lasts")
    ap.add_argument("--no-gpu", action="store_true", help="CPU only (no nvcc runs)")
    ap.add_argument("--budget", type=float, default=500,
                    help="seconds for the whole command; later runs are skipped past it")
    ap.add_argument("--run-timeout", type=float, default=90, help="seconds per run at most")
    ap.add_argument("--variants", default=None,
                    help="ablation variants to run (default: all that prepare.sh built)")
    ap.add_argument("--env-variant", action="append", default=[], metavar="NAME:VAR=VALUE,...",
                    help="an ablation variant that runs the default build with these "
                    "environment variables (e.g. dynamic:TESSEL_CPU_SCHEDULE=dynamic); CPU "
                    "only; repeatable")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    a = ap.parse_args()

    out = a.out or (os.path.join(os.environ["OUT"], "rodinia") if os.environ.get("OUT") else
                    "/tmp/rodinia-bench-" + time.strftime("%Y%m%d-%H%M%S"))
    out = os.path.abspath(out)
    os.makedirs(out, exist_ok=True)
    carry = open_dir(a.dir, out)
    with open(os.path.join(carry, "manifest.json")) as f:
        manifest = json.load(f)
    built_variants = [v["name"] for v in manifest.get("variants", [])]
    a.variant_names = built_variants if a.variants is None else \
        [v for v in a.variants.split(",") if v]
    for v in a.variant_names:
        if v not in built_variants:
            sys.exit("variant %r was not built by prepare.sh (built: %s)" % (
                v, ", ".join(built_variants) or "none"))
    a.env_variants = {}
    for spec in a.env_variant:
        name, _, assigns = spec.partition(":")
        env = dict(x.partition("=")[::2] for x in assigns.split(",") if x)
        if not re.match(r"^[A-Za-z0-9_-]+$", name) or not env or \
                not all(re.match(r"^[A-Z_][A-Z0-9_]*$", k) for k in env):
            sys.exit("--env-variant=%r is not NAME:VAR=VALUE[,VAR=VALUE...]" % spec)
        if name in built_variants or name in a.env_variants:
            sys.exit("--env-variant: the name %r is taken" % name)
        a.env_variants[name] = env
        a.variant_names.append(name)

    os.environ["RODINIA_WORK"] = os.path.join(out, "work")
    sys.path.insert(0, os.path.join(carry, "rodinia"))
    import run_reference as rr  # noqa: E402
    if rr.np is None:
        sys.exit("numpy is needed (input generators, comparisons) but cannot be imported")
    rr.WORK = os.environ["RODINIA_WORK"]
    rr.OMP_OPT = ["-O3", "-march=native"]
    rr.NVCC_LINK_EXTRA = ["-cudart", "shared"]
    rr.set_size(a.size)
    shutil.rmtree(rr.WORK, ignore_errors=True)
    os.makedirs(rr.WORK)

    counts = sorted({int(x) for x in a.threads.split(",") if x})
    tmax = counts[-1]
    if tmax > (os.cpu_count() or 1):
        log("WARNING: %d threads on %d CPUs" % (tmax, os.cpu_count()))
    names = set(CPU_TESTS + GPU_TESTS)
    if a.only:
        want = set(a.only.split(","))
        tests = [t for t in rr.TESTS if t.name in names and (t.name in want or t.program in want)]
        unknown = want - {t.name for t in tests} - {t.program for t in tests}
        if unknown:
            sys.exit("unknown: %s (tests: %s)" % (", ".join(sorted(unknown)),
                                                  ", ".join(sorted(names))))
    else:
        tests = [t for t in rr.TESTS if t.name in names]

    gpu_name, why = (None, "--no-gpu") if a.no_gpu else detect_gpu()
    if gpu_name:
        log("GPU: %s" % gpu_name)
    else:
        log("NO GPU (%s): the GPU columns stay empty; Tessel's CPU runs are checked against "
            "the OpenMP versions where those compute the same thing" % why)
    if not os.access(rr.NVCC, os.X_OK) and shutil.which("nvcc"):
        rr.NVCC = shutil.which("nvcc")
    have_nvcc = os.access(rr.NVCC, os.X_OK)
    if not have_nvcc:
        log("nvcc not found (%s): no nvcc builds" % rr.NVCC)

    builds = Builds(carry, out, rr, a.jobs)
    builds.all(tests, bool(have_nvcc), [""] + a.variant_names, a.env_variants)
    runner = Runner(a, rr, builds, out, gpu_name is not None)
    info = host_info(rr, gpu_name or "none (%s)" % why)
    runner.meta = dict(info, size=a.size, threads=counts, reps=a.reps, manifest=manifest,
                       env_variants=a.env_variants,
                       sizes={t.name: rr.SIZES.get(t.name, {}).get(a.size) for t in tests},
                       build_failures={"%s %s" % k: v for k, v in builds.failed.items()},
                       clang=builds.clang)
    runner.save()

    log("generating inputs (%s)" % a.size)
    for t in tests:
        s = time.time()
        rr.inputs(t)
        log("  %s: %.1f s" % (t.name, time.time() - s))

    header = ["# Rodinia: Tessel vs OpenMP (CPU) and vs nvcc (GPU)", "",
              "- date: %s; host: %s" % (info["date"], info["host"]),
              "- CPU: %s (%s logical CPUs); GPU: %s" % (info["cpu"], info["cores"], info["gpu"]),
              "- compilers: %s; %s; clang -fopenmp: %s" % (
                  info["gcc"], info["nvcc"], builds.clang[0] if builds.clang else "not used"),
              "- Tessel binaries: %s (%s)" % (manifest.get("tessel_cc", "?"),
                                             manifest.get("commit", "?")),
              "- sizes: %s; threads %s; %d reps at %dT and on the GPU (clang: 1); below: 1, "
              "then up to %d (shortest first) while the budget lasts" % (
                  a.size, ",".join(map(str, counts)), a.reps, tmax, a.reps),
              "- command: `%s`" % info["command"]]
    if builds.failed:
        header.append("- build failures: " + "; ".join("%s %s" % k for k in builds.failed))

    # The runtime's cost per launch (bin/launch_overhead, a nearly empty
    # kernel): the most that merging launches could save, per launch.
    launch_cost = []
    lo = os.path.join(carry, "bin", "launch_overhead")
    if os.access(lo, os.X_OK):
        env = dict(os.environ, TESSEL_DEVICE="cpu", TESSEL_CPU_THREADS=str(tmax), TESSEL_CPU_PIN="1")
        p = subprocess.run([lo], capture_output=True, text=True, env=env, timeout=120)
        launch_cost = ["", "Launch cost, Tessel on the CPU at %d threads (`bin/launch_overhead`, "
                       "TESSEL_DEVICE=cpu; exit %d):" % (tmax, p.returncode), ""] + \
            (p.stdout.strip().splitlines() or [p.stderr.strip()[-300:]])
        log("\n".join(launch_cost))

    bandwidth = memory_bandwidth(rr, out, tmax)
    log("\n".join(bandwidth))

    def write_tables(final=False):
        text = tables(runner, tests, counts, tmax, header if final else
                      header + ["", "**Partial: the run is still going (or was killed).**"])
        text += "\n".join([""] + launch_cost) if launch_cost else ""
        text += "\n".join([""] + bandwidth) if bandwidth else ""
        with open(os.path.join(out, "results.md"), "w") as f:
            f.write(text + "\n")
        return text

    runner.partial = write_tables
    log("phase A: %d threads, %d reps; GPU: %s" % (tmax, a.reps, gpu_name or "none"))
    runner.phase_a(tests, tmax)
    # 1 thread first (the scaling column), then the others from the top
    lower = sorted([n for n in counts if n != tmax], key=lambda n: (n != 1, -n))
    if lower:
        log("phase B: scaling runs at %s threads" % ",".join(map(str, lower)))
        runner.phase_b(tests, lower)

    text = write_tables(final=True)
    runner.save()
    print()
    print(text, flush=True)
    log("done; results in %s (results.json, results.md)" % out)
    fails = any(r.get("status") == "FAIL" for c in runner.checks.values()
                for i, r in c.items() if i not in ("omp",))
    return 1 if fails else 0


def memory_bandwidth(rr, out, tmax):
    """Lines on the host's memory bandwidth at 1 and tmax threads (bandwidth/triad.c
    built with the OpenMP compiler): their ratio is the most a kernel bound by
    memory bandwidth can scale, whoever compiled it."""
    src = os.path.join(os.path.dirname(os.path.realpath(__file__)), "bandwidth", "triad.c")
    exe = os.path.join(out, "build", "triad")
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    p = subprocess.run([rr.CC, "-O3", "-fopenmp", "-march=native", src, "-o", exe],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return ["", "Memory bandwidth: triad.c did not build: " + p.stderr.strip()[-300:]]
    rows, best = [], {}
    for n in sorted({1, tmax}):
        env = dict(os.environ, OMP_NUM_THREADS=str(n), OMP_PROC_BIND="close", OMP_PLACES="cores")
        try:
            q = subprocess.run([exe, "512", "10"], capture_output=True, text=True, env=env,
                               timeout=120)
        except subprocess.TimeoutExpired:
            rows.append("| %d | timed out | | |" % n)
            continue
        f = dict(kv.split("=", 1) for kv in q.stdout.split()[1:] if "=" in kv)
        if q.returncode != 0 or "best_gbs" not in f:
            rows.append("| %d | exit %d: %s | | |" % (n, q.returncode, (q.stderr or q.stdout).strip()[-200:]))
            continue
        best[n] = float(f["best_gbs"])
        rows.append("| %d | %s | %s | %s |" % (n, f["best_gbs"], f["median_gbs"], f.get("check", "?")))
    lines = ["", "Memory bandwidth (`bandwidth/triad.c`, a[i] = b[i] + s c[i] over 3 x 512 MB, "
             "gcc -O3 -fopenmp, 10 reps, 24 bytes per element):", "",
             "| threads | best GB/s | median GB/s | check |", "| --- | --- | --- | --- |"] + rows
    if 1 in best and tmax in best and tmax != 1:
        lines += ["", "Bandwidth ratio %d / 1 threads: %.1fx, the most a kernel bound by DRAM "
                  "bandwidth (data beyond the last-level cache) can scale on this host." % (tmax, best[tmax] / best[1])]
    return lines


if __name__ == "__main__":
    sys.exit(main())
