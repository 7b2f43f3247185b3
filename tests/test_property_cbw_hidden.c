/* test_property_cbw_hidden.c — City Behind Walls hides every hand, proven by
 * swapping: over thousands of random games, for each viewing seat v a
 * second world is kept in which two cards v has never seen (still in the
 * hands of two other seats of one colour, CBW-R4) were dealt the other way
 * round (the `deal=` option), and every action of the real game is replayed
 * in it. After every action v's `view`, v's and a spectator's JSON view (pl_view_json), v's history
 * (pl_match_history_for) must be byte-identical in both worlds, and so must
 * v's record (pl_record_write_for) when a world is built and when the game
 * ends, and so must what `describe` tells v of each action (captures), and
 * the events of each action as v gets them (pl_events_json: placements,
 * captures, castles, the score); the other world has another seed as
 * well: any difference is a leak. A world ends when one of its two cards is
 * played (v then sees it) and a new one is built from the position reached, by
 * replaying the whole history on a new deal. */
#include <stdio.h>
#include <string.h>

#include "cbw_util.h"

#define NGAMES 2000
#define JSON_EVERY 10 /* games, one of which compares the JSON views */

typedef struct world {
    pl_match *m; /* NULL: none yet */
    int x, y;    /* the two swapped cards */
} world;

static void random_options(pl_rng *r, int seed, char *o, size_t n)
{
    static const char *const players[3] = {"2", "4", "6"};
    snprintf(o, n, "seed=%d players=%s deck=%s first=%s", seed, players[pl_rng_below(r, 3)],
             pl_rng_below(r, 2) ? "52" : "36", pl_rng_below(r, 2) ? "random" : "red");
}

/* Seats whose hands v does not see: not v, not v's partner in a
 * two-player game (one person holds both seats of a team). */
static int hidden_from(const cbw_state *s, int v, int seat)
{
    return seat != v && !(s->players == 2 && cbw_team(seat) == cbw_team(v));
}

static void deal_text(const uint64_t *hands, int nseats, pl_buf *out)
{
    for (int i = 0; i < nseats; i++) {
        if (i)
            pl_buf_putc(out, '/');
        int first = 1;
        for (uint64_t m = hands[i]; m; m &= m - 1) {
            if (!first)
                pl_buf_putc(out, ',');
            first = 0;
            cbw_card_text(__builtin_ctzll(m), 0, out);
        }
    }
}

/* Builds v's other world at the real game's current position; 0 if none
 * can be built (no two hidden cards of one colour left, or the history is
 * not playable with the swapped deal: then v could tell, legitimately). */
static int build_world(pl_match *real, const char *opts, int v, pl_rng *r, world *w, long *inconsistent)
{
    const cbw_state *s = real->state, *s0 = real->initial;
    int cand[CBW_MAXSEATS * CBW_MAXSEATS][2], nc = 0;
    for (int a = 0; a < s->nseats; a++)
        for (int b = a + 1; b < s->nseats; b++)
            if (hidden_from(s, v, a) && hidden_from(s, v, b) && cbw_team(a) == cbw_team(b) && s->hand[a] &&
                s->hand[b])
                cand[nc][0] = a, cand[nc][1] = b, nc++;
    if (!nc)
        return 0;
    int k = (int)pl_rng_below(r, (uint32_t)nc), a = cand[k][0], b = cand[k][1];
    uint64_t ha = s->hand[a], hb = s->hand[b];
    int x = -1, y = -1;
    for (int i = (int)pl_rng_below(r, (uint32_t)__builtin_popcountll(ha)); i >= 0; i--, ha &= ha - 1)
        x = __builtin_ctzll(ha);
    for (int i = (int)pl_rng_below(r, (uint32_t)__builtin_popcountll(hb)); i >= 0; i--, hb &= hb - 1)
        y = __builtin_ctzll(hb);
    uint64_t hands[CBW_MAXSEATS];
    memcpy(hands, s0->hand, sizeof hands);
    hands[a] = (hands[a] & ~(1ull << x)) | 1ull << y;
    hands[b] = (hands[b] & ~(1ull << y)) | 1ull << x;
    pl_buf o = {0}, err = {0};
    char other[256]; /* another seed too: a seat's record must not show it */
    th_other_seed(opts, other, sizeof other);
    pl_buf_printf(&o, "%s deal=", other);
    deal_text(hands, s->nseats, &o);
    pl_match *m = th_new("cbw", pl_buf_str(&o));
    int ok = 1;
    for (int i = 0; i < real->nhist && ok; i++)
        ok = pl_match_play(m, real->hist[i].seat, real->hist[i].a, &err) == 0;
    pl_buf_free(&o);
    pl_buf_free(&err);
    if (!ok) {
        (*inconsistent)++;
        pl_match_free(m);
        return 0;
    }
    w->m = m;
    w->x = x;
    w->y = y;
    return 1;
}

static pl_buf ta, tb;

/* Appends "\n" and the events of `seat`'s action `a` as told to `v`
 * (pl_events_json) in the real world to `told_a` and in the swapped one to
 * `told_b` (`cap` bytes each). Returns whether any event was told. */
static int events_both(const pl_game *g, int seat, pl_action a, int v, const void *before_a, const void *after_a,
                       const void *before_b, const void *after_b, char *told_a, char *told_b, size_t cap)
{
    pl_buf ea = {0}, eb = {0}, err = {0};
    assert_int_equal(pl_events_json(g, before_a, seat, a, after_a, v, &ea, &err), 0);
    assert_int_equal(pl_events_json(g, before_b, seat, a, after_b, v, &eb, &err), 0);
    size_t la = strlen(told_a), lb = strlen(told_b);
    snprintf(told_a + la, cap - la, "\n%s", pl_buf_str(&ea));
    snprintf(told_b + lb, cap - lb, "\n%s", pl_buf_str(&eb));
    int told = strcmp(pl_buf_str(&ea), "[]") != 0;
    pl_buf_free(&ea);
    pl_buf_free(&eb);
    pl_buf_free(&err);
    return told;
}
static int json_game; /* this game compares the JSON views too */
static long records; /* seat records compared: at each new world and at the end */

