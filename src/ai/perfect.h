/* perfect.h — the `perfect:FILE` player's tables: an exact value table,
 * either the game's own (pl_game.tables, e.g. Finkel's Ur) or one written by
 * the generic solver (solve.h).
 *
 * Ownership: ai_perfect_load reads a table into memory that the caller owns
 * (an ai_player holds one, ai.h); nothing is cached behind the caller's back.
 * Thread-safety: a loaded table is read-only; ai_perfect_value and
 * ai_perfect_choose may run on one table from any number of threads at once.
 * Loading and freeing belong to the owner's thread.
 */
#ifndef AI_PERFECT_H
#define AI_PERFECT_H

#if !defined(PARLOUR_IN_AI) && !defined(PARLOUR_IN_FRONT)
#error "perfect.h belongs to the AI layer: only the AI and the front ends may include it (core and games know no AI)"
#endif

#include "parlour/game.h"

typedef struct ai_perfect ai_perfect;

/* Loads the table at `path` for game `g`: the game's own table format first,
 * then the generic solver's. Returns the table (free it with
 * ai_perfect_free), or NULL with a message ("perfect: cannot open ...",
 * "... is not a ur table ...", out of memory). */
ai_perfect *ai_perfect_load(const pl_game *g, const char *path, pl_buf *err);
/* A table over `game_table`, a table of g's own already loaded with
 * g->tables->load (the server's), which the caller keeps owning and must
 * keep until this one is freed. NULL with a message when out of memory or
 * `g` has no tables of its own. */
ai_perfect *ai_perfect_borrow(const pl_game *g, void *game_table, pl_buf *err);
/* Frees a table (not a borrowed game table); NULL is a no-op. */
void ai_perfect_free(ai_perfect *t);
/* P(seat wins) at a between-decisions state (chance phase or over), or -1
 * when the table does not hold it. Reads only. */
double ai_perfect_value(const ai_perfect *t, const void *st, int seat);
/* Chooses the action with the highest winning probability for `seat` in
 * `st` (phase MOVE, `seat` acting). 0 with `*out` set, or -1 with a message
 * (no legal action, a position the table does not hold, no memory); `st` is
 * never changed. */
int ai_perfect_choose(const ai_perfect *t, const void *st, int seat, pl_action *out, pl_buf *err);

#endif
