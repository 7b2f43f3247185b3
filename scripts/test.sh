#!/usr/bin/env bash
# Sets up, builds and runs every test: once optimised, once under
# AddressSanitizer + UndefinedBehaviorSanitizer (leaks included), then the
# tests labelled threads (players shared by threads, the arena) under
# ThreadSanitizer.
#
#   bash scripts/test.sh            everything (CI's command; about 30 minutes
#                                   on a busy 2-core machine)
#   bash scripts/test.sh --quick    the quick tier (label quick): the optimised
#                                   build only, its rules, units, protocol and
#                                   subcommands and a smoke test of the server
#                                   and the browser (about a minute once built)
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
case "${1:-}" in
"") ;;
--quick) quick=1 ;;
*) echo "test.sh: unknown argument '$1' (allowed: --quick)" >&2; exit 2 ;;
esac
if [ "${PARLOUR_SKIP_DEPS:-0}" != 1 ]; then bash scripts/deps.sh; fi
jobs=$(nproc 2>/dev/null || echo 2)
cmake --preset release
cmake --build build/release -j "$jobs"
if [ "$quick" = 1 ]; then
  ctest --preset release -j "$jobs" -L quick
  exit 0
fi
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
