/* bench_karnet.c — `parlour bench karuta-net`: the fairness of real-time
 * karuta over the network (issue 15). Two simulated clients on links of
 * their own play readings of a real karuta match; the server's clock
 * (src/server/rtclock.h) converts their touches; the benchmark counts how
 * often the one who truly reacted first is judged first.
 *
 * The model, on a virtual clock (no sleeping, no sockets): each client has
 * a trip down and a trip up drawn 10-150 ms each (so links are asymmetric),
 * every message adds +-jitter ms (uniform), and its clock is up to an hour
 * away from the server's. The server syncs each client as the hub does (4
 * syncs 100 ms apart at join, then every --sync-ms during play, 5 s as the
 * hub's HUBK_SYNC_MS: a `sync` down,
 * the answer stamped on arrival, back up). Each reading is a reading of a
 * kyōgi match (karp_reading_of: its kana timeline, the deciding kana); the
 * server sends kana i at t0 + start_ms[i]; each client hears the deciding
 * kana after its trip down (with that message's jitter) and touches
 * `reaction` ms later; the two reactions differ by 30-100 ms (or --diff).
 * The touch, stamped on the client's clock, travels up and the server
 * converts it (rtc_touch_ms, lo = the deciding kana's start).
 *
 * Reported per clock method on the same draws: the default (the median
 * downward offset), NTP's clock filter (the smallest round trip), and no
 * compensation (arrival order): the share of readings judged in the true
 * order, the share the tie window (tie_ms, 10 ms) would call a tie, the
 * conversion's error, and the clamps. docs/benchmarks.md has the figures.
 *
 * This simulates the protocol's exchange with rtc_ alone, so that the three
 * clocks judge the same draws; --hub (bench_karnet_hub.c) measures the
 * server's own path instead.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../server/rtclock.h"
#include "cli.h"
#include "kar_practice.h"
#include "parlour/match.h"
#include "parlour/registry.h"
#include "parlour/rng.h"

#define KN_TIE_MS 10       /* karuta's default tie window (tie_ms, KA-R7) */
#define KN_BURST 4         /* syncs at join, KN_BURST_GAP ms apart (the hub's HUBK_BURST*) */
#define KN_BURST_GAP 100
#define KN_SYNC_MS 5000    /* then one every KN_SYNC_MS (the hub's HUBK_SYNC_MS) */
#define KN_METHODS 3       /* the default (median), NTP's filter, no compensation */
#define KN_MAXREAD 1000000

static const char *const kn_method_name[KN_METHODS] = {
    "median downward offset (rtclock default)", "smallest round trip (NTP clock filter)",
    "none: server arrival time"};

/* One simulated client: its link, its clock, and the server's estimate. */
typedef struct kn_client {
    int down, up;        /* base trips (ms) */
    int64_t offset;      /* its clock minus the server's */
    int64_t next_sync;   /* server time of the next sync */
    int64_t pend_recv[64], pend_client[64], pend_sent[64]; /* syncs on their way back */
    int npend;
    rtc_clock clk[2];    /* the median and the min-RTT filters, fed the same exchanges */
} kn_client;

typedef struct kn_stats {
    long right, equal, ties, clamped;
    long err_n, err_sum;
    int *err; /* |error| of each touch (ms), 2 per reading */
    long by_diff[3][2]; /* diff 30-39, 40-59, 60+: readings, right */
} kn_stats;

static int kn_uniform(pl_rng *r, int lo, int hi) { return lo + (int)pl_rng_below(r, (uint32_t)(hi - lo + 1)); }

/* A message's trip: base + uniform jitter, at least 1 ms. */
static int kn_trip(pl_rng *r, int base, int jitter)
{
    int t = base + kn_uniform(r, -jitter, jitter);
    return t < 1 ? 1 : t;
}

/* Sends the syncs due by server time `until` and applies the answers that
 * arrived by then (in the order sent). */
