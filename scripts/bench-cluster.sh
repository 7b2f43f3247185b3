#!/bin/bash
# scripts/bench-cluster.sh -- docs/benchmarks.md, "Several processes behind nginx": moves/s
# of `parlour bench serve --route` through nginx with 1, 2 and 3 `parlour serve --cluster`
# processes on one PostgreSQL (deploy/cluster.sh), then the recovery time of a room whose
# process is killed (tests/server/test_cluster_nginx.py --only recovery).
#   scripts/bench-cluster.sh [CLIENTS] [SECONDS]     (default 200 clients, 8 s a run)
# STORE=sqlite runs it on one SQLite file instead. Short runs: the machine may be shared.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
P=${PARLOUR:-$here/build/release/parlour}
C=${1:-200}
S=${2:-8}
PORT=${PORT:-18480}
for n in 1 2 3; do
    dir=$(mktemp -d /tmp/parlour-bench-cluster.XXXXXX)
    N=$n PORT=$PORT PARLOUR=$P "$here/deploy/cluster.sh" start "$dir" >/dev/null
    printf '%d process(es): ' "$n"
    "$P" bench serve --url "ws://127.0.0.1:$PORT/ws" --route --clients "$C" --rooms $((C / 2)) \
        --seconds "$S" --ready-timeout 60 || true
    N=$n PORT=$PORT "$here/deploy/cluster.sh" stop "$dir" >/dev/null
    rm -rf "$dir"
done
[ "${RECOVERY:-1}" = 0 ] || python3 "$here/tests/server/test_cluster_nginx.py" --parlour "$P" --web "$here/web" --only recovery --trials 5
