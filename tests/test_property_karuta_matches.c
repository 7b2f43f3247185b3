/* test_property_karuta_matches.c — thousands of simulated matches of every
 * variant with random timed touches (through the game's validity check):
 * cards conserved, territories within 3 x 17 and consistent with the grid,
 * the row rule at the start, the free space (row 1, slot 9) always empty,
 * whoever places (KA-R2), the kimariji trie equal to a scan from scratch,
 * every match ends; and records round-trip exactly (pl_record_write /
 * pl_record_read) for matches played through the interface; and, for every
 * state of one match in 8, the position text round-trips byte for byte. */
#include <stdlib.h>

#include "karuta_helpers.h"

#include "parlour/record.h"

static int brute_dynamic(const kar_state *s, int c)
{
    const kar_poem *p = kar_poem_get(c);
    for (int d = 1; d <= KAR_DEPTH; d++) {
        bool clash = false;
        for (int o = 1; o <= 100 && !clash; o++)
            if (o != c && s->kim.unread[o] && !memcmp(kar_poem_get(o)->key, p->key, sizeof p->key[0] * (size_t)d))
                clash = true;
        if (!clash)
            return d;
    }
    return KAR_DEPTH;
}

static void check_invariants(const kar_state *s, int dead0)
{
    int n[PL_MAX_SEATS] = {0}, dead = 0, out = 0, field = 0, pool = 0, untaken_out = 0;
    for (int c = 1; c <= 100; c++) {
        int l = s->loc[c];
        if (l < PL_MAX_SEATS)
            n[l]++;
        else if (l == KAR_LOC_DEAD)
            dead++;
        else if (l == KAR_LOC_FIELD)
            field++;
        else if (l == KAR_LOC_POOL)
            pool++;
        else {
            out++;
            untaken_out += s->taken_by[c] == 0;
        }
        if (s->variant == KAR_KYOGI && l < 2 && s->stage != KAR_ST_PLACE)
            assert_int_equal(s->grid[l][s->row[c] - 1][s->slot[c] - 1], c);
    }
    assert_int_equal(dead, dead0);
    if (s->variant == KAR_CHIRASHI) {
        int taken = s->pot;
        for (int p = 0; p < s->nseats; p++)
            taken += s->count[p];
        assert_int_equal(field + taken + untaken_out + dead, 100);
        assert_int_equal(taken + untaken_out, out);
    } else {
        int held = 0;
        for (int p = 0; p < s->nseats; p++) {
            assert_int_equal(n[p], s->count[p]);
            held += n[p];
        }
        assert_int_equal(held + pool + out + dead, 100);
    }
    if (s->variant == KAR_KYOGI)
        for (int t = 0; t < 2; t++) {
            assert_true(s->count[t] <= KAR_ROWS * KAR_SLOTS - 1);
            assert_int_equal(s->grid[t][0][8], 0); /* the free space (KA-R2) */
            int g = 0;
            for (int r = 0; r < KAR_ROWS; r++)
                for (int k = 0; k < KAR_SLOTS; k++)
                    if (s->grid[t][r][k]) {
                        assert_int_equal(s->loc[s->grid[t][r][k]], t);
                        g++;
                    }
            assert_int_equal(g, s->count[t] - (s->stage == KAR_ST_PLACE && s->last.receiver == t));
        }
}

/* A random response: none, or 1-3 touches (the read card likely among them). */
static pl_action random_touch(const kar_state *s, pl_rng *r)
{
    if (pl_rng_below(r, 4) == 0)
        return KAR_A_NONE;
    int cand[100], nc = 0;
    for (int c = 1; c <= 100; c++)
        if (s->variant == KAR_KYOGI ? s->loc[c] < 2
            : s->variant == KAR_UTA ? s->loc[c] < 4 || s->loc[c] == KAR_LOC_POOL
                                    : s->loc[c] == KAR_LOC_FIELD)
            cand[nc++] = c;
    if (!nc)
        return KAR_A_NONE;
    kar_touch t[3];
    int n = s->variant == KAR_UTA ? 1 : 1 + (int)pl_rng_below(r, 3);
    for (int i = 0; i < n; i++) {
        bool onread = i == 0 && pl_rng_below(r, 3) > 0;
        int c = cand[pl_rng_below(r, (uint32_t)nc)];
        if (onread) {
            for (int k = 0; k < nc; k++)
                if (cand[k] == s->cur)
                    c = s->cur;
        }
        t[i].card = (uint8_t)c;
        t[i].ms = (uint16_t)(s->last.decide_ms + pl_rng_below(r, 2000));
    }
    pl_action a = kar_touch_action(t, n);
    if (s->answer_poet) /* KA-U4 answer=poet: mostly the touched card's poet */
        a |= KAR_A_POET(pl_rng_below(r, 4) ? t[0].card : 1 + pl_rng_below(r, 100));
    return a;
}

/* from_text(to_text(s)) gives back exactly `s` (every byte), read into a
 * state fresh from init with the same options. */
