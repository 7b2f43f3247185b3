/* test_unit_rating.c — rating pools and the updates of one finished game
 * (src/core/rating.c, docs/ratings.md): pools of every game and variant,
 * two players exactly Glicko-2, teams against a composite opponent, Tam Cúc's
 * ranking as pairwise games, abandoning never paying, inactivity, and a
 * property run over thousands of random games. */
#include <math.h>
#include <string.h>

#include "helpers.h"
#include "parlour/rating.h"

/* Parses `opts` (space-separated KEY=VALUE words) for `game`; fails the test on error. */
static pl_rating_pool pool_of(const char *game, const char *opts)
{
    const pl_game *g = pl_game_find(game);
    assert_non_null(g);
    char buf[512], *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", opts);
    for (char *w = strtok(buf, " "); w && argc < 32; w = strtok(NULL, " "))
        argv[argc++] = w;
    pl_opts o;
    pl_buf err = {0};
    if (pl_opts_parse(&o, g->options, argc, argv, &err) < 0)
        fail_msg("%s %s: %s", game, opts, pl_buf_str(&err));
    pl_rating_pool p = pl_rating_pool_of(g, &o);
    pl_opts_free(&o);
    pl_buf_free(&err);
    return p;
}

static void expect_pool(const char *game, const char *opts, const char *key, const char *reason)
{
    pl_rating_pool p = pool_of(game, opts);
    if (strcmp(p.key, key) || (reason ? !p.reason || strcmp(p.reason, reason) : p.reason != NULL) ||
        p.rated != (reason == NULL))
        fail_msg("%s %s: pool %s (%s), expected %s (%s)", game, opts, p.key, p.reason ? p.reason : "rated", key,
                 reason ? reason : "rated");
}

static void test_pools_of_every_game_and_variant(void **state)
{
    (void)state;
    /* Ur: Skiryuk's and Finkel's games; who starts does not matter */
    expect_pool("ur", "", "ur/skiryuk", NULL);
    expect_pool("ur", "start=light", "ur/skiryuk", NULL);
    expect_pool("ur", "rules=finkel", "ur/finkel", NULL);
    expect_pool("ur", "pieces=3 start=light", "unrated", "variant");
    expect_pool("ur", "dice=d4 stack=any loop=opponent-first", "unrated", "variant");
    expect_pool("ur", "rules=finkel pieces=6", "unrated", "variant");
    /* City Behind Walls: by team size; who opens varies, not the deck or the board */
    expect_pool("cbw", "", "cbw/2v2", NULL);
    expect_pool("cbw", "first=red", "cbw/2v2", NULL);
    expect_pool("cbw", "players=6 first=black", "cbw/3v3", NULL);
    expect_pool("cbw", "players=6 deck=52", "unrated", "variant");
    expect_pool("cbw", "h=5", "unrated", "variant");
    expect_pool("cbw", "players=2 w=3 h=2", "unrated", "form");
    expect_pool("cbw", "players=2", "unrated", "form");
    expect_pool("cbw", "deck=52 w=16 h=16 first=black", "unrated", "variant");
    expect_pool("cbw", "deal=6h,7h/6s", "unrated", "deal");
    /* Tam Cúc: by players, one deal; who deals first varies */
    expect_pool("tamcuc", "", "tamcuc/4", NULL);
    expect_pool("tamcuc", "first_dealer=random dealer=2", "tamcuc/4", NULL);
    expect_pool("tamcuc", "players=3", "tamcuc/3", NULL);
    expect_pool("tamcuc", "players=2", "tamcuc/2", NULL);
    expect_pool("tamcuc", "session_end=deals:8", "unrated", "variant");
    expect_pool("tamcuc", "players=3 three_p_deck=deck_30", "unrated", "variant");
    expect_pool("tamcuc", "players=2 night_exchange=2", "unrated", "variant");
    expect_pool("tamcuc", "night_exchange=1 session_end=deals:2 soldier_special=autowin", "unrated", "variant");
    expect_pool("tamcuc", "deal=x", "unrated", "deal");
    /* karuta: kyōgi only, whatever its timing */
    expect_pool("karuta", "", "karuta/kyogi", NULL);
    expect_pool("karuta", "memo_s=0 tie_ms=0", "karuta/kyogi", NULL);
    expect_pool("karuta", "players=2 send=auto place=manual tempo=even", "karuta/kyogi", NULL);
    expect_pool("karuta", "rearrange=on", "unrated", "variant");
    expect_pool("karuta", "variant=uta", "unrated", "form");
    expect_pool("karuta", "variant=uta teams=2v2", "unrated", "form");
    expect_pool("karuta", "variant=chirashi cards=50", "unrated", "form");
    expect_pool("karuta", "variant=chirashi players=1", "unrated", "form");
    expect_pool("karuta", "owner_ms=100", "unrated", "variant");
    expect_pool("karuta", "players=4", "unrated", "variant");
    /* every registered game's every variant has a pool or a reason word */
    int n;
    const pl_game *const *gs = pl_games(&n);
    for (int i = 0; i < n; i++)
        for (const char *const *v = gs[i]->variants; v && *v; v++) {
            pl_rating_pool p = pool_of(gs[i]->id, *v);
            if (p.rated) {
                assert_null(p.reason);
                assert_true(!strncmp(p.key, gs[i]->id, strlen(gs[i]->id)) && p.key[strlen(gs[i]->id)] == '/');
            } else {
                assert_string_equal(p.key, "unrated");
                assert_non_null(p.reason);
                const char *words[] = {"game", "form", "variant", "deal"};
                bool known = false;
                for (int w = 0; w < 4; w++)
                    known |= !strcmp(p.reason, words[w]);
                assert_true(known);
            }
        }
    /* no game: unrated */
    pl_rating_pool none = pl_rating_pool_of(NULL, NULL);
    assert_false(none.rated);
    assert_string_equal(none.reason, "game");
}

