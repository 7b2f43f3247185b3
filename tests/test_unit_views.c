/* test_unit_views.c — the structured per-seat view (pl_view_json,
 * pl_game.view_json, docs/web-views.md): one small known position per game
 * and its whole JSON text (golden), what a spectator and a seat are not
 * shown, refusals that append nothing, and every allocation failing in
 * turn (nothing appended, nothing leaked). */
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "parlour/alloc.h"

/* Plays `text` as `seat` (-1: whoever acts); fails the test on error. */
static void play_as(pl_match *m, int seat, const char *text)
{
    pl_buf err = {0};
    if (pl_match_play_text(m, seat, text, &err) < 0)
        fail_msg("play '%s': %s", text, pl_buf_str(&err));
    pl_buf_free(&err);
}

/* `viewer`'s JSON view of `m` now, into a static buffer. */
static const char *view_of(const pl_match *m, int viewer)
{
    static char text[16384];
    pl_buf out = {0}, err = {0};
    if (pl_view_json(m->game, m->state, viewer, &out, &err) != 0)
        fail_msg("view_json %d: %s", viewer, pl_buf_str(&err));
    snprintf(text, sizeof text, "%s", pl_buf_str(&out));
    pl_buf_free(&out);
    pl_buf_free(&err);
    return text;
}

/* `viewer`'s view is the spectator's but for the key "viewer" (the last:
 * keys are sorted). */
static void assert_same_but_viewer(const pl_match *m, int viewer)
{
    char a[16384];
    snprintf(a, sizeof a, "%s", view_of(m, viewer));
    const char *b = view_of(m, -1);
    const char *ka = strstr(a, "\"viewer\":"), *kb = strstr(b, "\"viewer\":");
    assert_non_null(ka);
    assert_non_null(kb);
    assert_int_equal(ka - a, kb - b);
    assert_memory_equal(a, b, (size_t)(ka - a));
}

/* Ur after Light's forced opening 1 and a roll of 4 for Dark, as a
 * spectator sees it (UR-R3: the starter enters with a 1). */
static void test_unit_view_json_ur_golden(void **state)
{
    (void)state;
    pl_match *m = th_new("ur", "seed=7 start=light pieces=2");
    th_script(m, "roll 1; enter; roll 4");
    assert_string_equal(view_of(m, -1),
                        "{\"actors\":[1],\"board\":{\"A4\":[{\"marked\":false,\"owner\":0}]},\"game\":\"ur\",\"off\":[0,0],\"opti"
                        "ons\":{\"dice\":\"3lots\",\"loop\":\"own-first\",\"pieces\":2,\"rules\":\"skiryuk\",\"stack\":\"top\"},"
                        "\"outcome\":null,\"phase\":\"move\",\"reserve\":[1,2],\"roll\":4,\"seats\":2,\"squares\":{\"b7-eyes\":["
                        "\"B7\"],\"conversion\":[\"A8\",\"C8\"],\"finish\":[\"B1\"],\"lane-eyes\":[\"A2\",\"A4\",\"C2\",\"C4\"],"
                        "\"plain\":[\"A3\",\"B2\",\"B5\",\"B8\",\"C3\"],\"rosette\":[\"A1\",\"A7\",\"B4\",\"C1\",\"C7\"],\"safe\""
                        ":[\"B3\",\"B6\"]},\"stage\":\"move\",\"teams\":[0,1],\"turn\":1,\"viewer\":-1}");
    assert_same_but_viewer(m, 0); /* Ur hides nothing */
    pl_match_free(m);
}

/* City Behind Walls after two placements, as seat 1 sees it: its own hand
 * only, every hand's size (CBW-R5). */
