/* test_property_cbw_random.c — City Behind Walls over many random games with
 * random options: after every move the table keeps its invariants (no equal
 * suits side by side, span within W x H, every group has a liberty, cards
 * conserved, incremental groups equal a recomputation), fixed edges never
 * move, scores stay within bounds, the game ends, position text and records
 * round-trip, views hide other hands, determinized states are consistent,
 * and the fast legal-move generator agrees with a slow one. */
#include <time.h>

#include "cbw_util.h"
#include "parlour/record.h"

#define NGAMES 10000

static void random_options(pl_rng *r, char *o, size_t n, int seed)
{
    static const char *const players[3] = {"2", "4", "6"};
    int deck = pl_rng_below(r, 2) ? 52 : 36;
    int len = snprintf(o, n, "seed=%d players=%s deck=%d first=%s", seed, players[pl_rng_below(r, 3)], deck,
                       pl_rng_below(r, 2) ? "random" : pl_rng_below(r, 2) ? "red" : "black");
    if (pl_rng_below(r, 2)) /* half the games on other Rectangles, small ones often */
        len += snprintf(o + len, n - (size_t)len, " w=%u", 1 + (pl_rng_below(r, 2) ? pl_rng_below(r, 6)
                                                                                 : pl_rng_below(r, 16)));
    if (pl_rng_below(r, 2))
        snprintf(o + len, n - (size_t)len, " h=%u", 1 + (pl_rng_below(r, 2) ? pl_rng_below(r, 4)
                                                                          : pl_rng_below(r, 16)));
}

static void check_state(pl_match *m)
{
    pl_buf err = {0};
    if (cbw_check(cbw_st(m), &err) < 0)
        fail_msg("invariant broken: %s; position %s", pl_buf_str(&err), th_pos(m));
    pl_buf_free(&err);
}

/* The position text read back gives the same text. */
static void check_text_roundtrip(pl_match *m)
{
    const pl_game *g = m->game;
    void *copy = pl_malloc(g->state_size);
    assert_non_null(copy);
    pl_state_copy(g, copy, m->initial); /* same options, another position */
    pl_buf t1 = {0}, t2 = {0}, err = {0};
    g->to_text(m->state, &t1);
    if (g->from_text(copy, pl_buf_str(&t1), &err) < 0)
        fail_msg("from_text(%s): %s", pl_buf_str(&t1), pl_buf_str(&err));
    g->to_text(copy, &t2);
    assert_string_equal(pl_buf_str(&t1), pl_buf_str(&t2));
    pl_buf_free(&t1);
    pl_buf_free(&t2);
    pl_buf_free(&err);
    pl_free(copy);
}

/* No card of another seat's hand is a word of `seat`'s view. */
static void check_view(pl_match *m, int seat)
{
    const cbw_state *s = cbw_st(m);
    pl_buf v = {0};
    m->game->view(m->state, seat, &v);
    uint64_t others = 0;
    for (int i = 0; i < s->nseats; i++)
        if (i != seat && !(s->players == 2 && cbw_team(i) == cbw_team(seat)))
            others |= s->hand[i];
    char *text = pl_strdup(pl_buf_str(&v));
    char *save = NULL;
    for (char *w = strtok_r(text, " \n:@", &save); w; w = strtok_r(NULL, " \n:@", &save)) {
        const char *t = w;
        int k = cbw_card_parse(&t);
        if (k >= 0 && !*t && ((others >> k) & 1))
            fail_msg("view of seat %d shows %s of another seat", seat, w);
    }
    pl_free(text);
    pl_buf_free(&v);
}

static void check_determinize(pl_match *m, int seat, pl_rng *r)
{
    const cbw_state *s = cbw_st(m);
    cbw_state d;
    m->game->determinize(s, seat, r, &d);
    assert_true(d.hand[seat] == s->hand[seat]);
    uint64_t team[2] = {0, 0}, dteam[2] = {0, 0};
    for (int i = 0; i < s->nseats; i++) {
        assert_int_equal(__builtin_popcountll(d.hand[i]), __builtin_popcountll(s->hand[i]));
        team[cbw_team(i)] |= s->hand[i];
        dteam[cbw_team(i)] |= d.hand[i];
    }
    assert_true(team[0] == dteam[0] && team[1] == dteam[1]);
    assert_true(d.table == s->table);
    pl_buf err = {0};
    if (cbw_check(&d, &err) < 0)
        fail_msg("determinized state: %s", pl_buf_str(&err));
    pl_buf_free(&err);
}

