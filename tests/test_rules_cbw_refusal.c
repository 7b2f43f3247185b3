/* test_rules_cbw_refusal.c — City Behind Walls' refusals as data
 * (pl_game.refusal, docs/web-views.md, cbw "Refusals"): each word comes out
 * for the rule that refuses the placement, named by its rule id, with the
 * fields a page words it from; and over random games every refused
 * placement's word is the rule cbw_why_illegal names first. */
#include <jansson.h>

#include "cbw_util.h"
#include "parlour/rng.h"

/* The refusal of the actor's `text` now as compact JSON with sorted keys
 * (static buffer), or "none". */
static const char *refusal(pl_match *m, const char *text)
{
    static char out[1024];
    pl_buf err = {0}, js = {0};
    pl_action a;
    int seat = pl_sole_actor(m->game, m->state);
    assert_int_equal(m->game->parse_action(m->state, seat, text, &a, &err), 0);
    if (pl_refusal_json(m->game, m->state, seat, a, &js, &err) < 0)
        snprintf(out, sizeof out, "none");
    else
        snprintf(out, sizeof out, "%s", pl_buf_str(&js));
    pl_buf_free(&err);
    pl_buf_free(&js);
    return out;
}

/* Asserts that `text` is illegal and its refusal is `want` (JSON text). */
#define REFUSED(m, text, want)                                                                   \
    do {                                                                                         \
        assert_false(cbw_is_legal((m), (text)));                                                 \
        assert_string_equal(refusal((m), (text)), (want));                                       \
    } while (0)

static void test_refusal_CBW_R3_R4_cards_not_held(void **state)
{
    (void)state;
    pl_match *m = cbw_new("");
    th_position(m, "turn=1 hands=KH/QS/-/KS table=7H@0,0");
    REFUSED(m, "2S@1,0", "{\"card\":\"2S\",\"why\":\"no-card\"}"); /* CBW-R3: no 2 in 36 cards */
    REFUSED(m, "KS@1,0", "{\"card\":\"KS\",\"why\":\"not-held\"}"); /* CBW-R4 */
    REFUSED(m, "KH@1,0", "{\"card\":\"KH\",\"team\":1,\"why\":\"other-colour\"}");
    pl_match_free(m);
}

static void test_refusal_CBW_R11_first_card(void **state)
{
    (void)state;
    pl_match *m = cbw_new("deal=6H,7H,8H,9H,10H,JH,QH,KH,AH/6S,7S,8S,9S,10S,JS,QS,KS,AS/"
                          "6D,7D,8D,9D,10D,JD,QD,KD,AD/6C,7C,8C,9C,10C,JC,QC,KC,AC");
    REFUSED(m, "6H@1,0", "{\"card\":\"6H\",\"why\":\"first-cell\",\"x\":1,\"y\":0}");
    REFUSED(m, "JH@0,0", "{\"card\":\"JH\",\"low\":\"6\",\"why\":\"first-rank\",\"x\":0,\"y\":0}");
    pl_match_free(m);
}

static void test_refusal_CBW_R12_continuity_R13_outside_R16_occupied(void **state)
{
    (void)state;
    pl_match *m = cbw_new("w=2 h=2");
    th_position(m, "turn=1 hands=-/QS/-/- table=7H@0,0;8D@1,0");
    REFUSED(m, "QS@0,0", "{\"card\":\"QS\",\"holds\":\"7H\",\"why\":\"occupied\",\"x\":0,\"y\":0}");
    REFUSED(m, "QS@-1,0", "{\"card\":\"QS\",\"h\":2,\"w\":2,\"walls\":true,\"why\":\"outside\",\"x\":-1,\"y\":0}");
    pl_match_free(m);
    m = cbw_new("");
    th_position(m, "turn=1 hands=-/QS/-/- table=7H@0,0;8D@1,0");
    REFUSED(m, "QS@3,0", "{\"card\":\"QS\",\"why\":\"continuity\",\"x\":3,\"y\":0}");
    REFUSED(m, "QS@0,4", "{\"card\":\"QS\",\"h\":4,\"w\":9,\"walls\":false,\"why\":\"outside\",\"x\":0,\"y\":4}");
    pl_match_free(m);
}

static void test_refusal_CBW_R14_same_suit_R15_seniority(void **state)
{
    (void)state;
    pl_match *m = cbw_new("");
    th_position(m, "turn=1 hands=-/QS,QC/-/- table=7S@0,1;7H@0,0");
    REFUSED(m, "QS@1,1", "{\"card\":\"QS\",\"touches\":\"7S\",\"why\":\"same-suit\",\"x\":1,\"y\":1}");
    th_position(m, "turn=1 hands=-/QS/-/- table=KD@1,1;KH@0,0");
    REFUSED(m, "QS@1,0", "{\"card\":\"QS\",\"neighbours\":[\"KH\",\"KD\"],\"why\":\"seniority\",\"x\":1,\"y\":0}");
    pl_match_free(m);
}

