# lit configuration for Tessel's compiler tests: `// RUN: tessel-opt %s ...`,
# and `// RUN: tessel-cc %s --emit=mlir ...` for the CUDA C frontend (.cu,
# test/lit/Frontend/CUDA).
import glob
import os
import shutil
import subprocess
import lit.formats

config.name = "Tessel"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test", ".cu"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.tessel_test_build_dir
config.excludes = ["lit.cfg.py", "lit.site.cfg.py.in", "Inputs"]


def find_llvm_tools_dir():
    """FileCheck and not live in LLVM's bin directory. CMake passes it as
    LLVM_TOOLS_BINARY_DIR, which some MLIR installs leave empty; fall back to
    the directory of a FileCheck on PATH, then to llvm-config, then to the
    newest /usr/lib/llvm-*/bin."""
    configured = getattr(config, "llvm_tools_dir", "")
    if configured and os.path.exists(os.path.join(configured, "FileCheck")):
        return configured
    on_path = shutil.which("FileCheck")
    if on_path:
        return os.path.dirname(on_path)
    for llvm_config in ("llvm-config-22", "llvm-config"):
        exe = shutil.which(llvm_config)
        if exe:
            try:
                bindir = subprocess.check_output([exe, "--bindir"], text=True).strip()
            except (OSError, subprocess.CalledProcessError):
                continue
            if os.path.exists(os.path.join(bindir, "FileCheck")):
                return bindir
    candidates = sorted(glob.glob("/usr/lib/llvm-*/bin/FileCheck"),
                        key=lambda p: int(p.split("llvm-")[1].split("/")[0]))
    if candidates:
        return os.path.dirname(candidates[-1])
    lit_config.fatal("FileCheck not found: set LLVM_TOOLS_BINARY_DIR or put it on PATH")


config.llvm_tools_dir = find_llvm_tools_dir()
# tessel-opt, tessel-compile and tessel-cc are all in tessel_tools_dir
# (build/compiler/tools), found through PATH.
path = os.pathsep.join([config.tessel_tools_dir, config.tessel_runtime_tools_dir,
                        config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
config.environment["PATH"] = path
config.substitutions.append(("%python", config.python))

# tessel-import-onnx (frontends/onnx, a Python script linked into the build
# tree by frontends/CMakeLists.txt), run by the configured Python. Its tests
# say `REQUIRES: onnx`: they need the onnx package (Debian's python3-onnx).
config.substitutions.append(("%tessel-import-onnx", "%s %s" % (
    config.python, os.path.join(config.tessel_frontends_dir, "onnx", "tessel-import-onnx"))))
try:
    if subprocess.run([config.python, "-c", "import onnx"], stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL).returncode == 0:
        config.available_features.add("onnx")
except OSError:  # no Python configured
    pass

# `REQUIRES: cuda-toolkit`: tests that run ptxas or link libdevice. tessel-
# compile finds the toolkit as $CUDA_HOME, else $CUDA_PATH, else
# /usr/local/cuda; the CI image has only Debian packages, so the feature is
# off there. Tests that only need tessel-opt or PTX (LLVM's NVPTX backend)
# must not require it.
for var in ("CUDA_HOME", "CUDA_PATH"):
    if os.environ.get(var):
        config.environment[var] = os.environ[var]
cuda_toolkit = (os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
                or "/usr/local/cuda")
if (os.access(os.path.join(cuda_toolkit, "bin", "ptxas"), os.X_OK) and
        os.path.exists(os.path.join(cuda_toolkit, "nvvm", "libdevice",
                                    "libdevice.10.bc"))):
    config.available_features.add("cuda-toolkit")
config.substitutions.append(("%cuda_toolkit", cuda_toolkit))

# `REQUIRES: host-x86-64-v3`: tests that run code compiled for x86-64-v3
# (AVX2, FMA, BMI2, F16C) on this machine.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        cpu_flags = set(" ".join(l for l in cpuinfo if l.startswith("flags")).split())
except OSError:
    cpu_flags = set()
if {"avx2", "fma", "bmi2", "f16c", "popcnt", "sse4_2"} <= cpu_flags:
    config.available_features.add("host-x86-64-v3")
