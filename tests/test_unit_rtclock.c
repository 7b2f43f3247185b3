/* test_unit_rtclock.c — the server's clock for real-time karuta
 * (src/server/rtclock.h): a touch stamped on a client's clock, converted to
 * the reading's timeline as that client heard it. A scripted link: the
 * server sends a sync at server time S, the client (its clock `offset` ms
 * ahead) stamps it on arrival, its answer travels back; the kana of a
 * reading leave at t0 + start, the touch is stamped `reaction` ms after the
 * deciding kana arrives. Exact on fixed delays (symmetric or not), bounded
 * by the kana's jitter otherwise, clamped both ways, outliers outvoted. */
#include <limits.h>
#include <stdio.h>

#include "helpers.h"
#include "rtclock.h"

/* One exchange over a link with trips `down` and `up` (ms) and a client
 * clock `offset` ms ahead, the sync sent at server time `sent`. */
static void exchange(rtc_clock *c, int64_t sent, int64_t offset, int down, int up)
{
    rtc_sample(c, sent, sent + down + offset, sent + down + up);
}

/* A touch `reaction` ms after the kana starting at `decide` ms of a reading
 * sent from server time t0 reached the client (its trip down `down`, the
 * touch's way up `up`): rtc_touch_ms with lo = decide. */
static int touch(const rtc_clock *c, int64_t t0, int64_t offset, int decide, int reaction, int down, int up,
                 int *clamped)
{
    int64_t heard = t0 + decide + down; /* server time the deciding kana reached the client */
    int64_t client = heard + reaction + offset;
    int64_t recv = heard + reaction + up;
    return rtc_touch_ms(c, client, recv, t0, decide, clamped);
}

static void test_not_ready_before_samples(void **st)
{
    (void)st;
    rtc_clock c;
    rtc_init(&c);
    assert_int_equal(rtc_ready(&c), 0);
    assert_int_equal(rtc_rtt_ms(&c), 0);
    assert_int_equal(rtc_offset_ms(&c), 0);
    int cl = -1;
    /* no exchange: the touch counts at its arrival, whatever its stamp */
    assert_int_equal(rtc_touch_ms(&c, 123456789, 5000 + 900, 5000, 300, &cl), 900);
    assert_int_equal(cl, 0);
    assert_int_equal(rtc_touch_ms(&c, 0, 5000 + 100, 5000, 300, &cl), 300); /* before lo: lo */
    assert_int_equal(cl, 1);
    exchange(&c, 1000, 7000, 40, 40);
    exchange(&c, 2000, 7000, 40, 40);
    assert_int_equal(rtc_ready(&c), 0);
    exchange(&c, 3000, 7000, 40, 40);
    assert_int_equal(rtc_ready(&c), 1);
    assert_int_equal(c.samples, 3);
}

/* Fixed symmetric trips: offset, round trip and touch exact, both filters. */
static void test_exact_on_symmetric_delays(void **st)
{
    (void)st;
    for (int filter = RTC_MEDIAN; filter <= RTC_MIN_RTT; filter++) {
        rtc_clock c;
        rtc_init(&c);
        c.filter = filter;
        const int64_t offset = 3600000; /* the client's clock an hour ahead */
        for (int i = 0; i < 5; i++)
            exchange(&c, 1000 * i, offset, 40, 40);
        assert_int_equal(rtc_offset_ms(&c), offset);
        assert_int_equal(rtc_rtt_ms(&c), 80);
        int cl = -1;
        assert_int_equal(touch(&c, 20000, offset, 1200, 350, 40, 40, &cl), 1550);
        assert_int_equal(cl, 0);
        /* a client behind the server (negative offset) alike */
        rtc_init(&c);
        c.filter = filter;
        for (int i = 0; i < 5; i++)
            exchange(&c, 1000 * i, -5000, 25, 25);
        assert_int_equal(rtc_offset_ms(&c), -5000);
        assert_int_equal(touch(&c, 20000, -5000, 480, 1, 25, 25, &cl), 481);
        assert_int_equal(cl, 0);
    }
}

