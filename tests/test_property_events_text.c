/* test_property_events_text.c — pl_game.events_text and action_fields_text
 * against pl_game.events and action_fields: for every game that writes its
 * events or its legal actions' fields as text, pl_events_json's bytes at
 * every action (every viewer: -1 and each seat) and pl_action_fields_json's
 * at every legal action of every state, along random games of every rule
 * variant and random options, compared with the reference, the same game
 * with the text members taken away (the jansson path). A byte of difference
 * fails, and so does a pl_events_json or pl_action_fields_json that does not
 * take the text way (the members are called through counting wrappers). A
 * game that gains either member must be added to `diffed` below. */
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "parlour/alloc.h"
#include "tamcuc_util.h"

/* City Behind Walls' options as test_property_cbw_events varies them: 2, 4
 * or 6 players, either deck, two games in three on a small Rectangle (fixed
 * edges, captures and castles come early). */
static void cbw_options(pl_rng *r, char *o, size_t n, uint64_t seed)
{
    static const char *const players[3] = {"2", "4", "6"};
    int len = snprintf(o, n, "seed=%llu players=%s deck=%s first=random", (unsigned long long)seed,
                       players[pl_rng_below(r, 3)], pl_rng_below(r, 2) ? "52" : "36");
    if (pl_rng_below(r, 3))
        snprintf(o + len, n - (size_t)len, " w=%u h=%u", 2 + pl_rng_below(r, 5), 2 + pl_rng_below(r, 3));
}

/* The games with events_text or action_fields_text, how their options are
 * drawn, how many random games each gets per variant and of random
 * options, and the event types every run must have written (each of the
 * text writer's branches). */
static const struct diffed {
    const char *id;
    void (*options)(pl_rng *r, char *out, size_t n, uint64_t seed);
    int games;
    const char *const *types;
} diffed[] = {
    {"ur", th_ur_options, 60,
     (const char *const[]){"first", "throw", "pass", "move", "capture", "flip", "bear-off", "again", NULL}},
    {"cbw", cbw_options, 40,
     (const char *const[]){"first", "place", "fix", "capture", "pass", "castle", "end", NULL}},
    /* Tam Cúc's "overtake" (a black set led last, beaten by the red one)
     * random games seldom reach: test_property_events_text_tamcuc_overtake */
    {"tamcuc", th_tamcuc_options, 40,
     (const char *const[]){"counting", "dealer", "deal", "pass", "exchange", "declare", "nodeclare", "paid", "ket",
                           "deal_end", "game_end", "lead", "lay", "shown", "reveal", "hide", "trick", NULL}},
};
enum { NDIFFED = sizeof diffed / sizeof diffed[0] };

/* What a run compared. */
typedef struct tally {
    long actions, fields, viewers; /* viewers: pl_events_json calls, one a viewer an action */
    pl_buf seen; /* every events text written, to find the types in */
} tally;

/* The game under test, and how often pl_events_json and
 * pl_action_fields_json called its text members: through these wrappers,
 * so that a pl_events_json that ignored events_text (both paths jansson's,
 * the same bytes) fails the test too. One test thread. */
static const pl_game *spied;
static long events_text_calls, fields_text_calls;

static int spy_events_text(const void *before, int seat, pl_action a, const void *after, int viewer, pl_buf *out)
{
    events_text_calls++;
    return spied->events_text(before, seat, a, after, viewer, out);
}

static int spy_fields_text(const void *st, int seat, pl_action a, pl_buf *out)
{
    fields_text_calls++;
    return spied->action_fields_text(st, seat, a, out);
}

/* The two paths' bytes for one thing: the same, or the test fails naming
 * where. */
static void same_text(const pl_buf *a, const pl_buf *b, const char *what, const char *opts, long step, int who)
{
    if (strcmp(pl_buf_str(a), pl_buf_str(b)) != 0) {
        print_error("%s [%s] step %ld (%d)\n", what, opts, step, who);
        assert_string_equal(pl_buf_str(a), pl_buf_str(b));
    }
}

/* The fields of every action in acts[0..n) for `seat` in `st` by both
 * paths. */
