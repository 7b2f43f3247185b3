/* test_rules_karuta_reading_leak.c — KA-K1 and the reading the server sends
 * (issue 30, part 2): what a client receives during a reading — each kana of
 * karp_reading_of's timeline, and its t_ms where the tempo makes the times
 * tell nothing (tempo=even) — never narrows the unread poems to one before
 * the deciding kana does. For every poem of an unread set and every prefix
 * of its stream, the unread poems whose stream starts the same must include
 * every unread poem whose sound key (KA-K1) starts the same: all 100 unread
 * and random unread sets, under kyōgi, uta (answer=card and poet) and
 * chirashi, each with tempo=poem and tempo=even.
 *
 * tempo=poem is checked on the kana text only: there a kana's length tells
 * the poem's unit count by design (docs/notation-karuta.md "The reading
 * timeline"), which is why the server creates rooms with tempo=even. */
#include "karuta_helpers.h"
#include "games/karuta/public/kar_practice.h"
#include "parlour/registry.h"

/* The options of each reading setting (seed fixed: the deal does not matter). */
static const char *const settings[] = {
    "variant=kyogi send=auto place=auto",
    "variant=kyogi send=auto place=auto tempo=even",
    "variant=uta pool=auto",
    "variant=uta pool=auto tempo=even",
    "variant=uta pool=auto answer=poet",
    "variant=uta pool=auto answer=poet tempo=even",
    "variant=chirashi players=2",
    "variant=chirashi players=2 tempo=even",
    "variant=chirashi players=1 cards=50 tempo=even",
};

static pl_match *match_of(const char *opts)
{
    char buf[256], *w[16];
    int n = 0;
    snprintf(buf, sizeof buf, "%s seed=5", opts);
    for (char *save = NULL, *t = strtok_r(buf, " ", &save); t && n < 16; t = strtok_r(NULL, " ", &save))
        w[n++] = t;
    pl_buf err = {0};
    pl_match *m = pl_match_new(pl_game_find("karuta"), n, w, &err);
    if (!m)
        fail_msg("pl_match_new %s: %s", opts, pl_buf_str(&err));
    pl_buf_free(&err);
    return m;
}

/* The stream of `card` read from `base` (stage read): kana and times. */
static void stream_of(const kar_state *base, int card, karp_reading *r)
{
    kar_state s = *base;
    pl_action a = KAR_A_READ | (pl_action)card;
    assert_int_equal(kar_why_invalid(&s, PL_CHANCE, a, NULL), 0);
    kar_game.apply(&s, PL_CHANCE, a);
    assert_int_equal(karp_reading_of(&kar_game, &s, r), 1);
    assert_int_equal(r->card, card);
}

/* Do the first `k` messages of two streams agree (kana, and times when `timed`)? */
static bool same_prefix(const karp_reading *a, const karp_reading *b, int k, bool timed)
{
    for (int i = 0; i < k; i++) {
        if (i >= a->nkana || i >= b->nkana)
            return i >= a->nkana && i >= b->nkana;
        if (strcmp(a->kana[i], b->kana[i]) || (timed && a->start_ms[i] != b->start_ms[i]))
            return false;
    }
    return true;
}

static bool same_key(int p, int q, int k)
{
    const kar_poem *a = kar_poem_get(p), *b = kar_poem_get(q);
    for (int i = 0; i < k; i++)
        if (i >= a->keylen || i >= b->keylen || a->key[i] != b->key[i])
            return false;
    return true;
}

/* Checks every unread poem of `base` (stage read) and every prefix of its
 * stream; returns the number of (poem, prefix) pairs checked. */
static int check_unread(const kar_state *base, bool timed, const char *what)
{
    static karp_reading rd[KAR_NPOEMS + 1];
    int unread[KAR_NPOEMS], nu = 0, pairs = 0;
    for (int c = 1; c <= KAR_NPOEMS; c++)
        if (base->kim.unread[c]) {
            unread[nu++] = c;
            stream_of(base, c, &rd[c]);
        }
    for (int i = 0; i < nu; i++) {
        int p = unread[i];
        const karp_reading *r = &rd[p];
        /* up to the deciding kana (the last one the key needs), and one past */
        for (int k = 1; k <= r->decide + 2 && k <= r->nkana; k++, pairs++) {
            int by_key = 0, by_sent = 0;
            for (int j = 0; j < nu; j++) {
                int q = unread[j];
                bool key = same_key(p, q, k), sent = same_prefix(r, &rd[q], k, timed);
                by_key += key;
                by_sent += sent;
                if (key && !sent)
                    fail_msg("%s: poem %d, %d kana sent (%s%s): poem %d shares the key but not what is sent", what,
                             p, k, r->kana[k - 1], timed ? ", with times" : "", q);
            }
            /* before the deciding kana, what is sent leaves two or more */
            if (k <= r->decide && by_sent < 2)
                fail_msg("%s: poem %d named by %d kana, its deciding kana is kana %d", what, p, k, r->decide + 1);
            assert_true(by_sent >= by_key);
        }
    }
    return pairs;
}

