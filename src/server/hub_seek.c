/* hub_seek.c — "Play now" in the hub (issue 33 §3, docs/pairing.md): the
 * requests `seek`, `unseek` and `counts`, the seek pool (seek.h) ticked
 * with the hub, the rooms made for each pairing (seats for the paired
 * people, or the person and computers of the nearest measured rating:
 * data/ratings/levels.txt, built in by src/server/seek_levels.cmake) and
 * the lobby's `counts` pushes. Prefix hubp_. Thread: the hub's, except
 * hubp_look_read (the storage thread's).
 *
 * Ratings: a guest seeks as a new player (1500, RD 350). A signed-in
 * seeker's rating in the pool is the store's (store_ratings_pool, with the
 * idle deviation), read by the storage thread with the next batch (a
 * hubp_look): the seek waits, out of the pool, until it comes back, then
 * enters with it (hubp_looks_done). A hub in test_seed mode (tests only)
 * takes a `rating` field of `seek` instead.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ai/ai.h"
#include "hub_int.h"
#include "parlour/alloc.h"
#include "parlour/rating.h"
#include "parlour/registry.h"
#include "seek.h"

#define HUBP_TICK_MS 200          /* the pool's tick while anyone waits */
#define HUBP_COUNTS_MS 1000       /* `counts` pushed at most this often */
#define HUBP_MAX_COMPUTER_S 120   /* "a computer after N s": N in 0..120 */
#define HUBP_MAX_LEVELS 256       /* lines of levels.txt kept */
#define HUBP_SEAT_PER_TICK 256    /* pairings seated per hub_tick; more wait for the next (a flash crowd) */
#define HUBP_REMOTE (1ULL << 62)  /* a pool id of a stored seek (the role's holder): | gen << 24 | slot */
#define HUBP_ROLE "pairing"       /* the role whose holder runs the pool of a cluster */

extern const unsigned char hub_seek_levels_data[]; /* generated/seek_levels_data.c */

/* A connection's seek. */
struct hubp_seek {
    const pl_game *g;
    json_t *opts;                 /* the options as given (an object), or NULL */
    char key[PL_RATING_KEY_MAX];  /* its pool */
    char name[HUB_MAX_NAME + 1];
    int64_t made_ms;              /* when it was made (the room takes the oldest member's options) */
    int players, after, range;    /* seek_req's fields, kept while it waits for its rating ... */
    double rating, rd;            /* ... and as it entered the pool (to put it back) */
    int waiting;                  /* its stored rating is being read: not in the pool yet */
    uint64_t serial;              /* which seek (hubp_look.serial) */
    char sid[72];                 /* a cluster's: its row in the store's seeks ("" none) */
};

/* A stored seek in the pool of the role's holder (a cluster). */
typedef struct hubp_remote {
    uint64_t id;         /* its pool id; 0: a free slot */
    char sid[72];
    struct hubp_seek s;  /* its game, options, pool, name, times, rating */
    int64_t account;
    int gone;            /* paired: out of the pool, its row not yet gone from what is read */
} hubp_remote;

/* A pool key and its game (for the counts per game). */
typedef struct hubp_key {
    char key[PL_RATING_KEY_MAX];
    const char *game;
    int stored; /* a cluster's: the store's seeks of this pool at the last read */
} hubp_key;

/* One line of levels.txt. */
typedef struct hubp_level {
    char key[PL_RATING_KEY_MAX];
    char level[24];
    double rating;
} hubp_level;

struct hubp_pool {
    seek_pool *pool;
    hubp_level levels[HUBP_MAX_LEVELS];
    int nlevels;
    hubp_key *keys;
    int nkeys, capkeys;
    int64_t ticked_ms;  /* the last pool tick */
    int64_t pushed_ms;  /* the last counts push */
    int dirty;          /* the counts changed since the last push */
    int subs;           /* connections with counts set */
    char *last;         /* the last counts pushed (owned), NULL none */
    uint64_t serial;    /* the last seek's serial */
    /* Pairings made and not yet seated (a tick seats HUBP_SEAT_PER_TICK):
     * queue[qhead..qn), each with its members' seek serials. */
    struct hubp_queued *queue;
    int qhead, qn, capq;
    int64_t seated_ms;  /* the last tick that seated some */
    /* A cluster whose store keeps seeks (`table`): this process's seeks go
     * to the store; the role's holder pools every stored seek here. */
    int table, holder;
    int64_t others;     /* a cluster's: the other live processes' connections at the last read */
    int known;          /* a cluster's: the first lobby said whether the store keeps seeks (no tick before) */
    hubp_remote *rem;   /* slots, by the low bits of their ids */
    int nrem, caprem;
    uint32_t remgen;
};

/* A pairing out of the pool, waiting to be seated. */
struct hubp_queued {
    seek_pairing pr;
    uint64_t serial[SEEK_MAX_PLAYERS];
};

/* Reads levels.txt's lines "pool level rating RD games" (# comments): the
 * levels a room can seat. A player measured there that no room can seat
 * without a file (Ur's perfect player, `perfect:TABLE`) is left out. */
static void levels_parse(struct hubp_pool *p)
{
    const char *s = (const char *)hub_seek_levels_data;
    while (*s && p->nlevels < HUBP_MAX_LEVELS) {
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        char line[160];
        if (len < sizeof line && *s != '#') {
            memcpy(line, s, len);
            line[len] = 0;
            hubp_level *l = &p->levels[p->nlevels];
            pl_buf err = {0};
            if (sscanf(line, "%23s %23s %lf", l->key, l->level, &l->rating) == 3 && ai_check_spec(l->level, &err) == 0)
                p->nlevels++;
            pl_buf_free(&err);
        }
        s += len + (e != NULL);
    }
}

/* The hub's pool, made when first needed; NULL when memory ran out. */
static struct hubp_pool *pool_get(hub *h)
{
    if (h->seeks)
        return h->seeks;
    struct hubp_pool *p = pl_calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->pool = seek_new(NULL);
    if (!p->pool) {
        pl_free(p);
        return NULL;
    }
    levels_parse(p);
    p->pushed_ms = INT64_MIN / 2;
    h->seeks = p;
    return p;
}

