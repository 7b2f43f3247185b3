/* test_unit_seek.c — "Play now"'s pool of seeks (src/server/seek.h): rating
 * windows that widen with the wait, mutual windows, groups of 3, 4 and 6
 * (teams), the computer after N seconds, cancels, hostile input, and a
 * property test over thousands of random arrivals and cancels checked
 * against a brute-force model. Times in ms on a fake clock. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "seek.h"

/* The pool of these tests: window 100 at no wait, +10 a second, capped at 600. */
static seek_pool *pool(void)
{
    seek_config c = {.base = 100, .widen_per_s = 10, .cap = 600};
    seek_pool *p = seek_new(&c);
    assert_non_null(p);
    return p;
}

static void add(seek_pool *p, uint64_t id, const char *key, int players, double rating, int64_t made,
                int computer_s, int range)
{
    seek_req r = {.id = id, .key = key, .players = players, .rating = rating, .rd = 50,
                  .made_ms = made, .computer_after_s = computer_s, .range = range};
    int rc = seek_add(p, &r);
    if (rc != SEEK_OK)
        fail_msg("seek_add %llu: %s", (unsigned long long)id, seek_strerror(rc));
}

static const seek_pairing *tick(seek_pool *p, int64_t now, size_t *n)
{
    return seek_tick(p, now, n);
}

static void test_two_in_range_pair_at_once(void **st)
{
    (void)st;
    seek_pool *p = pool();
    add(p, 1, "ur/skiryuk", 2, 1500, 0, 0, 0);
    add(p, 2, "ur/skiryuk", 2, 1580, 0, 0, 0);
    add(p, 3, "ur/finkel", 2, 1500, 0, 0, 0); /* another key: never with these */
    assert_int_equal(seek_waiting(p, "ur/skiryuk"), 2);
    size_t n;
    const seek_pairing *pr = tick(p, 0, &n);
    assert_int_equal(n, 1);
    assert_string_equal(pr[0].key, "ur/skiryuk");
    assert_int_equal(pr[0].n, 2);
    assert_int_equal(pr[0].computer, 0);
    assert_int_equal(pr[0].ids[0], 1); /* lower rating first */
    assert_int_equal(pr[0].ids[1], 2);
    assert_true(pr[0].spread == 80);
    assert_int_equal(seek_waiting(p, "ur/skiryuk"), 0);
    assert_int_equal(seek_waiting(p, "ur/finkel"), 1);
    assert_int_equal(seek_total(p), 1);
    seek_free(p);
}

/* 1500 and 1700 made together: each window is 100 + 10 t, so they fit at
 * exactly t = (200 - 100) / 10 = 10 s, and not one tick earlier. */
static void test_out_of_range_wait_until_windows_widen(void **st)
{
    (void)st;
    seek_pool *p = pool();
    add(p, 1, "ur/skiryuk", 2, 1500, 0, 0, 0);
    add(p, 2, "ur/skiryuk", 2, 1700, 0, 0, 0);
    size_t n;
    for (int64_t t = 0; t < 10000; t += 100) {
        tick(p, t, &n);
        assert_int_equal(n, 0);
    }
    tick(p, 9999, &n);
    assert_int_equal(n, 0);
    assert_true(seek_window(p, 1, 9999) < 200);
    assert_true(seek_window(p, 1, 10000) == 200);
    const seek_pairing *pr = tick(p, 10000, &n);
    assert_int_equal(n, 1);
    assert_int_equal(pr[0].ids[0], 1);
    assert_int_equal(pr[0].ids[1], 2);
    seek_free(p);
}

/* Mutual windows: A (1500) has waited 30 s, its window 400; B (1700) comes at
 * 30 s with window 100. A sees B at once, B does not see A until its own
 * window reaches 200, at 30 + 10 = 40 s. C asked a range of 50: whoever waits,
 * it is never paired 200 points away. */
