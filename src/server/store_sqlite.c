/* store_sqlite.c — the store (store.h) in one SQLite file: the default
 * backend (store.c chooses it for any path that is not a PostgreSQL URL).
 *
 * The schema and its migrations are src/server/schema/sqlite.sql, embedded
 * by the build (store_schema_sqlite.h); store_open brings an older file up
 * to its last version in one transaction. Every statement is prepared once
 * with bound parameters (no SQL is built from text). The seed, an unsigned
 * 64-bit number, is stored as the signed integer with the same bits.
 *
 * Several processes on one file: every write runs in a BEGIN IMMEDIATE
 * transaction (SQLite's write lock, waited for up to the 5 s busy timeout),
 * so a lease check and the write it guards see the same database. Times of
 * heartbeats are this machine's clock (CLOCK_REALTIME): all the processes
 * that share a file share a machine.
 *
 * Checkpoints (copying the write-ahead log back into the database file) run
 * on a thread of their own with a connection of their own (ck_main), not in
 * the commit that filled the log: SQLite's automatic checkpoint took 3 to
 * 25 ms in the commit it fell to, and every move waiting for that commit
 * waited for it too. A commit that leaves CK_PAGES or more in the log wakes
 * the thread; one that leaves CK_BACKSTOP or more (the thread got no time:
 * the machine is busy) checkpoints where it is, as SQLite would, which costs
 * only what the thread has not copied yet.
 */
#include "store_int.h"

#include <pthread.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "parlour/alloc.h"
#include "parlour/game.h"
#include "parlour/rng.h"
#include "store_schema_sqlite.h"

enum {
    Q_ROOM_PUT,
    Q_ROOM_STATE, /* finished flag of a room */
    Q_COUNT,
    Q_APPEND,
    Q_FINISH,
    Q_ROOMS_ALL,
    Q_ROOMS_OPEN,
    Q_ROOM_GET,
    Q_ACTIONS,
    Q_BEGIN,
    Q_COMMIT,
    Q_ROLLBACK,
    Q_CONFIG,
    Q_LEASE_OK,
    Q_LEASE_GET,
    Q_LEASE_SET,
    Q_LEASE_DROP,
    Q_OWNER_GET,
    Q_OWNER_SET,
    Q_ACC_PUT,
    Q_ACC_BY_NAME,
    Q_ACC_BY_ID,
    Q_ACC_PRIVATE,
    Q_ACC_HASH,
    Q_ACC_REHASH,
    Q_ACC_DELETE,
    Q_ACC_ROOMS, /* the rooms whose configuration may name an account */
    Q_SES_PUT,
    Q_SES_GET,
    Q_SES_RENEW,
    Q_SES_DROP,
    Q_SES_DROP_EXPIRED,
    Q_SES_DROP_OTHERS,
    Q_SES_PURGE,
    Q_RATING_GET,
    Q_RATINGS_OF,
    Q_RATING_HISTORY,
    Q_PLAYER_GAMES,
    Q_RATING_PUT,
    Q_RATING_HIST,
    Q_DRILL_GET,
    Q_DRILL_PUT,
    Q_SEEK_PUT,
    Q_SEEK_DROP,
    Q_SEEKS_READ,
    Q_SEEK_OWNER,
    Q_ROLE_GET,
    Q_ROLE_SET,
    Q_PAIRING_PUT,
    Q_PAIRINGS_OF,
    Q_PAIRING_DROP,
    Q_ONLINE,
    Q_SWEEP_DEAD,
    Q_SWEEP_SEEKS,
    Q_SWEEP_PAIRINGS,
    Q_SWEEP_OWNER,
    NQ
};

#define ROOM_COLS "code, game, options, config, seed, created_ms, finished, result "

static const char *const sql_text[NQ] = {
    [Q_ROOM_PUT] = "INSERT INTO rooms(code, game, options, config, seed, created_ms) "
                   "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    [Q_ROOM_STATE] = "SELECT finished FROM rooms WHERE code = ?1",
    /* Whether the room is finished, and its next seq (seqs run 0, 1, ...:
     * max + 1 is the count, found in O(log n)): one statement per room of a
     * batch. */
    [Q_COUNT] = "SELECT finished, (SELECT coalesce(max(seq) + 1, 0) FROM actions WHERE room = ?1) "
                "FROM rooms WHERE code = ?1",
    [Q_APPEND] = "INSERT INTO actions(room, seq, seat, text, at_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
    [Q_FINISH] = "UPDATE rooms SET finished = 1, result = ?2 WHERE code = ?1 AND finished = 0",
    [Q_ROOMS_ALL] = "SELECT " ROOM_COLS "FROM rooms ORDER BY created_ms, code",
    [Q_ROOMS_OPEN] = "SELECT " ROOM_COLS "FROM rooms WHERE finished = 0 ORDER BY created_ms, code",
    [Q_ROOM_GET] = "SELECT " ROOM_COLS "FROM rooms WHERE code = ?1",
    [Q_ACTIONS] = "SELECT room, seq, seat, text, at_ms FROM actions WHERE room = ?1 ORDER BY seq",
    [Q_BEGIN] = "BEGIN IMMEDIATE",
    [Q_COMMIT] = "COMMIT",
    [Q_ROLLBACK] = "ROLLBACK",
    [Q_CONFIG] = "UPDATE rooms SET config = ?2 WHERE code = ?1",
    /* The lease of room ?1 is owner ?2's and ?2's heartbeat outlives ?3. */
    [Q_LEASE_OK] = "SELECT 1 FROM leases l JOIN owners o ON o.owner = l.owner "
                   "WHERE l.room = ?1 AND l.owner = ?2 AND o.alive_until_ms > ?3",
    [Q_LEASE_GET] = "SELECT l.owner, coalesce(o.alive_until_ms, 0) FROM leases l "
                    "LEFT JOIN owners o ON o.owner = l.owner WHERE l.room = ?1",
    [Q_LEASE_SET] = "INSERT INTO leases(room, owner) VALUES (?1, ?2) "
                    "ON CONFLICT(room) DO UPDATE SET owner = excluded.owner",
    [Q_LEASE_DROP] = "DELETE FROM leases WHERE room = ?1 AND owner = ?2",
    [Q_OWNER_GET] = "SELECT alive_until_ms FROM owners WHERE owner = ?1",
    /* ?3: the connections (store_owner_beat_conns), or -1: the stored count kept. */
    [Q_OWNER_SET] = "INSERT INTO owners(owner, alive_until_ms, conns) VALUES (?1, ?2, max(?3, 0)) "
                    "ON CONFLICT(owner) DO UPDATE SET alive_until_ms = excluded.alive_until_ms, "
                    "conns = CASE WHEN ?3 < 0 THEN owners.conns ELSE excluded.conns END",
    [Q_ACC_PUT] = "INSERT INTO accounts(name, folded, hash, created_ms) VALUES (?1, ?2, ?3, ?4) "
                  "ON CONFLICT(folded) DO NOTHING RETURNING id",
    [Q_ACC_BY_NAME] = "SELECT id, name, folded, hash, created_ms, private FROM accounts WHERE folded = ?1",
    [Q_ACC_BY_ID] = "SELECT id, name, folded, hash, created_ms, private FROM accounts WHERE id = ?1",
    [Q_ACC_PRIVATE] = "UPDATE accounts SET private = ?2 WHERE id = ?1",
    [Q_ACC_HASH] = "UPDATE accounts SET hash = ?2 WHERE id = ?1",
    [Q_ACC_REHASH] = "UPDATE accounts SET hash = ?3 WHERE id = ?1 AND hash = ?2",
    [Q_ACC_DELETE] = "DELETE FROM accounts WHERE id = ?1",
    [Q_ACC_ROOMS] = "SELECT code, config FROM rooms WHERE config LIKE '" STORE_ACCOUNT_LIKE "'",
    [Q_SES_PUT] = "INSERT INTO sessions(hash, account, expires_ms) "
                  "SELECT ?1, id, ?3 FROM accounts WHERE id = ?2",
    [Q_SES_GET] = "SELECT account, expires_ms FROM sessions WHERE hash = ?1",
    [Q_SES_RENEW] = "UPDATE sessions SET expires_ms = ?2 WHERE hash = ?1 AND expires_ms < ?2",
    [Q_SES_DROP] = "DELETE FROM sessions WHERE hash = ?1",
    [Q_SES_DROP_EXPIRED] = "DELETE FROM sessions WHERE hash = ?1 AND expires_ms <= ?2",
    [Q_SES_DROP_OTHERS] = "DELETE FROM sessions WHERE account = ?1 AND hash IS NOT ?2",
    [Q_SES_PURGE] = "DELETE FROM sessions WHERE expires_ms <= ?1",
    [Q_RATING_GET] = "SELECT pool, rating, rd, sigma, games, updated_ms FROM ratings WHERE account = ?1 AND pool = ?2",
    [Q_RATINGS_OF] = "SELECT pool, rating, rd, sigma, games, updated_ms FROM ratings WHERE account = ?1 ORDER BY pool",
    [Q_RATING_HISTORY] = "SELECT room, at_ms, rating_after, rd_after FROM rating_history WHERE account = ?1 "
                         "AND pool = ?2 ORDER BY at_ms, room",
    [Q_PLAYER_GAMES] =
        "SELECT * FROM (SELECT r.code, r.game, r.options, r.result, r.config, "
        "COALESCE((SELECT a.at_ms FROM actions a WHERE a.room = r.code ORDER BY a.seq DESC LIMIT 1), 0) AS fin, "
        "EXISTS(SELECT 1 FROM rating_history h WHERE h.account = ?1 AND h.room = r.code) "
        "FROM rooms r WHERE r.finished = 1 AND json_valid(r.config) AND EXISTS(SELECT 1 FROM "
        "json_each(r.config, '$.seats') e WHERE json_extract(e.value, '$.account') = ?1)) t "
        "WHERE ?3 <= 0 OR t.fin < ?3 ORDER BY t.fin DESC, t.code DESC LIMIT ?2",
    [Q_RATING_PUT] = "INSERT INTO ratings(account, pool, rating, rd, sigma, games, updated_ms) "
                     "VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6) ON CONFLICT(account, pool) DO UPDATE SET "
                     "rating = excluded.rating, rd = excluded.rd, sigma = excluded.sigma, games = games + 1, "
                     "updated_ms = excluded.updated_ms",
    [Q_RATING_HIST] = "INSERT INTO rating_history(account, pool, room, at_ms, rating_before, rd_before, "
                      "rating_after, rd_after) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    [Q_DRILL_GET] = "SELECT record, updated_ms FROM drills WHERE account = ?1",
    [Q_DRILL_PUT] = "INSERT INTO drills(account, record, updated_ms) SELECT id, ?2, ?3 FROM accounts WHERE id = ?1 "
                    "ON CONFLICT(account) DO UPDATE SET record = excluded.record, updated_ms = excluded.updated_ms",
    [Q_SEEK_PUT] = "INSERT OR REPLACE INTO seeks(id, owner, pool, game, options, name, account, players, rating, rd, "
                   "made_ms, after_s, widest) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    [Q_SEEK_DROP] = "DELETE FROM seeks WHERE id = ?1",
    [Q_SEEKS_READ] = "SELECT s.id, s.owner, s.pool, s.game, s.options, s.name, s.account, s.players, s.rating, s.rd, "
                     "s.made_ms, s.after_s, s.widest FROM seeks s JOIN owners o ON o.owner = s.owner "
                     "WHERE o.alive_until_ms > ?1 ORDER BY s.id",
    [Q_SEEK_OWNER] = "SELECT owner FROM seeks WHERE id = ?1",
    [Q_ROLE_GET] = "SELECT r.owner, coalesce(o.alive_until_ms, 0) FROM roles r "
                   "LEFT JOIN owners o ON o.owner = r.owner WHERE r.name = ?1",
    [Q_ROLE_SET] = "INSERT INTO roles(name, owner) VALUES (?1, ?2) "
                   "ON CONFLICT(name) DO UPDATE SET owner = excluded.owner",
    [Q_PAIRING_PUT] = "INSERT OR REPLACE INTO pairings(seek, owner, room, seat, token, pool, game, computer, rated) "
                      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    [Q_PAIRINGS_OF] = "SELECT seek, room, token, pool, game, seat, computer, rated FROM pairings WHERE owner = ?1 "
                      "ORDER BY seek",
    [Q_PAIRING_DROP] = "DELETE FROM pairings WHERE seek = ?1 AND owner = ?2",
    /* The live owners' connections, owner ?2's excepted, at ?1. */
    [Q_ONLINE] = "SELECT coalesce(sum(conns), 0) FROM owners WHERE alive_until_ms > ?1 AND owner <> ?2",
    /* The sweep (store_seeks_sweep), every statement on an index: the owner
     * dead longest, if its heartbeat ended before ?1; at most ?2 of its
     * seeks and pairings; its row once they are gone. */
    [Q_SWEEP_DEAD] = "SELECT owner FROM owners WHERE alive_until_ms < ?1 ORDER BY alive_until_ms LIMIT 1",
    [Q_SWEEP_SEEKS] = "DELETE FROM seeks WHERE id IN (SELECT id FROM seeks WHERE owner = ?1 LIMIT ?2)",
    [Q_SWEEP_PAIRINGS] = "DELETE FROM pairings WHERE seek IN (SELECT seek FROM pairings WHERE owner = ?1 LIMIT ?2)",
    [Q_SWEEP_OWNER] = "DELETE FROM owners WHERE owner = ?1 AND alive_until_ms < ?2",
};

