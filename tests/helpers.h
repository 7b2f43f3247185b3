/* helpers.h — shared test helpers: build matches and play text actions. */
#ifndef TEST_HELPERS_H
#define TEST_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "parlour/match.h"
#include "parlour/registry.h"
#include "ai/ai_arena.h"

/* New match of `game` with options in one string ("pieces=3 seed=1"); fails the test on error. */
pl_match *th_new(const char *game, const char *opts);
/* Plays space-separated... one action text (seat -1: whoever acts); fails the test on error. */
void th_play(pl_match *m, const char *text);
/* Plays several actions separated by ';'. */
void th_script(pl_match *m, const char *script);
/* Returns 0 if `text` is legal now (and plays it), -1 (state unchanged) with message in err. */
int th_try(pl_match *m, const char *text, pl_buf *err);
/* The legal actions (or chance outcomes) now, space-separated, into a static buffer. */
const char *th_legal(pl_match *m);
/* Sets the position from text; fails the test on error. */
void th_position(pl_match *m, const char *text);
/* The position text now (static buffer). */
const char *th_pos(pl_match *m);
/* Copies options `opts` into `out` (size n) with the number after "seed="
 * replaced by another seed: a world that must not be told apart by its seed. */
void th_other_seed(const char *opts, char *out, size_t n);
/* Fails the test unless seat v's records of `a` and `b` (pl_record_write_for)
 * are byte-identical; `what` names the case in the message. */
void th_same_record_for(const pl_match *a, const pl_match *b, int v, const char *what);
/* Whether `text` reads as an action of `seat` (failing the test if it does
 * not) that is among `seat`'s legal actions now. */
bool th_has_legal(pl_match *m, int seat, const char *text);
/* The hidden-card proofs: appends "\n" and what `seat`'s action `a` did, as
 * told to viewer `v` (game.h describe), in the real world (`before_a` to
 * `after_a`) to `told_a`, and in the swapped world to `told_b` (each `cap`
 * bytes, cut when full). Returns whether the real world told anything. */
bool th_told_both(const pl_game *g, int seat, pl_action a, int v, const void *before_a, const void *after_a,
                  const void *before_b, const void *after_b, char *told_a, char *told_b, size_t cap);
/* Fails the test unless `game` refuses the options `opts` (space separated)
 * with a message containing `want`. */
void th_options_refused(const char *game, const char *opts, const char *want);
/* Runs an arena of `game` (options opts[0..nopts)) between players `a` and
 * `b` for `games` games on `threads` threads from `seed`; fails the test on
 * error. */
ai_arena_result th_arena(const char *game, char **opts, int nopts, const char *a, const char *b,
                         long games, int threads, uint64_t seed);
/* One of v[0..n), drawn by `r`. */
const char *th_pick(pl_rng *r, const char *const *v, int n);
/* Tam Cúc's options as the property tests vary them, into `out` (`cap`
 * bytes): 2-4 players, "seed=" `seed`, and every rule option that applies
 * to that many players, drawn by `r`. */
void th_tamcuc_options(pl_rng *r, char *out, size_t cap, uint64_t seed);
/* Ur's options as the property tests vary them, into `out` (`n` bytes):
 * Finkel's rules one game in ten, else Skiryuk's with every pieces, dice,
 * start, loop and stack, drawn by `r`; "seed=" `seed`. */
void th_ur_options(pl_rng *r, char *out, size_t n, uint64_t seed);

/* A decision of th_random_games: `seat` (drawn to act) in `st`, the d-th
 * decision (0, 1, ...) of the game of options `opts`; returns the action the
 * seat plays (legal). */
typedef pl_action (*th_decide_fn)(void *ctx, const pl_game *g, const void *st, int seat, long d, const char *opts,
                                  pl_rng *rng);
/* Plays `per_variant` games of every variant of `game` to the end, the i-th
 * of variant v with options "VARIANT seed=N", N = stride * v + i + first:
 * chance events at random, and at each decision one of the actors, drawn by
 * `rng`, plays what decide() gives. The hidden-card property tests (hints,
 * reviews) check their decisions in it. Fails the test on an error. */
void th_random_games(const char *game, int per_variant, int stride, int first, pl_rng *rng, th_decide_fn decide,
                     void *ctx);

#endif
