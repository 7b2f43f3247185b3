/* hub.c — the server's heart without I/O (hub.h): connections, rooms,
 * seats, the web protocol's messages (docs/web-protocol.md), the store
 * batches and the computer players' jobs.
 *
 * Every message is parsed by jansson (json_loadb after a size check) and
 * unpacked strictly (JSON_STRICT) for its type; anything wrong gets one
 * `error` and changes nothing. A room holds a pl_match; every action
 * (chance included, played by the hub at once) goes into the next store
 * batch, and every message about a room is HELD while any write is pending,
 * released by hub_store_done: no client hears of an action before it is on
 * disk. History entries are worked out once per action for every viewer
 * (format_action_for, describe), when it is applied.
 *
 * Karuta's real-time reading is in hub_karuta.c (hub_int.h's hubk_*).
 */
#include <assert.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "../ai/ai.h"
#include "hub_int.h"
#include "parlour/alloc.h"
#include "parlour/jsonout.h"
#include "parlour/record.h"
#include "parlour/registry.h"
#include "parlour/rng.h"

#define HUB_VERSION "parlour 0.1.0"
#define HUB_MAX_LEGAL 512 /* legal actions listed in one state */
#define HUB_MAX_STEPS 5000 /* steps of one replay: the first 4999 actions */
#define HUB_MAX_REPLAY (3 << 20) /* bytes of one replay's steps: under net's 4 MB queue for a client */
#define HUB_MAX_PART 6000 /* bytes of one replay_part's text */

#define HUB_MAX_UPLOAD (512 * 1024) /* bytes of one uploaded record */
#define HUB_KEEP_OVER_MS (10 * 60 * 1000) /* a finished room nobody is in is let go after this */
#define HUB_IDLE_MS (5 * 1000) /* cluster: an unfinished room nobody is in is let go (its lease dropped) */
#define HUB_MAX_PENDING 4096 /* requests waiting for rooms being loaded */

/* A queued message: released (tag 0) or held for batch `tag`. */
typedef struct hub_msg {
    hub_out o;
    uint64_t tag;
    hub_room *room; /* the room it tells about, or NULL */
    int history;    /* it tells the room's history (state, accepted, reading, kana) */
    struct hub_msg *next;
} hub_msg;

/* A room read for the hub by hub_batch_write (on demand). */
typedef struct hub_loaded {
    char code[HUB_CODE];
    int status;                  /* HUB_LOAD_* */
    store_room room;             /* its strings owned */
    int finished;
    store_action *acts;          /* their strings owned */
    int nacts, capacts;
    char *msg;                   /* busy: the holder; error: the message */
} hub_loaded;
enum { HUB_LOAD_ASKED = 0, HUB_LOAD_OK, HUB_LOAD_MISSING, HUB_LOAD_BUSY, HUB_LOAD_ERROR };

/* A batch and what the hub needs to answer it. */
typedef struct hub_batchp {
    hub_batch b;                 /* first: hub_batch_free casts */
    uint64_t *senders;           /* by action: the connection that sent it, 0 */
    char **cfg_codes, **cfg_texts; /* config updates */
    int ncfg;
    int caprooms, capactions, capfinished, capcfg;
    int cluster;                 /* leases taken, dropped and checked (hub_config.cluster) */
    hub_loaded *loads;           /* rooms to read (on demand) */
    int nloads, caploads;
    char **drops;                /* leases to drop (idle rooms let go) */
    int ndrops, capdrops;
    char **lost;                 /* rooms whose writes came back STORE_LOST */
    int nlost, caplost;
} hub_batchp;

/* A request that waits for its room to be loaded: re-read when it is. */
typedef struct hub_pend {
    char code[HUB_CODE];
    uint64_t conn;
    char *msg; /* the message as it came (owned) */
    size_t len;
} hub_pend;

/* The lobby of a cluster: the store's public open rooms (hub_lobby_read). */
typedef struct hub_lobby_room {
    char code[HUB_CODE];
    json_t *entry; /* {room, game, options, seats, state} */
} hub_lobby_room;
struct hub_lobby {
    hub_lobby_room *rooms; /* oldest first */
    int n, cap;
};

typedef struct hub_jobp {
    hub_job j;                   /* first */
    char code[HUB_CODE];
    int nhist;
    int kind;
    struct hub_jobp *next;
} hub_jobp;

/* An entry of the timer heap: room `r` is due at `at` (stale when
 * r->wake_ms moved since: skipped). */
typedef struct hub_wake {
    int64_t at;
    hub_room *r;
} hub_wake;

/* A solved table loaded with hub_table_load. */
typedef struct hub_table {
    const pl_game *g;
    void *t;
} hub_table;

typedef struct hub_ai {
    const pl_game *g;
    char *level;
    ai_player *p;
} hub_ai;

struct hub {
    hub_config cfg;
    /* connections: id = slot + 1 + (generation << 32) */
    hub_conn *conns;
    int nconns, capconns;
    int *freeslots;
    int nfree;
    uint32_t gen;
    uint64_t live_conns;
    /* rooms */
    hub_room **rooms;
    int nrooms, caprooms;
    hub_room **table; /* open addressing by code */
    size_t tcap;
    /* messages */
    hub_msg *ready, *ready_tail, *held, *held_tail;
    /* storage */
    hub_batchp *next;            /* being built */
    uint64_t batch_seq;          /* id of the next batch */
    uint64_t inflight;           /* id of the batch out, 0 none */
    /* jobs */
    hub_jobp *jobs, *jobs_tail;
    uint64_t job_seq;
    hub_ai *ais;
    int nais;
    hub_table *tables;
    int ntables;
    uint64_t seed_next;          /* test_seed mode */
    hub_wake *heap;              /* timers: a binary min-heap by `at` */
    int nheap, capheap;
    uint64_t tick_seq;
    int64_t now;
    hub_stats st;
    /* rooms on demand (hub_config.on_demand) */
    hub_pend *pend;
    int npend, cappend;
    int redispatch;              /* re-reading a pending request: no second load, no rate */
    hub_lobby *lobby;            /* cluster: the store's open rooms (NULL: none read yet) */
    /* An act's answer carried in its sender's state (act's accepted_in_state):
     * set by req_act around the broadcast, taken by that state (state_text). */
    uint64_t acc_conn;           /* the sender, 0 none */
    const pl_buf *acc;           /* {"action":…,"seat":…,"seq":… (no closing brace) */
};

/* ---- small helpers --------------------------------------------------------- */

static char *dupn(const char *s)
{
    return pl_strdup(s ? s : "");
}

int64_t hub_now(const hub *h) { return h->now; }
const char *hub_takeover_level(const hub *h) { return h->cfg.takeover_level; }
FILE *hub_log(const hub *h) { return h->cfg.log ? h->cfg.log : stderr; }

/* 128 random bits as hex (getrandom, or from the test seed). */
static void random_hex(hub *h, char out[HUB_CODE])
{
    uint64_t w[2];
    if (h->cfg.test_seed) {
        w[0] = pl_mix64(h->seed_next++ ^ 0x5a5a5a5a5a5a5a5aull);
        w[1] = pl_mix64(w[0] + 0x9e3779b97f4a7c15ull);
    } else {
        size_t got = 0;
        while (got < sizeof w) {
            ssize_t n = getrandom((char *)w + got, sizeof w - got, 0);
            if (n > 0)
                got += (size_t)n;
        }
    }
    snprintf(out, HUB_CODE, "%016" PRIx64 "%016" PRIx64, w[0], w[1]);
}

static uint64_t random_seed(hub *h)
{
    if (h->cfg.test_seed)
        return h->cfg.test_seed + h->seed_next++;
    uint64_t s = 0;
    size_t got = 0;
    while (got < sizeof s) {
        ssize_t n = getrandom((char *)&s + got, sizeof s - got, 0);
        if (n > 0)
            got += (size_t)n;
    }
    return s >> 1; /* 63 bits: the seed= option takes 0 .. INT64_MAX */
}

static size_t code_hash(const char *s)
{
    return (size_t)pl_hash_str(s);
}

/* ---- messages -------------------------------------------------------------- */

/* The batch id a message about the world must wait for now (0: none). */
static uint64_t hold_tag(const hub *h)
{
    const hub_batchp *n = h->next;
    if (n && (n->b.nrooms || n->b.nactions || n->b.nfinished || n->ncfg))
        return h->batch_seq;
    return h->inflight;
}

static hub_msg *queue_msg(hub *h, uint64_t conn, char *text, int close, uint64_t tag, hub_room *room, int history)
{
    hub_msg *m = pl_calloc(1, sizeof *m);
    if (!m) {
        pl_free(text);
        return NULL;
    }
    m->o.conn = conn;
    m->o.text = text;
    m->o.len = strlen(text);
    m->o.close = close;
    m->tag = tag;
    m->room = room;
    m->history = history;
    if (tag) {
        if (h->held_tail)
            h->held_tail->next = m;
        else
            h->held = m;
        h->held_tail = m;
    } else {
        if (h->ready_tail)
            h->ready_tail->next = m;
        else
            h->ready = m;
        h->ready_tail = m;
    }
    return m;
}

/* `j` (stolen) as compact JSON with sorted keys (pl_json_dump: jansson's
 * text, faster); NULL when memory ran out. Owned by the caller (pl_free). */
static char *dump(json_t *j)
{
    pl_buf b = {0};
    int rc = j ? pl_json_dump(j, &b) : -1;
    json_decref(j);
    if (rc < 0 || !b.s) {
        pl_buf_free(&b);
        return NULL;
    }
    return b.s;
}

/* Queues the message `text` (owned from here; NULL: nothing) of type
 * `type`: those that carry a room's history, and the `accepted` that
 * answers an act, are marked as such (hub_msg.history, hub_out.answers). */
static void send_text(hub *h, uint64_t conn, char *text, const char *type, uint64_t tag, hub_room *room)
{
    if (!text)
        return;
    int history = !strcmp(type, "state") || !strcmp(type, "accepted") || !strcmp(type, "reading") ||
                  !strcmp(type, "kana");
    hub_msg *m = queue_msg(h, conn, text, 0, tag, room, history);
    if (m)
        m->o.answers = !strcmp(type, "accepted");
}

static void send_tagged(hub *h, uint64_t conn, json_t *j, uint64_t tag, hub_room *room)
{
    if (!j)
        return;
    char type[16] = "";
    const char *t = json_string_value(json_object_get(j, "type"));
    if (t && strlen(t) < sizeof type)
        strcpy(type, t); /* dump frees j, and t with it */
    send_text(h, conn, dump(j), type, tag, room);
}

#ifndef NDEBUG
/* Debug builds: `text` is exactly jansson's compact, sorted text of `j`
 * (stolen), as for every message made by hand below. */
static void same_as_jansson(const char *text, json_t *j)
{
    char *want = dump(j);
    assert(!text || !want || !strcmp(text, want));
    pl_free(want);
}
#endif

/* {"error":code,"message":…,"request":…|null,"type":"error"}, or with
 * `reason` (not NULL) the `illegal` form with "reason" after "message";
 * written directly (an error per bad message: no JSON tree built and
 * dumped). NULL when a text is not UTF-8 or memory ran out. */
static char *error_text(const char *code, const char *message, const char *reason, const char *request)
{
    pl_buf b = {0};
    int bad = 0;
    pl_buf_puts(&b, "{\"error\":");
    bad |= pl_json_put_string(&b, code);
    pl_buf_puts(&b, ",\"message\":");
    bad |= pl_json_put_string(&b, message);
    if (reason) {
        pl_buf_puts(&b, ",\"reason\":");
        bad |= pl_json_put_string(&b, reason);
    }
    pl_buf_puts(&b, ",\"request\":");
    if (request)
        bad |= pl_json_put_string(&b, request);
    else
        pl_buf_puts(&b, "null");
    pl_buf_puts(&b, ",\"type\":\"error\"}");
    if (bad || b.oom) {
        pl_buf_free(&b);
        return NULL;
    }
#ifndef NDEBUG
    same_as_jansson(b.s, reason ? json_pack("{s:s, s:s, s:s, s:s, s:s}", "type", "error", "error", code, "message",
                                            message, "request", request, "reason", reason)
                                : json_pack("{s:s, s:s, s:s, s:o}", "type", "error", "error", code, "message",
                                            message, "request", request ? json_string(request) : json_null()));
#endif
    return b.s;
}

void hub_send(hub *h, uint64_t conn, json_t *j)
{
    hub_conn *c = hub_conn_get(h, conn);
    send_tagged(h, conn, j, hold_tag(h), c ? c->room : NULL);
}

/* Released now: lobby answers that tell nothing of a room. */
static void send_now(hub *h, uint64_t conn, json_t *j)
{
    send_tagged(h, conn, j, 0, NULL);
}

void hub_error(hub *h, uint64_t conn, const char *code, const char *request, const char *fmt, ...)
{
    pl_buf b = {0};
    va_list ap;
    va_start(ap, fmt);
    pl_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    char *text = error_text(code, pl_buf_str(&b), NULL, request);
    pl_buf_free(&b);
    h->st.errors++;
    send_text(h, conn, text, "error", 0, NULL);
}

/* An `illegal` error for an act: `message` the game's whole text (the reason
 * and the legal actions), `reason` the reason alone (docs/web-protocol.md). */
static void hub_error_illegal(hub *h, uint64_t conn, const char *message, const char *reason)
{
    char *text = error_text("illegal", message, reason, "act");
    if (!text) { /* out of memory: the plain error */
        hub_error(h, conn, "illegal", "act", "%s", message);
        return;
    }
    h->st.errors++;
    send_text(h, conn, text, "error", 0, NULL);
}

/* Moves the held messages of batch `tag` (and older) to the ready queue. */
static void release(hub *h, uint64_t tag)
{
    hub_msg **pp = &h->held, *prev = NULL;
    while (*pp) {
        hub_msg *m = *pp;
        if (m->tag <= tag) {
            *pp = m->next;
            if (h->held_tail == m)
                h->held_tail = prev;
            m->next = NULL;
            m->tag = 0;
            if (h->ready_tail)
                h->ready_tail->next = m;
            else
                h->ready = m;
            h->ready_tail = m;
        } else {
            prev = m;
            pp = &m->next;
        }
    }
}

/* Drops the held messages about room `r`: all of them (`all`), or those
 * that tell its history (taken back). */
static void drop_held(hub *h, const hub_room *r, int all)
{
    hub_msg **pp = &h->held, *prev = NULL;
    while (*pp) {
        hub_msg *m = *pp;
        if (m->room == r && (all || m->history)) {
            *pp = m->next;
            if (h->held_tail == m)
                h->held_tail = prev;
            pl_free(m->o.text);
            pl_free(m);
        } else {
            prev = m;
            pp = &m->next;
        }
    }
}

int hub_out_next(hub *h, hub_out *o)
{
    hub_msg *m = h->ready;
    if (!m)
        return 0;
    h->ready = m->next;
    if (!h->ready)
        h->ready_tail = NULL;
    *o = m->o;
    pl_free(m);
    h->st.messages_out++;
    return 1;
}

/* ---- connections ----------------------------------------------------------- */

hub_conn *hub_conn_get(hub *h, uint64_t id)
{
    uint64_t slot = (id & 0xffffffffu);
    if (!id || slot == 0 || slot > (uint64_t)h->nconns)
        return NULL;
    hub_conn *c = &h->conns[slot - 1];
    return c->id == id ? c : NULL;
}

/* ---- rooms: lookup --------------------------------------------------------- */

static hub_room *room_find(hub *h, const char *code)
{
    if (!h->tcap)
        return NULL;
    for (size_t i = code_hash(code) & (h->tcap - 1);; i = (i + 1) & (h->tcap - 1)) {
        hub_room *r = h->table[i];
        if (!r)
            return NULL;
        if (!strcmp(r->code, code))
            return r;
    }
}

static void table_put(hub_room **t, size_t cap, hub_room *r)
{
    size_t i = code_hash(r->code) & (cap - 1);
    while (t[i])
        i = (i + 1) & (cap - 1);
    t[i] = r;
}

static void table_rebuild(hub *h, size_t cap)
{
    hub_room **t = pl_calloc(cap, sizeof *t);
    if (!t)
        return;
    for (int i = 0; i < h->nrooms; i++)
        table_put(t, cap, h->rooms[i]);
    pl_free(h->table);
    h->table = t;
    h->tcap = cap;
}

/* Adds `r` to the hub; 0 or -1 (no memory). */
static int room_add(hub *h, hub_room *r)
{
    if (h->nrooms == h->caprooms) {
        int cap = h->caprooms ? h->caprooms * 2 : 16;
        hub_room **a = pl_realloc(h->rooms, sizeof *a * (size_t)cap);
        if (!a)
            return -1;
        h->rooms = a;
        h->caprooms = cap;
    }
    if ((size_t)(h->nrooms + 1) * 2 > h->tcap) {
        table_rebuild(h, h->tcap ? h->tcap * 2 : 64);
        if ((size_t)(h->nrooms + 1) * 2 > h->tcap)
            return -1;
    }
    r->idx = h->nrooms;
    h->rooms[h->nrooms++] = r;
    table_put(h->table, h->tcap, r);
    h->st.rooms++;
    return 0;
}

/* Frees each of `p[0..n)` once (entry_make shares equal strings). */
static void free_shared(char **p, int n)
{
    for (int v = 0; v < n; v++) {
        int seen = 0;
        for (int w = 0; w < v && !seen; w++)
            seen = p[w] == p[v];
        if (!seen)
            pl_free(p[v]);
    }
}

static void entry_free(hub_entry *e)
{
    free_shared(e->text, PL_MAX_SEATS + 1);
    free_shared(e->said, PL_MAX_SEATS + 1);
    free_shared(e->events, PL_MAX_SEATS + 1);
    memset(e, 0, sizeof *e);
}

static void room_free(hub_room *r)
{
    if (!r)
        return;
    if (r->m)
        for (int i = 0; i < r->m->nhist && r->ent; i++)
            entry_free(&r->ent[i]);
    pl_free(r->ent);
    for (int s = 0; s < PL_MAX_SEATS; s++)
        pl_free(r->seats[s].level);
    hubk_free(r);
    for (int k = 0; k <= PL_MAX_SEATS; k++)
        pl_buf_free(&r->vbuf[k]);
    pl_match_free(r->m);
    pl_free(r->options_json);
    pl_free(r->members);
    pl_free(r);
}

/* ---- timers: a min-heap of rooms by due time ------------------------------- */

static void heap_down(hub *h, int i)
{
    for (;;) {
        int l = 2 * i + 1, m = i;
        if (l < h->nheap && h->heap[l].at < h->heap[m].at)
            m = l;
        if (l + 1 < h->nheap && h->heap[l + 1].at < h->heap[m].at)
            m = l + 1;
        if (m == i)
            return;
        hub_wake t = h->heap[i];
        h->heap[i] = h->heap[m];
        h->heap[m] = t;
        i = m;
    }
}

