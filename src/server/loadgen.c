/* loadgen.c — `parlour bench serve`: a load generator for `parlour serve`
 * (docs/benchmarks.md, "The server under load"). Prefix lg_.
 *
 * One thread, one libwebsockets client context, N WebSocket connections
 * spread over R rooms of one game (ur by default: two seats). Client i
 * belongs to room i % R, so the first R clients, connected first, create
 * the rooms; the next ones take the seats; any more watch. A seat answers a
 * `state` that lists legal actions with a random one of them, at once (the
 * server's full speed) or with --rate at a set total rate of moves spread
 * evenly over the rooms (open loop: a room's moves are due every R/rate
 * seconds). A finished game is played again (`rematch`).
 *
 * Nothing is played until every client is in its room; then the run is
 * measured for S seconds: moves accepted per second (`accepted`: the
 * generator asks for it inside the mover's state, act's accepted_in_state),
 * states received per second, and per move the time from writing its `act`
 * to the moment the last client of its room has received a `state` with a
 * longer history (p50, p99, max). This includes both trips over loopback
 * and this program's own delays, so it bounds the server's latency from
 * above. With --idle the clients only connect and take their seats. With
 * --pid the server's resident memory and CPU time are read from /proc
 * before and after (for --idle: KB of server memory per connection).
 *
 * The loop is libev's (epoll), as the server's (net.c): lws's own poll
 * loop visits every descriptor on each wake-up. A message is written at
 * once when nothing waits before it on its connection (lws keeps what the
 * socket does not take), else queued for the writable callback.
 *
 * Connections are opened at most LG_CONNECTING at a time, so the server's
 * listen queue does not overflow. The process raises its open-file limit
 * to the hard limit (each connection is one descriptor).
 */
#include <ev.h>
#include <getopt.h>
#include <jansson.h>
#include <libwebsockets.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "loadgen.h"
#include "parlour/alloc.h"
#include "parlour/buf.h"
#include "parlour/record.h"
#include "parlour/rng.h"

#define LG_MAX_PER_ROOM 32   /* clients of one room (bits of a pending move's mask) */
#define LG_PENDING 8         /* moves of one room timed at once */
#define LG_CONNECTING 256    /* handshakes in flight at once */
#define LG_RETRY_MS 100       /* an `act` dropped for the rate limit is sent again then */
#define LG_CODE 80           /* bytes of a room code or a seat token, NUL included */

/* One message waiting to be written: LWS_PRE bytes of room, then the text. */
typedef struct lg_msg {
    struct lg_msg *next;
    int64_t act_seq; /* an `act` for this history length (timed when written), or -1 */
    size_t len;
    unsigned char data[];
} lg_msg;

/* A move written and not yet seen by every client of its room. */
typedef struct lg_pending {
    int64_t seq;  /* the history length it was played on */
    int64_t t_us; /* when its `act` was written */
    uint32_t left; /* slots of the room's clients that have not seen it */
} lg_pending;

typedef struct lg_room {
    char code[LG_CODE]; /* "" until created */
    int n;              /* clients in it */
    int over_seen;      /* the current game's end was counted */
    lg_pending pend[LG_PENDING];
    int npend;
    int64_t next_us;    /* --rate: when the room's next move is due */
} lg_room;

typedef struct lg lg;

typedef struct lg_client {
    lg *g;
    struct lws *wsi;
    int st;             /* LG_C_NEW, LG_C_CONNECTING, LG_C_OPEN, LG_C_GONE */
    int room, slot;     /* room index, place in the room (0 creates it) */
    int welcomed;       /* got `welcome`: may send */
    int asked;          /* sent create/join/watch for the room's current code */
    int in_room;        /* joined (a seat) or watching (first state received) */
    int in_game;        /* ... the room's current game (a rematch starts another) */
    int player;         /* takes a seat (else watches) */
    int rematch_sent;
    char token[LG_CODE];
    int64_t acted_seq;  /* the history length it last played on */
    int64_t seen_seq;   /* the longest history of a `state` it received */
    int64_t want_seq;   /* a turn to play (-1: none) ... */
    char *want_action;  /* ... with this action */
    char *last_action;  /* the last `act` sent (played again if refused for its rate) */
    int tm_on;         /* `tm` is armed ... */
    void (*tm_fn)(struct lg_client *); /* ... to call this */
    ev_timer tm;
    lg_msg *head, *tail;
    pl_buf rx;          /* a message arriving in fragments */
    char path[300];     /* --route: the URL's path with ?room=KEY of its room */
} lg_client;

enum { LG_CONNECT, LG_RUN, LG_DONE };
enum { LG_C_NEW, LG_C_CONNECTING, LG_C_OPEN, LG_C_GONE };

struct lg {
    struct lws_context *ctx;
    char host[256], path[256];
    int port;
    const char *game;
    int seats, nclients, nrooms, idle, pid;
    int route;          /* --route: each room's clients name it in the URL (a cluster's front) */
    uint64_t seed;
    double seconds, rate;
    double ready_s;      /* the run starts then even if some clients are not in their rooms */
    int64_t interval_us; /* --rate: between two moves of a room */
    lg_client *c;
    lg_room *r;
    pl_rng rng;
    int phase;
    int next_connect, connecting, connected, failed, dropped, ready;
    int in_connect; /* inside lg_connect_more */
    int trace;      /* LG_TRACE set: every message received goes to stderr (first 300 bytes) */
    int64_t t_start, t_run, t_end;
    struct ev_loop *loop;
    ev_timer tm_phase;  /* the ready timeout, then the end of the run */
    void (*phase_fn)(struct lg *);
    ev_prepare prep;    /* ends the loop once phase is LG_DONE */
    lws_sorted_usec_list_t kick; /* lws's own timers (net.c, NET_KICK_US) */
    unsigned char *scratch; /* a state cut before its view (lg_on_message) */
    size_t scratch_cap;
    /* figures of the run */
    long moves, states, games, errors, rate_errors, bad, untimed;
    int32_t *lat; /* µs */
    size_t nlat, caplat;
    long srv_rss0, srv_rss1;
    double srv_cpu0, srv_cpu1, own_cpu0, own_cpu1;
    char first_error[240];
};

