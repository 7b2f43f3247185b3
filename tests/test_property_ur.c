/* test_property_ur.c — random Ur games with random options, checking the
 * invariants of the rules after every action (issue #2):
 * piece conservation, stacks <= 4, blank and marked never share a square
 * outside eyes and safe squares, every piece stands where its path and side
 * allow (marked <=> path index >= 14), captures only on B1 B2 B4 B5 B8,
 * a non-terminal state always has an action, every game ends, position text,
 * copy, undo and record round-trips reproduce the state exactly. */
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "games/ur/ur.h"
#include "parlour/record.h"

#define GAMES 10000
#define MAX_ACTIONS 100000

static void random_options(pl_rng *r, char *out, size_t n, uint64_t seed)
{
    th_ur_options(r, out, n, seed);
}

static void check_invariants(const ur_state *s)
{
    int count[2] = {s->reserve[0] + s->off[0], s->reserve[1] + s->off[1]};
    for (int sq = 0; sq < UR_NSQ; sq++) {
        int h = s->h[sq], kind = ur_sq_kind(s, sq);
        assert_true(h <= 4);
        bool depot = !s->finkel && (kind == UR_SAFE || kind == UR_LANE_EYES || kind == UR_B7_EYES);
        if (!depot)
            assert_true(h <= 1); /* so blank and marked never share it */
        assert_int_equal(s->pc[sq] >> (2 * h), 0);
        for (int lv = 0; lv < h; lv++) {
            int q = (s->pc[sq] >> (2 * lv)) & 3;
            int idx = ur_path_idx(s, q & 1, sq, (q >> 1) & 1);
            assert_true(idx > 0);                      /* on its own path, right side up */
            assert_true(((q >> 1) & 1) == (idx >= 14 && !s->finkel)); /* marked <=> idx >= 14 */
            if (kind == UR_B7_EYES && !s->finkel)
                assert_int_equal(q & 1, s->pc[sq] & 1); /* one owner */
            count[q & 1]++;
        }
    }
    assert_int_equal(count[0], s->pieces);
    assert_int_equal(count[1], s->pieces);
}