static void heap_build(hub *h)
{
    for (int i = h->nheap / 2 - 1; i >= 0; i--)
        heap_down(h, i);
}

static void heap_push(hub *h, int64_t at, hub_room *r)
{
    if (h->nheap == h->capheap) {
        int cap = h->capheap ? h->capheap * 2 : 64;
        hub_wake *a = pl_realloc(h->heap, sizeof *a * (size_t)cap);
        if (!a)
            return; /* no memory: the room's timer is late until its next change */
        h->heap = a;
        h->capheap = cap;
    }
    int i = h->nheap++;
    h->heap[i] = (hub_wake){at, r};
    while (i > 0 && h->heap[(i - 1) / 2].at > h->heap[i].at) {
        hub_wake t = h->heap[i];
        h->heap[i] = h->heap[(i - 1) / 2];
        h->heap[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static void heap_pop(hub *h)
{
    h->heap[0] = h->heap[--h->nheap];
    heap_down(h, 0);
}

static int64_t room_next(const hub_room *r);

/* Registers when room `r` is next due (after any change of it). */
static void room_rewake(hub *h, hub_room *r)
{
    int64_t t = room_next(r);
    if (r->kar) {
        int64_t k = hubk_tick(h, r, INT64_MIN);
        if (k < t)
            t = k;
    }
    if (t == r->wake_ms)
        return;
    r->wake_ms = t;
    if (t != INT64_MAX)
        heap_push(h, t, r);
}

/* Removes `r` from the hub and frees it (a room whose creation failed). */
static void room_remove(hub *h, hub_room *r)
{
    h->rooms[r->idx] = h->rooms[--h->nrooms];
    h->rooms[r->idx]->idx = r->idx;
    /* out of the table: linear probing's deletion, the entries after it
     * moved back where their probe would look for them */
    size_t mask = h->tcap - 1, i = code_hash(r->code) & mask;
    while (h->table[i] != r)
        i = (i + 1) & mask;
    h->table[i] = NULL;
    for (size_t j = (i + 1) & mask; h->table[j]; j = (j + 1) & mask) {
        size_t k = code_hash(h->table[j]->code) & mask; /* where it wants to be */
        int between = i <= j ? (i < k && k <= j) : (i < k || k <= j);
        if (!between) {
            h->table[i] = h->table[j];
            h->table[j] = NULL;
            i = j;
        }
    }
    int keep = 0; /* its timers go (the heap is rebuilt) */
    for (int n = 0; n < h->nheap; n++)
        if (h->heap[n].r != r)
            h->heap[keep++] = h->heap[n];
    h->nheap = keep;
    heap_build(h);
    for (int n = 0; n < r->nmembers; n++) {
        hub_conn *c = hub_conn_get(h, r->members[n]);
        if (c && c->room == r)
            c->room = NULL;
    }
    drop_held(h, r, 1);
    room_free(r);
}

static int member_add(hub_room *r, uint64_t conn)
{
    for (int i = 0; i < r->nmembers; i++)
        if (r->members[i] == conn)
            return 0;
    if (r->nmembers == r->capmembers) {
        int cap = r->capmembers ? r->capmembers * 2 : 8;
        uint64_t *a = pl_realloc(r->members, sizeof *a * (size_t)cap);
        if (!a)
            return -1;
        r->members = a;
        r->capmembers = cap;
    }
    r->members[r->nmembers++] = conn;
    return 0;
}

static void member_del(hub_room *r, uint64_t conn)
{
    for (int i = 0; i < r->nmembers; i++)
        if (r->members[i] == conn) {
            r->members[i] = r->members[--r->nmembers];
            return;
        }
}

int hub_seat_owner(const hub_room *r, int s)
{
    return r->seats[s].kind == HUB_SEAT_PARTNER ? r->seats[s].of : s;
}

int hub_seat_is_ai(const hub_room *r, int s)
{
    const hub_seat *t = &r->seats[hub_seat_owner(r, s)];
    return t->kind == HUB_SEAT_AI || t->covered || t->out_of_time;
}

/* Every person seat has been taken once: the game runs. */
static int room_started(const hub_room *r)
{
    for (int s = 0; s < r->nseats; s++)
        if (r->seats[s].kind == HUB_SEAT_PERSON && !r->seats[s].token[0])
            return 0;
    return 1;
}

static int room_over(const hub_room *r)
{
    return r->game->phase(r->m->state) == PL_PHASE_OVER;
}

/* ---- AI players ------------------------------------------------------------- */

/* Level names of `g`: its table's, then the generic ones it leaves out. */
static int level_known(const pl_game *g, const char *level)
{
    static const char *const generic[] = {"easy", "medium", "hard"};
    for (const pl_level *l = g->levels; l && l->name; l++)
        if (!strcmp(l->name, level))
            return 1;
    for (size_t i = 0; i < sizeof generic / sizeof *generic; i++)
        if (!strcmp(generic[i], level))
            return 1;
    return 0;
}

static void levels_list(const pl_game *g, pl_buf *out)
{
    static const char *const generic[] = {"easy", "medium", "hard"};
    int n = 0;
    for (const pl_level *l = g->levels; l && l->name; l++)
        pl_buf_printf(out, "%s%s", n++ ? ", " : "", l->name);
    for (size_t i = 0; i < sizeof generic / sizeof *generic; i++) {
        int have = 0;
        for (const pl_level *l = g->levels; l && l->name; l++)
            have |= !strcmp(l->name, generic[i]);
        if (!have)
            pl_buf_printf(out, "%s%s", n++ ? ", " : "", generic[i]);
    }
}

const ai_player *hub_player(hub *h, const pl_game *g, const char *level, pl_buf *err)
{
    for (int i = 0; i < h->nais; i++)
        if (h->ais[i].g == g && !strcmp(h->ais[i].level, level))
            return h->ais[i].p;
    if (!level_known(g, level)) {
        pl_buf_printf(err, "unknown level '%s' for %s; levels: ", level, g->id);
        levels_list(g, err);
        return NULL;
    }
    ai_player *p = ai_player_new(g, level, err);
    if (!p)
        return NULL;
    hub_ai *a = pl_realloc(h->ais, sizeof *a * (size_t)(h->nais + 1));
    char *copy = pl_strdup(level);
    if (!a || !copy) {
        if (a)
            h->ais = a;
        pl_free(copy);
        ai_player_free(p);
        pl_buf_puts(err, "out of memory");
        return NULL;
    }
    h->ais = a;
    h->ais[h->nais++] = (hub_ai){g, copy, p};
    return p;
}

/* ---- hub ------------------------------------------------------------------- */

hub *hub_new(const hub_config *cfg, pl_buf *err)
{
    pl_json_setup();
    hub *h = pl_calloc(1, sizeof *h);
    if (!h) {
        pl_buf_puts(err, "out of memory");
        return NULL;
    }
    if (cfg)
        h->cfg = *cfg;
    if (h->cfg.rate_per_s <= 0)
        h->cfg.rate_per_s = 20;
    if (h->cfg.rate_burst <= 0)
        h->cfg.rate_burst = 60;
    if (h->cfg.replay_burst <= 0)
        h->cfg.replay_burst = 10000;
    if (h->cfg.replay_rate <= 0)
        h->cfg.replay_rate = 2000;
    if (h->cfg.grace_s <= 0)
        h->cfg.grace_s = 60;
    if (h->cfg.max_rooms <= 0)
        h->cfg.max_rooms = 100000;
    if (h->cfg.max_conns <= 0)
        h->cfg.max_conns = 200000;
    if (!h->cfg.takeover_level || !*h->cfg.takeover_level)
        h->cfg.takeover_level = "medium";
    if (h->cfg.cluster)
        h->cfg.on_demand = 1;
    h->batch_seq = 1;
    h->job_seq = 1;
    return h;
}

static void batch_free_inner(hub_batchp *p);

void hub_free(hub *h)
{
    if (!h)
        return;
    for (int i = 0; i < h->nrooms; i++)
        room_free(h->rooms[i]);
    pl_free(h->rooms);
    pl_free(h->table);
    for (int i = 0; i < h->nconns; i++)
        pl_free(h->conns[i].up);
    pl_free(h->conns);
    pl_free(h->freeslots);
    for (hub_msg *m = h->ready, *n; m; m = n) {
        n = m->next;
        pl_free(m->o.text);
        pl_free(m);
    }
    for (hub_msg *m = h->held, *n; m; m = n) {
        n = m->next;
        pl_free(m->o.text);
        pl_free(m);
    }
    if (h->next)
        batch_free_inner(h->next);
    for (hub_jobp *j = h->jobs, *n; j; j = n) {
        n = j->next;
        hub_job_free(&j->j);
    }
    for (int i = 0; i < h->nais; i++) {
        ai_player_free(h->ais[i].p);
        pl_free(h->ais[i].level);
    }
    pl_free(h->ais);
    for (int i = 0; i < h->ntables; i++)
        h->tables[i].g->tables->free(h->tables[i].t);
    pl_free(h->tables);
    pl_free(h->heap);
    for (int i = 0; i < h->npend; i++)
        pl_free(h->pend[i].msg);
    pl_free(h->pend);
    hub_lobby_free(h->lobby);
    pl_free(h);
}

void hub_get_stats(const hub *h, hub_stats *out)
{
    *out = h->st;
    out->conns = h->live_conns;
    out->rooms = (uint64_t)h->nrooms;
}

/* ---- storage queue ----------------------------------------------------------- */

static hub_batchp *next_batch(hub *h)
{
    if (!h->next)
        h->next = pl_calloc(1, sizeof *h->next);
    return h->next;
}

static int grow(void **p, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return 0;
    int cap2 = *cap ? *cap * 2 : 8;
    while (cap2 < need)
        cap2 *= 2;
    void *q = pl_realloc(*p, size * (size_t)cap2);
    if (!q)
        return -1;
    *p = q;
    *cap = cap2;
    return 0;
}

/* The room's configuration as stored (docs/web-protocol.md, "Storage"). */
static char *room_config(const hub_room *r)
{
    json_t *seats = json_array();
    for (int s = 0; s < r->nseats; s++) {
        const hub_seat *t = &r->seats[s];
        if (t->kind == HUB_SEAT_AI)
            json_array_append_new(seats, json_pack("{s:s, s:s}", "kind", "ai", "level", t->level));
        else if (t->kind == HUB_SEAT_PARTNER)
            json_array_append_new(seats, json_pack("{s:s, s:i}", "kind", "partner", "of", t->of));
        else
            json_array_append_new(seats, json_pack("{s:s, s:s, s:s}", "kind", "person", "name", t->name,
                                                   "token", t->token));
    }
    json_t *j = json_pack("{s:o, s:i, s:i, s:i, s:b}", "seats", seats, "grace_s", r->grace_s, "move_s",
                          r->move_s, "total_s", r->total_s, "public", r->public_);
    return j ? dump(j) : NULL;
}

static void queue_room(hub *h, hub_room *r)
{
    hub_batchp *p = next_batch(h);
    char *cfg = room_config(r);
    if (!p || !cfg || grow((void **)&p->b.rooms, &p->caprooms, p->b.nrooms + 1, sizeof *p->b.rooms) < 0) {
        pl_free(cfg);
        return;
    }
    p->b.rooms[p->b.nrooms++] = (store_room){.code = dupn(r->code), .game = dupn(r->game->id),
                                             .options = dupn(r->options_json), .config = cfg,
                                             .seed = r->m->seed, .created_ms = r->created_ms};
}

/* Queues the room's current configuration (seats joined). */
static void queue_config(hub *h, hub_room *r)
{
    hub_batchp *p = next_batch(h);
    if (!p)
        return;
    char *cfg = room_config(r);
    if (!cfg)
        return;
    for (int i = 0; i < p->b.nrooms; i++) /* a room still in the batch: replace its config */
        if (!strcmp(p->b.rooms[i].code, r->code)) {
            pl_free((char *)p->b.rooms[i].config);
            p->b.rooms[i].config = cfg;
            return;
        }
    for (int i = 0; i < p->ncfg; i++)
        if (!strcmp(p->cfg_codes[i], r->code)) {
            pl_free(p->cfg_texts[i]);
            p->cfg_texts[i] = cfg;
            return;
        }
    int c1 = p->capcfg, c2 = p->capcfg;
    if (grow((void **)&p->cfg_codes, &c1, p->ncfg + 1, sizeof(char *)) < 0 ||
        grow((void **)&p->cfg_texts, &c2, p->ncfg + 1, sizeof(char *)) < 0) {
        pl_free(cfg);
        return;
    }
    p->capcfg = c1 < c2 ? c1 : c2;
    p->cfg_codes[p->ncfg] = dupn(r->code);
    p->cfg_texts[p->ncfg++] = cfg;
}

static int queue_action(hub *h, hub_room *r, int seq, int seat, const char *text, uint64_t sender)
{
    hub_batchp *p = next_batch(h);
    if (!p)
        return -1;
    int cap = p->capactions;
    if (grow((void **)&p->b.actions, &cap, p->b.nactions + 1, sizeof *p->b.actions) < 0)
        return -1;
    int cap2 = p->capactions;
    if (grow((void **)&p->senders, &cap2, p->b.nactions + 1, sizeof *p->senders) < 0)
        return -1;
    p->capactions = cap < cap2 ? cap : cap2;
    p->b.actions[p->b.nactions] =
        (store_action){.room = dupn(r->code), .seq = seq, .seat = seat, .text = dupn(text), .at_ms = h->now};
    p->senders[p->b.nactions++] = sender;
    return 0;
}

static json_t *result_json(const hub_room *r)
{
    if (!room_over(r))
        return json_null();
    pl_outcome o;
    memset(&o, 0, sizeof o);
    r->game->outcome(r->m->state, &o);
    json_t *score = json_array();
    for (int s = 0; s < o.nseats && s < PL_MAX_SEATS; s++)
        json_array_append_new(score, json_integer(o.score[s]));
    const char *kind = o.kind == PL_WIN_SEAT ? "seat" : o.kind == PL_WIN_TEAM ? "team" : "draw";
    return json_pack("{s:s, s:o, s:o}", "kind", kind, "winner",
                     o.kind == PL_WIN_DRAW ? json_null() : json_integer(o.winner), "score", score);
}

static void queue_finish(hub *h, hub_room *r)
{
    if (r->finished_queued)
        return;
    hub_batchp *p = next_batch(h);
    if (!p)
        return;
    int c1 = p->capfinished, c2 = p->capfinished;
    if (grow((void **)&p->b.finished, &c1, p->b.nfinished + 1, sizeof(char *)) < 0 ||
        grow((void **)&p->b.results, &c2, p->b.nfinished + 1, sizeof(char *)) < 0)
        return;
    p->capfinished = c1 < c2 ? c1 : c2;
    p->b.finished[p->b.nfinished] = dupn(r->code);
    p->b.results[p->b.nfinished++] = dump(result_json(r));
    r->finished_queued = 1;
}

static void loaded_clear(hub_loaded *l)
{
    pl_free((char *)l->room.code);
    pl_free((char *)l->room.game);
    pl_free((char *)l->room.options);
    pl_free((char *)l->room.config);
    for (int i = 0; i < l->nacts; i++) {
        pl_free((char *)l->acts[i].room);
        pl_free((char *)l->acts[i].text);
    }
    pl_free(l->acts);
    pl_free(l->msg);
    memset(&l->room, 0, sizeof l->room);
    l->acts = NULL;
    l->nacts = l->capacts = 0;
    l->msg = NULL;
}

static void batch_free_inner(hub_batchp *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->b.nrooms; i++) {
        pl_free((char *)p->b.rooms[i].code);
        pl_free((char *)p->b.rooms[i].game);
        pl_free((char *)p->b.rooms[i].options);
        pl_free((char *)p->b.rooms[i].config);
    }
    for (int i = 0; i < p->b.nactions; i++) {
        pl_free((char *)p->b.actions[i].room);
        pl_free((char *)p->b.actions[i].text);
    }
    for (int i = 0; i < p->b.nfinished; i++) {
        pl_free(p->b.finished[i]);
        pl_free(p->b.results[i]);
    }
    for (int i = 0; i < p->ncfg; i++) {
        pl_free(p->cfg_codes[i]);
        pl_free(p->cfg_texts[i]);
    }
    for (int i = 0; i < p->nloads; i++)
        loaded_clear(&p->loads[i]);
    for (int i = 0; i < p->ndrops; i++)
        pl_free(p->drops[i]);
    for (int i = 0; i < p->nlost; i++)
        pl_free(p->lost[i]);
    pl_free(p->loads);
    pl_free(p->drops);
    pl_free(p->lost);
    pl_free(p->b.rooms);
    pl_free(p->b.actions);
    pl_free(p->b.finished);
    pl_free(p->b.results);
    pl_free(p->senders);
    pl_free(p->cfg_codes);
    pl_free(p->cfg_texts);
    pl_free(p);
}

void hub_batch_free(hub_batch *b)
{
    batch_free_inner((hub_batchp *)b);
}

int hub_store_pending(const hub *h)
{
    const hub_batchp *p = h->next;
    return h->inflight || !p ? 0 : p->b.nrooms + p->b.nactions + p->b.nfinished;
}

hub_batch *hub_store_take(hub *h)
{
    if (h->inflight)
        return NULL;
    hub_batchp *p = h->next;
    if (!p || !(p->b.nrooms || p->b.nactions || p->b.nfinished || p->ncfg || p->nloads || p->ndrops)) {
        release(h, h->batch_seq); /* nothing to wait for */
        return NULL;
    }
    h->next = NULL;
    p->cluster = h->cfg.cluster;
    p->b.id = h->batch_seq++;
    h->inflight = p->b.id;
    return &p->b;
}

/* ---- cluster writes and loads (issue 17, docs/cluster.md) ----------------------- */

static int lost_has(const hub_batchp *p, const char *code)
{
    for (int i = 0; i < p->nlost; i++)
        if (!strcmp(p->lost[i], code))
            return 1;
    return 0;
}

/* Notes room `code` as lost (its writes left out). 0, or -1 out of memory. */
static int lost_add(hub_batchp *p, const char *code, pl_buf *err)
{
    char *c = pl_strdup(code);
    if (!c || grow((void **)&p->lost, &p->caplost, p->nlost + 1, sizeof *p->lost) < 0) {
        pl_free(c);
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    p->lost[p->nlost++] = c;
    return 0;
}

/* After a write of room `code` that returned rc: STORE_LOST notes the room
 * as lost (its later writes are left out) and gives 1, another failure -1,
 * success 0. */
static int lost_check(hub_batchp *p, int rc, const char *code, pl_buf *err)
{
    if (rc != STORE_LOST)
        return rc < 0 ? -1 : 0;
    pl_buf_clear(err);
    return lost_add(p, code, err) < 0 ? -1 : 1;
}

/* The writes of a cluster's batch: as in one process, but a new room's
 * lease is taken as it is stored, a finished room's dropped, and a write
 * refused with STORE_LOST leaves its room's writes out (noted in p->lost)
 * while the others' go on. 0, or -1 with a message. */
static int batch_write_cluster(store *s, hub_batchp *p, pl_buf *err)
{
    hub_batch *b = &p->b;
    for (int i = 0; i < b->nrooms; i++) {
        if (store_room_put(s, &b->rooms[i], err) < 0)
            return -1;
        int rc = store_lease_take(s, b->rooms[i].code, NULL, err);
        if (rc < 0)
            return -1;
        if (rc == 0 && lost_add(p, b->rooms[i].code, err) < 0) /* a new room leased elsewhere: cannot be */
            return -1;
    }
    for (int i = 0; i < p->ncfg; i++) {
        if (lost_has(p, p->cfg_codes[i]))
            continue;
        if (lost_check(p, store_room_config(s, p->cfg_codes[i], p->cfg_texts[i], err), p->cfg_codes[i], err) < 0)
            return -1;
    }
    store_action *keep = b->nactions ? pl_malloc(sizeof *keep * (size_t)b->nactions) : NULL;
    if (b->nactions && !keep) {
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    for (;;) { /* at most one more round per room lost */
        int k = 0;
        for (int i = 0; i < b->nactions; i++)
            if (!lost_has(p, b->actions[i].room))
                keep[k++] = b->actions[i];
        int rc = store_append(s, keep, k, err);
        if (rc == STORE_LOST) {
            const char *code = store_lost_room(s);
            pl_buf_clear(err);
            if (code && *code && !lost_has(p, code) && lost_add(p, code, err) == 0)
                continue;
            if (!err->len)
                pl_buf_printf(err, "a write was refused as lost for room '%s' twice", code ? code : "");
            rc = -1;
        }
        pl_free(keep);
        if (rc < 0)
            return -1;
        break;
    }
    for (int i = 0; i < b->nfinished; i++) {
        if (lost_has(p, b->finished[i]))
            continue;
        int rc = lost_check(p, store_finish(s, b->finished[i], b->results[i], err), b->finished[i], err);
        if (rc < 0)
            return -1;
        if (rc) /* lost: another process finishes it */
            continue;
        pl_buf e = {0}; /* read-only from now on: any process may load it */
        if (store_lease_drop(s, b->finished[i], &e) < 0)
            fprintf(stderr, "parlour serve: lease of %s: %s\n", b->finished[i], pl_buf_str(&e));
        pl_buf_free(&e);
    }
    return 0;
}

static int load_room_cb(void *ctx, const store_room *r, int finished, const char *result)
{
    (void)result;
    hub_loaded *l = ctx;
    l->room = (store_room){.code = pl_strdup(r->code), .game = pl_strdup(r->game), .options = pl_strdup(r->options),
                           .config = pl_strdup(r->config), .seed = r->seed, .created_ms = r->created_ms};
    l->finished = finished;
    return l->room.code && l->room.game && l->room.options && l->room.config ? 0 : -1;
}

static int load_action_cb(void *ctx, const store_action *a)
{
    hub_loaded *l = ctx;
    if (grow((void **)&l->acts, &l->capacts, l->nacts + 1, sizeof *l->acts) < 0)
        return -1;
    store_action *c = &l->acts[l->nacts++];
    *c = *a;
    c->room = pl_strdup(a->room);
    c->text = pl_strdup(a->text);
    return c->room && c->text ? 0 : -1;
}

/* Reads room l->code for the hub: the room, its lease when it is not
 * finished (cluster), its actions. The outcome goes in l->status. */
static void batch_load(store *s, const hub_batchp *p, hub_loaded *l)
{
    pl_buf err = {0};
    int rc = store_room_get(s, l->code, load_room_cb, l, &err);
    if (rc == 1) {
        l->status = HUB_LOAD_MISSING;
        goto done;
    }
    if (rc != 0)
        goto fail;
    if (p->cluster && !l->finished) {
        pl_buf holder = {0};
        rc = store_lease_take(s, l->code, &holder, &err);
        if (rc == 0) {
            l->status = HUB_LOAD_BUSY;
            l->msg = pl_strdup(pl_buf_str(&holder));
            pl_buf_free(&holder);
            goto done;
        }
        pl_buf_free(&holder);
        if (rc < 0)
            goto fail;
    }
    if (store_actions(s, l->code, load_action_cb, l, &err) != 0)
        goto fail;
    l->status = HUB_LOAD_OK;
    goto done;
fail:
    l->status = HUB_LOAD_ERROR;
    l->msg = pl_strdup(err.len ? pl_buf_str(&err) : "out of memory");
done:
    if (l->status != HUB_LOAD_OK) { /* only the outcome travels back */
        char *msg = l->msg;
        l->msg = NULL;
        loaded_clear(l);
        l->msg = msg;
    }
    pl_buf_free(&err);
}

int hub_batch_write(store *s, hub_batch *b, pl_buf *err)
{
    hub_batchp *p = (hub_batchp *)b;
    if (!p->cluster) {
        for (int i = 0; i < b->nrooms; i++)
            if (store_room_put(s, &b->rooms[i], err) < 0)
                return -1;
        for (int i = 0; i < p->ncfg; i++)
            if (store_room_config(s, p->cfg_codes[i], p->cfg_texts[i], err) < 0)
                return -1;
        if (store_append(s, b->actions, b->nactions, err) < 0)
            return -1;
        for (int i = 0; i < b->nfinished; i++)
            if (store_finish(s, b->finished[i], b->results[i], err) < 0)
                return -1;
    } else if (batch_write_cluster(s, p, err) < 0)
        return -1;
    for (int i = 0; i < p->ndrops; i++) { /* idle rooms let go: another process may take them at once */
        pl_buf e = {0};
        if (store_lease_drop(s, p->drops[i], &e) < 0)
            fprintf(stderr, "parlour serve: lease of %s: %s\n", p->drops[i], pl_buf_str(&e));
        pl_buf_free(&e);
    }
    for (int i = 0; i < p->nloads; i++)
        batch_load(s, p, &p->loads[i]);
    return 0;
}

/* ---- history entries ------------------------------------------------------------ */

/* What a spectator may read of one action, given what each seat reads
 * (`by_seat[v]` for seat v): the text the seats that did not play it all
 * read, else `otherwise`. (The games' format_action_for and describe take
 * viewer -1 for "everything", not for a spectator.) */
static const char *spectator_view(char *const *by_seat, int nseats, int actor, const char *otherwise)
{
    const char *common = NULL;
    for (int v = 0; v < nseats; v++) {
        if (v == actor)
            continue;
        if (!common)
            common = by_seat[v];
        else if (strcmp(common, by_seat[v]))
            return otherwise;
    }
    return common ? common : otherwise;
}

/* `text` as an entry's string: the pointer of the first of `have[0..n)`
 * equal to it (the viewers of a game that hides nothing mostly read the same
 * words, and "" is common), else a copy; NULL when memory ran out. */
static char *share_or_dup(char *const *have, int n, const char *text)
{
    for (int i = 0; i < n; i++)
        if (have[i] && !strcmp(have[i], text))
            return have[i];
    return dupn(text);
}

/* Works out the entry of the action `seat` played from `before` to `after`:
 * its text and description for each seat, and for a spectator (index 0):
 * in a game without hidden information what everyone reads (viewer -1);
 * else what every seat but the actor reads, "?" (text) or "" (said) when
 * they read different things (a deal: each sees his own cards). */
static int entry_make(const hub_room *r, hub_entry *e, const void *before, int seat, pl_action a,
                      const void *after)
{
    const pl_game *g = r->game;
    int hidden = (g->flags & PL_GAME_HIDDEN) != 0;
    memset(e, 0, sizeof *e);
    e->seat = seat;
    pl_buf t = {0}, d = {0}, ev = {0}, err = {0}; /* written over for each viewer */
    int bad = 0;
    for (int v = hidden ? 0 : -1; v < r->nseats && !bad; v++) {
        pl_buf_clear(&t);
        pl_buf_clear(&d);
        pl_buf_clear(&ev);
        if (g->format_action_for)
            g->format_action_for(before, seat, a, v, &t);
        else
            g->format_action(before, seat, a, &t);
        if (g->describe)
            g->describe(before, seat, a, after, v, &d);
        if (pl_events_json(g, before, seat, a, after, v, &ev, &err) < 0) {
            pl_buf_clear(&ev); /* a game's event it cannot write (not UTF-8): none, rather than no entry */
            pl_buf_puts(&ev, "[]");
        }
        e->text[v + 1] = share_or_dup(e->text, v + 1, pl_buf_str(&t));
        e->said[v + 1] = share_or_dup(e->said, v + 1, pl_buf_str(&d));
        e->events[v + 1] = share_or_dup(e->events, v + 1, pl_buf_str(&ev));
        bad = t.oom || d.oom || ev.oom || !e->text[v + 1] || !e->said[v + 1] || !e->events[v + 1];
    }
    pl_buf_free(&t);
    pl_buf_free(&d);
    pl_buf_free(&ev);
    pl_buf_free(&err);
    if (bad)
        return -1;
    if (hidden) {
        e->text[0] = share_or_dup(e->text + 1, r->nseats, spectator_view(e->text + 1, r->nseats, seat, "?"));
        e->said[0] = share_or_dup(e->said + 1, r->nseats, spectator_view(e->said + 1, r->nseats, seat, ""));
        e->events[0] =
            share_or_dup(e->events + 1, r->nseats, spectator_view(e->events + 1, r->nseats, seat, "[]"));
        if (!e->text[0] || !e->said[0] || !e->events[0])
            return -1;
    }
    return 0;
}

/* Applies a checked action to the match and records its entry. */
static int room_apply(hub_room *r, int seat, pl_action a, pl_buf *err)
{
    const pl_game *g = r->game;
    void *before = pl_malloc(g->state_size);
    if (!before || grow((void **)&r->ent, &r->capent, r->m->nhist + 1, sizeof *r->ent) < 0) {
        pl_free(before);
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    pl_state_copy(g, before, r->m->state);
    if (pl_match_play(r->m, seat, a, err) < 0) {
        pl_free(before);
        return -1;
    }
    r->version++;
    hub_entry *e = &r->ent[r->m->nhist - 1];
    if (entry_make(r, e, before, seat, a, r->m->state) < 0) {
        entry_free(e);
        pl_buf e2 = {0};
        pl_match_undo(r->m, &e2);
        pl_buf_free(&e2);
        pl_free(before);
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    pl_free(before);
    return 0;
}

/* Takes the room back to `n` actions. */
static void room_truncate(hub_room *r, int n)
{
    r->version++;
    while (r->m->nhist > n) {
        entry_free(&r->ent[r->m->nhist - 1]);
        pl_buf e = {0};
        pl_match_undo(r->m, &e);
        pl_buf_free(&e);
    }
    if (r->stored > n)
        r->stored = n;
}

/* ---- state messages ------------------------------------------------------------- */

/* Appends the fields of `seat`'s legal action `a` in `st` (pl_game.
 * action_fields) as JSON text; on failure (no memory, not UTF-8) "{}" and
 * returns 1 only when memory ran out, else 0. */
static int legal_fields(const pl_game *g, const void *st, int seat, pl_action a, pl_buf *out)
{
    pl_buf err = {0};
    int rc = pl_action_fields_json(g, st, seat, a, out, &err);
    pl_buf_free(&err);
    if (rc < 0)
        pl_buf_puts(out, "{}");
    return out->oom ? 1 : 0;
}

/* What seat `s` of `r` shows: its person (a partner seat shows the one who
 * plays it), its kind ("partner", "ai", "person" or "open") and its level
 * (a computer's, or the one that covers an absent or timed-out person;
 * NULL otherwise). */
static const hub_seat *seat_shown(const hub *h, const hub_room *r, int s, const char **kind, const char **level)
{
    int partner = r->seats[s].kind == HUB_SEAT_PARTNER;
    const hub_seat *t = &r->seats[hub_seat_owner(r, s)];
    *kind = partner ? "partner" : t->kind == HUB_SEAT_AI ? "ai" : t->token[0] ? "person" : "open";
    *level = t->kind == HUB_SEAT_AI ? t->level : (t->covered || t->out_of_time) ? h->cfg.takeover_level : NULL;
    return t;
}

static json_t *seats_json(const hub *h, const hub_room *r)
{
    json_t *a = json_array();
    for (int s = 0; s < r->nseats; s++) {
        int partner = r->seats[s].kind == HUB_SEAT_PARTNER;
        const char *kind, *level;
        const hub_seat *t = seat_shown(h, r, s, &kind, &level);
        json_array_append_new(
            a, json_pack("{s:s, s:s, s:o, s:b, s:b, s:o}", "kind", kind, "name", t->name, "level",
                         level ? json_string(level) : json_null(), "connected",
                         t->kind == HUB_SEAT_AI || t->conn != 0, "covered", t->covered || t->out_of_time, "of",
                         partner ? json_integer(r->seats[s].of) : json_null()));
    }
    return a;
}

static json_t *clock_json(const hub_room *r)
{
    if (!r->move_s && !r->total_s)
        return json_null();
    json_t *j = json_object();
    if (r->move_s) {
        json_object_set_new(j, "move_s", json_integer(r->move_s));
    }
    if (r->total_s) {
        json_t *left = json_array();
        for (int s = 0; s < r->nseats; s++)
            json_array_append_new(left, json_integer(r->seats[s].left_ms));
        json_object_set_new(j, "total_s", json_integer(r->total_s));
        json_object_set_new(j, "left_ms", left);
    }
    json_object_set_new(j, "since_ms", json_integer(r->turn_ms));
    return j;
}

static const char *room_status(const hub_room *r)
{
    return room_over(r) ? "over" : room_started(r) ? "playing" : "waiting";
}

static int visible(const hub_room *r)
{
    return r->kar ? hubk_visible(r) : r->m->nhist;
}

/* The spectator's "viewer" in compact JSON (view_text finds it once a
 * view, put_view replaces it for a seat). */
static const char spec_viewer[] = "\"viewer\":-1";

/* Whether seat `viewer`'s view is the spectator's with another "viewer": a
 * seat of a game that hides nothing (put_view). */
static int view_shared(const hub_room *r, int viewer)
{
    return viewer >= 0 && !(r->game->flags & PL_GAME_HIDDEN);
}

/* The view text of `viewer` now (pl_view_json), kept per viewer until the
 * state changes (a broadcast to several spectators, or again after a seat
 * change, makes it once), each viewer's buffer written over, not freed and
 * allocated again. For the spectator's view also where its top-level
 * `"viewer":-1` is (vat, put_view). NULL when the game has none or memory
 * ran out. */
static const char *view_text(hub_room *r, int viewer)
{
    int k = viewer + 1;
    pl_buf *v = &r->vbuf[k];
    if (v->s && r->vver[k] == r->version)
        return v->s;
    size_t last = v->len; /* the last view's length */
    pl_buf_clear(v);
    pl_buf err = {0};
    /* Room for the view twice (pl_jfields_finish writes the sorted object
     * after the fields): one allocation the first time, none once the
     * buffer has grown. */
    pl_buf_reserve(v, 2 * (last ? last : 2048) + 512);
    int ok = pl_view_json(r->game, r->m->state, viewer, v, &err) == 0 && !v->oom && v->s;
    pl_buf_free(&err);
    if (!ok) {
        pl_buf_free(v);
        return NULL;
    }
    if (!k) { /* a key's closing quote in compact JSON is never escaped: this text is the key */
        const char *at = strstr(v->s, spec_viewer);
        size_t n = sizeof spec_viewer - 1;
        r->vat = at && !strstr(at + 1, spec_viewer) && (at[n] == ',' || at[n] == '}') ? (long)(at - v->s) : -1;
    }
    r->vver[k] = r->version;
    return v->s;
}

/* Appends seat `viewer`'s view to `b` ("null" when there is none). In a
 * game that hides nothing the views differ only in their top-level
 * "viewer" (docs/web-views.md; test_unit_views checks it for every such
 * game), so a seat's is the spectator's with `"viewer":-1` replaced on the
 * way (when that text is there exactly once: else the seat's own view):
 * one view made per state, and no copy kept per seat. */
static void put_view(hub_room *r, int viewer, pl_buf *b)
{
    if (view_shared(r, viewer)) {
        const char *spec = view_text(r, -1);
        if (spec && r->vat >= 0) {
            size_t at = (size_t)r->vat, rest = at + sizeof spec_viewer - 1;
            pl_buf_append(b, spec, at);
            pl_buf_puts(b, "\"viewer\":");
            pl_json_put_int(b, viewer);
            pl_buf_append(b, spec + rest, r->vbuf[0].len - rest);
            return;
        }
    }
    const char *view = view_text(r, viewer);
    pl_buf_puts(b, view ? view : "null");
}

/* The parts of a state message that every member of a room gets alike,
 * as JSON text: made once per broadcast, not once per member. */
typedef struct hub_common {
    pl_buf seats, clock, result;
} hub_common;

/* Makes `k` for room `r` now; 0, or -1 when memory ran out. */
static int common_make(const hub *h, const hub_room *r, hub_common *k)
{
    memset(k, 0, sizeof *k);
    int bad = 0;
    pl_buf_putc(&k->seats, '['); /* seats_json's text, written directly */
    for (int s = 0; s < r->nseats; s++) {
        int partner = r->seats[s].kind == HUB_SEAT_PARTNER;
        const char *kind, *level;
        const hub_seat *t = seat_shown(h, r, s, &kind, &level);
        pl_buf_puts(&k->seats, s ? ",{\"connected\":" : "{\"connected\":");
        pl_buf_puts(&k->seats, t->kind == HUB_SEAT_AI || t->conn != 0 ? "true" : "false");
        pl_buf_puts(&k->seats, t->covered || t->out_of_time ? ",\"covered\":true,\"kind\":"
                                                            : ",\"covered\":false,\"kind\":");
        bad |= pl_json_put_string(&k->seats, kind);
        pl_buf_puts(&k->seats, ",\"level\":");
        if (level)
            bad |= pl_json_put_string(&k->seats, level);
        else
            pl_buf_puts(&k->seats, "null");
        pl_buf_puts(&k->seats, ",\"name\":");
        bad |= pl_json_put_string(&k->seats, t->name);
        pl_buf_puts(&k->seats, ",\"of\":");
        if (partner)
            pl_json_put_int(&k->seats, r->seats[s].of);
        else
            pl_buf_puts(&k->seats, "null");
        pl_buf_putc(&k->seats, '}');
    }
    pl_buf_putc(&k->seats, ']');
#ifndef NDEBUG
    if (!bad && !k->seats.oom) { /* debug builds: the text is seats_json's, byte for byte */
        pl_buf want = {0};
        json_t *sj = seats_json(h, r);
        if (sj && pl_json_dump(sj, &want) == 0)
            assert(!strcmp(pl_buf_str(&want), pl_buf_str(&k->seats)));
        json_decref(sj);
        pl_buf_free(&want);
    }
#endif
    json_t *clock = clock_json(r), *result = result_json(r);
    bad |= !clock || !result || pl_json_dump(clock, &k->clock) < 0 || pl_json_dump(result, &k->result) < 0;
    json_decref(clock);
    json_decref(result);
    return bad || k->seats.oom ? -1 : 0;
}

static void common_free(hub_common *k)
{
    pl_buf_free(&k->seats);
    pl_buf_free(&k->clock);
    pl_buf_free(&k->result);
}

/* The state message for connection `c` (seat or spectator of `r`) as text,
 * with the room's common parts `k` and, when `acc` is not NULL, the answer
 * to its act as "accepted" (act's accepted_in_state). Written piece by
 * piece in jansson's compact form with sorted keys (what dump() writes;
 * test_unit_hub checks every message against jansson's text), the view's
 * text (already that form) spliced in last: no tree is built and dumped
 * per member. */
static char *state_text(hub_room *r, hub_conn *c, const hub_common *k, const pl_buf *acc)
{
    const pl_game *g = r->game;
    int viewer = c->seat;
    int bad = 0;
    pl_buf b = {0};
    int shared = view_shared(r, viewer); /* put_view splices the spectator's */
    const char *view = view_text(r, shared ? -1 : viewer);
    pl_buf_reserve(&b, 1024 + (view ? r->vbuf[shared ? 0 : viewer + 1].len : 0)); /* most states: one allocation */
    if (acc) { /* the answer to its act, first of the sorted keys */
        pl_buf_puts(&b, "{\"accepted\":");
        pl_buf_append(&b, acc->s, acc->len);
        pl_buf_puts(&b, "},\"clock\":");
    } else {
        pl_buf_puts(&b, "{\"clock\":");
    }
    pl_buf_append(&b, pl_buf_str(&k->clock), k->clock.len);
    pl_buf_puts(&b, ",\"history\":[");
    int upto = visible(r);
    int from = c->hist_sent < upto ? c->hist_sent : upto;
    for (int i = from; i < upto; i++) {
        const hub_entry *e = &r->ent[i];
        pl_buf_puts(&b, i > from ? ",{\"events\":" : "{\"events\":");
        pl_buf_puts(&b, e->events[viewer + 1]); /* already JSON text */
        pl_buf_puts(&b, ",\"said\":");
        bad |= pl_json_put_string(&b, e->said[viewer + 1]);
        pl_buf_puts(&b, ",\"seat\":");
        pl_json_put_int(&b, e->seat);
        pl_buf_puts(&b, ",\"seq\":");
        pl_json_put_int(&b, i);
        pl_buf_puts(&b, ",\"text\":");
        bad |= pl_json_put_string(&b, e->text[viewer + 1]);
        pl_buf_putc(&b, '}');
    }
    pl_buf_puts(&b, "],\"history_from\":");
    pl_json_put_int(&b, from);
    pl_buf_puts(&b, ",\"legal\":[");
    int nlegal = 0;
    int kar_touch = r->kar && hubk_visible(r) < r->m->nhist;
    for (int s = 0; viewer >= 0 && s < r->nseats; s++) { /* its own seat, and partner seats it plays */
        if (hub_seat_owner(r, s) != viewer || !room_started(r) || hub_seat_is_ai(r, s) || kar_touch ||
            !pl_is_actor(g, r->m->state, s))
            continue;
        pl_action acts[HUB_MAX_LEGAL]; /* a menu lists at most this many */
        int n = g->legal(r->m->state, s, acts, HUB_MAX_LEGAL);
        pl_buf t = {0}, l = {0};
        for (int i = 0; i < n && i < HUB_MAX_LEGAL; i++) {
            pl_buf_clear(&t);
            pl_buf_clear(&l);
            g->format_action(r->m->state, s, acts[i], &t);
            pl_format_action_long(g, r->m->state, s, acts[i], &l);
            pl_buf_puts(&b, nlegal++ ? ",{\"action\":" : "{\"action\":");
            bad |= pl_json_put_string(&b, pl_buf_str(&t));
            pl_buf_puts(&b, ",\"fields\":");
            bad |= legal_fields(g, r->m->state, s, acts[i], &b);
            pl_buf_puts(&b, ",\"long\":");
            bad |= pl_json_put_string(&b, pl_buf_str(&l));
            pl_buf_puts(&b, ",\"seat\":");
            pl_json_put_int(&b, s);
            pl_buf_putc(&b, '}');
            bad |= t.oom || l.oom;
        }
        pl_buf_free(&t);
        pl_buf_free(&l);
    }
    c->hist_sent = upto;
    pl_buf_puts(&b, room_over(r) ? "],\"over\":true,\"result\":" : "],\"over\":false,\"result\":");
    pl_buf_append(&b, pl_buf_str(&k->result), k->result.len);
    pl_buf_puts(&b, ",\"room\":");
    bad |= pl_json_put_string(&b, r->code);
    pl_buf_puts(&b, ",\"seat\":");
    pl_json_put_int(&b, viewer);
    pl_buf_puts(&b, ",\"seats\":");
    pl_buf_append(&b, pl_buf_str(&k->seats), k->seats.len);
    pl_buf_puts(&b, ",\"seq\":");
    pl_json_put_int(&b, r->m->nhist);
    pl_buf_puts(&b, ",\"status\":\"");
    pl_buf_puts(&b, room_status(r)); /* a fixed word: nothing to escape */
    pl_buf_puts(&b, "\",\"type\":\"state\",\"view\":");
    put_view(r, viewer, &b);
    pl_buf_putc(&b, '}');
    if (bad || b.oom) {
        pl_buf_free(&b);
        return NULL;
    }
    return b.s;
}

/* Queues connection `c`'s state; `k`: the room's common parts, or NULL to
 * make them here. */
static void send_state(hub *h, hub_room *r, hub_conn *c, const hub_common *k)
{
    hub_common own;
    if (!k) {
        if (common_make(h, r, &own) < 0) {
            common_free(&own);
            return;
        }
        k = &own;
    }
    int answers = h->acc_conn && h->acc_conn == c->id;
    char *text = state_text(r, c, k, answers ? h->acc : NULL);
    hub_msg *m = text ? queue_msg(h, c->id, text, 0, hold_tag(h), r, 1) : NULL;
    if (m && answers) {
        m->o.answers = 1; /* it carries the act's answer (timed like `accepted`) */
        h->acc_conn = 0;  /* given: the sender's next state is a plain one */
    }
    if (k == &own)
        common_free(&own);
}

void hub_room_broadcast(hub *h, hub_room *r)
{
    hub_common k;
    int ok = common_make(h, r, &k) == 0;
    for (int i = 0; ok && i < r->nmembers; i++) {
        hub_conn *c = hub_conn_get(h, r->members[i]);
        if (c && c->room == r)
            send_state(h, r, c, &k);
    }
    common_free(&k);
    room_rewake(h, r);
}

/* ---- playing -------------------------------------------------------------------- */

uint64_t hub_job_queue(hub *h, hub_room *r, int seat, const ai_player *p, int kind)
{
    hub_jobp *j = pl_calloc(1, sizeof *j);
    void *st = pl_malloc(r->game->state_size);
    if (!j || !st) {
        pl_free(j);
        pl_free(st);
        return 0;
    }
    pl_state_copy(r->game, st, r->m->state);
    pl_rng rng;
    pl_match_rng(r->m, (uint64_t)seat + 1 + ((uint64_t)kind << 8), &rng);
    j->j = (hub_job){.id = h->job_seq++, .game = r->game, .state = st, .seat = seat, .player = p,
                     .seed = pl_rng_next(&rng)};
    memcpy(j->code, r->code, HUB_CODE);
    j->nhist = r->m->nhist;
    j->kind = kind;
    if (h->cfg.job_text && kind != HUB_JOB_KARUTA) /* a worker process answers (engines.h) */
        for (int i = 0; i < h->nais; i++)
            if (p && h->ais[i].p == p) {
                pl_buf t = {0};
                if (h->cfg.job_text(r->m, seat, h->ais[i].level, j->j.seed, j->j.id, &t) > 0 && !t.oom)
                    j->j.text = pl_strdup(pl_buf_str(&t)); /* NULL on no memory: in-process */
                pl_buf_free(&t);
                break;
            }
    if (h->jobs_tail)
        h->jobs_tail->next = j;
    else
        h->jobs = j;
    h->jobs_tail = j;
    return j->j.id;
}

/* Queues a job for every actor a computer plays now (once per state). */
void hub_room_schedule(hub *h, hub_room *r)
{
    if (!room_started(r) || r->game->phase(r->m->state) != PL_PHASE_MOVE)
        return;
    if (r->kar && hubk_visible(r) < r->m->nhist)
        return; /* karuta's reading: its own jobs (hub_karuta.c) */
    int seats[PL_MAX_SEATS];
    int n = r->game->actors(r->m->state, seats);
    for (int i = 0; i < n; i++) {
        int s = seats[i];
        if (!hub_seat_is_ai(r, s) || r->seats[s].job_nhist == r->m->nhist)
            continue;
        pl_buf err = {0};
        const char *level = r->seats[s].kind == HUB_SEAT_AI ? r->seats[s].level : h->cfg.takeover_level;
        const ai_player *p = r->seats[s].kind == HUB_SEAT_AI && r->seats[s].ai ? r->seats[s].ai
                                                                              : hub_player(h, r->game, level, &err);
        pl_buf_free(&err);
        if (hub_job_queue(h, r, s, p, HUB_JOB_MOVE))
            r->seats[s].job_nhist = r->m->nhist;
    }
}

/* After any change of the room's state: chance, the end, jobs, clocks. */
void hub_room_advance(hub *h, hub_room *r, int64_t now_ms)
{
    if (!room_started(r))
        return;
    while (r->game->phase(r->m->state) == PL_PHASE_CHANCE) {
        if (r->kar && hubk_hold_chance(r, now_ms))
            break; /* karuta: the judgement is shown a while before the next reading */
        pl_buf err = {0}, t = {0};
        void *before = pl_malloc(r->game->state_size);
        pl_action a;
        pl_rng rng;
        if (!before) {
            pl_buf_free(&err);
            return;
        }
        pl_state_copy(r->game, before, r->m->state);
        pl_match_rng(r->m, 0, &rng);
        a = pl_draw_chance(r->game, r->m->state, &rng);
        int ok = room_apply(r, PL_CHANCE, a, &err) == 0;
        if (ok) {
            r->game->format_action(before, PL_CHANCE, a, &t);
            queue_action(h, r, r->m->nhist - 1, PL_CHANCE, pl_buf_str(&t), 0);
            r->stored = r->m->nhist;
            h->st.actions++;
        }
        pl_free(before);
        pl_buf_free(&t);
        pl_buf_free(&err);
        if (!ok)
            return;
    }
    r->turn_ms = now_ms;
    if (room_over(r)) {
        queue_finish(h, r);
        if (!r->over_ms)
            r->over_ms = now_ms;
    }
    if (r->kar)
        hubk_after_change(h, r, now_ms);
    hub_room_schedule(h, r);
    room_rewake(h, r);
}

int hub_room_play(hub *h, hub_room *r, int seat, pl_action a, uint64_t sender, int64_t now_ms, pl_buf *err)
{
    pl_buf t = {0};
    if (pl_check(r->game, r->m->state, seat, a, err) < 0)
        return -1;
    r->game->format_action(r->m->state, seat, a, &t);
    if (t.oom || room_apply(r, seat, a, err) < 0) {
        pl_buf_free(&t);
        return -1;
    }
    if (r->total_s && seat >= 0) { /* a partner seat's time is its person's */
        hub_seat *o = &r->seats[hub_seat_owner(r, seat)];
        o->left_ms -= now_ms - r->turn_ms;
        if (o->left_ms < 0)
            o->left_ms = 0;
    }
    queue_action(h, r, r->m->nhist - 1, seat, pl_buf_str(&t), sender);
    r->stored = r->m->nhist;
    h->st.actions++;
    pl_buf_free(&t);
    hub_room_advance(h, r, now_ms);
    return 0;
}

/* ---- requests ------------------------------------------------------------------- */

static json_t *games_json(void)
{
    int n;
    const pl_game *const *gs = pl_games(&n);
    json_t *arr = json_array();
    for (int i = 0; i < n; i++) {
        const pl_game *g = gs[i];
        json_t *opts = json_array();
        for (const pl_option_def *d = g->options; d && d->key; d++) {
            json_t *o = json_pack("{s:s, s:s, s:s}", "key", d->key, "default", d->def ? d->def : "", "about",
                                  d->help ? d->help : "");
            if (d->kind == PL_OPT_ENUM) {
                json_t *vals = json_array();
                const char *p = d->choices ? d->choices : "";
                while (*p) {
                    const char *bar = strchr(p, '|');
                    size_t len = bar ? (size_t)(bar - p) : strlen(p);
                    json_array_append_new(vals, json_stringn(p, len));
                    p += len + (bar ? 1 : 0);
                }
                json_object_set_new(o, "values", vals);
            } else if (d->kind == PL_OPT_INT) {
                json_object_set_new(o, "range", json_pack("[I, I]", (json_int_t)d->min, (json_int_t)d->max));
            } else {
                json_object_set_new(o, "values", json_string("text"));
            }
            json_array_append_new(opts, o);
        }
        json_t *lv = json_array();
        pl_buf names = {0};
        levels_list(g, &names);
        const char *p = pl_buf_str(&names);
        while (*p) {
            const char *c = strstr(p, ", ");
            size_t len = c ? (size_t)(c - p) : strlen(p);
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), p);
            const char *about = "a search of the generic levels (docs/ai.md)";
            for (const pl_level *l = g->levels; l && l->name; l++)
                if (!strcmp(l->name, name))
                    about = l->about ? l->about : "";
            json_array_append_new(lv, json_pack("{s:s, s:s}", "name", name, "about", about));
            p += len + (c ? 2 : 0);
        }
        pl_buf_free(&names);
        json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:b, s:o, s:o}", "id", g->id, "name", g->name,
                                             "summary", g->summary ? g->summary : "", "hidden",
                                             (g->flags & PL_GAME_HIDDEN) != 0, "options", opts, "levels", lv));
    }
    return json_pack("{s:s, s:o}", "type", "games", "games", arr);
}

/* The room's options as given, less the game's secret ones and any
 * `deal=` (a game that does not mark its deal secret, karuta's, still
 * keeps it off the wire: the brief of issue 15). */
static json_t *public_options(const hub_room *r)
{
    json_t *o = json_loads(r->options_json, 0, NULL);
    if (!o)
        return json_object();
    json_object_del(o, "deal");
    for (const char *const *k = r->game->secret_options; k && *k; k++)
        json_object_del(o, *k);
    return o;
}

static json_t *rooms_json(hub *h)
{
    json_t *arr = json_array();
    for (int i = 0; h->lobby && i < h->lobby->n; i++) /* a cluster's: the store's, as last read */
        if (!room_find(h, h->lobby->rooms[i].code))
            json_array_append(arr, h->lobby->rooms[i].entry);
    for (int i = 0; i < h->nrooms; i++) {
        hub_room *r = h->rooms[i];
        if (!r->public_ || room_over(r))
            continue;
        json_array_append_new(arr, json_pack("{s:s, s:s, s:o, s:o, s:s}", "room", r->code, "game", r->game->id,
                                             "options", public_options(r), "seats", seats_json(h, r), "state",
                                             room_status(r)));
    }
    return json_pack("{s:s, s:o}", "type", "rooms", "rooms", arr);
}

/* The words KEY=VALUE of an options object (strings only, no seed, no space).
 * Returns the count, or -1 with a message. */
static int option_words(json_t *opts, char **words, int cap, pl_buf *err)
{
    int n = 0;
    const char *key;
    json_t *val;
    json_object_foreach(opts, key, val)
    {
        if (!json_is_string(val)) {
            pl_buf_printf(err, "option '%s': values are strings", key);
            goto fail;
        }
        if (!strcmp(key, PL_SEED_KEY)) {
            pl_buf_puts(err, "the seed is the server's: a room's seed comes from getrandom");
            goto fail;
        }
        const char *v = json_string_value(val);
        if (strchr(key, '=') || strpbrk(v, " \t\r\n") || !*key || strlen(v) != json_string_length(val)) {
            pl_buf_printf(err, "option '%s': a key without '=' and a value without spaces", key);
            goto fail;
        }
        if (n == cap) {
            pl_buf_puts(err, "too many options");
            goto fail;
        }
        size_t len = strlen(key) + strlen(v) + 2;
        words[n] = pl_malloc(len);
        if (!words[n]) {
            pl_buf_puts(err, "out of memory");
            goto fail;
        }
        snprintf(words[n++], len, "%s=%s", key, v);
    }
    return n;
fail:
    for (int i = 0; i < n; i++)
        pl_free(words[i]);
    return -1;
}

/* Makes a room's match from its options object and seed. */
static pl_match *make_match(const pl_game *g, json_t *opts, uint64_t seed, pl_buf *err)
{
    char *words[64];
    int n = opts ? option_words(opts, words, 63, err) : 0;
    if (n < 0)
        return NULL;
    char seedw[48];
    snprintf(seedw, sizeof seedw, "seed=%" PRIu64, seed);
    words[n] = seedw;
    pl_match *m = pl_match_new(g, n + 1, words, err);
    for (int i = 0; i < n; i++)
        pl_free(words[i]);
    return m;
}

static hub_room *room_new(hub *h, const pl_game *g, json_t *opts, uint64_t seed, pl_buf *err)
{
    hub_room *r = pl_calloc(1, sizeof *r);
    if (!r) {
        pl_buf_puts(err, "out of memory");
        return NULL;
    }
    r->game = g;
    r->m = make_match(g, opts, seed, err);
    r->options_json = opts ? json_dumps(opts, JSON_COMPACT | JSON_SORT_KEYS) : pl_strdup("{}");
    if (!r->m || !r->options_json) {
        if (r->m)
            pl_buf_puts(err, "out of memory");
        room_free(r);
        return NULL;
    }
    r->nseats = g->num_seats(r->m->state);
    for (int s = 0; s < PL_MAX_SEATS; s++)
        r->seats[s].job_nhist = -1;
    r->created_ms = h->now;
    r->wake_ms = INT64_MAX;
    return r;
}

/* Leaves the room the connection is in (its seat keeps its token). */
static void conn_leave(hub *h, hub_conn *c, int64_t now_ms)
{
    hub_room *r = c->room;
    if (!r)
        return;
    member_del(r, c->id);
    if (c->seat >= 0 && r->seats[c->seat].conn == c->id) {
        r->seats[c->seat].conn = 0;
        r->seats[c->seat].gone_ms = now_ms;
        c->room = NULL;
        hub_room_broadcast(h, r);
    }
    c->room = NULL;
    c->seat = -1;
    if (h->cfg.cluster && !r->nmembers)
        r->idle_ms = now_ms; /* an unfinished room nobody is in is let go (room_idle) */
    room_rewake(h, r); /* the last one out of a finished room starts its countdown */
}

static int room_ask(hub *h, hub_conn *c, const char *code, json_t *root);
static void room_give_away(hub *h, hub_room *r);

static void req_create(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    const char *type, *game;
    json_t *opts = NULL, *seats = NULL, *clock = NULL, *jgrace = NULL;
    int grace = -1, pub = 0;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:s, s?o, s?o, s?o, s?o, s?b}", "type", &type, "game", &game,
                       "options", &opts, "seats", &seats, "grace_s", &jgrace, "clock", &clock, "public", &pub) < 0) {
        hub_error(h, c->id, "shape", "create", "create: %s; fields: game, options, seats, grace_s, clock, public",
                  je.text);
        return;
    }
    const pl_game *g = pl_game_find(game);
    if (!g) {
        pl_buf ids = {0};
        pl_games_list(&ids);
        hub_error(h, c->id, "options", "create", "unknown game '%s'; games: %s", game, pl_buf_str(&ids));
        pl_buf_free(&ids);
        return;
    }
    if (opts && !json_is_object(opts)) {
        hub_error(h, c->id, "shape", "create", "options: an object of strings");
        return;
    }
    if (jgrace && (!json_is_integer(jgrace) || json_integer_value(jgrace) < 0 || json_integer_value(jgrace) > 3600)) {
        hub_error(h, c->id, "shape", "create", "grace_s: 0 to 3600");
        return;
    }
    int move_s = 0, total_s = 0;
    if (clock && !json_is_null(clock) &&
        (json_unpack_ex(clock, &je, JSON_STRICT, "{s?i, s?i}", "move_s", &move_s, "total_s", &total_s) < 0 ||
         move_s < 0 || move_s > 86400 || total_s < 0 || total_s > 86400 || (move_s && total_s) ||
         (!move_s && !total_s))) {
        hub_error(h, c->id, "shape", "create", "clock: {\"move_s\": 1-86400} or {\"total_s\": 1-86400}");
        return;
    }
    if ((int)h->nrooms >= h->cfg.max_rooms) {
        hub_error(h, c->id, "full", "create", "the server holds %d rooms, its most", h->nrooms);
        return;
    }
    if (jgrace)
        grace = (int)json_integer_value(jgrace);
    int oom;
    json_t *ropts = hubk_room_options(g, opts, &oom); /* karuta: tempo=even unless given */
    if (oom) {
        hub_error(h, c->id, "options", "create", "out of memory"); /* as room_new says it */
        return;
    }
    pl_buf err = {0};
    hub_room *r = room_new(h, g, ropts, random_seed(h), &err);
    json_decref(ropts);
    if (!r) {
        hub_error(h, c->id, "options", "create", "%s", pl_buf_str(&err));
        pl_buf_free(&err);
        return;
    }
    if (seats && (!json_is_array(seats) || (int)json_array_size(seats) != r->nseats)) {
        hub_error(h, c->id, "shape", "create", "seats: an array of %d entries (this game with these options)",
                  r->nseats);
        room_free(r);
        return;
    }
    for (int s = 0; seats && s < r->nseats; s++) {
        const char *kind, *level = NULL;
        int of = -1;
        if (json_unpack_ex(json_array_get(seats, (size_t)s), &je, JSON_STRICT, "{s:s, s?s, s?i}", "kind", &kind,
                           "level", &level, "of", &of) < 0 ||
            (strcmp(kind, "person") && strcmp(kind, "ai") && strcmp(kind, "partner")) ||
            (strcmp(kind, "ai") && level) || (!strcmp(kind, "partner")) != (of != -1)) {
            hub_error(h, c->id, "shape", "create",
                      "seat %d: {\"kind\": \"person\"}, {\"kind\": \"ai\", \"level\": L} or "
                      "{\"kind\": \"partner\", \"of\": S}",
                      s);
            room_free(r);
            return;
        }
        if (!strcmp(kind, "partner")) { /* played by the person of seat `of` */
            json_t *o = json_array_get(seats, (size_t)of);
            const char *okind = of >= 0 && of < r->nseats && of != s ? json_string_value(json_object_get(o, "kind"))
                                                                      : NULL;
            if (!okind || strcmp(okind, "person")) {
                hub_error(h, c->id, "shape", "create", "seat %d: a partner seat's \"of\" names a person seat", s);
                room_free(r);
                return;
            }
            r->seats[s].kind = HUB_SEAT_PARTNER;
            r->seats[s].of = of;
            continue;
        }
        if (!strcmp(kind, "ai")) {
            const char *lv = level ? level : "medium";
            const ai_player *p = hub_player(h, g, lv, &err);
            if (!p) {
                hub_error(h, c->id, "options", "create", "seat %d: %s", s, pl_buf_str(&err));
                pl_buf_free(&err);
                room_free(r);
                return;
            }
            r->seats[s].kind = HUB_SEAT_AI;
            r->seats[s].ai = p;
            r->seats[s].level = pl_strdup(lv);
            snprintf(r->seats[s].name, sizeof r->seats[s].name, "computer (%s)", lv);
        }
    }
    pl_buf_free(&err);
    random_hex(h, r->code);
    r->grace_s = grace == -1 ? h->cfg.grace_s : grace;
    r->move_s = move_s;
    r->total_s = total_s;
    r->public_ = pub;
    for (int s = 0; s < r->nseats; s++)
        r->seats[s].left_ms = (int64_t)total_s * 1000;
    if (hubk_applies(r) < 0 || room_add(h, r) < 0) {
        hub_error(h, c->id, "storage", "create", "out of memory");
        room_free(r);
        return;
    }
    r->creator = c->id;
    queue_room(h, r);
    room_give_away(h, r);
    char link[64];
    snprintf(link, sizeof link, "/room/%s", r->code);
    /* about the new room: dropped with it if storing it fails */
    send_tagged(h, c->id, json_pack("{s:s, s:s, s:s}", "type", "created", "room", r->code, "link", link),
                hold_tag(h), r);
    hub_room_advance(h, r, now_ms); /* a room of computers only starts at once */
}