static void kn_sync_until(kn_client *c, pl_rng *r, int jitter, int sync_ms, int64_t until)
{
    while (c->next_sync <= until && c->npend < 64) {
        int64_t s = c->next_sync, heard = s + kn_trip(r, c->down, jitter);
        c->pend_sent[c->npend] = s;
        c->pend_client[c->npend] = heard + c->offset;
        c->pend_recv[c->npend] = heard + kn_trip(r, c->up, jitter);
        c->npend++;
        c->next_sync += sync_ms;
    }
    int k = 0;
    while (k < c->npend && c->pend_recv[k] <= until) {
        for (int m = 0; m < 2; m++)
            rtc_sample(&c->clk[m], c->pend_sent[k], c->pend_client[k], c->pend_recv[k]);
        k++;
    }
    memmove(c->pend_sent, c->pend_sent + k, (size_t)(c->npend - k) * sizeof *c->pend_sent);
    memmove(c->pend_client, c->pend_client + k, (size_t)(c->npend - k) * sizeof *c->pend_client);
    memmove(c->pend_recv, c->pend_recv + k, (size_t)(c->npend - k) * sizeof *c->pend_recv);
    c->npend -= k;
}

/* A new client joining at server time `now`: its link and clock drawn, the
 * join burst of syncs scheduled. */
static void kn_join(kn_client *c, pl_rng *r, int64_t now)
{
    memset(c, 0, sizeof *c);
    c->down = kn_uniform(r, 10, 150);
    c->up = kn_uniform(r, 10, 150);
    c->offset = (int64_t)kn_uniform(r, -3600, 3600) * 1000 + kn_uniform(r, 0, 999); /* within an hour */
    c->next_sync = now;
    for (int m = 0; m < 2; m++)
        rtc_init(&c->clk[m]);
    c->clk[1].filter = RTC_MIN_RTT;
}

static int kn_cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The next reading of the bench's kyōgi matches: reads a card (a new match
 * when one is over) and fills `rd`; returns 0, or -1 with a message. */
static int kn_next_reading(pl_match **m, uint64_t *seed, karp_reading *rd, pl_buf *err)
{
    for (;;) {
        if (!*m || (*m)->game->phase((*m)->state) == PL_PHASE_OVER) {
            pl_match_free(*m);
            char seedw[32], *words[2] = {"variant=kyogi", seedw};
            snprintf(seedw, sizeof seedw, "seed=%" PRIu64, (*seed)++);
            *m = pl_match_new(pl_game_find("karuta"), 2, words, err);
            if (!*m)
                return -1;
        }
        if (pl_match_random(*m, NULL, err) < 0)
            return -1;
        int open = karp_reading_of((*m)->game, (*m)->state, rd);
        /* the touches are the bench's own: nobody answers in the match */
        for (int q = 0; q < 2; q++)
            if (pl_match_play_text(*m, q, "none", err) < 0)
                return -1;
        if (open)
            return 0;
    }
}

