#!/usr/bin/python3
"""Reference and checking harness for Rodinia's CUDA programs (see CENSUS.md).

For each test it generates a small deterministic input, runs a reference and
compares a candidate executable (later: tessel-cc's build of the unchanged
CUDA sources) against it. References:

  omp     Rodinia's OpenMP version, built here with gcc -fopenmp (default
          where CENSUS.md says it computes the same thing);
  golden  results of the nvcc build of the CUDA version, run on a GPU and
          stored in golden/<test>.json (default where the OpenMP version is
          not usable);
  CMD     --reference CMD: any build of the CUDA version (nvcc on a GPU),
          run here with the same input.

Usage (PROG: a test name, a program name such as srad, or all):

  run_reference.py --list
  run_reference.py --reference-only PROG          build + run the reference
  run_reference.py --check PROG --candidate CMD [--reference CMD | --golden | --omp]
  run_reference.py --tessel PROG --tessel-cc PATH [--target cpu|cuda|cpu,cuda]
                                                  build with tessel-cc, then --check
  run_reference.py --build-tessel PROG --tessel-cc PATH --out DIR [--target T]
                                                  tessel-cc builds only (DIR/<test>/tessel_<test>)
  run_reference.py --print-build PROG             what a candidate build needs
  run_reference.py --build-nvcc PROG --out DIR    nvcc builds of the CUDA sources
  run_reference.py --write-golden PROG --nvcc-dir DIR   (on a GPU machine)
  run_reference.py --selftest                     OpenMP reference vs golden
  run_reference.py --clang-syntax PROG            clang -x cuda -fsyntax-only

--size test|smoke|bench (before the command) picks the input sizes (SIZES
below): test, the default, is what ctest and the golden files use; smoke and
bench are bench/rodinia's (bench/rodinia/run.py drives this module).

CMD is a command line (split with shlex, "{test}" replaced by the test
name); the program's arguments are appended. Each run happens in a fresh directory under $RODINIA_WORK
(default /tmp/rodinia-work). Every run gets MALLOC_PERTURB_=255 (glibc then
hands out zero-filled malloc memory, which makes the programs' reads of
uninitialised host memory repeatable); particlefilter runs also get
LD_PRELOAD=fixed_time.so (time() fixed, it seeds the generators).
"""
import argparse
import hashlib
import itertools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CUDA_SRC = os.path.join(HERE, "cuda")
OMP_SRC = os.path.join(HERE, "openmp")
HARNESS = os.path.join(HERE, "harness")
GOLDEN_DIR = os.path.join(HERE, "golden")
WORK = os.environ.get("RODINIA_WORK", "/tmp/rodinia-work")
NVCC = os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
NVCC_ARCH = os.environ.get("NVCC_ARCH", "sm_90")
NVCC_EXTRA = shlex.split(os.environ.get("NVCC_FLAGS_EXTRA", ""))
NVCC_LINK_EXTRA = []   # e.g. ["-cudart", "shared"] (bench/rodinia: its launch-timing shim)
CLANG = os.environ.get("CLANG", "clang++-22")
TESSEL_CC_EXTRA = shlex.split(os.environ.get("TESSEL_CC_FLAGS", ""))
OMP_EXTRA = shlex.split(os.environ.get("OMP_CFLAGS_EXTRA", ""))
CUDA_PATH = os.environ.get("CUDA_PATH", "/usr/local/cuda")
CC = os.environ.get("CC", "gcc")
CXX = os.environ.get("CXX", "g++")
TIMEOUT = int(os.environ.get("RODINIA_TIMEOUT", "300"))
OMP_THREADS = "2"
FIXED_TIME = "1000"
# Optimisation flags of the OpenMP builds: None keeps each build's own (the
# Makefiles'); a list replaces every -O* flag of the build with it
# (bench/rodinia/run.py: -O3 -march=native).
OMP_OPT = None

try:
    import numpy as np   # only for the larger sizes (fast generators, comparisons)
except ImportError:
    np = None


# ----------------------------------------------------------------------------
# Input sizes. "test" (the classes' own attributes) is small and fixed: ctest
# and the golden files use it. "smoke" and "bench" are bench/rodinia's: smoke
# runs everything in seconds on any machine; bench sizes each 16-thread
# OpenMP run for a 16-core host (bench/rodinia/README.md says which numbers
# were measured and which guessed). Keys are attributes of the test classes
# below; change sizes here only.

SIZES = {
    # N input units (a multiple of 16, at most 16 * 65535: the CUDA grid's y
    # is N/16); the sigmoid saturates at large N, so the check is weak
    "backprop": {"smoke": dict(N=65536), "bench": dict(N=16 * 65535)},
    # N nodes, DEGREE mean out-degree (numpy generator above test size)
    "bfs": {"smoke": dict(N=20000, DEGREE=6), "bench": dict(N=1000000, DEGREE=6)},
    # N: internal matrix (-s N) above test size; GPU only
    "gaussian": {"smoke": dict(N=128), "bench": dict(N=1024)},
    # N x N grid (a multiple of 16 for the OpenMP version), PYRAMID, ITERS steps
    "hotspot": {"smoke": dict(N=256, PYRAMID=2, ITERS=20),
                "bench": dict(N=1024, PYRAMID=2, ITERS=512)},
    # N (a multiple of 64) x N x LAYERS, ITERS (even)
    "hotspot3D": {"smoke": dict(N=128, LAYERS=4, ITERS=10),
                  "bench": dict(N=512, LAYERS=8, ITERS=100)},
    # N (a multiple of 16)
    "lud": {"smoke": dict(N=256), "bench": dict(N=4096)},
    # RECORDS in FILES files of hurricane records
    "nn": {"smoke": dict(RECORDS=20000, FILES=4), "bench": dict(RECORDS=2000000, FILES=8)},
    # N (a multiple of 16)
    "nw": {"smoke": dict(N=512), "bench": dict(N=16384)},
    # COLS x ROWS, PYRAMID (both versions print the whole wall: ROWS*COLS numbers)
    "pathfinder": {"smoke": dict(COLS=20000, ROWS=50, PYRAMID=10),
                   "bench": dict(COLS=200000, ROWS=100, PYRAMID=20)},
    # NR x NC with ceil(NR*NC/512) a power of two (CENSUS.md). OMP_AGREES:
    # at bench size the OpenMP version's sequential float sums (4M pixels)
    # are off by percents and the images drift apart (> 1 grey level in
    # most pixels), so only nvcc is a reference there
    "srad_v1": {"smoke": dict(NITER=3, NR=256, NC=256),
                "bench": dict(NITER=40, NR=2048, NC=2048, OMP_AGREES=False)},
    # ROWS x COLS (multiples of 16), NITER
    "srad_v2": {"smoke": dict(ROWS=256, COLS=256, NITER="4"),
                "bench": dict(ROWS=2048, COLS=2048, NITER="40")},
    # INTERNAL: the programs generate the NPTS points (lrand48); NPTS <= CHUNK
    "streamcluster": {"smoke": dict(KMIN=10, KMAX=20, DIM=16, NPTS=2048, CHUNK=2048, CLUSTER=500,
                                    INTERNAL=True),
                      "bench": dict(KMIN=10, KMAX=20, DIM=64, NPTS=16384, CHUNK=16384,
                                    CLUSTER=1000, INTERNAL=True)},
    # one block only (<= 512 particles, CENSUS.md); GPU only
    "particlefilter_float": {"smoke": dict(ARGS=["-x", "64", "-y", "64", "-z", "10", "-np", "512"]),
                             "bench": dict(ARGS=["-x", "128", "-y", "128", "-z", "20",
                                                 "-np", "512"])},
    # BOXES^3 boxes of 100 particles; work ~ BOXES^3
    "lavaMD": {"smoke": dict(BOXES=5), "bench": dict(BOXES=12)},
    # KEYS (serial tree build on the host), K / J queries (<= 65535), RANGE
    "b+tree": {"smoke": dict(KEYS=20000, K=10000, J=10000, RANGE=100),
               "bench": dict(KEYS=1000000, K=65535, J=65535, RANGE=3000)},
    "particlefilter_naive": {"smoke": dict(ARGS=["-x", "64", "-y", "64", "-z", "10", "-np", "2000"]),
                             "bench": dict(ARGS=["-x", "128", "-y", "128", "-z", "10",
                                                 "-np", "20000"])},
}
SIZE = "test"
# Above the test size, the dump hooks write a sample of at most this many
# values per vector (RODINIA_DUMP_MAX), and lud skips its O(n^3) verification.
DUMP_MAX = "100000"