static void test_mutual_windows(void **st)
{
    (void)st;
    seek_pool *p = pool();
    add(p, 1, "ur/skiryuk", 2, 1500, 0, 0, 0);
    size_t n;
    tick(p, 30000, &n);
    assert_int_equal(n, 0);
    add(p, 2, "ur/skiryuk", 2, 1700, 30000, 0, 0);
    for (int64_t t = 30000; t < 40000; t += 100) {
        tick(p, t, &n);
        assert_int_equal(n, 0);
    }
    const seek_pairing *pr = tick(p, 40000, &n);
    assert_int_equal(n, 1);
    assert_int_equal(pr[0].ids[0], 1);

    add(p, 3, "ur/skiryuk", 2, 1500, 40000, 0, 0);
    add(p, 4, "ur/skiryuk", 2, 1700, 40000, 0, 50);
    assert_true(seek_window(p, 4, 40000) == 50);
    for (int64_t t = 40000; t < 40000 + 3600 * 1000; t += 60000) {
        tick(p, t, &n);
        assert_int_equal(n, 0);
    }
    assert_true(seek_window(p, 3, 40000 + 3600 * 1000) == 600); /* the pool's cap */
    seek_free(p);
}

/* Best first: the closest pair wins; on equal spreads the pair with the
 * oldest seek. */
static void test_closest_first_then_oldest(void **st)
{
    (void)st;
    seek_pool *p = pool();
    add(p, 1, "k", 2, 1500, 0, 0, 0);
    add(p, 2, "k", 2, 1560, 0, 0, 0);
    add(p, 3, "k", 2, 1580, 0, 0, 0); /* 2-3 (20) beats 1-2 (60) */
    size_t n;
    const seek_pairing *pr = tick(p, 0, &n);
    assert_int_equal(n, 1);
    assert_int_equal(pr[0].ids[0], 2);
    assert_int_equal(pr[0].ids[1], 3);
    assert_int_equal(seek_waiting(p, "k"), 1);
    seek_cancel(p, 1);

    add(p, 10, "k", 2, 1600, 500, 0, 0);
    add(p, 11, "k", 2, 1650, 900, 0, 0);
    add(p, 12, "k", 2, 1550, 200, 0, 0); /* 12-10 and 10-11 both 50 apart: 12 is older than 11 */
    pr = tick(p, 1000, &n);
    assert_int_equal(n, 1);
    assert_int_equal(pr[0].ids[0], 12);
    assert_int_equal(pr[0].ids[1], 10);
    assert_int_equal(seek_waiting(p, "k"), 1);
    seek_free(p);
}

/* Pairing goes on until nothing fits: 1520-1530 is the best pair, which
 * leaves 1500 and 1550, 50 apart, a pair too (in the same tick). */
static void test_pairs_until_none_fit(void **st)
{
    (void)st;
    seek_pool *p = pool();
    add(p, 1, "k", 2, 1500, 0, 0, 0);
    add(p, 2, "k", 2, 1520, 0, 0, 0);
    add(p, 3, "k", 2, 1530, 0, 0, 0);
    add(p, 4, "k", 2, 1550, 0, 0, 0);
    size_t n;
    const seek_pairing *pr = tick(p, 0, &n);
    assert_int_equal(n, 2);
    assert_int_equal(pr[0].ids[0], 2);
    assert_int_equal(pr[0].ids[1], 3);
    assert_int_equal(pr[1].ids[0], 1);
    assert_int_equal(pr[1].ids[1], 4);
    assert_int_equal(seek_total(p), 0);
    seek_free(p);
}

static void test_three_and_four_player_groups(void **st)
{
    (void)st;
    seek_pool *p = pool();
    const double r3[] = {1700, 1500, 1600, 1520, 1510};
    for (int i = 0; i < 5; i++)
        add(p, 100 + (uint64_t)i, "tamcuc/3", 3, r3[i], 0, 0, 0);
    add(p, 200, "tamcuc/4", 4, 1500, 0, 0, 0);
    add(p, 201, "tamcuc/4", 4, 1550, 0, 0, 0);
    add(p, 202, "tamcuc/4", 4, 1450, 0, 0, 0);
    size_t n;
    const seek_pairing *pr = tick(p, 0, &n);
    assert_int_equal(n, 1); /* three for tamcuc/4 are not enough */
    assert_string_equal(pr[0].key, "tamcuc/3");
    assert_int_equal(pr[0].n, 3);
    assert_int_equal(pr[0].ids[0], 101); /* 1500, 1510, 1520: the closest three */
    assert_int_equal(pr[0].ids[1], 104);
    assert_int_equal(pr[0].ids[2], 103);
    assert_int_equal(seek_waiting(p, "tamcuc/3"), 2);
    assert_int_equal(seek_waiting(p, "tamcuc/4"), 3);
    add(p, 203, "tamcuc/4", 4, 1520, 100, 0, 0);
    pr = tick(p, 100, &n);
    assert_int_equal(n, 1);
    assert_int_equal(pr[0].n, 4);
    assert_int_equal(pr[0].ids[0], 202);
    assert_int_equal(pr[0].ids[3], 201);
    /* 1600 and 1700 (tamcuc/3) wait for a third */
    assert_int_equal(seek_waiting(p, "tamcuc/3"), 2);
    seek_free(p);
}

