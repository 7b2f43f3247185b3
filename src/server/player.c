/* player.c -- a player's page (player.h). */
#include "player.h"

#include "parlour/alloc.h"
#include "parlour/record.h"
#include "parlour/registry.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zip.h>

#define PLAYER_CODE_MAX 64 /* bytes of a room code an export takes (the hub's: 32) */

/* The win rates against each computer level, counted as the games go by. */
typedef struct {
    char game[24], level[24];
    int games, wins, draws;
} player_level;

/* A karuta match of the account, as the walk finds it (newest first). */
typedef struct {
    char code[PLAYER_CODE_MAX + 1];
    int64_t finished_ms;
    unsigned seats; /* bit per seat of the account */
} player_karuta_room;

typedef struct {
    json_t *list;
    int failed;
    int left; /* games still to list (the walk asks one more: `more`) */
    int more;
    player_level levels[PLAYER_MAX_LEVELS];
    int nlevels;
    player_karuta_room kar[PLAYER_KARUTA_MATCHES];
    int nkar;
} player_walk;

static int player_point(void *ctx, const store_rating_point *p)
{
    player_walk *w = ctx;
    if (json_array_append_new(w->list, json_pack("{s:I, s:f, s:f}", "at_ms", (json_int_t)p->at_ms, "rating",
                                                 p->rating, "rd", p->rd)) < 0)
        w->failed = 1;
    return 0;
}

/* "won", "lost" or "drew" for seats[0..n) from the room's result JSON: an
 * integer "winner" (a seat), or a "winners" array of seats; neither: drew. */
static const char *player_result(const char *result, const int *seats, int n)
{
    json_t *r = json_loads(result, 0, NULL);
    json_t *w = json_object_get(r, "winner"), *ws = json_object_get(r, "winners");
    const char *out = "drew";
    if (json_is_integer(w) || json_is_array(ws)) {
        out = "lost";
        for (int i = 0; i < n; i++) {
            if (json_is_integer(w) && json_integer_value(w) == seats[i])
                out = "won";
            for (size_t k = 0; k < json_array_size(ws); k++)
                if (json_integer_value(json_array_get(ws, k)) == seats[i])
                    out = "won";
        }
    }
    json_decref(r);
    return out;
}

static int player_game(void *ctx, const store_player_game *g)
{
    player_walk *w = ctx;
    if (w->left == 0) { /* the one asked beyond the page: older games follow */
        w->more = 1;
        return 1;
    }
    w->left--;
    json_t *opp = json_array();
    for (int i = 0; i < g->nopponents; i++)
        json_array_append_new(opp, json_string(g->opponents[i]));
    json_t *o = json_pack("{s:s, s:s, s:I, s:s, s:b, s:o}", "room", g->room, "game", g->game, "finished_ms",
                          (json_int_t)g->finished_ms, "result", player_result(g->result, g->seats, g->nseats),
                          "rated", g->rated, "opponents", opp);
    if (json_array_append_new(w->list, o) < 0)
        w->failed = 1;
    return 0;
}

/* One game toward the win rates: once per distinct computer level seated
 * in it (a computer partner counts too: the room says no more). Pairs
 * beyond PLAYER_MAX_LEVELS are not counted. */
