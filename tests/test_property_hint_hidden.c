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

static void check_game(const char *game, counts *k)
{
    pl_buf err = {0};
    const pl_game *g = pl_game_find(game);
    assert_non_null(g);
    assert_true(g->flags & PL_GAME_HIDDEN);
    void *other = test_malloc(g->state_size);
    pl_rng rng;
    pl_rng_seed(&rng, 34);
    for (int v = 0; g->variants && g->variants[v]; v++)
        for (int i = 0; i < GAMES_PER_VARIANT; i++) {
            char opts[256];
            snprintf(opts, sizeof opts, "%s seed=%d", g->variants[v], 1000 * v + i + 1);
            pl_match *m = th_new(game, opts);
            long decisions = 0;
            while (g->phase(m->state) != PL_PHASE_OVER) {
                if (g->phase(m->state) == PL_PHASE_CHANCE) {
                    assert_int_equal(pl_match_random(m, NULL, &err), 0);
                    continue;
                }
                int seats[PL_MAX_SEATS];
                int na = g->actors(m->state, seats);
                int seat = seats[pl_rng_below(&rng, (uint32_t)na)];
                if (decisions++ % EVERY == 0) {
                    g->determinize(m->state, seat, &rng, other); /* the unseen cards dealt again */
                    k->differ += memcmp(other, m->state, g->state_size) != 0;
                    ai_hint_params p = {.iterations = ITERATIONS};
                    ai_hint_result a, b;
                    uint64_t seed = pl_rng_next(&rng);
                    assert_int_equal(ai_hint(g, m->state, seat, &p, seed, &a, &err), 0);
                    assert_int_equal(ai_hint(g, other, seat, &p, seed, &b, &err), 0);
                    if (a.action != b.action || memcmp(&a.win, &b.win, sizeof a.win) || a.nlegal != b.nlegal)
                        fail_msg("%s %s: seat %d's hint differs between worlds that differ only in what it "
                                 "cannot see (decision %ld)", game, opts, seat, decisions);
                    assert_int_equal(pl_check(g, m->state, seat, a.action, &err), 0);
                    assert_true(a.win >= 0 && a.win <= 1);
                    k->hints++;
                }
                pl_action acts[PL_MAX_ACTIONS];
                int n = pl_legal_all(g, m->state, seat, acts);
                assert_int_equal(pl_match_play(m, seat, acts[pl_rng_below(&rng, (uint32_t)n)], &err), 0);
            }
            pl_match_free(m);
        }
    test_free(other);
    pl_buf_free(&err);
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
