/* test_rules_karuta_uta.c — uta-karuta for four, KA-U1..KA-U11.
 * The small deal: hands 1-5, 6-10, 11-15, 16-20 (pool=auto puts each
 * player's lowest, 1 6 11 16, in the pool); the other cards are out of play. */
#include "karuta_helpers.h"

#define SMALL "variant=uta pool=auto seed=1 deal=1;2;3;4;5/6;7;8;9;10/11;12;13;14;15/16;17;18;19;20"

static void reading(pl_match *m, int card, const char *a, const char *b, const char *c, const char *d)
{
    const char *r[4] = {a, b, c, d};
    kar_reading(m, card, r);
}

static void hands(pl_match *m, int a, int b, int c, int d)
{
    assert_int_equal(KS(m)->count[0], a);
    assert_int_equal(KS(m)->count[1], b);
    assert_int_equal(KS(m)->count[2], c);
    assert_int_equal(KS(m)->count[3], d);
}

static void test_KA_U1_deal_all_100(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", "variant=uta pool=auto seed=3");
    assert_int_equal(m->game->num_seats(m->state), 4);
    hands(m, 24, 24, 24, 24);
    int pool = 0;
    for (int c = 1; c <= 100; c++)
        pool += KS(m)->loc[c] == KAR_LOC_POOL;
    assert_int_equal(pool, 4);
    pl_match_free(m);
    pl_buf err = {0};
    char *bad[] = {"variant=uta", "players=3"};
    assert_null(pl_match_new(pl_game_find("karuta"), 2, bad, &err));
    pl_buf_free(&err);
}

static void test_KA_U2_pool_choice(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", "variant=uta seed=3");
    int seats[8];
    assert_int_equal(m->game->actors(m->state, seats), 4);
    pl_buf err = {0};
    for (int p = 0; p < 4; p++) {
        int c = 100;
        while (KS(m)->loc[c] != p)
            c--;
        char t[32];
        snprintf(t, sizeof t, "pool %d", c);
        assert_int_equal(pl_match_play_text(m, p, t, &err), 0);
        assert_int_equal(KS(m)->loc[c], KAR_LOC_POOL);
    }
    assert_int_equal(pl_match_play_text(m, 0, "pool 1", &err), -1);
    hands(m, 24, 24, 24, 24);
    assert_int_equal(m->game->phase(m->state), PL_PHASE_CHANCE);
    pl_buf_free(&err);
    pl_match_free(m);
}

static void test_KA_U3_all_100_read(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", "variant=uta pool=auto seed=3");
    pl_action a[PL_MAX_CHANCE];
    double p[PL_MAX_CHANCE];
    assert_int_equal(m->game->chance(m->state, a, p, PL_MAX_CHANCE), 100);
    for (int c = 1; c <= 100; c++)
        assert_true(KS(m)->loc[c] != KAR_LOC_DEAD);
    pl_match_free(m);
}

static void test_KA_U4_owner_window(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL);
    reading(m, 2, "none", "touch 2@1000", "none", "none"); /* inside the 3 s window: ignored */
    assert_int_equal(KS(m)->last.taker, -1);
    assert_int_equal(KS(m)->loc[2], 0); /* the card stays where it is */
    reading(m, 3, "none", "touch 3@3000", "none", "none"); /* after the window */
    assert_int_equal(KS(m)->last.taker, 1);
    pl_match_free(m);
}

static void test_KA_U5_owner_correct(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL);
    reading(m, 2, "touch 2@2000", "touch 2@3500", "none", "none");
    assert_int_equal(KS(m)->last.taker, 0);
    assert_int_equal(KS(m)->loc[2], KAR_LOC_OUT);
    hands(m, 3, 4, 4, 4);
    pl_match_free(m);
}

static void test_KA_U6_gift_and_wrong_answer(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL);
    reading(m, 2, "none", "none", "touch 2@3100", "none"); /* owner too slow */
    assert_int_equal(KS(m)->last.taker, 2);
    hands(m, 5, 4, 2, 4); /* seat 2 gave its lowest two, 12 and 13 */
    assert_int_equal(KS(m)->loc[12], 0);
    assert_int_equal(KS(m)->loc[13], 0);
    /* a wrong non-owner answer receives one card from the owner */
    reading(m, 7, "touch 3@3200", "none", "none", "none");
    assert_int_equal(KS(m)->last.fouls[0], 1);
    hands(m, 6, 3, 2, 4);
    pl_match_free(m);
    m = th_new("karuta", SMALL " wrong_answer=none");
    reading(m, 7, "touch 3@3200", "none", "none", "none");
    hands(m, 4, 4, 4, 4);
    pl_match_free(m);
}

