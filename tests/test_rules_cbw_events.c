/* test_rules_cbw_events.c — what a City Behind Walls action did, as data
 * (pl_game.events, docs/web-views.md "cbw", "Events") and the fields of a
 * legal action (pl_game.action_fields, "Action fields"): golden JSON for
 * scripted positions (a placement, a fixed edge, each captured group with
 * its cards and cells and both teams, the mover's own loss, a pass, the
 * castles and the score at the end, the opening team drawn), and `describe`
 * worded from those events. */
#include <stdio.h>
#include <string.h>

#include "cbw_util.h"

/* The events of `text` played now by whoever acts (chance too), as
 * `viewer` may know them, compact JSON with sorted keys (static buffer);
 * plays it. `told` (when not NULL) gets describe's words for the viewer. */
static const char *cbw_events_of(pl_match *m, const char *text, int viewer, char *told, size_t cap)
{
    static char out[4096];
    pl_buf b = {0}, err = {0};
    pl_action a;
    int seat = m->game->phase(m->state) == PL_PHASE_CHANCE ? PL_CHANCE : pl_sole_actor(m->game, m->state);
    if (pl_parse_legal(m->game, m->state, seat, text, &a, &err) != 0)
        fail_msg("%s: %s", text, pl_buf_str(&err));
    void *before = pl_malloc(m->game->state_size);
    assert_non_null(before);
    pl_state_copy(m->game, before, m->state);
    if (pl_match_play(m, seat, a, &err) != 0)
        fail_msg("%s: %s", text, pl_buf_str(&err));
    if (pl_events_json(m->game, before, seat, a, m->state, viewer, &b, &err) != 0)
        fail_msg("events: %s", pl_buf_str(&err));
    snprintf(out, sizeof out, "%s", pl_buf_str(&b));
    if (told) {
        pl_buf_clear(&b);
        m->game->describe(before, seat, a, m->state, viewer, &b);
        snprintf(told, cap, "%s", pl_buf_str(&b));
    }
    pl_free(before);
    pl_buf_free(&b);
    pl_buf_free(&err);
    return out;
}

/* The fields of the actor's action `text` now (static buffer); it must be legal. */
static const char *cbw_fields_of(pl_match *m, const char *text)
{
    static char out[1024];
    pl_buf b = {0}, err = {0};
    pl_action a;
    int seat = pl_sole_actor(m->game, m->state);
    if (pl_parse_legal(m->game, m->state, seat, text, &a, &err) != 0)
        fail_msg("%s: %s", text, pl_buf_str(&err));
    if (pl_action_fields_json(m->game, m->state, seat, a, &b, &err) != 0)
        fail_msg("fields: %s", pl_buf_str(&err));
    snprintf(out, sizeof out, "%s", pl_buf_str(&b));
    pl_buf_free(&b);
    pl_buf_free(&err);
    return out;
}