/* Team keys count every member: 2 v 2 seats 4, 3 v 3 seats 6. A member whose
 * window does not see the others keeps the group from forming around it. */
static void test_team_keys(void **st)
{
    (void)st;
    seek_pool *p = pool();
    for (int i = 0; i < 7; i++)
        add(p, 300 + (uint64_t)i, "cbw/3v3", 6, 1400 + 10 * i, 0, 0, 0);
    for (int i = 0; i < 5; i++)
        add(p, 400 + (uint64_t)i, "cbw/2v2", 4, 1500 + 10 * i, 0, 0, 0);
    size_t n;
    const seek_pairing *pr = tick(p, 0, &n);
    assert_int_equal(n, 2);
    int six = !strcmp(pr[0].key, "cbw/3v3") ? 0 : 1;
    assert_int_equal(pr[six].n, 6);
    assert_int_equal(pr[1 - six].n, 4);
    assert_int_equal(pr[six].ids[0], 300); /* spreads 50: the oldest first, then the lowest */
    assert_int_equal(seek_waiting(p, "cbw/3v3"), 1);
    assert_int_equal(seek_waiting(p, "cbw/2v2"), 1);
    assert_int_equal(seek_add(p, &(seek_req){.id = 9, .key = "cbw/3v3", .players = 4, .rating = 1500}),
                     SEEK_EPLAYERS);

    /* 2 v 2: 1500, 1510, 1520, a narrow 1530 (range 10: it sees 1520..1540
     * only) and 1545: the group is 1500, 1510, 1520, 1545 (spread 45), the
     * narrow one left waiting although it is nearer. */
    seek_pool *q = pool();
    add(q, 1, "cbw/2v2", 4, 1500, 0, 0, 0);
    add(q, 2, "cbw/2v2", 4, 1510, 0, 0, 0);
    add(q, 3, "cbw/2v2", 4, 1520, 0, 0, 0);
    add(q, 4, "cbw/2v2", 4, 1530, 0, 0, 10);
    add(q, 5, "cbw/2v2", 4, 1545, 0, 0, 0);
    pr = tick(q, 0, &n);
    assert_int_equal(n, 1);
    assert_int_equal(pr[0].ids[0], 1);
    assert_int_equal(pr[0].ids[1], 2);
    assert_int_equal(pr[0].ids[2], 3);
    assert_int_equal(pr[0].ids[3], 5);
    assert_int_equal(seek_waiting(q, "cbw/2v2"), 1);
    seek_free(q);
    seek_free(p);
}

/* A computer after 30 s: not at 29.999 s, exactly at 30 s; the seek's rating
 * comes with it. A seek without one never; a person in range beats the
 * computer at the same tick. */
static void test_computer_fallback_exactly_after_n(void **st)
{
    (void)st;
    seek_pool *p = pool();
    add(p, 1, "ur/skiryuk", 2, 1234, 1000, 30, 0);
    add(p, 2, "ur/skiryuk", 2, 2500, 1000, 0, 0);
    size_t n;
    for (int64_t t = 1000; t < 31000; t += 100) {
        tick(p, t, &n);
        assert_int_equal(n, 0);
    }
    tick(p, 30999, &n);
    assert_int_equal(n, 0);
    const seek_pairing *pr = tick(p, 31000, &n);
    assert_int_equal(n, 1);
    assert_int_equal(pr[0].computer, 1);
    assert_int_equal(pr[0].n, 1);
    assert_int_equal(pr[0].ids[0], 1);
    assert_true(pr[0].rating == 1234);
    tick(p, 1000 + 3600 * 1000, &n);
    assert_int_equal(n, 0);
    assert_int_equal(seek_waiting(p, "ur/skiryuk"), 1);
    seek_cancel(p, 2);

    add(p, 3, "ur/skiryuk", 2, 1500, 0, 10, 0);
    add(p, 4, "ur/skiryuk", 2, 1550, 20000, 0, 0);
    pr = tick(p, 20000, &n);
    assert_int_equal(n, 1);
    assert_int_equal(pr[0].computer, 0);
    assert_int_equal(pr[0].ids[0], 3);
    assert_int_equal(pr[0].ids[1], 4);

    const seek_level lv[] = {{"easy", 900}, {"medium", 1300}, {"hard", 1700}, {"perfect", 2100}};
    assert_int_equal(seek_nearest_level(lv, 4, 1234), 1);
    assert_int_equal(seek_nearest_level(lv, 4, 1500), 1); /* equal: the first */
    assert_int_equal(seek_nearest_level(lv, 4, 3000), 3);
    assert_int_equal(seek_nearest_level(lv, 4, 0), 0);
    assert_int_equal(seek_nearest_level(lv, 0, 1500), -1);
    seek_free(p);
}

