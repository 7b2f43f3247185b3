/* test_unit_hardening.c — regression tests for what the fuzz campaigns
 * found (docs/reliability.md), and the failure paths of every public entry
 * point that allocates: each allocation made to fail in turn must give an
 * error, no leak (the debug preset's leak checker) and no half-changed
 * state; bad records are rejected with a message naming the line or action. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "helpers.h"
#include "games/tamcuc/tc.h"
#include "parlour/alloc.h"
#include "proto.h"
#include "parlour/record.h"
#include "parlour/registry.h"

/* ---- regressions from fuzzing ---------------------------------------- */

/* A copy of the match's state (pl_free it), to compare after a refusal. */
static void *state_copy(const pl_match *m)
{
    void *c = pl_malloc(m->game->state_size);
    assert_non_null(c);
    memcpy(c, m->state, m->game->state_size);
    return c;
}

/* One step of a Tam Cúc match: a chance outcome, or the policy's action for
 * the first seat that acts. */
static void tamcuc_step(pl_match *m)
{
    pl_buf err = {0};
    int seats[TC_MAXP], rc;
    if (m->game->actors(m->state, seats) <= 0) {
        rc = pl_match_random(m, NULL, &err);
    } else {
        pl_rng r;
        pl_match_rng(m, 0, &r);
        rc = pl_match_play(m, seats[0], m->game->policy(m->state, seats[0], &r), &err);
    }
    if (rc < 0)
        fail_msg("%s", pl_buf_str(&err));
    pl_buf_free(&err);
}

/* fuzz_play_tamcuc: pl_match_play took any code as a chance outcome when the
 * outcomes are too many to list (the deal), so a deal giving seat 1 seven
 * cards was applied and its record could not be read back. Also kept as
 * tests/fuzz/corpus/play_tamcuc/regress_impossible_deal. */
static void test_regress_play_refuses_impossible_deal(void **s)
{
    (void)s;
    pl_match *m = th_new("tamcuc", "players=4 seed=3 first_dealer=random");
    pl_buf err = {0};
    while (((const tc_state *)m->state)->phase != TC_PH_DEAL)
        tamcuc_step(m);
    const tc_state *st = m->state;
    tc_cards h[TC_MAXP], removed;
    pl_rng r;
    pl_rng_seed(&r, 1);
    tc_decode_deal(st, m->game->sample_chance(st, &r), h, &removed);
    int k = 0;
    while (!TC_NIB(h[1], k))
        k++;
    h[1] -= TC_ONE(k); /* seat 1 short of a card, seat 0 one too many */
    h[0] += TC_ONE(k);
    pl_action bad = tc_encode_deal(st, h);
    void *before = state_copy(m);
    int nh = m->nhist;
    assert_int_equal(pl_match_play(m, PL_CHANCE, bad, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "not a possible chance outcome"));
    assert_int_equal(m->nhist, nh);
    assert_memory_equal(before, m->state, m->game->state_size);
    pl_free(before);
    pl_buf_free(&err);
    pl_match_free(m);
}

/* fuzz_options: a tamcuc deal= holding more copies of a kind than the deck
 * (spread over several hands) overflowed the deal encoding (a shift of 64
 * bits, undefined). Kept as tests/fuzz/corpus/options/regress_tamcuc_deal_too_many. */
static void test_regress_tamcuc_deal_option_too_many_copies(void **s)
{
    (void)s;
    const pl_game *g = pl_game_find("tamcuc");
    char *w[] = {"seed=5", "dealer=0",
                 ("deal=rG,rA,rE,rC,rN,rH,bS,bS/bG,bA,rS/bG,bA,bE,bC,bN,bH,rA,rE,rC,rN,rH,bS,bS/"
                  "bG,bA,bE,bC,bN,bS,bS")};
    pl_buf err = {0};
    pl_match *m = pl_match_new(g, 3, w, &err);
    assert_null(m);
    assert_non_null(strstr(pl_buf_str(&err), "deal="));
    pl_buf_free(&err);
}

/* fuzz_record: a deal (the chance action, typed or in a record) whose hands
 * hold more copies of a kind than the deck in play, spread over several
 * hands (each hand alone fits), made tc_encode_deal shift by 64 bits
 * (undefined), like the deal= option before (the test above): the deal
 * text's parser lacked the option's check. Kept as
 * tests/fuzz/corpus/record/regress_tamcuc_deal_action_too_many. */
