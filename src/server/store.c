/* store.c — the store's front door (store.h): chooses a backend by the
 * path's prefix, checks what every backend would check alike, and keeps the
 * handle's owner and last lost room (store_int.h). The backends are
 * store_sqlite.c (a file, the default) and store_pg.c (PostgreSQL, a URL
 * that starts with "postgresql://" or "postgres://").
 */
#include "store_int.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "parlour/alloc.h"
#include "parlour/jsonout.h"
#include "parlour/rating.h"

static int is_pg_url(const char *path)
{
    return !strncmp(path, "postgresql://", 13) || !strncmp(path, "postgres://", 11);
}

store *store_open(const char *path, pl_buf *err)
{
    if (!path || !*path) {
        pl_buf_puts(err, "store: no database given");
        return NULL;
    }
    return is_pg_url(path) ? store_pg_open(path, err) : store_sqlite_open(path, err);
}

void store_close(store *s)
{
    if (!s)
        return;
    pl_buf_free(&s->lost);
    s->ops->close(s);
}

/* A room code given to a function: not NULL, not empty. */
static int code_ok(const char *code, pl_buf *err)
{
    if (code && *code)
        return 1;
    pl_buf_puts(err, "store: no room code given");
    return 0;
}

int store_room_put(store *s, const store_room *r, pl_buf *err)
{
    if (!r || !r->code || !*r->code || !r->game || !*r->game || !r->options || !r->config) {
        pl_buf_puts(err, "store: a room needs a code, a game, options and a configuration");
        return -1;
    }
    return s->ops->room_put(s, r, err);
}

int store_append(store *s, const store_action *a, int n, pl_buf *err)
{
    if (n <= 0)
        return 0;
    for (int i = 0; i < n; i++)
        if (!a[i].room || !*a[i].room || !a[i].text || a[i].seat < -2) {
            pl_buf_printf(err, "store: action %d of the batch lacks its room or text, or has seat %d", i,
                          a[i].seat);
            return -1;
        }
    return s->ops->append(s, a, n, err);
}

int store_finish(store *s, const char *code, const char *result, pl_buf *err)
{
    return code_ok(code, err) ? s->ops->finish(s, code, result, NULL, err) : -1;
}

int store_room_config(store *s, const char *code, const char *config, pl_buf *err)
{
    if (!code || !config) {
        pl_buf_puts(err, "store: a configuration needs a room code and a text");
        return -1;
    }
    return s->ops->room_config(s, code, config, err);
}

int store_rooms(store *s, int unfinished_only, store_room_fn fn, void *ctx, pl_buf *err)
{
    return s->ops->rooms(s, unfinished_only, fn, ctx, err);
}

int store_room_get(store *s, const char *code, store_room_fn fn, void *ctx, pl_buf *err)
{
    return code_ok(code, err) ? s->ops->room_get(s, code, fn, ctx, err) : -1;
}

int store_actions(store *s, const char *code, store_action_fn fn, void *ctx, pl_buf *err)
{
    return code_ok(code, err) ? s->ops->actions(s, code, fn, ctx, err) : -1;
}

int64_t store_count(store *s, const char *code, pl_buf *err)
{
    return code_ok(code, err) ? s->ops->count(s, code, err) : -1;
}

int store_set_owner(store *s, const char *owner, pl_buf *err)
{
    if (owner && strlen(owner) > STORE_OWNER_MAX) {
        pl_buf_printf(err, "store: an owner id has at most %d bytes", STORE_OWNER_MAX);
        return -1;
    }
    if (owner && !*owner) {
        pl_buf_puts(err, "store: an owner id may not be empty (NULL: no owner)");
        return -1;
    }
    strcpy(s->owner, owner ? owner : "");
    return 0;
}

const char *store_lost_room(const store *s)
{
    return pl_buf_str(&s->lost);
}

int store_lost(store *s, const char *code, pl_buf *err)
{
    pl_buf_clear(&s->lost);
    pl_buf_puts(&s->lost, code);
    pl_buf_printf(err, "store: room '%s' is not leased to '%s' (or its heartbeat expired): another process may own it",
                  code, s->owner);
    return STORE_LOST;
}

/* The owner must be set for heartbeats and leases. */
static int owner_ok(store *s, pl_buf *err)
{
    if (s->owner[0])
        return 1;
    pl_buf_puts(err, "store: no owner set (store_set_owner)");
    return 0;
}

int store_owner_beat(store *s, int64_t ttl_ms, pl_buf *err)
{
    return owner_ok(s, err) ? s->ops->owner_beat(s, ttl_ms, -1, err) : -1;
}

