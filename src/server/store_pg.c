/* store_pg.c — the store (store.h) in PostgreSQL, through libpq: chosen by
 * store.c for a URL that starts with "postgresql://" or "postgres://" (any
 * libpq connection URI: host, port, user, dbname, sslmode...).
 *
 * The schema and its migrations are src/server/schema/pg.sql, embedded by
 * the build (store_schema_pg.h). Every statement is prepared once per
 * connection (PQprepare) and run with text parameters (PQexecPrepared, or
 * PQsendQueryPrepared in a pipeline): no SQL is built from data; a batch's
 * columns travel as array literals in parameters. synchronous_commit is on, so COMMIT returns once
 * the transaction is in the write-ahead log on disk.
 *
 * Concurrency: a write that touches room R first locks R's row
 * (SELECT ... FOR UPDATE; a batch locks its rooms in code order, so two
 * overlapping batches cannot deadlock), and so does store_lease_take; the
 * lease check and the next sequence number are read by the statement after
 * that lock (READ COMMITTED gives each statement a fresh snapshot), so a
 * write and a lease change on one room are serialised and a write never
 * passes its check on a stale lease. Heartbeats use the database's clock
 * (clock_timestamp()).
 *
 * Round trips (issue 30: they were most of the server's CPU with
 * PostgreSQL, each a wake-up of the storage thread): every write is one.
 * Its statements go out together in libpq's pipeline mode, without BEGIN,
 * and the pipeline's sync commits them as one transaction and answers once
 * the commit is durable (pipeline()). store_append of any batch is two
 * statements: the lock, then one INSERT ... SELECT FROM unnest() of the
 * batch's columns sent as array literals, which checks every room (exists,
 * not finished, lease ours, seq continues) and writes all rows or none,
 * answering per room. store_room_put is the INSERT (a code taken fails it),
 * the lease and the NOTIFY; store_finish and store_room_config the lock,
 * then the checked change (with its NOTIFY). store_owner_beat is one
 * statement; store_lease_take (a room's load) is still BEGIN ... COMMIT,
 * six. A lost connection is reopened (PQreset) at the next call; the call
 * that saw it fails.
 */
#include "store_int.h"

#include <inttypes.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parlour/alloc.h"
#include "parlour/game.h"
#include "store_schema_pg.h"

#if !defined(LIBPQ_HAS_PIPELINING)
#error "store_pg.c needs libpq 14 or later (pipeline mode): install a newer libpq-dev or configure without it"
#endif

enum {
    P_ROOM_PUT,
    P_NOTIFY,
    P_LOCK,  /* a room's row, locked: its finished flag */
    P_LOCK_ROOMS,   /* a batch's rooms' rows, locked in code order */
    P_APPEND_BATCH, /* after that lock: a batch's checks and its rows, one statement */
    P_FINISH,
    P_CONFIG,
    P_ROOMS_ALL,
    P_ROOMS_OPEN,
    P_ROOM_GET,
    P_ACTIONS,
    P_COUNT,
    P_BEAT,
    P_OWNER_ALIVE,
    P_LEASE_GET,
    P_LEASE_SET,
    P_LEASE_DROP,
    P_ACC_PUT,
    P_ACC_BY_NAME,
    P_ACC_BY_ID,
    P_ACC_PRIVATE,
    P_ACC_LOCK,
    P_ACC_HASH,
    P_ACC_REHASH,
    P_ACC_DELETE,
    P_ACC_ROOMS, /* the rooms whose configuration may name an account, locked */
    P_ROOM_SET_CONFIG,
    P_SES_PUT,
    P_SES_GET,
    P_SES_RENEW,
    P_SES_DROP,
    P_SES_DROP_EXPIRED,
    P_SES_DROP_OTHERS,
    P_SES_PURGE,
    P_RATING_GET,
    P_RATINGS_OF,
    P_RATING_HISTORY,
    P_PLAYER_GAMES,
    P_RATING_PUT,
    P_SEEK_PUT,
    P_SEEK_DROP,
    P_SEEKS_READ,
    P_SEEK_OWNER,
    P_ROLE_ENSURE,
    P_ROLE_GET,
    P_ROLE_SET,
    P_PAIRING_PUT,
    P_PAIRINGS_OF,
    P_PAIRING_DROP,
    P_RATING_HIST,
    P_DRILL_GET,
    P_DRILL_PUT,
    P_ONLINE,
    P_SWEEP_DEAD,
    P_SWEEP,
    NP
};

#define ROOM_COLS "code, game, options, config, seed, created_ms, finished, result "
/* Whether owner $3 (NULL: none, no lease checked) holds room $1's lease and
 * is alive. */
#define OURS                                                                                                  \
    "$3::text IS NULL OR EXISTS (SELECT 1 FROM leases l JOIN owners o ON o.owner = l.owner "                  \
    "WHERE l.room = $1 AND l.owner = $3 AND o.alive_until > clock_timestamp())"