static void test_cancel(void **st)
{
    (void)st;
    seek_pool *p = pool();
    add(p, 1, "k", 2, 1500, 0, 0, 0);
    add(p, 2, "k", 2, 1510, 0, 0, 0);
    add(p, 3, "k", 2, 1900, 0, 5, 0);
    assert_int_equal(seek_cancel(p, 2), 1);
    assert_int_equal(seek_cancel(p, 2), 0);  /* twice: harmless */
    assert_int_equal(seek_cancel(p, 77), 0); /* unknown: harmless */
    assert_int_equal(seek_cancel(p, 3), 1);
    assert_true(seek_window(p, 3, 0) == -1);
    size_t n;
    tick(p, 60000, &n);
    assert_int_equal(n, 0); /* 3 was cancelled before its computer */
    assert_int_equal(seek_waiting(p, "k"), 1);
    add(p, 2, "k", 2, 1510, 60000, 0, 0); /* the id may come back */
    const seek_pairing *pr = tick(p, 60000, &n);
    assert_int_equal(n, 1);
    assert_int_equal(pr[0].ids[1], 2);
    int w = -1;
    assert_string_equal(seek_key_at(p, 0, &w), "k");
    assert_int_equal(w, 0);
    assert_null(seek_key_at(p, 1, &w));
    assert_int_equal(seek_total(p), 0);
    seek_free(p);
}

static void test_duplicate_and_hostile_input(void **st)
{
    (void)st;
    seek_config c = {.max_seeks = 3, .max_keys = 2};
    seek_pool *p = seek_new(&c);
    assert_non_null(p);
    seek_req r = {.id = 1, .key = "ur/skiryuk", .players = 2, .rating = 1500, .rd = 80};
    assert_int_equal(seek_add(p, &r), SEEK_OK);
    assert_int_equal(seek_add(p, &r), SEEK_EDUP);
    seek_req bad = r;
    bad.id = 2;
    const char *keys[] = {"", "ur skiryuk", "ur\n", "\xe3\x81\x82", "012345678901234567890123456789012", NULL};
    for (int i = 0; i < 6; i++) {
        bad.key = keys[i];
        assert_int_equal(seek_add(p, &bad), SEEK_EINVAL);
    }
    bad.key = "01234567890123456789012345678901"; /* 32 bytes: fine */
    assert_int_equal(seek_add(p, &bad), SEEK_OK);
    seek_cancel(p, 2);
    bad.key = "ur/skiryuk";
    int players[] = {0, 1, 7, -3};
    for (int i = 0; i < 4; i++) {
        bad.players = players[i];
        assert_int_equal(seek_add(p, &bad), SEEK_EINVAL);
    }
    bad.players = 2;
    double ratings[] = {NAN, INFINITY, -1, 4000.5};
    for (int i = 0; i < 4; i++) {
        bad.rating = ratings[i];
        assert_int_equal(seek_add(p, &bad), SEEK_EINVAL);
    }
    bad.rating = 1500;
    bad.rd = -1;
    assert_int_equal(seek_add(p, &bad), SEEK_EINVAL);
    bad.rd = NAN;
    assert_int_equal(seek_add(p, &bad), SEEK_EINVAL);
    bad.rd = 50;
    bad.range = 5;
    assert_int_equal(seek_add(p, &bad), SEEK_EINVAL);
    bad.range = 5000;
    assert_int_equal(seek_add(p, &bad), SEEK_EINVAL);
    bad.range = 0;
    bad.computer_after_s = -1;
    assert_int_equal(seek_add(p, &bad), SEEK_EINVAL);
    bad.computer_after_s = 3601;
    assert_int_equal(seek_add(p, &bad), SEEK_EINVAL);
    bad.computer_after_s = 0;
    assert_int_equal(seek_add(p, NULL), SEEK_EINVAL);
    /* keys are bounded (two known already: ur/skiryuk and the 32-byte one) */
    bad.key = "third";
    assert_int_equal(seek_add(p, &bad), SEEK_EKEYS);
    bad.key = "ur/skiryuk";
    assert_int_equal(seek_add(p, &bad), SEEK_OK);
    bad.id = 3;
    bad.rating = 3000;
    assert_int_equal(seek_add(p, &bad), SEEK_OK);
    bad.id = 4;
    assert_int_equal(seek_add(p, &bad), SEEK_EFULL); /* max_seeks 3 */
    assert_int_equal(seek_total(p), 3);
    assert_int_equal(seek_waiting(p, NULL), 0);
    assert_int_equal(seek_waiting(p, "nothing"), 0);
    for (int code = 0; code >= -7; code--)
        assert_non_null(seek_strerror(code));
    seek_free(p);
    seek_free(NULL);
    /* bad settings */
    assert_null(seek_new(&(seek_config){.base = -1}));
    assert_null(seek_new(&(seek_config){.base = 500, .cap = 100}));
    assert_null(seek_new(&(seek_config){.widen_per_s = NAN}));
}

