/* test_rules_tamcuc.c — Tam Cúc rules, one test (or more) per rule of
 * rules/tam-cuc.md, named by its id. Scenarios are played through the match
 * (every action checked for legality); end-game scenarios set the hands of a
 * state directly and then play through the match. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tamcuc_util.h"
#include "parlour/record.h"


static const char *view(pl_match *m, int seat)
{
    static char out[16384];
    pl_buf b = {0};
    m->game->view(m->state, seat, &b);
    snprintf(out, sizeof out, "%s", pl_buf_str(&b));
    pl_buf_free(&b);
    return out;
}

static const char *show(pl_match *m, int seat)
{
    static char out[32768];
    pl_buf b = {0};
    pl_show(m->game, m->state, seat, &b);
    snprintf(out, sizeof out, "%s", pl_buf_str(&b));
    pl_buf_free(&b);
    return out;
}

static void has(const char *hay, const char *needle)
{
    if (!strstr(hay, needle))
        fail_msg("expected '%s' in:\n%s", needle, hay);
}

static void hasnt(const char *hay, const char *needle)
{
    if (strstr(hay, needle))
        fail_msg("did not expect '%s' in:\n%s", needle, hay);
}

static void legal_is(pl_match *m, const char *want)
{
    const char *got = th_legal(m);
    if (strcmp(got, want))
        fail_msg("legal: got '%s', want '%s'", got, want);
}

static void illegal(pl_match *m, const char *text, const char *why)
{
    pl_buf e = {0};
    int rc = th_try(m, text, &e);
    if (rc == 0)
        fail_msg("'%s' should be illegal", text);
    if (why && !strstr(pl_buf_str(&e), why))
        fail_msg("'%s': message '%s' lacks '%s'", text, pl_buf_str(&e), why);
    pl_buf_free(&e);
}

/* Plays nodeclare while only nodeclare is legal. */
static void skip_decl(pl_match *m)
{
    while (S(m)->phase == TC_PH_DECL && !strcmp(th_legal(m), "nodeclare"))
        th_play(m, "nodeclare");
}

static long score(pl_match *m, int p)
{
    pl_outcome o;
    m->game->outcome(m->state, &o);
    return o.score[p];
}

/* ---------------------------------------------------------------- TC-R1 */

static void test_TC_R1_1_deck_of_32(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0");
    tc_state *s = S(m);
    assert_int_equal(tc_size(s->deck), 32);
    int copies[7] = {5, 2, 2, 2, 2, 2, 1};
    for (int k = 0; k < TC_NKIND; k++)
        assert_int_equal(TC_NIB(s->deck, k), copies[k >> 1]);
    pl_match_free(m);
}

static void test_TC_R1_2_rank_order_cannon_above_horse(void **st)
{
    (void)st;
    /* Seat 0 leads bH; seat 2 reveals bN: the Cannon wins (TC-R1.2). */
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none first_trick_ban=none "
                                   "deal=bH,rG,rA,rE,rC,bS,bS,bS/bG,bA,bE,bC,rN,rH,rS,rS/bN,rE,rC,rN,rH,rS,rS,rS/"
                                   "bA,rA,bE,bC,bN,bS,bS,bH");
    th_script(m, "lead bH; lay rH; lay bN; lay bS; reveal; reveal; hide");
    has(view(m, 1), "last 0 1 winner 2");
    /* and the red Horse (revealed by seat 1) lost to the Cannon as well */
    assert_true(tc_set_strength(C("bN"), 1) > tc_set_strength(C("rH"), 1));
    assert_true(tc_set_strength(C("rN"), 1) > tc_set_strength(C("bN"), 1));
    pl_match_free(m);
}

static void test_TC_R1_3_strength_total_order(void **st)
{
    (void)st;
    static const char *const order[14] = {"rG", "bG", "rA", "bA", "rE", "bE", "rC",
                                          "bC", "rN", "bN", "rH", "bH", "rS", "bS"};
    for (int i = 0; i + 1 < 14; i++)
        assert_true(tc_set_strength(C(order[i]), 1) > tc_set_strength(C(order[i + 1]), 1));
    assert_int_equal(tc_set_strength(C("rC"), 1), 2 * 3 + 1);
}

/* ---------------------------------------------------------------- TC-R2 */

static void test_TC_R2_1_single(void **st)
{
    (void)st;
    assert_int_equal(tc_set_strength(C("bS"), 1), 0);
    assert_int_equal(tc_set_strength(C("rG"), 1), 13);
    assert_int_equal(tc_set_strength(C("bS bS"), 1), -1);
}

static void test_TC_R2_2_pair_same_rank_and_colour(void **st)
{
    (void)st;
    assert_true(tc_set_strength(C("rC rC"), 2) > tc_set_strength(C("bC bC"), 2));
    assert_int_equal(tc_set_strength(C("rC bC"), 2), -1); /* colours differ */
    assert_int_equal(tc_set_strength(C("rC rN"), 2), -1);
    /* and a leader holding rC bC cannot lead them as a pair */
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none " D4);
    illegal(m, "lead rC rN", "not a set");
    pl_match_free(m);
}

static void test_TC_R2_3_triple_rules(void **st)
{
    (void)st;
    int rh = tc_set_strength(C("rG rA rE"), 3), bh = tc_set_strength(C("bG bA bE"), 3);
    int rl = tc_set_strength(C("rC rN rH"), 3), bl = tc_set_strength(C("bC bN bH"), 3);
    assert_true(rh > bh && bh > rl && rl > bl && bl >= 0);
    assert_int_equal(tc_set_strength(C("rG rA bE"), 3), -1);  /* mixed colours */
    assert_int_equal(tc_set_strength(C("rG rA rC"), 3), -1);  /* not G-A-E */
    assert_int_equal(tc_set_strength(C("rE rC rN"), 3), -1);
    assert_int_equal(tc_set_strength(C("rS rS rS"), 3), -1);  /* three Soldiers: no set */
    assert_int_equal(tc_set_strength(C("rC rC rN"), 3), -1);
    /* in play: black high triple beats red low triple (after the first trick) */
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none first_trick_ban=none " D4);
    th_script(m, "lead rC rN rH; lay bG bA bE; lay rA rE rS; lay bC bN bH; reveal; reveal; reveal");
    has(view(m, 0), "last 0 3 winner 1");
    pl_match_free(m);
}

static void test_TC_R2_4_four_soldiers(void **st)
{
    (void)st;
    assert_int_equal(tc_set_strength(C("rS rS rS rS"), 4), 1);
    assert_int_equal(tc_set_strength(C("bS bS bS bS"), 4), 0);
    assert_int_equal(tc_set_strength(C("rS rS rS bS"), 4), -1);
    /* red Four beats black Four in play */
    pl_match *m = th_new("tamcuc", "seed=1 dealer=3 soldier_special=none first_trick_ban=none "
                                   "deal=rS,rS,rS,rS,rG,rA,rE,rC/bG,bA,bE,bC,bN,bH,rN,rH/"
                                   "rA,rE,rC,rN,rH,rS,bC,bN/bS,bS,bS,bS,bS,bA,bE,bH");
    th_script(m, "lead bS bS bS bS; lay rS rS rS rS; lay bG bA bE bC; lay rA rE rC rN; reveal; reveal; hide");
    has(view(m, 2), "last 3 4 winner 0");
    pl_match_free(m);
}

static void test_TC_R2_5_five_soldiers(void **st)
{
    (void)st;
    assert_int_equal(tc_set_strength(C("rS rS rS rS rS"), 5), 1);
    assert_int_equal(tc_set_strength(C("bS bS bS bS bS"), 5), 0);
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none "
                                   "deal=bS,bS,bS,bS,bS,rG,rA,rE/rS,rS,rS,rS,rS,bG,bA,bE/"
                                   "rA,rE,rC,rN,rH,bC,bN,bH/bA,bE,bC,bN,bH,rC,rN,rH");
    th_script(m, "lead bS bS bS bS bS; lay rS rS rS rS rS; lay rA rE rC rN rH; lay bA bE bC bN bH; reveal; reveal; reveal");
    has(view(m, 0), "last 0 5 winner 1");
    pl_match_free(m);
}

static void test_TC_R2_6_category_is_size(void **st)
{
    (void)st;
    /* A pair led: a follower revealing a stronger non-pair cannot win. */
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none first_trick_ban=none " D4);
    th_script(m, "lead bS bS; lay bG bA; lay rS rS; lay bS bS; reveal; reveal; reveal");
    /* seat 1's bG bA is no pair; seat 2's rS pair beats bS pair; seat 3's equal pair ties */
    has(view(m, 0), "last 0 2 winner 2");
    pl_match_free(m);
}

/* ---------------------------------------------------------------- TC-R3 */

static void test_TC_R3_1_four_players_eight_each(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=5 dealer=1");
    th_play(m, "deal bS,bS,bS,bS,bS,rS,rS,rS/rS,rS,bH,bH,rH,rH,bN,bN/rN,rN,bC,bC,rC,rC,bE,bE/rE,rE,bA,bA,rA,rA,bG,rG");
    has(view(m, 0), "sizes 8 8 8 8");
    pl_buf e = {0};
    assert_int_equal(th_try(m, "x", &e), -1);
    pl_buf_free(&e);
    pl_match_free(m);
    m = th_new("tamcuc", "seed=5 dealer=1");
    illegal(m, "deal bS,bS,bS,bS,bS,rS,rS/rS,rS,rS,bH,bH,rH,rH,bN,bN/rN,rN,bC,bC,rC,rC,bE,bE/rE,rE,bA,bA,rA,rA,bG,rG",
            "each hand holds 8");
    pl_match_free(m);
}