static void test_UR_property_random_games(void **st)
{
    (void)st;
    pl_rng r;
    pl_rng_seed(&r, 20261129);
    const pl_game *g = &ur_game;
    long total_actions = 0, captures = 0;
    pl_action acts[64];
    for (int game = 0; game < GAMES; game++) {
        char opts[256];
        random_options(&r, opts, sizeof opts, pl_rng_next(&r) >> 1);
        pl_match *m = th_new("ur", opts);
        int undo_at = (int)pl_rng_below(&r, 200);
        pl_buf err = {0};
        for (int k = 0;; k++) {
            assert_true(k < MAX_ACTIONS); /* every game ends */
            const ur_state *s = m->state;
            check_invariants(s);
            /* Position text round-trip. */
            ur_state back;
            pl_buf t = {0};
            g->to_text(s, &t);
            memcpy(&back, s, sizeof back);
            if (g->from_text(&back, pl_buf_str(&t), &err) != 0)
                fail_msg("%s: %s", pl_buf_str(&t), pl_buf_str(&err));
            assert_memory_equal(&back, s, sizeof back);
            pl_buf_free(&t);
            pl_phase ph = g->phase(s);
            if (ph == PL_PHASE_OVER)
                break;
            int seat, n;
            pl_action a;
            if (ph == PL_PHASE_CHANCE) {
                double p[64];
                n = g->chance(s, acts, p, 64);
                assert_true(n > 0);
                seat = PL_CHANCE;
                a = pl_draw_chance(g, s, &r);
            } else {
                seat = pl_sole_actor(g, s);
                assert_true(seat >= 0);
                n = g->legal(s, seat, acts, 64);
                assert_true(n > 0 && n <= 64); /* non-terminal => an action */
                a = acts[pl_rng_below(&r, (uint32_t)n)];
            }
            ur_state before;
            memcpy(&before, s, sizeof before);
            if (pl_match_play(m, seat, a, &err) != 0)
                fail_msg("legal action refused: %s", pl_buf_str(&err));
            s = m->state;
            /* Captures only where the rules allow them. */
            if (seat != PL_CHANCE && s->reserve[seat ^ 1] > before.reserve[seat ^ 1]) {
                captures++;
                int sq = (int)((a >> 2) & 31);
                int lv = before.h[sq] - 1 - (int)(a & 3);
                int q = (before.pc[sq] >> (2 * lv)) & 3;
                int j = a == UR_ACT_ENTER ? before.roll
                                          : ur_path_idx(&before, seat, sq, (q >> 1) & 1) + before.roll;
                int t2 = ur_path_sq(&before, seat, j);
                if (before.finkel)
                    assert_true(t2 >= UR_B1 && t2 <= UR_B8 && t2 != UR_B4);
                else
                    assert_true(t2 == UR_B1 || t2 == UR_B2 || t2 == UR_B4 || t2 == UR_B5 || t2 == UR_B8);
            }
            /* Copy then apply equals apply. */
            ur_state copy;
            pl_state_copy(g, &copy, &before);
            g->apply(&copy, seat, a);
            assert_memory_equal(&copy, s, sizeof copy);
            /* Undo restores exactly, once per game. */
            if (k == undo_at) {
                ur_state after;
                memcpy(&after, s, sizeof after);
                assert_int_equal(pl_match_undo(m, &err), 0);
                assert_memory_equal(m->state, &before, sizeof before);
                assert_int_equal(pl_match_play(m, seat, a, &err), 0);
                assert_memory_equal(m->state, &after, sizeof after);
            }
            total_actions++;
        }
        /* Record round-trip. */
        pl_buf rec = {0};
        assert_int_equal(pl_record_write(m, &rec), 0);
        pl_match *back = pl_record_read(pl_buf_str(&rec), &err);
        if (!back)
            fail_msg("record did not load: %s", pl_buf_str(&err));
        assert_int_equal(back->nhist, m->nhist);
        assert_memory_equal(back->state, m->state, sizeof(ur_state));
        pl_buf rec2 = {0};
        assert_int_equal(pl_record_write(back, &rec2), 0);
        assert_string_equal(pl_buf_str(&rec), pl_buf_str(&rec2));
        pl_buf_free(&rec);
        pl_buf_free(&rec2);
        pl_buf_free(&err);
        pl_match_free(back);
        pl_match_free(m);
    }
    printf("# %d games, %ld actions, %ld captures\n", GAMES, total_actions, captures);
    assert_true(captures > 0);
}

/* Same options and seed, same game: random draws come from the match. */
static void test_UR_property_same_seed_same_game(void **st)
{
    (void)st;
    for (int seed = 0; seed < 50; seed++) {
        char opts[64];
        snprintf(opts, sizeof opts, "seed=%d", seed);
        pl_buf h[2] = {{0}, {0}};
        for (int run = 0; run < 2; run++) {
            pl_match *m = th_new("ur", opts);
            pl_buf err = {0};
            while (m->game->phase(m->state) != PL_PHASE_OVER) {
                if (m->game->phase(m->state) == PL_PHASE_CHANCE) {
                    assert_int_equal(pl_match_random(m, NULL, &err), 0);
                } else {
                    pl_action acts[64];
                    int n = m->game->legal(m->state, pl_sole_actor(m->game, m->state), acts, 64);
                    assert_int_equal(pl_match_play(m, pl_sole_actor(m->game, m->state), acts[n - 1], &err), 0);
                }
            }
            pl_match_history(m, &h[run]);
            pl_buf_free(&err);
            pl_match_free(m);
        }
        assert_string_equal(pl_buf_str(&h[0]), pl_buf_str(&h[1]));
        pl_buf_free(&h[0]);
        pl_buf_free(&h[1]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_UR_property_random_games),
        cmocka_unit_test(test_UR_property_same_seed_same_game),
    };
    return cmocka_run_group_tests_name("property_ur", tests, NULL, NULL);
}
