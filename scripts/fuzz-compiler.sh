#!/usr/bin/env bash
# Builds tessel-compile-fuzzer (compiler/fuzz: source guards, parse, input
# and dispatch pipelines with cpu and cuda options) with clang 22, the
# compiler library under ASan + UBSan and libFuzzer coverage, and runs it
# through scripts/fuzz.sh (same limits, seeds, dictionary and output).
#   scripts/fuzz-compiler.sh [--time=SECONDS | --runs=N]
# Build directory: build-fuzz (outside the normal build; ccache shared).
set -euo pipefail
cd "$(dirname "$0")/.."

dir=build-fuzz
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/tessel-ccache}"
llvm=/usr/lib/llvm-22/bin
if [ ! -f "$dir/build.ninja" ]; then
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_C_COMPILER="$llvm/clang" -DCMAKE_CXX_COMPILER="$llvm/clang++" \
        -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -gline-tables-only" \
        -DTESSEL_FUZZ=ON -DPython3_EXECUTABLE=/usr/bin/python3 >/dev/null
fi
start=$SECONDS
log=$(mktemp)
if ! ninja -C "$dir" -j "${TESSEL_BUILD_JOBS:-$(nproc)}" tessel-compile-fuzzer >"$log" 2>&1; then
  grep -v '^\[' "$log" | tail -60
  rm -f "$log"
  echo "fuzz: FAILED: building tessel-compile-fuzzer failed" >&2
  exit 1
fi
rm -f "$log"
echo "fuzz: tessel-compile-fuzzer built in $((SECONDS - start)) s"
exec ./scripts/fuzz.sh "$@" "$PWD/$dir/compiler/fuzz/tessel-compile-fuzzer"
