/* match.h — one game in progress: the rules state, its options and seed, and
 * the full history of actions (chance included).
 *
 * The match is what the protocol, the terminal and the records hold. It
 * checks every action through the rules before applying it, so its state is
 * always reachable by legal play. Undo replays the history from the initial
 * state (exact for every game, hidden information included). The generator
 * behind `pl_match_random` is derived from (seed, number of actions so far),
 * so a game loaded from a record draws the same outcomes as the original.
 * Not thread-safe (one owner).
 */
#ifndef PARLOUR_MATCH_H
#define PARLOUR_MATCH_H

#include "parlour/game.h"

typedef struct pl_move {
    int seat; /* PL_CHANCE for chance */
    pl_action a;
} pl_move;

typedef struct pl_match {
    const pl_game *game;
    pl_opts opts;
    uint64_t seed;
    void *state;   /* current state */
    void *initial; /* state after init */
    pl_move *hist;
    int nhist, caphist;
    char *players[PL_MAX_SEATS]; /* who sits where ("human", "ai:..."), may be NULL */
} pl_match;

/* Starts a new game of `g` with options words "key=value" (seed included).
 * Returns the match, or NULL with a message in `err` (bad option, no memory).
 * A missing seed is drawn from the system and recorded. */
pl_match *pl_match_new(const pl_game *g, int argc, char **argv, pl_buf *err);
/* Frees the match; NULL is a no-op. */
void pl_match_free(pl_match *m);

/* Applies `a` for `seat` (PL_CHANCE in a chance phase) after checking it.
 * Returns 0, or -1 with the reason in `err` and nothing changed. In builds
 * with assertions (no NDEBUG) the game's check_state, when it has one, runs
 * after the action: a broken invariant fails an assertion, its reason on
 * stderr. */
int pl_match_play(pl_match *m, int seat, pl_action a, pl_buf *err);
/* Parses `text` for `seat` and plays it. `seat` -1 means "whoever acts":
 * chance in a chance phase, else the single actor (an error when several
 * seats act). Returns 0, or -1 with a message and nothing changed. */
int pl_match_play_text(pl_match *m, int seat, const char *text, pl_buf *err);
/* Draws a chance outcome from the match's generator and applies it (chance
 * phase only). Writes the outcome to `*out` if not NULL. 0 or -1 + message. */
int pl_match_random(pl_match *m, pl_action *out, pl_buf *err);
/* Takes back the last action. 0, or -1 at the start (message in err). */
int pl_match_undo(pl_match *m, pl_buf *err);
/* Generator for the next chance draw or AI decision at this point. */
void pl_match_rng(const pl_match *m, uint64_t salt, pl_rng *r);
/* Sets who sits at `seat` (copied). 0, or -1 on bad seat or no memory. */
int pl_match_set_player(pl_match *m, int seat, const char *who);
/* Appends the history, one "SEAT ACTION" or "chance ACTION" a line. */
void pl_match_history(const pl_match *m, pl_buf *out);
/* Appends the history as seat `viewer` may see it (viewer -1: everything,
 * like pl_match_history), through the game's format_action_for when it has
 * one: another seat's face-down cards show only as a count. Sets `out->oom`
 * when memory runs out; `m` is never changed. */
void pl_match_history_for(const pl_match *m, int viewer, pl_buf *out);
/* Appends what the actions of the history from index `from` on did, as
 * seat `viewer` may know it (viewer -1: everything): the game's `describe`
 * sentences (game.h), separated from what `out` holds by a space. Returns
 * the history's length, the `from` to give next time, so that a screen
 * tells each action once (a `from` beyond the history, after an undo,
 * tells nothing). Games without `describe` tell nothing. Replays the
 * history from the initial state (one `apply` per action); on no memory it
 * sets `out->oom`. `m` is never changed. */
int pl_match_describe(const pl_match *m, int from, int viewer, pl_buf *out);
/* Draws the current position on `c` for seat `viewer` (`draw`, game.h),
 * with the last move of a seat marked by the game's `mark_move` when it has
 * one (chance outcomes after it do not hide it). Cannot fail (`c->oom` on
 * no memory, the mark then left out). `m` is never changed. */
void pl_match_draw(const pl_match *m, int viewer, pl_canvas *c);
/* Appends the `status` lines of the protocol. */
void pl_match_status(const pl_match *m, pl_buf *out);

#endif