static void req_join(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    const char *type, *code, *name = NULL, *token = NULL;
    int seat = -1;
    json_t *jseat = NULL;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:s, s?s, s?s, s?o}", "type", &type, "room", &code, "name",
                       &name, "token", &token, "seat", &jseat) < 0 ||
        !name == !token || (jseat && (!json_is_integer(jseat) || token))) {
        hub_error(h, c->id, "shape", "join", "join: {room, name, seat (optional)} or {room, token}%s%s",
                  je.text[0] ? ": " : "", je.text);
        return;
    }
    hub_room *r = room_find(h, code);
    if (!r) {
        if (!room_ask(h, c, code, root))
            hub_error(h, c->id, "room", "join", "no room '%s'", code);
        return;
    }
    if (jseat) {
        json_int_t v = json_integer_value(jseat);
        seat = v >= 0 && v < r->nseats ? (int)v : -2;
        if (seat == -2) {
            hub_error(h, c->id, "seat", "join", "seat: 0 to %d", r->nseats - 1);
            return;
        }
    }
    if (token) {
        for (seat = 0; seat < r->nseats; seat++)
            if (r->seats[seat].token[0] && !strcmp(r->seats[seat].token, token))
                break;
        if (seat == r->nseats) {
            hub_error(h, c->id, "seat", "join", "this token holds no seat of room %s", code);
            return;
        }
    } else {
        size_t len = strlen(name);
        if (len < 1 || len > HUB_MAX_NAME || strpbrk(name, "\r\n\t")) {
            hub_error(h, c->id, "shape", "join", "name: 1 to %d bytes, one line", HUB_MAX_NAME);
            return;
        }
        if (seat >= 0) {
            if (r->seats[seat].kind != HUB_SEAT_PERSON || r->seats[seat].token[0]) {
                hub_error(h, c->id, "full", "join", "seat %d is not open", seat);
                return;
            }
        } else {
            for (seat = 0; seat < r->nseats; seat++)
                if (r->seats[seat].kind == HUB_SEAT_PERSON && !r->seats[seat].token[0])
                    break;
            if (seat == r->nseats) {
                hub_error(h, c->id, "full", "join", "no open seat in room %s: watch it instead", code);
                return;
            }
        }
    }
    if (member_add(r, c->id) < 0) {
        hub_error(h, c->id, "storage", "join", "out of memory");
        return;
    }
    if (c->room && (c->room != r || c->seat != seat)) {
        hub_room *old = c->room;
        conn_leave(h, c, now_ms);
        if (old == r)
            member_add(r, c->id);
    }
    hub_seat *t = &r->seats[seat];
    if (t->conn && t->conn != c->id) { /* the same person from another connection: the old one goes */
        hub_conn *o = hub_conn_get(h, t->conn);
        if (o) {
            member_del(r, o->id);
            o->room = NULL;
            o->seat = -1;
            hub_send(h, o->id, json_pack("{s:s}", "type", "left"));
        }
    }
    if (!token) {
        snprintf(t->name, sizeof t->name, "%s", name);
        random_hex(h, t->token);
        queue_config(h, r);
    }
    t->conn = c->id;
    t->covered = 0;
    t->gone_ms = 0;
    c->room = r;
    c->seat = seat;
    c->hist_sent = 0;
    hub_send(h, c->id, json_pack("{s:s, s:s, s:s, s:o, s:i, s:s}", "type", "joined", "room", r->code, "game",
                                 r->game->id, "options", public_options(r), "seat", seat, "token", t->token));
    if (r->kar)
        hubk_joined(h, r, c, now_ms);
    hub_room_advance(h, r, now_ms);
    hub_room_broadcast(h, r);
    if (r->kar)
        hubk_arrived(h, r, c);
}

