/* test_rules_karuta_options.c — the optional karuta rules: uta 2 v 2
 * partnership (teams=2v2, KA-U6), the "name the poet" answer mode
 * (answer=poet, KA-U4) and kyōgi rearranging (rearrange=on, KA-R15); each
 * option's validation and its round trip through records and position text.
 * The small uta deal: hands 1-5, 6-10, 11-15, 16-20 (pool=auto puts 1 6 11 16
 * in the pool). */
#include <stdlib.h>

#include "karuta_helpers.h"

#include "parlour/record.h"

#define SMALL "variant=uta pool=auto seed=1 deal=1;2;3;4;5/6;7;8;9;10/11;12;13;14;15/16;17;18;19;20"

/* Plays `text` for `seat` through the match (so that it is in the record). */
static void play(pl_match *m, int seat, const char *text)
{
    pl_buf err = {0};
    if (pl_match_play_text(m, seat, text, &err) < 0)
        fail_msg("seat %d '%s': %s", seat, text, pl_buf_str(&err));
    pl_buf_free(&err);
}

static void reading(pl_match *m, int card, const char *a, const char *b, const char *c, const char *d)
{
    const char *r[4] = {a, b, c, d};
    char t[32];
    snprintf(t, sizeof t, "read %d", card);
    play(m, PL_CHANCE, t);
    for (int p = 0; p < 4; p++)
        play(m, p, r[p]);
}

static void hands(pl_match *m, int a, int b, int c, int d)
{
    assert_int_equal(KS(m)->count[0], a);
    assert_int_equal(KS(m)->count[1], b);
    assert_int_equal(KS(m)->count[2], c);
    assert_int_equal(KS(m)->count[3], d);
}
/* The record of `m` reads back into the same state, and its position text
 * reads back (into a fresh state of the same options) byte for byte. */
static void round_trips(pl_match *m)
{
    pl_buf rec = {0}, rec2 = {0}, err = {0}, t1 = {0}, t2 = {0};
    assert_int_equal(pl_record_write(m, &rec), 0);
    pl_match *back = pl_record_read(pl_buf_str(&rec), &err);
    if (!back)
        fail_msg("record: %s", pl_buf_str(&err));
    assert_int_equal(pl_record_write(back, &rec2), 0);
    assert_string_equal(pl_buf_str(&rec), pl_buf_str(&rec2));
    assert_memory_equal(m->state, back->state, sizeof(kar_state));
    m->game->to_text(m->state, &t1);
    kar_state *s = malloc(sizeof *s);
    memcpy(s, m->initial, sizeof *s);
    if (m->game->from_text(s, pl_buf_str(&t1), &err) < 0)
        fail_msg("from_text: %s", pl_buf_str(&err));
    m->game->to_text(s, &t2);
    assert_string_equal(pl_buf_str(&t1), pl_buf_str(&t2));
    assert_memory_equal(m->state, s, sizeof(kar_state));
    free(s);
    pl_match_free(back);
    pl_buf_free(&rec);
    pl_buf_free(&rec2);
    pl_buf_free(&err);
    pl_buf_free(&t1);
    pl_buf_free(&t2);
}

/* ---- KA-U6: 2 v 2 ------------------------------------------------------- */

static void test_KA_U6_teams_option_validated(void **st)
{
    (void)st;
    th_options_refused("karuta", "teams=2v2", "variant=uta");
    th_options_refused("karuta", "variant=chirashi teams=2v2", "variant=uta");
    th_options_refused("karuta", "variant=uta teams=3v1", "teams");
    pl_match *m = th_new("karuta", SMALL " teams=2v2");
    assert_int_equal(m->game->team_of(m->state, 0), 0);
    assert_int_equal(m->game->team_of(m->state, 1), 1);
    assert_int_equal(m->game->team_of(m->state, 2), 0);
    assert_int_equal(m->game->team_of(m->state, 3), 1);
    pl_buf v = {0};
    m->game->view(m->state, 0, &v);
    assert_non_null(strstr(pl_buf_str(&v), "teams 0+2 1+3\n"));
    pl_buf_free(&v);
    pl_match_free(m);
    m = th_new("karuta", SMALL);
    assert_int_equal(m->game->team_of(m->state, 2), 2);
    pl_match_free(m);
}

