/* test_unit_ur_solver.c — the exact solvers and the perfect player:
 * Finkel's layer solver against the generic solver, the state count of the
 * 7-piece game, tables saved and loaded, and optimal choices. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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
    ai_perfect *pt = ai_perfect_load(m->game, path, &err);
    assert_non_null(pt);
    assert_int_equal(ai_perfect_choose(pt, m->state, 0, &best, &err), 0);
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
    pl_action before = best;
    assert_int_equal(ai_perfect_choose(pt, other->state, 0, &best, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "does not hold"));
    assert_true(best == before); /* a failed choice leaves *out alone */
    ai_perfect_free(pt);
    /* A missing table is refused by name. */
    pl_buf_clear(&err);
    assert_null(ai_perfect_load(m->game, "no-such-table.tbl", &err));
    assert_non_null(strstr(pl_buf_str(&err), "no-such-table.tbl"));
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

/* Brute force, independent of both solvers: every reachable state (chance,
 * decision and final, found by linear search), plain Jacobi iteration of
 * the expectimax equations until nothing changes by 1e-15. */
typedef struct bf_graph {
    const pl_game *g;
    unsigned char *st;
    int n, cap;
} bf_graph;

static int bf_id(bf_graph *b, const void *s)
{
    size_t sz = b->g->state_size;
    for (int i = 0; i < b->n; i++)
        if (!memcmp(b->st + (size_t)i * sz, s, sz))
            return i;
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 256;
        b->st = realloc(b->st, (size_t)b->cap * sz);
        assert_non_null(b->st);
    }
    memcpy(b->st + (size_t)b->n * sz, s, sz);
    return b->n++;
}

static double brute_force_value(const pl_game *g, const void *root)
{
    bf_graph b = {g, NULL, 0, 0};
    size_t sz = g->state_size;
    bf_id(&b, root);
    int *kid = NULL, *first = NULL, nk = 0, capk = 0;
    double *pr = NULL;
    void *tmp = malloc(sz), *cur = malloc(sz);
    pl_action acts[64];
    for (int u = 0; u < b.n; u++) {
        first = realloc(first, sizeof *first * (size_t)(u + 2));
        first[u] = nk;
        memcpy(cur, b.st + (size_t)u * sz, sz);
        pl_action a[PL_MAX_CHANCE];
        double p[PL_MAX_CHANCE];
        int na = 0, seat = PL_CHANCE;
        if (g->phase(cur) == PL_PHASE_CHANCE) {
            na = g->chance(cur, a, p, PL_MAX_CHANCE);
        } else if (g->phase(cur) == PL_PHASE_MOVE) {
            int seats[PL_MAX_SEATS];
            assert_int_equal(g->actors(cur, seats), 1);
            seat = seats[0];
            na = g->legal(cur, seat, acts, 64);
            for (int k = 0; k < na; k++)
                a[k] = acts[k], p[k] = 0;
        }
        for (int k = 0; k < na; k++) {
            memcpy(tmp, cur, sz);
            g->apply(tmp, seat, a[k]);
            int id = bf_id(&b, tmp);
            if (nk == capk) {
                capk = capk ? 2 * capk : 1024;
                kid = realloc(kid, sizeof *kid * (size_t)capk);
                pr = realloc(pr, sizeof *pr * (size_t)capk);
            }
            kid[nk] = id;
            pr[nk++] = p[k];
        }
        first[u + 1] = nk;
    }
    double *v = calloc((size_t)b.n, sizeof *v), *w = calloc((size_t)b.n, sizeof *w);
    for (int it = 0; it < 200000; it++) {
        double delta = 0;
        for (int u = 0; u < b.n; u++) {
            memcpy(cur, b.st + (size_t)u * sz, sz);
            pl_phase ph = g->phase(cur);
            double x = 0;
            if (ph == PL_PHASE_OVER) {
                pl_outcome o;
                memset(&o, 0, sizeof o);
                g->outcome(cur, &o);
                x = o.utility[0];
            } else if (ph == PL_PHASE_CHANCE) {
                for (int k = first[u]; k < first[u + 1]; k++)
                    x += pr[k] * v[kid[k]];
            } else {
                int seats[PL_MAX_SEATS];
                g->actors(cur, seats);
                x = seats[0] == 0 ? -1 : 2;
                for (int k = first[u]; k < first[u + 1]; k++)
                    if (seats[0] == 0 ? v[kid[k]] > x : v[kid[k]] < x)
                        x = v[kid[k]];
            }
            w[u] = x;
            if (fabs(x - v[u]) > delta)
                delta = fabs(x - v[u]);
        }
        double *t = v;
        v = w;
        w = t;
        if (delta < 1e-15)
            break;
    }
    double r = v[0];
    free(v);
    free(w);
    free(kid);
    free(pr);
    free(first);
    free(tmp);
    free(cur);
    free(b.st);
    return r;
}

static void test_solvers_agree_with_brute_force(void **s)
{
    (void)s;
    const char *opts[] = {"rules=finkel pieces=1 seed=1", "pieces=1 start=light seed=1",
                          "pieces=1 start=light loop=opponent-first seed=1", "pieces=1 start=light dice=d4 seed=1"};
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) {
        pl_match *m = th_new("ur", opts[i]);
        double bf = brute_force_value(m->game, m->state);
        solve_result r;
        pl_buf err = {0};
        assert_int_equal(solve_game(m->game, m->state, 1e-14, NULL, NULL, &r, &err), 0);
        if (fabs(bf - r.value) > 1e-12)
            fail_msg("%s: brute force %.15f, generic solver %.15f", opts[i], bf, r.value);
        if (i == 0) {
            urf_table *t = urf_new(1);
            urf_solve(t, 1e-14, 2, NULL);
            double v = urf_value(t, m->state, 0);
            if (fabs(bf - v) > 1e-12)
                fail_msg("brute force %.15f, Finkel solver %.15f", bf, v);
            urf_free(t);
        }
        pl_buf_free(&err);
        pl_match_free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_finkel_state_count_matches_published),
        cmocka_unit_test(test_finkel_solver_agrees_with_generic_solver),
        cmocka_unit_test(test_tables_round_trip_and_perfect_player),
        cmocka_unit_test(test_skiryuk_one_piece_solved),
        cmocka_unit_test(test_solvers_agree_with_brute_force),
    };
    return cmocka_run_group_tests_name("unit_ur_solver", tests, NULL, NULL);
}