int cli_bench_karuta_net(int argc, char **argv)
{
    static const struct option lo[] = {{"readings", required_argument, 0, 'n'},
                                       {"seed", required_argument, 0, 's'},
                                       {"jitter", required_argument, 0, 'j'},
                                       {"diff", required_argument, 0, 'd'},
                                       {"sync-ms", required_argument, 0, 'y'},
                                       {"hub", no_argument, 0, 'H'},
                                       {"liar", required_argument, 0, 'L'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    long readings = 1000;
    uint64_t seed = 1;
    int jitter = 15, diff_min = 30, sync_ms = KN_SYNC_MS, hub = 0, liar = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "n:s:j:d:y:HL:h", lo, NULL)) != -1) {
        switch (c) {
        case 'n': readings = atol(optarg); break;
        case 's': seed = strtoull(optarg, NULL, 10); break;
        case 'j': jitter = atoi(optarg); break;
        case 'd': diff_min = atoi(optarg); break;
        case 'y': sync_ms = atoi(optarg); break;
        case 'H': hub = 1; break;
        case 'L': liar = atoi(optarg); break;
        case 'h':
            puts("usage: parlour bench karuta-net [--readings N] [--seed N] [--jitter MS] [--diff MS] [--sync-ms MS] [--hub [--liar MS]]\n"
                 "Fairness of real-time karuta over the network, on a virtual clock: two clients\n"
                 "with trips of 10-150 ms each way, +-jitter per message, clocks a minute apart,\n"
                 "synced as the server does; their true reactions differ by at least --diff ms.\n"
                 "Prints how often the server's clock (src/server/rtclock.h) judges them in the\n"
                 "true order, and how often the tie window (10 ms) would call them together.\n"
                 "  --readings N  readings to judge (default 1000)\n"
                 "  --seed N      the draws and the karuta matches (default 1)\n"
                 "  --jitter MS   each message's delay varies by +-MS (default 15)\n"
                 "  --diff MS     the reactions differ by MS..MS+70 ms (default 30)\n"
                 "  --sync-ms MS  a sync every MS ms during play (default 5000, the hub's)\n"
                 "  --hub         through the server's hub (src/server/hub.h): its sync schedule, its\n"
                 "                reading and its conversion, two scripted clients at chirashi for two\n"
                 "  --liar MS     (with --hub) the second client cheats, stamping its touches MS ms early");
            return 0;
        default: return 2;
        }
    }
    if (readings < 1 || readings > KN_MAXREAD || jitter < 0 || jitter > 1000 || diff_min < 0 ||
        diff_min > 10000 || sync_ms < 100 || sync_ms > 60000 || liar < 0 || liar > 100000 || (liar && !hub)) {
        fputs("parlour bench karuta-net: --readings 1..1000000, --jitter 0..1000, --diff 0..10000, "
              "--sync-ms 100..60000, --liar 0..100000 with --hub\n",
              stderr);
        return 2;
    }
    if (hub) /* bench_karnet_hub.c */
        return cli_bench_karuta_net_hub(readings, seed, jitter, diff_min, liar);
    kn_stats st[KN_METHODS] = {0};
    for (int meth = 0; meth < KN_METHODS; meth++)
        if (!(st[meth].err = malloc(2 * (size_t)readings * sizeof *st[meth].err))) {
            for (int k = 0; k < meth; k++)
                free(st[k].err);
            fputs("parlour bench karuta-net: out of memory\n", stderr);
            return 1;
        }
    pl_rng r;
    pl_rng_seed(&r, pl_mix64(seed));
    pl_match *m = NULL;
    uint64_t mseed = seed;
    pl_buf err = {0};
    kn_client cl[2];
    int64_t now = 0;
    int per_pair = 25; /* readings before a new pair of clients joins (links redrawn) */
    int rc = 0;
    for (long i = 0; i < readings; i++) {
        if (i % per_pair == 0) {
            for (int k = 0; k < 2; k++)
                kn_join(&cl[k], &r, now);
            /* the join burst: KN_BURST syncs KN_BURST_GAP apart, then the regular ones */
            for (int k = 0; k < 2; k++) {
                kn_sync_until(&cl[k], &r, jitter, KN_BURST_GAP, now + (KN_BURST - 1) * KN_BURST_GAP);
                cl[k].next_sync = now + KN_BURST * KN_BURST_GAP;
            }
            now += KN_BURST * KN_BURST_GAP + 1000; /* a second more before the first reading */
        }
        karp_reading rd;
        if (kn_next_reading(&m, &mseed, &rd, &err) < 0) {
            fprintf(stderr, "parlour bench karuta-net: %s\n", pl_buf_str(&err));
            rc = 1;
            break;
        }
        int64_t t0 = now; /* the first kana leaves the server */
        int dec = rd.start_ms[rd.decide];
        int react[2], diff = kn_uniform(&r, diff_min, diff_min + 70);
        react[0] = kn_uniform(&r, 200, 700);
        react[1] = kn_uniform(&r, 0, 1) ? react[0] + diff : react[0] - diff;
        if (react[1] < 100) /* keep both human: shift the pair */
            react[0] += 100 - react[1], react[1] = 100;
        int64_t client_ms[2], recv[2];
        for (int k = 0; k < 2; k++) {
            int64_t heard = t0 + dec + kn_trip(&r, cl[k].down, jitter); /* the deciding kana arrives */
            client_ms[k] = heard + react[k] + cl[k].offset;
            recv[k] = heard + react[k] + kn_trip(&r, cl[k].up, jitter);
            kn_sync_until(&cl[k], &r, jitter, sync_ms, recv[k]); /* the exchanges done by then */
        }
        for (int meth = 0; meth < KN_METHODS; meth++) {
            int t[2];
            for (int k = 0; k < 2; k++) {
                int clamped = 0;
                if (meth < 2) {
                    t[k] = rtc_touch_ms(&cl[k].clk[meth], client_ms[k], recv[k], t0, dec, &clamped);
                } else {
                    t[k] = (int)(recv[k] - t0);
                }
                kn_stats *s = &st[meth];
                s->clamped += clamped;
                int e = t[k] - (dec + react[k]);
                s->err[s->err_n++] = e < 0 ? -e : e;
                s->err_sum += e < 0 ? -e : e;
            }
            kn_stats *s = &st[meth];
            int right = t[0] != t[1] && (t[0] < t[1]) == (react[0] < react[1]);
            int tie = abs(t[0] - t[1]) <= KN_TIE_MS;
            s->right += right;
            s->ties += tie;
            s->equal += t[0] == t[1];
            int b = diff < 40 ? 0 : diff < 60 ? 1 : 2;
            s->by_diff[b][0]++;
            s->by_diff[b][1] += right;
        }
        now = t0 + rd.deadline_ms + 9000; /* the touch window, then the next prelude (5-3-1) */
    }
    if (!rc) {
        printf("karuta-net: %ld readings, seed %" PRIu64 ", trips 10-150 ms each way, jitter +-%d ms, "
               "reactions %d-%d ms apart, sync every %d ms (burst of %d at join), %d readings per pair\n",
               readings, seed, jitter, diff_min, diff_min + 70, sync_ms, KN_BURST, per_pair);
        for (int meth = 0; meth < KN_METHODS; meth++) {
            kn_stats *s = &st[meth];
            qsort(s->err, (size_t)s->err_n, sizeof *s->err, kn_cmp_int);
            printf("%-42s right order %6.2f %% (%ld/%ld), wrong %.2f %%, equal times %.2f %%; within the tie "
                   "window (%d ms) %.2f %%\n",
                   kn_method_name[meth], 100.0 * s->right / readings, s->right, readings,
                   100.0 * (readings - s->right - s->equal) / readings, 100.0 * s->equal / readings, KN_TIE_MS,
                   100.0 * s->ties / readings);
            printf("%-42s |error| mean %.1f ms, p50 %d, p99 %d, max %d ms; clamped %ld of %ld touches;"
                   " right order by difference: <40 ms %.2f %%, 40-59 %.2f %%, 60+ %.2f %%\n",
                   "", (double)s->err_sum / s->err_n, s->err[s->err_n / 2], s->err[s->err_n * 99 / 100],
                   s->err[s->err_n - 1], s->clamped, s->err_n,
                   s->by_diff[0][0] ? 100.0 * s->by_diff[0][1] / s->by_diff[0][0] : 0.0,
                   s->by_diff[1][0] ? 100.0 * s->by_diff[1][1] / s->by_diff[1][0] : 0.0,
                   s->by_diff[2][0] ? 100.0 * s->by_diff[2][1] / s->by_diff[2][0] : 0.0);
        }
    }
    pl_buf_free(&err);
    pl_match_free(m);
    for (int meth = 0; meth < KN_METHODS; meth++)
        free(st[meth].err);
    return rc;
}
