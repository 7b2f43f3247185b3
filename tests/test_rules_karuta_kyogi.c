/* test_rules_karuta_kyogi.c — kyōgi karuta, KA-R1..KA-R16, and every named
 * case: kata-ote, kara-daburu, daburu, semi-daburu, tomo-ote, torizon, a
 * simultaneous touch, the 1-1 trap. Seat 0 is A, seat 1 is B.
 * The small deals put A's cards 1 2 3 and B's 4 5 6 (50 is dead). */
#include "karuta_helpers.h"

#define SMALL "deal=1;2;3/4;5;6 seed=1"

static void reading(pl_match *m, int card, const char *a, const char *b)
{
    const char *r[2] = {a, b};
    kar_reading(m, card, r);
}

static void counts(pl_match *m, int a, int b)
{
    assert_int_equal(KS(m)->count[0], a);
    assert_int_equal(KS(m)->count[1], b);
}

static void test_KA_R1_deal(void **st)
{
    (void)st;
    for (int seed = 1; seed <= 50; seed++) {
        char o[32];
        snprintf(o, sizeof o, "seed=%d", seed);
        pl_match *m = th_new("karuta", o);
        kar_state *s = KS(m);
        int n[3] = {0, 0, 0};
        for (int c = 1; c <= 100; c++) {
            assert_true(s->loc[c] < 2 || s->loc[c] == KAR_LOC_DEAD);
            n[s->loc[c] < 2 ? s->loc[c] : 2]++;
            assert_true(s->kim.unread[c]);
        }
        assert_int_equal(n[0], 25);
        assert_int_equal(n[1], 25);
        assert_int_equal(n[2], 50);
        assert_int_equal(m->game->phase(s), PL_PHASE_CHANCE);
        pl_match_free(m);
    }
    /* the same seed deals the same cards */
    pl_match *a = th_new("karuta", "seed=9"), *b = th_new("karuta", "seed=9");
    assert_memory_equal(KS(a)->loc, KS(b)->loc, sizeof KS(a)->loc);
    pl_match_free(a);
    pl_match_free(b);
}

static void test_KA_R2_layout_grid_and_row_rule(void **st)
{
    (void)st;
    for (int seed = 1; seed <= 200; seed++) {
        char o[32];
        snprintf(o, sizeof o, "seed=%d", seed);
        pl_match *m = th_new("karuta", o);
        kar_state *s = KS(m);
        for (int t = 0; t < 2; t++) {
            assert_true(kar_row_rule(s, t));
            int n = 0;
            for (int r = 0; r < KAR_ROWS; r++)
                for (int k = 0; k < KAR_SLOTS; k++)
                    if (s->grid[t][r][k]) {
                        int c = s->grid[t][r][k];
                        assert_int_equal(s->loc[c], t);
                        assert_int_equal(s->row[c], r + 1);
                        assert_int_equal(s->slot[c], k + 1);
                        n++;
                    }
            assert_int_equal(n, 25);
        }
        pl_match_free(m);
    }
    /* the documented automatic layout: rows in turn, edges inwards */
    pl_match *m = th_new("karuta", "deal=10;11;12;13;14;15/20 seed=1");
    assert_int_equal(KS(m)->row[10], 1);
    assert_int_equal(KS(m)->slot[10], 1);
    assert_int_equal(KS(m)->row[11], 2);
    assert_int_equal(KS(m)->row[13], 1);
    assert_int_equal(KS(m)->slot[13], 17);
    pl_match_free(m);
    /* a given layout must keep the row rule (with 6 cards or more) */
    const pl_game *g = pl_game_find("karuta");
    pl_buf err = {0};
    char *bad[] = {"deal=1@1,1;2@1,2;3@2,1;4@2,17;5@3,1;6@3,17/7", "seed=1"};
    assert_null(pl_match_new(g, 2, bad, &err));
    assert_non_null(strstr(pl_buf_str(&err), "KA-R2"));
    pl_buf_clear(&err);
    char *clash[] = {"deal=1@1,1;2@1,1/7"};
    assert_null(pl_match_new(g, 1, clash, &err));
    pl_buf_clear(&err);
    char *off[] = {"deal=1@4,1/7"};
    assert_null(pl_match_new(g, 1, off, &err));
    pl_buf_free(&err);
}
/* "deal=" with cards 1..n in territory 0 (automatic slots) and n+1..n+m in 1. */
static void big_deal(char *out, size_t cap, int n, int m)
{
    size_t len = (size_t)snprintf(out, cap, "deal=");
    for (int c = 1; c <= n + m; c++)
        len += (size_t)snprintf(out + len, cap - len, "%d%s", c, c == n ? "/" : c < n + m ? ";" : "");
}

