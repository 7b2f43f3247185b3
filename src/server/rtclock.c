/* rtclock.c — a connection's clock for real-time karuta (rtclock.h): a
 * ring of the last RTC_WINDOW sync exchanges, the median (or the smallest
 * round trip's) downward offset, and the conversion of a touch to the
 * reading's timeline with its clamps. At most RTC_WINDOW-element sorts per
 * call: no allocation, no I/O.
 */
#include <limits.h>
#include <string.h>

#include "rtclock.h"

#define RTC_RTT_MAX 3600000 /* an hour: a longer "round trip" is a broken exchange */
#define RTC_CLOCK_MAX (INT64_C(1) << 60) /* |a client stamp| kept below this: no overflow */

/* A client's stamp, which may be anything a JSON integer holds, brought
 * within +-RTC_CLOCK_MAX so that every difference below stays in int64. */
static int64_t rtc_stamp(int64_t client_ms)
{
    return client_ms > RTC_CLOCK_MAX ? RTC_CLOCK_MAX : client_ms < -RTC_CLOCK_MAX ? -RTC_CLOCK_MAX : client_ms;
}

void rtc_init(rtc_clock *c)
{
    memset(c, 0, sizeof *c);
    c->filter = RTC_MEDIAN;
}

void rtc_sample(rtc_clock *c, int64_t sent_ms, int64_t client_ms, int64_t recv_ms)
{
    if (recv_ms < sent_ms || recv_ms - sent_ms > RTC_RTT_MAX || client_ms != rtc_stamp(client_ms))
        return;
    c->down[c->next] = client_ms - sent_ms;
    c->rtt[c->next] = (int32_t)(recv_ms - sent_ms);
    c->next = (c->next + 1) % RTC_WINDOW;
    if (c->n < RTC_WINDOW)
        c->n++;
    c->samples++;
}

int rtc_ready(const rtc_clock *c) { return c->n >= RTC_READY; }

/* The median of v[0..n-1], n in 1..RTC_WINDOW (the mean of the two middle
 * values, rounded down, when n is even). */
static int64_t rtc_median(const int64_t *v, int n)
{
    int64_t s[RTC_WINDOW];
    memcpy(s, v, (size_t)n * sizeof *s);
    for (int i = 1; i < n; i++) /* insertion sort: n <= 8 */
        for (int j = i; j > 0 && s[j - 1] > s[j]; j--) {
            int64_t t = s[j];
            s[j] = s[j - 1];
            s[j - 1] = t;
        }
    if (n % 2)
        return s[n / 2];
    int64_t a = s[n / 2 - 1], b = s[n / 2];
    return a + (b - a) / 2; /* floor((a + b) / 2): b >= a */
}

/* Index of the window's smallest round trip (the oldest among equals is as
 * good as any); n >= 1. */
static int rtc_min_index(const rtc_clock *c)
{
    int best = 0;
    for (int i = 1; i < c->n; i++)
        if (c->rtt[i] < c->rtt[best])
            best = i;
    return best;
}

/* The downward offset in use (rtclock.h); n >= 1. */
static int64_t rtc_down(const rtc_clock *c)
{
    if (c->filter == RTC_MIN_RTT)
        return c->down[rtc_min_index(c)];
    return rtc_median(c->down, c->n);
}

int rtc_rtt_ms(const rtc_clock *c)
{
    if (!c->n)
        return 0;
    if (c->filter == RTC_MIN_RTT)
        return c->rtt[rtc_min_index(c)];
    int64_t r[RTC_WINDOW];
    for (int i = 0; i < c->n; i++)
        r[i] = c->rtt[i];
    return (int)rtc_median(r, c->n);
}

int64_t rtc_offset_ms(const rtc_clock *c)
{
    if (!c->n)
        return 0;
    return rtc_down(c) - rtc_rtt_ms(c) / 2;
}

int rtc_touch_ms(const rtc_clock *c, int64_t client_ms, int64_t recv_ms, int64_t t0_ms, int lo_ms, int *clamped)
{
    /* hi: an honest touch is hi - (its trip up) - (the trips down in the
     * estimate), so never later than hi; with no exchange it counts there */
    int64_t hi = recv_ms - t0_ms, t = c->n ? rtc_stamp(client_ms) - t0_ms - rtc_down(c) : hi;
    int cl = 0;
    if (t > hi) {
        t = hi;
        cl = 1;
    }
    if (t < lo_ms) { /* last: lo_ms wins when hi < lo_ms */
        t = lo_ms;
        cl = 1;
    }
    if (t > INT_MAX) /* a touch a month after its reading: keep the result an int */
        t = INT_MAX;
    if (clamped)
        *clamped = cl;
    return (int)t;
}
