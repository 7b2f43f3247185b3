/* solve.h — exact solutions of small games through the game interface.
 *
 * For two-seat games with full information and chance in which every
 * decision is followed by a chance outcome or the end (the Royal Game of Ur):
 * every reachable chance-phase state is enumerated (states compared
 * byte for byte, so a game must keep equal positions byte-identical, which
 * plain-data states built by init/apply do), the successors are stored
 * once, and the values P(seat 0 wins) are found by in-place value iteration
 * until no value changes by more than the tolerance.
 * Threading: single-threaded; a loaded table is read-only and shareable.
 */
#ifndef SOLVE_H
#define SOLVE_H

#if !defined(PARLOUR_IN_AI) && !defined(PARLOUR_IN_FRONT)
#error "solve.h belongs to the AI layer: only the AI and the front ends may include it (core and games know no AI)"
#endif

#include <stdint.h>
#include <stdio.h>

#include "parlour/game.h"

typedef struct solve_result {
    uint64_t states; /* chance-phase and final states */
    long sweeps;      /* the most sweeps any strongly connected component needed */
    uint64_t updates; /* node updates in all */
    double value; /* P(seat 0 wins) from the root */
} solve_result;

/* Solves the game from `root` (a state in a chance phase). `progress` (may
 * be NULL) gets a line about once a second; `out` (may be NULL) receives the
 * table. Returns 0, or -1 with a message (a game it cannot solve, too many
 * states for `max_states`, no memory). */
int solve_game(const pl_game *g, const void *root, double tol, FILE *progress, const char *out,
               solve_result *r, pl_buf *err);

typedef struct solve_table solve_table;
/* Loads a table written by solve_game for game `g`. NULL with a message. */
solve_table *solve_load(const pl_game *g, const char *path, pl_buf *err);
/* P(`seat` wins) at `st` (a chance-phase or final state), or -1 when the
 * table does not hold it. */
double solve_lookup(const solve_table *t, const void *st, int seat);
void solve_free(solve_table *t);

#endif
