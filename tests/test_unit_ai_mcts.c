/* test_unit_ai_mcts.c — the search players (src/ai/mcts.c, ai.c): specs,
 * determinism for a seed and an iteration budget (threads included), the
 * arena's byte budget, a win in one found in Ur, information sets (the
 * searching seat's choice never depends on cards it cannot see), and the
 * game's heuristic policy as a player and in rollouts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "ai/mcts.h"
#include "helpers.h"
#include "parlour/alloc.h"

static mcts_params params(long it, int threads)
{
    mcts_params p;
    mcts_defaults(&p);
    p.iterations = it;
    p.threads = threads;
    p.arena_bytes = (size_t)4 << 20;
    return p;
}

/* Plays random actions from `m` until `seat`-style decision with > 1 legal
 * action for a sole actor; returns that actor, or -1 at the end. */
static int advance_to_choice(pl_match *m, pl_rng *r)
{
    const pl_game *g = m->game;
    pl_action acts[PL_MAX_ACTIONS];
    pl_buf err = {0};
    while (g->phase(m->state) != PL_PHASE_OVER) {
        if (g->phase(m->state) == PL_PHASE_CHANCE) {
            assert_int_equal(pl_match_random(m, NULL, &err), 0);
            continue;
        }
        int actor = pl_sole_actor(g, m->state);
        int n = actor >= 0 ? g->legal(m->state, actor, acts, PL_MAX_ACTIONS) : 0;
        if (actor >= 0 && n > 1)
            return actor;
        int seats[PL_MAX_SEATS];
        g->actors(m->state, seats);
        n = g->legal(m->state, seats[0], acts, PL_MAX_ACTIONS);
        assert_int_equal(pl_match_play(m, seats[0], acts[pl_rng_below(r, (uint32_t)n)], &err), 0);
    }
    pl_buf_free(&err);
    return -1;
}

static void test_specs(void **st)
{
    (void)st;
    const char *good[] = {"easy", "medium", "hard", "hard:threads=2", "mcts", "mcts:iterations=50",
                          "mcts:ms=20,threads=2", "ismcts:iterations=9:c=1.2:depth=30:arena=8", "random",
                          "greedy", "expectimax:depth=3", "bot:champion", "", "mcts:it=5,score=0.2", "policy",
                          "mcts:it=9,policy=0,horizon=1"};
    const char *bad[] = {"mcts:iterations=0", "mcts:threads=9", "mcts:foo=1", "expectimax:depth=9", "bot:",
                         "medium:iterations", "nobody", "mcts:ms=x", "policy:x=1", "mcts:policy=2", "mcts:horizon=-1"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        pl_buf e = {0};
        assert_int_equal(ai_check_spec(good[i], &e), 0);
        pl_buf_free(&e);
    }
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        pl_buf e = {0};
        assert_int_equal(ai_check_spec(bad[i], &e), -1);
        assert_true(e.len > 0);
        pl_buf_free(&e);
    }
    /* a level that is not an mcts search takes no parameters */
    pl_match *m = th_new("ur", "seed=1");
    pl_rng r;
    pl_rng_seed(&r, 1);
    int seat = advance_to_choice(m, &r);
    pl_action a;
    pl_buf e = {0};
    assert_int_equal(ai_choose(m->game, m->state, seat, "easy:threads=2", 1, &a, &e), -1);
    pl_buf_free(&e);
    pl_match_free(m);
}

/* ai_level is the one list of a game's levels: its own rows, then the
 * generic ones it leaves out, then NULL. */
static void test_ai_level_list(void **st)
{
    (void)st;
    static const pl_level own[] = {{"champion", "mcts:iterations=50", "its own"},
                                   {"easy", "mcts:iterations=10", "its own easy"},
                                   {NULL, NULL, NULL}};
    pl_game g = *pl_game_find("ur");
    g.levels = own;
    const char *want[] = {"champion", "easy", "medium", "hard"};
    for (int i = 0; i < 4; i++) {
        assert_non_null(ai_level(&g, i));
        assert_string_equal(ai_level(&g, i)->name, want[i]);
    }
    assert_string_equal(ai_level(&g, 1)->about, "its own easy");
    assert_null(ai_level(&g, 4));
    g.levels = NULL;
    assert_string_equal(ai_level(&g, 0)->name, "easy");
    assert_null(ai_level(&g, 3));
    pl_buf d = {0}; /* ai_describe_levels lists the same, one a line */
    g.levels = own;
    ai_describe_levels(&g, &d);
    int lines = 0;
    for (const char *p = pl_buf_str(&d); *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 4);
    pl_buf_free(&d);
}

