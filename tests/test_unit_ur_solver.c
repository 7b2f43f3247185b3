/* test_unit_ur_solver.c — the exact solvers and the perfect player:
 * Finkel's layer solver against the generic solver, the state count of the
 * 7-piece game, tables saved and loaded, and optimal choices. */
#include <stdio.h>
#include <string.h>

#include "ai/perfect.h"
#include "ai/solve.h"
#include "games/ur/ur_finkel.h"
#include "helpers.h"

static void test_finkel_state_count_matches_published(void **s)
{
    (void)s;
    /* RoyalUr / Olieslagers: 137,870,097 non-terminal light-to-move states. */
    assert_true(urf_states(7) == 137870097ULL);
    assert_true(urf_states(1) == 217);
}

static void test_finkel_solver_agrees_with_generic_solver(void **s)
{
    (void)s;
    for (int n = 1; n <= 2; n++) {
        char opts[64];
        snprintf(opts, sizeof opts, "rules=finkel pieces=%d seed=1", n);
        pl_match *m = th_new("ur", opts);
        urf_table *t = urf_new(n);
        assert_non_null(t);
        assert_true(urf_count(t) == urf_states(n));
        urf_solve(t, 1e-14, 2, NULL);
        double v1 = urf_value(t, m->state, 0);
        solve_result r;
        pl_buf err = {0};
        assert_int_equal(solve_game(m->game, m->state, 1e-14, NULL, NULL, &r, &err), 0);
        if (v1 - r.value > 1e-12 || r.value - v1 > 1e-12)
            fail_msg("pieces %d: layer solver %.15f, generic %.15f", n, v1, r.value);
        assert_true(v1 > 0.5 && v1 < 0.55); /* the first player's edge */
        /* Every value of the generic graph is a probability; dark to move = 1 - light. */
        assert_true(urf_value(t, m->state, 1) + v1 > 1 - 1e-15);
        urf_free(t);
        pl_buf_free(&err);
        pl_match_free(m);
    }
}

static void test_tables_round_trip_and_perfect_player(void **s)
{
    (void)s;
    const char *path = "test_finkel1.tbl";
    pl_match *m = th_new("ur", "rules=finkel pieces=1 seed=3");
    urf_table *t = urf_new(1);
    urf_solve(t, 1e-14, 1, NULL);
    pl_buf err = {0};
    assert_int_equal(urf_save(t, path, &err), 0);
    urf_table *back = urf_load(path, &err);
    assert_non_null(back);
    assert_true(urf_value(back, m->state, 0) == urf_value(t, m->state, 0));
    /* A position with a choice: the perfect player picks the best child. */
    th_position(m, "board=A1:l,B3:d turn=light phase=move roll=4 reserve=0/0 off=0/0");
    pl_action best;
    assert_int_equal(ai_perfect_choose(m->game, m->state, 0, path, &best, &err), 0);
    pl_action acts[16];
    int n = m->game->legal(m->state, 0, acts, 16);
    double bv = -1;
    for (int i = 0; i < n; i++) {
        ur_state c;
        memcpy(&c, m->state, sizeof c);
        m->game->apply(&c, 0, acts[i]);
        double v = urf_value(t, &c, 0);
        if (v > bv)
            bv = v;
    }
    ur_state c;
    memcpy(&c, m->state, sizeof c);
    m->game->apply(&c, 0, best);
    assert_true(urf_value(t, &c, 0) == bv);
    /* A table for other options is refused with a message. */
    pl_match *other = th_new("ur", "rules=finkel pieces=2 seed=3");
    th_play(other, "roll 1");
    assert_int_equal(ai_perfect_choose(other->game, other->state, 0, path, &best, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "does not hold"));
    ai_perfect_release();
    remove(path);
    urf_free(t);
    urf_free(back);
    pl_buf_free(&err);
    pl_match_free(m);
    pl_match_free(other);
}

static void test_skiryuk_one_piece_solved(void **s)
{
    (void)s;
    /* Regression value of the whole one-piece game with Light starting
     * (forced 1 on entry): any change to the rules engine moves it. */
    pl_match *m = th_new("ur", "pieces=1 start=light seed=1");
    solve_result r;
    pl_buf err = {0};
    const char *path = "test_skiryuk1.tbl";
    assert_int_equal(solve_game(m->game, m->state, 1e-14, NULL, path, &r, &err), 0);
    assert_true(r.states == 875);
    assert_true(r.value > 0.492115568263 && r.value < 0.492115568264);
    solve_table *t = solve_load(m->game, path, &err);
    assert_non_null(t);
    assert_true(solve_lookup(t, m->state, 0) == r.value);
    solve_free(t);
    remove(path);
    pl_buf_free(&err);
    pl_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_finkel_state_count_matches_published),
        cmocka_unit_test(test_finkel_solver_agrees_with_generic_solver),
        cmocka_unit_test(test_tables_round_trip_and_perfect_player),
        cmocka_unit_test(test_skiryuk_one_piece_solved),
    };
    return cmocka_run_group_tests_name("unit_ur_solver", tests, NULL, NULL);
}