static void test_unit_view_json_cbw_golden(void **state)
{
    (void)state;
    pl_match *m = th_new("cbw", "seed=3 first=red deal=6H,7H,8H,9H,10H,JH,QH,KH,AH/6S,7S,8S,9S,10S,JS,QS,KS,AS/"
                                "6D,7D,8D,9D,10D,JD,QD,KD,AD/6C,7C,8C,9C,10C,JC,QC,KC,AC");
    th_script(m, "7H@0,0; 9S@1,0");
    assert_string_equal(view_of(m, 1),
                        "{\"actors\":[2],\"castles\":[0,0],\"fixed_x\":null,\"fixed_y\":null,\"game\":\"cbw\",\"hand\":[\"6S\","
                        "\"7S\",\"8S\",\"10S\",\"JS\",\"QS\",\"KS\",\"AS\"],\"hand_sizes\":[8,8,9,9],\"history\":[{\"card\":\"7H\","
                        "\"move\":\"place\",\"seat\":0,\"x\":0,\"y\":0},{\"card\":\"9S\",\"move\":\"place\",\"seat\":1,"
                        "\"x\":1,\"y\":0}],\"inside\":{\"x\":[-7,8],\"y\":[-3,3]},\"opener\":\"red\",\"options\":{\"deck\":36,"
                        "\"height\":4,\"players\":4,\"width\":9},\"outcome\":null,\"passes\":0,\"phase\":\"move\",\"prisoners\":[[],"
                        "[]],\"score\":[0,0],\"seats\":4,\"span\":{\"x\":[0,1],\"y\":[0,0]},\"stage\":\"move\",\"table\":[{\"card\":\"7H\","
                        "\"x\":0,\"y\":0},{\"card\":\"9S\",\"x\":1,\"y\":0}],\"teams\":[0,1,0,1],\"turn\":2,\"viewer\":1}");
    /* a spectator sees no hand; seat 0 sees its own, never seat 1's */
    assert_null(strstr(view_of(m, -1), "\"hand\":"));
    assert_non_null(strstr(view_of(m, 0), "\"hand\":[\"6H\",\"8H\""));
    assert_null(strstr(view_of(m, 0), "10S"));
    pl_match_free(m);
}

/* Tam Cúc, two players, during the night exchange (TC-R4.4) once seat 1
 * has passed: seat 0 sees its hand, that seat 1 is done, not what it
 * passed; the other hand only as a size (TC-R3.3 shows it once play starts). */
static void test_unit_view_json_tamcuc_golden(void **state)
{
    (void)state;
    pl_match *m = th_new("tamcuc", "players=2 seed=9 night_exchange=1 soldier_special=none first_trick_ban=none");
    th_script(m, "count 0 bS rG; deal rG,rA,rA,rE,rE,rC,rC,rN,rN,rH,rH,rS,rS,rS,rS,rS/"
                 "bG,bA,bA,bE,bE,bC,bC,bN,bN,bH,bH,bS,bS,bS,bS,bS");
    play_as(m, 1, "pass bS");
    assert_string_equal(view_of(m, 0),
                        "{\"actors\":[0],\"asking\":null,\"counting\":{\"cards\":[\"bS\",\"rG\"],\"provisional\":0,\"steps\":7},"
                        "\"deal\":1,\"deal_score\":[0,0],\"dealer\":1,\"declarations\":[],\"discards\":[{\"public\":0,"
                        "\"public_cards\":[],\"secret\":0,\"secret_cards\":[]},{\"public\":0,\"public_cards\":[],\"secret\":0,"
                        "\"secret_cards\":null}],\"exchange\":{\"cards\":1,\"done\":[1],\"passed\":null,\"received\":null},"
                        "\"game\":\"tamcuc\",\"hand\":[\"rG\",\"rA\",\"rA\",\"rE\",\"rE\",\"rC\",\"rC\",\"rN\",\"rN\","
                        "\"rH\",\"rH\",\"rS\",\"rS\",\"rS\",\"rS\",\"rS\"],\"hand_sizes\":[16,15],\"last_trick\":null,"
                        "\"opponent\":null,\"outcome\":null,\"phase\":\"move\",\"score\":[0,0],\"seats\":2,\"stage\":\"exchange\","
                        "\"teams\":[0,1],\"trick\":null,\"viewer\":0,\"won\":[[],[]]}");
    assert_null(strstr(view_of(m, -1), "\"hand\":"));
    assert_non_null(strstr(view_of(m, 1), "\"passed\":[\"bS\"]"));
    pl_match_free(m);
}

/* Karuta: while the seats answer a reading, no view names its card, not
 * even by leaving it out of "unread"; once every answer is in, the
 * judgement tells it (KA-R16). */
