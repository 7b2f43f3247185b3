/* review_hidden.c — reviews of hidden-card games from each decider's own
 * view (review_hidden.h, docs/hints.md). One pass over the history; at each
 * decision with more than one legal action the state is determinized for
 * the decider (the one read of the true state) and searched by mcts_analyse;
 * the move played and the move the search prefers are compared. */
#include "review_hidden.h"

#include <jansson.h>
#include <string.h>

#include "hint.h"
#include "mcts.h"
#include "parlour/alloc.h"
#include "parlour/jsonout.h"
#include "parlour/record.h"
#include "review.h"

int ai_review_hidden_decision(const pl_game *g, const void *st, int seat, pl_action played,
                              const ai_review_hidden_params *p, uint64_t seed, ai_review_hidden_move *out,
                              pl_buf *err)
{
    static const ai_review_hidden_params none = {0};
    if (!p)
        p = &none;
    if (p->iterations < 0 || p->threads < 0 || p->threads > MCTS_MAX_THREADS) {
        pl_buf_puts(err, "review: bad parameters (iterations >= 0, threads 0-8)");
        return -1;
    }
    /* The one read of `st`: a full state drawn from what `seat` saw. */
    pl_rng rng;
    void *seen = ai_hint_sample(g, st, seat, seed ^ 0x726576u /* "rev" */, &rng, err);
    if (!seen)
        return -1;
    mcts_root *rows = pl_malloc(sizeof *rows * PL_MAX_ACTIONS);
    if (!rows) {
        pl_free(seen);
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    mcts_params mp;
    mcts_hard_params(g, p->iterations > 0 ? p->iterations : AI_REVIEW_HIDDEN_ITERATIONS, p->threads, &mp);
    int best = 0, rc = -1;
    int n = mcts_analyse(g, seen, seat, &mp, pl_rng_next(&rng), rows, PL_MAX_ACTIONS, &best, NULL, err);
    for (int i = 0; i < n; i++)
        if (rows[i].action == played) {
            memset(out, 0, sizeof *out);
            out->seat = seat;
            out->nlegal = n;
            out->played = played;
            out->played_value = rows[i].mean;
            out->best = rows[best].action;
            out->best_value = rows[best].mean;
            rc = 0;
        }
    if (n >= 0 && rc < 0)
        pl_buf_puts(err, "review: the move played is not legal for its seat");
    pl_free(seen);
    pl_free(rows);
    return rc;
}

void ai_review_hidden_free(ai_review_hidden *r)
{
    if (!r)
        return;
    pl_free(r->moves);
    pl_free(r);
}

ai_review_hidden *ai_review_hidden_run(const pl_game *g, const void *initial, const pl_move *hist, int nhist,
                                       const ai_review_hidden_params *p, pl_buf *err)
{
    static const ai_review_hidden_params none = {0};
    if (!p)
        p = &none;
    if (!(g->flags & PL_GAME_HIDDEN) || g->check) {
        pl_buf_printf(err, "review: %s is not a turn-based game of hidden cards (Ur: the review of review.h)",
                      g->id);
        return NULL;
    }
    ai_review_hidden *r = pl_calloc(1, sizeof *r);
    void *st = pl_malloc(g->state_size);
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    if (!r || !st || !acts) {
        pl_buf_puts(err, "out of memory");
        goto fail;
    }
    r->nhist = nhist;
    r->budget = p->iterations > 0 ? p->iterations : AI_REVIEW_HIDDEN_ITERATIONS;
    int cap = 0;
    pl_state_copy(g, st, initial);
    for (int i = 0; i < nhist; i++) {
        int seat = hist[i].seat;
        pl_buf why = {0};
        int bad = pl_check(g, st, seat, hist[i].a, &why) < 0;
        if (bad)
            pl_buf_printf(err, "review: action %d is refused: %s", i + 1, pl_buf_str(&why));
        pl_buf_free(&why);
        if (bad)
            goto fail;
        if (seat >= 0 && pl_legal_all(g, st, seat, acts) > 1) {
            ai_review_hidden_move mv;
            if (ai_review_hidden_decision(g, st, seat, hist[i].a, p, p->seed + (uint64_t)i, &mv, err) < 0)
                goto fail;
            mv.index = i;
            r->ndecisions++;
            r->decisions[seat]++;
            if (mv.best != mv.played) {
                if (r->nmoves == cap) {
                    int nc = cap ? 2 * cap : 16;
                    ai_review_hidden_move *m = pl_realloc(r->moves, sizeof *m * (size_t)nc);
                    if (!m) {
                        pl_buf_puts(err, "out of memory");
                        goto fail;
                    }
                    r->moves = m;
                    cap = nc;
                }
                r->moves[r->nmoves++] = mv;
            }
        }
        g->apply(st, seat, hist[i].a);
    }
    pl_free(st);
    pl_free(acts);
    return r;
fail:
    pl_free(st);
    pl_free(acts);
    ai_review_hidden_free(r);
    return NULL;
}

int ai_review_hidden_json(const ai_review_hidden *r, const pl_game *g, const void *initial, const pl_move *hist,
                          pl_buf *out, pl_buf *err)
{
    pl_json_setup();
    size_t start = out->len;
    void *st = pl_malloc(g->state_size);
    json_t *o = json_object(), *moves = json_array(), *dec = json_array();
    int ok = st && o && moves && dec;
    if (ok) {
        pl_state_copy(g, st, initial);
        int nseats = g->num_seats(initial);
        for (int s = 0; s < nseats && s < PL_MAX_SEATS; s++)
            ok &= json_array_append_new(dec, json_integer(r->decisions[s])) == 0;
        int k = 0;
        for (int i = 0; i < r->nhist && ok; i++) {
            if (k < r->nmoves && r->moves[k].index == i) {
                const ai_review_hidden_move *mv = &r->moves[k++];
                json_t *m = json_pack("{s:i, s:i, s:i, s:o*, s:o*, s:o, s:o, s:f, s:f}", "index", mv->index, "seat",
                                      mv->seat, "nlegal", mv->nlegal, "played",
                                      ai_review_text_json(g, st, mv->seat, mv->played), "best",
                                      ai_review_text_json(g, st, mv->seat, mv->best), "best_fields",
                                      ai_review_fields_json(g, st, mv->seat, mv->best), "played_fields",
                                      ai_review_fields_json(g, st, mv->seat, mv->played), "played_value",
                                      mv->played_value, "best_value", mv->best_value);
                ok = m && json_array_append_new(moves, m) == 0;
            }
            g->apply(st, hist[i].seat, hist[i].a);
        }
    }
    if (ok) {
        ok = json_object_set_new(o, "kind", json_string("hidden")) == 0 &&
             json_object_set_new(o, "estimate", json_true()) == 0 &&
             json_object_set_new(o, "iterations", json_integer(r->budget)) == 0 &&
             json_object_set_new(o, "ndecisions", json_integer(r->ndecisions)) == 0 &&
             json_object_set(o, "decisions", dec) == 0 && json_object_set(o, "moves", moves) == 0;
        ok = ok && pl_json_dump(o, out) == 0;
    }
    if (!ok) {
        pl_buf_truncate(out, start);
        pl_buf_puts(err, "out of memory");
    }
    json_decref(moves);
    json_decref(dec);
    json_decref(o);
    pl_free(st);
    return ok ? 0 : -1;
}