int store_owner_beat_conns(store *s, int64_t ttl_ms, int64_t conns, pl_buf *err)
{
    if (conns < 0) {
        pl_buf_puts(err, "store: a connection count is 0 or more");
        return -1;
    }
    return owner_ok(s, err) ? s->ops->owner_beat(s, ttl_ms, conns, err) : -1;
}

int64_t store_online(store *s, pl_buf *err)
{
    return owner_ok(s, err) ? s->ops->online(s, err) : -1;
}

int store_lease_take(store *s, const char *code, pl_buf *holder, pl_buf *err)
{
    if (!code_ok(code, err) || !owner_ok(s, err))
        return -1;
    return s->ops->lease_take(s, code, holder, err);
}

int store_lease_drop(store *s, const char *code, pl_buf *err)
{
    if (!code_ok(code, err) || !owner_ok(s, err))
        return -1;
    return s->ops->lease_drop(s, code, err);
}

int store_watch_fd(store *s)
{
    return s->ops->watch_fd(s);
}

int store_watch_drain(store *s, store_note_fn fn, void *ctx, pl_buf *err)
{
    return s->ops->watch_drain(s, fn, ctx, err);
}

#define MARK "-- @version "

/* The start of section `version`'s marker in text, or NULL. */
static const char *section_at(const char *text, int version)
{
    for (const char *p = strstr(text, MARK); p; p = strstr(p + 1, MARK)) {
        long v = strtol(p + strlen(MARK), NULL, 10);
        if (v == version)
            return p;
    }
    return NULL;
}

int store_schema_last(const char *text)
{
    int last = 0;
    for (const char *p = strstr(text, MARK); p; p = strstr(p + 1, MARK)) {
        long v = strtol(p + strlen(MARK), NULL, 10);
        if (v > last)
            last = (int)v;
    }
    return last;
}

int store_schema_section(const char *text, int version, pl_buf *out)
{
    const char *p = section_at(text, version);
    if (!p)
        return -1;
    p = strchr(p, '\n');
    if (!p)
        return 0;
    const char *end = strstr(p, MARK);
    pl_buf_append(out, p, end ? (size_t)(end - p) : strlen(p));
    return 0;
}

#if !defined(PARLOUR_WITH_PG)
store *store_pg_open(const char *url, pl_buf *err)
{
    (void)url;
    pl_buf_puts(err, "store: this program was built without PostgreSQL (libpq was missing at configure time)");
    return NULL;
}
#endif

int store_clear(store *s, pl_buf *err)
{
    if (!s->ops->clear) {
        pl_buf_puts(err, "store: this backend cannot be emptied (store_clear is for tests on SQLite)");
        return -1;
    }
    return s->ops->clear(s, err);
}

/* ---- accounts and sessions ---- */

/* Text t is given and has 1..max bytes; else a message naming `what`. */
static int text_ok(const char *t, size_t max, const char *what, pl_buf *err)
{
    if (t && *t && strlen(t) <= max)
        return 1;
    pl_buf_printf(err, "store: %s must have 1 to %zu bytes", what, max);
    return 0;
}

/* A session hash: exactly STORE_SESSION_HASH lowercase hex digits. */
static int session_hash_ok(const char *h, pl_buf *err)
{
    size_t n = h ? strspn(h, "0123456789abcdef") : 0;
    if (h && n == STORE_SESSION_HASH && !h[n])
        return 1;
    pl_buf_printf(err, "store: a session hash is %d lowercase hex digits", STORE_SESSION_HASH);
    return 0;
}

static int id_ok(int64_t id, pl_buf *err)
{
    if (id > 0)
        return 1;
    pl_buf_printf(err, "store: no account %lld (ids are positive)", (long long)id);
    return 0;
}

int store_account_put(store *s, const char *name, const char *folded, const char *hash, int64_t created_ms,
                      int64_t *id, pl_buf *err)
{
    if (!text_ok(name, STORE_ACCOUNT_NAME, "an account's name", err) ||
        !text_ok(folded, STORE_ACCOUNT_FOLDED, "an account's folded name", err) ||
        !text_ok(hash, STORE_ACCOUNT_HASH, "a password hash", err))
        return -1;
    return s->ops->account_put(s, name, folded, hash, created_ms, id, err);
}

int store_account_by_name(store *s, const char *folded, store_account *out, pl_buf *err)
{
    if (!text_ok(folded, STORE_ACCOUNT_FOLDED, "an account's folded name", err))
        return -1;
    return s->ops->account_get(s, folded, 0, out, err);
}