void hubp_free(hub *h)
{
    struct hubp_pool *p = h->seeks;
    for (int i = 0; i < h->nconns; i++) {
        hub_conn *c = &h->conns[i];
        if (c->seek) {
            json_decref(c->seek->opts);
            pl_free(c->seek);
            c->seek = NULL;
        }
    }
    if (!p)
        return;
    for (int i = 0; i < p->nrem; i++)
        if (p->rem[i].id)
            json_decref(p->rem[i].s.opts);
    pl_free(p->rem);
    seek_free(p->pool);
    pl_free(p->queue);
    pl_free(p->keys);
    pl_free(p->last);
    pl_free(p);
    h->seeks = NULL;
}

/* Queues the deletion of stored seek `sid` (a cluster's). */
static void sdrop_queue(hub *h, const char *sid)
{
    hub_batchp *b = hubb_batch(h);
    char *d = pl_strdup(sid);
    if (!b || !d || hub_grow((void **)&b->sdrops, &b->capsdrops, b->nsdrops + 1, sizeof *b->sdrops) < 0) {
        pl_free(d); /* no memory: the row stays until its owner's heartbeat ends */
        return;
    }
    b->sdrops[b->nsdrops++] = d;
}

/* Ends `c`'s seek (nothing when it has none); a stored one's row is deleted
 * when `drop` (not when its pairing deleted it). */
static void seek_end_ex(hub *h, hub_conn *c, int drop)
{
    if (!c->seek)
        return;
    if (h->seeks) {
        seek_cancel(h->seeks->pool, c->id);
        h->seeks->dirty = 1;
    }
    if (c->seek->sid[0] && drop)
        sdrop_queue(h, c->seek->sid);
    json_decref(c->seek->opts);
    pl_free(c->seek);
    c->seek = NULL;
}

static void seek_end(hub *h, hub_conn *c)
{
    seek_end_ex(h, c, 1);
}

/* ---- stored seeks in the holder's pool (a cluster) --------------------- */

static hubp_remote *rem_get(struct hubp_pool *p, uint64_t id)
{
    if (!p || !(id & HUBP_REMOTE))
        return NULL;
    uint64_t slot = id & 0xffffff;
    return slot < (uint64_t)p->nrem && p->rem[slot].id == id ? &p->rem[slot] : NULL;
}

/* Frees record `r` (out of the pool when it is in it). */
static void rem_free(struct hubp_pool *p, hubp_remote *r)
{
    if (!r->gone)
        seek_cancel(p->pool, r->id);
    json_decref(r->s.opts);
    memset(r, 0, sizeof *r);
}

static void subscribe(hub *h, hub_conn *c, int on)
{
    if (!h->seeks || c->counts == on)
        return;
    c->counts = on;
    h->seeks->subs += on ? 1 : -1;
}

void hubp_entered(hub *h, hub_conn *c)
{
    seek_end(h, c);
    subscribe(h, c, 0);
}

void hubp_conn_gone(hub *h, hub_conn *c)
{
    hubp_entered(h, c);
    if (h->seeks)
        h->seeks->dirty = 1;
}

void hubp_changed(hub *h)
{
    if (h->seeks)
        h->seeks->dirty = 1;
}

/* ---- counts ------------------------------------------------------------ */

/* {"type":"counts","online":N,"pools":{key:n},"waiting":{game:n}} (a new
 * reference). `online`: this process's connections now, plus a cluster's
 * other live processes' at the last read (their heartbeats' counts). */
static json_t *counts_json(hub *h)
{
    struct hubp_pool *p = h->seeks;
    json_t *pools = json_object(), *games = json_object();
    for (int i = 0; p && i < p->nkeys; i++) {
        int n = p->table ? p->keys[i].stored : seek_waiting(p->pool, p->keys[i].key);
        json_object_set_new(pools, p->keys[i].key, json_integer(n));
        json_t *was = json_object_get(games, p->keys[i].game);
        json_object_set_new(games, p->keys[i].game, json_integer(n + (was ? json_integer_value(was) : 0)));
    }
    json_int_t online = (json_int_t)h->live_conns + (p ? p->others : 0);
    return json_pack("{s:s, s:I, s:o, s:o}", "type", "counts", "online", online, "pools", pools, "waiting", games);
}

void hubp_req_counts(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    (void)root;
    (void)now_ms;
    if (!pool_get(h)) {
        hub_error(h, c->id, "storage", "counts", "out of memory");
        return;
    }
    if (!c->room)
        subscribe(h, c, 1); /* pushes while in the lobby */
    hub_send_tagged(h, c->id, counts_json(h), 0, NULL);
}

/* Pushes the counts to every subscriber when they changed. */
static void counts_push(hub *h, int64_t now_ms)
{
    struct hubp_pool *p = h->seeks;
    if (!p->dirty || !p->subs || now_ms < p->pushed_ms + HUBP_COUNTS_MS)
        return;
    p->dirty = 0;
    p->pushed_ms = now_ms;
    char *text = hub_dump(counts_json(h));
    if (!text)
        return;
    if (p->last && !strcmp(p->last, text)) {
        pl_free(text);
        return;
    }
    for (int i = 0; i < h->nconns; i++) {
        hub_conn *c = &h->conns[i];
        if (c->id && c->counts) {
            char *copy = hub_dupn(text);
            if (copy)
                hub_send_text(h, c->id, copy, "counts", 0, NULL);
        }
    }
    pl_free(p->last);
    p->last = text;
}

/* ---- seek and unseek --------------------------------------------------- */

/* Remembers pool `key` of game `g` for the counts; 0 or -1 (no memory). */
static int key_note(struct hubp_pool *p, const char *key, const pl_game *g)
{
    for (int i = 0; i < p->nkeys; i++)
        if (!strcmp(p->keys[i].key, key))
            return 0;
    if (hub_grow((void **)&p->keys, &p->capkeys, p->nkeys + 1, sizeof *p->keys) < 0)
        return -1;
    snprintf(p->keys[p->nkeys].key, sizeof p->keys[p->nkeys].key, "%s", key);
    p->keys[p->nkeys].stored = 0;
    p->keys[p->nkeys++].game = g->id;
    return 0;
}

