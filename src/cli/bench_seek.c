/* bench_seek.c — `parlour bench seek`: the "Play now" pool (src/server/seek.h)
 * under a crowd, one thread, on a virtual clock (issue 33 §3: 10,000 seeks,
 * pairing p99 under 50 ms; docs/benchmarks.md, "Play now: the seek pool").
 *
 * The crowd: --seeks N people each make one seek, arriving at --rate per
 * second (Poisson) or all before the first tick (--burst: a flash crowd, or
 * a process rebuilding its pool from the store); keys with the weights of a
 * plausible lobby (Ur's two rule sets, karuta, Tam Cúc for 2, 3 and 4, City
 * Behind Walls 2 v 2 and 3 v 3); ratings normal around 1500 (sd 300, kept in
 * 100..3000), RD uniform 40..350; --computer P of them accept a computer
 * after 15, 30 or 60 s; a tenth ask a range of their own (150..400); --cancel
 * P give up after 2..60 s when still waiting. The pool ticks every 100 ms of
 * virtual time; only seek_tick's own time is measured (the real clock around
 * each call; and the thread's CPU time, which a busy machine's preemptions do
 * not inflate), on the ticks that find seeks waiting. --range W makes every
 * seek ask the range W: a narrow one keeps most of the crowd waiting at once. After the last arrival the ticks go on for ten virtual minutes,
 * then whoever is left is counted ("left waiting") and cancelled.
 *
 * Reported: each tick's pairing time (p50, p99, max, in ms; wall and CPU), the seeks
 * paired per second of pairing time, the most seeks waiting at once, the
 * groups made (with people, with a computer), the median wait and the
 * median rating spread of the groups with people.
 *
 * --hub (bseek_hub): the same crowd through the hub (hub.h) instead, as
 * sessions sending `seek` messages; every hub_tick timed (docs/benchmarks.md,
 * "Play now through the hub").
 *
 * --sweep DB (bseek_sweep): the store's sweep of a dead process's seeks
 * (store_seeks_sweep) on a fresh database: N seeks of a dead owner beside
 * N / 10 of a live one; each sweep call, the whole sweep, the live read
 * and an idle sweep (beside a one-row read: the round trip) timed
 * (docs/benchmarks.md, "Sweeping a dead process's seeks").
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../server/hub.h"
#include "../server/seek.h"
#include "cli.h"
#include "parlour/alloc.h"

static const struct {
    const char *key;
    int players;
    int weight; /* per cent */
} bseek_keys[] = {
    {"ur/skiryuk", 2, 30}, {"ur/finkel", 2, 10}, {"karuta/kyogi", 2, 20}, {"tamcuc/2", 2, 10},
    {"tamcuc/3", 3, 8},    {"tamcuc/4", 4, 7},   {"cbw/2v2", 4, 10},      {"cbw/3v3", 6, 5},
};
#define BSEEK_NKEYS (int)(sizeof bseek_keys / sizeof bseek_keys[0])

typedef struct bseek_person {
    int64_t made, gone;     /* arrival; when they give up (INT64_MAX: never) */
    int64_t paired;         /* -1 while waiting */
    double rating;
} bseek_person;

typedef struct bseek_cancel {
    int64_t at;
    uint64_t id;
} bseek_cancel;

static uint64_t bseek_rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static double bseek_unit(uint64_t *s) /* (0, 1) */
{
    return ((double)(bseek_rng(s) >> 11) + 0.5) / 9007199254740992.0;
}

/* A new seek's rating, normal around 1500 (sd 300) within 100..3000, and in
 * *key its index in bseek_keys (by the keys' weights), drawn from s: three
 * draws, in that order, so both benches draw the same seeks. */
static double bseek_draw(uint64_t *s, int *key)
{
    double u1 = bseek_unit(s), u2 = bseek_unit(s);
    double r = 1500 + 300 * sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
    int w = (int)(bseek_rng(s) % 100), k = 0;
    while (w >= bseek_keys[k].weight)
        w -= bseek_keys[k++].weight;
    *key = k;
    return r < 100 ? 100 : r > 3000 ? 3000 : r;
}

