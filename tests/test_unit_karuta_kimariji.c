/* test_unit_karuta_kimariji.c — the hundred poems built into the program and
 * their kimariji: KA-K1 (sound keys), KA-K2 (static: 7/42/37/6/2/6, equal to
 * the data), KA-K3 (dynamic, the rule file's examples), KA-K4 (territory),
 * NFC text, romaji and the reading timeline. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "helpers.h"
#include "games/karuta/kar.h"

static const char *key(int n, int len)
{
    static char out[128];
    pl_buf b = {0};
    kar_key_text(n, len, &b);
    snprintf(out, sizeof out, "%s", pl_buf_str(&b));
    pl_buf_free(&b);
    return out;
}

static void test_poems_loaded_nfc(void **st)
{
    (void)st;
    for (int n = 1; n <= KAR_NPOEMS; n++) {
        const kar_poem *p = kar_poem_get(n);
        assert_non_null(p);
        assert_int_equal(p->number, n);
        const char *fields[] = {p->poet, p->text, p->kana, p->reading, p->kyogi_kami, p->card, p->romaji};
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
            assert_true(strlen(fields[i]) > 0);
            utf8proc_uint8_t *nfc = utf8proc_NFC((const utf8proc_uint8_t *)fields[i]);
            assert_non_null(nfc);
            assert_string_equal((const char *)nfc, fields[i]);
            free(nfc); /* utf8proc's own allocation */
        }
    }
    assert_null(kar_poem_get(0));
    assert_null(kar_poem_get(101));
    assert_string_equal(kar_poem_get(1)->poet, "天智天皇");
    assert_string_equal(kar_poem_get(1)->card, "わかころも てはつゆに ぬれつつ");
    assert_string_equal(kar_poem_get(1)->text, "秋の田の かりほの庵の 苫をあらみ わが衣手は 露にぬれつつ");
}

static void test_romaji_hepburn(void **st)
{
    (void)st;
    assert_string_equal(kar_poem_get(1)->romaji,
                        "akinotano karionoiono tomaoarami wagakoromodewa tsuyuninuretsutsu");
    pl_buf b = {0};
    kar_romaji("ちょう しゃ きゃ じょ かった まっち ほんい こんや", &b);
    assert_string_equal(pl_buf_str(&b), "chou sha kya jo katta matchi hon'i kon'ya");
    pl_buf_free(&b);
}

static void test_KA_K1_sound_key_modern_reading(void **st)
{
    (void)st;
    /* 44 spells あふ as おう: folded to おお, the same long vowel as 60 and 95 */
    assert_string_equal(key(44, 3), "おおこ");
    assert_string_equal(key(60, 3), "おおえ");
    /* modern reading, never the historical kana: をぐらやま is read おぐ */
    assert_string_equal(key(26, 2), "おぐ");
    assert_string_equal(key(63, 3), "いまわ"); /* いまは → いまわ */
    assert_int_equal(kar_kim_static(44), 3);
    assert_int_equal(kar_kim_static(26), 2);
}

static void test_KA_K2_static_distribution_and_data(void **st)
{
    (void)st;
    int dist[KAR_DEPTH + 1] = {0};
    for (int n = 1; n <= KAR_NPOEMS; n++) {
        int k = kar_kim_static(n);
        assert_in_range(k, 1, KAR_DEPTH);
        dist[k]++;
        assert_string_equal(key(n, k), kar_poem_get(n)->kimariji_data);
    }
    int want[] = {0, 7, 42, 37, 6, 2, 6};
    for (int d = 1; d <= KAR_DEPTH; d++)
        assert_int_equal(dist[d], want[d]);
    /* the six-kana pairs and the five-kana pair */
    assert_int_equal(kar_kim_static(31), 6);
    assert_int_equal(kar_kim_static(64), 6);
    assert_int_equal(kar_kim_static(83), 5);
    assert_int_equal(kar_kim_static(93), 5);
    /* the fresh trie gives the same as the static scan */
    kar_kim k;
    kar_kim_init(&k);
    for (int n = 1; n <= KAR_NPOEMS; n++)
        assert_int_equal(kar_kim_dynamic(&k, n), kar_kim_static(n));
}