static int64_t lg_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

static int64_t lg_wall_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* VmRSS of process `pid` in KB, or -1. */
static long lg_rss_kb(int pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    long kb = -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "VmRSS:", 6)) {
            kb = strtol(line + 6, NULL, 10);
            break;
        }
    fclose(f);
    return kb;
}

/* CPU seconds (user + system) used so far by process `pid`, or -1. */
static double lg_cpu_s(int pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    unsigned long ut, st;
    /* after ")": state, then fields 4..13, then utime (14), stime (15) */
    if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
        return -1;
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static double lg_own_cpu_s(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6 + (double)u.ru_stime.tv_sec +
           u.ru_stime.tv_usec * 1e-6;
}

static void lg_note_error(lg *g, const char *what, const char *text)
{
    if (!g->first_error[0])
        snprintf(g->first_error, sizeof g->first_error, "%s: %s", what, text ? text : "?");
}

/* Arms `c`'s timer to call fn(c) in `us` microseconds (0 or less: at the
 * loop's next turn). */
static void lg_timer(lg_client *c, int64_t us, void (*fn)(lg_client *))
{
    ev_timer_stop(c->g->loop, &c->tm);
    c->tm_fn = fn;
    c->tm_on = 1;
    ev_now_update(c->g->loop); /* the delay counts from now, not from the turn's start */
    ev_timer_set(&c->tm, us > 0 ? (double)us * 1e-6 : 0.0, 0.0);
    ev_timer_start(c->g->loop, &c->tm);
}

static void lg_timer_cancel(lg_client *c)
{
    ev_timer_stop(c->g->loop, &c->tm);
    c->tm_on = 0;
}

static void lg_tm_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    lg_client *c = w->data;
    c->tm_on = 0;
    c->tm_fn(c);
}

static void lg_phase_timer(lg *g, double secs, void (*fn)(lg *))
{
    ev_timer_stop(g->loop, &g->tm_phase);
    g->phase_fn = fn;
    ev_now_update(g->loop);
    ev_timer_set(&g->tm_phase, secs, 0.0);
    ev_timer_start(g->loop, &g->tm_phase);
}

static void lg_phase_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    lg *g = w->data;
    g->phase_fn(g);
}

static void lg_written(lg *g, lg_client *c, int64_t act_seq);

/* Queues `o` (consumed) to be written to `c`. Returns 0, or -1 when out of
 * memory or `o` is NULL. */
static int lg_send(lg_client *c, json_t *o, int64_t act_seq)
{
    if (!o)
        return -1;
    size_t n = json_dumpb(o, NULL, 0, JSON_COMPACT);
    lg_msg *m = n ? pl_malloc(sizeof *m + LWS_PRE + n) : NULL;
    if (!m) {
        json_decref(o);
        return -1;
    }
    json_dumpb(o, (char *)m->data + LWS_PRE, n, JSON_COMPACT);
    json_decref(o);
    if (!c->head && c->st == LG_C_OPEN && c->wsi && !lws_partial_buffered(c->wsi)) {
        /* Nothing waits before it: written now (lws keeps what the socket
         * does not take and sends it first). */
        int w = lws_write(c->wsi, m->data + LWS_PRE, n, LWS_WRITE_TEXT);
        pl_free(m);
        if (w < (int)n)
            lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
        else
            lg_written(c->g, c, act_seq);
        return 0;
    }
    m->next = NULL;
    m->len = n;
    m->act_seq = act_seq;
    if (c->tail)
        c->tail->next = m;
    else
        c->head = m;
    c->tail = m;
    lws_callback_on_writable(c->wsi);
    return 0;
}

static void lg_drop_queue(lg_client *c)
{
    while (c->head) {
        lg_msg *m = c->head;
        c->head = m->next;
        pl_free(m);
    }
    c->tail = NULL;
}

/* Asks for the room's current game: create it (slot 0 before it exists),
 * take a seat, come back to it with the token, or watch it. */
static void lg_ask(lg *g, lg_client *c)
{
    lg_room *r = &g->r[c->room];
    if (!c->welcomed || c->asked)
        return;
    char name[32];
    snprintf(name, sizeof name, "lg%d", (int)(c - g->c));
    if (!r->code[0]) {
        if (c->slot != 0)
            return; /* wait for the creator */
        json_t *seats = json_array();
        for (int i = 0; i < g->seats; i++)
            json_array_append_new(seats, json_pack("{s:s}", "kind", "person"));
        lg_send(c, json_pack("{s:s,s:s,s:o}", "type", "create", "game", g->game, "seats", seats),
                -1);
    } else if (!c->player) {
        lg_send(c, json_pack("{s:s,s:s}", "type", "watch", "room", r->code), -1);
    } else if (c->token[0]) {
        lg_send(c, json_pack("{s:s,s:s,s:s}", "type", "join", "room", r->code, "token", c->token),
                -1);
    } else {
        lg_send(c, json_pack("{s:s,s:s,s:s}", "type", "join", "room", r->code, "name", name), -1);
    }
    c->asked = 1;
}