int store_account_by_id(store *s, int64_t id, store_account *out, pl_buf *err)
{
    if (id <= 0)
        return 1; /* no account has it */
    return s->ops->account_get(s, NULL, id, out, err);
}

int store_account_set_private(store *s, int64_t id, bool on, pl_buf *err)
{
    if (!id_ok(id, err))
        return -1;
    return s->ops->account_private(s, id, on, err);
}

int store_account_set_hash(store *s, int64_t id, const char *hash, const char *keep, pl_buf *err)
{
    if (!id_ok(id, err) || !text_ok(hash, STORE_ACCOUNT_HASH, "a password hash", err) ||
        (keep && !session_hash_ok(keep, err)))
        return -1;
    return s->ops->account_set_hash(s, id, hash, keep, err);
}

int store_account_rehash(store *s, int64_t id, const char *old, const char *hash, pl_buf *err)
{
    if (!id_ok(id, err) || !text_ok(old, STORE_ACCOUNT_HASH, "a password hash", err) ||
        !text_ok(hash, STORE_ACCOUNT_HASH, "a password hash", err))
        return -1;
    return s->ops->account_rehash(s, id, old, hash, err);
}

int store_account_delete(store *s, int64_t id, const char *anon, pl_buf *err)
{
    if (!id_ok(id, err) || !text_ok(anon, STORE_ACCOUNT_NAME, "an anonymous name", err))
        return -1;
    return s->ops->account_delete(s, id, anon, err);
}

int store_session_put(store *s, const char *hash, int64_t account, int64_t expires_ms, pl_buf *err)
{
    if (!session_hash_ok(hash, err) || !id_ok(account, err))
        return -1;
    return s->ops->session_put(s, hash, account, expires_ms, err);
}

int store_session_get(store *s, const char *hash, int64_t now_ms, int64_t renew_ms, int64_t *account,
                      pl_buf *err)
{
    if (!session_hash_ok(hash, err))
        return -1;
    return s->ops->session_get(s, hash, now_ms, renew_ms, account, err);
}

int store_session_drop(store *s, const char *hash, pl_buf *err)
{
    if (!session_hash_ok(hash, err))
        return -1;
    return s->ops->session_drop(s, hash, err);
}

int store_session_drop_others(store *s, int64_t account, const char *keep, pl_buf *err)
{
    if (!id_ok(account, err) || (keep && !session_hash_ok(keep, err)))
        return -1;
    return s->ops->session_drop_others(s, account, keep, err);
}

int store_session_purge(store *s, int64_t now_ms, pl_buf *err)
{
    return s->ops->session_purge(s, now_ms, err);
}

char *store_config_anonymise(const char *config, int64_t account, const char *anon)
{
    json_t *root = json_loads(config, 0, NULL);
    json_t *seats = json_object_get(root, "seats");
    int changed = 0;
    for (size_t i = 0; i < json_array_size(seats); i++) {
        json_t *seat = json_array_get(seats, i), *acc = json_object_get(seat, "account");
        if (!json_is_integer(acc) || json_integer_value(acc) != account)
            continue;
        json_object_del(seat, "account");
        json_object_set_new(seat, "name", json_string(anon));
        changed = 1;
    }
    pl_buf b = {0};
    char *out = NULL;
    if (changed && pl_json_dump(root, &b) == 0 && !b.oom) {
        out = b.s;
        b.s = NULL;
    }
    pl_buf_free(&b);
    json_decref(root);
    return out;
}

int store_renew_due(int64_t now, int64_t expires, int64_t renew)
{
    return renew > expires && renew - expires >= (renew - now) / 100;
}

void store_copy_field(char *dst, size_t n, const char *t)
{
    size_t k = t ? strlen(t) : 0;
    if (k >= n)
        k = n - 1;
    memcpy(dst, t ? t : "", k);
    dst[k] = '\0';
}

/* ---- ratings ---- */

/* A pool key given to a function: not NULL, 1 to STORE_POOL_MAX bytes. */
static int pool_ok(const char *pool, pl_buf *err)
{
    if (pool && *pool && strlen(pool) <= STORE_POOL_MAX)
        return 1;
    pl_buf_printf(err, "store: a rating pool must be 1 to %d bytes", STORE_POOL_MAX);
    return 0;
}

