/* test_property_tamcuc.c — Tam Cúc properties over 10,000+ random deals with
 * random options, played through the match (every action checked):
 *  - cards are conserved at every step;
 *  - each deal's scores sum as TC-R8.2 says (0, or 1 with deck_30/minus3);
 *  - no view, picture or per-viewer action text of one seat depends on
 *    another seat's hidden cards (a state with those cards shuffled among
 *    the other seats gives the same text), also after the deal ends;
 *  - determinize keeps the seat's view and gives a playable state, and
 *    reads nothing the seat cannot see (same output from a state with the
 *    hidden cards and passes changed);
 *  - the heuristic policy plays legal actions and reads only its seat's view;
 *  - copies, position text and records round-trip exactly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "games/tamcuc/tc.h"
#include "parlour/alloc.h"
#include "parlour/record.h"

#define GAMES 10000

/* Random applicable options for game `i`. */
static void random_options(pl_rng *r, int i, char *out, size_t cap)
{
    th_tamcuc_options(r, out, cap, (uint64_t)i + 1);
}

/* Everything in play, wherever it is. */
static tc_cards all_cards(const tc_state *s)
{
    tc_cards x = 0;
    int trick = s->phase == TC_PH_LAY || s->phase == TC_PH_REVEAL;
    for (int p = 0; p < s->np; p++) {
        x += s->hand[p] + s->won[p] + s->pub[p] + s->sec[p];
        if (trick)
            x += s->tlay[p];
        if (s->phase == TC_PH_EXCH && (s->xdone >> p & 1))
            x += s->passed[p];
    }
    if (trick)
        x += s->tlead;
    return x;
}

/* Face-down cards of seat t now (the lead before it is shown, an unrevealed
 * lay, a pending night-exchange pass). */
static tc_cards *facedown_slot(tc_state *s, int t, int *kind)
{
    *kind = 0;
    if (s->phase == TC_PH_LAY || s->phase == TC_PH_REVEAL) {
        if (t == s->tleader && !s->tshown) {
            *kind = 1;
            return &s->tlead;
        }
        if (t != s->tleader && s->tlay[t] && !(s->trev >> t & 1)) {
            *kind = 2;
            return &s->tlay[t];
        }
    }
    if (s->phase == TC_PH_EXCH && (s->xdone >> t & 1)) {
        *kind = 3;
        return &s->passed[t];
    }
    return NULL;
}

static tc_cards draw_n(tc_cards *pool, int n, pl_rng *r)
{
    tc_cards got = 0;
    for (int i = 0; i < n; i++) {
        int size = tc_size(*pool), k = 0, x = (int)pl_rng_below(r, (uint32_t)size);
        while (x >= TC_NIB(*pool, k))
            x -= TC_NIB(*pool, k++);
        *pool -= TC_ONE(k);
        got += TC_ONE(k);
    }
    return got;
}

/* A state seat v cannot tell from `s`: the other seats' hidden cards (hands,
 * unrevealed discards, face-down cards) shuffled among them, sizes kept.
 * With two_p_open_hands=current the opponent's hand is public: kept. */
static void perturb(const tc_state *s, int v, pl_rng *r, tc_state *out)
{
    memcpy(out, s, sizeof *s);
    int keep_hand = s->np == 2 && s->open2 == TC_OPEN_CURRENT;
    tc_cards pool = 0;
    for (int t = 0; t < s->np; t++) {
        if (t == v)
            continue;
        int kind;
        tc_cards *fd = facedown_slot(out, t, &kind);
        pool += (keep_hand ? 0 : s->hand[t]) + s->sec[t] + (fd ? *fd : 0);
    }
    for (int t = 0; t < s->np; t++) {
        if (t == v)
            continue;
        int kind;
        tc_cards *fd = facedown_slot(out, t, &kind);
        if (!keep_hand)
            out->hand[t] = draw_n(&pool, tc_size(s->hand[t]), r);
        out->sec[t] = draw_n(&pool, tc_size(s->sec[t]), r);
        if (fd)
            *fd = draw_n(&pool, tc_size(*fd), r);
    }
}

static void text_of(const pl_game *g, const void *st, int v, int picture, pl_buf *out)
{
    pl_buf_clear(out);
    if (picture)
        pl_show(g, st, v, out);
    else
        g->view(st, v, out);
}

/* Reused text buffers: the test makes millions of views. */
static pl_buf view_a, view_b;

static void check_same_view(const pl_game *g, const void *a, const void *b, int v, int picture, const char *what)
{
    pl_buf *x = &view_a, *y = &view_b;
    text_of(g, a, v, picture, x);
    text_of(g, b, v, picture, y);
    if (strcmp(pl_buf_str(x), pl_buf_str(y)))
        fail_msg("%s: seat %d's %s depends on hidden cards:\n%s\n---\n%s", what, v,
                 picture ? "picture" : "view", pl_buf_str(x), pl_buf_str(y));
}

