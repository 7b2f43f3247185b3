/* test_property_tamcuc_hidden.c — Tam Cúc hides every hand and face-down
 * card, proven by swapping: over thousands of random deals with 3 and 4
 * players, for each viewing seat v a second world is kept in which two
 * cards v has never seen (in the hands of two other seats, from their own
 * deal: not received in the night exchange) were dealt the other way round
 * (the deal's chance action rewritten), and the whole history replayed.
 * Every later action of the real game is replayed in it, and after every
 * action v's `view`, v's and a spectator's JSON view (pl_view_json), v's history (pl_match_history_for, through
 * format_action_for: "deal ?/…", "lay 2"), and what each action did as
 * told to v (describe, and the events of pl_events_json: docs/web-views.md,
 * "tamcuc", "Events") must be byte-identical in both worlds, and so must v's record (pl_record_write_for) when a world is
 * built and when the game ends; the other world has another seed as well:
 * any difference is a leak. A world ends when an action cannot be
 * replayed in it (one of its cards was played) and is rebuilt at once. */
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "games/tamcuc/tc.h"
#include "parlour/alloc.h"

#define NGAMES 2000
#define JSON_EVERY 10 /* games, one of which compares the JSON views */

typedef struct world {
    pl_match *m; /* NULL: none */
    int a, b, x, y;
} world;

static void random_options(pl_rng *r, int seed, char *o, size_t n)
{
    int np = 3 + (int)pl_rng_below(r, 2);
    int len = snprintf(o, n, "players=%d seed=%d", np, seed);
    static const char *const ss[] = {"seize", "autowin", "none"};
    int special = (int)pl_rng_below(r, 3);
    len += snprintf(o + len, n - (size_t)len, " soldier_special=%s", ss[special]);
    if (np == 3) {
        static const char *const d[] = {"seed_27", "alt_27", "deck_30"};
        len += snprintf(o + len, n - (size_t)len, " three_p_deck=%s", d[pl_rng_below(r, 3)]);
    }
    if (pl_rng_below(r, 3) == 0)
        len += snprintf(o + len, n - (size_t)len, " night_exchange=%d", 1 + (int)pl_rng_below(r, 3));
    if (pl_rng_below(r, 4) == 0)
        len += snprintf(o + len, n - (size_t)len, " session_end=deals:2");
    if (special != 2 && pl_rng_below(r, 3) == 0)
        len += snprintf(o + len, n - (size_t)len, " soldier_declare_mandatory=on");
    if (pl_rng_below(r, 3) == 0)
        snprintf(o + len, n - (size_t)len, " discard_revealed_public=off");
}

/* A random kind of `hand` not in `exclude`, -1 if none. */
static int pick_kind(pl_rng *r, tc_cards hand, tc_cards exclude)
{
    int kinds[TC_NKIND], n = 0;
    for (int k = 0; k < TC_NKIND; k++)
        if (TC_NIB(hand, k) && !TC_NIB(exclude, k))
            kinds[n++] = k;
    return n ? kinds[pl_rng_below(r, (uint32_t)n)] : -1;
}

/* Builds v's other world at the real game's position (the deal at history
 * index `deal_idx`); 0 when no swap applies or the history does not replay
 * with it (then the play itself tells v something, legitimately). */
static int build_world(pl_match *real, const char *opts, int deal_idx, int v, pl_rng *r, world *w,
                       long *refused)
{
    const tc_state *s = real->state;
    if (deal_idx < 0 || s->phase <= TC_PH_EXCH)
        return 0;
    int np = s->np, a = (v + 1 + (int)pl_rng_below(r, (uint32_t)np - 1)) % np, b;
    do
        b = (int)pl_rng_below(r, (uint32_t)np);
    while (b == a || b == v);
    tc_cards recv_a = s->night_k ? s->passed[(a + np - 1) % np] : 0;
    tc_cards recv_b = s->night_k ? s->passed[(b + np - 1) % np] : 0;
    int x = pick_kind(r, s->hand[a], recv_a);
    int y = pick_kind(r, s->hand[b], recv_b | (x >= 0 ? TC_ONE(x) : 0));
    if (x < 0 || y < 0)
        return 0;
    char other[512]; /* another seed too: a seat's record must not show it */
    th_other_seed(opts, other, sizeof other);
    pl_match *m = th_new("tamcuc", other);
    pl_buf err = {0};
    int ok = 1;
    for (int i = 0; i < real->nhist && ok; i++) {
        pl_action act = real->hist[i].a;
        if (i == deal_idx) {
            tc_cards h[TC_MAXP], removed;
            tc_decode_deal(m->state, act, h, &removed);
            h[a] = h[a] - TC_ONE(x) + TC_ONE(y);
            h[b] = h[b] - TC_ONE(y) + TC_ONE(x);
            act = tc_encode_deal(m->state, h);
        }
        ok = pl_match_play(m, real->hist[i].seat, act, &err) == 0;
    }
    pl_buf_free(&err);
    if (!ok) {
        (*refused)++;
        pl_match_free(m);
        return 0;
    }
    *w = (world){m, a, b, x, y};
    return 1;
}