static const struct {
    const char *sql;
    int nparams;
} pg_sql[NP] = {
    [P_ROOM_PUT] = {"INSERT INTO rooms(code, game, options, config, seed, created_ms) "
                    "VALUES ($1, $2, $3, $4, $5, $6)",
                    6},
    [P_NOTIFY] = {"SELECT pg_notify('parlour_rooms', $1)", 1},
    [P_LOCK] = {"SELECT finished FROM rooms WHERE code = $1 FOR UPDATE", 1},
    [P_LOCK_ROOMS] = {"SELECT 1 FROM rooms WHERE code = ANY($1::text[]) ORDER BY code FOR UPDATE", 1},
    /* $1..$5 the batch's columns, $6 its rooms in order of first appearance
     * and $7 the seq each starts at, $8 the owner (NULL: none). One row per
     * room of $6, in that order: finished (NULL: no such room), the room's
     * next seq, whether the lease is ours, and the rows written — all of them
     * when every room passed, else none. */
    [P_APPEND_BATCH] = {"WITH c AS (SELECT r.i, r.first, x.finished, "
                        "(SELECT coalesce(max(a.seq) + 1, 0) FROM actions a WHERE a.room = r.room) AS next, "
                        "$8::text IS NULL OR EXISTS (SELECT 1 FROM leases l JOIN owners o ON o.owner = l.owner "
                        "WHERE l.room = r.room AND l.owner = $8 AND o.alive_until > clock_timestamp()) AS ours "
                        "FROM unnest($6::text[], $7::bigint[]) WITH ORDINALITY AS r(room, first, i) "
                        "LEFT JOIN rooms x ON x.code = r.room), "
                        "ins AS (INSERT INTO actions(room, seq, seat, text, at_ms) "
                        "SELECT * FROM unnest($1::text[], $2::bigint[], $3::integer[], $4::text[], $5::bigint[]) "
                        "WHERE NOT EXISTS (SELECT 1 FROM c WHERE finished IS NOT false OR NOT ours OR next <> first) "
                        "RETURNING 1) "
                        "SELECT finished, next, ours, (SELECT count(*) FROM ins) FROM c ORDER BY i",
                        8},
    /* After P_LOCK: room $1 finished with result $2 and its NOTIFY sent when
     * it is not finished and owner $3's lease is alive (NULL: no owner);
     * answers whether the lease is ours and the rows changed. */
    [P_FINISH] = {"WITH c AS (SELECT " OURS " AS ours), "
                  "u AS (UPDATE rooms SET finished = true, result = $2 "
                  "WHERE code = $1 AND NOT finished AND (SELECT ours FROM c) RETURNING code) "
                  "SELECT (SELECT ours FROM c), (SELECT count(pg_notify('parlour_rooms', 'finished ' || code)) FROM u)",
                  3},
    /* After P_LOCK: room $1's configuration set to $2 when owner $3's lease
     * is alive; the same answers. */
    [P_CONFIG] = {"WITH c AS (SELECT " OURS " AS ours), "
                  "u AS (UPDATE rooms SET config = $2 WHERE code = $1 AND (SELECT ours FROM c) RETURNING 1) "
                  "SELECT (SELECT ours FROM c), (SELECT count(*) FROM u)",
                  3},
    [P_ROOMS_ALL] = {"SELECT " ROOM_COLS "FROM rooms ORDER BY created_ms, code", 0},
    [P_ROOMS_OPEN] = {"SELECT " ROOM_COLS "FROM rooms WHERE NOT finished ORDER BY created_ms, code", 0},
    [P_ROOM_GET] = {"SELECT " ROOM_COLS "FROM rooms WHERE code = $1", 1},
    [P_ACTIONS] = {"SELECT room, seq, seat, text, at_ms FROM actions WHERE room = $1 ORDER BY seq", 1},
    [P_COUNT] = {"SELECT (SELECT coalesce(max(seq) + 1, 0) FROM actions WHERE room = $1) FROM rooms WHERE code = $1", 1},
    /* Renews owner $1 until now + $2 ms with $3 connections (-1: the stored
     * count kept); says whether it was alive. */
    [P_BEAT] = {"WITH old AS (SELECT alive_until FROM owners WHERE owner = $1) "
                "INSERT INTO owners(owner, alive_until, conns) "
                "VALUES ($1, clock_timestamp() + $2::bigint * interval '1 millisecond', greatest($3::bigint, 0)) "
                "ON CONFLICT (owner) DO UPDATE SET alive_until = excluded.alive_until, "
                "conns = CASE WHEN $3::bigint < 0 THEN owners.conns ELSE excluded.conns END "
                "RETURNING coalesce((SELECT alive_until > clock_timestamp() FROM old), false)",
                3},
    [P_OWNER_ALIVE] = {"SELECT alive_until > clock_timestamp() FROM owners WHERE owner = $1", 1},
    [P_LEASE_GET] = {"SELECT l.owner, coalesce(o.alive_until > clock_timestamp(), false) FROM leases l "
                     "LEFT JOIN owners o ON o.owner = l.owner WHERE l.room = $1",
                     1},
    [P_LEASE_SET] = {"INSERT INTO leases(room, owner) VALUES ($1, $2) "
                     "ON CONFLICT (room) DO UPDATE SET owner = excluded.owner",
                     2},
    [P_LEASE_DROP] = {"DELETE FROM leases WHERE room = $1 AND owner = $2", 2},
    [P_ACC_PUT] = {"INSERT INTO accounts(name, folded, hash, created_ms) VALUES ($1, $2, $3, $4) "
                   "ON CONFLICT (folded) DO NOTHING RETURNING id",
                   4},
    [P_ACC_BY_NAME] = {"SELECT id, name, folded, hash, created_ms, private FROM accounts WHERE folded = $1", 1},
    [P_ACC_BY_ID] = {"SELECT id, name, folded, hash, created_ms, private FROM accounts WHERE id = $1", 1},
    [P_ACC_PRIVATE] = {"UPDATE accounts SET private = $2 WHERE id = $1", 2},
    [P_ACC_LOCK] = {"SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", 1},
    [P_ACC_HASH] = {"UPDATE accounts SET hash = $2 WHERE id = $1", 2},
    [P_ACC_REHASH] = {"UPDATE accounts SET hash = $3 WHERE id = $1 AND hash = $2", 3},
    [P_ACC_DELETE] = {"DELETE FROM accounts WHERE id = $1", 1},
    [P_ACC_ROOMS] = {"SELECT code, config FROM rooms WHERE config LIKE '" STORE_ACCOUNT_LIKE "' "
                     "ORDER BY code FOR UPDATE",
                     0},
    [P_ROOM_SET_CONFIG] = {"UPDATE rooms SET config = $2 WHERE code = $1", 2},
    [P_SES_PUT] = {"INSERT INTO sessions(hash, account, expires_ms) SELECT $1::text, id, $3::bigint FROM accounts WHERE id = $2", 3},
    [P_SES_GET] = {"SELECT account, expires_ms FROM sessions WHERE hash = $1", 1},
    [P_SES_RENEW] = {"UPDATE sessions SET expires_ms = $2 WHERE hash = $1 AND expires_ms < $2", 2},
    [P_SES_DROP] = {"DELETE FROM sessions WHERE hash = $1", 1},
    [P_SES_DROP_EXPIRED] = {"DELETE FROM sessions WHERE hash = $1 AND expires_ms <= $2", 2},
    [P_SES_DROP_OTHERS] = {"DELETE FROM sessions WHERE account = $1 AND hash IS DISTINCT FROM $2", 2},
    [P_SES_PURGE] = {"DELETE FROM sessions WHERE expires_ms <= $1", 1},
    [P_RATING_GET] = {"SELECT pool, rating, rd, sigma, games, updated_ms FROM ratings WHERE account = $1 AND pool = $2",
                      2},
    [P_RATINGS_OF] = {"SELECT pool, rating, rd, sigma, games, updated_ms FROM ratings WHERE account = $1 ORDER BY pool",
                      1},
    [P_RATING_HISTORY] = {"SELECT room, at_ms, rating_after, rd_after FROM rating_history WHERE account = $1 "
                          "AND pool = $2 ORDER BY at_ms, room",
                          2},
    [P_PLAYER_GAMES] = {"SELECT * FROM (SELECT r.code, r.game, r.options, r.result, r.config, "
                        "COALESCE((SELECT a.at_ms FROM actions a WHERE a.room = r.code ORDER BY a.seq DESC LIMIT 1), "
                        "0) AS fin, EXISTS(SELECT 1 FROM rating_history h WHERE h.account = $1 AND h.room = r.code) "
                        "FROM rooms r WHERE r.finished AND EXISTS(SELECT 1 FROM jsonb_array_elements(CASE WHEN "
                        "jsonb_typeof(r.config::jsonb -> 'seats') = 'array' THEN r.config::jsonb -> 'seats' ELSE "
                        "'[]'::jsonb END) e WHERE e ->> 'account' = $1::text)) t WHERE $3::bigint <= 0 OR "
                        "t.fin < $3::bigint ORDER BY t.fin DESC, t.code DESC LIMIT $2",
                        3},
    [P_SEEK_PUT] = {"INSERT INTO seeks(id, owner, pool, game, options, name, account, players, rating, rd, made_ms, "
                    "after_s, widest) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) "
                    "ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, pool = excluded.pool, "
                    "game = excluded.game, options = excluded.options, name = excluded.name, "
                    "account = excluded.account, players = excluded.players, rating = excluded.rating, "
                    "rd = excluded.rd, made_ms = excluded.made_ms, after_s = excluded.after_s, "
                    "widest = excluded.widest",
                    13},
    [P_SEEK_DROP] = {"DELETE FROM seeks WHERE id = $1", 1},
    [P_SEEKS_READ] = {"SELECT s.id, s.owner, s.pool, s.game, s.options, s.name, s.account, s.players, s.rating, s.rd, "
                      "s.made_ms, s.after_s, s.widest FROM seeks s JOIN owners o ON o.owner = s.owner "
                      "WHERE o.alive_until > clock_timestamp() ORDER BY s.id",
                      0},
    [P_SEEK_OWNER] = {"SELECT owner FROM seeks WHERE id = $1 FOR UPDATE", 1},
    [P_ROLE_ENSURE] = {"INSERT INTO roles(name, owner) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", 2},
    [P_ROLE_GET] = {"SELECT r.owner, coalesce((SELECT o.alive_until > clock_timestamp() FROM owners o "
                    "WHERE o.owner = r.owner), false) FROM roles r WHERE r.name = $1 FOR UPDATE",
                    1},
    [P_ROLE_SET] = {"UPDATE roles SET owner = $2 WHERE name = $1", 2},
    [P_PAIRING_PUT] = {"INSERT INTO pairings(seek, owner, room, seat, token, pool, game, computer, rated) "
                       "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (seek) DO UPDATE SET "
                       "owner = excluded.owner, room = excluded.room, seat = excluded.seat, token = excluded.token, "
                       "pool = excluded.pool, game = excluded.game, computer = excluded.computer, "
                       "rated = excluded.rated",
                       9},
    [P_PAIRINGS_OF] = {"SELECT seek, room, token, pool, game, seat, computer, rated FROM pairings WHERE owner = $1 "
                       "ORDER BY seek",
                       1},
    [P_PAIRING_DROP] = {"DELETE FROM pairings WHERE seek = $1 AND owner = $2", 2},
    [P_RATING_PUT] = {"INSERT INTO ratings(account, pool, rating, rd, sigma, games, updated_ms) "
                      "VALUES ($1, $2, $3, $4, $5, 1, $6) ON CONFLICT (account, pool) DO UPDATE SET "
                      "rating = excluded.rating, rd = excluded.rd, sigma = excluded.sigma, "
                      "games = ratings.games + 1, updated_ms = excluded.updated_ms",
                      6},
    [P_RATING_HIST] = {"INSERT INTO rating_history(account, pool, room, at_ms, rating_before, rd_before, "
                       "rating_after, rd_after) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                       8},
    [P_DRILL_GET] = {"SELECT record, updated_ms FROM drills WHERE account = $1", 1},
    [P_DRILL_PUT] = {"INSERT INTO drills(account, record, updated_ms) SELECT id, $2::text, $3::bigint FROM accounts "
                     "WHERE id = $1 ON CONFLICT (account) DO UPDATE SET record = excluded.record, "
                     "updated_ms = excluded.updated_ms",
                     3},
    /* The live owners' connections, owner $1's excepted. */
    [P_ONLINE] = {"SELECT coalesce(sum(conns), 0) FROM owners WHERE alive_until > clock_timestamp() AND owner <> $1",
                  1},
    /* Whether an owner's heartbeat ended more than $1 ms ago: the sweep's
     * usual answer (none) in one indexed read, without planning the next. */
    [P_SWEEP_DEAD] = {"SELECT count(*) FROM (SELECT 1 FROM owners "
                      "WHERE alive_until < clock_timestamp() - $1::bigint * interval '1 millisecond' LIMIT 1) d",
                      1},
    /* The sweep (store_seeks_sweep), one statement on indexes: the owner
     * dead longest, if its heartbeat ended more than $1 ms ago (its row
     * locked: a beat of that owner waits and then finds it expired); at most
     * $2 of its seeks and of its pairings; its row once none of either is
     * left. Answers the rows deleted. */
    [P_SWEEP] = {"WITH d AS (SELECT owner FROM owners "
                 "WHERE alive_until < clock_timestamp() - $1::bigint * interval '1 millisecond' "
                 "ORDER BY alive_until LIMIT 1 FOR UPDATE SKIP LOCKED), "
                 "s AS (DELETE FROM seeks WHERE id IN (SELECT id FROM seeks WHERE owner IN (SELECT owner FROM d) "
                 "LIMIT $2::bigint) RETURNING 1), "
                 "p AS (DELETE FROM pairings WHERE seek IN (SELECT seek FROM pairings "
                 "WHERE owner IN (SELECT owner FROM d) LIMIT $2::bigint) RETURNING 1), "
                 "o AS (DELETE FROM owners WHERE owner IN (SELECT owner FROM d) "
                 "AND (SELECT count(*) FROM s) < $2::bigint AND (SELECT count(*) FROM p) < $2::bigint RETURNING 1) "
                 "SELECT (SELECT count(*) FROM s) + (SELECT count(*) FROM p) + (SELECT count(*) FROM o)",
                 2},
};

typedef struct {
    store base;
    PGconn *conn;
    int prepared;  /* the statements exist on this connection */
    int listening; /* LISTEN parlour_rooms ran on this connection */
    int broken;    /* a pipeline could not be left: reopen before the next call */
    char state[6]; /* the SQLSTATE of the last pipeline's failure, or "" */
} pg_store;

static pg_store *pg(store *s)
{
    return (pg_store *)s;
}

/* "store: what: PostgreSQL's message" into err (its last line's newline
 * dropped); returns -1. */
static int fail(pg_store *s, const char *what, const PGresult *r, pl_buf *err)
{
    const char *m = r ? PQresultErrorMessage(r) : "";
    if (!*m)
        m = PQerrorMessage(s->conn);
    size_t n = strlen(m);
    while (n && (m[n - 1] == '\n' || m[n - 1] == ' '))
        n--;
    pl_buf_printf(err, "store: %s: %.*s", what, (int)n, m);
    return -1;
}

/* Runs constant SQL (transaction control, LISTEN): 0 or -1. */
static int run(pg_store *s, const char *sql, const char *what, pl_buf *err)
{
    PGresult *r = PQexec(s->conn, sql);
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
    int rc = ok ? 0 : fail(s, what, r, err);
    PQclear(r);
    return rc;
}

/* Runs prepared statement q with params p; the result (free it with
 * PQclear) when it succeeded, else NULL with a message. */
static PGresult *call(pg_store *s, int q, const char *const *p, const char *what, pl_buf *err)
{
    char name[8];
    snprintf(name, sizeof name, "p%d", q);
    PGresult *r = PQexecPrepared(s->conn, name, pg_sql[q].nparams, p, NULL, NULL, 0);
    ExecStatusType st = PQresultStatus(r);
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)
        return r;
    fail(s, what, r, err);
    PQclear(r);
    return NULL;
}

