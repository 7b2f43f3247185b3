/* player.c -- a player's page (player.h). */
#include "player.h"

#include <string.h>

typedef struct {
    json_t *list;
    int failed;
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

json_t *player_page(store *s, const store_account *acc, pl_buf *err)
{
    store_rating r[PLAYER_MAX_POOLS];
    int n = store_ratings_of(s, acc->id, r, PLAYER_MAX_POOLS, err);
    if (n < 0)
        return NULL;
    if (n > PLAYER_MAX_POOLS)
        n = PLAYER_MAX_POOLS;
    json_t *page = json_pack("{s:s, s:[], s:{}, s:[]}", "name", acc->name, "ratings", "history", "games");
    if (!page) {
        pl_buf_puts(err, "player: out of memory");
        return NULL;
    }
    json_t *ratings = json_object_get(page, "ratings"), *history = json_object_get(page, "history");
    player_walk w = {0};
    for (int i = 0; i < n && !w.failed; i++) {
        json_array_append_new(ratings, json_pack("{s:s, s:f, s:f, s:I}", "pool", r[i].pool, "rating", r[i].g.rating,
                                                 "rd", r[i].g.deviation, "games", (json_int_t)r[i].games));
        w.list = json_array();
        json_object_set_new(history, r[i].pool, w.list);
        if (store_rating_history(s, acc->id, r[i].pool, player_point, &w, err) < 0) {
            json_decref(page);
            return NULL;
        }
    }
    w.list = json_object_get(page, "games");
    if (!w.failed && store_player_games(s, acc->id, PLAYER_MAX_GAMES, player_game, &w, err) < 0) {
        json_decref(page);
        return NULL;
    }
    if (w.failed || json_array_size(ratings) != (size_t)n) {
        pl_buf_puts(err, "player: out of memory");
        json_decref(page);
        return NULL;
    }
    return page;
}
