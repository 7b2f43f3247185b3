#!/usr/bin/env bash
# The README's first command: sets up, builds and starts the place to play.
#   bash scripts/play.sh [SERVE OPTIONS...]
#     starts `parlour serve` (rooms played in the browser, kept in its embedded
#     SQLite file parlour.db here) on every network address of this machine,
#     so that others on the network can join; it prints the address to open on
#     this machine and the one other devices open. Stop it with Ctrl-C.
#     Options go to `parlour serve` (a later --host wins: --host 127.0.0.1
#     keeps it to this machine; --port N, --public-url URL: docs/server.md).
#   bash scripts/play.sh --terminal [GAME] [OPTIONS...]
#     plays in the terminal instead (default: the Royal Game of Ur against
#     the computer): `parlour play GAME OPTIONS...`.
# PARLOUR_SKIP_DEPS=1 skips scripts/deps.sh (the apt-get installs).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${PARLOUR_SKIP_DEPS:-0}" != 1 ]; then bash scripts/deps.sh; fi
cmake --preset release
# Only the program: the tests and their libraries are not needed to play.
cmake --build build/release --target parlour
if [ "${1:-}" = --terminal ]; then
    shift
    if [ $# -eq 0 ]; then set -- ur; fi
    exec ./build/release/parlour play "$@"
fi
echo "play.sh: starting the game server; open the address it prints below (Ctrl-C stops it)."
exec ./build/release/parlour serve --host 0.0.0.0 "$@"
