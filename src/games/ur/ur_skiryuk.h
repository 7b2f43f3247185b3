/* ur_skiryuk.h — the exact solver of the Royal Game of Ur under Skiryuk's
 * rules (UR-R1..R18, pieces 1..4), and the table it writes; and the game's
 * table functions for both rule sets (ur_table_ops, Finkel's in
 * ur_finkel.c).
 *
 * States are "light to move, before the roll"; a dark-to-move state is the
 * colour-flipped light-to-move state (rows A and C swapped, owners swapped;
 * value 1 - V). They are grouped in layers by the pieces borne off (a by
 * light, b by dark): a borne-off piece never comes back, so play only moves
 * from a layer to itself, its mirror or a layer with one more piece off.
 * Inside a layer a state is four parts, each ranked densely within its
 * count of light and dark pieces: the singles (A7 A8 C7 C8 B8, and B1 B2 B4
 * B5 with the piece's side), the stacks (B3 and B6 in order, B7 with its
 * owner and sides), light's lane (A4 A3 A2 A1) and dark's lane (C4 .. C1).
 * A block of states per combination of counts; no keys are stored: 8 bytes
 * a state. Moves are the rules' own (ur_game.legal and .apply), so every
 * option of Skiryuk's rules (dice, loop, stack) is solved as played.
 * Threading: urs_solve uses `threads` worker threads internally; a table is
 * read-only once solved and may be shared.
 */
#ifndef UR_SKIRYUK_H
#define UR_SKIRYUK_H

#if !defined(PARLOUR_IN_GAMES)
#error "ur_skiryuk.h is internal to the games layer (src/games/ur): other layers use include/parlour/game.h"
#endif

#include <stdint.h>
#include <stdio.h>

#include "ur.h"

#define URS_MAX_PIECES 4

typedef struct urs_table urs_table;

/* Creates an unsolved table (every value 0.5) for the options of `proto`
 * (a Skiryuk state: pieces 1..URS_MAX_PIECES, dice, loop, stack). NULL with
 * a message when the options are not Skiryuk's, the pieces too many, or
 * memory runs out. */
urs_table *urs_new(const ur_state *proto, pl_buf *err);
void urs_free(urs_table *t);
/* Number of light-to-move states (all layers; a superset of the reachable
 * ones: every placement of at most `pieces` pieces a side the rules allow
 * on a square). */
uint64_t urs_count(const urs_table *t);

/* Solves the table in place: layer pairs from the most pieces off down,
 * Gauss-Seidel sweeps from the most progress down, extrapolated when the
 * residual shrinks steadily (one copy of the pair's values). `tol`: stop a
 * layer pair when a plain sweep changes no value by more than tol. `progress` (may be NULL) gets a line per layer
 * pair (and per sweep in large ones). Returns the number of sweeps in all,
 * or -1 when out of memory (the table then half solved). */
long urs_solve(urs_table *t, double tol, int threads, FILE *progress);

/* Layer pairs of at least URS_FAST_MIN states (or the count given to
 * urs_fast_min) are swept from their successors listed once (about 4 bytes
 * a successor and 8 a state while the pair is solved; the same values to
 * the last bit as the plain sweep); smaller ones, or when memory is short,
 * by the plain sweep. urs_fast_min(t, UINT64_MAX): always the plain sweep. */
#define URS_FAST_MIN 1000000u
void urs_fast_min(urs_table *t, uint64_t states);

/* Checks a solved table against the equations it solves: for every
 * state, |V(s) - (A + p (1 - V(f)))| with A the expectation over the rolls
 * that allow a move (the best move each), p the probability of a pass and f
 * the position after it. Returns the largest residual and its state's index
 * in `at`; reads only (`threads` worker threads, 1..16). */
double urs_verify(const urs_table *t, int threads, uint64_t *at);

/* P(`seat` wins) for `s` (same options as the table; any start) in phase
 * first, roll (the opening's forced 1 included) or over; -1 when the table
 * does not cover it (other options, phase move). */
double urs_value(const urs_table *t, const ur_state *s, int seat);

/* The light-to-move state of index `i` (< urs_count), before the roll,
 * its option fields those of the table's prototype. */
void urs_state(const urs_table *t, uint64_t i, ur_state *out);

/* Positions reachable from `root` (a new game, start=light or dark),
 * counted as the generic solver counts them: every distinct position
 * between decisions, either side to move, the opening and the final
 * positions included. -1 when out of memory. */
int64_t urs_positions(const urs_table *t, const ur_state *root);

/* Writes / reads the table (a small header, then the values as doubles).
 * 0, or -1 with a message. */
int urs_save(const urs_table *t, const char *path, pl_buf *err);
urs_table *urs_load(const char *path, pl_buf *err);

/* The table functions for pl_game.tables (the `perfect:FILE` player and
 * `parlour solve`): Finkel's tables (ur_finkel.c) and Skiryuk's. */
extern const pl_table_ops ur_table_ops;

#endif
