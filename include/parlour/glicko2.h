/* glicko2.h — Glickman's Glicko-2 rating system (issue 33: ratings).
 *
 * "Example of the Glicko-2 system", Mark E. Glickman, 2012: a player's
 * rating r, rating deviation RD and volatility σ are updated once per
 * rating period from the games of that period, with the system constant τ.
 * Pure arithmetic on doubles: no allocation, no I/O, no globals.
 */
#ifndef PARLOUR_GLICKO2_H
#define PARLOUR_GLICKO2_H

/* A player's rating on the Glicko scale (1500 / 350 / 0.06 for a new one). */
typedef struct pl_glicko2 {
    double rating;     /* r */
    double deviation;  /* RD */
    double volatility; /* σ */
} pl_glicko2;

/* One game of the period: the opponent's rating and deviation (their
 * values before the period) and the score, 1 a win, 0.5 a draw, 0 a loss. */
typedef struct pl_glicko2_game {
    double rating;
    double deviation;
    double score;
} pl_glicko2_game;

/* A new player: 1500, 350, 0.06 (Glickman's suggested start). */
pl_glicko2 pl_glicko2_new(void);

/* The rating of `p` after a rating period with the `n` games of `g`
 * (n may be 0: the deviation then grows by the volatility alone), with
 * the system constant `tau` (0.3 to 1.2; Glickman's example uses 0.5).
 * Glickman's steps 1-8, σ' by the Illinois algorithm to 1e-6. Returns the
 * new rating; `p` and `g` are not changed. Never fails for finite inputs
 * with deviation > 0 and volatility > 0. */
pl_glicko2 pl_glicko2_update(pl_glicko2 p, const pl_glicko2_game *g, int n, double tau);

/* The expected score of `a` against `b` (0..1) on the Glicko-2 scale, the
 * E of step 3 with b's deviation: for pairing and for the tests. */
double pl_glicko2_expect(pl_glicko2 a, pl_glicko2 b);

#endif
