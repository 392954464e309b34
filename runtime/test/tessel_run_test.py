#!/usr/bin/env python3
"""End-to-end tests of the tessel-run command line (standard library only), and
of tessel-bench's --startup / --host-overhead modes when TESSEL_BENCH names it.

usage: tessel_run_test.py TESSEL_RUN MAKE_TEST_MODULE WORKDIR [unittest args]

make_test_module writes add.tmod (one function, add: 2x3xf32 + 2x3xf32) and
multi.tmod (add, and add_scale(7xf32, 7xf32) -> ((a+b)*2, a+b)) into a fresh
directory under WORKDIR for every test, so tests may run in parallel.
"""
import os
import platform
import signal
import struct
import subprocess
import sys
import tempfile
import unittest

TESSEL_RUN = MAKE_TEST_MODULE = WORKDIR = None


def write_npy(path, descr, shape, values):
    fmt = {"<f4": "f", "<f8": "d", "<i4": "i", "|b1": "B", "<u2": "H"}[descr]
    shape_text = "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_text)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


def read_npy_f32(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == b"\x93NUMPY", "bad magic"
    (hlen,) = struct.unpack("<H", data[8:10])
    header = data[10:10 + hlen].decode()
    assert "'<f4'" in header, header
    body = data[10 + hlen:]
    return header, list(struct.unpack("<%df" % (len(body) // 4), body))


class TesselRunTest(unittest.TestCase):
    def setUp(self):
        os.makedirs(WORKDIR, exist_ok=True)
        self.dir = tempfile.mkdtemp(dir=WORKDIR)
        subprocess.run([MAKE_TEST_MODULE, self.dir], check=True)
        self.add = os.path.join(self.dir, "add.tmod")
        self.multi = os.path.join(self.dir, "multi.tmod")

    def run_tool(self, *args):
        p = subprocess.run([TESSEL_RUN] + list(args), capture_output=True, text=True,
                           timeout=60)
        self.assertGreaterEqual(p.returncode, 0, "crashed with signal %d: %s" %
                                (-p.returncode, p.stderr))
        return p

    def path(self, name):
        return os.path.join(self.dir, name)

    def test_inline_input(self):
        p = self.run_tool(self.add, "--input=2x3xf32=1,2,3,4,5,6", "--input=2x3xf32=10")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout, "result[0]: 2x3xf32=[[11 12 13][14 15 16]]\n")
        self.assertIn("tessel-run: device cpu (", p.stderr)

    def test_npy_round_trip(self):
        a = [0.5 * i - 1 for i in range(6)]
        b = [3.25 - i for i in range(6)]
        write_npy(self.path("a.npy"), "<f4", [2, 3], a)
        write_npy(self.path("b.npy"), "<f4", [2, 3], b)
        p = self.run_tool(self.multi, "--function=add", "--input=@" + self.path("a.npy"),
                          "--input=@" + self.path("b.npy"), "--output=@" + self.path("o.npy"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout, "")
        header, got = read_npy_f32(self.path("o.npy"))
        self.assertIn("'shape': (2, 3)", header)
        self.assertEqual(got, [x + y for x, y in zip(a, b)])
        # Two results need two --output flags.
        p = self.run_tool(self.multi, "--function=add_scale", "--input=7xf32=1",
                          "--input=7xf32=2", "--output=@" + self.path("o1.npy"))
        self.assertEqual(p.returncode, 1)
        self.assertIn("has 2 results but 1 --output flags", p.stderr)

    def test_expected_pass(self):
        write_npy(self.path("e0.npy"), "<f4", [7], [6.0] * 7)
        p = self.run_tool(self.multi, "--function=add_scale", "--input=7xf32=1",
                          "--input=7xf32=2", "--expected_output=@" + self.path("e0.npy"),
                          "--expected_output=7xf32=3.00001", "--tolerance=1e-4")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("result[0]: PASS (max abs err 0, max rel err 0)", p.stdout)
        self.assertIn("result[1]: PASS (max abs err", p.stdout)

    def test_expected_fail(self):
        p = self.run_tool(self.add, "--input=2x3xf32=1,2,3,4,5,6", "--input=2x3xf32=0",
                          "--expected_output=2x3xf32=1,2,3,4,5.5,6")
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("result[0]: FAIL: first mismatch at [1,1]: got 5, expected 5.5", p.stdout)
        # Default tolerance is 1e-5: 3.001 vs 3 fails, exact ints would too.
        p = self.run_tool(self.add, "--input=2x3xf32=1", "--input=2x3xf32=2",
                          "--expected_output=2x3xf32=3.001")
        self.assertEqual(p.returncode, 1)
        p = self.run_tool(self.add, "--input=2x3xf32=1", "--input=2x3xf32=2",
                          "--expected_output=2x3xi32=3")
        self.assertEqual(p.returncode, 1)
        self.assertIn("expected type 2x3xi32 but got 2x3xf32", p.stdout)

    def test_bad_flag(self):
        for args in (["--frobnicate=1"], ["--input"], ["--benchmark=zero"],
                     ["--tolerance=-1"], ["--output=o.npy"], []):
            p = self.run_tool(*([self.add] if args else []), *args)
            self.assertEqual(p.returncode, 2, args)
            self.assertIn("usage: tessel-run", p.stderr)
        p = self.run_tool(self.add, "--frobnicate=1")
        self.assertIn("unknown flag '--frobnicate'", p.stderr)
        p = self.run_tool("--help")
        self.assertEqual(p.returncode, 0)
        self.assertIn("--expected_output", p.stdout)

    def test_wrong_shape(self):
        p = self.run_tool(self.add, "--input=2x3xf32=1", "--input=3x2xf32=1")
        self.assertEqual(p.returncode, 1)
        self.assertIn("function 'add': argument 1 has type 3x2xf32 but expected 2x3xf32",
                      p.stderr)
        p = self.run_tool(self.add, "--input=2x3xf32=1")
        self.assertEqual(p.returncode, 1)
        self.assertIn("function 'add' expects 2 arguments, got 1", p.stderr)
        p = self.run_tool(self.add, "--input=2x3xf32=1,2", "--input=2x3xf32=1")
        self.assertEqual(p.returncode, 1)
        self.assertIn("input 0: tensor literal for 2x3xf32 has 2 values but needs 6", p.stderr)

    def test_missing_file(self):
        p = self.run_tool(self.path("nope.tmod"))
        self.assertEqual(p.returncode, 1)
        self.assertIn("nope.tmod", p.stderr)
        p = self.run_tool(self.add, "--input=@" + self.path("missing.npy"), "--input=2x3xf32=1")
        self.assertEqual(p.returncode, 1)
        self.assertIn("missing.npy", p.stderr)
        with open(self.path("corrupt.tmod"), "wb") as f:
            with open(self.add, "rb") as g:
                f.write(g.read()[:100])
        p = self.run_tool(self.path("corrupt.tmod"))
        self.assertEqual(p.returncode, 1)
        self.assertIn("truncated or corrupt module file", p.stderr)

    def test_function_selection(self):
        p = self.run_tool(self.multi, "--input=2x3xf32=1", "--input=2x3xf32=1")
        self.assertEqual(p.returncode, 1)
        self.assertIn("choose one with --function=NAME (available: add, add_scale)", p.stderr)
        p = self.run_tool(self.multi, "--function=sub")
        self.assertEqual(p.returncode, 1)
        self.assertIn("no function 'sub' (available: add, add_scale)", p.stderr)

    def test_benchmark(self):
        p = self.run_tool(self.add, "--input=2x3xf32=1", "--input=2x3xf32=1", "--benchmark=5")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"benchmark: 5 runs, median [0-9.]+ ms, min [0-9.]+ ms, "
                                   r"max [0-9.]+ ms")

    def test_print_module(self):
        p = self.run_tool(self.multi, "--print-module")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("function add_scale(7xf32, 7xf32) -> (7xf32, 7xf32): 6 slots, "
                      "2 dispatches", p.stdout)
        self.assertIn("export 0: add_f32", p.stdout)
        self.assertIn("elf-shared-object", p.stdout)

    def test_cpu_variants(self):
        # variants.tmod holds two cpu executables as tessel-compile
        # --cpu=x86-64-v4,x86-64-v3 writes them: 0 needs avx512f, 1 (sse4.2)
        # runs another kernel (b * a[0]) so that the result shows which one
        # loaded. TESSEL_CPU_DISABLE_FEATURES masks host features.
        if platform.machine() != "x86_64":
            self.skipTest("cpu feature checks are x86-64 only")
        with open("/proc/cpuinfo") as f:
            flags = set(" ".join(l for l in f if l.startswith("flags")).split())
        if "sse4_2" not in flags:
            self.skipTest("this host lacks sse4.2")
        variants = self.path("variants.tmod")
        inputs = ["--device=cpu", "--input=2x3xf32=1,2,3,4,5,6", "--input=2x3xf32=10"]
        added = "result[0]: 2x3xf32=[[11 12 13][14 15 16]]\n"
        scaled = "result[0]: 2x3xf32=[[10 10 10][10 10 10]]\n"
        v4 = ("  would load: executable 0 (elf-shared-object x86_64 for x86-64-v4, "
              "features [avx2, avx512f])\n")
        v3 = ("  would load: executable 1 (elf-shared-object x86_64 for x86-64-v3, "
              "features [sse4.2])\n")

        def run(disable, *args):
            env = dict(os.environ)
            env.pop("TESSEL_CPU_DISABLE_FEATURES", None)
            if disable is not None:
                env["TESSEL_CPU_DISABLE_FEATURES"] = disable
            p = subprocess.run([TESSEL_RUN, variants] + list(args), capture_output=True,
                               text=True, timeout=60, env=env)
            self.assertGreaterEqual(p.returncode, 0, p.stderr)
            return p

        # As is: v4 where the host has AVX-512, else v3.
        host_v4 = "avx512f" in flags and "avx2" in flags
        p = run(None, "--print-module")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("  binary 0: elf-shared-object x86_64, ", p.stdout)
        self.assertIn(", features [avx2, avx512f], cpu x86-64-v4\n", p.stdout)
        self.assertIn(", features [sse4.2], cpu x86-64-v3\n", p.stdout)
        self.assertRegex(p.stdout, r"\ncpu host: x86_64, features \[[^]]*sse4.2[^]]*\]\n")
        self.assertTrue(p.stdout.endswith(v4 if host_v4 else v3), p.stdout)
        p = run(None, *inputs)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout, added if host_v4 else scaled)

        # avx512f masked: v3 loads and runs, and --print-module says why v4
        # does not.
        p = run("avx512f", "--print-module")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotRegex(p.stdout, r"cpu host: x86_64, features \[[^]]*\bavx512f\b")
        self.assertIn("(TESSEL_CPU_DISABLE_FEATURES masks avx512f)\n", p.stdout)
        self.assertTrue(p.stdout.endswith(
            "  skipped executable 0 (cpu): the kernels need CPU features this host lacks: "
            "avx512f" + (" (TESSEL_CPU_DISABLE_FEATURES masks avx512f)\n" if host_v4 else
                         "\n") + v3), p.stdout)
        p = run("avx512f", *inputs)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout, scaled)

        # Both masked: neither loads, and the error says why for each.
        p = run("avx512f,sse4.2", *inputs)
        self.assertEqual(p.returncode, 1)
        self.assertIn("none of its 2 cpu executables loads: ", p.stderr)
        self.assertIn("lacks: sse4.2 (TESSEL_CPU_DISABLE_FEATURES masks sse4.2)", p.stderr)
        p = run("avx512f,sse4.2", "--print-module")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(p.stdout.endswith(
            "  would load: none (no cpu executable fits this host)\n"), p.stdout)

        # Malformed masks are errors naming the bad entry, said once; an
        # empty variable masks nothing.
        for disable, why in [
                ("avx512x", "TESSEL_CPU_DISABLE_FEATURES='avx512x': unknown CPU feature "
                            "'avx512x' (this runtime queries: sse3, "),
                ("avx512f,", "TESSEL_CPU_DISABLE_FEATURES='avx512f,' has an empty entry"),
                (" avx2", "unknown CPU feature ' avx2'")]:
            for args in (inputs, ["--print-module"]):
                p = run(disable, *args)
                self.assertEqual(p.returncode, 1, p.stdout)
                self.assertIn(why, p.stderr)
                self.assertEqual(p.stderr.count("TESSEL_CPU_DISABLE_FEATURES="), 1, p.stderr)
        p = run("", *inputs)
        self.assertEqual(p.stdout, added if host_v4 else scaled, p.stderr)

    def test_print_module_cuda(self):
        # For a module with cuda executables, --print-module ends with the one
        # this machine's cuda device would load. fake_cuda_device.c stands in
        # for the GPU (FAKE_CUDA_CC: its compute capability); tma.tmod has an
        # sm_90a executable with tensor maps, then an sm_80 one.
        fake = os.environ.get("TESSEL_FAKE_CUDA_DIR")
        if not fake:
            self.skipTest("TESSEL_FAKE_CUDA_DIR not set")
        tma = self.path("tma.tmod")
        device = os.path.join(fake, "libfake_cuda_device.so")

        def show(library, **extra):
            env = dict(os.environ, TESSEL_CUDA_LIBRARY=library, **extra)
            if "TESSEL_CUDA_ARCH" not in extra:
                env.pop("TESSEL_CUDA_ARCH", None)
            p = subprocess.run([TESSEL_RUN, tma, "--print-module"], capture_output=True,
                               text=True, timeout=60, env=env)
            self.assertEqual(p.returncode, 0, p.stderr)
            return p.stdout

        out = show(device, FAKE_CUDA_CC="90")
        self.assertIn("  export 0: mm_tma, workgroups 1x1x1, 3 bindings, workgroup size 128x1x1, "
                      "2 tensor maps\n", out)
        self.assertTrue(out.endswith(
            "cuda device: cuda (Fake CUDA device, sm_90, graph command buffers)\n"
            "  would load: executable 0 (ptx sm_90a (JIT for sm_90))\n"), out)
        out = show(device, FAKE_CUDA_CC="80")
        self.assertTrue(out.endswith(
            "  skipped executable 0 (cuda): export 'mm_tma' takes TMA tensor maps, which need "
            "compute capability 9.0 or newer, and this device is sm_80\n"
            "  would load: executable 1 (ptx sm_80 (JIT for sm_80))\n"), out)
        out = show(device, FAKE_CUDA_CC="90", TESSEL_CUDA_ARCH="sm_80")
        self.assertTrue(out.endswith(
            "  skipped executable 0 (cuda): no binary for TESSEL_CUDA_ARCH=sm_80 "
            "(binaries: ptx sm_90a)\n"
            "  would load: executable 1 (ptx sm_80 (JIT for sm_90))\n"), out)
        out = show(device, FAKE_CUDA_CC="75")
        self.assertIn("  would load: none (no cuda executable fits this device)\n", out)
        out = show(self.path("no/such/libcuda.so.1"))
        self.assertRegex(out, r"\ncuda device: none \(cuda: no CUDA driver/device available "
                              r"\(.*not found: .*\)\)\n$")
        # A cpu-only module says nothing about cuda.
        p = self.run_tool(self.add, "--print-module")
        self.assertNotIn("cuda device", p.stdout)

    def test_cuda_unavailable(self):
        # Without a GPU the driver says why; with one, this cpu-only module
        # has no cuda executable. Either way the error names the problem.
        p = self.run_tool(self.add, "--device=cuda", "--input=2x3xf32=1", "--input=2x3xf32=1")
        self.assertEqual(p.returncode, 1)
        self.assertRegex(p.stderr, r"cuda: no CUDA driver/device available \(|"
                                   r"no executable for target 'cuda' \(module has: cpu\)")
        p = self.run_tool(self.add, "--device=cpu", "--input=2x3xf32=1", "--input=2x3xf32=1")
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_device_choice(self):
        # Default: cpu for a module without a cuda executable, with the reason.
        p = self.run_tool(self.add, "--input=2x3xf32=1", "--input=2x3xf32=1")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stderr, r"tessel-run: device cpu \(\d+ threads?(, pinned)?\) \u2014 module has "
                                   r"no cuda executable \(targets: cpu\)")
        p = self.run_tool(self.add, "--device=cpu", "--input=2x3xf32=1", "--input=2x3xf32=1")
        self.assertRegex(p.stderr, r"tessel-run: device cpu \(\d+ threads?(, pinned)?\)\n")
        for bad in ("--cuda-command-buffer=streams", "--device=tpu", "--cuda-command-buffer"):
            p = self.run_tool(self.add, bad)
            self.assertEqual(p.returncode, 2, bad + ": " + p.stderr)
        p = self.run_tool(self.add, "--device=cpu", "--cuda-command-buffer=stream",
                          "--input=2x3xf32=1", "--input=2x3xf32=1")
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_numpy_interop(self):
        try:
            import numpy as np
        except ImportError:
            self.skipTest("numpy not available to this python")
        a = np.random.default_rng(3).standard_normal((2, 3)).astype(np.float32)
        np.save(self.path("a.npy"), a)
        p = self.run_tool(self.add, "--input=@" + self.path("a.npy"),
                          "--input=@" + self.path("a.npy"), "--output=@" + self.path("o.npy"))
        self.assertEqual(p.returncode, 0, p.stderr)
        np.testing.assert_array_equal(np.load(self.path("o.npy")), a + a)

    def test_atomic_output(self):
        # --output files appear only when the whole run succeeds: a failing
        # run leaves an existing file byte for byte as it was and creates no
        # file, partial or temporary.
        out = self.path("o.npy")
        add = ["--input=2x3xf32=1", "--input=2x3xf32=2"]
        p = self.run_tool(self.add, *add, "--output=@" + out)
        self.assertEqual(p.returncode, 0, p.stderr)
        os.chmod(out, 0o640)
        with open(out, "rb") as f:
            good = f.read()
        with open(self.add, "rb") as f:
            damaged = bytearray(f.read())
        damaged[len(damaged) // 2] ^= 1
        with open(self.path("damaged.tmod"), "wb") as f:
            f.write(damaged)
        listing = sorted(os.listdir(self.dir))
        other = ["--input=2x3xf32=5", "--input=2x3xf32=5"]  # results that differ from `good`
        failing = [
            # the call fails (wrong input shape)
            [self.add, "--input=2x3xf32=1", "--input=3x2xf32=1", "--output=@" + out],
            # the results do not match --expected_output
            [self.add, *other, "--expected_output=2x3xf32=4", "--output=@" + out],
            # the module is damaged
            [self.path("damaged.tmod"), *other, "--output=@" + out],
            # the second of two outputs cannot be created: the first is not
            # written either
            [self.multi, "--function=add_scale", "--input=7xf32=1", "--input=7xf32=2",
             "--output=@" + out, "--output=@" + self.path("no/such/dir/o2.npy")],
            # a new file that a failing run must not create
            [self.add, *other, "--expected_output=2x3xf32=4",
             "--output=@" + self.path("new.npy")],
        ]
        for args in failing:
            p = self.run_tool(*args)
            self.assertEqual(p.returncode, 1, args)
            self.assertIn("tessel-run: error: " if "--expected_output=2x3xf32=4" not in args
                          else "result[0]: FAIL", p.stderr + p.stdout)
            with open(out, "rb") as f:
                self.assertEqual(f.read(), good, args)
            self.assertEqual(sorted(os.listdir(self.dir)), listing, args)
        self.assertIn("cannot create npy file '%s'" % self.path("no/such/dir/o2.npy"),
                      self.run_tool(*failing[3]).stderr)
        # A successful run replaces the file, keeping its mode, and leaves
        # no temporary file behind.
        p = self.run_tool(self.multi, "--function=add_scale", "--input=7xf32=1",
                          "--input=7xf32=2", "--output=@" + out,
                          "--output=@" + self.path("o2.npy"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(read_npy_f32(out)[1], [6.0] * 7)
        self.assertEqual(read_npy_f32(self.path("o2.npy"))[1], [3.0] * 7)
        self.assertEqual(os.stat(out).st_mode & 0o777, 0o640)
        self.assertEqual(sorted(os.listdir(self.dir)), sorted(listing + ["o2.npy"]))

    def test_cuda_driver_fallback(self):
        # A missing, too old or incomplete CUDA driver (TESSEL_CUDA_LIBRARY
        # names the library; fake_cuda/fake_cuda.c builds the stand-ins):
        # the default device says why and runs dual.tmod (cpu + cuda
        # executables) on the cpu; --device=cuda is an error that says why.
        fake = os.environ.get("TESSEL_FAKE_CUDA_DIR")
        if not fake:
            self.skipTest("TESSEL_FAKE_CUDA_DIR not set")
        dual = os.path.join(self.dir, "dual.tmod")
        args = ["--input=2x3xf32=1,2,3,4,5,6", "--input=2x3xf32=10"]
        kernels = os.environ.get("TESSEL_TEST_KERNELS", "/nonexistent/libtessel_test_kernels.so")
        cases = [
            (self.path("no/such/libcuda.so.1"),
             r"cuda: no CUDA driver/device available \(%s not found: .*No such file" %
             self.path("no/such/libcuda.so.1")),
            (os.path.join(fake, "libfake_cuda_old.so"),
             r"cuda: no CUDA driver/device available \(the CUDA driver is too old: it supports "
             r"CUDA 11\.4 \(11040\) but this runtime needs CUDA 12\.0 \(12000\) or newer; "
             r"update the NVIDIA driver\)"),
            (os.path.join(fake, "libfake_cuda_nosym.so"),
             r"\(.*libfake_cuda_nosym\.so \(CUDA 12\.4 \(12040\)\) lacks cuGraphLaunch: the "
             r"driver is too old or not a complete CUDA driver\)"),
            (os.path.join(fake, "libfake_cuda_nodevice.so"),
             r"\(cuInit failed: CUDA_ERROR_NO_DEVICE \(no CUDA-capable device is detected\)\)"),
            (os.path.join(fake, "libfake_cuda_zero.so"),
             r"\(the driver reports no CUDA device\)"),
            (kernels, r"lacks cuDriverGetVersion: not a CUDA driver library\)"),
        ]
        for library, why in cases:
            env = dict(os.environ, TESSEL_CUDA_LIBRARY=library)
            p = subprocess.run([TESSEL_RUN, dual] + args, capture_output=True, text=True,
                               timeout=60, env=env)
            self.assertEqual(p.returncode, 0, library + ": " + p.stderr)
            self.assertEqual(p.stdout, "result[0]: 2x3xf32=[[11 12 13][14 15 16]]\n")
            self.assertRegex(p.stderr, r"^tessel-run: device cpu \(\d+ threads?(, pinned)?\) \u2014 cuda: no "
                                       r"CUDA driver/device available \(")
            self.assertRegex(p.stderr, why)
            self.assertNotIn("error", p.stderr)
            # Asking for cuda explicitly is an error with the same reason.
            p = subprocess.run([TESSEL_RUN, dual, "--device=cuda"] + args, capture_output=True,
                               text=True, timeout=60, env=env)
            self.assertEqual(p.returncode, 1, library + ": " + p.stderr)
            self.assertRegex(p.stderr, r"^tessel-run: error: cuda: no CUDA driver/device "
                                       r"available \(")
            self.assertRegex(p.stderr, why)
            self.assertEqual(p.stdout, "")

    def test_memory_limit(self):
        # TESSEL_DEVICE_MEMORY_LIMIT caps a device's buffers: running out is
        # a clear error naming the slot, the size and the device, not a crash.
        args = [self.add, "--input=2x3xf32=1", "--input=2x3xf32=2"]
        def run(limit, *extra):
            env = dict(os.environ, TESSEL_DEVICE_MEMORY_LIMIT=limit)
            return subprocess.run([TESSEL_RUN] + args + list(extra), capture_output=True,
                                  text=True, timeout=60, env=env)
        # add: an 8-byte constant at load, then 3 slots of 24 bytes per call.
        p = run("80", "--device=cpu")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("result[0]: 2x3xf32=[[3 3 3][3 3 3]]", p.stdout)
        self.assertRegex(p.stderr, r"device cpu \(\d+ threads?(, pinned)?, memory limit 80 bytes\)")
        p = run("79", "--device=cpu")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("tessel-run: error: function 'add': instruction 4 (Alloc): cpu: cannot allocate 24 bytes: "
                      "the device memory limit of 79 bytes would be exceeded (56 bytes in use",
                      p.stderr)
        p = run("4", "--device=cpu")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertRegex(p.stderr, r"error: module file '.*add.tmod': function 'add': constant "
                                   r"0: cpu: cannot allocate 8 bytes: the device memory "
                                   r"limit of 4 bytes")
        p = run("1G", "--device=cpu", "--benchmark=3")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("memory limit 1 GiB", p.stderr)
        for bad in ("lots", "0", "-5", "12X", "99999999999999999999"):
            p = run(bad)
            self.assertEqual(p.returncode, 1, bad + ": " + p.stderr)
            self.assertIn("TESSEL_DEVICE_MEMORY_LIMIT='%s' is not a positive byte count" % bad,
                          p.stderr)

    def start_and_signal(self, args, sig, wait_for, env=None, delay=0.3):
        """Starts tessel-run, waits for a stderr line containing `wait_for`, sleeps
        `delay` s, sends `sig` and returns (returncode, stderr, files in the
        directory just before the signal)."""
        import time
        p = subprocess.Popen([TESSEL_RUN] + args, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, env=env)
        try:
            lines = []
            while True:
                line = p.stderr.readline()
                self.assertTrue(line, "tessel-run ended before '%s': %s" % (wait_for, lines))
                lines.append(line)
                if wait_for in line:
                    break
            time.sleep(delay)
            before = sorted(os.listdir(self.dir))
            self.assertIsNone(p.poll(), "tessel-run finished before the signal")
            p.send_signal(sig)
            rest = p.stderr.read()
            rc = p.wait(timeout=30)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        return rc, "".join(lines) + rest, before

    def test_interrupt_leaves_no_output(self):
        # SIGINT/SIGTERM/SIGHUP in the middle of a long run (--benchmark):
        # the process dies of the signal (a shell shows 130 for SIGINT), an
        # existing output is byte for byte as it was, a new one does not
        # appear, and no temporary file is left.
        # big.tmod: 16 MiB tensors, so that each call takes milliseconds and
        # --benchmark=1000000 runs for hours.
        out, new = self.path("o.npy"), self.path("new.npy")
        big = os.path.join(self.dir, "big.tmod")
        with open(out, "wb") as f:
            f.write(b"an existing output\n")
        with open(out, "rb") as f:
            good = f.read()
        listing = sorted(os.listdir(self.dir))
        long_run = [big, "--input=4194304xf32=1", "--input=4194304xf32=2",
                    "--benchmark=1000000"]
        # Into the existing output, then into a new file: neither changes
        # the directory.
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            for target in (out, new):
                rc, err, _ = self.start_and_signal(long_run + ["--output=@" + target], sig,
                                                   "tessel-run: device", delay=0.5)
                self.assertEqual(rc, -sig, err)
                with open(out, "rb") as f:
                    self.assertEqual(f.read(), good)
                self.assertEqual(sorted(os.listdir(self.dir)), listing, sig)
        # The shell's view: 128 + SIGINT (job control on, so that the
        # background job does not start with SIGINT ignored).
        sh = subprocess.Popen(["/bin/bash", "-c", 'set -m; "$0" "$@" & pid=$!; sleep 1; '
                               'kill -INT $pid; wait $pid; echo "exit $?"',
                               TESSEL_RUN, *long_run, "--output=@" + out],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.assertIn("exit 130", sh.communicate(timeout=60)[0])
        self.assertEqual(sorted(os.listdir(self.dir)), listing)

    def test_interrupt_while_staging(self):
        # The signal arrives after the outputs were written to their
        # temporary files and before the rename (the test hook
        # TESSEL_RUN_TEST_PAUSE_BEFORE_COMMIT stops tessel-run there): the
        # handler removes the temporaries and the process dies of the signal.
        out, new = self.path("o.npy"), self.path("new.npy")
        args = [self.multi, "--function=add_scale", "--input=7xf32=1", "--input=7xf32=2"]
        p = self.run_tool(*args, "--output=@" + out, "--output=@" + self.path("o2.npy"))
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out, "rb") as f:
            good = f.read()
        listing = sorted(os.listdir(self.dir))
        env = dict(os.environ, TESSEL_RUN_TEST_PAUSE_BEFORE_COMMIT="1")
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            rc, err, before = self.start_and_signal(
                args[:2] + ["--input=7xf32=5", "--input=7xf32=5", "--output=@" + out,
                            "--output=@" + new], sig, "outputs staged", env=env, delay=0.05)
            temps = [f for f in before if ".tmp-" in f]
            self.assertEqual(len(temps), 2, before)  # the hook really paused with both staged
            self.assertEqual(rc, -sig, err)
            with open(out, "rb") as f:
                self.assertEqual(f.read(), good)
            self.assertEqual(sorted(os.listdir(self.dir)), listing, sig)
        # Without a signal the same run commits both files.
        env["TESSEL_RUN_TEST_PAUSE_BEFORE_COMMIT"] = ""
        p = subprocess.run([TESSEL_RUN] + args[:2] + ["--input=7xf32=5", "--input=7xf32=5",
                           "--output=@" + out, "--output=@" + new], capture_output=True,
                           text=True, timeout=60, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(read_npy_f32(new)[1], [10.0] * 7)

    def test_bench_overheads(self):
        # tessel-bench's startup and host-overhead modes (TESSEL_BENCH: its path).
        bench = os.environ.get("TESSEL_BENCH")
        if not bench:
            self.skipTest("TESSEL_BENCH not set")
        import json
        common = [self.multi, "--function=add_scale", "--device=cpu"]
        p = subprocess.run([bench] + common + ["--startup", "--json=" + self.path("s.json")],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"startup: device [0-9.]+ ms, module load [0-9.]+ ms")
        s = json.load(open(self.path("s.json")))
        self.assertEqual(s["dispatches"], 2)
        for key in ("device_create_ms", "load_ms", "reload_ms", "first_prepare_ms",
                    "first_run_ms", "second_run_ms"):
            self.assertGreaterEqual(s["startup"][key], 0.0, key)
        self.assertGreater(s["startup"]["load_ms"], 0.0)
        p = subprocess.run([bench] + common + ["--host-overhead", "--runs=5", "--warmup=1",
                                               "--input=7xf32=1", "--input=7xf32=2",
                                               "--output=@" + self.path("o.npy"),
                                               "--output=@" + self.path("o2.npy"),
                                               "--json=" + self.path("h.json")],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        h = json.load(open(self.path("h.json")))
        self.assertEqual([m["mode"] for m in h["host_overhead"]], ["cpu"])
        m = h["host_overhead"][0]
        self.assertAlmostEqual(m["per_dispatch_us"], m["replay"]["median_us"] / 2)
        for key in ("replay", "device_timed", "fresh_prepare", "fresh_first_run", "call",
                    "call_dispatch"):
            self.assertGreater(m[key]["median_us"], 0.0, key)
        _, out = read_npy_f32(self.path("o.npy"))
        self.assertEqual(out, [6.0] * 7)
        p = subprocess.run([bench] + common + ["--startup", "--host-overhead"],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("--startup and --host-overhead exclude each other", p.stderr)

    def test_bench_samples(self):
        # --samples: one time per timed run, in microseconds, matching the
        # reported median.
        bench = os.environ.get("TESSEL_BENCH")
        if not bench:
            self.skipTest("TESSEL_BENCH not set")
        import json
        p = subprocess.run([bench, self.multi, "--function=add_scale", "--device=cpu",
                            "--input=7xf32=1", "--input=7xf32=2", "--runs=7", "--warmup=1",
                            "--samples=" + self.path("t.txt"), "--json=" + self.path("t.json")],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        times = [float(line) for line in open(self.path("t.txt"))]
        self.assertEqual(len(times), 7)
        self.assertTrue(all(t > 0 for t in times))
        j = json.load(open(self.path("t.json")))
        self.assertAlmostEqual(sorted(times)[3], j["median_us"], places=2)
        p = subprocess.run([bench, self.multi, "--function=add_scale", "--device=cpu",
                            "--input=7xf32=1", "--input=7xf32=2", "--runs=2",
                            "--samples=" + self.path("no/such/dir/t.txt")],
                           capture_output=True, text=True, timeout=60)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("cannot write", p.stderr)
        # No warm-up at all, and a bad --warmup-ms.
        p = subprocess.run([bench, self.multi, "--function=add_scale", "--device=cpu",
                            "--input=7xf32=1", "--input=7xf32=2", "--runs=2",
                            "--warmup=0", "--warmup-ms=0"],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        p = subprocess.run([bench, self.multi, "--function=add_scale", "--device=cpu",
                            "--input=7xf32=1", "--input=7xf32=2", "--warmup-ms=soon"],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("--warmup-ms", p.stderr)


if __name__ == "__main__":
    TESSEL_RUN, MAKE_TEST_MODULE, WORKDIR = sys.argv[1:4]
    unittest.main(argv=[sys.argv[0]] + sys.argv[4:])
