/* test_unit_hardening.c — regression tests for what the fuzz campaigns
 * found (docs/reliability.md), and the failure paths of every public entry
 * point that allocates: each allocation made to fail in turn must give an
 * error, no leak (the debug preset's leak checker) and no half-changed
 * state; bad records are rejected with a message naming the line or action. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "games/tamcuc/tc.h"
#include "parlour/alloc.h"
#include "parlour/proto.h"
#include "parlour/record.h"

/* ---- regressions from fuzzing ---------------------------------------- */

/* fuzz_play_tamcuc: pl_match_play took any code as a chance outcome when the
 * outcomes are too many to list (the deal), so a deal giving seat 1 seven
 * cards was applied and its record could not be read back. Also kept as
 * tests/fuzz/corpus/play_tamcuc/regress_impossible_deal. */
static void test_regress_play_refuses_impossible_deal(void **s)
{
    (void)s;
    pl_match *m = th_new("tamcuc", "players=4 seed=3 first_dealer=random");
    pl_buf err = {0};
    while (((const tc_state *)m->state)->phase != TC_PH_DEAL)
        assert_int_equal(pl_match_random(m, NULL, &err), 0);
    const tc_state *st = m->state;
    tc_cards h[TC_MAXP], removed;
    pl_rng r;
    pl_rng_seed(&r, 1);
    tc_decode_deal(st, m->game->sample_chance(st, &r), h, &removed);
    int k = 0;
    while (!TC_NIB(h[1], k))
        k++;
    h[1] -= TC_ONE(k); /* seat 1 short of a card, seat 0 one too many */
    h[0] += TC_ONE(k);
    pl_action bad = tc_encode_deal(st, h);
    void *before = pl_malloc(m->game->state_size);
    assert_non_null(before);
    memcpy(before, m->state, m->game->state_size);
    int nh = m->nhist;
    assert_int_equal(pl_match_play(m, PL_CHANCE, bad, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "not a possible chance outcome"));
    assert_int_equal(m->nhist, nh);
    assert_memory_equal(before, m->state, m->game->state_size);
    pl_free(before);
    pl_buf_free(&err);
    pl_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regress_play_refuses_impossible_deal),
    };
    return cmocka_run_group_tests_name("unit_hardening", tests, NULL, NULL);
}