static void test_refusal_CBW_R19_suicide(void **state)
{
    (void)state;
    pl_match *m = cbw_new("w=5 h=2");
    th_position(m, "turn=1 hands=-/JS/-/- table=10D@1,1;6C@-1,0;7H@0,0;8H@2,0");
    REFUSED(m, "JS@1,0", "{\"card\":\"JS\",\"why\":\"suicide\",\"x\":1,\"y\":0}");
    pl_match_free(m);
}

static void test_refusal_legal_and_pass_have_none(void **state)
{
    (void)state;
    pl_match *m = cbw_new("");
    th_position(m, "turn=1 hands=-/QS/-/- table=JD@0,0");
    assert_string_equal(refusal(m, "QS@1,0"), "none");
    assert_string_equal(refusal(m, "pass"), "none");
    pl_match_free(m);
}

/* The rule id a word stands for (what cbw_why_illegal's text names first). */
static const char *rule_of(const char *why)
{
    static const char *const map[][2] = {
        {"no-card", "CBW-R3"},     {"not-held", "you do not hold"}, {"other-colour", "CBW-R4"},
        {"first-cell", "CBW-R11"}, {"first-rank", "CBW-R11"},       {"outside", "CBW-R13"},
        {"occupied", "CBW-R16"},   {"continuity", "CBW-R12"},       {"same-suit", "CBW-R14"},
        {"seniority", "CBW-R15"},  {"suicide", "CBW-R19"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(map[i][0], why))
            return map[i][1];
    fail_msg("an undocumented word: %s", why);
    return NULL;
}

/* Random games (4 and 2 players, small and default Rectangles): every
 * held card on every cell of the board's reach that is not legal has a
 * refusal whose word is the rule cbw_why_illegal names first; a legal one
 * has none. */
static void test_refusal_words_follow_cbw_why_illegal(void **state)
{
    (void)state;
    const char *const opts[] = {"players=4 seed=3", "players=2 w=4 h=2 seed=5", "players=6 seed=7",
                                "w=3 h=3 seed=9"};
    pl_rng r;
    pl_rng_seed(&r, 31);
    long checked = 0;
    for (size_t o = 0; o < sizeof opts / sizeof opts[0]; o++) {
        pl_match *m = cbw_new(opts[o]);
        for (int step = 0; step < 60 && m->game->phase(m->state) == PL_PHASE_MOVE; step++) {
            const cbw_state *s = cbw_st(m);
            int seat = pl_sole_actor(m->game, m->state);
            pl_action legal[PL_MAX_ACTIONS];
            int n = pl_legal_all(m->game, m->state, seat, legal);
            for (int y = -s->h; y <= s->h; y++)
                for (int x = -s->w; x <= s->w; x++)
                    for (uint64_t h = s->hand[seat] | s->hand[(seat + 1) % s->nseats]; h; h &= h - 1) {
                        pl_action a = cbw_place(__builtin_ctzll(h), x, y);
                        bool ok = false;
                        for (int i = 0; i < n; i++)
                            ok |= legal[i] == a;
                        json_t *obj = json_object();
                        int rc = m->game->refusal(m->state, seat, a, obj);
                        if (ok)
                            assert_int_equal(rc, -1);
                        else {
                            assert_int_equal(rc, 0);
                            pl_buf why = {0};
                            assert_true(cbw_why_illegal(s, seat, a, &why));
                            const char *text = pl_buf_str(&why), *rule = rule_of(json_string_value(json_object_get(obj, "why")));
                            const char *first = strstr(text, "CBW-R");
                            if (!strstr(text, rule) || (rule[0] == 'C' && strncmp(first, rule, strlen(rule)) != 0) ||
                                (rule[0] == 'C' && first[strlen(rule)] >= '0' && first[strlen(rule)] <= '9'))
                                fail_msg("%s: %s, but cbw_why_illegal says %s", opts[o],
                                         json_string_value(json_object_get(obj, "why")), text);
                            pl_buf_free(&why);
                            checked++;
                        }
                        json_decref(obj);
                    }
            /* a random placement (a pass only when there is none) */
            pl_buf err = {0};
            pl_action a = legal[n > 1 ? pl_rng_below(&r, (uint32_t)n - 1) : 0];
            assert_int_equal(pl_match_play(m, seat, a, &err), 0);
            pl_buf_free(&err);
        }
        pl_match_free(m);
    }
    assert_true(checked > 10000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refusal_CBW_R3_R4_cards_not_held),
        cmocka_unit_test(test_refusal_CBW_R11_first_card),
        cmocka_unit_test(test_refusal_CBW_R12_continuity_R13_outside_R16_occupied),
        cmocka_unit_test(test_refusal_CBW_R14_same_suit_R15_seniority),
        cmocka_unit_test(test_refusal_CBW_R19_suicide),
        cmocka_unit_test(test_refusal_legal_and_pass_have_none),
        cmocka_unit_test(test_refusal_words_follow_cbw_why_illegal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