static void test_KA_K3_dynamic_imawa_ima_i(void **st)
{
    (void)st;
    kar_kim k;
    kar_kim_init(&k);
    assert_string_equal(key(63, kar_kim_dynamic(&k, 63)), "いまわ");
    kar_kim_read(&k, 21); /* いまこ */
    assert_string_equal(key(63, kar_kim_dynamic(&k, 63)), "いま");
    kar_kim_read(&k, 61); /* いに */
    assert_string_equal(key(63, kar_kim_dynamic(&k, 63)), "い");
    /* dead cards stay in the comparison set until read: zones do not matter */
    kar_kim_init(&k);
    kar_kim_set_zone(&k, 63, 0);
    assert_int_equal(kar_kim_dynamic(&k, 63), 3);
    /* a read poem still has a kimariji against the unread ones */
    kar_kim_read(&k, 63);
    assert_int_equal(kar_kim_dynamic(&k, 63), 3);
    kar_kim_read(&k, 63); /* reading twice changes nothing */
    assert_string_equal(key(21, kar_kim_dynamic(&k, 21)), "いま");
}

static void test_KA_K4_territory_kimariji(void **st)
{
    (void)st;
    kar_kim k;
    kar_kim_init(&k);
    /* いに / いまは / いまこ all in one territory → "い" */
    kar_kim_set_zone(&k, 21, 1);
    kar_kim_set_zone(&k, 61, 1);
    kar_kim_set_zone(&k, 63, 1);
    assert_int_equal(kar_kim_territory(&k, 63), 1);
    assert_int_equal(kar_kim_dynamic(&k, 63), 3); /* kept apart from KA-K3 */
    /* one sibling elsewhere: いま shared with 21 only once 61 is on the other side */
    kar_kim_set_zone(&k, 61, 0);
    assert_int_equal(kar_kim_territory(&k, 63), 2);
    /* a dead sibling: no shortening below the true kimariji */
    kar_kim_set_zone(&k, 21, -1);
    assert_int_equal(kar_kim_territory(&k, 63), 3);
    /* きみがため は/を together → きみ */
    kar_kim_set_zone(&k, 15, 0);
    kar_kim_set_zone(&k, 50, 0);
    assert_string_equal(key(15, kar_kim_territory(&k, 15)), "きみ");
    assert_int_equal(kar_kim_territory(&k, 2), 0); /* in no zone */
}

static void test_timeline(void **st)
{
    (void)st;
    for (int n = 1; n <= KAR_NPOEMS; n++) {
        kar_kana tl[2 * KAR_TL_MAX];
        int m = kar_timeline(n, 6000, 5000, false, false, tl, 2 * KAR_TL_MAX);
        assert_true(m >= 12 && m <= KAR_TL_MAX);
        assert_int_equal(tl[0].start_ms, 0);
        for (int i = 1; i < m; i++) {
            assert_true(tl[i].start_ms > tl[i - 1].start_ms);
            assert_int_equal(tl[i - 1].end_ms, tl[i].start_ms);
        }
        assert_true(tl[m - 1].end_ms <= 6000);
        /* the timeline's kana are the sound key's (after the おう fold) */
        const kar_poem *p = kar_poem_get(n);
        for (int i = 0; i < p->kim; i++) {
            char u[5] = {0};
            utf8proc_encode_char((utf8proc_int32_t)p->key[i], (utf8proc_uint8_t *)u);
            if (!(n == 44 && i == 1))
                assert_string_equal(tl[i].kana, u);
        }
        assert_int_equal(kar_kana_start(n, 6000, false, 1), 0);
        int w = kar_timeline(n, 6000, 5000, true, false, tl, 2 * KAR_TL_MAX);
        assert_true(w > m);
        assert_int_equal(tl[m].start_ms, 6000);
    }
    /* あきのたのー: the hold after の delays か */
    kar_kana tl[KAR_TL_MAX];
    kar_timeline(1, 6000, 5000, false, false, tl, KAR_TL_MAX);
    assert_string_equal(tl[4].kana, "の");
    assert_string_equal(tl[5].kana, "か");
    assert_int_equal(tl[5].start_ms - tl[4].start_ms, 3 * (tl[4].start_ms - tl[3].start_ms));
}