/* A room's next seq as this process last committed it (the seq cache). */
typedef struct {
    char *code; /* NULL: a free slot */
    int64_t next; /* -1: not known (read it from the database) */
} sq_next;

typedef struct {
    store base;
    sqlite3 *db;
    sqlite3_stmt *q[NQ];
    /* The seq cache: the next seq of each unfinished room this process wrote
     * (open addressing, a power of two slots, at most half used). Only a
     * store without an owner keeps it: then this process is the database's
     * only writer, and a batch's first action of a room needs no statement
     * to learn where the room stands (Q_COUNT: two index searches and the
     * table's). Filled after a commit only; a failed transaction forgets it
     * all, a finished room its own. */
    sq_next *next;
    size_t nnext, capnext;
    /* The checkpoint thread (a file's store only; ck_on when it runs). */
    int ck_on, ck_want, ck_quit;
    pthread_t ck;
    pthread_mutex_t ck_mu;
    pthread_cond_t ck_cv;
    char *path;
} sq_store;

/* Pages left in the log by a commit that wake the checkpoint thread, and
 * that make the commit checkpoint itself. Sixteen times SQLite's automatic
 * checkpoint's 1,000 (a log of 64 MB): each move rewrites its room's page in
 * the log, and a longer log copies that page into the database once for more
 * of them (the thread's CPU a move: 6 µs at 1,000, 2.5-3.6 at 8,000, 0.9-2.7
 * at 16,000; docs/benchmarks.md). */
#define CK_PAGES 16000
#define CK_BACKSTOP 64000

static sq_store *sq(store *s)
{
    return (sq_store *)s;
}

/* Writes "store: what: SQLite's message" into err; returns -1. */
static int fail(sq_store *s, const char *what, pl_buf *err)
{
    pl_buf_printf(err, "store: %s: %s", what, s && s->db ? sqlite3_errmsg(s->db) : "no database");
    return -1;
}

/* Resets a statement after use (clears its bindings too). */
static void done(sqlite3_stmt *q)
{
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
}

/* Runs a statement that returns no rows; 0 or -1. */
static int exec_q(sq_store *s, int which, const char *what, pl_buf *err)
{
    int rc = sqlite3_step(s->q[which]);
    done(s->q[which]);
    return rc == SQLITE_DONE ? 0 : fail(s, what, err);
}

/* This machine's clock in ms since the epoch (heartbeats). */
static int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int begin(sq_store *s, pl_buf *err)
{
    return exec_q(s, Q_BEGIN, "starting a transaction", err);
}

/* Rolls back the open transaction, if any, keeping err's first message. */
static void rollback(sq_store *s)
{
    if (sqlite3_get_autocommit(s->db))
        return;
    pl_buf e2 = {0};
    exec_q(s, Q_ROLLBACK, "rolling back", &e2);
    pl_buf_free(&e2);
}

/* Ends a transaction: commits when rc is 0 (returning -1 if that fails),
 * else rolls back; returns rc otherwise. */
static int end(sq_store *s, int rc, pl_buf *err)
{
    if (rc == 0 && exec_q(s, Q_COMMIT, "committing", err) < 0)
        rc = -1;
    if (rc != 0)
        rollback(s);
    return rc;
}

/* The schema version the file holds (0: a new file), or -1. */
static int schema_version(sq_store *s, pl_buf *err)
{
    sqlite3_stmt *q;
    int v = -1;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT CASE WHEN EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta')"
                           " THEN 1 ELSE 0 END",
                           -1, &q, NULL) != SQLITE_OK)
        return fail(s, "reading the schema version", err);
    int has = sqlite3_step(q) == SQLITE_ROW && sqlite3_column_int(q, 0);
    sqlite3_finalize(q);
    if (!has)
        return 0;
    if (sqlite3_prepare_v2(s->db, "SELECT value FROM meta WHERE key = 'schema'", -1, &q, NULL) != SQLITE_OK)
        return fail(s, "reading the schema version", err);
    if (sqlite3_step(q) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(q, 0);
        char *e;
        long n = t ? strtol(t, &e, 10) : -1;
        v = t && *t && !*e && n > 0 && n < 1000000 ? (int)n : -1;
        if (v < 0)
            pl_buf_printf(err, "store: schema version '%s' is not a version", t ? t : "");
    } else {
        pl_buf_puts(err, "store: the meta table has no schema version");
    }
    sqlite3_finalize(q);
    return v;
}

/* Brings the file to the last version of schema/sqlite.sql, in one
 * transaction (so two processes opening a new file at once are
 * serialised). 0 or -1. */
