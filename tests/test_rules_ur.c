/* test_rules_ur.c — one test (at least) per rule UR-R1..R18 of
 * rules/royal-game-of-ur.md, plus the "consequences worth testing" and
 * Finkel's rules. Positions are set with the position text (ur_text.c):
 *   board=SQ:PIECES,... turn=light|dark phase=move roll=N reserve=L/D off=L/D
 * pieces bottom first: l/L Light blank/marked, d/D Dark blank/marked. */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "helpers.h"
#include "games/ur/ur.h"

static pl_match *pos(const char *opts, const char *position)
{
    pl_match *m = th_new("ur", opts);
    th_position(m, position);
    return m;
}

static void expect_legal(pl_match *m, const char *want) { assert_string_equal(th_legal(m), want); }

/* Plays `text`, expecting it refused with a message containing `why`. */
static void expect_illegal(pl_match *m, const char *text, const char *why)
{
    char before[1024];
    snprintf(before, sizeof before, "%s", th_pos(m));
    pl_buf err = {0};
    if (th_try(m, text, &err) == 0)
        fail_msg("'%s' was accepted", text);
    if (!strstr(pl_buf_str(&err), why))
        fail_msg("'%s' refused with '%s', expected mention of '%s'", text, pl_buf_str(&err), why);
    assert_string_equal(th_pos(m), before); /* state unchanged */
    pl_buf_free(&err);
}

static void expect_pos(pl_match *m, const char *want) { assert_string_equal(th_pos(m), want); }

static void test_UR_R1_seven_pieces_and_option(void **s)
{
    (void)s;
    pl_match *m = th_new("ur", "seed=1");
    assert_non_null(strstr(th_pos(m), "reserve=7/7"));
    pl_match_free(m);
    m = th_new("ur", "pieces=3 seed=1");
    assert_non_null(strstr(th_pos(m), "reserve=3/3"));
    pl_match_free(m);
    pl_buf err = {0};
    char *bad[] = {"pieces=8"};
    assert_null(pl_match_new(&ur_game, 1, bad, &err));
    assert_non_null(strstr(pl_buf_str(&err), "from 1 to 7"));
    pl_buf_free(&err);
}

static void test_UR_R2_three_lots_probabilities(void **s)
{
    (void)s;
    pl_match *m = pos("pieces=1 start=light", "board=- turn=light phase=roll roll=0 reserve=1/1 off=0/0");
    pl_action a[8];
    double p[8];
    int n = ur_game.chance(m->state, a, p, 8);
    assert_int_equal(n, 4); /* no zero roll */
    assert_true(p[0] == 3 / 8.0 && p[1] == 3 / 8.0 && p[2] == 1 / 8.0 && p[3] == 1 / 8.0);
    /* The sampler draws the same distribution. */
    pl_rng r;
    pl_rng_seed(&r, 42);
    long count[5] = {0};
    for (int i = 0; i < 80000; i++)
        count[ur_game.sample_chance(m->state, &r) & 7]++;
    assert_int_equal(count[0], 0);
    for (int k = 1; k <= 4; k++)
        assert_true(count[k] > (p[k - 1] - 0.01) * 80000 && count[k] < (p[k - 1] + 0.01) * 80000);
    pl_match_free(m);
    m = pos("pieces=1 start=light dice=d4", "board=- turn=light phase=roll roll=0 reserve=1/1 off=0/0");
    n = ur_game.chance(m->state, a, p, 8);
    assert_int_equal(n, 4);
    for (int k = 0; k < 4; k++)
        assert_true(p[k] == 0.25);
    pl_match_free(m);
}

static void test_UR_R3_random_starter_enters_with_forced_one(void **s)
{
    (void)s;
    pl_match *m = th_new("ur", "seed=9");
    expect_legal(m, "first light first dark");
    th_play(m, "first dark");
    expect_legal(m, "roll 1"); /* the starter's first roll is 1 */
    expect_illegal(m, "roll 2", "not a possible chance outcome");
    th_play(m, "roll 1");
    expect_legal(m, "enter");
    th_play(m, "enter");
    expect_pos(m, "board=C4:d turn=light phase=roll roll=0 reserve=7/6 off=0/0");
    expect_legal(m, "roll 1 roll 2 roll 3 roll 4"); /* the other then plays normal turns */
    pl_match_free(m);
    m = th_new("ur", "start=light seed=9");
    expect_legal(m, "roll 1");
    th_play(m, "roll 1");
    assert_int_equal(pl_sole_actor(m->game, m->state), 0);
    pl_match_free(m);
}

static void test_UR_R4_possible_move_must_be_made(void **s)
{
    (void)s;
    pl_match *m = pos("pieces=1", "board=B2:L turn=light phase=move roll=1 reserve=0/1 off=0/0");
    expect_legal(m, "B2");
    expect_illegal(m, "pass", "UR-R4");
    pl_match_free(m);
    /* No move: pass is the only action, and the turn passes. */
    m = pos("pieces=1", "board=B3:L turn=light phase=move roll=4 reserve=0/1 off=0/0");
    expect_legal(m, "pass");
    th_play(m, "pass");
    expect_pos(m, "board=B3:L turn=dark phase=roll roll=0 reserve=0/1 off=0/0");
    pl_match_free(m);
}