/* Many ids added and cancelled in a scrambled order: each is found until it
 * is cancelled and never after (the id table's deletions). A pairing's key
 * stays readable after new keys come. */
static void test_many_ids_add_and_cancel(void **st)
{
    (void)st;
    seek_pool *p = pool();
    enum { N = 20000 };
    for (uint64_t i = 0; i < N; i++)
        add(p, i * 0x9e3779b97f4a7c15ULL, "k", 2, 100 + (double)(i % 3800), 0, 0, 10);
    assert_int_equal(seek_total(p), N);
    static char gone[N];
    memset(gone, 0, sizeof gone);
    for (uint64_t i = 0; i < N; i++) {
        uint64_t j = (i * 7919) % N; /* 7919 is prime: every j once */
        assert_int_equal(seek_cancel(p, j * 0x9e3779b97f4a7c15ULL), 1);
        gone[j] = 1;
        if (i % 1000 == 0)
            for (uint64_t t = 0; t < N; t += 7)
                assert_int_equal(seek_window(p, t * 0x9e3779b97f4a7c15ULL, 0) < 0, gone[t]);
    }
    assert_int_equal(seek_total(p), 0);
    add(p, 1, "first", 2, 1500, 0, 0, 0);
    add(p, 2, "first", 2, 1500, 0, 0, 0);
    size_t n;
    const seek_pairing *pr = tick(p, 0, &n);
    assert_int_equal(n, 1);
    for (int i = 0; i < 200; i++) {
        char key[16];
        snprintf(key, sizeof key, "key%d", i);
        add(p, 100 + (uint64_t)i, key, 2, 1500, 0, 0, 0);
    }
    assert_string_equal(pr[0].key, "first");
    seek_free(p);
}

/* A pool rebuilt from its seeks with their original times pairs as the one
 * it replaces would have. */
static void test_rebuilt_pool_pairs_the_same(void **st)
{
    (void)st;
    seek_pool *a = pool(), *b = pool();
    add(a, 1, "k", 2, 1500, 0, 0, 0);
    add(a, 2, "k", 2, 1750, 4000, 0, 0);
    size_t n;
    tick(a, 10000, &n);
    assert_int_equal(n, 0);
    add(b, 2, "k", 2, 1750, 4000, 0, 0); /* another order, the same times */
    add(b, 1, "k", 2, 1500, 0, 0, 0);
    for (int64_t t = 10000; t <= 30000; t += 100) {
        size_t na, nb;
        const seek_pairing *pa = tick(a, t, &na), *pb = tick(b, t, &nb);
        assert_int_equal(na, nb);
        if (na) {
            assert_int_equal(t, 19000); /* 1750 - 1500 = 250 = 100 + 10 (t - 4000) / 1000 */
            assert_memory_equal(pa[0].ids, pb[0].ids, sizeof pa[0].ids);
        }
    }
    assert_int_equal(seek_total(a), 0);
    seek_free(a);
    seek_free(b);
}

/* ---- the property test ---- */