static int migrate(sq_store *s, const char *path, pl_buf *err)
{
    int last = store_schema_last(store_schema_sqlite);
    if (begin(s, err) < 0)
        return -1;
    int v = schema_version(s, err), rc = v < 0 ? -1 : 0;
    if (v > last) {
        pl_buf_printf(err, "store: %s: schema version %d, this program reads versions up to %d", path, v, last);
        rc = -1;
    }
    pl_buf sql = {0};
    for (int k = v + 1; rc == 0 && k <= last; k++) {
        pl_buf_clear(&sql);
        char *msg = NULL;
        if (store_schema_section(store_schema_sqlite, k, &sql) < 0 || sql.oom ||
            sqlite3_exec(s->db, pl_buf_str(&sql), NULL, NULL, &msg) != SQLITE_OK) {
            pl_buf_printf(err, "store: %s: migrating to schema version %d: %s", path, k,
                          msg ? msg : "no such section");
            rc = -1;
        }
        sqlite3_free(msg);
    }
    pl_buf_free(&sql);
    if (rc == 0 && v < last) {
        sqlite3_stmt *q;
        if (sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO meta(key, value) VALUES ('schema', ?1)", -1, &q,
                               NULL) != SQLITE_OK)
            return end(s, fail(s, "writing the schema version", err), err);
        sqlite3_bind_int(q, 1, last);
        if (sqlite3_step(q) != SQLITE_DONE)
            rc = fail(s, "writing the schema version", err);
        sqlite3_finalize(q);
    }
    return end(s, rc, err);
}

static const store_ops sq_ops;
static int ck_start(sq_store *s, const char *path);

store *store_sqlite_open(const char *path, pl_buf *err)
{
    sq_store *s = pl_calloc(1, sizeof *s);
    if (!s) {
        pl_buf_puts(err, "out of memory");
        return NULL;
    }
    s->base.ops = &sq_ops;
    /* A file's log goes through store_walbuf.c's VFS: a commit's frames in
     * one write, not two a page. */
    int rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                             strcmp(path, ":memory:") ? store_walbuf_vfs() : NULL);
    if (rc != SQLITE_OK) {
        pl_buf_printf(err, "store: cannot open %s: %s", path,
                      s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
        store_close(&s->base);
        return NULL;
    }
    sqlite3_extended_result_codes(s->db, 1);
    sqlite3_busy_timeout(s->db, 5000);
    /* journal_mode answers with a row: read it to check WAL took. */
    sqlite3_stmt *q;
    const char *mode = NULL;
    if (sqlite3_prepare_v2(s->db, "PRAGMA journal_mode=WAL", -1, &q, NULL) == SQLITE_OK &&
        sqlite3_step(q) == SQLITE_ROW)
        mode = (const char *)sqlite3_column_text(q, 0);
    /* ":memory:" (tests, the fuzz target) keeps its journal in memory:
     * nothing there survives the process anyway. */
    int wal = mode && (!strcmp(mode, "wal") || (!strcmp(path, ":memory:") && !strcmp(mode, "memory")));
    if (q)
        sqlite3_finalize(q);
    if (!wal) {
        pl_buf_printf(err, "store: %s: cannot use a write-ahead log (%s)", path, sqlite3_errmsg(s->db));
        store_close(&s->base);
        return NULL;
    }
    char *msg = NULL;
    /* mmap_size: pages read through a mapping, not a pread each. cache_size
     * (64 MiB): the pages of a thousand rooms' latest moves stay in memory;
     * SQLite's 2 MB default read most of them back from the log, a pread
     * each. synchronous=FULL and cache_spill=OFF: what store_walbuf.c's
     * VFS needs (the log written only in commits, each ending in a sync). */
    if (sqlite3_exec(s->db,
                     "PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; PRAGMA mmap_size=268435456;"
                     " PRAGMA cache_size=-65536; PRAGMA cache_spill=OFF;",
                     NULL, NULL, &msg) != SQLITE_OK) {
        pl_buf_printf(err, "store: %s: %s", path, msg ? msg : sqlite3_errmsg(s->db));
        sqlite3_free(msg);
        store_close(&s->base);
        return NULL;
    }
    for (int i = 0; i < NQ; i++)
        if (i == Q_BEGIN || i == Q_COMMIT || i == Q_ROLLBACK) /* the migration needs these */
            if (sqlite3_prepare_v3(s->db, sql_text[i], -1, SQLITE_PREPARE_PERSISTENT, &s->q[i], NULL) !=
                SQLITE_OK) {
                fail(s, "preparing a statement", err);
                store_close(&s->base);
                return NULL;
            }
    if (migrate(s, path, err) < 0) {
        store_close(&s->base);
        return NULL;
    }
    for (int i = 0; i < NQ; i++)
        if (!s->q[i] &&
            sqlite3_prepare_v3(s->db, sql_text[i], -1, SQLITE_PREPARE_PERSISTENT, &s->q[i], NULL) != SQLITE_OK) {
            fail(s, "preparing a statement", err);
            store_close(&s->base);
            return NULL;
        }
    if (strcmp(path, ":memory:"))
        ck_start(s, path); /* when it cannot start, SQLite checkpoints in the commits as before */
    return &s->base;
}

/* ---- the checkpoint thread ---- */

/* The writer's WAL hook (after every commit): `pages` are in the log. */
static int ck_hook(void *arg, sqlite3 *db, const char *name, int pages)
{
    sq_store *s = arg;
    if (pages >= CK_BACKSTOP) {
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    } else if (pages >= CK_PAGES) {
        pthread_mutex_lock(&s->ck_mu);
        s->ck_want = 1;
        pthread_cond_signal(&s->ck_cv);
        pthread_mutex_unlock(&s->ck_mu);
    }
    return SQLITE_OK;
}

/* The thread: its own connection, a passive checkpoint per wake-up (it
 * never blocks the writer; the writer restarts the log once all of it is
 * copied). It runs at a lower priority (nice 5) than the threads that
 * answer moves: on a busy core the copy takes their idle time first. */
static void *ck_main(void *arg)
{
    sq_store *s = arg;
    prctl(PR_SET_NAME, "checkpoint");
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 5); /* best effort: the thread only */
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(s->path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        db = NULL; /* then the writer's backstop does every checkpoint */
    } else {
        sqlite3_busy_timeout(db, 5000);
        /* A new connection learns that the file is in WAL mode from its
         * first read: until then a checkpoint answers "not in WAL mode". */
        sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
    }
    pthread_mutex_lock(&s->ck_mu);
    for (;;) {
        while (!s->ck_want && !s->ck_quit)
            pthread_cond_wait(&s->ck_cv, &s->ck_mu);
        if (s->ck_quit)
            break;
        s->ck_want = 0;
        pthread_mutex_unlock(&s->ck_mu);
        if (db)
            sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        pthread_mutex_lock(&s->ck_mu);
    }
    pthread_mutex_unlock(&s->ck_mu);
    sqlite3_close(db);
    return NULL;
}

/* Starts the thread for a file's store (0), or leaves SQLite's own
 * automatic checkpoint in place (-1: no thread could start). */
static int ck_start(sq_store *s, const char *path)
{
    if (!(s->path = pl_strdup(path)))
        return -1;
    pthread_mutex_init(&s->ck_mu, NULL);
    pthread_cond_init(&s->ck_cv, NULL);
    if (pthread_create(&s->ck, NULL, ck_main, s) != 0) {
        pthread_cond_destroy(&s->ck_cv);
        pthread_mutex_destroy(&s->ck_mu);
        return -1;
    }
    s->ck_on = 1;
    sqlite3_wal_hook(s->db, ck_hook, s); /* in place of the automatic checkpoint */
    return 0;
}

static void ck_stop(sq_store *s)
{
    if (s->ck_on) {
        pthread_mutex_lock(&s->ck_mu);
        s->ck_quit = 1;
        pthread_cond_signal(&s->ck_cv);
        pthread_mutex_unlock(&s->ck_mu);
        pthread_join(s->ck, NULL);
        pthread_cond_destroy(&s->ck_cv);
        pthread_mutex_destroy(&s->ck_mu);
        s->ck_on = 0;
        sqlite3_wal_hook(s->db, NULL, NULL);
    }
    pl_free(s->path);
    s->path = NULL;
}

/* ---- the seq cache ---- */

static void next_free(sq_store *s);

/* The slot of `code` in `t` (cap slots, a power of two, open addressing):
 * its own, or the free one where it goes. The seq cache's and a batch's. */
static size_t slot_of(const sq_next *t, size_t cap, const char *code)
{
    size_t i = (size_t)pl_hash_str(code) & (cap - 1);
    while (t[i].code && strcmp(t[i].code, code))
        i = (i + 1) & (cap - 1);
    return i;
}

static size_t next_slot(const sq_store *s, const char *code)
{
    return slot_of(s->next, s->capnext, code);
}

/* The cached next seq of `code`, or -1 when not known. */
static int64_t next_get(const sq_store *s, const char *code)
{
    if (!s->capnext || s->base.owner[0])
        return -1;
    const sq_next *e = &s->next[next_slot(s, code)];
    return e->code ? e->next : -1;
}

