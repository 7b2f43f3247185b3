/* test_rules_cbw_rules.c — City Behind Walls, one test (at least) per rule
 * CBW-R1..R26 of ../shared/rules/city-behind-walls.md, each able to fail
 * when its rule is broken. Positions are set with the position text
 * (docs/notation-cbw.md). */
#include "cbw_util.h"

/* ---- players, cards, deal ---- */

static void test_CBW_R1_teams_alternate_and_turns_wrap(void **state)
{
    (void)state;
    pl_match *m = cbw_new("players=4");
    for (int i = 0; i < 4; i++)
        assert_int_equal(m->game->team_of(m->state, i), i & 1);
    const cbw_state *s = cbw_st(m);
    for (int i = 0; i < 4; i++)
        assert_true((s->hand[i] & ~0ull) != 0);
    th_script(m, "7H@0,0");
    assert_int_equal(pl_sole_actor(m->game, m->state), 1);
    th_script(m, "pass; pass; pass");
    assert_int_equal(pl_sole_actor(m->game, m->state), 0); /* wraps to seat 0 */
    pl_match_free(m);

    m = cbw_new("players=6");
    assert_int_equal(m->game->num_seats(m->state), 6);
    assert_int_equal(m->game->team_of(m->state, 5), 1);
    assert_int_equal(m->game->team_of(m->state, 4), 0);
    pl_match_free(m);

    /* players=2: four seats, each person's cards in two equal piles. */
    m = cbw_new("players=2");
    assert_int_equal(m->game->num_seats(m->state), 4);
    s = cbw_st(m);
    assert_int_equal(__builtin_popcountll(s->hand[0]), 9);
    assert_int_equal(__builtin_popcountll(s->hand[2]), 9);
    /* one person holds both piles of a team: each seat sees its team mate's
     * (pl_game.sees_seat, which the server's seating follows), no one else's */
    for (int v = 0; v < 4; v++)
        for (int t = 0; t < 4; t++)
            assert_int_equal(m->game->sees_seat(m->state, v, t), v != t && (v & 1) == (t & 1));
    pl_match_free(m);
    m = cbw_new("players=4");
    for (int v = 0; v < 4; v++)
        for (int t = 0; t < 4; t++)
            assert_false(m->game->sees_seat(m->state, v, t));
    pl_match_free(m);
}

static void test_CBW_R2_first_team_drawn_or_chosen(void **state)
{
    (void)state;
    pl_match *m = cbw_new("first=random");
    assert_int_equal(m->game->phase(m->state), PL_PHASE_CHANCE);
    assert_string_equal(th_legal(m), "first red first black");
    th_play(m, "first black");
    assert_int_equal(pl_sole_actor(m->game, m->state), 1);
    pl_match_free(m);
    m = cbw_new("first=black");
    assert_int_equal(m->game->phase(m->state), PL_PHASE_MOVE);
    assert_int_equal(pl_sole_actor(m->game, m->state), 1);
    pl_match_free(m);
    m = cbw_new("first=red");
    assert_int_equal(pl_sole_actor(m->game, m->state), 0);
    pl_match_free(m);
    /* Both outcomes occur with the game's own sampler. */
    int seen[2] = {0, 0};
    pl_rng r;
    pl_rng_seed(&r, 5);
    m = cbw_new("first=random");
    for (int i = 0; i < 200; i++)
        seen[m->game->sample_chance(m->state, &r) & 1]++;
    assert_true(seen[0] > 50 && seen[1] > 50);
    pl_match_free(m);
}

static void test_CBW_R3_deck_36_and_52(void **state)
{
    (void)state;
    pl_match *m = cbw_new("deck=36");
    const cbw_state *s = cbw_st(m);
    assert_int_equal(__builtin_popcountll(s->dealt), 36);
    for (int k = 0; k < 52; k++)
        assert_int_equal((int)((s->dealt >> k) & 1), cbw_rank(k) >= 4);
    pl_match_free(m);
    m = cbw_new("deck=52");
    assert_int_equal(__builtin_popcountll(cbw_st(m)->dealt), 52);
    pl_match_free(m);
    /* Ranks ascend 2 < ... < 10 < J < Q < K < A: a Jack is below a Queen. */
    assert_true(cbw_rank(cbw_card("JD")) < cbw_rank(cbw_card("QS")));
    assert_true(cbw_rank(cbw_card("10D")) < cbw_rank(cbw_card("JS")));
    assert_true(cbw_rank(cbw_card("KD")) < cbw_rank(cbw_card("AS")));
    /* A 2 is no card of the 36-card deck. */
    m = cbw_new("deck=36");
    pl_buf e = {0};
    assert_int_equal(th_try(m, "2H@0,0", &e), -1);
    assert_non_null(strstr(pl_buf_str(&e), "CBW-R3"));
    pl_buf_free(&e);
    pl_match_free(m);
}

