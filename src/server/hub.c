/* hub.c — the server's heart without I/O (hub.h): its core. The hub's life,
 * the message queues, connections' slots, rooms and seats, the computer
 * players, history entries, playing an action, and the computer players'
 * jobs. Thread: the hub's; hub_job_run alone runs on a worker.
 *
 * A room holds a pl_match; every action (chance included, played by the
 * hub at once) goes into the next store batch (hub_batch.c), and every
 * message about a room is HELD while any write is pending, released by
 * hub_store_done: no client hears of an action before it is on disk.
 * History entries are worked out once per action for every viewer
 * (format_action_for, describe), when it is applied.
 *
 * The hub's other files (hub_int.h declares what they share): hub_req.c
 * (the requests), hub_state.c (state messages), hub_replay.c (replays),
 * hub_timers.c (timers), hub_batch.c (storage, the hub's side), hub_store.c
 * (storage, the storage thread's side), hub_karuta.c (karuta's real time).
 */
#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ai/ai.h"
#include "hub_int.h"
#include "parlour/alloc.h"
#include "parlour/jsonout.h"
#include "parlour/record.h"
#include "parlour/registry.h"
#include "parlour/rng.h"

/* ---- small helpers ----------------------------------------------------- */

char *hub_dupn(const char *s)
{
    return pl_strdup(s ? s : "");
}

int64_t hub_now(const hub *h) { return h->now; }

const char *hub_takeover_level(const hub *h) { return h->cfg.takeover_level; }

FILE *hub_log(const hub *h) { return h->cfg.log ? h->cfg.log : stderr; }

static size_t code_hash(const char *s)
{
    return (size_t)pl_hash_str(s);
}

int hub_grow(void **p, int *cap, int need, size_t size)
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

/* ---- messages ---------------------------------------------------------- */

/* The batch id a message about the world must wait for now (0: none). */
uint64_t hub_hold_tag(const hub *h)
{
    const hub_batchp *n = h->next;
    if (n && (n->b.nrooms || n->b.nactions || n->b.nfinished || n->ncfg))
        return h->batch_seq;
    return h->inflight;
}

hub_msg *hub_queue_msg(hub *h, uint64_t conn, char *text, int close, uint64_t tag, hub_room *room, int history)
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
char *hub_dump(json_t *j)
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
void hub_send_text(hub *h, uint64_t conn, char *text, const char *type, uint64_t tag, hub_room *room)
{
    if (!text)
        return;
    int history = !strcmp(type, "state") || !strcmp(type, "accepted") || !strcmp(type, "reading") ||
                  !strcmp(type, "kana");
    hub_msg *m = hub_queue_msg(h, conn, text, 0, tag, room, history);
    if (m)
        m->o.answers = !strcmp(type, "accepted");
}

void hub_send_tagged(hub *h, uint64_t conn, json_t *j, uint64_t tag, hub_room *room)
{
    if (!j)
        return;
    char type[16] = "";
    const char *t = json_string_value(json_object_get(j, "type"));
    if (t && strlen(t) < sizeof type)
        strcpy(type, t); /* hub_dump frees j, and t with it */
    hub_send_text(h, conn, hub_dump(j), type, tag, room);
}

#ifndef NDEBUG
/* Debug builds: `text` is exactly jansson's compact, sorted text of `j`
 * (stolen), as for every message made by hand below. */
void hub_same_as_jansson(const char *text, json_t *j)
{
    char *want = hub_dump(j);
    assert(!text || !want || !strcmp(text, want));
    pl_free(want);
}

#endif

/* {"error":code,"message":…,"request":…|null,"type":"error"}, or with
 * `reason` (not NULL) the `illegal` form with "reason" after "message"
 * and, when `refusal` (a compact JSON object's text) is not NULL,
 * "refusal" after "reason" (keys stay sorted);
 * written directly (an error per bad message: no JSON tree built and
 * dumped). NULL when a text is not UTF-8 or memory ran out. */
