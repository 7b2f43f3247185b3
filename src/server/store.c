/* store.c — the store's front door (store.h): chooses a backend by the
 * path's prefix, checks what every backend would check alike, and keeps the
 * handle's owner and last lost room (store_int.h). The backends are
 * store_sqlite.c (a file, the default) and store_pg.c (PostgreSQL, a URL
 * that starts with "postgresql://" or "postgres://").
 */
#include "store_int.h"

#include <stdlib.h>
#include <string.h>

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
    return code_ok(code, err) ? s->ops->finish(s, code, result, err) : -1;
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
    return owner_ok(s, err) ? s->ops->owner_beat(s, ttl_ms, err) : -1;
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