static int prepare_all(pg_store *s, pl_buf *err)
{
    for (int i = 0; i < NP; i++) {
        char name[8];
        snprintf(name, sizeof name, "p%d", i);
        PGresult *r = PQprepare(s->conn, name, pg_sql[i].sql, pg_sql[i].nparams, NULL);
        int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        if (!ok)
            fail(s, "preparing a statement", r, err);
        PQclear(r);
        if (!ok)
            return -1;
    }
    s->prepared = 1;
    return 0;
}

/* Brings the database to the last version of schema/pg.sql. */
static int migrate(pg_store *s, pl_buf *err)
{
    int last = store_schema_last(store_schema_pg);
    if (run(s, "BEGIN", "starting a transaction", err) < 0)
        return -1;
    /* One migration at a time across processes (the key is arbitrary). */
    int rc = run(s, "SELECT pg_advisory_xact_lock(7170017)", "locking the schema", err);
    int v = -1;
    if (rc == 0) {
        /* A query naming a missing table fails even in a branch not taken:
         * ask whether meta exists first. */
        PGresult *r = PQexec(s->conn, "SELECT to_regclass('meta') IS NOT NULL");
        int has = PQresultStatus(r) == PGRES_TUPLES_OK && PQgetvalue(r, 0, 0)[0] == 't';
        PQclear(r);
        r = PQexec(s->conn, has ? "SELECT value FROM meta WHERE key = 'schema'" : "SELECT '0'");
        if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1 || PQgetisnull(r, 0, 0)) {
            rc = PQresultStatus(r) == PGRES_TUPLES_OK
                     ? (pl_buf_puts(err, "store: the meta table has no schema version"), -1)
                     : fail(s, "reading the schema version", r, err);
        } else {
            char *e;
            const char *t = PQgetvalue(r, 0, 0);
            long n = strtol(t, &e, 10);
            if (!*t || *e || n < 0 || n > 1000000) {
                pl_buf_printf(err, "store: schema version '%s' is not a version", t);
                rc = -1;
            }
            v = (int)n;
        }
        PQclear(r);
    }
    if (rc == 0 && v > last) {
        pl_buf_printf(err, "store: schema version %d, this program reads versions up to %d", v, last);
        rc = -1;
    }
    pl_buf sql = {0};
    for (int k = v + 1; rc == 0 && k <= last; k++) {
        pl_buf_clear(&sql);
        if (store_schema_section(store_schema_pg, k, &sql) < 0 || sql.oom) {
            pl_buf_printf(err, "store: no schema section %d", k);
            rc = -1;
        } else {
            rc = run(s, pl_buf_str(&sql), "migrating the schema", err);
        }
    }
    pl_buf_free(&sql);
    if (rc == 0 && v < last) {
        char num[16];
        snprintf(num, sizeof num, "%d", last);
        const char *p[1] = {num};
        PGresult *r = PQexecParams(s->conn,
                                   "INSERT INTO meta(key, value) VALUES ('schema', $1) "
                                   "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                                   1, NULL, p, NULL, NULL, 0);
        if (PQresultStatus(r) != PGRES_COMMAND_OK)
            rc = fail(s, "writing the schema version", r, err);
        PQclear(r);
    }
    if (rc == 0)
        return run(s, "COMMIT", "committing the schema", err);
    pl_buf e2 = {0};
    run(s, "ROLLBACK", "rolling back", &e2);
    pl_buf_free(&e2);
    return -1;
}

static const store_ops pg_ops;

/* Notices (e.g. "relation exists, skipping") are not for the server's log. */
static void quiet(void *arg, const char *message)
{
    (void)arg, (void)message;
}

store *store_pg_open(const char *url, pl_buf *err)
{
    pg_store *s = pl_calloc(1, sizeof *s);
    if (!s) {
        pl_buf_puts(err, "out of memory");
        return NULL;
    }
    s->base.ops = &pg_ops;
    s->conn = PQconnectdb(url);
    if (!s->conn || PQstatus(s->conn) != CONNECTION_OK) {
        const char *m = s->conn ? PQerrorMessage(s->conn) : "out of memory";
        size_t n = strlen(m);
        while (n && m[n - 1] == '\n')
            n--;
        /* The URL may hold a password: name the database by its parts. */
        pl_buf_printf(err, "store: cannot connect to PostgreSQL database '%s' on '%s': %.*s",
                      s->conn ? PQdb(s->conn) : "?", s->conn && PQhost(s->conn) ? PQhost(s->conn) : "?",
                      (int)n, m);
        store_close(&s->base);
        return NULL;
    }
    PQsetNoticeProcessor(s->conn, quiet, NULL);
    if (run(s, "SET synchronous_commit = on", "setting synchronous_commit", err) < 0 || migrate(s, err) < 0 ||
        prepare_all(s, err) < 0) {
        store_close(&s->base);
        return NULL;
    }
    return &s->base;
}

static void pg_close(store *base)
{
    pg_store *s = pg(base);
    PQfinish(s->conn);
    pl_free(s);
}

/* Before each call: a connection that broke is opened again (its prepared
 * statements with it). 0, or -1 with a message. */
static int ready(pg_store *s, pl_buf *err)
{
    if (PQstatus(s->conn) == CONNECTION_OK && !s->broken)
        return 0;
    PQreset(s->conn);
    s->prepared = s->listening = s->broken = 0;
    if (PQstatus(s->conn) != CONNECTION_OK)
        return fail(s, "reconnecting", NULL, err);
    if (run(s, "SET synchronous_commit = on", "setting synchronous_commit", err) < 0)
        return -1;
    return prepare_all(s, err);
}

static int begin(pg_store *s, pl_buf *err)
{
    if (ready(s, err) < 0)
        return -1;
    return run(s, "BEGIN", "starting a transaction", err);
}

/* Ends a transaction: commits when rc is 0 (-1 if that fails), else rolls
 * back keeping err's first message; returns rc otherwise. */
static int end(pg_store *s, int rc, pl_buf *err)
{
    if (rc == 0)
        return run(s, "COMMIT", "committing", err);
    if (PQtransactionStatus(s->conn) != PQTRANS_IDLE) {
        pl_buf e2 = {0};
        run(s, "ROLLBACK", "rolling back", &e2);
        pl_buf_free(&e2);
    }
    return rc;
}

/* Inside a transaction: locks room code's row. 0 unfinished, 1 finished,
 * -1 no such room or error (message). */
static int lock_room(pg_store *s, const char *code, pl_buf *err)
{
    const char *p[1] = {code};
    PGresult *r = call(s, P_LOCK, p, "locking a room", err);
    if (!r)
        return -1;
    int st = PQntuples(r) == 1 ? PQgetvalue(r, 0, 0)[0] == 't' : -1;
    PQclear(r);
    if (st < 0)
        pl_buf_printf(err, "store: no room '%s'", code);
    return st;
}

static int exec_ok(pg_store *s, int q, const char *const *p, const char *what, pl_buf *err)
{
    PGresult *r = call(s, q, p, what, err);
    PQclear(r);
    return r ? 0 : -1;
}

/* Runs prepared statement q, whose one parameter is an account id, after
 * ready(): its result (the caller PQclears it), or NULL with err set. */
static PGresult *call_account(pg_store *s, int q, int64_t account, const char *what, pl_buf *err)
{
    if (ready(s, err) < 0)
        return NULL;
    char acc[24];
    snprintf(acc, sizeof acc, "%" PRId64, account);
    const char *p[1] = {acc};
    return call(s, q, p, what, err);
}

/* exec_ok after ready(): connects again first if need be. 0 or -1. */
static int exec_ready(pg_store *s, int q, const char *const *p, const char *what, pl_buf *err)
{
    return ready(s, err) < 0 ? -1 : exec_ok(s, q, p, what, err);
}

/* Reads row i of r and hands it to the caller's callback, which `cb` points
 * at (a store_*_fn); gives the callback's return. */
typedef int (*pg_row_fn)(PGresult *r, int i, const void *cb, void *ctx);

/* Runs prepared statement q (connecting again first if need be) and hands
 * each row of its answer to row(r, i, cb, ctx); stops at the first nonzero
 * return and gives it back. 0 after the last row, or -1 with err set. */
static int walk_rows(pg_store *s, int q, const char *const *p, pg_row_fn row, const void *cb, void *ctx,
                     const char *what, pl_buf *err)
{
    if (ready(s, err) < 0)
        return -1;
    PGresult *r = call(s, q, p, what, err);
    if (!r)
        return -1;
    int n = PQntuples(r), ret = 0;
    for (int i = 0; i < n && ret == 0; i++)
        ret = row(r, i, cb, ctx);
    PQclear(r);
    return ret;
}

