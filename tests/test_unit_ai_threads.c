/* test_unit_ai_threads.c — players shared between threads (ai.h, docs/ai.md
 * "Threads"): one ai_player of each kind (random, greedy, expectimax, MCTS
 * levels and MCTS with its own threads, the game's policy and bot, perfect:
 * over a Finkel table and over a generic solver's table, both built here)
 * serves several threads that choose at once on different positions, and
 * every choice equals the single-threaded choice with the same seed. The
 * arena with its players shared by 2 and 4 threads gives the results of one
 * thread. Run under ThreadSanitizer by the tsan preset (label threads). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "ai/ai_arena.h"
#include "ai/solve.h"
#include "games/ur/ur_finkel.h"
#include "helpers.h"
#include "proto.h"

#define NSTATES 6
#define NTHREADS 4
#define ROUNDS 2

static const char *const finkel_table = "test_threads_finkel2.tbl";
static const char *const generic_table = "test_threads_generic2.tbl";

/* Builds two tables of Finkel's rules with two pieces (with one piece there
 * is no choice to make): one in the game's own format (the layer solver),
 * one in the generic solver's. */
static int make_tables(void **s)
{
    (void)s;
    pl_buf err = {0};
    urf_table *t = urf_new(2);
    if (!t)
        return -1;
    urf_solve(t, 1e-14, 1, NULL);
    int rc = urf_save(t, finkel_table, &err);
    urf_free(t);
    pl_match *m = th_new("ur", "rules=finkel pieces=2 seed=1");
    solve_result r;
    if (rc == 0)
        rc = solve_game(m->game, m->state, 1e-14, NULL, generic_table, &r, &err);
    if (rc < 0)
        fprintf(stderr, "%s\n", pl_buf_str(&err));
    pl_match_free(m);
    pl_buf_free(&err);
    return rc;
}

static int remove_tables(void **s)
{
    (void)s;
    remove(finkel_table);
    remove(generic_table);
    return 0;
}

/* NSTATES positions of one game, each with a seat to play and a seed. */
typedef struct positions {
    pl_match *m[NSTATES];
    int seat[NSTATES];
    uint64_t seed[NSTATES];
} positions;

/* Plays random actions until some seat acting has a real choice (it may be
 * one of several acting at once); returns that seat. */
static int to_choice(pl_match *m, pl_rng *r)
{
    const pl_game *g = m->game;
    pl_action *acts = malloc(sizeof *acts * PL_MAX_ACTIONS);
    pl_buf err = {0};
    assert_non_null(acts);
    int seat = -1;
    while (seat < 0 && g->phase(m->state) != PL_PHASE_OVER) {
        if (g->phase(m->state) == PL_PHASE_CHANCE) {
            assert_int_equal(pl_match_random(m, NULL, &err), 0);
            continue;
        }
        int seats[PL_MAX_SEATS];
        int na = g->actors(m->state, seats);
        for (int i = 0; i < na && seat < 0; i++)
            if (g->legal(m->state, seats[i], acts, PL_MAX_ACTIONS) > 1)
                seat = seats[i];
        if (seat < 0) {
            int n = g->legal(m->state, seats[0], acts, PL_MAX_ACTIONS);
            assert_int_equal(pl_match_play(m, seats[0], acts[pl_rng_below(r, (uint32_t)n)], &err), 0);
        }
    }
    free(acts);
    pl_buf_free(&err);
    assert_true(seat >= 0);
    return seat;
}

/* Positions k = 0..NSTATES-1: seed k+1, then k random decisions past the
 * first choice, so that each lies at a different point of a game. */