static void test_regress_tamcuc_deal_action_too_many_copies(void **s)
{
    (void)s;
    pl_match *m = th_new("tamcuc", "players=3 three_p_deck=deck_30 dealer=1 seed=3");
    pl_buf err = {0};
    while (((const tc_state *)m->state)->phase != TC_PH_DEAL)
        tamcuc_step(m);
    void *before = state_copy(m);
    int nh = m->nhist;
    /* Three bC over the first two hands: the deck in play has two. */
    assert_int_equal(pl_match_play_text(m, -1,
                                        "deal rG,bG,rA,rA,bC,bA,rE,rE,bE,bE/rG,rC,bC,bC,rN,rN,bN,bN,rH,rH/"
                                        "bH,bH,rS,rS,rS,rS,bS,bS,bS,bS",
                                        &err),
                     -1);
    assert_non_null(strstr(pl_buf_str(&err), "the deck in play has"));
    assert_int_equal(m->nhist, nh);
    assert_memory_equal(before, m->state, m->game->state_size);
    pl_free(before);
    pl_buf_free(&err);
    pl_match_free(m);
}

/* fuzz_position_tamcuc (item 5 of docs/reliability.md): the position text
 * took any declaration round, and in a round other than Four or Five `legal`
 * listed a `declare` action whose text read back as another action. A
 * reachable position with dround=3 (or 0, or 9) in the declaration phase is
 * now refused, the state unchanged; dround=4 and 5 still read. */
static void test_regress_tamcuc_position_declaration_round(void **s)
{
    (void)s;
    pl_match *m = th_new("tamcuc", "players=4 dealer=0 seed=78");
    pl_buf err = {0}, txt = {0};
    assert_int_equal(pl_match_random(m, NULL, &err), 0);
    assert_int_equal(((const tc_state *)m->state)->phase, TC_PH_DECL);
    m->game->to_text(m->state, &txt);
    char *at = strstr(txt.s, " dround=");
    assert_non_null(at);
    void *before = state_copy(m);
    for (char d = '0'; d <= '9'; d++) {
        at[8] = d;
        pl_buf_clear(&err);
        int rc = m->game->from_text(m->state, txt.s, &err);
        if (d == '4' || d == '5') {
            assert_int_equal(rc, 0);
            memcpy(m->state, before, m->game->state_size);
        } else {
            assert_int_equal(rc, -1);
            assert_non_null(strstr(pl_buf_str(&err), "dround"));
            assert_memory_equal(before, m->state, m->game->state_size);
        }
    }
    pl_free(before);
    pl_buf_free(&txt);
    pl_buf_free(&err);
    pl_match_free(m);
}

/* Tam Cúc's position text against a trick that play cannot reach (noted in
 * session 3, no crash): the cards on the table must agree with tstep, the
 * follower whose turn it is. `bad` is written as text and read into the
 * match: refused with a message naming `what`, the state unchanged. */
static void expect_tamcuc_position_refused(pl_match *m, const tc_state *bad, const char *what)
{
    pl_buf txt = {0}, err = {0};
    m->game->to_text(bad, &txt);
    void *before = state_copy(m);
    assert_int_equal(m->game->from_text(m->state, pl_buf_str(&txt), &err), -1);
    if (!strstr(pl_buf_str(&err), what))
        fail_msg("expected an error naming '%s', got '%s'", what, pl_buf_str(&err));
    assert_memory_equal(before, m->state, m->game->state_size);
    pl_free(before);
    pl_buf_free(&txt);
    pl_buf_free(&err);
}

/* The first `n` cards of `h` (by kind). */
static tc_cards tamcuc_take(tc_cards h, int n)
{
    tc_cards x = 0;
    for (int k = 0; k < TC_NKIND && n > 0; k++)
        for (int c = TC_NIB(h, k); c > 0 && n > 0; c--, n--)
            x += TC_ONE(k);
    return x;
}

/* A follower's lay before his turn, a turn passed with nothing laid, and a
 * reveal chosen before its turn were all accepted: the hands' sizes still
 * added up. Each is now refused; the reachable positions still read. */