static void test_UR_R5_extra_roll_only_for_rosette(void **s)
{
    (void)s;
    /* Entering with 4 lands on the rosette A1: Light rolls again. */
    pl_match *m = pos("pieces=2", "board=- turn=light phase=move roll=4 reserve=2/2 off=0/0");
    th_play(m, "enter");
    expect_pos(m, "board=A1:l turn=light phase=roll roll=0 reserve=1/2 off=0/0");
    /* With the extra roll, any piece may move or enter. */
    th_play(m, "roll 1");
    expect_legal(m, "enter A1");
    pl_match_free(m);
    /* A capture elsewhere gives no extra roll. */
    m = pos("pieces=1", "board=B1:l,B2:d turn=light phase=move roll=1 reserve=0/0 off=0/0");
    th_play(m, "B1");
    expect_pos(m, "board=B2:l turn=dark phase=roll roll=0 reserve=0/1 off=0/0");
    pl_match_free(m);
    /* Nor does bearing off. */
    m = pos("pieces=2", "board=B1:L turn=light phase=move roll=1 reserve=1/2 off=0/0");
    th_play(m, "B1");
    expect_pos(m, "board=- turn=dark phase=roll roll=0 reserve=1/2 off=1/0");
    pl_match_free(m);
}

static void test_UR_R6_enter_on_the_roll(void **s)
{
    (void)s;
    pl_match *m = pos("pieces=1", "board=- turn=light phase=move roll=3 reserve=1/1 off=0/0");
    th_play(m, "enter");
    expect_pos(m, "board=A2:l turn=dark phase=roll roll=0 reserve=0/1 off=0/0");
    th_play(m, "roll 2");
    th_play(m, "enter");
    expect_pos(m, "board=A2:l,C3:d turn=light phase=roll roll=0 reserve=0/0 off=0/0");
    pl_match_free(m);
}

static void test_UR_R7_forward_only_jumping_over(void **s)
{
    (void)s;
    pl_match *m = pos("pieces=2", "board=A3:l,A4:l turn=light phase=move roll=2 reserve=0/2 off=0/0");
    expect_legal(m, "A3 A4"); /* only forward moves (listed in board order) */
    th_play(m, "A4");
    expect_pos(m, "board=A2:l,A3:l turn=dark phase=roll roll=0 reserve=0/2 off=0/0");
    pl_match_free(m);
}

static void test_UR_R8_turns_marked_on_or_past_centre(void **s)
{
    (void)s;
    pl_match *m = pos("pieces=1", "board=A7:l turn=light phase=move roll=1 reserve=0/1 off=0/0");
    th_play(m, "A7"); /* rests on the conversion square: still blank */
    expect_pos(m, "board=A8:l turn=dark phase=roll roll=0 reserve=0/1 off=0/0");
    pl_match_free(m);
    m = pos("pieces=1", "board=A8:l turn=light phase=move roll=1 reserve=0/1 off=0/0");
    th_play(m, "A8"); /* onto B8: marked */
    expect_pos(m, "board=B8:L turn=dark phase=roll roll=0 reserve=0/1 off=0/0");
    pl_match_free(m);
    m = pos("pieces=1", "board=A7:l turn=light phase=move roll=3 reserve=0/1 off=0/0");
    th_play(m, "A7"); /* past B8 to the opponent's conversion square */
    expect_pos(m, "board=C8:L turn=dark phase=roll roll=0 reserve=0/1 off=0/0");
    pl_match_free(m);
    /* loop=opponent-first turns to the other side of the small block. */
    m = pos("pieces=1 loop=opponent-first", "board=B7:l turn=light phase=move roll=1 reserve=0/1 off=0/0");
    th_play(m, "B7");
    expect_pos(m, "board=C7:l turn=light phase=roll roll=0 reserve=0/1 off=0/0");
    pl_match_free(m);
    m = pos("pieces=1", "board=B7:l turn=light phase=move roll=1 reserve=0/1 off=0/0");
    th_play(m, "B7");
    expect_pos(m, "board=A7:l turn=light phase=roll roll=0 reserve=0/1 off=0/0");
    pl_match_free(m);
}

static void test_UR_R9_bear_off_by_exact_roll(void **s)
{
    (void)s;
    pl_match *m = pos("pieces=2", "board=B3:L,B4:L turn=light phase=move roll=4 reserve=0/2 off=0/0");
    expect_legal(m, "B4");
    expect_illegal(m, "B3", "UR-R9");
    th_play(m, "B4");
    expect_pos(m, "board=B3:L turn=dark phase=roll roll=0 reserve=0/2 off=1/0");
    pl_match_free(m);
    m = pos("pieces=1", "board=B3:L turn=light phase=move roll=3 reserve=0/1 off=0/0");
    expect_legal(m, "B3");
    pl_match_free(m);
}

static void test_UR_R10_capture_same_side_only(void **s)
{
    (void)s;
    /* Blank on blank captures; the victim goes back to its reserve. */
    pl_match *m = pos("pieces=1", "board=B1:l,B2:d turn=light phase=move roll=1 reserve=0/0 off=0/0");
    th_play(m, "B1");
    expect_pos(m, "board=B2:l turn=dark phase=roll roll=0 reserve=0/1 off=0/0");
    pl_match_free(m);
    /* Marked on marked captures. */
    m = pos("pieces=1", "board=B7:L,B5:D turn=light phase=move roll=2 reserve=0/0 off=0/0");
    th_play(m, "B7");
    expect_pos(m, "board=B5:L turn=dark phase=roll roll=0 reserve=0/1 off=0/0");
    pl_match_free(m);
    /* Blank may not land on marked. */
    m = pos("pieces=1", "board=B4:l,B5:D turn=light phase=move roll=1 reserve=0/0 off=0/0");
    expect_legal(m, "pass");
    expect_illegal(m, "B4", "UR-R10");
    pl_match_free(m);
}