static void make_positions(positions *ps, const char *game, const char *opts)
{
    for (int k = 0; k < NSTATES; k++) {
        char o[128];
        snprintf(o, sizeof o, "%s seed=%d", opts, k + 1);
        pl_match *m = th_new(game, o);
        pl_rng r;
        pl_rng_seed(&r, (uint64_t)k + 11);
        int seat = to_choice(m, &r);
        pl_action *acts = malloc(sizeof *acts * PL_MAX_ACTIONS);
        assert_non_null(acts);
        for (int step = 0; step < k; step++) {
            int n = m->game->legal(m->state, seat, acts, PL_MAX_ACTIONS);
            pl_buf err = {0};
            assert_int_equal(pl_match_play(m, seat, acts[pl_rng_below(&r, (uint32_t)n)], &err), 0);
            if (m->game->phase(m->state) == PL_PHASE_OVER) { /* keep the last position with a choice */
                assert_int_equal(pl_match_undo(m, &err), 0);
                pl_buf_free(&err);
                break;
            }
            pl_buf_free(&err);
            seat = to_choice(m, &r);
        }
        free(acts);
        ps->m[k] = m;
        ps->seat[k] = seat;
        ps->seed[k] = 1000 + (uint64_t)k * 7919;
    }
}

static void free_positions(positions *ps)
{
    for (int k = 0; k < NSTATES; k++)
        pl_match_free(ps->m[k]);
}

typedef struct worker_arg {
    const ai_player *p;
    const positions *ps;
    int first; /* each thread starts at another position */
    pl_action got[ROUNDS][NSTATES];
    int rc[ROUNDS][NSTATES];
} worker_arg;

/* No cmocka assertions here (not thread-safe): results go back to the test. */
static void *worker(void *arg)
{
    worker_arg *w = arg;
    for (int round = 0; round < ROUNDS; round++)
        for (int j = 0; j < NSTATES; j++) {
            int k = (w->first + j) % NSTATES;
            pl_buf err = {0};
            w->rc[round][k] = ai_player_choose(w->p, w->ps->m[k]->state, w->ps->seat[k], w->ps->seed[k],
                                               &w->got[round][k], &err);
            pl_buf_free(&err);
        }
    return NULL;
}

/* Every spec in `specs`: one player, NTHREADS threads choosing at once on
 * the positions, each choice equal to the single-threaded one. */
static void check_shared(const char *game, const char *opts, const char *const *specs, int nspecs)
{
    positions ps;
    make_positions(&ps, game, opts);
    const pl_game *g = ps.m[0]->game;
    for (int i = 0; i < nspecs; i++) {
        pl_buf err = {0};
        ai_player *p = ai_player_new(g, specs[i], &err);
        if (!p)
            fail_msg("%s %s: %s", game, specs[i], pl_buf_str(&err));
        pl_action want[NSTATES];
        for (int k = 0; k < NSTATES; k++) {
            if (ai_player_choose(p, ps.m[k]->state, ps.seat[k], ps.seed[k], &want[k], &err) < 0)
                fail_msg("%s %s, position %d: %s", game, specs[i], k, pl_buf_str(&err));
            assert_int_equal(pl_check(g, ps.m[k]->state, ps.seat[k], want[k], &err), 0);
        }
        static worker_arg w[NTHREADS];
        pthread_t th[NTHREADS];
        for (int t = 0; t < NTHREADS; t++) {
            memset(&w[t], 0, sizeof w[t]);
            w[t].p = p;
            w[t].ps = &ps;
            w[t].first = t % NSTATES;
            assert_int_equal(pthread_create(&th[t], NULL, worker, &w[t]), 0);
        }
        for (int t = 0; t < NTHREADS; t++)
            assert_int_equal(pthread_join(th[t], NULL), 0);
        for (int t = 0; t < NTHREADS; t++)
            for (int round = 0; round < ROUNDS; round++)
                for (int k = 0; k < NSTATES; k++) {
                    if (w[t].rc[round][k] != 0)
                        fail_msg("%s %s: thread %d failed at position %d", game, specs[i], t, k);
                    if (w[t].got[round][k] != want[k])
                        fail_msg("%s %s: thread %d chose %llx at position %d, alone %llx", game, specs[i], t,
                                 (unsigned long long)w[t].got[round][k], k, (unsigned long long)want[k]);
                }
        ai_player_free(p);
        pl_buf_free(&err);
    }
    free_positions(&ps);
}

static void test_shared_players_ur(void **s)
{
    (void)s;
    const char *specs[] = {"random", "greedy", "expectimax:depth=2", "easy", "mcts:iterations=150",
                           "mcts:iterations=150,threads=2"};
    check_shared("ur", "pieces=3", specs, sizeof specs / sizeof *specs);
}