typedef struct model_seek {
    uint64_t id;
    int key;
    double rating, rd;
    int64_t made;
    int comp_s, range;
    int state; /* 0 not made, 1 waiting, 2 paired, 3 computer, 4 cancelled */
} model_seek;

static const char *const mkeys[] = {"two", "three", "four", "six"};
static const int mplayers[] = {2, 3, 4, 6};

static double model_w(const seek_config *c, const model_seek *m, int64_t now)
{
    double start = m->rd > c->base ? m->rd : c->base;
    double cap = m->range ? m->range : c->cap;
    double w = start + c->widen_per_s * (now > m->made ? (double)(now - m->made) / 1000.0 : 0);
    return w < cap ? w : cap;
}

static int model_fit(const seek_config *c, const model_seek *a, const model_seek *b, int64_t now)
{
    double g = fabs(a->rating - b->rating);
    return g <= model_w(c, a, now) && g <= model_w(c, b, now);
}

/* Whether some group of `k` among the waiting seeks idx[0..n) of one key is
 * mutually compatible (exhaustive: the pools are small). */
static int model_group_exists(const seek_config *c, model_seek *ms, const int *idx, int n, int k, int64_t now,
                              int *chosen, int depth, int from)
{
    if (depth == k)
        return 1;
    for (int j = from; j < n; j++) {
        int ok = 1;
        for (int t = 0; t < depth && ok; t++)
            ok = model_fit(c, &ms[idx[chosen[t]]], &ms[idx[j]], now);
        if (!ok)
            continue;
        chosen[depth] = j;
        if (model_group_exists(c, ms, idx, n, k, now, chosen, depth + 1, j + 1))
            return 1;
    }
    return 0;
}