static void test_regress_tamcuc_position_trick_progress(void **s)
{
    (void)s;
    pl_match *m = th_new("tamcuc", "players=4 dealer=0 seed=78");
    pl_buf err = {0};
    const tc_state *st = m->state;
    while (!(st->phase == TC_PH_LAY && st->tstep == 1))
        tamcuc_step(m);
    int second = (st->tleader + 2) % 4; /* his turn comes after the next one */
    tc_state bad;
    /* A lay before his turn. */
    memcpy(&bad, st, sizeof bad);
    tc_cards x = tamcuc_take(bad.hand[second], bad.tn);
    bad.hand[second] -= x;
    bad.tlay[second] = x;
    expect_tamcuc_position_refused(m, &bad, "tlay");
    /* The next follower's turn passed (tstep=2) with nothing laid. */
    memcpy(&bad, st, sizeof bad);
    bad.tstep = 2;
    expect_tamcuc_position_refused(m, &bad, "tlay");
    /* Cards on the table outside a trick. */
    memcpy(&bad, st, sizeof bad);
    bad.phase = TC_PH_LEAD;
    bad.hand[st->tleader] += bad.tlead;
    bad.tlead = 0;
    bad.tn = 0;
    bad.tstep = 0;
    bad.tlay[second] = x; /* a copy: outside a trick tlay adds no card */
    expect_tamcuc_position_refused(m, &bad, "tlay");
    /* The reveal phase: a reveal (or a hiding) before its turn. */
    while (!(st->phase == TC_PH_REVEAL && st->tstep == 1))
        tamcuc_step(m);
    second = (st->tleader + 2) % 4;
    memcpy(&bad, st, sizeof bad);
    bad.trev |= (uint8_t)(1u << second);
    expect_tamcuc_position_refused(m, &bad, "trev");
    memcpy(&bad, st, sizeof bad);
    bad.thid |= (uint8_t)(1u << second);
    expect_tamcuc_position_refused(m, &bad, "thid");
    /* The reachable position itself reads back. */
    pl_buf txt = {0};
    m->game->to_text(st, &txt);
    assert_int_equal(m->game->from_text(m->state, pl_buf_str(&txt), &err), 0);
    pl_buf_free(&txt);
    pl_buf_free(&err);
    pl_match_free(m);
}

/* fuzz_position_cbw: cbw's position text took phase=move with an empty
 * table on a span whose axes are not fixed, which play cannot reach: only
 * captures empty the table, and while an axis is not fixed a card on the
 * span's outer row along it always has a liberty (the free cell beyond).
 * With w=16 h=16 the seat to move then had 9 x 961 placements and a pass,
 * 8650 legal actions, more than PL_MAX_ACTIONS (8192), which every caller
 * of `legal` takes as the most there can be. Kept as
 * tests/fuzz/corpus/position_cbw/regress_empty_table_unfixed. */
static void test_regress_cbw_position_empty_table_needs_fixed_edges(void **s)
{
    (void)s;
    pl_match *m = th_new("cbw", "deck=52 w=16 h=16 first=black seed=1");
    const pl_game *g = m->game;
    void *st = pl_malloc(g->state_size);
    assert_non_null(st);
    memcpy(st, m->state, g->state_size);
    pl_buf err = {0};
    assert_int_equal(g->from_text(st,
                                  "phase=move turn=2 opener=red passes=0 span=0..0,0..0 "
                                  "hands=7H,8H,9H,10H,JH,QH,KH,AH/6S,7S,8S,9S,10S,JS,QS,KS,AS/"
                                  "6D,7D,8D,9D,10D,JD,QD,KD,AD/6C,7C",
                                  &err),
                     -1);
    assert_non_null(strstr(pl_buf_str(&err), "empty table"));
    assert_non_null(strstr(pl_buf_str(&err), "8650 legal actions"));
    assert_memory_equal(st, m->state, g->state_size);
    pl_free(st);
    pl_match_free(m);
    /* Reachable: a table emptied once both axes are fixed (span W x H). */
    m = th_new("cbw", "players=2 w=3 h=2 seed=1");
    th_position(m, "phase=move turn=0 opener=red passes=0 span=0..2,0..1 hands=6H,7D/6S/-/-");
    pl_action acts[64];
    int n = g->legal(m->state, 0, acts, 64);
    assert_int_equal(n, 2 * 6 + 1); /* two cards on any of the 6 cells, or a pass */
    pl_buf_free(&err);
    pl_match_free(m);
}

/* ---- allocation failures ---------------------------------------------- */

