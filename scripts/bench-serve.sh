#!/usr/bin/env bash
# bench-serve.sh — `parlour serve` under load (docs/benchmarks.md, "The server
# under load"). For each measurement it starts the server pinned to core 0 with
# a fresh database, runs `parlour bench serve` pinned to core 1, and stops the
# server (SIGTERM):
#   idle     N connections seated in N/2 rooms, held: server KB per connection
#   max      N clients playing random legal moves as fast as the server answers
#            (database on tmpfs): moves/s, states/s, latency, actions per commit
#   latency  the same at a set total rate (default 10,000 moves/s, half the
#            issue's 20,000 target), and, when max measured less than twice
#            that, also at half the rate max measured: p50/p99/max latency
#   disk     max again with the database on disk: moves/s, actions per commit
# Actions per commit: the actions in the database at the end divided by the
# server's fdatasync+fsync calls (counted with `perf stat` when perf can; the
# count includes checkpoints and room creation, so it is a lower bound).
#
# --smoke: one tiny run (4 clients, 2 rooms, 1 s) that fails unless every
# client connected and moves were accepted (the CTest smoke test).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PARLOUR=$ROOT/build/release/parlour
GENERATOR=
CLIENTS=10000
SECS=10
RATE=10000
PORT=
ONLY="idle max latency disk"
TMPFS_DIR=/dev/shm
DISK_DIR=$ROOT/build
SMOKE=0
MAX_RATE=

usage() {
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
    cat <<EOF
usage: scripts/bench-serve.sh [--parlour PATH] [--generator PATH] [--clients N] [--seconds S] [--rate M]
                              [--port P] [--only "idle max latency disk"]
                              [--tmpfs-dir DIR] [--disk-dir DIR] [--smoke]
defaults: $PARLOUR (the server, and the generator unless --generator), 10000 clients, 10 s, rate 10000, a free port,
          databases in $TMPFS_DIR (tmpfs) and $DISK_DIR (disk)
EOF
}

while [ $# -gt 0 ]; do
    case $1 in
    --parlour) PARLOUR=$2; shift 2 ;;
    --generator) GENERATOR=$2; shift 2 ;;
    --clients) CLIENTS=$2; shift 2 ;;
    --seconds) SECS=$2; shift 2 ;;
    --rate) RATE=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --tmpfs-dir) TMPFS_DIR=$2; shift 2 ;;
    --disk-dir) DISK_DIR=$2; shift 2 ;;
    --smoke) SMOKE=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "bench-serve.sh: unknown argument '$1' (--help)" >&2; exit 2 ;;
    esac
done
[ -x "$PARLOUR" ] || { echo "bench-serve.sh: no program at $PARLOUR (build it first)" >&2; exit 2; }
GENERATOR=${GENERATOR:-$PARLOUR}
[ -x "$GENERATOR" ] || { echo "bench-serve.sh: no program at $GENERATOR" >&2; exit 2; }
if [ -z "$PORT" ]; then
    PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
fi
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true # one descriptor per connection, both sides

# Pin the server to core 0 and the generator to core 1 when there are two.
SRV_PIN=()
GEN_PIN=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
    SRV_PIN=(taskset -c 0)
    GEN_PIN=(taskset -c 1)
fi

WORK=$(mktemp -d)
SPID=
# server_stats: the running server's system calls (reads, writes) and CPU
# ticks per thread name (net.c names its threads), from /proc, for server_line.
server_stats() {
    rm -f "$WORK/io.txt" "$WORK/cpu.txt"
    [ -r "/proc/$SPID/io" ] || return 0
    awk '/^syscr|^syscw/ { printf "%s ", $2 }' "/proc/$SPID/io" >"$WORK/io.txt" 2>/dev/null || true
    for t in /proc/"$SPID"/task/*; do
        # the name may hold spaces: the fields after its closing parenthesis
        sed 's/^[0-9]* (\(.*\)) [A-Za-z] \(.*\)$/\1 \2/' "$t/stat" 2>/dev/null || true
    done | awk '{ cpu[$1] += $12 + $13 } END { for (k in cpu) printf "%s %d\n", k, cpu[k] }' \
        >"$WORK/cpu.txt"
}

stop_server() {
    if [ -n "$SPID" ]; then
        server_stats
        kill -TERM "$SPID" 2>/dev/null || true
        wait "$SPID" 2>/dev/null || true
        SPID=
    fi
}
trap 'stop_server; rm -rf "$WORK"' EXIT

# start_server DBFILE: a fresh database, the server listening on $PORT.
start_server() {
    local db=$1
    rm -f "$db" "$db-wal" "$db-shm"
    local web=()
    [ -d "$ROOT/web" ] && web=(--web "$ROOT/web")
    "${SRV_PIN[@]}" "$PARLOUR" serve --port "$PORT" --db "$db" "${web[@]}" \
        >"$WORK/server.log" 2>&1 &
    SPID=$!
    for _ in $(seq 300); do
        grep -q "listening on" "$WORK/server.log" && return 0
        kill -0 "$SPID" 2>/dev/null || break
        sleep 0.1
    done
    echo "bench-serve.sh: the server did not start:" >&2
    cat "$WORK/server.log" >&2
    exit 1
}

# server_line: what the stopped server measured itself (net_latency): from
# each move's arrival to the end of the turn that wrote its updates, over
# the whole run (connecting included), without the generator's own delays.
server_line() {
    local l
    l=$(grep -o '[0-9]* moves answered.*' "$WORK/server.log" || true)
    [ -n "$l" ] && echo "  server: $l"
    local moves
    moves=$(echo "$l" | sed -n 's/^\([0-9]*\) moves answered.*/\1/p')
    if [ "${moves:-0}" -gt 0 ] && [ -s "$WORK/io.txt" ] && [ -s "$WORK/cpu.txt" ]; then
        # the whole run, connecting included: system calls and CPU per move
        echo "  server per move: $(awk -v m="$moves" '{ printf "%.2f reads, %.2f writes (system calls)", $1 / m, $2 / m }' \
            "$WORK/io.txt"); CPU $(sort -k2,2nr "$WORK/cpu.txt" | awk -v m="$moves" -v hz="$(getconf CLK_TCK)" \
            '$2 > 0 { printf "%s%s %.1f us", n++ ? ", " : "", ($1 == "parlour" ? "service" : $1), $2 * 1e6 / hz / m }')"
    fi
    return 0
}