/* Runs prepared statements q[0..k), with parameters p[0..k), in one round
 * trip and one transaction: libpq's pipeline mode, no BEGIN, so the
 * statements up to the pipeline's sync are the implicit transaction that
 * the sync commits; its answer comes only once the commit is durable
 * (synchronous_commit). Each statement has a snapshot of its own (READ
 * COMMITTED), so a statement sees what committed while an earlier one
 * waited for a lock. Returns 0 with each statement's result in out[0..k)
 * (free them with PQclear), or -1 with the first failure's message, its
 * SQLSTATE in s->state, nothing in out and nothing committed. A connection
 * left in a state this cannot recover is reopened by the next call (ready). */
static int pipeline(pg_store *s, int k, const int *q, const char *const *const *p, PGresult **out,
                    const char *what, pl_buf *err)
{
    s->state[0] = '\0';
    for (int i = 0; i < k; i++)
        out[i] = NULL;
    if (!PQenterPipelineMode(s->conn))
        return fail(s, what, NULL, err);
    int sent = 0, ok = 1;
    for (int i = 0; i < k && ok; i++) {
        char name[8];
        snprintf(name, sizeof name, "p%d", q[i]);
        ok = PQsendQueryPrepared(s->conn, name, pg_sql[q[i]].nparams, p[i], NULL, NULL, 0);
        sent += ok;
    }
    ok = ok && PQpipelineSync(s->conn) && PQflush(s->conn) == 0;
    int failed = !ok;
    if (failed)
        fail(s, what, NULL, err);
    PGresult *r;
    for (int i = 0; i < sent; i++) /* a statement's results end with a NULL */
        while ((r = PQgetResult(s->conn))) {
            ExecStatusType st = PQresultStatus(r);
            if (!failed && st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
                const char *code = PQresultErrorField(r, PG_DIAG_SQLSTATE);
                snprintf(s->state, sizeof s->state, "%s", code ? code : "");
                failed = 1;
                fail(s, what, r, err);
            }
            if (!failed && !out[i])
                out[i] = r;
            else
                PQclear(r);
        }
    int synced = 0;
    for (int guard = 0; ok && !synced && guard < 8; guard++) { /* the sync: the commit's answer */
        r = PQgetResult(s->conn);
        if (!r) {
            if (PQstatus(s->conn) != CONNECTION_OK)
                break;
            continue;
        }
        if (PQresultStatus(r) == PGRES_PIPELINE_SYNC) {
            synced = 1;
        } else if (!failed) {
            failed = 1;
            fail(s, what, r, err);
        }
        PQclear(r);
    }
    if (ok && !synced && !failed) {
        failed = 1;
        fail(s, what, NULL, err);
    }
    if (!PQexitPipelineMode(s->conn))
        s->broken = 1;
    if (!failed)
        return 0;
    for (int i = 0; i < k; i++) {
        PQclear(out[i]);
        out[i] = NULL;
    }
    return -1;
}

/* The text of "WHAT CODE" for a NOTIFY into b; 0, or -1 (out of memory). */
static int note_text(pl_buf *b, const char *what, const char *code, pl_buf *err)
{
    pl_buf_printf(b, "%s %s", what, code);
    if (!b->oom)
        return 0;
    pl_buf_puts(err, "out of memory");
    return -1;
}

/* One round trip: the row (a code taken fails the INSERT: nothing else
 * runs), its lease for this handle's owner, the NOTIFY. */
static int pg_room_put(store *base, const store_room *r, pl_buf *err)
{
    pg_store *s = pg(base);
    if (ready(s, err) < 0)
        return -1;
    char seed[24], created[24];
    snprintf(seed, sizeof seed, "%" PRId64, (int64_t)r->seed);
    snprintf(created, sizeof created, "%" PRId64, r->created_ms);
    pl_buf note = {0}, e = {0};
    if (note_text(&note, "created", r->code, err) < 0) {
        pl_buf_free(&note);
        return -1;
    }
    const char *put_p[6] = {r->code, r->game, r->options, r->config, seed, created};
    const char *lease_p[2] = {r->code, s->base.owner};
    const char *note_p[1] = {pl_buf_str(&note)};
    int owned = s->base.owner[0] != '\0'; /* its creator holds it */
    int q[3] = {P_ROOM_PUT, owned ? P_LEASE_SET : P_NOTIFY, P_NOTIFY};
    const char *const *p[3] = {put_p, owned ? lease_p : note_p, note_p};
    PGresult *out[3];
    int rc = pipeline(s, 2 + owned, q, p, out, "adding a room", &e);
    if (rc < 0 && !strcmp(s->state, "23505")) /* unique_violation */
        pl_buf_printf(err, "store: a room '%s' exists already", r->code);
    else if (rc < 0)
        pl_buf_puts(err, pl_buf_str(&e));
    for (int i = 0; rc == 0 && i < 2 + owned; i++)
        PQclear(out[i]);
    pl_buf_free(&note);
    pl_buf_free(&e);
    return rc;
}

/* One action of a batch by room, then by its place in the batch. */
typedef struct {
    const char *room;
    int i;
} batch_ix;