static int player_level_game(void *ctx, const store_player_game *g)
{
    player_walk *w = ctx;
    if (!strcmp(g->game, "karuta") && w->nkar < PLAYER_KARUTA_MATCHES && strlen(g->room) <= PLAYER_CODE_MAX) {
        player_karuta_room *k = &w->kar[w->nkar++];
        snprintf(k->code, sizeof k->code, "%s", g->room);
        k->finished_ms = g->finished_ms;
        k->seats = 0;
        for (int i = 0; i < g->nseats; i++)
            k->seats |= 1u << g->seats[i];
    }
    const char *res = player_result(g->result, g->seats, g->nseats);
    for (int i = 0; i < g->nlevels; i++) {
        int seen = 0;
        for (int k = 0; k < i; k++)
            seen |= !strcmp(g->levels[k], g->levels[i]);
        if (seen)
            continue;
        int at = 0;
        while (at < w->nlevels && (strcmp(w->levels[at].game, g->game) || strcmp(w->levels[at].level, g->levels[i])))
            at++;
        if (at == w->nlevels) {
            if (at == PLAYER_MAX_LEVELS || strlen(g->game) >= sizeof w->levels[0].game ||
                strlen(g->levels[i]) >= sizeof w->levels[0].level)
                continue;
            player_level *l = &w->levels[w->nlevels++];
            memset(l, 0, sizeof *l);
            strcpy(l->game, g->game);
            strcpy(l->level, g->levels[i]);
        }
        w->levels[at].games++;
        w->levels[at].wins += !strcmp(res, "won");
        w->levels[at].draws += !strcmp(res, "drew");
    }
    return 0;
}

/* The win rates of the account's newest PLAYER_LEVEL_GAMES games into
 * page["levels"], ordered by game then level. 0, or -1 with a message. */
static int player_levels(store *s, const store_account *acc, json_t *page, player_walk *w, pl_buf *err)
{
    w->nlevels = 0;
    w->nkar = 0;
    if (store_player_games(s, acc->id, 0, PLAYER_LEVEL_GAMES, player_level_game, w, err) < 0)
        return -1;
    json_t *list = json_array();
    if (json_object_set_new(page, "levels", list) < 0)
        w->failed = 1;
    for (int i = 0; i < w->nlevels; i++) { /* insertion order: sorted here, a few entries */
        int best = i;
        for (int k = i + 1; k < w->nlevels; k++) {
            int c = strcmp(w->levels[k].game, w->levels[best].game);
            if (c < 0 || (c == 0 && strcmp(w->levels[k].level, w->levels[best].level) < 0))
                best = k;
        }
        player_level t = w->levels[i];
        w->levels[i] = w->levels[best];
        w->levels[best] = t;
        const player_level *l = &w->levels[i];
        if (json_array_append_new(list, json_pack("{s:s, s:s, s:i, s:i, s:i, s:f}", "game", l->game, "level",
                                                  l->level, "games", l->games, "wins", l->wins, "draws", l->draws,
                                                  "rate", (double)l->wins / l->games)) < 0)
            w->failed = 1;
    }
    return 0;
}

static int player_karuta(store *s, json_t *page, const player_walk *w);

/* The ratings and their histories into page. 0, or -1 with a message. */
static int player_ratings(store *s, const store_account *acc, json_t *page, player_walk *w, pl_buf *err)
{
    store_rating r[PLAYER_MAX_POOLS];
    int n = store_ratings_of(s, acc->id, r, PLAYER_MAX_POOLS, err);
    if (n < 0)
        return -1;
    if (n > PLAYER_MAX_POOLS)
        n = PLAYER_MAX_POOLS;
    json_t *ratings = json_array(), *history = json_object();
    if (json_object_set_new(page, "ratings", ratings) < 0 || json_object_set_new(page, "history", history) < 0)
        w->failed = 1;
    for (int i = 0; i < n && !w->failed; i++) {
        if (json_array_append_new(ratings, json_pack("{s:s, s:f, s:f, s:I}", "pool", r[i].pool, "rating",
                                                     r[i].g.rating, "rd", r[i].g.deviation, "games",
                                                     (json_int_t)r[i].games)) < 0)
            w->failed = 1;
        w->list = json_array();
        if (json_object_set_new(history, r[i].pool, w->list) < 0)
            w->failed = 1;
        else if (store_rating_history(s, acc->id, r[i].pool, player_point, w, err) < 0)
            return -1;
    }
    return 0;
}