/* KA-R2: the free space (row 1, slot 9, right in front of the owner) holds
 * no card, whatever the placement: deal=, the automatic layout, a received
 * card placed by hand or by the bot, a rearranging move, a position text. */
static void test_KA_R2_free_space_refused_everywhere(void **st)
{
    (void)st;
    th_options_refused("karuta", "deal=1@1,9;2/3 seed=1", "KA-R2");
    th_options_refused("karuta", "deal=1@1,9;2/3 seed=1", "free space");
    th_options_refused("karuta", "deal=1/2;3@1,9 seed=1", "KA-R2");
    /* slot 9 of the other rows is an ordinary slot */
    pl_match *m = th_new("karuta", "deal=1@2,9;2@3,9/3 seed=1");
    assert_int_equal(KS(m)->grid[0][1][8], 1);
    pl_match_free(m);
    /* the automatic layout fills every other slot first and never that one:
     * 49 cards take rows 2 and 3 whole and row 1 but for its centre */
    char deal[512];
    big_deal(deal, sizeof deal, 49, 1);
    m = th_new("karuta", deal);
    assert_int_equal(KS(m)->count[0], 49);
    assert_int_equal(KS(m)->grid[0][0][8], 0);
    for (int c = 1; c <= 49; c++)
        assert_true(KS(m)->row[c] >= 1 && !(KS(m)->row[c] == 1 && KS(m)->slot[c] == 9));
    pl_match_free(m);
    /* 50 slots a side: no more than 50 cards in play (sends can bring them all to one side) */
    big_deal(deal, sizeof deal, 26, 25);
    th_options_refused("karuta", deal, "50");
    big_deal(deal, sizeof deal, 25, 25);
    m = th_new("karuta", deal);
    pl_match_free(m);
    /* a received card: not placed there by hand, nor by the bot */
    m = th_new("karuta", SMALL " place=manual");
    reading(m, 50, "touch 4@300", "none"); /* kata-ote by A: B sends 1 */
    kar_do(m, 1, "send 6");
    assert_false(th_has_legal(m, 0, "place 6@1,9"));
    assert_true(th_has_legal(m, 0, "place 6@1,8"));
    pl_buf err = {0};
    assert_int_equal(kar_try(m, 0, "place 6@1,9", &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "KA-R2"));
    pl_buf_clear(&err);
    pl_action a;
    assert_int_equal(kar_bot(m->state, 0, "expert", 1, &a, &err), 0);
    assert_false(((a >> 8) & 0xff) == 1 && ((a >> 16) & 0xff) == 9);
    pl_buf_clear(&err);
    pl_match_free(m);
    /* rearranging (KA-R15) */
    m = th_new("karuta", "rearrange=on seed=1 deal=1@1,1;2@1,10;3@2,1;4@2,10;5@3,1;6@3,10;7@1,2/"
                         "11@1,1;12@1,10;13@2,1;14@2,10;15@3,1;16@3,10;17@1,2");
    reading(m, 50, "none", "none");
    assert_int_equal(KS(m)->stage, KAR_ST_ARRANGE);
    assert_true(th_has_legal(m, 0, "arrange 7@1,8"));
    assert_false(th_has_legal(m, 0, "arrange 7@1,9"));
    assert_int_equal(pl_match_play_text(m, 0, "arrange 7@1,9", &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "KA-R2"));
    pl_buf_clear(&err);
    pl_match_free(m);
    /* a position text with a card there */
    m = th_new("karuta", SMALL);
    pl_buf t = {0};
    m->game->to_text(m->state, &t);
    static char txt[16384];
    snprintf(txt, sizeof txt, "%s", pl_buf_str(&t));
    char *at = strstr(txt, "1@1,1");
    assert_non_null(at);
    at[4] = '9';
    kar_state back;
    memcpy(&back, m->initial, sizeof back);
    assert_int_equal(m->game->from_text(&back, txt, &err), -1);
    assert_memory_equal(&back, m->initial, sizeof back);
    pl_buf_free(&t);
    pl_buf_free(&err);
    pl_match_free(m);
}