static void test_TC_R3_2_three_player_decks(void **st)
{
    (void)st;
    struct {
        const char *opt;
        int size, hs;
        const char *absent;
        int rs, bs;
    } c[3] = {{"three_p_deck=seed_27", 27, 9, "rG bG", 5, 4},
              {"three_p_deck=alt_27", 27, 9, "rG bG", 4, 4},
              {"three_p_deck=deck_30", 30, 10, NULL, 4, 4}};
    for (int i = 0; i < 3; i++) {
        char o[128];
        snprintf(o, sizeof o, "players=3 seed=2 dealer=0 %s", c[i].opt);
        pl_match *m = th_new("tamcuc", o);
        tc_state *s = S(m);
        assert_int_equal(tc_size(s->deck), c[i].size);
        assert_int_equal(s->hs, c[i].hs);
        assert_int_equal(TC_NIB(s->deck, TC_RS), c[i].rs);
        assert_int_equal(TC_NIB(s->deck, TC_BS), c[i].bs);
        if (c[i].absent) {
            assert_int_equal(TC_NIB(s->deck, TC_RG), 0);
            assert_int_equal(TC_NIB(s->deck, TC_BG), 0);
            assert_int_equal(TC_NIB(s->deck, TC_RA), 1);
            assert_int_equal(TC_NIB(s->deck, TC_BA), i == 0 ? 1 : 2);
        } else {
            assert_int_equal(TC_NIB(s->deck, TC_RG), 1);
        }
        pl_rng r;
        pl_rng_seed(&r, 9);
        pl_action a = m->game->sample_chance(m->state, &r);
        pl_buf e = {0};
        assert_int_equal(pl_match_play(m, PL_CHANCE, a, &e), 0);
        pl_buf_free(&e);
        for (int p = 0; p < 3; p++)
            assert_int_equal(tc_size(s->hand[p]), c[i].hs);
        assert_true(tc_subset(s->hand[0] + s->hand[1] + s->hand[2], s->deck));
        pl_match_free(m);
    }
    /* a deal with a removed card is refused */
    pl_match *m = th_new("tamcuc", "players=3 seed=2 dealer=0");
    illegal(m, "deal rG,rA,bE,rE,rC,bC,rN,bN,rH/bE,rE,bC,rC,bN,rN,bH,rH,rS/bH,rS,rS,rS,rS,bS,bS,bS,bS", NULL);
    pl_match_free(m);
    pl_buf e = {0};
    char *argv[] = {"three_p_deck=alt_27"};
    assert_null(pl_match_new(&tc_game, 1, argv, &e));
    has(pl_buf_str(&e), "three_p_deck");
    pl_buf_free(&e);
}

static void test_TC_R3_3_two_players_open_hands(void **st)
{
    (void)st;
    const char *deal = "deal=rG,rA,rA,rE,rE,rC,rC,rN,rN,rH,rH,rS,rS,rS,rS,rS/"
                       "bG,bA,bA,bE,bE,bC,bC,bN,bN,bH,bH,bS,bS,bS,bS,bS";
    char o[512];
    snprintf(o, sizeof o, "players=2 seed=1 dealer=0 soldier_special=none first_trick_ban=none %s", deal);
    pl_match *m = th_new("tamcuc", o);
    has(view(m, 0), "sizes 16 16");
    has(view(m, 0), "opponent may-hold bG bA bA bE bE bC bC bN bN bH bH bS bS bS bS bS");
    /* seat 0 leads rH; seat 1 lays bG face down and hides it: with INITIAL
     * seat 0 still sees bG as "may hold" (a chui is not leaked). */
    th_script(m, "lead rH; lay bG; hide");
    has(view(m, 0), "opponent may-hold bG bA");
    has(view(m, 1), "opponent may-hold rG rA rA rE rE rC rC rN rN rH rS"); /* rH shown */
    pl_match_free(m);
    snprintf(o, sizeof o, "players=2 seed=1 dealer=0 soldier_special=none two_p_open_hands=current %s", deal);
    m = th_new("tamcuc", o);
    th_script(m, "lead rH; lay bG; hide");
    has(view(m, 0), "opponent holds bA bA"); /* CURRENT shows the hand: bG gone */
    hasnt(view(m, 0), "opponent holds bG");
    pl_match_free(m);
    snprintf(o, sizeof o, "players=2 seed=1 dealer=0 soldier_special=none two_p_open_hands=off %s", deal);
    m = th_new("tamcuc", o);
    hasnt(view(m, 0), "opponent");
    pl_match_free(m);
}

static void test_TC_R3_4_counter_clockwise_order(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=2 soldier_special=none first_trick_ban=none " D4);
    assert_int_equal(pl_sole_actor(m->game, m->state), 2); /* the dealer leads */
    th_play(m, "lead rS");
    assert_int_equal(pl_sole_actor(m->game, m->state), 3);
    th_play(m, "lay bS");
    assert_int_equal(pl_sole_actor(m->game, m->state), 0); /* wraps round */
    th_play(m, "lay bS");
    assert_int_equal(pl_sole_actor(m->game, m->state), 1);
    th_play(m, "lay rS");
    assert_int_equal(pl_sole_actor(m->game, m->state), 3); /* reveals in the same order */
    pl_match_free(m);
}

/* ---------------------------------------------------------------- TC-R4 */

static void test_TC_R4_1_counting_first_dealer(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1");
    legal_is(m, "random");
    /* provisional dealer 0: cards to seats 1, 2, 3, 0; names G A E C | N H S:
     * seat 1 bS≠G, 2 bS≠A, 3 bS≠E, 0 bS≠C, 1 bS≠N, 2 bS≠H, 3 bS=S → seat 3 */
    th_play(m, "count 0 bS bS bS bS");
    assert_int_equal(S(m)->dealer, 3);
    assert_int_equal(S(m)->count_steps, 7);
    has(view(m, 2), "counting 0 bS bS bS bS steps 7");
    pl_match_free(m);
    m = th_new("tamcuc", "seed=1");
    th_play(m, "count 2 rG bA rS rH"); /* seat 3 gets rG and is named G first */
    assert_int_equal(S(m)->dealer, 3);
    pl_match_free(m);
    m = th_new("tamcuc", "seed=1");
    th_play(m, "count 1 rC bC rN bA"); /* 2:C≠G 3:C≠A 0:N≠E 1:A≠C 2:C≠N 3:C≠H 0:N≠S 1:A≠G 2:C=A? no… */
    /* names by step: t0 G→2 rC, t1 A→3 bC, t2 E→0 rN, t3 C→1 bA, t4 N→2 rC, t5 H→3 bC,
     * t6 S→0 rN, t7 G→1 bA, t8 A→2 rC, t9 E→3 bC, t10 C→0 rN, t11 N→1 bA, t12 H→2,
     * t13 S→3, t14 G→0, t15 A→1 bA: match */
    assert_int_equal(S(m)->dealer, 1);
    assert_int_equal(S(m)->count_steps, 16);
    pl_match_free(m);
    /* three players: a counting always ends (7·n names) */
    m = th_new("tamcuc", "players=3 seed=1");
    th_play(m, "count 0 bS bE bC");
    assert_true(S(m)->count_steps >= 1 && S(m)->count_steps <= 21);
    pl_match_free(m);
    m = th_new("tamcuc", "seed=1");
    illegal(m, "count 0 rG rG bS bS", "not all in the deck"); /* one rG only */
    illegal(m, "count 4 bS bS bS bS", "provisional dealer");
    pl_match_free(m);
    /* FIRST_DEALER=RANDOM: a listed draw */
    m = th_new("tamcuc", "seed=1 first_dealer=random");
    legal_is(m, "dealer 0 dealer 1 dealer 2 dealer 3");
    th_play(m, "dealer 2");
    assert_int_equal(S(m)->dealer, 2);
    pl_match_free(m);
}

static void test_TC_R4_2_next_dealer(void **st)
{
    (void)st;
    static const char *const opt[3] = {"next_dealer=rotate_ccw", "next_dealer=last_trick_winner",
                                       "next_dealer=recount"};
    for (int i = 0; i < 3; i++) {
        char o[256];
        snprintf(o, sizeof o, "seed=4 dealer=2 session_end=deals:2 soldier_special=none %s", opt[i]);
        pl_match *m = th_new("tamcuc", o);
        pl_buf e = {0};
        assert_int_equal(pl_match_random(m, NULL, &e), 0);
        pl_rng r;
        pl_rng_seed(&r, 7);
        while (S(m)->deals_done == 0) {
            pl_action acts[PL_MAX_ACTIONS];
            int seat = pl_sole_actor(m->game, m->state);
            int n = m->game->legal(m->state, seat, acts, PL_MAX_ACTIONS);
            assert_int_equal(pl_match_play(m, seat, acts[pl_rng_below(&r, (uint32_t)n)], &e), 0);
        }
        pl_buf_free(&e);
        int lw = S(m)->pv_winner; /* the last trick stays on view */
        if (i == 0)
            assert_int_equal(S(m)->dealer, 3);
        else if (i == 1)
            assert_int_equal(S(m)->dealer, lw);
        else
            assert_int_equal(S(m)->phase, TC_PH_COUNT);
        assert_int_equal(S(m)->phase == TC_PH_DEAL || S(m)->phase == TC_PH_COUNT, 1);
        pl_match_free(m);
    }
}

static void test_TC_R4_3_deal(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=11 dealer=0");
    legal_is(m, "random");
    pl_action a;
    pl_buf e = {0};
    assert_int_equal(pl_match_random(m, &a, &e), 0);
    tc_cards all = 0;
    for (int p = 0; p < 4; p++) {
        assert_int_equal(tc_size(S(m)->hand[p]), 8);
        all += S(m)->hand[p];
    }
    assert_true(all == S(m)->deck);
    /* the deal's text replays the same deal */
    pl_buf t = {0};
    m->game->format_action(m->initial, PL_CHANCE, a, &t);
    pl_match *m2 = th_new("tamcuc", "seed=99 dealer=0");
    th_play(m2, pl_buf_str(&t));
    for (int p = 0; p < 4; p++)
        assert_true(S(m2)->hand[p] == S(m)->hand[p]);
    /* another seat sees only its own hand in the deal's text */
    pl_buf_clear(&t);
    m->game->format_action_for(m->initial, PL_CHANCE, a, 2, &t);
    has(pl_buf_str(&t), "deal ?/?/");
    hasnt(pl_buf_str(&t), "/?/?/?");
    pl_buf_free(&t);
    pl_buf_free(&e);
    pl_match_free(m);
    pl_match_free(m2);
}