json_t *player_page(store *s, const store_account *acc, const player_query *q, pl_buf *err)
{
    if (q->limit < 1 || q->limit > PLAYER_MAX_GAMES) {
        pl_buf_printf(err, "player: a page lists 1 to %d games", PLAYER_MAX_GAMES);
        return NULL;
    }
    json_t *page = json_pack("{s:s}", "name", acc->name);
    player_walk *w = pl_calloc(1, sizeof *w);
    if (!page || !w) {
        json_decref(page);
        pl_free(w);
        pl_buf_puts(err, "player: out of memory");
        return NULL;
    }
    int rc = 0;
    if (q->before_ms <= 0) {
        rc = player_ratings(s, acc, page, w, err);
        if (rc == 0)
            rc = player_levels(s, acc, page, w, err);
        if (rc == 0 && player_karuta(s, page, w) < 0)
            w->failed = 1;
        if (q->own && (json_object_set_new(page, "own", json_true()) < 0 ||
                       json_object_set_new(page, "private", json_boolean(acc->is_private)) < 0))
            w->failed = 1;
    }
    w->list = json_array();
    w->left = q->limit;
    if (json_object_set_new(page, "games", w->list) < 0)
        w->failed = 1;
    if (rc == 0 && !w->failed && store_player_games(s, acc->id, q->before_ms, q->limit + 1, player_game, w, err) < 0)
        rc = -1;
    if (json_object_set_new(page, "more", json_boolean(w->more)) < 0)
        w->failed = 1;
    if (rc == 0 && w->failed) {
        pl_buf_puts(err, "player: out of memory");
        rc = -1;
    }
    pl_free(w);
    if (rc < 0) {
        json_decref(page);
        return NULL;
    }
    return page;
}

/* ---- Export: the account's games as records in a zip (player_records_zip) ---- */

typedef struct {
    char (*codes)[PLAYER_CODE_MAX + 1];
    int64_t *fin;
    int n, cap;
} player_rooms;

static int player_room_code(void *ctx, const store_player_game *g)
{
    player_rooms *x = ctx;
    if (x->n == x->cap)
        return 1;
    if (strlen(g->room) > PLAYER_CODE_MAX)
        return 0; /* a code too long (never the hub's): left out */
    snprintf(x->codes[x->n], sizeof x->codes[0], "%s", g->room);
    x->fin[x->n++] = g->finished_ms;
    return 0;
}

/* What player_match needs of a stored room, copied out of the callback. */
/* One karuta match's take times and fouls for the seats `seats`, gathered
 * from the `judgement` events as its actions are replayed. */
typedef struct {
    unsigned seats;
    int take_ms[PLAYER_KARUTA_READINGS];
    int takes;
    int fouls;
    void *before; /* the state before the action (g->state_size bytes) */
} player_kar_stats;

typedef struct {
    char game[64];
    char *options;
    uint64_t seed;
    pl_match *m;
    pl_buf *err;
    player_kar_stats *kar; /* NULL: no events read */
} player_rebuild;

/* The judgement events of `seat`'s action `a` (from x->kar->before to the
 * match's state now) into x->kar. 0, or -1 out of memory. */
static int player_kar_events(player_rebuild *x, int seat, pl_action a)
{
    const pl_game *g = x->m->game;
    json_t *arr = json_array();
    if (!arr || g->events(x->kar->before, seat, a, x->m->state, -1, arr) < 0) {
        json_decref(arr);
        pl_buf_puts(x->err, "out of memory");
        return -1;
    }
    size_t i;
    json_t *ev;
    json_array_foreach(arr, i, ev)
    {
        if (strcmp(json_string_value(json_object_get(ev, "type")) ? json_string_value(json_object_get(ev, "type")) : "",
                   "judgement"))
            continue;
        json_t *taker = json_object_get(ev, "taker"), *fouls = json_object_get(ev, "fouls");
        if (json_is_integer(taker) && json_integer_value(taker) >= 0 && json_integer_value(taker) < PL_MAX_SEATS &&
            (x->kar->seats >> json_integer_value(taker) & 1u) && x->kar->takes < PLAYER_KARUTA_READINGS)
            x->kar->take_ms[x->kar->takes++] = (int)json_integer_value(json_object_get(ev, "take_ms"));
        for (size_t k = 0; k < json_array_size(fouls) && k < PL_MAX_SEATS; k++)
            if (x->kar->seats >> k & 1u)
                x->kar->fouls += (int)json_integer_value(json_array_get(fouls, k));
    }
    json_decref(arr);
    return 0;
}

