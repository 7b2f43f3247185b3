/* test_unit_ai_hint.c — hints (src/ai/hint.c, docs/hints.md): Ur's exact
 * hint is the perfect player's move with the table's value; without a table
 * the hint is an estimate in [0,1] by search; a seat that does not act, a
 * game played in real time (karuta) and bad parameters are refused with a
 * message. The hidden-card proof is test_property_hint_hidden.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ai/hint.h"
#include "ai/perfect.h"
#include "ai/solve.h"
#include "helpers.h"

/* Plays chance (by the match's generator) until a decision or the end. */
static void to_decision(pl_match *m)
{
    pl_buf err = {0};
    while (m->game->phase(m->state) == PL_PHASE_CHANCE)
        assert_int_equal(pl_match_random(m, NULL, &err), 0);
    pl_buf_free(&err);
}

static void test_ur_exact_hint_is_the_perfect_players_move(void **s)
{
    (void)s;
    const char *path = "test_hint_ur2.tbl";
    pl_match *m = th_new("ur", "pieces=2 seed=5");
    solve_result r;
    pl_buf err = {0};
    assert_int_equal(solve_game(m->game, m->state, 1e-13, NULL, path, &r, &err), 0);
    ai_perfect *t = ai_perfect_load(m->game, path, &err);
    assert_non_null(t);
    ai_hint_params p = {.table = t};
    void *c = test_malloc(m->game->state_size);
    int decisions = 0;
    pl_rng rng;
    pl_rng_seed(&rng, 11);
    for (int game = 0; game < 20; game++) {
        char opts[64];
        snprintf(opts, sizeof opts, "pieces=2 seed=%d", 100 + game);
        pl_match *g = th_new("ur", opts);
        for (;;) {
            to_decision(g);
            if (g->game->phase(g->state) == PL_PHASE_OVER)
                break;
            int seat = pl_sole_actor(g->game, g->state);
            pl_action best, acts[64];
            assert_int_equal(ai_perfect_choose(t, g->state, seat, &best, &err), 0);
            ai_hint_result h;
            assert_int_equal(ai_hint(g->game, g->state, seat, &p, 7 + (uint64_t)decisions, &h, &err), 0);
            assert_int_equal(h.exact, 1);
            assert_true(h.action == best);
            pl_state_copy(g->game, c, g->state);
            g->game->apply(c, seat, best);
            assert_true(h.win == ai_perfect_value(t, c, seat));
            assert_int_equal(h.nlegal, g->game->legal(g->state, seat, acts, 64));
            decisions++;
            /* play on by a random legal move, not the hint, to reach other positions */
            int n = g->game->legal(g->state, seat, acts, 64);
            assert_int_equal(pl_match_play(g, seat, acts[pl_rng_below(&rng, (uint32_t)n)], &err), 0);
        }
        pl_match_free(g);
    }
    assert_true(decisions > 100);
    test_free(c);
    ai_perfect_free(t);
    remove(path);
    pl_buf_free(&err);
    pl_match_free(m);
}

static void test_ur_without_table_is_an_estimate(void **s)
{
    (void)s;
    pl_match *m = th_new("ur", "seed=3");
    to_decision(m);
    int seat = pl_sole_actor(m->game, m->state);
    ai_hint_params p = {.iterations = 500};
    ai_hint_result h, h2;
    pl_buf err = {0};
    assert_int_equal(ai_hint(m->game, m->state, seat, &p, 1, &h, &err), 0);
    assert_int_equal(h.exact, 0);
    assert_true(h.win >= 0 && h.win <= 1);
    assert_int_equal(pl_check(m->game, m->state, seat, h.action, &err), 0);
    /* deterministic for a seed */
    assert_int_equal(ai_hint(m->game, m->state, seat, &p, 1, &h2, &err), 0);
    assert_true(h.action == h2.action && h.win == h2.win);
    pl_buf_free(&err);
    pl_match_free(m);
}

static void test_hint_refusals(void **s)
{
    (void)s;
    pl_buf err = {0};
    ai_hint_result h;
    pl_match *m = th_new("ur", "seed=3");
    to_decision(m);
    int seat = pl_sole_actor(m->game, m->state);
    assert_int_equal(ai_hint(m->game, m->state, 1 - seat, NULL, 1, &h, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "does not act"));
    pl_buf_clear(&err);
    ai_hint_params bad = {.threads = 9};
    assert_int_equal(ai_hint(m->game, m->state, seat, &bad, 1, &h, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "bad parameters"));
    pl_match_free(m);
    /* karuta is played in real time: no hint (docs/hints.md) */
    pl_match *k = th_new("karuta", "seed=2");
    pl_buf_clear(&err);
    assert_int_equal(ai_hint(k->game, k->state, 0, NULL, 1, &h, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "real time"));
    pl_match_free(k);
    pl_buf_free(&err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ur_exact_hint_is_the_perfect_players_move),
        cmocka_unit_test(test_ur_without_table_is_an_estimate),
        cmocka_unit_test(test_hint_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