static void check_text_roundtrip(pl_match *m, void *scratch)
{
    const pl_game *g = m->game;
    pl_buf a = {0}, b = {0}, e = {0};
    g->to_text(m->state, &a);
    pl_state_copy(g, scratch, m->initial);
    if (g->from_text(scratch, pl_buf_str(&a), &e) < 0)
        fail_msg("from_text(to_text) failed: %s\n%s", pl_buf_str(&e), pl_buf_str(&a));
    g->to_text(scratch, &b);
    assert_string_equal(pl_buf_str(&a), pl_buf_str(&b));
    /* and a copy is exact */
    pl_state_copy(g, scratch, m->state);
    assert_memory_equal(scratch, m->state, g->state_size);
    pl_buf_free(&a);
    pl_buf_free(&b);
    pl_buf_free(&e);
}

static void check_record(pl_match *m)
{
    pl_buf rec = {0}, e = {0}, a = {0}, b = {0};
    assert_int_equal(pl_record_write(m, &rec), 0);
    pl_match *m2 = pl_record_read(pl_buf_str(&rec), &e);
    if (!m2)
        fail_msg("record does not load: %s\n%s", pl_buf_str(&e), pl_buf_str(&rec));
    m->game->to_text(m->state, &a);
    m->game->to_text(m2->state, &b);
    assert_string_equal(pl_buf_str(&a), pl_buf_str(&b));
    pl_match_free(m2);
    pl_buf_free(&rec);
    pl_buf_free(&e);
    pl_buf_free(&a);
    pl_buf_free(&b);
}

/* determinize reads only what v sees: from a state v cannot tell from `s`
 * (the others' hidden cards shuffled, the night passes between two other
 * seats and the other hands at play start scrambled), the same generator
 * gives the same state, byte for byte. Decisions only (nobody searches
 * elsewhere). */
static void check_determinize_blind(const pl_game *g, const tc_state *s, int v, pl_rng *r)
{
    static tc_state other, d1, d2;
    if (g->phase(s) != PL_PHASE_MOVE)
        return;
    perturb(s, v, r, &other);
    for (int t = 0; t < s->np; t++) {
        if (s->night_k && s->phase > TC_PH_EXCH && t != v && (t + 1) % s->np != v)
            other.passed[t] = (tc_cards)(1 + pl_rng_below(r, 2)) * TC_ONE(pl_rng_below(r, TC_NKIND));
        if (s->np > 2 && t != v && s->phase > TC_PH_EXCH)
            other.dealt[t] = (tc_cards)(1 + pl_rng_below(r, 2)) * TC_ONE(pl_rng_below(r, TC_NKIND));
    }
    uint64_t seed = pl_rng_next(r);
    pl_rng a, b;
    pl_rng_seed(&a, seed);
    pl_rng_seed(&b, seed);
    g->determinize(s, v, &a, &d1);
    g->determinize(&other, v, &b, &d2);
    if (memcmp(&d1, &d2, sizeof d1)) {
        pl_buf x = {0}, y = {0};
        g->to_text(&d1, &x);
        g->to_text(&d2, &y);
        fail_msg("determinize(%d) depends on hidden cards:\n%s\n---\n%s", v, pl_buf_str(&x), pl_buf_str(&y));
    }
    /* what the night exchange passed lies in the receiver's hand at play start */
    for (int t = 0; t < s->np && s->night_k && s->phase > TC_PH_EXCH; t++)
        assert_true(tc_subset(d1.passed[t], d1.dealt[(t + 1) % s->np]));
}

/* The game's policy (pl_game.policy) gives a legal action for every actor,
 * the same one from a state the actor cannot tell apart (hidden cards of the
 * others shuffled) for the same generator state. */
static void check_policy(const pl_game *g, const tc_state *s, pl_rng *r)
{
    static tc_state other;
    int seats[PL_MAX_SEATS];
    if (g->phase(s) != PL_PHASE_MOVE)
        return;
    int na = g->actors(s, seats);
    for (int i = 0; i < na; i++) {
        perturb(s, seats[i], r, &other);
        pl_rng a, b;
        pl_rng_seed(&a, pl_rng_next(r));
        b = a;
        pl_action x = g->policy(s, seats[i], &a), y = g->policy(&other, seats[i], &b);
        pl_buf e = {0};
        if (pl_check(g, s, seats[i], x, &e) < 0)
            fail_msg("policy of seat %d: %s", seats[i], pl_buf_str(&e));
        pl_buf_free(&e);
        assert_true(x == y);
    }
}

