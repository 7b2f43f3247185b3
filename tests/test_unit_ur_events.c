/* test_unit_ur_events.c — what an Ur action did, as data (issue 30, part 4;
 * docs/web-views.md, `ur`, "Events" and "Action fields"): the events of
 * scripted positions (golden JSON: a throw of each kind of dice, the
 * starter drawn, entering, a capture, a flip, a rosette's extra throw, a
 * bear-off, a pass), the same for every viewer, and the fields of legal and
 * illegal actions. The random games are test_property_ur_events.c.
 * Positions: ur_text.c's position text (docs/notation-ur.md). */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "helpers.h"
#include "games/ur/ur.h"

static pl_match *start_at(const char *opts, const char *position)
{
    pl_match *m = th_new("ur", opts);
    if (position)
        th_position(m, position);
    return m;
}

/* The seat that acts now: PL_CHANCE in a chance phase. */
static int actor(pl_match *m)
{
    return m->game->phase(m->state) == PL_PHASE_CHANCE ? PL_CHANCE : pl_sole_actor(m->game, m->state);
}

static pl_action parse(pl_match *m, int seat, const char *text)
{
    pl_action a;
    pl_buf err = {0};
    if (m->game->parse_action(m->state, seat, text, &a, &err) < 0)
        fail_msg("'%s': %s", text, pl_buf_str(&err));
    pl_buf_free(&err);
    return a;
}

/* Plays `text` and returns its events as viewer -1 sees them (compact JSON,
 * keys sorted), checking that seats 0 and 1 get the same. */
static const char *play_events(pl_match *m, const char *text)
{
    static char out[2048];
    int seat = actor(m);
    pl_action a = parse(m, seat, text);
    ur_state before = *(const ur_state *)m->state;
    th_play(m, text);
    pl_buf b[3] = {{0}, {0}, {0}}, err = {0};
    for (int v = -1; v <= 1; v++)
        assert_int_equal(pl_events_json(&ur_game, &before, seat, a, m->state, v, &b[v + 1], &err), 0);
    assert_string_equal(pl_buf_str(&b[1]), pl_buf_str(&b[0]));
    assert_string_equal(pl_buf_str(&b[2]), pl_buf_str(&b[0]));
    snprintf(out, sizeof out, "%s", pl_buf_str(&b[0]));
    for (int i = 0; i < 3; i++)
        pl_buf_free(&b[i]);
    return out;
}

/* The fields of `text` for the seat that acts now. */
static const char *fields(pl_match *m, const char *text)
{
    static char out[1024];
    int seat = actor(m);
    pl_buf b = {0}, err = {0};
    assert_int_equal(pl_action_fields_json(&ur_game, m->state, seat, parse(m, seat, text), &b, &err), 0);
    snprintf(out, sizeof out, "%s", pl_buf_str(&b));
    pl_buf_free(&b);
    return out;
}

/* ---- golden events of scripted positions ---- */

static void test_UR_R2_R3_throws_and_the_starter(void **s)
{
    (void)s;
    pl_match *m = start_at("pieces=2", NULL); /* start=random: the starter is drawn */
    assert_string_equal(play_events(m, "first dark"), "[{\"seat\":1,\"type\":\"first\"}]");
    assert_string_equal(fields(m, "roll 1"), "{}"); /* chance outcomes have no fields */
    assert_string_equal(play_events(m, "roll 1"), /* UR-R3: the starter's forced 1 */
                        "[{\"lots\":3,\"marked\":1,\"opening\":true,\"seat\":1,\"type\":\"throw\",\"value\":1}]");
    th_play(m, "enter");
    assert_string_equal(play_events(m, "roll 4"), /* UR-R2: no lot marked is a 4 */
                        "[{\"lots\":3,\"marked\":0,\"opening\":false,\"seat\":0,\"type\":\"throw\",\"value\":4}]");
    pl_match_free(m);
    m = start_at("dice=d4 start=light pieces=2", NULL);
    th_script(m, "roll 1; enter");
    assert_string_equal(play_events(m, "roll 3"), /* one die: no lots */
                        "[{\"lots\":null,\"marked\":null,\"opening\":false,\"seat\":1,\"type\":\"throw\",\"value\":3}]");
    pl_match_free(m);
    m = start_at("rules=finkel", NULL); /* four binary dice, Light starts with a normal throw */
    assert_string_equal(play_events(m, "roll 0"),
                        "[{\"lots\":4,\"marked\":0,\"opening\":false,\"seat\":0,\"type\":\"throw\",\"value\":0}]");
    assert_string_equal(fields(m, "pass"), "{\"pass\":true}");
    assert_string_equal(play_events(m, "pass"), "[{\"roll\":0,\"seat\":0,\"type\":\"pass\"}]");
    assert_string_equal(play_events(m, "roll 3"),
                        "[{\"lots\":4,\"marked\":3,\"opening\":false,\"seat\":1,\"type\":\"throw\",\"value\":3}]");
    pl_match_free(m);
}

static void test_UR_R6_enter_from_the_reserve(void **s)
{
    (void)s;
    pl_match *m = start_at("", "board=- turn=light phase=move roll=3 reserve=7/7 off=0/0");
    assert_string_equal(fields(m, "enter"), "{\"again\":false,\"captures\":false,\"depth\":1,\"flips\":false,"
                                            "\"from\":\"reserve\",\"off\":false,\"to\":\"A2\"}");
    assert_string_equal(play_events(m, "enter"), "[{\"from\":\"reserve\",\"seat\":0,\"to\":\"A2\",\"type\":\"move\"}]");
    pl_match_free(m);
}