/* The store's seeks of pool `key` at the last read (a cluster's). */
static int key_stored(const struct hubp_pool *p, const char *key)
{
    for (int i = 0; i < p->nkeys; i++)
        if (!strcmp(p->keys[i].key, key))
            return p->keys[i].stored;
    return 0;
}

/* A cluster's: writes `c`'s seek with `rating` and `rd` to the store's
 * seeks (the role's holder pools it); SEEK_OK or SEEK_ENOMEM. */
static int table_put(hub *h, hub_conn *c, double rating, double rd)
{
    struct hubp_seek *s = c->seek;
    char rnd[HUB_CODE];
    hubq_random_hex(h, rnd);
    snprintf(s->sid, sizeof s->sid, "%016" PRIx64 "-%.16s", c->id, rnd);
    char *opts = s->opts ? json_dumps(s->opts, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    store_seek k = {.id = s->sid, .pool = s->key, .game = s->g->id, .options = opts ? opts : "{}", .name = s->name,
                    .account = c->account, .players = s->players, .after_s = s->after, .widest = s->range,
                    .rating = rating, .rd = rd, .made_ms = s->made_ms};
    hub_batchp *b = hubb_batch(h);
    int rc = SEEK_ENOMEM;
    if (b && hub_grow((void **)&b->sputs, &b->capsputs, b->nsputs + 1, sizeof *b->sputs) == 0 &&
        hubp_seek_copy(&b->sputs[b->nsputs], &k) == 0) {
        b->nsputs++;
        rc = SEEK_OK;
    }
    free(opts);
    if (rc != SEEK_OK)
        s->sid[0] = 0;
    return rc;
}

/* Puts `c`'s seek (made, not yet in the pool) in the pool with `rating`
 * and `rd` and tells it `seeking`; on a refusal its seek ends with an
 * error. */
static void seek_enter(hub *h, hub_conn *c, double rating, double rd, int64_t now_ms)
{
    struct hubp_pool *p = h->seeks;
    struct hubp_seek *s = c->seek;
    if (rating < SEEK_MIN_RATING) /* a Glicko-2 rating may stray past the pool's bounds */
        rating = SEEK_MIN_RATING;
    if (rating > SEEK_MAX_RATING)
        rating = SEEK_MAX_RATING;
    if (!(rd <= PL_RATING_RD_MAX))
        rd = PL_RATING_RD_MAX;
    seek_req q = {.id = c->id, .key = s->key, .players = s->players, .rating = rating, .rd = rd,
                  .made_ms = s->made_ms, .computer_after_s = s->after, .range = s->range};
    int rc = p->table ? table_put(h, c, rating, rd) : seek_add(p->pool, &q);
    if (rc != SEEK_OK) {
        json_decref(s->opts);
        pl_free(s);
        c->seek = NULL;
        hub_error(h, c->id, rc == SEEK_EFULL || rc == SEEK_EKEYS || rc == SEEK_ENOMEM ? "full" : "shape", "seek",
                  "seek: %s", seek_strerror(rc));
        return;
    }
    s->waiting = 0;
    s->rating = rating;
    s->rd = rd;
    p->dirty = 1;
    subscribe(h, c, 1);
    if (p->ticked_ms > now_ms || p->ticked_ms + HUBP_TICK_MS < now_ms)
        p->ticked_ms = now_ms - HUBP_TICK_MS; /* the first tick at once */
    hub_send_tagged(h, c->id,
                    json_pack("{s:s, s:s, s:s, s:i, s:i, s:i}", "type", "seeking", "pool", s->key, "game", s->g->id,
                              "waiting", p->table ? key_stored(p, s->key) + 1 : seek_waiting(p->pool, s->key),
                              "computer_after_s", s->after, "rating",
                              (int)lround(rating)),
                    0, NULL);
}

void hubp_req_seek(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    const char *type, *game, *name = "player";
    json_t *opts = NULL, *jrating = NULL;
    int after = -1, range = 0;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:s, s?o, s:i, s?i, s?s, s?o}", "type", &type, "game", &game,
                       "options", &opts, "computer_after_s", &after, "range", &range, "name", &name, "rating",
                       &jrating) < 0 ||
        after < 0 || after > HUBP_MAX_COMPUTER_S || (range && (range < SEEK_MIN_RANGE || range > SEEK_MAX_RANGE)) ||
        (opts && !json_is_object(opts))) {
        hub_error(h, c->id, "shape", "seek",
                  "seek: {game, options (an object of strings, optional), computer_after_s (0 never, or 1 to %d), "
                  "range (optional: %d to %d rating points), name (optional)}%s%s",
                  HUBP_MAX_COMPUTER_S, SEEK_MIN_RANGE, SEEK_MAX_RANGE, je.text[0] ? ": " : "", je.text);
        return;
    }
    size_t nlen = strlen(name);
    if (nlen < 1 || nlen > HUB_MAX_NAME || strpbrk(name, "\r\n\t")) {
        hub_error(h, c->id, "shape", "seek", "name: 1 to %d bytes, one line", HUB_MAX_NAME);
        return;
    }
    double given = -1;
    if (jrating) { /* tests only (test_seed mode): the player's rating given */
        given = json_is_number(jrating) ? json_number_value(jrating) : -1;
        if (!h->cfg.test_seed || !(given >= SEEK_MIN_RATING && given <= SEEK_MAX_RATING)) {
            hub_error(h, c->id, "shape", "seek", "rating: a test server's field only (0 to 4000)");
            return;
        }
    }
    if (c->seek) {
        hub_error(h, c->id, "seek", "seek", "this connection seeks already (pool %s): unseek first", c->seek->key);
        return;
    }
    if (c->room) {
        hub_error(h, c->id, "seek", "seek", "this connection is in room %s: leave it first", c->room->code);
        return;
    }
    const pl_game *g = pl_game_find(game);
    if (!g) {
        pl_buf ids = {0};
        pl_games_list(&ids);
        hub_error(h, c->id, "options", "seek", "unknown game '%s'; games: %s", game, pl_buf_str(&ids));
        pl_buf_free(&ids);
        return;
    }
    pl_buf err = {0};
    hub_room *probe = hub_room_new(h, g, opts, 1, &err); /* checks the options; tells the seats */
    if (!probe) {
        hub_error(h, c->id, "options", "seek", "%s", pl_buf_str(&err));
        pl_buf_free(&err);
        return;
    }
    pl_buf_free(&err);
    pl_rating_pool pool = pl_rating_pool_of(g, &probe->m->opts);
    int players = probe->nseats;
    hub_room_free(probe);
    if (!pool.rated) {
        hub_error(h, c->id, "options", "seek",
                  "%s with these options is not rated (%s): Play now pairs the rated games only (docs/ratings.md)",
                  g->id, pool.reason ? pool.reason : "unrated");
        return;
    }
    struct hubp_pool *p = pool_get(h);
    struct hubp_seek *s = pl_calloc(1, sizeof *s);
    if (!p || !s || key_note(p, pool.key, g) < 0) {
        pl_free(s);
        hub_error(h, c->id, "storage", "seek", "out of memory");
        return;
    }
    s->g = g;
    s->opts = opts ? json_incref(opts) : NULL;
    snprintf(s->key, sizeof s->key, "%s", pool.key);
    snprintf(s->name, sizeof s->name, "%s", c->account > 0 ? c->aname : name); /* as `join` names a seat */
    s->made_ms = now_ms;
    s->players = players;
    s->after = after;
    s->range = range;
    s->serial = ++p->serial;
    if (c->account > 0 && !jrating) { /* a signed-in seeker: the store's rating first */
        hubp_look l = {.conn = c->id, .serial = s->serial, .account = c->account, .now_ms = now_ms};
        snprintf(l.pool, sizeof l.pool, "%s", pool.key);
        if (hubb_queue_look(h, &l) < 0) {
            json_decref(s->opts);
            pl_free(s);
            hub_error(h, c->id, "storage", "seek", "out of memory");
            return;
        }
        s->waiting = 1;
        c->seek = s;
        return; /* `seeking` once it is in the pool (hubp_looks_done) */
    }
    c->seek = s;
    seek_enter(h, c, jrating ? given : 1500.0, PL_RATING_RD_MAX, now_ms);
}