static void test_shared_players_hidden_cards(void **s)
{
    (void)s;
    const char *cbw[] = {"easy", "ismcts:iterations=60"};
    check_shared("cbw", "", cbw, 2);
    const char *tc[] = {"policy", "easy"};
    check_shared("tamcuc", "", tc, 2);
    const char *kar[] = {"bot:champion", "easy"};
    check_shared("karuta", "", kar, 2);
}

static void test_shared_perfect_players(void **s)
{
    (void)s;
    char spec[128];
    snprintf(spec, sizeof spec, "perfect:%s", finkel_table);
    const char *f[] = {spec};
    check_shared("ur", "rules=finkel pieces=2", f, 1);
    char spec2[128];
    snprintf(spec2, sizeof spec2, "perfect:%s", generic_table);
    const char *gen[] = {spec2};
    check_shared("ur", "rules=finkel pieces=2", gen, 1);
}
/* Every field but the time. */
static int same_results(const ai_arena_result *a, const ai_arena_result *b)
{
    int same = a->games == b->games && a->nseats == b->nseats && a->stopped == b->stopped &&
               a->actions == b->actions && a->elo == b->elo && a->elo_lo == b->elo_lo && a->elo_hi == b->elo_hi;
    for (int p = 0; p < AI_ARENA_MAXP; p++) {
        same = same && a->wins[p] == b->wins[p] && a->draws[p] == b->draws[p] && a->losses[p] == b->losses[p];
        same = same && a->score[p] == b->score[p] && a->ci95[p] == b->ci95[p] && a->points[p] == b->points[p];
        for (int s = 0; s < PL_MAX_SEATS; s++)
            same = same && a->seat_games[s][p] == b->seat_games[s][p];
    }
    return same;
}

/* The arena's players are made once and shared by its threads: 2 and 4
 * threads give the results of one, field by field (the time excepted). */
static void test_arena_threads_equal_one_thread(void **s)
{
    (void)s;
    char perfect[128], perfect2[128];
    snprintf(perfect, sizeof perfect, "perfect:%s", finkel_table);
    snprintf(perfect2, sizeof perfect2, "perfect:%s", generic_table);
    char *finkel[] = {"rules=finkel", "pieces=2"};
    char *ur3[] = {"pieces=3"};
    struct {
        const char *game;
        char **opts;
        int nopts;
        const char *a, *b;
        long games;
    } cases[] = {
        {"ur", finkel, 2, perfect, "mcts:iterations=40", 8},
        {"ur", finkel, 2, perfect, perfect, 4}, /* one table shared by both seats */
        {"ur", finkel, 2, perfect2, "greedy", 8},
        {"ur", ur3, 1, "mcts:iterations=40,threads=2", "expectimax:depth=1", 4},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        ai_arena_result one = th_arena(cases[c].game, cases[c].opts, cases[c].nopts, cases[c].a,
                                       cases[c].b, cases[c].games, 1, 9);
        assert_int_equal(one.games, cases[c].games);
        for (int threads = 2; threads <= 4; threads += 2) {
            ai_arena_result r = th_arena(cases[c].game, cases[c].opts, cases[c].nopts, cases[c].a,
                                         cases[c].b, cases[c].games, threads, 9);
            if (!same_results(&r, &one))
                fail_msg("case %zu: %d threads: wins %ld/%ld actions %ld, one thread: wins %ld/%ld actions %ld",
                         c, threads, r.wins[0], r.wins[1], r.actions, one.wins[0], one.wins[1], one.actions);
        }
    }
}

