/* test_property_hint_hidden.c — the hidden-card proof of hints (docs/hints.md):
 * over many random deals of Tam Cúc and City Behind Walls (every variant the
 * games list), at decisions along random games, the hint for the seat to
 * move is computed on the true state and on another true state that differs
 * from it only in cards that seat cannot see (a fresh `determinize` of the
 * true state from that seat's view, with its own generator: the unseen cards
 * dealt again); the two hints must be identical (move and estimate, bit for
 * bit) for the same seed. A hint that read a card its seat cannot see would
 * tell the two worlds apart. The test also checks that the second worlds
 * really differ (else it would prove nothing). */
#include <stdio.h>
#include <string.h>

#include "ai/hint.h"
#include "helpers.h"

#define GAMES_PER_VARIANT 12 /* random deals per variant of each game */
#define EVERY 3              /* a hint at every third decision */
#define ITERATIONS 150       /* a small search: the property, not the strength */

typedef struct counts {
    long hints, differ;
} counts;

/* check_game's state: the second world's buffer, the counts. */
typedef struct hint_walk {
    void *other;
    counts *k;
    pl_buf err;
} hint_walk;

/* Every EVERY-th decision: the hint in both worlds; then a random move. */
static pl_action hint_at(void *ctx, const pl_game *g, const void *st, int seat, long d, const char *opts,
                         pl_rng *rng)
{
    hint_walk *w = ctx;
    if (d % EVERY == 0) {
        g->determinize(st, seat, rng, w->other); /* the unseen cards dealt again */
        w->k->differ += memcmp(w->other, st, g->state_size) != 0;
        ai_hint_params p = {.iterations = ITERATIONS};
        ai_hint_result a, b;
        uint64_t seed = pl_rng_next(rng);
        assert_int_equal(ai_hint(g, st, seat, &p, seed, &a, &w->err), 0);
        assert_int_equal(ai_hint(g, w->other, seat, &p, seed, &b, &w->err), 0);
        if (a.action != b.action || memcmp(&a.win, &b.win, sizeof a.win) || a.nlegal != b.nlegal)
            fail_msg("%s %s: seat %d's hint differs between worlds that differ only in what it "
                     "cannot see (decision %ld)", g->id, opts, seat, d + 1);
        assert_int_equal(pl_check(g, st, seat, a.action, &w->err), 0);
        assert_true(a.win >= 0 && a.win <= 1);
        w->k->hints++;
    }
    pl_action acts[PL_MAX_ACTIONS];
    int n = pl_legal_all(g, st, seat, acts);
    return acts[pl_rng_below(rng, (uint32_t)n)];
}

static void check_game(const char *game, counts *k)
{
    const pl_game *g = pl_game_find(game);
    assert_non_null(g);
    assert_true(g->flags & PL_GAME_HIDDEN);
    hint_walk w = {test_malloc(g->state_size), k, {0}};
    pl_rng rng;
    pl_rng_seed(&rng, 34);
    th_random_games(game, GAMES_PER_VARIANT, 1000, 1, &rng, hint_at, &w);
    test_free(w.other);
    pl_buf_free(&w.err);
}

static void test_property_hint_same_for_unseen_cards_tamcuc(void **s)
{
    (void)s;
    counts k = {0};
    check_game("tamcuc", &k);
    print_message("tamcuc: %ld hints, %ld in worlds that differ\n", k.hints, k.differ);
    assert_true(k.hints > 300 && k.differ > k.hints / 2);
}

static void test_property_hint_same_for_unseen_cards_cbw(void **s)
{
    (void)s;
    counts k = {0};
    check_game("cbw", &k);
    print_message("cbw: %ld hints, %ld in worlds that differ\n", k.hints, k.differ);
    assert_true(k.hints > 300 && k.differ > k.hints / 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_property_hint_same_for_unseen_cards_tamcuc),
        cmocka_unit_test(test_property_hint_same_for_unseen_cards_cbw),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