static int batch_ix_cmp(const void *x, const void *y)
{
    const batch_ix *a = x, *b = y;
    int c = strcmp(a->room, b->room);
    return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* Checks what the batch a[0..n) says of itself: each room's actions follow
 * one another (seq + 1, in batch order, runs of a room may be interleaved
 * with other rooms'), and marks head[i] = 1 at each room's first action.
 * 0, or -1 with the message of the earliest action out of order. O(n log n). */
static int batch_runs(const store_action *a, int n, unsigned char *head, pl_buf *err)
{
    batch_ix *ix = pl_malloc(sizeof *ix * (size_t)n);
    if (!ix) {
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    for (int i = 0; i < n; i++)
        ix[i] = (batch_ix){a[i].room, i};
    qsort(ix, (size_t)n, sizeof *ix, batch_ix_cmp);
    int bad = -1;
    int64_t want = 0;
    for (int k = 0; k < n; k++) {
        int i = ix[k].i;
        if (k == 0 || strcmp(ix[k].room, ix[k - 1].room))
            head[i] = 1;
        else if (a[i].seq != a[ix[k - 1].i].seq + 1 && (bad < 0 || i < bad)) {
            bad = i;
            want = a[ix[k - 1].i].seq + 1;
        }
    }
    pl_free(ix);
    if (bad < 0)
        return 0;
    pl_buf_printf(err, "store: room '%s': action %lld expected, not %lld", a[bad].room, (long long)want,
                  (long long)a[bad].seq);
    return -1;
}

/* Appends text t to the array literal in b as one element: quoted, with a
 * backslash before each '"' and '\' (PostgreSQL's array syntax); a comma
 * first unless it is the first element. */
static void array_text(pl_buf *b, const char *t, int first)
{
    if (!first)
        pl_buf_putc(b, ',');
    pl_buf_putc(b, '"');
    for (;;) { /* the runs between the characters to escape, each in one copy */
        size_t k = strcspn(t, "\"\\");
        pl_buf_append(b, t, k);
        if (!t[k])
            break;
        pl_buf_putc(b, '\\');
        pl_buf_putc(b, t[k]);
        t += k + 1;
    }
    pl_buf_putc(b, '"');
}

static void array_int(pl_buf *b, int64_t v, int first)
{
    pl_buf_printf(b, first ? "%" PRId64 : ",%" PRId64, v);
}

/* Row k of P_APPEND_BATCH's answer, for room `code` whose actions in the
 * batch start at seq `first`: 0, STORE_LOST, or -1 with a message. */
static int batch_room_ok(pg_store *s, const PGresult *r, int k, const char *code, int64_t first, pl_buf *err)
{
    if (PQgetisnull(r, k, 0)) {
        pl_buf_printf(err, "store: no room '%s'", code);
        return -1;
    }
    if (PQgetvalue(r, k, 0)[0] == 't') {
        pl_buf_printf(err, "store: room '%s' is finished", code);
        return -1;
    }
    if (PQgetvalue(r, k, 2)[0] != 't')
        return store_lost(&s->base, code, err);
    int64_t next = strtoll(PQgetvalue(r, k, 1), NULL, 10);
    if (next == first)
        return 0;
    pl_buf_printf(err, "store: room '%s': action %lld expected, not %lld", code, (long long)next, (long long)first);
    return -1;
}

/* A batch in two statements and one round trip (pipeline): its rooms' rows
 * locked in code order (two writers of overlapping batches cannot
 * deadlock), then, with a snapshot taken after the lock, every check and
 * every row in one INSERT ... SELECT FROM unnest(arrays) that writes all or
 * nothing; the checks' answers say which failed. */
static int pg_append(store *base, const store_action *a, int n, pl_buf *err)
{
    pg_store *s = pg(base);
    unsigned char *head = pl_calloc((size_t)n, 1);
    if (!head) {
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    if (batch_runs(a, n, head, err) < 0 || ready(s, err) < 0) {
        pl_free(head);
        return -1;
    }
    enum { ROOM, SEQ, SEAT, TEXT, AT, ROOMS, FIRSTS, NCOL };
    pl_buf col[NCOL] = {{0}};
    for (int c = 0; c < NCOL; c++)
        pl_buf_putc(&col[c], '{');
    int nrooms = 0, oom = 0;
    for (int i = 0; i < n; i++) {
        array_text(&col[ROOM], a[i].room, i == 0);
        array_int(&col[SEQ], a[i].seq, i == 0);
        array_int(&col[SEAT], a[i].seat, i == 0);
        array_text(&col[TEXT], a[i].text, i == 0);
        array_int(&col[AT], a[i].at_ms, i == 0);
        if (head[i]) {
            array_text(&col[ROOMS], a[i].room, nrooms == 0);
            array_int(&col[FIRSTS], a[i].seq, nrooms == 0);
            nrooms++;
        }
    }
    for (int c = 0; c < NCOL; c++) {
        pl_buf_putc(&col[c], '}');
        oom |= col[c].oom;
    }
    int rc = -1;
    if (oom) {
        pl_buf_puts(err, "out of memory");
        goto done;
    }
    const char *lock_p[1] = {pl_buf_str(&col[ROOMS])};
    const char *ins_p[8] = {pl_buf_str(&col[ROOM]), pl_buf_str(&col[SEQ]),    pl_buf_str(&col[SEAT]),
                            pl_buf_str(&col[TEXT]), pl_buf_str(&col[AT]),     pl_buf_str(&col[ROOMS]),
                            pl_buf_str(&col[FIRSTS]), s->base.owner[0] ? s->base.owner : NULL};
    const int q[2] = {P_LOCK_ROOMS, P_APPEND_BATCH};
    const char *const *p[2] = {lock_p, ins_p};
    PGresult *out[2];
    if (pipeline(s, 2, q, p, out, "appending actions", err) < 0)
        goto done;
    PQclear(out[0]);
    PGresult *r = out[1];
    if (PQntuples(r) != nrooms) {
        pl_buf_printf(err, "store: appending actions: %d answers for %d rooms", PQntuples(r), nrooms);
        PQclear(r);
        goto done;
    }
    rc = 0;
    for (int i = 0, k = 0; i < n && rc == 0; i++) /* the first room that failed, in batch order */
        if (head[i])
            rc = batch_room_ok(s, r, k++, a[i].room, a[i].seq, err);
    if (rc == 0 && strtoll(PQgetvalue(r, 0, 3), NULL, 10) != n) {
        pl_buf_printf(err, "store: appending actions: %s of %d written", PQgetvalue(r, 0, 3), n);
        rc = -1;
    }
    PQclear(r);
done:
    for (int c = 0; c < NCOL; c++)
        pl_buf_free(&col[c]);
    pl_free(head);
    return rc;
}

/* One round trip for a finish (P_FINISH) or a configuration (P_CONFIG) of
 * room `code`: the room's row locked, then the checked change. `finish`: a
 * finished room is refused. 0, STORE_LOST, or -1 with a message. */
static int change_room(pg_store *s, int q, const char *code, const char *text, int finish, const char *what,
                       pl_buf *err)
{
    if (ready(s, err) < 0)
        return -1;
    const char *lock_p[1] = {code};
    const char *change_p[3] = {code, text, s->base.owner[0] ? s->base.owner : NULL};
    const int qs[2] = {P_LOCK, q};
    const char *const *p[2] = {lock_p, change_p};
    PGresult *out[2];
    if (pipeline(s, 2, qs, p, out, what, err) < 0)
        return -1;
    int rc = 0;
    if (PQntuples(out[0]) != 1) {
        rc = -1;
        pl_buf_printf(err, "store: no room '%s'", code);
    } else if (finish && PQgetvalue(out[0], 0, 0)[0] == 't') {
        rc = -1;
        pl_buf_printf(err, "store: room '%s' is finished already", code);
    } else if (PQgetvalue(out[1], 0, 0)[0] != 't') {
        rc = store_lost(&s->base, code, err);
    } else if (strcmp(PQgetvalue(out[1], 0, 1), "1")) {
        rc = -1;
        pl_buf_printf(err, "store: %s: room '%s' was not changed", what, code);
    }
    PQclear(out[0]);
    PQclear(out[1]);
    return rc;
}

static int pg_rating_get(store *base, int64_t account, const char *pool, store_rating *out, pl_buf *err);
static int lock_account(pg_store *s, const char *id, pl_buf *err);

static int id_cmp(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* A rated finish in one transaction: the room's row locked, then the
 * accounts' rows in id order (so two rooms finishing at once with a player
 * in common wait for each other and never deadlock), their ratings read,
 * the updates computed and written with their history, and the room
 * finished (lease checked, NOTIFY sent). 0, STORE_LOST or -1. */
static int rated_finish(pg_store *s, const char *code, const char *result, store_rated *r, pl_buf *err)
{
    if (begin(s, err) < 0)
        return -1;
    int st = lock_room(s, code, err), rc = st == 0 ? 0 : -1;
    if (st == 1)
        pl_buf_printf(err, "store: room '%s' is finished already", code);
    int64_t ids[PL_MAX_SEATS];
    int nid = 0;
    for (int i = 0; i < r->n; i++)
        if (r->seats[i].account > 0)
            ids[nid++] = r->seats[i].account;
    qsort(ids, (size_t)nid, sizeof ids[0], id_cmp);
    for (int i = 0; rc == 0 && i < nid; i++) {
        char t[24];
        snprintf(t, sizeof t, "%" PRId64, ids[i]);
        int lk = lock_account(s, t, err);
        if (lk == 1)
            pl_buf_printf(err, "store: no account %s", t);
        rc = lk == 0 ? 0 : -1;
    }
    store_rating stored[PL_MAX_SEATS];
    for (int i = 0; rc == 0 && i < r->n; i++) {
        memset(&stored[i], 0, sizeof stored[i]);
        stored[i].g = STORE_RATING_NEW;
        if (r->seats[i].account > 0 && pg_rating_get(&s->base, r->seats[i].account, r->pool, &stored[i], err) < 0)
            rc = -1;
    }
    if (rc == 0)
        rc = store_rated_compute(r, stored, err);
    for (int i = 0; rc == 0 && i < r->n; i++) {
        const store_rated_seat *x = &r->seats[i];
        if (x->account <= 0)
            continue;
        char acc[24], at[24], ra[32], rd[32], sg[32], rb[32], db[32];
        snprintf(acc, sizeof acc, "%" PRId64, x->account);
        snprintf(at, sizeof at, "%" PRId64, r->now_ms);
        snprintf(ra, sizeof ra, "%.17g", x->after.rating);
        snprintf(rd, sizeof rd, "%.17g", x->after.deviation);
        snprintf(sg, sizeof sg, "%.17g", x->after.volatility);
        snprintf(rb, sizeof rb, "%.17g", x->before.rating);
        snprintf(db, sizeof db, "%.17g", x->before.deviation);
        const char *pp[6] = {acc, r->pool, ra, rd, sg, at};
        const char *hp[8] = {acc, r->pool, code, at, rb, db, ra, rd};
        if (exec_ok(s, P_RATING_PUT, pp, "writing a rating", err) < 0 ||
            exec_ok(s, P_RATING_HIST, hp, "writing a rating's history", err) < 0)
            rc = -1;
    }
    if (rc == 0) {
        const char *fp[3] = {code, result, s->base.owner[0] ? s->base.owner : NULL};
        PGresult *f = call(s, P_FINISH, fp, "finishing a room", err);
        if (!f)
            rc = -1;
        else if (PQgetvalue(f, 0, 0)[0] != 't')
            rc = store_lost(&s->base, code, err);
        else if (strcmp(PQgetvalue(f, 0, 1), "1")) {
            rc = -1;
            pl_buf_printf(err, "store: finishing a room: room '%s' was not changed", code);
        }
        PQclear(f);
    }
    return end(s, rc, err);
}

static int pg_finish(store *base, const char *code, const char *result, store_rated *r, pl_buf *err)
{
    if (r)
        return rated_finish(pg(base), code, result, r, err);
    return change_room(pg(base), P_FINISH, code, result, 1, "finishing a room", err);
}

static int pg_room_config(store *base, const char *code, const char *config, pl_buf *err)
{
    return change_room(pg(base), P_CONFIG, code, config, 0, "changing a room's configuration", err);
}

/* Calls fn for each row of a ROOM_COLS result; *n counts them. */
static int walk_rooms(PGresult *r, store_room_fn fn, void *ctx, int *n)
{
    int rows = PQntuples(r), ret = 0;
    for (int i = 0; i < rows && ret == 0; i++) {
        store_room room = {
            .code = PQgetvalue(r, i, 0),
            .game = PQgetvalue(r, i, 1),
            .options = PQgetvalue(r, i, 2),
            .config = PQgetvalue(r, i, 3),
            .seed = (uint64_t)strtoll(PQgetvalue(r, i, 4), NULL, 10),
            .created_ms = strtoll(PQgetvalue(r, i, 5), NULL, 10),
        };
        int finished = PQgetvalue(r, i, 6)[0] == 't';
        const char *result = PQgetisnull(r, i, 7) ? NULL : PQgetvalue(r, i, 7);
        ++*n;
        ret = fn(ctx, &room, finished, result);
    }
    return ret;
}

static int pg_rooms(store *base, int unfinished_only, store_room_fn fn, void *ctx, pl_buf *err)
{
    pg_store *s = pg(base);
    if (ready(s, err) < 0)
        return -1;
    PGresult *r = call(s, unfinished_only ? P_ROOMS_OPEN : P_ROOMS_ALL, NULL, "reading rooms", err);
    if (!r)
        return -1;
    int n = 0, ret = walk_rooms(r, fn, ctx, &n);
    PQclear(r);
    return ret;
}

static int pg_room_get(store *base, const char *code, store_room_fn fn, void *ctx, pl_buf *err)
{
    pg_store *s = pg(base);
    if (ready(s, err) < 0)
        return -1;
    const char *p[1] = {code};
    PGresult *r = call(s, P_ROOM_GET, p, "reading a room", err);
    if (!r)
        return -1;
    int n = 0, ret = walk_rooms(r, fn, ctx, &n);
    PQclear(r);
    return ret == 0 && n == 0 ? 1 : ret;
}

/* The number of actions of room code, or -1 (no such room: message). */
static int64_t count(pg_store *s, const char *code, pl_buf *err)
{
    const char *p[1] = {code};
    PGresult *r = call(s, P_COUNT, p, "counting actions", err);
    if (!r)
        return -1;
    int64_t n = PQntuples(r) == 1 ? strtoll(PQgetvalue(r, 0, 0), NULL, 10) : -1;
    PQclear(r);
    if (n < 0)
        pl_buf_printf(err, "store: no room '%s'", code);
    return n;
}

static int pg_actions(store *base, const char *code, store_action_fn fn, void *ctx, pl_buf *err)
{
    pg_store *s = pg(base);
    if (ready(s, err) < 0)
        return -1;
    /* One snapshot for the room's existence and its history. */
    if (run(s, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", "starting a transaction", err) < 0)
        return -1;
    if (count(s, code, err) < 0)
        return end(s, -1, err);
    const char *p[1] = {code};
    PGresult *r = call(s, P_ACTIONS, p, "reading actions", err);
    if (!r)
        return end(s, -1, err);
    int rows = PQntuples(r), ret = 0;
    for (int i = 0; i < rows && ret == 0; i++) {
        store_action a = {
            .room = PQgetvalue(r, i, 0),
            .seq = strtoll(PQgetvalue(r, i, 1), NULL, 10),
            .seat = atoi(PQgetvalue(r, i, 2)),
            .text = PQgetvalue(r, i, 3),
            .at_ms = strtoll(PQgetvalue(r, i, 4), NULL, 10),
        };
        ret = fn(ctx, &a);
    }
    PQclear(r);
    if (end(s, 0, err) < 0)
        return -1;
    return ret;
}

static int64_t pg_count(store *base, const char *code, pl_buf *err)
{
    pg_store *s = pg(base);
    if (ready(s, err) < 0)
        return -1;
    return count(s, code, err);
}

static int pg_owner_beat(store *base, int64_t ttl_ms, int64_t conns, pl_buf *err)
{
    pg_store *s = pg(base);
    if (ready(s, err) < 0)
        return -1;
    char ttl[24], cn[24];
    snprintf(ttl, sizeof ttl, "%" PRId64, ttl_ms);
    snprintf(cn, sizeof cn, "%" PRId64, conns);
    const char *p[3] = {s->base.owner, ttl, cn};
    PGresult *r = call(s, P_BEAT, p, "writing a heartbeat", err);
    if (!r)
        return -1;
    int was = PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    return was;
}

static int pg_lease_take(store *base, const char *code, pl_buf *holder, pl_buf *err)
{
    pg_store *s = pg(base);
    if (begin(s, err) < 0)
        return -1;
    /* The room's row lock orders this take with every write of the room and
     * with other takes: whoever comes second sees the first's lease. */
    int rc = lock_room(s, code, err) >= 0 ? 0 : -1, granted = 1;
    if (rc == 0) {
        const char *p[1] = {s->base.owner};
        PGresult *r = call(s, P_OWNER_ALIVE, p, "reading a heartbeat", err);
        rc = r ? 0 : -1;
        if (r && !(PQntuples(r) == 1 && PQgetvalue(r, 0, 0)[0] == 't')) {
            pl_buf_printf(err, "store: the heartbeat of '%s' has expired (store_owner_beat first)", s->base.owner);
            rc = -1;
        }
        PQclear(r);
    }
    if (rc == 0) {
        const char *p[1] = {code};
        PGresult *r = call(s, P_LEASE_GET, p, "reading a lease", err);
        rc = r ? 0 : -1;
        if (r && PQntuples(r) == 1 && strcmp(PQgetvalue(r, 0, 0), s->base.owner) && PQgetvalue(r, 0, 1)[0] == 't') {
            granted = 0; /* another live owner holds it */
            if (holder)
                pl_buf_puts(holder, PQgetvalue(r, 0, 0));
        }
        PQclear(r);
    }
    if (rc == 0 && granted) {
        const char *p[2] = {code, s->base.owner};
        rc = exec_ok(s, P_LEASE_SET, p, "writing a lease", err);
    }
    rc = end(s, rc, err);
    return rc < 0 ? -1 : granted;
}

static int pg_lease_drop(store *base, const char *code, pl_buf *err)
{
    pg_store *s = pg(base);
    if (ready(s, err) < 0)
        return -1;
    const char *p[2] = {code, s->base.owner};
    return exec_ok(s, P_LEASE_DROP, p, "dropping a lease", err);
}

static int pg_watch_fd(store *base)
{
    pg_store *s = pg(base);
    pl_buf err = {0};
    if (!s->listening && ready(s, &err) == 0 && run(s, "LISTEN parlour_rooms", "listening", &err) == 0)
        s->listening = 1;
    pl_buf_free(&err);
    return s->listening ? PQsocket(s->conn) : -1;
}

static int pg_watch_drain(store *base, store_note_fn fn, void *ctx, pl_buf *err)
{
    pg_store *s = pg(base);
    if (!PQconsumeInput(s->conn) || PQstatus(s->conn) != CONNECTION_OK)
        return fail(s, "reading notifications (open a new handle)", NULL, err);
    int n = 0;
    PGnotify *note;
    while ((note = PQnotifies(s->conn))) {
        const char *sp = strchr(note->extra, ' ');
        if (sp && !strcmp(note->relname, "parlour_rooms")) {
            char what[16];
            size_t k = (size_t)(sp - note->extra);
            if (k < sizeof what) {
                memcpy(what, note->extra, k);
                what[k] = '\0';
                fn(ctx, what, sp + 1);
                n++;
            }
        }
        PQfreemem(note);
    }
    return n;
}

/* ---- accounts and sessions ---- */

/* Runs prepared statement q and gives the rows it changed, or -1. */
static int changed(pg_store *s, int q, const char *const *p, const char *what, pl_buf *err)
{
    PGresult *r = call(s, q, p, what, err);
    if (!r)
        return -1;
    int n = atoi(PQcmdTuples(r));
    PQclear(r);
    return n;
}

/* Runs prepared statement q: 0 when it changed a row, 1 when it changed none
 * (nothing matched), or -1. */
static int changed_one(pg_store *s, int q, const char *const *p, const char *what, pl_buf *err)
{
    int n = changed(s, q, p, what, err);
    return n < 0 ? -1 : n == 0 ? 1 : 0;
}

static int pg_account_put(store *base, const char *name, const char *folded, const char *hash, int64_t created_ms,
                          int64_t *id, pl_buf *err)
{
    pg_store *s = pg(base);
    if (ready(s, err) < 0)
        return -1;
    char created[24];
    snprintf(created, sizeof created, "%" PRId64, created_ms);
    const char *p[4] = {name, folded, hash, created};
    PGresult *r = call(s, P_ACC_PUT, p, "adding an account", err);
    if (!r)
        return -1;
    int rc = 1; /* no row: the folded name is taken */
    if (PQntuples(r) == 1) {
        *id = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
        rc = 0;
    }
    PQclear(r);
    return rc;
}

static int pg_account_get(store *base, const char *folded, int64_t id, store_account *out, pl_buf *err)
{
    pg_store *s = pg(base);
    if (ready(s, err) < 0)
        return -1;
    char ids[24];
    snprintf(ids, sizeof ids, "%" PRId64, id);
    const char *p[1] = {folded ? folded : ids};
    PGresult *r = call(s, folded ? P_ACC_BY_NAME : P_ACC_BY_ID, p, "reading an account", err);
    if (!r)
        return -1;
    int rc = 1;
    if (PQntuples(r) == 1) {
        out->id = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
        store_copy_field(out->name, sizeof out->name, PQgetvalue(r, 0, 1));
        store_copy_field(out->folded, sizeof out->folded, PQgetvalue(r, 0, 2));
        store_copy_field(out->hash, sizeof out->hash, PQgetvalue(r, 0, 3));
        out->created_ms = strtoll(PQgetvalue(r, 0, 4), NULL, 10);
        out->is_private = PQgetvalue(r, 0, 5)[0] == 't';
        rc = 0;
    }
    PQclear(r);
    return rc;
}

/* Inside a transaction: locks account id's row. 0, 1 when there is none,
 * or -1. */
static int lock_account(pg_store *s, const char *id, pl_buf *err)
{
    const char *p[1] = {id};
    PGresult *r = call(s, P_ACC_LOCK, p, "locking an account", err);
    if (!r)
        return -1;
    int rc = PQntuples(r) == 1 ? 0 : 1;
    PQclear(r);
    return rc;
}

static int pg_account_set_hash(store *base, int64_t id, const char *hash, const char *keep, pl_buf *err)
{
    pg_store *s = pg(base);
    char ids[24];
    snprintf(ids, sizeof ids, "%" PRId64, id);
    if (begin(s, err) < 0)
        return -1;
    int rc = lock_account(s, ids, err);
    const char *hp[2] = {ids, hash}, *dp[2] = {ids, keep};
    if (rc == 0 && (changed(s, P_ACC_HASH, hp, "changing a password", err) < 0 ||
                    changed(s, P_SES_DROP_OTHERS, dp, "ending sessions", err) < 0))
        rc = -1;
    if (rc == 1) /* nothing changed */
        return end(s, -2, err) == -2 ? 1 : -1;
    return end(s, rc, err);
}

static int pg_account_private(store *base, int64_t id, bool on, pl_buf *err)
{
    pg_store *s = pg(base);
    if (ready(s, err) < 0)
        return -1;
    char ids[24];
    snprintf(ids, sizeof ids, "%" PRId64, id);
    const char *p[2] = {ids, on ? "true" : "false"};
    return changed_one(s, P_ACC_PRIVATE, p, "making a page private or public", err);
}

static int pg_account_rehash(store *base, int64_t id, const char *old, const char *hash, pl_buf *err)
{
    pg_store *s = pg(base);
    if (ready(s, err) < 0)
        return -1;
    char ids[24];
    snprintf(ids, sizeof ids, "%" PRId64, id);
    const char *p[3] = {ids, old, hash};
    return changed_one(s, P_ACC_REHASH, p, "rehashing a password", err);
}

/* Inside the transaction: every room that seats account id anonymised. */
static int anonymise_rooms(pg_store *s, int64_t id, const char *anon, pl_buf *err)
{
    PGresult *r = call(s, P_ACC_ROOMS, NULL, "reading rooms", err);
    if (!r)
        return -1;
    int rc = 0;
    for (int i = 0; rc == 0 && i < PQntuples(r); i++) {
        char *cfg = store_config_anonymise(PQgetvalue(r, i, 1), id, anon);
        if (!cfg)
            continue;
        const char *p[2] = {PQgetvalue(r, i, 0), cfg};
        rc = changed(s, P_ROOM_SET_CONFIG, p, "anonymising a room", err) < 0 ? -1 : 0;
        pl_free(cfg);
    }
    PQclear(r);
    return rc;
}

static int pg_account_delete(store *base, int64_t id, const char *anon, pl_buf *err)
{
    pg_store *s = pg(base);
    char ids[24];
    snprintf(ids, sizeof ids, "%" PRId64, id);
    if (begin(s, err) < 0)
        return -1;
    int rc = lock_account(s, ids, err);
    if (rc == 0)
        rc = anonymise_rooms(s, id, anon, err);
    const char *dp[2] = {ids, NULL}, *ap[1] = {ids};
    if (rc == 0 && (changed(s, P_SES_DROP_OTHERS, dp, "ending sessions", err) < 0 ||
                    changed(s, P_ACC_DELETE, ap, "deleting an account", err) < 0))
        rc = -1;
    if (rc == 1) /* no such account */
        return end(s, -2, err) == -2 ? 1 : -1;
    return end(s, rc, err);
}

static int pg_session_put(store *base, const char *hash, int64_t account, int64_t expires_ms, pl_buf *err)
{
    pg_store *s = pg(base);
    if (ready(s, err) < 0)
        return -1;
    char acc[24], exp[24];
    snprintf(acc, sizeof acc, "%" PRId64, account);
    snprintf(exp, sizeof exp, "%" PRId64, expires_ms);
    const char *p[3] = {hash, acc, exp};
    return changed_one(s, P_SES_PUT, p, "adding a session", err);
}

static int pg_session_get(store *base, const char *hash, int64_t now_ms, int64_t renew_ms, int64_t *account,
                          pl_buf *err)
{
    pg_store *s = pg(base);
    if (ready(s, err) < 0)
        return -1;
    const char *gp[1] = {hash};
    PGresult *r = call(s, P_SES_GET, gp, "reading a session", err);
    if (!r)
        return -1;
    int found = PQntuples(r) == 1;
    int64_t expires = 0;
    if (found) {
        *account = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
        expires = strtoll(PQgetvalue(r, 0, 1), NULL, 10);
    }
    PQclear(r);
    if (!found)
        return 1;
    char now[24], renew[24];
    snprintf(now, sizeof now, "%" PRId64, now_ms);
    snprintf(renew, sizeof renew, "%" PRId64, renew_ms);
    if (expires <= now_ms) { /* expired: it goes */
        const char *p[2] = {hash, now};
        return changed(s, P_SES_DROP_EXPIRED, p, "ending an expired session", err) < 0 ? -1 : 1;
    }
    if (!store_renew_due(now_ms, expires, renew_ms))
        return 0;
    const char *p[2] = {hash, renew};
    return changed(s, P_SES_RENEW, p, "renewing a session", err) < 0 ? -1 : 0;
}

static int pg_session_drop(store *base, const char *hash, pl_buf *err)
{
    pg_store *s = pg(base);
    if (ready(s, err) < 0)
        return -1;
    const char *p[1] = {hash};
    return changed_one(s, P_SES_DROP, p, "ending a session", err);
}

static int pg_session_drop_others(store *base, int64_t account, const char *keep, pl_buf *err)
{
    pg_store *s = pg(base);
    if (ready(s, err) < 0)
        return -1;
    char acc[24];
    snprintf(acc, sizeof acc, "%" PRId64, account);
    const char *p[2] = {acc, keep};
    return changed(s, P_SES_DROP_OTHERS, p, "ending sessions", err);
}

static int pg_session_purge(store *base, int64_t now_ms, pl_buf *err)
{
    pg_store *s = pg(base);
    if (ready(s, err) < 0)
        return -1;
    char now[24];
    snprintf(now, sizeof now, "%" PRId64, now_ms);
    const char *p[1] = {now};
    return changed(s, P_SES_PURGE, p, "deleting expired sessions", err);
}

/* ---- ratings ---- */

/* Row i of r (pool, rating, rd, sigma, games, updated_ms) into *out. */
static void rating_row(const PGresult *r, int i, store_rating *out)
{
    memset(out, 0, sizeof *out);
    store_copy_field(out->pool, sizeof out->pool, PQgetvalue(r, i, 0));
    out->g = (pl_glicko2){strtod(PQgetvalue(r, i, 1), NULL), strtod(PQgetvalue(r, i, 2), NULL),
                          strtod(PQgetvalue(r, i, 3), NULL)};
    out->games = strtoll(PQgetvalue(r, i, 4), NULL, 10);
    out->updated_ms = strtoll(PQgetvalue(r, i, 5), NULL, 10);
}

static int pg_rating_get(store *base, int64_t account, const char *pool, store_rating *out, pl_buf *err)
{
    pg_store *s = pg(base);
    if (ready(s, err) < 0)
        return -1;
    char acc[24];
    snprintf(acc, sizeof acc, "%" PRId64, account);
    const char *p[2] = {acc, pool};
    PGresult *r = call(s, P_RATING_GET, p, "reading a rating", err);
    if (!r)
        return -1;
    int rc = PQntuples(r) == 1 ? 0 : 1;
    if (rc == 0)
        rating_row(r, 0, out);
    PQclear(r);
    return rc;
}

static int pg_ratings_of(store *base, int64_t account, store_rating *out, int max, pl_buf *err)
{
    PGresult *r = call_account(pg(base), P_RATINGS_OF, account, "reading ratings", err);
    if (!r)
        return -1;
    int n = PQntuples(r);
    for (int i = 0; i < n && i < max; i++)
        rating_row(r, i, &out[i]);
    PQclear(r);
    return n;
}

static int history_row(PGresult *r, int i, const void *cb, void *ctx)
{
    store_rating_point pt = {
        .room = PQgetvalue(r, i, 0),
        .at_ms = strtoll(PQgetvalue(r, i, 1), NULL, 10),
        .rating = strtod(PQgetvalue(r, i, 2), NULL),
        .rd = strtod(PQgetvalue(r, i, 3), NULL),
    };
    return (*(const store_history_fn *)cb)(ctx, &pt);
}

static int pg_rating_history(store *base, int64_t account, const char *pool, store_history_fn fn, void *ctx,
                             pl_buf *err)
{
    char acc[24];
    snprintf(acc, sizeof acc, "%" PRId64, account);
    const char *p[2] = {acc, pool};
    return walk_rows(pg(base), P_RATING_HISTORY, p, history_row, &fn, ctx, "reading a rating history", err);
}

static int pg_player_games(store *base, int64_t account, int64_t before_ms, int limit, store_game_fn fn, void *ctx,
                           pl_buf *err)
{
    pg_store *s = pg(base);
    if (ready(s, err) < 0)
        return -1;
    char acc[24], lim[16], bef[24];
    snprintf(acc, sizeof acc, "%" PRId64, account);
    snprintf(lim, sizeof lim, "%d", limit);
    snprintf(bef, sizeof bef, "%" PRId64, before_ms);
    const char *p[3] = {acc, lim, bef};
    PGresult *r = call(s, P_PLAYER_GAMES, p, "reading a player's games", err);
    if (!r)
        return -1;
    int n = PQntuples(r), ret = 0;
    for (int i = 0; i < n && ret == 0; i++)
        ret = store_player_row(account, PQgetvalue(r, i, 0), PQgetvalue(r, i, 1), PQgetvalue(r, i, 2),
                               PQgetisnull(r, i, 3) ? NULL : PQgetvalue(r, i, 3), PQgetvalue(r, i, 4),
                               strtoll(PQgetvalue(r, i, 5), NULL, 10), PQgetvalue(r, i, 6)[0] == 't', fn, ctx);
    PQclear(r);
    return ret;
}

static int pg_drill_get(store *base, int64_t account, pl_buf *out, int64_t *updated_ms, pl_buf *err)
{
    PGresult *r = call_account(pg(base), P_DRILL_GET, account, "reading a drill record", err);
    if (!r)
        return -1;
    int rc = PQntuples(r) == 1 ? 0 : 1;
    if (rc == 0) {
        pl_buf_append(out, PQgetvalue(r, 0, 0), (size_t)PQgetlength(r, 0, 0));
        *updated_ms = strtoll(PQgetvalue(r, 0, 1), NULL, 10);
        if (out->oom) {
            pl_buf_puts(err, "store: out of memory reading a drill record");
            rc = -1;
        }
    }
    PQclear(r);
    return rc;
}

static int pg_drill_put(store *base, int64_t account, const char *record, int64_t now_ms, pl_buf *err)
{
    pg_store *s = pg(base);
    if (ready(s, err) < 0)
        return -1;
    char acc[24], at[24];
    snprintf(acc, sizeof acc, "%" PRId64, account);
    snprintf(at, sizeof at, "%" PRId64, now_ms);
    const char *p[3] = {acc, record, at};
    return changed_one(s, P_DRILL_PUT, p, "writing a drill record", err);
}

/* ---- Play now across processes (store.h) -------------------------------- */

static int pg_seek_put(store *base, const store_seek *k, pl_buf *err)
{
    pg_store *s = pg(base);
    char acc[24], pl[16], rt[40], rd[40], made[24], af[16], wd[16];
    snprintf(acc, sizeof acc, "%" PRId64, k->account);
    snprintf(pl, sizeof pl, "%d", k->players);
    snprintf(rt, sizeof rt, "%.17g", k->rating);
    snprintf(rd, sizeof rd, "%.17g", k->rd);
    snprintf(made, sizeof made, "%" PRId64, k->made_ms);
    snprintf(af, sizeof af, "%d", k->after_s);
    snprintf(wd, sizeof wd, "%d", k->widest);
    const char *p[13] = {k->id, s->base.owner, k->pool, k->game, k->options, k->name, acc, pl, rt, rd, made, af, wd};
    return exec_ready(s, P_SEEK_PUT, p, "writing a seek", err);
}

static int pg_seek_drop(store *base, const char *id, pl_buf *err)
{
    const char *p[1] = {id};
    return exec_ready(pg(base), P_SEEK_DROP, p, "deleting a seek", err);
}

static int seek_row(PGresult *r, int i, const void *cb, void *ctx)
{
    store_seek k = {.id = PQgetvalue(r, i, 0),
                    .owner = PQgetvalue(r, i, 1),
                    .pool = PQgetvalue(r, i, 2),
                    .game = PQgetvalue(r, i, 3),
                    .options = PQgetvalue(r, i, 4),
                    .name = PQgetvalue(r, i, 5),
                    .account = strtoll(PQgetvalue(r, i, 6), NULL, 10),
                    .players = atoi(PQgetvalue(r, i, 7)),
                    .rating = strtod(PQgetvalue(r, i, 8), NULL),
                    .rd = strtod(PQgetvalue(r, i, 9), NULL),
                    .made_ms = strtoll(PQgetvalue(r, i, 10), NULL, 10),
                    .after_s = atoi(PQgetvalue(r, i, 11)),
                    .widest = atoi(PQgetvalue(r, i, 12))};
    return (*(const store_seek_fn *)cb)(ctx, &k);
}

static int pg_seeks_read(store *base, store_seek_fn fn, void *ctx, pl_buf *err)
{
    return walk_rows(pg(base), P_SEEKS_READ, NULL, seek_row, &fn, ctx, "reading the seeks", err);
}

/* In a transaction: 1 when this owner's heartbeat is alive, 0 not, -1. */
static int owner_alive(pg_store *s, pl_buf *err)
{
    const char *p[1] = {s->base.owner};
    PGresult *r = call(s, P_OWNER_ALIVE, p, "reading a heartbeat", err);
    if (!r)
        return -1;
    int ok = PQntuples(r) == 1 && PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    return ok;
}

/* In a transaction: role `name`'s row (made if missing) locked; 1 when it is
 * this owner's or (`mine_only` 0) its holder's heartbeat expired, 0 another
 * live owner's, -1. */
static int role_lock(pg_store *s, const char *name, int mine_only, pl_buf *err)
{
    const char *p2[2] = {name, s->base.owner};
    if (exec_ok(s, P_ROLE_ENSURE, p2, "writing a role", err) < 0)
        return -1;
    const char *p[1] = {name};
    PGresult *r = call(s, P_ROLE_GET, p, "reading a role", err);
    if (!r)
        return -1;
    int ok = 0;
    if (PQntuples(r) == 1) {
        int mine = !strcmp(PQgetvalue(r, 0, 0), s->base.owner);
        ok = mine || (!mine_only && PQgetvalue(r, 0, 1)[0] != 't');
    }
    PQclear(r);
    return ok;
}

static int pg_role_take(store *base, const char *name, pl_buf *err)
{
    pg_store *s = pg(base);
    if (begin(s, err) < 0)
        return -1;
    int alive = owner_alive(s, err), rc = alive < 0 ? -1 : 0, granted = 0;
    if (alive == 0) {
        pl_buf_printf(err, "store: the heartbeat of '%s' has expired (store_owner_beat first)", s->base.owner);
        rc = -1;
    }
    if (rc == 0 && (granted = role_lock(s, name, 0, err)) < 0)
        rc = -1;
    if (rc == 0 && granted) {
        const char *p[2] = {name, s->base.owner};
        rc = exec_ok(s, P_ROLE_SET, p, "writing a role", err);
    }
    rc = end(s, rc, err);
    return rc < 0 ? -1 : granted;
}

static int pg_pairing_put(store *base, const char *role, const store_pairing *pp, int n, pl_buf *err)
{
    pg_store *s = pg(base);
    if (begin(s, err) < 0)
        return -1;
    int alive = owner_alive(s, err), rc = alive < 0 ? -1 : alive ? 0 : STORE_LOST;
    if (rc == 0) {
        int mine = role_lock(s, role, 1, err);
        rc = mine < 0 ? -1 : mine ? 0 : STORE_LOST;
    }
    char owners[PL_MAX_SEATS][STORE_OWNER_MAX + 1];
    for (int i = 0; rc == 0 && i < n; i++) {
        const char *p[1] = {pp[i].seek};
        PGresult *r = call(s, P_SEEK_OWNER, p, "reading a seek", err);
        if (!r)
            rc = -1;
        else if (PQntuples(r) != 1)
            rc = 1; /* cancelled meanwhile */
        else
            snprintf(owners[i], sizeof owners[i], "%s", PQgetvalue(r, 0, 0));
        PQclear(r);
    }
    for (int i = 0; rc == 0 && i < n; i++) {
        const char *pd[1] = {pp[i].seek};
        char seat[16], comp[8], rated[8];
        snprintf(seat, sizeof seat, "%d", pp[i].seat);
        snprintf(comp, sizeof comp, "%d", pp[i].computer);
        snprintf(rated, sizeof rated, "%d", pp[i].rated);
        const char *p[9] = {pp[i].seek, owners[i], pp[i].room, seat, pp[i].token, pp[i].pool, pp[i].game, comp, rated};
        rc = exec_ok(s, P_SEEK_DROP, pd, "deleting a seek", err);
        if (rc == 0)
            rc = exec_ok(s, P_PAIRING_PUT, p, "writing a pairing", err);
    }
    return end(s, rc, err);
}

static int pairing_row(PGresult *r, int i, const void *cb, void *ctx)
{
    store_pairing q = {.seek = PQgetvalue(r, i, 0),
                       .room = PQgetvalue(r, i, 1),
                       .token = PQgetvalue(r, i, 2),
                       .pool = PQgetvalue(r, i, 3),
                       .game = PQgetvalue(r, i, 4),
                       .seat = atoi(PQgetvalue(r, i, 5)),
                       .computer = atoi(PQgetvalue(r, i, 6)),
                       .rated = atoi(PQgetvalue(r, i, 7))};
    return (*(const store_pairing_fn *)cb)(ctx, &q);
}

static int pg_pairings_of(store *base, store_pairing_fn fn, void *ctx, pl_buf *err)
{
    pg_store *s = pg(base);
    const char *p[1] = {s->base.owner};
    return walk_rows(s, P_PAIRINGS_OF, p, pairing_row, &fn, ctx, "reading the pairings", err);
}

static int pg_pairing_drop(store *base, const char *seek, pl_buf *err)
{
    pg_store *s = pg(base);
    const char *p[2] = {seek, s->base.owner};
    return exec_ready(s, P_PAIRING_DROP, p, "deleting a pairing", err);
}

/* Runs statement q (parameters p) that answers one number; it, or -1. */
static int64_t pg_number(pg_store *s, int q, const char *const *p, const char *what, pl_buf *err)
{
    if (ready(s, err) < 0)
        return -1;
    PGresult *r = call(s, q, p, what, err);
    if (!r)
        return -1;
    int64_t n = PQntuples(r) == 1 ? strtoll(PQgetvalue(r, 0, 0), NULL, 10) : 0;
    PQclear(r);
    return n;
}

static int64_t pg_online(store *base, pl_buf *err)
{
    const char *p[1] = {base->owner};
    return pg_number(pg(base), P_ONLINE, p, "reading the connections", err);
}

static int64_t pg_seeks_sweep(store *base, int64_t grace_ms, int max_rows, pl_buf *err)
{
    char g[24], m[16];
    snprintf(g, sizeof g, "%" PRId64, grace_ms);
    snprintf(m, sizeof m, "%d", max_rows);
    const char *p[2] = {g, m};
    int64_t dead = pg_number(pg(base), P_SWEEP_DEAD, p, "reading the heartbeats", err);
    return dead <= 0 ? dead : pg_number(pg(base), P_SWEEP, p, "sweeping a dead process's rows", err);
}

static const store_ops pg_ops = {
    .close = pg_close,
    .room_put = pg_room_put,
    .append = pg_append,
    .finish = pg_finish,
    .room_config = pg_room_config,
    .rooms = pg_rooms,
    .room_get = pg_room_get,
    .actions = pg_actions,
    .count = pg_count,
    .owner_beat = pg_owner_beat,
    .lease_take = pg_lease_take,
    .lease_drop = pg_lease_drop,
    .watch_fd = pg_watch_fd,
    .watch_drain = pg_watch_drain,
    .account_put = pg_account_put,
    .account_get = pg_account_get,
    .account_set_hash = pg_account_set_hash,
    .account_rehash = pg_account_rehash,
    .account_private = pg_account_private,
    .account_delete = pg_account_delete,
    .session_put = pg_session_put,
    .session_get = pg_session_get,
    .session_drop = pg_session_drop,
    .session_drop_others = pg_session_drop_others,
    .session_purge = pg_session_purge,
    .rating_get = pg_rating_get,
    .ratings_of = pg_ratings_of,
    .rating_history = pg_rating_history,
    .seek_put = pg_seek_put,
    .seek_drop = pg_seek_drop,
    .seeks_read = pg_seeks_read,
    .role_take = pg_role_take,
    .pairing_put = pg_pairing_put,
    .pairings_of = pg_pairings_of,
    .pairing_drop = pg_pairing_drop,
    .online = pg_online,
    .seeks_sweep = pg_seeks_sweep,
    .player_games = pg_player_games,
    .drill_get = pg_drill_get,
    .drill_put = pg_drill_put,
};
