#!/bin/sh
# deploy/pg.sh — a throw-away PostgreSQL cluster in one directory, for the
# tests (tests/test_unit_store.c, tests/server) and for trying several
# `parlour serve` processes on one machine (docs/cluster.md).
#
#   deploy/pg.sh start DIR   initdb into DIR/data (fsync on: a commit is
#                            durable), start it listening on a unix socket in
#                            DIR and on 127.0.0.1 at a free port, create the
#                            database "parlour"; prints the URL
#   deploy/pg.sh url DIR     prints the URL of database "parlour", e.g.
#                            postgresql:///parlour?host=DIR&port=PORT&user=parlour
#   deploy/pg.sh stop DIR    stops the server (the files stay)
#   deploy/pg.sh clean DIR   stops it and removes DIR
#
# The superuser is "parlour", trusted without a password on the socket and on
# 127.0.0.1 only. initdb refuses to run as root: as root the cluster runs as
# user "postgres" (created by Debian's postgresql package), which then owns
# DIR. Binaries: $PG_BIN, else the newest /usr/lib/postgresql/*/bin, else PATH.
# $PG_OPTS: more server options for start (e.g. "-c shared_buffers=1GB").
# $PG_STATEMENTS=1: start also loads pg_stat_statements (statements counted
# per database: tests/test_unit_store.c, scripts/bench-store.sh) when this
# installation has it (Debian: postgresql-contrib), and says nothing if not.
# Exit status 2 when PostgreSQL is not installed (callers skip, not fail).
set -eu

cmd=${1:-}
dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
    echo "usage: $0 start|url|stop|clean DIR" >&2
    exit 64
fi

bin=${PG_BIN:-}
if [ -z "$bin" ]; then
    for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V); do bin=$d; done
fi
if [ -n "$bin" ]; then
    PATH=$bin:$PATH
fi
if ! command -v initdb >/dev/null 2>&1 || ! command -v pg_ctl >/dev/null 2>&1; then
    echo "$0: PostgreSQL is not installed (no initdb/pg_ctl; Debian: apt-get install postgresql)" >&2
    exit 2
fi

# Runs a command as the cluster's user: postgres when we are root.
as_pg() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- env PATH="$PATH" "$@"
    else
        "$@"
    fi
}

url() {
    port=$(cat "$dir/port")
    echo "postgresql:///parlour?host=$dir&port=$port&user=parlour"
}

case $cmd in
start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    if [ "$(id -u)" = 0 ]; then
        chown postgres "$dir"
    fi
    # A free port: bind port 0 and read what the kernel chose.
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_pg sh -c "echo $port > '$dir/port'"
    as_pg initdb -D "$dir/data" -U parlour -A trust -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    stats=
    if [ "${PG_STATEMENTS:-0}" = 1 ] && [ -f "$(dirname "$(command -v initdb)")/../lib/pg_stat_statements.so" ]; then
        stats="-c shared_preload_libraries=pg_stat_statements"
    fi
    as_pg pg_ctl -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-k '$dir' -p $port -c listen_addresses=127.0.0.1 -c fsync=on -c synchronous_commit=on $stats ${PG_OPTS:-}" \
        start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    as_pg createdb -h "$dir" -p "$port" -U parlour parlour
    url
    ;;
url)
    url
    ;;
stop)
    as_pg pg_ctl -D "$dir/data" -m fast -w stop >/dev/null
    ;;
clean)
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_pg pg_ctl -D "$dir/data" -m fast -w stop >/dev/null || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: $0 start|url|stop|clean DIR" >&2
    exit 64
    ;;
esac