/* tempo=even: every unit lasts upper_ms / R (lower half: lower_ms / R'), R
 * the rounded mean unit count of the 100 halves, so the start of kana k
 * depends only on the units before it; tempo=poem keeps each poem's own
 * spread exactly. */
static void test_timeline_tempo(void **st)
{
    (void)st;
    int sum[2] = {0, 0};
    for (int n = 1; n <= KAR_NPOEMS; n++)
        for (int h = 0; h < 2; h++)
            sum[h] += kar_poem_get(n)->tl_total[h];
    int r0 = (sum[0] + 50) / 100, r1 = (sum[1] + 50) / 100;
    assert_int_equal(kar_even_units(0), r0);
    assert_int_equal(kar_even_units(1), r1);
    assert_int_equal(r0, 24); /* the numbers in docs/notation-karuta.md */
    assert_int_equal(r1, 19);
    for (int n = 1; n <= KAR_NPOEMS; n++) {
        const kar_poem *p = kar_poem_get(n);
        kar_kana ev[2 * KAR_TL_MAX], po[2 * KAR_TL_MAX];
        int w = kar_timeline(n, 6000, 5000, true, true, ev, 2 * KAR_TL_MAX);
        assert_int_equal(kar_timeline(n, 6000, 5000, true, false, po, 2 * KAR_TL_MAX), w);
        assert_int_equal(w, p->tl_n[0] + p->tl_n[1]);
        int up_end = p->tl_total[0] * 6000 / r0;
        for (int i = 0; i < w; i++) {
            int h = i >= p->tl_n[0], k = h ? i - p->tl_n[0] : i;
            int before = p->tl_start[h][k], after = k + 1 < p->tl_n[h] ? p->tl_start[h][k + 1] : p->tl_total[h];
            /* even: units before the kana times one unit's length */
            int base = h ? up_end : 0, span = h ? 5000 : 6000, r = h ? r1 : r0;
            assert_int_equal(ev[i].start_ms, base + before * span / r);
            assert_int_equal(ev[i].end_ms, base + after * span / r);
            /* poem: the old spread of the poem's own units */
            int pbase = h ? 6000 : 0;
            assert_int_equal(po[i].start_ms, pbase + before * span / p->tl_total[h]);
            assert_int_equal(po[i].end_ms, pbase + after * span / p->tl_total[h]);
            if (!h) {
                assert_int_equal(kar_kana_start(n, 6000, true, k + 1), ev[i].start_ms);
                assert_int_equal(kar_kana_start(n, 6000, false, k + 1), po[i].start_ms);
            }
        }
        assert_int_equal(kar_kana_start(n, 6000, true, p->tl_n[0] + 1), up_end);
        assert_int_equal(kar_kana_start(n, 6000, false, p->tl_n[0] + 1), 6000);
        /* even: two poems whose first k kana take the same units start kana k
         * at the same time, whatever follows */
        for (int m = 1; m <= KAR_NPOEMS; m++) {
            const kar_poem *q = kar_poem_get(m);
            for (int k = 1; k <= p->tl_n[0] && k <= q->tl_n[0]; k++)
                if (p->tl_start[0][k - 1] == q->tl_start[0][k - 1])
                    assert_int_equal(kar_kana_start(n, 6000, true, k), kar_kana_start(m, 6000, true, k));
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_poems_loaded_nfc),
        cmocka_unit_test(test_romaji_hepburn),
        cmocka_unit_test(test_KA_K1_sound_key_modern_reading),
        cmocka_unit_test(test_KA_K2_static_distribution_and_data),
        cmocka_unit_test(test_KA_K3_dynamic_imawa_ima_i),
        cmocka_unit_test(test_KA_K4_territory_kimariji),
        cmocka_unit_test(test_timeline),
        cmocka_unit_test(test_timeline_tempo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
