/* test_rules_karuta_chirashi.c — chirashi-dori and solo practice, KA-S1..S5.
 * The small field: deal=1;2;3;4 (the other 96 are not on the field). */
#include "karuta_helpers.h"

static void test_KA_S1_players_and_field(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", "variant=chirashi players=8 seed=2");
    assert_int_equal(m->game->num_seats(m->state), 8);
    int field = 0;
    for (int c = 1; c <= 100; c++)
        field += KS(m)->loc[c] == KAR_LOC_FIELD;
    assert_int_equal(field, 100);
    assert_int_equal(KS(m)->kim.zone[5], 0); /* nobody owns the field: one zone */
    pl_match_free(m);
    m = th_new("karuta", "variant=chirashi cards=50 seed=2");
    field = 0;
    for (int c = 1; c <= 100; c++)
        field += KS(m)->loc[c] == KAR_LOC_FIELD;
    assert_int_equal(field, 50);
    pl_match_free(m);
    pl_buf err = {0};
    char *bad[] = {"variant=chirashi", "players=9"};
    assert_null(pl_match_new(pl_game_find("karuta"), 2, bad, &err));
    pl_buf_free(&err);
}

static void test_KA_S2_all_read_whole_poems(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", "variant=chirashi cards=50 seed=2");
    pl_action a[PL_MAX_CHANCE];
    double p[PL_MAX_CHANCE];
    assert_int_equal(m->game->chance(m->state, a, p, PL_MAX_CHANCE), 100);
    int dead = 1;
    while (KS(m)->loc[dead] == KAR_LOC_FIELD)
        dead++;
    char t[16];
    snprintf(t, sizeof t, "read %d", dead);
    kar_do(m, PL_CHANCE, t);
    assert_int_equal(KS(m)->stage, KAR_ST_TOUCH); /* a dead card is read too */
    pl_buf v = {0};
    m->game->view(m->state, 0, &v);
    assert_non_null(strstr(pl_buf_str(&v), "@6000")); /* the timeline runs on into the lower half */
    pl_buf_free(&v);
    pl_match_free(m);
}

static void test_KA_S3_first_touch_ties_fouls_pot(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", "variant=chirashi players=3 deal=1;2;3;4;5 seed=2");
    const char *r1[] = {"touch 1@500", "touch 1@400", "none"};
    kar_reading(m, 1, r1);
    assert_int_equal(KS(m)->last.taker, 1);
    /* ties within 10 ms: the earlier event by sequence (seat 1 answers first here) */
    kar_do(m, PL_CHANCE, "read 2");
    kar_do(m, 1, "touch 2@605");
    kar_do(m, 0, "touch 2@600");
    kar_do(m, 2, "none");
    assert_int_equal(KS(m)->last.taker, 1);
    assert_int_equal(KS(m)->count[1], 2);
    /* a foul puts one taken card in the pot; the next taker collects it */
    const char *r3[] = {"none", "touch 4@300", "none"};
    kar_reading(m, 3, r3);
    assert_int_equal(KS(m)->last.fouls[1], 1);
    assert_int_equal(KS(m)->pot, 1);
    assert_int_equal(KS(m)->count[1], 1);
    const char *r4[] = {"none", "none", "touch 4@800"};
    kar_reading(m, 4, r4);
    assert_int_equal(KS(m)->count[2], 2);
    assert_int_equal(KS(m)->pot, 0);
    pl_match_free(m);
    m = th_new("karuta", "variant=chirashi players=2 deal=1;2;3 foul=none seed=2");
    const char *r5[] = {"touch 1@300", "none"};
    kar_reading(m, 1, r5);
    const char *r6[] = {"touch 3@300", "none"};
    kar_reading(m, 2, r6);
    assert_int_equal(KS(m)->last.fouls[0], 1);
    assert_int_equal(KS(m)->count[0], 1);
    assert_int_equal(KS(m)->pot, 0);
    pl_match_free(m);
}

static void test_KA_S4_end_most_cards_ties_share(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", "variant=chirashi players=2 deal=1;2 seed=2");
    const char *a[] = {"touch 1@300", "none"}, *b[] = {"none", "touch 2@300"};
    kar_reading(m, 1, a);
    assert_int_equal(m->game->phase(m->state), PL_PHASE_CHANCE);
    kar_reading(m, 2, b);
    assert_int_equal(m->game->phase(m->state), PL_PHASE_OVER);
    pl_outcome o;
    m->game->outcome(m->state, &o);
    assert_int_equal(o.kind, PL_WIN_DRAW);
    assert_true(o.utility[0] == 0.5 && o.utility[1] == 0.5);
    pl_match_free(m);
    m = th_new("karuta", "variant=chirashi players=2 deal=1;2 seed=2");
    kar_reading(m, 1, a);
    const char *c[] = {"touch 2@300", "none"};
    kar_reading(m, 2, c);
    m->game->outcome(m->state, &o);
    assert_int_equal(o.kind, PL_WIN_SEAT);
    assert_int_equal(o.winner, 0);
    assert_int_equal(o.score[0], 2);
    pl_match_free(m);
}

static void test_KA_S5_practice_take_times(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", "variant=chirashi players=1 deal=10;20 seed=2");
    const char *a[] = {"touch 10@1234"}, *b[] = {"touch 20@987"};
    kar_reading(m, 10, a);
    kar_reading(m, 20, b);
    assert_int_equal(KS(m)->take_ms[10], 1234);
    assert_int_equal(KS(m)->take_ms[20], 987);
    assert_int_equal(m->game->phase(m->state), PL_PHASE_OVER);
    assert_int_equal(KS(m)->winner, 0);
    pl_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_KA_S1_players_and_field),
        cmocka_unit_test(test_KA_S2_all_read_whole_poems),
        cmocka_unit_test(test_KA_S3_first_touch_ties_fouls_pot),
        cmocka_unit_test(test_KA_S4_end_most_cards_ties_share),
        cmocka_unit_test(test_KA_S5_practice_take_times),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
