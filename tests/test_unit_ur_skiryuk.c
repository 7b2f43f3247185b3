/* test_unit_ur_skiryuk.c — the solver made for Skiryuk's rules
 * (src/games/ur/ur_skiryuk.c) against the generic solver (src/ai/solve.c):
 * the same values at every position both hold (1 and 2 pieces, to 1e-12),
 * the same count of reachable positions (875 and 163,907), other options
 * of the rules (UR-R2 dice, UR-R8 loop, UR-R16 stack), tables written and
 * read back, and the perfect player playing from them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/perfect.h"
#include "ai/solve.h"
#include "games/ur/ur_skiryuk.h"
#include "helpers.h"

/* Solves `opts` both ways and compares: the root, every light-to-move
 * state of the dense table that the generic table holds, and the positions
 * of random games (either side to move). Returns the root's value. */
static double agree(const char *opts, uint64_t positions)
{
    pl_match *m = th_new("ur", opts);
    const char *path = "test_ur_skiryuk_generic.tbl";
    solve_result r;
    pl_buf err = {0};
    assert_int_equal(solve_game(m->game, m->state, 1e-14, NULL, path, &r, &err), 0);
    solve_table *gt = solve_load(m->game, path, &err);
    assert_non_null(gt);
    urs_table *t = urs_new(m->state, &err);
    assert_non_null(t);
    assert_true(urs_solve(t, 1e-14, 2, NULL) > 0);
    double v = urs_value(t, m->state, 0);
    if (fabs(v - r.value) > 1e-12)
        fail_msg("%s: dense %.15f, generic %.15f", opts, v, r.value);
    /* the reachable positions, counted as the generic solver counts them */
    int64_t np = urs_positions(t, m->state);
    if (np != (int64_t)r.states)
        fail_msg("%s: %lld positions, the generic solver %llu", opts, (long long)np, (unsigned long long)r.states);
    if (positions)
        assert_true(r.states == positions);
    /* every light-to-move state the generic solver reached */
    uint64_t held = 0;
    ur_state s;
    for (uint64_t i = 0; i < urs_count(t); i++) {
        urs_state(t, i, &s);
        double g = solve_lookup(gt, &s, 0);
        if (g < 0)
            continue;
        held++;
        if (fabs(g - urs_value(t, &s, 0)) > 1e-12)
            fail_msg("%s: state %llu: dense %.15f, generic %.15f", opts, (unsigned long long)i,
                     urs_value(t, &s, 0), g);
    }
    assert_true(held > urs_count(t) / 4);
    /* random games: dark to move too, and the final positions */
    pl_rng rng;
    pl_rng_seed(&rng, 7);
    for (int game = 0; game < 40; game++) {
        memcpy(&s, m->state, sizeof s);
        while (s.phase != UR_PH_OVER) {
            if (s.phase != UR_PH_MOVE) {
                double g = solve_lookup(gt, &s, 1), d = urs_value(t, &s, 1);
                assert_true(g >= 0 && d >= 0);
                if (fabs(g - d) > 1e-12)
                    fail_msg("%s: game %d: dense %.15f, generic %.15f", opts, game, d, g);
                m->game->apply(&s, 0, m->game->sample_chance(&s, &rng));
            } else {
                pl_action acts[32];
                int n = m->game->legal(&s, s.turn, acts, 32);
                m->game->apply(&s, s.turn, acts[pl_rng_next(&rng) % (uint64_t)n]);
            }
        }
        assert_true(urs_value(t, &s, 0) == (s.off[0] == s.pieces ? 1.0 : 0.0));
    }
    urs_free(t);
    solve_free(gt);
    remove(path);
    pl_buf_free(&err);
    pl_match_free(m);
    return v;
}

