/* review_hidden.c — `parlour review RECORD` for Tam Cúc and City Behind
 * Walls (issue 34 §5; docs/hints.md "Reviews of hidden-card games"): the
 * decisions where the strongest player, from the decider's own view of the
 * cards at that moment, would have chosen otherwise, with both estimates
 * (src/ai/review_hidden.h), in the player's language (the catalogue's
 * review.hidden.* words: the moves as the menu words them) or as JSON.
 * review.c hands these games here. */
#include <stdio.h>

#include "../ai/review_hidden.h"
#include "cli.h"
#include "menu.h"
#include "parlour/words.h"
#include "review.h"
#include "tell.h"

/* rh_print through the replay: the review and its next decision. */
typedef struct rh_ctx {
    const pl_match *m;
    const ai_review_hidden *r;
    pl_lang lang;
    int k;
    review_bufs *w;
} rh_ctx;

/* The line of the decision at action t, if there is one (review_replay). */
static void rh_move_line(void *ctx, const void *st, int t)
{
    rh_ctx *x = ctx;
    if (x->k >= x->r->nmoves || x->r->moves[x->k].index != t)
        return;
    const ai_review_hidden_move *mv = &x->r->moves[x->k++];
    const pl_game *g = x->m->game;
    review_bufs *w = x->w;
    pl_buf_clear(&w->name);
    tell_seat(g, st, mv->seat, x->lang, &w->name);
    pl_buf_clear(&w->a);
    pl_buf_printf(&w->a, "%d", t + 1);
    pl_buf_clear(&w->d);
    menu_item(g, st, mv->seat, mv->played, x->lang, &w->d);
    pl_buf_clear(&w->e);
    menu_item(g, st, mv->seat, mv->best, x->lang, &w->e);
    review_pct(&w->b, mv->played_value, 0);
    review_pct(&w->c, mv->best_value, 0);
    pl_buf_clear(&w->line);
    pl_words_put(&w->line, x->lang, "review.hidden.move", "n", pl_buf_str(&w->a), "seat", pl_buf_str(&w->name),
                 "played", pl_buf_str(&w->d), "pv", pl_buf_str(&w->b), "best", pl_buf_str(&w->e), "bv",
                 pl_buf_str(&w->c), NULL);
    puts(pl_buf_str(&w->line));
}

/* The review in words: the title, each seat's count, then each decision. */
static void rh_print(const pl_match *m, const ai_review_hidden *r, pl_lang lang)
{
    const pl_game *g = m->game;
    review_bufs w = {0};
    pl_buf_printf(&w.a, "%ld", r->budget);
    pl_words_put(&w.line, lang, "review.hidden.title", "n", pl_buf_str(&w.a), NULL);
    puts(pl_buf_str(&w.line));
    int nseats = g->num_seats(m->initial);
    int differ[PL_MAX_SEATS] = {0};
    for (int k = 0; k < r->nmoves; k++)
        differ[r->moves[k].seat]++;
    for (int s = 0; s < nseats && s < PL_MAX_SEATS; s++) {
        pl_buf_clear(&w.name);
        tell_seat(g, m->initial, s, lang, &w.name);
        pl_buf_clear(&w.a);
        pl_buf_clear(&w.b);
        pl_buf_printf(&w.a, "%d", differ[s]);
        pl_buf_printf(&w.b, "%d", r->decisions[s]);
        pl_buf_clear(&w.line);
        pl_words_put(&w.line, lang, "review.hidden.seat", "seat", pl_buf_str(&w.name), "k", pl_buf_str(&w.a), "d",
                     pl_buf_str(&w.b), NULL);
        puts(pl_buf_str(&w.line));
    }
    if (!r->nmoves)
        puts(pl_words(lang, "review.hidden.none"));
    rh_ctx x = {m, r, lang, 0, &w};
    review_replay(m, rh_move_line, &x);
    review_bufs_free(&w);
}

int cli_review_hidden(const pl_match *m, long iterations, int threads, uint64_t seed, int json, pl_lang lang)
{
    pl_buf err = {0}, out = {0};
    ai_review_hidden_params p = {.iterations = iterations, .threads = threads, .seed = seed};
    ai_review_hidden *r = ai_review_hidden_run(m->game, m->initial, m->hist, m->nhist, &p, &err);
    int rc = 1;
    if (r && json) {
        if (ai_review_hidden_json(r, m->game, m->initial, m->hist, &out, &err) == 0) {
            puts(pl_buf_str(&out));
            rc = 0;
        }
    } else if (r) {
        rh_print(m, r, lang);
        rc = 0;
    }
    if (rc)
        fprintf(stderr, "parlour review: %s\n", pl_buf_str(&err));
    ai_review_hidden_free(r);
    pl_buf_free(&out);
    pl_buf_free(&err);
    return rc;
}
