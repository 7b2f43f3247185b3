/* test_unit_ur_events.c — what an Ur action did, as data (issue 30, part 4;
 * docs/web-views.md, `ur`, "Events" and "Action fields"): the events of
 * scripted positions (golden JSON: a throw of each kind of dice, the
 * starter drawn, entering, a capture, a flip, a rosette's extra throw, a
 * bear-off, a pass), the fields of legal actions, and over thousands of
 * random games of every option: the events parse as JSON of the documented
 * types and fields, are the same for every viewer (Ur hides nothing), agree
 * with the states before and after, `describe` is the words of the events,
 * and each legal action's fields and menu text agree with what it then did.
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

/* ---- random games: the schema, describe and the fields against the events ---- */

#define GAMES 2000

/* The keys each type has, sorted, after "type" (docs/web-views.md). */
static const struct {
    const char *type, *keys;
} schema[] = {
    {"first", "seat"},
    {"throw", "lots marked opening seat value"},
    {"pass", "roll seat"},
    {"move", "from seat to"},
    {"capture", "count owner seat square to"},
    {"flip", "seat square"},
    {"bear-off", "count of seat"},
    {"again", "seat square"},
};
#define NTYPES (int)(sizeof schema / sizeof schema[0])

static const char *str(json_t *o, const char *k)
{
    const char *v = json_string_value(json_object_get(o, k));
    assert_non_null(v);
    return v;
}

static int num(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    assert_true(json_is_integer(v));
    return (int)json_integer_value(v);
}

/* Index of the type of event `e` in `schema`, after checking its keys and
 * the types of its values. */
static int check_schema(json_t *e)
{
    const char *type = str(e, "type");
    int t = 0;
    while (t < NTYPES && strcmp(schema[t].type, type))
        t++;
    if (t == NTYPES)
        fail_msg("undocumented event type %s", type);
    char keys[128] = "";
    const char *k;
    json_t *v;
    json_object_foreach(e, k, v)
    {
        if (strcmp(k, "type"))
            snprintf(keys + strlen(keys), sizeof keys - strlen(keys), "%s%s", keys[0] ? " " : "", k);
    }
    if (strcmp(keys, schema[t].keys))
        fail_msg("%s has keys %s, documented %s", type, keys, schema[t].keys);
    int seat = num(e, "seat");
    assert_true(seat == 0 || seat == 1);
    return t;
}

/* A square's name, or one of the extra words `a`, `b` (may be NULL). */
static void expect_place(const char *p, const char *a, const char *b)
{
    if ((a && !strcmp(p, a)) || (b && !strcmp(p, b)))
        return;
    assert_true(ur_sq_parse(p) >= 0);
}

static const char *const side[2] = {"Light", "Dark"};

/* The sentences of `describe` for `viewer`, written here from the events
 * alone (docs/notation-ur.md, "Texts for players"). */
static void words_of(json_t *evs, int viewer, pl_buf *out)
{
    size_t i;
    json_t *e;
    json_array_foreach(evs, i, e)
    {
        const char *type = str(e, "type");
        int p = num(e, "seat");
        const char *sp = out->len ? " " : "", *who = viewer == p ? "You" : side[p];
        if (!strcmp(type, "capture")) {
            const char *sq = str(e, "square");
            if (viewer == p)
                pl_buf_printf(out, "%sYour %s captured %s's piece, back to %s's reserve.", sp, sq, side[p ^ 1],
                              side[p ^ 1]);
            else if (viewer == (p ^ 1))
                pl_buf_printf(out, "%s%s's %s captured your piece, back to your reserve.", sp, side[p], sq);
            else
                pl_buf_printf(out, "%s%s's %s captured %s's piece, back to %s's reserve.", sp, side[p], sq,
                              side[p ^ 1], side[p ^ 1]);
        } else if (!strcmp(type, "bear-off")) {
            pl_buf_printf(out, "%s%s bore a piece off (%d of %d).", sp, who, num(e, "count"), num(e, "of"));
        } else if (!strcmp(type, "again")) {
            pl_buf_printf(out, "%s%s reached the rosette %s: another roll.", sp, who, str(e, "square"));
        }
    }
}

/* The event of `type` in `evs`, or NULL. */
static json_t *event_of(json_t *evs, const char *type)
{
    size_t i;
    json_t *e;
    json_array_foreach(evs, i, e)
    {
        if (!strcmp(str(e, "type"), type))
            return e;
    }
    return NULL;
}

