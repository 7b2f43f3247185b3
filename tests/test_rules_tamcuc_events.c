/* test_rules_tamcuc_events.c — Tam Cúc's events (pl_game.events, docs/
 * web-views.md "tamcuc", "Events") and action fields for scripted positions,
 * golden: what each viewer is told of a deal, a night pass, a declaration
 * and its payment, a lead and a lay (face down: the cards for their owner
 * only), the lead shown, a reveal and a hide, a trick won (an extra trick),
 * kết and overtake, a deal's score lines and the game's end; and that
 * describe is the words of the same events. */
#include <stdio.h>
#include <string.h>

#include "tamcuc_util.h"

#define DFOUR "deal=rG,rA,rE,rC,rN,rH,bS,rS/bS,bS,bS,bS,bG,bA,bE,bC/rS,rS,rS,rS,rA,rE,rC,rN/bA,bE,bC,bN,bH,rH,bN,bH"
#define DFIVE "deal=rG,rA,rE,rC,rN,rH,bC,bN/bG,bA,bE,bC,bN,bH,rA,rE/bS,bS,bS,bS,bS,rC,rN,rH/rS,rS,rS,rS,rS,bA,bE,bH"

static char told_events[TC_MAXP + 1][4096];
static char told_words[TC_MAXP + 1][2048];

/* Plays `text` for `seat` (-2: the sole actor) and keeps, for every viewer
 * (index viewer + 1), the events (pl_events_json) and describe's words;
 * checks on the way that describe is worded from the same events. */
static void play(pl_match *m, int seat, const char *text)
{
    void *before = pl_malloc(m->game->state_size);
    assert_non_null(before);
    pl_state_copy(m->game, before, m->state);
    if (seat == -2)
        seat = pl_sole_actor(m->game, m->state);
    pl_buf e = {0};
    if (pl_match_play_text(m, seat, text, &e) < 0)
        fail_msg("%s: %s", text, pl_buf_str(&e));
    pl_action a = m->hist[m->nhist - 1].a;
    for (int v = -1; v < S(m)->np; v++) {
        pl_buf b = {0}, w = {0};
        assert_int_equal(pl_events_json(m->game, before, seat, a, m->state, v, &b, &e), 0);
        m->game->describe(before, seat, a, m->state, v, &w);
        snprintf(told_events[v + 1], sizeof told_events[v + 1], "%s", pl_buf_str(&b));
        snprintf(told_words[v + 1], sizeof told_words[v + 1], "%s", pl_buf_str(&w));
        pl_buf_free(&b);
        pl_buf_free(&w);
    }
    pl_buf_free(&e);
    pl_free(before);
}

static const char *ev(int viewer) { return told_events[viewer + 1]; }
static const char *said(int viewer) { return told_words[viewer + 1]; }

/* The fields (pl_action_fields_json) of the actor's legal action `text`. */
static const char *fields(pl_match *m, int seat, const char *text)
{
    static char out[1024];
    pl_buf b = {0}, e = {0};
    pl_action a;
    if (seat == -2)
        seat = pl_sole_actor(m->game, m->state);
    assert_int_equal(pl_parse_legal(m->game, m->state, seat, text, &a, &e), 0);
    assert_int_equal(pl_action_fields_json(m->game, m->state, seat, a, &b, &e), 0);
    snprintf(out, sizeof out, "%s", pl_buf_str(&b));
    pl_buf_free(&b);
    pl_buf_free(&e);
    return out;
}

/* What `viewer` was told of the last action played: events and words. */
static void expect(int viewer, const char *events, const char *words)
{
    assert_string_equal(ev(viewer), events);
    assert_string_equal(said(viewer), words);
}

static void test_TC_R4_3_deal_tells_each_seat_its_own_hand(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 first_dealer=random soldier_special=none " D4);
    play(m, PL_CHANCE, "dealer 2");
    expect(-1, "[{\"seat\":2,\"type\":\"dealer\"},{\"deal\":1,\"dealer\":2,\"hands\":[[\"rG\",\"rA\",\"rE\",\"rC"
        "\",\"rN\",\"rH\",\"bS\",\"bS\"],[\"bG\",\"bA\",\"bE\",\"bC\",\"bN\",\"bH\",\"rS\",\"rS\"],[\"rA"
        "\",\"rE\",\"rC\",\"rN\",\"rH\",\"rS\",\"rS\",\"rS\"],[\"bA\",\"bE\",\"bC\",\"bN\",\"bH\",\"bS\","
        "\"bS\",\"bS\"]],\"sizes\":[8,8,8,8],\"type\":\"deal\"}]",
        "");
    expect(0, "[{\"seat\":2,\"type\":\"dealer\"},{\"deal\":1,\"dealer\":2,\"hand\":[\"rG\",\"rA\",\"rE\",\"rC\""
        ",\"rN\",\"rH\",\"bS\",\"bS\"],\"sizes\":[8,8,8,8],\"type\":\"deal\"}]",
        "");
    expect(3, "[{\"seat\":2,\"type\":\"dealer\"},{\"deal\":1,\"dealer\":2,\"hand\":[\"bA\",\"bE\",\"bC\",\"bN\""
        ",\"bH\",\"bS\",\"bS\",\"bS\"],\"sizes\":[8,8,8,8],\"type\":\"deal\"}]",
        "");
    pl_match_free(m);
}

