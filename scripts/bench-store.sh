#!/usr/bin/env bash
# bench-store.sh — the store's cost per move, SQLite against PostgreSQL
# (docs/benchmarks.md, "The store: SQLite and PostgreSQL"). For each backend:
# `parlour serve --db ...` pinned to core 0, `parlour bench serve` (closed
# loop: every seat answers at once) pinned to core 1 for S seconds, then
#   moves/s            the generator's accepted moves per second
#   commits/s          transactions committed per second of the run
#                      (PostgreSQL: pg_stat_database.xact_commit; SQLite: the
#                      server's fdatasync+fsync calls counted with perf, "?"
#                      where perf cannot)
#   actions/commit     actions stored / commits
#   statements/move    statements the server ran on PostgreSQL
#                      (pg_stat_statements calls, BEGIN and COMMIT included)
#                      per action stored; SQLite has none (a library call).
#                      Each write is one round trip since issue 30 (a
#                      pipeline): round trips are then about the commits
#   cpu ratio          the server's CPU time a move (all its threads, from
#                      /proc) on PostgreSQL over the same on SQLite
# --rate M plays M moves a second in all (open loop) on both backends, so
# that the two servers do the same work a second; without it each plays as
# fast as its commits allow (closed loop), and the faster backend makes
# bigger batches. PostgreSQL pinned with the generator to core 1 (its work
# is not the server's). Both databases on this machine's disk (fsync on), a
# throw-away cluster from deploy/pg.sh. Counts cover the whole run.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PARLOUR=$ROOT/build/release/parlour
CLIENTS=200
SECS=10
RATE=
while [ $# -gt 0 ]; do
    case $1 in
    --parlour) PARLOUR=$2; shift 2 ;;
    --clients) CLIENTS=$2; shift 2 ;;
    --seconds) SECS=$2; shift 2 ;;
    --rate) RATE=$2; shift 2 ;;
    -h | --help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'
        echo "usage: scripts/bench-store.sh [--parlour PATH] [--clients N] [--seconds S] [--rate M]"; exit 0 ;;
    *) echo "bench-store.sh: unknown argument '$1' (--help)" >&2; exit 2 ;;
    esac
done

SRV_PIN=()
GEN_PIN=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
    SRV_PIN=(taskset -c 0)
    GEN_PIN=(taskset -c 1)
fi
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
WORK=$(mktemp -d "$ROOT/build/bench-store.XXXXXX")
PGDIR=$(mktemp -d /tmp/parlour-pgbench-XXXXXX)
SPID=
stop_server() {
    if [ -n "$SPID" ]; then
        kill -TERM "$SPID" 2>/dev/null || true
        wait "$SPID" 2>/dev/null || true
        SPID=
    fi
}
trap 'stop_server; sh "$ROOT/deploy/pg.sh" clean "$PGDIR" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT

start_server() {
    "${SRV_PIN[@]}" "$PARLOUR" serve --port "$PORT" --db "$1" --web "$ROOT/web" >"$WORK/server.log" 2>&1 &
    SPID=$!
    for _ in $(seq 300); do
        grep -q "listening on" "$WORK/server.log" && return 0
        kill -0 "$SPID" 2>/dev/null || break
        sleep 0.1
    done
    echo "bench-store.sh: the server did not start:" >&2
    cat "$WORK/server.log" >&2
    exit 1
}

gen() {
    "${GEN_PIN[@]}" "$PARLOUR" bench serve --url "ws://127.0.0.1:$PORT/ws" --pid "$SPID" \
        --clients "$CLIENTS" --seconds "$SECS" ${RATE:+--rate "$RATE"} 2>/dev/null
}

# The "(N us a move)" of the generator's server figure.
us_a_move() { sed -n 's/.*server cpu [0-9]*% (\([0-9]*\) us a move).*/\1/p' <<<"$1"; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a ~ /^[0-9.]+$/) printf "%.2f", a / b; else print "?" }'; }

# SQLite
start_server "$WORK/s.db"
perf_pid=
if command -v perf >/dev/null && perf stat -e syscalls:sys_enter_fdatasync true >/dev/null 2>&1; then
    perf stat -x, -e syscalls:sys_enter_fdatasync,syscalls:sys_enter_fsync -p "$SPID" -o "$WORK/perf.txt" &
    perf_pid=$!
fi
t0=$(date +%s.%N)
line=$(gen)
t1=$(date +%s.%N)
commits="?"
if [ -n "$perf_pid" ]; then
    kill -INT "$perf_pid" 2>/dev/null || true
    wait "$perf_pid" 2>/dev/null || true
    commits=$(awk -F, '/sys_enter_f/ { n += $1 } END { print n + 0 }' "$WORK/perf.txt")
fi
stop_server
actions=$(sqlite3 "$WORK/s.db" "SELECT count(*) FROM actions")
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
echo "sqlite: $line"
sqlite_us=$(us_a_move "$line")
echo "sqlite: $actions actions, $commits commits in ${secs}s: $(ratio "$commits" "$secs") commits/s," \
    "$(ratio "$actions" "$commits") actions/commit, statements/move 0 (in process)"

# PostgreSQL
url=$(PG_STATEMENTS=1 PG_OPTS="-c pg_stat_statements.track_utility=on" \
    "${GEN_PIN[@]}" sh "$ROOT/deploy/pg.sh" start "$PGDIR")
psql=psql
for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V); do psql=$d/psql; done
q() { "$psql" -qAtX -d "$url" -c "$1"; }
q "CREATE EXTENSION pg_stat_statements" >/dev/null
start_server "$url"
q "SELECT pg_stat_statements_reset()" >/dev/null
c0=$(q "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")
t0=$(date +%s.%N)
line=$(gen)
t1=$(date +%s.%N)
stop_server
sleep 1 # the statistics collector's last report
c1=$(q "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")
actions=$(q "SELECT count(*) FROM actions")
trips=$(q "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT LIKE '%pg_stat%' AND query NOT LIKE '%xact_commit%'")
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
commits=$((c1 - c0))
echo "postgresql: $line"
echo "postgresql: $actions actions, $commits commits in ${secs}s: $(ratio "$commits" "$secs") commits/s," \
    "$(ratio "$actions" "$commits") actions/commit, $(ratio "$trips" "$actions") statements/move ($trips statements)"
pg_us=$(us_a_move "$line")
echo "cpu a move: sqlite ${sqlite_us:-?} us, postgresql ${pg_us:-?} us: ratio $(ratio "${pg_us:-?}" "${sqlite_us:-0}")"
