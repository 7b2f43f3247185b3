/* test_property_cbw_events.c — City Behind Walls' events and action fields
 * over thousands of random games of random options (2, 4 and 6 players,
 * both decks, small Rectangles often): after every action the events
 * (pl_events_json) parse as a JSON array of the documented types, each with
 * exactly its documented fields (docs/web-views.md, cbw "Events"), are the
 * same for every viewer, and agree with the rules: the placement is the
 * action, the captured groups are the new prisoners on the cells they lay
 * on, each group connected and of one colour, the mover's captures before
 * its own losses, a fixed edge told when an axis becomes fixed, the castles
 * and the score at the end equal the game's. `describe` says exactly the
 * captures (one sentence per capturing team, its count of prisoners). And
 * the fields of every legal action (pl_action_fields_json) give its card
 * and cell and what it captures, equal to playing it on a copy. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cbw_util.h"

#define NGAMES 2000

static void random_options(pl_rng *r, char *o, size_t n, int seed)
{
    static const char *const players[3] = {"2", "4", "6"};
    int len = snprintf(o, n, "seed=%d players=%s deck=%s first=random", seed, players[pl_rng_below(r, 3)],
                       pl_rng_below(r, 2) ? "52" : "36");
    if (pl_rng_below(r, 3)) /* two games in three on a small Rectangle: fixed edges, captures, castles */
        snprintf(o + len, n - (size_t)len, " w=%u h=%u", 2 + pl_rng_below(r, 5), 2 + pl_rng_below(r, 3));
}

/* The keys of each event type, sorted, space separated. */
static const char *const kinds[][2] = {
    {"first", "team type"},
    {"place", "card seat type x y"},
    {"fix", "axis edges type"},
    {"capture", "by cards lost seat type"},
    {"pass", "passes seat type"},
    {"castle", "cells team type"},
    {"end", "castles prisoners score type winner"},
};

static void check_keys(const json_t *e, const char *ctx)
{
    const char *type = json_string_value(json_object_get(e, "type"));
    if (!type)
        fail_msg("%s: an event without a type", ctx);
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        if (strcmp(kinds[i][0], type))
            continue;
        /* exactly the documented keys: each of them, and no more */
        char keys[64];
        size_t n = 0;
        snprintf(keys, sizeof keys, "%s", kinds[i][1]);
        for (char *save = NULL, *k = strtok_r(keys, " ", &save); k; k = strtok_r(NULL, " ", &save), n++)
            if (!json_object_get(e, k))
                fail_msg("%s: %s has no %s", ctx, type, k);
        if (json_object_size(e) != n)
            fail_msg("%s: %s has %zu keys, documented %s", ctx, type, json_object_size(e), kinds[i][1]);
        return;
    }
    fail_msg("%s: undocumented event type %s", ctx, type);
}

static int card_of(const json_t *j)
{
    const char *t = json_string_value(j);
    assert_non_null(t);
    int k = cbw_card_parse(&t);
    assert_true(k >= 0 && *t == '\0');
    return k;
}

static int int_of(const json_t *j)
{
    assert_true(json_is_integer(j));
    return (int)json_integer_value(j);
}

/* Checks the events `arr` of `seat`'s action `a` from `b` to `s`. Returns
 * the number of capture events. */
