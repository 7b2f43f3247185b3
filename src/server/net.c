/* net.c — the server's network layer (net.h): libwebsockets for HTTP (the
 * static files of web/) and the WebSocket at /ws, the storage thread, the
 * worker pool, and the loop that drives the hub.
 *
 * The service thread (net_run's) is the only one that touches the hub and
 * the connections. After every hub call it "pumps": the messages the hub
 * released go to their connections' queues, its computer players' jobs go
 * to the workers, and the timer is set for hub_next_ms. After every turn of
 * the loop (every event of one poll) the writes the hub queued go to the
 * storage thread as one batch (at most one out at a time, so what arrives
 * while a batch is on its way to disk rides in the next: one fsync for many
 * actions). Helper threads post their results under
 * `mu` and wake the loop with lws_cancel_service, which arrives as
 * LWS_CALLBACK_EVENT_WAIT_CANCELLED on the service thread. Under load one
 * turn of the loop handles hundreds of messages, so after every message a
 * written batch is looked for (st_ready), its states sent at once, and a
 * batch leaves early once NET_BATCH_EARLY writes wait (net_midturn): the
 * moves would otherwise wait for the rest of the turn twice.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <ev.h>
#include <jansson.h>
#include <libwebsockets.h>

#include "account.h"
#include "drill.h"
#include "engines.h"
#include "hub.h"
#include "net.h"
#include "parlour/alloc.h"
#include "player.h"
#include "store.h"

/* One message waiting to be sent: LWS_PRE bytes of room for the frame's
 * header, then the text. */
typedef struct net_msg {
    struct net_msg *next;
    size_t len;
    int close; /* close the connection once this message is sent */
    unsigned char buf[];
} net_msg;

/* A WebSocket connection (lws's per-session data, zeroed by lws; also
 * allocated, unused, for plain HTTP connections). */
typedef struct net_conn {
    uint64_t id;          /* the hub's id; 0: not (or no longer) the hub's */
    struct lws *wsi;
    net_msg *head, *tail; /* to send, oldest first */
    size_t queued;        /* bytes in the queue */
    int closing;          /* close once the queue is sent; drop what comes */
    pl_buf rx;            /* a message arriving in pieces */
    int rx_over;          /* rx holds HUB_MAX_MESSAGE + 1 bytes: the rest is dropped */
    int close_due;        /* closing: the last message is out, the close waits NET_CLOSE_US */
    int64_t rx_us;        /* when its last whole message came (net_us) */
    /* WebSocket with a session cookie: its messages wait in `held` (each a
     * 4-byte length and the text) until the session is looked up. */
    int acct_wait;
    pl_buf held;
    /* HTTP: an /api/account request (NET_API_*), its body, its answer. */
    int api;
    struct net_areq *areq; /* in flight on an account thread; NULL: none */
    pl_buf body;
    int body_over;         /* the body is longer than NET_MAX_BODY: the rest is dropped */
    unsigned refuse;       /* the HTTP status refusing it once its body is read (dropped), 0 none */
    int64_t before_ms;     /* GET /api/player/NAME?before=MS&limit=N: the page asked (player.h) */
    int limit;
    int secure;            /* came over https (X-Forwarded-Proto from the local proxy) */
    char addr[64];         /* the client's address (rate limits) */
    char token[ACCT_TOKEN_HEX + 1]; /* the session cookie's token, "" none */
    unsigned status;       /* the answer: its HTTP status (0: not yet), */
    char *ans;             /* its JSON body (owned), */
    size_t ans_len;        /* with ans_zip: the bytes of `ans`, a zip archive (not JSON) */
    int ans_zip;
    char cookie[160];      /* and its Set-Cookie, "" none */
} net_conn;

/* A deleted account's seats are called this (docs/accounts.md, account.c's). */
#define NET_ANON_NAME "anonymous"

/* What an account thread is asked (net_conn.api). */
enum { NET_API_NONE = 0, NET_API_SIGNUP, NET_API_SIGNIN, NET_API_SIGNOUT, NET_API_PASSWORD, NET_API_DELETE,
       NET_API_ME, NET_API_WS, NET_API_PLAYER, NET_API_DRILL_GET, NET_API_DRILL_PUT, NET_API_PRIVACY,
       NET_API_EXPORT };

/* One call for an account thread, then its answer. */
typedef struct net_areq {
    struct net_areq *next;
    int op;                  /* NET_API_* */
    net_conn *hc;            /* HTTP: the request that waits (service thread only; NULL once gone) */
    uint64_t conn;           /* NET_API_WS: the hub's connection */
    char token[ACCT_TOKEN_HEX + 1];
    char addr[64];
    char *name, *password, *password2; /* owned; the passwords wiped before they are freed */
    int rc;                  /* the answer: an acct_status, or -1 (the store failed) */
    acct_user user;
    json_t *page;            /* NET_API_PLAYER: the page (player.h); NET_API_DRILL_GET: the answer */
    char *record;            /* NET_API_DRILL_PUT: the record (owned, checked by drill_check) */
    int64_t before_ms;       /* NET_API_PLAYER: the page asked */
    int limit;
    int flag;                /* NET_API_PRIVACY: 1 private, 0 public */
    pl_buf zip;              /* NET_API_EXPORT: the archive (player_records_zip) */
} net_areq;

/* An account thread's queue (net.h: the slow one and the quick one). */
typedef struct net_aq {
    net_areq *todo, *todo_tail;
    pthread_cond_t cv;
    pthread_t thread;
    int started;
    const char *name; /* the thread's name */
    struct net *n;
} net_aq;

/* The hub's connection ids to their sessions: open addressing, linear
 * probing, deletion by backward shift; id 0 marks a free slot. */
typedef struct net_map {
    uint64_t *keys;
    net_conn **vals;
    size_t cap, n; /* cap: a power of two, or 0 */
} net_map;

/* A job of the worker pool, on the to-do list or the done list. */
typedef struct net_job {
    struct net_job *next;
    hub_job *job;
} net_job;

#define NET_LAT_SUB 8
#define NET_LAT_BUCKETS (40 * NET_LAT_SUB)

struct net {
    struct lws_context *ctx;
    struct ev_loop *loop; /* libev's loop (epoll) lws runs on; NULL: lws's own poll loop */
    ev_prepare prep;      /* before each wait of `loop`: net_store, and the stop */
    hub *hub;
    store *store;
    char web[PATH_MAX]; /* the web folder, resolved */
    size_t weblen;
    char fonts[PATH_MAX]; /* the fonts folder (net_config.fonts), as given */
    int port;
    size_t max_queue;   /* net_config.max_queue */
    atomic_int stop;
    int destroying;     /* net_free runs: what the hub sends is dropped, nothing new starts */
    /* From a move's arrival to its last update (net_latency): the arrivals
     * of the moves answered during one net_drain, then a histogram of
     * NET_LAT_SUB buckets per power of two microseconds. */
    int64_t lat_wait[64];
    int nlat_wait;
    uint64_t lat[NET_LAT_BUCKETS];
    uint64_t nlat;
    net_map conns;
    unsigned char *scratch; /* LWS_PRE + a message: net_deliver's direct writes */
    size_t scratch_cap;
    lws_sorted_usec_list_t sul; /* the hub's timer on lws's poll loop */
    ev_timer hub_timer;         /* the hub's timer on libev's loop */
    lws_sorted_usec_list_t kick; /* libev's loop: lws's own timers, every NET_KICK_US */
    int64_t sul_at;     /* the hub time the timer is set for; INT64_MAX: none */

    pthread_mutex_t mu; /* guards what follows */
    pthread_cond_t st_cv, wk_cv;
    int st_started;
    pthread_t st_thread;
    hub_batch *st_todo; /* for the storage thread */
    hub_batch *st_done; /* written (st_ok 1) or failed, for hub_store_done */
    atomic_int st_ready; /* st_done is set: read without `mu` after every message */
    int st_ok;
    int st_quit;
    pthread_t *wk;
    int nwk;            /* workers started */
    net_job *todo, *todo_tail, *done, *done_tail;
    int wk_quit;
    eng_pool *eng;      /* worker processes (--engines), or NULL; it posts to `done` too */
    /* cluster (net_config.cluster; under mu too) */
    int cluster;
    char *db;            /* the store's path, for the cluster thread's own handle */
    char owner[200];     /* this process's owner id */
    int64_t beat_next;   /* cluster thread: when the next heartbeat is due */
    int beat_failing;    /* cluster thread: the last beat failed (logged once) */
    int st_lost;         /* the heartbeat had expired: every lease may be lost */
    atomic_llong online; /* the open WebSocket connections (the hub's), written by the service
                            thread, stored with each heartbeat for the cluster's `online` */
    int64_t sweep_ms;    /* net_config.sweep_grace_ms */
    hub_lobby *lobby_new; /* read by the cluster thread, for the hub */
    pthread_t lb_thread;
    int lb_started;
    /* accounts (under mu too) */
    net_aq aq[2];        /* 0: the calls that hash a password, 1: the quick ones */
    net_areq *adone, *adone_tail;
    int aq_quit;
    acct_config acfg;
};

static int64_t net_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A monotonic clock in microseconds (latencies, not the hub's time). */
static int64_t net_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* The histogram's bucket of `us` microseconds: NET_LAT_SUB per power of two
 * (within 9 %), and the value a bucket stands for (its middle). */
static int net_lat_bucket(int64_t us)
{
    if (us < NET_LAT_SUB)
        return us < 0 ? 0 : (int)us;
    int e = 63 - __builtin_clzll((unsigned long long)us); /* 2^e <= us */
    int sub = (int)((us >> (e - 3)) & (NET_LAT_SUB - 1));
    int b = (e - 2) * NET_LAT_SUB + sub;
    return b < NET_LAT_BUCKETS ? b : NET_LAT_BUCKETS - 1;
}

static double net_lat_value(int b)
{
    if (b < NET_LAT_SUB)
        return b;
    int e = b / NET_LAT_SUB + 2, sub = b % NET_LAT_SUB;
    return (double)(1LL << e) * (1.0 + (sub + 0.5) / NET_LAT_SUB);
}

static void net_lat_add(net *n, int64_t us)
{
    n->lat[net_lat_bucket(us)]++;
    n->nlat++;
}

/* ---- The connection map ---------------------------------------------------- */

static size_t net_slot(uint64_t k, size_t cap)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k & (cap - 1);
}

static int net_map_grow(net_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    uint64_t *keys = pl_calloc(cap, sizeof *keys);
    net_conn **vals = pl_calloc(cap, sizeof *vals);
    if (!keys || !vals) {
        pl_free(keys);
        pl_free(vals);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i]) {
            size_t j = net_slot(m->keys[i], cap);
            while (keys[j])
                j = (j + 1) & (cap - 1);
            keys[j] = m->keys[i];
            vals[j] = m->vals[i];
        }
    pl_free(m->keys);
    pl_free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return 0;
}

/* Adds k -> v (k not present, k > 0). Returns 0, or -1 out of memory. */
static int net_map_put(net_map *m, uint64_t k, net_conn *v)
{
    if ((m->n + 1) * 2 > m->cap && net_map_grow(m))
        return -1;
    size_t i = net_slot(k, m->cap);
    while (m->keys[i])
        i = (i + 1) & (m->cap - 1);
    m->keys[i] = k;
    m->vals[i] = v;
    m->n++;
    return 0;
}

static net_conn *net_map_get(const net_map *m, uint64_t k)
{
    if (!m->cap)
        return NULL;
    for (size_t i = net_slot(k, m->cap); m->keys[i]; i = (i + 1) & (m->cap - 1))
        if (m->keys[i] == k)
            return m->vals[i];
    return NULL;
}