int store_finish_rated(store *s, const char *code, const char *result, const char *pool, store_rated_seat *seats,
                       int n, int64_t now_ms, pl_buf *err)
{
    if (!code_ok(code, err) || !pool_ok(pool, err))
        return -1;
    if (!seats || n < 2 || n > PL_MAX_SEATS) {
        pl_buf_printf(err, "store: a rated finish needs 2 to %d seats, not %d", PL_MAX_SEATS, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (seats[i].account < 0) {
            pl_buf_printf(err, "store: seat %d has account %lld", i, (long long)seats[i].account);
            return -1;
        }
        for (int j = 0; j < i; j++)
            if (seats[i].account > 0 && seats[j].account == seats[i].account) {
                pl_buf_printf(err, "store: account %lld holds seats %d and %d of a rated game",
                              (long long)seats[i].account, j, i);
                return -1;
            }
    }
    store_rated r = {pool, seats, n, now_ms};
    return s->ops->finish(s, code, result, &r, err);
}

int store_rated_compute(store_rated *r, const store_rating *stored, pl_buf *err)
{
    pl_rating_seat rs[PL_MAX_SEATS];
    pl_glicko2 out[PL_MAX_SEATS];
    for (int i = 0; i < r->n; i++) {
        store_rated_seat *x = &r->seats[i];
        if (x->account > 0) {
            double days = stored[i].updated_ms > 0 ? (double)(r->now_ms - stored[i].updated_ms) / 86400000.0 : 0.0;
            x->before = pl_rating_idle(stored[i].g, days);
        } else {
            x->before = x->fixed;
        }
        rs[i] = (pl_rating_seat){.player = x->before, .team = x->team, .rank = x->rank, .left = x->left};
    }
    if (pl_rating_update(rs, r->n, out, err) < 0)
        return -1;
    for (int i = 0; i < r->n; i++)
        r->seats[i].after = r->seats[i].account > 0 ? out[i] : r->seats[i].fixed;
    return 0;
}

int store_ratings_of(store *s, int64_t account, store_rating *out, int max, pl_buf *err)
{
    if (max < 0 || (max > 0 && !out)) {
        pl_buf_puts(err, "store: no room for the ratings");
        return -1;
    }
    return s->ops->ratings_of(s, account, out, max, err);
}

int store_rating_history(store *s, int64_t account, const char *pool, store_history_fn fn, void *ctx, pl_buf *err)
{
    if (!pool_ok(pool, err))
        return -1;
    if (!fn) {
        pl_buf_puts(err, "store: no function for the rating history");
        return -1;
    }
    return s->ops->rating_history(s, account, pool, fn, ctx, err);
}

int store_player_games(store *s, int64_t account, int64_t before_ms, int limit, store_game_fn fn, void *ctx,
                       pl_buf *err)
{
    if (limit < 0 || !fn) {
        pl_buf_puts(err, "store: a bad limit or no function for the player's games");
        return -1;
    }
    return limit == 0 ? 0 : s->ops->player_games(s, account, before_ms, limit, fn, ctx, err);
}

int store_player_row(int64_t account, const char *code, const char *game, const char *options, const char *result,
                     const char *config, int64_t finished_ms, bool rated, store_game_fn fn, void *ctx)
{
    store_player_game g = {.room = code, .game = game, .options = options, .result = result ? result : "",
                           .finished_ms = finished_ms, .rated = rated};
    json_t *root = json_loads(config, 0, NULL);
    json_t *seats = json_object_get(root, "seats");
    size_t n = json_array_size(seats);
    for (size_t i = 0; i < n && i < STORE_GAME_SEATS; i++) {
        json_t *seat = json_array_get(seats, i), *acc = json_object_get(seat, "account");
        const char *kind = json_string_value(json_object_get(seat, "kind"));
        const char *name = json_string_value(json_object_get(seat, "name"));
        const char *level = json_string_value(json_object_get(seat, "level"));
        if (json_is_integer(acc) && json_integer_value(acc) == account)
            g.seats[g.nseats++] = (int)i;
        else if (kind && !strcmp(kind, "person") && name)
            g.opponents[g.nopponents++] = name;
        else if (kind && !strcmp(kind, "ai") && level)
            g.levels[g.nlevels++] = level;
    }
    int ret = g.nseats > 0 ? fn(ctx, &g) : 0;
    json_decref(root);
    return ret;
}

int store_ratings_pool(store *s, const char *pool, const int64_t *accounts, int n, store_rating *out, pl_buf *err)
{
    if (!pool_ok(pool, err))
        return -1;
    if (n < 0 || (n > 0 && (!accounts || !out))) {
        pl_buf_puts(err, "store: no accounts or no room for their ratings");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        int rc = s->ops->rating_get(s, accounts[i], pool, &out[i], err);
        if (rc < 0)
            return -1;
        if (rc == 1) {
            memset(&out[i], 0, sizeof out[i]);
            store_copy_field(out[i].pool, sizeof out[i].pool, pool);
            out[i].g = STORE_RATING_NEW;
        }
    }
    return 0;
}

int store_drill_get(store *s, int64_t account, pl_buf *out, int64_t *updated_ms, pl_buf *err)
{
    if (!out) {
        pl_buf_puts(err, "store: no buffer for the drill record");
        return -1;
    }
    int64_t at = 0;
    int rc = s->ops->drill_get(s, account, out, &at, err);
    if (rc == 0 && updated_ms)
        *updated_ms = at;
    return rc;
}

int store_drill_put(store *s, int64_t account, const char *record, int64_t now_ms, pl_buf *err)
{
    size_t len = record ? strlen(record) : 0;
    if (len == 0 || len > STORE_DRILL_MAX) {
        pl_buf_printf(err, "store: a drill record must be 1 to %d bytes, not %zu", STORE_DRILL_MAX, len);
        return -1;
    }
    return s->ops->drill_put(s, account, record, now_ms, err);
}

/* ---- Play now across processes ------------------------------------------ */

/* The back end offers Play now across processes (store_ops.seek_put ...). */
static int seeks_offered(store *s, pl_buf *err)
{
    if (s->ops->seek_put)
        return 1;
    pl_buf_puts(err, "store: this back end keeps no seeks (Play now pairs on each process)");
    return 0;
}

static int seek_id_ok(const char *id, pl_buf *err)
{
    size_t n = id ? strlen(id) : 0;
    if (n >= 1 && n <= 64)
        return 1;
    pl_buf_puts(err, "store: a seek id must be 1 to 64 bytes");
    return 0;
}

int store_seek_put(store *s, const store_seek *k, pl_buf *err)
{
    if (!owner_ok(s, err) || !seeks_offered(s, err) || !k || !seek_id_ok(k->id, err) || !pool_ok(k->pool, err))
        return -1;
    if (!k->game || !*k->game || !k->options || !k->name) {
        pl_buf_puts(err, "store: a seek needs its game, options and name");
        return -1;
    }
    return s->ops->seek_put(s, k, err);
}

int store_seek_drop(store *s, const char *id, pl_buf *err)
{
    if (!owner_ok(s, err) || !seeks_offered(s, err) || !seek_id_ok(id, err))
        return -1;
    return s->ops->seek_drop(s, id, err);
}

int store_seeks_read(store *s, store_seek_fn fn, void *ctx, pl_buf *err)
{
    if (!owner_ok(s, err) || !seeks_offered(s, err) || !fn)
        return -1;
    return s->ops->seeks_read(s, fn, ctx, err);
}

int store_role_take(store *s, const char *name, pl_buf *err)
{
    if (!owner_ok(s, err) || !seeks_offered(s, err))
        return -1;
    if (!name || !*name || strlen(name) > 32) {
        pl_buf_puts(err, "store: a role's name must be 1 to 32 bytes");
        return -1;
    }
    return s->ops->role_take(s, name, err);
}

int store_pairing_put(store *s, const char *role, const store_pairing *p, int n, pl_buf *err)
{
    if (!owner_ok(s, err) || !seeks_offered(s, err) || !role || !*role || n < 1 || n > PL_MAX_SEATS || !p) {
        if (!err->len)
            pl_buf_puts(err, "store: a pairing needs a role and 1 to 8 members");
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (!seek_id_ok(p[i].seek, err) || !code_ok(p[i].room, err) || !p[i].token || !p[i].pool || !p[i].game) {
            if (!err->len)
                pl_buf_puts(err, "store: a pairing's member needs its token, pool and game");
            return -1;
        }
    return s->ops->pairing_put(s, role, p, n, err);
}

int store_pairings_of(store *s, store_pairing_fn fn, void *ctx, pl_buf *err)
{
    if (!owner_ok(s, err) || !seeks_offered(s, err) || !fn)
        return -1;
    return s->ops->pairings_of(s, fn, ctx, err);
}

int store_pairing_drop(store *s, const char *seek, pl_buf *err)
{
    if (!owner_ok(s, err) || !seeks_offered(s, err) || !seek_id_ok(seek, err))
        return -1;
    return s->ops->pairing_drop(s, seek, err);
}

int64_t store_seeks_sweep(store *s, int64_t grace_ms, int max_rows, pl_buf *err)
{
    if (!owner_ok(s, err) || !seeks_offered(s, err))
        return -1;
    if (grace_ms < 0 || max_rows < 1) {
        pl_buf_puts(err, "store: a sweep needs a grace of 0 ms or more and 1 row or more");
        return -1;
    }
    return s->ops->seeks_sweep(s, grace_ms, max_rows, err);
}
