#!/usr/bin/env bash
# Installs what Parlour needs to build and test on Debian 12 (apt-get).
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends \
  build-essential cmake ninja-build pkg-config \
  libjansson-dev libutf8proc-dev libcmocka-dev libncurses-dev libsqlite3-dev \
  tmux \
  libwebsockets-dev libwebsockets-evlib-ev libev-dev python3 \
  chromium fonts-noto-cjk nodejs \
  fonts-dejavu-core fonts-ipaexfont-gothic fonts-ipaexfont-mincho \
  libpq-dev postgresql nginx libsodium-dev libzip-dev
# PostgreSQL (issue 17): libpq-dev builds the second store; the postgresql
# server and nginx run the tests' throw-away cluster (deploy/pg.sh) and the
# several-process front. libsodium-dev: Argon2id password hashes and session
# tokens of accounts (issue 33); libzip-dev: a player's export of their games as
# records in one zip (issue 33 §4). Installing "postgresql" may start Debian's own
# cluster; the tests never use it (they start theirs in a temporary folder).
# The fonts `parlour serve` serves the pages at /fonts/ (issue 32; docs/web-ui.md,
# "Fonts"): DejaVu Sans (Latin with Vietnamese, Cyrillic), IPAex Gothic and Mincho
# (Japanese). Without them the pages fall back to the device's fonts.
# The browser tests (tests/web, issue 16): npm playwright-core drives Debian's
# chromium; never a downloaded browser. npm comes with nodesource's nodejs;
# Debian's own npm package only where none is there (it would conflict).
if ! command -v npm >/dev/null; then
  $SUDO apt-get install -y --no-install-recommends npm
fi
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --prefix "$(dirname "$0")/../tests/web" --no-audit --no-fund