/* Each loop below makes the n-th allocation fail for n = 0, 1, ... until the
 * call succeeds, and requires an error (a message, or the buffer's oom flag
 * when even the message could not be allocated) and an unchanged state on
 * every failure. Leaks are the debug preset's leak checker's to find. */
#define MAX_ALLOCS 100000

/* Every registered game, by index: the loops below cover a game added to
 * the registry without an edit here. */
static int game_count(void)
{
    int n;
    pl_games(&n);
    return n;
}

static const char *game_id(int i)
{
    int n;
    const pl_game *const *gs = pl_games(&n); /* before `n` is read */
    return gs[i % n]->id;
}

/* A match of `id` after `steps` random actions (with no failure injected). */
static pl_match *played(const char *id, const char *opts, int steps)
{
    pl_match *m = th_new(id, opts);
    pl_rng r;
    pl_rng_seed(&r, 99);
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    assert_non_null(acts);
    pl_buf err = {0};
    for (int i = 0; i < steps && m->game->phase(m->state) != PL_PHASE_OVER; i++) {
        if (m->game->phase(m->state) == PL_PHASE_CHANCE) {
            assert_int_equal(pl_match_random(m, NULL, &err), 0);
            continue;
        }
        int seats[PL_MAX_SEATS];
        int na = m->game->actors(m->state, seats);
        int seat = seats[pl_rng_below(&r, (uint32_t)na)];
        int n = m->game->legal(m->state, seat, acts, PL_MAX_ACTIONS);
        assert_true(n > 0);
        assert_int_equal(pl_match_play(m, seat, acts[pl_rng_below(&r, (uint32_t)n)], &err), 0);
    }
    pl_buf_free(&err);
    pl_free(acts);
    return m;
}

static void expect_error(int failed, const pl_buf *err, const char *what, long n)
{
    if (failed && err->len == 0 && !err->oom)
        fail_msg("%s failed at allocation %ld without a message", what, n);
}

/* The match's position text and history, to compare before and after. */
static char *snapshot(const pl_match *m)
{
    pl_buf b = {0};
    m->game->to_text(m->state, &b);
    pl_buf_printf(&b, "\n%d\n", m->nhist);
    pl_match_history(m, &b);
    assert_false(b.oom);
    char *s = pl_strdup(pl_buf_str(&b));
    pl_buf_free(&b);
    return s;
}

static void test_alloc_match_new(void **s)
{
    (void)s;
    for (int gi = 0; gi < game_count(); gi++) {
        const pl_game *g = pl_game_find(game_id(gi));
        char *w[] = {"seed=3"};
        long n;
        for (n = 0; n < MAX_ALLOCS; n++) {
            pl_buf err = {0};
            pl_alloc_fail_after(n);
            pl_match *m = pl_match_new(g, 1, w, &err);
            pl_alloc_fail_after(-1);
            expect_error(!m, &err, "pl_match_new", n);
            pl_buf_free(&err);
            if (m) {
                pl_match_free(m);
                break;
            }
        }
        assert_true(n < MAX_ALLOCS);
    }
}

static void test_alloc_options(void **s)
{
    (void)s;
    const pl_game *g = pl_game_find("tamcuc");
    char *w[] = {"players=3", "night_exchange=2", "seed=4"};
    for (long n = 0;; n++) {
        pl_opts o;
        pl_buf err = {0};
        pl_alloc_fail_after(n);
        int rc = pl_opts_parse(&o, g->options, 3, w, &err);
        pl_alloc_fail_after(-1);
        expect_error(rc < 0, &err, "pl_opts_parse", n);
        pl_buf_free(&err);
        if (rc < 0) {
            assert_null(o.values); /* empty on failure */
            continue;
        }
        for (long k = 0;; k++) { /* and its copy */
            pl_opts c;
            pl_alloc_fail_after(k);
            int rc2 = pl_opts_copy(&c, &o);
            pl_alloc_fail_after(-1);
            if (rc2 < 0) {
                assert_null(c.values);
                continue;
            }
            assert_string_equal(pl_opts_get(&c, "players"), "3");
            pl_opts_free(&c);
            break;
        }
        pl_opts_free(&o);
        break;
    }
}

