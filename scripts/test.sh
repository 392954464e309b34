#!/usr/bin/env bash
# Installs, builds and runs every test (runtime gtests, lit, end to end),
# then the runtime's tests again under ASan + UBSan and each fuzzer (the
# runtime's and the compiler's) for 60 s.
# Output ends with ctest's summary, a "sanitize: ..." line and "fuzz: ..."
# lines.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
./scripts/sanitize.sh
./scripts/fuzz.sh --time=60
./scripts/fuzz-compiler.sh --time=60