static pl_rating_seat seat(double r, double rd, int team, int rank)
{
    pl_rating_seat s = {{r, rd, 0.06}, team, rank, false};
    return s;
}

static void update(const pl_rating_seat *s, int n, pl_glicko2 *out)
{
    pl_buf err = {0};
    if (pl_rating_update(s, n, out, &err) < 0)
        fail_msg("update: %s", pl_buf_str(&err));
    pl_buf_free(&err);
}

static void test_two_players_update_is_glicko2_update_directly(void **state)
{
    (void)state;
    const double cases[][4] = {{1500, 350, 1500, 350}, {1720, 80, 1390, 210}, {1200, 45, 1850, 60}};
    for (int c = 0; c < 3; c++)
        for (int result = 0; result < 3; result++) { /* seat 0 wins, draws, loses */
            pl_rating_seat s[2] = {seat(cases[c][0], cases[c][1], 0, result == 2),
                                   seat(cases[c][2], cases[c][3], 1, result == 0)};
            pl_glicko2 out[2];
            update(s, 2, out);
            double score = result == 0 ? 1.0 : result == 1 ? 0.5 : 0.0;
            pl_glicko2_game g0 = {s[1].player.rating, s[1].player.deviation, score};
            pl_glicko2_game g1 = {s[0].player.rating, s[0].player.deviation, 1.0 - score};
            pl_glicko2 d0 = pl_glicko2_update(s[0].player, &g0, 1, PL_RATING_TAU);
            pl_glicko2 d1 = pl_glicko2_update(s[1].player, &g1, 1, PL_RATING_TAU);
            assert_true(out[0].rating == d0.rating && out[0].deviation == d0.deviation &&
                        out[0].volatility == d0.volatility);
            assert_true(out[1].rating == d1.rating && out[1].deviation == d1.deviation &&
                        out[1].volatility == d1.volatility);
        }
}