static void lg_start_run(lg *g);

/* Starts the run once every client is in its room or gone. */
static void lg_check_ready(lg *g)
{
    if (g->phase == LG_CONNECT && g->next_connect == g->nclients && g->connecting == 0 &&
        g->ready + g->failed + g->dropped >= g->nclients)
        lg_start_run(g);
}

static void lg_set_ready(lg *g, lg_client *c)
{
    if (c->in_room)
        return;
    c->in_room = 1;
    g->ready++;
    lg_check_ready(g);
}

/* Writes `c`'s wanted move now. */
static void lg_act_now(lg_client *c)
{
    if (c->want_seq < 0 || !c->want_action)
        return;
    lg_send(c,
            json_pack("{s:s,s:s,s:I,s:b}", "type", "act", "action", c->want_action, "seq",
                      (json_int_t)c->want_seq, "accepted_in_state", 1),
            c->want_seq);
    c->acted_seq = c->want_seq;
    c->want_seq = -1;
    pl_free(c->last_action);
    c->last_action = c->want_action;
    c->want_action = NULL;
}

static void lg_retry_due(lg_client *c)
{
    if (!c->wsi || c->g->phase == LG_DONE)
        return;
    if (c->want_seq >= 0) {
        if (c->g->phase == LG_RUN)
            lg_act_now(c);
    } else if (!c->in_game) {
        c->asked = 0;
        lg_ask(c->g, c);
    }
}

/* The server dropped a message of `c` for its rate limit (a connection may
 * send about 20 messages a second; the error does not say which message):
 * in LG_RETRY_MS, send the last `act` again if no newer state came, or ask
 * for the room again (create, join or watch) if `c` is not in its game. */
static void lg_retry(lg *g, lg_client *c)
{
    (void)g;
    if (c->tm_on)
        return;
    if (c->want_seq < 0 && c->last_action && c->acted_seq >= 0 && c->seen_seq <= c->acted_seq) {
        c->want_action = c->last_action;
        c->last_action = NULL;
        c->want_seq = c->acted_seq;
        c->acted_seq = -1;
    } else if (c->in_game || c->want_seq >= 0) {
        return;
    }
    lg_timer(c, (int64_t)LG_RETRY_MS * 1000, lg_retry_due);
}

static void lg_play_due(lg_client *c)
{
    lg *g = c->g;
    if (g->phase != LG_RUN)
        return;
    g->r[c->room].next_us += g->interval_us;
    lg_act_now(c);
}

/* Plays `c`'s wanted move when it is due (--rate) or at once. */
static void lg_play(lg *g, lg_client *c)
{
    if (g->phase != LG_RUN || c->want_seq < 0)
        return;
    if (g->rate <= 0) {
        lg_act_now(c);
        return;
    }
    lg_room *r = &g->r[c->room];
    int64_t now = lg_now();
    if (r->next_us > now) {
        if (!c->tm_on)
            lg_timer(c, r->next_us - now, lg_play_due);
        return;
    }
    r->next_us = now + g->interval_us; /* late: the next one an interval from now */
    lg_act_now(c);
}

static void lg_cancel_want(lg_client *c)
{
    c->want_seq = -1;
    pl_free(c->want_action);
    c->want_action = NULL;
    if (c->tm_on)
        lg_timer_cancel(c);
}

/* Client `slot` of room `r` saw history length `seq` at `now`: every move
 * played on a shorter history is seen by it; a move seen by all is timed. */
static void lg_seen(lg *g, lg_room *r, int slot, int64_t seq, int64_t now)
{
    for (int i = 0; i < r->npend;) {
        lg_pending *p = &r->pend[i];
        if (p->seq < seq)
            p->left &= ~(1u << slot);
        if (p->left) {
            i++;
            continue;
        }
        if (g->phase == LG_RUN && p->t_us >= g->t_run) {
            if (g->nlat == g->caplat) {
                size_t cap = g->caplat ? g->caplat * 2 : 65536;
                int32_t *a = pl_realloc(g->lat, cap * sizeof *a);
                if (a) {
                    g->lat = a;
                    g->caplat = cap;
                }
            }
            if (g->nlat < g->caplat)
                g->lat[g->nlat++] = (int32_t)(now - p->t_us);
        }
        *p = r->pend[--r->npend];
    }
}

static void lg_on_state(lg *g, lg_client *c, json_t *m, int64_t now)
{
    lg_room *r = &g->r[c->room];
    json_int_t seq;
    json_t *legal;
    const char *room;
    int over = 0;
    if (json_unpack(m, "{s:s,s:I,s:o,s:b}", "room", &room, "seq", &seq, "legal", &legal, "over",
                    &over) ||
        !json_is_array(legal)) {
        g->bad++;
        return;
    }
    if (strcmp(room, r->code))
        return; /* the last game's room, after a rematch */
    c->in_game = 1;
    if (g->phase == LG_RUN)
        g->states++;
    if (seq > c->seen_seq)
        c->seen_seq = seq;
    if (!c->player)
        lg_set_ready(g, c);
    lg_seen(g, r, c->slot, seq, now);
    if (over) {
        lg_cancel_want(c);
        if (!r->over_seen) {
            r->over_seen = 1;
            if (g->phase == LG_RUN)
                g->games++;
        }
        if (c->player && !c->rematch_sent && !g->idle) {
            c->rematch_sent = 1;
            lg_send(c, json_pack("{s:s}", "type", "rematch"), -1);
        }
        return;
    }
    size_t n = json_array_size(legal);
    if (n == 0) {
        if (seq > c->want_seq)
            lg_cancel_want(c);
        return;
    }
    if (g->idle || !c->player || seq <= c->acted_seq || seq < c->want_seq)
        return;
    const char *a = json_string_value(json_object_get(
        json_array_get(legal, pl_rng_below(&g->rng, (uint32_t)n)), "action"));
    if (!a) {
        g->bad++;
        return;
    }
    char *copy = pl_strdup(a);
    if (!copy)
        return;
    pl_free(c->want_action);
    c->want_action = copy;
    c->want_seq = seq;
    lg_play(g, c);
}