static void test_KA_R3_memorisation_option(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", "seed=1");
    assert_int_equal(KS(m)->memo_s, 900); /* 15 min */
    pl_buf v = {0};
    m->game->view(m->state, 0, &v);
    assert_non_null(strstr(pl_buf_str(&v), "memo_s 900"));
    pl_buf_free(&v);
    pl_match_free(m);
    m = th_new("karuta", "memo_s=60 seed=1");
    assert_int_equal(KS(m)->memo_s, 60);
    pl_match_free(m);
}

static void test_KA_R4_joka_pause_then_first_kana_at_zero(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", "seed=1");
    assert_int_equal(KS(m)->pause_ms, 1000);
    assert_int_equal(KS(m)->nread, 0); /* the joka is no reading: all 100 remain */
    th_play(m, "read 1");
    pl_buf v = {0};
    m->game->view(m->state, 0, &v);
    assert_non_null(strstr(pl_buf_str(&v), "timeline あ@0 き@"));
    pl_buf_free(&v);
    pl_match_free(m);
}

static void test_KA_R5_reading_loop(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", "seed=1 send=auto");
    pl_action acts[PL_MAX_CHANCE];
    double p[PL_MAX_CHANCE];
    int n = m->game->chance(m->state, acts, p, PL_MAX_CHANCE);
    assert_int_equal(n, 100);
    for (int i = 0; i < n; i++)
        assert_true(p[i] == 1.0 / 100);
    th_play(m, "read 7");
    th_script(m, "");
    pl_buf err = {0};
    assert_int_equal(pl_match_play_text(m, 0, "none", &err), 0);
    assert_int_equal(pl_match_play_text(m, 1, "none", &err), 0);
    n = m->game->chance(m->state, acts, p, PL_MAX_CHANCE);
    assert_int_equal(n, 99);
    for (int i = 0; i < n; i++)
        assert_true(acts[i] != (KAR_A_READ | 7));
    assert_int_equal(pl_match_play_text(m, -1, "read 7", &err), -1); /* read once */
    pl_buf_free(&err);
    /* the speed option stretches the timeline */
    assert_int_equal(kar_kana_start(1, 12000, false, 6), 2 * kar_kana_start(1, 6000, false, 6));
    pl_match_free(m);
}

static void test_KA_R6_touch_events(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL);
    pl_buf err = {0};
    kar_do(m, PL_CHANCE, "read 50");
    /* several touches per player, any order in the text, kept sorted */
    assert_int_equal(kar_try(m, 0, "touch 4@900 1@300 5@600", &err), 0);
    assert_int_equal(kar_touch_list(KS(m)->last.resp[0], (kar_touch[3]){0}), 3);
    pl_buf f = {0};
    kar_format_action(m->state, 0, KS(m)->last.resp[0], &f);
    assert_string_equal(pl_buf_str(&f), "touch 1@300 5@600 4@900");
    pl_buf_free(&f);
    /* a touch on a card off the field is invalid input, not a foul */
    assert_int_equal(kar_try(m, 1, "touch 50@100", &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "not on the field"));
    pl_buf_clear(&err);
    assert_int_equal(kar_try(m, 1, "touch 4@16384", &err), -1);
    pl_buf_clear(&err);
    assert_int_equal(kar_try(m, 1, "touch 4@1 5@2 6@3 4@4", &err), -1);
    pl_buf_clear(&err);
    assert_int_equal(kar_try(m, 0, "none", &err), -1); /* seat 0 answered already */
    pl_buf_free(&err);
    pl_match_free(m);
}

