/* ai.h — computer players over the game interface only (docs/ai.md).
 *
 * A player is named by a spec: a level ("easy", "medium", "hard", or a
 * name of the game's own; resolved by the game's table pl_game.levels, else
 * the generic one), "random", "greedy", "policy", "expectimax[:depth=N]",
 * "mcts[:PARAMS]" / "ismcts[:PARAMS]" (mcts.h), "bot:LEVEL" (the game's own
 * player, pl_game.bot) or "perfect:TABLE" (perfect.h). Every player is
 * deterministic for a given seed (MCTS with a time budget excepted).
 *
 * Ownership: ai_player_new makes a player for one game from a spec and
 * loads everything the spec needs (a perfect: table) once; the caller owns
 * it and frees it with ai_player_free. There is no global cache.
 *
 * Threading:
 *   - a player is immutable after ai_player_new: ai_player_choose only reads
 *     it, so ONE player may be shared by any number of threads choosing at
 *     once, on the same or different states (the arena shares one player per
 *     spec between its worker threads);
 *   - each choose works on its own copies and scratch memory; the state
 *     passed in is only read (several threads may pass the same state);
 *   - ai_player_new and ai_player_free are not to race with a choose on the
 *     same player: create before the threads start, free after they join;
 *   - ai_choose, ai_check_spec and ai_describe touch no shared state and may
 *     run concurrently;
 *   - the game's own callbacks (legal, apply, bot, policy, tables) are
 *     reentrant by the game interface's contract (game.h).
 */
#ifndef PARLOUR_AI_H
#define PARLOUR_AI_H

#if !defined(PARLOUR_IN_AI) && !defined(PARLOUR_IN_FRONT)
#error "ai.h belongs to the AI layer: only the AI and the front ends may include it (core and games know no AI)"
#endif

#include "parlour/game.h"

typedef struct ai_player ai_player;

/* Makes the player `spec` (NULL or "" for the game's default) for game `g`:
 * the spec is parsed and its level resolved for `g`, and a perfect: table is
 * loaded. Returns the player (free it with ai_player_free), or NULL with a
 * message: an unknown spec or bad parameter (the same messages as
 * ai_check_spec, plus those that depend on the game), a table that cannot be
 * loaded, no memory. */
ai_player *ai_player_new(const pl_game *g, const char *spec, pl_buf *err);
/* Chooses an action for `seat` (an actor, phase MOVE) in `st`, a state of
 * the player's game, with random choices drawn from `seed`. Returns 0 with
 * `*out` set, or -1 with a message (seat not acting, a position a table does
 * not hold, no memory); `st` and the player are never changed. Thread-safe
 * on a shared player (see above). */
int ai_player_choose(const ai_player *p, const void *st, int seat, uint64_t seed, pl_action *out,
                     pl_buf *err);
/* Frees the player and what it loaded; NULL is a no-op. */
void ai_player_free(ai_player *p);

/* One-off choice: ai_player_new, ai_player_choose, ai_player_free. A
 * perfect: table is loaded on every call, so a caller that chooses more than
 * once should make a player instead. Returns 0 with `*out` set, or -1 with a
 * message; `st` is never changed. */
int ai_choose(const pl_game *g, const void *st, int seat, const char *spec, uint64_t seed,
              pl_action *out, pl_buf *err);
/* Checks a spec without a game and without loading anything: 0, or -1 with
 * a message listing players. */
int ai_check_spec(const char *spec, pl_buf *err);
/* Appends the known players and their parameters, one a line. */
void ai_describe(pl_buf *out);
/* Appends the named levels of `g` (pl_game.levels, then the generic ones it
 * leaves out), one a line: the name, the player it stands for, what it is. */
void ai_describe_levels(const pl_game *g, pl_buf *out);
/* The level `i` (from 0) of `g`'s named levels, in ai_describe_levels'
 * order: the game's own (pl_game.levels), then the generic ones it leaves
 * out ("easy", "medium", "hard": docs/ai.md). NULL past the last. The rows
 * are static. This list is the only one: other layers ask it. */
const pl_level *ai_level(const pl_game *g, int i);

#endif