static void test_KA_U7_pearl_to_left_neighbour(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL);
    reading(m, 12, "none", "none", "touch 12@900", "none"); /* 12 is worth 20, capped by the hand */
    assert_int_equal(KS(m)->last.taker, 2);
    hands(m, 4, 4, 0, 7);
    assert_int_equal(KS(m)->winner, 2);
    pl_match_free(m);
    m = th_new("karuta", SMALL);
    reading(m, 17, "none", "none", "none", "touch 17@100");
    kar_do(m, PL_CHANCE, "read 22"); /* 22 is out of play here: a void reading */
    assert_int_equal(KS(m)->stage, KAR_ST_READ);
    assert_int_equal(KS(m)->last.void_reading, 1);
    pl_match_free(m);
}

static void test_KA_U8_pool_card_discards_ten(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", "variant=uta pool=auto seed=1 deal=1;2;3;4;5/6;7;8;9;10/11;12;13;14;15/16;17;18;19;20;21;22;23;24;25;26;27;28;29;30;31;32");
    reading(m, 6, "none", "none", "none", "touch 6@200"); /* pool card: anyone, no window */
    assert_int_equal(KS(m)->last.taker, 3);
    hands(m, 4, 4, 4, 6); /* 16 cards, 10 discarded */
    int out = 0;
    for (int c = 1; c <= 100; c++)
        out += KS(m)->loc[c] == KAR_LOC_OUT;
    assert_int_equal(out, 11);
    pl_match_free(m);
}

static void test_KA_U9_zero_cards_wins_at_once(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", "variant=uta pool=auto seed=1 deal=1;2/6;7;8/11;12;13/16;17;18");
    reading(m, 2, "touch 2@100", "none", "none", "none");
    assert_int_equal(m->game->phase(m->state), PL_PHASE_OVER);
    assert_int_equal(KS(m)->winner, 0);
    pl_outcome o;
    m->game->outcome(m->state, &o);
    assert_int_equal(o.winner, 0);
    assert_int_equal(o.score[0], 0);
    pl_match_free(m);
}

static void test_KA_U10_pearl_in_pool_both_bonuses(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", "variant=uta pool=auto seed=1 "
                                   "deal=1;2;3;4;5;6;7;8;9;10;11;13;14;15;16/12;30;31/40;41;42/50;51;52");
    reading(m, 12, "touch 12@300", "none", "none", "none");
    assert_int_equal(KS(m)->last.taker, 0);
    /* 14 in hand: the pool's 10 discarded first, then the pearl moves the last 4 */
    hands(m, 0, 6, 2, 2);
    assert_int_equal(KS(m)->winner, 0);
    pl_match_free(m);
}

static void test_KA_U11_details(void **st)
{
    (void)st;
    /* equal times: seat order from the owner (seat 1 owns 7): seat 2 before seat 3 */
    pl_match *m = th_new("karuta", SMALL);
    reading(m, 7, "none", "none", "touch 7@3500", "touch 7@3500");
    assert_int_equal(KS(m)->last.taker, 2);
    pl_match_free(m);
    /* the owner's wrong answer ends his window and costs him nothing */
    m = th_new("karuta", SMALL);
    reading(m, 7, "none", "touch 3@500", "touch 7@800", "none");
    assert_int_equal(KS(m)->last.taker, 2);
    assert_int_equal(KS(m)->count[1], 4 - 1 + 2);
    pl_match_free(m);
    /* one answer each: a list of touches is refused */
    m = th_new("karuta", SMALL);
    kar_do(m, PL_CHANCE, "read 7");
    pl_buf err = {0};
    assert_int_equal(kar_try(m, 0, "touch 3@100 7@200", &err), -1);
    pl_buf_free(&err);
    pl_match_free(m);
    /* discarded cards read later: void; all read and nobody out: fewest wins */
    m = th_new("karuta", "variant=uta pool=auto seed=1 deal=1;2;3/6;7;8;9/11;12;13;14/16;17;18;19");
    for (int c = 1; c <= 100; c++) {
        if (m->game->phase(m->state) == PL_PHASE_OVER)
            break;
        char t[16];
        snprintf(t, sizeof t, "read %d", c);
        kar_do(m, PL_CHANCE, t);
        if (KS(m)->stage == KAR_ST_TOUCH)
            for (int p = 0; p < 4; p++)
                kar_do(m, p, "none");
    }
    assert_int_equal(m->game->phase(m->state), PL_PHASE_OVER);
    assert_int_equal(KS(m)->winner, 0); /* 2 cards against 3 */
    pl_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_KA_U1_deal_all_100),
        cmocka_unit_test(test_KA_U2_pool_choice),
        cmocka_unit_test(test_KA_U3_all_100_read),
        cmocka_unit_test(test_KA_U4_owner_window),
        cmocka_unit_test(test_KA_U5_owner_correct),
        cmocka_unit_test(test_KA_U6_gift_and_wrong_answer),
        cmocka_unit_test(test_KA_U7_pearl_to_left_neighbour),
        cmocka_unit_test(test_KA_U8_pool_card_discards_ten),
        cmocka_unit_test(test_KA_U9_zero_cards_wins_at_once),
        cmocka_unit_test(test_KA_U10_pearl_in_pool_both_bonuses),
        cmocka_unit_test(test_KA_U11_details),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
