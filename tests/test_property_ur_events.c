/* test_property_ur_events.c — Ur's events and action fields over 2,000
 * random games of every option (th_ur_options; docs/web-views.md, `ur`,
 * "Events" and "Action fields"): at every action the events parse as JSON
 * of the documented types with exactly the documented fields, are the same
 * for every viewer (Ur hides nothing), agree with the states before and
 * after, `describe` is the words of the events (worded here again from the
 * JSON), and every legal action's fields, and its menu text, agree with
 * what it then did. The golden cases are test_unit_ur_events.c. */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "helpers.h"
#include "games/ur/ur.h"

/* The seat that acts now: PL_CHANCE in a chance phase. */
static int actor(pl_match *m)
{
    return m->game->phase(m->state) == PL_PHASE_CHANCE ? PL_CHANCE : pl_sole_actor(m->game, m->state);
}

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
        cmocka_unit_test(test_UR_events_random_games_every_option),
    };
    return cmocka_run_group_tests_name("property_ur_events", tests, NULL, NULL);
}