static void test_CBW_R18_each_captured_group_is_an_event(void **state)
{
    (void)state;
    /* Q♥ at 1,2 fixes the top and bottom edges: 9♠ (1,0) and J♣ (3,0), two
     * Black groups each living on the row below, are both captured. */
    pl_match *m = cbw_new("w=5 h=3");
    th_position(m, "turn=0 hands=QH/KS/-/- table=10D@1,1;7H@0,0;9S@1,0;8H@2,0;JC@3,0;9D@3,1;10H@4,0");
    assert_string_equal(cbw_fields_of(m, "QH@1,2"),
                        "{\"captures\":2,\"card\":\"QH\",\"loses\":0,\"move\":\"place\",\"x\":1,\"y\":2}");
    char told[512];
    const char *want = "[{\"card\":\"QH\",\"seat\":0,\"type\":\"place\",\"x\":1,\"y\":2},"
                       "{\"axis\":\"y\",\"edges\":[0,2],\"type\":\"fix\"},"
                       "{\"by\":0,\"cards\":[{\"card\":\"9S\",\"x\":1,\"y\":0}],\"lost\":1,\"seat\":0,\"type\":\"capture\"},"
                       "{\"by\":0,\"cards\":[{\"card\":\"JC\",\"x\":3,\"y\":0}],\"lost\":1,\"seat\":0,\"type\":\"capture\"}]";
    assert_string_equal(cbw_events_of(m, "QH@1,2", 1, told, sizeof told), want);
    /* describe is the words of those events */
    assert_string_equal(told, "Seat 1's Q♥ captured 9♠ and J♣: 2 prisoners for Red.");
    pl_match_free(m);
    /* One group of two cards is one event; every viewer gets the same events. */
    for (int v = -1; v < 4; v++) {
        m = cbw_new("w=5 h=3");
        th_position(m, "turn=0 hands=QH/KS/-/- table=10D@1,1;7H@0,0;9S@1,0;JC@2,0;9D@3,0;8H@2,1");
        assert_string_equal(
            cbw_events_of(m, "QH@1,2", v, told, sizeof told),
            "[{\"card\":\"QH\",\"seat\":0,\"type\":\"place\",\"x\":1,\"y\":2},{\"axis\":\"y\",\"edges\":[0,2],\"type\":\"fix\"},"
            "{\"by\":0,\"cards\":[{\"card\":\"9S\",\"x\":1,\"y\":0},{\"card\":\"JC\",\"x\":2,\"y\":0}],\"lost\":1,\"seat\":0,"
            "\"type\":\"capture\"}]");
        assert_string_equal(told, v == 0   ? "Your Q♥ captured 9♠ J♣: 2 prisoners for Red (your team)."
                                  : v == 2 ? "Seat 1's Q♥ captured 9♠ J♣: 2 prisoners for Red (your team)."
                                           : "Seat 1's Q♥ captured 9♠ J♣: 2 prisoners for Red.");
        pl_match_free(m);
    }
}

static void test_CBW_R18_a_capture_next_to_the_card(void **state)
{
    (void)state;
    /* Q♦ under 9♠ takes its last liberty; no edge is fixed (9 x 4). */
    pl_match *m = cbw_new("");
    th_position(m, "turn=0 hands=QD/KS/-/- table=JH@0,1;10H@-1,0;9S@0,0;10D@1,0");
    assert_string_equal(cbw_fields_of(m, "QD@0,-1"),
                        "{\"captures\":1,\"card\":\"QD\",\"loses\":0,\"move\":\"place\",\"x\":0,\"y\":-1}");
    assert_string_equal(cbw_fields_of(m, "QD@-2,0"),
                        "{\"captures\":0,\"card\":\"QD\",\"loses\":0,\"move\":\"place\",\"x\":-2,\"y\":0}");
    assert_string_equal(cbw_fields_of(m, "pass"), "{\"move\":\"pass\"}");
    char told[512];
    assert_string_equal(cbw_events_of(m, "QD@0,-1", 3, told, sizeof told),
                        "[{\"card\":\"QD\",\"seat\":0,\"type\":\"place\",\"x\":0,\"y\":-1},"
                        "{\"by\":0,\"cards\":[{\"card\":\"9S\",\"x\":0,\"y\":0}],\"lost\":1,\"seat\":0,\"type\":\"capture\"}]");
    assert_string_equal(told, "Seat 1's Q♦ captured 9♠: 1 prisoner for Red.");
    pl_match_free(m);
}

static void test_CBW_R18_step2_loss_is_an_event(void **state)
{
    (void)state;
    pl_match *m = cbw_new("w=5 h=3");
    th_position(m, "turn=0 hands=QD/KS/-/- table=9C@1,1;6S@0,0;7H@1,0;8S@2,0");
    assert_string_equal(cbw_fields_of(m, "QD@1,2"),
                        "{\"captures\":0,\"card\":\"QD\",\"loses\":1,\"move\":\"place\",\"x\":1,\"y\":2}");
    char told[512];
    assert_string_equal(cbw_events_of(m, "QD@1,2", 1, told, sizeof told),
                        "[{\"card\":\"QD\",\"seat\":0,\"type\":\"place\",\"x\":1,\"y\":2},"
                        "{\"axis\":\"y\",\"edges\":[0,2],\"type\":\"fix\"},"
                        "{\"by\":1,\"cards\":[{\"card\":\"7H\",\"x\":1,\"y\":0}],\"lost\":0,\"seat\":0,\"type\":\"capture\"}]");
    assert_string_equal(told, "Seat 1's Q♦ left without liberty its own 7♥: 1 prisoner for Black (your team).");
    /* a pass: its event, no words */
    assert_string_equal(cbw_events_of(m, "pass", 1, told, sizeof told), "[{\"passes\":1,\"seat\":1,\"type\":\"pass\"}]");
    assert_string_equal(told, "");
    pl_match_free(m);
}