/* Caches `next` for `code` (-1: forgets it); out of memory only skips it. */
static void next_put(sq_store *s, const char *code, int64_t next)
{
    if (s->base.owner[0]) { /* other processes write too: no cache (any from before the owner goes) */
        if (s->nnext)
            next_free(s);
        return;
    }
    if ((s->nnext + 1) * 2 > s->capnext) {
        size_t cap = s->capnext ? s->capnext * 2 : 1024;
        sq_next *t = pl_calloc(cap, sizeof *t);
        if (!t)
            return;
        sq_next *old = s->next;
        size_t oldcap = s->capnext;
        s->next = t;
        s->capnext = cap;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].code)
                s->next[next_slot(s, old[i].code)] = old[i];
        pl_free(old);
    }
    sq_next *e = &s->next[next_slot(s, code)];
    if (!e->code) {
        if (!(e->code = pl_strdup(code)))
            return;
        s->nnext++;
    }
    e->next = next;
}

/* Forgets every cached seq (the slots stay). */
static void next_forget(sq_store *s)
{
    for (size_t i = 0; i < s->capnext; i++)
        s->next[i].next = -1;
}

static void next_free(sq_store *s)
{
    for (size_t i = 0; i < s->capnext; i++)
        pl_free(s->next[i].code);
    pl_free(s->next);
    s->next = NULL;
    s->nnext = s->capnext = 0;
}

static void sq_close(store *base)
{
    sq_store *s = sq(base);
    ck_stop(s);
    next_free(s);
    for (int i = 0; i < NQ; i++)
        sqlite3_finalize(s->q[i]);
    sqlite3_close(s->db);
    pl_free(s);
}