static void test_UR_R11_one_piece_on_plain_squares(void **s)
{
    (void)s;
    pl_match *m = pos("pieces=2", "board=B1:l,B2:l turn=light phase=move roll=1 reserve=0/2 off=0/0");
    expect_legal(m, "B2");
    expect_illegal(m, "B1", "UR-R1");
    pl_match_free(m);
}

static void test_UR_R12_rosette_gives_no_protection(void **s)
{
    (void)s;
    pl_match *m = pos("pieces=1", "board=B4:l,B2:d turn=dark phase=move roll=2 reserve=0/0 off=0/0");
    th_play(m, "B2");
    /* captured on the rosette, and the capturer rolls again */
    expect_pos(m, "board=B4:d turn=dark phase=roll roll=0 reserve=1/0 off=0/0");
    pl_match_free(m);
}

static void test_UR_R13_lane_eyes_hold_four(void **s)
{
    (void)s;
    pl_match *m = pos("pieces=5", "board=A4:lll turn=light phase=move roll=1 reserve=2/5 off=0/0");
    expect_legal(m, "enter A4");
    th_play(m, "enter");
    expect_pos(m, "board=A4:llll turn=dark phase=roll roll=0 reserve=1/5 off=0/0");
    pl_match_free(m);
    m = pos("pieces=5", "board=A4:llll turn=light phase=move roll=1 reserve=1/5 off=0/0");
    expect_illegal(m, "enter", "UR-R13");
    pl_match_free(m);
}

static void test_UR_R14_b7_depot_changes_hands(void **s)
{
    (void)s;
    /* Light holds B7: Dark cannot land there, only pass over. */
    pl_match *m = pos("pieces=2", "board=B7:l,B5:d,B6:d turn=dark phase=move roll=2 reserve=1/0 off=0/0");
    expect_illegal(m, "B5", "UR-R14");
    expect_legal(m, "B6"); /* B6 -> C7 passes over B7 */
    pl_match_free(m);
    /* The owner stacks blank and marked pieces there. */
    m = pos("pieces=3", "board=B7:l,C8:L turn=light phase=move roll=2 reserve=1/3 off=0/0");
    th_play(m, "C8");
    expect_pos(m, "board=B7:lL turn=dark phase=roll roll=0 reserve=1/3 off=0/0");
    pl_match_free(m);
    /* When the last piece leaves, B7 is neutral again. */
    m = pos("pieces=1", "board=B7:l,B5:d turn=light phase=move roll=1 reserve=0/0 off=0/0");
    th_play(m, "B7");
    th_play(m, "roll 2"); /* Light landed on the rosette A7: rolls again */
    th_play(m, "A7");
    th_play(m, "roll 2");
    th_play(m, "B5");
    expect_pos(m, "board=B7:d,B8:L turn=light phase=roll roll=0 reserve=0/0 off=0/0");
    pl_match_free(m);
}

static void test_UR_R15_safe_squares_stack_anyone(void **s)
{
    (void)s;
    pl_match *m = pos("pieces=1", "board=B3:l,B1:d turn=dark phase=move roll=2 reserve=0/0 off=0/0");
    th_play(m, "B1"); /* no capture on the safe square */
    expect_pos(m, "board=B3:ld turn=light phase=roll roll=0 reserve=0/0 off=0/0");
    pl_match_free(m);
    m = pos("pieces=3", "board=B3:ldl,B1:d,B2:D turn=dark phase=move roll=2 reserve=1/0 off=0/0");
    th_play(m, "B1");
    expect_pos(m, "board=B2:D,B3:ldld turn=light phase=roll roll=0 reserve=1/0 off=0/0");
    th_play(m, "roll 1");
    pl_match_free(m);
    m = pos("pieces=3", "board=B3:ldld,B1:d turn=dark phase=move roll=2 reserve=1/0 off=0/0");
    expect_illegal(m, "B1", "UR-R15");
    pl_match_free(m);
}

static void test_UR_R16_only_the_top_piece_moves(void **s)
{
    (void)s;
    pl_match *m = pos("pieces=1", "board=B3:ld turn=light phase=move roll=1 reserve=0/0 off=0/0");
    expect_legal(m, "pass");
    expect_illegal(m, "B3", "UR-R16");
    pl_match_free(m);
    m = pos("pieces=1 stack=any", "board=B3:ld turn=light phase=move roll=1 reserve=0/0 off=0/0");
    expect_legal(m, "B3:2");
    th_play(m, "B3:2");
    expect_pos(m, "board=B3:d,B4:l turn=light phase=roll roll=0 reserve=0/0 off=0/0");
    pl_match_free(m);
    /* Of alike pieces in one stack only the topmost is listed. */
    m = pos("pieces=3 stack=any", "board=B3:lld turn=light phase=move roll=1 reserve=1/2 off=0/0");
    expect_legal(m, "enter B3:2");
    pl_match_free(m);
}

