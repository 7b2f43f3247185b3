#!/usr/bin/env bash
# callgrind-serve.sh — the server's instructions per move, repeatable on a busy
# machine (docs/benchmarks.md, "The server under load"). Runs `parlour serve`
# under valgrind's callgrind (all its threads: service, storage, workers) with
# a fresh database on tmpfs, twice: once with the load generator connecting
# N clients in N/2 rooms of ur and playing for S seconds (closed loop), once
# with the same clients playing 1 second. The difference of the instruction
# counts divided by the difference of the players' moves stored (chance
# actions, ur's dice, not counted) is what one move costs the server with its
# dice, connections and room creation taken out.
#   scripts/callgrind-serve.sh [--clients N] [--seconds S] [--keep DIR]
# --keep DIR keeps the callgrind.out files there (callgrind_annotate reads them).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PARLOUR=$ROOT/build/release/parlour
CLIENTS=200
SECS=20
KEEP=
while [ $# -gt 0 ]; do
    case $1 in
    --clients) CLIENTS=$2; shift 2 ;;
    --seconds) SECS=$2; shift 2 ;;
    --keep) KEEP=$2; shift 2 ;;
    --parlour) PARLOUR=$2; shift 2 ;;
    -h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "callgrind-serve.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
command -v valgrind >/dev/null || { echo "callgrind-serve.sh: valgrind is needed" >&2; exit 2; }
SRV_PIN=(); GEN_PIN=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then SRV_PIN=(taskset -c 0); GEN_PIN=(taskset -c 1); fi
WORK=$(mktemp -d)
SPID=
trap '[ -n "$SPID" ] && kill -TERM "$SPID" 2>/dev/null; rm -rf "$WORK"' EXIT
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')

# one SECONDS: prints "instructions actions generator-line"
one() {
    local secs=$1 db=/dev/shm/parlour-cg-$$.db
    rm -f "$db" "$db-wal" "$db-shm"
    "${SRV_PIN[@]}" valgrind --tool=callgrind --callgrind-out-file="$WORK/cg.$secs" \
        "$PARLOUR" serve --port "$PORT" --db "$db" >"$WORK/server.log" 2>&1 &
    SPID=$!
    for _ in $(seq 600); do
        grep -q "listening on" "$WORK/server.log" && break
        sleep 0.1
    done
    local line
    line=$("${GEN_PIN[@]}" "$PARLOUR" bench serve --url "ws://127.0.0.1:$PORT/ws" --clients "$CLIENTS" \
        --seconds "$secs" --ready-timeout 600 2>/dev/null)
    kill -TERM "$SPID"; wait "$SPID" || true; SPID=
    local ir actions
    ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$WORK/cg.$secs" | head -1)
    [ -n "$ir" ] || ir=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$WORK/cg.$secs" | head -1)
    actions=$(sqlite3 "$db" "SELECT count(*) FROM actions WHERE seat >= 0")
    rm -f "$db" "$db-wal" "$db-shm"
    [ -n "$KEEP" ] && mkdir -p "$KEEP" && cp "$WORK"/cg.$secs* "$KEEP"/
    echo "$ir $actions $line"
}
read -r ir0 a0 l0 < <(one 1)
read -r ir1 a1 l1 < <(one "$SECS")
echo "1 s: $ir0 instructions, $a0 moves stored ($l0)"
echo "$SECS s: $ir1 instructions, $a1 moves stored ($l1)"
awk -v i0="$ir0" -v i1="$ir1" -v a0="$a0" -v a1="$a1" \
    'BEGIN { printf "server instructions per move: %.0f (%d moves)\n", (i1 - i0) / (a1 - a0), a1 - a0 }'