static void net_map_del(net_map *m, uint64_t k)
{
    if (!m->cap)
        return;
    size_t mask = m->cap - 1, i = net_slot(k, m->cap);
    while (m->keys[i] && m->keys[i] != k)
        i = (i + 1) & mask;
    if (!m->keys[i])
        return;
    /* Shift back every entry of the run after i that may move to i (its home
     * slot is not cyclically in (i, j]), so no lookup meets a hole early. */
    for (size_t j = (i + 1) & mask; m->keys[j]; j = (j + 1) & mask) {
        size_t h = net_slot(m->keys[j], m->cap);
        if (((j - h) & mask) >= ((j - i) & mask)) {
            m->keys[i] = m->keys[j];
            m->vals[i] = m->vals[j];
            i = j;
        }
    }
    m->keys[i] = 0;
    m->vals[i] = NULL;
    m->n--;
}

/* ---- Sending ---------------------------------------------------------------- */

static void net_conn_clear(net_conn *c)
{
    while (c->head) {
        net_msg *m = c->head;
        c->head = m->next;
        pl_free(m);
    }
    c->tail = NULL;
    c->queued = 0;
    pl_buf_free(&c->rx);
    c->rx_over = 0;
    pl_buf_free(&c->held);
}

/* Closes `c` from outside its callbacks: it is dropped at lws's next turn. */
static void net_conn_kill(net_conn *c)
{
    net_conn_clear(c);
    c->closing = 1;
    lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

/* Queues the hub's message `o` on its connection; frees o->text. */
static void net_deliver(net *n, hub_out *o)
{
    net_conn *c = n->destroying ? NULL : net_map_get(&n->conns, o->conn);
    if (!c || c->closing) {
        pl_free(o->text);
        return;
    }
    if (o->answers && c->rx_us) { /* timed when the drain ends: its states go out with it */
        if (n->nlat_wait < (int)(sizeof n->lat_wait / sizeof n->lat_wait[0]))
            n->lat_wait[n->nlat_wait++] = c->rx_us;
        else
            net_lat_add(n, net_us() - c->rx_us);
        c->rx_us = 0;
    }
    if (!c->head && !o->close && !lws_partial_buffered(c->wsi)) {
        /* Nothing waits before it: written now (lws keeps what the socket
         * does not take and sends it before anything else), without a
         * writable callback's two epoll changes and turn of the loop. */
        if (n->scratch_cap < LWS_PRE + o->len) {
            unsigned char *b = pl_realloc(n->scratch, LWS_PRE + o->len);
            if (b) {
                n->scratch = b;
                n->scratch_cap = LWS_PRE + o->len;
            }
        }
        if (n->scratch_cap >= LWS_PRE + o->len) {
            memcpy(n->scratch + LWS_PRE, o->text, o->len);
            pl_free(o->text);
            int w = lws_write(c->wsi, n->scratch + LWS_PRE, o->len, LWS_WRITE_TEXT);
            if (w < 0 || (size_t)w < o->len)
                net_conn_kill(c); /* a broken socket: closed from its writable callback */
            return;
        }
    }
    net_msg *m = NULL;
    if (c->queued + o->len <= n->max_queue)
        m = pl_malloc(sizeof *m + LWS_PRE + o->len);
    if (!m) {
        /* A client that does not read (or no memory for its message): a
         * connection that lost a message would show a wrong table, so it is
         * closed; the client comes back with its token and gets the state. */
        pl_free(o->text);
        net_conn_kill(c);
        return;
    }
    m->next = NULL;
    m->len = o->len;
    m->close = o->close;
    memcpy(m->buf + LWS_PRE, o->text, o->len);
    pl_free(o->text);
    if (c->tail)
        c->tail->next = m;
    else
        c->head = m;
    c->tail = m;
    c->queued += m->len;
    if (m->close)
        c->closing = 1;
    lws_callback_on_writable(c->wsi);
}

#define NET_CLOSE_US (500 * LWS_US_PER_MS)

/* Sends one queued message of `c`. Returns 0, or -1 to close. */
static int net_write(net_conn *c)
{
    net_msg *m = c->head;
    if (!m) {
        if (!c->closing)
            return 0;
        /* The last message (the one with `close`) went out with the
         * previous callback: lws calls this one only once it is flushed.
         * The close waits NET_CLOSE_US more, what comes meanwhile dropped:
         * a socket closed with unread input (a flood) is reset, and a reset
         * throws away what the client had not read yet, the messages that
         * say why it is closed among them. */
        if (!c->close_due) {
            c->close_due = 1;
            lws_set_timer_usecs(c->wsi, NET_CLOSE_US);
            return 0;
        }
        static const char why[] = "closed by the server";
        lws_close_reason(c->wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION, (unsigned char *)why, sizeof why - 1);
        return -1;
    }
    c->head = m->next;
    if (!c->head)
        c->tail = NULL;
    c->queued -= m->len;
    int w = lws_write(c->wsi, m->buf + LWS_PRE, m->len, LWS_WRITE_TEXT);
    int ok = w >= 0 && (size_t)w >= m->len;
    pl_free(m);
    if (!ok)
        return -1;
    if (c->head || c->closing)
        lws_callback_on_writable(c->wsi);
    return 0;
}

/* ---- Driving the hub -------------------------------------------------------- */

static void net_sul_cb(lws_sorted_usec_list_t *sul);

static void net_drain(net *n)
{
    hub_out o;
    while (hub_out_next(n->hub, &o))
        net_deliver(n, &o);
    if (n->nlat_wait) { /* every seat's update of those moves is written (or queued) now */
        int64_t now = net_us();
        for (int i = 0; i < n->nlat_wait; i++)
            net_lat_add(n, now - n->lat_wait[i]);
        n->nlat_wait = 0;
    }
}

/* Sets the timer for hub_next_ms. */
static void net_timer(net *n)
{
    int64_t next = hub_next_ms(n->hub);
    if (next == n->sul_at)
        return;
    n->sul_at = next;
    if (n->loop) {
        ev_timer_stop(n->loop, &n->hub_timer);
        if (next == INT64_MAX)
            return;
        ev_now_update(n->loop); /* libev counts from the loop's time, which a long turn leaves behind */
        int64_t d = next - net_now();
        ev_timer_set(&n->hub_timer, d > 0 ? (double)d / 1000.0 : 0.0, 0.0);
        ev_timer_start(n->loop, &n->hub_timer);
        return;
    }
    if (next == INT64_MAX) {
        lws_sul_cancel(&n->sul);
        return;
    }
    int64_t d = next - net_now();
    if (d < 0)
        d = 0;
    lws_sul_schedule(n->ctx, 0, &n->sul, net_sul_cb, (lws_usec_t)d * LWS_US_PER_MS);
}

/* After every turn of the service loop (lws_service: every event of one
 * poll): the writes the hub queued meanwhile, to the storage thread as one
 * batch. While a batch is out the hub gives none, and what arrives rides in
 * the next. */
static void net_store(net *n)
{
    hub_batch *b = n->destroying ? NULL : hub_store_take(n->hub);
    if (b) {
        pthread_mutex_lock(&n->mu);
        n->st_todo = b; /* the hub gives one batch at a time: the slot is free */
        pthread_cond_signal(&n->st_cv);
        pthread_mutex_unlock(&n->mu);
    }
}

/* After every hub call: messages out, the jobs to the workers, the timer. */
static void net_pump(net *n)
{
    net_drain(n);
    if (n->destroying)
        return;
    hub_job *j;
    int ran = 0;
    while ((j = hub_job_take(n->hub))) {
        net_job *x = pl_malloc(sizeof *x);
        if (!x) { /* no memory for the list: think here rather than lose the move */
            hub_job_run(j);
            hub_job_done(n->hub, j, net_now());
            ran = 1;
            continue;
        }
        x->next = NULL;
        x->job = j;
        if (n->eng && j->text && eng_submit(n->eng, j, x) == 0)
            continue; /* a worker process thinks; it posts to `done` (net_post) */
        pthread_mutex_lock(&n->mu);
        if (n->todo_tail)
            n->todo_tail->next = x;
        else
            n->todo = x;
        n->todo_tail = x;
        pthread_cond_signal(&n->wk_cv);
        pthread_mutex_unlock(&n->mu);
    }
    if (ran)
        net_drain(n);
    net_timer(n);
}

static void net_sul_cb(lws_sorted_usec_list_t *sul)
{
    net *n = lws_container_of(sul, net, sul);
    n->sul_at = INT64_MAX;
    hub_tick(n->hub, net_now());
    net_pump(n);
}

static void net_hub_timer_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    net *n = w->data;
    n->sul_at = INT64_MAX;
    hub_tick(n->hub, net_now());
    net_pump(n);
}

/* lws 4.1's libev glue arms its one timer for its earliest timer when that
 * one is due, and cannot bring it forward (libev's ev_timer_start leaves an
 * armed timer as it is): a timer lws sets sooner (a connection killed, a
 * handshake's timeout) would wait for the one armed. This timer, every
 * NET_KICK_US, keeps lws's armed at most that far ahead. The hub's own
 * timer is libev's (hub_timer), exact to the millisecond. */
#define NET_KICK_US (20 * LWS_US_PER_MS)
static void net_kick_cb(lws_sorted_usec_list_t *sul)
{
    net *n = lws_container_of(sul, net, kick);
    lws_sul_schedule(n->ctx, 0, &n->kick, net_kick_cb, NET_KICK_US);
}

static void net_api_done(net *n, struct net_areq *q);

/* The helper threads' results: the written batch, the finished jobs, the
 * account threads' answers. */
static void net_collect(net *n)
{
    pthread_mutex_lock(&n->mu);
    hub_batch *b = n->st_done;
    int ok = n->st_ok;
    n->st_done = NULL;
    atomic_store_explicit(&n->st_ready, 0, memory_order_relaxed);
    net_job *done = n->done;
    n->done = n->done_tail = NULL;
    int lost = n->st_lost;
    hub_lobby *lobby = n->lobby_new;
    n->st_lost = 0;
    n->lobby_new = NULL;
    net_areq *adone = n->adone;
    n->adone = n->adone_tail = NULL;
    pthread_mutex_unlock(&n->mu);
    while (adone) {
        net_areq *q = adone;
        adone = q->next;
        net_api_done(n, q);
    }
    int64_t now = net_now();
    if (lost)
        hub_rooms_lost(n->hub, now);
    if (lobby)
        hub_lobby_set(n->hub, lobby);
    if (b) {
        hub_store_done(n->hub, b, ok, now);
        hub_batch_free(b);
    }
    while (done) {
        net_job *x = done;
        done = x->next;
        hub_job_done(n->hub, x->job, now);
        pl_free(x);
    }
    net_pump(n);
}

/* Writes that make a batch leave in the middle of a turn of the loop
 * rather than at its end. At 10,000 moves/s the server's p99 was 19 ms with
 * 32 (and 16 or 48), 30 to 70 ms with none, in the same minutes
 * (docs/benchmarks.md); fewer make more, smaller commits. */
#define NET_BATCH_EARLY 32

/* After every message (net.c's head): net_collect when the storage thread
 * has given a batch back (else one atomic load), and the next batch out
 * when NET_BATCH_EARLY writes wait for it; the turn's end (net_prep_cb)
 * sends what is left. */
static void net_midturn(net *n)
{
    if (atomic_load_explicit(&n->st_ready, memory_order_acquire))
        net_collect(n);
    if (hub_store_pending(n->hub) >= NET_BATCH_EARLY)
        net_store(n);
}

/* ---- Helper threads ----------------------------------------------------------- */

/* ---- Cluster: the heartbeat and the lobby (docs/cluster.md) ------------------- */

/* Cluster thread: renews this process's heartbeat through its own handle
 * `w` (so a long batch on the storage thread never starves it). A beat that
 * finds it had expired (a process stopped or starved past NET_TTL_MS) tells
 * the service thread that every lease may be lost (hub_rooms_lost). */
