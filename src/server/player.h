/* player.h -- a player's page (issue 33 §4): the JSON of GET /api/player/NAME
 * (docs/server.md, "A player's page"), built from the store. */
#ifndef PARLOUR_SERVER_PLAYER_H
#define PARLOUR_SERVER_PLAYER_H

#include "store.h"

#include <jansson.h>

#define PLAYER_MAX_GAMES 50   /* the newest games a page lists */
#define PLAYER_MAX_POOLS 32   /* pools a page lists */

/* The page of account `acc` read from `s`: {name, ratings:[{pool, rating,
 * rd, games}], history:{pool:[{at_ms, rating, rd}]}, games:[{room, game,
 * finished_ms, result ("won", "lost", "drew" for this player), rated,
 * opponents:[names]}]}. Never the account's id, hash or any token. Returns
 * a new object (the caller's), or NULL with a message. */
json_t *player_page(store *s, const store_account *acc, pl_buf *err);

#endif
