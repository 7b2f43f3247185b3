/* store_int.h — what the store's dispatcher (store.c) and its backends
 * (store_sqlite.c, store_pg.c) share; nothing else includes it.
 *
 * A backend's handle begins with a `store` (the dispatcher's part: the
 * backend's operations, the owner, the last lost room), so a backend casts
 * `store *` to its own type. The dispatcher checks the arguments every
 * backend would check the same way (NULL texts, seats, the owner's length)
 * before it calls the backend, and a backend may rely on that.
 */
#ifndef PARLOUR_STORE_INT_H
#define PARLOUR_STORE_INT_H

#include <stddef.h>

#include "store.h"

#define STORE_OWNER_MAX 200

/* A rated finish as a backend receives it (store_finish_rated's arguments). */
typedef struct store_rated {
    const char *pool;
    store_rated_seat *seats;
    int n;
    int64_t now_ms;
} store_rated;

/* One backend: the functions of store.h less the checks store.c makes.
 * Each returns what store.h says the public function returns. */
typedef struct store_ops {
    void (*close)(store *s);
    int (*room_put)(store *s, const store_room *r, pl_buf *err);
    int (*append)(store *s, const store_action *a, int n, pl_buf *err);
    /* r: NULL for a casual finish; else a rated one, checked by store.c. */
    int (*finish)(store *s, const char *code, const char *result, store_rated *r, pl_buf *err);
    int (*room_config)(store *s, const char *code, const char *config, pl_buf *err);
    int (*rooms)(store *s, int unfinished_only, store_room_fn fn, void *ctx, pl_buf *err);
    int (*room_get)(store *s, const char *code, store_room_fn fn, void *ctx, pl_buf *err);
    int (*actions)(store *s, const char *code, store_action_fn fn, void *ctx, pl_buf *err);
    int64_t (*count)(store *s, const char *code, pl_buf *err);
    /* conns < 0: the stored count kept (a new owner's: 0). */
    int (*owner_beat)(store *s, int64_t ttl_ms, int64_t conns, pl_buf *err);
    int64_t (*online)(store *s, pl_buf *err);
    int (*lease_take)(store *s, const char *code, pl_buf *holder, pl_buf *err);
    int (*lease_drop)(store *s, const char *code, pl_buf *err);
    int (*watch_fd)(store *s);
    int (*watch_drain)(store *s, store_note_fn fn, void *ctx, pl_buf *err);
    int (*clear)(store *s, pl_buf *err); /* NULL: not offered (store_clear refuses) */
    /* Accounts and sessions: store.c has checked every text's length. */
    int (*account_put)(store *s, const char *name, const char *folded, const char *hash, int64_t created_ms,
                       int64_t *id, pl_buf *err);
    /* By folded name, or by id when folded is NULL. */
    int (*account_get)(store *s, const char *folded, int64_t id, store_account *out, pl_buf *err);
    int (*account_set_hash)(store *s, int64_t id, const char *hash, const char *keep, pl_buf *err);
    /* Sets account id's page private or public: 0, 1 no such account, or -1. */
    int (*account_private)(store *s, int64_t id, bool on, pl_buf *err);
    int (*account_rehash)(store *s, int64_t id, const char *old, const char *hash, pl_buf *err);
    int (*account_delete)(store *s, int64_t id, const char *anon, pl_buf *err);
    int (*session_put)(store *s, const char *hash, int64_t account, int64_t expires_ms, pl_buf *err);
    int (*session_get)(store *s, const char *hash, int64_t now_ms, int64_t renew_ms, int64_t *account,
                       pl_buf *err);
    int (*session_drop)(store *s, const char *hash, pl_buf *err);
    int (*session_drop_others)(store *s, int64_t account, const char *keep, pl_buf *err);
    int (*session_purge)(store *s, int64_t now_ms, pl_buf *err);
    /* One account's rating in `pool`: 0 with *out filled, 1 none, or -1. */
    int (*rating_get)(store *s, int64_t account, const char *pool, store_rating *out, pl_buf *err);
    int (*ratings_of)(store *s, int64_t account, store_rating *out, int max, pl_buf *err);
    int (*rating_history)(store *s, int64_t account, const char *pool, store_history_fn fn, void *ctx,
                          pl_buf *err);
    /* Calls store_player_row for each row, in order. */
    int (*player_games)(store *s, int64_t account, int64_t before_ms, int limit, store_game_fn fn, void *ctx,
                        pl_buf *err);
    /* Drill records (store_drill_get/put, checked by store.c). */
    int (*drill_get)(store *s, int64_t account, pl_buf *out, int64_t *updated_ms, pl_buf *err);
    int (*drill_put)(store *s, int64_t account, const char *record, int64_t now_ms, pl_buf *err);
    /* Play now across processes (store.h); the owner is checked by store.c. */
    int (*seek_put)(store *s, const store_seek *k, pl_buf *err);
    int (*seek_drop)(store *s, const char *id, pl_buf *err);
    int (*seeks_read)(store *s, store_seek_fn fn, void *ctx, pl_buf *err);
    int (*role_take)(store *s, const char *name, pl_buf *err);
    int (*pairing_put)(store *s, const char *role, const store_pairing *p, int n, pl_buf *err);
    int (*pairings_of)(store *s, store_pairing_fn fn, void *ctx, pl_buf *err);
    int (*pairing_drop)(store *s, const char *seek, pl_buf *err);
    int64_t (*seeks_sweep)(store *s, int64_t grace_ms, int max_rows, pl_buf *err);
} store_ops;

