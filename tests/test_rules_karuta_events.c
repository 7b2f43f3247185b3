/* test_rules_karuta_events.c — karuta's events and action fields
 * (pl_game.events, action_fields; docs/web-views.md "Karuta: events"):
 * golden events of scripted readings (a take from the other side and its
 * send, a foul, a manual place, a rearrangement, uta's gift, the end), the
 * view's judgement equal to the judgement event's fields, the same events
 * for every viewer (karuta hides nothing), and over random games of every
 * variant: every action's events parse as JSON of the documented types
 * with their fields, every legal action's fields name its kind and card. */
#include <jansson.h>

#include "karuta_helpers.h"
#include "parlour/buf.h"

/* Plays `text` for `seat` and returns its events (compact JSON, sorted
 * keys) as seat -1 sees them, checking that every seat sees the same. The
 * string is the caller's (free it). */
static char *play_events(pl_match *m, int seat, const char *text)
{
    kar_state before = *KS(m);
    pl_action a;
    pl_buf err = {0};
    if (m->game->parse_action(m->state, seat, text, &a, &err) < 0)
        fail_msg("'%s': %s", text, pl_buf_str(&err));
    kar_do(m, seat, text);
    pl_buf all = {0};
    assert_int_equal(pl_events_json(m->game, &before, seat, a, m->state, -1, &all, &err), 0);
    for (int v = 0; v < KS(m)->nseats; v++) {
        pl_buf one = {0};
        assert_int_equal(pl_events_json(m->game, &before, seat, a, m->state, v, &one, &err), 0);
        assert_string_equal(pl_buf_str(&one), pl_buf_str(&all));
        pl_buf_free(&one);
    }
    pl_buf_free(&err);
    char *s = strdup(pl_buf_str(&all));
    pl_buf_free(&all);
    return s;
}

static void expect(pl_match *m, int seat, const char *text, const char *want)
{
    char *got = play_events(m, seat, text);
    if (strcmp(got, want))
        fail_msg("'%s' events:\n got  %s\n want %s", text, got, want);
    free(got);
}

/* KA-R7, KA-R9, KA-R10: A takes B's card and sends one of his (placed by
 * hand: place=manual); the judgement event carries the kimariji and the
 * times; the view's judgement has the same fields and its line. */
static void test_KA_R9_events_take_send_place(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", "deal=1;2;3/4;5;6 seed=1 send=manual place=manual");
    expect(m, PL_CHANCE, "read 4", "[{\"card\":4,\"n\":1,\"type\":\"read\",\"void\":false}]");
    expect(m, 0, "touch 4@900", "[{\"poet\":null,\"seat\":0,\"touches\":[{\"card\":4,\"ms\":900}],\"type\":\"answer\"}]");
    char *ev = play_events(m, 1, "none");
    json_error_t je;
    json_t *arr = json_loads(ev, 0, &je);
    assert_non_null(arr);
    assert_int_equal(json_array_size(arr), 2);
    json_t *j = json_array_get(arr, 1);
    assert_string_equal(json_string_value(json_object_get(j, "type")), "judgement");
    assert_int_equal(json_integer_value(json_object_get(j, "taker")), 0);
    assert_int_equal(json_integer_value(json_object_get(j, "take_ms")), 900);
    assert_int_equal(json_integer_value(json_object_get(j, "sender")), 0);
    assert_int_equal(json_integer_value(json_object_get(j, "receiver")), 1);
    assert_int_equal(json_integer_value(json_object_get(j, "owed")), 1);
    assert_string_equal(json_string_value(json_object_get(j, "zone")), "territory");
    assert_int_equal(json_integer_value(json_object_get(j, "owner")), 1);
    /* poem 4 たごのうらに: kimariji 3 (たご), heard from the 2nd kana's start */
    int kim = kar_kim_static(4);
    assert_int_equal(json_integer_value(json_object_get(j, "kimariji")), kim);
    pl_buf key = {0};
    kar_key_text(4, kim, &key);
    assert_string_equal(json_string_value(json_object_get(j, "kimariji_kana")), pl_buf_str(&key));
    pl_buf_free(&key);
    assert_int_equal(json_integer_value(json_object_get(j, "decide_ms")), KS(m)->last.decide_ms);
    /* the view's judgement: the same fields, and its text */
    json_t *view = json_object();
    assert_int_equal(kar_view_json(KS(m), -1, view), 0);
    json_t *vj = json_object_get(view, "judgement");
    assert_non_null(json_object_get(vj, "text"));
    const char *k;
    json_t *v;
    json_object_foreach(j, k, v) {
        if (strcmp(k, "type") && strcmp(k, "n"))
            assert_true(json_equal(v, json_object_get(vj, k)));
    }
    json_decref(view);
    json_decref(arr);
    free(ev);
    /* the send: to B's territory, awaiting its place; then placed */
    expect(m, 0, "send 1",
           "[{\"card\":1,\"label\":null,\"row\":0,\"seat\":0,\"slot\":0,\"to\":1,\"type\":\"send\"}]");
    expect(m, 1, "place 1@2,3",
           "[{\"card\":1,\"label\":\"E03\",\"row\":2,\"seat\":1,\"slot\":3,\"type\":\"place\"}]");
    pl_match_free(m);
}

