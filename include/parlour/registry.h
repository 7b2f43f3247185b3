/* registry.h — the list of games the program knows.
 * Immutable tables; safe from any thread.
 */
#ifndef PARLOUR_REGISTRY_H
#define PARLOUR_REGISTRY_H

#include "parlour/game.h"

/* The game with id `id` ("ur", "cbw", ...), or NULL. */
const pl_game *pl_game_find(const char *id);
/* All games in listing order; `*n` receives the count. */
const pl_game *const *pl_games(int *n);
/* Appends the known ids, separated by ", " (for error messages). */
void pl_games_list(pl_buf *out);

#endif