void hubp_req_unseek(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    (void)root;
    (void)now_ms;
    char key[PL_RATING_KEY_MAX] = "";
    if (c->seek)
        snprintf(key, sizeof key, "%s", c->seek->key);
    seek_end(h, c);
    hub_send_tagged(h, c->id, json_pack("{s:s, s:s?}", "type", "unseeked", "pool", key[0] ? key : NULL), 0, NULL);
}

/* ---- pairing ----------------------------------------------------------- */

/* Tells every member `ids[0..n)` of a pairing that could not be seated why
 * (their seeks are gone). */
static void tell_failed(hub *h, const uint64_t *ids, int n, const char *code, const char *msg)
{
    for (int i = 0; i < n; i++) {
        hubp_remote *rm = rem_get(h->seeks, ids[i]);
        if (rm) { /* a stored seek: read again with the next lobby, paired again */
            rm->gone = 1;
            rem_free(h->seeks, rm);
            continue;
        }
        hub_conn *c = hub_conn_get(h, ids[i]);
        if (!c)
            continue;
        seek_end(h, c);
        hub_error(h, c->id, code, "seek", "%s", msg);
    }
}

/* The level of game `g` in pool `key` whose measured rating is nearest
 * `rating`, or NULL when levels.txt names none. */
static const char *nearest_level(const struct hubp_pool *p, const char *key, double rating)
{
    seek_level lv[HUBP_MAX_LEVELS];
    size_t n = 0;
    for (int i = 0; i < p->nlevels; i++)
        if (!strcmp(p->levels[i].key, key))
            lv[n++] = (seek_level){p->levels[i].level, p->levels[i].rating};
    int i = seek_nearest_level(lv, n, rating);
    return i < 0 ? NULL : lv[i].level;
}

/* Seats pairing `pr`: a new private room of the longest-waiting member's
 * game and options, the members on its person seats in a random order (a
 * computer pairing: the one person on a random seat, computers of the
 * nearest level on the others), each told `paired` {room, seat, token}. */
/* A member of a pairing: a connection here, or a stored seek (a cluster's
 * pool: `r`). */
typedef struct hubp_member {
    hub_conn *c;
    hubp_remote *r;
    const struct hubp_seek *s;
    int64_t account;
} hubp_member;

/* Pool id `id`'s member into *m: 0, or -1 when it has gone (a connection
 * without its seek, a stored seek paired or let go). */
static int member_of(hub *h, uint64_t id, hubp_member *m)
{
    memset(m, 0, sizeof *m);
    hubp_remote *r = rem_get(h->seeks, id);
    if (r) {
        if (r->gone)
            return -1;
        m->r = r;
        m->s = &r->s;
        m->account = r->account;
        return 0;
    }
    hub_conn *c = hub_conn_get(h, id);
    if (!c || !c->seek || (id & HUBP_REMOTE))
        return -1;
    m->c = c;
    m->s = c->seek;
    m->account = c->account;
    return 0;
}

/* Queues pairing `w` (its strings owned from here) for the store; on no
 * memory its members are read again with the next lobby. */
static void pairw_queue(hub *h, hubp_pairw *w)
{
    hub_batchp *b = hubb_batch(h);
    if (b && hub_grow((void **)&b->pairw, &b->cappairw, b->npairw + 1, sizeof *b->pairw) == 0) {
        b->pairw[b->npairw++] = *w;
        return;
    }
    for (int k = 0; k < w->n; k++) {
        hubp_pairing_clear(&w->m[k]);
        hubp_remote *r = rem_get(h->seeks, w->ids[k]);
        if (r)
            rem_free(h->seeks, r);
    }
}