/* Fixed asymmetric trips: NTP's offset is off by half the asymmetry, the
 * touch is still exact (the trip up never enters it). */
static void test_asymmetric_link_touch_still_exact(void **st)
{
    (void)st;
    const int trips[][2] = {{10, 150}, {150, 10}, {1, 300}};
    for (int k = 0; k < 3; k++) {
        int down = trips[k][0], up = trips[k][1];
        rtc_clock c;
        rtc_init(&c);
        for (int i = 0; i < 8; i++)
            exchange(&c, 500 * i, 42000, down, up);
        assert_int_equal(rtc_rtt_ms(&c), down + up);
        assert_int_equal(rtc_offset_ms(&c), 42000 + (down - up) / 2);
        int cl = -1;
        assert_int_equal(touch(&c, 9000, 42000, 2400, 280, down, up, &cl), 2680);
        assert_int_equal(cl, 0);
    }
}

/* A small generator of the test's own (xorshift), so the jitter is the same
 * on every run. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static int uniform(int lo, int hi)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return lo + (int)(rng_state % (uint64_t)(hi - lo + 1));
}

/* Trips of 10-150 ms each way, each message +-15 ms of jitter: the touch's
 * error is the deciding kana's jitter against the median trip down, within
 * 2 x 15 ms (1 more for the median's rounding), never clamped when honest. */
static void test_bounded_error_with_asymmetry_and_jitter(void **st)
{
    (void)st;
    int worst = 0;
    long sum = 0;
    for (int trial = 0; trial < 2000; trial++) {
        int down = uniform(10, 150), up = uniform(10, 150);
        int64_t offset = (int64_t)uniform(-20000, 20000) * 1000;
        rtc_clock c;
        rtc_init(&c);
        for (int i = 0; i < RTC_WINDOW; i++)
            exchange(&c, 2000 * i, offset, down + uniform(-15, 15), up + uniform(-15, 15));
        int decide = uniform(0, 3000), reaction = uniform(150, 1500), cl = -1;
        int t = touch(&c, 100000, offset, decide, reaction, down + uniform(-15, 15), up + uniform(-15, 15), &cl);
        int err = t - (decide + reaction);
        if (err < 0)
            err = -err;
        worst = err > worst ? err : worst;
        sum += err;
        assert_int_equal(cl, 0);
    }
    assert_true(worst <= 31);
    assert_true(sum / 2000 <= 12); /* the mean: about a third of the bound */
}

/* A stamp before the deciding kana could have been heard gets lo; a stamp
 * later than the touch's arrival allows gets the latest time; a touch that
 * arrived before the deciding kana could reach the client gets lo. */
static void test_clamping_both_ways(void **st)
{
    (void)st;
    rtc_clock c;
    rtc_init(&c);
    const int64_t offset = -777000, t0 = 50000;
    for (int i = 0; i < 4; i++)
        exchange(&c, 1000 * i, offset, 60, 60);
    int cl = -1;
    /* claims a touch 200 ms before the deciding kana (at 1500) was heard */
    int64_t heard = t0 + 1500 + 60;
    assert_int_equal(rtc_touch_ms(&c, heard - 200 + offset, heard + 300 + 60, t0, 1500, &cl), 1500);
    assert_int_equal(cl, 1);
    /* a stamp far in the future on a touch that arrived 300 ms after the kana
     * was heard: at most its arrival on the reading's timeline */
    int64_t recv = heard + 300 + 60;
    assert_int_equal(rtc_touch_ms(&c, heard + 5000 + offset, recv, t0, 1500, &cl), (int)(recv - t0));
    assert_int_equal(cl, 1);
    /* the honest stamp of that touch is not clamped */
    assert_int_equal(rtc_touch_ms(&c, heard + 300 + offset, recv, t0, 1500, &cl), 1800);
    assert_int_equal(cl, 0);
    /* arrived before the deciding kana could be heard (a guess): lo */
    assert_int_equal(rtc_touch_ms(&c, t0 + 100 + offset, t0 + 200, t0, 1500, &cl), 1500);
    assert_int_equal(cl, 1);
    /* the latest time a touch can be given is its arrival (as if no trip
     * took any time): not clamped up to there, clamped one ms after */
    assert_int_equal(rtc_touch_ms(&c, recv + 60 + offset, recv, t0, 1500, &cl), (int)(recv - t0));
    assert_int_equal(cl, 0);
    assert_int_equal(rtc_touch_ms(&c, recv + 61 + offset, recv, t0, 1500, &cl), (int)(recv - t0));
    assert_int_equal(cl, 1);
    /* absurd stamps: no overflow, clamped */
    assert_int_equal(rtc_touch_ms(&c, INT64_MAX, recv, t0, 1500, &cl), (int)(recv - t0));
    assert_int_equal(cl, 1);
    assert_int_equal(rtc_touch_ms(&c, INT64_MIN, recv, t0, 1500, &cl), 1500);
    assert_int_equal(cl, 1);
    assert_int_equal(rtc_touch_ms(&c, offset, recv, t0, 1500, NULL), 1500); /* clamped may be NULL */
}

