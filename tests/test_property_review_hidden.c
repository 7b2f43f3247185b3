/* test_property_review_hidden.c — reviews of hidden-card games (issue 34 §5;
 * src/ai/review_hidden.c, docs/hints.md "Reviews of hidden-card games"):
 *
 * - the hidden-card proof: over random deals of Tam Cúc and City Behind
 *   Walls (every variant the games list), at decisions along random games,
 *   the review of the decision is computed on the true state and on another
 *   true state that differs from it only in cards the decider cannot see (a
 *   fresh `determinize` for the decider): both must be identical (best move,
 *   both estimates, bit for bit), so the review never uses a card the decider
 *   could not see;
 * - the right decisions: a finished game in which seat 0 always plays the
 *   review's own best move (the same search and seed the review will use) and
 *   the others play at random; its review lists every decision of more than
 *   one legal action, none of seat 0, and for the others exactly those where
 *   the move played is not the search's best, each with both estimates in
 *   [0,1]; its JSON names them. */
#include <stdio.h>
#include <string.h>

#include "ai/review_hidden.h"
#include "helpers.h"

#define GAMES_PER_VARIANT 8
#define EVERY 3
#define ITERATIONS 120

/* proof's state: the second world's buffer, the counts, the game's
 * decisions of more than one legal action so far. */
typedef struct proof_walk {
    void *other;
    long *checked, *differ, decisions;
    pl_buf err;
} proof_walk;

/* A random move; every EVERY-th real choice reviewed in both worlds. */
static pl_action proof_at(void *ctx, const pl_game *g, const void *st, int seat, long d, const char *opts,
                          pl_rng *rng)
{
    proof_walk *w = ctx;
    if (d == 0)
        w->decisions = 0; /* a new game */
    pl_action acts[PL_MAX_ACTIONS];
    int n = pl_legal_all(g, st, seat, acts);
    pl_action a = acts[pl_rng_below(rng, (uint32_t)n)];
    if (n > 1 && w->decisions++ % EVERY == 0) {
        g->determinize(st, seat, rng, w->other);
        *w->differ += memcmp(w->other, st, g->state_size) != 0;
        uint64_t seed = pl_rng_next(rng);
        ai_review_hidden_params p = {.iterations = ITERATIONS};
        ai_review_hidden_move x, y;
        assert_int_equal(ai_review_hidden_decision(g, st, seat, a, &p, seed, &x, &w->err), 0);
        assert_int_equal(ai_review_hidden_decision(g, w->other, seat, a, &p, seed, &y, &w->err), 0);
        if (x.best != y.best || memcmp(&x.best_value, &y.best_value, sizeof x.best_value) ||
            memcmp(&x.played_value, &y.played_value, sizeof x.played_value) || x.nlegal != y.nlegal)
            fail_msg("%s %s: seat %d's review of a decision differs between worlds that differ only "
                     "in what it cannot see", g->id, opts, seat);
        (*w->checked)++;
    }
    return a;
}

static void proof(const char *game, long *checked, long *differ)
{
    const pl_game *g = pl_game_find(game);
    assert_non_null(g);
    proof_walk w = {test_malloc(g->state_size), checked, differ, 0, {0}};
    pl_rng rng;
    pl_rng_seed(&rng, 345);
    th_random_games(game, GAMES_PER_VARIANT, 500, 7, &rng, proof_at, &w);
    test_free(w.other);
    pl_buf_free(&w.err);
}

static void test_property_review_hidden_never_uses_unseen_cards_tamcuc(void **s)
{
    (void)s;
    long checked = 0, differ = 0;
    proof("tamcuc", &checked, &differ);
    print_message("tamcuc: %ld decisions, %ld in worlds that differ\n", checked, differ);
    assert_true(checked > 200 && differ > checked / 2);
}

static void test_property_review_hidden_never_uses_unseen_cards_cbw(void **s)
{
    (void)s;
    long checked = 0, differ = 0;
    proof("cbw", &checked, &differ);
    print_message("cbw: %ld decisions, %ld in worlds that differ\n", checked, differ);
    assert_true(checked > 200 && differ > checked / 2);
}