/* Levels come from the game's table (pl_game.levels): a level plays as the
 * player its row names, a name only one game has is that game's, and the
 * levels a game leaves out are the generic ones. */
static void test_levels_from_the_game(void **st)
{
    (void)st;
    int ng;
    const pl_game *const *games = pl_games(&ng);
    for (int k = 0; k < ng; k++) {
        const pl_game *g = games[k];
        pl_match *m = th_new(g->id, "seed=3");
        pl_buf err = {0};
        while (g->phase(m->state) == PL_PHASE_CHANCE) /* to the first decision */
            assert_int_equal(pl_match_random(m, NULL, &err), 0);
        pl_buf_free(&err);
        int seats[PL_MAX_SEATS];
        int seat = g->phase(m->state) == PL_PHASE_MOVE && g->actors(m->state, seats) > 0 ? seats[0] : -1;
        assert_true(seat >= 0);
        for (const pl_level *lv = g->levels; lv && lv->name; lv++) {
            pl_action a, b;
            pl_buf e = {0};
            assert_int_equal(ai_choose(g, m->state, seat, lv->name, 9, &a, &e), 0);
            assert_int_equal(ai_choose(g, m->state, seat, lv->spec, 9, &b, &e), 0);
            if (a != b)
                fail_msg("%s: level %s did not play as %s", g->id, lv->name, lv->spec);
            pl_buf_free(&e);
        }
        pl_match_free(m);
    }
    /* A level no game names is no player; one some game names is checked
     * as a player, and refused by a game without it. */
    pl_buf e = {0};
    assert_int_equal(ai_check_spec("grandmaster", &e), -1);
    for (int k = 0; k < ng; k++)
        for (const pl_level *lv = games[k]->levels; lv && lv->name; lv++) {
            pl_buf_clear(&e);
            assert_int_equal(ai_check_spec(lv->name, &e), 0);
            for (int o = 0; o < ng; o++) {
                bool has = false;
                for (const pl_level *ol = games[o]->levels; ol && ol->name; ol++)
                    has = has || !strcmp(ol->name, lv->name);
                bool generic = !strcmp(lv->name, "easy") || !strcmp(lv->name, "medium") || !strcmp(lv->name, "hard");
                if (has || generic)
                    continue;
                pl_match *m = th_new(games[o]->id, "seed=3");
                pl_rng r;
                pl_rng_seed(&r, 3);
                int seat = advance_to_choice(m, &r);
                pl_action a;
                pl_buf_clear(&e);
                if (seat >= 0 && ai_choose(games[o], m->state, seat, lv->name, 1, &a, &e) != -1)
                    fail_msg("%s plays the level %s, which only other games have", games[o]->id, lv->name);
                pl_match_free(m);
            }
        }
    pl_buf_free(&e);
}

static void test_deterministic_for_seed(void **st)
{
    (void)st;
    int ng, searched = 0;
    const pl_game *const *games = pl_games(&ng);
    for (int k = 0; k < ng; k++) { /* every registered game */
        pl_match *m = th_new(games[k]->id, "seed=5");
        pl_rng r;
        pl_rng_seed(&r, 7);
        int seat = advance_to_choice(m, &r);
        if (seat < 0) { /* never one seat with a choice (karuta's simultaneous touches) */
            pl_match_free(m);
            continue;
        }
        searched++;
        for (int threads = 1; threads <= 2; threads++) {
            mcts_params p = params(300, threads);
            for (uint64_t seed = 1; seed <= 3; seed++) {
                pl_action a1, a2;
                mcts_stats s1, s2;
                pl_buf e = {0};
                assert_int_equal(mcts_choose(m->game, m->state, seat, &p, seed, &a1, &s1, &e), 0);
                assert_int_equal(mcts_choose(m->game, m->state, seat, &p, seed, &a2, &s2, &e), 0);
                assert_true(a1 == a2);
                assert_int_equal(s1.iterations, 300);
                assert_int_equal(s1.nodes, s2.nodes);
                assert_int_equal(pl_check(m->game, m->state, seat, a1, &e), 0);
                pl_buf_free(&e);
            }
        }
        pl_match_free(m);
    }
    assert_true(searched >= 1);
}