# gen ARGS...: the generator's line on stdout; its notes (but the open-files
# one, printed once at the start) on stderr.
gen() {
    local rc=0
    "${GEN_PIN[@]}" "$GENERATOR" bench serve --url "ws://127.0.0.1:$PORT/ws" --pid "$SPID" \
        --ready-timeout 600 "$@" \
        2>"$WORK/gen.err" || rc=$?
    grep -v "open files limit" "$WORK/gen.err" >&2 || true
    return $rc
}

# commits_of LABEL DBFILE GEN-ARGS...: a throughput run with the server's
# syncs counted; prints the generator's line and actions per commit.
run_counted() {
    local label=$1 db=$2
    shift 2
    local perf_pid=
    if command -v perf >/dev/null &&
        perf stat -e syscalls:sys_enter_fdatasync true >/dev/null 2>&1; then
        perf stat -x, -e syscalls:sys_enter_fdatasync,syscalls:sys_enter_fsync -p "$SPID" \
            -o "$WORK/perf.txt" &
        perf_pid=$!
    fi
    local line
    line=$(gen "$@")
    echo "$label: $line"
    MAX_RATE=$(echo "$line" | sed -n 's/.*moves accepted (\([0-9]*\)\/s).*/\1/p')
    if [ -n "$perf_pid" ]; then
        kill -INT "$perf_pid" 2>/dev/null || true
        wait "$perf_pid" 2>/dev/null || true
        local syncs actions
        syncs=$(awk -F, '/sys_enter_f/ { n += $1 } END { print n + 0 }' "$WORK/perf.txt")
        actions=$(sqlite3 "$db" "SELECT count(*) FROM actions" 2>/dev/null || echo "?")
        echo "$label: sqlite $actions actions in $syncs syncs: $(awk -v a="$actions" -v s="$syncs" \
            'BEGIN { if (s > 0 && a ~ /^[0-9]+$/) printf "%.1f", a / s; else print "?" }') actions per commit"
    fi
}

if [ "$SMOKE" = 1 ]; then
    start_server "$WORK/smoke.db"
    line=$(gen --clients 4 --rooms 2 --seconds 2)
    kill -TERM "$SPID"
    src=0
    wait "$SPID" || src=$?
    SPID=
    echo "$line"
    [ "$src" = 0 ] || { echo "bench-serve.sh --smoke: the server exited with $src" >&2; cat "$WORK/server.log" >&2; exit 1; }
    case $line in
    *"(4 connected, 0 failed, 0 dropped)"*) ;;
    *) echo "bench-serve.sh --smoke: not every client connected" >&2; exit 1 ;;
    esac
    moves=$(echo "$line" | sed -n 's/.*: \([0-9]*\) moves accepted.*/\1/p')
    [ "${moves:-0}" -gt 0 ] || { echo "bench-serve.sh --smoke: no move accepted" >&2; exit 1; }
    exit 0
fi

echo "bench-serve.sh: $PARLOUR, $CLIENTS clients, $SECS s, port $PORT, open files $(ulimit -n)," \
    "server ${SRV_PIN[*]:-unpinned}, generator ${GEN_PIN[*]:-unpinned}"
for m in $ONLY; do
    case $m in
    idle)
        start_server "$TMPFS_DIR/parlour-bench.db"
        echo "idle: $(gen --clients "$CLIENTS" --idle --seconds 3)"
        stop_server
        ;;
    max)
        start_server "$TMPFS_DIR/parlour-bench.db"
        run_counted "max (db on tmpfs)" "$TMPFS_DIR/parlour-bench.db" --clients "$CLIENTS" --seconds "$SECS"
        stop_server
        server_line
        ;;
    latency)
        rates=$RATE
        if [ -n "${MAX_RATE:-}" ] && [ $((MAX_RATE / 2)) -gt 0 ] && [ $((MAX_RATE / 2)) -lt "$RATE" ]; then
            rates="$RATE $((MAX_RATE / 2))"
        fi
        for rate in $rates; do
            start_server "$TMPFS_DIR/parlour-bench.db"
            echo "latency at $rate/s: $(gen --clients "$CLIENTS" --seconds "$SECS" --rate "$rate")"
            stop_server
            server_line
        done
        ;;
    disk)
        mkdir -p "$DISK_DIR"
        start_server "$DISK_DIR/parlour-bench.db"
        run_counted "max (db on disk)" "$DISK_DIR/parlour-bench.db" --clients "$CLIENTS" --seconds "$SECS"
        stop_server
        rm -f "$DISK_DIR/parlour-bench.db" "$DISK_DIR/parlour-bench.db-wal" "$DISK_DIR/parlour-bench.db-shm"
        ;;
    *) echo "bench-serve.sh: unknown measurement '$m' (idle max latency disk)" >&2; exit 2 ;;
    esac
done
rm -f "$TMPFS_DIR/parlour-bench.db" "$TMPFS_DIR/parlour-bench.db-wal" "$TMPFS_DIR/parlour-bench.db-shm"