/* Teams alternate seats as City Behind Walls' do (seat s is team s % 2). */
static void test_team_win_raises_every_winner_and_lowers_every_loser(void **state)
{
    (void)state;
    for (int per = 2; per <= 3; per++) { /* 2v2, 3v3 */
        const double r[6] = {1620, 1480, 1390, 1710, 1505, 1555}, rd[6] = {90, 200, 60, 140, 300, 75};
        pl_rating_seat s[6];
        for (int i = 0; i < 2 * per; i++)
            s[i] = seat(r[i], rd[i], i % 2, i % 2); /* team 0 wins */
        pl_glicko2 out[6];
        update(s, 2 * per, out);
        for (int i = 0; i < 2 * per; i++) {
            if (i % 2 == 0)
                assert_true(out[i].rating > s[i].player.rating);
            else
                assert_true(out[i].rating < s[i].player.rating);
            assert_true(out[i].deviation <= PL_RATING_RD_MAX && out[i].deviation >= PL_RATING_RD_MIN);
        }
        /* one game each: a member's change is his own game against the
         * other team as one player, mean rating, RD = sqrt(mean RD²) */
        double m = 0, v = 0;
        for (int i = 1; i < 2 * per; i += 2) {
            m += r[i] / per;
            v += rd[i] * rd[i] / per;
        }
        pl_glicko2_game g = {m, sqrt(v), 1.0};
        pl_glicko2 d = pl_glicko2_update(s[0].player, &g, 1, PL_RATING_TAU);
        assert_true(fabs(out[0].rating - d.rating) < 1e-9 && fabs(out[0].deviation - d.deviation) < 1e-9);
    }
}

static void test_symmetric_teams_get_symmetric_changes(void **state)
{
    (void)state;
    for (int per = 2; per <= 3; per++) {
        const double r[3] = {1580, 1420, 1500}, rd[3] = {120, 80, 250};
        pl_rating_seat s[6];
        for (int i = 0; i < per; i++) { /* team 1 mirrors team 0 */
            s[2 * i] = seat(r[i], rd[i], 0, 0);
            s[2 * i + 1] = seat(r[i], rd[i], 1, 1);
        }
        pl_glicko2 a_wins[6], b_wins[6], draw[6];
        update(s, 2 * per, a_wins);
        for (int i = 0; i < 2 * per; i++)
            s[i].rank = i % 2 == 0;
        update(s, 2 * per, b_wins);
        for (int i = 0; i < 2 * per; i++)
            s[i].rank = 0;
        update(s, 2 * per, draw);
        for (int i = 0; i < per; i++) {
            /* a member's change when his team wins is his mirror's when the other team wins */
            assert_true(a_wins[2 * i].rating > r[i] && a_wins[2 * i + 1].rating < r[i]);
            assert_true(fabs(a_wins[2 * i].rating - b_wins[2 * i + 1].rating) < 1e-9);
            assert_true(fabs(a_wins[2 * i + 1].rating - b_wins[2 * i].rating) < 1e-9);
            assert_true(fabs(a_wins[2 * i].deviation - b_wins[2 * i + 1].deviation) < 1e-9);
            /* mirrored teams drawing: mirrors move alike */
            assert_true(fabs(draw[2 * i].rating - draw[2 * i + 1].rating) < 1e-9);
        }
        /* members all alike: the winners' gain is the losers' loss */
        for (int i = 0; i < 2 * per; i++)
            s[i] = seat(1530, 140, i % 2, i % 2);
        update(s, 2 * per, a_wins);
        double sum = 0;
        for (int i = 0; i < 2 * per; i++)
            sum += a_wins[i].rating - 1530;
        assert_true(a_wins[0].rating > 1530 && fabs(sum) < 1e-9);
    }
}