static void test_TC_R4_4_night_exchange(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none night_exchange=2 " D4);
    int seats[8];
    assert_int_equal(m->game->actors(m->state, seats), 4); /* all at once */
    assert_int_equal(pl_sole_actor(m->game, m->state), -1);
    pl_buf e = {0};
    assert_int_equal(pl_match_play_text(m, 2, "pass rS rS", &e), 0);
    assert_int_equal(m->game->actors(m->state, seats), 3);
    /* seat 2's pass is face down to others */
    pl_buf t = {0};
    pl_action a;
    assert_int_equal(m->game->parse_action(m->state, 1, "pass rG rA", &a, &e), 0);
    m->game->format_action_for(m->state, 1, a, 0, &t);
    assert_string_equal(pl_buf_str(&t), "pass 2");
    assert_int_equal(pl_match_play_text(m, 0, "pass rG rA", &e), 0);
    assert_int_equal(pl_match_play_text(m, 1, "pass bG bA", &e), 0);
    assert_int_equal(pl_match_play_text(m, 3, "pass bS bS", &e), 0);
    pl_buf_free(&e);
    pl_buf_free(&t);
    /* each received from the seat before him */
    assert_true(S(m)->hand[1] == C("bE bC bN bH rS rS rG rA"));
    assert_true(S(m)->hand[3] == C("bA bE bC bN bH bS rS rS"));
    assert_true(S(m)->hand[0] == C("rE rC rN rH bS bS bS bS"));
    has(view(m, 1), "received 1 rG rA");
    hasnt(view(m, 1), "passed 3");
    pl_match_free(m);
}

/* ---------------------------------------------------------------- TC-R5 */

/* Seat 2 holds five black Soldiers, seat 3 five red ones. */
#define DFIVE "deal=rG,rA,rE,rC,rN,rH,bC,bN/bG,bA,bE,bC,bN,bH,rA,rE/bS,bS,bS,bS,bS,rC,rN,rH/rS,rS,rS,rS,rS,bA,bE,bH"

static void test_TC_R5_1_declaration_order(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=1 " DFIVE);
    /* Five round from the dealer: seats 1, 2 asked; 1 cannot declare */
    assert_int_equal(pl_sole_actor(m->game, m->state), 1);
    legal_is(m, "nodeclare");
    th_play(m, "nodeclare");
    assert_int_equal(pl_sole_actor(m->game, m->state), 2);
    legal_is(m, "declare five nodeclare");
    th_play(m, "nodeclare");
    th_play(m, "nodeclare"); /* seat 3 may too, declines */
    th_play(m, "nodeclare"); /* seat 0 */
    /* then the Four round, again from the dealer */
    has(view(m, 0), "asking four 1");
    illegal(m, "declare four", "declaring needs 4 Soldiers");
    pl_match_free(m);
    /* mandatory: a holder must declare */
    m = th_new("tamcuc", "seed=1 dealer=1 soldier_declare_mandatory=on " DFIVE);
    th_play(m, "nodeclare");
    legal_is(m, "declare five");
    pl_match_free(m);
}

/* TC-R5.1 in the picture: the declaration names the seat that declared,
 * counted as the caller asks (0 for the protocol's `show`, 1 for people). */
static void test_TC_R5_1_declaration_drawn_by_seat(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=1 " DFIVE);
    th_play(m, "nodeclare");
    th_play(m, "declare five"); /* seat 2 */
    for (int from = 0; from <= 1; from++) {
        pl_canvas c = {0};
        c.seat_from = from;
        m->game->draw(m->state, -1, &c);
        pl_buf t = {0};
        pl_canvas_to_text(&c, &t);
        char want[40];
        snprintf(want, sizeof want, "Seat %d declared Five Soldiers", 2 + from);
        assert_non_null(strstr(pl_buf_str(&t), want));
        pl_buf_free(&t);
        pl_canvas_free(&c);
    }
    pl_match_free(m);
}

/* With mandatory declaring, a seat that answered nodeclare holds fewer than
 * four Soldiers of each colour, and the searching seat's samples respect it
 * (without the option the answer says nothing, and samples do hold four). */
static void test_TC_R5_1_determinized_nodeclare(void **st)
{
    (void)st;
    for (int mandatory = 0; mandatory < 2; mandatory++) {
        pl_match *m = th_new("tamcuc", mandatory ? "seed=1 dealer=0 soldier_declare_mandatory=on " D4
                                                 : "seed=1 dealer=0 " D4);
        skip_decl(m);
        assert_int_equal(S(m)->phase, TC_PH_LEAD);
        tc_state d;
        pl_rng r;
        pl_rng_seed(&r, 5);
        int four = 0;
        for (int i = 0; i < 400; i++) {
            m->game->determinize(m->state, 0, &r, &d);
            for (int t = 1; t < 4; t++)
                four += TC_NIB(d.hand[t], TC_RS) >= 4 || TC_NIB(d.hand[t], TC_BS) >= 4;
        }
        if (mandatory)
            assert_int_equal(four, 0);
        else
            assert_true(four > 0);
        pl_match_free(m);
    }
}

static void test_TC_R5_2_seize_five_and_counter(void **st)
{
    (void)st;
    /* black Five declared by seat 2, countered by seat 3's red Five */
    pl_match *m = th_new("tamcuc", "seed=1 dealer=1 " DFIVE);
    th_script(m, "nodeclare; declare five");
    has(view(m, 0), "declared 2 five black");
    has(view(m, 0), "asking five 3 counter");
    legal_is(m, "declare five nodeclare");
    th_play(m, "declare five");
    has(view(m, 0), "declared 3 five red counter");
    skip_decl(m); /* the Four round: nobody else can */
    assert_int_equal(S(m)->phase, TC_PH_LEAD);
    assert_int_equal(pl_sole_actor(m->game, m->state), 3); /* the counter-declarer leads */
    pl_match_free(m);
    /* not countered: the black declarer leads */
    m = th_new("tamcuc", "seed=1 dealer=1 " DFIVE);
    th_script(m, "nodeclare; declare five; nodeclare; nodeclare; nodeclare");
    th_script(m, "nodeclare; nodeclare; nodeclare; nodeclare"); /* the Four round */
    assert_int_equal(S(m)->phase, TC_PH_LEAD);
    assert_int_equal(pl_sole_actor(m->game, m->state), 2);
    /* and may lead anything, the Five included */
    has(th_legal(m), "lead bS bS bS bS bS");
    pl_match_free(m);
    /* a red Five cannot be countered: the round ends at once */
    m = th_new("tamcuc", "seed=1 dealer=3 " DFIVE);
    th_play(m, "declare five");
    has(view(m, 0), "asking four 3");
    pl_match_free(m);
}

/* Seat 1 holds four black Soldiers, seat 2 four red ones. */
#define DFOUR "deal=rG,rA,rE,rC,rN,rH,bS,rS/bS,bS,bS,bS,bG,bA,bE,bC/rS,rS,rS,rS,rA,rE,rC,rN/bA,bE,bC,bN,bH,rH,bN,bH"

static void test_TC_R5_3_seize_four_extra_trick(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 " DFOUR);
    th_script(m, "nodeclare; nodeclare; nodeclare; nodeclare"); /* Five round */
    th_play(m, "nodeclare");                                      /* seat 0, Four round */
    th_play(m, "declare four");                                   /* seat 1 */
    assert_int_equal(S(m)->phase, TC_PH_LEAD);
    legal_is(m, "lead bS bS bS bS"); /* he leads his Four at once */
    th_script(m, "lead bS bS bS bS; lay rS rS rS rS; lay bA bE bC bN; lay rG rA rE rC; reveal; hide; hide");
    has(view(m, 0), "last 1 4 winner 2"); /* only the red Four beats it */
    /* the Four round goes on with seat 2, then the dealer leads */
    assert_int_equal(pl_sole_actor(m->game, m->state), 2);
    skip_decl(m);
    assert_int_equal(S(m)->phase, TC_PH_LEAD);
    assert_int_equal(pl_sole_actor(m->game, m->state), 0);
    assert_int_equal(tc_size(S(m)->hand[0]), 4);
    pl_match_free(m);
    /* FOUR_NEXT_LEAD=TRICK_WINNER: the extra trick's winner leads */
    m = th_new("tamcuc", "seed=1 dealer=0 four_next_lead=trick_winner " DFOUR);
    th_script(m, "nodeclare; nodeclare; nodeclare; nodeclare; nodeclare; declare four");
    th_script(m, "lead bS bS bS bS; lay rS rS rS rS; lay bA bE bC bN; lay rG rA rE rC; reveal; hide; hide");
    skip_decl(m);
    assert_int_equal(pl_sole_actor(m->game, m->state), 2);
    pl_match_free(m);
}

/* TC-R5.3: the extra trick is led with the declared Four. A holder of both
 * Fours declares red (the red set when held) and leads the red one. */
static void test_TC_R5_3_extra_trick_led_with_declared_four(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "players=2 seed=1 dealer=0 "
                                   "deal=rS,bS,rG,bG,rA,rA,bA,bA,rE,rE,bE,bE,rC,rC,bC,bC/"
                                   "rS,rS,rS,rS,bS,bS,bS,bS,rN,rN,bN,bN,rH,rH,bH,bH");
    th_script(m, "nodeclare; nodeclare; nodeclare; declare four");
    has(view(m, 0), "declared 1 four red");
    legal_is(m, "lead rS rS rS rS");
    illegal(m, "lead bS bS bS bS", "TC-R5.3");
    /* the searching seat redraws the face-down extra lead as the declared Four */
    th_play(m, "lead rS rS rS rS");
    tc_state d;
    pl_rng r;
    pl_rng_seed(&r, 7);
    for (int i = 0; i < 100; i++) {
        m->game->determinize(m->state, 0, &r, &d);
        assert_true(d.tlead == 4 * TC_ONE(TC_RS));
    }
    pl_match_free(m);
    /* a black Four declared: the black one is led */
    m = th_new("tamcuc", "seed=1 dealer=0 " DFOUR);
    th_script(m, "nodeclare; nodeclare; nodeclare; nodeclare; nodeclare; declare four");
    legal_is(m, "lead bS bS bS bS");
    pl_match_free(m);
}

