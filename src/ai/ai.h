/* ai.h — computer players over the game interface only (docs/ai.md).
 *
 * A player is named by a spec: a level ("easy", "medium", "hard", or a
 * name of the game's own; resolved by the game's table pl_game.levels, else
 * the generic one), "random", "greedy", "expectimax[:depth=N]", "mcts[:PARAMS]" /
 * "ismcts[:PARAMS]" (mcts.h), or "bot:LEVEL" (the game's own player,
 * pl_game.bot). Every player is deterministic for a given seed (MCTS with a
 * time budget excepted). Thread-safety: each call works on its own copies;
 * the state passed in is only read; calls may run concurrently.
 */
#ifndef PARLOUR_AI_H
#define PARLOUR_AI_H

#include "parlour/game.h"

/* Chooses an action for `seat` (an actor, phase MOVE) in `st` with the
 * player `spec` (NULL or "" for the default). Returns 0 with `*out` set, or
 * -1 with a message (unknown spec, bad parameter, seat not acting); `st` is
 * never changed. */
int ai_choose(const pl_game *g, const void *st, int seat, const char *spec, uint64_t seed,
              pl_action *out, pl_buf *err);
/* Checks a spec without playing: 0, or -1 with a message listing players. */
int ai_check_spec(const char *spec, pl_buf *err);
/* Appends the known players and their parameters, one a line. */
void ai_describe(pl_buf *out);
/* Appends the named levels of `g` (pl_game.levels, then the generic ones it
 * leaves out), one a line: the name, the player it stands for, what it is. */
void ai_describe_levels(const pl_game *g, pl_buf *out);

#endif
