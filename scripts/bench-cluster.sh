#!/bin/bash
# scripts/bench-cluster.sh -- docs/benchmarks.md, "Several processes behind nginx": moves/s
# of `parlour bench serve --route` through nginx with 1, 2 and 3 `parlour serve --cluster`
# processes on one PostgreSQL (deploy/cluster.sh), then the recovery time of a room whose
# process is killed (tests/server/test_cluster_nginx.py --only recovery).
#   scripts/bench-cluster.sh [CLIENTS] [SECONDS]     (default 200 clients, 8 s a run)
# STORE=sqlite runs it on one SQLite file instead. Short runs: the machine may be shared.
# On a machine of 2 cores or more everything is pinned (taskset): the serve processes share
# core SERVE_CPUS (default 0), PostgreSQL, nginx and the generator core OTHER_CPUS (default
# 1), so the servers' figure is one core's whatever the other work; PIN=0 pins nothing.
# Each line adds the CPU time a move of the serve processes together and of PostgreSQL
# (its postmaster and backends), from /proc over the measured seconds.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
P=${PARLOUR:-$here/build/release/parlour}
C=${1:-200}
S=${2:-8}
PORT=${PORT:-18480}
GEN=()
if [ "${PIN:-1}" = 1 ] && command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
    export SERVE_CPUS=${SERVE_CPUS:-0} PG_CPUS=${OTHER_CPUS:-1} NGINX_CPUS=${OTHER_CPUS:-1}
    GEN=(taskset -c "${OTHER_CPUS:-1}")
fi
tck=$(getconf CLK_TCK)
cpu() { # the CPU seconds (user + system) of the pids given, those that still run
    local t=0 p
    for p in "$@"; do
        [ -r "/proc/$p/stat" ] || continue
        t=$((t + $(sed 's/.*) //' "/proc/$p/stat" | awk '{ print $12 + $13 }')))
    done
    awk -v t="$t" -v k="$tck" 'BEGIN { printf "%.3f", t / k }'
}
for n in 1 2 3; do
    dir=$(mktemp -d /tmp/parlour-bench-cluster.XXXXXX)
    N=$n PORT=$PORT PARLOUR=$P "$here/deploy/cluster.sh" start "$dir" >/dev/null
    srv=$(cat "$dir"/serve-*.pid)
    pg=
    if [ -f "$dir/pg/data/postmaster.pid" ]; then
        pm=$(head -1 "$dir/pg/data/postmaster.pid")
        pg="$pm $(pgrep -P "$pm" | tr '\n' ' ')"
    fi
    # shellcheck disable=SC2086
    s0=$(cpu $srv) p0=$(cpu $pg) t0=$(date +%s.%N)
    line=$("${GEN[@]}" "$P" bench serve --url "ws://127.0.0.1:$PORT/ws" --route --clients "$C" \
        --rooms $((C / 2)) --seconds "$S" --ready-timeout 60 2>/dev/null || true)
    # shellcheck disable=SC2086
    s1=$(cpu $srv) p1=$(cpu $pg) t1=$(date +%s.%N)
    moves=$(sed -n 's/.* \([0-9][0-9]*\) moves accepted.*/\1/p' <<<"$line")
    printf '%d process(es): %s\n' "$n" "$line"
    # The CPU figures span the generator's whole run (the seats taken too), its moves only the
    # measured seconds: an upper bound a move.
    awk -v s0="$s0" -v s1="$s1" -v p0="$p0" -v p1="$p1" -v t0="$t0" -v t1="$t1" -v m="${moves:-0}" -v n="$n" 'BEGIN {
        printf "  %d serve: cpu %.0f%% of a core, %.0f us a move; PostgreSQL: cpu %.0f%%, %.0f us a move\n",
            n, (s1 - s0) / (t1 - t0) * 100, m ? (s1 - s0) / m * 1e6 : 0,
            (p1 - p0) / (t1 - t0) * 100, m ? (p1 - p0) / m * 1e6 : 0 }'
    N=$n PORT=$PORT "$here/deploy/cluster.sh" stop "$dir" >/dev/null
    rm -rf "$dir"
done
[ "${RECOVERY:-1}" = 0 ] || python3 "$here/tests/server/test_cluster_nginx.py" --parlour "$P" --web "$here/web" --only recovery --trials 5