static void test_TC_R5_3a_three_players_four_seizes(void **st)
{
    (void)st;
    /* alt_27: four Soldiers a colour; seat 1 black Four, seat 2 red Four */
    pl_match *m = th_new("tamcuc", "players=3 three_p_deck=alt_27 seed=1 dealer=0 "
                                   "deal=bA,bA,rA,rE,rE,bE,bE,rC,rC/bS,bS,bS,bS,bC,bC,rN,rN,bN/"
                                   "rS,rS,rS,rS,bN,rH,rH,bH,bH");
    /* no Five round in this deck: the Four round starts */
    has(view(m, 0), "asking four 0");
    th_script(m, "nodeclare; declare four");
    has(view(m, 0), "asking four 2 counter");
    th_play(m, "declare four");
    assert_int_equal(S(m)->phase, TC_PH_LEAD);
    assert_int_equal(pl_sole_actor(m->game, m->state), 2); /* seized, no extra trick */
    assert_int_equal(tc_size(S(m)->hand[2]), 9);
    pl_match_free(m);
}

static void test_TC_R5_4_seize_unlocks_first_trick(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=3 " DFIVE);
    th_script(m, "declare five; nodeclare; nodeclare; nodeclare; nodeclare");
    has(th_legal(m), "lead rS"); /* seat 3 leads */
    has(th_legal(m), "lead bA");  /* A banned by G_A, but unlocked */
    pl_match_free(m);
    m = th_new("tamcuc", "seed=1 dealer=3 seize_unlocks_first_trick=off " DFIVE);
    th_script(m, "declare five; nodeclare; nodeclare; nodeclare; nodeclare");
    hasnt(th_legal(m), "lead bA");
    illegal(m, "lead bA", "banned");
    pl_match_free(m);
}

static void test_TC_R5_5_autowin_payments(void **st)
{
    (void)st;
    /* black Five intercepted by the red Five: 3 from every other player */
    pl_match *m = th_new("tamcuc", "seed=1 dealer=1 soldier_special=autowin " DFIVE);
    th_script(m, "nodeclare; declare five; declare five");
    assert_int_equal(S(m)->phase, TC_PH_OVER);
    assert_int_equal(score(m, 3), 9);
    assert_int_equal(score(m, 0), -3);
    assert_int_equal(score(m, 2), -3);
    pl_match_free(m);
    /* a black Four not intercepted: 2 from each */
    m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=autowin " DFOUR);
    th_script(m, "nodeclare; nodeclare; nodeclare; nodeclare; nodeclare; declare four; nodeclare; nodeclare; nodeclare");
    assert_int_equal(S(m)->phase, TC_PH_OVER);
    assert_int_equal(score(m, 1), 6);
    assert_int_equal(score(m, 2), -2);
    pl_match_free(m);
}

static void test_TC_R5_6_autowin_ends_deal_option(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=3 soldier_special=autowin autowin_ends_deal=off " DFIVE);
    th_play(m, "declare five"); /* red Five: paid at once */
    assert_int_equal(S(m)->dscore[3], 9);
    th_script(m, "nodeclare; nodeclare; nodeclare; nodeclare");
    assert_int_equal(S(m)->phase, TC_PH_LEAD); /* play goes on, hands unchanged */
    assert_int_equal(tc_size(S(m)->hand[3]), 8);
    pl_match_free(m);
}

static void test_TC_R5_7_big_soldier_leads(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=2 soldier_special=none " DFIVE);
    has(th_legal(m), "lead bS bS bS bS bS");
    has(th_legal(m), "lead bS bS bS bS");
    pl_match_free(m);
    m = th_new("tamcuc", "seed=1 dealer=2 soldier_special=none big_soldier_leads=off " DFIVE);
    hasnt(th_legal(m), "lead bS bS bS bS");
    illegal(m, "lead bS bS bS bS", "big_soldier_leads");
    pl_match_free(m);
}

/* ---------------------------------------------------------------- TC-R6 */

static void test_TC_R6_1_lead_face_down(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none " D4);
    th_play(m, "lead rC rN rH");
    has(view(m, 1), "lead 0 down 3\n");
    has(view(m, 0), "lead 0 down 3 rC rN rH");
    hasnt(show(m, 1), "rC");
    pl_buf t = {0};
    pl_action a;
    pl_buf e = {0};
    assert_int_equal(m->game->parse_action(m->initial, 0, "lead rC rN rH", &a, &e), 0);
    m->game->format_action_for(m->initial, 0, a, 1, &t);
    assert_string_equal(pl_buf_str(&t), "lead 3");
    pl_buf_free(&t);
    pl_buf_free(&e);
    pl_match_free(m);
}

static void test_TC_R6_2_followers_lay_n_cards_face_down(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none " D4);
    th_play(m, "lead bS bS");
    /* any 2 of 8 distinct multisets: seat 1 has 6 single kinds + rS×2: C(6,2)+6+1 = 22 */
    pl_action acts[PL_MAX_ACTIONS];
    assert_int_equal(m->game->legal(m->state, 1, acts, PL_MAX_ACTIONS), 22);
    illegal(m, "lay bG", "exactly 2 cards");
    th_play(m, "lay bG rS");
    has(view(m, 2), "lay 1 down 2\n");
    has(view(m, 2), "lead 0 down 2\n"); /* the lead is not yet shown */
    pl_match_free(m);
}

static void test_TC_R6_2_worst_case_lay_count(void **st)
{
    (void)st;
    /* two players, 16 cards of 14 kinds, a five-card lead: within PL_MAX_ACTIONS */
    pl_match *m = th_new("tamcuc", "players=2 seed=1 dealer=0 soldier_special=none first_trick_ban=none "
                                   "deal=rS,rS,rS,rS,rS,bS,bS,bS,bS,bS,rG,bG,rA,bA,rE,bE/"
                                   "rA,bA,rE,bE,rC,rC,bC,bC,rN,rN,bN,bN,rH,rH,bH,bH");
    th_play(m, "lead rS rS rS rS rS");
    pl_action acts[PL_MAX_ACTIONS];
    int n = m->game->legal(m->state, 1, acts, PL_MAX_ACTIONS);
    assert_true(n > 0 && n <= PL_MAX_ACTIONS);
    /* distinct: no duplicates */
    for (int i = 1; i < n; i++)
        assert_true(acts[i] != acts[i - 1]);
    pl_match_free(m);
}

static void test_TC_R6_3_reveal_or_hide_holding_a_winner(void **st)
{
    (void)st;
    /* seat 1 holds bG bA bE but hides it: the red low triple lead wins */
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none first_trick_ban=none " D4);
    th_script(m, "lead rC rN rH; lay bG bA bE; lay rS rS rS; lay bS bS bS");
    assert_int_equal(S(m)->phase, TC_PH_REVEAL);
    has(view(m, 1), "lead 0 up rC rN rH"); /* shown before the reveals */
    legal_is(m, "reveal hide");
    th_script(m, "hide; reveal; reveal");
    has(view(m, 3), "last 0 3 winner 0 lead rC,rN,rH 1:hidden 2:rS,rS,rS 3:bS,bS,bS");
    /* the hidden cards stay secret to others, known to their owner */
    has(view(m, 1), "discard 1 public 0 - secret 3 bG bA bE");
    has(view(m, 2), "discard 1 public 0 - secret 3\n");
    hasnt(view(m, 2), "bG");
    pl_match_free(m);
}

static void test_TC_R6_4_ties_go_to_earliest(void **st)
{
    (void)st;
    /* seats 2 and 3 both reveal a bS pair after a bS pair lead: the leader keeps it */
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none first_trick_ban=none " D4);
    th_script(m, "lead bS bS; lay bC bN; lay rS rC; lay bS bS; reveal; reveal; reveal");
    has(view(m, 0), "last 0 2 winner 0");
    pl_match_free(m);
    /* two equal follower sets: the earlier follower wins */
    m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none first_trick_ban=none "
                         "deal=bS,rG,rA,rE,rN,rH,bS,bS/rC,bG,bA,bE,bC,bN,bH,rS/rC,rA,rE,rN,rH,rS,rS,rS/bA,bE,bC,bN,bH,bS,bS,rS");
    th_script(m, "lead bS; lay rC; lay rC; lay bS; reveal; reveal; reveal");
    has(view(m, 0), "last 0 1 winner 1");
    pl_match_free(m);
}

static void test_TC_R6_5_winner_keeps_only_his_cards(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none first_trick_ban=none " D4);
    th_script(m, "lead bS; lay rS; lay rC; lay bA; reveal; reveal; hide");
    /* seat 2 wins with rC; keeps it; the others go to the discards */
    has(view(m, 0), "won 2 1 rC\n");
    has(view(m, 0), "discard 0 public 1 bS secret 0");
    has(view(m, 0), "discard 1 public 1 rS secret 0");
    has(view(m, 0), "discard 3 public 0 - secret 1\n");
    has(view(m, 3), "discard 3 public 0 - secret 1 bA");
    pl_match_free(m);
}

static void test_TC_R6_6_winner_leads_and_deal_ends_when_empty(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none first_trick_ban=none " D4);
    th_script(m, "lead bS; lay rS; lay rC; lay bA; reveal; reveal; hide");
    assert_int_equal(pl_sole_actor(m->game, m->state), 2);
    has(view(m, 0), "sizes 7 7 7 7");
    /* play it out: the deal ends with every hand empty */
    pl_rng r;
    pl_rng_seed(&r, 3);
    pl_buf e = {0};
    while (m->game->phase(m->state) != PL_PHASE_OVER) {
        pl_action acts[PL_MAX_ACTIONS];
        int seat = pl_sole_actor(m->game, m->state);
        int n = m->game->legal(m->state, seat, acts, PL_MAX_ACTIONS);
        assert_int_equal(pl_match_play(m, seat, acts[pl_rng_below(&r, (uint32_t)n)], &e), 0);
    }
    pl_buf_free(&e);
    for (int p = 0; p < 4; p++)
        assert_int_equal(S(m)->hand[p], 0);
    pl_match_free(m);
}

