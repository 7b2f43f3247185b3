/* registry.c — the games the program knows, in listing order (registry.h).
 * A new game adds its table here and nowhere else outside its folder. */
#include "parlour/registry.h"

#include <string.h>

extern const pl_game ur_game;
extern const pl_game cbw_game;
extern const pl_game tc_game;
extern const pl_game kar_game;

static const pl_game *const games[] = {
    &ur_game,
    &cbw_game,
    &tc_game,
    &kar_game,
};

const pl_game *const *pl_games(int *n)
{
    *n = (int)(sizeof games / sizeof games[0]);
    return games;
}

const pl_game *pl_game_find(const char *id)
{
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        if (strcmp(games[i]->id, id) == 0)
            return games[i];
    return NULL;
}

void pl_games_list(pl_buf *out)
{
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        pl_buf_printf(out, "%s%s", i ? ", " : "", games[i]->id);
}