static void net_beat(net *n, store *w)
{
    pl_buf err = {0};
    int rc = store_owner_beat_conns(w, NET_TTL_MS, atomic_load(&n->online), &err);
    n->beat_next = net_now() + NET_BEAT_MS;
    if (rc < 0 && !n->beat_failing)
        fprintf(stderr, "parlour serve: heartbeat: %s\n", pl_buf_str(&err));
    n->beat_failing = rc < 0;
    pl_buf_free(&err);
    if (rc == 0) {
        pthread_mutex_lock(&n->mu);
        n->st_lost = 1;
        pthread_mutex_unlock(&n->mu);
        lws_cancel_service(n->ctx);
    }
}


static void net_note(void *ctx, const char *what, const char *code)
{
    (void)ctx;
    (void)what;
    (void)code;
}

/* The cluster thread: its own store handle (this process's owner too);
 * writes the heartbeat every NET_BEAT_MS; reads the public open rooms when
 * another process tells of a room (store_watch_fd: PostgreSQL's NOTIFY)
 * and at least every NET_LOBBY_MS (SQLite has no notifications), and hands
 * the list to the service thread. */
static void *net_lobby_main(void *arg)
{
    net *n = arg;
    prctl(PR_SET_NAME, "lobby"); /* the threads' names: top, perf, bench-serve.sh's CPU per thread */
    store *w = NULL;
    int64_t next = 0;
    int failing = 0;
    for (;;) {
        pthread_mutex_lock(&n->mu);
        int quit = n->st_quit;
        pthread_mutex_unlock(&n->mu);
        if (quit)
            break;
        pl_buf err = {0};
        if (!w && (!(w = store_open(n->db, &err)) || store_set_owner(w, n->owner, &err) < 0)) {
            if (!failing)
                fprintf(stderr, "parlour serve: lobby: %s\n", pl_buf_str(&err));
            failing = 1;
            pl_buf_free(&err);
            store_close(w);
            w = NULL;
            usleep(100 * 1000);
            continue;
        }
        if (net_now() >= n->beat_next)
            net_beat(n, w);
        int fd = store_watch_fd(w), notes = 0;
        int64_t wait = (next < n->beat_next ? next : n->beat_next) - net_now();
        wait = wait < 0 ? 0 : wait > 300 ? 300 : wait; /* the quit is seen within 300 ms */
        if (fd >= 0) {
            struct pollfd pfd = {.fd = fd, .events = POLLIN};
            if (poll(&pfd, 1, (int)wait) > 0)
                notes = store_watch_drain(w, net_note, NULL, &err);
        } else if (wait > 0)
            usleep((useconds_t)wait * 1000);
        hub_lobby *l = NULL;
        if (notes >= 0 && (notes > 0 || net_now() >= next)) {
            l = hub_lobby_read(w, n->sweep_ms, &err);
            next = net_now() + NET_LOBBY_MS;
        }
        if (notes < 0 || (!l && err.len)) { /* the connection is lost: a new handle next time */
            if (!failing)
                fprintf(stderr, "parlour serve: lobby: %s\n", pl_buf_str(&err));
            failing = 1;
            store_close(w);
            w = NULL;
        } else if (l)
            failing = 0;
        pl_buf_free(&err);
        if (l) {
            pthread_mutex_lock(&n->mu);
            hub_lobby_free(n->lobby_new);
            n->lobby_new = l;
            pthread_mutex_unlock(&n->mu);
            lws_cancel_service(n->ctx);
        }
    }
    store_close(w);
    return NULL;
}

static void *net_storage_main(void *arg)
{
    net *n = arg;
    prctl(PR_SET_NAME, "storage");
    pthread_mutex_lock(&n->mu);
    for (;;) {
        while (!n->st_todo && !n->st_quit)
            pthread_cond_wait(&n->st_cv, &n->mu);
        if (!n->st_todo)
            break; /* asked to quit and nothing in flight */
        hub_batch *b = n->st_todo;
        n->st_todo = NULL;
        pthread_mutex_unlock(&n->mu);
        pl_buf err = {0};
        int ok = hub_batch_write(n->store, b, &err) == 0;
        if (!ok)
            fprintf(stderr, "parlour serve: storage: %s\n", pl_buf_str(&err));
        pl_buf_free(&err);
        pthread_mutex_lock(&n->mu);
        n->st_done = b;
        n->st_ok = ok;
        atomic_store_explicit(&n->st_ready, 1, memory_order_release);
        pthread_mutex_unlock(&n->mu);
        lws_cancel_service(n->ctx);
        pthread_mutex_lock(&n->mu);
    }
    pthread_mutex_unlock(&n->mu);
    return NULL;
}

/* A finished job to the service thread (under `mu`, then the wake-up). */
static void net_post(net *n, net_job *x)
{
    x->next = NULL;
    pthread_mutex_lock(&n->mu);
    if (n->done_tail)
        n->done_tail->next = x;
    else
        n->done = x;
    n->done_tail = x;
    pthread_mutex_unlock(&n->mu);
    lws_cancel_service(n->ctx);
}

/* The engines' callback (engines.h), on a pool thread. */
static void net_eng_done(void *ctx, hub_job *j, void *tag)
{
    (void)j;
    net_post(ctx, tag);
}

static void *net_worker_main(void *arg)
{
    net *n = arg;
    prctl(PR_SET_NAME, "ai-worker");
    pthread_mutex_lock(&n->mu);
    for (;;) {
        while (!n->todo && !n->wk_quit)
            pthread_cond_wait(&n->wk_cv, &n->mu);
        if (n->wk_quit)
            break;
        net_job *x = n->todo;
        n->todo = x->next;
        if (!n->todo)
            n->todo_tail = NULL;
        pthread_mutex_unlock(&n->mu);
        hub_job_run(x->job);
        net_post(n, x);
        pthread_mutex_lock(&n->mu);
    }
    pthread_mutex_unlock(&n->mu);
    return NULL;
}

/* ---- Accounts: the two account threads (docs/server.md, "Accounts") ------------ */

/* Frees `q`, its passwords wiped first. */
static void net_areq_free(net_areq *q)
{
    if (!q)
        return;
    if (q->password)
        memset(q->password, 0, strlen(q->password));
    if (q->password2)
        memset(q->password2, 0, strlen(q->password2));
    pl_free(q->name);
    pl_free(q->password);
    pl_free(q->password2);
    json_decref(q->page);
    pl_free(q->record);
    pl_buf_free(&q->zip);
    memset(q->user.token, 0, sizeof q->user.token);
    memset(q->token, 0, sizeof q->token);
    pl_free(q);
}

/* A drill call (GET or PUT /api/drill) of session q->token on `a`: the
 * account's record read into q->page ({"record": ..., "updated_ms": ...},
 * "record" null when none) or q->record written. ACCT_RATE past the
 * account's drill rate (drill.h). */
static int net_drill_run(acct_svc *a, store *s, drill_rate *rate, net_areq *q, int64_t now, pl_buf *err)
{
    int rc = acct_session(a, q->token, now, &q->user, err);
    if (rc != ACCT_OK)
        return rc;
    if (!drill_rate_ok(rate, q->user.id, now))
        return ACCT_RATE;
    if (q->op == NET_API_DRILL_PUT) {
        rc = store_drill_put(s, q->user.id, q->record, now, err);
        return rc == 1 ? ACCT_NO_SESSION : rc; /* 1: the account went meanwhile */
    }
    pl_buf text = {0};
    int64_t at = 0;
    rc = store_drill_get(s, q->user.id, &text, &at, err);
    if (rc == 0) {
        json_t *rec = json_loadb(text.s, text.len, 0, NULL);
        if (!rec) /* written through drill_check: only a hand-edited database gets here */
            fprintf(stderr, "parlour serve: drill record of account %lld is not JSON: ignored\n",
                    (long long)q->user.id);
        q->page = json_pack("{s:o, s:I}", "record", rec ? rec : json_null(), "updated_ms", (json_int_t)at);
    } else if (rc == 1)
        q->page = json_pack("{s:n, s:n}", "record", "updated_ms");
    pl_buf_free(&text);
    if (rc >= 0 && !q->page) {
        pl_buf_puts(err, "drill: out of memory");
        return -1;
    }
    return rc < 0 ? -1 : ACCT_OK;
}

/* Runs call `q` on `a` (an account thread; `rate` its rate table: drills, exports). */
static void net_areq_run(acct_svc *a, store *s, drill_rate *rate, net_areq *q)
{
    pl_buf err = {0};
    int64_t now = net_now();
    switch (q->op) {
    case NET_API_SIGNUP:
        q->rc = acct_signup(a, q->name, q->password, q->addr, now, &q->user, &err);
        break;
    case NET_API_SIGNIN:
        q->rc = acct_signin(a, q->name, q->password, q->addr, now, &q->user, &err);
        break;
    case NET_API_SIGNOUT:
        q->rc = q->token[0] ? acct_signout(a, q->token, &err) : ACCT_NO_SESSION;
        break;
    case NET_API_PASSWORD:
        q->rc = acct_password(a, q->token, q->password, q->password2, q->addr, now, &err);
        break;
    case NET_API_DELETE: /* whose account first: the hub renames its live seats (net_api_done) */
        q->rc = acct_session(a, q->token, now, &q->user, &err);
        if (q->rc == ACCT_OK)
            q->rc = acct_delete(a, q->token, q->password, q->addr, now, &err);
        break;
    case NET_API_DRILL_GET:
    case NET_API_DRILL_PUT:
        q->rc = net_drill_run(a, s, rate, q, now, &err);
        break;
    case NET_API_PLAYER: { /* no such name, or a private page not the viewer's own: ACCT_WRONG, answered 404 */
        store_account acc;
        int who = q->token[0] ? acct_session(a, q->token, now, &q->user, &err) : ACCT_NO_SESSION;
        q->rc = who < 0 ? -1 : acct_find(a, q->name, &acc, &err);
        player_query pq = {.own = who == ACCT_OK && q->rc == 0 && q->user.id == acc.id,
                           .before_ms = q->before_ms, .limit = q->limit};
        if (q->rc == 1 || (q->rc == 0 && acc.is_private && !pq.own))
            q->rc = ACCT_WRONG;
        else if (q->rc == 0 && !(q->page = player_page(s, &acc, &pq, &err)))
            q->rc = -1;
        if (q->rc != -1)
            memset(acc.hash, 0, sizeof acc.hash);
        break;
    }
    case NET_API_EXPORT: { /* the owner's only: anyone else, as an unknown name (ACCT_WRONG, 404) */
        store_account acc;
        int who = q->token[0] ? acct_session(a, q->token, now, &q->user, &err) : ACCT_NO_SESSION;
        q->rc = who < 0 ? -1 : acct_find(a, q->name, &acc, &err);
        int count = 0;
        if (q->rc == 1 || (q->rc == 0 && (who != ACCT_OK || q->user.id != acc.id)))
            q->rc = ACCT_WRONG;
        else if (q->rc == 0 && !drill_rate_take(rate, acc.id, now, PLAYER_EXPORT_RATE))
            q->rc = ACCT_RATE; /* the owner's only: to anyone else a 429 would tell the name exists */
        else if (q->rc == 0 && player_records_zip(s, &acc, &q->zip, &count, &err) < 0)
            q->rc = -1;
        if (q->rc != -1)
            memset(acc.hash, 0, sizeof acc.hash);
        break;
    }
    case NET_API_PRIVACY:
        q->rc = acct_session(a, q->token, now, &q->user, &err);
        if (q->rc == ACCT_OK && store_account_set_private(s, q->user.id, q->flag, &err) != 0)
            q->rc = -1; /* 1: the account went meanwhile, a store trouble as far as the page knows */
        break;
    default: /* NET_API_ME, NET_API_WS */
        q->rc = acct_session(a, q->token, now, &q->user, &err);
        break;
    }
    if (q->rc < 0) /* never the passwords: acct's messages name the store's trouble only */
        fprintf(stderr, "parlour serve: accounts: %s\n", pl_buf_str(&err));
    pl_buf_free(&err);
}

/* An account thread: its own store handle and acct, made as it starts
 * (and again at the next call after the store failed); the calls of its queue in
 * order, each answer posted to `adone`. */