static void check_text_round_trip(const kar_state *s, const kar_state *initial)
{
    pl_buf t = {0}, err = {0};
    kar_state back;
    memcpy(&back, initial, sizeof back);
    kar_to_text(s, &t);
    if (kar_from_text(&back, pl_buf_str(&t), &err) < 0)
        fail_msg("from_text refused '%s': %s", pl_buf_str(&t), pl_buf_str(&err));
    if (memcmp(&back, s, sizeof back)) {
        pl_buf t2 = {0};
        kar_to_text(&back, &t2);
        size_t off = 0;
        while (((const unsigned char *)&back)[off] == ((const unsigned char *)s)[off])
            off++;
        fail_msg("position round trip differs at byte %zu:\n%s\n%s", off, pl_buf_str(&t), pl_buf_str(&t2));
    }
    pl_buf_free(&t);
    pl_buf_free(&err);
}

/* When set, the karuta bot chooses the slot of every received card. */
static bool bot_places;

static void random_match(const char *opts, uint64_t seed)
{
    char o[256];
    snprintf(o, sizeof o, "%s seed=%llu", opts, (unsigned long long)seed);
    pl_match *m = th_new("karuta", o);
    kar_state *s = KS(m);
    const pl_game *g = m->game;
    pl_rng r;
    pl_rng_seed(&r, seed * 7919 + 1);
    int dead0 = 0;
    for (int c = 1; c <= 100; c++)
        dead0 += s->loc[c] == KAR_LOC_DEAD;
    if (s->variant == KAR_KYOGI)
        for (int t = 0; t < 2; t++)
            assert_true(s->count[t] < 6 || kar_row_rule(s, t)); /* as deal= checks it */
    int steps = 0;
    if (seed % 8 == 1)
        check_text_round_trip(s, m->initial);
    while (g->phase(s) != PL_PHASE_OVER) {
        assert_true(++steps < 3000);
        pl_action a;
        int seat;
        if (g->phase(s) == PL_PHASE_CHANCE) {
            seat = PL_CHANCE;
            a = g->sample_chance(s, &r);
        } else {
            int seats[PL_MAX_SEATS];
            int n = g->actors(s, seats);
            assert_true(n > 0);
            seat = seats[pl_rng_below(&r, (uint32_t)n)];
            if (s->stage == KAR_ST_TOUCH) {
                a = random_touch(s, &r);
            } else if (s->stage == KAR_ST_PLACE && bot_places) {
                pl_buf err = {0};
                if (kar_bot(s, seat, "expert", seed, &a, &err) < 0)
                    fail_msg("bot: %s", pl_buf_str(&err));
                pl_buf_free(&err);
            } else {
                pl_action acts[64];
                int k = g->legal(s, seat, acts, 64);
                assert_true(k > 0);
                a = acts[pl_rng_below(&r, (uint32_t)(k < 64 ? k : 64))];
            }
        }
        pl_buf why = {0};
        if (kar_why_invalid(s, seat, a, &why))
            fail_msg("invalid: %s", pl_buf_str(&why));
        pl_buf_free(&why);
        g->apply(s, seat, a);
        check_invariants(s, dead0);
        if (seed % 8 == 1) /* every state of one match in 8 (the whole run under ASan fits its timeout) */
            check_text_round_trip(s, m->initial);
        if (s->stage == KAR_ST_TOUCH && steps % 7 == 0)
            for (int c = 1; c <= 100; c += 9)
                if (s->kim.unread[c])
                    assert_int_equal(kar_kim_dynamic(&s->kim, c), brute_dynamic(s, c));
    }
    pl_outcome out;
    g->outcome(s, &out);
    assert_true(out.kind == PL_WIN_SEAT || out.kind == PL_WIN_DRAW || (s->teams && out.kind == PL_WIN_TEAM));
    if (s->variant == KAR_KYOGI) {
        assert_int_equal(out.kind, PL_WIN_SEAT);
        assert_int_equal(s->count[out.winner], 0);
    }
    pl_match_free(m);
}

static int matches(int dflt)
{
    const char *e = getenv("KARUTA_MATCHES");
    return e ? atoi(e) : dflt;
}

static void test_kyogi_random_matches(void **st)
{
    (void)st;
    int n = matches(10000);
    for (int i = 0; i < n; i++)
        random_match(i % 3 == 0 ? "send=auto" : i % 3 == 1 ? "place=manual" : "send=auto tie_ms=0", (uint64_t)i + 1);
}

static void test_uta_random_matches(void **st)
{
    (void)st;
    int n = matches(10000) / 5;
    for (int i = 0; i < n; i++)
        random_match(i % 2 ? "variant=uta" : "variant=uta pool=auto owner_ms=500", (uint64_t)i + 1);
}

static void test_chirashi_random_matches(void **st)
{
    (void)st;
    int n = matches(10000) / 5;
    for (int i = 0; i < n; i++) {
        char o[64];
        snprintf(o, sizeof o, "variant=chirashi players=%d cards=%s", 1 + i % 8, i % 2 ? "50" : "100");
        random_match(o, (uint64_t)i + 1);
    }
}