static void test_KA_U6_gift_to_other_team(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL " teams=2v2");
    /* seat 1 (team 1) answers seat 0's card after the window: seat 0 receives 2 */
    reading(m, 2, "none", "touch 2@3100", "none", "none");
    assert_int_equal(KS(m)->last.taker, 1);
    hands(m, 5, 2, 4, 4);
    /* a wrong answer by an opponent still receives 1 from the owner */
    reading(m, 13, "none", "touch 3@3200", "none", "none");
    assert_int_equal(KS(m)->last.fouls[1], 1);
    hands(m, 5, 3, 3, 4);
    round_trips(m);
    pl_match_free(m);
}

static void test_KA_U6_no_gift_between_partners(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL " teams=2v2");
    /* seat 2 answers its partner seat 0's card: the card just leaves play */
    reading(m, 2, "none", "none", "touch 2@3100", "none");
    assert_int_equal(KS(m)->last.taker, 2);
    assert_int_equal(KS(m)->loc[2], KAR_LOC_OUT);
    hands(m, 3, 4, 4, 4);
    assert_int_equal(KS(m)->last.moved, 0);
    /* a wrong answer by a partner costs nothing either */
    reading(m, 3, "none", "none", "touch 4@3200", "none");
    assert_int_equal(KS(m)->last.fouls[2], 1);
    hands(m, 3, 4, 4, 4);
    /* the partner still waits out the owner's window (KA-U4) */
    reading(m, 4, "none", "none", "touch 4@1000", "none");
    assert_int_equal(KS(m)->last.taker, -1);
    pl_match_free(m);
    /* without teams the same answer is a gift of 2 (today's game) */
    m = th_new("karuta", SMALL);
    reading(m, 2, "none", "none", "touch 2@3100", "none");
    hands(m, 5, 4, 2, 4);
    pl_match_free(m);
}

static void test_KA_U6_team_wins(void **st)
{
    (void)st;
    /* seat 2 empties his hand: team 0 (seats 0 and 2) wins */
    pl_match *m = th_new("karuta", "variant=uta pool=auto teams=2v2 seed=1 deal=1;2;3/6;7;8/11;12/16;17;18");
    reading(m, 12, "none", "none", "touch 12@100", "none");
    assert_int_equal(m->game->phase(m->state), PL_PHASE_OVER);
    pl_outcome o;
    m->game->outcome(m->state, &o);
    assert_int_equal(o.kind, PL_WIN_TEAM);
    assert_int_equal(o.winner, 0);
    assert_true(o.utility[0] == 1 && o.utility[2] == 1 && o.utility[1] == 0 && o.utility[3] == 0);
    pl_buf v = {0};
    m->game->view(m->state, 1, &v);
    assert_non_null(strstr(pl_buf_str(&v), "winner team 0\n"));
    pl_buf_free(&v);
    round_trips(m);
    pl_match_free(m);
    /* all read, nobody empty: the team with fewer cards in all wins (3+2 against 3+3) */
    m = th_new("karuta", "variant=uta pool=auto teams=2v2 seed=1 deal=1;2;3;4/6;7;8;9/11;12;13/16;17;18;19");
    for (int c = 21; c <= 100; c++) {
        char t[16];
        snprintf(t, sizeof t, "read %d", c);
        kar_do(m, PL_CHANCE, t);
    }
    for (int c = 1; c <= 20; c++) {
        char t[16];
        snprintf(t, sizeof t, "read %d", c);
        kar_do(m, PL_CHANCE, t);
        if (KS(m)->stage == KAR_ST_TOUCH)
            for (int p = 0; p < 4; p++)
                kar_do(m, p, "none");
    }
    assert_int_equal(m->game->phase(m->state), PL_PHASE_OVER);
    m->game->outcome(m->state, &o);
    assert_int_equal(o.kind, PL_WIN_TEAM);
    assert_int_equal(o.winner, 0);
    pl_match_free(m);
}

/* ---- KA-U4: name the poet ---------------------------------------------- */