def set_size(preset):
    """Applies a size preset (SIZES) to every test: test, smoke or bench."""
    global SIZE
    if preset not in ("test", "smoke", "bench"):
        sys.exit("unknown size %r (test, smoke, bench)" % preset)
    SIZE = preset
    for t in TESTS:
        for k, v in SIZES.get(t.name, {}).get(preset, {}).items():
            if not hasattr(type(t), k):
                raise AttributeError("SIZES[%r]: %s has no attribute %s" % (t.name, t.name, k))
            setattr(t, k, v)
    _generated.clear()


def np_rng(seed):
    return np.random.Generator(np.random.PCG64(seed))


def write_lines(dest, fmt, *cols):
    """Writes rows of numpy columns, a %-format per row, to a path or an
    open file."""
    if isinstance(dest, str):
        with open(dest, "w") as f:
            return write_lines(f, fmt, *cols)
    n = len(cols[0])
    step = 1 << 16
    for a in range(0, n, step):
        rows = list(zip(*(c[a:a + step].tolist() for c in cols)))
        dest.write((fmt * len(rows)) % tuple(itertools.chain.from_iterable(rows)))


# ----------------------------------------------------------------------------
# deterministic generator (splitmix64), independent of numpy / libc versions

class Rng:
    def __init__(self, seed):
        self.s = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def uniform(self):
        return (self.next() >> 11) / float(1 << 53)

    def randint(self, lo, hi):  # inclusive
        return lo + self.next() % (hi - lo + 1)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


# ----------------------------------------------------------------------------
# output parsing helpers

FLOAT_RE = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)"


def floats(text):
    return [float(x) for x in re.findall(FLOAT_RE, text)]


def read(path):
    with open(path) as f:
        return f.read()


def parse_dump(path):
    """name v1 v2 ... lines (harness/*_dump.c) -> {name: [floats]}."""
    res = {}
    for line in read(path).splitlines():
        parts = line.split()
        if parts:
            res[parts[0]] = [float(x) for x in parts[1:]]
    return res


def hotspot_file(path):
    if SIZE != "test":
        # "index\tvalue" lines, large: split once
        tokens = read(path).split()
        if len(tokens) % 2:
            raise ValueError("%s: odd number of fields" % path)
        return [float(x) for x in tokens[1::2]]
    vals = []
    for line in read(path).splitlines():
        p = line.split()
        if len(p) == 2:
            vals.append(float(p[1]))
    return vals


def gaussian_blocks(out):
    res = {}
    names = {"Matrix m is:": "m", "Matrix a is:": "a", "Array b is:": "b",
             "The final solution is:": "x"}
    cur = None
    for line in out.splitlines():
        s = line.strip()
        if s in names:
            cur = names[s]
            res[cur] = []
        elif s.startswith("Time") or s.startswith("WG size"):
            cur = None
        elif cur is not None:
            res[cur].extend(floats(s))
    return res


# ----------------------------------------------------------------------------
# tests

class Test:
    name = None
    program = None          # Rodinia program directory name
    cuda_dir = None         # relative to cuda/
    cu = []                 # CUDA translation units (nvcc / clang -x cuda)
    c = []                  # C host files (Makefile: gcc)
    cpp = []                # C++ host files compiled by nvcc's host compiler
    incdirs = []            # relative to cuda_dir
    defines = []            # -D flags the reference build needs (no source change)
    nvcc_flags = ["-O3"]
    tessel_flags = []       # extra tessel-cc flags (upstream UB the nvcc build gets away with)
    hooks = []              # harness/*.c linked in
    wraps = []              # -Wl,--wrap= symbols
    preload_time = False
    omp = None              # dict(dir, cmd(list of argv templates), exe) or None
    omp_env = {}
    omp_comparable = True   # False: the OpenMP version is timed (bench) but computes something else
    OMP_AGREES = True       # False: not a reference at this size (SIZES)
    reference = "omp"       # default reference kind: omp | golden
    tol = {}                # key -> (rtol, atol); keys not listed compare exactly
    rundir_depth = 0        # run 3 levels below the input dir (srad_v1)

    def gen(self, d):
        pass

    def cuda_args(self, d):
        raise NotImplementedError

    def omp_args(self, d):
        raise NotImplementedError

    def parse_cuda(self, rundir, out, err):
        raise NotImplementedError

    def parse_omp(self, rundir, out, err):
        return self.parse_cuda(rundir, out, err)

    # -- builds --------------------------------------------------------------
    def src(self):
        return os.path.join(CUDA_SRC, self.cuda_dir)

    def omp_build(self, bdir, cc=None, cxx=None, c_extra=()):
        """cc, cxx: other compilers than CC, CXX; c_extra: flags for C commands."""
        o = self.omp
        exe = os.path.join(bdir, "omp_" + self.name)
        sdir = os.path.join(OMP_SRC, o["dir"])
        cc, cxx = cc or CC, cxx or CXX
        for tmpl in o["cmds"]:
            cmd = [a.format(S=sdir, H=HARNESS, B=bdir, EXE=exe, CC=cc, CXX=cxx)
                   for a in tmpl]
            if tmpl[0] == "{CC}":
                cmd[1:1] = list(c_extra)
            if OMP_OPT is not None:
                cmd = [cmd[0]] + list(OMP_OPT) + [a for a in cmd[1:] if not a.startswith("-O")]
            cmd[1:1] = OMP_EXTRA
            run_checked(cmd, cwd=bdir)
        return exe

    def nvcc_build(self, bdir):
        s = self.src()
        inc = ["-I" + os.path.join(s, i) for i in [""] + self.incdirs]
        objs = []
        compat = ["-include", os.path.join(HARNESS, "cuda13_compat.h")]
        for f in self.cu:
            o = os.path.join(bdir, os.path.basename(f) + ".o")
            run_checked([NVCC, "-arch=" + NVCC_ARCH] + self.nvcc_flags + NVCC_EXTRA + compat
                        + inc + self.defines + ["-c", os.path.join(s, f), "-o", o],
                        cwd=bdir)
            objs.append(o)
        for f in self.cpp:
            o = os.path.join(bdir, os.path.basename(f) + ".o")
            run_checked([NVCC, "-arch=" + NVCC_ARCH] + self.nvcc_flags + NVCC_EXTRA + inc
                        + self.defines + ["-c", os.path.join(s, f), "-o", o], cwd=bdir)
            objs.append(o)
        for f in self.c:
            o = os.path.join(bdir, os.path.basename(f) + ".o")
            run_checked([CC, "-O2", "-w"] + inc + self.defines
                        + ["-c", os.path.join(s, f), "-o", o], cwd=bdir)
            objs.append(o)
        for f in self.hooks:
            o = os.path.join(bdir, f + ".o")
            run_checked([CC, "-O2"] + inc + ["-c", os.path.join(HARNESS, f), "-o", o],
                        cwd=bdir)
            objs.append(o)
        exe = os.path.join(bdir, "cuda_" + self.name)
        link = [NVCC, "-arch=" + NVCC_ARCH] + NVCC_LINK_EXTRA + objs + ["-o", exe, "-lm"]
        for w in self.wraps:
            link += ["-Xlinker", "--wrap=" + w]
        run_checked(link, cwd=bdir)
        return exe

    def tessel_build(self, bdir, tessel_cc, target):
        """One tessel-cc command over the unchanged sources (+ hooks)."""
        s = self.src()
        inc = ["-I" + os.path.join(s, i) for i in [""] + self.incdirs]
        exe = os.path.join(bdir, "tessel_" + self.name)
        cmd = [tessel_cc, "--target=" + target, "-O2", "-Xcompiler=-w"] + TESSEL_CC_EXTRA
        cmd += self.tessel_flags
        cmd += inc + self.defines
        cmd += [os.path.join(s, f) for f in self.cu + self.cpp + self.c]
        cmd += [os.path.join(HARNESS, f) for f in self.hooks]
        cmd += ["-Wl,--wrap=" + w for w in self.wraps] + ["-lm", "-o", exe]
        run_checked(cmd, cwd=bdir)
        return exe

    def build_info(self):
        s = "test/rodinia/" + os.path.relpath(self.src(), HERE)
        lines = ["test %s (Rodinia %s), sources under %s" % (self.name, self.program, s)]
        lines.append("  CUDA translation units: %s" % " ".join(self.cu))
        if self.cpp:
            lines.append("  C++ host files: %s" % " ".join(self.cpp))
        if self.c:
            lines.append("  C host files: %s" % " ".join(self.c))
        if self.incdirs:
            lines.append("  include dirs: %s" % " ".join(os.path.join(s, i) for i in self.incdirs))
        if self.defines:
            lines.append("  defines: %s" % " ".join(self.defines))
        if self.hooks:
            lines.append("  link in: %s (C, %s), link flags: %s" % (
                " ".join("test/rodinia/harness/" + h for h in self.hooks),
                " ".join("-I" + os.path.join(s, i).rstrip("/") for i in [""] + self.incdirs),
                " ".join("-Wl,--wrap=" + w for w in self.wraps)))
        lines.append("  run as: CANDIDATE %s" % " ".join(self.cuda_args("<inputs>")))
        if self.preload_time:
            lines.append("  runs with LD_PRELOAD=fixed_time.so (time() fixed): link libc dynamically")
        lines.append("  reference: %s" % self.reference)
        return "\n".join(lines)