static void test_UR_R17_finish_square(void **s)
{
    (void)s;
    /* A marked piece on B1 is immune. */
    pl_match *m = pos("pieces=2", "board=B1:L,B2:D,C1:d turn=dark phase=move roll=1 reserve=1/0 off=0/0");
    expect_legal(m, "pass");
    expect_illegal(m, "B2", "UR-R17");
    expect_illegal(m, "C1", "cannot be captured");
    pl_match_free(m);
    /* A blank on B1 is captured by an enemy blank. */
    m = pos("pieces=1", "board=B1:l,C1:d turn=dark phase=move roll=1 reserve=0/0 off=0/0");
    th_play(m, "C1");
    expect_pos(m, "board=B1:d turn=light phase=roll roll=0 reserve=1/0 off=0/0");
    pl_match_free(m);
    /* No stacking on B1. */
    m = pos("pieces=2", "board=A1:l,B1:l turn=light phase=move roll=1 reserve=0/2 off=0/0");
    expect_illegal(m, "A1", "UR-R17");
    pl_match_free(m);
}

static void test_UR_R18_first_to_bear_off_all_wins(void **s)
{
    (void)s;
    pl_match *m = pos("pieces=2", "board=B1:L,C4:d turn=light phase=move roll=1 reserve=0/1 off=1/0");
    th_play(m, "B1");
    assert_int_equal(m->game->phase(m->state), PL_PHASE_OVER);
    pl_buf st = {0};
    pl_match_status(m, &st);
    assert_string_equal(pl_buf_str(&st), "phase over\nseats 2\nscore 2 0\nwinner 0");
    pl_buf_free(&st);
    expect_legal(m, "none");
    expect_illegal(m, "C4", "over");
    pl_match_free(m);
}

/* Rule 7's duel: Light blank on A8, Dark blank on C8. */
static void test_UR_consequence_duel(void **s)
{
    (void)s;
#define DUEL "board=A8:l,C8:d turn=light phase=move roll=%d reserve=0/0 off=0/0"
    char p[128];
    snprintf(p, sizeof p, DUEL, 1);
    pl_match *m = pos("pieces=1", p);
    th_play(m, "A8"); /* to B8, marked, and Dark's 1 captures it */
    th_play(m, "roll 1");
    th_play(m, "C8");
    expect_pos(m, "board=B8:D turn=light phase=roll roll=0 reserve=1/0 off=0/0");
    pl_match_free(m);
    snprintf(p, sizeof p, DUEL, 2);
    m = pos("pieces=1", p);
    expect_illegal(m, "A8", "UR-R10"); /* C8 held by a blank */
    pl_match_free(m);
    snprintf(p, sizeof p, DUEL, 3);
    m = pos("pieces=1", p);
    th_play(m, "A8"); /* jumps over, lands behind on C7, marked */
    expect_pos(m, "board=C7:L,C8:d turn=light phase=roll roll=0 reserve=0/0 off=0/0");
    pl_match_free(m);
    snprintf(p, sizeof p, DUEL, 4);
    m = pos("pieces=1", p);
    th_play(m, "A8");
    expect_pos(m, "board=B7:L,C8:d turn=dark phase=roll roll=0 reserve=0/0 off=0/0");
    pl_match_free(m);
}

static void test_UR_consequence_four_on_entry_rosette(void **s)
{
    (void)s;
    pl_match *m = pos("pieces=1", "board=- turn=dark phase=move roll=4 reserve=1/1 off=0/0");
    th_play(m, "enter");
    expect_pos(m, "board=C1:d turn=dark phase=roll roll=0 reserve=1/0 off=0/0");
    pl_match_free(m);
}

/* On A7, A8, C7, C8 one side's blanks meet the other's marked pieces: they block, never capture. */
static void test_UR_consequence_small_block_blocks(void **s)
{
    (void)s;
    pl_match *m = pos("pieces=1", "board=B8:D,A7:l turn=light phase=move roll=1 reserve=0/0 off=0/0");
    /* Light A7 -> A8 is free; Dark's marked B8 -> A8 would then be blocked. */
    th_play(m, "A7");
    th_play(m, "roll 1");
    expect_legal(m, "pass");
    expect_illegal(m, "B8", "UR-R10");
    pl_match_free(m);
}

static void test_UR_finkel_rules(void **s)
{
    (void)s;
    pl_match *m = th_new("ur", "rules=finkel seed=2");
    expect_legal(m, "roll 0 roll 1 roll 2 roll 3 roll 4");
    pl_action a[8];
    double p[8];
    ur_game.chance(m->state, a, p, 8);
    assert_true(p[0] == 1 / 16.0 && p[1] == 4 / 16.0 && p[2] == 6 / 16.0 && p[3] == 4 / 16.0 && p[4] == 1 / 16.0);
    th_play(m, "roll 0");
    expect_legal(m, "pass"); /* a 0 moves nothing */
    pl_match_free(m);
    /* The central rosette is safe. */
    m = pos("rules=finkel", "board=B4:l,B2:d turn=dark phase=move roll=2 reserve=6/6 off=0/0");
    expect_illegal(m, "B2", "safe");
    pl_match_free(m);
    /* Captures in the middle row; bearing off from A7 with 1. */
    m = pos("rules=finkel", "board=B5:l,B2:d,A7:l turn=dark phase=move roll=3 reserve=5/6 off=0/0");
    th_play(m, "B2");
    expect_pos(m, "board=A7:l,B5:d turn=light phase=roll roll=0 reserve=6/6 off=0/0");
    th_play(m, "roll 1");
    th_play(m, "A7");
    expect_pos(m, "board=B5:d turn=dark phase=roll roll=0 reserve=6/6 off=1/0");
    pl_match_free(m);
    pl_buf err = {0};
    char *bad[] = {"rules=finkel", "dice=d4"};
    assert_null(pl_match_new(&ur_game, 2, bad, &err));
    assert_non_null(strstr(pl_buf_str(&err), "does not apply"));
    pl_buf_free(&err);
}