static void test_KA_R7_first_touch_takes_ties_to_owner(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL " send=auto");
    reading(m, 4, "touch 4@500", "touch 4@505"); /* a simultaneous touch: B owns 4 */
    assert_int_equal(KS(m)->last.taker, 1);
    counts(m, 3, 2);
    reading(m, 5, "touch 5@500", "touch 5@511"); /* 11 ms: A is first */
    assert_int_equal(KS(m)->last.taker, 0);
    counts(m, 2, 2); /* A took from B's side and sent one */
    reading(m, 1, "touch 1@700", "touch 1@600"); /* B first on A's card */
    assert_int_equal(KS(m)->last.taker, 1);
    assert_int_equal(KS(m)->loc[1], KAR_LOC_OUT);
    pl_match_free(m);
    m = th_new("karuta", SMALL " tie_ms=0");
    reading(m, 4, "touch 4@500", "touch 4@501");
    assert_int_equal(KS(m)->last.taker, 0);
    pl_match_free(m);
}

static void test_KA_R8_fouls_per_territory(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL " send=auto");
    reading(m, 1, "none", "touch 4@100 6@200 1@300"); /* two in T(B): one foul */
    assert_int_equal(KS(m)->last.fouls[1], 1);
    assert_int_equal(KS(m)->last.fouls[0], 0);
    reading(m, 2, "touch 2@400 5@900", "none"); /* a touch after the take still counts */
    assert_int_equal(KS(m)->last.fouls[0], 1);
    pl_match_free(m);
}

static void test_KA_R9_net_sends(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL);
    /* A takes from T(B) and B fouled in T(A): rights(A) = 2, rights(B) = 0 */
    reading(m, 4, "touch 4@500", "touch 1@400");
    assert_int_equal(KS(m)->last.sender, 0);
    assert_int_equal(KS(m)->last.owed, 2);
    assert_int_equal(KS(m)->stage, KAR_ST_SEND);
    kar_do(m, 0, "send 3"); /* A's choice */
    kar_do(m, 0, "send 1");
    assert_int_equal(KS(m)->loc[3], 1);
    assert_int_equal(KS(m)->loc[1], 1);
    counts(m, 1, 4);
    assert_int_equal(KS(m)->stage, KAR_ST_READ);
    pl_match_free(m);
    /* a sender with fewer cards than owed sends all he has */
    m = th_new("karuta", "deal=1/4;5;6 seed=1 send=auto");
    reading(m, 50, "none", "touch 1@100 4@200"); /* kara-daburu by B: A owes 2, has 1 */
    assert_int_equal(KS(m)->last.sent, 1);
    counts(m, 0, 4);
    assert_int_equal(KS(m)->winner, 0);
    pl_match_free(m);
}

static void test_KA_R10_receiver_places(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL " place=manual");
    reading(m, 50, "touch 4@300", "none"); /* kata-ote by A: B sends 1 */
    kar_do(m, 1, "send 6");
    assert_int_equal(KS(m)->stage, KAR_ST_PLACE);
    pl_buf err = {0};
    assert_int_equal(kar_try(m, 0, "place 6@1,1", &err), -1); /* slot taken by 1 */
    pl_buf_clear(&err);
    assert_int_equal(kar_try(m, 0, "place 5@3,9", &err), -1); /* not the card received */
    pl_buf_free(&err);
    kar_do(m, 0, "place 6@3,9");
    assert_int_equal(KS(m)->row[6], 3);
    assert_int_equal(KS(m)->slot[6], 9);
    assert_int_equal(KS(m)->grid[0][2][8], 6);
    pl_match_free(m);
    /* automatic: the row with the fewest cards, the emptier half, the edge */
    m = th_new("karuta", "deal=1@1,1;2@2,1/4 seed=1 send=auto");
    reading(m, 50, "touch 4@300", "none");
    assert_int_equal(KS(m)->row[4], 3);
    assert_int_equal(KS(m)->slot[4], 1);
    pl_match_free(m);
}