static char *error_text(const char *code, const char *message, const char *reason, const char *refusal,
                        const char *request)
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
        if (refusal) {
            pl_buf_puts(&b, ",\"refusal\":");
            pl_buf_puts(&b, refusal);
        }
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
    hub_same_as_jansson(b.s, reason ? json_pack("{s:s, s:s, s:s, s:s, s:s, s:o*}", "type", "error", "error", code,
                                            "message", message, "request", request, "reason", reason, "refusal",
                                            refusal ? json_loads(refusal, 0, NULL) : NULL)
                                : json_pack("{s:s, s:s, s:s, s:o}", "type", "error", "error", code, "message",
                                            message, "request", request ? json_string(request) : json_null()));
#endif
    return b.s;
}

void hub_send(hub *h, uint64_t conn, json_t *j)
{
    hub_conn *c = hub_conn_get(h, conn);
    hub_send_tagged(h, conn, j, hub_hold_tag(h), c ? c->room : NULL);
}

void hub_error(hub *h, uint64_t conn, const char *code, const char *request, const char *fmt, ...)
{
    pl_buf b = {0};
    va_list ap;
    va_start(ap, fmt);
    pl_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    char *text = error_text(code, pl_buf_str(&b), NULL, NULL, request);
    pl_buf_free(&b);
    h->st.errors++;
    hub_send_text(h, conn, text, "error", 0, NULL);
}

/* An `illegal` error for an act: `message` the game's whole text (the reason
 * and the legal actions), `reason` the reason alone, `refusal` (NULL for
 * none) the game's refusal as a JSON object's text (docs/web-protocol.md). */
void hub_error_illegal(hub *h, uint64_t conn, const char *message, const char *reason, const char *refusal)
{
    char *text = error_text("illegal", message, reason, refusal, "act");
    if (!text) { /* out of memory: the plain error */
        hub_error(h, conn, "illegal", "act", "%s", message);
        return;
    }
    h->st.errors++;
    hub_send_text(h, conn, text, "error", 0, NULL);
}

/* Moves the held messages of batch `tag` (and older) to the ready queue. */
void hub_release(hub *h, uint64_t tag)
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
void hub_drop_held(hub *h, const hub_room *r, int all)
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

/* ---- connections ------------------------------------------------------- */

hub_conn *hub_conn_get(hub *h, uint64_t id)
{
    uint64_t slot = (id & 0xffffffffu);
    if (!id || slot == 0 || slot > (uint64_t)h->nconns)
        return NULL;
    hub_conn *c = &h->conns[slot - 1];
    return c->id == id ? c : NULL;
}

/* ---- rooms ------------------------------------------------------------- */

hub_room *hub_room_find(hub *h, const char *code)
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
int hub_room_add(hub *h, hub_room *r)
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

/* Frees each of `p[0..n)` once (hub_entry_make shares equal strings). */
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

void hub_entry_free(hub_entry *e)
{
    free_shared(e->text, PL_MAX_SEATS + 1);
    free_shared(e->said, PL_MAX_SEATS + 1);
    free_shared(e->events, PL_MAX_SEATS + 1);
    memset(e, 0, sizeof *e);
}

void hub_room_free(hub_room *r)
{
    if (!r)
        return;
    if (r->m)
        for (int i = 0; i < r->m->nhist && r->ent; i++)
            hub_entry_free(&r->ent[i]);
    pl_free(r->ent);
    pl_free(r->tb_hist);
    for (int s = 0; s < PL_MAX_SEATS; s++)
        pl_free(r->seats[s].level);
    hubk_free(r);
    for (int k = 0; k <= PL_MAX_SEATS; k++)
        pl_buf_free(&r->vbuf[k]);
    pl_match_free(r->m);
    pl_free(r->options_json);
    pl_free(r->members);
    json_decref(r->rated_msg);
    pl_free(r->review);
    pl_free(r);
}