static void test_UR_R1_R18_skiryuk_solver_agrees_with_generic_solver(void **st)
{
    (void)st;
    /* The starter's values of docs/solver.md, and the reachable counts. */
    double v1 = agree("pieces=1 start=light seed=1", 875);
    assert_true(v1 > 0.492115568263 && v1 < 0.492115568264);
    double v2 = agree("pieces=2 start=light seed=1", 163907);
    assert_true(v2 > 0.499568927396 && v2 < 0.499568927397);
}

static void test_UR_R2_R3_R8_R16_skiryuk_solver_other_options(void **st)
{
    (void)st;
    /* The other dice (UR-R2), loop (UR-R8) and stack rule (UR-R16), Dark
     * starting, the random draw for the start (UR-R3): the rules' own moves. */
    agree("pieces=1 start=dark dice=d4 seed=1", 0);
    agree("pieces=2 start=light loop=opponent-first stack=any seed=1", 0);
    pl_match *m = th_new("ur", "pieces=1 seed=1"); /* start=random: phase first */
    pl_buf err = {0};
    urs_table *t = urs_new(m->state, &err);
    urs_solve(t, 1e-14, 1, NULL);
    assert_true(fabs(urs_value(t, m->state, 0) - 0.5) < 1e-14);
    urs_free(t);
    pl_match_free(m);
    /* Finkel's rules and more pieces than it takes: refused by name. */
    m = th_new("ur", "rules=finkel pieces=1 seed=1");
    assert_null(urs_new(m->state, &err));
    assert_non_null(strstr(pl_buf_str(&err), "Skiryuk"));
    pl_match_free(m);
    m = th_new("ur", "pieces=5 seed=1");
    assert_null(urs_new(m->state, &err));
    pl_match_free(m);
    pl_buf_free(&err);
}

static void test_UR_R18_skiryuk_table_file_and_perfect_player(void **st)
{
    (void)st;
    const char *path = "test_ur_skiryuk2.tbl";
    pl_match *m = th_new("ur", "pieces=2 start=light seed=3");
    pl_buf err = {0}, report = {0};
    /* through the game's interface, as `parlour solve` does */
    pl_solve_params sp = {.tol = 1e-14, .threads = 2, .progress = NULL, .out = path};
    assert_int_equal(m->game->tables->solve(m->state, &sp, &report, &err), 1);
    assert_non_null(strstr(pl_buf_str(&report), "rules skiryuk pieces 2\nstates 86970\n"));
    assert_non_null(strstr(pl_buf_str(&report), "first player wins 49.956892739"));
    urs_table *t = urs_load(path, &err);
    assert_non_null(t);
    /* the perfect player reads it through pl_game.tables */
    ai_perfect *pt = ai_perfect_load(m->game, path, &err);
    assert_non_null(pt);
    assert_true(ai_perfect_value(pt, m->state, 0) == urs_value(t, m->state, 0));
    /* a choice: Light's 2 enters on A3 or carries the piece on A4 to A2
     * (eyes): the perfect player plays the best child */
    th_position(m, "board=A4:l,B2:d turn=light phase=move roll=2 reserve=1/1 off=0/0");
    pl_action best, acts[32];
    assert_int_equal(ai_perfect_choose(pt, m->state, 0, &best, &err), 0);
    int n = m->game->legal(m->state, 0, acts, 32);
    assert_true(n > 1);
    double bv = -1, chosen = -1;
    for (int i = 0; i < n; i++) {
        ur_state c;
        memcpy(&c, m->state, sizeof c);
        m->game->apply(&c, 0, acts[i]);
        double v = urs_value(t, &c, 0);
        assert_true(v >= 0);
        if (v > bv)
            bv = v;
        if (acts[i] == best)
            chosen = v;
    }
    assert_true(chosen == bv);
    ai_perfect_free(pt);
    /* a table for other options does not hold the position */
    pl_match *other = th_new("ur", "pieces=3 start=light seed=3");
    assert_true(urs_value(t, other->state, 0) < 0);
    pl_match_free(other);
    /* not a table: refused, naming the file */
    FILE *f = fopen("test_ur_skiryuk_bad.tbl", "wb");
    assert_non_null(f);
    fputs("PLURSKY1 but nothing after", f);
    fclose(f);
    pl_buf_clear(&err);
    assert_null(m->game->tables->load("test_ur_skiryuk_bad.tbl", &err));
    assert_non_null(strstr(pl_buf_str(&err), "test_ur_skiryuk_bad.tbl"));
    remove("test_ur_skiryuk_bad.tbl");
    remove(path);
    urs_free(t);
    pl_buf_free(&err);
    pl_buf_free(&report);
    pl_match_free(m);
}

