#!/usr/bin/env bash
# Sets up, builds and runs every test: once optimised, once under
# AddressSanitizer + UndefinedBehaviorSanitizer (leaks included).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${PARLOUR_SKIP_DEPS:-0}" != 1 ]; then bash scripts/deps.sh; fi
jobs=$(nproc 2>/dev/null || echo 2)
cmake --preset release
cmake --build build/release -j "$jobs"
ctest --preset release -j "$jobs"
cmake --preset debug
cmake --build build/debug -j "$jobs"
ctest --preset debug -j "$jobs"