static int player_room_cb(void *ctx, const store_room *r, int finished, const char *result)
{
    (void)finished, (void)result;
    player_rebuild *x = ctx;
    snprintf(x->game, sizeof x->game, "%s", r->game);
    x->options = pl_strdup(r->options ? r->options : "{}");
    x->seed = r->seed;
    return x->options ? 0 : -1;
}

static int player_action_cb(void *ctx, const store_action *a)
{
    player_rebuild *x = ctx;
    if (a->seat == -2) { /* a takeback: the history back to its length (store.h) */
        char *end;
        long n = strtol(a->text, &end, 10);
        if (!*a->text || *end || n < 0 || n >= x->m->nhist) {
            pl_buf_printf(x->err, "action %lld: a takeback to '%s'", (long long)a->seq, a->text);
            return -1;
        }
        while (x->m->nhist > n)
            if (pl_match_undo(x->m, x->err) < 0)
                return -1;
        return 0;
    }
    pl_action code;
    int seat = a->seat < 0 ? PL_CHANCE : a->seat;
    if (pl_parse_legal(x->m->game, x->m->state, seat, a->text, &code, x->err) < 0)
        return -1;
    if (x->kar)
        memcpy(x->kar->before, x->m->state, x->m->game->state_size);
    if (pl_match_play(x->m, seat, code, x->err) < 0)
        return -1;
    return x->kar ? player_kar_events(x, seat, code) : 0;
}

/* Room `code`'s match rebuilt from the store: its game, options (the stored
 * JSON object of strings) and seed, every stored action replayed through
 * the rules (takebacks undone). With `kar` (a game with events), every
 * action's judgement events are read into it as they are replayed (a
 * takeback does not take back what was read: karuta rooms have none).
 * Returns the match (pl_match_free it), or NULL with a message. */
static pl_match *player_match(store *s, const char *code, player_kar_stats *kar, pl_buf *err)
{
    player_rebuild x = {.err = err};
    int rc = store_room_get(s, code, player_room_cb, &x, err);
    json_t *opts = rc == 0 ? json_loads(x.options, 0, NULL) : NULL;
    const pl_game *g = rc == 0 ? pl_game_find(x.game) : NULL;
    char *words[65];
    int n = 0;
    if (rc == 0 && (!g || !json_is_object(opts)))
        pl_buf_printf(err, "room %s: its game or options cannot be read", code);
    else if (rc == 1)
        pl_buf_printf(err, "room %s: no such room", code);
    const char *key;
    json_t *val;
    if (g && json_is_object(opts))
        json_object_foreach(opts, key, val)
        {
            if (n == 64 || !json_is_string(val) || !(words[n] = pl_malloc(strlen(key) + json_string_length(val) + 2)))
                break;
            sprintf(words[n++], "%s=%s", key, json_string_value(val));
        }
    char seedw[48];
    snprintf(seedw, sizeof seedw, "seed=%" PRIu64, x.seed);
    if (g && json_is_object(opts) && (size_t)n == json_object_size(opts)) {
        words[n] = seedw;
        x.m = pl_match_new(g, n + 1, words, err);
    } else if (g && json_is_object(opts))
        pl_buf_printf(err, "room %s: its options cannot be read", code);
    for (int i = 0; i < n; i++)
        pl_free(words[i]);
    json_decref(opts);
    pl_free(x.options);
    if (x.m && kar && (!x.m->game->events || !(kar->before = pl_malloc(x.m->game->state_size)))) {
        pl_buf_puts(err, x.m->game->events ? "out of memory" : "a game without events");
        pl_match_free(x.m);
        x.m = NULL;
    }
    x.kar = kar;
    if (x.m && store_actions(s, code, player_action_cb, &x, err) != 0) {
        pl_match_free(x.m);
        x.m = NULL;
    }
    return x.m;
}