static void test_KA_R11_forgotten_send_lapses(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL);
    reading(m, 4, "touch 4@300", "none"); /* A took from T(B): A owes 1 */
    kar_do(m, 0, "pass");
    counts(m, 3, 2);
    assert_int_equal(KS(m)->last.sent, 0);
    assert_int_equal(KS(m)->last.owed, 0);
    assert_int_equal(KS(m)->stage, KAR_ST_READ);
    pl_match_free(m);
}

static void test_KA_R12_win_and_one_one_trap(void **st)
{
    (void)st;
    /* the 1-1 trap: A takes his own last card but touched T(B) → B sends his last, B wins */
    pl_match *m = th_new("karuta", "deal=1/4 seed=1");
    reading(m, 1, "touch 4@300 1@400", "none");
    assert_int_equal(KS(m)->last.taker, 0);
    assert_int_equal(KS(m)->last.sender, 1);
    kar_do(m, 1, "send 4");
    counts(m, 1, 0);
    assert_int_equal(m->game->phase(m->state), PL_PHASE_OVER);
    pl_outcome o;
    m->game->outcome(m->state, &o);
    assert_int_equal(o.kind, PL_WIN_SEAT);
    assert_int_equal(o.winner, 1);
    assert_int_equal(o.score[0], 1);
    pl_match_free(m);
    /* without the foul A wins at 1-1 */
    m = th_new("karuta", "deal=1/4 seed=1");
    reading(m, 1, "touch 1@400", "none");
    assert_int_equal(KS(m)->winner, 0);
    pl_match_free(m);
}

static void test_KA_R13_no_wrong_hand_in_software(void **st)
{
    (void)st;
    /* touches carry no hand: the first valid touch is never voided */
    pl_match *m = th_new("karuta", SMALL " send=auto");
    reading(m, 1, "none", "touch 1@250");
    assert_int_equal(KS(m)->last.taker, 1);
    assert_int_equal(KS(m)->taken_by[1], 2);
    pl_match_free(m);
}

static void test_KA_R14_timestamps_decide_and_are_kept(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL " send=auto");
    reading(m, 5, "touch 5@1234", "touch 5@1300");
    assert_int_equal(KS(m)->last.taker, 0);
    assert_int_equal(KS(m)->last.take_ms, 1234);
    assert_int_equal(KS(m)->take_ms[5], 1234);
    kar_touch t[3];
    assert_int_equal(kar_touch_list(KS(m)->last.resp[1], t), 1);
    assert_int_equal(t[0].ms, 1300);
    pl_match_free(m);
}

static void test_KA_R15_positions_public(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", "seed=4");
    pl_buf a = {0}, b = {0};
    m->game->view(m->state, 0, &a);
    m->game->view(m->state, 1, &b);
    const char *ta = strstr(pl_buf_str(&a), "territory 0"), *tb = strstr(pl_buf_str(&b), "territory 0");
    assert_non_null(ta);
    assert_string_equal(ta, tb); /* both see every card and slot */
    assert_non_null(strstr(ta, "@"));
    pl_buf_free(&a);
    pl_buf_free(&b);
    pl_match_free(m);
}

/* tempo=even: the judgement's kana times come from the even timeline */
static void test_tempo_even_judgement(void **st)
{
    (void)st;
    /* 64 あさぼらけう (23 units, not the mean 24) with 31 あさぼらけあ unread: kimariji 6 */
    pl_match *m = th_new("karuta", "deal=64;31/61 seed=1 send=auto tempo=even");
    reading(m, 64, "touch 64@4000", "none");
    kar_judgement *j = &KS(m)->last;
    assert_int_equal(j->kim, 6);
    assert_int_equal(j->decide_ms, kar_kana_start(64, 6000, true, 6));
    assert_int_equal(j->decide_ms, kar_poem_get(64)->tl_start[0][5] * 6000 / kar_even_units(0));
    assert_int_not_equal(j->decide_ms, kar_kana_start(64, 6000, false, 6));
    assert_int_equal(j->terr_ms, j->terr ? kar_kana_start(64, 6000, true, j->terr) : 0);
    pl_match_free(m);
}