static void req_watch(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    const char *type, *code;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:s}", "type", &type, "room", &code) < 0) {
        hub_error(h, c->id, "shape", "watch", "watch: {room}: %s", je.text);
        return;
    }
    hub_room *r = room_find(h, code);
    if (!r) {
        if (!room_ask(h, c, code, root))
            hub_error(h, c->id, "room", "watch", "no room '%s'", code);
        return;
    }
    if (member_add(r, c->id) < 0) {
        hub_error(h, c->id, "storage", "watch", "out of memory");
        return;
    }
    if (c->room)
        conn_leave(h, c, now_ms);
    member_add(r, c->id);
    c->room = r;
    c->seat = -1;
    c->hist_sent = 0;
    send_state(h, r, c, NULL);
    if (r->kar)
        hubk_arrived(h, r, c);
}

/* The seated connection's room and seat, or an error. */
static hub_room *seated(hub *h, hub_conn *c, const char *req)
{
    if (!c->room || c->seat < 0) {
        hub_error(h, c->id, "seat", req, "%s: join a seat first", req);
        return NULL;
    }
    return c->room;
}

/* The strict check of an act that json_unpack_ex's format below makes, by
 * jansson's getters: `root` is an object with a string "type" (hub_message
 * checked), a string "action", and at most an integer "seq", an integer
 * "seat" and a boolean "accepted_in_state" besides. Returns 0 and the
 * fields, or -1 (nothing set) for anything else: then json_unpack_ex reads
 * it again for its error. Its format, parsed at every act, was 5,500 of a
 * move's 120,000 instructions under callgrind (docs/benchmarks.md). */