static void test_tamcuc_four_ranking_first_gains_most_last_loses_most(void **state)
{
    (void)state;
    pl_rating_seat s[4];
    for (int i = 0; i < 4; i++)
        s[i] = seat(1500, 200, i, 3 - i); /* seat 3 first, seat 0 last */
    pl_glicko2 out[4];
    update(s, 4, out);
    double sum = 0;
    for (int i = 0; i < 4; i++)
        sum += out[i].rating - 1500;
    assert_true(out[3].rating > out[2].rating && out[2].rating > out[1].rating && out[1].rating > out[0].rating);
    assert_true(out[3].rating > 1500 && out[0].rating < 1500);
    assert_true(fabs(sum) < 1e-6); /* equal players: the changes cancel */
    /* each seat's change is three games in one period, by rank */
    pl_glicko2_game g[3] = {{1500, 200, 1}, {1500, 200, 1}, {1500, 200, 0}};
    pl_glicko2 d = pl_glicko2_update(s[2].player, g, 3, PL_RATING_TAU);
    assert_true(fabs(out[2].rating - d.rating) < 1e-9);
    /* shared first place: the two draw each other and gain alike */
    s[0].rank = 0;
    s[1].rank = 0;
    s[2].rank = 2;
    s[3].rank = 3;
    update(s, 4, out);
    assert_true(fabs(out[0].rating - out[1].rating) < 1e-9 && out[0].rating > out[2].rating);
}

/* The leaver's rating after abandoning, against every finished result. */
static void test_abandoning_never_rates_the_leaver_above_losing(void **state)
{
    (void)state;
    pl_rng r;
    pl_rng_seed(&r, 33);
    const int shapes[][2] = {{2, 2}, {4, 2}, {6, 2}, {3, 3}, {4, 4}}; /* seats, sides */
    for (int t = 0; t < 2000; t++) {
        int ns = shapes[t % 5][0], nsides = shapes[t % 5][1];
        pl_rating_seat s[6];
        for (int i = 0; i < ns; i++)
            s[i] = seat(1000 + (double)pl_rng_below(&r, 1200), 30 + (double)pl_rng_below(&r, 320), i % nsides, 0);
        int leaver = (int)pl_rng_below(&r, (uint32_t)ns);
        /* the worst the leaver could do by finishing: his side last */
        double worst = INFINITY, best_left = -INFINITY;
        for (int res = 0; res < 8; res++) {
            int lastside = res % nsides;
            for (int i = 0; i < ns; i++)
                s[i].rank = i % nsides == lastside ? nsides - 1 : (i % nsides + res) % (nsides - 1);
            pl_glicko2 out[6];
            update(s, ns, out);
            if (lastside == leaver % nsides)
                worst = fmin(worst, out[leaver].rating);
            pl_buf err = {0};
            assert_int_equal(pl_rating_abandon(s, ns, leaver, &err), 0);
            update(s, ns, out);
            best_left = fmax(best_left, out[leaver].rating);
            s[leaver].left = false;
        }
        /* whatever the seat's result when the computer finished it */
        assert_true(best_left <= worst + 1e-9);
    }
    /* two players: abandoning is exactly a loss */
    pl_rating_seat s[2] = {seat(1600, 90, 0, 0), seat(1550, 120, 1, 1)};
    pl_glicko2 lost[2], left[2];
    s[0].rank = 1;
    s[1].rank = 0;
    update(s, 2, lost);
    s[0].rank = 0;
    s[1].rank = 1;
    pl_buf err = {0};
    assert_int_equal(pl_rating_abandon(s, 2, 0, &err), 0);
    update(s, 2, left);
    assert_true(left[0].rating == lost[0].rating && left[0].deviation == lost[0].deviation);
    assert_int_equal(pl_rating_abandon(s, 2, 2, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "no seat 2"));
    pl_buf_free(&err);
}

/* Staying never costs (issue 33 §2: the leaver's side forfeits): when the
 * computer that finished a leaver's seat wins on the board, everyone of
 * another side is still rated as winning against that side; the leaver's
 * teammate keeps the board's result; other sides among themselves too. */