static double bseek_clock(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int bseek_cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int bseek_cmp_cancel(const void *a, const void *b)
{
    const bseek_cancel *x = a, *y = b;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* The percentile q (0..1) of sorted v[0..n). */
static double bseek_pct(const double *v, size_t n, double q)
{
    if (n == 0)
        return 0;
    size_t i = (size_t)ceil(q * (double)n);
    return v[i == 0 ? 0 : i - 1];
}

/* ---- --hub: the hub's side (the server's own code, minus the sockets) ---- */

/* The options of each pool's `seek` message, in bseek_keys' order. */
static const char *const bseek_opts[BSEEK_NKEYS] = {
    "\"game\":\"ur\"",
    "\"game\":\"ur\",\"options\":{\"rules\":\"finkel\"}",
    "\"game\":\"karuta\",\"options\":{\"variant\":\"kyogi\"}",
    "\"game\":\"tamcuc\",\"options\":{\"players\":\"2\"}",
    "\"game\":\"tamcuc\",\"options\":{\"players\":\"3\"}",
    "\"game\":\"tamcuc\",\"options\":{\"players\":\"4\"}",
    "\"game\":\"cbw\",\"options\":{\"players\":\"4\"}",
    "\"game\":\"cbw\",\"options\":{\"players\":\"6\"}",
};

/* A growing array of durations (s). */
typedef struct bseek_times {
    double *v;
    size_t n, cap;
} bseek_times;

static int bseek_times_add(bseek_times *t, double x)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        double *v = realloc(t->v, cap * sizeof *v);
        if (!v)
            return -1;
        t->v = v;
        t->cap = cap;
    }
    t->v[t->n++] = x;
    return 0;
}

static void bseek_times_print(const char *what, bseek_times *t)
{
    qsort(t->v, t->n, sizeof *t->v, bseek_cmp_d);
    printf("%s: %zu, p50 %.3f ms  p99 %.3f ms  max %.3f ms\n", what, t->n, bseek_pct(t->v, t->n, 0.5) * 1e3,
           bseek_pct(t->v, t->n, 0.99) * 1e3, t->n ? t->v[t->n - 1] * 1e3 : 0);
}

/* Hands the hub's batches back as durable at once (nothing is written), drops
 * the computers' jobs (the games are not played: pairing is measured) and
 * takes the messages out: a `paired` one marks its connection paired.
 * Returns the `paired` messages seen, or -1 when memory ran out. */
static long bseek_hub_pump(hub *h, int64_t now, const uint64_t *conns, int64_t *paired, long n, long *errors)
{
    long seen = 0;
    hub_batch *bt;
    while ((bt = hub_store_take(h))) {
        hub_store_done(h, bt, 1, now);
        hub_batch_free(bt);
    }
    hub_job *j;
    while ((j = hub_job_take(h)))
        hub_job_free(j);
    hub_out o;
    while (hub_out_next(h, &o)) {
        if (o.len > 20 && strstr(o.text, "\"type\":\"paired\"")) {
            /* connection ids are slot + 1 (+ generation << 32): conns[] holds them in order */
            uint64_t slot = (o.conn & 0xffffffffu) - 1;
            if (slot < (uint64_t)n && conns[slot] == o.conn && paired[slot] < 0) {
                paired[slot] = now;
                seen++;
            }
        } else if (strstr(o.text, "\"type\":\"error\"")) {
            if (*errors < 3)
                fprintf(stderr, "parlour bench seek --hub: %.*s\n", (int)o.len, o.text);
            (*errors)++;
        }
        pl_free(o.text);
    }
    return seen;
}

/* `parlour bench seek --hub`: --seeks N sessions connect to a hub, each
 * sends one `seek` (the pool bench's crowd: keys, ratings through the test
 * server's `rating` field, computer after 15/30/60 s, ranges) at its arrival
 * time; the hub runs as `parlour serve` runs it (hub_tick when hub_next_ms
 * asks) on a virtual clock, every session staying connected to the end.
 * Measured on the real clock: each hub_tick (the pool's tick, each pairing's
 * room made and its members told, the lobby's counts pushed) and each seek
 * message's handling. */