/* Removes `r` from the hub and frees it (a room whose creation failed). */
void hub_room_remove(hub *h, hub_room *r)
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
    hubt_forget(h, r); /* its timers go */
    for (int n = 0; n < r->nmembers; n++) {
        hub_conn *c = hub_conn_get(h, r->members[n]);
        if (c && c->room == r)
            c->room = NULL;
    }
    hub_drop_held(h, r, 1);
    hub_room_free(r);
}

int hub_seat_owner(const hub_room *r, int s)
{
    return r->seats[s].kind == HUB_SEAT_PARTNER ? r->seats[s].of : s;
}

int hub_seat_kept(const hub_seat *t)
{
    return t->covered || t->out_of_time || t->stalled;
}

int hub_seat_is_ai(const hub_room *r, int s)
{
    const hub_seat *t = &r->seats[hub_seat_owner(r, s)];
    return t->kind == HUB_SEAT_AI || hub_seat_kept(t);
}

/* Every person seat has been taken once: the game runs. */
int hub_room_started(const hub_room *r)
{
    for (int s = 0; s < r->nseats; s++)
        if (r->seats[s].kind == HUB_SEAT_PERSON && !r->seats[s].token[0])
            return 0;
    return 1;
}

int hub_room_over(const hub_room *r)
{
    return r->game->phase(r->m->state) == PL_PHASE_OVER;
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

hub_room *hub_room_new(hub *h, const pl_game *g, json_t *opts, uint64_t seed, pl_buf *err)
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
        hub_room_free(r);
        return NULL;
    }
    r->nseats = g->num_seats(r->m->state);
    for (int s = 0; s < PL_MAX_SEATS; s++) {
        r->seats[s].job_nhist = -1;
        r->tb_declined[s] = -1;
    }
    r->tb_by = -1;
    r->tb_seq = -1;
    r->created_ms = h->now;
    r->wake_ms = INT64_MAX;
    return r;
}

/* ---- AI players -------------------------------------------------------- */

/* Whether `level` names one of `g`'s levels (ai_level's list). */
static int level_known(const pl_game *g, const char *level)
{
    const pl_level *l;
    for (int i = 0; (l = ai_level(g, i)); i++)
        if (!strcmp(l->name, level))
            return 1;
    return 0;
}

/* Appends the level names of `g` to `out` (ai_level's list), ", " between. */
static void levels_list(const pl_game *g, pl_buf *out)
{
    const pl_level *l;
    for (int i = 0; (l = ai_level(g, i)); i++)
        pl_buf_printf(out, "%s%s", i ? ", " : "", l->name);
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

/* ---- hub --------------------------------------------------------------- */

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

void hub_free(hub *h)
{
    if (!h)
        return;
    for (int i = 0; i < h->nrooms; i++)
        hub_room_free(h->rooms[i]);
    pl_free(h->rooms);
    pl_free(h->table);
    hubp_free(h);
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
        hubs_batchp_free(h->next);
    for (hub_jobp *j = h->jobs, *n; j; j = n) {
        n = j->next;
        hub_job_free(&j->j);
    }
    for (int i = 0; i < h->nais; i++) {
        ai_player_free(h->ais[i].p);
        pl_free(h->ais[i].level);
    }
    pl_free(h->ais);
    hubw_tables_free(h); /* they may borrow h->tables */
    for (int i = 0; i < h->ntables; i++)
        h->tables[i].g->tables->free(h->tables[i].t);
    pl_free(h->tables);
    pl_free(h->heap);
    for (int i = 0; i < h->npend; i++)
        pl_free(h->pend[i].msg);
    pl_free(h->pend);
    hub_lobby_free(h->lobby);
    json_decref(h->invite);
    pl_free(h);
}

void hub_get_stats(const hub *h, hub_stats *out)
{
    *out = h->st;
    out->conns = h->live_conns;
    out->rooms = (uint64_t)h->nrooms;
}

/* ---- history entries --------------------------------------------------- */

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
    return hub_dupn(text);
}