static void *net_acct_main(void *arg)
{
    net_aq *aq = arg;
    net *n = aq->n;
    prctl(PR_SET_NAME, aq->name);
    store *s = NULL;
    acct_svc *a = NULL;
    drill_rate *rate = pl_calloc(1, sizeof *rate); /* drills (quick thread), exports (slow); NULL: they fail (503) */
    /* Made now, not at the first call: acct_new hashes its dummy password (as long as a
     * sign-in), which the first page to open its WebSocket would otherwise wait for. */
    pl_buf err0 = {0};
    if (!(s = store_open(n->db, &err0)) || !(a = acct_new(s, &n->acfg, &err0))) {
        fprintf(stderr, "parlour serve: accounts: %s (tried again at the first call)\n", pl_buf_str(&err0));
        store_close(s);
        s = NULL;
    }
    pl_buf_free(&err0);
    pthread_mutex_lock(&n->mu);
    for (;;) {
        while (!aq->todo && !n->aq_quit)
            pthread_cond_wait(&aq->cv, &n->mu);
        net_areq *q = aq->todo;
        if (!q)
            break; /* asked to quit: what is queued is answered first */
        aq->todo = q->next;
        if (!aq->todo)
            aq->todo_tail = NULL;
        pthread_mutex_unlock(&n->mu);
        pl_buf err = {0};
        if (!a && (!(s = store_open(n->db, &err)) || !(a = acct_new(s, &n->acfg, &err)))) {
            fprintf(stderr, "parlour serve: accounts: %s\n", pl_buf_str(&err));
            store_close(s);
            s = NULL;
            q->rc = -1;
        } else if (!rate && (q->op == NET_API_DRILL_GET || q->op == NET_API_DRILL_PUT || q->op == NET_API_EXPORT))
            q->rc = -1;
        else
            net_areq_run(a, s, rate, q);
        pl_buf_free(&err);
        if (q->rc < 0) { /* a new handle for the next call */
            acct_free(a);
            store_close(s);
            a = NULL;
            s = NULL;
        }
        pthread_mutex_lock(&n->mu);
        q->next = NULL;
        if (n->adone_tail)
            n->adone_tail->next = q;
        else
            n->adone = q;
        n->adone_tail = q;
        pthread_mutex_unlock(&n->mu);
        lws_cancel_service(n->ctx);
        pthread_mutex_lock(&n->mu);
    }
    pthread_mutex_unlock(&n->mu);
    acct_free(a);
    store_close(s);
    pl_free(rate);
    return NULL;
}

/* Queues call `q` for its thread: the slow one when it hashes a password. */
static void net_acct_submit(net *n, net_areq *q)
{
    net_aq *aq = &n->aq[q->op == NET_API_ME || q->op == NET_API_WS || q->op == NET_API_SIGNOUT ||
                        q->op == NET_API_PLAYER || q->op == NET_API_DRILL_GET || q->op == NET_API_DRILL_PUT ||
                        q->op == NET_API_PRIVACY];
    q->next = NULL;
    pthread_mutex_lock(&n->mu);
    if (aq->todo_tail)
        aq->todo_tail->next = q;
    else
        aq->todo = q;
    aq->todo_tail = q;
    pthread_cond_signal(&aq->cv);
    pthread_mutex_unlock(&n->mu);
}

/* Queues call `q` (its own fields set) for connection c's request: its
 * operation, the connection, its session token and address come from c,
 * which waits on q (c->areq). */
static void net_acct_submit_for(net *n, net_conn *c, net_areq *q)
{
    q->op = c->api;
    q->hc = c;
    memcpy(q->token, c->token, sizeof q->token);
    snprintf(q->addr, sizeof q->addr, "%s", c->addr);
    c->areq = q;
    net_acct_submit(n, q);
}

/* ---- HTTP ----------------------------------------------------------------------- */

/* Answers `code` with a short text and ends the transaction. */
static int net_http_status(struct lws *wsi, unsigned code, const char *text)
{
    if (lws_return_http_status(wsi, code, text))
        return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* Maps the request's path `p` (len bytes, %-decoded and with dot segments
 * resolved by lws) to a file name relative to the web folder, in out[cap]:
 * "/", "/room/CODE", "/player/NAME" and "/drill" are the page index.html. Returns 0, or the HTTP
 * status refusing it: 403 for a path that is not plainly a file of the
 * folder (NUL, no leading '/', an empty segment, a segment starting with
 * '.' — "..", ".", hidden files —, a backslash), 404 for one too long. */
static unsigned net_http_path(const char *p, size_t len, char *out, size_t cap)
{
    if (len == 0 || p[0] != '/' || memchr(p, '\0', len) || memchr(p, '\\', len))
        return 403;
    if (len == 1 || (len > 6 && !memcmp(p, "/room/", 6) && !memchr(p + 6, '/', len - 6)) ||
        (len > 8 && !memcmp(p, "/player/", 8) && !memchr(p + 8, '/', len - 8)) ||
        (len == 6 && !memcmp(p, "/drill", 6))) {
        snprintf(out, cap, "index.html");
        return 0;
    }
    if (len >= cap)
        return 404;
    for (size_t i = 0; i < len; i++)
        if (p[i] == '/' && (i + 1 == len || p[i + 1] == '/' || p[i + 1] == '.'))
            return 403;
    memcpy(out, p + 1, len - 1);
    out[len - 1] = '\0';
    return 0;
}

static const char *net_mime(const char *path)
{
    static const struct {
        const char *ext, *type;
    } types[] = {{".html", "text/html; charset=utf-8"},
                 {".css", "text/css; charset=utf-8"},
                 {".js", "text/javascript; charset=utf-8"},
                 {".mjs", "text/javascript; charset=utf-8"},
                 {".json", "application/json"},
                 {".svg", "image/svg+xml"},
                 {".png", "image/png"},
                 {".ico", "image/x-icon"},
                 {".woff2", "font/woff2"},
                 {".txt", "text/plain; charset=utf-8"}};
    const char *dot = strrchr(path, '.');
    if (dot && !strchr(dot, '/'))
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
            if (!strcmp(dot, types[i].ext))
                return types[i].type;
    return "application/octet-stream";
}

/* The fonts a page may ask for at /fonts/NAME (web/css/fonts.css), with the
 * Debian package that has each. NAME is only ever compared with this list,
 * never put in a path: the file is the fonts folder's PATH (Debian's
 * layout), else the folder's NAME (a folder of copies). */
static const struct {
    const char *name, *path;
} net_fonts[] = {
    {"DejaVuSans.ttf", "truetype/dejavu/DejaVuSans.ttf"},           /* fonts-dejavu-core */
    {"DejaVuSans-Bold.ttf", "truetype/dejavu/DejaVuSans-Bold.ttf"}, /* fonts-dejavu-core */
    {"ipaexg.ttf", "opentype/ipaexfont-gothic/ipaexg.ttf"},         /* fonts-ipaexfont-gothic */
    {"ipaexm.ttf", "opentype/ipaexfont-mincho/ipaexm.ttf"},         /* fonts-ipaexfont-mincho */
};

/* A font of net_fonts named `name` (len bytes, after "/fonts/"), with a
 * year-long cache lifetime (the files change only with their package). A
 * name not on the list, or a file that is missing or not a regular file: 404
 * (the page falls back to the device's fonts); bigger than NET_MAX_FONT: 403. */
static int net_http_font(net *n, struct lws *wsi, const char *name, size_t len)
{
    static const char cache[] = "cache-control: public, max-age=31536000, immutable\x0d\x0a";
    for (size_t i = 0; i < sizeof net_fonts / sizeof net_fonts[0]; i++) {
        if (strlen(net_fonts[i].name) != len || memcmp(net_fonts[i].name, name, len))
            continue;
        char file[PATH_MAX + 64];
        struct stat st;
        snprintf(file, sizeof file, "%s/%s", n->fonts, net_fonts[i].path);
        if (stat(file, &st) || !S_ISREG(st.st_mode)) {
            snprintf(file, sizeof file, "%s/%s", n->fonts, net_fonts[i].name);
            if (stat(file, &st) || !S_ISREG(st.st_mode))
                return net_http_status(wsi, 404, "not found");
        }
        if (st.st_size > NET_MAX_FONT)
            return net_http_status(wsi, 403, "forbidden");
        int r = lws_serve_http_file(wsi, file, "font/ttf", cache, (int)sizeof cache - 1);
        if (r < 0 || (r > 0 && lws_http_transaction_completed(wsi)))
            return -1;
        return 0;
    }
    return net_http_status(wsi, 404, "not found");
}

/* ---- Accounts over HTTP: /api/account/... (docs/server.md, "Accounts") ------------ */

/* 1 when the peer of `wsi` is this machine (a front such as nginx). */
static int net_peer_local(struct lws *wsi, char *peer, size_t cap)
{
    if (!lws_get_peer_simple(wsi, peer, cap))
        snprintf(peer, cap, "?");
    return !strcmp(peer, "127.0.0.1") || !strcmp(peer, "::1") || !strcmp(peer, "::ffff:127.0.0.1");
}

/* A custom header's value in out[cap] ("" when absent or too long). */
static void net_header(struct lws *wsi, const char *name, char *out, int cap)
{
    int len = lws_hdr_custom_length(wsi, name, (int)strlen(name));
    out[0] = 0;
    if (len <= 0 || len >= cap || lws_hdr_custom_copy(wsi, out, cap, name, (int)strlen(name)) < 0)
        out[0] = 0;
}

/* The client's address for the rate limits (the socket's peer; behind a
 * local proxy the last hop of X-Forwarded-For, the one that proxy added)
 * and whether the request came over https (X-Forwarded-Proto from a local
 * proxy: this server speaks plain HTTP). */
static void net_client(struct lws *wsi, char *addr, size_t cap, int *secure)
{
    char peer[64], xff[512], proto[16];
    int local = net_peer_local(wsi, peer, sizeof peer);
    snprintf(addr, cap, "%s", peer);
    *secure = 0;
    if (!local)
        return;
    int xl = lws_hdr_total_length(wsi, WSI_TOKEN_X_FORWARDED_FOR); /* a header lws knows by name */
    if (xl <= 0 || xl >= (int)sizeof xff || lws_hdr_copy(wsi, xff, sizeof xff, WSI_TOKEN_X_FORWARDED_FOR) < 0)
        xff[0] = 0;
    char *last = strrchr(xff, ',');
    last = last ? last + 1 : xff;
    while (*last == ' ')
        last++;
    size_t l = strlen(last);
    while (l && last[l - 1] == ' ')
        last[--l] = 0;
    if (l && l < cap)
        snprintf(addr, cap, "%s", last);
    net_header(wsi, "x-forwarded-proto:", proto, sizeof proto);
    *secure = !strcmp(proto, "https");
}

/* 1 when the request comes from a page of this server: its Origin is
 * http(s)://HOST with HOST its Host header, or it has no Origin and its
 * Sec-Fetch-Site is same-origin. Else 0 (another site's page: CSRF). */
static int net_same_origin(struct lws *wsi)
{
    char origin[300], host[256], site[32];
    int ol = lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN);
    if (ol <= 0) {
        net_header(wsi, "sec-fetch-site:", site, sizeof site);
        return !strcmp(site, "same-origin");
    }
    if (ol >= (int)sizeof origin || lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) < 0 ||
        lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) <= 0)
        return 0;
    const char *o = !strncmp(origin, "http://", 7) ? origin + 7 : !strncmp(origin, "https://", 8) ? origin + 8 : NULL;
    return o && !strcasecmp(o, host);
}

/* The session cookie's token in out (ACCT_TOKEN_HEX hex digits), or "". */
static void net_cookie(struct lws *wsi, char *out)
{
    char buf[ACCT_TOKEN_HEX + 2];
    size_t max = sizeof buf;
    out[0] = 0;
    if (lws_http_cookie_get(wsi, "parlour_session", buf, &max) || max != ACCT_TOKEN_HEX)
        return;
    for (int i = 0; i < ACCT_TOKEN_HEX; i++)
        if (!strchr("0123456789abcdefABCDEF", buf[i]) || !buf[i])
            return;
    memcpy(out, buf, ACCT_TOKEN_HEX);
    out[ACCT_TOKEN_HEX] = 0;
}