static void seat_pairing(hub *h, const seek_pairing *pr, int64_t now_ms)
{
    hubp_member m[SEEK_MAX_PLAYERS];
    if (pr->n < 1 || pr->n > SEEK_MAX_PLAYERS)
        return; /* cannot be: seek_tick's pairings hold 1 to SEEK_MAX_PLAYERS members */
    for (int i = 0; i < pr->n; i++) {
        if (member_of(h, pr->ids[i], &m[i]) < 0) { /* cannot be: seat_queued checked them */
            tell_failed(h, pr->ids, pr->n, "storage", "the pairing lost a member: seek again");
            return;
        }
    }
    const struct hubp_seek *first = m[0].s; /* every member's game and pool are the same */
    for (int i = 1; i < pr->n; i++) /* the options of the one who waited longest */
        if (m[i].s->made_ms < first->made_ms)
            first = m[i].s;
    const pl_game *g = first->g;
    if ((int)h->nrooms >= h->cfg.max_rooms) {
        tell_failed(h, pr->ids, pr->n, "full", "the server holds its most rooms: seek again later");
        return;
    }
    int oom;
    json_t *ropts = hubk_room_options(g, first->opts, &oom);
    pl_buf err = {0};
    hub_room *r = oom ? NULL : hub_room_new(h, g, ropts, hubq_random_seed(h), &err);
    json_decref(ropts);
    if (!r) {
        tell_failed(h, pr->ids, pr->n, "options", pl_buf_str(&err)[0] ? pl_buf_str(&err) : "out of memory");
        pl_buf_free(&err);
        return;
    }
    int seat_of[SEEK_MAX_PLAYERS];
    uint64_t shuffle = hubq_random_seed(h);
    if (pr->computer) {
        const char *lv = nearest_level(h->seeks, pr->key, pr->rating);
        const ai_player *ai = lv ? hub_player(h, g, lv, &err) : NULL;
        if (!ai) {
            hub_room_free(r);
            tell_failed(h, pr->ids, pr->n, "options", "no computer level for this pool");
            pl_buf_free(&err);
            return;
        }
        seat_of[0] = (int)(shuffle % (uint64_t)r->nseats);
        for (int s = 0; s < r->nseats; s++) {
            if (s == seat_of[0])
                continue;
            r->seats[s].kind = HUB_SEAT_AI;
            r->seats[s].ai = ai;
            r->seats[s].level = pl_strdup(lv);
            snprintf(r->seats[s].name, sizeof r->seats[s].name, "computer (%s)", lv);
        }
    } else {
        for (int i = 0; i < pr->n; i++)
            seat_of[i] = i;
        for (int i = pr->n - 1; i > 0; i--) { /* Fisher-Yates */
            int j = (int)(shuffle % (uint64_t)(i + 1));
            shuffle /= (uint64_t)(i + 1);
            int t = seat_of[i];
            seat_of[i] = seat_of[j];
            seat_of[j] = t;
        }
    }
    pl_buf_free(&err);
    hubq_random_hex(h, r->code);
    r->grace_s = h->cfg.grace_s;
    r->public_ = 0;
    for (int i = 0; i < pr->n; i++) {
        hub_seat *t = &r->seats[seat_of[i]];
        snprintf(t->name, sizeof t->name, "%s", m[i].s->name);
        hubq_random_hex(h, t->token);
        t->account = m[i].account; /* a signed-in person's seat is theirs (their ratings follow it) */
        t->gone_ms = now_ms; /* the grace runs until they join */
    }
    /* Rated when every person is signed in (a guest's 1500 is no rating to
     * change); a computer's level is rated by its measured rating. */
    int all_signed = 1;
    for (int i = 0; i < pr->n; i++)
        all_signed &= m[i].account > 0;
    pl_buf why = {0};
    r->rated = all_signed && hubg_check(r, &why) == 0;
    pl_buf_free(&why);
    hubg_default_clock(r); /* rated: a move clock, so that no one can stall it */
    if (hubk_applies(r) < 0 || hub_room_add(h, r) < 0) {
        hub_room_free(r);
        tell_failed(h, pr->ids, pr->n, "storage", "out of memory");
        return;
    }
    r->creator = m[0].c ? m[0].c->id : 0;
    hubb_queue_room(h, r);
    hubb_room_give_away_seated(h, r); /* a cluster's: played wherever its people come by its code */
    hubp_pairw w = {.status = -3};
    for (int i = 0; i < pr->n; i++) {
        const char *key = m[i].s->key;
        if (m[i].r) { /* a stored seek: its pairing written for its process to tell */
            store_pairing sp = {.seek = m[i].r->sid, .room = r->code, .token = r->seats[seat_of[i]].token, .pool = key,
                                .game = g->id, .seat = seat_of[i], .computer = pr->computer, .rated = r->rated};
            if (hubp_pairing_copy(&w.m[w.n], &sp) == 0)
                w.ids[w.n++] = m[i].r->id;
            m[i].r->gone = 1; /* out of the pool; its row goes with the pairing */
            continue;
        }
        json_t *j = json_pack("{s:s, s:s, s:s, s:i, s:s, s:s, s:b, s:b}", "type", "paired", "room", r->code, "game",
                              g->id, "seat", seat_of[i], "token", r->seats[seat_of[i]].token, "pool", key, "computer",
                              pr->computer, "rated", r->rated);
        seek_end(h, m[i].c); /* already out of the pool: its seek's memory goes */
        /* about the new room: held until it is stored, dropped with it if that fails */
        hub_send_tagged(h, m[i].c->id, j, hub_hold_tag(h), r);
    }
    if (w.n)
        pairw_queue(h, &w);
    hub_room_advance(h, r, now_ms);
    hubt_rewake(h, r);
}

/* Whether member `i` of queued pairing `q` is still there: a connection
 * with the seek it was paired with (no unseek, no close, no room
 * meanwhile), or a stored seek not let go. */
static int queued_member(hub *h, const struct hubp_queued *q, int i, hubp_member *m)
{
    if (member_of(h, q->pr.ids[i], m) < 0)
        return 0;
    return m->r || (!m->c->seek->waiting && m->c->seek->serial == q->serial[i]);
}

