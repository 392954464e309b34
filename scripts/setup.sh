#!/usr/bin/env bash
# Installs what Tessel needs on Debian 12 (idempotent: installs only what is
# missing), then configures and builds everything into ./build.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build ccache gcc g++ binutils
          llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
          libflatbuffers-dev flatbuffers-compiler libgtest-dev python3-numpy python3-onnx
          zlib1g-dev nlohmann-json3-dev clang-22 libclang-rt-22-dev
          libclang-cpp22-dev libclang-22-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# ccache outside the clone so that fresh clones reuse earlier builds; paths
# under the clone hashed relative to it, so that a clone at another path
# hits too (a Release build has no debug info to carry the paths).
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/tessel-ccache}"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DPython3_EXECUTABLE=/usr/bin/python3 >/dev/null
fi
jobs="${TESSEL_BUILD_JOBS:-$(nproc)}"
# Progress lines hidden; a failed build fails this script (and CI).
log=$(mktemp)
if ! ninja -C build -j "$jobs" >"$log" 2>&1; then
  grep -v '^\[' "$log" | tail -60
  rm -f "$log"
  echo "setup: build failed" >&2
  exit 1
fi
grep -v '^\[' "$log" || true
rm -f "$log"
test -x build/compiler/tools/tessel-compile && test -x build/runtime/tessel-run