static pl_buf ta, tb;
static long evented; /* actions whose events (not "[]") were compared */

/* Appends the events of the action as told to v in each world (after its
 * text in `told_a`, `told_b`), for compare(). */
static void events_both(const pl_game *g, int seat, pl_action a, int v, const void *before_a, const void *after_a,
                        const void *before_b, const void *after_b, char *told_a, char *told_b, size_t cap)
{
    pl_buf ea = {0}, eb = {0}, err = {0};
    if (pl_events_json(g, before_a, seat, a, after_a, v, &ea, &err) < 0 ||
        pl_events_json(g, before_b, seat, a, after_b, v, &eb, &err) < 0)
        fail_msg("events: %s", pl_buf_str(&err));
    size_t la = strlen(told_a), lb = strlen(told_b);
    snprintf(told_a + la, cap - la, "\n%s", pl_buf_str(&ea));
    snprintf(told_b + lb, cap - lb, "\n%s", pl_buf_str(&eb));
    evented += strcmp(pl_buf_str(&ea), "[]") != 0;
    pl_buf_free(&ea);
    pl_buf_free(&eb);
    pl_buf_free(&err);
}
static int json_game; /* this game compares the JSON views too */
static long records; /* seat records compared: at each new world and at the end */

/* v's view in both worlds; v's whole history too when `full` (a new
 * world), else only the last action as v saw it (`last_a`, `last_b`: its
 * text for v in each world, formatted before it was played). */
static void compare(pl_match *real, world *w, int v, const char *opts, int full, const char *last_a,
                    const char *last_b)
{
    pl_buf_clear(&ta);
    pl_buf_clear(&tb);
    real->game->view(real->state, v, &ta);
    real->game->view(w->m->state, v, &tb);
    /* the structured views (pl_view_json) of v and of a spectator, who
     * sees less than v; in one game in JSON_EVERY (they cost ten times the
     * rest of the test) */
    for (int who = v; json_game && who >= -1; who = who == -1 ? -2 : -1) {
        pl_buf_putc(&ta, '\n');
        pl_buf_putc(&tb, '\n');
        assert_int_equal(pl_view_json(real->game, real->state, who, &ta, &ta), 0);
        assert_int_equal(pl_view_json(w->m->game, w->m->state, who, &tb, &tb), 0);
    }
    if (full) {
        pl_match_history_for(real, v, &ta);
        pl_match_history_for(w->m, v, &tb);
        pl_match_describe(real, 0, v, &ta); /* what happened, told to v (game.h describe) */
        pl_match_describe(w->m, 0, v, &tb);
        th_same_record_for(real, w->m, v, opts);
        records++;
    } else {
        pl_buf_puts(&ta, last_a);
        pl_buf_puts(&tb, last_b);
    }
    if (strcmp(pl_buf_str(&ta), pl_buf_str(&tb)))
        fail_msg("%s: seat %d can tell that seat %d holds %d and seat %d holds %d:\n%s\n---\n%s", opts, v, w->a,
                 w->x, w->b, w->y, pl_buf_str(&ta), pl_buf_str(&tb));
}

