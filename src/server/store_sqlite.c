/* store_sqlite.c — the store (store.h) in one SQLite file.
 *
 * Schema (version 1):
 *   meta(key PRIMARY KEY, value)          "schema" = "1"
 *   rooms(code PRIMARY KEY, game, options, config, seed, created_ms,
 *         finished, result)
 *   actions(room REFERENCES rooms, seq, seat, text, at_ms,
 *           PRIMARY KEY (room, seq)) WITHOUT ROWID
 * Every statement is prepared once with bound parameters (no SQL is built
 * from text). The seed, an unsigned 64-bit number, is stored as the signed
 * integer with the same bits.
 */
#include "store.h"

#include <sqlite3.h>
#include <string.h>

#include "parlour/alloc.h"

#define STORE_SCHEMA "1"

enum {
    Q_ROOM_PUT,
    Q_ROOM_STATE, /* finished flag of a room */
    Q_COUNT,
    Q_APPEND,
    Q_FINISH,
    Q_ROOMS_ALL,
    Q_ROOMS_OPEN,
    Q_ACTIONS,
    Q_BEGIN,
    Q_COMMIT,
    Q_ROLLBACK,
    Q_CONFIG,
    NQ
};

static const char *const sql_text[NQ] = {
    [Q_ROOM_PUT] = "INSERT INTO rooms(code, game, options, config, seed, created_ms) "
                   "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    [Q_ROOM_STATE] = "SELECT finished FROM rooms WHERE code = ?1",
    [Q_COUNT] = "SELECT count(*) FROM actions WHERE room = ?1",
    [Q_APPEND] = "INSERT INTO actions(room, seq, seat, text, at_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
    [Q_FINISH] = "UPDATE rooms SET finished = 1, result = ?2 WHERE code = ?1 AND finished = 0",
    [Q_ROOMS_ALL] = "SELECT code, game, options, config, seed, created_ms, finished, result "
                    "FROM rooms ORDER BY created_ms, code",
    [Q_ROOMS_OPEN] = "SELECT code, game, options, config, seed, created_ms, finished, result "
                     "FROM rooms WHERE finished = 0 ORDER BY created_ms, code",
    [Q_ACTIONS] = "SELECT room, seq, seat, text, at_ms FROM actions WHERE room = ?1 ORDER BY seq",
    [Q_BEGIN] = "BEGIN IMMEDIATE",
    [Q_COMMIT] = "COMMIT",
    [Q_ROLLBACK] = "ROLLBACK",
    [Q_CONFIG] = "UPDATE rooms SET config = ?2 WHERE code = ?1",
};

static const char schema_sql[] =
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS rooms("
    " code TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,"
    " config TEXT NOT NULL, seed INTEGER NOT NULL, created_ms INTEGER NOT NULL,"
    " finished INTEGER NOT NULL DEFAULT 0, result TEXT);"
    "CREATE TABLE IF NOT EXISTS actions("
    " room TEXT NOT NULL REFERENCES rooms(code), seq INTEGER NOT NULL,"
    " seat INTEGER NOT NULL, text TEXT NOT NULL, at_ms INTEGER NOT NULL,"
    " PRIMARY KEY(room, seq)) WITHOUT ROWID;"
    "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', '" STORE_SCHEMA "');";

struct store {
    sqlite3 *db;
    sqlite3_stmt *q[NQ];
};

/* Writes "what: SQLite's message" into err; returns -1. */
static int fail(store *s, const char *what, pl_buf *err)
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
static int exec_q(store *s, int which, const char *what, pl_buf *err)
{
    int rc = sqlite3_step(s->q[which]);
    done(s->q[which]);
    return rc == SQLITE_DONE ? 0 : fail(s, what, err);
}

static int check_schema(store *s, pl_buf *err)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT value FROM meta WHERE key = 'schema'", -1, &q, NULL) != SQLITE_OK)
        return fail(s, "reading the schema version", err);
    int rc = sqlite3_step(q);
    const char *v = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(q, 0) : NULL;
    int ok = v && !strcmp(v, STORE_SCHEMA);
    if (!ok)
        pl_buf_printf(err, "store: schema version %s, this program reads version %s", v ? v : "(none)",
                      STORE_SCHEMA);
    sqlite3_finalize(q);
    return ok ? 0 : -1;
}