static void test_abandoning_the_others_win_against_the_leaver_s_side(void **state)
{
    (void)state;
    pl_buf err = {0};
    /* two players: the leaver's seat (0) won on the board */
    pl_rating_seat s[4] = {seat(1600, 90, 0, 0), seat(1550, 120, 1, 1)};
    assert_int_equal(pl_rating_abandon(s, 2, 0, &err), 0);
    pl_glicko2 out[4];
    update(s, 2, out);
    pl_glicko2_game won = {1600, 90, 1.0};
    pl_glicko2 d = pl_glicko2_update(s[1].player, &won, 1, PL_RATING_TAU);
    assert_true(out[1].rating == d.rating && out[1].rating > 1550);
    assert_true(out[0].rating < 1600);
    /* 2v2 (seat s is team s % 2): seat 0 left, its team won on the board */
    for (int i = 0; i < 4; i++)
        s[i] = seat(1500, 200, i % 2, i % 2);
    assert_int_equal(pl_rating_abandon(s, 4, 0, &err), 0);
    update(s, 4, out);
    assert_true(out[1].rating > 1500 && out[3].rating > 1500); /* the other team wins */
    assert_true(out[0].rating < 1500);                         /* the leaver loses */
    assert_true(out[2].rating > 1500);                         /* the teammate keeps the board's win */
    /* Tam Cúc for three: the leaver's seat (1) first on the board */
    pl_rating_seat t[3] = {seat(1500, 200, 0, 1), seat(1500, 200, 1, 0), seat(1500, 200, 2, 2)};
    assert_int_equal(pl_rating_abandon(t, 3, 1, &err), 0);
    update(t, 3, out);
    assert_true(out[1].rating < 1500);
    assert_true(out[0].rating > out[2].rating); /* 0 beat 2 on the board; both beat the leaver */
    pl_glicko2_game g2[2] = {{1500, 200, 1.0}, {1500, 200, 0.0}};
    pl_glicko2 d2 = pl_glicko2_update(t[2].player, g2, 2, PL_RATING_TAU);
    assert_true(fabs(out[2].rating - d2.rating) < 1e-9);
    pl_buf_free(&err);
}

static void test_bad_input_is_refused_with_a_message(void **state)
{
    (void)state;
    pl_rating_seat s[3] = {seat(1500, 100, 0, 0), seat(1500, 100, 1, 1), seat(1500, 100, 0, 1)};
    pl_glicko2 out[3] = {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}};
    pl_buf err = {0};
    assert_int_equal(pl_rating_update(s, 1, out, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "seats"));
    pl_buf_clear(&err);
    assert_int_equal(pl_rating_update(s, 3, out, &err), -1); /* team 0: ranks 0 and 1 */
    assert_non_null(strstr(pl_buf_str(&err), "different ranks"));
    pl_buf_clear(&err);
    s[1].team = 0;
    s[2].rank = 0;
    s[1].rank = 0;
    assert_int_equal(pl_rating_update(s, 3, out, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "one side"));
    pl_buf_clear(&err);
    s[1].team = 1;
    s[1].player.rating = NAN;
    assert_int_equal(pl_rating_update(s, 2, out, &err), -1);
    pl_buf_clear(&err);
    s[1].player.rating = 1500;
    s[1].player.deviation = 0;
    assert_int_equal(pl_rating_update(s, 2, out, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "seat 1"));
    assert_true(out[0].rating == 1 && out[2].volatility == 1); /* untouched */
    /* a game not over */
    pl_match *m = th_new("ur", "seed=1");
    pl_rating_seat rs[2];
    pl_buf_clear(&err);
    assert_int_equal(pl_rating_result(m->game, m->state, rs, 2, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "not over"));
    pl_match_free(m);
    pl_buf_free(&err);
}