static int act_shape(json_t *root, const char **text, json_t **jseq, json_t **jseat, int *in_state)
{
    json_t *a = json_object_get(root, "action"), *q = json_object_get(root, "seq"), *s = json_object_get(root, "seat"),
           *b = json_object_get(root, "accepted_in_state");
    if (!json_is_string(a) || (q && !json_is_integer(q)) || (s && !json_is_integer(s)) || (b && !json_is_boolean(b)) ||
        json_object_size(root) != 2 + (size_t)!!q + (size_t)!!s + (size_t)!!b)
        return -1;
    *text = json_string_value(a);
    *jseq = q;
    *jseat = s;
    *in_state = b && json_is_true(b);
    return 0;
}

static void req_act(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    const char *type, *text;
    json_t *jseq = NULL, *jseat = NULL;
    int in_state = 0;
    json_error_t je; /* set by json_unpack_ex, which runs whenever act_shape refuses */
    if (act_shape(root, &text, &jseq, &jseat, &in_state) < 0 &&
        (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:s, s?o, s?o, s?b}", "type", &type, "action", &text, "seq",
                        &jseq, "seat", &jseat, "accepted_in_state", &in_state) < 0 ||
         (jseq && !json_is_integer(jseq)) || (jseat && !json_is_integer(jseat)))) {
        hub_error(h, c->id, "shape", "act",
                  "act: {action (text), seq (int, optional), seat (int, optional), accepted_in_state (bool, "
                  "optional)}%s%s",
                  je.text[0] ? ": " : "", je.text);
        return;
    }
    hub_room *r = seated(h, c, "act");
    if (!r)
        return;
    if (room_over(r)) {
        hub_error(h, c->id, "over", "act", "the game is over");
        return;
    }
    if (!room_started(r)) {
        hub_error(h, c->id, "not-your-turn", "act", "the room waits for its players");
        return;
    }
    if (jseq && json_integer_value(jseq) != r->m->nhist) {
        hub_error(h, c->id, "stale", "act", "stale: the history has %d actions, not %" JSON_INTEGER_FORMAT, r->m->nhist,
                  json_integer_value(jseq));
        return;
    }
    if (r->kar && hubk_visible(r) < r->m->nhist) {
        hub_error(h, c->id, "not-your-turn", "act", "a reading is on: answer it with touch messages");
        return;
    }
    if (hub_seat_is_ai(r, c->seat)) {
        hub_error(h, c->id, "not-your-turn", "act", "your total time ran out: the computer plays your seat");
        return;
    }
    /* The seat it plays for: its own, or a partner seat its person plays
     * (`seat` names it; without it, the one of them that acts now). */
    int seat = c->seat;
    if (jseat) {
        json_int_t v = json_integer_value(jseat);
        if (v < 0 || v >= r->nseats || hub_seat_owner(r, (int)v) != c->seat) {
            hub_error(h, c->id, "seat", "act", "seat %" JSON_INTEGER_FORMAT " is not played by this connection", v);
            return;
        }
        seat = (int)v;
    } else if (!pl_is_actor(r->game, r->m->state, seat)) {
        for (int s = 0; s < r->nseats; s++)
            if (s != c->seat && hub_seat_owner(r, s) == c->seat && pl_is_actor(r->game, r->m->state, s)) {
                seat = s;
                break;
            }
    }
    if (!pl_is_actor(r->game, r->m->state, seat)) {
        pl_buf err = {0};
        pl_check(r->game, r->m->state, seat, 0, &err);
        hub_error(h, c->id, "not-your-turn", "act", "%s", pl_buf_str(&err));
        pl_buf_free(&err);
        return;
    }
    pl_buf err = {0}, why = {0};
    pl_action a;
    if (strlen(text) > 200) {
        hub_error(h, c->id, "illegal", "act", "action too long");
        return;
    }
    if (pl_parse_legal_why(r->game, r->m->state, seat, text, &a, &err, &why) < 0) {
        hub_error_illegal(h, c->id, pl_buf_str(&err), pl_buf_str(&why));
        pl_buf_free(&err);
        pl_buf_free(&why);
        return;
    }
    pl_buf t = {0};
    int after = r->m->nhist + 1; /* the history's length with this action (chance may follow) */
    r->game->format_action(r->m->state, seat, a, &t);
    if (hub_room_play(h, r, seat, a, c->id, now_ms, &err) < 0) {
        hub_error(h, c->id, "illegal", "act", "%s", pl_buf_str(&err));
    } else {
        /* {"action":…,"seat":…,"seq":…,"type":"accepted"}, one per move: written directly; or
         * (accepted_in_state) its first three keys as the sender's state's "accepted" */
        pl_buf m = {0};
        pl_buf_puts(&m, "{\"action\":");
        int bad = pl_json_put_string(&m, pl_buf_str(&t));
        pl_buf_puts(&m, ",\"seat\":");
        pl_json_put_int(&m, seat);
        pl_buf_puts(&m, ",\"seq\":");
        pl_json_put_int(&m, after);
        bad |= m.oom || t.oom;
        int told = 0; /* the states are queued */
        if (in_state && !bad) { /* taken by the sender's state (state_text) */
            h->acc_conn = c->id;
            h->acc = &m;
            hub_room_broadcast(h, r);
            told = 1;
            in_state = !h->acc_conn; /* else no state was made for it (memory): the plain answer after all */
            h->acc_conn = 0;
            h->acc = NULL;
        } else {
            in_state = 0;
        }
        pl_buf_puts(&m, ",\"type\":\"accepted\"}");
        if (!in_state && !bad && !m.oom) {
#ifndef NDEBUG
            same_as_jansson(m.s, json_pack("{s:s, s:i, s:s, s:i}", "type", "accepted", "seq", after, "action",
                                           pl_buf_str(&t), "seat", seat));
#endif
            send_text(h, c->id, m.s, "accepted", hold_tag(h), c->room); /* before the states, as ever */
            m.s = NULL;
        }
        pl_buf_free(&m);
        if (!told)
            hub_room_broadcast(h, r);
    }
    pl_buf_free(&t);
    pl_buf_free(&err);
}

static void req_chat(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    const char *type, *text;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:s}", "type", &type, "text", &text) < 0) {
        hub_error(h, c->id, "shape", "chat", "chat: {text}: %s", je.text);
        return;
    }
    size_t len = strlen(text);
    if (len < 1 || len > HUB_MAX_CHAT) {
        hub_error(h, c->id, "shape", "chat", "text: 1 to %d bytes", HUB_MAX_CHAT);
        return;
    }
    hub_room *r = c->room;
    if (!r) {
        hub_error(h, c->id, "room", "chat", "chat: join or watch a room first");
        return;
    }
    const char *name = c->seat >= 0 ? r->seats[c->seat].name : "spectator";
    for (int i = 0; i < r->nmembers; i++)
        hub_send(h, r->members[i], json_pack("{s:s, s:i, s:s, s:s, s:I}", "type", "chat", "seat", c->seat, "name",
                                             name, "text", text, "at_ms", (json_int_t)now_ms));
}

