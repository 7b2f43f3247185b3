/* ur_finkel.h — the exact solver of the Royal Game of Ur under Finkel's
 * rules (any number of pieces 1..7), and the table it writes.
 *
 * States are "light to move, before the roll"; a dark-to-move state is the
 * colour-flipped light-to-move state (value 1 - V). They are grouped in
 * score layers (pieces borne off by light, by dark); within a layer they are
 * ranked densely: the middle row as a base-3 number (empty/light/dark per
 * square), then each side's six private squares as a 6-bit mask ranked by
 * popcount, limited by the pieces that side has left. Layers are solved from
 * the highest scores down by in-place value iteration (Gauss-Seidel), a
 * layer and its mirror together, until the largest change in a sweep is
 * below the tolerance.
 * Threading: urf_solve uses `threads` worker threads internally; a table is
 * read-only once solved and may be shared.
 */
#ifndef UR_FINKEL_H
#define UR_FINKEL_H

#if !defined(PARLOUR_IN_GAMES)
#error "ur_finkel.h is internal to the games layer (src/games/ur): other layers use include/parlour/game.h"
#endif

#include <stdint.h>
#include <stdio.h>

#include "ur.h"

typedef struct urf_table urf_table;

/* Creates an unsolved table for `pieces` (1..7) with every value 0.5.
 * NULL when memory runs out. */
urf_table *urf_new(int pieces);
void urf_free(urf_table *t);
/* Number of light-to-move non-final states with `pieces` pieces, without
 * building a table (137,870,097 for 7: RoyalUr's count). */
uint64_t urf_states(int pieces);
/* Number of light-to-move states (all layers). */
uint64_t urf_count(const urf_table *t);
int urf_pieces(const urf_table *t);

/* Solves the table in place. `tol`: stop a layer when a sweep changes no
 * value by more than tol. `progress` (may be NULL) gets a line per layer and
 * about one a second. Returns the number of sweeps in all. */
long urf_solve(urf_table *t, double tol, int threads, FILE *progress);

/* P(light wins) for the state `s` (Finkel rules, same pieces), light or
 * dark to move, in any phase before or after the roll is decided: for a
 * state in phase roll the value before rolling; for phase move, the best
 * move's value. `seat`: the player whose winning chance is wanted. */
double urf_value(const urf_table *t, const ur_state *s, int seat);

/* Writes / reads the table (a small header, then the values as doubles).
 * 0, or -1 with a message. */
int urf_save(const urf_table *t, const char *path, pl_buf *err);
urf_table *urf_load(const char *path, pl_buf *err);

/* The table functions for pl_game.tables (the `perfect:FILE` player). */
extern const pl_table_ops urf_table_ops;

#endif