/* The fields of `seat`'s action `a` in `s`, parsed. */
static json_t *fields_json(const ur_state *s, int seat, pl_action a)
{
    pl_buf b = {0}, err = {0};
    assert_int_equal(pl_action_fields_json(&ur_game, s, seat, a, &b, &err), 0);
    json_t *f = json_loads(pl_buf_str(&b), 0, NULL);
    assert_non_null(f);
    pl_buf_free(&b);
    return f;
}

static bool flag(json_t *f, const char *k)
{
    json_t *v = json_object_get(f, k);
    assert_true(json_is_boolean(v));
    return json_is_true(v);
}

/* Checks the fields `f` of an action against the events `evs` it then had
 * and its menu text (format_action_long). */
static void check_fields(json_t *f, json_t *evs, const ur_state *s, int seat, pl_action a)
{
    json_t *mv = event_of(evs, "move");
    pl_buf lng = {0}, want = {0};
    pl_format_action_long(&ur_game, s, seat, a, &lng);
    ur_game.format_action(s, seat, a, &want);
    if (a == UR_ACT_PASS) {
        assert_non_null(event_of(evs, "pass"));
        assert_int_equal(json_object_size(f), 1);
        assert_true(flag(f, "pass"));
    } else {
        assert_non_null(mv);
        assert_int_equal(json_object_size(f), 7);
        assert_string_equal(str(f, "from"), str(mv, "from"));
        assert_string_equal(str(f, "to"), str(mv, "to"));
        assert_int_equal(num(f, "depth"), a == UR_ACT_ENTER ? 1 : (int)(a & 3) + 1);
        assert_int_equal(flag(f, "captures"), event_of(evs, "capture") != NULL);
        assert_int_equal(flag(f, "flips"), event_of(evs, "flip") != NULL);
        assert_int_equal(flag(f, "off"), event_of(evs, "bear-off") != NULL);
        assert_int_equal(flag(f, "again"), event_of(evs, "again") != NULL);
        pl_buf_printf(&want, " → %s%s%s", str(f, "to"), flag(f, "captures") ? ", captures" : "",
                      flag(f, "again") ? ", rolls again" : "");
    }
    assert_string_equal(pl_buf_str(&lng), pl_buf_str(&want));
    pl_buf_free(&lng);
    pl_buf_free(&want);
}

/* Checks the events `evs` of `seat`'s action `a` from `b` to `s` against the states. */
static void check_events(json_t *evs, const ur_state *b, int seat, pl_action a, const ur_state *s, long *seen)
{
    size_t i;
    json_t *e;
    json_array_foreach(evs, i, e)
    {
        int t = check_schema(e), p = num(e, "seat");
        seen[t]++;
        const char *type = schema[t].type;
        if (!strcmp(type, "first")) {
            assert_int_equal(seat, PL_CHANCE);
            assert_int_equal(p, s->turn);
        } else if (!strcmp(type, "throw")) {
            assert_int_equal(seat, PL_CHANCE);
            assert_int_equal(p, b->turn);
            assert_int_equal(num(e, "value"), s->roll);
            assert_int_equal(json_is_true(json_object_get(e, "opening")), b->opening);
            if (b->d4 && !b->finkel) {
                assert_true(json_is_null(json_object_get(e, "lots")) && json_is_null(json_object_get(e, "marked")));
            } else {
                int lots = num(e, "lots"), marked = num(e, "marked");
                assert_int_equal(lots, b->finkel ? 4 : 3);
                assert_int_equal(marked == 0 && !b->finkel ? 4 : marked, s->roll); /* none marked: 4 (UR-R2) */
            }
        } else {
            assert_int_equal(p, seat);
            if (!strcmp(type, "pass")) {
                assert_int_equal(a, UR_ACT_PASS);
                assert_int_equal(num(e, "roll"), b->roll);
            } else if (!strcmp(type, "move")) {
                expect_place(str(e, "from"), "reserve", NULL);
                expect_place(str(e, "to"), "off", NULL);
                assert_int_equal(!strcmp(str(e, "from"), "reserve"), a == UR_ACT_ENTER);
            } else if (!strcmp(type, "capture")) {
                assert_int_equal(num(e, "owner"), seat ^ 1);
                assert_int_equal(num(e, "count"), s->reserve[seat ^ 1] - b->reserve[seat ^ 1]);
                assert_string_equal(str(e, "to"), "reserve");
                assert_string_equal(str(e, "square"), str(event_of(evs, "move"), "to"));
            } else if (!strcmp(type, "flip")) {
                int sq = ur_sq_parse(str(e, "square"));
                assert_true(sq >= 0 && !b->finkel);
                assert_int_equal((s->pc[sq] >> (2 * (s->h[sq] - 1))) & 3, seat | 2); /* on top, marked */
            } else if (!strcmp(type, "bear-off")) {
                assert_int_equal(num(e, "count"), s->off[seat]);
                assert_int_equal(num(e, "of"), s->pieces);
            } else {
                assert_int_equal(ur_sq_kind(s, ur_sq_parse(str(e, "square"))), UR_ROSETTE);
                assert_true(s->phase == UR_PH_ROLL && s->turn == seat);
            }
        }
    }
    /* what the states say happened is told */
    bool moved = seat != PL_CHANCE && a != UR_ACT_PASS;
    assert_int_equal(event_of(evs, "move") != NULL, moved);
    assert_int_equal(event_of(evs, "capture") != NULL, moved && s->reserve[seat ^ 1] > b->reserve[seat ^ 1]);
    assert_int_equal(event_of(evs, "bear-off") != NULL, moved && s->off[seat] > b->off[seat]);
    assert_int_equal(json_array_size(evs) > 0, true);
}