static void req_rematch(hub *h, hub_conn *c, int64_t now_ms)
{
    hub_room *r = seated(h, c, "rematch");
    if (!r)
        return;
    if (!room_over(r)) {
        hub_error(h, c->id, "over", "rematch", "rematch: the game is not over");
        return;
    }
    r->seats[c->seat].rematch = 1;
    for (int s = 0; s < r->nseats; s++)
        if (r->seats[s].kind == HUB_SEAT_PERSON && !r->seats[s].rematch)
            return; /* the others have not asked yet */
    if ((int)h->nrooms >= h->cfg.max_rooms) {
        hub_error(h, c->id, "full", "rematch", "the server holds %d rooms, its most", h->nrooms);
        return;
    }
    pl_buf err = {0};
    json_t *opts = json_loads(r->options_json, 0, NULL);
    hub_room *n = room_new(h, r->game, opts, random_seed(h), &err);
    json_decref(opts);
    if (!n) {
        hub_error(h, c->id, "storage", "rematch", "%s", pl_buf_str(&err));
        pl_buf_free(&err);
        return;
    }
    pl_buf_free(&err);
    random_hex(h, n->code);
    n->grace_s = r->grace_s;
    n->move_s = r->move_s;
    n->total_s = r->total_s;
    n->public_ = r->public_;
    for (int s = 0; s < r->nseats && s < n->nseats; s++) {
        hub_seat *o = &r->seats[s], *t = &n->seats[s];
        t->kind = o->kind;
        t->of = o->of;
        t->ai = o->ai;
        t->level = o->level ? pl_strdup(o->level) : NULL;
        memcpy(t->name, o->name, sizeof t->name);
        memcpy(t->token, o->token, sizeof t->token);
        t->gone_ms = now_ms;
        t->left_ms = (int64_t)n->total_s * 1000;
        o->rematch = 0;
    }
    if (hubk_applies(n) < 0 || room_add(h, n) < 0) {
        room_free(n);
        hub_error(h, c->id, "storage", "rematch", "out of memory");
        return;
    }
    queue_room(h, n);
    room_give_away(h, n);
    for (int i = 0; i < r->nmembers; i++)
        hub_send(h, r->members[i], json_pack("{s:s, s:s}", "type", "rematch", "room", n->code));
    hub_room_advance(h, n, now_ms);
}

static void req_record(hub *h, hub_conn *c, json_t *root)
{
    const char *type, *who;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:s}", "type", &type, "who", &who) < 0 ||
        (strcmp(who, "seat") && strcmp(who, "referee"))) {
        hub_error(h, c->id, "shape", "record", "record: {who: \"seat\" or \"referee\"}%s%s", je.text[0] ? ": " : "",
                  je.text);
        return;
    }
    hub_room *r = c->room;
    if (!r) {
        hub_error(h, c->id, "room", "record", "record: join or watch a room first");
        return;
    }
    pl_buf out = {0};
    int rc;
    if (!strcmp(who, "referee")) {
        if (!room_over(r)) {
            hub_error(h, c->id, "over", "record", "the referee's record (with the seed) comes only after the game");
            return;
        }
        rc = pl_record_write(r->m, &out);
    } else {
        if (c->seat < 0) {
            hub_error(h, c->id, "seat", "record", "a spectator has no seat's record: ask for the referee's after the game");
            return;
        }
        if (r->kar && hubk_visible(r) < r->m->nhist) {
            hub_error(h, c->id, "not-your-turn", "record", "ask again once the reading is answered");
            return;
        }
        rc = pl_record_write_for(r->m, c->seat, &out);
    }
    json_t *rec = rc == 0 ? json_loads(pl_buf_str(&out), 0, NULL) : NULL;
    pl_buf_free(&out);
    if (rec && !room_over(r)) /* no deal= before the end, even a game's that does not mark it secret */
        json_object_del(json_object_get(rec, "options"), "deal");
    if (!rec) {
        hub_error(h, c->id, "storage", "record", "out of memory");
        return;
    }
    hub_send(h, c->id, json_pack("{s:s, s:o}", "type", "record", "record", rec));
}

/* ---- replay --------------------------------------------------------------------- */

int hub_table_load(hub *h, const char *path, pl_buf *err)
{
    int n = 0;
    const pl_game *const *games = pl_games(&n);
    pl_buf why = {0};
    int tried = 0;
    for (int i = 0; i < n; i++) {
        const pl_game *g = games[i];
        if (!g->tables)
            continue;
        tried++;
        pl_buf e = {0};
        void *t = g->tables->load(path, &e);
        if (!t) {
            pl_buf_printf(&why, "; %s: %s", g->id, pl_buf_str(&e));
            pl_buf_free(&e);
            continue;
        }
        pl_buf_free(&e);
        hub_table *a = pl_realloc(h->tables, sizeof *a * (size_t)(h->ntables + 1));
        if (!a) {
            g->tables->free(t);
            pl_buf_free(&why);
            pl_buf_puts(err, "out of memory");
            return -1;
        }
        h->tables = a;
        h->tables[h->ntables++] = (hub_table){g, t};
        pl_buf_free(&why);
        return 0;
    }
    pl_buf_printf(err, "table %s: %s%s", path, tried ? "no game takes it" : "no game has tables", pl_buf_str(&why));
    pl_buf_free(&why);
    return -1;
}

/* The exact chance that `seat` wins once it played `a` at `st`, from the
 * first loaded table of `g` that covers the state after it; NULL when none
 * does (or the state after is not between decisions). */
static json_t *action_chance(const hub *h, const pl_game *g, const void *st, int seat, pl_action a, void *scratch)
{
    int has = 0;
    if (!scratch)
        return json_null();
    for (int i = 0; i < h->ntables && !has; i++)
        has = h->tables[i].g == g;
    if (!has)
        return json_null();
    pl_state_copy(g, scratch, st);
    g->apply(scratch, seat, a);
    if (g->phase(scratch) == PL_PHASE_MOVE)
        return json_null();
    for (int i = 0; i < h->ntables; i++) {
        if (h->tables[i].g != g)
            continue;
        double v = g->tables->value(h->tables[i].t, scratch, seat);
        if (v >= 0)
            return json_real(v);
    }
    return json_null();
}

/* Appends "," unless `*first` (then clears it). */
static void list_sep(pl_buf *out, int *first)
{
    if (!*first)
        pl_buf_putc(out, ',');
    *first = 0;
}

/* Appends the legal actions at `st` of every seat that acts, each with its
 * chance (null throughout when `scratch` is NULL), as a JSON array with
 * sorted keys: [{"action":A,"chance":C,"long":L,"seat":S},...]. An action
 * whose texts are not UTF-8 is left out. */
static void replay_legal(const hub *h, const pl_game *g, const void *st, int nseats, void *scratch, pl_buf *out)
{
    pl_buf_putc(out, '[');
    int first = 1;
    for (int s = 0; s < nseats && g->phase(st) == PL_PHASE_MOVE; s++) {
        if (!pl_is_actor(g, st, s))
            continue;
        pl_action acts[HUB_MAX_LEGAL];
        int n = g->legal(st, s, acts, HUB_MAX_LEGAL);
        for (int i = 0; i < n && i < HUB_MAX_LEGAL; i++) {
            pl_buf t = {0}, l = {0};
            g->format_action(st, s, acts[i], &t);
            pl_format_action_long(g, st, s, acts[i], &l);
            json_t *chance = action_chance(h, g, st, s, acts[i], scratch);
            size_t mark = out->len;
            int was_first = first;
            list_sep(out, &first);
            pl_buf_puts(out, "{\"action\":");
            int bad = pl_json_put_string(out, pl_buf_str(&t)) < 0;
            pl_buf_puts(out, ",\"chance\":");
            bad = bad || !chance || pl_json_dump(chance, out) < 0;
            pl_buf_puts(out, ",\"fields\":");
            bad = bad || legal_fields(g, st, s, acts[i], out);
            pl_buf_puts(out, ",\"long\":");
            bad = bad || pl_json_put_string(out, pl_buf_str(&l)) < 0;
            pl_buf_puts(out, ",\"seat\":");
            pl_json_put_int(out, s);
            pl_buf_putc(out, '}');
            if (bad) { /* as json_pack refuses it */
                pl_buf_truncate(out, mark);
                first = was_first;
            }
            json_decref(chance);
            pl_buf_free(&t);
            pl_buf_free(&l);
        }
    }
    pl_buf_putc(out, ']');
}

/* Appends step `i`'s entry of the action `mv` (from `before` to `after`) as
 * `seat` reads it: {"said":D,"seat":S,"seq":i-1,"text":T}, or null when a
 * text is missing or not UTF-8. Returns 0, or -1 when memory ran out. */
static int replay_entry(const hub_room *fr, int i, const pl_move *mv, const void *before, const void *after, int seat,
                        pl_buf *out)
{
    hub_entry e;
    if (entry_make(fr, &e, before, mv->seat, mv->a, after) < 0) {
        entry_free(&e);
        return -1;
    }
    size_t mark = out->len;
    const char *said = e.said[seat + 1], *text = e.text[seat + 1], *events = e.events[seat + 1];
    int bad = !said || !text || !events;
    if (!bad) {
        pl_buf_puts(out, "{\"events\":");
        pl_buf_puts(out, events); /* already JSON text */
        pl_buf_puts(out, ",\"said\":");
        bad = pl_json_put_string(out, said) < 0;
        pl_buf_puts(out, ",\"seat\":");
        pl_json_put_int(out, mv->seat);
        pl_buf_puts(out, ",\"seq\":");
        pl_json_put_int(out, i - 1);
        pl_buf_puts(out, ",\"text\":");
        bad = bad || pl_json_put_string(out, text) < 0;
        pl_buf_putc(out, '}');
    }
    if (bad) {
        pl_buf_truncate(out, mark);
        pl_buf_puts(out, "null");
    }
    entry_free(&e);
    return 0;
}

/* The `replay` answer for the finished (or uploaded) match `m` as `seat`
 * (-1 spectator) sees it: one step per point of its history, at most
 * HUB_MAX_STEPS steps and HUB_MAX_REPLAY bytes of them ("truncated" true
 * when cut). `code` is the room, NULL for an upload. The text (compact,
 * sorted keys: what pl_json_dump writes of the same object) is written
 * directly, each view as pl_view_json writes it; NULL when memory ran out.
 * Owned by the caller (pl_free). */
static char *replay_text(const hub *h, const pl_match *m, int seat, const char *code)
{
    const pl_game *g = m->game;
    int over = g->phase(m->state) == PL_PHASE_OVER; /* exact chances only for a game that is over */
    void *st = pl_malloc(g->state_size), *before = pl_malloc(g->state_size), *scratch = pl_malloc(g->state_size);
    pl_buf out = {0};
    if (!st || !before || !scratch) {
        pl_free(st);
        pl_free(before);
        pl_free(scratch);
        return NULL;
    }
    hub_room fr; /* entry_make reads only the game and the number of seats */
    memset(&fr, 0, sizeof fr);
    fr.game = g;
    fr.nseats = g->num_seats(m->initial);
    pl_state_copy(g, st, m->initial);
    int n = m->nhist < HUB_MAX_STEPS - 1 ? m->nhist : HUB_MAX_STEPS - 1;
    int ok = 1, cut = n < m->nhist;
    pl_buf_puts(&out, "{\"actions\":");
    pl_json_put_int(&out, m->nhist);
    pl_buf_puts(&out, ",\"game\":");
    ok = pl_json_put_string(&out, g->id) == 0;
    pl_buf_puts(&out, over ? ",\"over\":true,\"room\":" : ",\"over\":false,\"room\":");
    if (code)
        ok = ok && pl_json_put_string(&out, code) == 0;
    else
        pl_buf_puts(&out, "null");
    pl_buf_puts(&out, ",\"seat\":");
    pl_json_put_int(&out, seat);
    pl_buf_puts(&out, ",\"steps\":[");
    size_t bytes = 0;
    for (int i = 0; i <= n && ok && !out.oom; i++) {
        size_t mark = out.len;
        if (i > 0)
            pl_buf_putc(&out, ',');
        size_t start = out.len;
        pl_buf_puts(&out, "{\"entry\":");
        if (i > 0) {
            const pl_move *mv = &m->hist[i - 1];
            pl_state_copy(g, before, st);
            g->apply(st, mv->seat, mv->a);
            if (replay_entry(&fr, i, mv, before, st, seat, &out) < 0)
                ok = 0;
        } else {
            pl_buf_puts(&out, "null");
        }
        pl_buf_puts(&out, ",\"legal\":");
        replay_legal(h, g, st, fr.nseats, over ? scratch : NULL, &out);
        pl_buf_puts(&out, ",\"seq\":");
        pl_json_put_int(&out, i);
        pl_buf_puts(&out, ",\"view\":");
        size_t vmark = out.len;
        pl_buf err = {0};
        if (pl_view_json(g, st, seat, &out, &err) < 0) {
            pl_buf_truncate(&out, vmark);
            pl_buf_puts(&out, "null");
        }
        pl_buf_free(&err);
        pl_buf_putc(&out, '}');
        bytes += out.len - start;
        if (i > 0 && bytes > HUB_MAX_REPLAY) { /* the first step always goes */
            pl_buf_truncate(&out, mark);
            cut = 1;
            break;
        }
    }
    pl_free(st);
    pl_free(before);
    pl_free(scratch);
    pl_buf_puts(&out, cut ? "],\"truncated\":true,\"type\":\"replay\"}" : "],\"truncated\":false,\"type\":\"replay\"}");
    if (!ok || out.oom) {
        pl_buf_free(&out);
        return NULL;
    }
    return out.s;
}

/* Replays cost one view per step and a legal list per decision: a
 * connection may have at most cfg.replay_burst steps built at once, refilled
 * at cfg.replay_rate steps a second, so a client asking for long replays over
 * and over cannot take the service thread. Takes `steps` from connection
 * `c`'s budget: 0, or -1 after answering `rate` (nothing built). */
static int replay_budget(hub *h, hub_conn *c, int steps, const char *request)
{
    int64_t now = hub_now(h);
    double burst = h->cfg.replay_burst, rate = h->cfg.replay_rate;
    c->replay_steps += (double)(now - c->replay_ms) * rate / 1000.0;
    if (c->replay_steps > burst)
        c->replay_steps = burst;
    c->replay_ms = now;
    if (steps > HUB_MAX_STEPS)
        steps = HUB_MAX_STEPS;
    if ((double)steps > c->replay_steps) {
        hub_error(h, c->id, "rate", request, "replays are limited to %.0f steps at once, %.0f more a second: wait "
                  "%.1f s", burst, rate, ((double)steps - c->replay_steps) / rate);
        return -1;
    }
    c->replay_steps -= steps;
    return 0;
}

/* {"type": "replay", "room": CODE, "seat": S}: a room in memory that is over. */
static void req_replay(hub *h, hub_conn *c, json_t *root)
{
    const char *type, *code;
    int seat = -2;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:s, s:i}", "type", &type, "room", &code, "seat", &seat) < 0) {
        hub_error(h, c->id, "shape", "replay", "replay: {room: CODE, seat: -1 (spectator) or a seat}: %s", je.text);
        return;
    }
    hub_room *r = strlen(code) < HUB_CODE ? room_find(h, code) : NULL;
    if (!r) {
        if (room_ask(h, c, code, root))
            return;
        if (h->cfg.on_demand)
            hub_error(h, c->id, "room", "replay", "no room '%s'", code);
        else
            hub_error(h, c->id, "room", "replay", "no such room (a finished room is kept %d minutes after the last "
                      "one leaves)", HUB_KEEP_OVER_MS / 60000);
        return;
    }
    if (!room_over(r)) {
        hub_error(h, c->id, "over", "replay", "a replay comes only after the game");
        return;
    }
    if (seat < -1 || seat >= r->nseats) {
        hub_error(h, c->id, "seat", "replay", "replay: seat is -1 (spectator) or 0 to %d", r->nseats - 1);
        return;
    }
    if (replay_budget(h, c, r->m->nhist + 1, "replay") < 0)
        return;
    char *text = replay_text(h, r->m, seat, r->code);
    if (!text) {
        hub_error(h, c->id, "storage", "replay", "out of memory");
        return;
    }
    queue_msg(h, c->id, text, 0, hold_tag(h), c->room, 0); /* as hub_send queues it */
}

static void upload_drop(hub_conn *c)
{
    pl_free(c->up);
    c->up = NULL;
    c->uplen = 0;
}

/* {"type": "replay_part", "data": TEXT, "last": BOOL, "seat": S (optional,
 * read on the last part, -1 by default)}: a referee's record uploaded in
 * parts; the last one loads it and answers `replay` (room null) as seat S
 * sees it. */
static void req_replay_part(hub *h, hub_conn *c, json_t *root)
{
    const char *type, *data;
    size_t dlen = 0;
    int last = 0, seat = -1;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:s%, s:b, s?i}", "type", &type, "data", &data, &dlen, "last",
                       &last, "seat", &seat) < 0) {
        upload_drop(c);
        hub_error(h, c->id, "shape", "replay_part", "replay_part: {data: TEXT, last: BOOL, seat (optional)} (upload dropped): %s",
                  je.text);
        return;
    }
    if (dlen > HUB_MAX_PART || c->uplen + dlen > HUB_MAX_UPLOAD || memchr(data, 0, dlen)) {
        upload_drop(c);
        hub_error(h, c->id, "too-long", "replay_part",
                  "a part is at most %d bytes of text (no NUL), a record at most %d bytes: upload dropped",
                  HUB_MAX_PART, HUB_MAX_UPLOAD);
        return;
    }
    char *up = pl_realloc(c->up, c->uplen + dlen + 1);
    if (!up) {
        upload_drop(c);
        hub_error(h, c->id, "storage", "replay_part", "out of memory: upload dropped");
        return;
    }
    c->up = up;
    memcpy(c->up + c->uplen, data, dlen);
    c->uplen += dlen;
    c->up[c->uplen] = 0;
    if (!last)
        return;
    pl_buf err = {0};
    pl_match *m = pl_record_read(c->up, &err);
    upload_drop(c);
    if (!m) {
        hub_error(h, c->id, "record", "replay_part", "%s", pl_buf_str(&err));
        pl_buf_free(&err);
        return;
    }
    pl_buf_free(&err);
    int nseats = m->game->num_seats(m->initial);
    if (seat < -1 || seat >= nseats) {
        pl_match_free(m);
        hub_error(h, c->id, "seat", "replay_part", "replay_part: seat is -1 (spectator) or 0 to %d", nseats - 1);
        return;
    }
    if (replay_budget(h, c, m->nhist + 1, "replay_part") < 0) {
        pl_match_free(m);
        return;
    }
    char *text = replay_text(h, m, seat, NULL);
    pl_match_free(m);
    if (!text) {
        hub_error(h, c->id, "storage", "replay_part", "out of memory");
        return;
    }
    queue_msg(h, c->id, text, 0, 0, NULL, 0); /* as send_now queues it */
}

static void req_hello(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    const char *type;
    int v = 0;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:i}", "type", &type, "v", &v) < 0 || v != HUB_PROTOCOL) {
        hub_error(h, c->id, "shape", "hello", "hello: {v: %d} (this server speaks version %d)", HUB_PROTOCOL,
                  HUB_PROTOCOL);
        return;
    }
    send_now(h, c->id, json_pack("{s:s, s:i, s:s, s:I}", "type", "welcome", "protocol", HUB_PROTOCOL, "server",
                                 HUB_VERSION, "server_ms", (json_int_t)now_ms));
}