static void test_property_cbw_random_games(void **state)
{
    (void)state;
    const pl_game *g = pl_game_find("cbw");
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    pl_rng r;
    pl_rng_seed(&r, 2024);
    long moves = 0, captures = 0, fixings = 0, wins[3] = {0, 0, 0};
    clock_t t0 = clock();
    for (int game = 0; game < NGAMES; game++) {
        char o[256];
        random_options(&r, o, sizeof o, game + 1);
        pl_match *m = cbw_new(o);
        const cbw_state *s = cbw_st(m);
        int ncards = s->deck, maxturns = s->nseats * (ncards + 1), turns = 0;
        int fx = 0, fy = 0, span[4] = {0, 0, 0, 0};
        int pass_bias = (int)pl_rng_below(&r, 4); /* some games pass a lot, some never */
        while (g->phase(m->state) != PL_PHASE_OVER) {
            pl_buf err = {0};
            if (g->phase(m->state) == PL_PHASE_CHANCE) {
                assert_int_equal(pl_match_random(m, NULL, &err), 0);
                pl_buf_free(&err);
                continue;
            }
            int seat = pl_sole_actor(g, m->state);
            int n = g->legal(m->state, seat, acts, PL_MAX_ACTIONS);
            assert_true(n >= 1); /* non-terminal => a legal action exists */
            assert_true(acts[n - 1] == CBW_ACT_PASS);
            int pick = (int)pl_rng_below(&r, (uint32_t)n);
            if (n > 1 && pass_bias == 0 && pick == n - 1)
                pick = (int)pl_rng_below(&r, (uint32_t)(n - 1)); /* mostly place */
            int before = __builtin_popcountll(s->prisoners[0] | s->prisoners[1]);
            if (pl_match_play(m, seat, acts[pick], &err) < 0)
                fail_msg("legal action refused: %s", pl_buf_str(&err));
            pl_buf_free(&err);
            moves++;
            captures += __builtin_popcountll(s->prisoners[0] | s->prisoners[1]) > before;
            assert_true(++turns <= maxturns);
            check_state(m);
            /* The span never shrinks; a fixed edge never moves. */
            if (s->started) {
                assert_true(s->x0 <= span[0] && s->x1 >= span[1] && s->y0 <= span[2] && s->y1 >= span[3]);
                if (fx)
                    assert_true(s->x0 == span[0] && s->x1 == span[1]);
                if (fy)
                    assert_true(s->y0 == span[2] && s->y1 == span[3]);
                span[0] = s->x0, span[1] = s->x1, span[2] = s->y0, span[3] = s->y1;
                fixings += (!fx && cbw_fixed_x(s)) + (!fy && cbw_fixed_y(s));
                fx = cbw_fixed_x(s), fy = cbw_fixed_y(s);
            }
            int sc[2];
            cbw_score(s, sc);
            assert_true(sc[0] >= 0 && sc[1] >= 0 && sc[0] + sc[1] <= ncards + s->w * s->h);
            if (turns % 5 == 0)
                check_text_roundtrip(m);
            if (turns % 11 == 0) {
                int vs = (int)pl_rng_below(&r, s->nseats);
                check_view(m, vs);
                check_determinize(m, vs, &r);
            }
        }
        check_text_roundtrip(m);
        pl_outcome out;
        g->outcome(m->state, &out);
        wins[out.kind == PL_WIN_DRAW ? 2 : out.winner]++;
        /* The record read back replays to the same position. */
        pl_buf rec = {0}, err = {0};
        assert_int_equal(pl_record_write(m, &rec), 0);
        pl_match *back = pl_record_read(pl_buf_str(&rec), &err);
        if (!back)
            fail_msg("record: %s", pl_buf_str(&err));
        char pos[4096];
        snprintf(pos, sizeof pos, "%s", th_pos(m));
        assert_string_equal(pos, th_pos(back));
        assert_int_equal(memcmp(back->state, m->state, g->state_size) == 0 ||
                             strcmp(pos, th_pos(back)) == 0,
                         1);
        pl_match_free(back);
        pl_buf_free(&rec);
        pl_buf_free(&err);
        pl_match_free(m);
    }
    print_message("%d games, %ld moves, %ld capturing moves, %ld fixings; red %ld black %ld draws %ld; %.1f s\n",
                   NGAMES, moves, captures, fixings, wins[0], wins[1], wins[2],
                   (double)(clock() - t0) / CLOCKS_PER_SEC);
    assert_true(captures > NGAMES / 10);
    assert_true(fixings > NGAMES / 2);
    pl_free(acts);
}

/* The incremental generator equals the slow one (every cell, every card,
 * each candidate judged by applying it to a copy). */
