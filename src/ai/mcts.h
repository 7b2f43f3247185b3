/* mcts.h — Monte Carlo tree search over the game interface (docs/ai.md).
 *
 * One algorithm covers every turn-based game: information-set MCTS with UCT.
 * Each iteration samples a full state from the searching seat's view
 * (`determinize`; a copy for full-information games), walks the tree(s),
 * plays the rest of the game by the game's quick `policy` (at random when it
 * has none; optionally cut off by the game's `evaluate`, after some
 * decisions or at the next deal) and backs the result up. Chance outcomes are drawn from the
 * game's distribution; listable chance nodes (Ur's dice) branch in the tree.
 *
 * Hidden moves (games with `format_action_for`, e.g. Tam Cúc's face-down
 * leads and lays) use multiple-observer ISMCTS: one tree per seat, whose
 * edges are actions *as that seat sees them*; a seat's decisions are made in
 * its own tree, so a follower's lay is chosen at a node that does not depend
 * on the face-down lead. Actions taken while several seats act at once are
 * hidden from the other seats' trees.
 *
 * Nodes come from one preallocated arena per thread (a byte budget; no
 * allocation per node). When the arena is full the tree stops growing and
 * iterations go on with rollouts. With an iteration budget the result is a
 * function of (state, seat, parameters, seed) only, for any thread count:
 * thread t runs its share of the iterations with its own seed and arena,
 * and the root visit counts are summed (root parallelism).
 *
 * Thread-safety: mcts_choose may be called from several threads at once; it
 * only reads `st` and the (immutable) game table.
 */
#ifndef MCTS_H
#define MCTS_H

#if !defined(PARLOUR_IN_AI)
#error "mcts.h is internal to the AI layer (src/ai): front ends use ai.h"
#endif

#include <stddef.h>

#include "parlour/game.h"

#define MCTS_MAX_THREADS 8

typedef struct mcts_params {
    long iterations;    /* total over all threads; 0: use `ms` only */
    long ms;            /* wall-clock budget in ms; 0: use `iterations` only */
    int threads;        /* 1..MCTS_MAX_THREADS */
    size_t arena_bytes; /* node memory of all threads together */
    double c;           /* UCT exploration constant (rewards in [0,1]) */
    int rollout_depth;  /* 0: play rollouts to the end; else decisions, then `evaluate` */
    int observers;      /* 1: one tree per seat when moves are hidden; 0: one tree */
    double score_weight; /* reward = (1-w)·utility + w·score scaled to [0,1] among the seats */
    int policy;         /* 1: rollouts by the game's `policy` when it has one; 0: uniform */
    int horizon;        /* 1: rollouts stop at a chance event too large to list (a new
                           deal) and score it with `evaluate` */
} mcts_params;

typedef struct mcts_stats {
    long iterations; /* iterations run, all threads */
    long nodes;      /* nodes allocated, all threads */
    size_t bytes;    /* arena bytes reserved, all threads */
    int full;        /* some arena ran out */
} mcts_stats;

/* Default parameters: 1000 iterations, 1 thread, 32 MiB, c = 0.7, full
 * rollouts by the game's policy where it has one. */
void mcts_defaults(mcts_params *p);

/* mcts_defaults with the rollout settings (policy, horizon) that the game's
 * strongest named level ("hard") gives in its spec when that is an mcts spec
 * (Tam Cúc scores a deal's end with `evaluate`: horizon=1), and the budget:
 * `iterations`, and `threads` (below 1: 1). Hints and the reviews of
 * hidden-card games search with these. Can't fail. */
void mcts_hard_params(const pl_game *g, long iterations, int threads, mcts_params *p);

/* Size of one tree node in bytes (for budgets and tests). */
size_t mcts_node_size(void);

/* Chooses an action for `seat` (an actor, phase MOVE) in `st`. Returns 0
 * with `*out` set (and `*stats` filled when not NULL), or -1 with a message
 * in `err` (out of memory, bad parameters, seat not acting, thread start
 * failure); `st` is never changed. A seat with a single legal action plays
 * it without searching (stats all zero). The arena may not even hold the root
 * nodes: the search then plays flat Monte Carlo at the root. */
int mcts_choose(const pl_game *g, const void *st, int seat, const mcts_params *p, uint64_t seed,
                pl_action *out, mcts_stats *stats, pl_buf *err);

/* One root action's statistics after a search (mcts_analyse). */
typedef struct mcts_root {
    pl_action action;
    long visits; /* iterations through it, all threads */
    double mean; /* the searching seat's mean reward through it, in [0,1]
                    (its estimated chance to win when score_weight is 0);
                    0 when never visited */
} mcts_root;

/* Runs the search mcts_choose runs (same parameters, seed and tree: with an
 * iteration budget the same statistics) and reports every legal action of
 * `seat` at the root, in pl_legal_all's order, into out[0..n-1]; *best (when
 * not NULL) is the index mcts_choose's rule picks (most visits, then the
 * higher mean). Unlike mcts_choose it searches even when a single action is
 * legal (its mean is then the position's estimate). Returns n, or -1 with a
 * message in `err` (mcts_choose's errors, or more than `max` legal actions);
 * `st` is never changed. Thread-safety as mcts_choose. */
int mcts_analyse(const pl_game *g, const void *st, int seat, const mcts_params *p, uint64_t seed,
                 mcts_root *out, int max, int *best, mcts_stats *stats, pl_buf *err);

#endif