static void test_TC_R6_7_last_lead(void **st)
{
    (void)st;
    /* a 2-card pair led from 2 cards is the last lead: kết applies (R8.3);
     * the same pair led from 3 cards is not. */
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none");
    const char *h[4] = {"rC rC bS", "bS bS bS", "rS rS rS", "bH bS bN"};
    const char *w[4] = {"rG", "-", "-", "-"};
    endgame(m, h, w, 0);
    th_script(m, "lead rC rC; lay bS bS; lay rS rS; lay bH bN; hide; hide; hide");
    assert_int_equal(S(m)->dscore[0], 0); /* not last: no bonus */
    pl_match_free(m);
}

/* ---------------------------------------------------------------- TC-R7 */

static void test_TC_R7_1_ban_first_trick_only(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none " D4);
    hasnt(th_legal(m), "lead rG");
    th_script(m, "lead bS; lay rS; lay rS; lay bS; hide; hide; hide");
    has(th_legal(m), "lead rG"); /* the second trick: no ban */
    pl_match_free(m);
}

static void test_TC_R7_2_ban_values(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none first_trick_ban=g_a_e " D4);
    hasnt(th_legal(m), "lead rE");
    has(th_legal(m), "lead rC");
    pl_match_free(m);
    m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none first_trick_ban=g_a_e_bs " D4);
    hasnt(th_legal(m), "lead bS");
    has(th_legal(m), "lead rC");
    pl_match_free(m);
    m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none first_trick_ban=none " D4);
    has(th_legal(m), "lead rG");
    pl_match_free(m);
    m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none " D4); /* default 4p: G A */
    has(th_legal(m), "lead rE");
    hasnt(th_legal(m), "lead rA");
    pl_match_free(m);
    m = th_new("tamcuc", "players=3 seed=1 dealer=0"); /* default 3p: G A E */
    assert_int_equal(S(m)->ban, TC_BAN_GAE);
    pl_match_free(m);
}

static void test_TC_R7_3_ban_lifted_without_legal_lead(void **st)
{
    (void)st;
    /* seat 0 holds only G, A and E: with G_A_E nothing could be led */
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none first_trick_ban=g_a_e "
                                   "deal=rG,bG,rA,rA,bA,bA,rE,rE/bE,bE,rC,rC,bC,bC,rN,rN/bN,bN,rH,rH,bH,bH,rS,rS/"
                                   "rS,rS,rS,bS,bS,bS,bS,bS");
    has(th_legal(m), "lead rG");
    has(th_legal(m), "lead rA rA");
    /* lifted for his lead: the lead rG may win (TC-R7.4 binds only followers) */
    th_script(m, "lead rG; lay bE; lay bN; lay rS; reveal; reveal; reveal");
    has(view(m, 0), "last 0 1 winner 0");
    pl_match_free(m);
}

static void test_TC_R7_4_banned_card_cannot_win(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none " D4);
    /* seat 1 reveals bG (banned) on a bS lead: seat 2's rS wins */
    th_script(m, "lead bS; lay bG; lay rS; lay bS; reveal; reveal; reveal");
    has(view(m, 0), "last 0 1 winner 2");
    pl_match_free(m);
}

static void test_TC_R7_5_illegal_leads_are_blocked(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none " D4);
    pl_buf a = {0}, b = {0};
    m->game->to_text(m->state, &a);
    illegal(m, "lead rA", "TC-R7.3");
    m->game->to_text(m->state, &b);
    assert_string_equal(pl_buf_str(&a), pl_buf_str(&b));
    pl_buf_free(&a);
    pl_buf_free(&b);
    pl_match_free(m);
}

/* Seat 0 holds only G, A and black Soldiers: with G_A_E_BS he has no lead
 * without a banned card. */
#define DLIFT "deal=rG,bG,rA,rA,bA,bA,bS,bS/bE,bE,rC,rC,bC,bC,rS,bS/rE,rE,rN,rN,bN,bN,rS,bS/" \
              "rH,rH,bH,bH,rS,rS,rS,bS"

static void test_TC_R7_4_lifted_ban_binds_followers(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none first_trick_ban=g_a_e_bs " DLIFT);
    has(th_legal(m), "lead bS"); /* lifted for his lead (TC-R7.3) */
    th_play(m, "lead bS");
    /* the ban still binds the followers, and the view says so */
    has(view(m, 1), "trick 0 ordinary ban\n");
    has(show(m, 1), "(first-trick ban)");
    /* seat 1's banned bE would beat bS: it cannot win, the leader keeps it */
    th_script(m, "lay bE; lay rN; lay rH; reveal; hide; hide");
    has(view(m, 0), "last 0 1 winner 0");
    assert_int_equal(pl_sole_actor(m->game, m->state), 0);
    pl_match_free(m);
    /* a follower's unbanned card still beats the lifted lead */
    m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none first_trick_ban=g_a_e_bs " DLIFT);
    th_script(m, "lead bS; lay bE; lay rN; lay rH; hide; reveal; hide");
    has(view(m, 0), "last 0 1 winner 2");
    pl_match_free(m);
}

/* The seat that searches redraws a face-down first-trick lead without a
 * banned card when one can be drawn: whether the ban was lifted for the
 * leader is not seen (the view shows the ban in force either way). */
static void test_TC_R7_3_determinized_lead_without_banned_card(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none first_trick_ban=g_a_e_bs " DLIFT);
    th_play(m, "lead bS"); /* a banned card, the ban lifted for him */
    tc_state d;
    pl_rng r;
    pl_rng_seed(&r, 5);
    int other = 0;
    for (int i = 0; i < 300; i++) {
        m->game->determinize(m->state, 1, &r, &d);
        assert_int_equal(tc_size(d.tlead), 1);
        assert_false(d.tlead & S(m)->banned);
        other += d.tlead != S(m)->tlead;
    }
    assert_int_equal(other, 300);
    pl_match_free(m);
}

/* ---------------------------------------------------------------- TC-R8 */

static void test_TC_R8_1_cards_won_counted(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none");
    const char *h[4] = {"rG", "bS", "rS", "bH"};
    const char *w[4] = {"rA rA", "bA bA bE", "-", "-"};
    endgame(m, h, w, 0);
    th_script(m, "lead rG; lay bS; lay rS; lay bH; hide; hide; hide");
    assert_int_equal(S(m)->phase, TC_PH_OVER);
    /* k = 3, 3, 0, 0 → k − 2 */
    assert_int_equal(score(m, 0), 1);
    assert_int_equal(score(m, 1), 1);
    assert_int_equal(score(m, 2), -2);
    has(view(m, 2), "winner draw");
    pl_match_free(m);
}

/* Plays random deals and checks the base scores' sum for the options. */
static void zero_sum_check(const char *opts, int want_sum, int deals)
{
    for (int d = 0; d < deals; d++) {
        char o[256];
        snprintf(o, sizeof o, "%s seed=%d soldier_special=none", opts, d + 1);
        pl_match *m = th_new("tamcuc", o);
        pl_rng r;
        pl_rng_seed(&r, (uint64_t)d);
        pl_buf e = {0};
        while (m->game->phase(m->state) != PL_PHASE_OVER) {
            if (m->game->phase(m->state) == PL_PHASE_CHANCE) {
                assert_int_equal(pl_match_random(m, NULL, &e), 0);
                continue;
            }
            pl_action acts[PL_MAX_ACTIONS];
            int seat = pl_sole_actor(m->game, m->state);
            int n = m->game->legal(m->state, seat, acts, PL_MAX_ACTIONS);
            assert_int_equal(pl_match_play(m, seat, acts[pl_rng_below(&r, (uint32_t)n)], &e), 0);
        }
        pl_buf_free(&e);
        tc_state *s = S(m);
        long sum = 0, ksum = 0;
        for (int p = 0; p < s->np; p++) {
            sum += score(m, p);
            ksum += tc_size(s->won[p]);
        }
        assert_int_equal(ksum, s->hs); /* Σk = hand size */
        assert_int_equal(sum, want_sum);
        pl_match_free(m);
    }
}

static void test_TC_R8_2_zero_sum_checks(void **st)
{
    (void)st;
    zero_sum_check("players=4", 0, 30);
    zero_sum_check("players=3 three_p_deck=seed_27", 0, 30);
    zero_sum_check("players=3 three_p_deck=alt_27", 0, 30);
    zero_sum_check("players=3 three_p_deck=deck_30", 1, 30); /* MINUS3: seed literal, not zero-sum */
    zero_sum_check("players=3 three_p_deck=deck_30 thirty_score=thirds", 0, 30);
    zero_sum_check("players=2", 0, 30);
    zero_sum_check("players=2 two_p_score=half", 0, 30);
    /* the formulas themselves */
    pl_match *m = th_new("tamcuc", "players=2 seed=1 dealer=0 soldier_special=none");
    const char *h[2] = {"rG", "bS"};
    const char *w[2] = {"rA rA rE rE rC rC rN rN rH rH", "bA bA bE bE bC"};
    endgame(m, h, w, 0);
    th_script(m, "lead rG; lay bS; hide");
    assert_int_equal(score(m, 0), 11 - 5); /* DIFFERENCE */
    assert_int_equal(score(m, 1), 5 - 11);
    pl_match_free(m);
    m = th_new("tamcuc", "players=2 seed=1 dealer=0 soldier_special=none two_p_score=half");
    endgame(m, h, w, 0);
    th_script(m, "lead rG; lay bS; hide");
    assert_int_equal(score(m, 0), 11 - 8);
    assert_int_equal(score(m, 1), 5 - 8);
    pl_match_free(m);
    m = th_new("tamcuc", "players=3 three_p_deck=deck_30 thirty_score=thirds seed=1 dealer=0 soldier_special=none");
    const char *h3[3] = {"rG", "bS", "bH"};
    const char *w3[3] = {"rA rA rE rE rC", "bA bA bE bE", "-"};
    endgame(m, h3, w3, 0);
    th_script(m, "lead rG; lay bS; lay bH; hide; hide");
    assert_int_equal(score(m, 0), 3 * 6 - 10);
    assert_int_equal(score(m, 1), 3 * 4 - 10);
    assert_int_equal(score(m, 2), -10);
    pl_match_free(m);
}

