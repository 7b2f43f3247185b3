/* player.c -- a player's page (player.h). */
#include "player.h"

#include "parlour/alloc.h"

#include <string.h>

/* The win rates against each computer level, counted as the games go by. */
typedef struct {
    char game[24], level[24];
    int games, wins, draws;
} player_level;

typedef struct {
    json_t *list;
    int failed;
    int left; /* games still to list (the walk asks one more: `more`) */
    int more;
    player_level levels[PLAYER_MAX_LEVELS];
    int nlevels;
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