/* v's view in both worlds; v's whole history too when `full` (a new
 * world), else only the last action as v saw it (`last_a`, `last_b`: its
 * text in each world, formatted before it was played). */
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
        fail_msg("%s: seat %d can tell where %d and %d were dealt:\n%s\n---\n%s", opts, v, w->x, w->y,
                 pl_buf_str(&ta), pl_buf_str(&tb));
}

static void test_swapped_hidden_cards_change_nothing_seen(void **st)
{
    (void)st;
    pl_rng r;
    pl_rng_seed(&r, 20260601);
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    assert_non_null(acts);
    long compared = 0, worlds = 0, inconsistent = 0, described = 0, evented = 0;
    void *before = pl_malloc(sizeof(cbw_state)), *wbefore[CBW_MAXSEATS];
    assert_non_null(before);
    for (int v = 0; v < CBW_MAXSEATS; v++) {
        wbefore[v] = pl_malloc(sizeof(cbw_state));
        assert_non_null(wbefore[v]);
    }
    pl_buf err = {0};
    for (int g = 0; g < NGAMES; g++) {
        json_game = g % JSON_EVERY == 0;
        char opts[256];
        random_options(&r, g + 1, opts, sizeof opts);
        pl_match *m = th_new("cbw", opts);
        const cbw_state *s = m->state;
        world w[CBW_MAXSEATS] = {{0}};
        while (m->game->phase(m->state) != PL_PHASE_OVER) {
            int seat = PL_CHANCE;
            pl_action a;
            if (m->game->phase(m->state) == PL_PHASE_CHANCE) {
                a = pl_draw_chance(m->game, m->state, &r);
            } else {
                seat = pl_sole_actor(m->game, m->state);
                int n = m->game->legal(m->state, seat, acts, PL_MAX_ACTIONS);
                assert_true(n > 0);
                a = acts[pl_rng_below(&r, (uint32_t)n)];
            }
            /* The action as each viewer sees it, in each world, before it is played
             * (cbw has no format_action_for: every action is public). */
            char last_a[CBW_MAXSEATS][4096], last_b[CBW_MAXSEATS][4096]; /* the action, its words, its events */
            pl_buf_clear(&ta);
            m->game->format_action(m->state, seat, a, &ta);
            pl_state_copy(m->game, before, m->state);
            for (int v = 0; v < s->nseats; v++) {
                snprintf(last_a[v], sizeof last_a[v], "%s", pl_buf_str(&ta));
                last_b[v][0] = '\0';
                if (w[v].m) {
                    pl_state_copy(m->game, wbefore[v], w[v].m->state);
                    pl_buf_clear(&tb);
                    m->game->format_action(w[v].m->state, seat, a, &tb);
                    snprintf(last_b[v], sizeof last_b[v], "%s", pl_buf_str(&tb));
                }
            }
            if (pl_match_play(m, seat, a, &err) < 0)
                fail_msg("play: %s", pl_buf_str(&err));
            for (int v = 0; v < s->nseats; v++) {
                int fresh = !w[v].m;
                if (w[v].m && pl_match_play(w[v].m, seat, a, &err) < 0) {
                    /* Only playing one of the swapped cards may end a world. */
                    int card = (a & CBW_ACT_PLACE) ? cbw_act_card(a) : -1;
                    if (card != w[v].x && card != w[v].y)
                        inconsistent++;
                    pl_match_free(w[v].m);
                    w[v].m = NULL;
                }
                pl_buf_clear(&err);
                if (!w[v].m && build_world(m, opts, v, &r, &w[v], &inconsistent)) {
                    worlds++;
                    fresh = 1;
                }
                if (w[v].m && !fresh) { /* and what the action did, as told to v, in words and as events */
                    described += th_told_both(m->game, seat, a, v, before, m->state, wbefore[v], w[v].m->state,
                                              last_a[v], last_b[v], sizeof last_a[v]);
                    evented += events_both(m->game, seat, a, v, before, m->state, wbefore[v], w[v].m->state,
                                           last_a[v], last_b[v], sizeof last_a[v]);
                }
                if (w[v].m) {
                    compare(m, &w[v], v, opts, fresh, last_a[v], last_b[v]);
                    compared++;
                }
            }
        }
        for (int v = 0; v < CBW_MAXSEATS; v++) {
            if (w[v].m) { /* the finished game's record for v, result included */
                th_same_record_for(m, w[v].m, v, opts);
                records++;
            }
            pl_match_free(w[v].m);
        }
        pl_match_free(m);
    }
    print_message("%d games, %ld worlds built, %ld comparisons, %ld seat records compared, %ld swaps "
                  "v could rule out\n", NGAMES, worlds, compared, records, inconsistent);
    assert_true(records > NGAMES * 10L);
    assert_true(compared > NGAMES * 20L);
    assert_true(inconsistent * 10 < worlds); /* most swaps stay consistent with the play */
    print_message("%ld described captures compared\n", described);
    assert_true(described > NGAMES / 2); /* captures were told, and equal */
    print_message("%ld actions' events compared\n", evented);
    assert_true(evented > NGAMES * 10L); /* every action has events, and equal */
    pl_free(before);
    for (int v = 0; v < CBW_MAXSEATS; v++)
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