static int check_events(const json_t *arr, const cbw_state *b, int seat, pl_action a, const cbw_state *s,
                        const char *ctx)
{
    assert_true(json_is_array(arr));
    uint64_t taken[2] = {0, 0};
    int ncap = 0, last_by = -1, seen_place = 0, seen_end = 0, castle_cells[2] = {0, 0};
    for (size_t i = 0; i < json_array_size(arr); i++) {
        const json_t *e = json_array_get(arr, i);
        check_keys(e, ctx);
        const char *type = json_string_value(json_object_get(e, "type"));
        if (!strcmp(type, "first")) {
            assert_true(a & CBW_ACT_FIRST);
            assert_int_equal(int_of(json_object_get(e, "team")), (int)(a & 1));
        } else if (!strcmp(type, "place")) {
            assert_int_equal(i, 0);
            seen_place = 1;
            assert_int_equal(int_of(json_object_get(e, "seat")), seat);
            assert_int_equal(card_of(json_object_get(e, "card")), cbw_act_card(a));
            assert_int_equal(int_of(json_object_get(e, "x")), cbw_act_x(a));
            assert_int_equal(int_of(json_object_get(e, "y")), cbw_act_y(a));
        } else if (!strcmp(type, "fix")) {
            const char *axis = json_string_value(json_object_get(e, "axis"));
            const json_t *ed = json_object_get(e, "edges");
            assert_non_null(axis);
            int x = !strcmp(axis, "x");
            assert_true(x || !strcmp(axis, "y"));
            assert_true(x ? cbw_fixed_x(s) && !cbw_fixed_x(b) : cbw_fixed_y(s) && !cbw_fixed_y(b));
            assert_int_equal(int_of(json_array_get(ed, 0)), x ? s->x0 : s->y0);
            assert_int_equal(int_of(json_array_get(ed, 1)), x ? s->x1 : s->y1);
        } else if (!strcmp(type, "capture")) {
            ncap++;
            int by = int_of(json_object_get(e, "by"));
            assert_true(by == 0 || by == 1);
            assert_int_equal(int_of(json_object_get(e, "lost")), !by);
            assert_int_equal(int_of(json_object_get(e, "seat")), seat);
            if (last_by >= 0 && by != last_by)
                assert_int_equal(last_by, cbw_team(seat)); /* the mover's captures first */
            last_by = by;
            const json_t *cards = json_object_get(e, "cards");
            size_t n = json_array_size(cards);
            assert_true(n > 0);
            int px[CBW_NCARDS], py[CBW_NCARDS];
            uint64_t grp = 0;
            for (size_t j = 0; j < n; j++) {
                const json_t *c = json_array_get(cards, j);
                int k = card_of(json_object_get(c, "card"));
                px[j] = int_of(json_object_get(c, "x"));
                py[j] = int_of(json_object_get(c, "y"));
                assert_int_equal(cbw_colour(k), !by);
                assert_false((grp >> k) & 1);
                grp |= 1ull << k;
                /* on the cell it lay on: the placed card's, else its cell before */
                int p = k == cbw_act_card(a) ? cbw_cell(cbw_act_x(a), cbw_act_y(a)) : b->pos[k];
                assert_true(k == cbw_act_card(a) || ((b->table >> k) & 1));
                assert_int_equal(px[j], cbw_cell_x(p));
                assert_int_equal(py[j], cbw_cell_y(p));
            }
            /* one group: connected side by side (CBW-R17) */
            uint64_t reach = 1, frontier = 1;
            while (frontier) {
                int j = __builtin_ctzll(frontier);
                frontier &= frontier - 1;
                for (size_t q = 0; q < n; q++)
                    if (!((reach >> q) & 1) && abs(px[q] - px[j]) + abs(py[q] - py[j]) == 1)
                        reach |= 1ull << q, frontier |= 1ull << q;
            }
            assert_true(reach == (n == 64 ? ~0ull : (1ull << n) - 1));
            assert_true((taken[by] & grp) == 0);
            taken[by] |= grp;
        } else if (!strcmp(type, "pass")) {
            assert_true(a == CBW_ACT_PASS);
            assert_int_equal(int_of(json_object_get(e, "seat")), seat);
            assert_int_equal(int_of(json_object_get(e, "passes")), s->passes);
        } else if (!strcmp(type, "castle")) {
            int team = int_of(json_object_get(e, "team"));
            assert_true(team == 0 || team == 1);
            const json_t *cells = json_object_get(e, "cells");
            assert_true(json_array_size(cells) > 0);
            for (size_t j = 0; j < json_array_size(cells); j++) {
                const json_t *c = json_array_get(cells, j);
                int x = int_of(json_object_get(c, "x")), y = int_of(json_object_get(c, "y"));
                assert_int_equal(s->cell[cbw_cell(x, y)], 0); /* a free cell inside */
            }
            castle_cells[team] += (int)json_array_size(cells);
        } else if (!strcmp(type, "end")) {
            seen_end = 1;
            assert_int_equal(i + 1, json_array_size(arr));
            int c[2], sc[2];
            cbw_castles(s, c);
            cbw_score(s, sc);
            for (int t = 0; t < 2; t++) {
                assert_int_equal(int_of(json_array_get(json_object_get(e, "castles"), (size_t)t)), c[t]);
                assert_int_equal(castle_cells[t], c[t]);
                assert_int_equal(int_of(json_array_get(json_object_get(e, "score"), (size_t)t)), sc[t]);
                assert_int_equal(int_of(json_array_get(json_object_get(e, "prisoners"), (size_t)t)),
                                 __builtin_popcountll(s->prisoners[t]));
            }
            const json_t *w = json_object_get(e, "winner");
            if (sc[0] == sc[1])
                assert_true(json_is_null(w));
            else
                assert_int_equal(int_of(w), sc[1] > sc[0]);
        }
    }
    assert_int_equal(seen_place, (a & CBW_ACT_PLACE) && !(a & CBW_ACT_FIRST));
    assert_int_equal(seen_end, s->phase == CBW_PH_OVER);
    for (int t = 0; t < 2; t++)
        assert_true(taken[t] == (s->prisoners[t] & ~b->prisoners[t]));
    return ncap;
}

