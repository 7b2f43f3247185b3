/* hub_seek.c — "Play now" in the hub (issue 33 §3, docs/pairing.md): the
 * requests `seek`, `unseek` and `counts`, the seek pool (seek.h) ticked
 * with the hub, the rooms made for each pairing (seats for the paired
 * people, or the person and computers of the nearest measured rating:
 * data/ratings/levels.txt, built in by src/server/seek_levels.cmake) and
 * the lobby's `counts` pushes. Prefix hubp_. Thread: the hub's.
 *
 * Ratings: stored per-account ratings do not exist yet, so every seeker is
 * rated by seeker_rating (1500, RD 350: a new player) — the one place the
 * stored ones plug in. A hub in test_seed mode (tests only) takes a
 * `rating` field of `seek` instead.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_int.h"
#include "parlour/alloc.h"
#include "parlour/rating.h"
#include "parlour/registry.h"
#include "seek.h"

#define HUBP_TICK_MS 200          /* the pool's tick while anyone waits */
#define HUBP_COUNTS_MS 1000       /* `counts` pushed at most this often */
#define HUBP_MAX_COMPUTER_S 120   /* "a computer after N s": N in 0..120 */
#define HUBP_MAX_LEVELS 256       /* lines of levels.txt kept */

extern const unsigned char hub_seek_levels_data[]; /* generated/seek_levels_data.c */

/* A connection's seek. */
struct hubp_seek {
    const pl_game *g;
    json_t *opts;                 /* the options as given (an object), or NULL */
    char key[PL_RATING_KEY_MAX];  /* its pool */
    char name[HUB_MAX_NAME + 1];
    int64_t made_ms;              /* when it was made (the room takes the oldest member's options) */
};

/* A pool key and its game (for the counts per game). */
typedef struct hubp_key {
    char key[PL_RATING_KEY_MAX];
    const char *game;
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
};

/* The rating and RD of the seeker `c` in pool `key`. Stored per-account
 * ratings do not exist yet: everybody is a new player (1500, RD 350). */
static void seeker_rating(const hub *h, const hub_conn *c, const char *key, double *rating, double *rd)
{
    (void)h;
    (void)c;
    (void)key;
    *rating = 1500.0;
    *rd = PL_RATING_RD_MAX;
}

/* Reads levels.txt's lines "pool level rating RD games" (# comments). */
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
            if (sscanf(line, "%23s %23s %lf", l->key, l->level, &l->rating) == 3)
                p->nlevels++;
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
    seek_free(p->pool);
    pl_free(p->keys);
    pl_free(p->last);
    pl_free(p);
    h->seeks = NULL;
}