static void test_UR_position_text_rejects_bad_positions(void **s)
{
    (void)s;
    pl_match *m = th_new("ur", "pieces=2 seed=1");
    char before[256];
    snprintf(before, sizeof before, "%s", th_pos(m));
    static const char *const bad[] = {
        "board=C4:l turn=light phase=roll roll=0 reserve=1/2 off=0/0",  /* Light on Dark's lane */
        "board=A3:ll turn=light phase=roll roll=0 reserve=0/2 off=0/0", /* stack on a plain square */
        "board=A8:L turn=light phase=roll roll=0 reserve=1/2 off=0/0",  /* marked before B8 */
        "board=- turn=light phase=roll roll=0 reserve=1/2 off=0/0",     /* a piece missing */
        "board=B7:ld turn=light phase=roll roll=0 reserve=1/1 off=0/0", /* B7 shared */
        "board=- turn=light phase=move roll=0 reserve=2/2 off=0/0",     /* roll 0 in Skiryuk */
        "board=- turn=blue phase=roll roll=0 reserve=2/2 off=0/0",
        "nonsense",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pl_buf err = {0};
        assert_int_equal(m->game->from_text(m->state, bad[i], &err), -1);
        assert_non_null(strstr(pl_buf_str(&err), "bad position"));
        assert_string_equal(th_pos(m), before);
        pl_buf_free(&err);
    }
    pl_match_free(m);
}

/* ---- what a move did, in words (game.h describe, format_action_long, mark_move) ---- */

/* A position set as the match's start, so that pl_match_describe and
 * pl_match_draw replay the history from it. */
static pl_match *start_at(const char *position)
{
    pl_match *m = pos("", position);
    pl_state_copy(m->game, m->initial, m->state);
    return m;
}

/* The menu text of `text` for the player to move. */
static const char *long_text(pl_match *m, const char *text)
{
    static char out[256];
    pl_action a;
    pl_buf b = {0};
    int seat = pl_sole_actor(m->game, m->state);
    assert_int_equal(m->game->parse_action(m->state, seat, text, &a, &b), 0);
    pl_format_action_long(m->game, m->state, seat, a, &b);
    snprintf(out, sizeof out, "%s", pl_buf_str(&b));
    pl_buf_free(&b);
    return out;
}

static const char *told(pl_match *m, int from, int viewer)
{
    static char out[1024];
    pl_buf b = {0};
    assert_int_equal(pl_match_describe(m, from, viewer, &b), m->nhist);
    snprintf(out, sizeof out, "%s", pl_buf_str(&b));
    pl_buf_free(&b);
    return out;
}

static void test_UR_R10_capture_is_announced_to_each_side(void **s)
{
    (void)s;
    /* Light's A1 (index 4) with a 2 lands on B2, on Dark's blank piece. */
    pl_match *m = start_at("board=A1:l,B2:d,C3:d turn=light phase=move roll=2 reserve=6/5 off=0/0");
    assert_string_equal(long_text(m, "A1"), "A1 → B2, captures");
    th_play(m, "A1");
    assert_string_equal(told(m, 0, 1), "Light's B2 captured your piece, back to your reserve.");
    assert_string_equal(told(m, 0, 0), "Your B2 captured Dark's piece, back to Dark's reserve.");
    assert_string_equal(told(m, 0, -1), "Light's B2 captured Dark's piece, back to Dark's reserve.");
    assert_string_equal(told(m, 1, 0), ""); /* told once */
    assert_string_equal(told(m, 5, 0), ""); /* beyond the history (after an undo) */
    /* Dark answers without a capture: nothing to say. */
    th_play(m, "roll 1");
    th_play(m, "C3");
    assert_string_equal(told(m, 1, 1), "");
    pl_match_free(m);
}

static void test_UR_R6_R9_R12_landing_squares_in_the_menu(void **s)
{
    (void)s;
    pl_match *m = start_at("board=A3:l,B1:l turn=light phase=move roll=2 reserve=5/7 off=0/0");
    assert_string_equal(long_text(m, "A3"), "A3 → A1, rolls again"); /* UR-R12: a rosette */
    assert_string_equal(long_text(m, "B1"), "B1 → B3");
    pl_match_free(m);
    m = start_at("board=- turn=light phase=move roll=3 reserve=7/7 off=0/0");
    assert_string_equal(long_text(m, "enter"), "enter → A2"); /* UR-R6: index 3 */
    pl_match_free(m);
    /* UR-R9: bearing off from B1 (index 23) with a 1. */
    m = start_at("board=B1:L turn=light phase=move roll=1 reserve=0/7 off=6/0");
    assert_string_equal(long_text(m, "B1"), "B1 → off");
    th_play(m, "B1");
    assert_string_equal(told(m, 0, 0), "You bore a piece off (7 of 7).");
    pl_match_free(m);
    /* An illegal move lands nowhere: the notation alone. */
    m = start_at("board=A1:l,B1:l turn=light phase=move roll=1 reserve=5/7 off=0/0");
    assert_string_equal(long_text(m, "A1"), "A1");
    pl_match_free(m);
}

