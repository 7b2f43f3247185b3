/* bench_karnet_hub.c — `parlour bench karuta-net --hub`: the fairness of
 * real-time karuta measured through the server's own code, the hub
 * (src/server/hub.h), on a virtual clock. The hub runs as `parlour serve`
 * runs it, minus the sockets and the disk: every message it sends travels
 * to its client over a simulated link, every client message travels back
 * the same way, hub_tick runs exactly when hub_next_ms asks, and store
 * batches are reported durable at once (nothing is written).
 *
 * Two scripted clients sit at a chirashi-dori table for two (all 100 cards
 * on the field, so every reading is taken by a touch of both). Each has a
 * trip down and a trip up drawn 10-150 ms, +-jitter per message (delivery
 * stays in order, as over TCP), and a clock up to an hour off. A client
 * answers every `sync` at once, stamped on its clock; it hears each `kana`
 * and, when the kana heard so far leave one unread poem (the view's
 * `unread`, matched against the poems' sound keys, karp_poem_key), touches
 * it `reaction` ms later, its stamp on its own clock. The two reactions of
 * a reading differ by diff..diff+70 ms. The judged times are the hub's
 * touch actions in the history ("touch N@MS"), read when the window closes.
 * With --liar MS the second client cheats: its stamps are MS ms early (the
 * hub clamps them to the deciding kana, and logs each clamp on stderr).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../server/hub.h"
#include "cli.h"
#include "kar_practice.h"
#include "parlour/alloc.h"
#include "parlour/rng.h"

#define KH_TIE_MS 10
#define KH_KEYMAX 64 /* bytes of a 6-kana key prefix */

/* One message in flight. */
typedef struct kh_msg {
    int64_t at;
    uint64_t seq;
    int k;          /* the client: the sender (to_server) or the receiver */
    uint64_t conn;  /* its connection then (a message of a pair gone is dropped) */
    int to_server;
    char *text;     /* malloc'd (jansson's json_dumps or a copy) */
    size_t len;
} kh_msg;

typedef struct kh_client {
    uint64_t conn;
    int down, up;
    int64_t offset;
    int64_t last_down, last_up; /* arrival of the last message each way (in order, as TCP) */
    /* what the client knows of the table */
    bool unread[KARP_NPOEMS + 1], field[KARP_NPOEMS + 1];
    /* the reading being heard */
    int n;
    char heard[KARP_MAXKANA * 4 + 1];
    size_t hlen;
    int nk, decided;
} kh_client;

typedef struct kh {
    hub *h;
    pl_rng rng;
    int jitter, diff_min;
    int liar;       /* client 1 stamps its touches this many ms early (a cheat) */
    long target;    /* readings to compare */
    int64_t now;
    kh_msg *q;
    int nq, capq;
    uint64_t seq;
    kh_client c[2];
    char room[64];
    int matches;
    /* the reading being heard: its number and the pair's reactions */
    int rn, react[2], diff;
    /* per card of the match: the touches sent and the times judged */
    struct kh_card {
        int touched[2], react[2], dec[2], judged[2], diff, done;
    } card[KARP_NPOEMS + 1];
    /* poems' keys: the first 6 kana, and the bytes of the first k */
    char key[KARP_NPOEMS + 1][KH_KEYMAX];
    int keylen[KARP_NPOEMS + 1][KARP_DEPTH + 1];
    /* figures */
    long readings, right, equal, ties, unrecognised, errors, bydiff[3][2];
    long liar_at_lo, liar_first, liar_truly_first;
    long err_n, err_sum;
    int *err;
    pl_buf first_error;
} kh;

static int kh_cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int kh_uniform(pl_rng *r, int lo, int hi) { return lo + (int)pl_rng_below(r, (uint32_t)(hi - lo + 1)); }

static int kh_trip(kh *b, int base)
{
    int t = base + kh_uniform(&b->rng, -b->jitter, b->jitter);
    return t < 1 ? 1 : t;
}

static int kh_before(const kh_msg *a, const kh_msg *b) { return a->at < b->at || (a->at == b->at && a->seq < b->seq); }