static int bseek_hub(long nseeks, double rate, int burst, double pcomp, int range, uint64_t seed)
{
    hub_config cfg = {.test_seed = seed, .rate_per_s = 1000, .rate_burst = 3000, .max_conns = 1000000};
    pl_buf err = {0};
    hub *h = hub_new(&cfg, &err);
    uint64_t *conns = calloc((size_t)nseeks, sizeof *conns);
    int64_t *made = calloc((size_t)nseeks, sizeof *made), *paired = calloc((size_t)nseeks, sizeof *paired);
    bseek_times ticks = {0}, pairing = {0}, pairing_cpu = {0}, msgs = {0};
    if (!h || !conns || !made || !paired) {
        fprintf(stderr, "parlour bench seek --hub: %s\n", h ? "out of memory" : pl_buf_str(&err));
        pl_buf_free(&err);
        hub_free(h);
        free(conns), free(made), free(paired);
        return 1;
    }
    pl_buf_free(&err);
    uint64_t s = seed * 0x9e3779b97f4a7c15ULL;
    if (s == 0)
        s = 1;
    int64_t now = 1000000;
    double t = 0;
    long errors = 0, npaired = 0, oom = 0;
    for (long i = 0; i < nseeks; i++) { /* the sessions, all there from the start */
        conns[i] = hub_connect(h, now);
        if (!conns[i] || (conns[i] & 0xffffffffu) != (uint64_t)i + 1) {
            fputs("parlour bench seek --hub: the hub refused a connection\n", stderr);
            oom = 1;
            break;
        }
        if (!burst)
            t += -log(bseek_unit(&s)) / rate;
        made[i] = now + 100 + (int64_t)(t * 1000);
        paired[i] = -1;
    }
    if (!oom)
        bseek_hub_pump(h, now, conns, paired, nseeks, &errors); /* the welcomes */
    int64_t end = made[nseeks - 1] + 120000;
    long next = 0;
    double c_all = bseek_clock(CLOCK_THREAD_CPUTIME_ID);
    while (!oom) {
        int64_t at = hub_next_ms(h);
        if (next < nseeks && made[next] < at)
            at = made[next];
        if (at == INT64_MAX || at > end)
            break;
        if (at > now)
            now = at;
        for (; next < nseeks && made[next] <= now; next++) {
            int k;
            double r = bseek_draw(&s, &k);
            static const int after[] = {15, 30, 60};
            int comp = bseek_unit(&s) < pcomp ? after[bseek_rng(&s) % 3] : 0;
            int rg = range ? range : bseek_rng(&s) % 10 == 0 ? 150 + (int)(bseek_rng(&s) % 251) : 0;
            char msg[256], rgs[32] = "";
            if (rg)
                snprintf(rgs, sizeof rgs, ",\"range\":%d", rg);
            int len = snprintf(msg, sizeof msg, "{\"type\":\"seek\",%s,\"computer_after_s\":%d,\"rating\":%.0f%s}",
                               bseek_opts[k], comp, r, rgs);
            double t0 = bseek_clock(CLOCK_MONOTONIC);
            hub_message(h, conns[next], msg, (size_t)len, now);
            if (bseek_times_add(&msgs, bseek_clock(CLOCK_MONOTONIC) - t0) < 0)
                oom = 1;
        }
        if (hub_next_ms(h) <= now) {
            double t0 = bseek_clock(CLOCK_MONOTONIC), c0 = bseek_clock(CLOCK_THREAD_CPUTIME_ID);
            hub_tick(h, now);
            double dt = bseek_clock(CLOCK_MONOTONIC) - t0, dc = bseek_clock(CLOCK_THREAD_CPUTIME_ID) - c0;
            long before = npaired;
            long got = bseek_hub_pump(h, now, conns, paired, nseeks, &errors);
            npaired += got < 0 ? 0 : got;
            if (bseek_times_add(&ticks, dt) < 0 ||
                (npaired > before && (bseek_times_add(&pairing, dt) < 0 || bseek_times_add(&pairing_cpu, dc) < 0)))
                oom = 1;
        } else {
            long got = bseek_hub_pump(h, now, conns, paired, nseeks, &errors);
            npaired += got < 0 ? 0 : got;
        }
    }
    c_all = bseek_clock(CLOCK_THREAD_CPUTIME_ID) - c_all;
    double *waits = malloc((size_t)nseeks * sizeof *waits);
    size_t nw = 0;
    for (long i = 0; waits && i < nseeks; i++)
        if (paired[i] >= 0)
            waits[nw++] = (double)(paired[i] - made[i]) / 1000.0;
    if (waits)
        qsort(waits, nw, sizeof *waits, bseek_cmp_d);
    printf("seek --hub: %ld sessions, %ld seeks (%s), seed %" PRIu64 ", through the hub on a virtual clock\n",
           nseeks, next, burst ? "all at once" : "arriving", seed);
    bseek_times_print("hub_tick (every call)", &ticks);
    bseek_times_print("hub_tick that paired someone", &pairing);
    bseek_times_print("... its CPU time (the thread's)", &pairing_cpu);
    bseek_times_print("seek message handled", &msgs);
    printf("paired %ld of %ld (wait median %.1f s, p90 %.1f s), errors %ld, the run's CPU %.2f s\n", npaired, nseeks,
           waits ? bseek_pct(waits, nw, 0.5) : 0.0, waits ? bseek_pct(waits, nw, 0.9) : 0.0, errors, c_all);
    free(waits);
    free(ticks.v), free(pairing.v), free(pairing_cpu.v), free(msgs.v);
    hub_free(h);
    free(conns), free(made), free(paired);
    return oom || errors ? 1 : 0;
}