/* Where Glicko-2 alone would leave the bounds, the update keeps them. */
static void test_bounds_hold_where_glicko2_alone_leaves_them(void **state)
{
    (void)state;
    /* settled, steady players all drawing in an eight-sided game: RD would fall below 30 */
    pl_rating_seat s[8];
    for (int i = 0; i < 8; i++)
        s[i] = (pl_rating_seat){{1500, 30, 0.01}, i, 0, false};
    pl_glicko2 out[8];
    update(s, 8, out);
    pl_glicko2_game g[7];
    for (int j = 0; j < 7; j++)
        g[j] = (pl_glicko2_game){1500, 30, 0.5};
    assert_true(pl_glicko2_update(s[0].player, g, 7, PL_RATING_TAU).deviation < PL_RATING_RD_MIN);
    assert_true(out[0].deviation == PL_RATING_RD_MIN);
    /* a shock at the cap: σ would pass it */
    pl_rating_seat t[2] = {{{1200, 50, PL_RATING_VOL_MAX}, 0, 0, false}, {{2600, 30, 0.06}, 1, 1, false}};
    update(t, 2, out);
    pl_glicko2_game shock = {2600, 30, 1};
    assert_true(pl_glicko2_update(t[0].player, &shock, 1, PL_RATING_TAU).volatility > PL_RATING_VOL_MAX);
    assert_true(out[0].volatility == PL_RATING_VOL_MAX && out[0].rating > 1200);
}

/* Plays `m` to its end with the first legal action (random chance). */
static void play_out(pl_match *m)
{
    const pl_game *g = m->game;
    pl_buf err = {0};
    pl_action a[PL_MAX_ACTIONS];
    pl_rng r;
    pl_rng_seed(&r, 7);
    for (long k = 0; g->phase(m->state) != PL_PHASE_OVER && k < 100000; k++) {
        if (g->phase(m->state) == PL_PHASE_CHANCE) {
            assert_int_equal(pl_match_random(m, NULL, &err), 0);
            continue;
        }
        int seats[PL_MAX_SEATS];
        int na = g->actors(m->state, seats);
        int nl = g->legal(m->state, seats[0], a, PL_MAX_ACTIONS);
        assert_true(na > 0 && nl > 0);
        if (pl_match_play(m, seats[0], a[pl_rng_below(&r, (uint32_t)(nl < PL_MAX_ACTIONS ? nl : PL_MAX_ACTIONS))],
                          &err) < 0)
            fail_msg("%s", pl_buf_str(&err));
    }
    assert_int_equal(g->phase(m->state), PL_PHASE_OVER);
    pl_buf_free(&err);
}

static void test_result_of_finished_games_ranks_the_winner_first(void **state)
{
    (void)state;
    const char *games[][2] = {{"ur", "seed=3"}, {"cbw", "seed=4"}, {"tamcuc", "seed=5"}, {"tamcuc", "players=3 seed=6"}};
    for (int t = 0; t < 4; t++) {
        pl_match *m = th_new(games[t][0], games[t][1]);
        play_out(m);
        const pl_game *g = m->game;
        int n = g->num_seats(m->state);
        pl_rating_seat s[PL_MAX_SEATS];
        memset(s, 0, sizeof s);
        pl_buf err = {0};
        assert_int_equal(pl_rating_result(g, m->state, s, n + 1, &err), -1);
        assert_int_equal(pl_rating_result(g, m->state, s, n, &err), 0);
        pl_outcome out;
        memset(&out, 0, sizeof out);
        g->outcome(m->state, &out);
        for (int i = 0; i < n; i++) {
            assert_int_equal(s[i].team, g->team_of(m->state, i));
            if (out.kind == PL_WIN_SEAT)
                assert_int_equal(s[i].rank == 0, s[i].team == g->team_of(m->state, out.winner));
            if (out.kind == PL_WIN_TEAM)
                assert_int_equal(s[i].rank == 0, s[i].team == out.winner);
            for (int j = 0; j < n; j++) /* a higher score never ranks below */
                if (s[i].team != s[j].team && out.score[i] > out.score[j] && n > 2 && !strcmp(g->id, "tamcuc"))
                    assert_true(s[i].rank < s[j].rank || (out.kind == PL_WIN_SEAT && j == out.winner));
        }
        for (int i = 0; i < n; i++)
            s[i].player = pl_glicko2_new();
        pl_glicko2 res[PL_MAX_SEATS];
        update(s, n, res);
        pl_match_free(m);
        pl_buf_free(&err);
    }
}