/* The file name of a record in the zip: DATE-GAME-ROOM.json (DATE the
 * finish's UTC day, YYYY-MM-DD; 0000-00-00 when unknown). */
static void player_file_name(char *out, size_t cap, const char *game, const char *code, int64_t fin)
{
    struct tm tm = {0};
    time_t t = (time_t)(fin / 1000);
    if (fin > 0 && gmtime_r(&t, &tm))
        snprintf(out, cap, "%04d-%02d-%02d-%s-%s.json", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, game, code);
    else
        snprintf(out, cap, "0000-00-00-%s-%s.json", game, code);
}

int player_records_zip(store *s, const store_account *acc, pl_buf *zip, int *count, pl_buf *err)
{
    player_rooms rooms = {.cap = PLAYER_EXPORT_MAX};
    rooms.codes = pl_malloc(sizeof *rooms.codes * PLAYER_EXPORT_MAX);
    rooms.fin = pl_malloc(sizeof *rooms.fin * PLAYER_EXPORT_MAX);
    pl_buf *recs = pl_calloc(PLAYER_EXPORT_MAX, sizeof *recs);
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = NULL;
    zip_t *za = NULL;
    int rc = -1, n = 0;
    if (!rooms.codes || !rooms.fin || !recs) {
        pl_buf_puts(err, "player: out of memory");
        goto out;
    }
    if (store_player_games(s, acc->id, 0, PLAYER_EXPORT_MAX, player_room_code, &rooms, err) < 0)
        goto out;
    if (!(src = zip_source_buffer_create(NULL, 0, 0, &ze)) || !(za = zip_open_from_source(src, ZIP_TRUNCATE, &ze))) {
        pl_buf_printf(err, "player: zip: %s", zip_error_strerror(&ze));
        goto out;
    }
    zip_source_keep(src); /* read back after zip_close */
    for (int i = 0; i < rooms.n; i++) {
        pl_buf why = {0};
        pl_match *m = player_match(s, rooms.codes[i], NULL, &why);
        if (!m) { /* a room that no longer replays (rules changed since): left out, said on stderr */
            fprintf(stderr, "parlour serve: export: room %s: %s\n", rooms.codes[i], pl_buf_str(&why));
            pl_buf_free(&why);
            continue;
        }
        pl_buf_free(&why);
        char name[160];
        player_file_name(name, sizeof name, m->game->id, rooms.codes[i], rooms.fin[i]);
        int bad = pl_record_write(m, &recs[n]) < 0;
        pl_buf_putc(&recs[n], '\n');
        bad |= recs[n].oom;
        pl_match_free(m);
        zip_source_t *fs = bad ? NULL : zip_source_buffer(za, recs[n].s, recs[n].len, 0);
        if (!fs || zip_file_add(za, name, fs, ZIP_FL_ENC_UTF_8) < 0) {
            zip_source_free(fs);
            pl_buf_printf(err, "player: zip: %s", bad ? "out of memory" : zip_strerror(za));
            goto out;
        }
        n++; /* its text stays in recs[] until zip_close has read it */
    }
    if (zip_close(za) < 0) {
        pl_buf_printf(err, "player: zip: %s", zip_strerror(za));
        goto out;
    }
    za = NULL;
    zip_int64_t len = 0;
    if (zip_source_open(src) == 0) {
        if (zip_source_seek(src, 0, SEEK_END) == 0 && (len = zip_source_tell(src)) >= 0 &&
            zip_source_seek(src, 0, SEEK_SET) == 0) {
            char chunk[8192];
            zip_int64_t got;
            while (len > 0 && (got = zip_source_read(src, chunk, sizeof chunk)) > 0)
                pl_buf_append(zip, chunk, (size_t)got);
        }
        zip_source_close(src);
    }
    if (zip->oom || (zip_int64_t)zip->len != len) {
        pl_buf_puts(err, "player: zip: reading the archive back failed");
        goto out;
    }
    *count = n;
    rc = 0;
out:
    if (za)
        zip_discard(za);
    zip_source_free(src);
    for (int i = 0; recs && i < PLAYER_EXPORT_MAX; i++)
        pl_buf_free(&recs[i]);
    pl_free(recs);
    pl_free(rooms.codes);
    pl_free(rooms.fin);
    zip_error_fini(&ze);
    return rc;
}