static void test_property_cbw_legal_matches_slow(void **state)
{
    (void)state;
    const pl_game *g = pl_game_find("cbw");
    pl_action *fast = pl_malloc(sizeof *fast * PL_MAX_ACTIONS), *slow = pl_malloc(sizeof *slow * PL_MAX_ACTIONS);
    pl_rng r;
    pl_rng_seed(&r, 77);
    long checked = 0;
    for (int game = 0; game < 300; game++) {
        char o[256];
        random_options(&r, o, sizeof o, 5000 + game);
        pl_match *m = cbw_new(o);
        int turn = 0;
        while (g->phase(m->state) != PL_PHASE_OVER) {
            if (g->phase(m->state) == PL_PHASE_CHANCE) {
                pl_buf e = {0};
                pl_match_random(m, NULL, &e);
                pl_buf_free(&e);
                continue;
            }
            int seat = pl_sole_actor(g, m->state);
            int n = g->legal(m->state, seat, fast, PL_MAX_ACTIONS);
            if (turn++ % 3 == 0) {
                int ns = cbw_legal_slow(cbw_st(m), seat, slow, PL_MAX_ACTIONS);
                if (ns != n || memcmp(fast, slow, sizeof *fast * (size_t)n))
                    fail_msg("fast %d vs slow %d legal actions in %s", n, ns, th_pos(m));
                checked++;
            }
            int pick = (int)pl_rng_below(&r, (uint32_t)n);
            if (n > 1 && pick == n - 1)
                pick = 0;
            g->apply(m->state, seat, fast[pick]);
        }
        pl_match_free(m);
    }
    print_message("%ld positions cross-checked\n", checked);
    pl_free(fast);
    pl_free(slow);
}

/* The same cross-check at every turn of games in small Rectangles, where
 * most placements fix an edge, capture or would be suicides (CBW-R9, R18,
 * R19): the fast generator judges cells that fix an axis from per-side
 * counts, which these games exercise. A short `cap` gives the same count
 * and the same first actions (the generator's checked path). */
static void test_property_cbw_legal_matches_slow_small_rectangles(void **state)
{
    (void)state;
    const pl_game *g = pl_game_find("cbw");
    pl_action *fast = pl_malloc(sizeof *fast * PL_MAX_ACTIONS), *slow = pl_malloc(sizeof *slow * PL_MAX_ACTIONS);
    pl_action *few = pl_malloc(sizeof *few * PL_MAX_ACTIONS);
    pl_rng r;
    pl_rng_seed(&r, 4242);
    long checked = 0;
    for (int game = 0; game < 600; game++) {
        static const char *const players[3] = {"2", "4", "6"};
        char o[256];
        snprintf(o, sizeof o, "seed=%d players=%s deck=%d first=random w=%u h=%u", 9000 + game,
                 players[pl_rng_below(&r, 3)], pl_rng_below(&r, 2) ? 52 : 36, 1 + pl_rng_below(&r, 5),
                 1 + pl_rng_below(&r, 4));
        pl_match *m = cbw_new(o);
        while (g->phase(m->state) != PL_PHASE_OVER) {
            if (g->phase(m->state) == PL_PHASE_CHANCE) {
                pl_buf e = {0};
                pl_match_random(m, NULL, &e);
                pl_buf_free(&e);
                continue;
            }
            int seat = pl_sole_actor(g, m->state);
            int n = g->legal(m->state, seat, fast, PL_MAX_ACTIONS);
            int ns = cbw_legal_slow(cbw_st(m), seat, slow, PL_MAX_ACTIONS);
            if (ns != n || memcmp(fast, slow, sizeof *fast * (size_t)n))
                fail_msg("fast %d vs slow %d legal actions in %s", n, ns, th_pos(m));
            int cap = (int)pl_rng_below(&r, (uint32_t)n + 1);
            assert_int_equal(g->legal(m->state, seat, few, cap), n);
            assert_int_equal(memcmp(few, fast, sizeof *few * (size_t)cap), 0);
            checked++;
            int pick = (int)pl_rng_below(&r, (uint32_t)n);
            if (n > 1 && pick == n - 1)
                pick = 0;
            g->apply(m->state, seat, fast[pick]);
        }
        pl_match_free(m);
    }
    print_message("%ld positions in small Rectangles cross-checked\n", checked);
    pl_free(fast);
    pl_free(slow);
    pl_free(few);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_property_cbw_random_games),
        cmocka_unit_test(test_property_cbw_legal_matches_slow),
        cmocka_unit_test(test_property_cbw_legal_matches_slow_small_rectangles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