static void test_idle_deviation_grows_per_day_to_the_ceiling(void **state)
{
    (void)state;
    pl_glicko2 p = {1700, 50, 0.06};
    pl_glicko2 one = pl_rating_idle(p, PL_RATING_IDLE_DAYS);
    pl_glicko2 period = pl_glicko2_update(p, NULL, 0, PL_RATING_TAU); /* Glicko-2's empty period */
    assert_true(fabs(one.deviation - period.deviation) < 1e-9 && one.rating == 1700 && one.volatility == 0.06);
    assert_true(pl_rating_idle(p, 0).deviation == 50 && pl_rating_idle(p, -3).deviation == 50);
    assert_true(pl_rating_idle(p, 30).deviation > pl_rating_idle(p, 10).deviation);
    assert_true(pl_rating_idle(p, 1e6).deviation == PL_RATING_RD_MAX);
    /* ten days at once is ten empty periods one after another */
    pl_glicko2 q = p;
    for (int d = 0; d < 10; d++)
        q = pl_glicko2_update(q, NULL, 0, PL_RATING_TAU);
    assert_true(fabs(pl_rating_idle(p, 10 * PL_RATING_IDLE_DAYS).deviation - q.deviation) < 1e-9);
}

/* Thousands of random games among 40 players of every shape, with leavers
 * and idle days: every rating stays finite and within its bounds. */
static void test_property_random_games_keep_ratings_sane(void **state)
{
    (void)state;
    enum { NP = 40 };
    pl_glicko2 pop[NP];
    double skill[NP];
    pl_rng r;
    pl_rng_seed(&r, 2026);
    for (int i = 0; i < NP; i++) {
        pop[i] = pl_glicko2_new();
        skill[i] = (double)pl_rng_below(&r, 1000);
    }
    const int shapes[][2] = {{2, 2}, {4, 2}, {6, 2}, {3, 3}, {4, 4}};
    for (int t = 0; t < 20000; t++) {
        int ns = shapes[pl_rng_below(&r, 5)][0], nsides = ns == 3 ? 3 : ns == 4 && pl_rng_below(&r, 2) ? 4 : 2;
        if (ns == 2)
            nsides = 2;
        int who[6];
        for (int i = 0; i < ns; i++) {
            bool again;
            do {
                who[i] = (int)pl_rng_below(&r, NP);
                again = false;
                for (int j = 0; j < i; j++)
                    again |= who[j] == who[i];
            } while (again);
        }
        /* sides ranked by their members' skill plus luck, a streaky player now and then */
        double perf[6] = {0};
        for (int i = 0; i < ns; i++)
            perf[i % nsides] += skill[who[i]] + (double)pl_rng_below(&r, 600);
        pl_rating_seat s[6];
        for (int i = 0; i < ns; i++) {
            int rank = 0;
            for (int k = 0; k < nsides; k++)
                rank += perf[k] > perf[i % nsides];
            s[i] = (pl_rating_seat){pop[who[i]], i % nsides, rank, false};
        }
        if (pl_rng_below(&r, 20) == 0)
            s[pl_rng_below(&r, (uint32_t)ns)].left = true;
        pl_glicko2 out[6];
        update(s, ns, out);
        for (int i = 0; i < ns; i++) {
            pl_glicko2 p = out[i];
            if (pl_rng_below(&r, 50) == 0)
                p = pl_rating_idle(p, (double)pl_rng_below(&r, 2000));
            assert_true(isfinite(p.rating) && p.rating > -5000 && p.rating < 8000);
            assert_true(p.deviation >= PL_RATING_RD_MIN && p.deviation <= PL_RATING_RD_MAX);
            assert_true(p.volatility > 0.0 && p.volatility <= PL_RATING_VOL_MAX);
            pop[who[i]] = p;
        }
    }
    /* the ratings found the skills: the best player above the worst */
    int best = 0, worst = 0;
    for (int i = 1; i < NP; i++) {
        best = skill[i] > skill[best] ? i : best;
        worst = skill[i] < skill[worst] ? i : worst;
    }
    assert_true(pop[best].rating > pop[worst].rating + 200);
}

