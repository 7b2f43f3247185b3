/* player.h -- a player's page (issue 33 §4): the JSON of GET /api/player/NAME
 * (docs/server.md, "A player's page"), built from the store. */
#ifndef PARLOUR_SERVER_PLAYER_H
#define PARLOUR_SERVER_PLAYER_H

#include "store.h"

#include <jansson.h>

#define PLAYER_MAX_GAMES 50     /* games a page lists at most (and by default) */
#define PLAYER_MAX_POOLS 32     /* pools a page lists */
#define PLAYER_MAX_LEVELS 48    /* (game, computer level) pairs a page lists */
#define PLAYER_LEVEL_GAMES 2000 /* the newest games the win rates are counted over */
#define PLAYER_EXPORT_MAX 1000  /* the newest games an export holds */
#define PLAYER_EXPORT_RATE 4    /* exports an account may ask a minute (each replays up to
                                   PLAYER_EXPORT_MAX games on the thread that checks passwords) */
#define PLAYER_KARUTA_MATCHES 20 /* the newest karuta matches the take times are read from */
#define PLAYER_KARUTA_READINGS 128 /* readings of one match counted, at most (a match has 100 at most) */

/* What is asked of a page: by its owner (own: "private" and "own" are in
 * it), and which games: those that finished before before_ms (<= 0: the
 * first page, with everything else; > 0: a next page, only name, games
 * and more), at most limit (1 to PLAYER_MAX_GAMES). */
typedef struct player_query {
    bool own;
    int64_t before_ms;
    int limit;
} player_query;

/* The page of account `acc` read from `s`. The first page: {name,
 * ratings:[{pool, rating, rd, games}], history:{pool:[{at_ms, rating,
 * rd}]}, levels:[{game, level, games, wins, draws, rate}] (the account's
 * finished games with a computer seat of that level, over its newest
 * PLAYER_LEVEL_GAMES; rate = wins / games), karuta:{matches, takes,
 * mean_ms, median_ms, fouls, fouls_per_match, recent:[{room, finished_ms,
 * takes, mean_ms, median_ms, fouls}]} (the take times of the readings the
 * account took and its fouls, over its newest PLAYER_KARUTA_MATCHES karuta
 * matches among those PLAYER_LEVEL_GAMES games, oldest first in `recent`;
 * the times null without takes, fouls_per_match null without matches;
 * each match replayed from the store), games:[{room, game,
 * finished_ms, result ("won", "lost", "drew" for this player), rated,
 * opponents:[names]}], more (whether older games follow)}, and for its
 * owner own: true and private. A next page: {name, games, more}. Never the
 * account's id, hash or any token. Returns a new object (the caller's), or
 * NULL with a message (a bad query: a limit out of range). */
json_t *player_page(store *s, const store_account *acc, const player_query *q, pl_buf *err);

/* The export of account `acc`'s games (docs/server.md, "A player's page"):
 * a zip archive, appended to `zip`, of one full record (parlour-record,
 * docs/records.md: `parlour replay FILE` replays it) per finished game, its
 * newest PLAYER_EXPORT_MAX, each rebuilt from the store (the room's game,
 * options, seed and actions through the rules), named DATE-GAME-ROOM.json;
 * the number of records in *count. A room that no longer replays is left
 * out (said on stderr). Without a record (no games) `zip` stays empty:
 * libzip writes no archive of no files.
 * Returns 0, or -1 with a message (zip is then to be freed, its contents
 * undefined). Work: every game is replayed, a few ms each. */
int player_records_zip(store *s, const store_account *acc, pl_buf *zip, int *count, pl_buf *err);

#endif