/* Exchanges delayed on the way down or up (a stalled socket, a GC pause)
 * are outvoted: three of eight change nothing; broken ones are ignored. */
static void test_outliers_rejected(void **st)
{
    (void)st;
    for (int filter = RTC_MEDIAN; filter <= RTC_MIN_RTT; filter++) {
        rtc_clock c;
        rtc_init(&c);
        c.filter = filter;
        const int64_t offset = 9000;
        for (int i = 0; i < RTC_WINDOW; i++) {
            int late_down = i == 1 || i == 4 ? 2000 : 0, late_up = i == 6 ? 3000 : 0;
            exchange(&c, 1000 * i, offset, 50 + late_down, 50 + late_up);
        }
        int cl = -1;
        assert_int_equal(touch(&c, 20000, offset, 900, 400, 50, 50, &cl), 1300);
        assert_int_equal(cl, 0);
        assert_int_equal(rtc_offset_ms(&c), offset);
        assert_int_equal(rtc_rtt_ms(&c), 100);
        /* broken exchanges: an answer before its question, a round trip of
         * more than an hour, a stamp beyond 2^60 */
        int64_t n = c.samples;
        rtc_sample(&c, 5000, 5000 + offset, 4999);
        rtc_sample(&c, 5000, 5000 + offset, 5000 + 3600001);
        rtc_sample(&c, 5000, INT64_MAX, 5100);
        rtc_sample(&c, 5000, INT64_MIN, 5100);
        assert_int_equal(c.samples, n);
        assert_int_equal(touch(&c, 20000, offset, 900, 400, 50, 50, &cl), 1300);
    }
}

/* The window keeps the last RTC_WINDOW exchanges: a client clock that
 * jumps (the user set it) is followed once most of the window is new. */
static void test_window_follows_a_clock_jump(void **st)
{
    (void)st;
    rtc_clock c;
    rtc_init(&c);
    for (int i = 0; i < 20; i++)
        exchange(&c, 1000 * i, 1000, 30, 30);
    for (int i = 20; i < 25; i++)
        exchange(&c, 1000 * i, 61000, 30, 30); /* five of eight after the jump */
    int cl = -1;
    assert_int_equal(touch(&c, 90000, 61000, 700, 500, 30, 30, &cl), 1200);
    assert_int_equal(cl, 0);
    assert_int_equal(c.n, RTC_WINDOW);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_not_ready_before_samples),
        cmocka_unit_test(test_exact_on_symmetric_delays),
        cmocka_unit_test(test_asymmetric_link_touch_still_exact),
        cmocka_unit_test(test_bounded_error_with_asymmetry_and_jitter),
        cmocka_unit_test(test_clamping_both_ways),
        cmocka_unit_test(test_outliers_rejected),
        cmocka_unit_test(test_window_follows_a_clock_jump),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