/* Making a player checks everything a choice would need, up front. */
static void test_player_errors(void **s)
{
    (void)s;
    const pl_game *ur = pl_game_find("ur");
    pl_buf err = {0};
    assert_null(ai_player_new(ur, "nobody", &err));
    assert_non_null(strstr(pl_buf_str(&err), "unknown player 'nobody'"));
    pl_buf_clear(&err);
    assert_null(ai_player_new(ur, "perfect:no-such-table.tbl", &err));
    assert_non_null(strstr(pl_buf_str(&err), "perfect: cannot open no-such-table.tbl"));
    pl_buf_clear(&err);
    assert_null(ai_player_new(pl_game_find("cbw"), "policy", &err));
    assert_non_null(strstr(pl_buf_str(&err), "no heuristic policy"));
    pl_buf_clear(&err);
    /* a table of another game's options: refused at the first position it lacks */
    char spec[128];
    snprintf(spec, sizeof spec, "perfect:%s", finkel_table);
    ai_player *p = ai_player_new(ur, spec, &err);
    assert_non_null(p);
    pl_match *m = th_new("ur", "rules=finkel pieces=3 seed=3");
    th_play(m, "roll 1");
    pl_action a = 12345;
    assert_int_equal(ai_player_choose(p, m->state, 0, 1, &a, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "does not hold"));
    assert_true(a == 12345);
    pl_buf_clear(&err);
    assert_int_equal(ai_player_choose(p, m->state, 1, 1, &a, &err), -1); /* not acting */
    assert_non_null(strstr(pl_buf_str(&err), "seat 1 does not act now"));
    ai_player_free(p);
    ai_player_free(NULL);
    pl_match_free(m);
    pl_buf_free(&err);
}

/* One protocol request; returns its answer (static buffer, framing included). */
static const char *ask(pl_proto *p, const char *line)
{
    static char answer[4096];
    pl_buf out = {0};
    pl_proto_line(p, line, strlen(line), &out);
    snprintf(answer, sizeof answer, "%s", pl_buf_str(&out));
    pl_buf_free(&out);
    return answer;
}

/* Draws chance outcomes until a seat is to move. */
static void to_move(pl_proto *p)
{
    for (int i = 0; i < 100 && strstr(ask(p, "legal"), " p="); i++)
        assert_int_equal(ask(p, "random")[0], '=');
    assert_null(strstr(ask(p, "legal"), " p="));
}

/* The protocol session makes a genmove's player once and keeps it while the
 * game and spec stay the same: with its table file gone, the kept player
 * still plays; a new spec replaces it, and then the table is missed. */
static void test_protocol_keeps_its_player(void **s)
{
    (void)s;
    const char *copy = "test_threads_proto.tbl";
    FILE *in = fopen(finkel_table, "rb"), *out = fopen(copy, "wb");
    assert_non_null(in);
    assert_non_null(out);
    char buf[1 << 14];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        assert_int_equal(fwrite(buf, 1, n, out), n);
    fclose(in);
    fclose(out);
    char genmove[128];
    snprintf(genmove, sizeof genmove, "genmove perfect:%s", copy);
    pl_proto *p = pl_proto_new();
    assert_non_null(p);
    assert_int_equal(ask(p, "new ur rules=finkel pieces=2 seed=5")[0], '=');
    to_move(p);
    assert_int_equal(ask(p, genmove)[0], '=');
    assert_int_equal(remove(copy), 0);
    for (int i = 0; i < 3; i++) {
        to_move(p);
        const char *a = ask(p, genmove);
        if (a[0] != '=')
            fail_msg("genmove with the kept player: %s", a);
    }
    to_move(p);
    assert_int_equal(ask(p, "genmove random")[0], '=');
    to_move(p);
    char before[4096];
    snprintf(before, sizeof before, "%s", ask(p, "history"));
    const char *a = ask(p, genmove);
    assert_int_equal(a[0], '?');
    assert_non_null(strstr(a, "cannot open test_threads_proto.tbl"));
    assert_string_equal(ask(p, "history"), before); /* the failed genmove changed nothing */
    pl_proto_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_players_ur),
        cmocka_unit_test(test_shared_players_hidden_cards),
        cmocka_unit_test(test_shared_perfect_players),
        cmocka_unit_test(test_arena_threads_equal_one_thread),
        cmocka_unit_test(test_player_errors),
        cmocka_unit_test(test_protocol_keeps_its_player),
    };
    return cmocka_run_group_tests(tests, make_tables, remove_tables);
}