/* KA-R2: no card ever lies on the free space, whoever places it: random
 * legal slots, the bot, the automatic layout and sends with nearly every card
 * on one side, rearranging (check_invariants looks after every action). */
static void test_KA_R2_free_space_empty_in_random_matches(void **st)
{
    (void)st;
    char crowded[512];
    size_t len = (size_t)snprintf(crowded, sizeof crowded, "deal=");
    for (int c = 1; c <= 50; c++) /* 48 cards on seat 0's side, 2 on seat 1's */
        len += (size_t)snprintf(crowded + len, sizeof crowded - len, "%d%s", c, c == 48 ? "/" : c < 50 ? ";" : "");
    char opts[640];
    int n = matches(10000) / 20;
    for (int i = 0; i < n; i++) {
        bot_places = i % 2 == 0;
        snprintf(opts, sizeof opts, "%s%s", i % 4 < 2 ? "place=manual " : "rearrange=on place=manual ",
                 i % 3 == 0 ? crowded : "");
        random_match(opts, (uint64_t)i + 1);
    }
    bot_places = false;
    for (int i = 0; i < n / 4; i++) {
        snprintf(opts, sizeof opts, "send=auto %s", crowded);
        random_match(opts, (uint64_t)i + 1);
    }
}

/* Plays a match through pl_match (canonical legal actions) and checks that
 * its record reads back to the same state and writes the same text. */
static void roundtrip(const char *opts, uint64_t seed)
{
    char o[256];
    snprintf(o, sizeof o, "%s seed=%llu", opts, (unsigned long long)seed);
    pl_match *m = th_new("karuta", o);
    pl_rng r;
    pl_rng_seed(&r, seed);
    pl_buf err = {0};
    pl_action *acts = malloc(sizeof *acts * PL_MAX_ACTIONS);
    while (m->game->phase(m->state) != PL_PHASE_OVER) {
        if (m->game->phase(m->state) == PL_PHASE_CHANCE) {
            assert_int_equal(pl_match_random(m, NULL, &err), 0);
            continue;
        }
        int seats[PL_MAX_SEATS];
        int seat = seats[0 * m->game->actors(m->state, seats)];
        int n = m->game->legal(m->state, seat, acts, PL_MAX_ACTIONS);
        assert_true(n > 0);
        /* mostly none or a touch of the read card at one of its canonical times */
        pl_action a = acts[pl_rng_below(&r, (uint32_t)n)];
        if (KS(m)->stage == KAR_ST_TOUCH && pl_rng_below(&r, 2))
            for (int i = 0; i < n; i++)
                if ((acts[i] & 0x7f) == KS(m)->cur && (acts[i] & KAR_A_TOUCH) && pl_rng_below(&r, 2))
                    a = acts[i];
        if (pl_match_play(m, seat, a, &err) < 0)
            fail_msg("%s", pl_buf_str(&err));
    }
    free(acts);
    pl_buf rec = {0}, rec2 = {0};
    assert_int_equal(pl_record_write(m, &rec), 0);
    pl_match *back = pl_record_read(pl_buf_str(&rec), &err);
    if (!back)
        fail_msg("record: %s", pl_buf_str(&err));
    assert_int_equal(pl_record_write(back, &rec2), 0);
    assert_string_equal(pl_buf_str(&rec), pl_buf_str(&rec2));
    assert_memory_equal(m->state, back->state, sizeof(kar_state));
    pl_buf_free(&rec);
    pl_buf_free(&rec2);
    pl_buf_free(&err);
    pl_match_free(back);
    pl_match_free(m);
}

static void test_records_round_trip(void **st)
{
    (void)st;
    int n = matches(10000) / 50;
    for (int i = 0; i < n; i++) {
        static const char *const opts[] = {"", "send=auto", "variant=uta", "variant=chirashi players=3",
                                           "place=manual"};
        roundtrip(opts[i % 5], (uint64_t)i + 100);
    }
}

/* The optional rules (teams=2v2, answer=poet, rearrange=on): random
 * matches with the invariants, and record round trips. */
static void test_option_random_matches(void **st)
{
    (void)st;
    int n = matches(10000) / 20;
    for (int i = 0; i < n; i++)
        random_match(i % 3 == 0   ? "rearrange=on"
                     : i % 3 == 1 ? "rearrange=on place=manual send=auto"
                                  : "variant=uta teams=2v2 answer=poet",
                     (uint64_t)i + 1);
    for (int i = 0; i < n / 10; i++)
        roundtrip(i % 2 ? "rearrange=on" : "variant=uta teams=2v2 answer=poet", (uint64_t)i + 300);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kyogi_random_matches),
        cmocka_unit_test(test_uta_random_matches),
        cmocka_unit_test(test_chirashi_random_matches),
        cmocka_unit_test(test_KA_R2_free_space_empty_in_random_matches),
        cmocka_unit_test(test_records_round_trip),
        cmocka_unit_test(test_option_random_matches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
