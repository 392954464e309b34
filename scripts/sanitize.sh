#!/usr/bin/env bash
# Builds the runtime, its unit tests, the HAL CTS, the tessel-run tests and
# the fuzzers with clang 22 under ASan + UBSan (-fno-sanitize-recover=all:
# any report fails the test), then runs ctest there. Prints one summary
# line, "sanitize: ...".
#   scripts/sanitize.sh [--build-dir=DIR] [--configure-only]
# DIR defaults to build-asan (scripts/fuzz.sh uses the same build).
set -euo pipefail
cd "$(dirname "$0")/.."

dir=build-asan
configure_only=0
for arg in "$@"; do
  case "$arg" in
    --build-dir=*) dir="${arg#*=}" ;;
    --configure-only) configure_only=1 ;;
    *) echo "usage: scripts/sanitize.sh [--build-dir=DIR] [--configure-only]" >&2; exit 2 ;;
  esac
done

export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/tessel-ccache}"
llvm=/usr/lib/llvm-22/bin
if [ ! -f "$dir/build.ninja" ]; then
  cmake -S runtime -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_C_COMPILER="$llvm/clang" -DCMAKE_CXX_COMPILER="$llvm/clang++" \
        -DTESSEL_FUZZ=ON -DPython3_EXECUTABLE=/usr/bin/python3 >/dev/null
fi
[ "$configure_only" -eq 0 ] || exit 0

start=$SECONDS
jobs="${TESSEL_BUILD_JOBS:-$(nproc)}"
log=$(mktemp)
if ! ninja -C "$dir" -j "$jobs" >"$log" 2>&1; then
  grep -v '^\[' "$log" | tail -60
  rm -f "$log"
  echo "sanitize: FAILED: the ASan+UBSan build failed" >&2
  exit 1
fi
rm -f "$log"
built=$((SECONDS - start))

# Leaks are errors too (halt_on_error is implied by -fno-sanitize-recover).
# allocator_may_return_null: a huge allocation returns null as glibc's
# does, so the runtime's out-of-memory errors are tested, not ASan's abort.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
log=$(mktemp)
status=0
ctest --test-dir "$dir" --output-on-failure -j "$(nproc)" >"$log" 2>&1 || status=$?
# Everything but the passed tests: failures with their output, skips, totals.
[ "$status" -eq 0 ] || grep -vE ' Passed |^ *Start ' "$log" || true
summary=$(grep -E '^[0-9]+% tests passed' "$log" || echo "no ctest summary")
rm -f "$log"
if [ "$status" -ne 0 ]; then
  echo "sanitize: FAILED: ASan+UBSan runtime tests: $summary (build ${built} s, tests $((SECONDS - start - built)) s)"
  exit 1
fi
echo "sanitize: ok: ASan+UBSan runtime tests: $summary (build ${built} s, tests $((SECONDS - start - built)) s)"
