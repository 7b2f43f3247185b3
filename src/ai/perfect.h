/* perfect.h — the `perfect:FILE` player: plays from an exact value table,
 * either the game's own (pl_game.tables, e.g. Finkel's Ur) or one written by
 * the generic solver (solve.h). Tables are loaded once per path and kept
 * until ai_perfect_release (one table at a time; not thread-safe).
 */
#ifndef AI_PERFECT_H
#define AI_PERFECT_H

#if !defined(PARLOUR_IN_AI) && !defined(PARLOUR_IN_FRONT)
#error "perfect.h belongs to the AI layer: only the AI and the front ends may include it (core and games know no AI)"
#endif

#include "parlour/game.h"

/* Chooses the action with the highest winning probability for `seat` in
 * `st` (phase MOVE) according to the table at `path`. 0, or -1 with a
 * message (no such table, a state the table does not hold). */
int ai_perfect_choose(const pl_game *g, const void *st, int seat, const char *path, pl_action *out,
                      pl_buf *err);
/* P(seat wins) at a between-decisions state from the table at `path`, or -1. */
double ai_perfect_value(const pl_game *g, const void *st, int seat, const char *path, pl_buf *err);
/* Frees the cached table. */
void ai_perfect_release(void);

#endif
