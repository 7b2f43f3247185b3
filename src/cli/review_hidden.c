/* review_hidden.c — `parlour review RECORD` for Tam Cúc and City Behind
 * Walls (issue 34 §5; docs/hints.md "Reviews of hidden-card games"): the
 * decisions where the strongest player, from the decider's own view of the
 * cards at that moment, would have chosen otherwise, with both estimates
 * (src/ai/review_hidden.h), in the player's language (the catalogue's
 * review.hidden.* words: the moves as the menu words them) or as JSON.
 * review.c hands these games here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ai/review_hidden.h"
#include "cli.h"
#include "menu.h"
#include "parlour/words.h"
#include "tell.h"

static void rh_pct(pl_buf *b, double p)
{
    pl_buf_clear(b);
    pl_buf_printf(b, "%.1f %%", 100 * p);
}

static void rh_stdout(void *ctx, int index, const char *line)
{
    (void)ctx;
    (void)index;
    puts(line);
}

/* The move played and the strongest player's move of a decision in `st`,
 * as a player says them, into `played` and `best` (cleared): the menu's
 * words without the notation (City Behind Walls: the card and where it
 * goes, "7D on 0,0, captures 1") when the game words both and the words
 * tell them apart; else the menu's items (Tam Cúc's face-down cards: the
 * words would read alike). */
static void rh_moves(const pl_game *g, const void *st, const ai_review_hidden_move *mv, pl_lang lang, pl_buf *played,
                     pl_buf *best)
{
    pl_buf_clear(played);
    pl_buf_clear(best);
    if (menu_words(g, st, mv->seat, mv->played, lang, played) == 0 &&
        menu_words(g, st, mv->seat, mv->best, lang, best) == 0 && strcmp(pl_buf_str(played), pl_buf_str(best)))
        return;
    pl_buf_clear(played);
    pl_buf_clear(best);
    menu_item(g, st, mv->seat, mv->played, lang, played);
    menu_item(g, st, mv->seat, mv->best, lang, best);
}

/* The review in words through `put`: the title, each seat's count (index
 * -1), then each decision (its history index). */
static void rh_print(const pl_match *m, const ai_review_hidden *r, pl_lang lang, cli_review_line put, void *ctx)
{
    const pl_game *g = m->game;
    pl_buf line = {0}, a = {0}, b = {0}, c = {0}, d = {0}, e = {0}, name = {0};
    pl_buf_printf(&a, "%ld", r->budget);
    pl_words_put(&line, lang, "review.hidden.title", "n", pl_buf_str(&a), NULL);
    put(ctx, -1, pl_buf_str(&line));
    int nseats = g->num_seats(m->initial);
    int differ[PL_MAX_SEATS] = {0};
    for (int k = 0; k < r->nmoves; k++)
        differ[r->moves[k].seat]++;
    for (int s = 0; s < nseats && s < PL_MAX_SEATS; s++) {
        pl_buf_clear(&name);
        tell_seat(g, m->initial, s, lang, &name);
        pl_buf_clear(&a);
        pl_buf_clear(&b);
        pl_buf_printf(&a, "%d", differ[s]);
        pl_buf_printf(&b, "%d", r->decisions[s]);
        pl_buf_clear(&line);
        pl_words_put(&line, lang, "review.hidden.seat", "seat", pl_buf_str(&name), "k", pl_buf_str(&a), "d",
                     pl_buf_str(&b), NULL);
        put(ctx, -1, pl_buf_str(&line));
    }
    if (!r->nmoves)
        put(ctx, -1, pl_words(lang, "review.hidden.none"));
    void *st = malloc(g->state_size);
    if (!st)
        goto done;
    pl_state_copy(g, st, m->initial);
    int k = 0;
    for (int t = 0; t < m->nhist; t++) {
        if (k < r->nmoves && r->moves[k].index == t) {
            const ai_review_hidden_move *mv = &r->moves[k++];
            pl_buf_clear(&name);
            tell_seat(g, st, mv->seat, lang, &name);
            pl_buf_clear(&a);
            pl_buf_printf(&a, "%d", t + 1);
            rh_moves(g, st, mv, lang, &d, &e);
            rh_pct(&b, mv->played_value);
            rh_pct(&c, mv->best_value);
            pl_buf_clear(&line);
            pl_words_put(&line, lang, "review.hidden.move", "n", pl_buf_str(&a), "seat", pl_buf_str(&name), "played",
                         pl_buf_str(&d), "pv", pl_buf_str(&b), "best", pl_buf_str(&e), "bv", pl_buf_str(&c), NULL);
            put(ctx, t, pl_buf_str(&line));
        }
        g->apply(st, m->hist[t].seat, m->hist[t].a);
    }
    free(st);
done:
    pl_buf_free(&line);
    pl_buf_free(&a);
    pl_buf_free(&b);
    pl_buf_free(&c);
    pl_buf_free(&d);
    pl_buf_free(&e);
    pl_buf_free(&name);
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
        rh_print(m, r, lang, rh_stdout, NULL);
        rc = 0;
    }
    if (rc)
        fprintf(stderr, "parlour review: %s\n", pl_buf_str(&err));
    ai_review_hidden_free(r);
    pl_buf_free(&out);
    pl_buf_free(&err);
    return rc;
}

int cli_review_hidden_lines(const pl_match *m, long iterations, uint64_t seed, pl_lang lang, cli_review_line put,
                            void *ctx, pl_buf *err)
{
    ai_review_hidden_params p = {.iterations = iterations, .threads = 1, .seed = seed};
    ai_review_hidden *r = ai_review_hidden_run(m->game, m->initial, m->hist, m->nhist, &p, err);
    if (!r)
        return -1;
    rh_print(m, r, lang, put, ctx);
    ai_review_hidden_free(r);
    return 0;
}