static void same_fields(const pl_game *g, const pl_game *ref, const void *st, int seat, const pl_action *acts, int n,
                        const char *opts, long step, tally *t)
{
    pl_buf a = {0}, b = {0}, err = {0};
    for (int i = 0; i < n; i++) {
        pl_buf_clear(&a);
        pl_buf_clear(&b);
        if (pl_action_fields_json(g, st, seat, acts[i], &a, &err) != 0 ||
            pl_action_fields_json(ref, st, seat, acts[i], &b, &err) != 0)
            fail_msg("%s [%s] step %ld fields: %s", g->id, opts, step, pl_buf_str(&err));
        same_text(&a, &b, "fields", opts, step, i);
        t->fields++;
    }
    pl_buf_free(&a);
    pl_buf_free(&b);
    pl_buf_free(&err);
}

/* The events of `seat`'s `act` from `before` to `after` for every viewer
 * by both paths. */
static void same_events(const pl_game *g, const pl_game *ref, const void *before, int seat, pl_action act,
                        const void *after, const char *opts, long step, tally *t)
{
    pl_buf a = {0}, b = {0}, err = {0};
    for (int v = -1; v < g->num_seats(after); v++) {
        pl_buf_clear(&a);
        pl_buf_clear(&b);
        if (pl_events_json(g, before, seat, act, after, v, &a, &err) != 0 ||
            pl_events_json(ref, before, seat, act, after, v, &b, &err) != 0)
            fail_msg("%s [%s] step %ld viewer %d: %s", g->id, opts, step, v, pl_buf_str(&err));
        same_text(&a, &b, "events", opts, step, v);
        t->viewers++;
        if (v == -1)
            pl_buf_puts(&t->seen, pl_buf_str(&a));
    }
    t->actions++;
    pl_buf_free(&a);
    pl_buf_free(&b);
    pl_buf_free(&err);
}

/* One game of `g` under `opts`, diffed at every action and every legal
 * action; `r` draws the actions. */
static void diff_one(const pl_game *g, const pl_game *ref, const char *opts, pl_rng *r, pl_action *acts, tally *t)
{
    pl_match *m = th_new(g->id, opts);
    void *before = pl_malloc(g->state_size);
    assert_non_null(before);
    pl_buf err = {0};
    for (long step = 0; g->phase(m->state) != PL_PHASE_OVER; step++) {
        assert_true(step < 100000);
        int seat, nl;
        if (g->phase(m->state) == PL_PHASE_CHANCE) {
            seat = PL_CHANCE;
            acts[0] = pl_draw_chance(g, m->state, r);
            nl = 1;
        } else {
            int seats[PL_MAX_SEATS], na = g->actors(m->state, seats);
            seat = seats[pl_rng_below(r, (uint32_t)na)];
            nl = pl_legal_all(g, m->state, seat, acts);
            if (nl == 0)
                break; /* a game that judges actions itself (pl_game.check): far enough */
        }
        same_fields(g, ref, m->state, seat, acts, nl, opts, step, t);
        pl_action a = acts[pl_rng_below(r, (uint32_t)nl)];
        pl_state_copy(g, before, m->state);
        assert_int_equal(pl_match_play(m, seat, a, &err), 0);
        same_events(g, ref, before, seat, a, m->state, opts, step, t);
    }
    pl_buf_free(&err);
    pl_free(before);
    pl_match_free(m);
}

/* Games of `d`'s game: d->games of each of its variants, then d->games of
 * random options; fails unless every type in d->types was written. */
static void diff_game(const struct diffed *d, uint64_t seed, tally *t)
{
    spied = pl_game_find(d->id);
    assert_non_null(spied);
    pl_game spy = *spied, ref = *spied;
    const pl_game *g = &spy;
    if (spied->events_text)
        spy.events_text = spy_events_text;
    if (spied->action_fields_text)
        spy.action_fields_text = spy_fields_text;
    ref.events_text = NULL; /* the reference: events and action_fields through jansson */
    ref.action_fields_text = NULL;
    events_text_calls = fields_text_calls = 0;
    pl_rng r;
    pl_rng_seed(&r, seed);
    pl_action *acts = pl_malloc(PL_MAX_ACTIONS * sizeof *acts);
    assert_non_null(acts);
    char opts[512];
    for (const char *const *v = g->variants; v && *v; v++)
        for (int i = 0; i < d->games; i++) {
            snprintf(opts, sizeof opts, "%s%sseed=%llu", *v, **v ? " " : "", (unsigned long long)(seed + (uint64_t)i));
            diff_one(g, &ref, opts, &r, acts, t);
        }
    for (int i = 0; i < d->games; i++) {
        d->options(&r, opts, sizeof opts, pl_rng_next(&r) >> 1);
        diff_one(g, &ref, opts, &r, acts, t);
    }
    pl_free(acts);
    /* every call on the game's side went the text way */
    if (spied->events_text)
        assert_int_equal(events_text_calls, t->viewers);
    if (spied->action_fields_text)
        assert_int_equal(fields_text_calls, t->fields);
    for (const char *const *ty = d->types; *ty; ty++) {
        char want[64];
        snprintf(want, sizeof want, "\"type\":\"%s\"", *ty);
        if (!strstr(pl_buf_str(&t->seen), want))
            fail_msg("%s: no event of type %s was compared", d->id, *ty);
    }
}