static void test_KA_U4_poet_option_validated(void **st)
{
    (void)st;
    th_options_refused("karuta", "answer=poet", "variant=uta");
    th_options_refused("karuta", "variant=chirashi answer=poet", "variant=uta");
    th_options_refused("karuta", "variant=uta answer=author", "answer");
    pl_match *m = th_new("karuta", SMALL " answer=poet");
    play(m, PL_CHANCE, "read 2");
    pl_buf err = {0};
    /* an answer without the poet is refused as input, as is a bad poet number */
    assert_int_equal(pl_match_play_text(m, 0, "touch 2@100", &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "poet"));
    pl_buf_clear(&err);
    assert_int_equal(pl_match_play_text(m, 0, "touch 2@100 poet 101", &err), -1);
    pl_buf_clear(&err);
    assert_int_equal(pl_match_play_text(m, 0, "touch 2@100 poet", &err), -1);
    pl_buf_free(&err);
    pl_match_free(m);
    /* today's game (answer=card) takes no poet */
    m = th_new("karuta", SMALL);
    play(m, PL_CHANCE, "read 2");
    assert_int_equal(pl_match_play_text(m, 0, "touch 2@100 poet 2", &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "answer=poet"));
    pl_buf_free(&err);
    pl_match_free(m);
}

static void test_KA_U4_poet_named_right_and_wrong(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL " answer=poet");
    /* the owner names the right card and its poet: the card leaves play */
    reading(m, 2, "touch 2@2000 poet 2", "none", "none", "none");
    assert_int_equal(KS(m)->last.taker, 0);
    hands(m, 3, 4, 4, 4);
    /* notation round trip */
    pl_action a;
    pl_buf t = {0}, err = {0};
    assert_int_equal(m->game->parse_action(m->state, 0, "touch 3@1500 poet 7", &a, &err), 0);
    assert_int_equal(KAR_POET_OF(a), 7);
    m->game->format_action(m->state, 0, a, &t);
    assert_string_equal(pl_buf_str(&t), "touch 3@1500 poet 7");
    pl_buf_free(&t);
    pl_buf_free(&err);
    /* the right card with a wrong poet is a wrong answer: the owner's window
     * ends, and a non-owner's right answer then takes it with the gift */
    reading(m, 3, "touch 3@1000 poet 4", "none", "touch 3@1500 poet 3", "none");
    assert_int_equal(KS(m)->last.fouls[0], 1);
    assert_int_equal(KS(m)->last.taker, 2);
    hands(m, 4, 4, 2, 4);
    /* a non-owner's wrong poet: a wrong answer, which receives 1 from the owner */
    reading(m, 7, "none", "none", "none", "touch 7@3500 poet 8");
    assert_int_equal(KS(m)->last.fouls[3], 1);
    assert_int_equal(KS(m)->last.taker, -1);
    hands(m, 4, 3, 2, 5);
    pl_buf v = {0};
    m->game->view(m->state, 1, &v);
    assert_non_null(strstr(pl_buf_str(&v), "answer poet\n"));
    assert_non_null(strstr(pl_buf_str(&v), "touch 7@3500 poet 8"));
    pl_buf_free(&v);
    round_trips(m);
    /* legal lists answers naming the touched card's poet; the bot names one too */
    play(m, PL_CHANCE, "read 8");
    pl_action acts[PL_MAX_ACTIONS];
    int n = m->game->legal(m->state, 1, acts, PL_MAX_ACTIONS);
    assert_true(n > 1);
    for (int i = 1; i < n; i++)
        assert_int_equal(KAR_POET_OF(acts[i]), acts[i] & 0x7f);
    for (int p = 0; p < 4; p++) {
        pl_buf e = {0};
        assert_int_equal(kar_bot(m->state, p, "expert", 7, &a, &e), 0);
        assert_true(a == KAR_A_NONE || KAR_POET_OF(a) == (int)(a & 0x7f));
        pl_buf_free(&e);
    }
    pl_match_free(m);
}

/* ---- KA-R15: rearranging ------------------------------------------------- */

#define KYOGI "rearrange=on seed=1 deal=1@1,1;2@1,10;3@2,1;4@2,10;5@3,1;6@3,10;7@1,2/" \
              "11@1,1;12@1,10;13@2,1;14@2,10;15@3,1;16@3,10;17@1,2"