/* Plays a legal action by text with every allocation failing in turn. */
static void test_alloc_play_text(void **s)
{
    (void)s;
    for (int gi = 0; gi < game_count(); gi++) {
        pl_match *m = played(game_id(gi), "seed=5", 12);
        if (m->game->phase(m->state) == PL_PHASE_OVER) {
            pl_match_free(m);
            continue;
        }
        /* The text of a legal action now (or of a chance outcome). */
        pl_buf text = {0}, err = {0};
        int seat = -1;
        if (m->game->phase(m->state) == PL_PHASE_CHANCE) {
            pl_rng r;
            pl_match_rng(m, 0, &r);
            m->game->format_action(m->state, PL_CHANCE, pl_draw_chance(m->game, m->state, &r), &text);
        } else {
            int seats[PL_MAX_SEATS];
            m->game->actors(m->state, seats);
            seat = seats[0];
            pl_action a[PL_MAX_ACTIONS];
            assert_true(m->game->legal(m->state, seat, a, PL_MAX_ACTIONS) > 0);
            m->game->format_action(m->state, seat, a[0], &text);
        }
        char *before = snapshot(m);
        long n;
        for (n = 0; n < MAX_ALLOCS; n++) {
            pl_buf_clear(&err);
            pl_alloc_fail_after(n);
            int rc = pl_match_play_text(m, seat, pl_buf_str(&text), &err);
            pl_alloc_fail_after(-1);
            if (rc == 0)
                break;
            expect_error(1, &err, "pl_match_play_text", n);
            char *now = snapshot(m);
            if (strcmp(before, now))
                fail_msg("%s: a failed play changed the match:\n%s\n---\n%s", game_id(gi), before, now);
            pl_free(now);
        }
        assert_true(n < MAX_ALLOCS);
        pl_free(before);
        /* Undo, set_player, history for each viewer, view, show, describe and the marked picture. */
        assert_int_equal(pl_match_undo(m, &err), 0);
        for (n = 0;; n++) {
            pl_alloc_fail_after(n);
            int rc = pl_match_set_player(m, 1, "ai:greedy");
            pl_alloc_fail_after(-1);
            if (rc == 0)
                break;
            assert_null(m->players[1]);
        }
        int ns = m->game->num_seats(m->state);
        for (int v = -1; v < ns; v++) {
            for (n = 0;; n++) {
                pl_buf b = {0};
                pl_alloc_fail_after(n);
                pl_match_history_for(m, v, &b);
                if (v >= 0)
                    m->game->view(m->state, v, &b);
                pl_show(m->game, m->state, v, &b);
                pl_match_describe(m, 0, v, &b); /* what happened, and the picture with the last move */
                pl_canvas c = {0};
                pl_match_draw(m, v, &c);
                pl_alloc_fail_after(-1);
                int ok = !b.oom && !c.oom;
                pl_canvas_free(&c);
                pl_buf_free(&b);
                if (ok)
                    break;
            }
        }
        pl_buf_free(&text);
        pl_buf_free(&err);
        pl_match_free(m);
    }
}

static void test_alloc_records(void **s)
{
    (void)s;
    for (int gi = 0; gi < game_count(); gi++) {
        pl_match *m = played(game_id(gi), "seed=6", 30);
        pl_match_set_player(m, 0, "human");
        char *before = snapshot(m);
        pl_buf rec = {0};
        long n;
        for (n = 0; n < MAX_ALLOCS; n++) {
            pl_buf_clear(&rec);
            pl_alloc_fail_after(n);
            int rc = pl_record_write(m, &rec);
            pl_alloc_fail_after(-1);
            if (rc == 0)
                break;
            assert_int_equal(rec.len, 0); /* nothing half-written */
        }
        assert_true(n < MAX_ALLOCS);
        pl_buf view = {0}; /* a seat's record: the same contract */
        for (n = 0; n < MAX_ALLOCS; n++) {
            pl_buf_clear(&view);
            pl_alloc_fail_after(n);
            int rc = pl_record_write_for(m, 1, &view);
            pl_alloc_fail_after(-1);
            if (rc == 0)
                break;
            assert_int_equal(view.len, 0);
        }
        assert_true(n < MAX_ALLOCS);
        pl_buf_free(&view);
        char *after = snapshot(m);
        assert_string_equal(before, after);
        pl_free(after);
        for (n = 0; n < MAX_ALLOCS; n++) {
            pl_buf err = {0};
            pl_alloc_fail_after(n);
            pl_match *back = pl_record_read(pl_buf_str(&rec), &err);
            pl_alloc_fail_after(-1);
            expect_error(!back, &err, "pl_record_read", n);
            pl_buf_free(&err);
            if (back) {
                char *b2 = snapshot(back);
                assert_string_equal(before, b2);
                pl_free(b2);
                pl_match_free(back);
                break;
            }
        }
        assert_true(n < MAX_ALLOCS);
        pl_free(before);
        pl_buf_free(&rec);
        pl_match_free(m);
    }
}

