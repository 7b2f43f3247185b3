/* rtclock.h — the clock of one connection for real-time karuta: from
 * NTP-style exchanges over the WebSocket (the server's `sync`, the client's
 * answer stamped on its own clock), how a touch stamped on the client's
 * clock falls on the reading's timeline as that client heard it. Prefix
 * rtc_. Pure arithmetic: no I/O, no clock, no allocation (docs/server.md,
 * "Real-time karuta", says why the estimator is this one).
 *
 * All times are integer milliseconds: `*_ms` named "server" are the
 * server's clock (any origin, the hub's; |t| < 2^60), "client" the
 * client's own clock (any origin, any offset: seconds or hours away; any
 * int64 is safe, beyond +-2^60 an exchange is ignored and a touch's stamp
 * is taken as +-2^60).
 *
 * The estimator. One exchange gives two figures: its round trip
 * rtt = recv - sent, and its "downward offset" e = client - sent: the
 * client's clock minus the server's, plus the trip from the server to the
 * client. e is exactly what converts a client stamp to the time the server
 * sent what the client was hearing, so it is all a touch needs: the trip up
 * and any asymmetry of the link never enter (NTP's offset, e - rtt/2, is
 * off by half the asymmetry; this is not). The clock keeps the last
 * RTC_WINDOW exchanges and uses the MEDIAN of their e (RTC_MEDIAN): the
 * kana travel the same way down as the sync messages, so the median trip
 * down is the reference that makes a touch's error the kana's own jitter
 * only, and fewer than half the window of delayed exchanges (outliers)
 * cannot move it. RTC_MIN_RTT, the sample with the smallest round trip
 * (NTP's clock filter), is kept for comparison (the benchmark measures
 * both).
 *
 * Threading: an rtc_clock is plain data owned by its connection's thread
 * (the hub's); the functions touch only their arguments.
 */
#ifndef PARLOUR_RTCLOCK_H
#define PARLOUR_RTCLOCK_H

#if !defined(PARLOUR_IN_FRONT)
#error "rtclock.h belongs to the server (a front end): core, games and AI may not include it"
#endif

#include <stdint.h>

#define RTC_WINDOW 8 /* exchanges kept (the last ones) */
#define RTC_READY 3  /* exchanges before a clock converts (rtc_ready) */

enum rtc_filter {
    RTC_MEDIAN, /* the median downward offset of the window (the default) */
    RTC_MIN_RTT /* the downward offset of the window's smallest round trip (NTP's clock filter) */
};

typedef struct rtc_clock {
    int64_t down[RTC_WINDOW]; /* per exchange: client stamp - server send (offset + trip down) */
    int32_t rtt[RTC_WINDOW];  /* per exchange: its round trip (ms, >= 0) */
    int n;                    /* exchanges in the window, 0..RTC_WINDOW */
    int next;                 /* where the next one goes (a ring) */
    int64_t samples;          /* exchanges taken since rtc_init */
    int filter;               /* enum rtc_filter; rtc_init sets RTC_MEDIAN */
} rtc_clock;

/* Empties `c` (no exchange yet, filter RTC_MEDIAN). Cannot fail. */
void rtc_init(rtc_clock *c);
/* One NTP-style exchange: the server sent `sync` at sent_ms (server clock),
 * the client stamped its answer client_ms (client clock), the server
 * received the answer at recv_ms (server clock). It replaces the oldest of
 * the window when full. An exchange that cannot be (recv_ms < sent_ms, a
 * round trip beyond an hour, a client stamp beyond +-2^60) is ignored.
 * Cannot fail. */
void rtc_sample(rtc_clock *c, int64_t sent_ms, int64_t client_ms, int64_t recv_ms);
/* 1 when `c` holds at least RTC_READY exchanges (its conversions are then
 * to be trusted), else 0. */
int rtc_ready(const rtc_clock *c);
/* The round trip now (ms): the median of the window's round trips (the
 * smallest with RTC_MIN_RTT); 0 with no exchange. */
int rtc_rtt_ms(const rtc_clock *c);
/* The client's clock minus the server's (ms), NTP's way (the chosen
 * downward offset minus half the round trip: off by half the link's
 * asymmetry), for logs; 0 with no exchange. */
int64_t rtc_offset_ms(const rtc_clock *c);
/* A touch stamped client_ms on the client's clock, received at recv_ms on
 * the server's, for a reading whose first kana the server sent at t0_ms
 * (server clock; kana i at t0_ms + start_ms[i]): the touch's time on the
 * reading's timeline as this client heard it, client_ms - t0_ms - e (the
 * offset and the trip down removed), clamped to [lo_ms, hi] where
 * hi = recv_ms - t0_ms is the latest it can be given when it arrived (an
 * honest touch is hi minus its own trip up minus the trips down in e, so it
 * is never clamped there) and lo_ms is the timeline start of the kana that
 * decides the touched card: on the timeline as heard, the earliest the
 * client could have received it. When hi < lo_ms (the touch arrived before
 * the deciding kana could reach the client) the result is lo_ms. With no
 * exchange yet the touch counts at its arrival (recv_ms - t0_ms, then the
 * same clamps). *clamped (may be NULL) is set to 1 when the result was
 * clamped (the caller logs it), else 0.
 * Cannot fail; the result lies in [lo_ms, max(lo_ms, hi)] (within int). */
int rtc_touch_ms(const rtc_clock *c, int64_t client_ms, int64_t recv_ms, int64_t t0_ms, int lo_ms, int *clamped);

#endif
