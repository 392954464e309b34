# Shared settings of the CUDA-header tests (sourced by run_tests.sh and
# run_rodinia.sh). Override CLANGXX, CUDA_HOME, PROBE from the environment.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
HEADERS=$ROOT/compiler/lib/Frontend/CUDA/headers
CLANGXX=${CLANGXX:-clang++-22}
RESOURCE_DIR=$($CLANGXX -print-resource-dir)
LLVM_PREFIX=$(cd "$RESOURCE_DIR/../../.." && pwd)
ARCH=${ARCH:-sm_80}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
OUT=${OUT:-/tmp/tessel-cuda-headers}
PROBE=${PROBE:-$OUT/cuda_header_probe}
mkdir -p "$OUT"

# The flags tessel-cc uses (see compiler/lib/Frontend/CUDA/headers/README.md).
# --cuda-path=/nonexistent keeps clang from finding a toolkit installed on
# this machine, as on a machine without one.
TESSEL_FLAGS=(-x cuda -nocudainc -nocudalib --cuda-path=/nonexistent
  --cuda-gpu-arch=$ARCH
  -Xclang -target-sdk-version=13.0 -Xclang -fcuda-allow-variadic-functions
  -isystem "$HEADERS" -include __tessel_cuda_runtime.h)
DEVICE_FLAGS=(--cuda-device-only --cuda-feature=+ptx88)
HOST_FLAGS=(--cuda-host-only -c)

# The same compilation with the CUDA toolkit (reference only).
SDK_FLAGS=(-x cuda --cuda-path=$CUDA_HOME -Wno-unknown-cuda-version
  --cuda-gpu-arch=$ARCH)
have_sdk() { [ -f "$CUDA_HOME/include/cuda_runtime_api.h" ]; }

# Symbols an object needs from the CUDA libraries and the symbols it defines.
symbols() { nm "$1" | awk '$1=="U"{print "U "$2} $2~/^[TWDBR]$/{print $2" "$3}' | sort -u; }

# cuda_header_probe (tools/): a clang tool; built on demand, needs the clang
# development headers and libclang-cpp.
build_probe() {
  [ -x "$PROBE" ] && [ "$PROBE" -nt "$HERE/tools/cuda_header_probe.cpp" ] && return 0
  [ -f "$LLVM_PREFIX/include/clang/AST/RecursiveASTVisitor.h" ] || return 1
  $CLANGXX -std=c++17 -O1 -fno-exceptions -fno-rtti -I"$LLVM_PREFIX/include" \
    "$HERE/tools/cuda_header_probe.cpp" -L"$LLVM_PREFIX/lib" \
    -Wl,-rpath,"$LLVM_PREFIX/lib" -lclang-cpp -lLLVM -o "$PROBE"
}