/* KA-R8: a foul in the wrong territory; an automatic send follows the
 * judgement in the same entry; the game's end. */
static void test_KA_R12_events_foul_autosend_end(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", "deal=1/4 seed=1 send=auto place=auto");
    /* A touches B's 4 (a foul: the card read is 1, A's), then his own 1 */
    expect(m, PL_CHANCE, "read 1", "[{\"card\":1,\"n\":1,\"type\":\"read\",\"void\":false}]");
    expect(m, 0, "touch 4@100 1@900",
           "[{\"poet\":null,\"seat\":0,\"touches\":[{\"card\":4,\"ms\":100},{\"card\":1,\"ms\":900}],"
           "\"type\":\"answer\"}]");
    char *ev = play_events(m, 1, "none");
    json_t *arr = json_loads(ev, 0, NULL);
    assert_non_null(arr);
    const char *types[8];
    size_t n = json_array_size(arr);
    for (size_t i = 0; i < n && i < 8; i++)
        types[i] = json_string_value(json_object_get(json_array_get(arr, i), "type"));
    /* answer, judgement (A took his own last card but fouled once: B sends his
     * last card, KA-R12's 1-1 trap), B's send, the end: B wins */
    assert_int_equal(n, 4);
    assert_string_equal(types[0], "answer");
    assert_string_equal(types[1], "judgement");
    assert_string_equal(types[2], "send");
    assert_string_equal(types[3], "end");
    json_t *jd = json_array_get(arr, 1), *send = json_array_get(arr, 2), *end = json_array_get(arr, 3);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(jd, "fouls"), 0)), 1);
    assert_int_equal(json_integer_value(json_object_get(send, "card")), 4);
    assert_int_equal(json_integer_value(json_object_get(send, "seat")), 1);
    assert_int_equal(json_integer_value(json_object_get(send, "to")), 0);
    assert_true(json_is_string(json_object_get(send, "label")));
    assert_int_equal(json_integer_value(json_object_get(end, "winner")), 1);
    assert_true(json_is_null(json_object_get(end, "team")));
    json_decref(arr);
    free(ev);
    pl_match_free(m);
}

