/* rating.h — the ratings of issue 33 §2 over Glicko-2 (glicko2.h): which
 * pool a game's options belong to, and how one finished game updates each
 * player of it (two players, teams, several players, a seat abandoned).
 *
 * Pure: no I/O, no globals, no allocation. The server stores the ratings
 * and calls these functions; docs/ratings.md says why each rule is so.
 * Policy (docs/ratings.md): one game is one rating period (lichess's way),
 * τ = PL_RATING_TAU; a deviation stays within [PL_RATING_RD_MIN,
 * PL_RATING_RD_MAX] and a volatility at most PL_RATING_VOL_MAX; without
 * games the deviation grows by one Glicko-2 empty period per
 * PL_RATING_IDLE_DAYS days.
 * Threading: every function is reentrant; the pool table is immutable.
 */
#ifndef PARLOUR_RATING_H
#define PARLOUR_RATING_H

#include <stdbool.h>

#include "parlour/buf.h"
#include "parlour/game.h"
#include "parlour/glicko2.h"
#include "parlour/options.h"

#define PL_RATING_TAU 0.5       /* Glickman's example; the system constant */
#define PL_RATING_RD_MIN 30.0   /* a floor, so that a rating never freezes */
#define PL_RATING_RD_MAX 350.0  /* a new player's deviation, the ceiling */
#define PL_RATING_VOL_MAX 0.1   /* a cap on σ, so that a streak cannot blow it up */
#define PL_RATING_IDLE_DAYS 1.0 /* days of inactivity per empty rating period */

/* The longest pool key ("tamcuc/4"...) with its NUL. */
#define PL_RATING_KEY_MAX 24

/* The pool of a game and its options. */
typedef struct pl_rating_pool {
    bool rated;
    char key[PL_RATING_KEY_MAX]; /* "ur/skiryuk", "cbw/2v2" ...; "unrated" when not rated */
    /* NULL when rated; else why not, one word: "game" (a game not rated),
     * "form" (a form of the game the pools leave out: uta-karuta,
     * chirashi, City Behind Walls with one person per team), "variant" (a
     * rule option away from the pool's rules), "deal" (the cards set by an
     * option: someone knows them). */
    const char *reason;
} pl_rating_pool;

/* The pool of game `g` played with the options `o` (parsed against
 * g->options, e.g. a pl_match's `opts`). Reads `o` only through options.h;
 * the seed is not looked at (the server always sets one). Cannot fail: an
 * unknown game or option set is "unrated" with its reason. */
pl_rating_pool pl_rating_pool_of(const pl_game *g, const pl_opts *o);

/* One seat of a finished game, as the update reads it. */
typedef struct pl_rating_seat {
    pl_glicko2 player; /* the seat's player before the game */
    int team;          /* seats with the same team play together (g->team_of) */
    int rank;          /* 0 the best; equal ranks drew; one rank per team */
    bool left;         /* abandoned the game: a loss against every other side */
} pl_rating_seat;

/* Fills `team` and `rank` of the `n` seats of `st`, a finished game of `g`
 * (phase OVER), from g->team_of and g->outcome; `player` and `left` are not
 * touched. Two sides (two players, two teams): the winner's seats rank 0,
 * the others 1, a draw all 0. More sides (Tam Cúc for 3 or 4): ranked by
 * the game's score, most first, equal scores equal ranks, the seat the
 * game names the winner alone first. Returns 0, or -1 with a message in
 * `err` when the game is not over or `n` is not its seat count; `seats` is
 * then unchanged. */
int pl_rating_result(const pl_game *g, const void *st, pl_rating_seat *seats, int n, pl_buf *err);

/* Marks seat `leaver` as having abandoned the game (issue 33 §2): it is
 * rated as a loss against every other side, whatever its seat's result
 * when the computer finished it, and every other side is rated as winning
 * against the leaver's side (its team forfeits to them); the leaver's own
 * teammates, and the other sides among themselves, keep the finished
 * game's ranks. So abandoning never pays (the leaver's new rating is at
 * most what any finished result would give) and staying never costs (no
 * one loses rating to the computer that finished the leaver's seat). Returns 0, or -1 with a message when
 * `leaver` is not one of the `n` seats (nothing changed). */
int pl_rating_abandon(pl_rating_seat *seats, int n, int leaver, pl_buf *err);

/* The new rating of each of the `n` seats (2 to PL_MAX_SEATS), written to
 * `out[i]` for seats[i], one rating period for everyone (all read the
 * ratings before the game). Each seat plays one Glicko-2 game against each
 * other side: a side of one seat is that player; a team is ONE composite
 * opponent, its mean rating with RD = sqrt(mean RD²). The score is 1, 0.5
 * or 0 as the seat's rank is better, equal or worse than that side's (0
 * against everyone for a seat that left; 1 against a side one of whose
 * seats left, for every seat of another side). So two players is exactly
 * pl_glicko2_update with one game; Tam Cúc for four is three games each.
 * Deviations are then kept within [PL_RATING_RD_MIN, PL_RATING_RD_MAX],
 * volatilities at most PL_RATING_VOL_MAX. Returns 0, or -1 with a message
 * in `err` (`out` unchanged) for: a seat count out of range, one side
 * only, a rating, deviation or volatility that is not finite and positive
 * (the rating finite), seats of one team with different ranks (those that
 * did not leave). */
int pl_rating_update(const pl_rating_seat *seats, int n, pl_glicko2 *out, pl_buf *err);

/* `p` after `days` days without a rated game (days <= 0: `p`): the
 * deviation grows as over days / PL_RATING_IDLE_DAYS empty Glicko-2
 * periods, φ² + k·σ², to at most PL_RATING_RD_MAX; the rating and
 * volatility stay. The server applies it to a player's stored rating
 * before their next game and when it shows the rating. Cannot fail. */
pl_glicko2 pl_rating_idle(pl_glicko2 p, double days);

#endif