static void test_arena_budget(void **st)
{
    (void)st;
    pl_match *m = th_new("cbw", "seed=3");
    pl_rng r;
    pl_rng_seed(&r, 3);
    int seat = advance_to_choice(m, &r);
    assert_true(seat >= 0);
    mcts_params p = params(400, 2);
    p.arena_bytes = 2 * 40 * mcts_node_size(); /* 40 nodes a thread */
    pl_action a;
    mcts_stats s;
    pl_buf e = {0};
    assert_int_equal(mcts_choose(m->game, m->state, seat, &p, 9, &a, &s, &e), 0);
    assert_true(s.bytes <= p.arena_bytes);
    assert_true((size_t)s.nodes * mcts_node_size() <= p.arena_bytes);
    assert_true(s.full);
    assert_int_equal(s.iterations, 400);
    assert_int_equal(pl_check(m->game, m->state, seat, a, &e), 0);
    p.arena_bytes = mcts_node_size(); /* cannot hold the roots */
    assert_int_equal(mcts_choose(m->game, m->state, seat, &p, 9, &a, &s, &e), -1);
    /* out of memory is reported, nothing leaks */
    p = params(50, 1);
    for (long k = 0; k < 12; k++) {
        pl_buf e2 = {0};
        pl_alloc_fail_after(k);
        int rc = mcts_choose(m->game, m->state, seat, &p, 9, &a, NULL, &e2);
        pl_alloc_fail_after(-1);
        assert_true(rc == 0 || e2.len > 0 || e2.oom);
        pl_buf_free(&e2);
    }
    pl_buf_free(&e);
    pl_match_free(m);
}

/* Exact win probability of `seat` in a short Ur endgame, by expectimax to
 * the end (`depth` decisions at most; the evaluation beyond). */
static double ur_value(const pl_game *g, const void *st, int seat, int depth)
{
    if (g->phase(st) == PL_PHASE_OVER || depth == 0)
        return g->evaluate(st, seat);
    unsigned char child[256];
    assert_true(g->state_size <= sizeof child);
    if (g->phase(st) == PL_PHASE_CHANCE) {
        pl_action o[PL_MAX_CHANCE];
        double p[PL_MAX_CHANCE], v = 0;
        int n = g->chance(st, o, p, PL_MAX_CHANCE);
        for (int i = 0; i < n; i++) {
            pl_state_copy(g, child, st);
            g->apply(child, PL_CHANCE, o[i]);
            v += p[i] * ur_value(g, child, seat, depth);
        }
        return v;
    }
    int actor = pl_sole_actor(g, st);
    pl_action acts[16];
    int n = g->legal(st, actor, acts, 16);
    double best = actor == seat ? -1 : 2;
    for (int i = 0; i < n; i++) {
        pl_state_copy(g, child, st);
        g->apply(child, actor, acts[i]);
        double v = ur_value(g, child, seat, depth - 1);
        best = actor == seat ? (v > best ? v : best) : (v < best ? v : best);
    }
    return best;
}

/* Ur, two pieces: where one move is clearly best by a deep expectimax (a
 * margin of 0.25 in win probability over every other move, typically a
 * capture of an advanced piece or a safe bear-off), the search plays it.
 * Positions come from seeded random games. */
static void test_ur_obvious_best_move(void **st)
{
    (void)st;
    int found = 0;
    pl_action acts[PL_MAX_ACTIONS];
    unsigned char tmp[256];
    for (uint64_t seed = 1; seed < 400 && found < 5; seed++) {
        char opts[64];
        snprintf(opts, sizeof opts, "pieces=2 seed=%llu", (unsigned long long)seed);
        pl_match *m = th_new("ur", opts);
        const pl_game *g = m->game;
        pl_rng r;
        pl_rng_seed(&r, seed);
        for (int seat; (seat = advance_to_choice(m, &r)) >= 0;) {
            int n = g->legal(m->state, seat, acts, PL_MAX_ACTIONS), best = -1;
            double v1 = -1, v2 = -1;
            for (int i = 0; i < n; i++) {
                pl_state_copy(g, tmp, m->state);
                g->apply(tmp, seat, acts[i]);
                double v = ur_value(g, tmp, seat, 3);
                if (v > v1) {
                    v2 = v1;
                    v1 = v;
                    best = i;
                } else if (v > v2) {
                    v2 = v;
                }
            }
            if (v1 - v2 > 0.25) {
                mcts_params p = params(1500, 1);
                pl_action a;
                pl_buf e = {0};
                assert_int_equal(mcts_choose(g, m->state, seat, &p, seed, &a, NULL, &e), 0);
                assert_true(a == acts[best]);
                pl_buf_free(&e);
                found++;
                break;
            }
            pl_buf err = {0};
            assert_int_equal(pl_match_play(m, seat, acts[pl_rng_below(&r, (uint32_t)n)], &err), 0);
        }
        pl_match_free(m);
    }
    assert_true(found >= 3);
}