/* The cell of the picture at (row, col). */
static const pl_cell *cell_at(const pl_canvas *c, int row, int col)
{
    assert_true(row < c->rows && col < c->cols);
    return &c->cells[row * c->capcols + col];
}

static void test_UR_last_move_marked_and_sides_named(void **s)
{
    (void)s;
    pl_match *m = start_at("board=A1:l,B2:d turn=light phase=move roll=2 reserve=6/6 off=0/0");
    th_play(m, "A1");
    th_play(m, "roll 3"); /* chance after the move does not hide it */
    pl_canvas c = {0};
    pl_match_draw(m, 1, &c);
    /* B2 (row B = canvas row 3, column 2 at 3 + 7) and A1 (row 2, column 3) are marked; B3 is not. */
    assert_int_equal(cell_at(&c, 3, 10)->style, PL_ST_HILITE);
    assert_int_equal(cell_at(&c, 3, 16)->style, PL_ST_HILITE);
    assert_int_equal(cell_at(&c, 2, 3)->style, PL_ST_HILITE);
    assert_int_equal(cell_at(&c, 3, 17)->style, PL_ST_DIM);
    pl_buf t = {0}, plain = {0};
    pl_canvas_to_text(&c, &t);
    pl_show(m->game, m->state, -1, &plain);
    /* Dark's picture says which side is theirs and whose turn it is. */
    assert_non_null(strstr(pl_buf_str(&t), "Dark  (d blank, D marked): reserve 7, borne off 0 of 7  ← you"));
    assert_non_null(strstr(pl_buf_str(&t), "Dark (you) to move, roll 3"));
    assert_null(strstr(pl_buf_str(&plain), "you")); /* the protocol's `show` is as it was */
    pl_buf_free(&t);
    pl_buf_free(&plain);
    pl_canvas_free(&c);
    pl_match_free(m);
}

/* Expects `text` (the notation, or a raw action code when NULL) refused in
 * `position` with exactly `want`, the refusal's compact JSON (pl_game.refusal:
 * docs/web-views.md, `ur`, "Refusals"), and the state unchanged. */
static void expect_refusal(const char *opts, const char *position, const char *text, pl_action code,
                           const char *want)
{
    pl_match *m = pos(opts, position);
    char before[1024];
    snprintf(before, sizeof before, "%s", th_pos(m));
    const ur_state *st = m->state;
    pl_action a = code;
    pl_buf out = {0}, err = {0};
    if (text)
        assert_int_equal(ur_game.parse_action(m->state, st->turn, text, &a, &err), 0);
    if (pl_refusal_json(&ur_game, m->state, st->turn, a, &out, &err) != 0)
        fail_msg("%s in %s: no refusal (%s)", text ? text : "code", position, pl_buf_str(&err));
    if (strcmp(pl_buf_str(&out), want))
        fail_msg("%s in %s: refusal %s, expected %s", text ? text : "code", position, pl_buf_str(&out), want);
    assert_string_equal(th_pos(m), before);
    pl_buf_free(&out);
    pl_buf_free(&err);
    pl_match_free(m);
}

/* Every refusal word of docs/web-views.md, `ur`, "Refusals", where the rule
 * it names refuses a move: UR-R4 (a possible move must be made), UR-R6
 * (entering), UR-R9 (exact bearing off), UR-R10 (blank and marked never
 * meet), UR-R11, UR-R13..R17, Finkel's central rosette; none for a legal
 * move or another seat. */