static void test_KA_R15_rearrange_between_readings(void **st)
{
    (void)st;
    th_options_refused("karuta", "variant=uta rearrange=on", "variant=kyogi");
    th_options_refused("karuta", "rearrange=yes", "rearrange");
    /* off (today's game): the next reading follows at once */
    pl_match *m = th_new("karuta", "seed=1 deal=1;2;3;4;5;6;7/11;12;13;14;15;16;17");
    play(m, PL_CHANCE, "read 50");
    play(m, 0, "none");
    play(m, 1, "none");
    assert_int_equal(KS(m)->stage, KAR_ST_READ);
    pl_match_free(m);

    m = th_new("karuta", KYOGI);
    assert_int_equal(KS(m)->stage, KAR_ST_READ); /* between readings only */
    play(m, PL_CHANCE, "read 50");
    play(m, 0, "none");
    play(m, 1, "none");
    assert_int_equal(KS(m)->stage, KAR_ST_ARRANGE);
    int seats[PL_MAX_SEATS];
    assert_int_equal(m->game->actors(m->state, seats), 2);
    pl_buf v = {0};
    m->game->view(m->state, 1, &v);
    assert_non_null(strstr(pl_buf_str(&v), "rearrange on\n"));
    assert_non_null(strstr(pl_buf_str(&v), "stage arrange\n"));
    assert_non_null(strstr(pl_buf_str(&v), "pending 0 1\n"));
    pl_buf_free(&v);
    /* legal: ready first; no move that breaks the row rule (KA-R2) */
    assert_true(th_has_legal(m, 1, "ready"));
    assert_true(th_has_legal(m, 1, "arrange 11@1,3"));
    assert_false(th_has_legal(m, 1, "arrange 12@2,5"));
    pl_buf err = {0};
    assert_int_equal(pl_match_play_text(m, 1, "arrange 12@2,5", &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "KA-R2"));
    pl_buf_clear(&err);
    assert_int_equal(pl_match_play_text(m, 1, "arrange 1@2,5", &err), -1); /* not his card */
    pl_buf_clear(&err);
    assert_int_equal(pl_match_play_text(m, 1, "arrange 11@1,2", &err), -1); /* 17 lies there */
    pl_buf_clear(&err);
    /* seat 0 moves card 1 from A01 to B05: announced at once */
    play(m, 0, "arrange 1@2,5");
    assert_int_equal(KS(m)->grid[0][1][4], 1);
    assert_int_equal(KS(m)->grid[0][0][0], 0);
    assert_int_equal(KS(m)->row[1], 2);
    assert_int_equal(KS(m)->slot[1], 5);
    assert_int_equal(pl_match_play_text(m, 0, "ready", &err), -1); /* one move between readings */
    pl_buf_free(&err);
    m->game->view(m->state, 1, &v);
    assert_non_null(strstr(pl_buf_str(&v), "territory 0 7 1@2,5 "));
    assert_non_null(strstr(pl_buf_str(&v), " arranged 0 1@1,1>2,5\n"));
    pl_buf_free(&v);
    round_trips(m);
    pl_action a;
    pl_buf e = {0};
    assert_int_equal(kar_bot(m->state, 1, "expert", 3, &a, &e), 0);
    assert_true(a == KAR_A_READY);
    pl_buf_free(&e);
    play(m, 1, "ready");
    assert_int_equal(KS(m)->stage, KAR_ST_READ);
    pl_buf t = {0};
    kar_judgement_text(KS(m), &KS(m)->last, &t);
    assert_non_null(strstr(pl_buf_str(&t), "Seat 0 moved card 1 from A01 to B05."));
    pl_buf_free(&t);
    round_trips(m);
    /* the card is judged where it now lies: seat 1 takes it from seat 0's side */
    play(m, PL_CHANCE, "read 1");
    play(m, 0, "none");
    play(m, 1, "touch 1@500");
    assert_int_equal(KS(m)->last.taker, 1);
    assert_int_equal(KS(m)->stage, KAR_ST_SEND);
    play(m, 1, "send 11");
    assert_int_equal(KS(m)->stage, KAR_ST_ARRANGE);
    round_trips(m);
    pl_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_KA_U6_teams_option_validated),
        cmocka_unit_test(test_KA_U6_gift_to_other_team),
        cmocka_unit_test(test_KA_U6_no_gift_between_partners),
        cmocka_unit_test(test_KA_U6_team_wins),
        cmocka_unit_test(test_KA_U4_poet_option_validated),
        cmocka_unit_test(test_KA_U4_poet_named_right_and_wrong),
        cmocka_unit_test(test_KA_R15_rearrange_between_readings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