/* Ends `c`'s seek (nothing when it has none). */
static void seek_end(hub *h, hub_conn *c)
{
    if (!c->seek)
        return;
    if (h->seeks) {
        seek_cancel(h->seeks->pool, c->id);
        h->seeks->dirty = 1;
    }
    json_decref(c->seek->opts);
    pl_free(c->seek);
    c->seek = NULL;
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

/* {"type":"counts","online":N,"pools":{key:n},"waiting":{game:n}} (a new reference). */
static json_t *counts_json(hub *h)
{
    struct hubp_pool *p = h->seeks;
    json_t *pools = json_object(), *games = json_object();
    for (int i = 0; p && i < p->nkeys; i++) {
        int n = seek_waiting(p->pool, p->keys[i].key);
        json_object_set_new(pools, p->keys[i].key, json_integer(n));
        json_t *was = json_object_get(games, p->keys[i].game);
        json_object_set_new(games, p->keys[i].game, json_integer(n + (was ? json_integer_value(was) : 0)));
    }
    return json_pack("{s:s, s:I, s:o, s:o}", "type", "counts", "online", (json_int_t)h->live_conns, "pools", pools,
                     "waiting", games);
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
    p->keys[p->nkeys++].game = g->id;
    return 0;
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
    double rating, rd;
    seeker_rating(h, c, pool.key, &rating, &rd);
    if (jrating)
        rating = given;
    seek_req q = {.id = c->id, .key = pool.key, .players = players, .rating = rating, .rd = rd, .made_ms = now_ms,
                  .computer_after_s = after, .range = range};
    int rc = seek_add(p->pool, &q);
    if (rc != SEEK_OK) {
        pl_free(s);
        hub_error(h, c->id, rc == SEEK_EFULL || rc == SEEK_EKEYS || rc == SEEK_ENOMEM ? "full" : "shape", "seek",
                  "seek: %s", seek_strerror(rc));
        return;
    }
    s->g = g;
    s->opts = opts ? json_incref(opts) : NULL;
    snprintf(s->key, sizeof s->key, "%s", pool.key);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->made_ms = now_ms;
    c->seek = s;
    p->dirty = 1;
    subscribe(h, c, 1);
    if (p->ticked_ms > now_ms || p->ticked_ms + HUBP_TICK_MS < now_ms)
        p->ticked_ms = now_ms - HUBP_TICK_MS; /* the first tick at once */
    hub_send_tagged(h, c->id,
                    json_pack("{s:s, s:s, s:s, s:i, s:i}", "type", "seeking", "pool", pool.key, "game", g->id,
                              "waiting", seek_waiting(p->pool, pool.key), "computer_after_s", after),
                    0, NULL);
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
static void seat_pairing(hub *h, const seek_pairing *pr, int64_t now_ms)
{
    hub_conn *m[SEEK_MAX_PLAYERS] = {0};
    if (pr->n < 1 || pr->n > SEEK_MAX_PLAYERS)
        return; /* cannot be: seek_tick's pairings hold 1 to SEEK_MAX_PLAYERS members */
    for (int i = 0; i < pr->n; i++) {
        m[i] = hub_conn_get(h, pr->ids[i]);
        if (!m[i] || !m[i]->seek) { /* cannot be: a seek goes with its connection */
            tell_failed(h, pr->ids, pr->n, "storage", "the pairing lost a member: seek again");
            return;
        }
    }
    const struct hubp_seek *first = m[0]->seek; /* every member's game and pool are the same */
    for (int i = 1; i < pr->n; i++) /* the options of the one who waited longest */
        if (m[i]->seek->made_ms < first->made_ms)
            first = m[i]->seek;
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
    int everyone_signed_in = 1;
    for (int i = 0; i < pr->n; i++) {
        hub_seat *t = &r->seats[seat_of[i]];
        /* a signed-in person sits as their account, under its name (as a join does) */
        snprintf(t->name, sizeof t->name, "%s", m[i]->account ? m[i]->aname : m[i]->seek->name);
        t->account = m[i]->account;
        everyone_signed_in &= m[i]->account > 0;
        hubq_random_hex(h, t->token);
        t->gone_ms = now_ms; /* the grace runs until they join */
    }
    /* Play now's pools are rated pools: the room is rated when every person
     * in it is signed in (a guest's game stays casual, as a guest's room does) */
    pl_buf why = {0};
    r->rated = everyone_signed_in && hubg_check(r, &why) == 0;
    pl_buf_free(&why);
    if (hubk_applies(r) < 0 || hub_room_add(h, r) < 0) {
        hub_room_free(r);
        tell_failed(h, pr->ids, pr->n, "storage", "out of memory");
        return;
    }
    r->creator = m[0]->id;
    hubb_queue_room(h, r);
    hubb_room_give_away(h, r);
    for (int i = 0; i < pr->n; i++) {
        const char *key = m[i]->seek->key;
        json_t *j = json_pack("{s:s, s:s, s:s, s:i, s:s, s:s, s:b}", "type", "paired", "room", r->code, "game", g->id,
                              "seat", seat_of[i], "token", r->seats[seat_of[i]].token, "pool", key, "computer",
                              pr->computer);
        seek_end(h, m[i]); /* already out of the pool: its seek's memory goes */
        /* about the new room: held until it is stored, dropped with it if that fails */
        hub_send_tagged(h, m[i]->id, j, hub_hold_tag(h), r);
    }
    hub_room_advance(h, r, now_ms);
    hubt_rewake(h, r);
}

void hubp_tick(hub *h, int64_t now_ms)
{
    struct hubp_pool *p = h->seeks;
    if (!p)
        return;
    if (seek_total(p->pool) && now_ms >= p->ticked_ms + HUBP_TICK_MS) {
        p->ticked_ms = now_ms;
        size_t n = 0;
        const seek_pairing *prs = seek_tick(p->pool, now_ms, &n);
        if (n) {
            /* the pairings live until the next seek_tick: copied, since seating may cancel seeks */
            seek_pairing *copy = pl_malloc(sizeof *copy * n);
            if (copy) {
                memcpy(copy, prs, sizeof *copy * n);
                for (size_t i = 0; i < n; i++)
                    seat_pairing(h, &copy[i], now_ms);
                pl_free(copy);
            } else {
                for (size_t i = 0; i < n; i++)
                    tell_failed(h, prs[i].ids, prs[i].n, "storage", "out of memory: seek again");
            }
            p->dirty = 1;
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
    if (seek_total(p->pool))
        next = p->ticked_ms + HUBP_TICK_MS;
    if (p->dirty && p->subs && p->pushed_ms + HUBP_COUNTS_MS < next)
        next = p->pushed_ms + HUBP_COUNTS_MS;
    return next;
}