/* 0 unfinished, 1 finished, -1 no such room (message), -2 error (message). */
static int room_state(sq_store *s, const char *code, pl_buf *err)
{
    sqlite3_stmt *q = s->q[Q_ROOM_STATE];
    sqlite3_bind_text(q, 1, code, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    int st = rc == SQLITE_ROW ? sqlite3_column_int(q, 0) != 0 : -1;
    done(q);
    if (rc == SQLITE_DONE)
        pl_buf_printf(err, "store: no room '%s'", code);
    else if (rc != SQLITE_ROW)
        return fail(s, "reading a room", err), -2;
    return st;
}

/* Inside a write transaction: 0 when this handle has no owner or its owner
 * holds room code's lease with a live heartbeat; else STORE_LOST or -1. */
static int fence(sq_store *s, const char *code, pl_buf *err)
{
    if (!s->base.owner[0])
        return 0;
    sqlite3_stmt *q = s->q[Q_LEASE_OK];
    sqlite3_bind_text(q, 1, code, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, s->base.owner, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 3, now_ms());
    int rc = sqlite3_step(q);
    done(q);
    if (rc == SQLITE_ROW)
        return 0;
    return rc == SQLITE_DONE ? store_lost(&s->base, code, err) : fail(s, "checking a lease", err);
}

/* room_state's answer, and the room's next seq in *next when it is 0. */
static int room_next(sq_store *s, const char *code, int64_t *next, pl_buf *err)
{
    sqlite3_stmt *q = s->q[Q_COUNT];
    sqlite3_bind_text(q, 1, code, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    int st = rc == SQLITE_ROW ? sqlite3_column_int(q, 0) != 0 : -1;
    if (rc == SQLITE_ROW)
        *next = sqlite3_column_int64(q, 1);
    done(q);
    if (rc == SQLITE_DONE)
        pl_buf_printf(err, "store: no room '%s'", code);
    else if (rc != SQLITE_ROW)
        return fail(s, "reading a room", err), -2;
    return st;
}

static int set_lease(sq_store *s, const char *code, pl_buf *err)
{
    sqlite3_stmt *q = s->q[Q_LEASE_SET];
    sqlite3_bind_text(q, 1, code, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, s->base.owner, -1, SQLITE_STATIC);
    return exec_q(s, Q_LEASE_SET, "writing a lease", err);
}

static int sq_room_put(store *base, const store_room *r, pl_buf *err)
{
    sq_store *s = sq(base);
    if (begin(s, err) < 0)
        return -1;
    sqlite3_stmt *q = s->q[Q_ROOM_PUT];
    sqlite3_bind_text(q, 1, r->code, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, r->game, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, r->options, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 4, r->config, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 5, (sqlite3_int64)r->seed);
    sqlite3_bind_int64(q, 6, r->created_ms);
    int rc = sqlite3_step(q);
    done(q);
    int ret = 0;
    if (rc == SQLITE_CONSTRAINT_PRIMARYKEY) {
        pl_buf_printf(err, "store: a room '%s' exists already", r->code);
        ret = -1;
    } else if (rc != SQLITE_DONE) {
        ret = fail(s, "adding a room", err);
    } else if (s->base.owner[0]) { /* its creator holds it */
        ret = set_lease(s, r->code, err);
    }
    ret = end(s, ret, err);
    if (ret == 0)
        next_put(s, r->code, 0); /* a new room's history is empty */
    return ret;
}

/* Inside the transaction: checks and inserts every action. `seen` holds the
 * rooms of the batch so far and the next seq of each within it (slot_of; at
 * most half used; codes not owned): a room that comes back later in the
 * batch continues where its last run ended. Was a scan of the batch's
 * earlier actions per run, n * n / 2 string comparisons for n actions: half
 * a million at the sizes a loaded server writes (docs/benchmarks.md). */
static int append_all(sq_store *s, const store_action *a, int n, pl_buf *err)
{
    size_t cap = 16;
    while (cap < (size_t)n * 2)
        cap *= 2;
    sq_next *seen = pl_calloc(cap, sizeof *seen);
    if (!seen) {
        pl_buf_puts(err, "store: out of memory");
        return -1;
    }
    const char *room = NULL;
    int64_t next = 0;
    int ret = 0;
    for (int i = 0; i < n && ret == 0; i++) {
        if (!room || strcmp(room, a[i].room)) { /* a new run of a room in the batch */
            if (room)
                seen[slot_of(seen, cap, room)] = (sq_next){(char *)room, next};
            const sq_next *e = &seen[slot_of(seen, cap, a[i].room)];
            if (e->code) { /* an earlier run of this batch */
                next = e->next;
            } else {
                next = next_get(s, a[i].room); /* committed before this batch */
                if (next < 0) {
                    int st = room_next(s, a[i].room, &next, err);
                    if (st != 0) {
                        if (st == 1)
                            pl_buf_printf(err, "store: room '%s' is finished", a[i].room);
                        ret = -1;
                        break;
                    }
                }
                int f = fence(s, a[i].room, err);
                if (f != 0) {
                    ret = f;
                    break;
                }
            }
            room = a[i].room;
        }
        if (a[i].seq != next) {
            pl_buf_printf(err, "store: room '%s': action %lld expected, not %lld", room, (long long)next,
                          (long long)a[i].seq);
            ret = -1;
            break;
        }
        sqlite3_stmt *q = s->q[Q_APPEND];
        sqlite3_bind_text(q, 1, a[i].room, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 2, a[i].seq);
        sqlite3_bind_int(q, 3, a[i].seat);
        sqlite3_bind_text(q, 4, a[i].text, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 5, a[i].at_ms);
        int rc = sqlite3_step(q);
        done(q);
        if (rc != SQLITE_DONE) {
            ret = fail(s, "appending an action", err);
            break;
        }
        next++;
    }
    pl_free(seen);
    return ret;
}

static int sq_append(store *base, const store_action *a, int n, pl_buf *err)
{
    sq_store *s = sq(base);
    if (begin(s, err) < 0)
        return -1;
    int rc = end(s, append_all(s, a, n, err), err);
    if (rc != 0)
        next_forget(s);
    for (int i = 0; rc == 0 && i < n; i++)
        if (i + 1 == n || strcmp(a[i].room, a[i + 1].room)) /* a room's last action in a run */
            next_put(s, a[i].room, a[i].seq + 1);
    return rc;
}

static int sq_rating_get(store *base, int64_t account, const char *pool, store_rating *out, pl_buf *err);
static int rated_write(sq_store *s, const char *code, store_rated *r, pl_buf *err);

static int sq_finish(store *base, const char *code, const char *result, store_rated *r, pl_buf *err)
{
    sq_store *s = sq(base);
    if (begin(s, err) < 0)
        return -1;
    int st = room_state(s, code, err), rc = st == 0 ? 0 : -1;
    if (st == 1)
        pl_buf_printf(err, "store: room '%s' is finished already", code);
    if (rc == 0)
        rc = fence(s, code, err);
    if (rc == 0) {
        sqlite3_stmt *q = s->q[Q_FINISH];
        sqlite3_bind_text(q, 1, code, -1, SQLITE_STATIC);
        if (result)
            sqlite3_bind_text(q, 2, result, -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(q, 2);
        rc = exec_q(s, Q_FINISH, "finishing a room", err);
    }
    if (rc == 0 && r)
        rc = rated_write(s, code, r, err);
    next_put(s, code, -1); /* finished, or not known */
    return end(s, rc, err);
}

/* In the finish's transaction: reads the rated seats' ratings, computes the
 * updates and writes them with their history rows. 0 or -1. */
static int rated_write(sq_store *s, const char *code, store_rated *r, pl_buf *err)
{
    store_rating stored[PL_MAX_SEATS];
    for (int i = 0; i < r->n; i++) {
        memset(&stored[i], 0, sizeof stored[i]);
        stored[i].g = STORE_RATING_NEW;
        if (r->seats[i].account > 0 && sq_rating_get(&s->base, r->seats[i].account, r->pool, &stored[i], err) < 0)
            return -1;
    }
    if (store_rated_compute(r, stored, err) < 0)
        return -1;
    for (int i = 0; i < r->n; i++) {
        const store_rated_seat *x = &r->seats[i];
        if (x->account <= 0)
            continue;
        sqlite3_stmt *q = s->q[Q_RATING_PUT];
        sqlite3_bind_int64(q, 1, x->account);
        sqlite3_bind_text(q, 2, r->pool, -1, SQLITE_STATIC);
        sqlite3_bind_double(q, 3, x->after.rating);
        sqlite3_bind_double(q, 4, x->after.deviation);
        sqlite3_bind_double(q, 5, x->after.volatility);
        sqlite3_bind_int64(q, 6, r->now_ms);
        if (exec_q(s, Q_RATING_PUT, "writing a rating", err) < 0)
            return -1;
        q = s->q[Q_RATING_HIST];
        sqlite3_bind_int64(q, 1, x->account);
        sqlite3_bind_text(q, 2, r->pool, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 3, code, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 4, r->now_ms);
        sqlite3_bind_double(q, 5, x->before.rating);
        sqlite3_bind_double(q, 6, x->before.deviation);
        sqlite3_bind_double(q, 7, x->after.rating);
        sqlite3_bind_double(q, 8, x->after.deviation);
        if (exec_q(s, Q_RATING_HIST, "writing a rating's history", err) < 0)
            return -1;
    }
    return 0;
}

static int sq_room_config(store *base, const char *code, const char *config, pl_buf *err)
{
    sq_store *s = sq(base);
    if (begin(s, err) < 0)
        return -1;
    int rc = room_state(s, code, err) >= 0 ? 0 : -1;
    if (rc == 0)
        rc = fence(s, code, err);
    if (rc == 0) {
        sqlite3_stmt *q = s->q[Q_CONFIG];
        sqlite3_bind_text(q, 1, code, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 2, config, -1, SQLITE_STATIC);
        rc = exec_q(s, Q_CONFIG, "changing a room's configuration", err);
    }
    return end(s, rc, err);
}

static const char *col_text(sqlite3_stmt *q, int i)
{
    const char *t = (const char *)sqlite3_column_text(q, i);
    return t ? t : "";
}

/* Reads the current row of q and hands it to the caller's callback, which
 * `cb` points at (a store_*_fn); gives the callback's return. */
typedef int (*sq_row_fn)(sqlite3_stmt *q, const void *cb, void *ctx);

/* Steps q (bound already) to its end, handing each row to row(q, cb, ctx);
 * stops at the first nonzero return and gives it back. 0 at the end, or -1
 * with err set ("store: ... `what`"). q is reset either way. */
static int walk_rows(sq_store *s, sqlite3_stmt *q, sq_row_fn row, const void *cb, void *ctx, const char *what,
                     pl_buf *err)
{
    int rc = SQLITE_DONE, ret = 0;
    while (ret == 0 && (rc = sqlite3_step(q)) == SQLITE_ROW)
        ret = row(q, cb, ctx);
    done(q);
    if (ret != 0)
        return ret;
    return rc == SQLITE_DONE ? 0 : fail(s, what, err);
}

/* Steps a statement of ROOM_COLS, calling fn per row; n counts the rows. */
static int walk_rooms(sq_store *s, sqlite3_stmt *q, store_room_fn fn, void *ctx, int *n, pl_buf *err)
{
    int rc, ret = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        store_room r = {
            .code = col_text(q, 0),
            .game = col_text(q, 1),
            .options = col_text(q, 2),
            .config = col_text(q, 3),
            .seed = (uint64_t)sqlite3_column_int64(q, 4),
            .created_ms = sqlite3_column_int64(q, 5),
        };
        int finished = sqlite3_column_int(q, 6) != 0;
        const char *result = sqlite3_column_type(q, 7) == SQLITE_NULL ? NULL : col_text(q, 7);
        ++*n;
        if ((ret = fn(ctx, &r, finished, result)) != 0)
            break;
    }
    done(q);
    if (ret == 0 && rc != SQLITE_DONE)
        return fail(s, "reading rooms", err);
    return ret;
}

static int sq_rooms(store *base, int unfinished_only, store_room_fn fn, void *ctx, pl_buf *err)
{
    sq_store *s = sq(base);
    int n = 0;
    return walk_rooms(s, s->q[unfinished_only ? Q_ROOMS_OPEN : Q_ROOMS_ALL], fn, ctx, &n, err);
}

static int sq_room_get(store *base, const char *code, store_room_fn fn, void *ctx, pl_buf *err)
{
    sq_store *s = sq(base);
    int n = 0;
    sqlite3_bind_text(s->q[Q_ROOM_GET], 1, code, -1, SQLITE_STATIC);
    int ret = walk_rooms(s, s->q[Q_ROOM_GET], fn, ctx, &n, err);
    return ret == 0 && n == 0 ? 1 : ret;
}

static int sq_actions(store *base, const char *code, store_action_fn fn, void *ctx, pl_buf *err)
{
    sq_store *s = sq(base);
    int st = room_state(s, code, err);
    if (st < 0)
        return -1;
    sqlite3_stmt *q = s->q[Q_ACTIONS];
    sqlite3_bind_text(q, 1, code, -1, SQLITE_STATIC);
    int rc, ret = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        store_action a = {
            .room = col_text(q, 0),
            .seq = sqlite3_column_int64(q, 1),
            .seat = sqlite3_column_int(q, 2),
            .text = col_text(q, 3),
            .at_ms = sqlite3_column_int64(q, 4),
        };
        if ((ret = fn(ctx, &a)) != 0)
            break;
    }
    done(q);
    if (ret == 0 && rc != SQLITE_DONE)
        return fail(s, "reading actions", err);
    return ret;
}

static int64_t sq_count(store *base, const char *code, pl_buf *err)
{
    sq_store *s = sq(base);
    int64_t next = 0;
    return room_next(s, code, &next, err) < 0 ? -1 : next;
}

/* Inside a transaction: the owner's heartbeat end (ms), 0 when it has
 * none, or -1. */
static int64_t owner_until(sq_store *s, pl_buf *err)
{
    sqlite3_stmt *q = s->q[Q_OWNER_GET];
    sqlite3_bind_text(q, 1, s->base.owner, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    int64_t until = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
    done(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return fail(s, "reading a heartbeat", err);
    return until;
}

static int sq_owner_beat(store *base, int64_t ttl_ms, int64_t conns, pl_buf *err)
{
    sq_store *s = sq(base);
    if (begin(s, err) < 0)
        return -1;
    int64_t now = now_ms(), until = owner_until(s, err);
    int rc = until < 0 ? -1 : 0;
    if (rc == 0) {
        sqlite3_stmt *q = s->q[Q_OWNER_SET];
        sqlite3_bind_text(q, 1, s->base.owner, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 2, now + ttl_ms);
        sqlite3_bind_int64(q, 3, conns);
        rc = exec_q(s, Q_OWNER_SET, "writing a heartbeat", err);
    }
    rc = end(s, rc, err);
    return rc < 0 ? -1 : until > now;
}

static int sq_lease_take(store *base, const char *code, pl_buf *holder, pl_buf *err)
{
    sq_store *s = sq(base);
    if (begin(s, err) < 0)
        return -1;
    int64_t now = now_ms(), until = owner_until(s, err);
    int rc = until < 0 ? -1 : 0;
    if (rc == 0 && until <= now) {
        pl_buf_printf(err, "store: the heartbeat of '%s' has expired (store_owner_beat first)", s->base.owner);
        rc = -1;
    }
    if (rc == 0 && room_state(s, code, err) < 0)
        rc = -1;
    int granted = 1;
    if (rc == 0) {
        sqlite3_stmt *q = s->q[Q_LEASE_GET];
        sqlite3_bind_text(q, 1, code, -1, SQLITE_STATIC);
        int sr = sqlite3_step(q);
        if (sr == SQLITE_ROW && strcmp(col_text(q, 0), s->base.owner) && sqlite3_column_int64(q, 1) > now) {
            granted = 0; /* another live owner holds it */
            if (holder)
                pl_buf_puts(holder, col_text(q, 0));
        }
        done(q);
        if (sr != SQLITE_ROW && sr != SQLITE_DONE)
            rc = fail(s, "reading a lease", err);
    }
    if (rc == 0 && granted)
        rc = set_lease(s, code, err);
    rc = end(s, rc, err);
    return rc < 0 ? -1 : granted;
}

static int sq_lease_drop(store *base, const char *code, pl_buf *err)
{
    sq_store *s = sq(base);
    sqlite3_stmt *q = s->q[Q_LEASE_DROP];
    sqlite3_bind_text(q, 1, code, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, s->base.owner, -1, SQLITE_STATIC);
    return exec_q(s, Q_LEASE_DROP, "dropping a lease", err);
}

static int sq_watch_fd(store *base)
{
    (void)base;
    return -1; /* no notifications: read store_rooms again */
}

static int sq_watch_drain(store *base, store_note_fn fn, void *ctx, pl_buf *err)
{
    (void)base, (void)fn, (void)ctx, (void)err;
    return 0;
}

static int sq_clear(store *base, pl_buf *err)
{
    sq_store *s = sq(base);
    char *msg = NULL;
    next_free(s);
    if (sqlite3_exec(s->db, "BEGIN IMMEDIATE; DELETE FROM drills; DELETE FROM rating_history; DELETE FROM ratings; DELETE FROM leases; DELETE FROM owners; DELETE FROM actions; DELETE FROM rooms;"
                     " DELETE FROM sessions; DELETE FROM accounts; COMMIT",
                     NULL, NULL, &msg) == SQLITE_OK)
        return 0;
    pl_buf_printf(err, "store: emptying the store: %s", msg ? msg : sqlite3_errmsg(s->db));
    sqlite3_free(msg);
    if (!sqlite3_get_autocommit(s->db))
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

/* ---- accounts and sessions ---- */

static int sq_account_put(store *base, const char *name, const char *folded, const char *hash, int64_t created_ms,
                          int64_t *id, pl_buf *err)
{
    sq_store *s = sq(base);
    sqlite3_stmt *q = s->q[Q_ACC_PUT];
    sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, folded, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 4, created_ms);
    int rc = sqlite3_step(q), ret = 1; /* no row: the folded name is taken */
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(q, 0);
        ret = 0;
        rc = sqlite3_step(q); /* runs the statement to its end: the insert is done */
    }
    done(q);
    return rc == SQLITE_DONE ? ret : fail(s, "adding an account", err);
}

static int sq_account_get(store *base, const char *folded, int64_t id, store_account *out, pl_buf *err)
{
    sq_store *s = sq(base);
    sqlite3_stmt *q = s->q[folded ? Q_ACC_BY_NAME : Q_ACC_BY_ID];
    if (folded)
        sqlite3_bind_text(q, 1, folded, -1, SQLITE_STATIC);
    else
        sqlite3_bind_int64(q, 1, id);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        out->id = sqlite3_column_int64(q, 0);
        store_copy_field(out->name, sizeof out->name, col_text(q, 1));
        store_copy_field(out->folded, sizeof out->folded, col_text(q, 2));
        store_copy_field(out->hash, sizeof out->hash, col_text(q, 3));
        out->created_ms = sqlite3_column_int64(q, 4);
        out->is_private = sqlite3_column_int(q, 5) != 0;
    }
    done(q);
    if (rc == SQLITE_ROW)
        return 0;
    return rc == SQLITE_DONE ? 1 : fail(s, "reading an account", err);
}

/* Runs statement `which` (bound already, no rows) and gives the rows it
 * changed, or -1. */
static int changed(sq_store *s, int which, const char *what, pl_buf *err)
{
    if (exec_q(s, which, what, err) < 0)
        return -1;
    return sqlite3_changes(s->db);
}

/* Runs statement `which` (bound already): 0 when it changed a row, 1 when it
 * changed none (nothing matched), or -1. */
static int changed_one(sq_store *s, int which, const char *what, pl_buf *err)
{
    int n = changed(s, which, what, err);
    return n < 0 ? -1 : n == 0 ? 1 : 0;
}

/* Ends account id's sessions but `keep` (NULL: all): the number, or -1. */
static int drop_others(sq_store *s, int64_t id, const char *keep, pl_buf *err)
{
    sqlite3_stmt *q = s->q[Q_SES_DROP_OTHERS];
    sqlite3_bind_int64(q, 1, id);
    if (keep)
        sqlite3_bind_text(q, 2, keep, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(q, 2);
    return changed(s, Q_SES_DROP_OTHERS, "ending sessions", err);
}

static int sq_account_set_hash(store *base, int64_t id, const char *hash, const char *keep, pl_buf *err)
{
    sq_store *s = sq(base);
    if (begin(s, err) < 0)
        return -1;
    sqlite3_stmt *q = s->q[Q_ACC_HASH];
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_text(q, 2, hash, -1, SQLITE_STATIC);
    int rc = changed_one(s, Q_ACC_HASH, "changing a password", err);
    if (rc == 0 && drop_others(s, id, keep, err) < 0)
        rc = -1;
    if (rc == 1) /* nothing to commit */
        return end(s, -2, err) == -2 ? 1 : -1;
    return end(s, rc, err);
}

static int sq_account_private(store *base, int64_t id, bool on, pl_buf *err)
{
    sq_store *s = sq(base);
    sqlite3_stmt *q = s->q[Q_ACC_PRIVATE];
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_int(q, 2, on ? 1 : 0);
    return changed_one(s, Q_ACC_PRIVATE, "making a page private or public", err);
}

static int sq_account_rehash(store *base, int64_t id, const char *old, const char *hash, pl_buf *err)
{
    sq_store *s = sq(base);
    sqlite3_stmt *q = s->q[Q_ACC_REHASH];
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_text(q, 2, old, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, hash, -1, SQLITE_STATIC);
    return changed_one(s, Q_ACC_REHASH, "rehashing a password", err);
}

/* Inside the transaction: every room that seats account id anonymised. */
static int anonymise_rooms(sq_store *s, int64_t id, const char *anon, pl_buf *err)
{
    /* The rooms to change are read first, then written: an UPDATE while the
     * SELECT still walks the table may or may not be seen by it. */
    char **codes = NULL, **configs = NULL;
    size_t n = 0, cap = 0;
    int rc, ret = 0;
    sqlite3_stmt *q = s->q[Q_ACC_ROOMS];
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        char *cfg = store_config_anonymise(col_text(q, 1), id, anon);
        if (!cfg)
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 8;
            char **a = pl_realloc(codes, nc * sizeof *a), **b = a ? pl_realloc(configs, nc * sizeof *b) : NULL;
            if (a)
                codes = a;
            if (b)
                configs = b;
            if (!a || !b) {
                pl_free(cfg);
                ret = -1;
                pl_buf_puts(err, "store: out of memory");
                break;
            }
            cap = nc;
        }
        codes[n] = pl_strdup(col_text(q, 0));
        configs[n++] = cfg;
    }
    done(q);
    if (ret == 0 && rc != SQLITE_DONE && rc != SQLITE_ROW)
        ret = fail(s, "reading rooms", err);
    for (size_t i = 0; ret == 0 && i < n; i++) {
        if (!codes[i]) {
            ret = -1;
            pl_buf_puts(err, "store: out of memory");
            break;
        }
        sqlite3_stmt *u = s->q[Q_CONFIG];
        sqlite3_bind_text(u, 1, codes[i], -1, SQLITE_STATIC);
        sqlite3_bind_text(u, 2, configs[i], -1, SQLITE_STATIC);
        ret = exec_q(s, Q_CONFIG, "anonymising a room", err);
    }
    for (size_t i = 0; i < n; i++) {
        pl_free(codes[i]);
        pl_free(configs[i]);
    }
    pl_free(codes);
    pl_free(configs);
    return ret;
}

