/* test_unit_ai_review.c — reviews (src/ai/review.c): on Skiryuk's two-piece
 * Ur, solved in the test, every decision's values against ai_perfect_value,
 * the classes by their thresholds, accuracy, the luck + skill identity per
 * seat, the JSON; the estimate (MCTS) on the same game; errors (a table of
 * other options, a game with hidden cards, an illegal history). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/perfect.h"
#include "ai/review.h"
#include "ai/solve.h"
#include "helpers.h"
#include "parlour/alloc.h"

#define TABLE "test_review_s2.tbl"
#define OPTS "pieces=2 start=light seed=5"

static ai_perfect *table;

static int setup(void **s)
{
    (void)s;
    pl_match *m = th_new("ur", OPTS);
    solve_result r;
    pl_buf err = {0};
    assert_int_equal(solve_game(m->game, m->state, 1e-13, NULL, TABLE, &r, &err), 0);
    table = ai_perfect_load(m->game, TABLE, &err);
    assert_non_null(table);
    pl_buf_free(&err);
    pl_match_free(m);
    return 0;
}

static int teardown(void **s)
{
    (void)s;
    ai_perfect_free(table);
    remove(TABLE);
    return 0;
}

/* A whole game: seat 0 plays the best move, seat 1 the worst. */
static pl_match *lopsided_game(void)
{
    pl_match *m = th_new("ur", OPTS);
    const pl_game *g = m->game;
    pl_action acts[PL_MAX_ACTIONS];
    void *c = pl_malloc(g->state_size);
    pl_buf err = {0};
    while (g->phase(m->state) != PL_PHASE_OVER) {
        if (g->phase(m->state) == PL_PHASE_CHANCE) {
            assert_int_equal(pl_match_random(m, NULL, &err), 0);
            continue;
        }
        int seat = pl_sole_actor(g, m->state);
        int n = pl_legal_all(g, m->state, seat, acts), pick = 0;
        double pv = seat == 0 ? -1 : 2;
        for (int i = 0; i < n; i++) {
            pl_state_copy(g, c, m->state);
            g->apply(c, seat, acts[i]);
            double v = ai_perfect_value(table, c, seat);
            if (seat == 0 ? v > pv : v < pv) {
                pv = v;
                pick = i;
            }
        }
        assert_int_equal(pl_match_play(m, seat, acts[pick], &err), 0);
    }
    pl_free(c);
    pl_buf_free(&err);
    return m;
}

static void assert_identity(const ai_review *r, double tol)
{
    for (int s = 0; s < 2; s++) {
        double res = s == 0 ? r->end : 1 - r->end, st = s == 0 ? r->start : 1 - r->start;
        double lhs = res - st, rhs = r->luck[s] + r->skill[s];
        if (fabs(lhs - rhs) > tol)
            fail_msg("seat %d: result - start %.15f, luck + skill %.15f", s, lhs, rhs);
    }
}

static void test_classes_by_thresholds(void **s)
{
    (void)s;
    assert_int_equal(ai_review_classify(0), AI_REVIEW_BEST);
    assert_int_equal(ai_review_classify(0.005), AI_REVIEW_GOOD);
    assert_int_equal(ai_review_classify(0.01), AI_REVIEW_INACCURACY);
    assert_int_equal(ai_review_classify(0.039), AI_REVIEW_INACCURACY);
    assert_int_equal(ai_review_classify(0.04), AI_REVIEW_MISTAKE);
    assert_int_equal(ai_review_classify(0.0999), AI_REVIEW_MISTAKE);
    assert_int_equal(ai_review_classify(0.10), AI_REVIEW_BLUNDER);
    assert_string_equal(ai_review_class_name(AI_REVIEW_INACCURACY), "inaccuracy");
    assert_string_equal(ai_review_class_name(AI_REVIEW_BLUNDER), "blunder");
}