/* Every registered game with events_text has events (its reference), with
 * action_fields_text has action_fields, and is diffed here. */
static void test_property_events_text_every_game_listed(void **state)
{
    (void)state;
    int ng;
    const pl_game *const *gs = pl_games(&ng);
    for (int i = 0; i < ng; i++) {
        if (gs[i]->events_text)
            assert_non_null(gs[i]->events);
        if (gs[i]->action_fields_text)
            assert_non_null(gs[i]->action_fields);
        if (!gs[i]->events_text && !gs[i]->action_fields_text)
            continue;
        int listed = 0;
        for (int k = 0; k < NDIFFED; k++)
            listed |= !strcmp(diffed[k].id, gs[i]->id);
        if (!listed)
            fail_msg("%s has events_text or action_fields_text but no differential test here", gs[i]->id);
    }
}

/* The row of `diffed` for game `id`. */
static const struct diffed *diffed_of(const char *id)
{
    for (int k = 0; k < NDIFFED; k++)
        if (!strcmp(diffed[k].id, id))
            return &diffed[k];
    fail_msg("%s is not in diffed", id);
    return NULL;
}

/* Game `id`'s text way against its jansson way over random games
 * (diff_game from `seed`), at least `min_actions` actions and `min_fields`
 * legal actions compared; both text members there (else both ways are
 * jansson's, the same, and nothing is proved). */
static void diff_text_game(const char *id, uint64_t seed, long min_actions, long min_fields)
{
    const pl_game *g = pl_game_find(id);
    assert_non_null(g);
    assert_non_null(g->events_text); /* the text way is the server's */
    assert_non_null(g->action_fields_text);
    tally t = {0};
    diff_game(diffed_of(id), seed, &t);
    assert_true(t.actions >= min_actions);
    assert_true(t.fields >= min_fields);
    pl_buf_free(&t.seen);
}

/* Ur: the text paths write events' and action_fields' bytes at every action
 * and every legal action of random games of every variant and of random
 * options, every event type among them. */
static void test_property_events_text_ur_same_as_jansson(void **state)
{
    (void)state;
    diff_text_game("ur", 2029, 10000, 10000);
}

/* City Behind Walls: the text paths write events' and action_fields' bytes
 * at every action (every viewer: each seat's hand is hidden, the events tell
 * none) and every legal action of random games of every variant and of
 * random options, every event type among them (a castle and the end too). */
static void test_property_events_text_cbw_same_as_jansson(void **state)
{
    (void)state;
    diff_text_game("cbw", 2031, 8000, 100000);
}

/* Tam Cúc: the same at every action and legal action of random games of
 * every variant and of random options (2-4 players, every rule option),
 * every event type among them, every viewer (-1 and each seat: the face-down
 * cards and the deal's hands differ by viewer). */
static void test_property_events_text_tamcuc_same_as_jansson(void **state)
{
    (void)state;
    diff_text_game("tamcuc", 3031, 10000, 10000);
}

/* Tam Cúc's overtake (TC-R8.4), which random games seldom reach: the last
 * trick of a deal played from a set position (as test_rules_tamcuc_events
 * does), both paths the same at every action, viewer and legal action, the
 * overtake among the events. */