/* data/ratings/levels.txt (scripts/level_ratings.sh) gives every pool's
 * levels a rating, an RD at least the floor and a count of games. */
static void test_levels_file_rates_every_pool_s_levels(void **state)
{
    (void)state;
    const char *pools[] = {"ur/skiryuk", "ur/finkel", "cbw/2v2",  "cbw/3v3",
                           "tamcuc/2",   "tamcuc/3",  "tamcuc/4", "karuta/kyogi"};
    const char *levels[] = {"easy", "medium", "hard"};
    char path[4096];
    snprintf(path, sizeof path, "%s/../data/ratings/levels.txt", PARLOUR_TESTS_DIR);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int found[8][3] = {{0}};
    char line[256];
    while (fgets(line, sizeof line, f)) {
        char pool[64], level[64];
        double rating, rd;
        long games;
        if (line[0] == '#')
            continue;
        assert_int_equal(sscanf(line, "%63s %63s %lf %lf %ld", pool, level, &rating, &rd, &games), 5);
        assert_true(rating > 0 && rating < 4000 && rd >= PL_RATING_RD_MIN && rd <= PL_RATING_RD_MAX && games > 0);
        for (int p = 0; p < 8; p++)
            for (int l = 0; l < 3; l++)
                found[p][l] += !strcmp(pool, pools[p]) && !strcmp(level, levels[l]);
    }
    fclose(f);
    for (int p = 0; p < 8; p++) {
        /* a pool the code names */
        char game[16];
        snprintf(game, sizeof game, "%.*s", (int)(strchr(pools[p], '/') - pools[p]), pools[p]);
        assert_non_null(pl_game_find(game));
        for (int l = 0; l < 3; l++)
            if (found[p][l] != 1)
                fail_msg("%s %s: %d lines in levels.txt", pools[p], levels[l], found[p][l]);
    }
    expect_pool("ur", "rules=finkel", "ur/finkel", NULL);
    expect_pool("tamcuc", "players=3", "tamcuc/3", NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pools_of_every_game_and_variant),
        cmocka_unit_test(test_two_players_update_is_glicko2_update_directly),
        cmocka_unit_test(test_team_win_raises_every_winner_and_lowers_every_loser),
        cmocka_unit_test(test_symmetric_teams_get_symmetric_changes),
        cmocka_unit_test(test_tamcuc_four_ranking_first_gains_most_last_loses_most),
        cmocka_unit_test(test_abandoning_never_rates_the_leaver_above_losing),
        cmocka_unit_test(test_abandoning_the_others_win_against_the_leaver_s_side),
        cmocka_unit_test(test_bad_input_is_refused_with_a_message),
        cmocka_unit_test(test_bounds_hold_where_glicko2_alone_leaves_them),
        cmocka_unit_test(test_result_of_finished_games_ranks_the_winner_first),
        cmocka_unit_test(test_idle_deviation_grows_per_day_to_the_ceiling),
        cmocka_unit_test(test_property_random_games_keep_ratings_sane),
        cmocka_unit_test(test_levels_file_rates_every_pool_s_levels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