static void test_swapped_hidden_cards_change_nothing_seen(void **st)
{
    (void)st;
    pl_rng r;
    pl_rng_seed(&r, 20260602);
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    assert_non_null(acts);
    long compared = 0, worlds = 0, refused = 0, described = 0;
    void *before = pl_malloc(sizeof(tc_state)), *wbefore[TC_MAXP];
    assert_non_null(before);
    for (int v = 0; v < TC_MAXP; v++) {
        wbefore[v] = pl_malloc(sizeof(tc_state));
        assert_non_null(wbefore[v]);
    }
    pl_buf err = {0};
    for (int g = 0; g < NGAMES; g++) {
        json_game = g % JSON_EVERY == 0;
        char opts[512];
        random_options(&r, g + 1, opts, sizeof opts);
        pl_match *m = th_new("tamcuc", opts);
        const tc_state *s = m->state;
        world w[TC_MAXP] = {{0}};
        int deal_idx = -1;
        while (m->game->phase(m->state) != PL_PHASE_OVER) {
            int seat = PL_CHANCE, new_deal = s->phase == TC_PH_DEAL;
            pl_action a;
            if (m->game->phase(m->state) == PL_PHASE_CHANCE) {
                a = pl_draw_chance(m->game, m->state, &r);
            } else {
                int seats[PL_MAX_SEATS];
                int na = m->game->actors(m->state, seats);
                seat = seats[pl_rng_below(&r, (uint32_t)na)];
                int n = m->game->legal(m->state, seat, acts, PL_MAX_ACTIONS);
                assert_true(n > 0);
                a = acts[pl_rng_below(&r, (uint32_t)n)];
            }
            if (new_deal)
                deal_idx = m->nhist;
            char last_a[TC_MAXP][4096], last_b[TC_MAXP][4096];
            pl_state_copy(m->game, before, m->state);
            for (int v = 0; v < s->np; v++)
                if (w[v].m)
                    pl_state_copy(m->game, wbefore[v], w[v].m->state);
            for (int v = 0; v < s->np; v++) {
                pl_buf_clear(&ta);
                m->game->format_action_for(m->state, seat, a, v, &ta);
                snprintf(last_a[v], sizeof last_a[v], "%s", pl_buf_str(&ta));
                last_b[v][0] = '\0';
                if (w[v].m) {
                    pl_buf_clear(&tb);
                    m->game->format_action_for(w[v].m->state, seat, a, v, &tb);
                    snprintf(last_b[v], sizeof last_b[v], "%s", pl_buf_str(&tb));
                }
            }
            if (pl_match_play(m, seat, a, &err) < 0)
                fail_msg("play: %s", pl_buf_str(&err));
            for (int v = 0; v < s->np; v++) {
                int fresh = !w[v].m;
                if (w[v].m && (new_deal || pl_match_play(w[v].m, seat, a, &err) < 0)) {
                    pl_match_free(w[v].m);
                    w[v].m = NULL;
                }
                pl_buf_clear(&err);
                if (!w[v].m && build_world(m, opts, deal_idx, v, &r, &w[v], &refused)) {
                    worlds++;
                    fresh = 1;
                }
                if (w[v].m && !fresh) { /* and what the action did, as told to v: words and events */
                    described += th_told_both(m->game, seat, a, v, before, m->state, wbefore[v], w[v].m->state,
                                              last_a[v], last_b[v], sizeof last_a[v]);
                    events_both(m->game, seat, a, v, before, m->state, wbefore[v], w[v].m->state, last_a[v],
                                last_b[v], sizeof last_a[v]);
                }
                if (w[v].m) {
                    compare(m, &w[v], v, opts, fresh, last_a[v], last_b[v]);
                    compared++;
                }
            }
        }
        for (int v = 0; v < TC_MAXP; v++) {
            if (w[v].m) { /* the finished game's record for v, result included */
                th_same_record_for(m, w[v].m, v, opts);
                records++;
            }
            pl_match_free(w[v].m);
        }
        pl_match_free(m);
    }
    print_message("%d games, %ld worlds built, %ld comparisons, %ld seat records compared, %ld swaps "
                  "the play ruled out\n", NGAMES, worlds, compared, records, refused);
    assert_true(records > NGAMES * 10L);
    assert_true(compared > NGAMES * 20L);
    assert_true(refused * 4 < worlds);
    print_message("%ld described actions compared\n", described);
    assert_true(described > NGAMES * 5L); /* tricks and deal scores were told, and equal */
    print_message("%ld actions' events compared\n", evented);
    assert_true(evented > NGAMES * 20L); /* leads, lays, reveals, tricks ... told, and equal */
    pl_free(before);
    for (int v = 0; v < TC_MAXP; v++)
        pl_free(wbefore[v]);
    pl_buf_free(&err);
    pl_buf_free(&ta);
    pl_buf_free(&tb);
    pl_free(acts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_swapped_hidden_cards_change_nothing_seen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