/* Seats up to HUBP_SEAT_PER_TICK queued pairings. One whose member is gone
 * meanwhile is not seated: its other members go back in the pool with their
 * ratings and times as they were (paired again at the next tick). */
static void seat_queued(hub *h, int64_t now_ms)
{
    struct hubp_pool *p = h->seeks;
    for (int done = 0; done < HUBP_SEAT_PER_TICK && p->qhead < p->qn; done++) {
        struct hubp_queued q = p->queue[p->qhead++];
        int all = 1;
        hubp_member m;
        for (int i = 0; i < q.pr.n; i++)
            all &= queued_member(h, &q, i, &m);
        if (all) {
            seat_pairing(h, &q.pr, now_ms);
            continue;
        }
        for (int i = 0; i < q.pr.n; i++) {
            if (!queued_member(h, &q, i, &m))
                continue;
            const struct hubp_seek *k = m.s;
            seek_req r = {.id = q.pr.ids[i], .key = k->key, .players = k->players, .rating = k->rating, .rd = k->rd,
                          .made_ms = k->made_ms, .computer_after_s = k->after, .range = k->range};
            int rc = seek_add(p->pool, &r);
            if (rc != SEEK_OK && m.c) {
                seek_end(h, m.c);
                hub_error(h, m.c->id, "full", "seek", "seek: %s: seek again", seek_strerror(rc));
            } else if (rc != SEEK_OK) {
                m.r->gone = 1; /* read again with the next lobby */
                rem_free(p, m.r);
            }
        }
    }
    if (p->qhead == p->qn)
        p->qhead = p->qn = 0;
    p->seated_ms = now_ms;
    p->dirty = 1;
}

void hubp_tick(hub *h, int64_t now_ms)
{
    struct hubp_pool *p = h->seeks;
    if (!p)
        return;
    if (p->qhead < p->qn) { /* a flash crowd's pairings: seated before the pool ticks again */
        seat_queued(h, now_ms);
    } else if (seek_total(p->pool) && now_ms >= p->ticked_ms + HUBP_TICK_MS && (p->known || !h->cfg.cluster)) {
        p->ticked_ms = now_ms;
        size_t n = 0;
        const seek_pairing *prs = seek_tick(p->pool, now_ms, &n);
        if (n > (size_t)(INT32_MAX / 2) ||
            hub_grow((void **)&p->queue, &p->capq, p->qn + (int)n, sizeof *p->queue) < 0) {
            for (size_t i = 0; i < n; i++)
                tell_failed(h, prs[i].ids, prs[i].n, "storage", "out of memory: seek again");
        } else if (n) {
            /* queued (seek_tick's pairings live until its next call; seating may end seeks) */
            for (size_t i = 0; i < n; i++) {
                struct hubp_queued *q = &p->queue[p->qn++];
                q->pr = prs[i];
                for (int m = 0; m < prs[i].n; m++) {
                    hub_conn *c = (prs[i].ids[m] & HUBP_REMOTE) ? NULL : hub_conn_get(h, prs[i].ids[m]);
                    q->serial[m] = c && c->seek ? c->seek->serial : 0;
                }
            }
            seat_queued(h, now_ms);
        }
    }
    counts_push(h, now_ms);
}

int64_t hubp_next_ms(const hub *h)
{
    const struct hubp_pool *p = h->seeks;
    if (!p)
        return INT64_MAX;
    int64_t next = INT64_MAX;
    if (p->qhead < p->qn) /* pairings left to seat: the next tick soon, the sockets served between */
        return p->seated_ms + 1;
    if (seek_total(p->pool) && (p->known || !h->cfg.cluster))
        next = p->ticked_ms + HUBP_TICK_MS;
    if (p->dirty && p->subs && p->pushed_ms + HUBP_COUNTS_MS < next)
        next = p->pushed_ms + HUBP_COUNTS_MS;
    return next;
}

/* ---- stored ratings ---------------------------------------------------- */

void hubp_look_read(store *s, hubp_look *l)
{
    store_rating r;
    pl_buf err = {0};
    if (store_ratings_pool(s, l->pool, &l->account, 1, &r, &err) < 0) {
        fprintf(stderr, "parlour serve: rating of account %lld in %s: %s\n", (long long)l->account, l->pool,
                pl_buf_str(&err));
        l->status = -1;
    } else {
        double days = r.updated_ms > 0 ? (double)(l->now_ms - r.updated_ms) / 86400000.0 : 0.0;
        l->g = pl_rating_idle(r.g, days);
        l->status = 1;
    }
    pl_buf_free(&err);
}

void hubp_looks_done(hub *h, const hub_batchp *p, int64_t now_ms)
{
    for (int i = 0; i < p->npairw && h->seeks; i++) {
        if (p->pairw[i].status == 0)
            continue; /* written: its records go when their rows are read gone */
        for (int k = 0; k < p->pairw[i].n; k++) { /* not written: read again, paired again */
            hubp_remote *r = rem_get(h->seeks, p->pairw[i].ids[k]);
            if (r)
                rem_free(h->seeks, r);
        }
    }
    for (int i = 0; i < p->nlooks; i++) {
        const hubp_look *l = &p->looks[i];
        hub_conn *c = hub_conn_get(h, l->conn);
        if (!c || !c->seek || !c->seek->waiting || c->seek->serial != l->serial || !h->seeks)
            continue; /* gone, unseeked, or seeking again (its own look follows) */
        if (l->status != 1) {
            seek_end(h, c);
            hub_error(h, c->id, "storage", "seek", "your rating could not be read: seek again");
            continue;
        }
        seek_enter(h, c, l->g.rating, l->g.deviation, now_ms);
    }
}

/* ---- across processes (a cluster whose store keeps seeks) -------------- */

int hubp_seek_copy(store_seek *dst, const store_seek *src)
{
    *dst = *src;
    dst->owner = NULL;
    dst->id = pl_strdup(src->id);
    dst->pool = pl_strdup(src->pool);
    dst->game = pl_strdup(src->game);
    dst->options = pl_strdup(src->options);
    dst->name = pl_strdup(src->name);
    if (dst->id && dst->pool && dst->game && dst->options && dst->name)
        return 0;
    hubp_seek_clear(dst);
    return -1;
}