static void test_TC_R4_1_counting_told_to_all(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 soldier_special=none " D4);
    play(m, PL_CHANCE, "count 0 bS rG bA rS");
    /* TC-R4.1: the 21st name, S, falls on seat 1's bS; the fixed deal follows */
    expect(2, "[{\"cards\":[\"bS\",\"rG\",\"bA\",\"rS\"],\"dealer\":1,\"provisional\":0,\"steps\":21,"
              "\"type\":\"counting\"},{\"deal\":1,\"dealer\":1,\"hand\":[\"rA\",\"rE\",\"rC\",\"rN\",\"rH\","
              "\"rS\",\"rS\",\"rS\"],\"sizes\":[8,8,8,8],\"type\":\"deal\"}]",
           "");
    pl_match_free(m);
}

static void test_TC_R6_lead_lay_reveal_hide_and_trick(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none first_trick_ban=none " D4);
    assert_string_equal(fields(m, -2, "lead bS"),
        "{\"cards\":[\"bS\"],\"count\":1,\"extra\":false,\"face\":\"down\",\"set\":\"single\",\"verb\":\"lead\"}");
    play(m, -2, "lead bS");
    expect(-1, "[{\"cards\":[\"bS\"],\"count\":1,\"extra\":false,\"face\":\"down\",\"seat\":0,\"set\":\"single\",\"type\":\"lead\"}]",
        "");
    expect(0, "[{\"cards\":[\"bS\"],\"count\":1,\"extra\":false,\"face\":\"down\",\"seat\":0,\"set\":\"single\",\"type\":\"lead\"}]",
        "");
    expect(1, "[{\"cards\":null,\"count\":1,\"extra\":false,\"face\":\"down\",\"seat\":0,\"set\":\"single\",\"type\":\"lead\"}]",
        "");
    play(m, -2, "lay rS");
    assert_string_equal(fields(m, -2, "lay rC"),
        "{\"cards\":[\"rC\"],\"count\":1,\"face\":\"down\",\"verb\":\"lay\"}");
    play(m, -2, "lay rC");
    play(m, -2, "lay bA");
    expect(0, "[{\"cards\":null,\"count\":1,\"face\":\"down\",\"seat\":3,\"type\":\"lay\"},{\"cards\":[\"bS\"],"
        "\"count\":1,\"seat\":0,\"type\":\"shown\"}]",
        "");
    expect(3, "[{\"cards\":[\"bA\"],\"count\":1,\"face\":\"down\",\"seat\":3,\"type\":\"lay\"},{\"cards\":[\"bS"
        "\"],\"count\":1,\"seat\":0,\"type\":\"shown\"}]",
        "");
    assert_string_equal(fields(m, -2, "reveal"),
        "{\"cards\":[\"rS\"],\"count\":1,\"face\":\"up\",\"verb\":\"reveal\"}");
    assert_string_equal(fields(m, -2, "hide"),
        "{\"cards\":[\"rS\"],\"count\":1,\"face\":\"down\",\"verb\":\"hide\"}");
    play(m, -2, "reveal");
    expect(2, "[{\"cards\":[\"rS\"],\"count\":1,\"face\":\"up\",\"seat\":1,\"type\":\"reveal\"}]",
        "");
    play(m, -2, "reveal");
    play(m, -2, "hide");
    expect(2, "[{\"cards\":null,\"count\":1,\"face\":\"down\",\"seat\":3,\"type\":\"hide\"},{\"cards\":[\"rC\"]"
        ",\"count\":1,\"extra\":false,\"last\":false,\"leader\":0,\"type\":\"trick\",\"winner\":2}]",
        "You won the trick with rC.");
    expect(3, "[{\"cards\":[\"bA\"],\"count\":1,\"face\":\"down\",\"seat\":3,\"type\":\"hide\"},{\"cards\":[\"r"
        "C\"],\"count\":1,\"extra\":false,\"last\":false,\"leader\":0,\"type\":\"trick\",\"winner\":2}]",
        "Seat 3 won the trick with rC.");
    pl_match_free(m);
}