/* Queues `text` (taken) to arrive at `at`. Returns 0, or -1 (no memory). */
static int kh_push(kh *b, int64_t at, int k, int to_server, char *text, size_t len)
{
    if (b->nq == b->capq) {
        int cap = b->capq ? 2 * b->capq : 256;
        kh_msg *q = realloc(b->q, (size_t)cap * sizeof *q);
        if (!q)
            return -1;
        b->q = q;
        b->capq = cap;
    }
    kh_msg m = {at, b->seq++, k, b->c[k].conn, to_server, text, len};
    int i = b->nq++;
    while (i > 0 && kh_before(&m, &b->q[(i - 1) / 2])) { /* a binary heap on (at, seq) */
        b->q[i] = b->q[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    b->q[i] = m;
    return 0;
}

static kh_msg kh_pop(kh *b)
{
    kh_msg top = b->q[0], last = b->q[--b->nq];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, s = i;
        const kh_msg *best = &last;
        if (l < b->nq && kh_before(&b->q[l], best))
            s = l, best = &b->q[l];
        if (l + 1 < b->nq && kh_before(&b->q[l + 1], best))
            s = l + 1;
        if (s == i)
            break;
        b->q[i] = b->q[s];
        i = s;
    }
    if (b->nq)
        b->q[i] = last;
    return top;
}

/* Client `k` sends `msg` (a JSON object, taken) at server time `at`. */
static int kh_send(kh *b, int k, int64_t at, json_t *msg)
{
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (!text)
        return -1;
    kh_client *c = &b->c[k];
    int64_t arrive = at + kh_trip(b, c->up);
    if (arrive < c->last_up)
        arrive = c->last_up;
    c->last_up = arrive;
    return kh_push(b, arrive, k, 1, text, strlen(text));
}

/* Moves what the hub has for the clients onto the links, acknowledges its
 * store batches at once and runs computer players' jobs (none here). */
static int kh_pump(kh *b)
{
    for (;;) {
        int moved = 0;
        hub_batch *bt = hub_store_take(b->h);
        if (bt) {
            hub_store_done(b->h, bt, 1, b->now);
            hub_batch_free(bt);
            moved = 1;
        }
        hub_job *j = hub_job_take(b->h);
        if (j) {
            hub_job_run(j);
            hub_job_done(b->h, j, b->now);
            moved = 1;
        }
        hub_out o;
        while (hub_out_next(b->h, &o)) {
            int k = o.conn == b->c[0].conn ? 0 : o.conn == b->c[1].conn ? 1 : -1;
            if (k < 0) {
                pl_free(o.text);
                continue;
            }
            char *text = malloc(o.len + 1);
            if (!text) {
                pl_free(o.text);
                return -1;
            }
            memcpy(text, o.text, o.len);
            text[o.len] = '\0';
            pl_free(o.text);
            kh_client *c = &b->c[k];
            int64_t arrive = b->now + kh_trip(b, c->down);
            if (arrive < c->last_down)
                arrive = c->last_down;
            c->last_down = arrive;
            if (kh_push(b, arrive, k, 0, text, o.len) < 0)
                return -1;
            moved = 1;
        }
        if (!moved)
            return 0;
    }
}

/* A new pair of clients on new links, and a new room. */
static int kh_new_match(kh *b)
{
    for (int k = 0; k < 2; k++) {
        kh_client *c = &b->c[k];
        if (c->conn)
            hub_disconnect(b->h, c->conn, b->now);
        memset(c, 0, sizeof *c);
        c->down = kh_uniform(&b->rng, 10, 150);
        c->up = kh_uniform(&b->rng, 10, 150);
        c->offset = (int64_t)kh_uniform(&b->rng, -3600, 3600) * 1000 + kh_uniform(&b->rng, 0, 999);
        c->conn = hub_connect(b->h, b->now);
        if (!c->conn)
            return -1;
    }
    b->matches++;
    memset(b->card, 0, sizeof b->card);
    return kh_send(b, 0, b->now,
                   json_pack("{s:s, s:s, s:{s:s, s:s, s:s}, s:[{s:s}, {s:s}]}", "type", "create", "game", "karuta",
                             "options", "variant", "chirashi", "players", "2", "memo_s", "0", "seats", "kind",
                             "person", "kind", "person"));
}

/* The reading `n` begins for a client: the pair's reactions are drawn at
 * the first client to hear of it. */
static void kh_reading(kh *b, kh_client *c, int n)
{
    c->n = n;
    c->hlen = 0;
    c->heard[0] = '\0';
    c->nk = 0;
    c->decided = 0;
    if (n != b->rn) {
        b->rn = n;
        b->diff = kh_uniform(&b->rng, b->diff_min, b->diff_min + 70);
        b->react[0] = kh_uniform(&b->rng, 200, 700);
        b->react[1] = kh_uniform(&b->rng, 0, 1) ? b->react[0] + b->diff : b->react[0] - b->diff;
        if (b->react[1] < 100)
            b->react[0] += 100 - b->react[1], b->react[1] = 100;
    }
}

/* A kana heard: once the kana heard leave one unread poem, the client
 * touches it after its reaction. */
static int kh_kana(kh *b, int k, const char *kana, int t_ms)
{
    kh_client *c = &b->c[k];
    /* the sound key folds おう to おお (KA-K1: poem 44 spells it おう) */
    if (!strcmp(kana, "う") && c->hlen >= 3 && !memcmp(c->heard + c->hlen - 3, "お", 3))
        kana = "お";
    size_t l = strlen(kana);
    if (c->decided || c->hlen + l >= sizeof c->heard)
        return 0;
    memcpy(c->heard + c->hlen, kana, l + 1);
    c->hlen += l;
    c->nk++;
    if (c->nk > KARP_DEPTH)
        return 0;
    int found = 0, cand = 0;
    for (int p = 1; p <= KARP_NPOEMS; p++)
        if (c->unread[p] && b->keylen[p][c->nk] == (int)c->hlen && !memcmp(b->key[p], c->heard, c->hlen)) {
            found = p;
            cand++;
        }
    if (cand == 0 || (cand > 1 && c->nk == KARP_DEPTH)) {
        b->unrecognised++;
        c->decided = -1;
        return 0;
    }
    if (cand > 1)
        return 0;
    c->decided = found;
    if (!c->field[found])
        return 0;
    struct kh_card *r = &b->card[found];
    r->touched[k] = 1;
    r->react[k] = b->react[k];
    r->dec[k] = t_ms;
    r->diff = b->diff;
    int64_t at = b->now + b->react[k];
    return kh_send(b, k, at,
                   json_pack("{s:s, s:i, s:I}", "type", "touch", "card", found, "client_ms",
                             (json_int_t)(at + c->offset - (k == 1 ? b->liar : 0))));
}

/* A history entry "touch N@MS ...": the judged times of the cards both
 * clients touched; a card judged for both is counted. */
static void kh_history(kh *b, int seat, const char *text)
{
    if (seat < 0 || seat > 1 || strncmp(text, "touch ", 6))
        return;
    for (const char *s = text + 6; *s;) {
        int p, ms, used;
        if (sscanf(s, "%d@%d%n", &p, &ms, &used) != 2 || p < 1 || p > KARP_NPOEMS)
            return;
        s += used;
        while (*s == ' ')
            s++;
        struct kh_card *r = &b->card[p];
        if (!r->touched[seat] || r->done || b->readings >= b->target)
            continue;
        r->judged[seat] = ms + 1; /* 0: not yet */
        if (!r->judged[0] || !r->judged[1] || !r->touched[0] || !r->touched[1])
            continue;
        r->done = 1;
        int t0 = r->judged[0] - 1, t1 = r->judged[1] - 1;
        int right = t0 != t1 && (t0 < t1) == (r->react[0] < r->react[1]);
        b->readings++;
        b->right += right;
        b->equal += t0 == t1;
        b->ties += abs(t0 - t1) <= KH_TIE_MS;
        int bd = r->diff < 40 ? 0 : r->diff < 60 ? 1 : 2;
        b->bydiff[bd][0]++;
        b->bydiff[bd][1] += right;
        b->liar_at_lo += t1 == r->dec[1];
        b->liar_first += t1 < t0;
        b->liar_truly_first += r->react[1] < r->react[0];
        for (int q = 0; q < 2; q++) { /* each touch against the truth: its deciding kana + reaction */
            int e = r->judged[q] - 1 - (r->dec[q] + r->react[q]);
            b->err[b->err_n++] = e < 0 ? -e : e;
            b->err_sum += e < 0 ? -e : e;
        }
    }
}

/* Client `k` receives `text` at b->now. Returns 0, or -1 (no memory). */
static int kh_receive(kh *b, int k, const char *text, size_t len)
{
    kh_client *c = &b->c[k];
    json_t *m = json_loadb(text, len, 0, NULL);
    if (!m)
        return 0;
    const char *type = json_string_value(json_object_get(m, "type"));
    int rc = 0;
    if (!type)
        type = "";
    if (!strcmp(type, "sync")) {
        rc = kh_send(b, k, b->now,
                     json_pack("{s:s, s:I, s:I}", "type", "sync", "id",
                               (json_int_t)json_integer_value(json_object_get(m, "id")), "client_ms",
                               (json_int_t)(b->now + c->offset)));
    } else if (!strcmp(type, "created")) {
        snprintf(b->room, sizeof b->room, "%s", json_string_value(json_object_get(m, "room")));
        for (int q = 0; q < 2 && !rc; q++)
            rc = kh_send(b, q, b->now,
                         json_pack("{s:s, s:s, s:s, s:i}", "type", "join", "room", b->room, "name", q ? "B" : "A",
                                   "seat", q));
    } else if (!strcmp(type, "reading")) {
        kh_reading(b, c, (int)json_integer_value(json_object_get(m, "n")));
    } else if (!strcmp(type, "kana")) {
        const char *kana = json_string_value(json_object_get(m, "kana"));
        if (kana && json_integer_value(json_object_get(m, "n")) == c->n)
            rc = kh_kana(b, k, kana, (int)json_integer_value(json_object_get(m, "t_ms")));
    } else if (!strcmp(type, "state")) {
        json_t *view = json_object_get(m, "view"), *v;
        size_t i;
        if (json_is_object(view)) {
            memset(c->unread, 0, sizeof c->unread);
            memset(c->field, 0, sizeof c->field);
            json_array_foreach(json_object_get(view, "unread"), i, v)
            {
                json_int_t p = json_integer_value(v);
                if (p >= 1 && p <= KARP_NPOEMS)
                    c->unread[p] = true;
            }
            json_array_foreach(json_object_get(view, "field"), i, v)
            {
                json_int_t p = json_integer_value(v);
                if (p >= 1 && p <= KARP_NPOEMS)
                    c->field[p] = true;
            }
        }
        if (k == 0) /* one client reads the judged times */
            json_array_foreach(json_object_get(m, "history"), i, v)
            {
                const char *t = json_string_value(json_object_get(v, "text"));
                kh_history(b, (int)json_integer_value(json_object_get(v, "seat")), t ? t : "");
            }
        if (k == 0 && json_is_true(json_object_get(m, "over")))
            rc = kh_new_match(b);
    } else if (!strcmp(type, "error")) {
        if (!b->errors++)
            pl_buf_printf(&b->first_error, "%.*s", (int)len, text);
    }
    json_decref(m);
    return rc;
}

int cli_bench_karuta_net_hub(long readings, uint64_t seed, int jitter, int diff_min, int liar)
{
    kh *b = calloc(1, sizeof *b);
    if (!b || !(b->err = malloc(2 * (size_t)readings * sizeof *b->err))) {
        if (b)
            free(b);
        fputs("parlour bench karuta-net: out of memory\n", stderr);
        return 1;
    }
    pl_rng_seed(&b->rng, pl_mix64(seed ^ 0x68756232ull));
    b->jitter = jitter;
    b->diff_min = diff_min;
    b->liar = liar;
    b->target = readings;
    b->rn = -1;
    for (int p = 1; p <= KARP_NPOEMS; p++) {
        for (int n = 1; n <= KARP_DEPTH; n++) {
            pl_buf key = {0};
            karp_poem_key(p, n, &key);
            b->keylen[p][n] = (int)key.len;
            if (n == KARP_DEPTH)
                snprintf(b->key[p], KH_KEYMAX, "%s", pl_buf_str(&key));
            pl_buf_free(&key);
        }
    }
    hub_config cfg = {.test_seed = seed ? seed : 1, .rate_per_s = 1000, .rate_burst = 3000};
    pl_buf err = {0};
    b->h = hub_new(&cfg, &err);
    int rc = 0;
    b->now = 1000000;
    if (!b->h || kh_new_match(b) < 0) {
        fprintf(stderr, "parlour bench karuta-net --hub: %s\n", b->h ? "out of memory" : pl_buf_str(&err));
        rc = 1;
    }
    long guard = 0;
    while (!rc && b->readings < readings) {
        int64_t next = hub_next_ms(b->h);
        if (b->nq && b->q[0].at < next)
            next = b->q[0].at;
        if (next == INT64_MAX || ++guard > 400L * readings + 100000) {
            fputs("parlour bench karuta-net --hub: the simulation stalled\n", stderr);
            rc = 1;
            break;
        }
        if (next > b->now)
            b->now = next;
        if (hub_next_ms(b->h) <= b->now)
            hub_tick(b->h, b->now);
        while (!rc && b->nq && b->q[0].at <= b->now) {
            kh_msg m = kh_pop(b);
            int live = m.conn == b->c[m.k].conn; /* else its client left with its match */
            if (live && m.to_server)
                hub_message(b->h, m.conn, m.text, m.len, b->now);
            else if (live)
                rc = kh_receive(b, m.k, m.text, m.len);
            free(m.text);
            if (!rc)
                rc = kh_pump(b);
        }
        if (!rc)
            rc = kh_pump(b);
    }
    if (!rc) {
        int *e = b->err;
        long n = b->err_n;
        qsort(e, (size_t)n, sizeof *e, kh_cmp_int);
        printf("karuta-net --hub: %ld readings through the hub (chirashi for two, %d matches), seed %llu, trips "
               "10-150 ms each way, jitter +-%d ms, reactions %d-%d ms apart, the hub's own sync schedule\n",
               b->readings, b->matches, (unsigned long long)seed, jitter, diff_min, diff_min + 70);
        printf("%-42s right order %6.2f %% (%ld/%ld), wrong %.2f %%, equal times %.2f %%; within the tie window "
               "(%d ms) %.2f %%\n",
               "hub + rtclock", 100.0 * b->right / b->readings, b->right, b->readings,
               100.0 * (b->readings - b->right - b->equal) / b->readings, 100.0 * b->equal / b->readings, KH_TIE_MS,
               100.0 * b->ties / b->readings);
        printf("%-42s |error| mean %.1f ms, p50 %d, p99 %d, max %d ms; right order by difference: "
               "<40 ms %.2f %%, 40-59 %.2f %%, 60+ %.2f %%; unrecognised readings %ld, errors %ld\n",
               "", n ? (double)b->err_sum / n : 0.0, n ? e[n / 2] : 0, n ? e[n * 99 / 100] : 0, n ? e[n - 1] : 0,
               b->bydiff[0][0] ? 100.0 * b->bydiff[0][1] / b->bydiff[0][0] : 0.0,
               b->bydiff[1][0] ? 100.0 * b->bydiff[1][1] / b->bydiff[1][0] : 0.0,
               b->bydiff[2][0] ? 100.0 * b->bydiff[2][1] / b->bydiff[2][0] : 0.0, b->unrecognised, b->errors);
        if (b->errors)
            printf("the first error: %s\n", pl_buf_str(&b->first_error));
        if (liar)
            printf("%-42s seat 1 stamps its touches %d ms early: judged at its deciding kana (clamped) %.2f %%, "
                   "judged first %.2f %%, truly first %.2f %%\n",
                   "a cheat", liar, 100.0 * b->liar_at_lo / b->readings, 100.0 * b->liar_first / b->readings,
                   100.0 * b->liar_truly_first / b->readings);
    }
    while (b->nq) {
        kh_msg m = kh_pop(b);
        free(m.text);
    }
    free(b->q);
    hub_free(b->h);
    pl_buf_free(&err);
    pl_buf_free(&b->first_error);
    free(b->err);
    free(b);
    return rc;
}