static void test_UR_R4_R6_R9_R10_R11_R13_R14_R15_R16_R17_refusal_words(void **s)
{
    (void)s;
    const char *empty = "board=- turn=light phase=move roll=2 reserve=2/2 off=0/0";
    expect_refusal("pieces=2", empty, "pass", 0, "{\"why\":\"must-move\"}");
    expect_refusal("rules=finkel pieces=1", "board=- turn=light phase=move roll=0 reserve=1/1 off=0/0", "enter", 0,
                   "{\"why\":\"throw-zero\"}");
    expect_refusal("pieces=2", "board=A3:l turn=light phase=move roll=1 reserve=0/2 off=1/0", "enter", 0,
                   "{\"from\":\"reserve\",\"why\":\"reserve-empty\"}");
    expect_refusal("pieces=2", empty, "B5", 0, "{\"depth\":1,\"from\":\"B5\",\"why\":\"no-piece\"}");
    expect_refusal("pieces=2 stack=any", "board=B3:ld turn=light phase=move roll=1 reserve=1/1 off=0/0", NULL,
                   UR_ACT_MOVE | (UR_B3 << 2) | 2, "{\"count\":2,\"depth\":3,\"from\":\"B3\",\"why\":\"stack-short\"}");
    expect_refusal("pieces=2", "board=B3:ld turn=light phase=move roll=1 reserve=1/1 off=0/0", NULL,
                   UR_ACT_MOVE | (UR_B3 << 2) | 1, "{\"depth\":2,\"from\":\"B3\",\"why\":\"not-top\"}");
    expect_refusal("pieces=2", "board=B3:ld turn=light phase=move roll=1 reserve=1/1 off=0/0", "B3", 0,
                   "{\"depth\":1,\"from\":\"B3\",\"owner\":1,\"why\":\"not-yours\"}");
    expect_refusal("pieces=3 stack=any", "board=B3:dll turn=light phase=move roll=1 reserve=1/2 off=0/0", NULL,
                   UR_ACT_MOVE | (UR_B3 << 2) | 1, "{\"depth\":2,\"from\":\"B3\",\"why\":\"name-topmost\"}");
    /* UR-R9: a marked piece on B2 (path 22 of 24) bears off with a 2 only */
    expect_refusal("pieces=1", "board=B2:L turn=light phase=move roll=3 reserve=0/1 off=0/0", "B2", 0,
                   "{\"depth\":1,\"exact\":2,\"from\":\"B2\",\"why\":\"overshoot\"}");
    /* UR-R11 one piece on a plain square; UR-R17 no stacking on B1 */
    expect_refusal("pieces=2", "board=A4:l,A3:l turn=light phase=move roll=1 reserve=0/2 off=0/0", "A4", 0,
                   "{\"count\":1,\"depth\":1,\"from\":\"A4\",\"to\":\"A3\",\"why\":\"own-piece\"}");
    expect_refusal("pieces=2", "board=A1:l,B1:l turn=light phase=move roll=1 reserve=0/2 off=0/0", "A1", 0,
                   "{\"count\":1,\"depth\":1,\"from\":\"A1\",\"to\":\"B1\",\"why\":\"own-piece\"}");
    expect_refusal("rules=finkel pieces=1", "board=B3:l,B4:d turn=light phase=move roll=1 reserve=0/0 off=0/0", "B3", 0,
                   "{\"count\":1,\"depth\":1,\"from\":\"B3\",\"to\":\"B4\",\"why\":\"rosette-taken\"}");
    /* UR-R14: B7 belongs to whoever holds it */
    expect_refusal("pieces=1", "board=B5:l,B7:d turn=light phase=move roll=2 reserve=0/0 off=0/0", "B5", 0,
                   "{\"count\":1,\"depth\":1,\"from\":\"B5\",\"to\":\"B7\",\"why\":\"their-depot\"}");
    /* UR-R13: the own depot A4 holds four */
    expect_refusal("pieces=5", "board=A4:llll turn=light phase=move roll=1 reserve=1/5 off=0/0", "enter", 0,
                   "{\"count\":4,\"from\":\"reserve\",\"to\":\"A4\",\"why\":\"depot-full\"}");
    /* UR-R15: a safe square holds four of anyone */
    expect_refusal("pieces=3", "board=B1:l,B3:lldd turn=light phase=move roll=2 reserve=0/1 off=0/0", "B1", 0,
                   "{\"count\":4,\"depth\":1,\"from\":\"B1\",\"to\":\"B3\",\"why\":\"safe-full\"}");
    /* UR-R17: a marked piece on the finish is immune */
    expect_refusal("pieces=1", "board=A2:l,B1:D turn=light phase=move roll=2 reserve=0/0 off=0/0", "A2", 0,
                   "{\"count\":1,\"depth\":1,\"from\":\"A2\",\"to\":\"B1\",\"why\":\"finish-marked\"}");
    /* UR-R10: a blank piece cannot take a marked one, nor a marked piece a blank one */
    expect_refusal("pieces=1", "board=B2:l,B4:D turn=light phase=move roll=2 reserve=0/0 off=0/0", "B2", 0,
                   "{\"count\":1,\"depth\":1,\"from\":\"B2\",\"marked\":false,\"to\":\"B4\",\"why\":\"other-side\"}");
    expect_refusal("pieces=1", "board=A8:l,C8:d turn=light phase=move roll=2 reserve=0/0 off=0/0", "A8", 0,
                   "{\"count\":1,\"depth\":1,\"from\":\"A8\",\"marked\":true,\"to\":\"C8\",\"why\":\"other-side\"}");
    expect_refusal("pieces=2", empty, NULL, UR_ACT_ROLL | 2, "{\"why\":\"not-a-move\"}");
    expect_refusal("pieces=2", empty, NULL, UR_ACT_MOVE | (25u << 2), "{\"why\":\"no-square\"}");

    /* No words for a legal move, for the seat not to move, or outside phase MOVE. */
    pl_match *m = pos("pieces=2", empty);
    pl_buf out = {0}, err = {0};
    assert_int_equal(pl_refusal_json(&ur_game, m->state, 0, UR_ACT_ENTER, &out, &err), -1);
    assert_int_equal(pl_refusal_json(&ur_game, m->state, 1, UR_ACT_PASS, &out, &err), -1);
    assert_string_equal(pl_buf_str(&out), "");
    pl_match_free(m);
    m = pos("pieces=2", "board=- turn=light phase=roll roll=0 reserve=2/2 off=0/0");
    assert_int_equal(pl_refusal_json(&ur_game, m->state, 0, UR_ACT_ENTER, &out, &err), -1);
    pl_match_free(m);
    pl_buf_free(&out);
    pl_buf_free(&err);
}

/* The refusal words of docs/web-views.md, `ur`, "Refusals". */
static const char *const refusal_words[] = {
    "must-move", "throw-zero", "reserve-empty", "no-square", "no-piece", "stack-short", "not-top", "not-yours", "name-topmost",
    "overshoot", "own-piece", "rosette-taken", "their-depot", "depot-full", "safe-full", "finish-marked", "other-side", "not-a-move",
};
#define NWORDS (int)(sizeof refusal_words / sizeof refusal_words[0])