/* Every legal action's fields: card and cell as the action, and what it
 * captures as playing it on a copy does. */
static void check_fields(pl_match *m, int seat, const pl_action *acts, int n, void *copy, long *nfields)
{
    const pl_game *g = m->game;
    pl_buf b = {0}, err = {0};
    for (int i = 0; i < n; i++) {
        pl_buf_clear(&b);
        assert_int_equal(pl_action_fields_json(g, m->state, seat, acts[i], &b, &err), 0);
        json_error_t je;
        json_t *f = json_loads(pl_buf_str(&b), 0, &je);
        assert_non_null(f);
        const char *move = json_string_value(json_object_get(f, "move"));
        assert_non_null(move);
        if (acts[i] == CBW_ACT_PASS) {
            assert_string_equal(move, "pass");
            assert_int_equal(json_object_size(f), 1);
        } else {
            assert_string_equal(move, "place");
            assert_int_equal(json_object_size(f), 6);
            assert_int_equal(card_of(json_object_get(f, "card")), cbw_act_card(acts[i]));
            assert_int_equal(int_of(json_object_get(f, "x")), cbw_act_x(acts[i]));
            assert_int_equal(int_of(json_object_get(f, "y")), cbw_act_y(acts[i]));
            pl_state_copy(g, copy, m->state);
            g->apply(copy, seat, acts[i]);
            const cbw_state *c = copy;
            assert_int_equal(int_of(json_object_get(f, "captures")), c->cap1);
            assert_int_equal(int_of(json_object_get(f, "loses")), c->cap2);
        }
        json_decref(f);
        (*nfields)++;
    }
    pl_buf_free(&b);
    pl_buf_free(&err);
}