/* Reads `n` cards of `m` chosen by `rng`, each answered by nobody, so that
 * the unread set shrinks without sends (stage read again after each). */
static void read_some(pl_match *m, pl_rng *rng, int n)
{
    for (int i = 0; i < n && KS(m)->stage == KAR_ST_READ; i++) {
        int c;
        do
            c = 1 + (int)pl_rng_below(rng, KAR_NPOEMS);
        while (!KS(m)->kim.unread[c]);
        char t[32];
        snprintf(t, sizeof t, "read %d", c);
        kar_do(m, PL_CHANCE, t);
        for (int p = 0; p < KS(m)->nseats && KS(m)->stage == KAR_ST_TOUCH; p++)
            kar_do(m, p, "none");
    }
}

/* KA-K1: with all 100 unread, what is sent never tells a poem before its
 * deciding kana (poem 44 was sent お, う: no other poem is spelled おう). */
static void test_KA_K1_sent_kana_tell_no_more_than_the_key_all_unread(void **st)
{
    (void)st;
    for (size_t i = 0; i < sizeof settings / sizeof *settings; i++) {
        pl_match *m = match_of(settings[i]);
        if (KS(m)->stage == KAR_ST_POOL) /* uta pool=auto plays it at once; nothing else to do */
            fail_msg("%s: still in the pool stage", settings[i]);
        assert_int_equal(KS(m)->stage, KAR_ST_READ);
        int pairs = check_unread(KS(m), KS(m)->tempo_even, settings[i]);
        if (pairs < 300) /* every poem, 1..6 kana and one more */
            fail_msg("%s: %d pairs", settings[i], pairs);
        pl_match_free(m);
    }
}

/* KA-K1 and KA-K3: the same with random unread sets (cards read untouched). */
static void test_KA_K3_sent_kana_tell_no_more_than_the_key_random_unread(void **st)
{
    (void)st;
    pl_rng rng;
    pl_rng_seed(&rng, 30);
    for (size_t i = 0; i < sizeof settings / sizeof *settings; i++) {
        for (int round = 0; round < 6; round++) {
            pl_match *m = match_of(settings[i]);
            read_some(m, &rng, 10 + (int)pl_rng_below(&rng, 80));
            if (KS(m)->stage != KAR_ST_READ) { /* the game ended: nothing left to read */
                pl_match_free(m);
                continue;
            }
            check_unread(KS(m), KS(m)->tempo_even, settings[i]);
            pl_match_free(m);
        }
    }
}

/* The kana of the timeline are the sound key's, one for one, for all 100
 * (the key of the upper half; poem 74's competition reading stops one kana
 * short of its modern reading). */
static void test_KA_K1_timeline_spells_the_sound_key(void **st)
{
    (void)st;
    for (int c = 1; c <= KAR_NPOEMS; c++) {
        kar_kana tl[2 * KAR_TL_MAX];
        int n = kar_timeline(c, 6000, 5000, false, true, tl, 2 * KAR_TL_MAX);
        const kar_poem *p = kar_poem_get(c);
        assert_true(n <= p->keylen);
        pl_buf key = {0};
        kar_key_text(c, n, &key);
        pl_buf sent = {0};
        for (int i = 0; i < n; i++)
            pl_buf_puts(&sent, tl[i].kana);
        if (strcmp(pl_buf_str(&key), pl_buf_str(&sent)))
            fail_msg("poem %d: sent %s, key %s", c, pl_buf_str(&sent), pl_buf_str(&key));
        pl_buf_free(&key);
        pl_buf_free(&sent);
    }
    /* poem 44 (逢ふことの, modern おうことの) is read おおことの */
    kar_kana tl[KAR_TL_MAX];
    kar_timeline(44, 6000, 5000, false, true, tl, KAR_TL_MAX);
    assert_string_equal(tl[0].kana, "お");
    assert_string_equal(tl[1].kana, "お");
    assert_string_equal(tl[2].kana, "こ");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_KA_K1_sent_kana_tell_no_more_than_the_key_all_unread),
        cmocka_unit_test(test_KA_K3_sent_kana_tell_no_more_than_the_key_random_unread),
        cmocka_unit_test(test_KA_K1_timeline_spells_the_sound_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
