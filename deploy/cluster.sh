#!/bin/bash
# deploy/cluster.sh -- on one machine: a PostgreSQL in a temporary folder, three
# `parlour serve --cluster` processes on one database and nginx in front (deploy/nginx.conf),
# started and stopped together (docs/cluster.md).
#
#   deploy/cluster.sh start [DIR]    # everything in DIR (default /tmp/parlour-cluster)
#   deploy/cluster.sh status [DIR]   # what runs, the URL
#   deploy/cluster.sh stop [DIR]     # stops them all (the database stays in DIR)
#
# Environment: PARLOUR (the program; default build/release/parlour), WEB (default web/),
# PORT (nginx's; default 8080: the processes take PORT+1..PORT+N), N (processes, default 3),
# STORE=sqlite (DIR/parlour.db instead of PostgreSQL: for a machine without it);
# SERVE_CPUS, PG_CPUS, NGINX_CPUS: CPU lists (taskset -c) the processes, PostgreSQL (its
# postmaster and so every backend) and nginx are pinned to (default: not pinned). PostgreSQL
# is deploy/pg.sh's, in DIR/pg (a free port, a socket there; as root it runs as user
# postgres); nginx runs as the caller with its pid, logs and temporary files in DIR
# (`nginx -p DIR`).
set -euo pipefail

cmd=${1:-}
DIR=${2:-/tmp/parlour-cluster}
here=$(cd "$(dirname "$0")/.." && pwd)
PARLOUR=${PARLOUR:-$here/build/release/parlour}
WEB=${WEB:-$here/web}
PORT=${PORT:-8080}
N=${N:-3}
STORE=${STORE:-postgresql}
PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}

die() { echo "cluster.sh: $*" >&2; exit 1; }
# pin LIST: the command prefix that pins to the CPUs of LIST (taskset -c), none when empty.
pin() { if [ -n "$1" ]; then echo "taskset -c $1"; fi; }
read -r -a PG_PIN <<<"$(pin "${PG_CPUS:-}")"
read -r -a SERVE_PIN <<<"$(pin "${SERVE_CPUS:-}")"
read -r -a NGINX_PIN <<<"$(pin "${NGINX_CPUS:-}")"
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

db_url() {
    if [ "$STORE" = sqlite ]; then echo "$DIR/parlour.db"
    else sh "$here/deploy/pg.sh" url "$DIR/pg"; fi
}

pg_start() {  # deploy/pg.sh makes the cluster; an existing one stopped is started again
    if [ -f "$DIR/pg/data/PG_VERSION" ]; then
        as_pg "$PGBIN/pg_ctl" -D "$DIR/pg/data" status >/dev/null 2>&1 && return 0
        as_pg "${PG_PIN[@]}" "$PGBIN/pg_ctl" -D "$DIR/pg/data" -l "$DIR/pg/server.log" -w -t 60 \
            -o "-k '$DIR/pg' -p $(cat "$DIR/pg/port") -c listen_addresses=127.0.0.1 -c fsync=on" start >/dev/null ||
            die "PostgreSQL did not start: $DIR/pg/server.log"
    else
        "${PG_PIN[@]}" sh "$here/deploy/pg.sh" start "$DIR/pg" >/dev/null ||
            die "deploy/pg.sh could not start PostgreSQL (installed? STORE=sqlite does without)"
    fi
}