void hubp_seek_clear(store_seek *k)
{
    pl_free((char *)k->id);
    pl_free((char *)k->pool);
    pl_free((char *)k->game);
    pl_free((char *)k->options);
    pl_free((char *)k->name);
    memset(k, 0, sizeof *k);
}

int hubp_pairing_copy(store_pairing *dst, const store_pairing *src)
{
    *dst = *src;
    dst->seek = pl_strdup(src->seek);
    dst->room = pl_strdup(src->room);
    dst->token = pl_strdup(src->token);
    dst->pool = pl_strdup(src->pool);
    dst->game = pl_strdup(src->game);
    if (dst->seek && dst->room && dst->token && dst->pool && dst->game)
        return 0;
    hubp_pairing_clear(dst);
    return -1;
}

void hubp_pairing_clear(store_pairing *p)
{
    pl_free((char *)p->seek);
    pl_free((char *)p->room);
    pl_free((char *)p->token);
    pl_free((char *)p->pool);
    pl_free((char *)p->game);
    memset(p, 0, sizeof *p);
}

void hubp_batch_write(store *s, hub_batchp *p, int rooms_ok)
{
    pl_buf e = {0};
    for (int i = 0; i < p->nsputs; i++)
        if (store_seek_put(s, &p->sputs[i], &e) < 0)
            fprintf(stderr, "parlour serve: seek %s: %s\n", p->sputs[i].id, pl_buf_str(&e));
    for (int i = 0; i < p->nsdrops; i++)
        if (store_seek_drop(s, p->sdrops[i], &e) < 0)
            fprintf(stderr, "parlour serve: seek %s: %s\n", p->sdrops[i], pl_buf_str(&e));
    for (int i = 0; i < p->npairw; i++) {
        hubp_pairw *w = &p->pairw[i];
        w->status = rooms_ok ? store_pairing_put(s, HUBP_ROLE, w->m, w->n, &e) : -3;
        if (w->status < 0 && w->status != STORE_LOST && w->status != -3)
            fprintf(stderr, "parlour serve: pairing: %s\n", pl_buf_str(&e));
    }
    for (int i = 0; i < p->npdrops; i++)
        if (store_pairing_drop(s, p->pdrops[i], &e) < 0)
            fprintf(stderr, "parlour serve: pairing %s: %s\n", p->pdrops[i], pl_buf_str(&e));
    pl_buf_free(&e);
}

static int lobby_seek_cb(void *ctx, const store_seek *k)
{
    hub_lobby *l = ctx;
    if (hub_grow((void **)&l->seeks, &l->capseeks, l->nseeks + 1, sizeof *l->seeks) < 0 ||
        hubp_seek_copy(&l->seeks[l->nseeks], k) < 0)
        return 1;
    l->nseeks++;
    return 0;
}

static int lobby_pairing_cb(void *ctx, const store_pairing *p)
{
    hub_lobby *l = ctx;
    if (hub_grow((void **)&l->pairs, &l->cappairs, l->npairs + 1, sizeof *l->pairs) < 0 ||
        hubp_pairing_copy(&l->pairs[l->npairs], p) < 0)
        return 1;
    l->npairs++;
    return 0;
}

void hubp_lobby_read(store *s, hub_lobby *l, int64_t grace_ms)
{
    pl_buf e = {0};
    l->seeks_on = -1;
    if ((l->online = store_online(s, &e)) < 0) {
        fprintf(stderr, "parlour serve: online: %s\n", pl_buf_str(&e));
        pl_buf_clear(&e);
    }
    int r = store_role_take(s, HUBP_ROLE, &e);
    if (r < 0) {
        if (strstr(pl_buf_str(&e), "keeps no seeks"))
            l->seeks_on = 0; /* PostgreSQL: Play now pairs on each process */
        pl_buf_free(&e);
        return;
    }
    l->holder = r;
    /* The holder deletes what dead processes left (one of them, bounded, a
     * read: usually nothing to do, one indexed read), before it reads. */
    if (r == 1 && store_seeks_sweep(s, grace_ms, HUB_SWEEP_ROWS, &e) < 0) {
        fprintf(stderr, "parlour serve: sweep: %s\n", pl_buf_str(&e));
        pl_buf_clear(&e);
    }
    if (store_seeks_read(s, lobby_seek_cb, l, &e) != 0 || store_pairings_of(s, lobby_pairing_cb, l, &e) != 0) {
        fprintf(stderr, "parlour serve: seeks: %s\n", e.len ? pl_buf_str(&e) : "out of memory");
        l->holder = 0; /* nothing known: the hub keeps what it has */
    } else
        l->seeks_on = 1;
    pl_buf_free(&e);
}

static int rem_cmp_sid(const void *a, const void *b)
{
    const hubp_remote *x = *(const hubp_remote *const *)a, *y = *(const hubp_remote *const *)b;
    return strcmp(x->sid, y->sid);
}

/* A new record for stored seek `k` in the pool; 0, or -1 (no memory, or the
 * pool refuses it: it is left out). */