static void test_CBW_R4_own_colour_deal_52_and_6_players(void **state)
{
    (void)state;
    static const struct {
        const char *opts;
        int sizes[6];
    } cases[] = {
        {"deck=36 players=4", {9, 9, 9, 9}},
        {"deck=52 players=4", {13, 13, 13, 13}},
        {"deck=36 players=6", {6, 6, 6, 6, 6, 6}},
        {"deck=52 players=6", {9, 9, 9, 9, 8, 8}},
        {"deck=52 players=2", {13, 13, 13, 13}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int seed = 1; seed <= 3; seed++) {
            char o[128];
            snprintf(o, sizeof o, "%s seed=%d", cases[c].opts, seed);
            pl_match *m = cbw_new(o);
            const cbw_state *s = cbw_st(m);
            uint64_t all = 0;
            for (int i = 0; i < s->nseats; i++) {
                assert_int_equal(__builtin_popcountll(s->hand[i]), cases[c].sizes[i]);
                for (uint64_t h = s->hand[i]; h; h &= h - 1)
                    assert_int_equal(cbw_colour(__builtin_ctzll(h)), i & 1);
                assert_int_equal(all & s->hand[i], 0);
                all |= s->hand[i];
            }
            assert_true(all == s->dealt);
            pl_match_free(m);
        }
    /* Different seeds, different deals; same seed, same deal. */
    pl_match *a = cbw_new("seed=1"), *b = cbw_new("seed=2"), *c = cbw_new("seed=1");
    assert_true(cbw_st(a)->hand[0] != cbw_st(b)->hand[0]);
    assert_true(cbw_st(a)->hand[0] == cbw_st(c)->hand[0]);
    pl_match_free(a);
    pl_match_free(b);
    pl_match_free(c);
    /* deal= sets the hands, and is checked. */
    const char *deal = "6H,7H,8H,9H,10H,JH,QH,KH,AH/6S,7S,8S,9S,10S,JS,QS,KS,AS/"
                       "6D,7D,8D,9D,10D,JD,QD,KD,AD/6C,7C,8C,9C,10C,JC,QC,KC,AC";
    char o[512];
    snprintf(o, sizeof o, "deal=%s", deal);
    pl_match *m = cbw_new(o);
    assert_true(cbw_st(m)->hand[0] == (((1ull << 13) - 1) & ~15ull) << 13); /* the hearts 6-A */
    pl_match_free(m);
    static const char *const bad[] = {
        "deal=6H,7H/6S", /* too few hands */
        "deal=6S,7H,8H,9H,10H,JH,QH,KH,AH/6H,7S,8S,9S,10S,JS,QS,KS,AS/"
        "6D,7D,8D,9D,10D,JD,QD,KD,AD/6C,7C,8C,9C,10C,JC,QC,KC,AC", /* wrong colours */
        "deal=6H,7H,8H,9H,10H,JH,QH,KH,AH,6D/6S,7S,8S,9S,10S,JS,QS,KS,AS/"
        "7D,8D,9D,10D,JD,QD,KD,AD/6C,7C,8C,9C,10C,JC,QC,KC,AC", /* sizes */
        "deal=6H,6H,8H,9H,10H,JH,QH,KH,AH/6S,7S,8S,9S,10S,JS,QS,KS,AS/"
        "6D,7D,8D,9D,10D,JD,QD,KD,AD/6C,7C,8C,9C,10C,JC,QC,KC,AC", /* twice */
        "deal=2H,7H,8H,9H,10H,JH,QH,KH,AH/6S,7S,8S,9S,10S,JS,QS,KS,AS/"
        "6D,7D,8D,9D,10D,JD,QD,KD,AD/6C,7C,8C,9C,10C,JC,QC,KC,AC", /* not in the deck */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *argv[2] = {(char *)bad[i], NULL};
        pl_buf err = {0};
        pl_match *x = pl_match_new(pl_game_find("cbw"), 1, argv, &err);
        assert_null(x);
        assert_true(err.len > 0);
        pl_buf_free(&err);
    }
}

static void test_CBW_R5_view_shows_own_hand_only(void **state)
{
    (void)state;
    pl_match *m = cbw_new("seed=3");
    th_script(m, "pass; pass");
    const cbw_state *s = cbw_st(m);
    for (int seat = 0; seat < 4; seat++) {
        pl_buf v = {0};
        m->game->view(m->state, seat, &v);
        char line[512];
        pl_buf h = {0};
        pl_buf_puts(&h, "hand");
        for (uint64_t x = s->hand[seat]; x; x &= x - 1) {
            pl_buf_putc(&h, ' ');
            cbw_card_text(__builtin_ctzll(x), 0, &h);
        }
        snprintf(line, sizeof line, "\n%s\n", pl_buf_str(&h));
        assert_non_null(strstr(pl_buf_str(&v), line));
        assert_non_null(strstr(pl_buf_str(&v), "hand-sizes 9 9 9 9"));
        for (int other = 0; other < 4; other++) {
            if (other == seat)
                continue;
            for (uint64_t x = s->hand[other]; x; x &= x - 1) {
                pl_buf c = {0};
                pl_buf_putc(&c, ' ');
                cbw_card_text(__builtin_ctzll(x), 0, &c);
                assert_null(strstr(pl_buf_str(&v), pl_buf_str(&c)));
                pl_buf_free(&c);
            }
        }
        pl_buf_free(&h);
        pl_buf_free(&v);
    }
    pl_match_free(m);
}

/* ---- table and Rectangle ---- */

static void test_CBW_R6_orthogonal_adjacency_and_origin(void **state)
{
    (void)state;
    pl_match *m = cbw_new("");
    th_position(m, "turn=1 hands=-/QS,KC/-/- table=7H@0,0");
    CBW_LEGAL(m, "QS@1,0");
    CBW_LEGAL(m, "QS@0,1");
    CBW_LEGAL(m, "QS@-1,0");
    CBW_LEGAL(m, "QS@0,-1");
    CBW_ILLEGAL(m, "QS@1,1", "CBW-R12"); /* diagonal is not adjacent */
    CBW_ILLEGAL(m, "QS@-1,-1", "CBW-R12");
    pl_match_free(m);
    m = cbw_new("");
    th_position(m, "turn=0 span=- hands=7H/-/-/- table=-");
    CBW_ILLEGAL(m, "7H@1,0", "0,0"); /* the first card defines 0,0 */
    CBW_LEGAL(m, "7H@0,0");
    pl_match_free(m);
}

static void test_CBW_R7_rectangle_size_options(void **state)
{
    (void)state;
    pl_match *m = cbw_new("");
    assert_int_equal(cbw_st(m)->w, 9);
    assert_int_equal(cbw_st(m)->h, 4);
    pl_match_free(m);
    m = cbw_new("deck=52");
    assert_int_equal(cbw_st(m)->w, 12);
    assert_int_equal(cbw_st(m)->h, 4);
    pl_match_free(m);
    m = cbw_new("deck=52 w=10 h=5");
    assert_int_equal(cbw_st(m)->w, 10);
    assert_int_equal(cbw_st(m)->h, 5);
    pl_match_free(m);
    m = cbw_new("w=16 h=16");
    assert_int_equal(cbw_st(m)->w, 16);
    pl_match_free(m);
    char w17[] = "w=17";
    char *argv[1] = {w17};
    pl_buf err = {0};
    assert_null(pl_match_new(pl_game_find("cbw"), 1, argv, &err));
    pl_buf_free(&err);
    /* Orientation is fixed: 9 wide and 4 high is not 4 wide and 9 high. */
    m = cbw_new("w=3 h=1");
    th_position(m, "turn=1 hands=-/QS/-/- table=7H@0,0;8D@1,0");
    CBW_LEGAL(m, "QS@-1,0");
    CBW_ILLEGAL(m, "QS@0,1", "CBW-R13");
    pl_match_free(m);
}

static void test_CBW_R8_span_counts_captured_cards(void **state)
{
    (void)state;
    /* The capture of CBW-R19's example leaves the span as it was. */
    pl_match *m = cbw_new("w=5 h=2");
    th_position(m, "turn=1 hands=-/JS/-/- table=8C@0,1;10D@1,1;6C@-1,0;7H@0,0;8H@2,0");
    th_play(m, "JS@1,0");
    assert_int_equal(cbw_nprisoners(m, 1), 1);
    assert_int_equal(cbw_at(m, 0, 0), -1);
    const cbw_state *s = cbw_st(m);
    assert_int_equal(s->x0, -1);
    assert_int_equal(s->x1, 2);
    pl_match_free(m);
    /* A card may go only where the span stays W x H. */
    m = cbw_new("w=3 h=4");
    th_position(m, "turn=1 hands=-/QS/-/- table=9D@-1,0;7H@0,0;8D@1,0");
    CBW_LEGAL(m, "QS@0,1");
    CBW_ILLEGAL(m, "QS@2,0", "CBW-R13");
    pl_match_free(m);
    /* A span that once held a card keeps it, though the cell is empty now:
     * with W = 2 the span -1..0 is full, so 1,0 is out. */
    m = cbw_new("w=2 h=4");
    th_position(m, "turn=1 span=-1..0,0..0 hands=-/QS/-/- table=7H@0,0");
    CBW_LEGAL(m, "QS@-1,0");
    CBW_ILLEGAL(m, "QS@1,0", "CBW-R13");
    pl_match_free(m);
}

static void test_CBW_R9_edges_fix_when_span_reaches_size(void **state)
{
    (void)state;
    pl_match *m = cbw_new("w=3 h=2");
    th_position(m, "turn=1 hands=-/QS,KS/-/- table=7H@0,0;8D@1,0");
    assert_false(cbw_fixed_x(cbw_st(m)));
    th_play(m, "QS@-1,0");
    assert_true(cbw_fixed_x(cbw_st(m)));
    assert_false(cbw_fixed_y(cbw_st(m)));
    /* Fixed for the rest of the game: no card beyond x = 1 or x = -1. */
    th_script(m, "pass; pass; pass");
    CBW_ILLEGAL(m, "KS@2,0", "CBW-R13");
    CBW_ILLEGAL(m, "KS@-2,0", "CBW-R13");
    CBW_LEGAL(m, "KS@0,1");
    th_play(m, "KS@0,1");
    assert_true(cbw_fixed_y(cbw_st(m)));
    pl_match_free(m);
}

static void test_CBW_R10_inside_band_on_unfixed_axis(void **state)
{
    (void)state;
    /* With H = 2 and one row used, both the row above and the row below are
     * inside, though both cannot end up inside. */
    pl_match *m = cbw_new("w=4 h=2");
    th_position(m, "turn=1 hands=-/QS/-/- table=7H@0,0");
    CBW_LEGAL(m, "QS@0,1");
    CBW_LEGAL(m, "QS@0,-1");
    const cbw_state *s = cbw_st(m);
    assert_int_equal(s->iy0, -1);
    assert_int_equal(s->iy1, 1);
    assert_int_equal(s->ix0, -3);
    assert_int_equal(s->ix1, 3);
    th_play(m, "QS@0,1");
    s = cbw_st(m);
    assert_int_equal(s->iy0, 0); /* the row below has left the Rectangle */
    assert_int_equal(cbw_at(m, 0, -1), -2);
    pl_match_free(m);
}

/* ---- placing ---- */

static void test_CBW_R11_first_card_rank_2_to_10(void **state)
{
    (void)state;
    pl_match *m = cbw_new("deal=6H,7H,8H,9H,10H,JH,QH,KH,AH/6S,7S,8S,9S,10S,JS,QS,KS,AS/"
                          "6D,7D,8D,9D,10D,JD,QD,KD,AD/6C,7C,8C,9C,10C,JC,QC,KC,AC");
    assert_string_equal(th_legal(m), "6H@0,0 7H@0,0 8H@0,0 9H@0,0 10H@0,0 pass");
    CBW_ILLEGAL(m, "JH@0,0", "CBW-R11");
    CBW_ILLEGAL(m, "AH@0,0", "CBW-R11");
    CBW_ILLEGAL(m, "6H@1,0", "CBW-R11");
    th_play(m, "10H@0,0");
    pl_match_free(m);
    m = cbw_new("deck=52");
    th_position(m, "turn=0 hands=2H,10D,JH/-/-/- table=-");
    assert_string_equal(th_legal(m), "2H@0,0 10D@0,0 pass");
    CBW_ILLEGAL(m, "JH@0,0", "CBW-R11");
    pl_match_free(m);
    /* After captures empty the table, R11 does not apply again (CBW-R12). */
}

static void test_CBW_R12_continuity_and_empty_table(void **state)
{
    (void)state;
    pl_match *m = cbw_new("");
    th_position(m, "turn=1 hands=-/QS/-/- table=7H@0,0;8D@1,0");
    CBW_LEGAL(m, "QS@2,0");
    CBW_ILLEGAL(m, "QS@3,0", "CBW-R12");
    CBW_ILLEGAL(m, "QS@0,2", "CBW-R12");
    pl_match_free(m);
    /* Decision: a table emptied by captures takes a card on any free cell
     * inside, of any rank. */
    m = cbw_new("w=3 h=3");
    th_position(m, "turn=1 span=-1..1,0..0 hands=-/AS/-/- table=-");
    CBW_LEGAL(m, "AS@1,1");
    CBW_LEGAL(m, "AS@-1,-2");
    CBW_ILLEGAL(m, "AS@-2,0", "CBW-R13");
    pl_match_free(m);
}

static void test_CBW_R13_rectangle_refuses_wider_span(void **state)
{
    (void)state;
    pl_match *m = cbw_new("w=2 h=2");
    th_position(m, "turn=1 hands=-/QS/-/- table=7H@0,0;8D@1,0");
    CBW_ILLEGAL(m, "QS@-1,0", "CBW-R13");
    CBW_ILLEGAL(m, "QS@2,0", "CBW-R13");
    CBW_LEGAL(m, "QS@0,1");
    CBW_LEGAL(m, "QS@1,-1");
    pl_match_free(m);
}

static void test_CBW_R14_diversity_no_equal_suits_adjacent(void **state)
{
    (void)state;
    pl_match *m = cbw_new("");
    th_position(m, "turn=1 hands=-/QS,QC/-/- table=7S@0,1;7H@0,0");
    CBW_ILLEGAL(m, "QS@1,1", "CBW-R14");
    CBW_LEGAL(m, "QC@1,1");
    /* Even next to a card of the other team's... own team: the suit counts. */
    th_position(m, "turn=1 hands=-/QS,QC/-/- table=7S@0,0");
    CBW_ILLEGAL(m, "QS@1,0", "CBW-R14");
    CBW_LEGAL(m, "QC@1,0");
    assert_non_null(strstr(cbw_why(m, "QS@1,0"), "7♠"));
    pl_match_free(m);
}

static void test_CBW_R15_seniority_seed_examples(void **state)
{
    (void)state;
    pl_match *m = cbw_new("");
    /* Q♠ next to J♦ alone: legal. */
    th_position(m, "turn=1 hands=-/QS/-/- table=JD@0,0");
    CBW_LEGAL(m, "QS@1,0");
    /* Q♠ next to J♦ and K♥: legal (higher than the Jack). */
    th_position(m, "turn=1 hands=-/QS/-/- table=KH@1,1;JD@0,0");
    CBW_LEGAL(m, "QS@1,0");
    /* Q♠ next to K♥ alone: illegal. */
    th_position(m, "turn=1 hands=-/QS/-/- table=KH@0,0");
    CBW_ILLEGAL(m, "QS@1,0", "CBW-R15");
    assert_non_null(strstr(cbw_why(m, "QS@1,0"), "K♥"));
    /* Q♠ next to K♥ and 6♣: legal (6♣ is black: comradely help). */
    th_position(m, "turn=1 hands=-/QS/-/- table=6C@1,1;KH@0,0");
    CBW_LEGAL(m, "QS@1,0");
    pl_match_free(m);
}

static void test_CBW_R15_equal_rank_is_not_higher(void **state)
{
    (void)state;
    pl_match *m = cbw_new("");
    th_position(m, "turn=1 hands=-/QS,KS/-/- table=QH@0,0");
    CBW_ILLEGAL(m, "QS@1,0", "CBW-R15");
    CBW_LEGAL(m, "KS@1,0");
    /* Neighbours Q♥ and Q♦: a Queen is higher than neither. */
    th_position(m, "turn=1 hands=-/QS,KS/-/- table=QD@1,1;QH@0,0");
    CBW_ILLEGAL(m, "QS@1,0", "CBW-R15");
    pl_match_free(m);
}

static void test_CBW_R16_free_cells_and_freed_cells(void **state)
{
    (void)state;
    pl_match *m = cbw_new("w=5 h=2");
    th_position(m, "turn=1 hands=-/JS,AC/8D/- table=8C@0,1;10D@1,1;6C@-1,0;7H@0,0;8H@2,0");
    CBW_ILLEGAL(m, "AC@0,0", "CBW-R16");
    th_play(m, "JS@1,0"); /* captures 7H at 0,0 */
    /* The freed cell is free again: Red's 8D goes there and takes J♠ back
     * (no repetition rule, CBW-R20). */
    assert_int_equal(cbw_at(m, 0, 0), -1);
    CBW_LEGAL(m, "8D@0,0");
    th_play(m, "8D@0,0");
    assert_int_equal(cbw_nprisoners(m, 0), 1);
    assert_int_equal(cbw_at(m, 1, 0), -1);
    pl_match_free(m);
}

/* ---- groups, liberties, capture ---- */

static void test_CBW_R17_groups_by_colour_and_liberties_inside(void **state)
{
    (void)state;
    /* A red group of two cards (7H 8D) next to each other shares liberties. */
    pl_match *m = cbw_new("w=3 h=2");
    th_position(m, "turn=1 span=0..2,0..1 hands=-/9S,10C/-/- table=9C@0,1;7H@0,0;8D@1,0");
    const cbw_state *s = cbw_st(m);
    int r7 = s->root[cbw_card("7H")], r8 = s->root[cbw_card("8D")];
    assert_int_equal(r7, r8); /* one group of one colour */
    assert_int_not_equal(s->root[cbw_card("9C")], r7);
    /* Its liberties: 1,1 and 2,0 (0,-1 and 1,-1 are outside: the span is fixed). */
    assert_int_equal(s->plib[r7], 2);
    th_play(m, "9S@1,1");
    s = cbw_st(m);
    assert_int_equal(cbw_nprisoners(m, 1), 0); /* 2,0 left */
    assert_int_equal(s->plib[s->root[cbw_card("7H")]], 1);
    th_script(m, "pass; pass; pass");
    th_play(m, "10C@2,0");
    assert_int_equal(cbw_nprisoners(m, 1), 2); /* both cards of the group */
    pl_match_free(m);
}

static void test_CBW_R18_edge_fixing_capture_far_from_card(void **state)
{
    (void)state;
    /* The seed's "very beautiful capture": 9♠ at 1,0 has one liberty, 1,-1,
     * only while the Rectangle (H = 3) may still extend down. Q♥ at 1,2,
     * two cells away, fixes the top and bottom edges and captures it. */
    pl_match *m = cbw_new("w=5 h=3");
    th_position(m, "turn=0 hands=QH/KS/-/- table=10D@1,1;7H@0,0;9S@1,0;8H@2,0");
    CBW_LEGAL(m, "QH@1,2");
    th_play(m, "QH@1,2");
    assert_true(cbw_fixed_y(cbw_st(m)));
    assert_int_equal(cbw_nprisoners(m, 0), 1);
    assert_int_equal(cbw_at(m, 1, 0), -1);
    assert_true(cbw_st(m)->prisoners[0] == 1ull << cbw_card("9S"));
    pl_match_free(m);
}

static void test_CBW_R18_capture_at_edge_fixed_earlier(void **state)
{
    (void)state;
    pl_match *m = cbw_new("w=5 h=2");
    th_position(m, "turn=0 span=0..2,0..1 hands=10D/KS/-/- table=7H@0,0;9S@1,0;8H@2,0");
    assert_true(cbw_fixed_y(cbw_st(m)));
    th_play(m, "10D@1,1");
    assert_int_equal(cbw_nprisoners(m, 0), 1);
    assert_int_equal(cbw_at(m, 1, 0), -1);
    pl_match_free(m);
    /* The same with the bottom edge still open: 1,-1 is a liberty. */
    m = cbw_new("w=5 h=3");
    th_position(m, "turn=0 span=0..2,0..1 hands=10D/KS/-/- table=7H@0,0;9S@1,0;8H@2,0");
    th_play(m, "10D@1,1");
    assert_int_equal(cbw_nprisoners(m, 0), 0);
    pl_match_free(m);
}

static void test_CBW_R18_step2_fixing_move_loses_own_group(void **state)
{
    (void)state;
    /* Red's 7♥ at 1,0 lives on 1,-1. Red's own Q♦ at 1,2 fixes the bottom
     * edge: step 1 captures nothing, step 2 gives 7♥ to Black. */
    pl_match *m = cbw_new("w=5 h=3");
    th_position(m, "turn=0 hands=QD/KS/-/- table=9C@1,1;6S@0,0;7H@1,0;8S@2,0");
    CBW_LEGAL(m, "QD@1,2");
    th_play(m, "QD@1,2");
    assert_int_equal(cbw_nprisoners(m, 0), 0);
    assert_int_equal(cbw_nprisoners(m, 1), 1);
    assert_true(cbw_st(m)->prisoners[1] == 1ull << cbw_card("7H"));
    assert_int_equal(cbw_at(m, 1, 2), cbw_card("QD"));
    assert_int_equal(cbw_st(m)->cap1, 0);
    assert_int_equal(cbw_st(m)->cap2, 1);
    pl_match_free(m);
}

static void test_CBW_R18_step1_before_step2(void **state)
{
    (void)state;
    /* A fixing move where both colours lose their last liberty: the other
     * colour goes first, which frees the mover's group. 7H at 0,0 (Red)
     * and 9S at 1,0 (Black) each live only on the row below. Black fixes
     * the bottom edge: 7H is captured first, so 9S gains 0,0 and lives. */
    pl_match *m = cbw_new("w=5 h=3");
    th_position(m, "turn=1 hands=-/KC/-/- table=10S@0,1;10D@1,1;6C@-1,0;7H@0,0;9S@1,0;8H@2,0");
    /* K♣ at 1,2, above 10♦ and next to nothing else, fixes the bottom edge. */
    th_play(m, "KC@1,2");
    assert_int_equal(cbw_nprisoners(m, 1), 1); /* 7H */
    assert_int_equal(cbw_at(m, 1, 0), cbw_card("9S"));
    assert_int_equal(cbw_nprisoners(m, 0), 0);
    pl_match_free(m);
}

static void test_CBW_R19_suicide_only_when_it_captures(void **state)
{
    (void)state;
    /* J♠ at 1,0 would have no liberty (the bottom edge is fixed). */
    pl_match *m = cbw_new("w=5 h=2");
    th_position(m, "turn=1 hands=-/JS/-/- table=10D@1,1;6C@-1,0;7H@0,0;8H@2,0");
    CBW_ILLEGAL(m, "JS@1,0", "CBW-R19");
    /* With 8♣ on 0,1 the 7♥ has no other liberty: J♠ captures it, legal. */
    th_position(m, "turn=1 hands=-/JS/-/- table=8C@0,1;10D@1,1;6C@-1,0;7H@0,0;8H@2,0");
    CBW_LEGAL(m, "JS@1,0");
    th_play(m, "JS@1,0");
    assert_int_equal(cbw_nprisoners(m, 1), 1);
    assert_int_equal(cbw_at(m, 1, 0), cbw_card("JS"));
    pl_match_free(m);
}

static void test_CBW_R20_every_game_ends(void **state)
{
    (void)state;
    /* No repetition rule: every placement uses up a card, so random play
     * ends within seats x (cards + 1) turns. */
    const pl_game *g = pl_game_find("cbw");
    pl_action acts[PL_MAX_ACTIONS];
    for (int seed = 1; seed <= 200; seed++) {
        char o[64];
        snprintf(o, sizeof o, "seed=%d players=%s", seed, seed % 2 ? "4" : "6");
        pl_match *m = cbw_new(o);
        pl_rng r;
        pl_rng_seed(&r, (uint64_t)seed);
        int turns = 0, limit = cbw_st(m)->nseats * (36 + 1);
        while (g->phase(m->state) != PL_PHASE_OVER) {
            int seat = pl_sole_actor(g, m->state);
            int n = g->legal(m->state, seat, acts, PL_MAX_ACTIONS);
            g->apply(m->state, seat, acts[pl_rng_below(&r, (uint32_t)n)]);
            assert_true(++turns <= limit);
        }
        pl_match_free(m);
    }
}

/* ---- passing and the end ---- */

static void test_CBW_R21_pass_always_legal(void **state)
{
    (void)state;
    pl_match *m = cbw_new("");
    assert_non_null(strstr(th_legal(m), "pass"));
    th_play(m, "pass"); /* even before the first card */
    th_position(m, "turn=1 hands=-/-/-/- table=7H@0,0");
    assert_string_equal(th_legal(m), "pass"); /* no cards: only pass */
    pl_match_free(m);
}

static void test_CBW_R22_end_after_every_seat_passes(void **state)
{
    (void)state;
    pl_match *m = cbw_new("seed=9");
    th_script(m, "pass; pass; pass");
    assert_int_equal(m->game->phase(m->state), PL_PHASE_MOVE);
    /* A placement breaks the run of passes. */
    pl_action acts[PL_MAX_ACTIONS];
    int n = m->game->legal(m->state, 3, acts, PL_MAX_ACTIONS);
    assert_true(n >= 2);
    pl_buf e = {0};
    assert_int_equal(pl_match_play(m, 3, acts[0], &e), 0); /* a first card */
    pl_buf_free(&e);
    th_script(m, "pass; pass; pass");
    assert_int_equal(m->game->phase(m->state), PL_PHASE_MOVE);
    th_play(m, "pass");
    assert_int_equal(m->game->phase(m->state), PL_PHASE_OVER);
    pl_match_free(m);
    m = cbw_new("players=6");
    th_script(m, "pass; pass; pass; pass; pass");
    assert_int_equal(m->game->phase(m->state), PL_PHASE_MOVE);
    th_play(m, "pass");
    assert_int_equal(m->game->phase(m->state), PL_PHASE_OVER);
    pl_match_free(m);
}

/* ---- scoring ---- */

static void test_CBW_R23_regions_of_free_cells(void **state)
{
    (void)state;
    /* Two free regions split by a red wall: 0,0..0,1 (left) and the right. */
    pl_match *m = cbw_new("w=4 h=2");
    th_position(m, "turn=0 span=0..3,0..1 hands=-/-/-/- table=8D@1,1;7H@1,0;9S@3,0");
    int c[2];
    cbw_castles(cbw_st(m), c);
    assert_int_equal(c[0], 2); /* the left region; the right one touches 9S too */
    assert_int_equal(c[1], 0);
    pl_match_free(m);
}

static void test_CBW_R24_castles_on_fixed_edge(void **state)
{
    (void)state;
    pl_match *m = cbw_new("w=4 h=2");
    th_position(m, "phase=over passes=4 turn=0 span=0..3,0..1 hands=-/-/-/- table=8D@1,1;7H@1,0;9S@3,0");
    pl_outcome o;
    m->game->outcome(m->state, &o);
    assert_int_equal(o.score[0], 2);
    assert_int_equal(o.score[1], 0);
    assert_int_equal(o.kind, PL_WIN_TEAM);
    assert_int_equal(o.winner, 0);
    /* A black card in the castle spoils it. */
    th_position(m, "phase=over passes=4 turn=0 span=0..3,0..1 hands=-/-/-/- table=9C@0,1;8D@1,1;7H@1,0;9S@3,0");
    m->game->outcome(m->state, &o);
    assert_int_equal(o.score[0], 0);
    pl_match_free(m);
}

static void test_CBW_R24_region_leaking_past_unfixed_edge_scores_nothing(void **state)
{
    (void)state;
    /* Same cards, H = 3: the bottom and top edges are not fixed, so the
     * left region reaches 0,-1 and 0,2, outside the span: no castle. */
    pl_match *m = cbw_new("w=4 h=3");
    th_position(m, "phase=over passes=4 turn=0 span=0..3,0..1 hands=-/-/-/- table=8D@1,1;7H@1,0;9S@3,0");
    int c[2];
    cbw_castles(cbw_st(m), c);
    assert_int_equal(c[0], 0);
    assert_int_equal(c[1], 0);
    pl_outcome o;
    m->game->outcome(m->state, &o);
    assert_int_equal(o.kind, PL_WIN_DRAW);
    pl_match_free(m);
    /* A region with no card next to it scores for nobody. */
    m = cbw_new("w=3 h=1");
    th_position(m, "phase=over passes=4 span=-1..1,0..0 hands=-/-/-/- table=-");
    cbw_castles(cbw_st(m), c);
    assert_int_equal(c[0] + c[1], 0);
    pl_match_free(m);
}

static void test_CBW_R25_prisoners_one_point_each(void **state)
{
    (void)state;
    pl_match *m = cbw_new("w=4 h=2");
    th_position(m, "phase=over passes=4 span=0..3,0..1 hands=-/-/-/- table=8D@1,1;7H@1,0;9S@3,0 "
                   "prisoners=AS,6C,7C/6H");
    int sc[2];
    cbw_score(cbw_st(m), sc);
    assert_int_equal(sc[0], 2 + 3); /* castles 2 + three prisoners, ranks do not count */
    assert_int_equal(sc[1], 1);
    pl_match_free(m);
}

static void test_CBW_R26_result_team_totals(void **state)
{
    (void)state;
    pl_match *m = cbw_new("w=4 h=2 players=6");
    th_position(m, "phase=over passes=6 span=0..3,0..1 hands=-/-/-/-/-/- table=8D@1,1;7H@1,0;9S@3,0 "
                   "prisoners=-/AH,KH,QH");
    pl_outcome o;
    m->game->outcome(m->state, &o);
    assert_int_equal(o.nseats, 6);
    for (int i = 0; i < 6; i++) {
        assert_int_equal(o.score[i], i % 2 ? 3 : 2);
        assert_true(o.utility[i] == (i % 2 ? 1.0 : 0.0));
    }
    assert_int_equal(o.kind, PL_WIN_TEAM);
    assert_int_equal(o.winner, 1);
    pl_buf st = {0};
    pl_match_status(m, &st);
    assert_non_null(strstr(pl_buf_str(&st), "winner team 1"));
    pl_buf_free(&st);
    th_position(m, "phase=over passes=6 span=0..3,0..1 hands=-/-/-/-/-/- table=8D@1,1;7H@1,0;9S@3,0 "
                   "prisoners=-/AH,KH");
    m->game->outcome(m->state, &o);
    assert_int_equal(o.kind, PL_WIN_DRAW);
    assert_true(o.utility[0] == 0.5);
    pl_match_free(m);
}

/* ---- what a placement did, in words (game.h describe) ---- */

/* The describe text of `text` played now by the actor, for `viewer`. */
static const char *cbw_told(pl_match *m, const char *text, int viewer)
{
    static char out[1024];
    pl_buf b = {0};
    pl_action a;
    int seat = pl_sole_actor(m->game, m->state);
    assert_int_equal(pl_parse_legal(m->game, m->state, seat, text, &a, &b), 0);
    void *before = pl_malloc(m->game->state_size);
    assert_non_null(before);
    pl_state_copy(m->game, before, m->state);
    th_play(m, text);
    m->game->describe(before, seat, a, m->state, viewer, &b);
    snprintf(out, sizeof out, "%s", pl_buf_str(&b));
    pl_free(before);
    pl_buf_free(&b);
    return out;
}

static void test_CBW_R18_every_captured_group_is_told(void **state)
{
    (void)state;
    /* Q♥ at 1,2 fixes the top and bottom edges: 9♠ (1,0) and J♣ (3,0), two
     * Black groups each living on the row below, are both captured. */
    pl_match *m = cbw_new("w=5 h=3");
    th_position(m, "turn=0 hands=QH/KS/-/- table=10D@1,1;7H@0,0;9S@1,0;8H@2,0;JC@3,0;9D@3,1;10H@4,0");
    CBW_LEGAL(m, "QH@1,2");
    assert_string_equal(cbw_told(m, "QH@1,2", 1),
                        "Seat 1's Q♥ captured 9♠ and J♣: 2 prisoners for Red.");
    assert_int_equal(cbw_nprisoners(m, 0), 2);
    pl_match_free(m);
    /* One group of two cards is one group; the mover's own words. */
    m = cbw_new("w=5 h=3");
    th_position(m, "turn=0 hands=QH/KS/-/- table=10D@1,1;7H@0,0;9S@1,0;JC@2,0;9D@3,0;8H@2,1");
    CBW_LEGAL(m, "QH@1,2");
    assert_string_equal(cbw_told(m, "QH@1,2", 0), "Your Q♥ captured 9♠ J♣: 2 prisoners for Red (your team).");
    pl_match_free(m);
}

static void test_CBW_R18_step2_loss_is_told(void **state)
{
    (void)state;
    pl_match *m = cbw_new("w=5 h=3");
    th_position(m, "turn=0 hands=QD/KS/-/- table=9C@1,1;6S@0,0;7H@1,0;8S@2,0");
    assert_string_equal(cbw_told(m, "QD@1,2", 1),
                        "Seat 1's Q♦ left without liberty its own 7♥: 1 prisoner for Black (your team).");
    pl_match_free(m);
    /* No capture, a pass: nothing to tell. */
    m = cbw_new("w=5 h=3");
    th_position(m, "turn=0 hands=QD/KS/-/- table=9C@1,1;6S@0,0;7H@1,0;8S@2,0");
    assert_string_equal(cbw_told(m, "pass", 1), "");
    pl_match_free(m);
}

static void test_CBW_last_card_highlighted(void **state)
{
    (void)state;
    pl_match *m = cbw_new("w=5 h=3");
    th_position(m, "turn=0 hands=QD/KS/-/- table=9C@1,1;6S@0,0;7H@1,0;8S@2,0");
    th_play(m, "QD@1,2");
    pl_canvas c = {0};
    m->game->draw(m->state, 0, &c);
    int hl = 0;
    for (int r = 0; r < c.rows; r++)
        for (int k = 0; k < c.cols; k++) {
            const pl_cell *x = &c.cells[r * c.capcols + k];
            if (x->style == PL_ST_HILITE && (!strcmp(x->ch, "Q") || !strcmp(x->ch, "♦")))
                hl++;
        }
    assert_int_equal(hl, 2); /* the Q♦ on the table, not the one in "Last card: Q♦" */
    pl_canvas_free(&c);
    pl_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_CBW_R1_teams_alternate_and_turns_wrap),
        cmocka_unit_test(test_CBW_R2_first_team_drawn_or_chosen),
        cmocka_unit_test(test_CBW_R3_deck_36_and_52),
        cmocka_unit_test(test_CBW_R4_own_colour_deal_52_and_6_players),
        cmocka_unit_test(test_CBW_R5_view_shows_own_hand_only),
        cmocka_unit_test(test_CBW_R6_orthogonal_adjacency_and_origin),
        cmocka_unit_test(test_CBW_R7_rectangle_size_options),
        cmocka_unit_test(test_CBW_R8_span_counts_captured_cards),
        cmocka_unit_test(test_CBW_R9_edges_fix_when_span_reaches_size),
        cmocka_unit_test(test_CBW_R10_inside_band_on_unfixed_axis),
        cmocka_unit_test(test_CBW_R11_first_card_rank_2_to_10),
        cmocka_unit_test(test_CBW_R12_continuity_and_empty_table),
        cmocka_unit_test(test_CBW_R13_rectangle_refuses_wider_span),
        cmocka_unit_test(test_CBW_R14_diversity_no_equal_suits_adjacent),
        cmocka_unit_test(test_CBW_R15_seniority_seed_examples),
        cmocka_unit_test(test_CBW_R15_equal_rank_is_not_higher),
        cmocka_unit_test(test_CBW_R16_free_cells_and_freed_cells),
        cmocka_unit_test(test_CBW_R17_groups_by_colour_and_liberties_inside),
        cmocka_unit_test(test_CBW_R18_edge_fixing_capture_far_from_card),
        cmocka_unit_test(test_CBW_R18_capture_at_edge_fixed_earlier),
        cmocka_unit_test(test_CBW_R18_step2_fixing_move_loses_own_group),
        cmocka_unit_test(test_CBW_R18_step1_before_step2),
        cmocka_unit_test(test_CBW_R18_every_captured_group_is_told),
        cmocka_unit_test(test_CBW_R18_step2_loss_is_told),
        cmocka_unit_test(test_CBW_last_card_highlighted),
        cmocka_unit_test(test_CBW_R19_suicide_only_when_it_captures),
        cmocka_unit_test(test_CBW_R20_every_game_ends),
        cmocka_unit_test(test_CBW_R21_pass_always_legal),
        cmocka_unit_test(test_CBW_R22_end_after_every_seat_passes),
        cmocka_unit_test(test_CBW_R23_regions_of_free_cells),
        cmocka_unit_test(test_CBW_R24_castles_on_fixed_edge),
        cmocka_unit_test(test_CBW_R24_region_leaking_past_unfixed_edge_scores_nothing),
        cmocka_unit_test(test_CBW_R25_prisoners_one_point_each),
        cmocka_unit_test(test_CBW_R26_result_team_totals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