/* KA-R15: a rearrangement and `ready`; their action fields. */
static void test_KA_R15_events_arrange(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", "deal=1;2;3/4;5;6 seed=1 rearrange=on");
    const char *none2[2] = {"none", "none"};
    kar_reading(m, 50, none2);
    assert_int_equal(KS(m)->stage, KAR_ST_ARRANGE);
    char from[8];
    kar_slot_label(0, KS(m)->row[1], KS(m)->slot[1], from);
    /* the action's fields first */
    pl_action a;
    pl_buf err = {0}, f = {0};
    assert_int_equal(m->game->parse_action(m->state, 0, "arrange 1@3,2", &a, &err), 0);
    assert_int_equal(pl_action_fields_json(m->game, m->state, 0, a, &f, &err), 0);
    char want[256];
    snprintf(want, sizeof want,
             "{\"card\":1,\"from_label\":\"%s\",\"kind\":\"arrange\",\"label\":\"C02\",\"row\":3,\"slot\":2}", from);
    assert_string_equal(pl_buf_str(&f), want);
    pl_buf_free(&f);
    pl_buf_free(&err);
    snprintf(want, sizeof want,
             "[{\"card\":1,\"from_label\":\"%s\",\"label\":\"C02\",\"row\":3,\"seat\":0,\"slot\":2,\"type\":\"arrange\"}]",
             from);
    expect(m, 0, "arrange 1@3,2", want);
    expect(m, 1, "ready", "[{\"seat\":1,\"type\":\"ready\"}]");
    pl_match_free(m);
}

/* KA-U6: uta, a non-owner answers right after the owner's window: the
 * card leaves play and the answerer gives the owner two cards. */
static void test_KA_U6_events_gift(void **st)
{
    (void)st;
    pl_match *m = th_new("karuta", "variant=uta pool=auto seed=3 owner_ms=1000");
    int card = 0;
    for (int c = 1; c <= KAR_NPOEMS && !card; c++)
        if (KS(m)->loc[c] == 0)
            card = c;
    char rd[16], t1[32];
    snprintf(rd, sizeof rd, "read %d", card);
    kar_do(m, PL_CHANCE, rd);
    kar_do(m, 0, "none");
    snprintf(t1, sizeof t1, "touch %d@2000", card);
    kar_do(m, 1, t1);
    kar_do(m, 2, "none");
    char *ev = play_events(m, 3, "none");
    json_t *arr = json_loads(ev, 0, NULL);
    assert_non_null(arr);
    int gifts = 0;
    size_t i;
    json_t *e;
    json_array_foreach(arr, i, e) {
        if (!strcmp(json_string_value(json_object_get(e, "type")), "give")) {
            gifts++;
            assert_int_equal(json_integer_value(json_object_get(e, "seat")), 1);
            assert_int_equal(json_integer_value(json_object_get(e, "to")), 0);
        }
    }
    assert_int_equal(gifts, 2);
    json_t *jd = json_array_get(arr, 1);
    assert_string_equal(json_string_value(json_object_get(jd, "type")), "judgement");
    assert_string_equal(json_string_value(json_object_get(jd, "zone")), "hand");
    assert_int_equal(json_integer_value(json_object_get(jd, "taker")), 1);
    json_decref(arr);
    free(ev);
    pl_match_free(m);
}

/* The documented types and, for each, fields that must be there. */
static const struct {
    const char *type;
    const char *fields[6];
} schema[] = {
    {"read", {"card", "n", "void"}},
    {"answer", {"seat", "touches", "poet"}},
    {"judgement", {"n", "card", "kimariji", "decide_ms", "taker", "fouls"}},
    {"send", {"card", "seat", "to", "label", "row", "slot"}},
    {"place", {"card", "seat", "label", "row", "slot"}},
    {"arrange", {"card", "seat", "from_label", "label", "row", "slot"}},
    {"pass", {"seat", "forgone"}},
    {"ready", {"seat"}},
    {"pool", {"card", "seat"}},
    {"give", {"card", "seat", "to"}},
    {"discard", {"card", "seat"}},
    {"move", {"card", "from", "to", "from_seat", "to_seat"}},
    {"end", {"winner", "team", "counts"}},
};

static void check_event(const json_t *e, const char *ctx)
{
    const char *type = json_string_value(json_object_get(e, "type"));
    if (!type)
        fail_msg("%s: an event without a type", ctx);
    for (size_t i = 0; i < sizeof schema / sizeof *schema; i++)
        if (!strcmp(schema[i].type, type)) {
            for (int k = 0; k < 6 && schema[i].fields[k]; k++)
                if (!json_object_get(e, schema[i].fields[k]))
                    fail_msg("%s: a %s event without %s", ctx, type, schema[i].fields[k]);
            return;
        }
    fail_msg("%s: undocumented event type %s", ctx, type);
}