static void test_TC_R4_4_night_pass_and_exchange(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none night_exchange=2 " D4);
    assert_string_equal(fields(m, 2, "pass rS rS"),
        "{\"cards\":[\"rS\",\"rS\"],\"count\":2,\"to\":3,\"verb\":\"pass\"}");
    play(m, 2, "pass rS rS");
    expect(-1, "[{\"cards\":[\"rS\",\"rS\"],\"count\":2,\"seat\":2,\"to\":3,\"type\":\"pass\"}]",
        "");
    expect(0, "[{\"cards\":null,\"count\":2,\"seat\":2,\"to\":3,\"type\":\"pass\"}]",
        "");
    expect(2, "[{\"cards\":[\"rS\",\"rS\"],\"count\":2,\"seat\":2,\"to\":3,\"type\":\"pass\"}]",
        "");
    play(m, 0, "pass rG rA");
    play(m, 1, "pass bG bA");
    play(m, 3, "pass bS bS");
    expect(-1, "[{\"cards\":[\"bS\",\"bS\"],\"count\":2,\"seat\":3,\"to\":0,\"type\":\"pass\"},{\"count\":2,\"re"
        "ceived\":null,\"type\":\"exchange\"}]",
        "");
    expect(1, "[{\"cards\":null,\"count\":2,\"seat\":3,\"to\":0,\"type\":\"pass\"},{\"count\":2,\"received\":["
        "\"rG\",\"rA\"],\"type\":\"exchange\"}]",
        "");
    pl_match_free(m);
}

static void test_TC_R5_declarations_extra_trick_and_payments(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 " DFOUR);
    th_script(m, "nodeclare; nodeclare; nodeclare; nodeclare; nodeclare");
    assert_string_equal(fields(m, -2, "declare four"),
        "{\"colour\":\"black\",\"counter\":false,\"size\":\"four\",\"verb\":\"declare\"}");
    play(m, -2, "declare four");
    expect(0, "[{\"colour\":\"black\",\"counter\":false,\"seat\":1,\"size\":\"four\",\"type\":\"declare\"}]",
        "");
    th_script(m, "lead bS bS bS bS; lay rS rS rS rS; lay bA bE bC bN; lay rG rA rE rC; reveal; hide");
    play(m, -2, "hide");
    expect(-1, "[{\"cards\":[\"rG\",\"rA\",\"rE\",\"rC\"],\"count\":4,\"face\":\"down\",\"seat\":0,\"type\":\"hi"
        "de\"},{\"cards\":[\"rS\",\"rS\",\"rS\",\"rS\"],\"count\":4,\"extra\":true,\"last\":false,\"leade"
        "r\":1,\"type\":\"trick\",\"winner\":2}]",
        "Seat 3 won the extra trick with rS rS rS rS.");
    expect(0, "[{\"cards\":[\"rG\",\"rA\",\"rE\",\"rC\"],\"count\":4,\"face\":\"down\",\"seat\":0,\"type\":\"hi"
        "de\"},{\"cards\":[\"rS\",\"rS\",\"rS\",\"rS\"],\"count\":4,\"extra\":true,\"last\":false,\"leade"
        "r\":1,\"type\":\"trick\",\"winner\":2}]",
        "Seat 3 won the extra trick with rS rS rS rS.");
    expect(2, "[{\"cards\":null,\"count\":4,\"face\":\"down\",\"seat\":0,\"type\":\"hide\"},{\"cards\":[\"rS\","
        "\"rS\",\"rS\",\"rS\"],\"count\":4,\"extra\":true,\"last\":false,\"leader\":1,\"type\":\"trick\","
        "\"winner\":2}]",
        "You won the extra trick with rS rS rS rS.");
    pl_match_free(m);
    m = th_new("tamcuc", "seed=1 dealer=1 soldier_special=autowin " DFIVE);
    th_script(m, "nodeclare; declare five");
    assert_string_equal(fields(m, -2, "declare five"),
        "{\"colour\":\"red\",\"counter\":true,\"size\":\"five\",\"verb\":\"declare\"}");
    assert_string_equal(fields(m, -2, "nodeclare"),
        "{\"counter\":true,\"size\":\"five\",\"verb\":\"nodeclare\"}");
    play(m, -2, "declare five");
    expect(0, "[{\"colour\":\"red\",\"counter\":true,\"seat\":3,\"size\":\"five\",\"type\":\"declare\"},{\"each"
        "\":3,\"seat\":3,\"size\":\"five\",\"type\":\"paid\"},{\"autowin\":true,\"deal\":1,\"lines\":[{\""
        "payments\":-3,\"score\":-3,\"seat\":0},{\"payments\":-3,\"score\":-3,\"seat\":1},{\"payments\":-"
        "3,\"score\":-3,\"seat\":2},{\"payments\":9,\"score\":9,\"seat\":3}],\"totals\":[-3,-3,-3,9],\"ty"
        "pe\":\"deal_end\"},{\"totals\":[-3,-3,-3,9],\"type\":\"game_end\",\"winners\":[3]}]",
        "Deal 1 scores: you payments -3, deal -3; seat 2 payments -3, deal -3; seat 3 payments -3, deal -"
        "3; seat 4 payments +9, deal +9.");
    pl_match_free(m);
}