static void test_KA_R16_judgement_logged(void **st)
{
    (void)st;
    /* 63 いまわ with 21 いまこ unread: kimariji 3, decided at the 3rd kana */
    pl_match *m = th_new("karuta", "deal=63;21/61 seed=1 send=auto");
    reading(m, 63, "touch 63@900", "touch 61@800");
    kar_judgement *j = &KS(m)->last;
    assert_int_equal(j->card, 63);
    assert_int_equal(j->kim, 3);
    assert_int_equal(j->terr, 2); /* いま: 21 and 63 both in T(A) */
    assert_int_equal(j->decide_ms, kar_kana_start(63, 6000, false, 3));
    assert_int_equal(j->terr_ms, kar_kana_start(63, 6000, false, 2));
    assert_int_equal(j->fouls[1], 1);
    assert_int_equal(j->sender, 0); /* B's foul lets A send */
    assert_int_equal(j->sent, 1);
    assert_int_equal(j->sent_cards[0], 21);
    pl_buf t = {0};
    kar_judgement_text(KS(m), j, &t);
    assert_non_null(strstr(pl_buf_str(&t), "kimariji 3 kana \"いまわ\""));
    assert_non_null(strstr(pl_buf_str(&t), "seat 0 took it at 900 ms"));
    pl_buf_free(&t);
    pl_match_free(m);
    /* the per-reading log of a match played through the interface */
    m = th_new("karuta", "seed=5 send=auto");
    pl_buf err = {0};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(pl_match_random(m, NULL, &err), 0);
        assert_int_equal(pl_match_play_text(m, 0, "none", &err), 0);
        assert_int_equal(pl_match_play_text(m, 1, "none", &err), 0);
    }
    pl_buf log = {0};
    kar_reading_log(m, &log);
    int lines = 0;
    for (const char *p = pl_buf_str(&log); *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 3);
    assert_non_null(strstr(pl_buf_str(&log), "3. Poem"));
    pl_buf_free(&log);
    pl_buf_free(&err);
    pl_match_free(m);
}

/* ---- the named cases ---- */

static void test_kata_ote(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL " send=auto");
    reading(m, 50, "touch 4@300", "none"); /* dead card, one territory touched */
    assert_int_equal(KS(m)->last.fouls[0], 1);
    counts(m, 4, 2);
    pl_match_free(m);
}

static void test_kara_daburu(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL " send=auto");
    reading(m, 50, "touch 1@300 4@350", "none"); /* dead card, both territories */
    assert_int_equal(KS(m)->last.fouls[0], 2);
    assert_int_equal(KS(m)->last.owed, 2);
    counts(m, 5, 1);
    pl_match_free(m);
}

static void test_daburu(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL " send=auto");
    reading(m, 1, "touch 4@400", "touch 1@500"); /* A's card, B takes, A touched T(B) */
    assert_int_equal(KS(m)->last.taker, 1);
    assert_int_equal(KS(m)->last.owed, 2);
    counts(m, 4, 1);
    pl_match_free(m);
}

static void test_semi_daburu(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL " send=auto");
    reading(m, 4, "touch 1@400", "touch 4@500"); /* B's card, B takes, A touched T(A) */
    assert_int_equal(KS(m)->last.taker, 1);
    assert_int_equal(KS(m)->last.owed, 1);
    counts(m, 4, 1); /* the same counts as daburu */
    pl_match_free(m);
}