/* The check of a solved table (urs_verify, `parlour solve --verify`): a
 * table the solver wrote meets its equations to 1e-13; one value changed in
 * the file by 0.01 shows a residual of about that, at that state or at a
 * state that reads it. */
static void test_UR_R18_skiryuk_table_verify(void **st)
{
    (void)st;
    const char *path = "test_ur_skiryuk_verify.tbl";
    pl_match *m = th_new("ur", "pieces=2 start=light seed=3");
    pl_buf err = {0}, report = {0};
    pl_solve_params sp = {.tol = 1e-14, .threads = 2, .progress = NULL, .out = path};
    assert_int_equal(m->game->tables->solve(m->state, &sp, &report, &err), 1);
    urs_table *t = urs_load(path, &err);
    assert_non_null(t);
    uint64_t at;
    double r = urs_verify(t, 2, &at);
    if (!(r < 1e-13))
        fail_msg("a solved table's largest residual %.3g (state %llu)", r, (unsigned long long)at);
    urs_free(t);
    /* through the game's interface, as `parlour solve --table F --verify` */
    void *gt = m->game->tables->load(path, &err);
    assert_non_null(gt);
    pl_buf_clear(&report);
    assert_int_equal(m->game->tables->verify(gt, 1, &report, &err), 1);
    assert_non_null(strstr(pl_buf_str(&report), "states 86970\nlargest residual "));
    m->game->tables->free(gt);
    /* one value changed: the file is a header of 8 + 16 + 8 bytes, then doubles */
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    long off = 32 + 8 * 1000L;
    double x;
    assert_int_equal(fseek(f, off, SEEK_SET), 0);
    assert_int_equal(fread(&x, sizeof x, 1, f), 1);
    x = x > 0.5 ? x - 0.01 : x + 0.01;
    assert_int_equal(fseek(f, off, SEEK_SET), 0);
    assert_int_equal(fwrite(&x, sizeof x, 1, f), 1);
    fclose(f);
    t = urs_load(path, &err);
    assert_non_null(t);
    r = urs_verify(t, 2, &at);
    if (!(r > 0.001 && r < 0.011))
        fail_msg("one value off by 0.01: largest residual %.3g (state %llu)", r, (unsigned long long)at);
    urs_free(t);
    remove(path);
    pl_buf_free(&err);
    pl_buf_free(&report);
    pl_match_free(m);
}

/* Reads a whole file into a new buffer (NULL on error). */
static unsigned char *slurp(const char *path, long *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    *len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc((size_t)*len + 1);
    if (b && fread(b, 1, (size_t)*len, f) != (size_t)*len) {
        free(b);
        b = NULL;
    }
    fclose(f);
    return b;
}

/* Solves `opts` with one thread, the successors listed in every layer pair
 * (fast_min 0) or never: the two tables are the same to the last byte. */