static int sq_account_delete(store *base, int64_t id, const char *anon, pl_buf *err)
{
    sq_store *s = sq(base);
    if (begin(s, err) < 0)
        return -1;
    int rc = anonymise_rooms(s, id, anon, err);
    if (rc == 0 && drop_others(s, id, NULL, err) < 0)
        rc = -1;
    if (rc == 0) {
        sqlite3_bind_int64(s->q[Q_ACC_DELETE], 1, id);
        rc = changed_one(s, Q_ACC_DELETE, "deleting an account", err);
    }
    if (rc == 1) /* no such account: nothing was changed, nothing to keep */
        return end(s, -2, err) == -2 ? 1 : -1;
    return end(s, rc, err);
}

static int sq_session_put(store *base, const char *hash, int64_t account, int64_t expires_ms, pl_buf *err)
{
    sq_store *s = sq(base);
    sqlite3_stmt *q = s->q[Q_SES_PUT];
    sqlite3_bind_text(q, 1, hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 2, account);
    sqlite3_bind_int64(q, 3, expires_ms);
    return changed_one(s, Q_SES_PUT, "adding a session", err);
}

static int sq_session_get(store *base, const char *hash, int64_t now_ms, int64_t renew_ms, int64_t *account,
                          pl_buf *err)
{
    sq_store *s = sq(base);
    sqlite3_stmt *q = s->q[Q_SES_GET];
    sqlite3_bind_text(q, 1, hash, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q), found = rc == SQLITE_ROW;
    int64_t expires = 0;
    if (found) {
        *account = sqlite3_column_int64(q, 0);
        expires = sqlite3_column_int64(q, 1);
    }
    done(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return fail(s, "reading a session", err);
    if (!found)
        return 1;
    if (expires <= now_ms) { /* expired: it goes */
        q = s->q[Q_SES_DROP_EXPIRED];
        sqlite3_bind_text(q, 1, hash, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 2, now_ms);
        return exec_q(s, Q_SES_DROP_EXPIRED, "ending an expired session", err) < 0 ? -1 : 1;
    }
    if (!store_renew_due(now_ms, expires, renew_ms))
        return 0;
    q = s->q[Q_SES_RENEW];
    sqlite3_bind_text(q, 1, hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 2, renew_ms);
    return exec_q(s, Q_SES_RENEW, "renewing a session", err) < 0 ? -1 : 0;
}

static int sq_session_drop(store *base, const char *hash, pl_buf *err)
{
    sq_store *s = sq(base);
    sqlite3_bind_text(s->q[Q_SES_DROP], 1, hash, -1, SQLITE_STATIC);
    return changed_one(s, Q_SES_DROP, "ending a session", err);
}

static int sq_session_drop_others(store *base, int64_t account, const char *keep, pl_buf *err)
{
    return drop_others(sq(base), account, keep, err);
}

static int sq_session_purge(store *base, int64_t now_ms, pl_buf *err)
{
    sq_store *s = sq(base);
    sqlite3_bind_int64(s->q[Q_SES_PURGE], 1, now_ms);
    return changed(s, Q_SES_PURGE, "deleting expired sessions", err);
}

/* ---- ratings ---- */

/* Row q (pool, rating, rd, sigma, games, updated_ms) into *out. */
static void rating_row(sqlite3_stmt *q, store_rating *out)
{
    memset(out, 0, sizeof *out);
    store_copy_field(out->pool, sizeof out->pool, col_text(q, 0));
    out->g = (pl_glicko2){sqlite3_column_double(q, 1), sqlite3_column_double(q, 2), sqlite3_column_double(q, 3)};
    out->games = sqlite3_column_int64(q, 4);
    out->updated_ms = sqlite3_column_int64(q, 5);
}

static int sq_rating_get(store *base, int64_t account, const char *pool, store_rating *out, pl_buf *err)
{
    sq_store *s = sq(base);
    sqlite3_stmt *q = s->q[Q_RATING_GET];
    sqlite3_bind_int64(q, 1, account);
    sqlite3_bind_text(q, 2, pool, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW)
        rating_row(q, out);
    done(q);
    if (rc == SQLITE_ROW)
        return 0;
    return rc == SQLITE_DONE ? 1 : fail(s, "reading a rating", err);
}

static int sq_ratings_of(store *base, int64_t account, store_rating *out, int max, pl_buf *err)
{
    sq_store *s = sq(base);
    sqlite3_stmt *q = s->q[Q_RATINGS_OF];
    sqlite3_bind_int64(q, 1, account);
    int n = 0, rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (n < max)
            rating_row(q, &out[n]);
        n++;
    }
    done(q);
    return rc == SQLITE_DONE ? n : fail(s, "reading ratings", err);
}