static void test_tomo_ote(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL " send=auto");
    reading(m, 50, "touch 4@300", "touch 1@300");
    assert_int_equal(KS(m)->last.fouls[0], 1);
    assert_int_equal(KS(m)->last.fouls[1], 1);
    assert_int_equal(KS(m)->last.sender, -1);
    counts(m, 3, 3);
    pl_match_free(m);
}

static void test_torizon(void **st)
{
    (void)st;
    /* a take from T(B) plus a touch in T(A): the send right is lost (0) */
    pl_match *m = th_new("karuta", SMALL " send=auto");
    reading(m, 4, "touch 1@200 4@300", "none");
    assert_int_equal(KS(m)->last.taker, 0);
    assert_int_equal(KS(m)->last.sender, -1);
    counts(m, 3, 2);
    pl_match_free(m);
    /* a take in T(A) plus a touch in T(B): one card is sent to A (-1) */
    m = th_new("karuta", SMALL " send=auto");
    reading(m, 1, "touch 4@200 1@300", "none");
    assert_int_equal(KS(m)->last.sender, 1);
    assert_int_equal(KS(m)->last.owed, 1);
    counts(m, 3, 2);
    pl_match_free(m);
}

static void test_simultaneous_touch(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL " send=auto");
    reading(m, 1, "touch 1@800", "touch 1@790"); /* within 10 ms: A owns 1 */
    assert_int_equal(KS(m)->last.taker, 0);
    assert_int_equal(KS(m)->last.sender, -1);
    counts(m, 2, 3);
    pl_match_free(m);
}

static void test_untouched_card_leaves_with_owner(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL " send=auto");
    reading(m, 2, "none", "none");
    assert_int_equal(KS(m)->last.taker, -1);
    assert_int_equal(KS(m)->loc[2], KAR_LOC_OUT);
    counts(m, 2, 3);
    pl_match_free(m);
}

static void test_canonical_legal_and_interface(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", SMALL);
    th_play(m, "read 4");
    pl_action acts[64];
    int n = m->game->legal(m->state, 0, acts, 64);
    assert_int_equal(n, 1 + 2 * 6 + 5); /* none, two times for each card, a wrong touch then 4 */
    pl_buf err = {0};
    char t[32];
    snprintf(t, sizeof t, "touch 4@%d", KS(m)->last.decide_ms);
    assert_int_equal(pl_match_play_text(m, 0, t, &err), 0);
    /* a valid touch at any time is accepted (the game's check), not only
     * the canonical ones legal lists; an invalid one is refused with why */
    assert_int_equal(pl_match_play_text(m, 1, "touch 50@10", &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "not on the field"));
    assert_int_equal(pl_match_play_text(m, 1, "touch 4@1", &err), 0);
    pl_buf_free(&err);
    pl_match_free(m);
}

/* Position text (KA-R16's record of a position): from_text reads what
 * to_text wrote, byte for byte; bad text is refused and changes nothing. */
static void test_position_text_from_text(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", "seed=5");
    kar_do(m, PL_CHANCE, "read 17");
    pl_buf t = {0}, err = {0};
    m->game->to_text(m->state, &t);
    kar_state back, before;
    memcpy(&back, m->initial, sizeof back);
    assert_int_equal(m->game->from_text(&back, pl_buf_str(&t), &err), 0);
    assert_memory_equal(&back, m->state, sizeof back);
    memcpy(&before, &back, sizeof before);
    static const char *const bad[] = {"", "variant=uta", "stage=touch readings=x", "variant=kyogi stage=nope",
                                      "variant=kyogi t0=1;1", "variant=kyogi stage=read readings=1 reading=0"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        pl_buf_clear(&err);
        assert_int_equal(m->game->from_text(&back, bad[i], &err), -1);
        assert_true(strstr(pl_buf_str(&err), "bad karuta position") != NULL);
        assert_memory_equal(&back, &before, sizeof back);
    }
    pl_buf_free(&t);
    pl_buf_free(&err);
    pl_match_free(m);
}

/* Found by fuzz_position: a touch stage with nobody pending was read in,
 * and the rules then had no seat to ask (0 actors in a move phase). A
 * stage where someone acts must name who; each such text is refused with
 * the field at fault, and the state is unchanged. */
