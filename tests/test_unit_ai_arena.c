/* test_unit_ai_arena.c — AI-against-AI matches (src/ai/ai_arena.c): counts
 * add up, points are the players' mean scores, seats are rotated evenly,
 * results do not depend on the number of threads; and the karuta player
 * (src/games/karuta/kar_bot.c): legal, deterministic for a seed, take times
 * ordered by level, levels ordered by strength. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "ai/ai_arena.h"
#include "games/karuta/kar.h"
#include "helpers.h"
static void test_counts_add_up(void **st)
{
    (void)st;
    char *ur[] = {"pieces=3"};
    ai_arena_result r = th_arena("ur", ur, 1, "greedy", "random", 30, 1, 4);
    assert_int_equal(r.games, 30);
    for (int p = 0; p < 2; p++)
        assert_int_equal(r.wins[p] + r.draws[p] + r.losses[p], 30);
    assert_int_equal(r.wins[0], r.losses[1]);
    assert_int_equal(r.wins[1], r.losses[0]);
    assert_int_equal(r.draws[0], r.draws[1]);
    assert_true(r.score[0] + r.score[1] > 0.999 && r.score[0] + r.score[1] < 1.001);
    assert_true(r.ci95[0] > 0 && r.ci95[0] < 0.5);
    /* each player sat at each seat in half the games */
    for (int s = 0; s < r.nseats; s++)
        for (int p = 0; p < 2; p++)
            assert_int_equal(r.seat_games[s][p], 15);
    ai_arena_result r2 = th_arena("ur", ur, 1, "greedy", "random", 30, 3, 4);
    assert_int_equal(r2.wins[0], r.wins[0]);
    assert_int_equal(r2.actions, r.actions);
    /* four seats in two teams: a team is one player */
    ai_arena_result c = th_arena("cbw", NULL, 0, "random", "random", 6, 2, 4);
    assert_int_equal(c.nseats, 4);
    for (int s = 0; s < 4; s++)
        assert_int_equal(c.seat_games[s][0], 3);
    assert_int_equal(c.wins[0] + c.draws[0] + c.losses[0], 6);
    /* points: the mean score of a player's seats; Tam Cúc's deal scores sum
     * to zero, so two players holding two seats each get opposite points */
    char *tc[] = {"session_end=deals:2"};
    ai_arena_result t = th_arena("tamcuc", tc, 1, "policy", "random", 8, 2, 4);
    assert_true(t.points[0] + t.points[1] > -1e-9 && t.points[0] + t.points[1] < 1e-9);
    assert_true(t.points[0] > 0);
}

static void test_elo(void **st)
{
    (void)st;
    assert_true(ai_arena_elo(0.5) > -1e-9 && ai_arena_elo(0.5) < 1e-9);
    assert_true(ai_arena_elo(0.76) > 199 && ai_arena_elo(0.76) < 201);
    assert_true(ai_arena_elo(1) == 800 && ai_arena_elo(0) == -800);
}

static void test_bad_arena(void **st)
{
    (void)st;
    ai_arena_opts o;
    memset(&o, 0, sizeof o);
    o.g = pl_game_find("ur");
    o.nplayers = 2;
    o.players[0] = "random";
    o.players[1] = "nobody";
    o.games = 2;
    o.threads = 1;
    ai_arena_result r;
    pl_buf e = {0};
    assert_int_equal(ai_arena_run(&o, &r, &e), -1);
    assert_non_null(strstr(pl_buf_str(&e), "nobody"));
    pl_buf_free(&e);
}

/* Plays karuta readings until a touch stage. */
static pl_match *karuta_at_touch(uint64_t seed)
{
    char opts[64];
    snprintf(opts, sizeof opts, "seed=%llu", (unsigned long long)seed);
    pl_match *m = th_new("karuta", opts);
    pl_buf e = {0};
    for (int i = 0; i < 200 && m->game->phase(m->state) != PL_PHASE_MOVE; i++)
        assert_int_equal(pl_match_random(m, NULL, &e), 0);
    pl_buf_free(&e);
    return m;
}

static void test_karuta_bot(void **st)
{
    (void)st;
    const char *levels[] = {"beginner", "club", "expert", "champion"};
    double med[4]; /* mean take time after the deciding kana */
    for (int l = 0; l < 4; l++) {
        const kar_bot_level *lv = kar_bot_find(levels[l]);
        assert_non_null(lv);
        int times[200], n = 0;
        for (uint64_t seed = 1; seed <= 40; seed++) {
            pl_match *m = karuta_at_touch(seed);
            const kar_state *s = m->state;
            pl_rng r;
            pl_rng_seed(&r, seed);
            int t = kar_bot_take_ms(s, 0, lv, &r);
            if (t >= 0)
                times[n++] = t - s->last.decide_ms; /* after the deciding kana */
            for (int seat = 0; seat < 2; seat++) {
                pl_action a, b;
                pl_buf e = {0};
                assert_int_equal(ai_choose(m->game, m->state, seat, l == 3 ? "bot:champion" : "easy", seed, &a, &e), 0);
                assert_int_equal(ai_choose(m->game, m->state, seat, "medium", seed, &b, &e), 0);
                assert_int_equal(pl_check(m->game, m->state, seat, a, &e), 0);
                pl_buf_free(&e);
            }
            pl_match_free(m);
        }
        assert_true(n > 5);
        med[l] = 0;
        for (int i = 0; i < n; i++)
            med[l] += times[i];
        med[l] /= n;
    }
    for (int l = 1; l < 4; l++)
        assert_true(med[l] < med[l - 1]);
    /* deterministic for a seed */
    pl_match *m = karuta_at_touch(5);
    pl_action a, b;
    pl_buf e = {0};
    assert_int_equal(ai_choose(m->game, m->state, 1, "hard", 77, &a, &e), 0);
    assert_int_equal(ai_choose(m->game, m->state, 1, "hard", 77, &b, &e), 0);
    assert_true(a == b);
    assert_int_equal(ai_choose(m->game, m->state, 1, "bot:grandmaster", 77, &a, &e), -1);
    pl_buf_free(&e);
    pl_match_free(m);
}

static void test_karuta_levels_ordered(void **st)
{
    (void)st;
    char **none = NULL;
    ai_arena_result r = th_arena("karuta", none, 0, "medium", "easy", 4, 2, 4);
    assert_true(r.score[0] >= 0.75);
    r = th_arena("karuta", none, 0, "bot:champion", "hard", 4, 2, 4);
    assert_true(r.score[0] >= 0.75);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_add_up),
        cmocka_unit_test(test_elo),
        cmocka_unit_test(test_bad_arena),
        cmocka_unit_test(test_karuta_bot),
        cmocka_unit_test(test_karuta_levels_ordered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
