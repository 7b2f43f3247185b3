#!/usr/bin/env bash
# Sets up, builds and runs every test: once optimised, once under
# AddressSanitizer + UndefinedBehaviorSanitizer (leaks included), then the
# tests labelled threads (players shared by threads, the arena) under
# ThreadSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${PARLOUR_SKIP_DEPS:-0}" != 1 ]; then bash scripts/deps.sh; fi
jobs=$(nproc 2>/dev/null || echo 2)
cmake --preset release
cmake --build build/release -j "$jobs"
ctest --preset release -j "$jobs"
cmake --preset debug
cmake --build build/debug -j "$jobs"
# The browser tests (label web) run once, in the release build: they test the
# page in chromium; the server under ASan is tested by the server tests.
ctest --preset debug -j "$jobs"
# ThreadSanitizer: only the tests labelled threads (build target threads_tests).
# TSan's fixed memory layout can clash with high ASLR entropy ("unexpected
# memory mapping"); without address randomisation (setarch -R) it fits.
cmake --preset tsan
cmake --build --preset tsan -j "$jobs"
norandom=()
if command -v setarch >/dev/null && setarch "$(uname -m)" -R true 2>/dev/null; then
  norandom=(setarch "$(uname -m)" -R)
fi
"${norandom[@]}" ctest --preset tsan -j "$jobs"
