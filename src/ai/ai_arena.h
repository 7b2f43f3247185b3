/* ai_arena.h — matches between computer players, to measure strength
 * (`parlour arena`, docs/ai.md).
 *
 * Seats are rotated for fairness: in game g, seat i is played by player
 * (i + g) mod P, and the P games g = kP .. kP+P-1 share one seed (the same
 * deal, dice and reading order as far as the players' choices allow), so
 * each player meets the same luck from every seat. In team games the seats
 * of a team alternate (cbw), so a team is one player. A game is won by the
 * player at the winning seat or team. Several seats acting at once each
 * choose on the same position before any of them is applied.
 * Results depend only on the options and the seed, not on the number of
 * threads (games are run in parallel and stored by index).
 * Each spec is made into one ai_player before the games start (a perfect:
 * table is loaded once per run) and shared by all the worker threads.
 * Thread-safety: ai_arena_run may run concurrently with itself.
 */
#ifndef AI_ARENA_H
#define AI_ARENA_H

#if !defined(PARLOUR_IN_AI) && !defined(PARLOUR_IN_FRONT)
#error "ai_arena.h belongs to the AI layer: only the AI and the front ends may include it (core and games know no AI)"
#endif

#include "parlour/game.h"

#define AI_ARENA_MAXP 4

typedef struct ai_arena_opts {
    const pl_game *g;
    int nopts;           /* game option words KEY=VALUE (a seed= among them is the base seed) */
    char **opts;
    int nplayers;        /* 2..AI_ARENA_MAXP */
    const char *players[AI_ARENA_MAXP]; /* AI specs */
    long games;          /* >= 1 */
    uint64_t seed;       /* base seed when opts has none */
    int threads;         /* games played at once, 1..16 */
    const char *records; /* folder for one JSON record per game, or NULL */
    long max_actions;    /* a game longer than this is stopped and counted a draw (0: 100000) */
    /* Optional progress callback, called (from any thread, serialised) after each game. */
    void (*progress)(void *ctx, long done, long total);
    void *ctx;
} ai_arena_opts;

typedef struct ai_arena_result {
    long games;
    long wins[AI_ARENA_MAXP], draws[AI_ARENA_MAXP], losses[AI_ARENA_MAXP];
    double score[AI_ARENA_MAXP]; /* (wins + draws / 2) / games */
    double ci95[AI_ARENA_MAXP];  /* half-width of the score's 95 % confidence interval */
    double points[AI_ARENA_MAXP]; /* the game's score of the player's seats (their mean), per game */
    double elo, elo_lo, elo_hi;  /* player 0 minus player 1, with the interval's ends */
    long seat_games[PL_MAX_SEATS][AI_ARENA_MAXP]; /* games each player sat at each seat */
    int nseats;
    long stopped;                /* games stopped at max_actions */
    long actions;                /* actions played, all games */
    double secs;                 /* wall time */
} ai_arena_result;

/* Plays the games. Returns 0 with `r` filled, or -1 with a message in `err`
 * (bad option or spec, a player that cannot be made, e.g. a missing table,
 * an AI that failed, no memory, a record that could not be written); `r` is
 * then unspecified. */
int ai_arena_run(const ai_arena_opts *o, ai_arena_result *r, pl_buf *err);

/* Elo difference for a score rate in (0,1), clamped to ±800 at 0 and 1. */
double ai_arena_elo(double score);

#endif