/* Random games of every variant: events parse, are of the documented
 * types, are the same for every viewer; every legal action has fields. */
static void test_events_property_random_games(void **st)
{
    (void)st;
    static const char *const opts[] = {
        "send=manual place=manual", "send=auto place=auto rearrange=on", "variant=uta", "variant=uta answer=poet",
        "variant=uta teams=2v2 pool=auto", "variant=chirashi players=3", "variant=chirashi players=1 cards=50",
    };
    int events = 0, games = 0;
    for (size_t o = 0; o < sizeof opts / sizeof *opts; o++) {
        for (int seed = 1; seed <= 2; seed++) {
            char buf[128];
            snprintf(buf, sizeof buf, "%s seed=%d memo_s=0", opts[o], seed);
            pl_match *m = th_new("karuta", buf);
            pl_rng rng;
            pl_rng_seed(&rng, (uint64_t)seed * 7919 + o);
            for (int step = 0; step < 3000 && m->game->phase(m->state) != PL_PHASE_OVER; step++) {
                kar_state before = *KS(m);
                int seat;
                pl_action a;
                pl_action legal[PL_MAX_ACTIONS];
                if (m->game->phase(m->state) == PL_PHASE_CHANCE) {
                    seat = PL_CHANCE;
                    a = pl_draw_chance(m->game, m->state, &rng);
                } else {
                    int seats[PL_MAX_SEATS];
                    int ns = m->game->actors(m->state, seats);
                    assert_true(ns > 0);
                    seat = seats[pl_rng_below(&rng, (uint32_t)ns)];
                    int n = pl_legal_all(m->game, m->state, seat, legal);
                    assert_true(n > 0);
                    for (int i = 0; i < n; i++) {
                        pl_buf f = {0}, err = {0};
                        assert_int_equal(pl_action_fields_json(m->game, m->state, seat, legal[i], &f, &err), 0);
                        json_t *fo = json_loads(pl_buf_str(&f), 0, NULL);
                        assert_non_null(fo);
                        assert_non_null(json_string_value(json_object_get(fo, "kind")));
                        json_decref(fo);
                        pl_buf_free(&f);
                        pl_buf_free(&err);
                    }
                    a = legal[pl_rng_below(&rng, (uint32_t)n)];
                }
                m->game->apply(m->state, seat, a);
                pl_buf all = {0}, err = {0};
                assert_int_equal(pl_events_json(m->game, &before, seat, a, m->state, -1, &all, &err), 0);
                for (int v = 0; v < KS(m)->nseats; v++) {
                    pl_buf one = {0};
                    assert_int_equal(pl_events_json(m->game, &before, seat, a, m->state, v, &one, &err), 0);
                    assert_string_equal(pl_buf_str(&one), pl_buf_str(&all));
                    pl_buf_free(&one);
                }
                json_t *arr = json_loads(pl_buf_str(&all), 0, NULL);
                if (!json_is_array(arr))
                    fail_msg("%s: events are not a JSON array: %s", buf, pl_buf_str(&all));
                size_t i;
                json_t *e;
                json_array_foreach(arr, i, e) {
                    check_event(e, buf);
                    events++;
                }
                json_decref(arr);
                pl_buf_free(&all);
                pl_buf_free(&err);
            }
            games++;
            pl_match_free(m);
        }
    }
    assert_true(events > 1000);
    print_message("%d games, %d events\n", games, events);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_KA_R9_events_take_send_place),
        cmocka_unit_test(test_KA_R12_events_foul_autosend_end),
        cmocka_unit_test(test_KA_R15_events_arrange),
        cmocka_unit_test(test_KA_U6_events_gift),
        cmocka_unit_test(test_events_property_random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