static void test_TC_R8_3_ket_bonus(void **st)
{
    (void)st;
    struct {
        const char *lead;
        int bonus;
    } c[] = {{"rC rC", 2}, {"bN bN", 2}, {"rH rH", 2}, {"bS bS", 3}, {"rS rS", 0}, {"rA rA", 0}, {"bE bE", 0}};
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none");
        const char *h[4] = {c[i].lead, "bG rG", "bH bC", "bA rN"};
        const char *w[4] = {"-", "-", "-", "-"};
        endgame(m, h, w, 0);
        char lead[32];
        snprintf(lead, sizeof lead, "lead %s", c[i].lead);
        th_play(m, lead);
        th_script(m, "lay bG rG; lay bH bC; lay bA rN; hide; hide; hide");
        /* won by its leader with the led set: each other pays the bonus */
        assert_int_equal(score(m, 0), (2 - 2) + 3 * c[i].bonus);
        assert_int_equal(score(m, 1), -2 - c[i].bonus);
        pl_match_free(m);
    }
    /* the low triple: 3; the high triple: nothing; off: nothing */
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none");
    const char *h[4] = {"bC bN bH", "bS bS bS", "rS rS rS", "bS bS rS"};
    const char *w[4] = {"-", "-", "-", "-"};
    endgame(m, h, w, 0);
    th_script(m, "lead bC bN bH; lay bS bS bS; lay rS rS rS; lay bS bS rS; hide; hide; hide");
    assert_int_equal(score(m, 0), 3 - 2 + 9);
    pl_match_free(m);
    m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none ket_bonus=off");
    endgame(m, h, w, 0);
    th_script(m, "lead bC bN bH; lay bS bS bS; lay rS rS rS; lay bS bS rS; hide; hide; hide");
    assert_int_equal(score(m, 0), 3 - 2);
    pl_match_free(m);
    /* the leader won, but not the last trick won by a follower: no kết */
    m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none");
    const char *h2[4] = {"bC bC", "rC rC", "rS rS", "bS bH"};
    endgame(m, h2, w, 0);
    th_script(m, "lead bC bC; lay rC rC; lay rS rS; lay bS bH; reveal; hide; hide");
    assert_int_equal(score(m, 1), 0); /* k=2 → 0, no bonus */
    assert_int_equal(score(m, 0), -2);
    pl_match_free(m);
}

static void test_TC_R8_4_overtake_payments(void **st)
{
    (void)st;
    const char *w[4] = {"-", "-", "-", "-"};
    /* bS pair led last, beaten by rS pair: the leader pays the winner 3 */
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none");
    const char *h[4] = {"bS bS", "bH bN", "rS rS", "bC bH"};
    endgame(m, h, w, 0);
    th_script(m, "lead bS bS; lay bH bN; lay rS rS; lay bC bH; hide; reveal; hide");
    assert_int_equal(score(m, 2), 0 + 3);
    assert_int_equal(score(m, 0), -2 - 3);
    assert_int_equal(score(m, 1), -2);
    pl_match_free(m);
    /* ALL_OTHERS: 3 to each */
    m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none overtake_payee=all_others");
    endgame(m, h, w, 0);
    th_script(m, "lead bS bS; lay bH bN; lay rS rS; lay bC bH; hide; reveal; hide");
    assert_int_equal(score(m, 0), -2 - 9);
    assert_int_equal(score(m, 1), -2 + 3);
    assert_int_equal(score(m, 2), 0 + 3);
    pl_match_free(m);
    /* a bS pair beaten by a higher pair that is not the red Soldiers: nothing */
    m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none");
    const char *h2[4] = {"bS bS", "bH bH", "rS bS", "bC bN"};
    endgame(m, h2, w, 0);
    th_script(m, "lead bS bS; lay bH bH; lay rS bS; lay bC bN; reveal; hide; hide");
    assert_int_equal(score(m, 0), -2);
    assert_int_equal(score(m, 1), 0);
    pl_match_free(m);
    /* a black Four led last, beaten by the red Four */
    m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none");
    const char *h4[4] = {"bS bS bS bS", "rS rS rS rS", "rC rN bC bN", "bH rH bH rH"};
    endgame(m, h4, w, 0);
    th_script(m, "lead bS bS bS bS; lay rS rS rS rS; lay rC rN bC bN; lay bH rH bH rH; reveal; hide; hide");
    assert_int_equal(score(m, 1), 4 - 2 + 3);
    assert_int_equal(score(m, 0), -2 - 3);
    pl_match_free(m);
    /* OVERTAKE_CNH: a black Chariot pair beaten by the red one */
    const char *hc[4] = {"bC bC", "rC rC", "rS bS", "bH bN"};
    m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none overtake_cnh=on");
    endgame(m, hc, w, 0);
    th_script(m, "lead bC bC; lay rC rC; lay rS bS; lay bH bN; reveal; hide; hide");
    assert_int_equal(score(m, 1), 0 + 3);
    assert_int_equal(score(m, 0), -2 - 3);
    pl_match_free(m);
    m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none"); /* off by default */
    endgame(m, hc, w, 0);
    th_script(m, "lead bC bC; lay rC rC; lay rS bS; lay bH bN; reveal; hide; hide");
    assert_int_equal(score(m, 1), 0);
    pl_match_free(m);
    m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none overtake=off");
    endgame(m, h, w, 0);
    th_script(m, "lead bS bS; lay bH bN; lay rS rS; lay bC bH; hide; reveal; hide");
    assert_int_equal(score(m, 0), -2);
    pl_match_free(m);
}

/* The evaluation (for searches) between two deals of a session is the
 * chance to win the session from the totals: equal totals give equal
 * chances, a lead counts more when fewer deals are left. */
static void test_TC_R8_5_evaluate_between_deals(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none session_end=deals:4 " D4);
    tc_state *s = S(m);
    s->phase = TC_PH_DEAL;
    s->deals_done = 1;
    double sum = 0;
    for (int p = 0; p < 4; p++) {
        double v = m->game->evaluate(s, p);
        assert_true(v > 0.2499 && v < 0.2501);
    }
    const int16_t t[4] = {6, 0, 0, -6};
    memcpy(s->total, t, sizeof t);
    for (int p = 0; p < 4; p++)
        sum += m->game->evaluate(s, p);
    assert_true(sum > 0.99 && sum < 1.01);
    double lead3 = m->game->evaluate(s, 0), last3 = m->game->evaluate(s, 3);
    assert_true(lead3 > 0.5 && last3 < 0.1);
    s->deals_done = 3;
    assert_true(m->game->evaluate(s, 0) > lead3);
    pl_match_free(m);
}

static void test_TC_R8_5_session(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=3 dealer=0 session_end=deals:3 soldier_special=none");
    pl_rng r;
    pl_rng_seed(&r, 3);
    pl_buf e = {0};
    long sums[4] = {0};
    int deals = 0;
    while (m->game->phase(m->state) != PL_PHASE_OVER) {
        if (m->game->phase(m->state) == PL_PHASE_CHANCE) {
            assert_int_equal(pl_match_random(m, NULL, &e), 0);
            continue;
        }
        int before = S(m)->deals_done;
        pl_action acts[PL_MAX_ACTIONS];
        int seat = pl_sole_actor(m->game, m->state);
        int n = m->game->legal(m->state, seat, acts, PL_MAX_ACTIONS);
        assert_int_equal(pl_match_play(m, seat, acts[pl_rng_below(&r, (uint32_t)n)], &e), 0);
        if (S(m)->deals_done != before) {
            deals++;
            for (int p = 0; p < 4; p++)
                sums[p] += S(m)->last_score[p];
        }
    }
    assert_int_equal(deals, 3);
    for (int p = 0; p < 4; p++)
        assert_int_equal(score(m, p), sums[p]);
    pl_match_free(m);
    /* a target: ends after the deal where a total reaches it */
    m = th_new("tamcuc", "seed=3 dealer=0 session_end=target:5 soldier_special=none");
    while (m->game->phase(m->state) != PL_PHASE_OVER) {
        if (m->game->phase(m->state) == PL_PHASE_CHANCE) {
            assert_int_equal(pl_match_random(m, NULL, &e), 0);
            continue;
        }
        pl_action acts[PL_MAX_ACTIONS];
        int seat = pl_sole_actor(m->game, m->state);
        int n = m->game->legal(m->state, seat, acts, PL_MAX_ACTIONS);
        assert_int_equal(pl_match_play(m, seat, acts[pl_rng_below(&r, (uint32_t)n)], &e), 0);
    }
    int reached = 0;
    for (int p = 0; p < 4; p++)
        reached = reached || score(m, p) >= 5;
    assert_true(reached);
    pl_buf_free(&e);
    pl_match_free(m);
    char *bad[] = {"session_end=forever"};
    assert_null(pl_match_new(&tc_game, 1, bad, &e));
    has(pl_buf_str(&e), "deals:N");
    pl_buf_free(&e);
}

/* ---------------------------------------------------------------- TC-R9 */