static int history_row(sqlite3_stmt *q, const void *cb, void *ctx)
{
    store_rating_point p = {
        .room = col_text(q, 0),
        .at_ms = sqlite3_column_int64(q, 1),
        .rating = sqlite3_column_double(q, 2),
        .rd = sqlite3_column_double(q, 3),
    };
    return (*(const store_history_fn *)cb)(ctx, &p);
}

static int sq_rating_history(store *base, int64_t account, const char *pool, store_history_fn fn, void *ctx,
                             pl_buf *err)
{
    sq_store *s = sq(base);
    sqlite3_stmt *q = s->q[Q_RATING_HISTORY];
    sqlite3_bind_int64(q, 1, account);
    sqlite3_bind_text(q, 2, pool, -1, SQLITE_STATIC);
    return walk_rows(s, q, history_row, &fn, ctx, "reading a rating history", err);
}

static int sq_player_games(store *base, int64_t account, int64_t before_ms, int limit, store_game_fn fn, void *ctx,
                           pl_buf *err)
{
    sq_store *s = sq(base);
    sqlite3_stmt *q = s->q[Q_PLAYER_GAMES];
    sqlite3_bind_int64(q, 1, account);
    sqlite3_bind_int(q, 2, limit);
    sqlite3_bind_int64(q, 3, before_ms);
    int rc, ret = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        ret = store_player_row(account, col_text(q, 0), col_text(q, 1), col_text(q, 2),
                               (const char *)sqlite3_column_text(q, 3), col_text(q, 4),
                               sqlite3_column_int64(q, 5), sqlite3_column_int(q, 6) != 0, fn, ctx);
        if (ret != 0)
            break;
    }
    done(q);
    if (ret != 0)
        return ret;
    return rc == SQLITE_DONE ? 0 : fail(s, "reading a player's games", err);
}

static int sq_drill_get(store *base, int64_t account, pl_buf *out, int64_t *updated_ms, pl_buf *err)
{
    sq_store *s = sq(base);
    sqlite3_stmt *q = s->q[Q_DRILL_GET];
    sqlite3_bind_int64(q, 1, account);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        pl_buf_append(out, (const char *)sqlite3_column_text(q, 0), (size_t)sqlite3_column_bytes(q, 0));
        *updated_ms = sqlite3_column_int64(q, 1);
    }
    done(q);
    if (rc == SQLITE_ROW && out->oom) {
        pl_buf_puts(err, "store: out of memory reading a drill record");
        return -1;
    }
    if (rc == SQLITE_ROW)
        return 0;
    return rc == SQLITE_DONE ? 1 : fail(s, "reading a drill record", err);
}

static int sq_drill_put(store *base, int64_t account, const char *record, int64_t now_ms, pl_buf *err)
{
    sq_store *s = sq(base);
    sqlite3_stmt *q = s->q[Q_DRILL_PUT];
    sqlite3_bind_int64(q, 1, account);
    sqlite3_bind_text(q, 2, record, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 3, now_ms);
    return changed_one(s, Q_DRILL_PUT, "writing a drill record", err);
}

/* ---- Play now across processes (store.h) -------------------------------- */

static int sq_seek_put(store *base, const store_seek *k, pl_buf *err)
{
    sq_store *s = sq(base);
    sqlite3_stmt *q = s->q[Q_SEEK_PUT];
    sqlite3_bind_text(q, 1, k->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, s->base.owner, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, k->pool, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 4, k->game, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 5, k->options, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 6, k->name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 7, k->account);
    sqlite3_bind_int(q, 8, k->players);
    sqlite3_bind_double(q, 9, k->rating);
    sqlite3_bind_double(q, 10, k->rd);
    sqlite3_bind_int64(q, 11, k->made_ms);
    sqlite3_bind_int(q, 12, k->after_s);
    sqlite3_bind_int(q, 13, k->widest);
    return exec_q(s, Q_SEEK_PUT, "writing a seek", err);
}

static int sq_seek_drop(store *base, const char *id, pl_buf *err)
{
    sq_store *s = sq(base);
    sqlite3_bind_text(s->q[Q_SEEK_DROP], 1, id, -1, SQLITE_STATIC);
    return exec_q(s, Q_SEEK_DROP, "deleting a seek", err);
}

static int seek_row(sqlite3_stmt *q, const void *cb, void *ctx)
{
    store_seek k = {.id = col_text(q, 0),
                    .owner = col_text(q, 1),
                    .pool = col_text(q, 2),
                    .game = col_text(q, 3),
                    .options = col_text(q, 4),
                    .name = col_text(q, 5),
                    .account = sqlite3_column_int64(q, 6),
                    .players = sqlite3_column_int(q, 7),
                    .rating = sqlite3_column_double(q, 8),
                    .rd = sqlite3_column_double(q, 9),
                    .made_ms = sqlite3_column_int64(q, 10),
                    .after_s = sqlite3_column_int(q, 11),
                    .widest = sqlite3_column_int(q, 12)};
    return (*(const store_seek_fn *)cb)(ctx, &k);
}

static int sq_seeks_read(store *base, store_seek_fn fn, void *ctx, pl_buf *err)
{
    sq_store *s = sq(base);
    sqlite3_stmt *q = s->q[Q_SEEKS_READ];
    sqlite3_bind_int64(q, 1, now_ms());
    return walk_rows(s, q, seek_row, &fn, ctx, "reading the seeks", err);
}

/* In a transaction: whether role `name` may be this owner's now (free, its,
 * or its holder's heartbeat expired): 1, 0 (another live owner's), or -1. */
static int role_free(sq_store *s, const char *name, int64_t now, int mine_only, pl_buf *err)
{
    sqlite3_stmt *q = s->q[Q_ROLE_GET];
    sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
    int sr = sqlite3_step(q), ok = mine_only ? 0 : 1;
    if (sr == SQLITE_ROW) {
        int mine = !strcmp(col_text(q, 0), s->base.owner);
        ok = mine || (!mine_only && sqlite3_column_int64(q, 1) <= now);
    }
    done(q);
    if (sr != SQLITE_ROW && sr != SQLITE_DONE)
        return fail(s, "reading a role", err);
    return ok;
}