static void test_exact_review_values_and_identity(void **s)
{
    (void)s;
    pl_match *m = lopsided_game();
    const pl_game *g = m->game;
    pl_buf err = {0};
    ai_review *r = ai_review_match(m, table, NULL, &err);
    assert_non_null(r);
    assert_int_equal(r->exact, 1);
    assert_int_equal(r->over, 1);
    assert_int_equal(r->nhist, m->nhist);
    assert_true(r->nmoves > 0);
    /* The series: the table's value at every chance state, the result at the end. */
    void *st = pl_malloc(g->state_size), *c = pl_malloc(g->state_size);
    pl_state_copy(g, st, m->initial);
    assert_true(r->series[0] == ai_perfect_value(table, st, 0));
    assert_true(r->start == r->series[0]);
    int k = 0, blunders1 = 0;
    for (int t = 0; t < m->nhist; t++) {
        if (g->phase(st) == PL_PHASE_CHANCE)
            assert_true(r->series[t] == ai_perfect_value(table, st, 0));
        pl_action acts[PL_MAX_ACTIONS];
        int seat = m->hist[t].seat;
        int n = seat >= 0 ? pl_legal_all(g, st, seat, acts) : 0;
        if (n > 1) {
            const ai_review_move *mv = &r->moves[k++];
            assert_int_equal(mv->index, t);
            assert_int_equal(mv->seat, seat);
            assert_int_equal(mv->nlegal, n);
            double best = -1, played = -1;
            for (int i = 0; i < n; i++) {
                pl_state_copy(g, c, st);
                g->apply(c, seat, acts[i]);
                double v = ai_perfect_value(table, c, seat);
                best = v > best ? v : best;
                if (acts[i] == m->hist[t].a)
                    played = v;
            }
            assert_true(mv->best_value == best);
            assert_true(mv->played_value == played);
            assert_true(fabs(mv->loss - (best - played)) < 1e-15);
            if (mv->played == mv->best)
                assert_int_equal(mv->cls, AI_REVIEW_BEST);
            else
                assert_int_equal(mv->cls, ai_review_classify(mv->loss));
            if (seat == 0)
                assert_true(mv->loss < 1e-12); /* seat 0 played the best moves */
            blunders1 += seat == 1 && mv->cls == AI_REVIEW_BLUNDER;
        }
        g->apply(st, m->hist[t].seat, m->hist[t].a);
    }
    assert_int_equal(k, r->nmoves);
    assert_true(r->series[m->nhist] == 0 || r->series[m->nhist] == 1);
    assert_true(r->end == r->series[m->nhist]);
    /* Seat 0 never lost anything; seat 1 played the worst moves. */
    assert_true(r->accuracy[0] > 99.999);
    assert_true(r->lost[0] < 1e-9);
    assert_true(r->lost[1] > 0.1);
    assert_true(r->accuracy[1] < r->accuracy[0]);
    assert_true(blunders1 == r->count[1][AI_REVIEW_BLUNDER]);
    assert_true(r->skill[0] > 0 && fabs(r->skill[0] + r->skill[1]) < 1e-12);
    assert_true(fabs(r->luck[0] + r->luck[1]) < 1e-12);
    assert_identity(r, 1e-9);
    /* The JSON: parsed back, the same numbers. */
    pl_buf out = {0};
    assert_int_equal(ai_review_json(r, g, m->initial, m->hist, &out, &err), 0);
    json_t *j = json_loads(pl_buf_str(&out), 0, NULL);
    assert_non_null(j);
    assert_true(json_is_true(json_object_get(j, "exact")));
    assert_int_equal(json_array_size(json_object_get(j, "series")), (size_t)m->nhist + 1);
    assert_int_equal(json_array_size(json_object_get(j, "moves")), (size_t)r->nmoves);
    json_t *mv0 = json_array_get(json_object_get(j, "moves"), 0);
    assert_non_null(json_string_value(json_object_get(mv0, "best")));
    assert_true(json_is_object(json_object_get(mv0, "best_fields")));
    json_t *s1 = json_array_get(json_object_get(j, "seats"), 1);
    assert_true(json_real_value(json_object_get(s1, "accuracy")) == r->accuracy[1]);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(s1, "classes"), "blunder")), blunders1);
    json_decref(j);
    pl_buf_free(&out);
    pl_free(st);
    pl_free(c);
    ai_review_free(r);
    pl_buf_free(&err);
    pl_match_free(m);
}

/* Without a table: estimates by MCTS, the same decisions, the identity, and
 * values near the exact ones. */
static void test_estimate_review(void **s)
{
    (void)s;
    pl_match *m = lopsided_game();
    pl_buf err = {0};
    ai_review_params p = {.iterations = 3000, .threads = 2, .seed = 1};
    ai_review *e = ai_review_match(m, NULL, &p, &err);
    ai_review *x = ai_review_match(m, table, NULL, &err);
    assert_non_null(e);
    assert_non_null(x);
    assert_int_equal(e->exact, 0);
    assert_int_equal(e->nmoves, x->nmoves);
    assert_true(e->iterations >= 3000L * e->nmoves);
    double err_sum = 0;
    for (int k = 0; k < e->nmoves; k++) {
        assert_int_equal(e->moves[k].index, x->moves[k].index);
        assert_true(e->moves[k].played_value >= 0 && e->moves[k].played_value <= 1);
        assert_true(e->moves[k].loss >= 0);
        err_sum += fabs(e->moves[k].played_value - x->moves[k].played_value);
    }
    assert_true(err_sum / e->nmoves < 0.15);
    assert_true(e->start > 0.3 && e->start < 0.8); /* the start valued through its first decision */
    assert_identity(e, 1e-9);
    /* The same seed, the same review. */
    ai_review *e2 = ai_review_match(m, NULL, &p, &err);
    assert_non_null(e2);
    assert_true(e2->moves[0].played_value == e->moves[0].played_value && e2->luck[0] == e->luck[0]);
    ai_review_free(e);
    ai_review_free(e2);
    ai_review_free(x);
    pl_buf_free(&err);
    pl_match_free(m);
}

static void test_errors(void **s)
{
    (void)s;
    pl_buf err = {0};
    /* A table of other options holds none of the game's positions. */
    pl_match *m = th_new("ur", "pieces=3 start=light seed=2");
    assert_null(ai_review_match(m, table, NULL, &err));
    assert_non_null(strstr(pl_buf_str(&err), "does not hold"));
    pl_match_free(m);
    /* A game with hidden cards is not reviewed. */
    pl_buf_clear(&err);
    m = th_new("tamcuc", "seed=1");
    assert_null(ai_review_match(m, NULL, NULL, &err));
    assert_non_null(strstr(pl_buf_str(&err), "full information"));
    pl_match_free(m);
    /* A history the rules refuse. */
    pl_buf_clear(&err);
    m = lopsided_game();
    pl_move bad[2] = {{PL_CHANCE, 99}, {0, 0}};
    assert_null(ai_review_run(m->game, m->initial, bad, 1, table, NULL, &err));
    assert_true(err.len > 0);
    pl_match_free(m);
    pl_buf_free(&err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes_by_thresholds),
        cmocka_unit_test(test_exact_review_values_and_identity),
        cmocka_unit_test(test_estimate_review),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
