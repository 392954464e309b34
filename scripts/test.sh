#!/usr/bin/env bash
# Installs, builds and runs every test (runtime gtests, lit, end to end).
# Output ends with ctest's summary.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