static void test_regress_karuta_position_names_who_acts(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", "seed=5");
    static const char *const good =
        "variant=kyogi stage=touch readings=1 reading=4 t0=1@1,1;2@2,1;3@3,1 t1=4@1,1;5@2,1;6@3,1 out=- "
        "read=4 took=- pending=3 place=0 winner=-1 seq=- "
        "last=4,1,2,2,230,230,0,0,-1,0,-1,-1,0,0,0/0,0/0,0/- moved=-";
    static const struct {
        const char *from, *to, *why;
    } bad[] = {
        {"pending=3", "pending=0", "pending (nobody to act"},
        {"pending=3", "pending=4", "pending (a seat the game does not have"},
    };
    kar_state back, before;
    memcpy(&back, m->initial, sizeof back);
    pl_buf err = {0};
    assert_int_equal(m->game->from_text(&back, good, &err), 0);
    memcpy(&before, &back, sizeof before);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char text[1024];
        const char *at = strstr(good, bad[i].from);
        assert_non_null(at);
        snprintf(text, sizeof text, "%.*s%s%s", (int)(at - good), good, bad[i].to, at + strlen(bad[i].from));
        pl_buf_clear(&err);
        assert_int_equal(m->game->from_text(&back, text, &err), -1);
        if (!strstr(pl_buf_str(&err), bad[i].why))
            fail_msg("'%s': '%s' lacks '%s'", text, pl_buf_str(&err), bad[i].why);
        assert_memory_equal(&back, &before, sizeof back);
    }
    /* A send whose sender is missing: the stage moved to send by hand. */
    const char *at = strstr(good, "stage=touch");
    char text[1024];
    snprintf(text, sizeof text, "%.*sstage=send%s", (int)(at - good), good, at + strlen("stage=touch"));
    pl_buf_clear(&err);
    assert_int_equal(m->game->from_text(&back, text, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "a send without its sender"));
    assert_memory_equal(&back, &before, sizeof back);
    pl_buf_free(&err);
    pl_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_KA_R1_deal),
        cmocka_unit_test(test_KA_R2_layout_grid_and_row_rule),
        cmocka_unit_test(test_KA_R2_free_space_refused_everywhere),
        cmocka_unit_test(test_KA_R3_memorisation_option),
        cmocka_unit_test(test_KA_R4_joka_pause_then_first_kana_at_zero),
        cmocka_unit_test(test_KA_R5_reading_loop),
        cmocka_unit_test(test_KA_R6_touch_events),
        cmocka_unit_test(test_KA_R7_first_touch_takes_ties_to_owner),
        cmocka_unit_test(test_KA_R8_fouls_per_territory),
        cmocka_unit_test(test_KA_R9_net_sends),
        cmocka_unit_test(test_KA_R10_receiver_places),
        cmocka_unit_test(test_KA_R11_forgotten_send_lapses),
        cmocka_unit_test(test_KA_R12_win_and_one_one_trap),
        cmocka_unit_test(test_KA_R13_no_wrong_hand_in_software),
        cmocka_unit_test(test_KA_R14_timestamps_decide_and_are_kept),
        cmocka_unit_test(test_KA_R15_positions_public),
        cmocka_unit_test(test_KA_R16_judgement_logged),
        cmocka_unit_test(test_tempo_even_judgement),
        cmocka_unit_test(test_kata_ote),
        cmocka_unit_test(test_kara_daburu),
        cmocka_unit_test(test_daburu),
        cmocka_unit_test(test_semi_daburu),
        cmocka_unit_test(test_tomo_ote),
        cmocka_unit_test(test_torizon),
        cmocka_unit_test(test_simultaneous_touch),
        cmocka_unit_test(test_untouched_card_leaves_with_owner),
        cmocka_unit_test(test_canonical_legal_and_interface),
        cmocka_unit_test(test_position_text_from_text),
        cmocka_unit_test(test_regress_karuta_position_names_who_acts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
