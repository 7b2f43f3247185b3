#!/bin/sh
# tests/server/with_pg.sh CMD...: runs CMD with a throw-away PostgreSQL
# cluster (deploy/pg.sh) named by PARLOUR_TEST_PG_URL, so that every
# `parlour serve` the server tests start uses a database of its own there
# (tests/server/wsclient.py, pg_database) instead of a SQLite file. Exits 77
# (CTest: skipped) with a message when PostgreSQL is not installed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
pgsh=$here/../../deploy/pg.sh
dir=$(mktemp -d /tmp/parlour-pgserve-XXXXXX)
url=$(sh "$pgsh" start "$dir")
rc=$?
if [ $rc = 2 ]; then
    echo "SKIP: PostgreSQL is not installed (deploy/pg.sh found no initdb/pg_ctl)"
    rm -rf "$dir"
    exit 77
fi
if [ $rc != 0 ]; then
    echo "with_pg.sh: deploy/pg.sh start failed" >&2
    sh "$pgsh" clean "$dir"
    exit 1
fi
trap 'sh "$pgsh" clean "$dir"' EXIT INT TERM
# psql of the cluster's own version, as deploy/pg.sh chose it.
for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V); do PARLOUR_TEST_PSQL=$d/psql; done
export PARLOUR_TEST_PSQL=${PARLOUR_TEST_PSQL:-psql}
export PARLOUR_TEST_PG_URL="$url"
"$@"