/* Sets the cookie's header text: the session `token`, or none ("": the
 * cookie cleared). */
static void net_set_cookie(net_conn *c, const char *token)
{
    snprintf(c->cookie, sizeof c->cookie, "parlour_session=%s; HttpOnly; SameSite=Lax; Path=/; Max-Age=%d%s", token,
             *token ? NET_SESSION_S : 0, c->secure ? "; Secure" : "");
}

/* The answer of request `c`: `status`, body `j` (stolen; NULL: {}), sent
 * from the writable callback. */
static void net_api_answer(struct lws *wsi, net_conn *c, unsigned status, json_t *j)
{
    if (!j)
        j = json_object();
    pl_free(c->ans);
    c->ans = j ? json_dumps(j, JSON_COMPACT) : NULL; /* NULL: out of memory, sent as {} */
    json_decref(j);
    c->status = status;
    lws_callback_on_writable(wsi);
}

/* An error answer: {"error": word, "message": text}. */
static void net_api_error(struct lws *wsi, net_conn *c, unsigned status, const char *word, const char *text)
{
    net_api_answer(wsi, c, status, json_pack("{s:s, s:s}", "error", word, "message", text));
}

/* The answer to a failed account call (an acct_status, or -1). */
static void net_api_fail(struct lws *wsi, net_conn *c, int rc)
{
    static const struct {
        int rc;
        unsigned status;
        const char *text;
    } st[] = {{ACCT_BAD_NAME, 400, "a name: 1 to 40 bytes of UTF-8, one line, not only spaces"},
              {ACCT_BAD_PASSWORD, 400, "a password: at least 8 characters and at most 200 bytes"},
              {ACCT_NAME_TAKEN, 409, "this name belongs to another account"},
              {ACCT_WRONG, 403, "the name or the password is wrong"},
              {ACCT_RATE, 429, "too many attempts: wait a few minutes"},
              {ACCT_NO_SESSION, 401, "not signed in"}};
    for (size_t i = 0; i < sizeof st / sizeof st[0]; i++)
        if (st[i].rc == rc) {
            if (rc == ACCT_NO_SESSION)
                net_set_cookie(c, "");
            net_api_error(wsi, c, st[i].status, acct_status_name((acct_status)rc), st[i].text);
            return;
        }
    net_api_error(wsi, c, 503, "storage", "the accounts are not available now: try again");
}

/* An account thread's answer `q` (service thread): to its HTTP request
 * (when it still waits) or, for a WebSocket, to the hub; frees q. */
static void net_api_done(net *n, net_areq *q);

static void net_api_complete(net *n, struct lws *wsi, net_conn *c);

/* The NAME of /api/player/NAME: `in[0..len)` (libwebsockets decoded the
 * escapes already and refuses bad ones) into `out`, which it replaces. 0, or
 * -1 when it holds a NUL or is longer than NET_PLAYER_NAME bytes (no name
 * is: answered 404; account.c checks the rest). */
#define NET_PLAYER_NAME 256
static int net_player_name(const char *in, size_t len, pl_buf *out)
{
    if (len > NET_PLAYER_NAME || memchr(in, 0, len))
        return -1;
    pl_buf_free(out);
    pl_buf_append(out, in, len);
    return out->oom ? -1 : 0;
}

#define NET_STR2(x) #x
#define NET_STR(x) NET_STR2(x)

/* The query of GET /api/player/NAME: before=MS (a positive integer, up to
 * 15 digits) and limit=N (1 to PLAYER_MAX_GAMES) into *before and *limit
 * (left as they are when absent; other arguments are ignored). 0, or -1
 * for a bad value or an argument over 63 bytes. */
static int net_player_args(struct lws *wsi, int64_t *before, int *limit)
{
    char arg[64];
    for (int k = 0;; k++) {
        int fl = lws_hdr_fragment_length(wsi, WSI_TOKEN_HTTP_URI_ARGS, k);
        if (fl <= 0)
            return 0;
        if (fl >= (int)sizeof arg || lws_hdr_copy_fragment(wsi, arg, (int)sizeof arg, WSI_TOKEN_HTTP_URI_ARGS, k) < 0)
            return -1;
        int is_before = !strncmp(arg, "before=", 7), is_limit = !strncmp(arg, "limit=", 6);
        if (!is_before && !is_limit)
            continue;
        const char *v = arg + (is_before ? 7 : 6);
        size_t len = strlen(v);
        if (len == 0 || len > 15 || strspn(v, "0123456789") != len)
            return -1;
        long long x = strtoll(v, NULL, 10);
        if (x < 1 || (is_limit && x > PLAYER_MAX_GAMES))
            return -1;
        if (is_before)
            *before = x;
        else
            *limit = (int)x;
    }
}

/* A request for /api/...: the path and method checked, the client noted;
 * a POST waits for its body (net_api_body, net_api_complete), a GET of
 * /api/account/me or /api/player/NAME goes to the quick account thread.
 * Returns 0, or -1 to close the connection. */
static int net_api_begin(net *n, struct lws *wsi, net_conn *c, const char *path, size_t len, int method)
{
    static const struct {
        const char *path;
        int api;
    } apis[] = {{"/api/account/signup", NET_API_SIGNUP},     {"/api/account/signin", NET_API_SIGNIN},
                {"/api/account/signout", NET_API_SIGNOUT},   {"/api/account/password", NET_API_PASSWORD},
                {"/api/account/delete", NET_API_DELETE},     {"/api/account/me", NET_API_ME},
                {"/api/account/privacy", NET_API_PRIVACY}};
    pl_buf_free(&c->body);
    pl_free(c->ans);
    c->ans = NULL;
    c->ans_zip = 0;
    c->status = 0;
    c->cookie[0] = 0;
    c->body_over = 0;
    c->refuse = 0;
    c->areq = NULL;
    c->api = NET_API_NONE;
    for (size_t i = 0; i < sizeof apis / sizeof apis[0]; i++)
        if (strlen(apis[i].path) == len && !memcmp(apis[i].path, path, len))
            c->api = apis[i].api;
    static const char zip[] = "/records.zip";
    size_t zl = sizeof zip - 1;
    if (len > 12 + zl && !memcmp(path, "/api/player/", 12) && !memcmp(path + len - zl, zip, zl) &&
        net_player_name(path + 12, len - 12 - zl, &c->body) == 0)
        c->api = NET_API_EXPORT; /* /api/player/NAME/records.zip: the name waits in `body` too */
    else if (len > 12 && !memcmp(path, "/api/player/", 12) && net_player_name(path + 12, len - 12, &c->body) == 0)
        c->api = NET_API_PLAYER; /* the name waits in `body` (a GET has none) */
    int drill = len == 10 && !memcmp(path, "/api/drill", 10);
    if (drill) /* GET reads the record, PUT replaces it */
        c->api = method == LWSHUMETH_PUT ? NET_API_DRILL_PUT : NET_API_DRILL_GET;
    net_client(wsi, c->addr, sizeof c->addr, &c->secure);
    net_cookie(wsi, c->token);
    int post = method == LWSHUMETH_POST || method == LWSHUMETH_PUT;
    int has_body = post && lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) > 0;
    c->before_ms = 0;
    c->limit = PLAYER_MAX_GAMES;
    if (c->api == NET_API_PLAYER && !post && net_player_args(wsi, &c->before_ms, &c->limit) < 0) {
        pl_buf_free(&c->body);
        c->api = NET_API_NONE;
        net_api_error(wsi, c, 400, "shape",
                      "before: a finish time (ms, a positive integer); limit: 1 to " NET_STR(PLAYER_MAX_GAMES));
        return 0;
    }
    if (!c->api)
        c->status = 404;
    else if (drill ? method != LWSHUMETH_GET && method != LWSHUMETH_PUT
                   : method == LWSHUMETH_PUT ||
                         (c->api == NET_API_ME || c->api == NET_API_PLAYER || c->api == NET_API_EXPORT) == post ||
                         (!post && method != LWSHUMETH_GET))
        c->status = 405;
    else if ((post || drill) && !net_same_origin(wsi)) /* a record is the player's own: read by their pages only */
        c->status = 403;
    if (c->status) {
        unsigned st = c->status;
        c->api = NET_API_NONE;
        c->status = 0;
        if (has_body) { /* answered once the body is read (and dropped) */
            c->refuse = st;
            return 0;
        }
        net_api_error(wsi, c, st, st == 404 ? "not_found" : st == 405 ? "method" : "origin",
                      st == 404   ? "no such address"
                      : st == 405 ? "not with this method"
                                  : "only a page of this server may ask this");
        return 0;
    }
    if (!has_body && method == LWSHUMETH_PUT) {
        /* lws 4.1 leaves a PUT without a body waiting for one (no body
         * callbacks, no writable one; a POST gets both): refused at once (with
         * "Content-Length: 0" lws still waits, and drops it at its timeout) */
        c->api = NET_API_NONE;
        return net_http_status(wsi, 400, "a PUT needs a body");
    }
    if (!has_body)
        net_api_complete(n, wsi, c);
    return 0;
}

/* A piece of the body of an /api request: kept up to NET_MAX_BODY bytes
 * (a drill record: STORE_DRILL_MAX). */
static void net_api_body(net_conn *c, const char *in, size_t len)
{
    if (c->refuse || c->body_over || !len || !in) /* Content-Length: 0 brings an empty piece */
        return;
    if (c->body.len + len > (c->api == NET_API_DRILL_PUT ? STORE_DRILL_MAX : NET_MAX_BODY)) {
        c->body_over = 1;
        pl_buf_free(&c->body);
        return;
    }
    pl_buf_append(&c->body, in, len);
}

/* Copies string `s` (NULL stays NULL); 0, or -1 out of memory. */
static int net_dup(char **out, const char *s)
{
    *out = s ? pl_strdup(s) : NULL;
    return s && !*out ? -1 : 0;
}

/* Wipes and frees string `s` (a password, perhaps). */
static void net_wipe(char *s)
{
    if (s)
        memset(s, 0, strlen(s));
    pl_free(s);
}

void net_account_body_free(net_acct_fields *b)
{
    net_wipe(b->name);
    net_wipe(b->password);
    net_wipe(b->new_password);
    memset(b, 0, sizeof *b);
}

int net_account_body(const char *call, const char *body, size_t len, net_acct_fields *out, pl_buf *why)
{
    static const struct {
        const char *call, *want, *k1, *k2; /* k1 NULL: {} or nothing */
    } shapes[] = {{"signup", "{\"name\": string, \"password\": string}", "name", "password"},
                  {"signin", "{\"name\": string, \"password\": string}", "name", "password"},
                  {"password", "{\"old_password\": string, \"new_password\": string}", "old_password", "new_password"},
                  {"delete", "{\"password\": string}", "password", NULL},
                  {"signout", "{} or nothing", NULL, NULL}};
    memset(out, 0, sizeof *out);
    size_t i = 0;
    while (i < sizeof shapes / sizeof shapes[0] && strcmp(shapes[i].call, call ? call : ""))
        i++;
    if (i == sizeof shapes / sizeof shapes[0]) {
        pl_buf_puts(why, "no such call");
        return -1;
    }
    if (len > NET_MAX_BODY) {
        pl_buf_printf(why, "the body must be %s, at most %d bytes", shapes[i].want, NET_MAX_BODY);
        return -1;
    }
    if (!shapes[i].k1 && len == 0)
        return 0; /* sign-out: nothing is fine */
    json_error_t je;
    json_t *root = json_loadb(body ? body : "", len, JSON_REJECT_DUPLICATES, &je);
    const char *v1 = NULL, *v2 = NULL;
    int bad;
    if (!shapes[i].k1)
        bad = !json_is_object(root) || json_object_size(root);
    else if (!shapes[i].k2)
        bad = !root || json_unpack_ex(root, &je, JSON_STRICT, "{s:s}", shapes[i].k1, &v1) < 0;
    else
        bad = !root || json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:s}", shapes[i].k1, &v1, shapes[i].k2, &v2) < 0;
    /* the strings, copied before jansson frees them (its copies are not wiped: a limit) */
    char **d1 = NULL, **d2 = NULL;
    if (i <= 1) {
        d1 = &out->name;
        d2 = &out->password;
    } else if (i == 2) {
        d1 = &out->password;
        d2 = &out->new_password;
    } else if (i == 3)
        d1 = &out->password;
    int oom = !bad && ((d1 && net_dup(d1, v1)) || (d2 && net_dup(d2, v2)));
    json_decref(root);
    if (bad || oom) {
        net_account_body_free(out);
        if (oom)
            return -2;
        pl_buf_printf(why, "the body must be %s", shapes[i].want);
        return -1;
    }
    return 0;
}