static void test_unit_view_json_karuta_golden_KA_R16_reading_told_after_answers(void **state)
{
    (void)state;
    pl_match *m = th_new("karuta", "deal=1;2;3/4;5;6 seed=1");
    th_play(m, "read 4");
    play_as(m, 0, "touch 4@1");
    assert_string_equal(view_of(m, -1),
                        "{\"actors\":[1],\"answer_poet\":false,\"dead\":[7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,"
                        "23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,"
                        "54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,"
                        "85,86,87,88,89,90,91,92,93,94,95,96,97,98,99,100],\"field\":[],\"game\":\"karuta\",\"judgement\":null,"
                        "\"outcome\":null,\"pending\":[1],\"phase\":\"move\",\"pool\":[],\"pot\":0,\"reading\":{\"card\":null,"
                        "\"open\":false},\"readings\":1,\"rearrange\":false,\"seats\":2,\"send\":null,\"stage\":\"touch\","
                        "\"taken\":[],\"team_play\":false,\"teams\":[0,1],\"territories\":[{\"cards\":[{\"card\":1,\"label\":\"A01\","
                        "\"row\":1,\"slot\":1},{\"card\":2,\"label\":\"B01\",\"row\":2,\"slot\":1},{\"card\":3,\"label\":\"C01\","
                        "\"row\":3,\"slot\":1}],\"count\":3},{\"cards\":[{\"card\":4,\"label\":\"D01\",\"row\":1,\"slot\":1},"
                        "{\"card\":5,\"label\":\"E01\",\"row\":2,\"slot\":1},{\"card\":6,\"label\":\"F01\",\"row\":3,"
                        "\"slot\":1}],\"count\":3}],\"timing\":{\"lower_ms\":5000,\"memo_s\":900,\"owner_ms\":3000,\"pause_ms\":1000,"
                        "\"tempo\":\"poem\",\"tie_ms\":10,\"upper_ms\":6000,\"yoin_ms\":3000},\"unread\":[1,2,3,4,5,6,7,8,9,10,11,12,13,"
                        "14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,"
                        "45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,"
                        "76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95,96,97,98,99,100],\"variant\":\"kyogi\","
                        "\"viewer\":-1}");
    assert_same_but_viewer(m, 0);
    assert_same_but_viewer(m, 1);
    play_as(m, 1, "none");
    assert_non_null(strstr(view_of(m, 1), "\"reading\":{\"card\":4,\"open\":true}"));
    assert_non_null(strstr(view_of(m, 1), "\"judgement\":{\"card\":4,"));
    assert_non_null(strstr(view_of(m, 1), "\"unread\":[1,2,3,5,"));
    pl_match_free(m);
}

/* A viewer that is neither a seat nor -1 is refused with a message and
 * nothing appended. */
static void test_unit_view_json_bad_viewer_refused(void **state)
{
    (void)state;
    pl_match *m = th_new("ur", "seed=1");
    pl_buf out = {0}, err = {0};
    pl_buf_puts(&out, "kept");
    assert_int_equal(pl_view_json(m->game, m->state, 2, &out, &err), -1);
    assert_string_equal(pl_buf_str(&err), "no seat 2: seats are 0..1, or -1 for a spectator");
    pl_buf_clear(&err);
    assert_int_equal(pl_view_json(m->game, m->state, -2, &out, &err), -1);
    assert_string_equal(pl_buf_str(&out), "kept");
    pl_buf_free(&out);
    pl_buf_free(&err);
    pl_match_free(m);
}

/* Every game's view of a position in play, with each allocation failing in
 * turn: -1 and nothing appended, until it succeeds with the whole text. */
static void test_unit_view_json_allocation_failure(void **state)
{
    (void)state;
    int ng;
    const pl_game *const *gs = pl_games(&ng);
    for (int i = 0; i < ng; i++) {
        pl_match *m = th_new(gs[i]->id, "seed=5");
        pl_buf err = {0};
        pl_action acts[1];
        /* a few actions in: chance draws, then each sole actor's first legal action */
        for (int k = 0; k < 12 && m->game->phase(m->state) != PL_PHASE_OVER; k++) {
            if (m->game->phase(m->state) == PL_PHASE_CHANCE) {
                assert_int_equal(pl_match_random(m, NULL, &err), 0);
                continue;
            }
            int seat = pl_sole_actor(m->game, m->state);
            if (seat < 0 || m->game->legal(m->state, seat, acts, 1) < 1)
                break;
            assert_int_equal(pl_match_play(m, seat, acts[0], &err), 0);
        }
        char want[16384];
        snprintf(want, sizeof want, "%s", view_of(m, 0));
        int ok = 0;
        for (long n = 0; !ok; n++) {
            pl_buf out = {0};
            pl_buf_puts(&out, "x");
            pl_alloc_fail_after(n);
            int rc = pl_view_json(m->game, m->state, 0, &out, &err);
            pl_alloc_fail_after(-1);
            if (rc == 0) {
                assert_string_equal(pl_buf_str(&out) + 1, want);
                ok = 1;
            } else {
                assert_string_equal(pl_buf_str(&out), "x");
            }
            pl_buf_free(&out);
            pl_buf_clear(&err);
            assert_true(n < 100000);
        }
        pl_buf_free(&err);
        pl_match_free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unit_view_json_ur_golden),
        cmocka_unit_test(test_unit_view_json_cbw_golden),
        cmocka_unit_test(test_unit_view_json_tamcuc_golden),
        cmocka_unit_test(test_unit_view_json_karuta_golden_KA_R16_reading_told_after_answers),
        cmocka_unit_test(test_unit_view_json_bad_viewer_refused),
        cmocka_unit_test(test_unit_view_json_allocation_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