static void test_TC_R8_ket_overtake_deal_end(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none");
    const char *h4[4] = {"bS bS", "bC rS", "bN bH", "rC bA"};
    const char *w4[4] = {"rG rA", "bG", "rE rN rH", "-"};
    endgame(m, h4, w4, 0);
    th_script(m, "lead bS bS; lay bC rS; lay bN bH; lay rC bA; hide; hide");
    play(m, -2, "hide");
    expect(0, "[{\"cards\":null,\"count\":2,\"face\":\"down\",\"seat\":3,\"type\":\"hide\"},{\"cards\":[\"bS\","
        "\"bS\"],\"count\":2,\"extra\":false,\"last\":true,\"leader\":0,\"type\":\"trick\",\"winner\":0},"
        "{\"each\":3,\"seat\":0,\"type\":\"ket\"},{\"autowin\":false,\"deal\":1,\"lines\":[{\"base\":2,\""
        "payments\":9,\"score\":11,\"seat\":0,\"won\":4},{\"base\":-1,\"payments\":-3,\"score\":-4,\"seat"
        "\":1,\"won\":1},{\"base\":1,\"payments\":-3,\"score\":-2,\"seat\":2,\"won\":3},{\"base\":-2,\"pa"
        "yments\":-3,\"score\":-5,\"seat\":3,\"won\":0}],\"totals\":[11,-4,-2,-5],\"type\":\"deal_end\"},"
        "{\"totals\":[11,-4,-2,-5],\"type\":\"game_end\",\"winners\":[0]}]",
        "You won the trick with bS bS. Deal 1 scores: you 4 cards won, base +2, payments +9, deal +11; se"
        "at 2 1 card won, base -1, payments -3, deal -4; seat 3 3 cards won, base +1, payments -3, deal -"
        "2; seat 4 0 cards won, base -2, payments -3, deal -5.");
    pl_match_free(m);
    const char *w[4] = {"-", "-", "-", "-"};
    m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none overtake_payee=all_others session_end=deals:2");
    const char *h[4] = {"bS bS", "bH bN", "rS rS", "bC bH"};
    endgame(m, h, w, 0);
    th_script(m, "lead bS bS; lay bH bN; lay rS rS; lay bC bH; hide; reveal");
    play(m, -2, "hide");
    expect(1, "[{\"cards\":null,\"count\":2,\"face\":\"down\",\"seat\":3,\"type\":\"hide\"},{\"cards\":[\"rS\","
        "\"rS\"],\"count\":2,\"extra\":false,\"last\":true,\"leader\":0,\"type\":\"trick\",\"winner\":2},"
        "{\"each\":3,\"seat\":0,\"to\":[1,2,3],\"type\":\"overtake\"},{\"autowin\":false,\"deal\":1,\"lin"
        "es\":[{\"base\":-2,\"payments\":-9,\"score\":-11,\"seat\":0,\"won\":0},{\"base\":-2,\"payments\""
        ":3,\"score\":1,\"seat\":1,\"won\":0},{\"base\":0,\"payments\":3,\"score\":3,\"seat\":2,\"won\":2"
        "},{\"base\":-2,\"payments\":3,\"score\":1,\"seat\":3,\"won\":0}],\"totals\":[-11,1,3,1],\"type\""
        ":\"deal_end\"}]",
        "Seat 3 won the trick with rS rS. Deal 1 scores: seat 1 0 cards won, base -2, payments -9, deal -"
        "11; you 0 cards won, base -2, payments +3, deal +1; seat 3 2 cards won, base +0, payments +3, de"
        "al +3; seat 4 0 cards won, base -2, payments +3, deal +1.");
    pl_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_TC_R4_1_counting_told_to_all),
        cmocka_unit_test(test_TC_R4_3_deal_tells_each_seat_its_own_hand),
        cmocka_unit_test(test_TC_R4_4_night_pass_and_exchange),
        cmocka_unit_test(test_TC_R5_declarations_extra_trick_and_payments),
        cmocka_unit_test(test_TC_R6_lead_lay_reveal_hide_and_trick),
        cmocka_unit_test(test_TC_R8_ket_overtake_deal_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