static void test_UR_events_random_games_every_option(void **st)
{
    (void)st;
    pl_rng r;
    pl_rng_seed(&r, 20261203);
    long seen[NTYPES] = {0}, actions = 0, legal_checked = 0;
    pl_action acts[PL_MAX_ACTIONS];
    for (int game = 0; game < GAMES; game++) {
        char opts[256];
        th_ur_options(&r, opts, sizeof opts, pl_rng_next(&r) >> 1);
        pl_match *m = th_new("ur", opts);
        for (int k = 0; m->game->phase(m->state) != PL_PHASE_OVER; k++) {
            assert_true(k < 100000);
            ur_state b = *(const ur_state *)m->state;
            int seat = actor(m), n = 0;
            pl_action a;
            json_t *fl[1 + UR_NSQ * 4]; /* enter, and at most 4 pieces a square */
            if (seat == PL_CHANCE) {
                a = pl_draw_chance(&ur_game, &b, &r);
            } else {
                n = pl_legal_all(&ur_game, &b, seat, acts);
                assert_true(n > 0 && n <= (int)(sizeof fl / sizeof fl[0]));
                for (int i = 0; i < n; i++)
                    fl[i] = fields_json(&b, seat, acts[i]);
                a = acts[pl_rng_below(&r, (uint32_t)n)];
            }
            pl_buf err = {0};
            assert_int_equal(pl_match_play(m, seat, a, &err), 0);
            const ur_state *s = m->state;
            pl_buf ev[3] = {{0}, {0}, {0}};
            for (int v = -1; v <= 1; v++)
                assert_int_equal(pl_events_json(&ur_game, &b, seat, a, s, v, &ev[v + 1], &err), 0);
            assert_string_equal(pl_buf_str(&ev[1]), pl_buf_str(&ev[0])); /* Ur hides nothing */
            assert_string_equal(pl_buf_str(&ev[2]), pl_buf_str(&ev[0]));
            json_t *evs = json_loads(pl_buf_str(&ev[0]), 0, NULL);
            assert_true(json_is_array(evs));
            check_events(evs, &b, seat, a, s, seen);
            for (int v = -1; v <= 1; v++) { /* describe is the words of the events */
                pl_buf said = {0}, words = {0};
                ur_game.describe(&b, seat, a, s, v, &said);
                words_of(evs, v, &words);
                assert_string_equal(pl_buf_str(&said), pl_buf_str(&words));
                pl_buf_free(&said);
                pl_buf_free(&words);
            }
            /* every legal action's fields: what it would do; the one played's against its events */
            for (int i = 0; i < n; i++) {
                if (acts[i] == a)
                    check_fields(fl[i], evs, &b, seat, a);
                else
                    assert_true(json_object_size(fl[i]) == 1 || json_object_size(fl[i]) == 7);
                json_decref(fl[i]);
                legal_checked++;
            }
            json_decref(evs);
            for (int i = 0; i < 3; i++)
                pl_buf_free(&ev[i]);
            pl_buf_free(&err);
            actions++;
        }
        pl_match_free(m);
    }
    print_message("%ld actions, %ld legal actions' fields;", actions, legal_checked);
    for (int t = 0; t < NTYPES; t++) {
        print_message(" %s %ld", schema[t].type, seen[t]);
        assert_true(seen[t] > 0); /* every type met */
    }
    print_message("\n");
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
        cmocka_unit_test(test_UR_events_random_games_every_option),
    };
    return cmocka_run_group_tests_name("unit_ur_events", tests, NULL, NULL);
}