/* A state's "view" (two thirds of it), its "history" and its "seats" are of
 * no use here: jansson reads the state without them. The server writes keys
 * sorted and compact, so the view is the last key, "history" is followed by
 * "history_from" and "seats" by "seq"; `,"key":` with its quotes unescaped
 * cannot be inside a string. Writes the shortened object into g->scratch and
 * returns its length, or 0 (the message is then read whole). */
static size_t lg_cut_state(lg *g, const char *data, size_t len)
{
    static const struct {
        const char *from, *to; /* drop [from, to) */
    } skip[] = {{",\"history\":", ",\"history_from\":"}, {",\"seats\":", ",\"seq\":"}};
    const char *view = len > 200 ? memmem(data, len, ",\"view\":", 8) : NULL;
    if (!view)
        return 0;
    size_t end = (size_t)(view - data);
    if (g->scratch_cap < end + 1) {
        unsigned char *b = pl_realloc(g->scratch, end + 1);
        if (!b)
            return 0;
        g->scratch = b;
        g->scratch_cap = end + 1;
    }
    size_t at = 0, k = 0;
    for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++) {
        const char *f = memmem(data + at, end - at, skip[i].from, strlen(skip[i].from));
        const char *t = f ? memmem(f, (size_t)(view - f), skip[i].to, strlen(skip[i].to)) : NULL;
        if (!t)
            continue;
        memcpy(g->scratch + k, data + at, (size_t)(f - data) - at);
        k += (size_t)(f - data) - at;
        at = (size_t)(t - data);
    }
    memcpy(g->scratch + k, data + at, end - at);
    k += end - at;
    g->scratch[k++] = '}';
    return k;
}

static void lg_on_message(lg *g, lg_client *c, const char *data, size_t len)
{
    int64_t now = lg_now();
    json_error_t e;
    json_t *m = NULL;
    size_t k = lg_cut_state(g, data, len);
    if (k)
        m = json_loadb((const char *)g->scratch, k, 0, &e);
    if (!m)
        m = json_loadb(data, len, 0, &e);
    const char *type = json_string_value(json_object_get(m, "type"));
    if (!type) {
        g->bad++;
        json_decref(m);
        return;
    }
    lg_room *r = &g->r[c->room];
    if (g->trace)
        fprintf(stderr, "%d< %.*s\n", (int)(c - g->c), (int)(len > 300 ? 300 : len), data);
    if (!strcmp(type, "state")) {
        if (g->phase == LG_RUN && json_object_get(m, "accepted"))
            g->moves++; /* the answer to its act, in its state (accepted_in_state) */
        lg_on_state(g, c, m, now);
    } else if (!strcmp(type, "accepted")) {
        if (g->phase == LG_RUN)
            g->moves++;
    } else if (!strcmp(type, "welcome")) {
        c->welcomed = 1;
        if (g->nrooms == 0)
            lg_set_ready(g, c);
        else
            lg_ask(g, c);
    } else if (!strcmp(type, "created")) {
        const char *code = json_string_value(json_object_get(m, "room"));
        if (code && strlen(code) < LG_CODE) {
            snprintf(r->code, sizeof r->code, "%s", code);
            c->asked = 0; /* now join it */
            lg_ask(g, c);
            for (int i = c->room + g->nrooms; i < g->nclients; i += g->nrooms)
                lg_ask(g, &g->c[i]);
        } else {
            g->bad++;
        }
    } else if (!strcmp(type, "joined")) {
        const char *tok = json_string_value(json_object_get(m, "token"));
        if (tok && strlen(tok) < LG_CODE)
            snprintf(c->token, sizeof c->token, "%s", tok);
        c->in_game = 1;
        lg_set_ready(g, c);
    } else if (!strcmp(type, "rematch")) {
        const char *code = json_string_value(json_object_get(m, "room"));
        if (code && strlen(code) < LG_CODE) {
            if (strcmp(code, r->code)) {
                snprintf(r->code, sizeof r->code, "%s", code);
                r->npend = 0;
                r->over_seen = 0;
            }
            c->rematch_sent = 0;
            c->in_game = 0;
            c->acted_seq = -1;
            c->seen_seq = -1;
            lg_cancel_want(c);
            c->asked = 0; /* join the new room with the token (or watch it) */
            lg_ask(g, c);
        }
    } else if (!strcmp(type, "sync")) {
        json_int_t id;
        if (!json_unpack(m, "{s:I}", "id", &id))
            lg_send(c,
                    json_pack("{s:s,s:I,s:I}", "type", "sync", "id", id, "client_ms",
                              (json_int_t)lg_wall_ms()),
                    -1);
    } else if (!strcmp(type, "error")) {
        const char *code = json_string_value(json_object_get(m, "error"));
        const char *msg = json_string_value(json_object_get(m, "message"));
        const char *req = json_string_value(json_object_get(m, "request"));
        int rate = code && !strcmp(code, "rate");
        if (g->phase == LG_RUN) {
            g->errors++;
            g->rate_errors += rate;
        }
        if (rate && (!req || !strcmp(req, "act")))
            lg_retry(g, c); /* the hub names no request when it drops a message unread */
        if (req && !strcmp(req, "create") && !r->code[0]) {
            c->asked = 0; /* create the room again (the figures count the error) */
            lg_ask(g, c);
        }
        lg_note_error(g, code ? code : "error", msg);
    }
    /* chat, rooms, games, left, record, reading, kana: nothing to do */
    json_decref(m);
}