static void test_UR_R10_capture_whose_piece_where(void **s)
{
    (void)s;
    /* Light's A1 (index 4) with a 2 lands on B2, on Dark's blank piece. */
    pl_match *m = start_at("", "board=A1:l,B2:d,C3:d turn=light phase=move roll=2 reserve=6/5 off=0/0");
    assert_string_equal(fields(m, "A1"), "{\"again\":false,\"captures\":true,\"depth\":1,\"flips\":false,"
                                         "\"from\":\"A1\",\"off\":false,\"to\":\"B2\"}");
    assert_string_equal(fields(m, "C3"), "{}"); /* not Light's: no fields */
    assert_string_equal(play_events(m, "A1"),
                        "[{\"from\":\"A1\",\"seat\":0,\"to\":\"B2\",\"type\":\"move\"},"
                        "{\"count\":1,\"owner\":1,\"seat\":0,\"square\":\"B2\",\"to\":\"reserve\",\"type\":\"capture\"}]");
    pl_match_free(m);
}

static void test_UR_R8_flip_on_the_centre_with_a_capture(void **s)
{
    (void)s;
    /* Light's blank A8 (index 13) with a 1 reaches B8 (14), turns marked and takes Dark's marked piece. */
    pl_match *m = start_at("", "board=A8:l,B8:D turn=light phase=move roll=1 reserve=6/6 off=0/0");
    assert_string_equal(fields(m, "A8"), "{\"again\":false,\"captures\":true,\"depth\":1,\"flips\":true,"
                                         "\"from\":\"A8\",\"off\":false,\"to\":\"B8\"}");
    assert_string_equal(play_events(m, "A8"),
                        "[{\"from\":\"A8\",\"seat\":0,\"to\":\"B8\",\"type\":\"move\"},"
                        "{\"count\":1,\"owner\":1,\"seat\":0,\"square\":\"B8\",\"to\":\"reserve\",\"type\":\"capture\"},"
                        "{\"seat\":0,\"square\":\"B8\",\"type\":\"flip\"}]");
    pl_match_free(m);
    /* UR-R16 stack=any: under the marked piece of B7 (index 17) a blank one (11); with a 3 the
     * blank one goes to B8 (14) and turns, the marked one to B4 (20), a rosette, and does not. */
    m = start_at("stack=any", "board=B7:lL turn=light phase=move roll=3 reserve=5/7 off=0/0");
    assert_string_equal(fields(m, "B7:2"), "{\"again\":false,\"captures\":false,\"depth\":2,\"flips\":true,"
                                           "\"from\":\"B7\",\"off\":false,\"to\":\"B8\"}");
    assert_string_equal(fields(m, "B7"), "{\"again\":true,\"captures\":false,\"depth\":1,\"flips\":false,"
                                         "\"from\":\"B7\",\"off\":false,\"to\":\"B4\"}");
    assert_string_equal(play_events(m, "B7:2"), "[{\"from\":\"B7\",\"seat\":0,\"to\":\"B8\",\"type\":\"move\"},"
                                                "{\"seat\":0,\"square\":\"B8\",\"type\":\"flip\"}]");
    pl_match_free(m);
}

static void test_UR_R5_R12_rosette_throws_again(void **s)
{
    (void)s;
    pl_match *m = start_at("", "board=A3:l,B1:l turn=light phase=move roll=2 reserve=5/7 off=0/0");
    assert_string_equal(fields(m, "B1"), "{\"again\":false,\"captures\":false,\"depth\":1,\"flips\":false,"
                                         "\"from\":\"B1\",\"off\":false,\"to\":\"B3\"}");
    assert_string_equal(play_events(m, "A3"), "[{\"from\":\"A3\",\"seat\":0,\"to\":\"A1\",\"type\":\"move\"},"
                                              "{\"seat\":0,\"square\":\"A1\",\"type\":\"again\"}]");
    pl_match_free(m);
}

static void test_UR_R9_R18_bear_off_counted(void **s)
{
    (void)s;
    pl_match *m = start_at("", "board=B1:L,B2:L turn=light phase=move roll=1 reserve=0/7 off=5/0");
    assert_string_equal(fields(m, "B1"), "{\"again\":false,\"captures\":false,\"depth\":1,\"flips\":false,"
                                         "\"from\":\"B1\",\"off\":true,\"to\":\"off\"}");
    assert_string_equal(fields(m, "B2"), "{}"); /* blocked by its own piece on B1: not legal */
    assert_string_equal(play_events(m, "B1"), "[{\"from\":\"B1\",\"seat\":0,\"to\":\"off\",\"type\":\"move\"},"
                                              "{\"count\":6,\"of\":7,\"seat\":0,\"type\":\"bear-off\"}]");
    pl_match_free(m);
}

static void test_UR_R4_pass_when_no_move(void **s)
{
    (void)s;
    /* Light's only piece on B1 (index 23) with a 3 goes past the end; nothing to enter. */
    pl_match *m = start_at("", "board=B1:L turn=light phase=move roll=3 reserve=0/7 off=6/0");
    assert_string_equal(th_legal(m), "pass");
    assert_string_equal(fields(m, "pass"), "{\"pass\":true}");
    assert_string_equal(play_events(m, "pass"), "[{\"roll\":3,\"seat\":0,\"type\":\"pass\"}]");
    pl_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_UR_R2_R3_throws_and_the_starter),
        cmocka_unit_test(test_UR_R6_enter_from_the_reserve),
        cmocka_unit_test(test_UR_R10_capture_whose_piece_where),
        cmocka_unit_test(test_UR_R8_flip_on_the_centre_with_a_capture),
        cmocka_unit_test(test_UR_R5_R12_rosette_throws_again),
        cmocka_unit_test(test_UR_R9_R18_bear_off_counted),
        cmocka_unit_test(test_UR_R4_pass_when_no_move),
    };
    return cmocka_run_group_tests_name("unit_ur_events", tests, NULL, NULL);
}
