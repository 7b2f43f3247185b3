/* test_unit_glicko2.c — Glicko-2 (src/core/glicko2.c) against the worked
 * example of Glickman's "Example of the Glicko-2 system" (2012): a player
 * of 1500, RD 200, σ 0.06, τ 0.5, who beats a 1400 (RD 30) and loses to a
 * 1550 (RD 100) and a 1700 (RD 300), ends at 1464.06, RD 151.52, σ 0.05999. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "parlour/glicko2.h"

static void test_glicko2_paper_example(void **state)
{
    (void)state;
    pl_glicko2 p = {1500.0, 200.0, 0.06};
    pl_glicko2_game g[3] = {{1400.0, 30.0, 1.0}, {1550.0, 100.0, 0.0}, {1700.0, 300.0, 0.0}};
    pl_glicko2 q = pl_glicko2_update(p, g, 3, 0.5);
    /* The paper rounds its intermediate values to four digits: μ' = -0.2069,
     * φ' = 0.8722, σ' = 0.05999, hence r' = 173.7178 μ' + 1500 = 1464.06 and
     * RD' = 151.52. Unrounded, r' is 1464.0507 (the paper's own steps). */
    double mu = (q.rating - 1500.0) / 173.7178, phi = q.deviation / 173.7178;
    assert_true(fabs(round(mu * 1e4) / 1e4 - -0.2069) < 1e-9);
    assert_true(fabs(round(phi * 1e4) / 1e4 - 0.8722) < 1e-9);
    assert_true(fabs(q.volatility - 0.05999) < 0.000006); /* 0.0599960: the paper cuts it to 0.05999 */
    assert_true(fabs(173.7178 * round(mu * 1e4) / 1e4 + 1500.0 - 1464.06) < 0.005);
    assert_true(fabs(173.7178 * round(phi * 1e4) / 1e4 - 151.52) < 0.005);
    assert_true(fabs(q.rating - 1464.06) < 0.01 && fabs(q.deviation - 151.52) < 0.005);
    /* the inputs are values, untouched */
    assert_true(p.rating == 1500.0 && g[0].score == 1.0);
}

static void test_glicko2_no_games_only_deviation_grows(void **state)
{
    (void)state;
    pl_glicko2 p = {1500.0, 200.0, 0.06};
    pl_glicko2 q = pl_glicko2_update(p, NULL, 0, 0.5);
    assert_true(q.rating == 1500.0 && q.volatility == 0.06);
    /* sqrt(φ² + σ²) on the Glicko-2 scale: 200.0 → 200.1554 */
    assert_true(fabs(q.deviation - 173.7178 * sqrt(pow(200.0 / 173.7178, 2) + 0.0036)) < 1e-9);
    assert_true(q.deviation > p.deviation);
}

static void test_glicko2_direction_and_symmetry(void **state)
{
    (void)state;
    pl_glicko2 a = pl_glicko2_new(), b = pl_glicko2_new();
    pl_glicko2_game ga = {b.rating, b.deviation, 1.0}, gb = {a.rating, a.deviation, 0.0};
    pl_glicko2 a2 = pl_glicko2_update(a, &ga, 1, 0.5), b2 = pl_glicko2_update(b, &gb, 1, 0.5);
    assert_true(a2.rating > 1500.0 && b2.rating < 1500.0);
    assert_true(fabs((a2.rating - 1500.0) + (b2.rating - 1500.0)) < 1e-9); /* equal players: equal and opposite */
    assert_true(a2.deviation < 350.0 && fabs(a2.deviation - b2.deviation) < 1e-9);
    pl_glicko2_game draw = {b.rating, b.deviation, 0.5};
    pl_glicko2 a3 = pl_glicko2_update(a, &draw, 1, 0.5);
    assert_true(fabs(a3.rating - 1500.0) < 1e-9);
    assert_true(fabs(pl_glicko2_expect(a, b) - 0.5) < 1e-12);
    pl_glicko2 strong = {1900.0, 50.0, 0.06}, sure = {1500.0, 50.0, 0.06};
    assert_true(pl_glicko2_expect(strong, sure) > 0.9);
    /* an opponent's uncertainty pulls the expectation towards 0.5 */
    assert_true(pl_glicko2_expect(strong, a) > 0.8 && pl_glicko2_expect(strong, a) < pl_glicko2_expect(strong, sure));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_glicko2_paper_example),
        cmocka_unit_test(test_glicko2_no_games_only_deviation_grows),
        cmocka_unit_test(test_glicko2_direction_and_symmetry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