nginx_conf() {  # deploy/nginx.conf with this run's ports and paths
    local servers="" i
    for i in $(seq 1 "$N"); do
        servers+="        server 127.0.0.1:$((PORT + i)) max_fails=1 fail_timeout=2s;\n"
    done
    mkdir -p "$DIR/nginx-tmp"
    if [ "$(id -u)" = 0 ]; then chown nobody "$DIR/nginx-tmp" 2>/dev/null || true; fi
    {
        echo "daemon on;"
        echo "pid $DIR/nginx.pid;"
        echo "error_log $DIR/nginx-error.log warn;"
        sed -e "/# servers begin/,/# servers end/c\\
$servers" \
            -e "s|listen 127.0.0.1:8080;|listen 127.0.0.1:$PORT;|" \
            -e "s|^http {|http {\n    client_body_temp_path $DIR/nginx-tmp/body;\n    proxy_temp_path $DIR/nginx-tmp/proxy;\n    fastcgi_temp_path $DIR/nginx-tmp/fastcgi;\n    uwsgi_temp_path $DIR/nginx-tmp/uwsgi;\n    scgi_temp_path $DIR/nginx-tmp/scgi;|" \
            "$here/deploy/nginx.conf"
    } >"$DIR/nginx.conf"
}

serve_start() {  # serve_start I: process I on PORT+I
    local i=$1 log="$DIR/serve-$1.log"
    : >"$log"
    "${SERVE_PIN[@]}" setsid "$PARLOUR" serve --cluster --port $((PORT + i)) --db "$(db_url)" --web "$WEB" >>"$log" 2>&1 &
    echo $! >"$DIR/serve-$i.pid"
    for _ in $(seq 100); do grep -q listening "$log" && return 0; sleep 0.1; done
    die "parlour serve $i did not start: $log"
}

alive() {  # the pid in file $1 runs (a killed process left as a zombie does not)
    [ -f "$1" ] || return 1
    local st
    st=$(sed 's/.*) //' "/proc/$(cat "$1")/stat" 2>/dev/null | cut -d' ' -f1) || return 1
    [ -n "$st" ] && [ "$st" != Z ]
}

case "$cmd" in
start)
    command -v nginx >/dev/null || die "no nginx: install it (Debian: nginx)"
    [ -x "$PARLOUR" ] || die "no program '$PARLOUR': build it (cmake --preset release && cmake --build build/release)"
    mkdir -p "$DIR"; chmod 755 "$DIR"
    DIR=$(cd "$DIR" && pwd)
    [ "$STORE" = sqlite ] || pg_start
    for i in $(seq 1 "$N"); do alive "$DIR/serve-$i.pid" || serve_start "$i"; done
    nginx_conf
    alive "$DIR/nginx.pid" || "${NGINX_PIN[@]}" nginx -p "$DIR" -e "$DIR/nginx-error.log" -c "$DIR/nginx.conf"
    echo "$N processes on $(db_url); open http://127.0.0.1:$PORT/"
    ;;
stop)
    [ -d "$DIR" ] || exit 0
    DIR=$(cd "$DIR" && pwd)
    alive "$DIR/nginx.pid" && nginx -p "$DIR" -e "$DIR/nginx-error.log" -c "$DIR/nginx.conf" -s stop || true
    for f in "$DIR"/serve-*.pid; do
        [ -f "$f" ] || continue
        if alive "$f"; then
            kill -TERM "$(cat "$f")"
            for _ in $(seq 50); do alive "$f" || break; sleep 0.1; done
        fi
        rm -f "$f"
    done
    if [ -f "$DIR/pg/data/postmaster.pid" ]; then sh "$here/deploy/pg.sh" stop "$DIR/pg" || true; fi
    echo "stopped (the data stays in $DIR)"
    ;;
status)
    DIR=$(cd "$DIR" 2>/dev/null && pwd) || die "nothing in $DIR"
    st=0
    if [ "$STORE" != sqlite ]; then
        if [ -f "$DIR/pg/data/postmaster.pid" ] && as_pg "$PGBIN/pg_ctl" -D "$DIR/pg/data" status >/dev/null; then
            echo "postgresql: running, $(db_url)"
        else echo "postgresql: stopped"; st=1; fi
    fi
    for i in $(seq 1 "$N"); do
        if alive "$DIR/serve-$i.pid"; then echo "serve $i: running (pid $(cat "$DIR/serve-$i.pid"), port $((PORT + i)))"
        else echo "serve $i: stopped"; st=1; fi
    done
    if alive "$DIR/nginx.pid"; then echo "nginx: running on http://127.0.0.1:$PORT/"
    else echo "nginx: stopped"; st=1; fi
    exit $st
    ;;
*)
    echo "usage: deploy/cluster.sh start|stop|status [DIR]" >&2
    exit 2
    ;;
esac