static void test_TC_R9_1_no_black_general_last(void **st)
{
    (void)st;
    const char *w[4] = {"-", "-", "-", "-"};
    const char *h[4] = {"bG rS", "bS bS", "rS rS", "bH bN"};
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none no_black_general_last=on");
    endgame(m, h, w, 0);
    legal_is(m, "lead bG lead rS"); /* a single is not the last lead */
    th_script(m, "lead rS; lay bS; lay rS; lay bH; hide; hide; hide");
    /* now seat 0 has only bG: its lead would be the last, and the rule is lifted [I] */
    legal_is(m, "lead bG");
    pl_match_free(m);
    const char *h2[4] = {"bG bG", "bS bS", "rS rS", "bH bN"}; /* two cards: a pair led last */
    (void)h2;
    /* a last lead with bG inside a set is refused when another lead exists */
    const char *h3[4] = {"bG bA bE", "bS bS bS", "rS rS rS", "bH bN bC"};
    m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none no_black_general_last=on");
    endgame(m, h3, w, 0);
    hasnt(th_legal(m), "lead bG bA bE");
    illegal(m, "lead bG bA bE", "TC-R9.1");
    pl_match_free(m);
    m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none");
    endgame(m, h3, w, 0);
    has(th_legal(m), "lead bG bA bE");
    pl_match_free(m);
}

/* A face-down last lead of two cards or more never holds bG when the rule is
 * on: the seat that searches draws it among the leads the leader could make. */
static void test_TC_R9_1_determinized_last_lead(void **st)
{
    (void)st;
    const char *w[4] = {"-", "-", "-", "-"};
    const char *h[4] = {"rG rA rE", "bS bS bS", "bA bE bC", "bG bN bH"};
    for (int rule = 0; rule < 2; rule++) {
        pl_match *m = th_new("tamcuc", rule ? "seed=1 dealer=0 soldier_special=none no_black_general_last=on"
                                            : "seed=1 dealer=0 soldier_special=none");
        endgame(m, h, w, 0);
        th_play(m, "lead rG rA rE");
        tc_state d;
        pl_rng r;
        pl_rng_seed(&r, 3);
        int with_bg = 0, other = 0;
        for (int i = 0; i < 300; i++) {
            m->game->determinize(m->state, 1, &r, &d);
            assert_int_equal(tc_size(d.tlead), 3);
            assert_true(tc_set_strength(d.tlead, 3) >= 0);
            if (TC_NIB(d.tlead, TC_BG))
                with_bg++;
            else if (d.tlead != S(m)->tlead)
                other++;
        }
        assert_true(other > 0);
        if (rule)
            assert_int_equal(with_bg, 0);
        else
            assert_true(with_bg > 0);
        pl_match_free(m);
    }
}

/* ---------------------------------------------------------------- notation */

/* The refusal's word for `seat`'s action `text` in `m` (pl_game.refusal,
 * compact JSON with sorted keys), compared with `want`; NULL: no word. */
static void refused(pl_match *m, int seat, const char *text, const char *want)
{
    pl_buf e = {0}, out = {0};
    pl_action a;
    if (m->game->parse_action(m->state, seat, text, &a, &e) < 0)
        fail_msg("'%s' does not parse: %s", text, pl_buf_str(&e));
    int rc = pl_refusal_json(m->game, m->state, seat, a, &out, &e);
    if (!want) {
        assert_int_equal(rc, -1);
    } else {
        if (rc < 0)
            fail_msg("'%s': no refusal: %s", text, pl_buf_str(&e));
        if (strcmp(pl_buf_str(&out), want))
            fail_msg("'%s': refusal %s, expected %s", text, pl_buf_str(&out), want);
    }
    pl_buf_free(&e);
    pl_buf_free(&out);
}

/* One word per reason tc_explain_illegal tells apart (docs/web-views.md,
 * "tamcuc", "Refusals"), with its fields; the state is never changed. */
static void test_TC_R2_R4_4_R5_1_R5_2_R5_3_R5_7_R6_2_R6_3_R7_3_R9_1_refusal_words(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none " D4);
    pl_buf before = {0}, after = {0};
    m->game->to_text(m->state, &before);
    refused(m, 0, "lead rA", "{\"cards\":[\"rA\"],\"why\":\"banned\"}");          /* TC-R7.3 */
    refused(m, 0, "lead rG rC", "{\"cards\":[\"rG\",\"rC\"],\"why\":\"not-a-set\"}"); /* TC-R2 */
    refused(m, 0, "lead rG bG", "{\"cards\":[\"bG\"],\"why\":\"not-in-hand\"}");
    refused(m, 0, "lay rG", "{\"verb\":\"lay\",\"why\":\"not-now\"}");
    refused(m, 0, "pass rG", "{\"verb\":\"pass\",\"why\":\"not-now\"}");
    refused(m, 0, "reveal", "{\"why\":\"reveal-later\"}");       /* TC-R6.3 */
    refused(m, 0, "declare four", "{\"why\":\"declare-not-now\"}"); /* TC-R5.1 */
    refused(m, 0, "nodeclare", "{\"why\":\"nodeclare-not-now\"}");
    m->game->to_text(m->state, &after);
    assert_string_equal(pl_buf_str(&before), pl_buf_str(&after));
    th_play(m, "lead bS");
    refused(m, 1, "lay rS rS", "{\"count\":1,\"given\":2,\"verb\":\"lay\",\"why\":\"count\"}"); /* TC-R6.2 */
    pl_match_free(m);
    /* TC-R4.4: the night exchange passes exactly k cards */
    m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none night_exchange=2 " D4);
    refused(m, 2, "pass rS", "{\"count\":2,\"given\":1,\"verb\":\"pass\",\"why\":\"count\"}");
    pl_match_free(m);
    /* TC-R5.1: the round, a holder's need, the mandatory declaration */
    m = th_new("tamcuc", "seed=1 dealer=1 " DFIVE);
    refused(m, 1, "declare five", "{\"size\":\"five\",\"why\":\"declare-needs\"}");
    refused(m, 1, "declare four", "{\"size\":\"five\",\"why\":\"declare-round\"}");
    /* TC-R5.2: once seat 2 declared a black Five, seat 0 is asked to counter
     * with red Soldiers he lacks; seat 2 has declared already */
    th_script(m, "nodeclare; declare five; nodeclare");
    assert_int_equal(pl_sole_actor(m->game, m->state), 0);
    refused(m, 0, "declare five", "{\"size\":\"five\",\"why\":\"counter-red\"}");
    refused(m, 2, "declare five", "{\"why\":\"declared-already\"}");
    pl_match_free(m);
    m = th_new("tamcuc", "seed=1 dealer=1 soldier_declare_mandatory=on " DFIVE);
    th_play(m, "nodeclare");
    refused(m, 2, "nodeclare", "{\"why\":\"must-declare\"}");
    pl_match_free(m);
    /* TC-R5.3: the extra trick leads the declared Four */
    m = th_new("tamcuc", "players=2 seed=1 dealer=0 "
                         "deal=rS,bS,rG,bG,rA,rA,bA,bA,rE,rE,bE,bE,rC,rC,bC,bC/"
                         "rS,rS,rS,rS,bS,bS,bS,bS,rN,rN,bN,bN,rH,rH,bH,bH");
    th_script(m, "nodeclare; nodeclare; nodeclare; declare four");
    refused(m, 1, "lead bS bS bS bS", "{\"colour\":\"red\",\"why\":\"extra-four\"}");
    pl_match_free(m);
    /* TC-R5.7: Four and Five are no leads with big_soldier_leads=off */
    m = th_new("tamcuc", "seed=1 dealer=2 soldier_special=none big_soldier_leads=off " DFIVE);
    refused(m, 2, "lead bS bS bS bS", "{\"count\":4,\"why\":\"big-leads-off\"}");
    pl_match_free(m);
    /* TC-R9.1: the black General in the last lead */
    const char *w[4] = {"-", "-", "-", "-"};
    const char *h3[4] = {"bG bA bE", "bS bS bS", "rS rS rS", "bH bN bC"};
    m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none no_black_general_last=on");
    endgame(m, h3, w, 0);
    refused(m, 0, "lead bG bA bE", "{\"why\":\"black-general-last\"}");
    pl_match_free(m);
    pl_buf_free(&before);
    pl_buf_free(&after);
}

static void test_notation_and_errors(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none " D4);
    illegal(m, "lead xZ", "bad card");
    illegal(m, "lay rG", "no lay now");
    illegal(m, "declare four", "declarations come");
    illegal(m, "reveal", "reveal and hide come after");
    illegal(m, "lead rG rG", "too many rG");
    illegal(m, "fold", "expected lead");
    /* position text round-trips */
    th_script(m, "lead bS; lay rS; lay rC");
    pl_buf a = {0}, b = {0}, e = {0};
    m->game->to_text(m->state, &a);
    pl_match *m2 = th_new("tamcuc", "seed=7 dealer=0 soldier_special=none " D4);
    assert_int_equal(m->game->from_text(m2->state, pl_buf_str(&a), &e), 0);
    m->game->to_text(m2->state, &b);
    assert_string_equal(pl_buf_str(&a), pl_buf_str(&b));
    assert_int_equal(m->game->from_text(m2->state, "phase=lead hand=rG", &e), -1);
    /* a record replays exactly */
    pl_buf rec = {0};
    assert_int_equal(pl_record_write(m, &rec), 0);
    pl_match *m3 = pl_record_read(pl_buf_str(&rec), &e);
    assert_non_null(m3);
    pl_buf_clear(&b);
    m->game->to_text(m3->state, &b);
    assert_string_equal(pl_buf_str(&a), pl_buf_str(&b));
    pl_buf_free(&a);
    pl_buf_free(&b);
    pl_buf_free(&e);
    pl_buf_free(&rec);
    pl_match_free(m);
    pl_match_free(m2);
    pl_match_free(m3);
    /* option cross-checks */
    const char *badopts[][2] = {{"two_p_score=half", "two_p_score"},
                                {"players=3 four_next_lead=trick_winner", "four_next_lead"},
                                {"soldier_special=none soldier_declare_mandatory=on", "soldier_declare_mandatory"},
                                {"autowin_ends_deal=off", "autowin_ends_deal"},
                                {"overtake=off overtake_cnh=on", "overtake_cnh"},
                                {"players=3 dealer=3", "dealer=3"},
                                {"dealer=1 first_dealer=random", "first_dealer"},
                                {"deal=rG", "deal="}};
    for (size_t i = 0; i < sizeof badopts / sizeof badopts[0]; i++) {
        char buf[128];
        snprintf(buf, sizeof buf, "%s", badopts[i][0]);
        char *argv[8];
        int argc = 0;
        for (char *w2 = strtok(buf, " "); w2; w2 = strtok(NULL, " "))
            argv[argc++] = w2;
        pl_buf err = {0};
        assert_null(pl_match_new(&tc_game, argc, argv, &err));
        has(pl_buf_str(&err), badopts[i][1]);
        pl_buf_free(&err);
    }
}