/* Milliseconds of wall clock since `t0` (bseek_clock(CLOCK_MONOTONIC)). */
static double bseek_ms(double t0)
{
    return (bseek_clock(CLOCK_MONOTONIC) - t0) * 1e3;
}

static int bseek_count(void *ctx, const store_seek *k)
{
    (void)k;
    (*(long *)ctx)++;
    return 0;
}

/* Opens `db` as owner `owner` with a live heartbeat; NULL with a message. */
static store *bseek_owner(const char *db, const char *owner)
{
    pl_buf err = {0};
    store *s = store_open(db, &err);
    if (!s || store_set_owner(s, owner, &err) < 0 || store_owner_beat(s, 3600 * 1000, &err) < 0) {
        fprintf(stderr, "parlour bench seek: %s: %s\n", db, pl_buf_str(&err));
        store_close(s);
        s = NULL;
    }
    pl_buf_free(&err);
    return s;
}

/* --sweep: n dead seeks and n / 10 live ones written one by one (as the
 * server writes them), the dead owner's heartbeat ended 5 s before; then
 * the live read, each sweep call of HUB_SWEEP_ROWS rows (grace 1 s), the
 * live read again and an idle sweep (nothing to do) timed. */
static int bseek_sweep(const char *db, long n)
{
    store *dead = bseek_owner(db, "bench:1:dead"), *live = bseek_owner(db, "bench:2:live");
    pl_buf err = {0};
    int rc = dead && live ? 0 : 1;
    double t0 = bseek_clock(CLOCK_MONOTONIC);
    for (long i = 0; rc == 0 && i < n + n / 10; i++) {
        char id[40];
        snprintf(id, sizeof id, "%016lx%016lx", (unsigned long)i * 2654435761u, (unsigned long)i);
        store_seek k = {.id = id, .pool = "ur/skiryuk", .game = "ur", .options = "{}", .name = "Bench",
                        .players = 2, .rating = 1500, .rd = 350, .made_ms = 1, .after_s = 30};
        if (store_seek_put(i < n ? dead : live, &k, &err) < 0)
            rc = 1;
    }
    if (rc == 0)
        printf("written: %ld dead seeks, %ld live, in %.0f ms\n", n, n / 10, bseek_ms(t0));
    if (rc == 0 && (store_owner_beat(dead, -5000, &err) < 0 || store_owner_beat(live, 3600 * 1000, &err) < 0))
        rc = 1;
    long seen = 0;
    t0 = bseek_clock(CLOCK_MONOTONIC);
    if (rc == 0 && store_seeks_read(live, bseek_count, &seen, &err) != 0)
        rc = 1;
    if (rc == 0)
        printf("live read before: %ld seeks in %.2f ms\n", seen, bseek_ms(t0));
    double total = bseek_clock(CLOCK_MONOTONIC), cpu = bseek_clock(CLOCK_PROCESS_CPUTIME_ID), worst = 0;
    int calls = 0;
    for (int64_t got = 1; rc == 0 && got > 0; calls++) {
        t0 = bseek_clock(CLOCK_MONOTONIC);
        got = store_seeks_sweep(live, 1000, HUB_SWEEP_ROWS, &err);
        double ms = bseek_ms(t0);
        worst = ms > worst ? ms : worst;
        if (got < 0)
            rc = 1;
        else
            printf("sweep call %d: %" PRId64 " rows in %.2f ms\n", calls + 1, got, ms);
    }
    if (rc == 0)
        printf("swept: %d calls of at most %d rows, %.1f ms in all (this process's CPU %.1f ms), the slowest "
               "%.2f ms\n",
               calls, HUB_SWEEP_ROWS, bseek_ms(total), (bseek_clock(CLOCK_PROCESS_CPUTIME_ID) - cpu) * 1e3, worst);
    seen = 0;
    t0 = bseek_clock(CLOCK_MONOTONIC);
    if (rc == 0 && store_seeks_read(live, bseek_count, &seen, &err) != 0)
        rc = 1;
    if (rc == 0)
        printf("live read after: %ld seeks in %.2f ms\n", seen, bseek_ms(t0));
    t0 = bseek_clock(CLOCK_MONOTONIC);
    for (int i = 0; rc == 0 && i < 100; i++)
        if (store_seeks_sweep(live, 1000, HUB_SWEEP_ROWS, &err) != 0)
            rc = 1;
    if (rc == 0)
        printf("idle sweep (nothing to do): %.3f ms a call (100 calls)\n", bseek_ms(t0) / 100);
    t0 = bseek_clock(CLOCK_MONOTONIC); /* a read of one row, for comparison: one round trip */
    for (int i = 0; rc == 0 && i < 100; i++)
        if (store_online(live, &err) < 0)
            rc = 1;
    if (rc == 0)
        printf("store_online, for comparison: %.3f ms a call (100 calls)\n", bseek_ms(t0) / 100);
    if (rc)
        fprintf(stderr, "parlour bench seek: --sweep: %s\n", err.len ? pl_buf_str(&err) : "failed");
    pl_buf_free(&err);
    store_close(dead);
    store_close(live);
    return rc;
}