/* A drill call whose request is in: signed in (else 401), the record's shape
 * checked (drill_check: else 400), then to the quick account thread. */
static void net_drill_begin(net *n, struct lws *wsi, net_conn *c)
{
    if (!c->token[0]) {
        pl_buf_free(&c->body);
        net_api_error(wsi, c, 401, "no_session", "not signed in: a guest's drills stay in the browser");
        return;
    }
    char *record = NULL;
    if (c->api == NET_API_DRILL_PUT) {
        pl_buf why = {0};
        if (drill_check(c->body.s ? c->body.s : "", c->body.len, &why) < 0) {
            pl_buf_free(&c->body);
            net_api_error(wsi, c, 400, "shape", pl_buf_str(&why));
            pl_buf_free(&why);
            return;
        }
        pl_buf_free(&why);
        record = pl_strdup(c->body.s);
        if (!record) {
            pl_buf_free(&c->body);
            net_api_error(wsi, c, 503, "storage", "out of memory");
            return;
        }
    }
    pl_buf_free(&c->body);
    net_areq *q = pl_calloc(1, sizeof *q);
    if (!q) {
        pl_free(record);
        net_api_error(wsi, c, 503, "storage", "out of memory");
        return;
    }
    q->record = record;
    net_acct_submit_for(n, c, q);
}

/* The body of POST /api/account/privacy: 1 for {"private": true}, 0 for
 * {"private": false}, -1 for anything else (jansson, strict). */
static int net_privacy_body(const char *body, size_t len)
{
    json_t *root = json_loadb(body ? body : "", len, JSON_REJECT_DUPLICATES, NULL);
    int on = 0;
    int bad = !root || json_unpack_ex(root, NULL, JSON_STRICT, "{s:b}", "private", &on) < 0;
    json_decref(root);
    return bad ? -1 : on != 0;
}

/* The whole request is in: its body checked against its shape
 * (docs/server.md: unknown keys, wrong types, more than NET_MAX_BODY bytes:
 * 400 "shape"), then the call goes to an account thread. */
static void net_api_complete(net *n, struct lws *wsi, net_conn *c)
{
    if (c->refuse) {
        unsigned st = c->refuse;
        c->refuse = 0;
        net_api_error(wsi, c, st, st == 404 ? "not_found" : st == 405 ? "method" : "origin",
                      st == 404   ? "no such address"
                      : st == 405 ? "not with this method"
                                  : "only a page of this server may ask this");
        return;
    }
    if (c->api == NET_API_NONE || c->areq || c->status)
        return;
    if (c->body_over || c->body.oom) {
        if (c->body.s)
            memset(c->body.s, 0, c->body.len);
        pl_buf_free(&c->body);
        if (c->api == NET_API_DRILL_PUT)
            net_api_error(wsi, c, 413, "too_large", "a drill record of at most 65536 bytes");
        else
            net_api_error(wsi, c, 400, "shape", "a body of at most 4096 bytes");
        return;
    }
    if (c->api == NET_API_DRILL_GET || c->api == NET_API_DRILL_PUT) {
        net_drill_begin(n, wsi, c);
        return;
    }
    static const char *const calls[] = {[NET_API_SIGNUP] = "signup", [NET_API_SIGNIN] = "signin",
                                        [NET_API_SIGNOUT] = "signout", [NET_API_PASSWORD] = "password",
                                        [NET_API_DELETE] = "delete"};
    net_acct_fields b = {0};
    int flag = 0;
    if (c->api == NET_API_PLAYER || c->api == NET_API_EXPORT) { /* the name net_api_begin decoded */
        int bad = net_dup(&b.name, c->body.s ? c->body.s : "");
        pl_buf_free(&c->body);
        if (bad) {
            net_api_error(wsi, c, 503, "storage", "out of memory");
            return;
        }
    } else if (c->api == NET_API_PRIVACY) {
        flag = net_privacy_body(c->body.s, c->body.len);
        pl_buf_free(&c->body);
        if (flag < 0) {
            net_api_error(wsi, c, 400, "shape", "the body must be {\"private\": true or false}");
            return;
        }
    } else if (c->api != NET_API_ME) {
        pl_buf why = {0};
        int rc = net_account_body(calls[c->api], c->body.s ? c->body.s : "", c->body.len, &b, &why);
        if (c->body.s)
            memset(c->body.s, 0, c->body.len); /* it may hold a password */
        pl_buf_free(&c->body);
        if (rc < 0) {
            if (rc == -2)
                net_api_error(wsi, c, 503, "storage", "out of memory");
            else
                net_api_error(wsi, c, 400, "shape", pl_buf_str(&why));
            pl_buf_free(&why);
            return;
        }
        pl_buf_free(&why);
    }
    int needs_session = c->api == NET_API_PASSWORD || c->api == NET_API_DELETE || c->api == NET_API_SIGNOUT ||
                        c->api == NET_API_PRIVACY;
    if (needs_session && !c->token[0]) {
        net_account_body_free(&b);
        if (c->api == NET_API_SIGNOUT) {
            net_set_cookie(c, "");
            net_api_answer(wsi, c, 200, NULL);
        } else
            net_api_fail(wsi, c, ACCT_NO_SESSION);
        return;
    }
    if (c->api == NET_API_ME && !c->token[0]) {
        net_api_answer(wsi, c, 200, json_pack("{s:n}", "name"));
        return;
    }
    net_areq *q = pl_calloc(1, sizeof *q);
    if (!q) {
        net_account_body_free(&b);
        net_api_error(wsi, c, 503, "storage", "out of memory");
        return;
    }
    q->name = b.name; /* the strings move to the call */
    q->password = b.password;
    q->password2 = b.new_password;
    q->before_ms = c->before_ms;
    q->limit = c->limit;
    q->flag = flag;
    net_acct_submit_for(n, c, q);
}

/* Writes the answer of request `c` (its writable callback). Returns 0, or
 * -1 to close the connection. */
static int net_api_write(struct lws *wsi, net_conn *c)
{
    if (!c->status)
        return 0;
    const char *body = c->ans ? c->ans : "{}";
    size_t blen = c->ans_zip ? c->ans_len : strlen(body);
    unsigned char *buf = pl_malloc(LWS_PRE + 1024 + blen);
    if (!buf)
        return -1;
    unsigned char *start = buf + LWS_PRE, *p = start, *end = start + 1024;
    static const char nostore[] = "no-store", attach[] = "attachment; filename=\"parlour-records.zip\"";
    int bad = lws_add_http_common_headers(wsi, c->status, c->ans_zip ? "application/zip" : "application/json", blen,
                                          &p, end) ||
              lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
                                          (const unsigned char *)nostore, (int)sizeof nostore - 1, &p, end) ||
              (c->ans_zip && lws_add_http_header_by_name(wsi, (const unsigned char *)"content-disposition:",
                                                         (const unsigned char *)attach, (int)sizeof attach - 1, &p,
                                                         end)) ||
              (c->cookie[0] && lws_add_http_header_by_name(wsi, (const unsigned char *)"set-cookie:",
                                                           (const unsigned char *)c->cookie,
                                                           (int)strlen(c->cookie), &p, end)) ||
              lws_finalize_write_http_header(wsi, start, &p, end);
    if (!bad) {
        memcpy(buf + LWS_PRE, body, blen);
        int w = lws_write(wsi, buf + LWS_PRE, blen, LWS_WRITE_HTTP_FINAL);
        bad = w < 0 || (size_t)w < blen;
    }
    pl_free(buf);
    pl_free(c->ans);
    c->ans = NULL;
    c->ans_zip = 0;
    c->ans_len = 0;
    c->status = 0;
    c->api = NET_API_NONE;
    if (bad)
        return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* The HTTP request `c` is gone (closed, or its transaction over): an
 * answer still coming finds no one; what it held is freed. */
static void net_api_gone(net_conn *c)
{
    if (c->areq)
        c->areq->hc = NULL;
    c->areq = NULL;
    if (c->body.s)
        memset(c->body.s, 0, c->body.len);
    pl_buf_free(&c->body);
    pl_free(c->ans);
    c->ans = NULL;
    c->ans_zip = 0;
    c->status = 0;
    c->api = NET_API_NONE;
}

/* Hands a WebSocket message to the hub, or keeps it while the connection's
 * session is looked up (acct_wait: at most NET_MAX_HELD bytes, else the
 * connection is closed; the client comes back). */
#define NET_MAX_HELD (8 * HUB_MAX_MESSAGE)
static void net_hub_message(net *n, net_conn *c, const char *data, size_t len)
{
    if (c->acct_wait) {
        uint32_t l = (uint32_t)len;
        if (c->held.len + 4 + len > NET_MAX_HELD) {
            net_conn_kill(c);
            return;
        }
        pl_buf_append(&c->held, (const char *)&l, 4);
        pl_buf_append(&c->held, data, len);
        if (c->held.oom)
            net_conn_kill(c);
        return;
    }
    hub_message(n->hub, c->id, data, len, net_now());
}

/* The session of `c` is known (or not): the messages kept meanwhile go to
 * the hub in order. */
static void net_release_held(net *n, net_conn *c)
{
    pl_buf held = c->held;
    c->held = (pl_buf){0};
    c->acct_wait = 0;
    for (size_t at = 0; at + 4 <= held.len && !c->closing && c->id;) {
        uint32_t l;
        memcpy(&l, held.s + at, 4);
        hub_message(n->hub, c->id, held.s + at + 4, l, net_now());
        at += 4 + l;
    }
    pl_buf_free(&held);
}

/* A WebSocket opened: when it brings the session cookie from a page of this
 * server (the Origin checked: a page of another site must not play as the
 * person), its session is looked up on the quick account thread and its
 * messages wait for the answer (net_api_done). */
static void net_ws_session(net *n, struct lws *wsi, net_conn *c)
{
    char tok[ACCT_TOKEN_HEX + 1];
    net_cookie(wsi, tok);
    if (!tok[0] || !net_same_origin(wsi))
        return;
    net_areq *q = pl_calloc(1, sizeof *q);
    if (!q)
        return; /* a guest then */
    q->op = NET_API_WS;
    q->conn = c->id;
    memcpy(q->token, tok, sizeof q->token);
    c->acct_wait = 1;
    net_acct_submit(n, q);
}