store *store_open(const char *path, pl_buf *err)
{
    store *s = pl_calloc(1, sizeof *s);
    if (!s) {
        pl_buf_puts(err, "out of memory");
        return NULL;
    }
    int rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                             NULL);
    if (rc != SQLITE_OK) {
        pl_buf_printf(err, "store: cannot open %s: %s", path,
                      s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
        store_close(s);
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
        store_close(s);
        return NULL;
    }
    char *msg = NULL;
    if (sqlite3_exec(s->db, "PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;", NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(s->db, schema_sql, NULL, NULL, &msg) != SQLITE_OK) {
        pl_buf_printf(err, "store: %s: %s", path, msg ? msg : sqlite3_errmsg(s->db));
        sqlite3_free(msg);
        store_close(s);
        return NULL;
    }
    if (check_schema(s, err) < 0) {
        store_close(s);
        return NULL;
    }
    for (int i = 0; i < NQ; i++)
        if (sqlite3_prepare_v3(s->db, sql_text[i], -1, SQLITE_PREPARE_PERSISTENT, &s->q[i], NULL) != SQLITE_OK) {
            fail(s, "preparing a statement", err);
            store_close(s);
            return NULL;
        }
    return s;
}

void store_close(store *s)
{
    if (!s)
        return;
    for (int i = 0; i < NQ; i++)
        sqlite3_finalize(s->q[i]);
    sqlite3_close(s->db);
    pl_free(s);
}

/* 0 unfinished, 1 finished, -1 no such room (message), -2 error (message). */
static int room_state(store *s, const char *code, pl_buf *err)
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

static int64_t count_actions(store *s, const char *code, pl_buf *err)
{
    sqlite3_stmt *q = s->q[Q_COUNT];
    sqlite3_bind_text(q, 1, code, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    int64_t n = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : -1;
    done(q);
    if (n < 0)
        fail(s, "counting actions", err);
    return n;
}

int store_room_put(store *s, const store_room *r, pl_buf *err)
{
    if (!r->code || !*r->code || !r->game || !*r->game || !r->options || !r->config) {
        pl_buf_puts(err, "store: a room needs a code, a game, options and a configuration");
        return -1;
    }
    sqlite3_stmt *q = s->q[Q_ROOM_PUT];
    sqlite3_bind_text(q, 1, r->code, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, r->game, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, r->options, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 4, r->config, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 5, (sqlite3_int64)r->seed);
    sqlite3_bind_int64(q, 6, r->created_ms);
    int rc = sqlite3_step(q);
    done(q);
    if (rc == SQLITE_CONSTRAINT_PRIMARYKEY) {
        pl_buf_printf(err, "store: a room '%s' exists already", r->code);
        return -1;
    }
    return rc == SQLITE_DONE ? 0 : fail(s, "adding a room", err);
}

/* Inside the transaction: checks and inserts every action. */
static int append_all(store *s, const store_action *a, int n, pl_buf *err)
{
    const char *room = NULL;
    int64_t next = 0;
    for (int i = 0; i < n; i++) {
        if (!a[i].room || !a[i].text || a[i].seat < -1) {
            pl_buf_printf(err, "store: action %d of the batch lacks its room or text, or has seat %d", i,
                          a[i].seat);
            return -1;
        }
        if (!room || strcmp(room, a[i].room)) { /* a new room in the batch */
            int st = room_state(s, a[i].room, err);
            if (st != 0) {
                if (st == 1)
                    pl_buf_printf(err, "store: room '%s' is finished", a[i].room);
                return -1;
            }
            int64_t have = count_actions(s, a[i].room, err);
            if (have < 0)
                return -1;
            next = have;
            /* An earlier part of this batch for the same room counts too. */
            for (int j = 0; j < i; j++)
                if (!strcmp(a[j].room, a[i].room))
                    next = a[j].seq + 1;
            room = a[i].room;
        }
        if (a[i].seq != next) {
            pl_buf_printf(err, "store: room '%s': action %lld expected, not %lld", room, (long long)next,
                          (long long)a[i].seq);
            return -1;
        }
        sqlite3_stmt *q = s->q[Q_APPEND];
        sqlite3_bind_text(q, 1, a[i].room, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 2, a[i].seq);
        sqlite3_bind_int(q, 3, a[i].seat);
        sqlite3_bind_text(q, 4, a[i].text, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 5, a[i].at_ms);
        int rc = sqlite3_step(q);
        done(q);
        if (rc != SQLITE_DONE)
            return fail(s, "appending an action", err);
        next++;
    }
    return 0;
}

int store_append(store *s, const store_action *a, int n, pl_buf *err)
{
    if (n <= 0)
        return 0;
    if (exec_q(s, Q_BEGIN, "starting a transaction", err) < 0)
        return -1;
    if (append_all(s, a, n, err) < 0) {
        pl_buf e2 = {0};
        exec_q(s, Q_ROLLBACK, "rolling back", &e2); /* the first message is the one to show */
        pl_buf_free(&e2);
        return -1;
    }
    if (exec_q(s, Q_COMMIT, "committing", err) < 0) {
        if (!sqlite3_get_autocommit(s->db)) { /* still open: undo it */
            pl_buf e2 = {0};
            exec_q(s, Q_ROLLBACK, "rolling back", &e2);
            pl_buf_free(&e2);
        }
        return -1;
    }
    return 0;
}

int store_finish(store *s, const char *code, const char *result, pl_buf *err)
{
    int st = room_state(s, code, err);
    if (st != 0) {
        if (st == 1)
            pl_buf_printf(err, "store: room '%s' is finished already", code);
        return -1;
    }
    sqlite3_stmt *q = s->q[Q_FINISH];
    sqlite3_bind_text(q, 1, code, -1, SQLITE_STATIC);
    if (result)
        sqlite3_bind_text(q, 2, result, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(q, 2);
    int rc = sqlite3_step(q);
    done(q);
    return rc == SQLITE_DONE ? 0 : fail(s, "finishing a room", err);
}

int store_room_config(store *s, const char *code, const char *config, pl_buf *err)
{
    if (!code || !config) {
        pl_buf_puts(err, "store: a configuration needs a room code and a text");
        return -1;
    }
    sqlite3_stmt *q = s->q[Q_CONFIG];
    sqlite3_bind_text(q, 1, code, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, config, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    done(q);
    if (rc != SQLITE_DONE)
        return fail(s, "changing a room's configuration", err);
    if (sqlite3_changes(s->db) == 0) {
        pl_buf_printf(err, "store: no room '%s'", code);
        return -1;
    }
    return 0;
}

static const char *col_text(sqlite3_stmt *q, int i)
{
    const char *t = (const char *)sqlite3_column_text(q, i);
    return t ? t : "";
}

int store_rooms(store *s, int unfinished_only, store_room_fn fn, void *ctx, pl_buf *err)
{
    sqlite3_stmt *q = s->q[unfinished_only ? Q_ROOMS_OPEN : Q_ROOMS_ALL];
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
        if ((ret = fn(ctx, &r, finished, result)) != 0)
            break;
    }
    done(q);
    if (ret == 0 && rc != SQLITE_DONE)
        return fail(s, "reading rooms", err);
    return ret;
}

int store_actions(store *s, const char *code, store_action_fn fn, void *ctx, pl_buf *err)
{
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

int64_t store_count(store *s, const char *code, pl_buf *err)
{
    int st = room_state(s, code, err);
    if (st < 0)
        return -1;
    return count_actions(s, code, err);
}

int store_clear(store *s, pl_buf *err)
{
    char *msg = NULL;
    if (sqlite3_exec(s->db, "BEGIN IMMEDIATE; DELETE FROM actions; DELETE FROM rooms; COMMIT", NULL, NULL, &msg) ==
        SQLITE_OK)
        return 0;
    pl_buf_printf(err, "store: emptying the store: %s", msg ? msg : sqlite3_errmsg(s->db));
    sqlite3_free(msg);
    if (!sqlite3_get_autocommit(s->db))
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}
