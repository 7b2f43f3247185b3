/* hint.h — a hint for a seat to move: the strongest player's move and its
 * estimated chance of winning (docs/hints.md). Prefix ai_hint_.
 *
 * Only the seat's own view: ai_hint never searches the state it is given.
 * Its first step draws a full state from what `seat` sees (`determinize`,
 * seeded from the hint's seed) and everything after works on that sample
 * (which the search determinizes again at every iteration). So two states
 * that differ only in what the seat cannot see give the same hint for the
 * same seed (tests/test_property_hint_hidden.c proves it over many deals):
 * a caller may pass the true state without leaking a hidden card.
 *
 * Exact where solved: with a table (ai_perfect, perfect.h) that holds the
 * position (Ur: a table of the room's rules and pieces), the hint is the
 * perfect player's move and its exact value; otherwise MCTS from the seat's
 * view with an iteration budget, whose root statistics give the estimate.
 *
 * Threading: reentrant; reads `st`, the game table and the (read-only)
 * perfect table only. The server runs it on a worker thread.
 */
#ifndef AI_HINT_H
#define AI_HINT_H

#if !defined(PARLOUR_IN_AI) && !defined(PARLOUR_IN_FRONT)
#error "hint.h belongs to the AI layer: only the AI and the front ends may include it"
#endif

#include "parlour/game.h"
#include "parlour/rng.h"
#include "perfect.h"

/* What a hint asks; zero fields take the defaults in brackets. */
typedef struct ai_hint_params {
    long iterations;          /* MCTS iterations when not exact [AI_HINT_ITERATIONS] */
    int threads;              /* MCTS threads, 1..8 [1] */
    const ai_perfect *table;  /* an exact table for this game's options, or NULL */
    const void *game_table;   /* or a table of the game's own format (pl_game.tables->load,
                                 as `parlour serve --table` loads them), or NULL */
} ai_hint_params;

#define AI_HINT_ITERATIONS 4000L

/* A hint. */
typedef struct ai_hint_result {
    pl_action action; /* the move to play (legal for the seat) */
    double win;       /* P(the seat's side wins) after it, in [0,1] (exact or estimated) */
    int exact;        /* 1: from the exact table; 0: an estimate by search */
    long iterations;  /* search iterations run (0 when exact or a single legal move) */
    int nlegal;       /* the seat's legal actions */
} ai_hint_result;

/* The hint for `seat` (an actor, phase MOVE) in `st`, a state of `g`, from
 * `seat`'s view only (see above), deterministic for `seed`. Returns 0 with
 * `*out` set, or -1 with a message in `err` (the seat does not act now, a
 * game played in real time (pl_game.check: karuta, docs/hints.md), bad
 * parameters, no memory); `st` is never changed. */
int ai_hint(const pl_game *g, const void *st, int seat, const ai_hint_params *p, uint64_t seed,
            ai_hint_result *out, pl_buf *err);

/* The one read of `st` that a hint and a hidden-card review's decision
 * (review_hidden.h) make: checks that `seat` acts now (phase MOVE), seeds
 * *rng with pl_mix64(seed) and returns a new full state drawn from what
 * `seat` sees (g->determinize), which the caller pl_frees; or NULL with a
 * message in `err` (the seat does not act now, no memory). `st` is never
 * changed. */
void *ai_hint_sample(const pl_game *g, const void *st, int seat, uint64_t seed, pl_rng *rng, pl_buf *err);

#endif