/* In random games of every option, at every move: every action the rules
 * refuse (pass, enter, each square and depth) has a documented word, a legal
 * one none, the seat not to move none. */
static void test_UR_refusal_every_refused_move_has_a_word(void **s)
{
    (void)s;
    pl_rng r;
    pl_rng_seed(&r, 31);
    long seen[NWORDS] = {0}, refused = 0;
    pl_action acts[PL_MAX_ACTIONS];
    for (int game = 0; game < 60; game++) {
        char opts[256];
        th_ur_options(&r, opts, sizeof opts, pl_rng_next(&r) >> 1);
        pl_match *m = th_new("ur", opts);
        while (ur_game.phase(m->state) != PL_PHASE_OVER) {
            const ur_state *st = m->state;
            pl_buf err = {0};
            if (ur_game.phase(m->state) == PL_PHASE_CHANCE) {
                assert_int_equal(pl_match_play(m, PL_CHANCE, pl_draw_chance(&ur_game, m->state, &r), &err), 0);
                pl_buf_free(&err);
                continue;
            }
            int seat = st->turn, n = pl_legal_all(&ur_game, st, seat, acts);
            pl_action cand[2 + UR_NSQ * 4];
            int nc = 0;
            cand[nc++] = UR_ACT_PASS;
            cand[nc++] = UR_ACT_ENTER;
            for (int sq = 0; sq < UR_NSQ; sq++)
                for (int d = 0; d < 4; d++)
                    cand[nc++] = UR_ACT_MOVE | (pl_action)(sq << 2) | (pl_action)d;
            for (int i = 0; i < nc; i++) {
                bool legal = false;
                for (int j = 0; j < n; j++)
                    legal |= acts[j] == cand[i];
                pl_buf out = {0};
                int rc = pl_refusal_json(&ur_game, st, seat, cand[i], &out, &err);
                if (legal) {
                    assert_int_equal(rc, -1);
                } else {
                    if (rc != 0)
                        fail_msg("no refusal for action %u in %s", (unsigned)cand[i], th_pos(m));
                    json_t *o = json_loads(pl_buf_str(&out), 0, NULL);
                    const char *why = json_string_value(json_object_get(o, "why"));
                    int w = 0;
                    while (w < NWORDS && (!why || strcmp(why, refusal_words[w])))
                        w++;
                    if (w == NWORDS)
                        fail_msg("undocumented refusal %s", pl_buf_str(&out));
                    seen[w]++;
                    refused++;
                    json_decref(o);
                }
                assert_int_equal(pl_refusal_json(&ur_game, st, 1 - seat, cand[i], &out, &err), -1);
                pl_buf_free(&out);
            }
            assert_int_equal(pl_match_play(m, seat, acts[pl_rng_below(&r, (uint32_t)n)], &err), 0);
            pl_buf_free(&err);
        }
        pl_match_free(m);
    }
    print_message("%ld refused actions worded:", refused);
    for (int w = 0; w < NWORDS; w++)
        print_message(" %s %ld", refusal_words[w], seen[w]);
    print_message("\n");
    assert_true(refused > 0 && seen[0] > 0); /* must-move */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_UR_R1_seven_pieces_and_option),
        cmocka_unit_test(test_UR_R2_three_lots_probabilities),
        cmocka_unit_test(test_UR_R3_random_starter_enters_with_forced_one),
        cmocka_unit_test(test_UR_R4_possible_move_must_be_made),
        cmocka_unit_test(test_UR_R5_extra_roll_only_for_rosette),
        cmocka_unit_test(test_UR_R6_enter_on_the_roll),
        cmocka_unit_test(test_UR_R7_forward_only_jumping_over),
        cmocka_unit_test(test_UR_R8_turns_marked_on_or_past_centre),
        cmocka_unit_test(test_UR_R9_bear_off_by_exact_roll),
        cmocka_unit_test(test_UR_R10_capture_same_side_only),
        cmocka_unit_test(test_UR_R11_one_piece_on_plain_squares),
        cmocka_unit_test(test_UR_R12_rosette_gives_no_protection),
        cmocka_unit_test(test_UR_R13_lane_eyes_hold_four),
        cmocka_unit_test(test_UR_R14_b7_depot_changes_hands),
        cmocka_unit_test(test_UR_R15_safe_squares_stack_anyone),
        cmocka_unit_test(test_UR_R16_only_the_top_piece_moves),
        cmocka_unit_test(test_UR_R17_finish_square),
        cmocka_unit_test(test_UR_R18_first_to_bear_off_all_wins),
        cmocka_unit_test(test_UR_consequence_duel),
        cmocka_unit_test(test_UR_consequence_four_on_entry_rosette),
        cmocka_unit_test(test_UR_consequence_small_block_blocks),
        cmocka_unit_test(test_UR_finkel_rules),
        cmocka_unit_test(test_UR_position_text_rejects_bad_positions),
        cmocka_unit_test(test_UR_R10_capture_is_announced_to_each_side),
        cmocka_unit_test(test_UR_R6_R9_R12_landing_squares_in_the_menu),
        cmocka_unit_test(test_UR_last_move_marked_and_sides_named),
        cmocka_unit_test(test_UR_R4_R6_R9_R10_R11_R13_R14_R15_R16_R17_refusal_words),
        cmocka_unit_test(test_UR_refusal_every_refused_move_has_a_word),
    };
    return cmocka_run_group_tests_name("rules_ur", tests, NULL, NULL);
}