static void lg_connect_more(lg *g);

/* A message of `c` was written: an `act` (act_seq >= 0) is timed from now. */
static void lg_written(lg *g, lg_client *c, int64_t act_seq)
{
    if (act_seq < 0)
        return;
    lg_room *r = &g->r[c->room];
    if (r->npend == LG_PENDING) {
        r->pend[0] = r->pend[--r->npend]; /* forget one: not timed */
        g->untimed++;
    }
    for (int i = 0; i < r->npend; i++) /* an `act` sent again: timed from now */
        if (r->pend[i].seq == act_seq)
            r->pend[i--] = r->pend[--r->npend];
    uint32_t all = 0;
    for (int s = 0; s < r->n; s++) {
        lg_client *o = &g->c[c->room + s * g->nrooms];
        if (o->wsi && o->in_room)
            all |= 1u << s;
    }
    r->pend[r->npend++] = (lg_pending){act_seq, lg_now(), all};
}

static int lg_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                       size_t len)
{
    (void)user;
    lg_client *c = lws_get_opaque_user_data(wsi);
    if (!c)
        return 0;
    lg *g = c->g;
    switch (reason) {
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        lws_set_opaque_user_data(wsi, NULL);
        c->wsi = NULL;
        if (c->st == LG_C_CONNECTING) {
            c->st = LG_C_GONE;
            g->connecting--;
            g->failed++;
            lg_note_error(g, "connect", in ? (const char *)in : "failed");
            lg_connect_more(g);
        }
        break;
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        c->st = LG_C_OPEN;
        g->connecting--;
        g->connected++;
        lg_connect_more(g);
        break;
    case LWS_CALLBACK_CLIENT_RECEIVE:
        if (c->rx.len == 0 && lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi)) {
            lg_on_message(g, c, in, len); /* the usual case: one whole message */
            break;
        }
        pl_buf_append(&c->rx, in, len);
        if (lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi)) {
            lg_on_message(g, c, c->rx.s, c->rx.len);
            pl_buf_clear(&c->rx);
        }
        break;
    case LWS_CALLBACK_CLIENT_WRITEABLE: {
        lg_msg *m = c->head;
        if (!m)
            break;
        if (lws_write(wsi, m->data + LWS_PRE, m->len, LWS_WRITE_TEXT) < (int)m->len)
            return -1;
        lg_written(g, c, m->act_seq);
        c->head = m->next;
        if (!c->head)
            c->tail = NULL;
        pl_free(m);
        if (c->head)
            lws_callback_on_writable(wsi);
        break;
    }
    case LWS_CALLBACK_CLIENT_CLOSED:
        c->st = LG_C_GONE;
        if (g->phase != LG_DONE) {
            g->dropped++;
            g->connected--;
            lg_note_error(g, "closed", "the server closed a connection");
        }
        c->wsi = NULL;
        lg_drop_queue(c);
        lg_cancel_want(c);
        lws_set_opaque_user_data(wsi, NULL);
        lg_check_ready(g);
        break;
    default:
        break;
    }
    return 0;
}