static void check_step(pl_match *m, pl_rng *r, tc_state *tmp, int step, int game)
{
    const pl_game *g = m->game;
    const tc_state *s = m->state;
    /* conservation */
    tc_cards all = all_cards(s);
    if (s->phase <= TC_PH_DEAL)
        assert_true(all == 0);
    else
        assert_true(all == s->deck);
    int v = (int)pl_rng_below(r, (uint32_t)s->np);
    /* no leak: hidden cards of others shuffled, same view (every other
     * step, alternating with determinize, to keep the sanitizer run short) */
    if (!(step & 1) || s->phase == TC_PH_OVER) {
        perturb(s, v, r, tmp);
        check_same_view(g, s, tmp, v, 0, "perturbed");
        if ((step + game) % 32 == 0)
            check_same_view(g, s, tmp, v, 1, "perturbed");
    }
    /* determinize: same view, conserved, playable */
    if (s->phase != TC_PH_OVER && (step & 3) == 1) {
        check_determinize_blind(g, s, v, r);
        check_policy(g, s, r);
        g->determinize(s, v, r, tmp);
        check_same_view(g, s, tmp, v, 0, "determinized");
        assert_true(all_cards(tmp) == all);
        assert_true(tmp->hand[v] == s->hand[v] && tmp->sec[v] == s->sec[v]);
        if (g->phase(tmp) == PL_PHASE_MOVE) {
            int seats[PL_MAX_SEATS];
            int na = g->actors(tmp, seats);
            pl_action acts[PL_MAX_ACTIONS];
            for (int i = 0; i < na; i++)
                if (g->legal(tmp, seats[i], acts, PL_MAX_ACTIONS) <= 0) {
                    pl_buf x = {0}; g->to_text(tmp, &x);
                    fail_msg("no legal action for %d after determinize(%d): %s", seats[i], v, pl_buf_str(&x));
                }
        }
    }
}

static void test_properties_random_deals(void **st)
{
    (void)st;
    pl_rng r;
    pl_rng_seed(&r, 20240601);
    tc_state *tmp = pl_malloc(sizeof *tmp), *scratch = pl_malloc(sizeof *scratch);
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    long deals = 0, steps = 0;
    pl_buf e = {0}, t1 = {0}, t2 = {0};
    for (int i = 0; i < GAMES; i++) {
        char opts[512];
        random_options(&r, i, opts, sizeof opts);
        pl_match *m = th_new("tamcuc", opts);
        const tc_state *s = m->state;
        int mid_record = (int)pl_rng_below(&r, 60);
        for (int step = 0; m->game->phase(m->state) != PL_PHASE_OVER; step++) {
            check_step(m, &r, tmp, step, i);
            if (step % 11 == 3)
                check_text_roundtrip(m, scratch);
            if (i % 10 == 0 && step == mid_record)
                check_record(m);
            int before_deals = s->deals_done, was_decl = s->phase == TC_PH_DECL;
            if (m->game->phase(m->state) == PL_PHASE_CHANCE) {
                if (pl_match_random(m, NULL, &e) < 0)
                    fail_msg("random: %s", pl_buf_str(&e));
            } else {
                int seats[PL_MAX_SEATS];
                int na = m->game->actors(m->state, seats);
                int seat = seats[pl_rng_below(&r, (uint32_t)na)];
                int n = m->game->legal(m->state, seat, acts, PL_MAX_ACTIONS);
                assert_true(n > 0 && n <= PL_MAX_ACTIONS);
                pl_action a = acts[pl_rng_below(&r, (uint32_t)n)];
                /* the per-viewer text of a move never depends on hidden cards */
                int v = (int)pl_rng_below(&r, (uint32_t)s->np);
                if (v != seat && (step & 1)) {
                    perturb(s, v, &r, tmp);
                    pl_buf_clear(&t1);
                    pl_buf_clear(&t2);
                    m->game->format_action_for(m->state, seat, a, v, &t1);
                    m->game->format_action_for(tmp, seat, a, v, &t2);
                    assert_string_equal(pl_buf_str(&t1), pl_buf_str(&t2));
                    if (TC_TAG(a) == TC_A_LAY || TC_TAG(a) == TC_A_LEAD || TC_TAG(a) == TC_A_PASS) {
                        const char *sp = strchr(pl_buf_str(&t1), ' '); /* "lay 2": a count only */
                        assert_non_null(sp);
                        assert_true(strspn(sp + 1, "0123456789") == strlen(sp + 1));
                    }
                }
                if (pl_match_play(m, seat, a, &e) < 0)
                    fail_msg("play: %s", pl_buf_str(&e));
            }
            steps++;
            if (s->deals_done != before_deals) {
                deals++;
                long sum = 0;
                for (int p = 0; p < s->np; p++)
                    sum += s->last_score[p];
                int want = (s->np == 3 && s->deckopt == TC_D_30 && s->thirty_score == TC_30_MINUS3 && !was_decl) ? 1 : 0;
                if (sum != want)
                    fail_msg("game %d (%s): deal scores sum to %ld, want %d", i, opts, sum, want);
            }
        }
        check_step(m, &r, tmp, 0, i); /* after the end, too */
        for (int v = 0; v < s->np; v++) {
            perturb(s, v, &r, tmp);
            check_same_view(m->game, s, tmp, v, 0, "over");
            if (v == i % s->np)
                check_same_view(m->game, s, tmp, v, 1, "over");
        }
        check_text_roundtrip(m, scratch);
        check_record(m);
        pl_match_free(m);
    }
    pl_buf_free(&e);
    pl_buf_free(&t1);
    pl_buf_free(&t2);
    pl_buf_free(&view_a);
    pl_buf_free(&view_b);
    pl_free(tmp);
    pl_free(scratch);
    pl_free(acts);
    print_message("%d games, %ld deals, %ld actions\n", GAMES, deals, steps);
    assert_true(deals >= GAMES);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_properties_random_deals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