static int rem_add(struct hubp_pool *p, const store_seek *k)
{
    const pl_game *g = pl_game_find(k->game);
    if (!g || strlen(k->id) >= sizeof p->rem[0].sid || strlen(k->pool) >= PL_RATING_KEY_MAX)
        return -1;
    int slot = -1;
    for (int i = 0; i < p->nrem && slot < 0; i++) /* O(n): fine for a first version */
        if (!p->rem[i].id)
            slot = i;
    if (slot < 0) {
        if (p->nrem >= 0xffffff || hub_grow((void **)&p->rem, &p->caprem, p->nrem + 1, sizeof *p->rem) < 0)
            return -1;
        slot = p->nrem++;
        memset(&p->rem[slot], 0, sizeof p->rem[slot]);
    }
    hubp_remote *r = &p->rem[slot];
    json_t *opts = json_loads(k->options, 0, NULL);
    if (opts && (!json_is_object(opts) || !json_object_size(opts))) {
        json_decref(opts);
        opts = NULL;
    }
    p->remgen = (p->remgen + 1) & 0xfffffff;
    r->id = HUBP_REMOTE | (uint64_t)p->remgen << 24 | (uint64_t)slot;
    snprintf(r->sid, sizeof r->sid, "%s", k->id);
    r->s = (struct hubp_seek){.g = g, .opts = opts, .made_ms = k->made_ms, .players = k->players,
                              .after = k->after_s, .range = k->widest, .rating = k->rating, .rd = k->rd};
    snprintf(r->s.key, sizeof r->s.key, "%s", k->pool);
    snprintf(r->s.name, sizeof r->s.name, "%s", k->name);
    r->account = k->account;
    seek_req q = {.id = r->id, .key = r->s.key, .players = k->players, .rating = k->rating, .rd = k->rd,
                  .made_ms = k->made_ms, .computer_after_s = k->after_s, .range = k->widest};
    if (seek_add(p->pool, &q) != SEEK_OK) {
        r->gone = 1;
        rem_free(p, r);
        return -1;
    }
    return 0;
}

/* The holder's pool follows the stored seeks `l->seeks` (by id): new ones
 * enter with their times, gone ones leave. */
static void rem_follow(struct hubp_pool *p, const hub_lobby *l)
{
    hubp_remote **have = p->nrem ? pl_malloc(sizeof *have * (size_t)p->nrem) : NULL;
    int nh = 0;
    if (p->nrem && !have)
        return;
    for (int i = 0; i < p->nrem; i++)
        if (p->rem[i].id)
            have[nh++] = &p->rem[i];
    if (nh > 1)
        qsort(have, (size_t)nh, sizeof *have, rem_cmp_sid);
    int a = 0, b = 0;
    const store_seek **fresh = l->nseeks ? pl_malloc(sizeof *fresh * (size_t)l->nseeks) : NULL;
    int nf = 0;
    while (a < nh || b < l->nseeks) {
        int c = a >= nh ? 1 : b >= l->nseeks ? -1 : strcmp(have[a]->sid, l->seeks[b].id);
        if (c < 0)
            rem_free(p, have[a++]); /* cancelled, paired and deleted, or its process died */
        else if (c > 0) {
            if (fresh)
                fresh[nf++] = &l->seeks[b];
            b++;
        } else
            a++, b++; /* known (or paired: its row not yet gone) */
    }
    pl_free(have); /* before rem_add: the records may move */
    for (int i = 0; i < nf; i++)
        rem_add(p, fresh[i]);
    pl_free(fresh);
}

void hubp_lobby(hub *h, const hub_lobby *l)
{
    if (!h->cfg.cluster || !l)
        return;
    struct hubp_pool *p = pool_get(h);
    if (!p)
        return;
    if (l->online >= 0 && l->online != p->others) { /* the cluster's `online` changed */
        p->others = l->online;
        p->dirty = 1;
    }
    if (l->seeks_on < 0)
        return;
    p->known = 1;
    if (!l->seeks_on)
        return; /* the store keeps no seeks (PostgreSQL): each process pairs its own */
    if (!p->table) { /* the first read: seeks made before it move from this process's pool to the store */
        p->table = 1;
        for (int i = 0; i < h->nconns; i++) {
            hub_conn *c = &h->conns[i];
            if (!c->id || !c->seek || c->seek->waiting || c->seek->sid[0])
                continue;
            seek_cancel(p->pool, c->id);
            if (table_put(h, c, c->seek->rating, c->seek->rd) != SEEK_OK) {
                seek_end(h, c);
                hub_error(h, c->id, "storage", "seek", "out of memory: seek again");
            }
        }
    }
    /* the counts: the store's seeks per pool */
    for (int i = 0; i < l->nseeks; i++) {
        const pl_game *g = pl_game_find(l->seeks[i].game);
        if (g && strlen(l->seeks[i].pool) < PL_RATING_KEY_MAX)
            key_note(p, l->seeks[i].pool, g);
    }
    for (int k = 0; k < p->nkeys; k++) {
        int n = 0;
        for (int i = 0; i < l->nseeks; i++)
            n += !strcmp(l->seeks[i].pool, p->keys[k].key);
        if (n != p->keys[k].stored)
            p->dirty = 1;
        p->keys[k].stored = n;
    }
    /* the pool: the holder's */
    if (l->holder)
        rem_follow(p, l);
    else
        for (int i = 0; i < p->nrem; i++)
            if (p->rem[i].id)
                rem_free(p, &p->rem[i]);
    p->holder = l->holder;
    if (l->holder && seek_total(p->pool) && (p->ticked_ms > h->now || p->ticked_ms + HUBP_TICK_MS < h->now))
        p->ticked_ms = h->now - HUBP_TICK_MS; /* a tick at once */
    /* this process's pairings: each member told once, the row deleted */
    hub_batchp *b = hubb_batch(h);
    for (int i = 0; i < l->npairs; i++) {
        const store_pairing *sp = &l->pairs[i];
        uint64_t conn = strtoull(sp->seek, NULL, 16);
        hub_conn *c = hub_conn_get(h, conn);
        if (c && c->seek && !strcmp(c->seek->sid, sp->seek)) {
            hub_send_tagged(h, c->id,
                            json_pack("{s:s, s:s, s:s, s:i, s:s, s:s, s:b, s:b}", "type", "paired", "room", sp->room,
                                      "game", sp->game, "seat", sp->seat, "token", sp->token, "pool", sp->pool,
                                      "computer", sp->computer, "rated", sp->rated),
                            0, NULL);
            seek_end_ex(h, c, 0); /* its row went with the pairing */
        }
        char *d = pl_strdup(sp->seek);
        if (!b || !d || hub_grow((void **)&b->pdrops, &b->cappdrops, b->npdrops + 1, sizeof *b->pdrops) < 0)
            pl_free(d); /* told again (nothing: the seek is gone) and deleted with the next lobby */
        else
            b->pdrops[b->npdrops++] = d;
    }
}