static const struct lws_protocols lg_protocols[] = {
    {"parlour.v1", lg_callback, 0, 16384, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* Opens connections until LG_CONNECTING are in flight or all are open. */
static void lg_connect_more(lg *g)
{
    if (g->in_connect)
        return; /* called back from inside lws_client_connect_via_info: the loop goes on */
    g->in_connect = 1;
    while (g->connecting < LG_CONNECTING && g->next_connect < g->nclients &&
           g->phase == LG_CONNECT) {
        lg_client *c = &g->c[g->next_connect++];
        struct lws_client_connect_info ci;
        memset(&ci, 0, sizeof ci);
        ci.context = g->ctx;
        ci.address = g->host;
        ci.port = g->port;
        ci.path = g->path;
        if (g->route) { /* one key per room: a front hashing it sends the room's clients to one process */
            snprintf(c->path, sizeof c->path, "%s%croom=lg%llu-%d", g->path, strchr(g->path, '?') ? '&' : '?',
                     (unsigned long long)g->seed, c->room);
            ci.path = c->path;
        }
        ci.host = g->host;
        ci.origin = g->host;
        ci.protocol = "parlour.v1";
        ci.local_protocol_name = "parlour.v1";
        ci.ietf_version_or_minus_one = -1;
        ci.opaque_user_data = c;
        ci.pwsi = &c->wsi;
        c->st = LG_C_CONNECTING;
        g->connecting++;
        /* A connection that fails at once may have been reported through
         * the callback already (then c->st is LG_C_GONE). */
        if (!lws_client_connect_via_info(&ci) && c->st == LG_C_CONNECTING) {
            c->st = LG_C_GONE;
            c->wsi = NULL;
            g->connecting--;
            g->failed++;
            lg_note_error(g, "connect", "could not start the connection");
        }
    }
    g->in_connect = 0;
    lg_check_ready(g);
}

static void lg_end_due(lg *g)
{
    g->t_end = lg_now();
    if (g->pid > 0) {
        g->srv_rss1 = lg_rss_kb(g->pid);
        g->srv_cpu1 = lg_cpu_s(g->pid);
    }
    g->own_cpu1 = lg_own_cpu_s();
    g->phase = LG_DONE;
}

static void lg_ready_due(lg *g)
{
    if (g->phase == LG_CONNECT) {
        fprintf(stderr, "parlour bench serve: %d of %d clients in their rooms after %.0f s; "
                        "measuring anyway\n",
                g->ready, g->nclients, g->ready_s);
        lg_start_run(g);
    }
}

static void lg_start_run(lg *g)
{
    g->phase = LG_RUN;
    g->t_run = lg_now();
    if (g->pid > 0) {
        if (!g->idle)
            g->srv_rss0 = lg_rss_kb(g->pid);
        g->srv_cpu0 = lg_cpu_s(g->pid);
    }
    g->own_cpu0 = lg_own_cpu_s();
    if (g->connected == 0) { /* nothing to measure */
        lg_end_due(g);
        return;
    }
    lg_phase_timer(g, g->seconds, lg_end_due);
    if (g->idle)
        return;
    for (int i = 0; i < g->nrooms; i++) /* spread the rooms' first moves over an interval */
        g->r[i].next_us =
            g->t_run + (g->interval_us ? (int64_t)pl_rng_below(&g->rng, (uint32_t)g->interval_us)
                                       : 0);
    for (int i = 0; i < g->nclients; i++)
        lg_play(g, &g->c[i]);
}

/* Splits ws://HOST:PORT/PATH into g. Returns 0, or -1. */
static int lg_parse_url(lg *g, const char *url)
{
    char tmp[512];
    const char *prot, *ads, *path;
    int port;
    if (strlen(url) >= sizeof tmp)
        return -1;
    snprintf(tmp, sizeof tmp, "%s", url);
    if (lws_parse_uri(tmp, &prot, &ads, &port, &path) || strcmp(prot, "ws") || !ads[0])
        return -1;
    snprintf(g->host, sizeof g->host, "%s", ads);
    snprintf(g->path, sizeof g->path, "/%s", path);
    g->port = port;
    return 0;
}

static void lg_usage(FILE *f)
{
    fputs("usage: parlour bench serve [--url ws://HOST:PORT/ws] [--clients N] [--rooms R]\n"
          "                           [--seconds S] [--game G] [--seats K] [--rate M]\n"
          "                           [--idle] [--pid PID] [--seed X] [--ready-timeout S] [--route]\n"
          "Load for a running `parlour serve`: N WebSocket clients in R rooms of game G\n"
          "(K seats each; clients beyond R*K watch) play random legal moves, then one line\n"
          "of figures: moves accepted per second, states received per second, the time\n"
          "from a move's `act` to its room's last client's `state` (p50/p99/max),\n"
          "connections that failed. Run the server on another core (taskset).\n"
          "  --url URL     the server's WebSocket (default ws://127.0.0.1:8080/ws)\n"
          "  --clients N   connections (default 100)\n"
          "  --rooms R     rooms (default N/K; 0 with --idle: connect only)\n"
          "  --seconds S   measure S seconds once every client is in its room (default 5)\n"
          "  --game G      the game (default ur)\n"
          "  --seats K     seats of a room, all persons (default 2)\n"
          "  --rate M      moves per second in all, spread over the rooms (default: as fast\n"
          "                as the server answers)\n"
          "  --idle        only connect and take the seats; with --pid: server KB per connection\n"
          "  --pid PID     the server's process: its memory and CPU time from /proc\n"
          "  --seed X      the random choices (default 1)\n"
          "  --ready-timeout S  measure anyway after S seconds if some clients are not\n"
          "                in their rooms yet (default 120)\n"
          "  --route       each client names its room in the URL (PATH?room=KEY): a\n"
          "                cluster's nginx sends a room's clients to one process\n"
          "                (docs/cluster.md)\n"
          "Environment: LG_TRACE=1 prints every message received on stderr.\n",
          f);
}

/* lws 4.1's libev glue cannot bring its armed timer forward (net.c,
 * net_kick_cb): this one keeps it at most LG_KICK_US ahead. */
#define LG_KICK_US (20 * LWS_US_PER_MS)
static void lg_kick_cb(lws_sorted_usec_list_t *sul)
{
    lg *g = lws_container_of(sul, lg, kick);
    lws_sul_schedule(g->ctx, 0, &g->kick, lg_kick_cb, LG_KICK_US);
}

static void lg_prep_cb(struct ev_loop *loop, ev_prepare *w, int revents)
{
    (void)revents;
    lg *g = w->data;
    if (g->phase == LG_DONE)
        ev_break(loop, EVBREAK_ALL);
}

static void lg_free(lg *g)
{
    if (g->loop) {
        ev_timer_stop(g->loop, &g->tm_phase);
        for (int i = 0; g->c && i < g->nclients; i++)
            ev_timer_stop(g->loop, &g->c[i].tm);
    }
    if (g->ctx)
        lws_context_destroy(g->ctx);
    if (g->loop)
        ev_loop_destroy(g->loop);
    for (int i = 0; g->c && i < g->nclients; i++) {
        lg_drop_queue(&g->c[i]);
        pl_free(g->c[i].want_action);
        pl_free(g->c[i].last_action);
        pl_buf_free(&g->c[i].rx);
    }
    pl_free(g->c);
    pl_free(g->r);
    pl_free(g->scratch);
    pl_free(g->lat);
}

static int lg_cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static void lg_report(lg *g)
{
    double secs = (double)(g->t_end - g->t_run) * 1e-6;
    double own = secs > 0 ? (g->own_cpu1 - g->own_cpu0) / secs * 100 : 0;
    if (g->idle) {
        printf("bench serve --idle: %d clients (%d connected, %d failed, %d dropped) in %d rooms, "
               "%.1f s",
               g->nclients, g->connected, g->failed, g->dropped, g->nrooms, secs);
        if (g->pid > 0 && g->srv_rss0 >= 0 && g->srv_rss1 >= 0 && g->connected > 0)
            printf(": server RSS %ld KB before, %ld KB after: %.1f KB per connection",
                   g->srv_rss0, g->srv_rss1,
                   (double)(g->srv_rss1 - g->srv_rss0) / g->connected);
        printf("\n");
        return;
    }
    double p50 = 0, p99 = 0, mx = 0;
    if (g->nlat) {
        qsort(g->lat, g->nlat, sizeof *g->lat, lg_cmp_i32);
        p50 = g->lat[(g->nlat - 1) / 2] * 1e-3;
        p99 = g->lat[(size_t)((double)(g->nlat - 1) * 0.99)] * 1e-3;
        mx = g->lat[g->nlat - 1] * 1e-3;
    }
    printf("bench serve: %s, %d clients (%d connected, %d failed, %d dropped) in %d rooms, "
           "%.1f s: %ld moves accepted (%.0f/s), %ld states (%.0f/s), %ld games; move to all "
           "states p50 %.2f ms p99 %.2f ms max %.2f ms (%zu timed); errors %ld (rate %ld)",
           g->game, g->nclients, g->connected, g->failed, g->dropped, g->nrooms, secs, g->moves,
           secs > 0 ? g->moves / secs : 0, g->states, secs > 0 ? g->states / secs : 0, g->games,
           p50, p99, mx, g->nlat, g->errors, g->rate_errors);
    if (g->rate > 0)
        printf("; rate asked %.0f/s", g->rate);
    /* CPU time a move costs: what a whole idle core would give, even when the
     * machine is shared and the processes got only part of their cores */
    if (g->pid > 0 && secs > 0 && g->srv_cpu0 >= 0 && g->srv_cpu1 >= 0)
        printf("; server cpu %.0f%% (%.0f us a move), rss %ld KB",
               (g->srv_cpu1 - g->srv_cpu0) / secs * 100,
               g->moves ? (g->srv_cpu1 - g->srv_cpu0) / (double)g->moves * 1e6 : 0.0, g->srv_rss1);
    printf("; generator cpu %.0f%% (%.0f us a move)\n", own,
           g->moves ? (g->own_cpu1 - g->own_cpu0) / (double)g->moves * 1e6 : 0.0);
}

int lg_bench_serve(int argc, char **argv)
{
    static const struct option lo[] = {
        {"url", required_argument, 0, 'u'},   {"clients", required_argument, 0, 'n'},
        {"rooms", required_argument, 0, 'r'}, {"seconds", required_argument, 0, 's'},
        {"game", required_argument, 0, 'g'},  {"seats", required_argument, 0, 'k'},
        {"rate", required_argument, 0, 'm'},  {"idle", no_argument, 0, 'i'},
        {"pid", required_argument, 0, 'p'},   {"seed", required_argument, 0, 'x'},
        {"ready-timeout", required_argument, 0, 't'},
        {"route", no_argument, 0, 'R'},
        {"help", no_argument, 0, 'h'},        {0, 0, 0, 0}};
    lg g;
    memset(&g, 0, sizeof g);
    const char *url = "ws://127.0.0.1:8080/ws";
    g.game = "ur";
    g.seats = 2;
    g.nclients = 100;
    g.nrooms = -1;
    g.seconds = 5;
    g.ready_s = 120;
    uint64_t seed = 1;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "u:n:r:s:g:k:m:ip:x:t:h", lo, NULL)) != -1) {
        switch (c) {
        case 'u': url = optarg; break;
        case 'n': g.nclients = atoi(optarg); break;
        case 'r': g.nrooms = atoi(optarg); break;
        case 's': g.seconds = atof(optarg); break;
        case 'g': g.game = optarg; break;
        case 'k': g.seats = atoi(optarg); break;
        case 'm': g.rate = atof(optarg); break;
        case 'i': g.idle = 1; break;
        case 'p': g.pid = atoi(optarg); break;
        case 'x': seed = strtoull(optarg, NULL, 10); break;
        case 't': g.ready_s = atof(optarg); break;
        case 'R': g.route = 1; break;
        case 'h': lg_usage(stdout); return 0;
        default: lg_usage(stderr); return 2;
        }
    }
    if (g.nrooms < 0)
        g.nrooms = g.seats > 0 ? g.nclients / g.seats : 0;
    const char *bad = NULL;
    if (optind < argc)
        bad = "unexpected argument";
    else if (lg_parse_url(&g, url))
        bad = "--url must be ws://HOST:PORT/PATH";
    else if (g.nclients < 1)
        bad = "--clients must be at least 1";
    else if (g.seats < 1 || g.seats > LG_MAX_PER_ROOM)
        bad = "--seats must be 1 to 32";
    else if (g.nrooms < (g.idle ? 0 : 1))
        bad = "--rooms must be at least 1 (0 only with --idle)";
    else if (g.nrooms > 0 && (g.nclients < g.nrooms * g.seats ||
                              g.nclients > g.nrooms * LG_MAX_PER_ROOM))
        bad = "--clients must be between rooms x seats and rooms x 32";
    else if (!(g.seconds > 0) || g.seconds > 86400)
        bad = "--seconds must be more than 0";
    else if (g.rate < 0)
        bad = "--rate must not be negative";
    else if (!(g.ready_s > 0) || g.ready_s > 86400)
        bad = "--ready-timeout must be more than 0";
    if (bad) {
        fprintf(stderr, "parlour bench serve: %s (--help)\n", bad);
        return 2;
    }
    if (g.nrooms > 0 && g.rate > 0)
        g.interval_us = (int64_t)((double)g.nrooms / g.rate * 1e6);

    /* One descriptor per connection: take every one the hard limit allows. */
    struct rlimit rl;
    if (!getrlimit(RLIMIT_NOFILE, &rl)) {
        rlim_t was = rl.rlim_cur;
        rl.rlim_cur = rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &rl))
            rl.rlim_cur = was;
        fprintf(stderr, "parlour bench serve: open files limit %llu (hard %llu): up to %llu "
                        "connections\n",
                (unsigned long long)rl.rlim_cur, (unsigned long long)rl.rlim_max,
                (unsigned long long)(rl.rlim_cur > 64 ? rl.rlim_cur - 64 : 0));
        if ((rlim_t)g.nclients + 64 > rl.rlim_cur) {
            fprintf(stderr, "parlour bench serve: %d clients need more open files than %llu\n",
                    g.nclients, (unsigned long long)rl.rlim_cur);
            return 2;
        }
    }

    pl_json_setup();
    pl_rng_seed(&g.rng, seed);
    g.seed = seed;
    g.trace = getenv("LG_TRACE") != NULL;
    g.c = pl_calloc((size_t)g.nclients, sizeof *g.c);
    g.r = pl_calloc(g.nrooms > 0 ? (size_t)g.nrooms : 1, sizeof *g.r);
    if (!g.c || !g.r) {
        fputs("parlour bench serve: out of memory\n", stderr);
        lg_free(&g);
        return 1;
    }
    for (int i = 0; i < g.nclients; i++) {
        lg_client *cl = &g.c[i];
        cl->g = &g;
        cl->room = g.nrooms > 0 ? i % g.nrooms : 0;
        cl->slot = g.nrooms > 0 ? i / g.nrooms : 0;
        cl->player = g.nrooms > 0 && cl->slot < g.seats;
        cl->acted_seq = -1;
        cl->seen_seq = -1;
        cl->want_seq = -1;
        if (g.nrooms > 0)
            g.r[cl->room].n++;
    }

    lws_set_log_level(0, NULL); /* the figures say what failed; the first error is printed */
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = lg_protocols;
    info.gid = (gid_t)-1;
    info.uid = (uid_t)-1;
    /* No fd_limit_per_thread: below the open files limit it makes lws find a
     * socket's connection by scanning the whole table at every event
     * (wsi_from_fd), 7 % of this program at 2,000 clients; the limit raised
     * above is what lws sizes its table by instead. */
    info.timeout_secs = 30;
    info.connect_timeout_secs = 30;
    g.loop = ev_loop_new(EVBACKEND_EPOLL | EVFLAG_NOENV);
    void *foreign[1] = {g.loop};
    info.options = LWS_SERVER_OPTION_LIBEV;
    info.foreign_loops = foreign;
    g.ctx = g.loop ? lws_create_context(&info) : NULL;
    if (!g.ctx) {
        fputs("parlour bench serve: could not start libwebsockets on libev's loop "
              "(libwebsockets-evlib-ev installed?)\n", stderr);
        lg_free(&g);
        return 1;
    }
    ev_timer_init(&g.tm_phase, lg_phase_cb, 0.0, 0.0);
    g.tm_phase.data = &g;
    for (int i = 0; i < g.nclients; i++) {
        ev_timer_init(&g.c[i].tm, lg_tm_cb, 0.0, 0.0);
        g.c[i].tm.data = &g.c[i];
    }
    if (g.pid > 0) {
        g.srv_rss0 = lg_rss_kb(g.pid);
        if (g.srv_rss0 < 0)
            fprintf(stderr, "parlour bench serve: cannot read /proc/%d/status\n", g.pid);
    }
    g.t_start = lg_now();
    lg_phase_timer(&g, g.ready_s, lg_ready_due);
    lws_sul_schedule(g.ctx, 0, &g.kick, lg_kick_cb, LG_KICK_US);
    ev_prepare_init(&g.prep, lg_prep_cb);
    g.prep.data = &g;
    ev_prepare_start(g.loop, &g.prep);
    lg_connect_more(&g);
    ev_run(g.loop, 0); /* until lg_prep_cb sees LG_DONE */
    ev_prepare_stop(g.loop, &g.prep);
    lws_sul_cancel(&g.kick);
    int rc = 0;
    if (g.phase != LG_DONE) {
        fputs("parlour bench serve: the event loop stopped\n", stderr);
        rc = 1;
    } else {
        lg_report(&g);
        fflush(stdout);
    }
    if (g.first_error[0])
        fprintf(stderr, "parlour bench serve: first error: %s\n", g.first_error);
    if (g.connected == 0 && g.dropped == 0)
        rc = 1;
    g.phase = LG_DONE;
    lg_free(&g);
    return rc;
}