/* The session's game as text (position and history), for comparisons. */
static char *proto_snapshot(pl_proto *p)
{
    pl_buf b = {0};
    pl_proto_line(p, "position", 8, &b);
    pl_proto_line(p, "history", 7, &b);
    assert_false(b.oom);
    char *s = pl_strdup(pl_buf_str(&b));
    pl_buf_free(&b);
    return s;
}

static void test_alloc_protocol(void **s)
{
    (void)s;
    /* A record to load, from a short cbw game. */
    pl_match *m = played("cbw", "seed=8", 10);
    pl_buf line = {0};
    pl_buf_puts(&line, "load ");
    assert_int_equal(pl_record_write(m, &line), 0);
    pl_match_free(m);
    const char *script[] = {
        "new ur seed=1 start=light", "play roll 2", "legal", "play enter", "status", "history", "view 0",
        "show", "show 1", "record", "options", "position", "random", "undo", "genmove random",
        "list_options tamcuc", "list_games", "new tamcuc players=3 seed=2", "random", "random", "legal 0",
        "view 1", pl_buf_str(&line), "legal", "frobnicate", "play \xff", NULL};
    long n;
    for (n = 0;; n++) { /* the session itself */
        pl_alloc_fail_after(n);
        pl_proto *p = pl_proto_new();
        pl_alloc_fail_after(-1);
        if (p) {
            pl_proto_free(p);
            break;
        }
    }
    pl_proto *p = pl_proto_new();
    assert_non_null(p);
    for (int i = 0; script[i]; i++) {
        char *before = proto_snapshot(p);
        for (n = 0; n < MAX_ALLOCS; n++) {
            pl_buf out = {0};
            pl_alloc_fail_after(n);
            pl_proto_line(p, script[i], strlen(script[i]), &out);
            pl_alloc_fail_after(-1);
            int answered = !out.oom && out.len > 0;
            int error = answered && out.s[0] == '?';
            int oom = answered && strstr(out.s, "out of memory") != NULL;
            pl_buf_free(&out);
            if (answered && !oom)
                break; /* answered normally: done with this line */
            if (error || !answered) {
                /* An error (or an answer that could not be written) changes nothing,
                 * unless the request succeeded before the answer failed. */
                char *now = proto_snapshot(p);
                if (error && strcmp(before, now))
                    fail_msg("'%.40s' failed at allocation %ld and changed the game", script[i], n);
                if (strcmp(before, now)) { /* it succeeded: the rest of the script goes on from here */
                    pl_free(now);
                    break;
                }
                pl_free(now);
            }
        }
        assert_true(n < MAX_ALLOCS);
        pl_free(before);
    }
    pl_proto_free(p);
    pl_buf_free(&line);
}

/* ---- hostile protocol lines and records --------------------------------- */

static void test_protocol_long_lines(void **s)
{
    (void)s;
    size_t len = 1 << 20;
    char *big = malloc(len);
    assert_non_null(big);
    pl_proto *p = pl_proto_new();
    pl_buf out = {0};
    memset(big, 'a', len);
    pl_proto_line(p, big, len, &out); /* a 1 MB unknown command */
    assert_int_equal(out.s[0], '?');
    pl_buf_clear(&out);
    assert_int_equal(pl_proto_line(p, "new ur seed=1", 13, &out), 0);
    memcpy(big, "play ", 5); /* a 1 MB action */
    pl_buf_clear(&out);
    pl_proto_line(p, big, len, &out);
    assert_non_null(strstr(out.s, "? bad action"));
    big[len / 2] = '\xc3'; /* invalid UTF-8 in the middle */
    pl_buf_clear(&out);
    pl_proto_line(p, big, len, &out);
    assert_string_equal(out.s, "? the request is not valid UTF-8\n\n");
    big[len / 2] = '\0';
    pl_buf_clear(&out);
    pl_proto_line(p, big, len, &out);
    assert_string_equal(out.s, "? the request holds a NUL byte\n\n");
    memset(big, ' ', len); /* 1 MB of words: too many arguments */
    for (size_t i = 0; i < len; i += 2)
        big[i] = 'x';
    memcpy(big, "new ", 4);
    pl_buf_clear(&out);
    pl_proto_line(p, big, len, &out);
    assert_non_null(strstr(out.s, "too many arguments"));
    pl_buf_free(&out);
    pl_proto_free(p);
    free(big);
}