int cli_bench_seek(int argc, char **argv)
{
    static const struct option lo[] = {{"seeks", required_argument, 0, 'n'},
                                       {"rate", required_argument, 0, 'r'},
                                       {"burst", no_argument, 0, 'b'},
                                       {"computer", required_argument, 0, 'c'},
                                       {"cancel", required_argument, 0, 'x'},
                                       {"seed", required_argument, 0, 's'},
                                       {"range", required_argument, 0, 'g'},
                                       {"hub", no_argument, 0, 'H'},
                                       {"sweep", required_argument, 0, 'S'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    long nseeks = 10000;
    double rate = 200, pcomp = 0.3, pcancel = 0.1;
    int burst = 0, range = 0, hubmode = 0, c;
    uint64_t seed = 1;
    const char *sweep_db = NULL;
    optind = 1;
    while ((c = getopt_long(argc, argv, "n:r:bc:x:s:g:HS:h", lo, NULL)) != -1) {
        switch (c) {
        case 'n': nseeks = atol(optarg); break;
        case 'r': rate = atof(optarg); break;
        case 'b': burst = 1; break;
        case 'c': pcomp = atof(optarg); break;
        case 'x': pcancel = atof(optarg); break;
        case 's': seed = strtoull(optarg, NULL, 10); break;
        case 'g': range = atoi(optarg); break;
        case 'H': hubmode = 1; break;
        case 'S': sweep_db = optarg; break;
        case 'h':
            puts("usage: parlour bench seek [--seeks N] [--rate R | --burst] [--computer P] [--cancel P]\n"
                 "                         [--range W] [--seed S] [--hub]\n"
                 "       parlour bench seek --sweep FILE|URL [--seeks N]\n"
                 "The Play now pool (seek.h) under a crowd on a virtual clock, ticking every 100 ms:\n"
                 "each tick's pairing time (p50/p99/max) and the seeks paired per second.\n"
                 "  --seeks N     people, one seek each (default 10000)\n"
                 "  --rate R      arrivals per second (default 200)\n"
                 "  --burst       all of them before the first tick instead\n"
                 "  --computer P  share that accept a computer after 15, 30 or 60 s (default 0.3)\n"
                 "  --cancel P    share that give up after 2..60 s (default 0.1)\n"
                 "  --range W     every seek asks the range W (10..4000: a narrow W keeps\n"
                 "                most of the crowd waiting at once; default: a tenth ask 150..400)\n"
                 "  --seed S      the draws (default 1)\n"
                 "  --hub         through the hub instead (the server's code minus the sockets): N\n"
                 "                sessions each send a seek; each hub_tick and seek message timed\n"
                 "                (--cancel is not used)\n"
                 "  --sweep DB    the store's sweep of a dead process's seeks instead, on a new database\n"
                 "                DB (a SQLite file or a postgresql:// URL): N dead seeks, N/10 live");
            return 0;
        default: return 2;
        }
    }
    if (nseeks < 1 || nseeks > 1000000 || !(rate > 0) || (double)nseeks / rate > 86400 || !(pcomp >= 0 && pcomp <= 1) ||
        !(pcancel >= 0 && pcancel <= 1) || (range != 0 && (range < SEEK_MIN_RANGE || range > SEEK_MAX_RANGE)) ||
        optind != argc) {
        fputs("parlour bench seek: --seeks 1..1000000, --rate > 0 (arrivals within a virtual day), --computer and "
              "--cancel 0..1, --range 10..4000\n",
              stderr);
        return 2;
    }
    if (seed == 0)
        seed = 1;
    if (sweep_db)
        return bseek_sweep(sweep_db, nseeks);
    if (hubmode)
        return bseek_hub(nseeks, rate, burst, pcomp, range, seed);
    seek_pool *p = seek_new(NULL);
    bseek_person *pe = calloc((size_t)nseeks, sizeof *pe);
    bseek_cancel *cx = calloc((size_t)nseeks, sizeof *cx);
    size_t ticks_cap = 1024, nticks = 0;
    double *tick_s = malloc(ticks_cap * sizeof *tick_s), *tick_cpu = malloc(ticks_cap * sizeof *tick_cpu);
    double *waits = malloc((size_t)nseeks * sizeof *waits);
    double *spreads = malloc((size_t)nseeks * sizeof *spreads);
    if (!p || !pe || !cx || !tick_s || !tick_cpu || !waits || !spreads) {
        fputs("parlour bench seek: out of memory\n", stderr);
        seek_free(p);
        free(pe), free(cx), free(tick_s), free(tick_cpu), free(waits), free(spreads);
        return 1;
    }
    /* The crowd, drawn before the run. */
    uint64_t s = seed * 0x9e3779b97f4a7c15ULL;
    if (s == 0)
        s = 1;
    double t = 0;
    size_t ncx = 0;
    for (long i = 0; i < nseeks; i++) {
        if (!burst)
            t += -log(bseek_unit(&s)) / rate;
        pe[i].made = (int64_t)(t * 1000);
        pe[i].paired = -1;
        pe[i].gone = INT64_MAX;
        if (bseek_unit(&s) < pcancel) {
            pe[i].gone = pe[i].made + 2000 + (int64_t)(bseek_rng(&s) % 58001);
            cx[ncx].at = pe[i].gone;
            cx[ncx++].id = (uint64_t)i;
        }
    }
    qsort(cx, ncx, sizeof *cx, bseek_cmp_cancel);
    long next = 0, cancelled = 0, paired_people = 0, groups = 0, computers = 0, refused = 0;
    size_t ci = 0, nwaits = 0, nspreads = 0;
    int most = 0;
    double pairing_s = 0;
    int64_t last = pe[nseeks - 1].made, end = last + 600000, now = 0;
    for (now = 100; now <= end && (next < nseeks || seek_total(p) > 0); now += 100) {
        for (; next < nseeks && pe[next].made < now; next++) {
            int k;
            double r = bseek_draw(&s, &k);
            static const int after[] = {15, 30, 60};
            seek_req q = {.id = (uint64_t)next, .key = bseek_keys[k].key, .players = bseek_keys[k].players,
                          .rating = r, .rd = 40 + (double)(bseek_rng(&s) % 311), .made_ms = pe[next].made,
                          .computer_after_s = bseek_unit(&s) < pcomp ? after[bseek_rng(&s) % 3] : 0,
                          .range = range ? range : bseek_rng(&s) % 10 == 0 ? 150 + (int)(bseek_rng(&s) % 251) : 0};
            pe[next].rating = r;
            if (seek_add(p, &q) != SEEK_OK)
                refused++;
        }
        for (; ci < ncx && cx[ci].at < now; ci++)
            cancelled += seek_cancel(p, cx[ci].id);
        if (seek_total(p) > most)
            most = seek_total(p);
        if (seek_total(p) == 0)
            continue; /* an empty pool: not a measured tick */
        size_t n;
        double t0 = bseek_clock(CLOCK_MONOTONIC), c0 = bseek_clock(CLOCK_THREAD_CPUTIME_ID);
        const seek_pairing *pr = seek_tick(p, now, &n);
        double dt = bseek_clock(CLOCK_MONOTONIC) - t0, dc = bseek_clock(CLOCK_THREAD_CPUTIME_ID) - c0;
        pairing_s += dt;
        if (nticks == ticks_cap) {
            double *nt = realloc(tick_s, 2 * ticks_cap * sizeof *nt);
            if (nt)
                tick_s = nt;
            double *nc = realloc(tick_cpu, 2 * ticks_cap * sizeof *nc);
            if (nc)
                tick_cpu = nc;
            if (!nt || !nc) {
                fputs("parlour bench seek: out of memory\n", stderr);
                break;
            }
            ticks_cap *= 2;
        }
        tick_cpu[nticks] = dc;
        tick_s[nticks++] = dt;
        for (size_t g = 0; g < n; g++) {
            groups++;
            computers += pr[g].computer;
            if (!pr[g].computer)
                spreads[nspreads++] = pr[g].spread;
            for (int m = 0; m < pr[g].n; m++) {
                bseek_person *x = &pe[pr[g].ids[m]];
                x->paired = now;
                waits[nwaits++] = (double)(now - x->made) / 1000.0;
                paired_people++;
            }
        }
    }
    int left = seek_total(p);
    qsort(tick_s, nticks, sizeof *tick_s, bseek_cmp_d);
    qsort(tick_cpu, nticks, sizeof *tick_cpu, bseek_cmp_d);
    qsort(waits, nwaits, sizeof *waits, bseek_cmp_d);
    qsort(spreads, nspreads, sizeof *spreads, bseek_cmp_d);
    printf("seek pool: %ld seeks (%s), seed %" PRIu64 ", %zu ticks of 100 ms with seeks waiting, most waiting at "
           "once %d\n", nseeks, burst ? "all before the first tick" : "arriving", seed, nticks, most);
    printf("pairing time per tick: p50 %.3f ms  p99 %.3f ms  max %.3f ms  (total %.3f s)\n",
           bseek_pct(tick_s, nticks, 0.5) * 1e3, bseek_pct(tick_s, nticks, 0.99) * 1e3,
           nticks ? tick_s[nticks - 1] * 1e3 : 0, pairing_s);
    printf("... its CPU time (the thread's): p50 %.3f ms  p99 %.3f ms  max %.3f ms\n",
           bseek_pct(tick_cpu, nticks, 0.5) * 1e3, bseek_pct(tick_cpu, nticks, 0.99) * 1e3,
           nticks ? tick_cpu[nticks - 1] * 1e3 : 0);
    printf("paired %ld seeks in %ld groups (%ld with a computer): %.0f seeks paired per second of pairing\n",
           paired_people, groups, computers, pairing_s > 0 ? (double)paired_people / pairing_s : 0.0);
    printf("wait: median %.1f s, p90 %.1f s; rating spread of groups with people: median %.0f, p90 %.0f\n",
           bseek_pct(waits, nwaits, 0.5), bseek_pct(waits, nwaits, 0.9), bseek_pct(spreads, nspreads, 0.5),
           bseek_pct(spreads, nspreads, 0.9));
    printf("cancelled %ld, refused %ld, left waiting %d\n", cancelled, refused, left);
    seek_free(p);
    free(pe), free(cx), free(tick_s), free(tick_cpu), free(waits), free(spreads);
    return refused ? 1 : 0;
}