/* The search sees other seats' cards only through determinize: on a state
 * and on the same state with the unseen cards redealt (determinize from the
 * searching seat's view), every seed gives the same choice. */
static void test_hidden_cards_never_read(void **st)
{
    (void)st;
    /* Every registered game with hidden information, under its first two
     * option sets (pl_game.variants: Tam Cuc's three players, cbw's six). */
    int ng, tried = 0;
    const pl_game *const *games = pl_games(&ng);
    for (int k = 0; k < 2 * ng; k++) {
        const pl_game *g = games[k / 2];
        if (!(g->flags & PL_GAME_HIDDEN))
            continue;
        const char *set = k % 2 == 0 ? "" : g->variants && g->variants[0] ? g->variants[1] : NULL;
        if (!set)
            continue;
        char opts[256];
        snprintf(opts, sizeof opts, "%s seed=%d", set, 11 + k % 2);
        pl_match *m = th_new(g->id, opts);
        tried++;
        pl_rng r;
        pl_rng_seed(&r, 21);
        for (int step = 0; step < 3; step++) {
            int seat = advance_to_choice(m, &r);
            if (seat < 0)
                break;
            void *other = malloc(g->state_size);
            pl_rng dr;
            pl_rng_seed(&dr, 99 + (uint64_t)step);
            g->determinize(m->state, seat, &dr, other);
            mcts_params p = params(150, 1);
            for (uint64_t seed = 1; seed <= 4; seed++) {
                pl_action a, b;
                pl_buf e = {0};
                assert_int_equal(mcts_choose(g, m->state, seat, &p, seed, &a, NULL, &e), 0);
                assert_int_equal(mcts_choose(g, other, seat, &p, seed, &b, NULL, &e), 0);
                assert_true(a == b);
                pl_buf_free(&e);
            }
            free(other);
            pl_action acts[PL_MAX_ACTIONS];
            int n = g->legal(m->state, seat, acts, PL_MAX_ACTIONS);
            pl_buf err = {0};
            assert_int_equal(pl_match_play(m, seat, acts[pl_rng_below(&r, (uint32_t)n)], &err), 0);
        }
        pl_match_free(m);
    }
    assert_true(tried >= 1);
}

/* The game's heuristic policy as a player and in rollouts: `policy` plays a
 * legal action, the same for a seed; a game without one refuses it. A
 * search with the policy (the default where the game has one) and the deal
 * horizon is deterministic and legal in a session. */
static void test_policy_and_horizon(void **st)
{
    (void)st;
    pl_match *m = th_new("tamcuc", "seed=8 session_end=deals:3");
    pl_rng r;
    pl_rng_seed(&r, 8);
    int seat = advance_to_choice(m, &r);
    assert_true(seat >= 0);
    const char *specs[] = {"policy", "mcts:it=200,horizon=1", "hard", "easy"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        pl_action a, b;
        pl_buf e = {0};
        assert_int_equal(ai_choose(m->game, m->state, seat, specs[i], 5, &a, &e), 0);
        assert_int_equal(ai_choose(m->game, m->state, seat, specs[i], 5, &b, &e), 0);
        assert_true(a == b);
        assert_int_equal(pl_check(m->game, m->state, seat, a, &e), 0);
        pl_buf_free(&e);
    }
    pl_match_free(m);
    m = th_new("cbw", "seed=8");
    seat = advance_to_choice(m, &r);
    pl_action a;
    pl_buf e = {0};
    assert_int_equal(ai_choose(m->game, m->state, seat, "policy", 5, &a, &e), -1);
    assert_non_null(strstr(pl_buf_str(&e), "no heuristic policy"));
    pl_buf_free(&e);
    pl_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specs),
        cmocka_unit_test(test_ai_level_list),
        cmocka_unit_test(test_levels_from_the_game),
        cmocka_unit_test(test_deterministic_for_seed),
        cmocka_unit_test(test_arena_budget),
        cmocka_unit_test(test_ur_obvious_best_move),
        cmocka_unit_test(test_hidden_cards_never_read),
        cmocka_unit_test(test_policy_and_horizon),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
