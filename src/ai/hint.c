/* hint.c — the strongest player's move for a seat, from its view only
 * (hint.h, docs/hints.md). The state given is determinized for the seat
 * first; nothing after that reads it. */
#include "hint.h"

#include <string.h>

#include "mcts.h"
#include "parlour/alloc.h"
#include "parlour/rng.h"

/* P(`seat` wins) at `st` (between decisions) from the hint's table, or -1
 * when it does not hold the position. */
static double table_value(const pl_game *g, const ai_hint_params *p, const void *st, int seat)
{
    if (p->table)
        return ai_perfect_value(p->table, st, seat);
    return g->tables->value(p->game_table, st, seat);
}

/* The exact hint from the table for `seat` in `st` (a full-information
 * game: the sample is the position): the legal action of the highest value
 * (the first of equals, as ai_perfect_choose), 1 with `*out` set; 0 when the
 * table does not hold a position (the caller searches instead), -1 when
 * memory ran out. */
static int exact_hint(const pl_game *g, const ai_hint_params *p, const void *st, int seat,
                      ai_hint_result *out)
{
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    void *child = pl_malloc(g->state_size);
    int rc = acts && child ? 1 : -1;
    int n = rc > 0 ? pl_legal_all(g, st, seat, acts) : 0;
    double best = -1;
    for (int i = 0; i < n && rc > 0; i++) {
        pl_state_copy(g, child, st);
        g->apply(child, seat, acts[i]);
        double v = table_value(g, p, child, seat);
        if (v < 0)
            rc = 0;
        else if (v > best) {
            best = v;
            out->action = acts[i];
        }
    }
    if (rc > 0) {
        out->win = best;
        out->exact = 1;
    }
    pl_free(acts);
    pl_free(child);
    return rc;
}

/* The estimated hint by MCTS from the sample `st` (already the seat's
 * view): the move mcts_choose would make, with its root mean reward as the
 * estimate (mcts_analyse: a single legal move is searched too, for its
 * estimate). */
static int search_hint(const pl_game *g, const void *st, int seat, const ai_hint_params *p, uint64_t seed,
                       ai_hint_result *out, pl_buf *err)
{
    mcts_params mp;
    mcts_hard_params(g, p->iterations > 0 ? p->iterations : AI_HINT_ITERATIONS, p->threads, &mp);
    mcts_root *rows = pl_malloc(sizeof *rows * PL_MAX_ACTIONS);
    if (!rows) {
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    mcts_stats stats;
    int best = 0;
    int n = mcts_analyse(g, st, seat, &mp, seed, rows, PL_MAX_ACTIONS, &best, &stats, err);
    if (n > 0) {
        out->action = rows[best].action;
        out->win = rows[best].mean;
        out->exact = 0;
        out->iterations = stats.iterations;
    }
    pl_free(rows);
    if (n == 0)
        pl_buf_puts(err, "no legal action");
    return n > 0 ? 0 : -1;
}

void *ai_hint_sample(const pl_game *g, const void *st, int seat, uint64_t seed, pl_rng *rng, pl_buf *err)
{
    if (g->phase(st) != PL_PHASE_MOVE || !pl_is_actor(g, st, seat)) {
        pl_buf_printf(err, "seat %d does not act now", seat);
        return NULL;
    }
    void *seen = pl_malloc(g->state_size);
    if (!seen) {
        pl_buf_puts(err, "out of memory");
        return NULL;
    }
    pl_rng_seed(rng, pl_mix64(seed));
    g->determinize(st, seat, rng, seen);
    return seen;
}

int ai_hint(const pl_game *g, const void *st, int seat, const ai_hint_params *p, uint64_t seed,
            ai_hint_result *out, pl_buf *err)
{
    static const ai_hint_params none = {0};
    if (!p)
        p = &none;
    if (g->check) {
        pl_buf_puts(err, "no hints in a game played in real time (docs/hints.md)");
        return -1;
    }
    if (p->iterations < 0 || p->threads < 0 || p->threads > MCTS_MAX_THREADS) {
        pl_buf_puts(err, "hint: bad parameters (iterations >= 0, threads 0-8)");
        return -1;
    }
    /* The one read of `st`: a full state drawn from what `seat` sees. */
    pl_rng rng;
    void *seen = ai_hint_sample(g, st, seat, seed ^ 0x68696e74u /* "hint" */, &rng, err);
    if (!seen)
        return -1;
    memset(out, 0, sizeof *out);
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    if (!acts) {
        pl_free(seen);
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    out->nlegal = pl_legal_all(g, seen, seat, acts);
    pl_free(acts);
    int rc = 0;
    if ((p->table || (p->game_table && g->tables)) && !(g->flags & PL_GAME_HIDDEN))
        rc = exact_hint(g, p, seen, seat, out);
    if (rc < 0)
        pl_buf_puts(err, "out of memory");
    else if (rc == 0)
        rc = search_hint(g, seen, seat, p, pl_rng_next(&rng), out, err);
    else
        rc = 0;
    pl_free(seen);
    return rc;
}