/* Works out the entry of the action `seat` played from `before` to `after`:
 * its text and description for each seat, and for a spectator (index 0):
 * in a game without hidden information what everyone reads (viewer -1);
 * else what every seat but the actor reads, "?" (text) or "" (said) when
 * they read different things (a deal: each sees his own cards). */
int hub_entry_make(const hub_room *r, hub_entry *e, const void *before, int seat, pl_action a,
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
        /* a game that hides nothing tells every viewer the same events
         * (game.h): written once, for viewer -1, and shared */
        if (!hidden && v >= 0) {
            e->events[v + 1] = e->events[0];
        } else {
            if (pl_events_json(g, before, seat, a, after, v, &ev, &err) < 0) {
                pl_buf_clear(&ev); /* a game's event it cannot write (not UTF-8): none, rather than no entry */
                pl_buf_puts(&ev, "[]");
            }
            e->events[v + 1] = share_or_dup(e->events, v + 1, pl_buf_str(&ev));
        }
        e->text[v + 1] = share_or_dup(e->text, v + 1, pl_buf_str(&t));
        e->said[v + 1] = share_or_dup(e->said, v + 1, pl_buf_str(&d));
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
int hub_room_apply(hub_room *r, int seat, pl_action a, pl_buf *err)
{
    const pl_game *g = r->game;
    void *before = pl_malloc(g->state_size);
    if (!before || hub_grow((void **)&r->ent, &r->capent, r->m->nhist + 1, sizeof *r->ent) < 0) {
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
    if (hub_entry_make(r, e, before, seat, a, r->m->state) < 0) {
        hub_entry_free(e);
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
void hub_room_truncate(hub_room *r, int n)
{
    r->version++;
    while (r->m->nhist > n) {
        hub_entry_free(&r->ent[r->m->nhist - 1]);
        pl_buf e = {0};
        pl_match_undo(r->m, &e);
        pl_buf_free(&e);
    }
    if (r->stored > n)
        r->stored = n;
}

/* ---- playing ----------------------------------------------------------- */

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

uint64_t hub_hint_queue(hub *h, hub_room *r, int seat, uint64_t conn, const void *table)
{
    uint64_t id = hub_job_queue(h, r, seat, NULL, HUB_JOB_HINT);
    if (id) {
        hub_jobp *j = h->jobs_tail; /* the job just queued */
        j->conn = conn;
        j->version = r->version;
        j->table = table;
    }
    return id;
}

/* Queues a job for every actor a computer plays now (once per state). */
void hub_room_schedule(hub *h, hub_room *r)
{
    if (!hub_room_started(r) || r->game->phase(r->m->state) != PL_PHASE_MOVE)
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
static int draw_chance(hub *h, hub_room *r, int64_t now_ms);

int hub_room_forced(const hub_room *r, int *seat, pl_action *a)
{
    const pl_game *g = r->game;
    int seats[PL_MAX_SEATS];
    /* Not in a game with hidden information: playing a seat's move at once
     * would tell the others it had no choice, which its hidden cards decide
     * (test_hidden.py's proof finds it). Not karuta (pl_game.check: touches). */
    if ((g->flags & PL_GAME_HIDDEN) || g->check || !hub_room_started(r) || g->phase(r->m->state) != PL_PHASE_MOVE ||
        g->actors(r->m->state, seats) != 1)
        return 0;
    int s = seats[0];
    if (r->seats[hub_seat_owner(r, s)].kind != HUB_SEAT_PERSON)
        return 0; /* a computer's seat: its job decides */
    pl_action acts[2];
    if (g->legal(r->m->state, s, acts, 2) != 1)
        return 0;
    *seat = s;
    *a = acts[0];
    return 1;
}

/* Plays checked action `a` for `seat`: applied, its entry marked `forced`,
 * its write queued (sent by connection `sender`, 0 none), a person's
 * total clock charged (not for a forced move: no decision). 0, or -1 with
 * the reason in `err` (nothing changed). */
static int play_one(hub *h, hub_room *r, int seat, pl_action a, int forced, uint64_t sender, int64_t now_ms,
                    pl_buf *err)
{
    pl_buf t = {0};
    r->game->format_action(r->m->state, seat, a, &t);
    if (t.oom || hub_room_apply(r, seat, a, err) < 0) {
        if (t.oom)
            pl_buf_puts(err, "out of memory");
        pl_buf_free(&t);
        return -1;
    }
    r->ent[r->m->nhist - 1].forced = forced;
    if (r->tb_by >= 0 && seat >= 0 && !forced && !hub_seat_is_ai(r, seat))
        hub_takeback_end(h, r, r->tb_by, "withdrawn", -1, 0); /* a person moved on: the request lapses */
    if (r->total_s && seat >= 0 && !forced) { /* a partner seat's time is its person's */
        hub_seat *o = &r->seats[hub_seat_owner(r, seat)];
        o->left_ms -= now_ms - r->turn_ms;
        if (o->left_ms < 0)
            o->left_ms = 0;
    }
    hubb_queue_action(h, r, r->logged++, seat, pl_buf_str(&t), sender);
    r->stored = r->m->nhist;
    h->st.actions++;
    pl_buf_free(&t);
    return 0;
}

void hub_room_advance(hub *h, hub_room *r, int64_t now_ms)
{
    if (!hub_room_started(r))
        return;
    for (;;) {
        if (!draw_chance(h, r, now_ms))
            return;
        int seat;
        pl_action a;
        if (!hub_room_forced(r, &seat, &a))
            break;
        /* a person's only legal move is played for them, with a note
         * (the entry's "forced"), as the terminal does */
        pl_buf err = {0};
        int rc = play_one(h, r, seat, a, 1, 0, now_ms, &err);
        pl_buf_free(&err);
        if (rc < 0)
            break; /* no memory: the person plays it */
    }
    r->turn_ms = now_ms;
    if (hub_room_over(r)) {
        hubb_queue_finish(h, r);
        if (!r->over_ms)
            r->over_ms = now_ms;
        if (r->tb_by >= 0) /* a computer ended the game meanwhile: no takeback of a finished game */
            hub_takeback_end(h, r, r->tb_by, "withdrawn", -1, 0);
    }
    if (r->kar)
        hubk_after_change(h, r, now_ms);
    hub_room_schedule(h, r);
    hubt_rewake(h, r);
}

int hub_room_play(hub *h, hub_room *r, int seat, pl_action a, uint64_t sender, int64_t now_ms, pl_buf *err)
{
    if (pl_check(r->game, r->m->state, seat, a, err) < 0)
        return -1;
    if (play_one(h, r, seat, a, 0, sender, now_ms, err) < 0)
        return -1;
    hub_room_advance(h, r, now_ms);
    return 0;
}

/* Draws the chance outcomes due in `r` (karuta: not while the judgement is
 * shown). 1 when it is done, 0 when it stopped (no memory: the room waits). */
static int draw_chance(hub *h, hub_room *r, int64_t now_ms)
{
    while (r->game->phase(r->m->state) == PL_PHASE_CHANCE) {
        if (r->kar && hubk_hold_chance(r, now_ms))
            break; /* karuta: the judgement is shown a while before the next reading */
        pl_buf err = {0}, t = {0};
        void *before = pl_malloc(r->game->state_size);
        pl_action a;
        pl_rng rng;
        if (!before) {
            pl_buf_free(&err);
            return 0;
        }
        pl_state_copy(r->game, before, r->m->state);
        pl_match_rng(r->m, 0, &rng);
        a = pl_draw_chance(r->game, r->m->state, &rng);
        int ok = hub_room_apply(r, PL_CHANCE, a, &err) == 0;
        if (ok) {
            r->game->format_action(before, PL_CHANCE, a, &t);
            hubb_queue_action(h, r, r->logged++, PL_CHANCE, pl_buf_str(&t), 0);
            r->stored = r->m->nhist;
            h->st.actions++;
        }
        pl_free(before);
        pl_buf_free(&t);
        pl_buf_free(&err);
        if (!ok)
            return 0;
    }
    return 1;
}

/* ---- takebacks --------------------------------------------------------- */

int hub_room_take_back(hub *h, hub_room *r, int n, int64_t now_ms)
{
    assert(n >= 0 && n < r->m->nhist);
    if (r->tb_hist)
        return -1; /* the last one is not durable yet (hub_req.c refuses before) */
    pl_move *keep = pl_malloc(sizeof *keep * (size_t)r->m->nhist);
    char text[24];
    snprintf(text, sizeof text, "%d", n);
    if (!keep || hubb_queue_action(h, r, r->logged, HUB_SEAT_TAKEBACK, text, 0) < 0) {
        pl_free(keep);
        return -1;
    }
    memcpy(keep, r->m->hist, sizeof *keep * (size_t)r->m->nhist);
    r->tb_hist = keep; /* what a failed write puts back (hub_store_done) */
    r->tb_nhist = r->m->nhist;
    r->tb_seq = r->logged++;
    hub_room_truncate(r, n);
    for (int s = 0; s < r->nseats; s++)
        r->seats[s].job_nhist = -1; /* a computer's thinking on the later position is dropped */
    for (int k = 0; k < r->nmembers; k++) {
        hub_conn *c = hub_conn_get(h, r->members[k]);
        if (c && c->hist_sent > n)
            c->hist_sent = n; /* its next state tells the history from here (history_from) */
    }
    hub_room_advance(h, r, now_ms);
    return 0;
}

void hub_takeback_end(hub *h, hub_room *r, int by, const char *result, int seat, int moves)
{
    r->tb_by = -1;
    r->tb_yes = 0;
    for (int i = 0; i < r->nmembers; i++)
        hub_send(h, r->members[i],
                 json_pack("{s:s, s:i, s:s, s:o, s:i}", "type", "takeback", "by", by, "result", result, "seat",
                           seat >= 0 ? json_integer(seat) : json_null(), "moves", moves));
}

/* ---- jobs -------------------------------------------------------------- */

hub_job *hub_job_take(hub *h)
{
    hub_jobp *j = h->jobs, *prev = NULL;
    while (j && j->kind == HUB_JOB_REVIEW && h->reviewing) { /* one review at a time: the others wait */
        prev = j;
        j = j->next;
    }
    if (!j)
        return NULL;
    if (prev)
        prev->next = j->next;
    else
        h->jobs = j->next;
    if (h->jobs_tail == j)
        h->jobs_tail = prev;
    j->next = NULL;
    if (j->kind == HUB_JOB_REVIEW)
        h->reviewing = 1;
    return &j->j;
}

void hub_job_run(hub_job *j)
{
    hub_jobp *jp = (hub_jobp *)j;
    if (jp->kind == HUB_JOB_HINT) {
        hubh_job_run(j, j->seed, jp->table);
        return;
    }
    if (j->review) {
        hubw_run(j->review);
        return;
    }
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
    hubw_free(j->review);
    pl_free(j);
}

void hub_job_done(hub *h, hub_job *job, int64_t now_ms)
{
    h->now = now_ms;
    hub_jobp *j = (hub_jobp *)job;
    if (j->kind == HUB_JOB_HINT) { /* answered to its asker; nothing is played */
        hubh_job_done(h, j);
        hub_job_free(job);
        return;
    }
    if (j->kind == HUB_JOB_REVIEW) {
        hubw_done(h, job->review);
        hub_job_free(job);
        return;
    }
    hub_room *r = hub_room_find(h, j->code);
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