def run_checked(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if p.returncode != 0:
        raise RuntimeError("build failed: %s\n%s" % (" ".join(cmd), p.stdout[-4000:]))


# --- backprop ----------------------------------------------------------------

class Backprop(Test):
    name = program = cuda_dir = "backprop"
    cu = ["backprop_cuda.cu"]
    c = ["backprop.c", "facetrain.c", "imagenet.c"]
    nvcc_flags = ["-O2"]
    hooks = ["backprop_dump.c"]
    wraps = ["bpnn_free"]
    omp = dict(dir="backprop", cmds=[[
        "{CC}", "-g", "-fopenmp", "-O2", "-w", "-I{S}", "{S}/backprop.c", "{S}/facetrain.c",
        "{S}/imagenet.c", "{S}/backprop_kernel.c", "{H}/backprop_dump.c",
        "-Wl,--wrap=bpnn_free", "-lm", "-o", "{EXE}"]])
    # a multiple of 16 (the CUDA version needs it); small, because the weights
    # and inputs are uniform in [0,1): with N inputs the hidden sums are about
    # N/4 and the sigmoid saturates to exactly 1.0f above N ~ 70 (1040: every
    # hidden unit 1, every hidden delta 0, nothing left to compare)
    N = 32
    # the sums are ~8.5, so 1-h is 3e-5..5e-4: one float ulp of a hidden unit
    # (6e-8) is up to 0.2% of 1-h, and the deltas (h(1-h)...) and the weight
    # changes (proportional to the deltas) inherit that; units and weights
    # themselves are compared tightly (a hidden sum off by 0.01 shows)
    tol = {"hidden_units": (2e-6, 0.0), "output_units": (2e-6, 0.0),
           "hidden_weights": (1e-6, 1e-9),
           "output_delta": (1e-2, 1e-12), "hidden_delta": (2e-2, 1e-12),
           "hidden_prev_weights": (1e-2, 1e-12)}

    def cuda_args(self, d):
        return [str(self.N)]

    omp_args = cuda_args

    def parse_cuda(self, rundir, out, err):
        res = parse_dump(os.path.join(rundir, "rodinia_dump.txt"))
        res["training_done"] = [int("Training done" in out)]
        return res


# --- bfs -----------------------------------------------------------------------

class Bfs(Test):
    name = program = cuda_dir = "bfs"
    cu = ["bfs.cu"]
    omp = dict(dir="bfs", cmds=[["{CXX}", "-g", "-fopenmp", "-O2", "-w", "{S}/bfs.cpp", "-o", "{EXE}"]])
    N = 1001

    DEGREE = 2

    def gen(self, d):
        if SIZE != "test":
            return self.gen_np(d)
        r = Rng(11)
        n = self.N
        adj = [[] for _ in range(n)]
        for u in range(n):
            if u % 97 == 96:          # a few nodes with no out-edges
                continue
            for _ in range(r.randint(0, 4)):
                v = r.randint(0, n - 1)
                if v % 89 == 7:       # ... and a few never reached
                    continue
                adj[u].append(v)
        lines = [str(n)]
        start = 0
        for u in range(n):
            lines.append("%d %d" % (start, len(adj[u])))
            start += len(adj[u])
        lines += ["", "0", "", str(start)]
        for u in range(n):
            for v in adj[u]:
                lines.append("%d %d" % (v, r.randint(1, 9)))
        write(os.path.join(d, "graph.txt"), "\n".join(lines) + "\n")

    def gen_np(self, d):
        # Rodinia's graph format; degrees 0..2*DEGREE, a few nodes without
        # out-edges and a few never reached (as the test generator)
        r = np_rng(11)
        n = self.N
        deg = r.integers(0, 2 * self.DEGREE + 1, n)
        deg[np.arange(n) % 97 == 96] = 0
        start = np.concatenate(([0], np.cumsum(deg)[:-1]))
        m = int(deg.sum())
        dest = r.integers(0, n, m)
        bad = dest % 89 == 7
        dest[bad] = (dest[bad] + 1) % n
        cost = r.integers(1, 10, m)
        with open(os.path.join(d, "graph.txt"), "w") as f:
            f.write("%d\n" % n)
            write_lines(f, "%d %d\n", start, deg)
            f.write("\n0\n\n%d\n" % m)
            write_lines(f, "%d %d\n", dest, cost)

    def cuda_args(self, d):
        return [os.path.join(d, "graph.txt")]

    def omp_args(self, d):
        return [OMP_THREADS, os.path.join(d, "graph.txt")]

    def parse_cuda(self, rundir, out, err):
        cost = [int(m) for m in re.findall(r"cost:(-?\d+)", read(os.path.join(rundir, "result.txt")))]
        res = {"cost": cost}
        m = re.search(r"Kernel Executed (\d+) times", out)
        if m:
            res["iterations"] = [int(m.group(1))]
        return res


# --- gaussian ------------------------------------------------------------------

class Gaussian(Test):
    name = program = cuda_dir = "gaussian"
    cu = ["gaussian.cu"]
    reference = "golden"
    N = 37
    # printed with %.2f: allow one unit in the last printed place
    tol = {k: (0.0, 0.0100001) for k in ("m", "a", "b", "x")}

    def gen(self, d):
        if SIZE != "test":
            return  # the program's own matrix (-s N)
        r = Rng(21)
        n = self.N
        rows = []
        for i in range(n):
            row = [r.uniform() * 2 - 1 for _ in range(n)]
            row[i] += 6.0
            rows.append("\t".join("%.4f" % v for v in row))
        b = "\t".join("%.4f" % (r.uniform() * 2 - 1) for _ in range(n))
        write(os.path.join(d, "matrix.txt"), "%d\n\n%s\n\n%s\n" % (n, "\n".join(rows), b))

    def cuda_args(self, d):
        if SIZE != "test":
            return ["-s", str(self.N)]
        return ["-f", os.path.join(d, "matrix.txt")]

    def parse_cuda(self, rundir, out, err):
        return gaussian_blocks(out)


# --- hotspot -------------------------------------------------------------------

class Hotspot(Test):
    name = program = cuda_dir = "hotspot"
    cu = ["hotspot.cu"]
    reference = "golden"
    N, PYRAMID, ITERS = 53, 2, 7
    tol = {"temp": (1e-5, 0.0)}

    # timed only (bench): a different model (CENSUS.md), same amount of work
    omp = dict(dir="hotspot", cmds=[["{CXX}", "-g", "-fopenmp", "-O2", "-w",
                                     "{S}/hotspot_openmp.cpp", "-o", "{EXE}"]])
    omp_comparable = False

    def gen(self, d):
        if SIZE != "test":
            r = np_rng(31)
            n = self.N * self.N
            write_lines(os.path.join(d, "temp"), "%.6f\n", 320 + 20 * r.random(n))
            write_lines(os.path.join(d, "power"), "%.6f\n", 0.005 * r.random(n))
            return
        r = Rng(31)
        n = self.N * self.N
        write(os.path.join(d, "temp"), "".join("%.6f\n" % (320 + 20 * r.uniform()) for _ in range(n)))
        write(os.path.join(d, "power"), "".join("%.6f\n" % (0.005 * r.uniform()) for _ in range(n)))

    def cuda_args(self, d):
        return [str(self.N), str(self.PYRAMID), str(self.ITERS),
                os.path.join(d, "temp"), os.path.join(d, "power"), "output.out"]

    def omp_args(self, d):
        return [str(self.N), str(self.N), str(self.ITERS), OMP_THREADS,
                os.path.join(d, "temp"), os.path.join(d, "power"), "output.out"]

    def parse_cuda(self, rundir, out, err):
        return {"temp": hotspot_file(os.path.join(rundir, "output.out"))}


# --- hotspot3D -----------------------------------------------------------------

class Hotspot3D(Test):
    name = program = cuda_dir = "hotspot3D"
    cu = ["3D.cu"]
    omp = dict(dir="hotspot3D", cmds=[["{CC}", "-g", "-fopenmp", "-O3", "-w", "{S}/3D.c", "-lm", "-o", "{EXE}"]])
    # rows/cols: a multiple of 64 (grid nx/64 x ny/4, no bounds check);
    # iterations even (see CENSUS.md: both versions write iteration n-1 then)
    N, LAYERS, ITERS = 64, 5, 6
    tol = {"temp": (1e-5, 0.0), "accuracy": (0.0, 1e-3)}

    def gen(self, d):
        if SIZE != "test":
            r = np_rng(41)
            n = self.N * self.N * self.LAYERS
            write_lines(os.path.join(d, "power"), "%.6f\n", 0.005 * r.random(n))
            write_lines(os.path.join(d, "temp"), "%.6f\n", 320 + 20 * r.random(n))
            return
        r = Rng(41)
        n = self.N * self.N * self.LAYERS
        write(os.path.join(d, "power"), "".join("%.6f\n" % (0.005 * r.uniform()) for _ in range(n)))
        write(os.path.join(d, "temp"), "".join("%.6f\n" % (320 + 20 * r.uniform()) for _ in range(n)))

    def cuda_args(self, d):
        return [str(self.N), str(self.LAYERS), str(self.ITERS),
                os.path.join(d, "power"), os.path.join(d, "temp"), "output.out"]

    omp_args = cuda_args

    def parse_cuda(self, rundir, out, err):
        res = {"temp": hotspot_file(os.path.join(rundir, "output.out"))}
        m = re.search(r"Accuracy: (\S+)", out)
        if m:
            res["accuracy"] = [float(m.group(1))]
        return res


# --- lud -----------------------------------------------------------------------

class Lud(Test):
    name = program = cuda_dir = "lud"
    cu = ["cuda/lud.cu", "cuda/lud_kernel.cu"]
    c = ["common/common.c"]
    incdirs = ["common"]
    nvcc_flags = ["-O3", "-use_fast_math"]
    hooks = ["lud_dump.c"]
    wraps = ["lud_verify"]
    omp = dict(dir="lud", cmds=[[
        "{CC}", "-O3", "-fopenmp", "-w", "-I{S}/common", "{S}/omp/lud.c", "{S}/omp/lud_omp.c",
        "{S}/common/common.c", "{H}/lud_dump.c", "-Wl,--wrap=lud_verify", "-lm", "-o", "{EXE}"]])
    N = 80  # a multiple of 16 (BLOCK_SIZE; no bounds checks)
    tol = {"lu": (1e-4, 5e-5)}

    def gen(self, d):
        if SIZE != "test":
            # not the programs' own -s matrix: that one (10*exp(-0.001|i-j|))
            # is so ill-conditioned that summation orders differ by > 1e-4
            # at n = 256 already; this one is diagonally dominant like the
            # test size's
            r = np_rng(51)
            n = self.N
            with open(os.path.join(d, "matrix.dat"), "w") as f:
                f.write("%d\n" % n)
                for i in range(n):
                    row = r.random(n)
                    row[i] += n / 4.0
                    f.write((" ".join(["%.6f"] * n) + "\n") % tuple(row.tolist()))
            return
        r = Rng(51)
        n = self.N
        lines = [str(n)]
        for i in range(n):
            row = [r.uniform() for _ in range(n)]
            row[i] += n / 4.0
            lines.append(" ".join("%.6f" % v for v in row))
        write(os.path.join(d, "matrix.dat"), "\n".join(lines) + "\n")

    def cuda_args(self, d):
        return ["-i", os.path.join(d, "matrix.dat"), "-v"]

    def omp_args(self, d):
        return ["-n", OMP_THREADS] + self.cuda_args(d)

    def parse_cuda(self, rundir, out, err):
        res = parse_dump(os.path.join(rundir, "rodinia_dump.txt"))
        res.pop("size", None)
        return res


# --- nn --------------------------------------------------------------------------

class Nn(Test):
    name = program = cuda_dir = "nn"
    cu = ["nn_cuda.cu"]
    omp = dict(dir="nn", cmds=[["{CC}", "-fopenmp", "-w", "{S}/nn_openmp.c", "-lm", "-o", "{EXE}"]])
    K, LAT, LNG = 7, "30.5", "90.25"
    tol = {"distances": (0.0, 2e-6)}
    NAMES = ["ALBERTO", "BERYL", "CHRIS", "DEBBY", "ERNESTO", "FLORENCE", "GORDON",
             "HELENE", "ISAAC", "JOYCE", "KIRK", "LESLIE", "MICHAEL", "NADINE", "OSCAR",
             "PATTY", "RAFAEL", "SANDY", "TONY", "VALERIE", "WILLIAM"]

    RECORDS, FILES = 517, 2

    def gen(self, d):
        if SIZE != "test":
            return self.gen_np(d)
        # hurricane_gen.c's record format; two files (record counts not
        # multiples of the OpenMP version's 10-record window); all squared
        # distances to the target distinct (no ties in the k smallest).
        r = Rng(61)
        seen = set()
        names = []
        for fi, count in enumerate((263, 254)):
            recs = []
            while len(recs) < count:
                lat = r.randint(70, 699) / 10.0
                lon = r.randint(0, 3579) / 10.0
                key = round((lat - 30.5) ** 2 + (lon - 90.25) ** 2, 2)
                if key in seen:
                    continue
                seen.add(key)
                recs.append("%4d %2d %2d %2d %2d %-9s %5.1f %5.1f %4d %4d\n" % (
                    r.randint(1950, 2004), r.randint(1, 12), r.randint(1, 28),
                    [0, 6, 12, 18][r.randint(0, 3)], r.randint(1, 28),
                    self.NAMES[r.randint(0, 20)], lat, lon, r.randint(10, 164),
                    r.randint(0, 899)))
            fname = "cane%d.db" % fi
            write(os.path.join(d, fname), "".join(recs))
            names.append(fname)
        write(os.path.join(d, "filelist.txt"), "".join(n + "\n" for n in names))

    def gen_np(self, d):
        # Same format. On a 0.1-degree grid most distances tie, so no record
        # lies within 7 degrees of the target except 40 planted ones at
        # distinct distances (lat 30.6 .. 34.5, lon 90.2): the K nearest are
        # unique.
        r = np_rng(61)
        names = []
        per = -(-self.RECORDS // self.FILES)
        planted = np.sort(r.choice(self.RECORDS, 40, replace=False))
        for fi in range(self.FILES):
            k = min(per, self.RECORDS - fi * per)
            lat = r.integers(70, 700, k) / 10.0
            lon = r.integers(0, 3580, k) / 10.0
            near = (lat - float(self.LAT)) ** 2 + (lon - float(self.LNG)) ** 2 < 49
            lat[near] += 15.0
            here = planted[(planted >= fi * per) & (planted < fi * per + k)]
            for j in here:
                i = int(np.flatnonzero(planted == j)[0])
                lat[j - fi * per] = 30.6 + 0.1 * i
                lon[j - fi * per] = 90.2
            cols = (r.integers(1950, 2005, k), r.integers(1, 13, k), r.integers(1, 29, k),
                    r.integers(0, 4, k) * 6, r.integers(1, 29, k),
                    np.array(self.NAMES)[r.integers(0, 21, k)], lat, lon,
                    r.integers(10, 165, k), r.integers(0, 900, k))
            fname = "cane%d.db" % fi
            write_lines(os.path.join(d, fname), "%4d %2d %2d %2d %2d %-9s %5.1f %5.1f %4d %4d\n",
                        *cols)
            names.append(fname)
        write(os.path.join(d, "filelist.txt"), "".join(n + "\n" for n in names))

    # db names in the filelist are relative: run in a directory holding them
    def cuda_args(self, d):
        return ["filelist.txt", "-r", str(self.K), "-lat", self.LAT, "-lng", self.LNG]

    def omp_args(self, d):
        return ["filelist.txt", str(self.K), self.LAT, self.LNG]

    def parse_cuda(self, rundir, out, err):
        recs, dists = [], []
        for line in out.splitlines():
            m = re.match(r"(.*) --> Distance=(\S+)$", line)
            if m:
                recs.append(m.group(1))
                dists.append(float(m.group(2)))
        return {"records": recs, "distances": dists}

    def parse_omp(self, rundir, out, err):
        pairs = []
        for line in err.splitlines():
            m = re.match(r"(.*) --> (\S+)$", line)
            if m:
                pairs.append((float(m.group(2)), m.group(1)))
        pairs.sort()
        return {"records": [p[1] for p in pairs], "distances": [p[0] for p in pairs]}


# --- nw --------------------------------------------------------------------------

class Nw(Test):
    name = program = cuda_dir = "nw"
    cu = ["needle.cu"]
    defines = ["-DTRACEBACK"]  # the CUDA version writes result.txt only then
    omp = dict(dir="nw", cmds=[["{CXX}", "-g", "-O3", "-fopenmp", "-w", "{S}/needle.cpp", "-o", "{EXE}"]])
    N, PENALTY = 112, 10  # a multiple of 16; 7 blocks per side

    def cuda_args(self, d):
        return [str(self.N), str(self.PENALTY)]

    def omp_args(self, d):
        return [str(self.N), str(self.PENALTY), OMP_THREADS]

    def parse_cuda(self, rundir, out, err):
        text = read(os.path.join(rundir, "result.txt"))
        body = text.split("\n", 1)[1] if "\n" in text else ""
        return {"traceback": [int(x) for x in body.split()]}


# --- pathfinder --------------------------------------------------------------------

class Pathfinder(Test):
    name = program = cuda_dir = "pathfinder"
    cu = ["pathfinder.cu"]
    omp = dict(dir="pathfinder", cmds=[["{CXX}", "-fopenmp", "-w", "{S}/pathfinder.cpp", "-o", "{EXE}"]])
    COLS, ROWS, PYRAMID = 1001, 37, 5

    def cuda_args(self, d):
        return [str(self.COLS), str(self.ROWS), str(self.PYRAMID)]

    def omp_args(self, d):
        return [str(self.COLS), str(self.ROWS)]

    def parse_cuda(self, rundir, out, err):
        lines = [l.split() for l in out.splitlines()
                 if l.strip() and re.fullmatch(r"[-\d ]+", l.strip())]
        return {"wall": [" ".join(l) for l in lines[:-2]],
                "first_row": [int(x) for x in lines[-2]] if len(lines) >= 2 else [],
                "result": [int(x) for x in lines[-1]] if lines else []}


# --- srad ----------------------------------------------------------------------

class SradV1(Test):
    name = "srad_v1"
    program = "srad"
    cuda_dir = "srad/srad_v1"
    cu = ["main.cu"]
    omp = dict(dir="srad/srad_v1", cmds=[["{CC}", "-O3", "-fopenmp", "-w", "{S}/main.c", "-lm", "-o", "{EXE}"]])
    # Nr*Nc = 1845: 4 blocks of 512, a power of two (CENSUS.md: the CUDA
    # reduction is wrong otherwise, and then differs from the OpenMP sum)
    NITER, LAMBDA, NR, NC = 3, "0.5", 45, 41
    rundir_depth = 3   # the program reads ../../../data/srad/image.pgm
    tol = {"pixels": (0.0, 1.0)}

    def gen(self, d):
        # image.pgm must be 502 x 458 (hard-coded); P2, 255
        r = Rng(71)
        rows, cols = 502, 458
        out = ["P2\n%d %d\n255\n" % (cols, rows)]
        for i in range(rows):
            vals = []
            for j in range(cols):
                v = 120 + 60 * ((i * 7 + j * 3) % 50) / 50.0 + r.randint(-30, 30)
                vals.append(str(max(1, min(255, int(v)))))
            out.append(" ".join(vals) + "\n")
        os.makedirs(os.path.join(d, "data", "srad"), exist_ok=True)
        write(os.path.join(d, "data", "srad", "image.pgm"), "".join(out))

    def cuda_args(self, d):
        return [str(self.NITER), self.LAMBDA, str(self.NR), str(self.NC)]

    def omp_args(self, d):
        return self.cuda_args(d) + [OMP_THREADS]

    def parse_cuda(self, rundir, out, err):
        v = [int(x) for x in read(os.path.join(rundir, "image_out.pgm")).split()[1:]]
        return {"dims": v[:3], "pixels": v[3:]}


class SradV2(Test):
    name = "srad_v2"
    program = "srad"
    cuda_dir = "srad/srad_v2"
    cu = ["srad.cu"]
    defines = ["-DOUTPUT"]  # prints the image only then
    omp = dict(dir="srad/srad_v2", cmds=[["{CXX}", "-g", "-fopenmp", "-O2", "-w", "-DOUTPUT",
                                          "{S}/srad.cpp", "-o", "{EXE}"]])
    ROWS, COLS, ROI, LAMBDA, NITER = 48, 80, ("0", "31", "0", "31"), "0.5", "2"
    tol = {"J": (1e-5, 2e-5)}

    def cuda_args(self, d):
        return [str(self.ROWS), str(self.COLS)] + list(self.ROI) + [self.LAMBDA, self.NITER]

    def omp_args(self, d):
        return [str(self.ROWS), str(self.COLS)] + list(self.ROI) + [OMP_THREADS, self.LAMBDA, self.NITER]

    def parse_cuda(self, rundir, out, err):
        vals = []
        num = re.compile(r"-?\d+\.\d{5}")
        for line in out.splitlines():
            p = line.split()
            if not p or not num.fullmatch(p[0]) or not num.fullmatch(p[-1]):
                continue
            if SIZE == "test" and not all(num.fullmatch(x) for x in p):
                continue
            vals.extend(float(x) for x in p)
        return {"J": vals}


# --- streamcluster ------------------------------------------------------------------

class Streamcluster(Test):
    name = program = cuda_dir = "streamcluster"
    cu = ["streamcluster_cuda.cu", "streamcluster_header.cu"]
    cpp = ["streamcluster_cuda_cpu.cpp"]
    reference = "golden"
    KMIN, KMAX, DIM, NPTS, CHUNK, CLUSTER = 3, 10, 5, 301, 400, 1000
    INTERNAL = False  # True: the programs generate NPTS points (n > 0, lrand48)
    tol = {"weights": (1e-6, 0.0), "coords": (1e-5, 1e-6)}

    # timed only (bench): keeps costs in double, races in pgain (CENSUS.md)
    omp = dict(dir="streamcluster", cmds=[["{CXX}", "-O3", "-fopenmp", "-w",
                                           "{S}/streamcluster_omp.cpp", "-o", "{EXE}"]])
    omp_comparable = False

    def gen(self, d):
        if self.INTERNAL:
            return
        # binary float32 points (n <= 0 makes the program read the file);
        # 6 well separated blobs, fewer points than one chunk
        import struct
        r = Rng(81)
        centers = [[r.uniform() for _ in range(self.DIM)] for _ in range(6)]
        data = []
        for i in range(self.NPTS):
            c = centers[r.randint(0, 5)]
            data.extend(x + 0.03 * (r.uniform() - 0.5) for x in c)
        with open(os.path.join(d, "points.bin"), "wb") as f:
            f.write(struct.pack("<%df" % len(data), *data))

    def cuda_args(self, d, nproc="1"):
        if self.INTERNAL:
            n, infile = str(self.NPTS), "none"
        else:
            n, infile = "0", os.path.join(d, "points.bin")
        return [str(self.KMIN), str(self.KMAX), str(self.DIM), n, str(self.CHUNK),
                str(self.CLUSTER), infile, "output.txt", nproc]

    def omp_args(self, d):
        return self.cuda_args(d, OMP_THREADS)

    def parse_cuda(self, rundir, out, err):
        blocks = [b.split("\n") for b in read(os.path.join(rundir, "output.txt")).strip().split("\n\n")]
        ids, weights, coords = [], [], []
        for b in blocks:
            ids.append(int(b[0]))
            weights.append(float(b[1]))
            coords.extend(float(x) for x in b[2].split())
        return {"ids": ids, "weights": weights, "coords": coords}


# --- particlefilter -----------------------------------------------------------------

def pf_values(out):
    res = {"xe": [], "ye": [], "distance": []}
    lines = out.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"XE: (\S+)$", line)
        if m:
            res["xe"].append(float(m.group(1)))
        m = re.match(r"YE: (\S+)$", line)
        if m:
            res["ye"].append(float(m.group(1)))
            if i + 1 < len(lines) and re.fullmatch(FLOAT_RE, lines[i + 1].strip()):
                res["distance"].append(float(lines[i + 1]))
    return res


class PfFloat(Test):
    name = "particlefilter_float"
    program = "particlefilter"
    cuda_dir = "particlefilter"
    cu = ["ex_particle_CUDA_float_seq.cu"]
    nvcc_flags = ["-O3", "-use_fast_math"]
    # randu's `A*seed[index] + C` overflows int (undefined behaviour); gcc,
    # the nvcc build's host compiler, happens to wrap, clang does not.
    tessel_flags = ["-Xcompiler=-fwrapv"]
    preload_time = True
    reference = "golden"
    # <= 512 particles: one block (CENSUS.md: cross-block races otherwise)
    ARGS = ["-x", "37", "-y", "37", "-z", "7", "-np", "400"]
    tol = {k: (1e-6, 2e-6) for k in ("xe", "ye", "distance")}  # printed %lf

    def cuda_args(self, d):
        return list(self.ARGS)

    def parse_cuda(self, rundir, out, err):
        return pf_values(out)


class PfNaive(Test):
    name = "particlefilter_naive"
    program = "particlefilter"
    cuda_dir = "particlefilter"
    cu = ["ex_particle_CUDA_naive_seq.cu"]
    nvcc_flags = ["-O3", "-use_fast_math"]
    # randu's `A*seed[index] + C` overflows int (undefined behaviour); gcc,
    # the nvcc build's host compiler, happens to wrap, clang does not.
    tessel_flags = ["-Xcompiler=-fwrapv"]
    preload_time = True
    # Rodinia builds the OpenMP version with -ffast-math; left out here
    omp = dict(dir="particlefilter", cmds=[["{CC}", "-O3", "-fopenmp", "-w",
                                            "{S}/ex_particle_OPENMP_seq.c", "-lm", "-o", "{EXE}"]])
    omp_env = {"OMP_NUM_THREADS": "1"}  # its reductions then sum in the naive version's order
    ARGS = ["-x", "37", "-y", "37", "-z", "7", "-np", "301"]
    tol = {k: (1e-6, 2e-6) for k in ("xe", "ye", "distance")}  # printed %lf

    def cuda_args(self, d):
        return list(self.ARGS)

    omp_args = cuda_args

    def parse_cuda(self, rundir, out, err):
        return pf_values(out)


# --- lavaMD ----------------------------------------------------------------------

class LavaMD(Test):
    name = program = cuda_dir = "lavaMD"
    cu = ["kernel/kernel_gpu_cuda_wrapper.cu", "util/device/device.cu"]
    c = ["main.c", "util/num/num.c", "util/timer/timer.c"]
    defines = ["-DOUTPUT"]   # writes result.txt only then
    preload_time = True      # srand(time(NULL)) seeds the particles
    omp = dict(dir="lavaMD", cmds=[[
        "{CC}", "-O3", "-fopenmp", "-w", "-DOUTPUT", "{S}/main.c", "{S}/kernel/kernel_cpu.c",
        "{S}/util/num/num.c", "{S}/util/timer/timer.c", "-lm", "-o", "{EXE}"]])
    BOXES = 3  # boxes per dimension: BOXES^3 boxes of 100 particles
    tol = {"fv": (1e-6, 2e-6)}  # printed %f

    def cuda_args(self, d):
        return ["-boxes1d", str(self.BOXES)]

    def omp_args(self, d):
        return ["-cores", OMP_THREADS, "-boxes1d", str(self.BOXES)]

    def parse_cuda(self, rundir, out, err):
        text = read(os.path.join(rundir, "result.txt"))
        return {"fv": [float(x) for x in text.replace(",", " ").split()]}


# --- b+tree ----------------------------------------------------------------------

class BPlusTree(Test):
    name = program = cuda_dir = "b+tree"
    cu = ["kernel/kernel_gpu_cuda_wrapper.cu", "kernel/kernel_gpu_cuda_wrapper_2.cu",
          "util/cuda/cuda.cu"]
    c = ["main.c", "util/timer/timer.c", "util/num/num.c"]
    omp = dict(dir="b+tree", cmds=[[
        "{CC}", "-O3", "-fopenmp", "-w", "{S}/main.c", "{S}/kernel/kernel_cpu.c",
        "{S}/kernel/kernel_cpu_2.c", "{S}/util/timer/timer.c", "{S}/util/num/num.c", "-lm",
        "-o", "{EXE}"]])
    # KEYS distinct keys (the tree, built serially on the host); K queries of
    # one key, J range queries of RANGE keys (each at most 65535: the grid)
    KEYS, K, J, RANGE = 3001, 1001, 503, 37

    def gen(self, d):
        r = Rng(91)
        keys = list(range(1, 3 * self.KEYS, 3))[:self.KEYS]
        for i in range(len(keys) - 1, 0, -1):   # shuffled (insertion order)
            j = r.randint(0, i)
            keys[i], keys[j] = keys[j], keys[i]
        write(os.path.join(d, "keys.txt"), "%d\n%s\n" % (len(keys), "\n".join(map(str, keys))))
        # The program reads the command file into an unterminated buffer and
        # scans it until sscanf meets a NUL: without one it reads on into the
        # heap, and a stray 'v', 'q' or 'x' there makes it read stdin.
        write(os.path.join(d, "command.txt"), "j %d %d\nk %d\n\0" % (self.J, self.RANGE, self.K))

    def cuda_args(self, d):
        return ["file", os.path.join(d, "keys.txt"), "command", os.path.join(d, "command.txt")]

    def omp_args(self, d):
        return ["cores", OMP_THREADS] + self.cuda_args(d)

    def parse_cuda(self, rundir, out, err):
        text = read(os.path.join(rundir, "output.txt"))
        return {"output": [int(x) for x in re.findall(r"-?\d+", text)]}


TESTS = [Backprop(), Bfs(), Gaussian(), Hotspot(), Hotspot3D(), Lud(), Nn(), Nw(),
         Pathfinder(), SradV1(), SradV2(), Streamcluster(), PfFloat(), PfNaive(), LavaMD(),
         BPlusTree()]
BY_NAME = {t.name: t for t in TESTS}


def select(prog):
    if prog == "all":
        return list(TESTS)
    if prog in BY_NAME:
        return [BY_NAME[prog]]
    ts = [t for t in TESTS if t.program == prog]
    if not ts:
        sys.exit("unknown test or program %r (see --list)" % prog)
    return ts


# ----------------------------------------------------------------------------
# running

_generated = set()


def inputs(t):
    """The test's input directory, generated afresh once per process."""
    d = os.path.join(WORK, t.name, "inputs")
    if t.name not in _generated:
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        t.gen(d)
        _generated.add(t.name)
    return d


def input_digest(t):
    d = inputs(t)
    h = hashlib.sha256()
    for root, _, files in sorted(os.walk(d)):
        for f in sorted(files):
            p = os.path.join(root, f)
            h.update(os.path.relpath(p, d).encode())
            with open(p, "rb") as fh:
                h.update(fh.read())
    return h.hexdigest()


def fixed_time_so():
    b = os.path.join(WORK, "harness")
    so = os.path.join(b, "fixed_time.so")
    if not os.path.exists(so):
        os.makedirs(b, exist_ok=True)
        run_checked([CC, "-shared", "-fPIC", "-O2", os.path.join(HARNESS, "fixed_time.c"),
                     "-o", so], cwd=b)
    return so


def make_rundir(t, label):
    """A fresh run directory WORK/<test>/<label> that sees the inputs;
    returns (top, rundir): the program runs in rundir (srad_v1: 3 below)."""
    d = inputs(t)
    top = os.path.join(WORK, t.name, label)
    shutil.rmtree(top, ignore_errors=True)
    os.makedirs(top)
    rundir = top
    if t.rundir_depth:
        rundir = os.path.join(top, *(["r"] * t.rundir_depth))
        os.makedirs(rundir)
    # inputs visible from the run directory (nn's filelist, srad_v1's ../../../data)
    for f in os.listdir(d):
        os.symlink(os.path.join(d, f), os.path.join(top, f))
    return top, rundir


def run_env(t, extra_env=None):
    """The environment every run of test t gets (plus extra_env)."""
    env = dict(os.environ)
    env["MALLOC_PERTURB_"] = "255"
    if SIZE != "test":
        env["RODINIA_DUMP_MAX"] = DUMP_MAX
        env["RODINIA_LUD_VERIFY"] = "0"
    if t.preload_time:
        env["LD_PRELOAD"] = fixed_time_so()
        env["RODINIA_FIXED_TIME"] = FIXED_TIME
    env.update(extra_env or {})
    return env


def run_prog(t, label, cmd, args, extra_env=None):
    """Run cmd+args in a fresh directory; returns (rundir, stdout, stderr)."""
    top, rundir = make_rundir(t, label)
    env = run_env(t, extra_env)
    full = cmd + args
    try:
        p = subprocess.run(full, cwd=rundir, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise RuntimeError("%s: timed out after %d s: %s" % (label, TIMEOUT, " ".join(full)))
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    write(os.path.join(top, "stdout.txt"), out)
    write(os.path.join(top, "stderr.txt"), err)
    if p.returncode != 0:
        raise RuntimeError("%s: exit status %d: %s\n%s" % (label, p.returncode, " ".join(full),
                                                           (out + err)[-2000:]))
    return rundir, out, err


def omp_reference(t):
    if not t.omp or not t.omp_comparable:
        raise RuntimeError("%s: no usable OpenMP reference (see CENSUS.md)" % t.name)
    if not t.OMP_AGREES:
        raise RuntimeError("%s: the OpenMP version is no reference at size %s (SIZES)" % (
            t.name, SIZE))
    bdir = os.path.join(WORK, t.name, "build-omp")
    shutil.rmtree(bdir, ignore_errors=True)
    os.makedirs(bdir)
    exe = t.omp_build(bdir)
    env = {"OMP_NUM_THREADS": OMP_THREADS}
    env.update(t.omp_env)
    rundir, out, err = run_prog(t, "run-omp", [exe], t.omp_args(inputs(t)), env)
    return parsed(t.parse_omp, "run-omp", rundir, out, err)


def cuda_run(t, label, cmd):
    rundir, out, err = run_prog(t, label, cmd, t.cuda_args(inputs(t)))
    return parsed(t.parse_cuda, label, rundir, out, err)


def parsed(parse, label, rundir, out, err):
    try:
        return parse(rundir, out, err)
    except (OSError, ValueError, IndexError) as e:
        raise RuntimeError("%s: could not read the results (%s: %s); output was:\n%s" % (
            label, type(e).__name__, e, (out + err)[-2000:]))


def golden(t):
    path = os.path.join(GOLDEN_DIR, t.name + ".json")
    if not os.path.exists(path):
        raise RuntimeError("%s: no golden file %s" % (t.name, path))
    with open(path) as f:
        g = json.load(f)
    if g["input_sha256"] != input_digest(t):
        raise RuntimeError("%s: golden file was made from other inputs (generator changed?)" % t.name)
    if g["args"] != t.cuda_args("<inputs>"):
        raise RuntimeError("%s: golden file was made with other arguments" % t.name)
    return g["result"]


def compare(t, ref, cand):
    """Mismatch messages; reference keys decide what is compared."""
    msgs = []
    for key, rv in ref.items():
        if key not in cand:
            msgs.append("%s: missing in candidate output" % key)
            continue
        cv = cand[key]
        if len(cv) != len(rv):
            msgs.append("%s: %d values, reference has %d" % (key, len(cv), len(rv)))
            continue
        tol = t.tol.get(key)
        fast = compare_np(cv, rv, tol) if len(rv) > 1000 else None
        if fast is not None:
            nbad, i = fast
            if nbad:
                msgs.append("%s: %d of %d differ%s; first at [%d]: candidate %r, reference %r" % (
                    key, nbad, len(rv), "" if tol is None else " (rtol %g, atol %g)" % tol,
                    i, cv[i], rv[i]))
            continue
        bad = []
        worst = 0.0
        for i, (a, b) in enumerate(zip(cv, rv)):
            if tol is None or isinstance(b, str):
                ok = a == b
            else:
                rtol, atol = tol
                diff = abs(a - b)
                ok = diff <= atol + rtol * abs(b)
                if diff == diff:
                    worst = max(worst, diff / (atol + rtol * abs(b)) if (atol + rtol * abs(b)) else
                                (0.0 if diff == 0 else float("inf")))
            if not ok:
                bad.append(i)
        if bad:
            i = bad[0]
            msgs.append("%s: %d of %d differ%s; first at [%d]: candidate %r, reference %r" % (
                key, len(bad), len(rv), "" if tol is None else " (rtol %g, atol %g)" % tol,
                i, cv[i], rv[i]))
    return msgs


def compare_np(cv, rv, tol):
    """compare()'s test of one numeric vector with numpy: (mismatches, first
    index), or None where numpy is missing or the values are not numbers."""
    if np is None:
        return None
    try:
        a = np.asarray(cv, dtype=np.float64)
        b = np.asarray(rv, dtype=np.float64)
    except (TypeError, ValueError):
        return None
    if a.ndim != 1 or b.ndim != 1 or a.shape != b.shape:
        return None
    if tol is None:
        ok = a == b
    else:
        rtol, atol = tol
        with np.errstate(invalid="ignore"):
            ok = np.abs(a - b) <= atol + rtol * np.abs(b)
    bad = np.flatnonzero(~ok)
    return (len(bad), int(bad[0]) if len(bad) else -1)


def get_reference(t, how):
    if how == "omp":
        return omp_reference(t), "OpenMP (gcc -fopenmp)"
    if how == "golden":
        return golden(t), "golden (nvcc on GPU)"
    how = how.replace("{test}", t.name)
    return cuda_run(t, "run-reference", shlex.split(how)), how


def cmd_check(prog, candidate, reference):
    status = 0
    for t in select(prog):
        how = reference or t.reference
        try:
            ref, desc = get_reference(t, how)
            cand = cuda_run(t, "run-candidate", shlex.split(candidate.replace("{test}", t.name)))
        except RuntimeError as e:
            print("FAIL %s: %s" % (t.name, e))
            status = 1
            continue
        msgs = compare(t, ref, cand)
        n = sum(len(v) for v in ref.values())
        if msgs:
            status = 1
            print("FAIL %s (reference: %s)" % (t.name, desc))
            for m in msgs:
                print("  " + m)
        else:
            print("PASS %s (%d values vs %s)" % (t.name, n, desc))
    return status


def cmd_reference_only(prog):
    status = 0
    for t in select(prog):
        try:
            ref, desc = get_reference(t, t.reference)
        except RuntimeError as e:
            print("FAIL %s: %s" % (t.name, e))
            status = 1
            continue
        summary = ", ".join("%s[%d]" % (k, len(v)) for k, v in ref.items())
        print("ok %s (%s): %s" % (t.name, desc, summary))
    return status


def cmd_build_nvcc(prog, out, jobs):
    from concurrent.futures import ThreadPoolExecutor

    def one(t):
        bdir = os.path.abspath(os.path.join(out, t.name))
        shutil.rmtree(bdir, ignore_errors=True)
        os.makedirs(bdir)
        try:
            return "built %s" % t.nvcc_build(bdir)
        except RuntimeError as e:
            return "FAIL %s: %s" % (t.name, e)

    with ThreadPoolExecutor(max(1, jobs)) as ex:
        msgs = list(ex.map(one, select(prog)))
    for m in msgs:
        print(m)
    return int(any(m.startswith("FAIL") for m in msgs))


def cmd_build_tessel(prog, tessel_cc, target, out):
    """tessel-cc builds only, as out/<test>/tessel_<test> (to run elsewhere)."""
    status = 0
    for t in select(prog):
        bdir = os.path.abspath(os.path.join(out, t.name))
        shutil.rmtree(bdir, ignore_errors=True)
        os.makedirs(bdir)
        try:
            print("built %s" % t.tessel_build(bdir, os.path.abspath(tessel_cc), target))
        except RuntimeError as e:
            print("FAIL %s: %s" % (t.name, e))
            status = 1
    return status


def cmd_tessel(prog, tessel_cc, target, reference):
    """Build each test with tessel-cc, then check it against its reference."""
    status = 0
    for t in select(prog):
        bdir = os.path.join(WORK, t.name, "build-tessel-" + target.replace(",", "-"))
        shutil.rmtree(bdir, ignore_errors=True)
        os.makedirs(bdir)
        try:
            exe = t.tessel_build(bdir, os.path.abspath(tessel_cc), target)
        except RuntimeError as e:
            print("FAIL %s: %s" % (t.name, e))
            status = 1
            continue
        status |= cmd_check(t.name, shlex.quote(exe), reference)
    return status


def cmd_clang_syntax(prog):
    """clang -x cuda -fsyntax-only (host and device) on each CUDA/C++ unit, unchanged."""
    status = 0
    for t in select(prog):
        s = t.src()
        for f in t.cu + t.cpp:
            cmd = [CLANG, "-x", "cuda", "--cuda-path=" + CUDA_PATH, "-Wno-unknown-cuda-version",
                   "--cuda-gpu-arch=" + NVCC_ARCH, "-fsyntax-only", "-w"]
            cmd += ["-I" + os.path.join(s, i) for i in [""] + t.incdirs] + t.defines
            p = subprocess.run(cmd + [os.path.join(s, f)], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, universal_newlines=True)
            errs = sorted(set(re.sub(r"^.*?:\d+:\d+: ", "", l) for l in p.stdout.splitlines()
                              if ": error:" in l))
            print("%s %s/%s%s" % ("ok  " if p.returncode == 0 else "FAIL", t.name, f,
                                 "" if not errs else ": " + "; ".join(errs)))
            status |= p.returncode != 0
    return status


def cmd_write_golden(prog, nvcc_dir):
    os.makedirs(GOLDEN_DIR, exist_ok=True)
    ver = subprocess.run([NVCC, "--version"], stdout=subprocess.PIPE,
                         universal_newlines=True).stdout.strip().splitlines()[-1]
    dev = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                         stdout=subprocess.PIPE, universal_newlines=True).stdout.strip()
    status = 0
    for t in select(prog):
        exe = os.path.join(os.path.abspath(nvcc_dir), t.name, "cuda_" + t.name)
        try:
            res = cuda_run(t, "run-nvcc", [exe])
            again = cuda_run(t, "run-nvcc-2", [exe])
        except RuntimeError as e:
            print("FAIL %s: %s" % (t.name, e))
            status = 1
            continue
        if res != again:
            print("WARN %s: two nvcc runs differ: %s" % (t.name, compare(t, res, again) or "bitwise"))
        g = {"test": t.name, "args": t.cuda_args("<inputs>"), "input_sha256": input_digest(t),
             "nvcc": ver, "nvcc_flags": t.nvcc_flags, "defines": t.defines, "device": dev,
             "result": res}
        with open(os.path.join(GOLDEN_DIR, t.name + ".json"), "w") as f:
            json.dump(g, f, indent=0, sort_keys=True)
            f.write("\n")
        print("golden %s: %s" % (t.name, ", ".join("%s[%d]" % (k, len(v)) for k, v in res.items())))
    return status


def cmd_selftest():
    """Each OpenMP reference against the golden nvcc result, where both exist."""
    status = 0
    for t in TESTS:
        if not t.omp or not t.omp_comparable:
            continue
        try:
            o = omp_reference(t)
            g = golden(t)
        except RuntimeError as e:
            print("SKIP %s: %s" % (t.name, e))
            continue
        msgs = compare(t, g, o)
        if msgs:
            status = 1
            print("DIFF %s: OpenMP vs golden" % t.name)
            for m in msgs:
                print("  " + m)
        else:
            print("SAME %s: OpenMP reference agrees with golden nvcc result" % t.name)
    return status


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--reference-only", metavar="PROG")
    ap.add_argument("--check", metavar="PROG")
    ap.add_argument("--candidate", metavar="CMD")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--reference", metavar="CMD", help="a build of the CUDA version as reference")
    g.add_argument("--golden", action="store_true", help="compare against golden/<test>.json")
    g.add_argument("--omp", action="store_true", help="compare against the OpenMP version")
    ap.add_argument("--tessel", metavar="PROG",
                    help="build with tessel-cc (--tessel-cc) and check against the reference")
    ap.add_argument("--tessel-cc", metavar="PATH", default="tessel-cc")
    ap.add_argument("--build-tessel", metavar="PROG",
                    help="tessel-cc builds only, into --out DIR/<test>/tessel_<test>")
    ap.add_argument("--target", default="cpu", help="tessel-cc --target (cpu, cuda, cpu,cuda)")
    ap.add_argument("--print-build", metavar="PROG")
    ap.add_argument("--build-nvcc", metavar="PROG")
    ap.add_argument("--out", metavar="DIR", default=os.path.join(WORK, "nvcc"))
    ap.add_argument("--jobs", type=int, default=1, help="parallel nvcc builds")
    ap.add_argument("--write-golden", metavar="PROG")
    ap.add_argument("--nvcc-dir", metavar="DIR", default=os.path.join(WORK, "nvcc"))
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--clang-syntax", metavar="PROG", help="clang -x cuda -fsyntax-only on the sources")
    ap.add_argument("--size", default="test", choices=["test", "smoke", "bench"],
                    help="input sizes (SIZES); golden files exist for test only")
    a = ap.parse_args()
    os.makedirs(WORK, exist_ok=True)
    set_size(a.size)
    if a.list:
        for t in TESTS:
            print("%-22s %-15s reference: %s" % (t.name, t.program, t.reference))
        return 0
    if a.print_build:
        for t in select(a.print_build):
            print(t.build_info())
        return 0
    if a.reference_only:
        return cmd_reference_only(a.reference_only)
    if a.check:
        if not a.candidate:
            ap.error("--check needs --candidate CMD")
        how = a.reference if a.reference else ("golden" if a.golden else ("omp" if a.omp else None))
        return cmd_check(a.check, a.candidate, how)
    if a.build_tessel:
        return cmd_build_tessel(a.build_tessel, a.tessel_cc, a.target, a.out)
    if a.tessel:
        how = a.reference if a.reference else ("golden" if a.golden else ("omp" if a.omp else None))
        return cmd_tessel(a.tessel, a.tessel_cc, a.target, how)
    if a.build_nvcc:
        return cmd_build_nvcc(a.build_nvcc, a.out, a.jobs)
    if a.write_golden:
        return cmd_write_golden(a.write_golden, a.nvcc_dir)
    if a.selftest:
        return cmd_selftest()
    if a.clang_syntax:
        return cmd_clang_syntax(a.clang_syntax)
    ap.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
