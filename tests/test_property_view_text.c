/* test_property_view_text.c — pl_game.view_text against pl_game.view_json:
 * for every game that writes its structured view as text, pl_view_json's
 * bytes along random games of random options, every viewer (-1 and each
 * seat) at every state, compared with the reference, the same game with
 * view_text taken away (the jansson path). A byte of difference fails.
 * A game that gains view_text must be added to `diffed` below, with an
 * option generator like its property tests'. */
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "parlour/alloc.h"

/* City Behind Walls' options as test_property_cbw_random varies them:
 * 2, 4 or 6 players, both decks, who opens, other Rectangles (small ones
 * often). */
static void cbw_options(pl_rng *r, char *o, size_t n, uint64_t seed)
{
    static const char *const players[3] = {"2", "4", "6"};
    int deck = pl_rng_below(r, 2) ? 52 : 36;
    int len = snprintf(o, n, "seed=%llu players=%s deck=%d first=%s", (unsigned long long)seed,
                       players[pl_rng_below(r, 3)], deck,
                       pl_rng_below(r, 2) ? "random" : pl_rng_below(r, 2) ? "red" : "black");
    if (pl_rng_below(r, 2))
        len += snprintf(o + len, n - (size_t)len, " w=%u",
                        1 + (pl_rng_below(r, 2) ? pl_rng_below(r, 6) : pl_rng_below(r, 16)));
    if (pl_rng_below(r, 2))
        snprintf(o + len, n - (size_t)len, " h=%u", 1 + (pl_rng_below(r, 2) ? pl_rng_below(r, 4) : pl_rng_below(r, 16)));
}

/* The games with view_text, how their options are drawn, and how many
 * random games each gets (enough for thousands of states). */
static const struct diffed {
    const char *id;
    void (*options)(pl_rng *r, char *out, size_t n, uint64_t seed);
    int games;
} diffed[] = {
    {"ur", th_ur_options, 150},
    {"cbw", cbw_options, 150},
    {"tamcuc", th_tamcuc_options, 200},
};
enum { NDIFFED = sizeof diffed / sizeof diffed[0] };

/* Every viewer's view of `st` by both paths: the same bytes. */
static void same_views(const pl_game *g, const pl_game *ref, const void *st, const char *opts, long step)
{
    pl_buf a = {0}, b = {0}, err = {0};
    for (int v = -1; v < g->num_seats(st); v++) {
        pl_buf_clear(&a);
        pl_buf_clear(&b);
        if (pl_view_json(g, st, v, &a, &err) != 0 || pl_view_json(ref, st, v, &b, &err) != 0)
            fail_msg("%s [%s] step %ld viewer %d: %s", g->id, opts, step, v, pl_buf_str(&err));
        if (strcmp(pl_buf_str(&a), pl_buf_str(&b)) != 0) {
            print_error("%s [%s] step %ld viewer %d\n", g->id, opts, step, v);
            assert_string_equal(pl_buf_str(&a), pl_buf_str(&b));
        }
    }
    pl_buf_free(&a);
    pl_buf_free(&b);
    pl_buf_free(&err);
}

/* Random games of `d`'s game; returns the states compared. */
static long diff_game(const struct diffed *d, uint64_t seed)
{
    const pl_game *g = pl_game_find(d->id);
    assert_non_null(g);
    pl_game ref = *g;
    ref.view_text = NULL; /* the reference: view_json through jansson */
    pl_rng r;
    pl_rng_seed(&r, seed);
    pl_action *acts = pl_malloc(PL_MAX_ACTIONS * sizeof *acts);
    assert_non_null(acts);
    pl_buf err = {0};
    long states = 0;
    for (int game = 0; game < d->games; game++) {
        char opts[512];
        d->options(&r, opts, sizeof opts, pl_rng_next(&r) >> 1);
        pl_match *m = th_new(d->id, opts);
        for (long step = 0;; step++) {
            same_views(g, &ref, m->state, opts, step);
            states++;
            pl_phase ph = g->phase(m->state);
            if (ph == PL_PHASE_OVER)
                break;
            assert_true(step < 100000);
            if (ph == PL_PHASE_CHANCE) {
                assert_int_equal(pl_match_random(m, NULL, &err), 0);
                continue;
            }
            int seats[PL_MAX_SEATS], na = g->actors(m->state, seats);
            int seat = seats[pl_rng_below(&r, (uint32_t)na)];
            int nl = pl_legal_all(g, m->state, seat, acts);
            if (nl == 0)
                break; /* a game that judges actions itself (pl_game.check): far enough */
            assert_int_equal(pl_match_play(m, seat, acts[pl_rng_below(&r, (uint32_t)nl)], &err), 0);
        }
        pl_match_free(m);
    }
    pl_buf_free(&err);
    pl_free(acts);
    return states;
}

/* Every registered game with view_text has view_json (its reference) and
 * is diffed here. */
static void test_property_view_text_every_game_listed(void **state)
{
    (void)state;
    int ng;
    const pl_game *const *gs = pl_games(&ng);
    for (int i = 0; i < ng; i++) {
        if (!gs[i]->view_text)
            continue;
        assert_non_null(gs[i]->view_json);
        int listed = 0;
        for (int k = 0; k < NDIFFED; k++)
            listed |= !strcmp(diffed[k].id, gs[i]->id);
        if (!listed)
            fail_msg("%s has view_text but no differential test here", gs[i]->id);
    }
}

/* Ur: the text path writes view_json's bytes at every state of random
 * games of every option. */
static void test_property_view_text_ur_same_as_view_json(void **state)
{
    (void)state;
    long states = diff_game(&diffed[0], 2026);
    assert_true(states >= 5000);
}

/* City Behind Walls: the same, every seat (its own hand, a partner's in
 * players=2) and the spectator. */
static void test_property_view_text_cbw_same_as_view_json(void **state)
{
    (void)state;
    long states = diff_game(&diffed[1], 2027);
    assert_true(states >= 5000);
}

/* Tam Cúc: the same, every seat and the spectator (hands, face-down lays,
 * secret discards, the night exchange, a two-player game's open hand). */
static void test_property_view_text_tamcuc_same_as_view_json(void **state)
{
    (void)state;
    long states = diff_game(&diffed[2], 2028);
    assert_true(states >= 5000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_property_view_text_every_game_listed),
        cmocka_unit_test(test_property_view_text_ur_same_as_view_json),
        cmocka_unit_test(test_property_view_text_cbw_same_as_view_json),
        cmocka_unit_test(test_property_view_text_tamcuc_same_as_view_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