/* One row of a backend's player_games: fills a store_player_game from the
 * room's columns (config parsed for the account's seats and opponents) and
 * calls fn. Returns fn's return, or 0 for a config that names no seat of
 * the account (fn not called). */
int store_player_row(int64_t account, const char *code, const char *game, const char *options, const char *result,
                     const char *config, int64_t finished_ms, bool rated, store_game_fn fn, void *ctx);

struct store {
    const store_ops *ops;
    char owner[STORE_OWNER_MAX + 1]; /* "" : no owner, no lease checked */
    pl_buf lost;                     /* the room of the last STORE_LOST */
};

/* Within a backend's finish transaction, once it has read every account
 * seat's stored rating into stored[i] (rating_get; a missing row:
 * STORE_RATING_NEW with updated_ms 0): fills r's seats' `before` (idle
 * time applied) and `after` (pl_rating_update). 0, or -1 with a message. */
int store_rated_compute(store_rated *r, const store_rating *stored, pl_buf *err);

/* The backends' constructors: as store_open, for their kind of path. The
 * handle they return has `ops` set and the rest of `store` zeroed. */
store *store_sqlite_open(const char *path, pl_buf *err);
store *store_pg_open(const char *url, pl_buf *err);

/* The name of the SQLite VFS that writes a write-ahead log's writes of a
 * commit in one system call (store_walbuf.c), registered at the first call;
 * NULL if it could not be (then the default VFS serves). A connection that
 * uses it must run with synchronous=FULL and cache_spill=OFF: the log is then
 * written only in commits, each ending with a sync that writes the buffer. */
const char *store_walbuf_vfs(void);

/* Records that room `code` is not leased to this handle's owner: the
 * message in err, the code in s->lost. Returns STORE_LOST. */
int store_lost(store *s, const char *code, pl_buf *err);

/* The schema files (src/server/schema/<backend>.sql, embedded by the build):
 * the highest "-- @version N" of `text`, and section `version`'s statements
 * appended to `out` (0, or -1 when there is no such section). */
int store_schema_last(const char *text);
int store_schema_section(const char *text, int version, pl_buf *out);

/* Room configuration `config` (JSON) with every seat whose "account" is the
 * integer `account` anonymised: "name" set to `anon`, "account" removed
 * (store_account_delete). Returns the new text (pl_free it), or NULL when
 * no seat changed or the text is not a configuration (left as it is). */
char *store_config_anonymise(const char *config, int64_t account, const char *anon);

/* Whether a live session expiring at `expires` is renewed to `renew` at
 * `now` (store_session_get): when that moves it on by (renew - now) / 100
 * or more. */
int store_renew_due(int64_t now, int64_t expires, int64_t renew);

/* Copies row text t into an account's field of size n (cut at n - 1). */
void store_copy_field(char *dst, size_t n, const char *t);

/* The SQL pattern of configurations that may name an account (a prefilter:
 * store_config_anonymise decides). */
#define STORE_ACCOUNT_LIKE "%\"account\"%"

#endif