static void test_CBW_R24_castles_and_score_at_the_end(void **state)
{
    (void)state;
    /* A ring of Red cards on a 3 x 3 Rectangle walls in 1,1; Black holds
     * 6♠ as a prisoner. The fourth pass in a row ends the game (CBW-R22). */
    pl_match *m = cbw_new("w=3 h=3");
    th_position(m, "turn=3 passes=3 hands=-/-/-/- table=6H@0,2;7D@1,2;8H@2,2;9D@0,1;10D@2,1;JH@0,0;QD@1,0;KH@2,0 "
                   "prisoners=-/6D");
    char told[512];
    assert_string_equal(cbw_events_of(m, "pass", 0, told, sizeof told),
                        "[{\"passes\":4,\"seat\":3,\"type\":\"pass\"},"
                        "{\"cells\":[{\"x\":1,\"y\":1}],\"team\":0,\"type\":\"castle\"},"
                        "{\"castles\":[1,0],\"prisoners\":[0,1],\"score\":[1,1],\"type\":\"end\",\"winner\":null}]");
    assert_string_equal(told, "");
    assert_int_equal(m->game->phase(m->state), PL_PHASE_OVER);
    pl_match_free(m);
}

static void test_CBW_R2_the_opening_team_drawn(void **state)
{
    (void)state;
    pl_match *m = cbw_new("first=random");
    assert_string_equal(cbw_events_of(m, "first black", 2, NULL, 0), "[{\"team\":1,\"type\":\"first\"}]");
    pl_match_free(m);
}

static void test_CBW_fields_of_an_action_that_is_not_playable(void **state)
{
    (void)state;
    /* action_fields is for legal actions; anything else still gets its
     * card and cell, never a read outside the table (no captures then). */
    pl_match *m = cbw_new("");
    th_position(m, "turn=0 hands=QD/KS/-/- table=JH@0,1;10H@-1,0;9S@0,0;10D@1,0");
    pl_buf b = {0}, err = {0};
    assert_int_equal(pl_action_fields_json(m->game, m->state, 0, cbw_place(cbw_card("QD"), 31, 31), &b, &err), 0);
    assert_string_equal(pl_buf_str(&b), "{\"card\":\"QD\",\"move\":\"place\",\"x\":31,\"y\":31}");
    pl_buf_clear(&b);
    assert_int_equal(pl_action_fields_json(m->game, m->state, 0, cbw_place(cbw_card("KS"), 0, -1), &b, &err), 0);
    assert_string_equal(pl_buf_str(&b), "{\"card\":\"KS\",\"move\":\"place\",\"x\":0,\"y\":-1}");
    pl_buf_clear(&b);
    assert_int_equal(pl_action_fields_json(m->game, m->state, 0, cbw_place(cbw_card("QD"), 0, 0), &b, &err), 0);
    assert_string_equal(pl_buf_str(&b), "{\"card\":\"QD\",\"move\":\"place\",\"x\":0,\"y\":0}");
    pl_buf_free(&b);
    pl_buf_free(&err);
    pl_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_CBW_R18_each_captured_group_is_an_event),
        cmocka_unit_test(test_CBW_R18_a_capture_next_to_the_card),
        cmocka_unit_test(test_CBW_R18_step2_loss_is_an_event),
        cmocka_unit_test(test_CBW_R24_castles_and_score_at_the_end),
        cmocka_unit_test(test_CBW_R2_the_opening_team_drawn),
        cmocka_unit_test(test_CBW_fields_of_an_action_that_is_not_playable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