static void test_events_and_fields_over_random_games(void **st)
{
    (void)st;
    pl_rng r;
    pl_rng_seed(&r, 20261203);
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    void *before = pl_malloc(sizeof(cbw_state)), *copy = pl_malloc(sizeof(cbw_state));
    assert_non_null(acts);
    assert_non_null(before);
    assert_non_null(copy);
    pl_buf ev = {0}, first = {0}, err = {0}, told = {0};
    long actions = 0, captures = 0, castles = 0, fixes = 0, ends = 0, nfields = 0, fields_capturing = 0;
    for (int g = 0; g < NGAMES; g++) {
        char opts[256];
        random_options(&r, opts, sizeof opts, g + 1);
        pl_match *m = th_new("cbw", opts);
        const cbw_state *s = m->state;
        while (m->game->phase(m->state) != PL_PHASE_OVER) {
            int seat = PL_CHANCE;
            pl_action a;
            if (m->game->phase(m->state) == PL_PHASE_CHANCE) {
                a = pl_draw_chance(m->game, m->state, &r);
            } else {
                seat = pl_sole_actor(m->game, m->state);
                int n = pl_legal_all(m->game, m->state, seat, acts);
                assert_true(n > 0);
                if (g % 4 == 0) /* the fields of every legal action, one game in four */
                    check_fields(m, seat, acts, n, copy, &nfields);
                /* pass one time in eight (else the last action of the list) */
                a = pl_rng_below(&r, 8) == 0 ? CBW_ACT_PASS : acts[pl_rng_below(&r, (uint32_t)n)];
                if (a != CBW_ACT_PASS && g % 4 == 0) {
                    pl_buf_clear(&ev);
                    pl_action_fields_json(m->game, m->state, seat, a, &ev, &err);
                    fields_capturing += !strstr(pl_buf_str(&ev), "\"captures\":0");
                }
            }
            pl_state_copy(m->game, before, m->state);
            if (pl_match_play(m, seat, a, &err) < 0)
                fail_msg("play: %s", pl_buf_str(&err));
            char ctx[512];
            snprintf(ctx, sizeof ctx, "%s, action %d", opts, m->nhist);
            /* the same events for every viewer (everything told is on the table) */
            pl_buf_clear(&first);
            assert_int_equal(pl_events_json(m->game, before, seat, a, m->state, -1, &first, &err), 0);
            for (int v = 0; v < s->nseats; v++) {
                pl_buf_clear(&ev);
                assert_int_equal(pl_events_json(m->game, before, seat, a, m->state, v, &ev, &err), 0);
                if (strcmp(pl_buf_str(&ev), pl_buf_str(&first)))
                    fail_msg("%s: seat %d is told %s, -1 %s", ctx, v, pl_buf_str(&ev), pl_buf_str(&first));
            }
            json_error_t je;
            json_t *arr = json_loads(pl_buf_str(&first), 0, &je);
            if (!arr)
                fail_msg("%s: events do not parse: %s: %s", ctx, je.text, pl_buf_str(&first));
            int ncap = check_events(arr, before, seat, a, m->state, ctx);
            captures += ncap;
            castles += strstr(pl_buf_str(&first), "\"castle\"") != NULL;
            fixes += strstr(pl_buf_str(&first), "\"fix\"") != NULL;
            ends += strstr(pl_buf_str(&first), "\"end\"") != NULL;
            /* describe: one sentence per capturing team, its prisoners counted */
            for (int v = -1; v < s->nseats; v++) {
                pl_buf_clear(&told);
                m->game->describe(before, seat, a, m->state, v, &told);
                int sentences = 0, count = 0;
                for (const char *p = pl_buf_str(&told); (p = strstr(p, " prisoner")); p++) {
                    const char *q = p;
                    while (q > pl_buf_str(&told) && q[-1] >= '0' && q[-1] <= '9')
                        q--;
                    count += atoi(q);
                    sentences++;
                }
                int runs = 0, cards = 0, prev = -1;
                for (size_t i = 0; i < json_array_size(arr); i++) {
                    const json_t *e = json_array_get(arr, i);
                    if (strcmp(json_string_value(json_object_get(e, "type")), "capture"))
                        continue;
                    int by = (int)json_integer_value(json_object_get(e, "by"));
                    runs += by != prev;
                    prev = by;
                    cards += (int)json_array_size(json_object_get(e, "cards"));
                }
                if (sentences != runs || count != cards || (told.len > 0) != (ncap > 0))
                    fail_msg("%s: told '%s' for the events %s", ctx, pl_buf_str(&told), pl_buf_str(&first));
            }
            json_decref(arr);
            actions++;
        }
        pl_match_free(m);
    }
    print_message("%d games, %ld actions, %ld captured groups, %ld fixed edges, %ld ends with %ld castle "
                  "events, %ld action fields (%ld chosen placements that capture)\n",
                  NGAMES, actions, captures, fixes, ends, castles, nfields, fields_capturing);
    assert_int_equal(ends, NGAMES);
    assert_true(captures > NGAMES / 2);
    assert_true(castles > NGAMES / 20);
    assert_true(fixes > NGAMES / 2);
    assert_true(fields_capturing > 10);
    pl_buf_free(&ev);
    pl_buf_free(&first);
    pl_buf_free(&err);
    pl_buf_free(&told);
    pl_free(acts);
    pl_free(before);
    pl_free(copy);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_events_and_fields_over_random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