/* A game where seat 0 plays the review's own best move; its review. */
static void right_decisions(const char *game, const char *opts)
{
    pl_buf err = {0};
    pl_match *m = th_new(game, opts);
    const pl_game *g = m->game;
    pl_rng rng;
    pl_rng_seed(&rng, 9);
    ai_review_hidden_params p = {.iterations = ITERATIONS, .seed = 77};
    int want[PL_MAX_SEATS] = {0}, differs = 0;
    while (g->phase(m->state) != PL_PHASE_OVER) {
        if (g->phase(m->state) == PL_PHASE_CHANCE) {
            assert_int_equal(pl_match_random(m, NULL, &err), 0);
            continue;
        }
        int seats[PL_MAX_SEATS];
        g->actors(m->state, seats);
        int seat = seats[0];
        pl_action acts[PL_MAX_ACTIONS];
        int n = pl_legal_all(g, m->state, seat, acts);
        pl_action a = acts[pl_rng_below(&rng, (uint32_t)n)];
        if (n > 1) {
            want[seat]++;
            ai_review_hidden_move mv;
            assert_int_equal(ai_review_hidden_decision(g, m->state, seat, a, &p, p.seed + (uint64_t)m->nhist, &mv,
                                                       &err), 0);
            if (seat == 0)
                a = mv.best; /* the review's own choice */
            else
                differs += mv.best != a;
        }
        assert_int_equal(pl_match_play(m, seat, a, &err), 0);
    }
    ai_review_hidden *r = ai_review_hidden_run(g, m->initial, m->hist, m->nhist, &p, &err);
    if (!r)
        fail_msg("%s", pl_buf_str(&err));
    int total = 0;
    for (int s = 0; s < PL_MAX_SEATS; s++) {
        assert_int_equal(r->decisions[s], want[s]);
        total += want[s];
    }
    assert_int_equal(r->ndecisions, total);
    assert_int_equal(r->nmoves, differs);
    assert_true(differs > 0);
    for (int k = 0; k < r->nmoves; k++) {
        const ai_review_hidden_move *mv = &r->moves[k];
        assert_true(mv->seat != 0 && mv->best != mv->played);
        assert_true(m->hist[mv->index].seat == mv->seat && m->hist[mv->index].a == mv->played);
        assert_true(mv->played_value >= 0 && mv->played_value <= 1 && mv->best_value >= 0 && mv->best_value <= 1);
        assert_true(k == 0 || mv->index > r->moves[k - 1].index);
    }
    pl_buf j = {0};
    assert_int_equal(ai_review_hidden_json(r, g, m->initial, m->hist, &j, &err), 0);
    assert_non_null(strstr(pl_buf_str(&j), "\"kind\":\"hidden\""));
    assert_non_null(strstr(pl_buf_str(&j), "\"best_fields\""));
    pl_buf_free(&j);
    ai_review_hidden_free(r);
    pl_match_free(m);
    pl_buf_free(&err);
}

static void test_review_hidden_lists_the_right_decisions(void **s)
{
    (void)s;
    right_decisions("tamcuc", "players=4 seed=21");
    right_decisions("cbw", "seed=22");
}

static void test_review_hidden_refusals(void **s)
{
    (void)s;
    pl_buf err = {0};
    pl_match *m = th_new("ur", "seed=1");
    assert_null(ai_review_hidden_run(m->game, m->initial, m->hist, 0, NULL, &err));
    assert_non_null(strstr(pl_buf_str(&err), "hidden cards"));
    pl_match_free(m);
    pl_buf_free(&err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_property_review_hidden_never_uses_unseen_cards_tamcuc),
        cmocka_unit_test(test_property_review_hidden_never_uses_unseen_cards_cbw),
        cmocka_unit_test(test_review_hidden_lists_the_right_decisions),
        cmocka_unit_test(test_review_hidden_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