/* A message of no more than its type: {"type": T}. */
static int bare(hub *h, hub_conn *c, json_t *root, const char *t)
{
    const char *type;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s}", "type", &type) < 0) {
        hub_error(h, c->id, "shape", t, "%s takes no field but type: %s", t, je.text);
        return 0;
    }
    return 1;
}

/* Rate limit: 1 when the message may go on. */
static int rate_ok(hub *h, hub_conn *c, int64_t now_ms)
{
    if (now_ms > c->tokens_ms) {
        c->tokens += (double)(now_ms - c->tokens_ms) * h->cfg.rate_per_s / 1000.0;
        if (c->tokens > h->cfg.rate_burst)
            c->tokens = h->cfg.rate_burst;
        c->tokens_ms = now_ms;
    }
    if (c->tokens >= 1) {
        c->tokens -= 1;
        c->dropped = 0;
        return 1;
    }
    h->st.rate_limited++;
    if (++c->dropped > h->cfg.rate_burst) { /* a flood: answer and close */
        json_t *j = json_pack("{s:s, s:s, s:s, s:n}", "type", "error", "error", "rate", "message",
                              "too many messages: closing", "request");
        char *s = dump(j);
        if (s)
            queue_msg(h, c->id, s, 1, 0, NULL, 0);
        h->st.errors++;
        return 0;
    }
    hub_error(h, c->id, "rate", NULL, "more than %d messages a second (bursts of %d): this one was dropped",
              h->cfg.rate_per_s, h->cfg.rate_burst);
    return 0;
}

void hub_message(hub *h, uint64_t conn, const char *data, size_t len, int64_t now_ms)
{
    h->now = now_ms;
    hub_conn *c = hub_conn_get(h, conn);
    if (!c)
        return;
    if (!h->redispatch) { /* a request re-read once its room is loaded was counted when it came */
        h->st.messages_in++;
        if (!rate_ok(h, c, now_ms))
            return;
    }
    if (len > HUB_MAX_MESSAGE) {
        hub_error(h, conn, "too-long", NULL, "a message is at most %d bytes, not %zu", HUB_MAX_MESSAGE, len);
        return;
    }
    json_error_t je;
    json_t *root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        hub_error(h, conn, "json", NULL, "not JSON: %s (line %d, column %d)", je.text, je.line, je.column);
        return;
    }
    json_t *jt = json_is_object(root) ? json_object_get(root, "type") : NULL;
    if (!jt || !json_is_string(jt)) {
        hub_error(h, conn, "shape", NULL, "a message is one JSON object with a string \"type\"");
        json_decref(root);
        return;
    }
    const char *t = json_string_value(jt);
    if (!strcmp(t, "hello"))
        req_hello(h, c, root, now_ms);
    else if (!strcmp(t, "games")) {
        if (bare(h, c, root, "games"))
            send_now(h, conn, games_json());
    } else if (!strcmp(t, "rooms")) {
        if (bare(h, c, root, "rooms"))
            send_now(h, conn, rooms_json(h));
    } else if (!strcmp(t, "create"))
        req_create(h, c, root, now_ms);
    else if (!strcmp(t, "join"))
        req_join(h, c, root, now_ms);
    else if (!strcmp(t, "watch"))
        req_watch(h, c, root, now_ms);
    else if (!strcmp(t, "act"))
        req_act(h, c, root, now_ms);
    else if (!strcmp(t, "chat"))
        req_chat(h, c, root, now_ms);
    else if (!strcmp(t, "rematch")) {
        if (bare(h, c, root, "rematch"))
            req_rematch(h, c, now_ms);
    } else if (!strcmp(t, "record"))
        req_record(h, c, root);
    else if (!strcmp(t, "replay"))
        req_replay(h, c, root);
    else if (!strcmp(t, "replay_part"))
        req_replay_part(h, c, root);
    else if (!strcmp(t, "leave")) {
        if (bare(h, c, root, "leave")) {
            conn_leave(h, c, now_ms);
            send_now(h, conn, json_pack("{s:s}", "type", "left"));
        }
    } else if (!strcmp(t, "sync") || !strcmp(t, "touch")) {
        json_int_t id = 0, ms = 0;
        int card = 0, poet = 0;
        const char *type;
        int bad = !strcmp(t, "sync")
                      ? json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:I, s:I}", "type", &type, "id", &id, "client_ms",
                                       &ms) < 0
                      : json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:i, s:I, s?i}", "type", &type, "card", &card,
                                       "client_ms", &ms, "poet", &poet) < 0 ||
                            card < 1 || card > 100 || poet < 0 || poet > 100;
        if (bad)
            hub_error(h, conn, "shape", t, "%s", !strcmp(t, "sync") ? "sync: {id, client_ms}"
                                                                   : "touch: {card (1-100), client_ms, poet (optional, 1-100)}");
        else if (!c->room || c->seat < 0 || !c->room->kar)
            hub_error(h, conn, "seat", t, "%s: only for a seat of a karuta room", t);
        else if (!strcmp(t, "sync"))
            hubk_sync(h, c, id, ms, now_ms);
        else
            hubk_touch(h, c, card, ms, poet, now_ms);
    } else
        hub_error(h, conn, "type", t,
                  "unknown type '%.40s'; types: hello, games, rooms, create, join, watch, act, chat, rematch, "
                  "record, replay, replay_part, sync, touch, leave",
                  t);
    json_decref(root);
}

/* ---- connections ---------------------------------------------------------------- */

uint64_t hub_connect(hub *h, int64_t now_ms)
{
    h->now = now_ms;
    if (h->live_conns >= (uint64_t)h->cfg.max_conns)
        return 0;
    int slot;
    if (h->nfree)
        slot = h->freeslots[--h->nfree];
    else {
        if (h->nconns == h->capconns) {
            int cap = h->capconns ? h->capconns * 2 : 64;
            hub_conn *a = pl_realloc(h->conns, sizeof *a * (size_t)cap);
            int *f = a ? pl_realloc(h->freeslots, sizeof *f * (size_t)cap) : NULL;
            if (a)
                h->conns = a;
            if (!f)
                return 0;
            h->freeslots = f;
            h->capconns = cap;
        }
        slot = h->nconns++;
    }
    h->gen++;
    hub_conn *c = &h->conns[slot];
    memset(c, 0, sizeof *c);
    c->id = ((uint64_t)h->gen << 32) | (uint64_t)(slot + 1);
    c->seat = -1;
    c->tokens = h->cfg.rate_burst;
    c->tokens_ms = now_ms;
    c->replay_steps = h->cfg.replay_burst;
    c->replay_ms = now_ms;
    h->live_conns++;
    send_now(h, c->id, json_pack("{s:s, s:i, s:s, s:I}", "type", "welcome", "protocol", HUB_PROTOCOL, "server",
                                 HUB_VERSION, "server_ms", (json_int_t)now_ms));
    return c->id;
}

void hub_disconnect(hub *h, uint64_t conn, int64_t now_ms)
{
    h->now = now_ms;
    hub_conn *c = hub_conn_get(h, conn);
    if (!c)
        return;
    conn_leave(h, c, now_ms);
    pl_free(c->up);
    c->up = NULL;
    c->uplen = 0;
    c->id = 0;
    h->freeslots[h->nfree++] = (int)(c - h->conns);
    h->live_conns--;
}

/* ---- time ----------------------------------------------------------------------- */

/* Cluster: room `r` may be let go (its lease dropped) once idle_ms +
 * HUB_IDLE_MS has passed: nobody is in it, everything is durable, and it
 * waits for a person (no computer moves, no karuta reading, not over). */
static int room_idle(const hub_room *r)
{
    if (!r->idle_ms || r->nmembers || room_over(r) || r->durable != r->m->nhist)
        return 0;
    if (!room_started(r))
        return 1; /* waits for its players */
    if (r->kar || r->game->phase(r->m->state) != PL_PHASE_MOVE)
        return 0;
    int seats[PL_MAX_SEATS];
    int n = r->game->actors(r->m->state, seats);
    for (int i = 0; i < n; i++)
        if (hub_seat_is_ai(r, seats[i]) || r->seats[seats[i]].job_nhist >= 0)
            return 0;
    return 1;
}

/* The next time room `r` needs a tick, given `now` (INT64_MAX none). */
static int64_t room_next(const hub_room *r)
{
    int64_t next = INT64_MAX;
    if (room_over(r)) /* kept for its records and a rematch while anyone is in it */
        return r->over_ms && !r->nmembers && r->durable == r->m->nhist ? r->over_ms + HUB_KEEP_OVER_MS : next;
    if (room_idle(r))
        next = r->idle_ms + HUB_IDLE_MS;
    if (!room_started(r))
        return next;
    for (int s = 0; s < r->nseats; s++) {
        const hub_seat *t = &r->seats[s];
        if (t->kind == HUB_SEAT_PERSON && !t->conn && !t->covered && r->grace_s) {
            int64_t at = t->gone_ms + (int64_t)r->grace_s * 1000;
            if (at < next)
                next = at;
        }
    }
    if ((r->move_s || r->total_s) && r->game->phase(r->m->state) == PL_PHASE_MOVE &&
        !(r->kar && hubk_visible(r) < r->m->nhist)) {
        int seats[PL_MAX_SEATS];
        int n = r->game->actors(r->m->state, seats);
        for (int i = 0; i < n; i++) {
            if (hub_seat_is_ai(r, seats[i]) || (r->move_s && r->seats[seats[i]].job_nhist == r->m->nhist))
                continue; /* a computer, or the computer already plays this move for him */
            int64_t at = r->move_s ? r->turn_ms + (int64_t)r->move_s * 1000
                                   : r->turn_ms + r->seats[hub_seat_owner(r, seats[i])].left_ms;
            if (at < next)
                next = at;
        }
    }
    return next;
}

static void room_let_go(hub *h, hub_room *r);

/* Runs what is due in room `r`; returns 1 when the room was let go (a
 * finished game nobody is in, HUB_KEEP_OVER_MS after its end; cluster: an
 * idle one, room_idle). */
static int room_tick(hub *h, hub_room *r, int64_t now_ms)
{
    int changed = 0;
    if (room_over(r)) {
        if (r->over_ms && !r->nmembers && r->durable == r->m->nhist && now_ms >= r->over_ms + HUB_KEEP_OVER_MS) {
            room_remove(h, r);
            return 1;
        }
        return 0;
    }
    if (room_idle(r) && now_ms >= r->idle_ms + HUB_IDLE_MS) {
        room_let_go(h, r);
        return 1;
    }
    if (room_started(r) && !room_over(r)) {
        for (int s = 0; s < r->nseats; s++) {
            hub_seat *t = &r->seats[s];
            if (t->kind == HUB_SEAT_PERSON && !t->conn && !t->covered && r->grace_s &&
                now_ms >= t->gone_ms + (int64_t)r->grace_s * 1000) {
                t->covered = 1; /* the grace ran out: a computer keeps the seat */
                changed = 1;
            }
        }
        int kar_on = r->kar && hubk_visible(r) < r->m->nhist;
        if ((r->move_s || r->total_s) && r->game->phase(r->m->state) == PL_PHASE_MOVE && !kar_on) {
            int seats[PL_MAX_SEATS];
            int n = r->game->actors(r->m->state, seats);
            for (int i = 0; i < n; i++) {
                int s = seats[i];
                if (hub_seat_is_ai(r, s))
                    continue;
                if (r->move_s && now_ms >= r->turn_ms + (int64_t)r->move_s * 1000 &&
                    r->seats[s].job_nhist != r->m->nhist) {
                    /* the move's time ran out: the computer plays this one move */
                    pl_buf err = {0};
                    const ai_player *p = hub_player(h, r->game, h->cfg.takeover_level, &err);
                    pl_buf_free(&err);
                    if (p && hub_job_queue(h, r, s, p, HUB_JOB_CLOCK))
                        r->seats[s].job_nhist = r->m->nhist;
                } else if (r->total_s && now_ms >= r->turn_ms + r->seats[hub_seat_owner(r, s)].left_ms) {
                    r->seats[hub_seat_owner(r, s)].left_ms = 0;
                    r->seats[hub_seat_owner(r, s)].out_of_time = 1; /* a computer plays his moves from then on */
                    changed = 1;
                }
            }
        }
    }
    if (r->kar)
        hubk_tick(h, r, now_ms);
    if (changed) {
        hub_room_schedule(h, r);
        hub_room_broadcast(h, r);
    }
    return 0;
}

void hub_tick(hub *h, int64_t now_ms)
{
    h->now = now_ms;
    uint64_t seq = ++h->tick_seq;
    while (h->nheap && h->heap[0].at <= now_ms) {
        hub_wake w = h->heap[0];
        heap_pop(h);
        hub_room *r = w.r;
        if (w.at != r->wake_ms)
            continue; /* stale: the room's time moved */
        if (r->ticked == seq) { /* ticked in this call already: due again, next call */
            heap_push(h, w.at, r);
            break;
        }
        r->ticked = seq;
        r->wake_ms = INT64_MAX;
        if (!room_tick(h, r, now_ms))
            room_rewake(h, r);
    }
}

int64_t hub_next_ms(const hub *h)
{
    /* the top may be stale (earlier than needed): a spurious tick does nothing */
    return h->nheap ? h->heap[0].at : INT64_MAX;
}

/* ---- storage answers ------------------------------------------------------------ */

/* Takes room `code`'s actions and finish out of the batch being built
 * (and, with `all`, its new room and configuration too). */
static void next_forget(hub *h, const char *code, int all)
{
    hub_batchp *nx = h->next;
    if (!nx)
        return;
    int k = 0;
    for (int i = 0; i < nx->b.nactions; i++) {
        if (!strcmp(nx->b.actions[i].room, code)) {
            pl_free((char *)nx->b.actions[i].room);
            pl_free((char *)nx->b.actions[i].text);
            continue;
        }
        nx->senders[k] = nx->senders[i];
        nx->b.actions[k++] = nx->b.actions[i];
    }
    nx->b.nactions = k;
    k = 0;
    for (int i = 0; i < nx->b.nfinished; i++) {
        if (!strcmp(nx->b.finished[i], code)) {
            pl_free(nx->b.finished[i]);
            pl_free(nx->b.results[i]);
            continue;
        }
        nx->b.results[k] = nx->b.results[i];
        nx->b.finished[k++] = nx->b.finished[i];
    }
    nx->b.nfinished = k;
    if (!all)
        return;
    k = 0;
    for (int i = 0; i < nx->ncfg; i++) {
        if (!strcmp(nx->cfg_codes[i], code)) {
            pl_free(nx->cfg_codes[i]);
            pl_free(nx->cfg_texts[i]);
            continue;
        }
        nx->cfg_texts[k] = nx->cfg_texts[i];
        nx->cfg_codes[k++] = nx->cfg_codes[i];
    }
    nx->ncfg = k;
}

static void room_moved(hub *h, hub_room *r, const hub_batch *b);
static void lobby_keep(hub *h, hub_room *r);
static void loads_done(hub *h, const hub_batchp *p, int64_t now_ms);

void hub_store_done(hub *h, const hub_batch *b, int ok, int64_t now_ms)
{
    h->now = now_ms;
    const hub_batchp *p = (const hub_batchp *)b;
    if (h->inflight == b->id)
        h->inflight = 0;
    for (int i = 0; i < p->nlost; i++) { /* another process holds them: they go from here */
        hub_room *r = room_find(h, p->lost[i]);
        if (r)
            room_moved(h, r, b);
    }
    if (ok) {
        for (int i = 0; i < b->nactions; i++) {
            hub_room *r = room_find(h, b->actions[i].room);
            if (r && r->durable < (int)b->actions[i].seq + 1) {
                r->durable = (int)b->actions[i].seq + 1;
                if (room_over(r))
                    room_rewake(h, r);
            }
        }
        release(h, b->id);
        for (int i = 0; h->cfg.cluster && i < b->nrooms; i++) {
            /* a room made here for players who come by its code (wherever
             * nginx sends that) was stored without a lease (room_give_away) */
            hub_room *r = room_find(h, b->rooms[i].code);
            if (r && r->given_away) {
                if (r->public_)
                    lobby_keep(h, r); /* listed here until the store's list is read again */
                if (r->nmembers)
                    room_moved(h, r, NULL); /* joined here meanwhile: the lease is gone, come again */
                else
                    room_remove(h, r);
            }
        }
        loads_done(h, p, now_ms);
        return;
    }
    /* Failed: rooms created in it go; actions in it are taken back. */
    for (int i = 0; i < b->nrooms; i++) {
        hub_room *r = room_find(h, b->rooms[i].code);
        if (r) {
            hub_error(h, r->creator, "storage", "create", "the room could not be stored: try again");
            for (int k = 0; k < r->nmembers; k++)
                if (r->members[k] != r->creator)
                    hub_error(h, r->members[k], "storage", "create", "the room could not be stored: try again");
            next_forget(h, r->code, 1);
            room_remove(h, r);
        }
    }
    for (int i = 0; i < p->ncfg; i++) { /* seats taken: written again with the next batch */
        hub_room *r = room_find(h, p->cfg_codes[i]);
        if (r)
            queue_config(h, r);
    }
    for (int i = 0; i < b->nactions; i++) {
        hub_room *r = room_find(h, b->actions[i].room);
        if (!r)
            continue;
        if (p->senders[i])
            hub_error(h, p->senders[i], "storage", "act", "the action could not be stored: it is taken back");
        if (r->m->nhist > r->durable) {
            int n = r->durable;
            drop_held(h, r, 0);
            next_forget(h, r->code, 0); /* the next batch's actions continue the failed ones */
            room_truncate(r, n);
            r->finished_queued = 0;
            r->over_ms = 0;
            for (int s = 0; s < r->nseats; s++)
                r->seats[s].job_nhist = -1;
            if (r->kar)
                hubk_reset(r);
            for (int k = 0; k < r->nmembers; k++) {
                hub_conn *c = hub_conn_get(h, r->members[k]);
                if (c && c->hist_sent > n)
                    c->hist_sent = n;
            }
            /* on from the durable state: chance taken back is drawn again (the
             * same outcome: the generator follows the history's length), a
             * reading is read again, computers decide, clocks restart */
            hub_room_advance(h, r, now_ms);
            hub_room_broadcast(h, r);
        }
    }
    release(h, b->id);
    loads_done(h, p, now_ms);
}

/* ---- jobs ----------------------------------------------------------------------- */

hub_job *hub_job_take(hub *h)
{
    hub_jobp *j = h->jobs;
    if (!j)
        return NULL;
    h->jobs = j->next;
    if (!h->jobs)
        h->jobs_tail = NULL;
    j->next = NULL;
    return &j->j;
}

void hub_job_run(hub_job *j)
{
    pl_buf err = {0};
    j->failed = !j->player || ai_player_choose(j->player, j->state, j->seat, j->seed, &j->action, &err) < 0;
    pl_buf_free(&err);
}