static void solve_both_ways(const char *opts)
{
    pl_match *m = th_new("ur", opts);
    pl_buf err = {0};
    const char *path[2] = {"test_ur_skiryuk_plain.tbl", "test_ur_skiryuk_listed.tbl"};
    for (int way = 0; way < 2; way++) {
        urs_table *t = urs_new(m->state, &err);
        assert_non_null(t);
        urs_fast_min(t, way ? 0 : UINT64_MAX);
        assert_true(urs_solve(t, 1e-14, 1, NULL) > 0);
        assert_int_equal(urs_save(t, path[way], &err), 0);
        urs_free(t);
    }
    long n0, n1;
    unsigned char *b0 = slurp(path[0], &n0), *b1 = slurp(path[1], &n1);
    assert_non_null(b0);
    assert_non_null(b1);
    assert_int_equal(n0, n1);
    if (memcmp(b0, b1, (size_t)n0) != 0)
        fail_msg("%s: the listed sweep's table differs from the plain sweep's", opts);
    free(b0);
    free(b1);
    remove(path[0]);
    remove(path[1]);
    pl_buf_free(&err);
    pl_match_free(m);
}

/* Large layer pairs are swept from listed successors (URS_FAST_MIN): the
 * same values to the last bit as the plain sweep, with the default rules
 * and with the other dice, loop and stack rules (more moves a roll). */
static void test_UR_R1_R18_skiryuk_listed_successors_same_table(void **st)
{
    (void)st;
    solve_both_ways("pieces=2 start=light seed=1");
    solve_both_ways("pieces=2 start=light dice=d4 loop=opponent-first stack=any seed=1");
}

/* --init: a solved table given as the start is solved again in one sweep
 * a layer pair (nothing moves by more than the tolerance) and gives the same
 * value; a half-solved one (a coarse tolerance) is finished to the same
 * value as a solve from scratch; a table of other options is refused. */
static void test_UR_R18_skiryuk_warm_start(void **st)
{
    (void)st;
    pl_match *m = th_new("ur", "pieces=2 start=light seed=3");
    pl_buf err = {0}, report = {0};
    const char *coarse = "test_ur_skiryuk_coarse.tbl", *full = "test_ur_skiryuk_full.tbl";
    pl_solve_params sp = {.tol = 1e-3, .threads = 1, .progress = NULL, .out = coarse};
    assert_int_equal(m->game->tables->solve(m->state, &sp, &report, &err), 1);
    pl_buf_clear(&report);
    sp = (pl_solve_params){.tol = 1e-14, .threads = 1, .progress = NULL, .out = full, .init = coarse};
    assert_int_equal(m->game->tables->solve(m->state, &sp, &report, &err), 1);
    assert_non_null(strstr(pl_buf_str(&report), "first player wins 49.956892739"));
    /* from the solved table: one sweep a layer pair (1/1, 0/1 and 0/0 with 2 pieces) */
    pl_buf_clear(&report);
    sp = (pl_solve_params){.tol = 1e-14, .threads = 1, .progress = NULL, .out = NULL, .init = full};
    assert_int_equal(m->game->tables->solve(m->state, &sp, &report, &err), 1);
    assert_non_null(strstr(pl_buf_str(&report), "first player wins 49.956892739"));
    const char *sw = strstr(pl_buf_str(&report), "sweeps ");
    assert_non_null(sw);
    long sweeps = atol(sw + 7);
    if (sweeps != 3)
        fail_msg("a solved start took %ld sweeps (one a layer pair: 3)", sweeps);
    /* other options */
    pl_match *other = th_new("ur", "pieces=2 start=light dice=d4 seed=3");
    sp.init = full;
    assert_int_equal(other->game->tables->solve(other->state, &sp, &report, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "other options"));
    pl_match_free(other);
    remove(coarse);
    remove(full);
    pl_buf_free(&err);
    pl_buf_free(&report);
    pl_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_UR_R1_R18_skiryuk_solver_agrees_with_generic_solver),
        cmocka_unit_test(test_UR_R2_R3_R8_R16_skiryuk_solver_other_options),
        cmocka_unit_test(test_UR_R18_skiryuk_table_file_and_perfect_player),
        cmocka_unit_test(test_UR_R18_skiryuk_table_verify),
        cmocka_unit_test(test_UR_R1_R18_skiryuk_listed_successors_same_table),
        cmocka_unit_test(test_UR_R18_skiryuk_warm_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