static model_seek *model_find(model_seek *ms, int n, uint64_t id)
{
    for (int i = 0; i < n; i++)
        if (ms[i].id == id && ms[i].state == 1)
            return &ms[i];
    return NULL;
}

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* One random sequence: `total` seeks arriving over time on four keys (2,
 * 3, 4 and 6 people), random cancels, ticks every 100 ms. After every tick:
 * every pairing's members were waiting, are of its key and are mutually in
 * range at that tick; no seek is paired twice; every waiting seek with a
 * computer due is gone; and NO compatible group is left waiting (so a seek
 * never waits past the first tick at which a compatible group of its key
 * existed among the seeks made before that tick). At the end the pool is
 * emptied (ticks until every seek's window is at its cap, then cancels) and
 * every seek is accounted for exactly once. */
static void one_sequence(uint64_t seed, int total)
{
    seek_config c = {.base = 20 + (double)(seed % 5) * 20, .widen_per_s = 1 + (double)(seed % 7) * 5,
                     .cap = 400 + (double)(seed % 3) * 100};
    seek_pool *p = seek_new(&c);
    assert_non_null(p);
    model_seek *ms = calloc((size_t)total, sizeof *ms);
    assert_non_null(ms);
    uint64_t s = seed * 2654435761u + 1;
    int made = 0;
    int64_t now = 0;
    int *idx = malloc((size_t)total * sizeof *idx);
    assert_non_null(idx);
    while (made < total || seek_total(p) > 0) {
        now += 100;
        /* one sequence in four comes in bursts (crowded ticks: several rounds) */
        int arrivals = made < total ? (int)(rng(&s) % (seed % 4 == 0 ? 40 : 4)) : 0;
        for (int a = 0; a < arrivals && made < total; a++) {
            model_seek *m = &ms[made];
            m->id = rng(&s) % 4 == 0 && made > 0 ? ms[rng(&s) % (uint64_t)made].id : 1000 + (uint64_t)made;
            m->key = (int)(rng(&s) % 4);
            m->rating = 800 + (double)(rng(&s) % 1400);
            m->rd = (double)(rng(&s) % 200);
            m->made = now - (int64_t)(rng(&s) % 300); /* made a little before it reached the pool */
            m->comp_s = rng(&s) % 3 == 0 ? 1 + (int)(rng(&s) % 20) : 0;
            m->range = rng(&s) % 5 == 0 ? SEEK_MIN_RANGE + (int)(rng(&s) % 300) : 0;
            seek_req r = {.id = m->id, .key = mkeys[m->key], .players = mplayers[m->key], .rating = m->rating,
                          .rd = m->rd, .made_ms = m->made, .computer_after_s = m->comp_s, .range = m->range};
            int rc = seek_add(p, &r);
            if (model_find(ms, made, m->id)) {
                assert_int_equal(rc, SEEK_EDUP); /* an id still waiting */
                m->state = 4;
            } else {
                assert_int_equal(rc, SEEK_OK);
                m->state = 1;
            }
            made++;
        }
        if (made > 0 && rng(&s) % 3 == 0) { /* a cancel, sometimes of nothing */
            uint64_t id = ms[rng(&s) % (uint64_t)made].id;
            model_seek *w = model_find(ms, made, id);
            assert_int_equal(seek_cancel(p, id), w != NULL);
            if (w)
                w->state = 4;
        }
        if (made == total && now % 10000 == 0) /* drain: leave the ones nobody will take */
            for (int i = 0; i < made; i++)
                if (ms[i].state == 1 && model_w(&c, &ms[i], now) >= (ms[i].range ? ms[i].range : c.cap)) {
                    assert_int_equal(seek_cancel(p, ms[i].id), 1);
                    ms[i].state = 4;
                }
        size_t n;
        const seek_pairing *pr = seek_tick(p, now, &n);
        for (size_t g = 0; g < n; g++) {
            model_seek *mem[SEEK_MAX_PLAYERS];
            for (int t = 0; t < pr[g].n; t++) {
                mem[t] = model_find(ms, made, pr[g].ids[t]);
                if (!mem[t]) { /* every member waiting: none paired twice */
                    fail_msg("seed %llu: id %llu paired but not waiting", (unsigned long long)seed,
                             (unsigned long long)pr[g].ids[t]);
                    return;
                }
                assert_string_equal(pr[g].key, mkeys[mem[t]->key]);
                mem[t]->state = pr[g].computer ? 3 : 2;
                if (t > 0)
                    assert_true(mem[t - 1]->rating <= mem[t]->rating);
            }
            if (pr[g].computer) {
                assert_int_equal(pr[g].n, 1);
                assert_true(mem[0]->comp_s > 0 && now - mem[0]->made >= mem[0]->comp_s * 1000);
                assert_true(pr[g].rating == mem[0]->rating);
            } else {
                assert_int_equal(pr[g].n, mplayers[mem[0]->key]);
                for (int a = 0; a < pr[g].n; a++)
                    for (int b = a + 1; b < pr[g].n; b++)
                        assert_true(model_fit(&c, mem[a], mem[b], now));
            }
        }
        /* after the tick: nothing due, no compatible group waiting */
        for (int k = 0; k < 4; k++) {
            int ni = 0;
            for (int i = 0; i < made; i++)
                if (ms[i].state == 1 && ms[i].key == k) {
                    assert_false(ms[i].comp_s > 0 && now - ms[i].made >= ms[i].comp_s * 1000);
                    idx[ni++] = i;
                }
            assert_int_equal(seek_waiting(p, mkeys[k]), ni);
            int chosen[SEEK_MAX_PLAYERS];
            if (model_group_exists(&c, ms, idx, ni, mplayers[k], now, chosen, 0, 0))
                fail_msg("seed %llu t=%lld: a compatible group of '%s' left waiting",
                         (unsigned long long)seed, (long long)now, mkeys[k]);
        }
    }
    for (int i = 0; i < made; i++)
        assert_true(ms[i].state >= 2);
    assert_int_equal(seek_total(p), 0);
    free(idx);
    free(ms);
    seek_free(p);
}

static void test_property_random_arrivals_and_cancels(void **st)
{
    (void)st;
    for (uint64_t seed = 1; seed <= 3000; seed++)
        one_sequence(seed, 20 + (int)(seed % 60));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_in_range_pair_at_once),
        cmocka_unit_test(test_out_of_range_wait_until_windows_widen),
        cmocka_unit_test(test_mutual_windows),
        cmocka_unit_test(test_closest_first_then_oldest),
        cmocka_unit_test(test_pairs_until_none_fit),
        cmocka_unit_test(test_three_and_four_player_groups),
        cmocka_unit_test(test_team_keys),
        cmocka_unit_test(test_computer_fallback_exactly_after_n),
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_duplicate_and_hostile_input),
        cmocka_unit_test(test_many_ids_add_and_cancel),
        cmocka_unit_test(test_rebuilt_pool_pairs_the_same),
        cmocka_unit_test(test_property_random_arrivals_and_cancels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