static int sq_role_take(store *base, const char *name, pl_buf *err)
{
    sq_store *s = sq(base);
    if (begin(s, err) < 0)
        return -1;
    int64_t now = now_ms(), until = owner_until(s, err);
    int rc = until < 0 ? -1 : 0, granted = 0;
    if (rc == 0 && until <= now) {
        pl_buf_printf(err, "store: the heartbeat of '%s' has expired (store_owner_beat first)", s->base.owner);
        rc = -1;
    }
    if (rc == 0 && (granted = role_free(s, name, now, 0, err)) < 0)
        rc = -1;
    if (rc == 0 && granted) {
        sqlite3_stmt *q = s->q[Q_ROLE_SET];
        sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 2, s->base.owner, -1, SQLITE_STATIC);
        rc = exec_q(s, Q_ROLE_SET, "writing a role", err);
    }
    rc = end(s, rc, err);
    return rc < 0 ? -1 : granted;
}

static int sq_pairing_put(store *base, const char *role, const store_pairing *p, int n, pl_buf *err)
{
    sq_store *s = sq(base);
    if (begin(s, err) < 0)
        return -1;
    int64_t now = now_ms(), until = owner_until(s, err);
    int rc = until < 0 ? -1 : until <= now ? STORE_LOST : 0;
    if (rc == 0) {
        int mine = role_free(s, role, now, 1, err);
        rc = mine < 0 ? -1 : mine ? 0 : STORE_LOST;
    }
    char owners[PL_MAX_SEATS][STORE_OWNER_MAX + 1];
    for (int i = 0; rc == 0 && i < n; i++) {
        sqlite3_stmt *q = s->q[Q_SEEK_OWNER];
        sqlite3_bind_text(q, 1, p[i].seek, -1, SQLITE_STATIC);
        int sr = sqlite3_step(q);
        if (sr == SQLITE_ROW)
            snprintf(owners[i], sizeof owners[i], "%s", col_text(q, 0));
        done(q);
        rc = sr == SQLITE_ROW ? 0 : sr == SQLITE_DONE ? 1 : fail(s, "reading a seek", err);
    }
    for (int i = 0; rc == 0 && i < n; i++) {
        sqlite3_bind_text(s->q[Q_SEEK_DROP], 1, p[i].seek, -1, SQLITE_STATIC);
        rc = exec_q(s, Q_SEEK_DROP, "deleting a seek", err);
        sqlite3_stmt *q = s->q[Q_PAIRING_PUT];
        sqlite3_bind_text(q, 1, p[i].seek, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 2, owners[i], -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 3, p[i].room, -1, SQLITE_STATIC);
        sqlite3_bind_int(q, 4, p[i].seat);
        sqlite3_bind_text(q, 5, p[i].token, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 6, p[i].pool, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 7, p[i].game, -1, SQLITE_STATIC);
        sqlite3_bind_int(q, 8, p[i].computer);
        sqlite3_bind_int(q, 9, p[i].rated);
        if (rc == 0)
            rc = exec_q(s, Q_PAIRING_PUT, "writing a pairing", err);
        else
            done(q);
    }
    return end(s, rc, err);
}

static int pairing_row(sqlite3_stmt *q, const void *cb, void *ctx)
{
    store_pairing p = {.seek = col_text(q, 0),
                       .room = col_text(q, 1),
                       .token = col_text(q, 2),
                       .pool = col_text(q, 3),
                       .game = col_text(q, 4),
                       .seat = sqlite3_column_int(q, 5),
                       .computer = sqlite3_column_int(q, 6),
                       .rated = sqlite3_column_int(q, 7)};
    return (*(const store_pairing_fn *)cb)(ctx, &p);
}

static int sq_pairings_of(store *base, store_pairing_fn fn, void *ctx, pl_buf *err)
{
    sq_store *s = sq(base);
    sqlite3_stmt *q = s->q[Q_PAIRINGS_OF];
    sqlite3_bind_text(q, 1, s->base.owner, -1, SQLITE_STATIC);
    return walk_rows(s, q, pairing_row, &fn, ctx, "reading the pairings", err);
}

static int sq_pairing_drop(store *base, const char *seek, pl_buf *err)
{
    sq_store *s = sq(base);
    sqlite3_bind_text(s->q[Q_PAIRING_DROP], 1, seek, -1, SQLITE_STATIC);
    sqlite3_bind_text(s->q[Q_PAIRING_DROP], 2, s->base.owner, -1, SQLITE_STATIC);
    return exec_q(s, Q_PAIRING_DROP, "deleting a pairing", err);
}

static int64_t sq_online(store *base, pl_buf *err)
{
    sq_store *s = sq(base);
    sqlite3_stmt *q = s->q[Q_ONLINE];
    sqlite3_bind_int64(q, 1, now_ms());
    sqlite3_bind_text(q, 2, s->base.owner, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    int64_t n = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
    done(q);
    return rc == SQLITE_ROW ? n : fail(s, "reading the connections", err);
}

/* The owner whose heartbeat ended longest ago, before `cut`, into `who`:
 * 1, 0 none, or -1. A read: outside a transaction it takes no write lock. */
static int sweep_dead(sq_store *s, int64_t cut, char *who, size_t n, pl_buf *err)
{
    sqlite3_stmt *q = s->q[Q_SWEEP_DEAD];
    sqlite3_bind_int64(q, 1, cut);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW)
        snprintf(who, n, "%s", col_text(q, 0));
    done(q);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : fail(s, "reading the heartbeats", err);
}

/* Runs sweep statement `which` for owner `who` (with `arg`); the rows it
 * deleted, or -1. */
static int64_t sweep_rows(sq_store *s, int which, const char *who, int64_t arg, pl_buf *err)
{
    sqlite3_stmt *q = s->q[which];
    sqlite3_bind_text(q, 1, who, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 2, arg);
    if (exec_q(s, which, "sweeping a dead process's rows", err) < 0)
        return -1;
    return sqlite3_changes(s->db);
}

static int64_t sq_seeks_sweep(store *base, int64_t grace_ms, int max_rows, pl_buf *err)
{
    sq_store *s = sq(base);
    char who[STORE_OWNER_MAX + 1];
    int64_t cut = now_ms() - grace_ms;
    int dead = sweep_dead(s, cut, who, sizeof who, err);
    if (dead <= 0) /* nothing to sweep (the usual answer): no write lock taken */
        return dead;
    if (begin(s, err) < 0)
        return -1;
    int64_t n = 0, ns = 0, np = 0, no = 0;
    int rc = (dead = sweep_dead(s, cut, who, sizeof who, err)) < 0 ? -1 : 0; /* again, in the transaction */
    if (rc == 0 && dead) {
        ns = sweep_rows(s, Q_SWEEP_SEEKS, who, max_rows, err);
        np = ns < 0 ? -1 : sweep_rows(s, Q_SWEEP_PAIRINGS, who, max_rows, err);
        no = np < 0 ? -1 : ns < max_rows && np < max_rows ? sweep_rows(s, Q_SWEEP_OWNER, who, cut, err) : 0;
        rc = no < 0 ? -1 : 0;
        n = ns + np + no;
    }
    rc = end(s, rc, err);
    return rc < 0 ? -1 : n;
}

static const store_ops sq_ops = {
    .close = sq_close,
    .room_put = sq_room_put,
    .append = sq_append,
    .finish = sq_finish,
    .room_config = sq_room_config,
    .rooms = sq_rooms,
    .room_get = sq_room_get,
    .actions = sq_actions,
    .count = sq_count,
    .owner_beat = sq_owner_beat,
    .lease_take = sq_lease_take,
    .lease_drop = sq_lease_drop,
    .watch_fd = sq_watch_fd,
    .watch_drain = sq_watch_drain,
    .clear = sq_clear,
    .account_put = sq_account_put,
    .account_get = sq_account_get,
    .account_set_hash = sq_account_set_hash,
    .account_rehash = sq_account_rehash,
    .account_private = sq_account_private,
    .account_delete = sq_account_delete,
    .session_put = sq_session_put,
    .session_get = sq_session_get,
    .session_drop = sq_session_drop,
    .session_drop_others = sq_session_drop_others,
    .session_purge = sq_session_purge,
    .rating_get = sq_rating_get,
    .ratings_of = sq_ratings_of,
    .rating_history = sq_rating_history,
    .seek_put = sq_seek_put,
    .seek_drop = sq_seek_drop,
    .seeks_read = sq_seeks_read,
    .role_take = sq_role_take,
    .pairing_put = sq_pairing_put,
    .pairings_of = sq_pairings_of,
    .pairing_drop = sq_pairing_drop,
    .online = sq_online,
    .seeks_sweep = sq_seeks_sweep,
    .player_games = sq_player_games,
    .drill_get = sq_drill_get,
    .drill_put = sq_drill_put,
};