static void expect_rejected(const char *json, const char *want)
{
    pl_buf err = {0};
    pl_match *m = pl_record_read(json, &err);
    if (m)
        fail_msg("record accepted: %.300s", json);
    if (!strstr(pl_buf_str(&err), want))
        fail_msg("record error '%s' lacks '%s'", pl_buf_str(&err), want);
    pl_buf_free(&err);
}

/* Rewrites the record text `rec` with jansson: `edit` changes the object. */
static char *edited(const char *rec, void (*edit)(json_t *root, void *arg), void *arg)
{
    json_error_t je;
    json_t *root = json_loads(rec, 0, &je);
    assert_non_null(root);
    edit(root, arg);
    char *s = json_dumps(root, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(root);
    assert_non_null(s);
    char *c = pl_strdup(s);
    free(s);
    return c;
}

static void set_game(json_t *root, void *arg) { json_object_set_new(root, "game", json_string(arg)); }
static void set_version(json_t *root, void *arg) { (void)arg; json_object_set_new(root, "version", json_integer(2)); }
static void swap_actions(json_t *root, void *arg)
{
    int i = *(int *)arg;
    json_t *acts = json_object_get(root, "actions");
    json_t *a = json_incref(json_array_get(acts, (size_t)i)), *b = json_incref(json_array_get(acts, (size_t)i + 1));
    json_array_set_new(acts, (size_t)i, b);
    json_array_set_new(acts, (size_t)i + 1, a);
}
static void garble_action(json_t *root, void *arg)
{
    int i = *(int *)arg;
    json_t *a = json_array_get(json_object_get(root, "actions"), (size_t)i);
    json_object_set_new(a, "action", json_string("zz9"));
}

/* A seat's record (pl_record_write_for): no seed, no secret option (the
 * deal), the deal as that seat saw it, and it does not load. */
static void test_record_for_a_seat_hides_seed_and_deal(void **s)
{
    (void)s;
    pl_match *m = played("tamcuc",
                         "players=4 dealer=0 seed=77 deal=rG,rA,rE,rC,rN,rH,bS,bS/bG,bA,bE,bC,bN,bH,rS,rS/"
                         "rA,rE,rC,rN,rH,rS,rS,rS/bA,bE,bC,bN,bH,bS,bS,bS",
                         0);
    pl_buf full = {0}, mine = {0}, err = {0};
    assert_int_equal(pl_record_write(m, &full), 0);
    assert_int_equal(pl_record_write_for(m, 2, &mine), 0);
    const char *f = pl_buf_str(&full), *v = pl_buf_str(&mine);
    assert_non_null(strstr(f, "\"seed\":77"));
    assert_non_null(strstr(f, "\"deal\":\"rG,rA"));
    assert_non_null(strstr(v, "\"format\":\"parlour-record-view\""));
    assert_non_null(strstr(v, "\"viewer\":2"));
    assert_null(strstr(v, "\"seed\""));
    assert_null(strstr(v, "\"deal\""));
    assert_null(strstr(v, "rG")); /* seat 0's General: seat 2 never saw it */
    assert_non_null(strstr(v, "\\nhand rA rE rC rN rH rS rS rS\\n")); /* its own hand, in start_view */
    assert_non_null(strstr(v, "\"players\":\"4\"")); /* public options stay */
    pl_match *back = pl_record_read(v, &err);
    assert_null(back);
    assert_non_null(strstr(pl_buf_str(&err), "one seat's view of a game (seat 2)"));
    pl_buf_clear(&mine);
    assert_int_equal(pl_record_write_for(m, 4, &mine), -1); /* not a seat */
    assert_int_equal(pl_record_write_for(m, -1, &mine), -1);
    assert_int_equal(mine.len, 0);
    pl_match_free(m);
    /* A deal drawn in play is a chance action: seat 2 sees its own hand only. */
    m = played("tamcuc", "players=4 dealer=0 seed=78", 1);
    assert_int_equal(pl_record_write_for(m, 2, &mine), 0);
    assert_non_null(strstr(pl_buf_str(&mine), "{\"action\":\"deal ?/?/bA,bA,rE,bE,rC,rN,bN,bS/?\""));
    assert_non_null(strstr(pl_buf_str(&mine), "/?\",\"seat\":\"chance\"}"));
    pl_buf_free(&full);
    pl_buf_free(&mine);
    pl_buf_free(&err);
    pl_match_free(m);
}

static void test_records_rejected_with_their_place(void **s)
{
    (void)s;
    for (int gi = 0; gi < game_count(); gi++) {
        pl_match *m = played(game_id(gi), "seed=9", 24);
        pl_buf rec = {0};
        assert_int_equal(pl_record_write(m, &rec), 0);
        const char *good = pl_buf_str(&rec);
        /* Truncated anywhere: a JSON error naming line and column. */
        for (size_t cut = 0; cut < rec.len; cut += 1 + rec.len / 16) {
            char *t = pl_strdup(good);
            t[cut] = '\0';
            expect_rejected(t, "bad JSON at line 1 column");
            pl_free(t);
        }
        /* Wrong game: its options are not the other game's. */
        char other[64]; /* the next game in the registry */
        snprintf(other, sizeof other, "%s", game_id(gi + 1));
        char *w = edited(good, set_game, other);
        expect_rejected(w, "record: unknown option");
        pl_free(w);
        w = edited(good, set_version, NULL);
        expect_rejected(w, "format version 2 is not supported");
        pl_free(w);
        /* Two actions out of order, and a garbled action in the middle: the
         * message names the action by number. */
        int mid = m->nhist / 2;
        char want[64];
        w = edited(good, garble_action, &mid);
        snprintf(want, sizeof want, "record: action %d (", mid + 1);
        expect_rejected(w, want);
        pl_free(w);
        int k;
        for (k = 0; k + 1 < m->nhist; k++) /* first two different actions in a row */
            if (m->hist[k].seat != m->hist[k + 1].seat || m->hist[k].a != m->hist[k + 1].a)
                break;
        if (k + 1 < m->nhist) {
            w = edited(good, swap_actions, &k);
            pl_buf err = {0};
            pl_match *bad = pl_record_read(w, &err);
            if (bad) { /* two independent actions may commute; then the game is valid */
                pl_match_free(bad);
            } else {
                assert_non_null(strstr(pl_buf_str(&err), "record: action "));
            }
            pl_buf_free(&err);
            pl_free(w);
        }
        /* A record file cut short names the file, the line and the column. */
        char path[] = "/tmp/parlour_rec_XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        FILE *f = fdopen(fd, "w");
        fprintf(f, "%.*s", (int)(rec.len / 2), good);
        fclose(f);
        pl_buf err = {0};
        assert_null(pl_record_load_file(path, &err));
        assert_non_null(strstr(pl_buf_str(&err), path));
        assert_non_null(strstr(pl_buf_str(&err), "line 1 column"));
        remove(path);
        pl_buf_free(&err);
        pl_buf_free(&rec);
        pl_match_free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regress_play_refuses_impossible_deal),
        cmocka_unit_test(test_regress_tamcuc_deal_option_too_many_copies),
        cmocka_unit_test(test_regress_tamcuc_deal_action_too_many_copies),
        cmocka_unit_test(test_regress_tamcuc_position_declaration_round),
        cmocka_unit_test(test_regress_tamcuc_position_trick_progress),
        cmocka_unit_test(test_regress_cbw_position_empty_table_needs_fixed_edges),
        cmocka_unit_test(test_alloc_match_new),
        cmocka_unit_test(test_alloc_options),
        cmocka_unit_test(test_alloc_play_text),
        cmocka_unit_test(test_alloc_records),
        cmocka_unit_test(test_alloc_protocol),
        cmocka_unit_test(test_protocol_long_lines),
        cmocka_unit_test(test_records_rejected_with_their_place),
        cmocka_unit_test(test_record_for_a_seat_hides_seed_and_deal),
    };
    return cmocka_run_group_tests_name("unit_hardening", tests, NULL, NULL);
}