static void net_api_done(net *n, net_areq *q)
{
    if (q->op == NET_API_WS) {
        net_conn *c = n->destroying ? NULL : net_map_get(&n->conns, q->conn);
        if (c) {
            if (q->rc == ACCT_OK)
                hub_account(n->hub, c->id, q->user.id, q->user.name, net_now());
            net_release_held(n, c);
            net_pump(n);
        }
        net_areq_free(q);
        return;
    }
    if (q->op == NET_API_DELETE && q->rc == ACCT_OK && !n->destroying) {
        /* the store anonymised the stored rooms; the live ones here are the hub's */
        hub_account_deleted(n->hub, q->user.id, NET_ANON_NAME, net_now());
        net_pump(n);
    }
    net_conn *c = q->hc;
    if (c) {
        struct lws *wsi = c->wsi;
        c->areq = NULL;
        if (q->rc == ACCT_OK && (q->op == NET_API_SIGNUP || q->op == NET_API_SIGNIN)) {
            net_set_cookie(c, q->user.token);
            net_api_answer(wsi, c, 200, json_pack("{s:s}", "name", q->user.name));
        } else if (q->op == NET_API_PLAYER && q->rc == ACCT_OK) {
            net_api_answer(wsi, c, 200, q->page);
            q->page = NULL;
        } else if (q->op == NET_API_DRILL_GET && q->rc == ACCT_OK) {
            net_api_answer(wsi, c, 200, q->page);
            q->page = NULL;
        } else if (q->op == NET_API_DRILL_PUT && q->rc == ACCT_OK)
            net_api_answer(wsi, c, 200, NULL);
        else if ((q->op == NET_API_DRILL_GET || q->op == NET_API_DRILL_PUT) && q->rc == ACCT_RATE)
            net_api_error(wsi, c, 429, "rate", "too many drill saves: wait a minute");
        else if (q->op == NET_API_EXPORT && q->rc == ACCT_RATE)
            net_api_error(wsi, c, 429, "rate", "too many exports: wait a minute");
        else if (q->op == NET_API_PRIVACY && q->rc == ACCT_OK)
            net_api_answer(wsi, c, 200, json_pack("{s:b}", "private", q->flag));
        else if (q->op == NET_API_EXPORT && q->rc == ACCT_OK && !q->zip.len) /* libzip writes no empty archive */
            net_api_error(wsi, c, 404, "no_games", "no finished games to export");
        else if (q->op == NET_API_EXPORT && q->rc == ACCT_OK) {
            pl_free(c->ans);
            c->ans = q->zip.s; /* the archive moves to the answer */
            c->ans_len = q->zip.len;
            q->zip = (pl_buf){0};
            c->ans_zip = 1;
            c->status = 200;
            lws_callback_on_writable(wsi);
        } else if ((q->op == NET_API_PLAYER || q->op == NET_API_EXPORT) && q->rc == ACCT_WRONG)
            net_api_error(wsi, c, 404, "not_found", "no such player");
        else if (q->rc == ACCT_OK && q->op == NET_API_ME)
            net_api_answer(wsi, c, 200, json_pack("{s:s}", "name", q->user.name));
        else if (q->rc == ACCT_NO_SESSION && q->op == NET_API_ME) {
            net_set_cookie(c, "");
            net_api_answer(wsi, c, 200, json_pack("{s:n}", "name"));
        } else if ((q->rc == ACCT_OK || q->rc == ACCT_NO_SESSION) && q->op == NET_API_SIGNOUT) {
            net_set_cookie(c, "");
            net_api_answer(wsi, c, 200, NULL);
        } else if (q->rc == ACCT_OK) { /* password, delete */
            if (q->op == NET_API_DELETE)
                net_set_cookie(c, "");
            net_api_answer(wsi, c, 200, NULL);
        } else
            net_api_fail(wsi, c, q->rc);
    }
    net_areq_free(q);
}

/* One HTTP request for `path`: an account call (/api/...: net_api_begin), a font (/fonts/NAME: net_http_font), a file
 * of the web folder, or a refusal. The resolved path (realpath: every symlink followed) must lie inside the
 * folder, be a regular file and at most NET_MAX_FILE bytes. */
static int net_http(net *n, struct lws *wsi, net_conn *c, const char *path, size_t len)
{
    char *uri;
    int ulen;
    int method = lws_http_get_uri_and_method(wsi, &uri, &ulen);
    if (len >= 5 && !memcmp(path, "/api/", 5) && c) {
        c->wsi = wsi;
        return net_api_begin(n, wsi, c, path, len, method);
    }
    if (method != LWSHUMETH_GET && method != LWSHUMETH_HEAD) {
        lws_return_http_status(wsi, HTTP_STATUS_METHOD_NOT_ALLOWED, "only GET and HEAD");
        return -1;
    }
    if (len > 7 && !memcmp(path, "/fonts/", 7))
        return net_http_font(n, wsi, path + 7, len - 7);
    char rel[PATH_MAX], full[2 * PATH_MAX + 2], real[PATH_MAX];
    unsigned code = net_http_path(path, len, rel, sizeof rel);
    if (code)
        return net_http_status(wsi, code, code == 403 ? "forbidden" : "not found");
    snprintf(full, sizeof full, "%s/%s", n->web, rel);
    if (!realpath(full, real))
        return net_http_status(wsi, errno == ENOENT || errno == ENOTDIR ? 404 : 403,
                               errno == ENOENT || errno == ENOTDIR ? "not found" : "forbidden");
    if (strncmp(real, n->web, n->weblen) || real[n->weblen] != '/')
        return net_http_status(wsi, 403, "forbidden"); /* a symlink out of the folder */
    struct stat st;
    if (stat(real, &st) || !S_ISREG(st.st_mode))
        return net_http_status(wsi, 404, "not found");
    if (st.st_size > NET_MAX_FILE)
        return net_http_status(wsi, 403, "forbidden");
    int r = lws_serve_http_file(wsi, real, net_mime(real), NULL, 0);
    if (r < 0 || (r > 0 && lws_http_transaction_completed(wsi)))
        return -1;
    return 0;
}

/* ---- The lws callback ------------------------------------------------------------ */

/* A piece of a message from `c`: reassembled up to HUB_MAX_MESSAGE + 1
 * bytes (enough for the hub to see it is too long), the rest dropped. */
static void net_receive(net *n, net_conn *c, const char *in, size_t len)
{
    int last = lws_is_final_fragment(c->wsi) && !lws_remaining_packet_payload(c->wsi);
    if (last)
        c->rx_us = net_us();
    if (last && !c->rx.len && !c->rx_over) { /* the usual case: whole in one piece */
        net_hub_message(n, c, in ? in : "", len); /* an empty frame may come as NULL */
        net_pump(n);
        net_midturn(n);
        return;
    }
    if (!c->rx_over) {
        size_t room = HUB_MAX_MESSAGE + 1 - c->rx.len;
        if (len)
            pl_buf_append(&c->rx, in, len < room ? len : room);
        if (c->rx.oom) {
            net_conn_kill(c);
            return;
        }
        c->rx_over = c->rx.len > HUB_MAX_MESSAGE;
    }
    if (last) {
        net_hub_message(n, c, c->rx.s ? c->rx.s : "", c->rx.len);
        pl_buf_free(&c->rx);
        c->rx_over = 0;
        net_pump(n);
        net_midturn(n);
    }
}

static int net_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                        size_t len)
{
    net *n = lws_context_user(lws_get_context(wsi));
    net_conn *c = user;
    switch (reason) {
    case LWS_CALLBACK_HTTP:
        return net_http(n, wsi, c, in, len);
    case LWS_CALLBACK_HTTP_BODY:
        if (c && (c->api || c->refuse))
            net_api_body(c, in, len);
        return 0;
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        if (c && (c->api || c->refuse)) {
            net_api_complete(n, wsi, c);
            return 0;
        }
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    case LWS_CALLBACK_HTTP_WRITEABLE:
        if (c && c->status)
            return net_api_write(wsi, c);
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    case LWS_CALLBACK_CLOSED_HTTP:
    case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
        if (c && (c->api || c->areq || c->ans || c->body.s))
            net_api_gone(c);
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: {
        char uri[8];
        if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) != 3 || strcmp(uri, "/ws"))
            return 1; /* WebSocket only at /ws */
        return 0;
    }
    case LWS_CALLBACK_ESTABLISHED:
        if (n->destroying)
            return -1;
        memset(c, 0, sizeof *c);
        c->wsi = wsi;
        c->id = hub_connect(n->hub, net_now());
        if (!c->id)
            return -1; /* the hub is full */
        if (net_map_put(&n->conns, c->id, c)) {
            hub_disconnect(n->hub, c->id, net_now());
            c->id = 0;
            net_pump(n);
            return -1;
        }
        atomic_fetch_add(&n->online, 1);
        net_ws_session(n, wsi, c);
        net_pump(n);
        return 0;
    case LWS_CALLBACK_RECEIVE:
        if (lws_frame_is_binary(wsi)) { /* the protocol is JSON text: RFC 6455's "unacceptable data" */
            static const char why[] = "text frames only";
            lws_close_reason(wsi, LWS_CLOSE_STATUS_UNACCEPTABLE_OPCODE, (unsigned char *)why, sizeof why - 1);
            return -1;
        }
        if (c && c->id && !c->closing)
            net_receive(n, c, in, len);
        return 0;
    case LWS_CALLBACK_TIMER: /* net_write's close is due */
        if (c && c->id && c->close_due)
            lws_callback_on_writable(wsi);
        return 0;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return c && c->id ? net_write(c) : 0;
    case LWS_CALLBACK_CLOSED:
        if (c && c->id) {
            uint64_t id = c->id;
            c->id = 0;
            net_map_del(&n->conns, id);
            net_conn_clear(c);
            hub_disconnect(n->hub, id, net_now());
            atomic_fetch_sub(&n->online, 1);
            net_pump(n);
        }
        return 0;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        if (n && !n->destroying)
            net_collect(n);
        return 0;
    default:
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    }
}

static const struct lws_protocols net_protocols[] = {
    /* The first protocol also takes HTTP and the WebSocket clients that name
     * none. rx_buffer_size: one piece of a message at most this big. */
    {"parlour.v1", net_callback, sizeof(net_conn), HUB_MAX_MESSAGE, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0}};

/* ---- Life cycle ------------------------------------------------------------------ */

/* lws's errors, one line each (lws ends them with a newline), on stderr. */
static void net_lws_log(int level, const char *line)
{
    (void)level;
    fprintf(stderr, "parlour serve: lws: %s", line);
}

/* Cluster: the owner id (given, or host:pid:random), the first heartbeat,
 * the store's path for the cluster thread. 0, or -1 with a message. */
static int net_cluster_start(net *n, const net_config *cfg, pl_buf *err)
{
    char owner[200], host[64] = "host";
    if (cfg->owner && *cfg->owner)
        snprintf(owner, sizeof owner, "%s", cfg->owner);
    else {
        uint64_t r = 0;
        FILE *f = fopen("/dev/urandom", "rb");
        if (f) {
            if (fread(&r, sizeof r, 1, f) != 1)
                r = (uint64_t)net_now();
            fclose(f);
        }
        gethostname(host, sizeof host - 1);
        host[sizeof host - 1] = 0;
        snprintf(owner, sizeof owner, "%s:%ld:%08llx", host, (long)getpid(), (unsigned long long)(r & 0xffffffffu));
    }
    n->cluster = 1;
    n->sweep_ms = cfg->sweep_grace_ms;
    snprintf(n->owner, sizeof n->owner, "%s", owner);
    if (store_set_owner(n->store, owner, err) < 0 || store_owner_beat(n->store, NET_TTL_MS, err) < 0)
        return -1;
    n->beat_next = net_now() + NET_BEAT_MS;
    fprintf(stderr, "parlour serve: cluster owner %s\n", owner);
    return 0;
}