static void test_draw_shows_characters(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none " D4);
    const char *p = show(m, 0);
    /* Red cards in the red side's characters, black in the black's. */
    has(p, "rG 帥 tướng");
    has(p, "rA 仕 sĩ");
    has(p, "rE 相 tượng");
    has(p, "rC 俥 xe");
    has(p, "rN 炮 pháo");
    has(p, "rH 傌 mã");
    has(p, "bS 卒 tốt");
    has(p, "[▒▒]");
    hasnt(show(m, 1), "rG 帥"); /* seat 0's General is hidden from seat 1 */
    p = show(m, -1);
    has(p, "bG 將 tướng");
    has(p, "bA 士 sĩ");
    has(p, "bE 象 tượng");
    has(p, "bC 車 xe");
    has(p, "bN 砲 pháo");
    has(p, "bH 馬 mã");
    has(p, "rS 兵 tốt");
    /* ... and in colour: every red card's cells red, every black card's black. */
    pl_canvas c = {0};
    m->game->draw(m->state, -1, &c);
    int red = 0, black = 0;
    for (int r = 0; r < c.rows; r++)
        for (int k = 0; k + 1 < c.cols; k++) {
            const pl_cell *a = &c.cells[r * c.capcols + k], *b = a + 1;
            bool card = (a->ch[0] == 'r' || a->ch[0] == 'b') && b->ch[0] && strchr("GAECNHS", b->ch[0]) &&
                        (k == 0 || c.cells[r * c.capcols + k - 1].ch[0] == ' ');
            if (!card || (k + 2 < c.cols && c.cells[r * c.capcols + k + 2].ch[0] != ' '))
                continue;
            assert_int_equal(a->style, a->ch[0] == 'r' ? PL_ST_RED : PL_ST_BLACK);
            assert_int_equal(b->style, a->style);
            *(a->ch[0] == 'r' ? &red : &black) += 1;
        }
    assert_true(red >= 16 && black >= 16);
    pl_canvas_free(&c);
    pl_match_free(m);
}

/* ---- what happened, in words (game.h describe) and in the picture ---- */

/* Plays `text` for the actor and returns the describe text for `viewer`. */
static const char *told(pl_match *m, const char *text, int viewer)
{
    static char out[2048];
    void *before = pl_malloc(m->game->state_size);
    assert_non_null(before);
    pl_state_copy(m->game, before, m->state);
    int seat = pl_sole_actor(m->game, m->state);
    th_play(m, text);
    pl_buf b = {0};
    m->game->describe(before, seat, m->hist[m->nhist - 1].a, m->state, viewer, &b);
    snprintf(out, sizeof out, "%s", pl_buf_str(&b));
    pl_buf_free(&b);
    pl_free(before);
    return out;
}

static void test_TC_R6_4_trick_winner_told_and_kept_in_sight(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none first_trick_ban=none " D4);
    th_script(m, "lead bS; lay rS; lay rC; lay bA; reveal; reveal");
    assert_string_equal(told(m, "hide", 0), "Seat 3 won the trick with rC."); /* seats counted from 1 */
    has(view(m, 0), "won 2 1 rC\n");
    /* Told once through the match, to the winner in its own words. */
    pl_buf b = {0};
    pl_match_describe(m, m->nhist - 1, 2, &b);
    assert_string_equal(pl_buf_str(&b), "You won the trick with rC.");
    pl_buf_free(&b);
    /* The next trick is on the table: the last one stays in the picture. */
    th_play(m, "lead rA");
    assert_int_equal(S(m)->phase, TC_PH_LAY);
    has(show(m, 0), "last trick: seat 2 won with rC (led by seat 0)");
    has(show(m, 3), "last trick: seat 2 won with rC (led by seat 0)");
    pl_match_free(m);
}

static void test_TC_R8_deal_score_breakdown_told(void **st)
{
    (void)st;
    /* TC-R8.2 (2 players, difference): 11 cards against 5. */
    pl_match *m = th_new("tamcuc", "players=2 seed=1 dealer=0 soldier_special=none");
    const char *h[2] = {"rG", "bS"};
    const char *w[2] = {"rA rA rE rE rC rC rN rN rH rH", "bA bA bE bE bC"};
    endgame(m, h, w, 0);
    th_script(m, "lead rG; lay bS");
    assert_string_equal(told(m, "hide", 1),
                        "Seat 1 won the trick with rG. Deal 1 scores: seat 1 11 cards won, base +6, payments +0, "
                        "deal +6; you 5 cards won, base -6, payments +0, deal -6.");
    pl_match_free(m);
    /* TC-R8.3: the kết bonus shows as a payment (4 players, bS pair: 3 from each). */
    m = th_new("tamcuc", "seed=1 dealer=0 soldier_special=none");
    const char *h4[4] = {"bS bS", "bC rS", "bN bH", "rC bA"};
    const char *w4[4] = {"rG rA", "bG", "rE rN rH", "-"};
    endgame(m, h4, w4, 0);
    th_script(m, "lead bS bS; lay bC rS; lay bN bH; lay rC bA; hide; hide");
    has(told(m, "hide", 0), "Deal 1 scores: you 4 cards won, base +2, payments +9, deal +11; seat 2 1 card won, "
                            "base -1, payments -3, deal -4;");
    pl_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_TC_R1_1_deck_of_32),
        cmocka_unit_test(test_TC_R1_2_rank_order_cannon_above_horse),
        cmocka_unit_test(test_TC_R1_3_strength_total_order),
        cmocka_unit_test(test_TC_R2_1_single),
        cmocka_unit_test(test_TC_R2_2_pair_same_rank_and_colour),
        cmocka_unit_test(test_TC_R2_3_triple_rules),
        cmocka_unit_test(test_TC_R2_4_four_soldiers),
        cmocka_unit_test(test_TC_R2_5_five_soldiers),
        cmocka_unit_test(test_TC_R2_6_category_is_size),
        cmocka_unit_test(test_TC_R3_1_four_players_eight_each),
        cmocka_unit_test(test_TC_R3_2_three_player_decks),
        cmocka_unit_test(test_TC_R3_3_two_players_open_hands),
        cmocka_unit_test(test_TC_R3_4_counter_clockwise_order),
        cmocka_unit_test(test_TC_R4_1_counting_first_dealer),
        cmocka_unit_test(test_TC_R4_2_next_dealer),
        cmocka_unit_test(test_TC_R4_3_deal),
        cmocka_unit_test(test_TC_R4_4_night_exchange),
        cmocka_unit_test(test_TC_R5_1_declaration_order),
        cmocka_unit_test(test_TC_R5_1_declaration_drawn_by_seat),
        cmocka_unit_test(test_TC_R5_1_determinized_nodeclare),
        cmocka_unit_test(test_TC_R5_2_seize_five_and_counter),
        cmocka_unit_test(test_TC_R5_3_seize_four_extra_trick),
        cmocka_unit_test(test_TC_R5_3_extra_trick_led_with_declared_four),
        cmocka_unit_test(test_TC_R5_3a_three_players_four_seizes),
        cmocka_unit_test(test_TC_R5_4_seize_unlocks_first_trick),
        cmocka_unit_test(test_TC_R5_5_autowin_payments),
        cmocka_unit_test(test_TC_R5_6_autowin_ends_deal_option),
        cmocka_unit_test(test_TC_R5_7_big_soldier_leads),
        cmocka_unit_test(test_TC_R6_1_lead_face_down),
        cmocka_unit_test(test_TC_R6_2_followers_lay_n_cards_face_down),
        cmocka_unit_test(test_TC_R6_2_worst_case_lay_count),
        cmocka_unit_test(test_TC_R6_3_reveal_or_hide_holding_a_winner),
        cmocka_unit_test(test_TC_R6_4_ties_go_to_earliest),
        cmocka_unit_test(test_TC_R6_5_winner_keeps_only_his_cards),
        cmocka_unit_test(test_TC_R6_6_winner_leads_and_deal_ends_when_empty),
        cmocka_unit_test(test_TC_R6_7_last_lead),
        cmocka_unit_test(test_TC_R7_1_ban_first_trick_only),
        cmocka_unit_test(test_TC_R7_2_ban_values),
        cmocka_unit_test(test_TC_R7_3_ban_lifted_without_legal_lead),
        cmocka_unit_test(test_TC_R7_4_banned_card_cannot_win),
        cmocka_unit_test(test_TC_R7_4_lifted_ban_binds_followers),
        cmocka_unit_test(test_TC_R7_3_determinized_lead_without_banned_card),
        cmocka_unit_test(test_TC_R7_5_illegal_leads_are_blocked),
        cmocka_unit_test(test_TC_R8_1_cards_won_counted),
        cmocka_unit_test(test_TC_R8_2_zero_sum_checks),
        cmocka_unit_test(test_TC_R8_3_ket_bonus),
        cmocka_unit_test(test_TC_R8_4_overtake_payments),
        cmocka_unit_test(test_TC_R8_5_evaluate_between_deals),
        cmocka_unit_test(test_TC_R8_5_session),
        cmocka_unit_test(test_TC_R9_1_no_black_general_last),
        cmocka_unit_test(test_TC_R9_1_determinized_last_lead),
        cmocka_unit_test(test_notation_and_errors),
        cmocka_unit_test(test_TC_R2_R4_4_R5_1_R5_2_R5_3_R5_7_R6_2_R6_3_R7_3_R9_1_refusal_words),
        cmocka_unit_test(test_draw_shows_characters),
        cmocka_unit_test(test_TC_R6_4_trick_winner_told_and_kept_in_sight),
        cmocka_unit_test(test_TC_R8_deal_score_breakdown_told),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