static void test_property_events_text_tamcuc_overtake(void **state)
{
    (void)state;
    pl_match *m =
        th_new("tamcuc", "seed=1 dealer=0 soldier_special=none overtake_payee=all_others session_end=deals:2");
    const pl_game *g = m->game;
    assert_non_null(g->events_text);
    assert_non_null(g->action_fields_text);
    pl_game ref = *g;
    ref.events_text = NULL;
    ref.action_fields_text = NULL;
    const char *h[4] = {"bS bS", "bH bN", "rS rS", "bC bH"}, *w[4] = {"-", "-", "-", "-"};
    endgame(m, h, w, 0);
    static const char *const script[] = {"lead bS bS", "lay bH bN", "lay rS rS", "lay bC bH", "hide", "reveal", "hide"};
    void *before = pl_malloc(g->state_size);
    assert_non_null(before);
    pl_action acts[PL_MAX_ACTIONS];
    pl_buf err = {0};
    tally t = {0};
    for (long i = 0; i < (long)(sizeof script / sizeof *script); i++) {
        int seat = pl_sole_actor(g, m->state);
        same_fields(g, &ref, m->state, seat, acts, pl_legal_all(g, m->state, seat, acts), "overtake", i, &t);
        pl_state_copy(g, before, m->state);
        if (pl_match_play_text(m, seat, script[i], &err) < 0)
            fail_msg("%s: %s", script[i], pl_buf_str(&err));
        same_events(g, &ref, before, seat, m->hist[m->nhist - 1].a, m->state, "overtake", i, &t);
    }
    assert_non_null(strstr(pl_buf_str(&t.seen), "\"type\":\"overtake\""));
    pl_buf_free(&t.seen);
    pl_buf_free(&err);
    pl_free(before);
    pl_match_free(m);
}

/* Memory run out on the text way, for seat 0's first legal action in `m`
 * (seat 0 to act): -1, the buffer as it was, the reason said
 * (pl_events_json and pl_action_fields_json, as their jansson way). Frees
 * `m`. */
static void check_out_of_memory(pl_match *m)
{
    pl_buf err = {0}, out = {0};
    pl_action acts[PL_MAX_ACTIONS];
    int nl = pl_legal_all(m->game, m->state, 0, acts);
    assert_true(nl > 0);
    pl_buf_puts(&out, "kept");
    out.oom = true; /* as after an append that found no memory */
    assert_int_equal(pl_action_fields_json(m->game, m->state, 0, acts[0], &out, &err), -1);
    assert_string_equal(pl_buf_str(&out), "kept");
    assert_string_equal(pl_buf_str(&err), "out of memory");
    void *before = pl_malloc(m->game->state_size);
    assert_non_null(before);
    pl_state_copy(m->game, before, m->state);
    assert_int_equal(pl_match_play(m, 0, acts[0], &err), 0);
    pl_buf_clear(&err);
    assert_int_equal(pl_events_json(m->game, before, 0, acts[0], m->state, -1, &out, &err), -1);
    assert_string_equal(pl_buf_str(&out), "kept");
    assert_string_equal(pl_buf_str(&err), "out of memory");
    pl_free(before);
    pl_buf_free(&out);
    pl_buf_free(&err);
    pl_match_free(m);
}

/* Ur, memory run out on the text way (after the first throw). */
static void test_property_events_text_ur_out_of_memory(void **state)
{
    (void)state;
    pl_match *m = th_new("ur", "start=light seed=1");
    pl_buf err = {0};
    pl_rng r;
    pl_rng_seed(&r, 1);
    assert_int_equal(pl_match_play(m, PL_CHANCE, pl_draw_chance(m->game, m->state, &r), &err), 0);
    pl_buf_free(&err);
    check_out_of_memory(m);
}

/* City Behind Walls, memory run out on the text way. */
static void test_property_events_text_cbw_out_of_memory(void **state)
{
    (void)state;
    check_out_of_memory(th_new("cbw", "first=red seed=1"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_property_events_text_every_game_listed),
        cmocka_unit_test(test_property_events_text_ur_same_as_jansson),
        cmocka_unit_test(test_property_events_text_ur_out_of_memory),
        cmocka_unit_test(test_property_events_text_cbw_same_as_jansson),
        cmocka_unit_test(test_property_events_text_cbw_out_of_memory),
        cmocka_unit_test(test_property_events_text_tamcuc_same_as_jansson),
        cmocka_unit_test(test_property_events_text_tamcuc_overtake),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