/* ---- Karuta take times and fouls across matches (player_karuta) ---- */

static int player_int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n) (sorted here): the middle one, or the mean of the
 * two middle ones. n > 0. */
static double player_median(int *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, player_int_cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* page["karuta"]: the account's take times and fouls over the karuta
 * matches the walk found (w->kar, newest first), each replayed from the
 * store with its judgement events read (player.h). A match that no longer
 * replays is left out (said on stderr). 0, or -1 out of memory. */
static int player_karuta(store *s, json_t *page, const player_walk *w)
{
    int *all = pl_malloc(sizeof *all * PLAYER_KARUTA_MATCHES * PLAYER_KARUTA_READINGS);
    player_kar_stats *k = pl_malloc(sizeof *k);
    json_t *recent = json_array();
    int n = 0, nall = 0, fouls = 0, bad = !all || !k || !recent;
    for (int i = w->nkar - 1; !bad && i >= 0; i--) { /* oldest first: the chart's order */
        memset(k, 0, sizeof *k);
        k->seats = w->kar[i].seats;
        pl_buf why = {0};
        pl_match *m = player_match(s, w->kar[i].code, k, &why);
        pl_free(k->before);
        if (!m) {
            fprintf(stderr, "parlour serve: player: karuta room %s: %s\n", w->kar[i].code, pl_buf_str(&why));
            pl_buf_free(&why);
            continue;
        }
        pl_buf_free(&why);
        pl_match_free(m);
        double mean = 0;
        for (int t = 0; t < k->takes; t++)
            mean += k->take_ms[t] / (double)k->takes;
        memcpy(all + nall, k->take_ms, sizeof *all * (size_t)k->takes);
        nall += k->takes;
        fouls += k->fouls;
        n++;
        json_t *e = json_pack("{s:s, s:I, s:i, s:o, s:o, s:i}", "room", w->kar[i].code, "finished_ms",
                              (json_int_t)w->kar[i].finished_ms, "takes", k->takes, "mean_ms",
                              k->takes ? json_real(mean) : json_null(), "median_ms",
                              k->takes ? json_real(player_median(k->take_ms, k->takes)) : json_null(), "fouls",
                              k->fouls);
        bad |= json_array_append_new(recent, e) < 0;
    }
    double mean = 0;
    for (int t = 0; !bad && t < nall; t++)
        mean += all[t] / (double)nall;
    json_t *kar = bad ? NULL
                      : json_pack("{s:i, s:i, s:o, s:o, s:i, s:o, s:O}", "matches", n, "takes", nall, "mean_ms",
                                  nall ? json_real(mean) : json_null(), "median_ms",
                                  nall ? json_real(player_median(all, nall)) : json_null(), "fouls", fouls,
                                  "fouls_per_match", n ? json_real((double)fouls / n) : json_null(), "recent", recent);
    bad |= !kar || json_object_set_new(page, "karuta", kar) < 0;
    json_decref(recent);
    pl_free(all);
    pl_free(k);
    return bad ? -1 : 0;
}
