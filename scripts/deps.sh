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
  libwebsockets-dev python3