void hub_job_free(hub_job *j)
{
    if (!j)
        return;
    pl_free(j->state);
    pl_free(j->text);
    pl_free(j);
}

void hub_job_done(hub *h, hub_job *job, int64_t now_ms)
{
    h->now = now_ms;
    hub_jobp *j = (hub_jobp *)job;
    hub_room *r = room_find(h, j->code);
    if (!r || j->nhist != r->m->nhist || r->seats[job->seat].job_nhist != j->nhist) {
        hub_job_free(job);
        return; /* the room moved on: a newer job (if any) decides */
    }
    r->seats[job->seat].job_nhist = -1;
    if (j->kind == HUB_JOB_MOVE && !hub_seat_is_ai(r, job->seat)) {
        hub_job_free(job); /* the person came back meanwhile: his move */
        return;
    }
    pl_action a = job->action;
    pl_buf why = {0};
    int bad = job->failed || pl_check(r->game, r->m->state, job->seat, a, &why) < 0;
    pl_buf_free(&why);
    if (bad) {
        pl_action acts[PL_MAX_ACTIONS > 4096 ? 4096 : PL_MAX_ACTIONS];
        int n = r->game->legal(r->m->state, job->seat, acts, (int)(sizeof acts / sizeof *acts));
        pl_rng rng;
        pl_match_rng(r->m, 77, &rng);
        a = n > 0 ? acts[pl_rng_next(&rng) % (uint64_t)(n < 4096 ? n : 4096)] : 0;
    }
    if (j->kind == HUB_JOB_KARUTA) {
        hubk_job_done(h, r, job->seat, a, now_ms);
    } else {
        pl_buf err = {0};
        if (hub_room_play(h, r, job->seat, a, 0, now_ms, &err) == 0)
            hub_room_broadcast(h, r);
        pl_buf_free(&err);
    }
    hub_job_free(job);
}

/* ---- restore -------------------------------------------------------------------- */

typedef struct restore_ctx {
    hub *h;
    store *s;
    int64_t now;
    int n;
    pl_buf *err;
    hub_room *r; /* while replaying */
    int all;     /* finished rooms too (a load on demand) */
    const store_action *acts; /* with s NULL: the actions, read already (a load) */
    int nacts;
} restore_ctx;

static int restore_action(void *ctx, const store_action *a)
{
    restore_ctx *x = ctx;
    hub_room *r = x->r;
    pl_buf err = {0};
    pl_action code;
    if (pl_parse_legal(r->game, r->m->state, a->seat, a->text, &code, &err) < 0 ||
        room_apply(r, a->seat, code, &err) < 0) {
        pl_buf_printf(x->err, "room %s: action %lld '%s': %s", r->code, (long long)a->seq, a->text, pl_buf_str(&err));
        pl_buf_free(&err);
        return -1;
    }
    return 0;
}

static int restore_room(void *ctx, const store_room *sr, int finished, const char *result)
{
    (void)result;
    restore_ctx *x = ctx;
    hub *h = x->h;
    if (finished && !x->all)
        return 0;
    const pl_game *g = pl_game_find(sr->game);
    json_t *opts = json_loads(sr->options, 0, NULL);
    json_t *cfg = json_loads(sr->config, 0, NULL);
    json_t *seats = NULL;
    int grace = 60, move_s = 0, total_s = 0, pub = 0;
    json_error_t je;
    if (!g || !opts || !cfg ||
        json_unpack_ex(cfg, &je, 0, "{s:o, s:i, s:i, s:i, s:b}", "seats", &seats, "grace_s", &grace, "move_s",
                       &move_s, "total_s", &total_s, "public", &pub) < 0) {
        pl_buf_printf(x->err, "room %s: its game, options or configuration cannot be read", sr->code);
        json_decref(opts);
        json_decref(cfg);
        return -1;
    }
    hub_room *r = room_new(h, g, opts, sr->seed, x->err);
    json_decref(opts);
    if (!r) {
        json_decref(cfg);
        return -1;
    }
    snprintf(r->code, sizeof r->code, "%s", sr->code);
    r->created_ms = sr->created_ms;
    r->grace_s = grace;
    r->move_s = move_s;
    r->total_s = total_s;
    r->public_ = pub;
    for (int s = 0; s < r->nseats; s++) {
        json_t *e = json_array_get(seats, (size_t)s);
        const char *kind = "person", *level = NULL, *name = "", *token = "";
        int of = -1;
        json_unpack(e, "{s?s, s?s, s?s, s?s, s?i}", "kind", &kind, "level", &level, "name", &name, "token", &token,
                    "of", &of);
        hub_seat *t = &r->seats[s];
        t->left_ms = (int64_t)total_s * 1000;
        t->gone_ms = x->now;
        if (!strcmp(kind, "partner") && of >= 0 && of < r->nseats && of != s) {
            t->kind = HUB_SEAT_PARTNER;
            t->of = of;
        } else if (!strcmp(kind, "ai")) {
            t->kind = HUB_SEAT_AI;
            t->level = pl_strdup(level ? level : "medium");
            t->ai = hub_player(h, g, t->level, x->err);
            snprintf(t->name, sizeof t->name, "computer (%s)", t->level);
        } else {
            snprintf(t->name, sizeof t->name, "%s", name);
            snprintf(t->token, sizeof t->token, "%s", token);
        }
    }
    json_decref(cfg);
    x->r = r;
    int rc = 0;
    if (x->s)
        rc = store_actions(x->s, sr->code, restore_action, x, x->err);
    for (int i = 0; !x->s && i < x->nacts && rc == 0; i++)
        rc = restore_action(x, &x->acts[i]);
    x->r = NULL;
    if (rc != 0 || hubk_applies(r) < 0 || room_add(h, r) < 0) {
        room_free(r);
        return -1;
    }
    r->stored = r->durable = r->m->nhist;
    r->finished_queued = finished; /* finished on disk: never again */
    r->turn_ms = x->now;
    x->n++;
    return 0;
}

int hub_restore(hub *h, store *s, int64_t now_ms, pl_buf *err)
{
    h->now = now_ms;
    restore_ctx x = {.h = h, .s = s, .now = now_ms, .err = err};
    if (store_rooms(s, 1, restore_room, &x, err) != 0)
        return -1;
    for (int i = 0; i < h->nrooms; i++)
        hub_room_advance(h, h->rooms[i], now_ms); /* chance due, jobs, karuta readings */
    return x.n;
}

/* ---- rooms on demand, several processes (issue 17, docs/cluster.md) ------------- */

/* A room code as the hub makes them: 32 lowercase hex digits. */
static int code_ok(const char *code)
{
    size_t n = strlen(code);
    if (n != HUB_CODE - 1)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((code[i] >= '0' && code[i] <= '9') || (code[i] >= 'a' && code[i] <= 'f')))
            return 0;
    return 1;
}

/* Request `root` of `c` names room `code`, which the hub does not hold: with
 * on_demand, the room is asked of the store (one load per code at a time)
 * and the request waits, to be read again once the load is done. Returns 1
 * when it waits, 0 when the caller answers "no room" (not on demand, a code
 * the hub never makes, a request read again after its load, too many
 * waiting, no memory). */
static int room_ask(hub *h, hub_conn *c, const char *code, json_t *root)
{
    if (!h->cfg.on_demand || h->redispatch || !code_ok(code) || h->npend >= HUB_MAX_PENDING)
        return 0;
    int asked = 0;
    for (int i = 0; i < h->npend && !asked; i++)
        asked = !strcmp(h->pend[i].code, code);
    hub_batchp *p = asked ? NULL : next_batch(h);
    if (!asked && (!p || grow((void **)&p->loads, &p->caploads, p->nloads + 1, sizeof *p->loads) < 0))
        return 0;
    if (grow((void **)&h->pend, &h->cappend, h->npend + 1, sizeof *h->pend) < 0)
        return 0;
    char *msg = json_dumps(root, JSON_COMPACT);
    if (!msg)
        return 0;
    if (!asked) {
        hub_loaded *l = &p->loads[p->nloads++];
        memset(l, 0, sizeof *l);
        snprintf(l->code, sizeof l->code, "%s", code);
    }
    hub_pend *q = &h->pend[h->npend++];
    snprintf(q->code, sizeof q->code, "%s", code);
    q->conn = c->id;
    q->msg = msg;
    q->len = strlen(msg);
    return 1;
}

/* Rebuilds loaded room `l` in the hub (hub_restore's way). Returns it, or
 * NULL with a message. */
static hub_room *room_load(hub *h, const hub_loaded *l, int64_t now_ms, pl_buf *err)
{
    if ((int)h->nrooms >= h->cfg.max_rooms) {
        pl_buf_printf(err, "the server holds %d rooms, its most", h->nrooms);
        return NULL;
    }
    restore_ctx x = {.h = h, .now = now_ms, .err = err, .all = 1, .acts = l->acts, .nacts = l->nacts};
    if (restore_room(&x, &l->room, l->finished, NULL) != 0)
        return NULL;
    hub_room *r = room_find(h, l->code);
    if (!r) {
        pl_buf_puts(err, "the stored room has another code");
        return NULL;
    }
    if (h->cfg.cluster)
        r->idle_ms = now_ms; /* let go again if nobody comes in */
    hub_room_advance(h, r, now_ms);
    return r;
}

/* The requests that waited for the loads of batch `p`: read again (the room
 * is here now, or it does not exist: "no room"), or answered "busy" (another
 * process holds it: try again) or "storage". */
static void loads_done(hub *h, const hub_batchp *p, int64_t now_ms)
{
    for (int i = 0; i < p->nloads; i++) {
        const hub_loaded *l = &p->loads[i];
        int status = l->status;
        pl_buf why = {0};
        if (status == HUB_LOAD_OK && !room_find(h, l->code) && !room_load(h, l, now_ms, &why))
            status = HUB_LOAD_ERROR;
        /* take this code's requests out first: reading them again may queue more */
        hub_pend *mine = NULL;
        int n = 0, k = 0;
        for (int j = 0; j < h->npend; j++)
            n += !strcmp(h->pend[j].code, l->code);
        mine = n ? pl_malloc(sizeof *mine * (size_t)n) : NULL;
        n = 0;
        for (int j = 0; j < h->npend; j++) {
            if (!strcmp(h->pend[j].code, l->code) && mine)
                mine[n++] = h->pend[j];
            else if (!strcmp(h->pend[j].code, l->code))
                pl_free(h->pend[j].msg); /* no memory to answer: the client asks again */
            else
                h->pend[k++] = h->pend[j];
        }
        h->npend = k;
        for (int j = 0; j < n; j++) {
            hub_pend *q = &mine[j];
            json_t *root = json_loads(q->msg, 0, NULL);
            const char *type = json_string_value(json_object_get(root, "type"));
            if (!hub_conn_get(h, q->conn)) {
                /* gone meanwhile */
            } else if (status == HUB_LOAD_OK || status == HUB_LOAD_MISSING) {
                h->redispatch = 1;
                hub_message(h, q->conn, q->msg, q->len, now_ms);
                h->redispatch = 0;
            } else if (status == HUB_LOAD_BUSY) {
                hub_error(h, q->conn, "busy", type,
                          "room %s is played on another server process now: connect again in a moment", q->code);
            } else {
                hub_error(h, q->conn, "storage", type, "room %s could not be read: %s", q->code,
                          why.len ? pl_buf_str(&why) : l->msg ? l->msg : "no answer from the store");
            }
            json_decref(root);
            pl_free(q->msg);
        }
        pl_free(mine);
        pl_buf_free(&why);
    }
}

/* Room `r` is leased to another process (or may be): it goes from this
 * hub. Its actions not yet durable are never acknowledged: the senders of
 * those in `b` (NULL: none) and every member get "moved" (reconnect: the
 * room's holder answers). */
static void room_moved(hub *h, hub_room *r, const hub_batch *b)
{
    const hub_batchp *p = (const hub_batchp *)b;
    for (int i = 0; b && i < b->nactions; i++)
        if (p->senders[i] && !strcmp(b->actions[i].room, r->code))
            hub_error(h, p->senders[i], "moved", "act",
                      "this server process lost room %s to another: the action was not played; connect again",
                      r->code);
    for (int k = 0; k < r->nmembers; k++)
        hub_error(h, r->members[k], "moved", NULL,
                  "room %s moved to another server process: connect again (actions not yet confirmed were not "
                  "played)", r->code);
    next_forget(h, r->code, 1);
    room_remove(h, r);
}

void hub_rooms_lost(hub *h, int64_t now_ms)
{
    h->now = now_ms;
    for (int i = h->nrooms - 1; i >= 0; i--)
        if (i < h->nrooms && !room_over(h->rooms[i]))
            room_moved(h, h->rooms[i], NULL);
}

/* Cluster: idle room `r` goes from this hub and its lease is dropped (with
 * the next batch, after any write of it still queued), so the process
 * nginx sends its players to next may take it. */
static void room_let_go(hub *h, hub_room *r)
{
    hub_batchp *p = next_batch(h);
    char *code = pl_strdup(r->code);
    if (!p || !code || grow((void **)&p->drops, &p->capdrops, p->ndrops + 1, sizeof *p->drops) < 0) {
        pl_free(code); /* no memory: kept (the lease lives on while this process does) */
        r->idle_ms = 0;
        return;
    }
    p->drops[p->ndrops++] = code;
    room_remove(h, r);
}

/* Cluster: room `r`, just made and queued, waits for players who will come
 * by its code, through a front that routes by code: its lease is dropped
 * in the batch that stores it (after the put), and the room goes from
 * here once stored (hub_store_done), so whichever process they reach takes
 * it. A room that starts at once (computers only) stays. */
static void room_give_away(hub *h, hub_room *r)
{
    if (!h->cfg.cluster || r->nmembers || room_started(r))
        return;
    hub_batchp *p = next_batch(h);
    char *code = pl_strdup(r->code);
    if (!p || !code || grow((void **)&p->drops, &p->capdrops, p->ndrops + 1, sizeof *p->drops) < 0) {
        pl_free(code); /* no memory: kept here with its lease (let go when idle) */
        return;
    }
    p->drops[p->ndrops++] = code;
    r->given_away = 1;
}

/* ---- the lobby of a cluster -------------------------------------------------------- */

void hub_lobby_free(hub_lobby *l)
{
    if (!l)
        return;
    for (int i = 0; i < l->n; i++)
        json_decref(l->rooms[i].entry);
    pl_free(l->rooms);
    pl_free(l);
}

/* One stored room as the lobby shows it, or NULL (not public, unreadable). */
static json_t *lobby_entry(const store_room *sr)
{
    const pl_game *g = pl_game_find(sr->game);
    json_t *cfg = json_loads(sr->config, 0, NULL), *seats = NULL, *opts = NULL;
    int pub = 0;
    if (!g || !cfg || json_unpack(cfg, "{s:o, s:b}", "seats", &seats, "public", &pub) < 0 || !pub ||
        !json_is_array(seats) || !(opts = json_loads(sr->options, 0, NULL))) {
        json_decref(cfg);
        return NULL;
    }
    json_object_del(opts, "deal");
    for (const char *const *k = g->secret_options; k && *k; k++)
        json_object_del(opts, *k);
    json_t *out = json_array();
    int open = 0;
    size_t ns = json_array_size(seats);
    for (size_t s = 0; s < ns; s++) {
        const char *kind = "person", *level = NULL, *name = "", *token = "";
        int of = -1;
        json_unpack(json_array_get(seats, s), "{s?s, s?s, s?s, s?s, s?i}", "kind", &kind, "level", &level, "name",
                    &name, "token", &token, "of", &of);
        json_t *e;
        if (!strcmp(kind, "ai")) {
            char nm[HUB_MAX_NAME + 16];
            snprintf(nm, sizeof nm, "computer (%s)", level ? level : "medium");
            e = json_pack("{s:s, s:s, s:s, s:b, s:b, s:n}", "kind", "ai", "name", nm, "level",
                          level ? level : "medium", "connected", 1, "covered", 0, "of");
        } else if (!strcmp(kind, "partner") && of >= 0 && (size_t)of < ns) {
            const char *pn = json_string_value(json_object_get(json_array_get(seats, (size_t)of), "name"));
            e = json_pack("{s:s, s:s, s:n, s:b, s:b, s:i}", "kind", "partner", "name", pn ? pn : "", "level",
                          "connected", 0, "covered", 0, "of", of);
        } else {
            open += !*token;
            e = json_pack("{s:s, s:s, s:n, s:b, s:b, s:n}", "kind", *token ? "person" : "open", "name", name,
                          "level", "connected", 0, "covered", 0, "of");
        }
        json_array_append_new(out, e);
    }
    json_t *j = json_pack("{s:s, s:s, s:o, s:o, s:s}", "room", sr->code, "game", g->id, "options", opts, "seats", out,
                          "state", open ? "waiting" : "playing");
    json_decref(cfg);
    return j;
}

static int lobby_cb(void *ctx, const store_room *sr, int finished, const char *result)
{
    (void)result;
    hub_lobby *l = ctx;
    if (finished)
        return 0;
    json_t *e = lobby_entry(sr);
    if (!e)
        return 0;
    if (strlen(sr->code) >= HUB_CODE || grow((void **)&l->rooms, &l->cap, l->n + 1, sizeof *l->rooms) < 0) {
        json_decref(e);
        return strlen(sr->code) >= HUB_CODE ? 0 : -1;
    }
    snprintf(l->rooms[l->n].code, HUB_CODE, "%s", sr->code);
    l->rooms[l->n++].entry = e;
    return 0;
}

hub_lobby *hub_lobby_read(store *s, pl_buf *err)
{
    pl_json_setup();
    hub_lobby *l = pl_calloc(1, sizeof *l);
    if (!l) {
        pl_buf_puts(err, "out of memory");
        return NULL;
    }
    int rc = store_rooms(s, 1, lobby_cb, l, err);
    if (rc != 0) {
        if (!err->len)
            pl_buf_puts(err, "out of memory");
        hub_lobby_free(l);
        return NULL;
    }
    return l;
}

/* Adds room `r`, about to go from this hub, to the lobby list as it is
 * now (the store's next read replaces the list). Without memory: left out. */
static void lobby_keep(hub *h, hub_room *r)
{
    if (!h->lobby && !(h->lobby = pl_calloc(1, sizeof *h->lobby)))
        return;
    hub_lobby *l = h->lobby;
    json_t *e = json_pack("{s:s, s:s, s:o, s:o, s:s}", "room", r->code, "game", r->game->id, "options",
                          public_options(r), "seats", seats_json(h, r), "state", room_status(r));
    if (!e || grow((void **)&l->rooms, &l->cap, l->n + 1, sizeof *l->rooms) < 0) {
        json_decref(e);
        return;
    }
    snprintf(l->rooms[l->n].code, HUB_CODE, "%s", r->code);
    l->rooms[l->n++].entry = e;
}

void hub_lobby_set(hub *h, hub_lobby *l)
{
    hub_lobby_free(h->lobby);
    h->lobby = l;
}
