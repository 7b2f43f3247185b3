#!/usr/bin/env bash
# Sets up, builds and starts terminal play: bash scripts/play.sh [GAME] [options...]
# (default: the Royal Game of Ur against the computer).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${PARLOUR_SKIP_DEPS:-0}" != 1 ]; then bash scripts/deps.sh; fi
cmake --preset release
# Only the program: the tests and their libraries are not needed to play.
cmake --build build/release --target parlour
if [ $# -eq 0 ]; then set -- ur; fi
exec ./build/release/parlour play "$@"