net *net_new(const net_config *cfg, pl_buf *err)
{
    net *n = pl_calloc(1, sizeof *n);
    if (!n) {
        pl_buf_puts(err, "out of memory");
        return NULL;
    }
    n->sul_at = INT64_MAX;
    ev_timer_init(&n->hub_timer, net_hub_timer_cb, 0.0, 0.0);
    n->hub_timer.data = n;
    n->max_queue = cfg->max_queue > 0 ? (size_t)cfg->max_queue : NET_MAX_QUEUE;
    pthread_mutex_init(&n->mu, NULL);
    pthread_cond_init(&n->st_cv, NULL);
    pthread_cond_init(&n->wk_cv, NULL);
    struct stat st;
    if (!cfg->web || !realpath(cfg->web, n->web) || stat(n->web, &st)) {
        pl_buf_printf(err, "web folder '%s': %s", cfg->web ? cfg->web : "(none)", strerror(errno));
        goto fail;
    }
    if (!S_ISDIR(st.st_mode)) {
        pl_buf_printf(err, "web folder '%s': not a folder", cfg->web);
        goto fail;
    }
    n->weblen = strlen(n->web);
    const char *fonts = cfg->fonts ? cfg->fonts : NET_FONTS_DIR;
    if (strlen(fonts) >= sizeof n->fonts) {
        pl_buf_printf(err, "fonts folder '%.64s...': too long a name", fonts);
        goto fail;
    }
    snprintf(n->fonts, sizeof n->fonts, "%s", fonts);
    if (!cfg->db || !(n->store = store_open(cfg->db, err)))
        goto fail;
    if (!(n->db = pl_strdup(cfg->db))) { /* for the cluster's and the account threads' own handles */
        pl_buf_puts(err, "out of memory");
        goto fail;
    }
    n->acfg = (acct_config){.ops = cfg->acct_ops, .mem = cfg->acct_mem, .session_ms = NET_SESSION_S * 1000LL};
    for (int i = 0; i < 2; i++) {
        pthread_cond_init(&n->aq[i].cv, NULL);
        n->aq[i].n = n;
        n->aq[i].name = i ? "sessions" : "accounts";
    }
    if (cfg->cluster && net_cluster_start(n, cfg, err) < 0)
        goto fail;
    hub_config hc = {0};
    hc.test_seed = cfg->test_seed;
    if (cfg->engines > 0 || cfg->engine_cmd)
        hc.job_text = eng_job_text;
    hc.on_demand = 1;
    hc.cluster = cfg->cluster;
    if (!(n->hub = hub_new(&hc, err)))
        goto fail;
    for (int i = 0; i < cfg->ntables; i++)
        if (hub_table_load(n->hub, cfg->tables[i], err) < 0)
            goto fail;
    if (!cfg->cluster && hub_restore(n->hub, n->store, net_now(), err) < 0)
        goto fail;

    lws_set_log_level(LLL_ERR, net_lws_log);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = cfg->port;
    info.iface = cfg->host;
    info.protocols = net_protocols;
    info.vhost_name = "parlour";
    info.server_string = "parlour";
    info.user = n;
    info.gid = -1;
    info.uid = -1;
    info.max_http_header_data = NET_MAX_HEADER;
    /* No LWS_SERVER_OPTION_VALIDATE_UTF8: a text frame that is not UTF-8 is
     * a malformed message like any other, answered by the hub with an error
     * (jansson refuses it) while the connection lives on. */
    info.options = LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE;
    if (cfg->host && !strchr(cfg->host, ':'))
        info.options |= LWS_SERVER_OPTION_DISABLE_IPV6; /* an IPv4 address */
    /* The context first, then the listening vhost: lws 4.1 leaks a little
     * when lws_create_context fails to make its default vhost (a port in
     * use), not when lws_create_vhost fails on a context of its own. */
    info.options |= LWS_SERVER_OPTION_EXPLICIT_VHOSTS;
    /* libev's loop on epoll: lws's own loop polls every descriptor on each
     * wake-up, a cost that grows with the connections. Without libev's plugin
     * (libwebsockets-evlib-ev) the context is made again on lws's poll. */
    n->loop = getenv("PARLOUR_POLL") ? NULL : ev_loop_new(EVBACKEND_EPOLL | EVFLAG_NOENV);
    void *foreign[1] = {n->loop};
    if (n->loop) {
        info.options |= LWS_SERVER_OPTION_LIBEV;
        info.foreign_loops = foreign;
        n->ctx = lws_create_context(&info);
        if (!n->ctx) {
            fputs("parlour serve: libev's loop is not available, polling instead\n", stderr);
            ev_loop_destroy(n->loop);
            n->loop = NULL;
            info.options &= ~(uint64_t)LWS_SERVER_OPTION_LIBEV;
            info.foreign_loops = NULL;
        }
    }
    if (!n->ctx)
        n->ctx = lws_create_context(&info);
    struct lws_vhost *vh = n->ctx ? lws_create_vhost(n->ctx, &info) : NULL;
    if (!vh || (n->port = lws_get_vhost_listen_port(vh)) <= 0) {
        pl_buf_printf(err, "cannot listen on %s port %d", cfg->host ? cfg->host : "all interfaces",
                      cfg->port);
        goto fail;
    }

    if (pthread_create(&n->st_thread, NULL, net_storage_main, n)) {
        pl_buf_puts(err, "cannot start the storage thread");
        goto fail;
    }
    n->st_started = 1;
    if (n->cluster) {
        if (pthread_create(&n->lb_thread, NULL, net_lobby_main, n)) {
            pl_buf_puts(err, "cannot start the cluster thread");
            goto fail;
        }
        n->lb_started = 1;
    }
    for (int i = 0; i < 2; i++) {
        if (pthread_create(&n->aq[i].thread, NULL, net_acct_main, &n->aq[i])) {
            pl_buf_puts(err, "cannot start the account threads");
            goto fail;
        }
        n->aq[i].started = 1;
    }
    int nw = cfg->workers;
    if (nw <= 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        nw = cores >= 2 ? 2 : 1;
    }
    if (!(n->wk = pl_calloc((size_t)nw, sizeof *n->wk))) {
        pl_buf_puts(err, "out of memory");
        goto fail;
    }
    for (; n->nwk < nw; n->nwk++)
        if (pthread_create(&n->wk[n->nwk], NULL, net_worker_main, n)) {
            pl_buf_puts(err, "cannot start the workers");
            goto fail;
        }
    if (hc.job_text) {
        eng_config ec = {.n = cfg->engines > 0 ? cfg->engines : 1, .cmd = cfg->engine_cmd,
                         .timeout_ms = cfg->engine_timeout_ms};
        if (!(n->eng = eng_new(&ec, net_eng_done, n, err)))
            goto fail;
    }
    net_pump(n); /* restored rooms may have computer players to move and timers */
    net_store(n);
    return n;
fail:
    net_free(n);
    return NULL;
}

int net_invite(net *n, const char *const *urls, int count, int local_only)
{
    return hub_invite_set(n->hub, urls, count, local_only);
}

int net_port(const net *n)
{
    return n->port;
}

const char *net_web(const net *n)
{
    return n->web;
}

/* Before libev waits for the next events (so after every turn of the loop,
 * every event of one epoll handled): the writes to the storage thread, and
 * the end of net_run once net_stop asked for it. */
static void net_prep_cb(struct ev_loop *loop, ev_prepare *w, int revents)
{
    (void)revents;
    net *n = w->data;
    if (atomic_load(&n->stop)) {
        ev_break(loop, EVBREAK_ALL);
        return;
    }
    net_store(n);
}

int net_run(net *n)
{
    if (n->loop) {
        lws_sul_schedule(n->ctx, 0, &n->kick, net_kick_cb, NET_KICK_US);
        ev_prepare_init(&n->prep, net_prep_cb);
        n->prep.data = n;
        ev_prepare_start(n->loop, &n->prep);
        ev_run(n->loop, 0); /* until net_prep_cb breaks it */
        ev_prepare_stop(n->loop, &n->prep);
        lws_sul_cancel(&n->kick);
        return 0;
    }
    while (!atomic_load(&n->stop)) {
        if (lws_service(n->ctx, 0) < 0)
            return -1;
        net_store(n);
    }
    return 0;
}

void net_stop(net *n)
{
    atomic_store(&n->stop, 1);
    lws_cancel_service(n->ctx);
}

static void net_jobs_free(net_job *x)
{
    while (x) {
        net_job *next = x->next;
        hub_job_free(x->job);
        pl_free(x);
        x = next;
    }
}

void net_latency(const net *n, pl_buf *out)
{
    if (!n->nlat)
        return;
    static const double at[] = {0.5, 0.99, 0.999, 1.0};
    static const char *const name[] = {"p50", "p99", "p99.9", "max"};
    pl_buf_printf(out, "%llu moves answered; from a move's arrival to its last update:",
                  (unsigned long long)n->nlat);
    uint64_t seen = 0;
    int k = 0;
    for (int b = 0; b < NET_LAT_BUCKETS && k < 4; b++) {
        seen += n->lat[b];
        while (k < 4 && n->lat[b] && (double)seen >= at[k] * (double)n->nlat) {
            pl_buf_printf(out, " %s %.2f ms", name[k], net_lat_value(b) / 1000.0);
            k++;
        }
    }
}

void net_free(net *n)
{
    if (!n)
        return;
    n->destroying = 1;
    pthread_mutex_lock(&n->mu);
    n->wk_quit = 1;
    n->st_quit = 1;
    n->aq_quit = 1;
    pthread_cond_broadcast(&n->wk_cv);
    pthread_cond_broadcast(&n->st_cv);
    for (int i = 0; i < 2; i++)
        pthread_cond_broadcast(&n->aq[i].cv);
    pthread_mutex_unlock(&n->mu);
    for (int i = 0; i < 2; i++)
        if (n->aq[i].started)
            pthread_join(n->aq[i].thread, NULL); /* each answers what it was asked first */
    while (n->adone) { /* answers nobody will read: the requests that wait forget them */
        net_areq *q = n->adone;
        n->adone = q->next;
        if (q->hc)
            q->hc->areq = NULL;
        net_areq_free(q);
    }
    n->adone_tail = NULL;
    for (int i = 0; i < n->nwk; i++)
        pthread_join(n->wk[i], NULL);
    pl_free(n->wk);
    eng_free(n->eng); /* its jobs come back failed, to `done` (freed below) */
    if (n->st_started)
        pthread_join(n->st_thread, NULL); /* it finishes the batch in flight */
    if (n->lb_started)
        pthread_join(n->lb_thread, NULL);
    hub_lobby_free(n->lobby_new);
    pl_free(n->db);
    net_jobs_free(n->todo);
    net_jobs_free(n->done);
    if (n->hub) {
        /* The last writes, on this thread now that the storage thread is gone:
         * what the hub accepted is on disk before it is freed. */
        hub_batch *b = n->st_done;
        int ok = n->st_ok;
        pl_buf err = {0};
        for (int round = 0; round < 16; round++) { /* the hub may queue more after each */
            if (b) {
                hub_store_done(n->hub, b, ok, net_now());
                hub_batch_free(b);
                net_drain(n);
            }
            if (!(b = hub_store_take(n->hub)))
                break;
            ok = hub_batch_write(n->store, b, &err) == 0;
            if (!ok)
                fprintf(stderr, "parlour serve: storage: %s\n", pl_buf_str(&err));
            pl_buf_clear(&err);
        }
        if (b) {
            hub_store_done(n->hub, b, ok, net_now());
            hub_batch_free(b);
        }
        if (n->cluster && store_owner_beat(n->store, 0, &err) < 0) /* hand the rooms over at once */
            fprintf(stderr, "parlour serve: heartbeat: %s\n", pl_buf_str(&err));
        pl_buf_free(&err);
    }
    if (n->loop)
        ev_timer_stop(n->loop, &n->hub_timer);
    if (n->ctx) {
        lws_sul_cancel(&n->sul);
        lws_sul_cancel(&n->kick);
        lws_context_destroy(n->ctx); /* closes every connection: hub_disconnect */
    }
    if (n->loop)
        ev_loop_destroy(n->loop);
    hub_free(n->hub);
    store_close(n->store);
    pl_free(n->scratch);
    pl_free(n->conns.keys);
    pl_free(n->conns.vals);
    pthread_cond_destroy(&n->wk_cv);
    pthread_cond_destroy(&n->st_cv);
    for (int i = 0; i < 2; i++)
        if (n->aq[i].n)
            pthread_cond_destroy(&n->aq[i].cv);
    pthread_mutex_destroy(&n->mu);
    pl_free(n);
}
